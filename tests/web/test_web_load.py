"""The server under load, on loopback: cheap requests are never starved by expensive ones,
abandoned work stops, slow connections cannot block a real request.

Each test starts a real ``uvicorn`` server (``sudokit.web.serving``, what ``sudokit serve``
runs) in a subprocess on 127.0.0.1 and drives it from threads; every loop is bounded.
Latency bounds: the target is answers "under 1 s", asserted for the median, with at
most 3 s for any single probe. On a loaded machine (other test runs, coverage) every answer is
slower, so each test first takes the same requests without the expensive work, on the same
server (a baseline), and allows :data:`FACTOR` times the baseline where that is more than the
issue's bounds (:func:`check_latencies`): starvation (cheap requests waiting behind expensive
ones, seconds to minutes) still fails, a busy machine alone does not.
"""

from __future__ import annotations

import contextlib
import random
import socket
import statistics
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path

import pytest

import sudokit
from support import LONG_GENERATION

pytest.importorskip("fastapi")
pytest.importorskip("uvicorn")
httpx = pytest.importorskip("httpx")
psutil = pytest.importorskip("psutil")

EASY = str(sudokit.generate(size=9, seed=11, difficulty=None).puzzle)
MEDIAN_S = 1.0
WORST_S = 3.0  # the stated margin for one probe on a loaded 2-core machine
#: How many times slower than the same requests without the expensive work (measured in the
#: same test) cheap requests may be under it, where that is more than the target bounds.
FACTOR = 3.0
#: A request that the idle sockets blocked would wait for their head deadline (10 s): half of it
#: is the bound for the one real request among them (3 s failed at load ~7 beside another
#: xdist worker).
BLOCKED_S = 5.0


def big_count_body(seed: int) -> dict[str, object]:
    """A 25x25 count that runs for seconds: a solution with 55% of its cells blanked."""
    full = sudokit.solve("." * 625).solution
    assert full is not None
    cells = bytearray(full.cells)
    for i in random.Random(seed).sample(range(625), 344):
        cells[i] = 0
    line = sudokit.Grid(bytes(cells), full.shape)
    return {"puzzle": str(line), "limit": 10_000, "budget": 1_000_000}


@dataclass
class Server:
    url: str
    process: subprocess.Popen[bytes]
    log: Path

    def cpu_seconds(self) -> float:
        """CPU time of the server and every process under it so far."""
        total = 0.0
        try:
            root = psutil.Process(self.process.pid)
            procs = [root, *root.children(recursive=True)]
        except psutil.NoSuchProcess:
            return total
        for p in procs:
            with contextlib.suppress(psutil.NoSuchProcess, psutil.AccessDenied):
                t = p.cpu_times()
                total += t.user + t.system
        return total

    def idle_after(self, seconds: float, window: float = 0.5) -> float:
        """Seconds until the process tree uses under 10% of a core over *window*; fails
        after *seconds*."""
        start = time.monotonic()
        while True:
            before = self.cpu_seconds()
            time.sleep(window)
            if self.cpu_seconds() - before < 0.1 * window:
                return time.monotonic() - start
            if time.monotonic() - start > seconds:
                pytest.fail(f"the server was still busy {seconds} s after the last answer")


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


SCRIPT = """
import sys
from sudokit.web.models import Limits
from sudokit.web.serving import serve
serve("127.0.0.1", int(sys.argv[1]), limits=Limits(timeout=float(sys.argv[2])))
"""


@contextlib.contextmanager
def running_server(tmp_path: Path, timeout: float = 6.0) -> Iterator[Server]:
    port = free_port()
    log = tmp_path / "server.log"
    with log.open("wb") as out:
        process = subprocess.Popen(
            [sys.executable, "-c", SCRIPT, str(port), str(timeout)],
            stdout=out,
            stderr=subprocess.STDOUT,
        )
    server = Server(f"http://127.0.0.1:{port}", process, log)
    try:
        deadline = time.monotonic() + 30
        while True:
            assert process.poll() is None, log.read_text()
            with contextlib.suppress(httpx.HTTPError):
                if httpx.get(f"{server.url}/api/info", timeout=1).status_code == 200:
                    break
            assert time.monotonic() < deadline, "the server did not start"
            time.sleep(0.1)
        yield server
    finally:
        process.terminate()
        try:
            process.wait(10)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait(5)


def check_latencies(times: list[float], baseline: list[float]) -> None:
    """The median of *times* under :data:`MEDIAN_S` and each under :data:`WORST_S`, or under
    :data:`FACTOR` times the *baseline*'s median and worst (the same requests without the
    expensive work, on the same server, in the same test) where those are larger."""
    median = max(MEDIAN_S, FACTOR * statistics.median(baseline))
    worst = max(WORST_S, FACTOR * max(baseline))
    context = {"median": median, "worst": worst, "slowest": sorted(times)[-5:]}
    assert statistics.median(times) < median, context
    assert max(times) < worst, context


