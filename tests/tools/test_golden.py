"""Golden hashes pin a sample of tool outputs (regenerate: ``python tests/golden/make_golden.py``)."""

from __future__ import annotations

import importlib.util
import json
from pathlib import Path

GOLDEN_DIR = Path(__file__).resolve().parent.parent / "golden"


def _load_generator():  # type: ignore[no-untyped-def]
    spec = importlib.util.spec_from_file_location("make_golden", GOLDEN_DIR / "make_golden.py")
    assert spec and spec.loader
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def test_golden_hashes(real_catalog) -> None:  # type: ignore[no-untyped-def]
    expected = json.loads((GOLDEN_DIR / "tools.json").read_text(encoding="utf-8"))
    actual = _load_generator().compute()
    assert actual["world_version"] == expected["world_version"]
    assert all(c["ok"] for c in actual["cases"])
    for want, got in zip(expected["cases"], actual["cases"], strict=True):
        assert (got["tool"], got["args"]) == (want["tool"], want["args"])
        assert got["text_sha256"] == want["text_sha256"], (
            f"{got['tool']} {got['args']}: output changed - if intended, bump WORLD_VERSION and run "
            "`python tests/golden/make_golden.py`"
        )
        assert got["data_sha256"] == want["data_sha256"], got
