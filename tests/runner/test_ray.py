"""``--backend ray`` on a local Ray gives the same rows as the local backend."""

from __future__ import annotations

import importlib.util
import json
from pathlib import Path

import pytest

from .conftest import requires_reference
from .helpers import result_lines, run_cli

pytestmark = [
    pytest.mark.ray,
    pytest.mark.slow,
    pytest.mark.skipif(
        importlib.util.find_spec("ray") is None, reason="ray is not installed (pip install 'navworld[ray]')"
    ),
]


def _scores(run_dir: Path) -> dict[int, tuple[float | None, str]]:
    return {r["task_id"]: (r["score"], r["content_hash"]) for r in result_lines(run_dir)}


def _compare(tmp_path: Path, agent_args: list[str], spec: str) -> None:
    common = ["eval", *agent_args, "--tasks", spec, "--salt", "t1", "--no-report", "--json"]
    local = run_cli([*common, "--out", str(tmp_path / "local")], tmp_path)
    assert local.returncode == 0, local.stderr
    remote = run_cli(
        [*common, "--out", str(tmp_path / "ray"), "--backend", "ray", "--concurrency", "4"], tmp_path
    )
    assert remote.returncode == 0, remote.stderr
    summary = json.loads(remote.stdout)  # Ray must not print on stdout
    assert summary["errors"] == 0 and summary["new"] == summary["completed"]
    assert _scores(tmp_path / "ray") == _scores(tmp_path / "local")
    again = run_cli([*common, "--out", str(tmp_path / "ray"), "--backend", "ray"], tmp_path)
    assert json.loads(again.stdout)["new"] == 0


def test_ray_matches_local_with_fake_model(tmp_path: Path, model_args: list[str]) -> None:
    _compare(tmp_path, model_args, "0:8")


@requires_reference
def test_ray_matches_local_reference_0_35(tmp_path: Path) -> None:
    _compare(tmp_path, [], "0:35")
