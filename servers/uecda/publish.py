"""Live game events on a ZeroMQ PUB socket, for viewers and recorders.

Each message has two frames: the topic (``uecda.match``, ``uecda.game``, ``uecda.play``,
``uecda.result``, ``uecda.drop``, ``uecda.end``) and a JSON object (msgspec-encoded). Cards
and moves are in the server log's notation. Subscribe with a SUB socket to the prefix
``uecda.`` (or one topic).

The publisher binds its endpoint (``tcp://127.0.0.1:5556``; ``tcp://127.0.0.1:*`` picks a
port, see :attr:`Publisher.endpoint`). ZeroMQ drops what is published before a subscription
arrives; a recorder that must see the whole match has the server wait for it
(``--pub-wait``, :meth:`Publisher.wait_subscriber`).
"""

from __future__ import annotations

from typing import Any

import msgspec
import zmq


class Publisher:
    def __init__(self, endpoint: str) -> None:
        self.ctx: zmq.Context[zmq.Socket[bytes]] = zmq.Context.instance()
        self.sock = self.ctx.socket(zmq.XPUB)  # a PUB that also sees subscriptions
        self.sock.bind(endpoint)
        self.endpoint = self.sock.getsockopt_string(zmq.LAST_ENDPOINT)

    def wait_subscriber(self, timeout: float) -> bool:
        """Block until a subscriber has subscribed (or ``timeout`` seconds): messages sent
        before a subscription arrives are dropped by ZeroMQ."""
        if self.sock.poll(int(timeout * 1000), zmq.POLLIN):
            self.sock.recv()
            return True
        return False

    def __call__(self, topic: str, fields: dict[str, Any]) -> None:
        self.sock.send_multipart([f"uecda.{topic}".encode(), msgspec.json.encode(fields)])

    def close(self) -> None:
        self.sock.close(linger=2000)
