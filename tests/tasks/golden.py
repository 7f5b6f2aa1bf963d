"""Golden hashes of generated problems: the ids, the hash function and the regenerate entry point.

Regenerate after an intended change of the generator (bump ``GENERATOR_VERSION``) or the world::

    python -m tests.tasks.golden
"""

from __future__ import annotations

import hashlib
import json
from pathlib import Path
from typing import Any

GOLDEN_PATH = Path(__file__).resolve().parents[1] / "golden" / "tasks.json"
GOLDEN_SALT = "golden"
GOLDEN_IDS = [*range(21), 63, 100, 999, 4242, 9999, 123_456, 10**9]


def problem_hash(problem_dict: dict[str, Any]) -> str:
    """sha256 of the canonical JSON of ``Problem.to_dict()``."""
    text = json.dumps(problem_dict, sort_keys=True, ensure_ascii=False, separators=(",", ":"))
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def compute() -> dict[str, Any]:
    """The golden document for the current code."""
    from navworld.core.versions import GENERATOR_VERSION, WORLD_VERSION
    from navworld.tasks.generator import ProblemGenerator
    from navworld.world.sandbox import SandboxWorld

    gen = ProblemGenerator(SandboxWorld(salt=GOLDEN_SALT))
    return {
        "salt": GOLDEN_SALT,
        "generator_version": GENERATOR_VERSION,
        "world_version": WORLD_VERSION,
        "hashes": {
            lang: {str(i): problem_hash(gen.generate(i, lang).to_dict()) for i in GOLDEN_IDS} for lang in ("zh", "en")
        },
    }


def main() -> None:
    """Rewrite ``tests/golden/tasks.json``."""
    GOLDEN_PATH.parent.mkdir(parents=True, exist_ok=True)
    GOLDEN_PATH.write_text(json.dumps(compute(), indent=2, ensure_ascii=False) + "\n", encoding="utf-8")
    print(f"wrote {GOLDEN_PATH}")


if __name__ == "__main__":
    main()
