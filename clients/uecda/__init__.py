"""The UECda (Daihinmin) tournament client: ``corvid uecda``.

* :mod:`.config`: :class:`ClientConfig` (core, playouts, seconds, alpha, seed...).
* :mod:`.tracker`: follows a game from the wire events and keeps a consistent state.
* :mod:`.baseline`: the rule-based player in the spirit of the official sample client.
* :mod:`.decide`: the decision makers (flat MC, UCT, baseline) with the fallback.
* :mod:`.agent`: the event loop between the codec and a transport.
* :mod:`.cli`: the ``corvid uecda`` command and ``corvid uecda replay``.
"""
