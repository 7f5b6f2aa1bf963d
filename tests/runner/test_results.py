"""Results store: atomic appends, partial-line recovery, large traces, content hashes."""

from __future__ import annotations

import json
import multiprocessing
from pathlib import Path

from navworld.runner import results as results_mod
from navworld.runner.results import RESULTS_FILE, ResultsStore, content_hash, iter_rows, load_rows, load_trace


def _row(i: int, **extra: object) -> dict[str, object]:
    return {"task_id": i, "epoch": 0, "content_hash": f"h{i}", "score": float(i), "trace": [], **extra}


def _hash(**overrides: object) -> str:
    args: dict[str, object] = {
        "salt": "s",
        "world": "sandbox",
        "versions": {"world_version": "w1"},
        "agent": {"kind": "reference"},
        "judge": None,
        "epoch": 0,
    }
    args.update(overrides)
    return content_hash({"task_id": 1, "prompt": "去杭州"}, **args)  # type: ignore[arg-type]


def test_content_hash_depends_on_everything() -> None:
    base = _hash()
    assert base == _hash()
    variants = [
        _hash(salt="t"),
        _hash(world="replay:x"),
        _hash(versions={"world_version": "w2"}),
        _hash(agent={"kind": "model", "model": "m"}),
        _hash(judge={"models": ["j"]}),
        _hash(epoch=1),
    ]
    assert base not in variants
    assert len(set(variants)) == len(variants)


def test_append_and_load(tmp_path: Path) -> None:
    store = ResultsStore(tmp_path)
    store.extend(_row(i) for i in range(3))
    assert store.hashes() == {"h0", "h1", "h2"}
    lines = (tmp_path / RESULTS_FILE).read_text(encoding="utf-8").splitlines()
    assert len(lines) == 3 and all(json.loads(line)["schema_version"] == 1 for line in lines)


def test_trailing_partial_line_is_ignored_then_repaired(tmp_path: Path) -> None:
    store = ResultsStore(tmp_path)
    store.append(_row(0))
    with open(tmp_path / RESULTS_FILE, "ab") as fh:
        fh.write(b'{"task_id": 1, "content_hash": "h1", "sco')  # a writer killed mid-line
    assert [r["task_id"] for r in iter_rows(tmp_path / RESULTS_FILE)] == [0]
    store.append(_row(2))
    text = (tmp_path / RESULTS_FILE).read_text(encoding="utf-8")
    assert text.endswith("\n")
    assert [json.loads(line)["task_id"] for line in text.splitlines()] == [0, 2]


def test_duplicate_hash_last_wins(tmp_path: Path) -> None:
    store = ResultsStore(tmp_path)
    store.append(_row(0, score=1.0))
    store.append(_row(0, score=2.0))
    rows = load_rows(tmp_path)
    assert len(rows) == 1 and rows[0]["score"] == 2.0


def test_large_trace_goes_to_file(tmp_path: Path, monkeypatch: object) -> None:
    monkeypatch.setattr(results_mod, "INLINE_TRACE_LIMIT", 100)  # type: ignore[attr-defined]
    trace = [{"role": "tool", "content": "x" * 500}]
    store = ResultsStore(tmp_path)
    store.append(_row(0, trace=trace))
    (row,) = load_rows(tmp_path)
    assert row["trace"] is None and row["trace_path"] == "traces/h0.json"
    assert load_trace(tmp_path, row) == trace
    assert load_trace(tmp_path, {"trace_path": "../../etc/passwd"}) == []


def _writer(path: str, start: int) -> None:
    store = ResultsStore(path, fsync=False)
    for i in range(start, start + 200):
        store.append(_row(i, answer="答" * (i % 50) * 40))


def test_concurrent_processes_never_interleave(tmp_path: Path) -> None:
    ctx = multiprocessing.get_context("fork")
    procs = [ctx.Process(target=_writer, args=(str(tmp_path), k * 1000)) for k in range(3)]
    for p in procs:
        p.start()
    for p in procs:
        p.join(30)
    lines = (tmp_path / RESULTS_FILE).read_text(encoding="utf-8").splitlines()
    assert len(lines) == 600
    assert len({json.loads(line)["task_id"] for line in lines}) == 600
