"""The HTML report: offline (no network assets), XSS-safe, drill-down and comparison."""

from __future__ import annotations

import base64
import json
import lzma
import re
from html.parser import HTMLParser
from pathlib import Path
from typing import Any

from navworld.runner.metrics import task_plan_metrics
from navworld.runner.report import build_report, failed_checks, write_report
from navworld.runner.results import ResultsStore

EVIL = '<script>alert("x")</script><img src=x onerror=alert(1)>'


class _Assets(HTMLParser):
    """Collects tag names and every src/href attribute, and counts <script> tags."""

    def __init__(self) -> None:
        super().__init__()
        self.urls: list[str] = []
        self.scripts = 0
        self.imgs = 0

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag == "script":
            self.scripts += 1
        if tag == "img":
            self.imgs += 1
        for name, value in attrs:
            if name in {"src", "href"} and value:
                self.urls.append(value)


def make_row(task: int, score: float, *, text: str = "answer", epoch: int = 0) -> dict[str, Any]:
    verification = {
        "delivered": True,
        "env": {"passed": False, "checks": {"hotel_exists": True, "time_order": False}},
        "logic": {"passed": False, "results": [True, False], "errors": [None, "budget exceeded"]},
        "preferences": {},
        "final_pass": False,
    }
    return {
        "schema_version": 1,
        "task_id": task,
        "epoch": epoch,
        "problem_type": ["intercity", "multiday", "hybrid"][task % 3],
        "difficulty": 1 + task % 3,
        "lang": "zh",
        "score": score,
        "code_score": score / 2,
        "success": score >= 60,
        "report": {
            "total": score,
            "code_score": {"subtotal": score / 2},
            "hard_constraints": {"format_valid": False},
        },
        "plan": {
            "verification": verification,
            "metrics": task_plan_metrics(verification, 2),
            "constraints": ["总预算不超过3000元", "必须游览西湖"],
        },
        "steps": 3,
        "tool_calls": 5,
        "tokens": {"total_tokens": 10},
        "seconds": 0.1,
        "error": None,
        "answer": text,
        "trace": [
            {"role": "system", "content": "sys"},
            {"role": "user", "content": text},
            {
                "role": "assistant",
                "content": None,
                "tool_calls": [
                    {
                        "id": "c1",
                        "type": "function",
                        "function": {"name": "poi_search", "arguments": json.dumps({"address": text})},
                    }
                ],
            },
            {"role": "tool", "tool_call_id": "c1", "content": text},
            {"role": "assistant", "content": text},
        ],
        "salt": "s",
        "content_hash": f"hash{task}-{epoch}",
    }


def fragments(html: str) -> list[str]:
    """The drill-down fragments stored (LZMA, base64) in a report, in row order."""
    out: list[str] = []
    for data in re.findall(r'<script type="text/plain" id="chunk-\d+">([^<]*)</script>', html):
        out.extend(json.loads(lzma.decompress(base64.b64decode(data)).decode("utf-8")))
    return out


def _run(tmp: Path, name: str, scores: list[float], text: str = "answer") -> Path:
    run_dir = tmp / name
    ResultsStore(run_dir, fsync=False).extend(make_row(i, s, text=text) for i, s in enumerate(scores))
    return run_dir


def test_report_is_offline_and_escapes_model_text(tmp_path: Path) -> None:
    run_dir = _run(tmp_path, "a", [90.0, 40.0, 65.0], text=EVIL)
    html = write_report(run_dir).read_text(encoding="utf-8")
    parser = _Assets()
    parser.feed(html)
    assert parser.urls == [] or all(u.startswith("#") for u in parser.urls), parser.urls
    markup = re.sub(r"<script\b[^>]*>.*?</script>", "", html, flags=re.S | re.I)  # the HTML outside scripts
    assert not re.search(r"""(src|href)\s*=\s*["']?\s*(https?:)?//""", markup, re.I)
    assert "<link" not in markup and "@import" not in markup and "url(" not in markup
    assert parser.imgs == 0, "model text must never become an element"
    drill = fragments(html)
    assert len(drill) == 3
    for text in (html, *drill):
        assert EVIL not in text
    assert all("&lt;script&gt;alert(" in f for f in drill)
    for f in drill:  # the fragments are escaped HTML too
        inner = _Assets()
        inner.feed(f)
        assert inner.scripts == 0 and inner.imgs == 0
    assert "plotly" not in html.lower()
    for div in ("fig-scores", "fig-problem_type", "fig-difficulty", "fig-metrics"):
        assert f'id="{div}"' in html
    assert html.count("<svg") == 4
    assert 'id="task-0-0"' in html and "budget exceeded" in drill[0] and "环境" not in html[:100]


def test_failed_checks_lists_reasons() -> None:
    reasons = failed_checks(make_row(1, 30.0))
    assert "hard constraint failed: format_valid" in reasons
    assert "environment check failed: time_order" in reasons
    assert any("必须游览西湖" in r and "budget exceeded" in r for r in reasons)


def test_comparison_section(tmp_path: Path) -> None:
    a = _run(tmp_path, "a", [90.0, 40.0, 65.0])
    b = _run(tmp_path, "b", [80.0, 50.0])
    html = build_report(a, vs=b)
    assert 'id="comparison"' in html
    assert "2 shared tasks" in html
    assert "better on 1, worse on 1" in html


def test_rows_show_finish_truncation_errors_and_judge(tmp_path: Path) -> None:
    run_dir = tmp_path / "r"
    ok = make_row(0, 70.0) | {"finish": "max_steps", "truncated": True, "judge": {"models": ["j"], "base_url": "u"}}
    ok["report"] = {**ok["report"], "llm_error": None, "llm_score": {"subtotal": 31.0}}
    error = make_row(1, 0.0) | {"score": None, "error": "connection: Connection error. [model m at http://h/v1]",
                                "report": None, "finish": "error"}  # fmt: skip
    error["plan"] = {**error["plan"], "verification": None, "metrics": None}
    judged = make_row(2, 40.0) | {"judge": {"models": ["j"], "base_url": "u"}, "finish": "no_final_answer"}
    judged["report"] = {**judged["report"], "llm_error": "unparseable reply: echo of the prompt"}
    ResultsStore(run_dir, fsync=False).extend([ok, error, judged])
    html = build_report(run_dir)
    rows = re.findall(r'<details class="task".*?</details>', html, re.S)
    assert len(rows) == 3
    assert "max_steps" in rows[0] and "✂ cut" in rows[0] and ">31.0<" in rows[0]
    assert 'data-status="error"' in rows[1] and "not verified" in rows[1] and "not passed" not in rows[1]
    assert "connection: Connection error." in rows[1]
    assert "judge failed" in rows[2] and "no_final_answer" in rows[2]
    assert "judge failed on 1 of 2 rows: unparseable reply" in html
    assert "1 rows failed on infrastructure (connection ×1)" in html
    drill = fragments(html)
    assert "Infrastructure error" in drill[1] and "Judge failed" in drill[2] and "cut at max_tokens" in drill[0]
