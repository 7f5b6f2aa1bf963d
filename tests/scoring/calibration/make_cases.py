"""Build, replay and report the honest-answer calibration cases (issue 12).

Each case is one JSON file in this folder::

    {"task_id", "salt", "lang", "style", "model_persona", "trace": [...], "answer": "...", "notes": "..."}

``trace`` is the OpenAI transcript of the episode up to the final answer: the system and user
prompts exactly as navworld builds them for ``(task_id, salt, lang)``, then assistant turns with
standard ``tool_calls`` and the tool messages with the exact result text of
``navworld.tools.registry.call_tool`` (run through the agent loop's executor, one per-episode
budget, the travel date as the default date). The final assistant message is ``answer``.

Commands (run from the repository root)::

    python tests/scoring/calibration/make_cases.py new NAME --task ID [--lang en] --style S --persona P
    python tests/scoring/calibration/make_cases.py step NAME --calls '[["weather", {"city": "太原"}], ...]' \
        [--say TEXT] [--ids gpt|claude|qwen|deepseek|glm]
    python tests/scoring/calibration/make_cases.py show NAME            # the tool results, numbered
    python tests/scoring/calibration/make_cases.py answer NAME FILE     # store FILE as the answer
    python tests/scoring/calibration/make_cases.py check [NAME ...]     # replay; exit 1 on any difference
    python tests/scoring/calibration/make_cases.py regen [NAME ...]     # replay and rewrite the traces
    python tests/scoring/calibration/make_cases.py export NAME DIR      # trace.json, answer.md, plan.json, problem.json
    python tests/scoring/calibration/make_cases.py report [--write]     # verify + score vs the reference planner

``check`` and ``regen`` re-create each trace from its recorded calls (the assistant turns'
``tool_calls``; ids and any assistant text are kept), so the cases follow the world if it
changes: ``regen`` then re-run ``report`` and re-read each answer against the new results.
"""

from __future__ import annotations

import argparse
import asyncio
import hashlib
import json
import sys
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
DEFAULT_SALT = "calib"
TABLE_START = "<!-- calibration-table:start -->"
TABLE_END = "<!-- calibration-table:end -->"
ID_STYLES = ("gpt", "claude", "qwen", "deepseek", "glm")


# ---------------------------------------------------------------------------------- files
def case_path(name: str) -> Path:
    """The JSON file of case ``name`` (a bare name or a path)."""
    p = Path(name)
    if p.suffix == ".json" and p.exists():
        return p
    return HERE / f"{p.stem}.json"


def load_case(name: str) -> dict[str, Any]:
    """The parsed case ``name``."""
    return json.loads(case_path(name).read_text(encoding="utf-8"))


def save_case(name: str, case: dict[str, Any]) -> None:
    """Write case ``name`` (UTF-8, indented, stable key order)."""
    keys = ("task_id", "salt", "lang", "style", "model_persona", "trace", "answer", "notes")
    ordered = {k: case[k] for k in keys if k in case}
    ordered.update({k: v for k, v in case.items() if k not in ordered})
    case_path(name).write_text(json.dumps(ordered, ensure_ascii=False, indent=1) + "\n", encoding="utf-8")


def all_cases() -> list[str]:
    """The names of every case in this folder, sorted."""
    return sorted(p.stem for p in HERE.glob("*.json"))


# ---------------------------------------------------------------------------------- world
def world_and_problem(case: dict[str, Any]) -> tuple[Any, Any]:
    """The sandbox world of the case's salt and the generated problem in the case's language."""
    from navworld.tasks.generator import ProblemGenerator
    from navworld.world.sandbox import SandboxWorld

    world = SandboxWorld(case["salt"])
    problem = ProblemGenerator(world).generate(int(case["task_id"]), lang=case.get("lang", "zh"))
    return world, problem


def opening(problem: Any) -> list[dict[str, Any]]:
    """System and user messages exactly as the agent loop builds them."""
    from navworld.agents.messages import opening_messages

    return opening_messages(problem.system_prompt, problem.prompt)


