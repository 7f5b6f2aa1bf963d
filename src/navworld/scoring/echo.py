"""Scorer s2: echo detection on normalised content.

The seed compares answer lines with tool lines byte for byte, so a tool dump with ``- `` in front
of each line, other punctuation or reordered lines passes as original writing. Here both sides
are normalised to letters, digits and CJK characters (lower case); the answer's prose (the JSON
plan excluded) is cut into consecutive ``ECHO_SHINGLE_CHARS``-character blocks, and the echo share
is the fraction of blocks found verbatim in the normalised tool results or earlier in the same
answer (padding by repetition). Any block of copied text is a substring of its source, whatever
the alignment; original prose rarely is (honest answers measured: at most 0.19, the penalty
starts at ``ECHO_SHARE_START`` = 0.3).
"""

from __future__ import annotations

from functools import lru_cache

from navworld.scoring import config as C
from navworld.scoring import patterns as P
from navworld.scoring.facts import ToolFacts
from navworld.scoring.parser import ParsedAnswer

__all__ = ["echo_total_factor", "normalise_for_echo", "normalised_echo_share"]


@lru_cache(maxsize=C.TOOL_TEXT_CACHE_SIZE)
def normalise_for_echo(text: str) -> str:
    """``text`` with everything but letters, digits and CJK removed, lower-cased."""
    return P.ECHO_DROP.sub("", text).lower()


def normalised_echo_share(pa: ParsedAnswer, tf: ToolFacts) -> float:
    """Share of the answer prose's normalised blocks that occur in the normalised tool results."""
    text = pa.text
    if pa.json_span is not None:
        text = text[: pa.json_span[0]] + "\n" + text[pa.json_span[1] :]
    prose = P.ECHO_DROP.sub("", text).lower()
    n = C.ECHO_SHINGLE_CHARS
    if len(prose) < n:
        return 0.0
    tool = "\x00".join(normalise_for_echo(t) for t in tf.texts)
    first: dict[str, int] = {}
    for i in range(len(prose) - n + 1):
        first.setdefault(prose[i : i + n], i)
    found = 0
    blocks = range(0, len(prose) - n + 1, n)
    for i in blocks:
        b = prose[i : i + n]
        if first[b] <= i - n or b in tool:  # said before in this answer, or copied from a tool result
            found += 1
    return found / len(blocks)


def echo_total_factor(share: float) -> float:
    """s2: the factor an echo ``share`` puts on the whole score — 1.0 up to ``ECHO_TOTAL_START``,
    linear to ``ECHO_TOTAL_MIN`` at ``ECHO_TOTAL_FULL``. A prose that is mostly tool output or
    repetition is no plan written for the user, whatever the plan beside it."""
    if share <= C.ECHO_TOTAL_START:
        return 1.0
    frac = min(1.0, (share - C.ECHO_TOTAL_START) / (C.ECHO_TOTAL_FULL - C.ECHO_TOTAL_START))
    return round(1.0 - (1.0 - C.ECHO_TOTAL_MIN) * frac, 4)
