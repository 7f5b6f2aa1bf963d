"""Size, build time and browser load time of the HTML report.

Usage::

    python benchmarks/report_size.py [--tasks 0:70] [--salt t1] [--run DIR] [--browser]

Runs the reference agent on ``--tasks`` (or takes the existing run ``--run DIR``), builds
``report.html`` and prints its size, the build time, the number of compressed chunks and, with
``--browser`` (Debian's /usr/bin/chromium), the real time from navigation start to the load
event. Limits of issue 16: ≤ 1.5 MB for 70 tasks, ≤ 10 MB for 700, load < 2 s.
"""

from __future__ import annotations

import argparse
import re
import subprocess
import tempfile
import time
from pathlib import Path

from navworld.runner.batch import run_eval
from navworld.runner.config import AgentSpec, EvalConfig
from navworld.runner.report import write_report
from navworld.runner.taskspec import parse_task_spec

FLAGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update",
         "--disable-sync", "--no-first-run", "--disable-quic", "--host-resolver-rules=MAP * ~NOTFOUND"]  # fmt: skip
LOAD = """<script>window.addEventListener("load", function () { var p = document.createElement("pre");
p.id = "loadtime"; p.textContent = String(performance.now()); document.body.appendChild(p); });</script>"""


def load_ms(report: Path) -> float:
    """Real milliseconds to the load event in headless Chromium (median of 3)."""
    with tempfile.TemporaryDirectory() as tmp:
        page = Path(tmp) / "timed.html"
        page.write_text(report.read_text(encoding="utf-8").replace("</body>", LOAD + "</body>"), encoding="utf-8")
        times = []
        for i in range(3):
            out = subprocess.run(
                ["/usr/bin/chromium", *FLAGS, f"--user-data-dir={tmp}/p{i}", "--dump-dom", page.as_uri()],
                capture_output=True, text=True, timeout=120, check=True,
            ).stdout  # fmt: skip
            times.append(float(re.search(r'<pre id="loadtime">([0-9.]+)</pre>', out).group(1)))  # type: ignore[union-attr]
        return sorted(times)[1]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tasks", default="0:70")
    parser.add_argument("--salt", default="t1")
    parser.add_argument("--run", type=Path, help="an existing run directory (skips the eval)")
    parser.add_argument("--browser", action="store_true", help="also time the load in headless Chromium")
    args = parser.parse_args()
    run_dir = args.run
    if run_dir is None:
        run_dir = Path(tempfile.mkdtemp(prefix="navworld-report-")) / "run"
        ids = tuple(parse_task_spec(args.tasks))
        config = EvalConfig(task_ids=ids, tasks_spec=args.tasks, out=str(run_dir), salt=args.salt,
                            agent=AgentSpec(kind="reference"), workers=2)  # fmt: skip
        started = time.perf_counter()
        outcome = run_eval(config)
        print(f"eval: {outcome.summary['completed']} rows in {time.perf_counter() - started:.1f} s ({run_dir})")
    started = time.perf_counter()
    report = write_report(run_dir)
    built = time.perf_counter() - started
    html = report.read_text(encoding="utf-8")
    chunks = len(re.findall(r'id="chunk-\d+"', html))
    rows = html.count('<details class="task"')
    print(f"report: {rows} rows, {report.stat().st_size / 2**20:.2f} MB, {chunks} chunks, built in {built:.2f} s")
    if args.browser:
        print(f"load in headless Chromium: {load_ms(report):.0f} ms (median of 3)")


if __name__ == "__main__":
    main()