class Probe:
    """Solves an easy 9x9 every 0.1 s on its own connection until stopped; records latencies."""

    def __init__(self, url: str) -> None:
        self.url = url
        self.times: list[float] = []
        self.failures: list[str] = []
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, daemon=True)

    def _run(self) -> None:
        with httpx.Client(timeout=30) as http:
            while not self._stop.is_set():
                start = time.perf_counter()
                r = http.post(f"{self.url}/api/solve", json={"puzzle": EASY})
                self.times.append(time.perf_counter() - start)
                if r.status_code != 200 or r.json()["status"] != "unique":
                    self.failures.append(f"{r.status_code} {r.text[:100]}")
                self._stop.wait(0.1)

    def __enter__(self) -> Probe:
        self._thread.start()
        return self

    def __exit__(self, *_: object) -> None:
        self._stop.set()
        self._thread.join(60)

    def check(self, baseline: list[float]) -> None:
        assert not self.failures, self.failures[:3]
        assert len(self.times) >= 5, self.times
        check_latencies(self.times, baseline)


def idle_probe(
    url: str, requests: list[tuple[str, dict[str, object]]] | None = None
) -> list[float]:
    """The probe's latencies on the server at *url* for about a second, or while *requests*
    (the cheap part of a test's load) are posted at once: a test's baseline."""
    with Probe(url) as probe:
        if requests:
            post_all(url, requests, len(requests))
        while len(probe.times) < 10:
            time.sleep(0.1)
    assert not probe.failures, probe.failures[:3]
    return probe.times


def post_all(url: str, requests: list[tuple[str, dict[str, object]]], threads: int) -> list[int]:
    """POST every request at once (one connection each); their status codes, in order."""
    limits = httpx.Limits(max_connections=threads, max_keepalive_connections=0)
    with httpx.Client(timeout=60, limits=limits) as http, ThreadPoolExecutor(threads) as pool:

        def one(item: tuple[str, dict[str, object]]) -> int:
            return http.post(f"{url}{item[0]}", json=item[1]).status_code

        return list(pool.map(one, requests))


@pytest.mark.slow
def test_sixty_big_counts_do_not_slow_an_easy_solve(tmp_path: Path) -> None:
    """Old code: 60 concurrent 25x25 counts made an easy 9x9 solve answer 422 after 20 s."""
    with running_server(tmp_path) as server:
        baseline = idle_probe(server.url)
        counts = [("/api/count", big_count_body(k)) for k in range(60)]
        with Probe(server.url) as probe:
            codes = post_all(server.url, counts, 60)
        probe.check(baseline)
        assert set(codes) <= {200, 503, 504}, codes
        assert 503 in codes  # the long lane's queue is bounded
        server.idle_after(2.0)


@pytest.mark.slow
def test_burst_of_mixed_requests(tmp_path: Path) -> None:
    """200 mixed requests (expensive ones included): the probe stays fast throughout, and the
    server's CPU is idle within 2 s of the last answer (old code: busy 147 s more)."""
    expensive = [
        ("/api/generate", {"difficulty": "easy", "jigsaw": True, "diagonals": True}),
        ("/api/generate", {"difficulty": "expert"}),
        ("/api/count", big_count_body(1)),
        ("/api/explain", {"puzzle": str(sudokit.generate(size=16, seed=4).puzzle)}),
        ("/api/generate", {"size": 16, "n": 5}),
    ]
    cheap = [
        ("/api/solve", {"puzzle": EASY}),
        ("/api/hint", {"puzzle": EASY}),
        ("/api/check", {"puzzle": EASY}),
    ]
    mix = [expensive[k % 5] if k % 2 else cheap[k % 3] for k in range(200)]
    with running_server(tmp_path) as server:
        baseline = idle_probe(server.url, [r for r in mix if r in cheap])
        with Probe(server.url) as probe:
            codes = post_all(server.url, mix, 100)
        probe.check(baseline)
        assert set(codes) <= {200, 422, 503, 504}, codes
        cheap_codes = [c for (path, _), c in zip(mix, codes, strict=True) if (path, _) in cheap]
        assert all(c == 200 for c in cheap_codes), cheap_codes
        server.idle_after(2.0)


