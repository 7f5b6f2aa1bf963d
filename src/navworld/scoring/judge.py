"""LLM judge over any OpenAI-compatible endpoint(s) (``openai>=3`` ``AsyncOpenAI``).

* Every panel model scores the same prompt (5 dimensions × 10); per dimension the **median** of
  the successful models is kept (a true median: the mean of the middle two for an even count).
* If that total exceeds 36/50, a second model re-evaluates (with a differently seeded rubric)
  and the per-dimension **minimum** is kept. The cross model is ``cross_model`` if given, else
  the second panel model, else the only one.
* fg ≤ 3 caps logic and analysis_depth at fg + 2.
* Each call retries transient failures; if every panel model fails the result is unsuccessful
  with the reason recorded, and the scorer falls back to code-only (P4). Without any API key the
  judge is not run (P5).

API keys come from the constructor or the environment (``NAVWORLD_JUDGE_API_KEY``, then
``OPENAI_API_KEY``); they are never logged or put into results.
"""

from __future__ import annotations

import asyncio
import logging
import os
import statistics
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from navworld.scoring import config as C
from navworld.scoring.judge_call import JudgeCallError, call_judge, failure_class
from navworld.scoring.judge_prompt import SYSTEM_PROMPT, JudgeContext, build_prompt
from navworld.scoring.judge_reply import read_verdict

__all__ = ["API_KEY_ENVS", "JudgeModel", "JudgeResult", "LLMJudge", "aggregate_median"]

logger = logging.getLogger(__name__)

API_KEY_ENVS = ("NAVWORLD_JUDGE_API_KEY", "OPENAI_API_KEY")


@dataclass(frozen=True)
class JudgeModel:
    """One judge endpoint: model name, base URL and (hidden) API key."""

    model: str
    base_url: str | None = None
    api_key: str | None = field(default=None, repr=False)


@dataclass
class JudgeResult:
    """The aggregated judge verdict (scores on 0–10 per dimension)."""

    success: bool
    scores: dict[str, float] = field(default_factory=dict)
    reasons: dict[str, str] = field(default_factory=dict)
    error: str | None = None
    per_model: dict[str, float] = field(default_factory=dict)
    failures: dict[str, str] = field(default_factory=dict)
    cross_validated: bool = False
    cross_model: str | None = None
    cross_total: float | None = None
    cross_error: str | None = None
    error_kind: str | None = None
    """The class of ``error`` (``unparseable reply``, ``timeout``, ``http 500``, ...; see ``judge_call``)."""

    def info(self) -> dict[str, Any]:
        """JSON-safe details for the report (no keys, no prompts)."""
        return {
            "success": self.success,
            "per_model_totals": dict(self.per_model),
            "failures": dict(self.failures),
            "cross_validated": self.cross_validated,
            "cross_model": self.cross_model,
            "cross_total": self.cross_total,
            "cross_error": self.cross_error,
            "error": self.error,
            "error_kind": self.error_kind,
        }


def aggregate_median(
    results: Sequence[tuple[dict[str, float], dict[str, str]]],
) -> tuple[dict[str, float], dict[str, str]]:
    """Per-dimension median of several judges; the reason of the judge closest to the median."""
    scores: dict[str, float] = {}
    reasons: dict[str, str] = {}
    for d in C.LLM_DIMENSIONS:
        vals = [r[0][d] for r in results]
        med = float(statistics.median(vals))
        scores[d] = med
        closest = min(range(len(results)), key=lambda i: (abs(results[i][0][d] - med), i))
        if d in results[closest][1]:
            reasons[d] = results[closest][1][d]
    return scores, reasons


def _fg_cap(scores: dict[str, float]) -> dict[str, float]:
    fg = scores.get("factual_grounding", 10.0)
    if fg <= C.JUDGE_FG_CAP_TRIGGER:
        cap = fg + C.JUDGE_FG_CAP_MARGIN
        for d in ("logic", "analysis_depth"):
            scores[d] = min(scores[d], cap)
    return scores


def _env_key() -> str | None:
    for name in API_KEY_ENVS:
        v = os.environ.get(name, "").strip()
        if v:
            return v
    return None


