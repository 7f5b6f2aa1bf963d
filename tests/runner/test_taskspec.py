"""``--tasks`` parsing."""

from __future__ import annotations

from pathlib import Path

import pytest

from navworld.core.errors import ConfigError
from navworld.runner.taskspec import MAX_TASKS, parse_task_spec


@pytest.mark.parametrize(
    ("spec", "ids"),
    [
        ("0:3", [0, 1, 2]),
        ("5", [5]),
        ("1,5,9", [1, 5, 9]),
        ("0:2, 7, 10:12", [0, 1, 7, 10, 11]),
        ("3,1,3,0:2", [3, 1, 0]),
        (" 4 : 6 ", [4, 5]),
    ],
)
def test_specs(spec: str, ids: list[int]) -> None:
    assert parse_task_spec(spec) == ids


@pytest.mark.parametrize(
    "spec", ["", "  ", "5:5", "7:3", "-1", "a:b", "1,,x", "0:3:5", "1.5", "nope.txt", f"0:{MAX_TASKS + 1}"]
)
def test_bad_specs(spec: str) -> None:
    with pytest.raises(ConfigError) as err:
        parse_task_spec(spec)
    assert "\n" not in str(err.value)


def test_file_specs(tmp_path: Path) -> None:
    ids = tmp_path / "ids.txt"
    ids.write_text("# my tasks\n1\n2, 3\n10:12  # a range\n", encoding="utf-8")
    assert parse_task_spec(f"@{ids}") == [1, 2, 3, 10, 11]
    assert parse_task_spec(str(ids)) == [1, 2, 3, 10, 11]
    with pytest.raises(ConfigError):
        parse_task_spec(f"@{tmp_path / 'missing.txt'}")
    empty = tmp_path / "empty.txt"
    empty.write_text("# nothing\n", encoding="utf-8")
    with pytest.raises(ConfigError):
        parse_task_spec(f"@{empty}")
