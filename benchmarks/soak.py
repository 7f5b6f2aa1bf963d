"""Soak test of ``navworld serve`` (and ``navworld mcp --transport http``) under hostile traffic.

Starts both servers as subprocesses on 127.0.0.1 (free ports; nothing else is contacted) and
plays ``--episodes`` (default 10,000) normal episodes through HTTP with ``--concurrency``
(default 32) clients — reset, ``--tool-steps`` tool steps on the sandbox world, a scored final
answer — while about ``--hostile`` (default 10 %) of all requests are attacks, one kind per row
of issue 14's table:

| kind | row | what is sent | expected |
|---|---|---|---|
| ``deep_args`` | 1 | a tool call whose ``arguments`` are 1,500 nested ``[`` (then a final answer) | 200, a tool error, the episode goes on |
| ``deep_body`` | 2 | a 100,000-deep JSON body to ``/v1/chat/completions`` or ``/step`` | 400 JSON |
| ``big_body`` | 3 | a 10 MB ``Content-Length`` (the body is never sent) | 413 at once |
| ``long_args`` | 3 | a step with 30,000-character arguments | 413, the episode unchanged |
| ``hostile_plan`` | 4, 5 | a final answer whose plan holds 2**61 − 1 multiples and 100,000 repeated characters (the scorer's DSL runs on it) | 200, scored |
| ``hoard_reset`` | 6 | ``/reset`` from one client that never steps | 200 up to its share, then 429 |
| ``mcp_hoard`` | 7 | MCP ``initialize`` from one client that never closes | 200 up to its share, then 429 |
| ``odd_chars`` | 8 | a tool call named with emoji and invisible characters | 200, the error quotes them |

(rows 4–5 are constraint programs, which no HTTP request can send: ``hostile_plan`` feeds the
same hostile values to the task's own programs; the programs themselves are measured by
``tests/dsl/test_dsl_resources.py``). A well-behaved MCP client also calls a tool now and then
(``mcp_client``). Prints throughput, p50/p99 latency, responses by class (unexpected ones are
errors), the load average, the CPU of server and driver, and the RSS of both servers at the
start (after warm-up), the middle and the end; at the end it waits for the idle episodes and
sessions to expire and checks that the episode store is empty. Stops by itself (``--episodes``,
``--max-seconds``). Exit status 1 on any 5xx, transport error, unexpected status or leak.

    python benchmarks/soak.py [--episodes 10000] [--concurrency 32] [--hostile 0.1] [--max-seconds 1800]
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import shutil
import subprocess
import sys
import time
from collections import Counter
from pathlib import Path
from typing import Any

import httpx2

sys.path.insert(0, str(Path(__file__).resolve().parent))
from http_load import ANSWER, LNGLAT, cpu_seconds, free_port, percentile, tool_plan, wait_healthy

DEEP_ARGS = "[" * 1500 + "]" * 1500
DEEP_BODY = ("[" * 100_000 + "]" * 100_000).encode()
ODD_NAME = "预订🏨\u200bǅ\U0001f680"
MCP_INIT = {
    "jsonrpc": "2.0",
    "id": 1,
    "method": "initialize",
    "params": {"protocolVersion": "2025-06-18", "capabilities": {}, "clientInfo": {"name": "soak", "version": "1"}},
}
MCP_HEADERS = {"accept": "application/json, text/event-stream", "content-type": "application/json"}
KINDS = ("deep_args", "deep_body", "big_body", "long_args", "hostile_plan", "hoard_reset", "mcp_hoard", "odd_chars")
EXPECTED: dict[str, set[int]] = {
    "deep_args": {200},
    "deep_body": {400},
    "big_body": {413},
    "long_args": {413},
    "hostile_plan": {200},
    "hoard_reset": {200, 429},
    "mcp_hoard": {200, 429},
    "odd_chars": {200},
    "mcp_client": {200, 202},
    "legit": {200},
}


def rss_mb(pid: int) -> float:
    """Resident set size of a process in MB (Linux ``/proc``)."""
    try:
        with open(f"/proc/{pid}/status") as fh:
            for line in fh:
                if line.startswith("VmRSS:"):
                    return int(line.split()[1]) / 1024
    except OSError:
        pass
    return 0.0


def _command(*args: str) -> list[str]:
    exe = shutil.which("navworld")
    return ([exe] if exe else [sys.executable, "-c", "from navworld.cli import main; main()"]) + list(args)


def hostile_plan_answer() -> str:
    """A final answer whose plan carries issue 14's hostile values (within the answer limit)."""
    p = 2**61 - 1
    activities = [
        {"type": "attraction", "position": "a" * 400, "start_time": "09:00", "end_time": "10:00", "price": float(p * k), "cost": float(p * k)}
        for k in range(1, 60)
    ]
    plan = {
        "people_number": 1,
        "target_city": "杭州",
        "itinerary": [{"day": 1, "activities": activities}],
        "extra": [p * k for k in range(1, 400)],
    }
    text = "## 方案\n" + "第一天参观景点。" * 30 + "\n```json\n" + json.dumps(plan) + "\n```"
    return text[:99_000]


