"""Load benchmark of the episode API: HTTP server under concurrent episodes, and in-process overhead.

1. Starts ``navworld serve`` in a subprocess on 127.0.0.1 (a free port) and drives it with
   ``--concurrency`` (default 32) concurrent episodes from this process (one keep-alive
   connection each, through a minimal HTTP/1.1 client so the driver stays cheap), each a
   reset, ``--tool-steps`` tool steps on the sandbox world and a final answer (scored). Prints
   steps/s, p50/p99 latency of ``POST /step`` (tool steps and final steps separately) and errors.
   Bounded by ``--episodes`` and ``--max-seconds``.
2. Measures the env's own overhead per step in-process (``Actor.step`` with the tool call
   replaced by an instant stub), and the same steps with the real sandbox tools for reference.

Targets: ≤ 1 ms/step in-process overhead; ≥ 300 steps/s over HTTP on 2 cores; zero errors.

    python benchmarks/http_load.py [--episodes 128] [--concurrency 32] [--tool-steps 8] [--max-seconds 60]
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import re
import shutil
import socket
import subprocess
import sys
import time
from typing import Any

import httpx2

LNGLAT = re.compile(r"(\d{2,3}\.\d{3,}),(\d{1,2}\.\d{3,})")
KEYWORDS = ("景点", "酒店", "美食", "博物馆", "公园", "商场", "咖啡", "夜市", "古镇", "寺")
ANSWER = ("## 行程方案\n" + "第1天：上午参观景点，中午品尝当地美食，下午入住酒店，晚上散步。\n" * 20).strip()


def _call(call_id: str, name: str, **arguments: Any) -> dict[str, Any]:
    return {"id": call_id, "type": "function", "function": {"name": name, "arguments": json.dumps(arguments, ensure_ascii=False)}}


def tool_plan(dest: str, step: int, coords: list[str]) -> list[dict[str, Any]]:
    """The tool calls of one scripted step (varied, valid, cheap to decide)."""
    cid = f"c{step}"
    if step == 1:
        return [_call(cid, "weather", city=dest)]
    if step == 3 and len(coords) >= 2:
        return [_call(cid, "direction", origin=coords[0], destination=coords[1], mode="transit")]
    if step == 5 and coords:
        return [_call(cid, "around_search", location=coords[0], radius=2000, keyword="餐厅", region=dest)]
    return [_call(cid, "poi_search", address=f"{dest}{KEYWORDS[step % len(KEYWORDS)]}", region=dest)]


def percentile(values: list[float], q: float) -> float:
    """The q-quantile (0–1) by nearest rank (0.0 for no values)."""
    if not values:
        return 0.0
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, max(0, round(q * (len(ordered) - 1))))]


# ----------------------------------------------------------------------------------------- HTTP


def free_port() -> int:
    """A currently free TCP port on 127.0.0.1."""
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def start_server(port: int, salt: str) -> subprocess.Popen[bytes]:
    """``navworld serve`` in a subprocess (the console script, else the module entry point)."""
    exe = shutil.which("navworld")
    cmd = [exe] if exe else [sys.executable, "-c", "from navworld.cli import main; main()"]
    cmd += ["serve", "--host", "127.0.0.1", "--port", str(port), "--salt", salt, "--max-episodes", "4096",
            "--log-level", "warning"]  # fmt: skip
    return subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)


async def wait_healthy(client: httpx2.AsyncClient, proc: subprocess.Popen[bytes], timeout: float = 60.0) -> None:
    """Poll ``/health`` until the server answers."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if proc.poll() is not None:
            raise RuntimeError(f"server exited: {(proc.stderr.read() if proc.stderr else b'').decode()[-2000:]}")
        try:
            if (await client.get("/health")).status_code == 200:
                return
        except httpx2.TransportError:
            pass
        await asyncio.sleep(0.1)
    raise RuntimeError("server did not become healthy")


def cpu_seconds(pid: int) -> float:
    """User + system CPU seconds of a process (Linux ``/proc``; 0.0 elsewhere)."""
    try:
        with open(f"/proc/{pid}/stat") as fh:
            fields = fh.read().rsplit(")", 1)[1].split()
        return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")
    except (OSError, IndexError, ValueError):
        return 0.0


class RawConnection:
    """A minimal keep-alive HTTP/1.1 JSON client on asyncio streams.

    The load driver shares the machine with the server, so it must be cheap: this costs a
    fraction of a full HTTP client per request, leaving the CPU to the server being measured.
    """

    def __init__(self, host: str, port: int) -> None:
        self.host, self.port = host, port
        self.reader: asyncio.StreamReader | None = None
        self.writer: asyncio.StreamWriter | None = None

    async def post(self, path: str, body: Any) -> tuple[int, Any, str]:
        """POST JSON; return (status, parsed JSON or None, raw text)."""
        if self.writer is None or self.writer.is_closing():
            self.reader, self.writer = await asyncio.open_connection(self.host, self.port)
        assert self.reader is not None
        payload = json.dumps(body, ensure_ascii=False).encode()
        head = (
            f"POST {path} HTTP/1.1\r\nHost: {self.host}:{self.port}\r\nContent-Type: application/json\r\n"
            f"Content-Length: {len(payload)}\r\n\r\n"
        ).encode()
        self.writer.write(head + payload)
        raw_head = await self.reader.readuntil(b"\r\n\r\n")
        lines = raw_head.decode("latin-1").split("\r\n")
        status = int(lines[0].split()[1])
        length = 0
        for line in lines[1:]:
            name, _, value = line.partition(":")
            if name.lower() == "content-length":
                length = int(value.strip())
        text = (await self.reader.readexactly(length)).decode()
        try:
            return status, json.loads(text), text
        except ValueError:
            return status, None, text

    async def close(self) -> None:
        """Close the connection."""
        if self.writer is not None:
            self.writer.close()


