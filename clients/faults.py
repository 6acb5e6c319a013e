"""What a client says when the other side breaks the game.

A tournament client meets servers, hosts and controllers it does not control. When one closes
the game early, sends what its protocol does not allow, or goes silent past the configured
time, the client raises :class:`ServerFault` with a message a person can act on; the CLI
logs it, prints it on one line (no traceback: it is not our bug) and exits with status 1.
"""

from __future__ import annotations


class ServerFault(Exception):
    """The server (host, controller) broke the game; the message says how."""
