"""A readable tree of one row's score: what counted, what failed (failed items first).

Built from the row (``report`` = ``ScoreReport.to_dict()``, ``plan.verification``, ``judge``)
for the HTML report and ``navworld show``. Each :class:`Node` has a label, a value text, an
``ok`` flag (``True`` passed, ``False`` failed, ``None`` informative) and children; children that
failed come first. A row without a judge says "no judge (code-only score)" instead of listing
judge dimensions at 0.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from navworld.runner.rowinfo import is_judge_failure

__all__ = ["Node", "breakdown", "render_text"]


@dataclass
class Node:
    """One line of the breakdown tree."""

    label: str
    value: str = ""
    ok: bool | None = None
    children: list[Node] = field(default_factory=list)
    note: str = ""

    def sort(self) -> Node:
        """Order children failed → informative → passed (stable), recursively."""
        rank = {False: 0, None: 1, True: 2}
        self.children.sort(key=lambda n: rank[n.ok])
        for child in self.children:
            child.sort()
        return self

    def failed(self) -> int:
        """How many leaves under (or at) this node failed."""
        if not self.children:
            return 1 if self.ok is False else 0
        return sum(c.failed() for c in self.children)


def _num(value: Any, digits: int = 2) -> str:
    if isinstance(value, bool) or value is None:
        return "—" if value is None else str(value).lower()
    if isinstance(value, int | float):
        text = f"{float(value):.{digits}f}".rstrip("0").rstrip(".")
        return text or "0"
    return str(value)


def _detail(detail: Any) -> str:
    if not isinstance(detail, dict):
        return "" if detail is None else str(detail)
    parts = []
    for key, value in detail.items():
        if isinstance(value, list):
            value = ", ".join(map(str, value[:5])) + (" …" if len(value) > 5 else "") if value else "none"
        elif isinstance(value, dict):
            value = ", ".join(f"{k}={v}" for k, v in list(value.items())[:5])
        parts.append(f"{key}={_num(value)}")
    return "; ".join(parts)


def _hard(report: dict[str, Any]) -> Node:
    hard = report.get("hard_constraints") or {}
    constraints = report.get("constraints") or {}
    details = constraints.get("details") or {}
    mults = constraints.get("multipliers") or {}
    node = Node("hard constraints", f"× {_num(constraints.get('hc_multiplier', 1.0), 3)}")
    for name, ok in hard.items():
        value = f"× {_num(mults[name], 3)}" if name in mults else ("pass" if ok else "fail")
        node.children.append(Node(name, value, bool(ok), note=_detail(details.get(name))))
    node.ok = all(c.ok for c in node.children) if node.children else None
    return node


def _code(report: dict[str, Any]) -> Node:
    code = report.get("code_score") or {}
    node = Node("code score", f"{_num(code.get('subtotal'))} / 50")
    ic = Node("information consistency", f"{_num(code.get('info_consistency'))} / 25")
    for name, cat in (code.get("ic_categories") or {}).items():
        if not isinstance(cat, dict):
            continue
        score = cat.get("score")
        ok = None if not cat.get("answer") else bool(isinstance(score, int | float) and score >= 0.5)
        matched, cited = cat.get("matched", 0), cat.get("answer", 0)
        # distances and durations count the tool facts an answer's figure is near (one cited distance
        # can match several): say so instead of printing "28/21 matched"
        head = f"{matched}/{cited} matched" if matched <= cited else f"{cited} cited, {matched} tool facts matched"
        value = f"{head} · {cat.get('tool', 0)} in tools"
        ic.children.append(Node(name, value, ok, note=f"score {_num(score)}"))
    completeness = Node("completeness", f"{_num(code.get('completeness'))} / 25")
    for name, value in (code.get("comp_subscores") or {}).items():
        completeness.children.append(Node(name, _num(value), bool(value) if isinstance(value, int | float) else None))
    node.children += [ic, completeness]
    penalty = code.get("fabrication_penalty")
    fab = code.get("fabrication") or {}
    node.children.append(
        Node("fabrication penalty", _num(penalty), None if not penalty else False, note=_detail(fab))
    )
    mults = {k: code.get(k) for k in ("diversity_mult", "echo_mult", "local_fab_mult", "defense_mult")}
    node.children.append(
        Node(
            "multipliers",
            ", ".join(f"{k.removesuffix('_mult')} ×{_num(v, 3)}" for k, v in mults.items() if v is not None),
        )
    )
    return node


def _judge(row: dict[str, Any], report: dict[str, Any]) -> Node:
    if not row.get("judge"):
        return Node("LLM judge", "no judge (code-only score, max 50)")
    if is_judge_failure(row):
        return Node("LLM judge", "judge failed — scored code-only", False, note=str(report.get("llm_error")))
    llm = report.get("llm_score") or {}
    node = Node("LLM judge", f"{_num(llm.get('subtotal'))} / 50 (coupled {_num(llm.get('coupled_subtotal'))})")
    reasons = llm.get("reasons") or {}
    for dim in ("practicality", "analysis_depth", "logic", "user_experience", "factual_grounding"):
        if dim in llm:
            node.children.append(Node(dim, _num(llm[dim]), None, note=str(reasons.get(dim, ""))))
    return node


def _plan(row: dict[str, Any]) -> Node:
    plan = row.get("plan") or {}
    verification = plan.get("verification")
    if row.get("error"):
        return Node("plan verification", "not verified (the row failed on infrastructure)")
    if not isinstance(verification, dict) or not verification.get("delivered", False):
        why = ((verification or {}).get("reasons") or {}).get("delivered") if verification else None
        return Node("plan verification", "no structured plan delivered", False, note=str(why or ""))
    reasons = verification.get("reasons") or {}
    env = verification.get("env") or {}
    env_node = Node("environment checks", "")
    for name, ok in (env.get("checks") or {}).items():
        env_node.children.append(Node(name, "pass" if ok is True else "fail", ok is True, note=str(reasons.get(name) or "")))
    passed = sum(1 for c in env_node.children if c.ok)
    env_node.value = f"{passed}/{len(env_node.children)} passed"
    env_node.ok = passed == len(env_node.children)
    logic = verification.get("logic") or {}
    glosses = plan.get("constraints") or []
    errors = logic.get("errors") or []
    logic_node = Node("constraint programs", "")
    for i, ok in enumerate(logic.get("results") or []):
        label = glosses[i] if i < len(glosses) else f"constraint #{i + 1}"
        why = errors[i] if i < len(errors) and errors[i] else ("" if ok is True else "not satisfied")
        logic_node.children.append(Node(label, "pass" if ok is True else "fail", ok is True, note=str(why)))
    passed = sum(1 for c in logic_node.children if c.ok)
    logic_node.value = f"{passed}/{len(logic_node.children)} satisfied"
    logic_node.ok = passed == len(logic_node.children)
    prefs = Node("preferences", "", None)
    for name, value in (verification.get("preferences") or {}).items():
        prefs.children.append(Node(name, _num(value)))
    final = bool(verification.get("final_pass"))
    node = Node("plan verification", "final pass" if final else "not passed", final, [env_node, logic_node])
    if prefs.children:
        node.children.append(prefs)
    return node


def breakdown(row: dict[str, Any]) -> Node:
    """The score tree of ``row`` (failed items first at every level)."""
    report = row.get("report") or {}
    if row.get("error"):
        root = Node("score", "not scored", False, note=f"infrastructure error: {row['error']}")
        root.children.append(_plan(row))
        return root
    root = Node("total", f"{_num(report.get('total', row.get('score')))} / 100")
    root.children = [_hard(report), _code(report), _judge(row, report), _plan(row)]
    path = report.get("path")
    if path:
        root.children.append(Node("scoring path", str(path), note="parse ok" if report.get("parse_success") else "answer not parsed"))
    return root.sort()


def render_text(node: Node, indent: str = "", max_children: int = 12) -> list[str]:
    """The tree as indented text lines (``✗`` failed, ``✓`` passed), passed leaves summarised."""
    mark = {False: "✗", True: "✓", None: "·"}[node.ok]
    line = f"{indent}{mark} {node.label}" + (f": {node.value}" if node.value else "")
    if node.note:
        line += f"  ({node.note})"
    lines = [line]
    shown = 0
    hidden_ok = 0
    for child in node.children:
        if shown >= max_children and child.ok is True and not child.children:
            hidden_ok += 1
            continue
        lines.extend(render_text(child, indent + "  ", max_children))
        shown += 1
    if hidden_ok:
        lines.append(f"{indent}  ✓ … {hidden_ok} more passed")
    return lines