class Conn:
    """A minimal keep-alive HTTP/1.1 JSON client (cheap, so the server gets the CPU)."""

    def __init__(self, port: int, client_id: str) -> None:
        self.port, self.client_id = port, client_id
        self.reader: asyncio.StreamReader | None = None
        self.writer: asyncio.StreamWriter | None = None

    async def send(self, path: str, payload: bytes) -> tuple[int, str]:
        """POST ``payload`` (JSON bytes); return (status, body text)."""
        reused = self.writer is not None and not self.writer.is_closing()
        if not reused:
            self.reader, self.writer = await asyncio.open_connection("127.0.0.1", self.port, limit=2**20)
        assert self.reader is not None and self.writer is not None
        head = (
            f"POST {path} HTTP/1.1\r\nHost: 127.0.0.1:{self.port}\r\nContent-Type: application/json\r\n"
            f"X-Client-Id: {self.client_id}\r\nContent-Length: {len(payload)}\r\n\r\n"
        ).encode()
        try:
            self.writer.write(head + payload)
            raw = await self.reader.readuntil(b"\r\n\r\n")
        except (asyncio.IncompleteReadError, ConnectionError) as exc:
            if not reused or (isinstance(exc, asyncio.IncompleteReadError) and exc.partial):
                raise
            # The server closed this idle keep-alive connection (uvicorn: after 5 s) before
            # reading the request: send it again on a fresh connection, as HTTP clients do.
            await self.close()
            return await self.send(path, payload)
        lines = raw.decode("latin-1").split("\r\n")
        status, length, close = int(lines[0].split()[1]), 0, False
        for line in lines[1:]:
            name, _, value = line.partition(":")
            if name.lower() == "content-length":
                length = int(value.strip())
            elif name.lower() == "connection" and value.strip().lower() == "close":
                close = True
        text = (await self.reader.readexactly(length)).decode("utf-8", "replace")
        if close:
            await self.close()
        return status, text

    async def post(self, path: str, body: Any) -> tuple[int, Any, str]:
        """POST JSON; return (status, parsed JSON or None, text)."""
        status, text = await self.send(path, json.dumps(body, ensure_ascii=False).encode())
        try:
            return status, json.loads(text), text
        except ValueError:
            return status, None, text

    async def close(self) -> None:
        """Close the connection."""
        if self.writer is not None:
            self.writer.close()
            self.writer = None