class Stats:
    """Latencies and errors collected by the load driver."""

    def __init__(self) -> None:
        self.tool_latency: list[float] = []
        self.final_latency: list[float] = []
        self.reset_latency: list[float] = []
        self.errors: list[str] = []
        self.episodes = 0


async def play_episode(conn: RawConnection, task_id: int, tool_steps: int, stats: Stats) -> None:
    """reset → tool steps → final answer, recording latencies; failures go to ``stats.errors``."""
    t0 = time.perf_counter()
    status, opened, text = await conn.post("/reset", {"task_id": task_id})
    stats.reset_latency.append(time.perf_counter() - t0)
    if status != 200:
        stats.errors.append(f"reset {status}: {text[:200]}")
        return
    eid = opened["episode_id"]
    dest = opened["info"]["problem"]["destination_city"]
    coords: list[str] = []
    for step in range(1, tool_steps + 1):
        body = {"episode_id": eid, "action": "", "tool_calls": tool_plan(dest, step, coords)}
        t0 = time.perf_counter()
        status, result, text = await conn.post("/step", body)
        stats.tool_latency.append(time.perf_counter() - t0)
        if status != 200:
            stats.errors.append(f"step {status}: {text[:200]}")
            return
        for msg in result["observation"]:
            coords += [f"{a},{b}" for a, b in LNGLAT.findall(str(msg.get("content", "")))][:4]
    t0 = time.perf_counter()
    status, result, text = await conn.post("/step", {"episode_id": eid, "action": ANSWER})
    stats.final_latency.append(time.perf_counter() - t0)
    if status != 200 or not result.get("done"):
        stats.errors.append(f"final {status}: {text[:200]}")
        return
    stats.episodes += 1


async def http_load(ns: argparse.Namespace) -> dict[str, Any]:
    """Run the HTTP part and return its figures."""
    port = free_port()
    proc = start_server(port, ns.salt)
    stats = Stats()
    conns = [RawConnection("127.0.0.1", port) for _ in range(ns.concurrency)]
    try:
        async with httpx2.AsyncClient(base_url=f"http://127.0.0.1:{port}", timeout=60) as client:
            await wait_healthy(client, proc)
            # Warm-up: the first use of a destination city builds its POIs on the server.
            warm = Stats()
            tasks = list(range(min(ns.episodes, ns.task_range)))
            for start in range(0, len(tasks), ns.concurrency):
                chunk = tasks[start : start + ns.concurrency]
                await asyncio.gather(*(play_episode(conns[i], t, 1, warm) for i, t in enumerate(chunk)))
            queue: asyncio.Queue[int] = asyncio.Queue()
            for i in range(ns.episodes):
                queue.put_nowait(i % ns.task_range)
            deadline = time.monotonic() + ns.max_seconds

            async def worker(conn: RawConnection) -> None:
                while time.monotonic() < deadline:
                    try:
                        task_id = queue.get_nowait()
                    except asyncio.QueueEmpty:
                        return
                    try:
                        await play_episode(conn, task_id, ns.tool_steps, stats)
                    except Exception as exc:  # counted, never fatal
                        stats.errors.append(f"{type(exc).__name__}: {exc}")
                        await conn.close()
                        conn.writer = None

            started = time.perf_counter()
            server_cpu0, client_cpu0 = cpu_seconds(proc.pid), time.process_time()
            await asyncio.gather(*(worker(conn) for conn in conns))
            wall = time.perf_counter() - started
            server_cpu = cpu_seconds(proc.pid) - server_cpu0
            client_cpu = time.process_time() - client_cpu0
            live = (await client.get("/health")).json()["live_episodes"]
            for conn in conns:
                await conn.close()
    finally:
        proc.terminate()
        try:
            proc.wait(10)
        except subprocess.TimeoutExpired:
            proc.kill()
    steps = len(stats.tool_latency) + len(stats.final_latency)
    everything = stats.tool_latency + stats.final_latency
    return {
        "episodes": stats.episodes,
        "steps": steps,
        "seconds": wall,
        "steps_per_s": steps / wall if wall else 0.0,
        "requests_per_s": (steps + len(stats.reset_latency)) / wall if wall else 0.0,
        "p50_ms": percentile(everything, 0.5) * 1000,
        "p99_ms": percentile(everything, 0.99) * 1000,
        "tool_p50_ms": percentile(stats.tool_latency, 0.5) * 1000,
        "tool_p99_ms": percentile(stats.tool_latency, 0.99) * 1000,
        "final_p50_ms": percentile(stats.final_latency, 0.5) * 1000,
        "final_p99_ms": percentile(stats.final_latency, 0.99) * 1000,
        "errors": stats.errors,
        "live_after": live,
        "server_cpu_ms_per_step": server_cpu / steps * 1000 if steps else 0.0,
        "client_cpu_ms_per_step": client_cpu / steps * 1000 if steps else 0.0,
    }


