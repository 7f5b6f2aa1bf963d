"""Regenerate the golden hashes of sample tool outputs (``tests/golden/tools.json``).

Run after an intended change of the sandbox world or the text format (and bump WORLD_VERSION):

    python tests/golden/make_golden.py
"""

from __future__ import annotations

import asyncio
import hashlib
import json
from pathlib import Path
from typing import Any

from navworld.core.versions import WORLD_VERSION
from navworld.tools.registry import call_tool
from navworld.world.sandbox import SandboxWorld

GOLDEN = Path(__file__).with_name("tools.json")
SALT = "golden"
CASES: list[tuple[str, dict[str, Any]]] = [
    ("poi_search", {"address": "西湖", "region": "杭州"}),
    ("poi_search", {"address": "博物馆", "region": "北京"}),
    ("poi_search", {"address": "火锅", "region": "成都"}),
    ("poi_search", {"address": "酒店", "region": "上海"}),
    ("poi_search", {"address": "素食", "region": "厦门"}),
    ("around_search", {"location": "116.397128,39.916527", "radius": 3000, "keyword": "餐厅"}),
    ("around_search", {"location": "121.499718,31.239703", "radius": 1500}),
    ("direction", {"origin": "120.141200,30.258700", "destination": "120.212600,30.290851", "mode": "driving"}),
    ("direction", {"origin": "116.397128,39.916527", "destination": "116.326836,39.982561", "mode": "transit"}),
    ("direction", {"origin": "104.065735,30.659462", "destination": "104.080989,30.657689", "mode": "walking"}),
    ("weather", {"city": "哈尔滨", "date": "2025-01-15"}),
    ("weather", {"city": "广州", "date": "2025-07-01"}),
    ("search_flights", {"date": "2025-05-01", "from_city": "北京", "to_city": "上海"}),
    ("search_flights", {"date": "2025-10-01", "from_city": "成都", "to_city": "三亚"}),
    ("search_train_tickets", {"date": "2025-05-01", "from_city": "北京", "to_city": "上海"}),
    ("search_train_tickets", {"date": "2025-05-01", "from_city": "无锡", "to_city": "常州"}),
    ("search_train_tickets", {"date": "2025-02-01", "from_city": "乌鲁木齐", "to_city": "北京"}),
]


def _sha(text: str) -> str:
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def compute() -> dict[str, Any]:
    """Run every case on a fresh sandbox and hash its text and its canonical data JSON."""
    world = SandboxWorld(salt=SALT)

    async def run() -> list[dict[str, Any]]:
        out = []
        for name, args in CASES:
            r = await call_tool(name, args, world)
            data = json.dumps(r.data, ensure_ascii=False, sort_keys=True, separators=(",", ":"))
            out.append({"tool": name, "args": args, "ok": r.ok, "text_sha256": _sha(r.text), "data_sha256": _sha(data)})
        return out

    return {"world_version": WORLD_VERSION, "salt": SALT, "cases": asyncio.run(run())}


def main() -> None:
    """Write ``tools.json``."""
    GOLDEN.write_text(json.dumps(compute(), ensure_ascii=False, indent=1) + "\n", encoding="utf-8")
    print(f"wrote {GOLDEN}")


if __name__ == "__main__":
    main()