class Soak:
    """Counters and latencies of one soak run."""

    def __init__(self) -> None:
        self.classes: Counter[str] = Counter()
        self.errors: list[str] = []
        self.latency: dict[str, list[float]] = {"legit": [], "hostile": []}
        self.episodes = 0
        self.requests = 0
        self.hostile = 0

    def merge(self, other: Soak) -> None:
        """Add another (per-client) tally to this one."""
        self.classes.update(other.classes)
        self.errors += other.errors
        for key, values in other.latency.items():
            self.latency[key] += values
        self.episodes += other.episodes
        self.requests += other.requests
        self.hostile += other.hostile

    def record(self, kind: str, status: int, seconds: float, text: str = "") -> bool:
        """Count one response; an unexpected status is an error. Return whether it was expected."""
        self.requests += 1
        self.hostile += kind not in ("legit", "mcp_client")  # the well-behaved MCP client is not an attack
        self.classes[f"{kind} {status}"] += 1
        self.latency["legit" if kind == "legit" else "hostile"].append(seconds)
        ok = status in EXPECTED[kind]
        if not ok:
            self.errors.append(f"{kind}: HTTP {status} {text[:160]}")
        return ok


async def timed(coro: Any) -> tuple[Any, float]:
    t0 = time.perf_counter()
    out = await coro
    return out, time.perf_counter() - t0


async def legit_episode(conn: Conn, task_id: int, tool_steps: int, soak: Soak) -> None:
    """A normal episode: reset, tool steps, scored final answer."""
    (status, opened, text), dt = await timed(conn.post("/reset", {"task_id": task_id}))
    if not soak.record("legit", status, dt, text):
        return
    eid, dest = opened["episode_id"], opened["info"]["problem"]["destination_city"]
    coords: list[str] = []
    for step in range(1, tool_steps + 1):
        (status, result, text), dt = await timed(conn.post("/step", {"episode_id": eid, "action": "", "tool_calls": tool_plan(dest, step, coords)}))
        if not soak.record("legit", status, dt, text):
            return
        for msg in result["observation"]:
            coords += [f"{a},{b}" for a, b in LNGLAT.findall(str(msg.get("content", "")))][:4]
    (status, result, text), dt = await timed(conn.post("/step", {"episode_id": eid, "action": ANSWER}))
    if soak.record("legit", status, dt, text) and not result.get("done"):
        soak.errors.append(f"legit: final answer not done: {text[:160]}")
    soak.episodes += 1


async def _hostile_episode(conn: Conn, kind: str, task_id: int, soak: Soak, calls: list[dict[str, Any]] | None, answer: str) -> None:
    (status, opened, text), dt = await timed(conn.post("/reset", {"task_id": task_id}))
    if not soak.record("legit" if status == 200 else kind, status, dt, text):
        return
    eid = opened["episode_id"]
    if calls is not None:
        (status, result, text), dt = await timed(conn.post("/step", {"episode_id": eid, "action": "", "tool_calls": calls}))
        soak.record(kind, status, dt, text)
        if kind != "long_args" and status == 200 and not str(result["observation"][0]["content"]).startswith("错误"):
            soak.errors.append(f"{kind}: expected a tool error, got {text[:160]}")
    (status, result, text), dt = await timed(conn.post("/step", {"episode_id": eid, "action": answer}))
    soak.record(kind if kind == "hostile_plan" else "legit", status, dt, text)


async def big_body(port: int, soak: Soak) -> None:
    """Announce a 10 MB body, send none of it, and expect 413 at once."""
    t0 = time.perf_counter()
    reader, writer = await asyncio.open_connection("127.0.0.1", port)
    try:
        writer.write(
            f"POST /step HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nContent-Type: application/json\r\n"
            f"Content-Length: {10_000_000}\r\n\r\n".encode()
        )
        head = await asyncio.wait_for(reader.readuntil(b"\r\n\r\n"), 30)
        soak.record("big_body", int(head.split()[1]), time.perf_counter() - t0, head.decode("latin-1")[:100])
    finally:
        writer.close()


async def mcp_request(http: httpx2.AsyncClient, url: str, client_id: str, body: dict[str, Any], sid: str | None = None) -> httpx2.Response:
    headers = {**MCP_HEADERS, "x-client-id": client_id}
    if sid:
        headers["mcp-session-id"] = sid
    return await http.post(url, json=body, headers=headers)