class LLMJudge:
    """A panel of OpenAI-compatible judge models.

    ``models``: model names or :class:`JudgeModel`; ``base_url``/``api_key`` apply to models
    given by name (the key falls back to the environment). A loopback/explicit ``base_url``
    without a key (a local vLLM/sglang server) is called with the placeholder key ``EMPTY``.
    """

    def __init__(
        self,
        models: Sequence[JudgeModel | str],
        cross_model: JudgeModel | str | None = None,
        *,
        base_url: str | None = None,
        api_key: str | None = None,
        timeout: float = C.JUDGE_TIMEOUT_S,
        retries: int = C.JUDGE_RETRIES,
        backoff: float = C.JUDGE_RETRY_BACKOFF_S,
        max_tokens: int = C.JUDGE_MAX_TOKENS,
    ) -> None:
        key = api_key or _env_key()
        self.models = [self._model(m, base_url, key) for m in models if m]
        self.cross = self._model(cross_model, base_url, key) if cross_model else None
        self.timeout, self.retries, self.backoff, self.max_tokens = timeout, retries, backoff, max_tokens

    @staticmethod
    def _model(m: JudgeModel | str, base_url: str | None, key: str | None) -> JudgeModel:
        if isinstance(m, JudgeModel):
            return m if m.api_key else JudgeModel(m.model, m.base_url or base_url, key)
        return JudgeModel(str(m), base_url, key)

    @property
    def has_credentials(self) -> bool:
        """Whether every panel model has a key or an explicit endpoint (else P5: not run)."""
        return bool(self.models) and all(m.api_key or m.base_url for m in self.models)

    def __repr__(self) -> str:
        return f"LLMJudge(models={[m.model for m in self.models]!r}, cross={self.cross.model if self.cross else None!r})"

    async def evaluate(self, ctx: JudgeContext) -> JudgeResult:
        """Panel → median → cross-validation above 36/50 → fg cap. Never raises."""
        if not self.models:
            return JudgeResult(False, error="no judge models configured", error_kind="error")
        if not self.has_credentials:
            return JudgeResult(False, error="no judge API key", error_kind="no API key")
        prompt = build_prompt(ctx, "panel")
        outcomes = await asyncio.gather(*(self._ask(m, prompt) for m in self.models))
        ok: list[tuple[dict[str, float], dict[str, str]]] = []
        res = JudgeResult(False)
        for m, out in zip(self.models, outcomes, strict=True):
            if isinstance(out, str):
                res.failures[m.model] = out
            else:
                ok.append(out)
                res.per_model[m.model] = round(sum(out[0].values()), 2)
        if not ok:
            res.error_kind, res.error = _panel_error(res.failures)
            return res
        scores, reasons = aggregate_median(ok)
        scores = _fg_cap(scores)
        if sum(scores.values()) > C.CROSS_VALIDATION_THRESHOLD:
            cm = self.cross or (self.models[1] if len(self.models) > 1 else self.models[0])
            res.cross_model = cm.model
            out = await self._ask(cm, build_prompt(ctx, "cross"))
            if isinstance(out, str):
                res.cross_error = out
            else:
                res.cross_validated = True
                res.cross_total = round(sum(out[0].values()), 2)
                for d in C.LLM_DIMENSIONS:
                    if out[0][d] < scores[d]:
                        scores[d] = out[0][d]
                        if d in out[1]:
                            reasons[d] = out[1][d]
                scores = _fg_cap(scores)
        res.success, res.scores, res.reasons = True, scores, reasons
        return res

    async def _ask(self, m: JudgeModel, prompt: str) -> tuple[dict[str, float], dict[str, str]] | str:
        """One model's parsed verdict, or its failure as ``"<class>: <detail>"`` (never the key).

        Transient failures are retried with backoff; an unparseable reply is retried with a
        prompt that shows the judge its reply and says what was wrong (at temperature 0 an
        identical request would only bring the same reply back); a timeout after tokens, an
        invalid request and 4xx errors are not retried.
        """
        key = m.api_key or ("EMPTY" if m.base_url else None)
        if not key:
            return "no API key"
        messages = [{"role": "system", "content": SYSTEM_PROMPT}, {"role": "user", "content": prompt}]
        error = "error: no attempt"
        attempts = 0
        for attempt in range(self.retries + 1):
            attempts = attempt + 1
            try:
                reply = await call_judge(
                    m.model, m.base_url, key, messages,
                    timeout=self.timeout, max_tokens=self.max_tokens, temperature=C.JUDGE_TEMPERATURE,
                )  # fmt: skip
            except JudgeCallError as exc:
                error = exc.text
                logger.info("judge %s attempt %d failed: %s", m.model, attempts, exc.cls)
                if not exc.retryable or attempt == self.retries:
                    break
                await asyncio.sleep(self.backoff * (2**attempt))
                continue
            verdict = read_verdict(reply.content, prompt=prompt, finish_reason=reply.finish_reason)
            if verdict.scores is not None:
                return verdict.scores, verdict.reasons
            error = f"unparseable reply: {verdict.problem}"
            logger.info("judge %s attempt %d: %s", m.model, attempts, error)
            messages = [*messages[:2], *correction_messages(reply.content, verdict.problem or "", attempts)]
        return error + (f" (after {attempts} attempts)" if attempts > 1 else "")


def correction_messages(reply: str | None, problem: str, attempt: int = 1) -> list[dict[str, str]]:
    """The judge's unusable reply (cut) and a user turn saying what was wrong with it.

    The text names how many replies were unusable so far, so that no two retries are identical.
    """
    shown = (reply or "").strip()
    if len(shown) > CORRECTION_REPLY_CHARS:
        shown = shown[:CORRECTION_REPLY_CHARS] + "…"
    fmt = ", ".join(f'"{d}": {{"score": 分数, "reason": "一句话理由"}}' for d in C.LLM_DIMENSIONS)
    again = f"（已有 {attempt} 次回复无法解析）" if attempt > 1 else ""
    text = (
        f"你上一条回复无法解析：{problem}。{again}请不要复述题目、数据或格式说明，"
        f"只输出一个 JSON 对象，包含全部五个维度：{{{fmt}}}，其中分数是 0 到 10 的数字。"
    )
    return [{"role": "assistant", "content": shown or "（空）"}, {"role": "user", "content": text}]


CORRECTION_REPLY_CHARS = 600
"""How much of an unusable judge reply is shown back to the judge in the retry."""


def _panel_error(failures: dict[str, str]) -> tuple[str, str]:
    """``(class, error)`` for a panel whose every model failed: the most common class first."""
    classes = [failure_class(f) or "error" for f in failures.values()]
    main = max(dict.fromkeys(classes), key=classes.count)
    if len(failures) == 1:
        return main, next(iter(failures.values()))
    parts = "; ".join(f"{model}: {text}" for model, text in failures.items())
    return main, f"{main}: all judge models failed ({len(failures)}) — {parts}"
