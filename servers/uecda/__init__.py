"""A mock UECda server, wire- and rule-compatible with the official ``tndhms``.

* :mod:`.config`: :class:`ServerConfig`.
* :mod:`.net`: the TCP listener and one :class:`RemoteClient` per connection.
* :mod:`.match`: :func:`run_match`, the game loop over five seats (remote or stand-in).
* :mod:`.standin`: the built-in rule-based player that takes over a misbehaving client's seat.
* :mod:`.cli`: ``corvid serve uecda``.
"""