async def mcp_client(http: httpx2.AsyncClient, url: str, soak: Soak) -> None:
    """A well-behaved MCP client: initialize, call a tool, delete the session."""
    t0 = time.perf_counter()
    opened = await mcp_request(http, url, "mcp-user", MCP_INIT)
    if not soak.record("mcp_client", opened.status_code, time.perf_counter() - t0, opened.text):
        return
    sid = opened.headers["mcp-session-id"]
    notified = await mcp_request(http, url, "mcp-user", {"jsonrpc": "2.0", "method": "notifications/initialized"}, sid)
    soak.record("mcp_client", notified.status_code, 0.0, notified.text)
    call = {"jsonrpc": "2.0", "id": 2, "method": "tools/call", "params": {"name": "weather", "arguments": {"city": "杭州", "date": "2025-03-01"}}}
    t0 = time.perf_counter()
    called = await mcp_request(http, url, "mcp-user", call, sid)
    if soak.record("mcp_client", called.status_code, time.perf_counter() - t0, called.text) and "2025-03-01" not in called.text:
        soak.errors.append(f"mcp_client: no forecast in {called.text[:160]}")
    closed = await http.delete(url, headers={"mcp-session-id": sid, "x-client-id": "mcp-user"})
    soak.record("mcp_client", closed.status_code, 0.0, closed.text)


async def hostile(
    kind: str, port: int, conn: Conn, hoarder: Conn, mcp: tuple[httpx2.AsyncClient, str], n: int, soak: Soak
) -> None:
    """One hostile request (or short sequence) of ``kind``."""
    task_id = n % 70
    if kind == "deep_args":
        calls = [{"id": "h1", "type": "function", "function": {"name": "weather", "arguments": DEEP_ARGS}}]
        await _hostile_episode(conn, kind, task_id, soak, calls, ANSWER)
    elif kind == "deep_body":
        path = "/v1/chat/completions" if n % 2 else "/step"
        (status, text), dt = await timed(conn.send(path, DEEP_BODY))
        soak.record(kind, status, dt, text)
    elif kind == "big_body":
        await big_body(port, soak)
    elif kind == "long_args":
        calls = [{"id": "h3", "type": "function", "function": {"name": "weather", "arguments": json.dumps({"city": "杭州", "pad": "z" * 30_000})}}]
        await _hostile_episode(conn, kind, task_id, soak, calls, ANSWER)
    elif kind == "hostile_plan":
        await _hostile_episode(conn, kind, task_id, soak, None, hostile_plan_answer())
    elif kind == "hoard_reset":
        (status, _, text), dt = await timed(hoarder.post("/reset", {"task_id": task_id}))
        soak.record(kind, status, dt, text)
    elif kind == "mcp_hoard":
        http, url = mcp
        t0 = time.perf_counter()
        response = await mcp_request(http, url, "mcp-hoarder", MCP_INIT)
        soak.record(kind, response.status_code, time.perf_counter() - t0, response.text)
        if n % 4 == 0:
            await mcp_client(http, url, soak)
    elif kind == "odd_chars":
        calls = [{"id": "h8", "type": "function", "function": {"name": ODD_NAME, "arguments": json.dumps({"x": ODD_NAME})}}]
        await _hostile_episode(conn, kind, task_id, soak, calls, ANSWER)


