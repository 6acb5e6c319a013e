"""The mock ICFPT host run in a thread, for tests that play against it on loopback."""

from __future__ import annotations

import threading

from servers.blokus.host import Host, HostConfig


class HostThread:
    """The mock host run in a thread; ``join`` returns its results or raises its error."""

    def __init__(self, **kw: object) -> None:
        kw.setdefault("port", 0)
        kw.setdefault("connect_timeout", 20.0)
        self.host = Host(HostConfig(**kw))  # type: ignore[arg-type]
        self.port = self.host.ports[0]
        self.results: list = []  # type: ignore[type-arg]
        self.error: BaseException | None = None
        self.thread = threading.Thread(target=self._run, daemon=True)
        self.thread.start()

    def _run(self) -> None:
        try:
            self.results = self.host.run()
        except BaseException as e:  # raised again by join(), in the test's thread
            self.error = e
        finally:
            self.host.close()

    def join(self) -> list:  # type: ignore[type-arg]
        self.thread.join(60)
        assert not self.thread.is_alive()
        if self.error is not None:
            raise self.error
        return self.results
