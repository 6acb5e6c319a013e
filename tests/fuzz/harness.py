"""What the fuzzers share: chunking a byte stream, and a server run against hostile peers on
loopback sockets."""

from __future__ import annotations

import socket
import struct
import threading
from collections.abc import Callable
from typing import Any, TypeVar

T = TypeVar("T")


def chunks(data: bytes, sizes: list[int]) -> list[bytes]:
    """``data`` cut into pieces of the given sizes, cycled."""
    out, i, k = [], 0, 0
    while i < len(data):
        n = sizes[k % len(sizes)]
        out.append(data[i:i + n])
        i += n
        k += 1
    return out


def end_like(s: socket.socket, behaviour: str, stop: threading.Event) -> None:
    """How a hostile peer leaves: ``...reset`` (RST), ``...close``, or else it reads what
    comes until the server lets go (or ``stop``)."""
    if behaviour.endswith("reset"):
        s.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))
        return
    if behaviour.endswith("close"):
        return
    s.settimeout(0.2)
    while not stop.is_set():
        try:
            if not s.recv(65536):
                return
        except TimeoutError:
            continue
        except OSError:
            return


def run_against(server: Callable[[], T], peers: list[Callable[[threading.Event], None]],
                close: Callable[[], None]) -> T:
    """Run ``server()`` in a thread against the ``peers`` (each a thread given a stop
    event); it must end by itself within 60 s and raise nothing. ``close`` releases its
    listening sockets afterwards."""
    box: dict[str, Any] = {}
    stop = threading.Event()

    def run() -> None:
        try:
            box["result"] = server()
        except BaseException as e:  # reported below
            box["error"] = e

    th = threading.Thread(target=run, daemon=True)
    th.start()
    threads = [threading.Thread(target=p, args=(stop,), daemon=True) for p in peers]
    for t in threads:
        t.start()
    th.join(60)
    stop.set()
    close()
    for t in threads:
        t.join(10)
    assert not th.is_alive(), "the server hung"
    assert "error" not in box, repr(box.get("error"))
    result: T = box["result"]
    return result