def call_id(style: str, name: str, step: int, index: int) -> str:
    """A deterministic tool-call id shaped like the ids the persona's API returns."""
    h = hashlib.sha256(f"{name}|{step}|{index}".encode()).hexdigest()
    if style == "claude":
        alnum = "".join(c for c in h.upper() + h if c.isalnum())
        return "toolu_01" + alnum[:22]
    if style == "qwen":
        return "chatcmpl-tool-" + h[:32]
    if style == "deepseek":
        return f"call_{index}_{h[:8]}-{h[8:12]}-{h[12:16]}-{h[16:20]}-{h[20:32]}"
    if style == "glm":
        return f"call_{int(h[:16], 16) % 10**19:019d}"
    return "call_" + "".join(c if i % 3 else c.upper() for i, c in enumerate(h[:24]))


def recorded_steps(trace: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The assistant turns with tool calls, in order."""
    return [m for m in trace if m.get("role") == "assistant" and m.get("tool_calls")]


async def replay(case: dict[str, Any]) -> list[dict[str, Any]]:
    """The case's trace re-created from its recorded calls on the current world."""
    from navworld.agents.executor import CallToolExecutor

    world, problem = world_and_problem(case)
    executor = CallToolExecutor(world, default_date=problem.travel_date or None, lang=problem.lang)
    trace = opening(problem)
    for turn in recorded_steps(case["trace"]):
        batch, _ = await executor.run(turn["tool_calls"])
        trace.append(dict(turn))
        trace.extend(batch.messages)
    return trace


def differences(stored: list[dict[str, Any]], fresh: list[dict[str, Any]]) -> list[str]:
    """Human-readable differences between a stored and a replayed trace."""
    out = []
    if len(stored) != len(fresh):
        out.append(f"{len(stored)} messages stored, {len(fresh)} replayed")
    for i, (a, b) in enumerate(zip(stored, fresh, strict=False)):
        if a != b:
            what = a.get("role"), a.get("tool_call_id", "")
            out.append(f"message {i} {what} differs")
    return out


# ---------------------------------------------------------------------------------- commands
def cmd_new(args: argparse.Namespace) -> int:
    if case_path(args.name).exists() and not args.force:
        print(f"{case_path(args.name)} exists (use --force)", file=sys.stderr)
        return 2
    case = {"task_id": args.task, "salt": args.salt, "lang": args.lang, "style": args.style,
            "model_persona": args.persona, "trace": [], "answer": "", "notes": ""}
    _, problem = world_and_problem(case)
    case["trace"] = opening(problem)
    save_case(args.name, case)
    print(problem.prompt)
    return 0


def _print_results(trace: list[dict[str, Any]], ids: set[str] | None = None) -> None:
    names = {}
    for m in trace:
        for c in m.get("tool_calls") or []:
            names[c["id"]] = (c["function"]["name"], c["function"]["arguments"])
    for m in trace:
        if m.get("role") == "tool" and (ids is None or m["tool_call_id"] in ids):
            name, arguments = names.get(m["tool_call_id"], ("?", ""))
            print(f"=== {name} {arguments}\n{m['content']}\n")


def cmd_step(args: argparse.Namespace) -> int:
    case = load_case(args.name)
    calls = json.loads(args.calls)
    step = len(recorded_steps(case["trace"]))
    tool_calls = [
        {"id": call_id(args.ids, args.name, step, i), "type": "function",
         "function": {"name": name, "arguments": json.dumps(arguments, ensure_ascii=False)}}
        for i, (name, arguments) in enumerate(calls)
    ]
    turn = {"role": "assistant", "content": args.say, "tool_calls": tool_calls}
    case["trace"].append(turn)
    fresh = asyncio.run(replay(case))
    case["trace"] = fresh
    save_case(args.name, case)
    _print_results(fresh, {c["id"] for c in tool_calls})
    return 0


def cmd_show(args: argparse.Namespace) -> int:
    _print_results(load_case(args.name)["trace"])
    return 0


def cmd_answer(args: argparse.Namespace) -> int:
    case = load_case(args.name)
    case["answer"] = Path(args.file).read_text(encoding="utf-8").strip() + "\n"
    save_case(args.name, case)
    return 0


def cmd_check(args: argparse.Namespace, write: bool = False) -> int:
    bad = 0
    for name in args.names or all_cases():
        case = load_case(name)
        fresh = asyncio.run(replay(case))
        diff = differences(case["trace"], fresh)
        if write and diff:
            case["trace"] = fresh
            save_case(name, case)
            print(f"{name}: rewritten ({'; '.join(diff[:3])})")
        elif diff:
            bad += 1
            print(f"{name}: MISMATCH: " + "; ".join(diff[:5]))
        else:
            print(f"{name}: ok ({len(recorded_steps(fresh))} steps, "
                  f"{sum(1 for m in fresh if m['role'] == 'tool')} calls)")
    return 1 if bad else 0


def plan_block(answer: str) -> Any:
    """The JSON of the answer's last fenced ```json block (None when there is none or it is not JSON)."""
    _head, fence, body = answer.rpartition("```json")
    if not fence:
        return None
    try:
        return json.loads(body.split("```", 1)[0])
    except ValueError:
        return None


def cmd_export(args: argparse.Namespace) -> int:
    case = load_case(args.name)
    _, problem = world_and_problem(case)
    out = Path(args.dir)
    out.mkdir(parents=True, exist_ok=True)
    (out / "trace.json").write_text(json.dumps(case["trace"], ensure_ascii=False, indent=1), encoding="utf-8")
    (out / "answer.md").write_text(case["answer"], encoding="utf-8")
    (out / "problem.json").write_text(json.dumps(problem.to_dict(), ensure_ascii=False, indent=1), encoding="utf-8")
    plan = plan_block(case["answer"])
    if plan is not None:
        (out / "plan.json").write_text(json.dumps(plan, ensure_ascii=False, indent=1), encoding="utf-8")
    print(out)
    return 0


# ---------------------------------------------------------------------------------- report
def evaluate(name: str) -> dict[str, Any]:
    """Verification and code score of case ``name``, and the reference planner's score on its task."""
    from navworld.agents.reference import ReferencePlanner
    from navworld.scoring import TravelScorer
    from navworld.verify import verify_plan

    case = load_case(name)
    world, problem = world_and_problem(case)
    ver = verify_plan(case["answer"], problem, world, case["trace"]).to_dict()
    report = TravelScorer(salt=case["salt"]).score(problem, case["trace"], case["answer"]).to_dict()
    ref = asyncio.run(ReferencePlanner().run(problem, world, salt=case["salt"]))
    ref_report = TravelScorer(salt=case["salt"]).score(problem, ref.trace, ref.answer).to_dict()
    failed_env = [k for k, ok in ver["env"]["checks"].items() if not ok]
    failed_logic = [i + 1 for i, r in enumerate(ver["logic"]["results"]) if r is not True]
    return {"name": name, "case": case, "problem": problem, "verification": ver, "report": report,
            "reference": ref_report, "failed_env": failed_env, "failed_logic": failed_logic}


def diagnose(name: str) -> str:
    """The answer facts that did not match a tool fact, each with its text span (for the FP list)."""
    from navworld.scoring import TravelScorer
    from navworld.scoring.consistency import price_matches

    case = load_case(name)
    _, problem = world_and_problem(case)
    a = TravelScorer(salt=case["salt"]).analyse(problem, case["trace"], case["answer"])
    text = a.pa.text

    def span(pos: int, width: int = 28) -> str:
        return text[max(0, pos - width): pos + 8].replace("\n", "⏎")

    lines = []
    for key, value, pos in a.af.prices:
        if not price_matches(a.tf, key, value):
            lines.append(f"  price {key}={value:g} unmatched: …{span(pos)}…")
    if a.af.ungrounded_places:
        lines.append(f"  ungrounded places: {a.af.ungrounded_places}")
    roads = sorted({r for r, _ in a.af.roads} - set(a.af.matched_roads))
    if roads:
        lines.append(f"  roads not in tools: {roads}")
    times = sorted({t for t, _ in a.af.fact_times} - a.tf.times)
    if times:
        lines.append(f"  times not in tools: {times}")
    return "\n".join(lines)


def _verify_cell(r: dict[str, Any]) -> str:
    ver = r["verification"]
    if not ver["delivered"]:
        return "not delivered"
    if ver["final_pass"]:
        return "PASS"
    parts = list(r["failed_env"]) + [f"logic[{i}]" for i in r["failed_logic"]]
    return "FAIL: " + ", ".join(parts)


def _score_cell(rep: dict[str, Any]) -> str:
    cs = rep["code_score"]
    failed = rep["constraints"].get("failed") or []
    extra = f" ×{','.join(failed)}" if failed else ""
    return (f"{rep['total']:.2f} (IC {cs['info_consistency']:.1f} · comp {cs['completeness']:.1f} · "
            f"fab {cs['fabrication_penalty']:.1f}){extra}")


def table(rows: list[dict[str, Any]]) -> str:
    """The markdown summary table."""
    lines = ["| case | task | type (d) | lang | style | verify | code score (IC · comp · fab) | reference | Δ |",
             "|---|---|---|---|---|---|---|---|---|"]
    for r in rows:
        c, p = r["case"], r["problem"]
        delta = r["report"]["total"] - r["reference"]["total"]
        lines.append(
            f"| {r['name']} | {c['task_id']} | {p.problem_type} ({p.difficulty}) | {c['lang']} | {c['style']} | "
            f"{_verify_cell(r)} | {_score_cell(r['report'])} | {r['reference']['total']:.2f} | {delta:+.2f} |"
        )
    return "\n".join(lines)


def cmd_report(args: argparse.Namespace) -> int:
    rows = [evaluate(n) for n in (args.names or all_cases())]
    text = table(rows)
    print(text)
    if args.detail:
        for r in rows:
            cs = r["report"]["code_score"]
            print(f"\n## {r['name']}")
            print("ic_categories:", json.dumps(cs["ic_categories"], ensure_ascii=False))
            print("comp_subscores:", json.dumps(cs["comp_subscores"], ensure_ascii=False))
            print("fabrication:", json.dumps(cs["fabrication"], ensure_ascii=False))
            print("constraints:", json.dumps(r["report"]["constraints"]["details"], ensure_ascii=False)[:1500])
            print(diagnose(r["name"]))
            print("verify reasons:", json.dumps({k: v for k, v in r["verification"]["reasons"].items()
                                                 if k in r["failed_env"] or k == "delivered"}, ensure_ascii=False))
    if args.write:
        readme = HERE / "README.md"
        body = readme.read_text(encoding="utf-8")
        head, _, rest = body.partition(TABLE_START)
        _, _, tail = rest.partition(TABLE_END)
        readme.write_text(f"{head}{TABLE_START}\n{text}\n{TABLE_END}{tail}", encoding="utf-8")
    return 0


def main(argv: list[str] | None = None) -> int:
    """Command-line entry point."""
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = ap.add_subparsers(dest="cmd", required=True)
    p = sub.add_parser("new")
    p.add_argument("name")
    p.add_argument("--task", type=int, required=True)
    p.add_argument("--salt", default=DEFAULT_SALT)
    p.add_argument("--lang", default="zh", choices=("zh", "en"))
    p.add_argument("--style", required=True)
    p.add_argument("--persona", required=True)
    p.add_argument("--force", action="store_true")
    p = sub.add_parser("step")
    p.add_argument("name")
    p.add_argument("--calls", required=True, help="JSON list of [tool_name, arguments] pairs")
    p.add_argument("--say", default=None, help="assistant text sent with the calls")
    p.add_argument("--ids", default="gpt", choices=ID_STYLES)
    p = sub.add_parser("show")
    p.add_argument("name")
    p = sub.add_parser("answer")
    p.add_argument("name")
    p.add_argument("file")
    for cmd in ("check", "regen"):
        p = sub.add_parser(cmd)
        p.add_argument("names", nargs="*")
    p = sub.add_parser("export")
    p.add_argument("name")
    p.add_argument("dir")
    p = sub.add_parser("report")
    p.add_argument("names", nargs="*")
    p.add_argument("--write", action="store_true", help="put the table into README.md")
    p.add_argument("--detail", action="store_true", help="print the score breakdown of each case")
    args = ap.parse_args(argv)
    handlers = {"new": cmd_new, "step": cmd_step, "show": cmd_show, "answer": cmd_answer,
                "check": cmd_check, "regen": lambda a: cmd_check(a, write=True), "export": cmd_export,
                "report": cmd_report}
    return handlers[args.cmd](args)


if __name__ == "__main__":
    sys.exit(main())