async def run(ns: argparse.Namespace) -> dict[str, Any]:
    """The whole soak; returns its figures."""
    env_port, mcp_port = free_port(), free_port()
    env_proc = subprocess.Popen(
        _command("serve", "--host", "127.0.0.1", "--port", str(env_port), "--salt", ns.salt, "--episode-ttl", str(ns.ttl),
                 "--max-episodes-per-client", str(ns.share), "--log-level", "warning"),
        stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
    )
    mcp_proc = subprocess.Popen(
        _command("mcp", "--transport", "http", "--host", "127.0.0.1", "--port", str(mcp_port), "--salt", ns.salt,
                 "--session-timeout", str(ns.ttl)),
        stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
    )
    soak = Soak()
    figures: dict[str, Any] = {"load": [os.getloadavg()[0]]}
    try:
        async with httpx2.AsyncClient(base_url=f"http://127.0.0.1:{env_port}", timeout=120) as client, httpx2.AsyncClient(timeout=60) as mcp_http:
            await wait_healthy(client, env_proc)
            mcp_url = f"http://127.0.0.1:{mcp_port}/mcp"
            for _ in range(300):
                try:
                    await mcp_http.get(mcp_url)
                    break
                except httpx2.TransportError:
                    await asyncio.sleep(0.1)
            warm = Soak()
            warm_conn = Conn(env_port, "warm-up")
            for task_id in range(70):  # the first use of a city builds its POIs
                await legit_episode(warm_conn, task_id, 1, warm)
            await warm_conn.close()
            figures["rss_start"] = (rss_mb(env_proc.pid), rss_mb(mcp_proc.pid))
            queue: asyncio.Queue[int] = asyncio.Queue()
            for i in range(ns.episodes):
                queue.put_nowait(i)
            middle = asyncio.Event()
            deadline = time.monotonic() + ns.max_seconds
            kinds = iter(range(10**9))
            done = [0]
            tallies = [Soak() for _ in range(ns.concurrency)]

            async def worker(index: int) -> None:
                tally = tallies[index]
                conn = Conn(env_port, f"soak-{index}")
                hconn = Conn(env_port, f"hostile-{index}")
                hoarder = Conn(env_port, "hoarder")  # one client, many connections
                while time.monotonic() < deadline:
                    try:
                        i = queue.get_nowait()
                    except asyncio.QueueEmpty:
                        break
                    try:
                        await legit_episode(conn, i % ns.task_range, ns.tool_steps, tally)
                    except Exception as exc:  # counted, never fatal
                        tally.errors.append(f"legit: {type(exc).__name__}: {exc}")
                        await conn.close()
                    done[0] += 1
                    # Keep this client's hostile share of requests at ns.hostile.
                    while tally.hostile < ns.hostile * tally.requests:
                        n = next(kinds)
                        kind = KINDS[n % len(KINDS)]
                        try:
                            await hostile(kind, env_port, hconn, hoarder, (mcp_http, mcp_url), n // len(KINDS), tally)
                        except Exception as exc:
                            tally.errors.append(f"{kind}: {type(exc).__name__}: {exc}")
                            tally.hostile += 1
                            await hconn.close()
                    if done[0] >= ns.episodes // 2 and not middle.is_set():
                        middle.set()
                        figures["rss_middle"] = (rss_mb(env_proc.pid), rss_mb(mcp_proc.pid))
                        figures["load"].append(os.getloadavg()[0])
                for c in (conn, hconn, hoarder):
                    await c.close()

            started = time.perf_counter()
            cpu0 = (cpu_seconds(env_proc.pid), cpu_seconds(mcp_proc.pid), time.process_time())
            await asyncio.gather(*(worker(i) for i in range(ns.concurrency)))
            figures["seconds"] = time.perf_counter() - started
            figures["cpu"] = (
                cpu_seconds(env_proc.pid) - cpu0[0], cpu_seconds(mcp_proc.pid) - cpu0[1], time.process_time() - cpu0[2],
            )
            figures["load"].append(os.getloadavg()[0])
            for tally in tallies:
                soak.merge(tally)
            figures["live_after_run"] = (await client.get("/health")).json()["live_episodes"]
            await asyncio.sleep(ns.ttl + 2)  # idle (abandoned) episodes and sessions expire
            health = (await client.get("/health")).json()
            figures["health_end"] = health
            figures["rss_end"] = (rss_mb(env_proc.pid), rss_mb(mcp_proc.pid))
            again = await mcp_request(mcp_http, mcp_url, "mcp-hoarder", MCP_INIT)
            figures["mcp_hoarder_after_timeout"] = again.status_code
            if health["live_episodes"] != 0:
                soak.errors.append(f"leak: {health['live_episodes']} live episodes at the end")
            if again.status_code != 200:
                soak.errors.append(f"leak: the MCP hoarder is still refused after the idle timeout ({again.status_code})")
    finally:
        for proc in (env_proc, mcp_proc):
            proc.terminate()
            try:
                proc.wait(10)
            except subprocess.TimeoutExpired:
                proc.kill()
    figures["soak"] = soak
    return figures


def main(argv: list[str] | None = None) -> int:
    """Run the soak and print its figures; exit 1 on errors or leaks."""
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--episodes", type=int, default=10_000, help="normal episodes to play")
    ap.add_argument("--concurrency", type=int, default=32, help="concurrent clients")
    ap.add_argument("--tool-steps", type=int, default=4, help="tool steps per normal episode")
    ap.add_argument("--hostile", type=float, default=0.10, help="share of hostile requests (0–0.5)")
    ap.add_argument("--task-range", type=int, default=70, help="task ids drawn from 0..N-1")
    ap.add_argument("--ttl", type=float, default=30.0, help="idle seconds of episodes and MCP sessions on the servers")
    ap.add_argument("--share", type=int, default=128, help="live episodes one client may hold on the env server")
    ap.add_argument("--max-seconds", type=float, default=1800.0, help="stop starting episodes after this")
    ap.add_argument("--salt", default="soak", help="salt of the world")
    ns = ap.parse_args(argv)
    ns.hostile = min(0.5, max(0.0, ns.hostile))
    print(f"soak: {ns.episodes} episodes, {ns.concurrency} clients, {ns.hostile:.0%} hostile requests; "
          f"{os.cpu_count()} CPUs, load average {os.getloadavg()[0]:.1f}", flush=True)  # fmt: skip
    fig = asyncio.run(run(ns))
    soak: Soak = fig["soak"]
    wall = fig["seconds"]
    hostile_n = soak.hostile
    print(f"{soak.episodes} episodes, {soak.requests} requests ({hostile_n} hostile, {hostile_n / max(1, soak.requests):.1%}) "
          f"in {wall:.1f} s: {soak.requests / wall:.0f} requests/s, {soak.episodes / wall:.1f} episodes/s")  # fmt: skip
    for group, values in soak.latency.items():
        print(f"  {group:8s} latency p50 {percentile(values, 0.5) * 1000:.1f} ms, p99 {percentile(values, 0.99) * 1000:.1f} ms")
    print("  responses by class: " + ", ".join(f"{k}: {n}" for k, n in sorted(soak.classes.items())))
    five = sum(n for k, n in soak.classes.items() if k.split()[-1].startswith("5"))
    print(f"  5xx: {five}; errors: {len(soak.errors)}")
    for err in soak.errors[:10]:
        print(f"    {err}")
    env_cpu, mcp_cpu, driver_cpu = fig["cpu"]
    print(f"  CPU: env server {env_cpu:.0f} s, MCP server {mcp_cpu:.0f} s, driver {driver_cpu:.0f} s; "
          f"load average start/middle/end {' / '.join(f'{x:.1f}' for x in fig['load'])}")  # fmt: skip
    start, mid, end = fig["rss_start"], fig.get("rss_middle", (0.0, 0.0)), fig["rss_end"]
    print(f"  RSS env server: start {start[0]:.0f} MB, middle {mid[0]:.0f} MB, end {end[0]:.0f} MB "
          f"(middle→end {end[0] - mid[0]:+.0f} MB; target < 50)")  # fmt: skip
    print(f"  RSS MCP server: start {start[1]:.0f} MB, middle {mid[1]:.0f} MB, end {end[1]:.0f} MB")
    health = fig["health_end"]
    print(f"  store: {fig['live_after_run']} live right after the run; after {ns.ttl:g} s idle: {health['live_episodes']} live, "
          f"occupancy {health.get('occupancy')}")  # fmt: skip
    print(f"  MCP hoarder after the idle timeout: HTTP {fig['mcp_hoarder_after_timeout']}")
    bad = five or soak.errors or end[0] - mid[0] >= 50 or health["live_episodes"]
    return 1 if bad else 0


if __name__ == "__main__":
    raise SystemExit(main())