@pytest.mark.slow
def test_hints_and_solves_while_expert_generates_run(tmp_path: Path) -> None:
    """100 concurrent hint/solve requests while 10 expert generates run: each answered fast."""
    puzzles = [str(sudokit.generate(size=9, seed=s).puzzle) for s in range(10)]
    with running_server(tmp_path, timeout=20.0) as server:
        codes, baseline = cheap_burst(server.url, puzzles)  # the same, without the generates
        assert codes == [200] * 100, codes
        generates = [("/api/generate", {"difficulty": "expert"})] * 10
        with ThreadPoolExecutor(1) as background:
            running = background.submit(post_all, server.url, generates, 10)
            time.sleep(0.5)  # the generates are running
            codes, times = cheap_burst(server.url, puzzles)
            assert set(running.result()) <= {200, 503, 504}
        assert codes == [200] * 100, codes
        check_latencies(times, baseline)


def cheap_burst(url: str, puzzles: list[str]) -> tuple[list[int], list[float]]:
    """100 hint and solve requests at once: their status codes (in order) and latencies."""
    times: list[float] = []
    limits = httpx.Limits(max_connections=100, max_keepalive_connections=0)
    with httpx.Client(timeout=30, limits=limits) as http, ThreadPoolExecutor(100) as pool:

        def one(k: int) -> int:
            path = "/api/hint" if k % 2 else "/api/solve"
            start = time.perf_counter()
            r = http.post(f"{url}{path}", json={"puzzle": puzzles[k % 10]})
            times.append(time.perf_counter() - start)
            return r.status_code

        return list(pool.map(one, range(100))), times


def _raise_fd_limit(need: int) -> None:
    resource = pytest.importorskip("resource")
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if soft != resource.RLIM_INFINITY and soft < need:
        if hard != resource.RLIM_INFINITY and hard < need:
            pytest.skip(f"needs {need} open files, the hard limit is {hard}")
        resource.setrlimit(resource.RLIMIT_NOFILE, (need, hard))


@pytest.mark.slow
def test_slow_connections_do_not_block_a_real_request(tmp_path: Path) -> None:
    """5,000 sockets that send nothing or one byte: a real request is still answered, they
    are closed by the head deadline, and the log stays small (old code: fds exhausted, 199 MB
    of log in a minute)."""
    _raise_fd_limit(12_000)
    with running_server(tmp_path) as server:
        baseline = idle_probe(server.url)
        port = int(server.url.rsplit(":", 1)[1])
        socks: list[socket.socket] = []
        try:
            for k in range(5000):
                s = socket.socket()
                s.setblocking(True)
                s.settimeout(5)
                s.connect(("127.0.0.1", port))
                if k % 2:
                    s.send(b"G")
                socks.append(s)
            start = time.perf_counter()
            r = httpx.post(f"{server.url}/api/solve", json={"puzzle": EASY}, timeout=10)
            assert r.status_code == 200
            assert time.perf_counter() - start < max(BLOCKED_S, FACTOR * max(baseline))
            for s in socks[1::2][:200]:  # one more byte a while later: still not a request
                with contextlib.suppress(OSError):
                    s.send(b"E")
            # The head deadline (10 s) closes them all: reads see end-of-file.
            deadline = time.monotonic() + 20
            closed = 0
            for s in socks[:50]:
                s.settimeout(max(0.1, deadline - time.monotonic()))
                with contextlib.suppress(OSError):
                    if s.recv(1) == b"":
                        closed += 1
            assert closed == 50
        finally:
            for s in socks:
                s.close()
        r = httpx.post(f"{server.url}/api/solve", json={"puzzle": EASY}, timeout=10)
        assert r.status_code == 200
    assert server.log.stat().st_size < 100_000, server.log.read_text()[-2000:]


@pytest.mark.slow
def test_abandoned_work_stops(tmp_path: Path) -> None:
    """A client that gives up on a long request: its worker is stopped at once (old code:
    the work ran on, 193 s of CPU after a 20 s answer), and the lane keeps working."""
    with running_server(tmp_path, timeout=20.0) as server:
        warm = httpx.post(f"{server.url}/api/generate", json={"size": 4, "seed": 1}, timeout=30)
        assert warm.status_code == 200  # the workers are up
        before = psutil.Process(server.process.pid).children(recursive=True)
        with pytest.raises(httpx.ReadTimeout):
            httpx.post(f"{server.url}/api/generate", json=LONG_GENERATION, timeout=1.0)
        server.idle_after(2.0)
        after = psutil.Process(server.process.pid).children(recursive=True)
        assert {p.pid for p in before} != {p.pid for p in after}  # a worker was replaced
        r = httpx.post(f"{server.url}/api/generate", json={"size": 4, "seed": 1}, timeout=20)
        assert r.status_code == 200
    assert "Traceback" not in server.log.read_text()
