"""Learning pipelines (architecture.md, "Knowledge and learning"): generate games through the
arena's API, train the learners of ``search``, gate, and ship weights into ``games/<game>/``.

This floor sits on top, like ``bench/``: it may import every package of ours, and nothing
imports it except the CLI's entry points."""
