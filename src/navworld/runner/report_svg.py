"""Inline SVG charts for the HTML report (no JavaScript library, no network, a few KB each).

Every chart is a plain ``<svg>`` string with a ``<title>`` per bar (hover shows the value). Labels
are escaped; numbers are formatted here. Charts: score histogram (with the success mark),
grouped bars (mean score and success rate) per problem type / difficulty, and plan metrics.
"""

from __future__ import annotations

from collections.abc import Sequence
from html import escape

__all__ = ["bar_chart", "histogram"]

WIDTH, HEIGHT = 520, 260
LEFT, RIGHT, TOP, BOTTOM = 44, 12, 16, 48
COLORS = ("#3b6ea8", "#7aa65a", "#8a5fb0", "#c77c2e")


def _frame(inner: list[str], y_max: float, y_label: str, klass: str) -> str:
    plot_h = HEIGHT - TOP - BOTTOM
    parts = [
        f'<svg class="chart-svg {klass}" viewBox="0 0 {WIDTH} {HEIGHT}" width="100%" role="img" '
        f'xmlns="http://www.w3.org/2000/svg" font-size="11" font-family="system-ui, sans-serif">'
    ]
    for i in range(5):
        value = y_max * i / 4
        y = TOP + plot_h - plot_h * i / 4
        parts.append(
            f'<line x1="{LEFT}" x2="{WIDTH - RIGHT}" y1="{y:.1f}" y2="{y:.1f}" stroke="#e3e7ee"/>'
            f'<text x="{LEFT - 6}" y="{y + 4:.1f}" text-anchor="end" fill="#667085">{value:g}</text>'
        )
    parts.append(
        f'<text x="12" y="{TOP + plot_h / 2:.1f}" transform="rotate(-90 12 {TOP + plot_h / 2:.1f})" '
        f'text-anchor="middle" fill="#667085">{escape(y_label)}</text>'
    )
    parts.extend(inner)
    parts.append("</svg>")
    return "".join(parts)


def histogram(values: Sequence[float], *, lo: float = 0, hi: float = 100, bins: int = 20, mark: float | None = 60) -> str:
    """A histogram of ``values`` on [lo, hi] with an optional dashed mark (the success line)."""
    counts = [0] * bins
    width = (hi - lo) / bins
    for v in values:
        index = min(bins - 1, max(0, int((float(v) - lo) // width)))
        counts[index] += 1
    top = max(counts, default=0) or 1
    y_max = float(max(4, top + (-top % 4)))
    plot_w, plot_h = WIDTH - LEFT - RIGHT, HEIGHT - TOP - BOTTOM
    bar_w = plot_w / bins
    inner = []
    for i, count in enumerate(counts):
        if not count:
            continue
        h = plot_h * count / y_max
        x = LEFT + i * bar_w
        inner.append(
            f'<rect class="bar" x="{x + 1:.1f}" y="{TOP + plot_h - h:.1f}" width="{bar_w - 2:.1f}" height="{h:.1f}" '
            f'fill="{COLORS[0]}"><title>{lo + i * width:g}–{lo + (i + 1) * width:g}: {count} rows</title></rect>'
        )
    for i in range(0, bins + 1, max(1, bins // 10)):
        x = LEFT + i * bar_w
        inner.append(f'<text x="{x:.1f}" y="{HEIGHT - BOTTOM + 16}" text-anchor="middle" fill="#667085">{lo + i * width:g}</text>')
    inner.append(
        f'<text x="{LEFT + plot_w / 2:.1f}" y="{HEIGHT - 8}" text-anchor="middle" fill="#667085">total score (0–100)</text>'
    )
    if mark is not None:
        x = LEFT + plot_w * (mark - lo) / (hi - lo)
        inner.append(
            f'<line x1="{x:.1f}" x2="{x:.1f}" y1="{TOP}" y2="{TOP + plot_h}" stroke="#b33" stroke-dasharray="4 3"/>'
            f'<text x="{x + 4:.1f}" y="{TOP + 10}" fill="#b33">success ≥ {mark:g}</text>'
        )
    return _frame(inner, y_max, "rows", "histogram")


def bar_chart(
    labels: Sequence[str],
    series: Sequence[tuple[str, Sequence[float | None]]],
    *,
    y_max: float = 100,
    y_label: str = "",
) -> str:
    """Grouped vertical bars: one group per label, one bar per series (``None`` → no bar)."""
    plot_w, plot_h = WIDTH - LEFT - RIGHT, HEIGHT - TOP - BOTTOM
    groups = max(1, len(labels))
    group_w = plot_w / groups
    bar_w = max(2.0, (group_w - 8) / max(1, len(series)))
    inner = []
    for gi, label in enumerate(labels):
        x0 = LEFT + gi * group_w + 4
        for si, (name, values) in enumerate(series):
            value = values[gi] if gi < len(values) else None
            if value is None:
                continue
            h = plot_h * max(0.0, min(float(value), y_max)) / y_max
            inner.append(
                f'<rect class="bar" x="{x0 + si * bar_w:.1f}" y="{TOP + plot_h - h:.1f}" width="{bar_w - 1:.1f}" '
                f'height="{h:.1f}" fill="{COLORS[si % len(COLORS)]}"><title>{escape(str(label))} · {escape(name)}: '
                f"{float(value):.1f}</title></rect>"
            )
        inner.append(
            f'<text x="{x0 + (group_w - 8) / 2:.1f}" y="{HEIGHT - BOTTOM + 16}" text-anchor="middle" fill="#344054">'
            f"{escape(str(label))}</text>"
        )
    for si, (name, _values) in enumerate(series):
        x = LEFT + si * 130
        inner.append(
            f'<rect x="{x}" y="{HEIGHT - 16}" width="10" height="10" fill="{COLORS[si % len(COLORS)]}"/>'
            f'<text x="{x + 14}" y="{HEIGHT - 7}" fill="#344054">{escape(name)}</text>'
        )
    return _frame(inner, y_max, y_label, "bars")
