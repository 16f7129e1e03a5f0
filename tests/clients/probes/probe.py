"""Python clients, timed in-process after a warm-up connect:

    python3 probe.py MODE HOST WARMPORT PORT

MODE: requests, urllib, socket, asyncio (happy_eyeballs_delay=0.25),
asyncio-default (no delay), httpx (sync), httpx-async (httpx.AsyncClient on
anyio), aiohttp.

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


def run_asyncio_default(host: str, port: int, extra: dict) -> None:
    async def go() -> None:
        started = time.perf_counter()
        try:
            # No happy_eyeballs_delay: loop.create_connection's default.
            _, w = await asyncio.wait_for(asyncio.open_connection(host, port), LIMIT_S)
        finally:
            extra["_ended"] = time.perf_counter()
            extra["_started"] = started
        extra["peer"] = w.get_extra_info("peername")[0]
        w.close()
        await w.wait_closed()

    asyncio.run(go())


def run_httpx(host: str, port: int, extra: dict) -> None:
    """httpx.Client: httpcore's sync backend connects with
    socket.create_connection, timed from its call to its end (the client's
    set-up, an SSL context among it, left out)."""
    import httpx

    extra["httpx"] = httpx.__version__
    original = socket.create_connection

    def timed(*args, **kwargs):  # type: ignore[no-untyped-def]
        extra["_started"] = time.perf_counter()
        try:
            return original(*args, **kwargs)
        finally:
            extra["_ended"] = time.perf_counter()

    socket.create_connection = timed
    try:
        with httpx.Client(timeout=LIMIT_S) as c:
            c.get(f"http://{host}:{port}/")
    finally:
        socket.create_connection = original


def run_httpx_async(host: str, port: int, extra: dict) -> None:
    """httpx.AsyncClient: httpcore's anyio backend calls anyio.connect_tcp,
    timed from its call to its return (httpx's own set-up left out)."""
    import anyio
    import httpx

    extra["httpx"] = httpx.__version__
    extra["anyio"] = getattr(anyio, "__version__", None) or _dist_version("anyio")
    original = anyio.connect_tcp

    async def timed(*args, **kwargs):  # type: ignore[no-untyped-def]
        extra["_started"] = time.perf_counter()
        try:
            return await original(*args, **kwargs)
        finally:
            extra["_ended"] = time.perf_counter()

    async def go() -> None:
        async with httpx.AsyncClient(timeout=LIMIT_S) as c:
            await c.get(f"http://{host}:{port}/")

    anyio.connect_tcp = timed
    try:
        asyncio.run(go())
    finally:
        anyio.connect_tcp = original


def run_aiohttp(host: str, port: int, extra: dict) -> None:
    """aiohttp.ClientSession, timed around TCPConnector._create_connection
    (its resolve and connect; the pool's bookkeeping left out). The row is
    chosen by aiohttp's version, so that is the version reported."""
    import aiohttp

    extra["version"] = aiohttp.__version__
    extra["python"] = platform.python_version()
    cls = aiohttp.TCPConnector
    original = cls._create_connection

    async def timed(self, *args, **kwargs):  # type: ignore[no-untyped-def]
        extra["_started"] = time.perf_counter()
        try:
            return await original(self, *args, **kwargs)
        finally:
            extra["_ended"] = time.perf_counter()

    async def go() -> None:
        timeout = aiohttp.ClientTimeout(total=LIMIT_S)
        async with aiohttp.ClientSession(timeout=timeout) as s:
            async with s.get(f"http://{host}:{port}/") as r:
                await r.read()

    cls._create_connection = timed
    try:
        asyncio.run(go())
    finally:
        cls._create_connection = original


def _dist_version(name: str) -> str | None:
    try:
        from importlib.metadata import version

        return version(name)
    except Exception:  # noqa: BLE001 - only for the record
        return None


MODES = ("requests", "urllib", "socket", "asyncio", "asyncio-default", "httpx", "httpx-async",
         "aiohttp")


def main() -> int:
    if len(sys.argv) != 5 or sys.argv[1] not in MODES:
        print(__doc__, file=sys.stderr)
        return 2
    mode, host, warm, port = sys.argv[1], sys.argv[2], int(sys.argv[3]), int(sys.argv[4])
    # A library that is not installed is the harness's skip, said here
    # rather than by a second interpreter start.
    module = {"requests": "requests", "httpx": "httpx", "httpx-async": "httpx",
              "aiohttp": "aiohttp"}.get(mode)
    if module:
        try:
            __import__(module)
        except ImportError:
            print(json.dumps({"unavailable": f"python3 has no {module} module"}))
            return 0
    run = globals()[f"run_{mode.replace('-', '_')}"]
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
        "version": extra.pop("version", platform.python_version()),
        "connected": error is None,
        "ms": ((ended if ended is not None else end) - start) * 1000,
        "error": error,
        **extra,
    }
    print(json.dumps(out))
    return 0


if __name__ == "__main__":
    sys.exit(main())
