"""Daihinmin learning pipeline (``corvid learn daihinmin``): stages with files between them.

* :mod:`.generate` — matches through the arena's API (``servers.arena.uecda``), one tndhms
  game log per chunk; resumable.
* :mod:`.dataset` — decisions from game logs: every candidate move's features and the move
  played.
* :mod:`.imitate` — the softmax policy fitted to the decisions (maximum likelihood).
* :mod:`.balance` — simulation balancing of that policy (``search.learn``).
* :mod:`.cli` — the commands; the weights ship in ``knowledge/daihinmin/data/`` with a manifest.
"""