# ------------------------------------------------------------------------------------ in-process


async def in_process(steps: int, salt: str) -> dict[str, float]:
    """Per-step cost of ``Actor.step`` with an instant tool stub, and with the real tools."""
    from navworld.agents import executor as executor_mod
    from navworld.core.models import ToolResult
    from navworld.env.actor import Actor

    actor = Actor(salt=salt, max_episodes=64)
    dest = actor.problem(1).destination_city

    async def run(n: int) -> float:
        coords: list[str] = []
        elapsed = 0.0
        done = 0
        while done < n:
            eid = (await actor.reset(1))["episode_id"]
            for step in range(1, 16):
                calls = tool_plan(dest, step, coords)
                t0 = time.perf_counter()
                result = await actor.step("", eid, calls)
                elapsed += time.perf_counter() - t0
                done += 1
                for msg in result["observation"]:
                    coords += [f"{a},{b}" for a, b in LNGLAT.findall(str(msg.get("content", "")))][:4]
                if done >= n:
                    break
            actor.close_episode(eid)
        return elapsed / n

    await run(50)  # warm-up (POIs, caches)
    real = await run(steps)
    canned = ToolResult(ok=True, text="结果 " * 200, data={"pois": [{"name": "x"}] * 5})
    original = executor_mod.safe_call_tool

    async def instant(*args: Any, **kwargs: Any) -> ToolResult:
        return canned

    executor_mod.safe_call_tool = instant  # type: ignore[assignment]
    try:
        await run(50)
        overhead = await run(steps)
    finally:
        executor_mod.safe_call_tool = original  # type: ignore[assignment]
    return {"overhead_ms": overhead * 1000, "with_tools_ms": real * 1000, "live_after": float(len(actor.store))}


def main(argv: list[str] | None = None) -> int:
    """Run both parts and print the figures; exit 1 when errors occurred."""
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--episodes", type=int, default=128, help="episodes to play over HTTP")
    ap.add_argument("--concurrency", type=int, default=32, help="concurrent episodes")
    ap.add_argument("--tool-steps", type=int, default=8, help="tool steps per episode (≤ 15)")
    ap.add_argument("--task-range", type=int, default=70, help="task ids are drawn from 0..N-1")
    ap.add_argument("--max-seconds", type=float, default=60.0, help="stop starting episodes after this")
    ap.add_argument("--inproc-steps", type=int, default=2000, help="steps for the in-process measurement")
    ap.add_argument("--salt", default="bench", help="salt of the world")
    ap.add_argument("--skip-http", action="store_true", help="only the in-process measurement")
    ns = ap.parse_args(argv)
    ns.tool_steps = max(1, min(15, ns.tool_steps))
    print(f"load average {os.getloadavg()[0]:.1f} on {os.cpu_count()} CPUs")

    inproc = asyncio.run(in_process(ns.inproc_steps, ns.salt))
    print(f"in-process env overhead per step: {inproc['overhead_ms']:.3f} ms (target ≤ 1 ms); "
          f"with sandbox tools: {inproc['with_tools_ms']:.3f} ms")  # fmt: skip
    if ns.skip_http:
        return 0

    fig = asyncio.run(http_load(ns))
    print(f"HTTP: {fig['episodes']} episodes, {fig['steps']} steps in {fig['seconds']:.2f} s "
          f"with {ns.concurrency} concurrent episodes")  # fmt: skip
    print(f"  steps/s {fig['steps_per_s']:.0f} (target ≥ 300; all requests incl. reset {fig['requests_per_s']:.0f}/s)")
    print(f"  latency p50 {fig['p50_ms']:.1f} ms, p99 {fig['p99_ms']:.1f} ms "
          f"(tool steps p50 {fig['tool_p50_ms']:.1f} / p99 {fig['tool_p99_ms']:.1f} ms; "
          f"final scored steps p50 {fig['final_p50_ms']:.1f} / p99 {fig['final_p99_ms']:.1f} ms)")  # fmt: skip
    per_step = fig["server_cpu_ms_per_step"]
    print(f"  CPU per step: server {per_step:.2f} ms, load driver {fig['client_cpu_ms_per_step']:.2f} ms "
          f"(server-bound capacity ≈ {1000 / per_step if per_step else 0:.0f} steps/s per core)")  # fmt: skip
    print(f"  errors {len(fig['errors'])}; live episodes after the run {fig['live_after']}")
    for err in fig["errors"][:5]:
        print(f"    {err}")
    if fig["errors"]:
        return 1
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
