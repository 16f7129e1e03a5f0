"""Python clients, timed in-process after a warm-up connect:

    python3 probe.py requests|urllib|socket|asyncio HOST WARMPORT PORT

prints one JSON line for tests/clients/harness.py. The time runs from the
call to the end of the client's connect step (http.client's and urllib3's
HTTPConnection.connect, which create the socket and connect it), success or
failure, so the request that follows is not counted.
"""

import asyncio
import http.client
import json
import platform
import socket
import sys
import time
import urllib.request

LIMIT_S = 60  # every client call is bounded


class ConnectClock:
    """Wraps a class's connect() to note when the connect step ended."""

    def __init__(self, cls: type) -> None:
        self.ended: float | None = None
        original = cls.connect

        def connect(conn, *args, **kwargs):  # type: ignore[no-untyped-def]
            try:
                return original(conn, *args, **kwargs)
            finally:
                self.ended = time.perf_counter()

        cls.connect = connect


def run_requests(host: str, port: int, extra: dict) -> None:
    import requests
    import urllib3.connection

    extra["requests"] = requests.__version__
    clock = getattr(run_requests, "clock", None) or ConnectClock(urllib3.connection.HTTPConnection)
    run_requests.clock = clock  # type: ignore[attr-defined]
    clock.ended = None
    try:
        # A fresh Session per call: no pooled connection to reuse.
        with requests.Session() as s:
            s.get(f"http://{host}:{port}/", timeout=LIMIT_S).close()
    finally:
        extra["_ended"] = clock.ended


def run_urllib(host: str, port: int, extra: dict) -> None:
    clock = getattr(run_urllib, "clock", None) or ConnectClock(http.client.HTTPConnection)
    run_urllib.clock = clock  # type: ignore[attr-defined]
    clock.ended = None
    try:
        with urllib.request.urlopen(f"http://{host}:{port}/", timeout=LIMIT_S) as r:
            r.read()
    finally:
        extra["_ended"] = clock.ended


def run_socket(host: str, port: int, extra: dict) -> None:
    s = socket.create_connection((host, port), timeout=LIMIT_S)
    extra["peer"] = s.getpeername()[0]
    s.close()


def run_asyncio(host: str, port: int, extra: dict) -> None:
    async def go() -> None:
        # Timed inside the loop: asyncio.run's set-up and tear-down (a new
        # loop, joining its resolver thread pool) are not the connect.
        started = time.perf_counter()
        try:
            # The delay RFC 8305 recommends and the asyncio docs suggest.
            _, w = await asyncio.wait_for(
                asyncio.open_connection(host, port, happy_eyeballs_delay=0.25), LIMIT_S
            )
        finally:
            extra["_ended"] = time.perf_counter()
            extra["_started"] = started
        extra["peer"] = w.get_extra_info("peername")[0]
        w.close()
        await w.wait_closed()

    asyncio.run(go())


def main() -> int:
    if len(sys.argv) != 5 or sys.argv[1] not in ("requests", "urllib", "socket", "asyncio"):
        print(__doc__, file=sys.stderr)
        return 2
    mode, host, warm, port = sys.argv[1], sys.argv[2], int(sys.argv[3]), int(sys.argv[4])
    run = globals()[f"run_{mode}"]
    try:
        run(host, warm, {})
    except Exception:  # the warm-up only loads code; its outcome does not matter
        pass
    extra: dict = {}
    start = time.perf_counter()
    error = None
    try:
        run(host, port, extra)
    except Exception as e:  # noqa: BLE001 - any failure is the client's answer
        error = f"{type(e).__name__}: {e}"
    end = time.perf_counter()
    ended = extra.pop("_ended", None)
    start = extra.pop("_started", start)
    # The connect step's own end where the client has one; the failure of
    # a connect ends the call, so the call's end stands in then.
    out = {
        "version": platform.python_version(),
        "connected": error is None,
        "ms": ((ended if ended is not None else end) - start) * 1000,
        "error": error,
        **extra,
    }
    print(json.dumps(out))
    return 0


if __name__ == "__main__":
    sys.exit(main())
