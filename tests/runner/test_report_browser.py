"""Open report.html from disk in headless Debian Chromium: charts render, drill-down works, offline.

Needs ``/usr/bin/chromium`` (Debian package ``chromium``); skipped with a clear reason otherwise.
Chromium runs with every host name mapped to NOTFOUND and a net log is recorded: the test fails if
the page itself initiated any network request (Chromium's own background services, initiated by
the browser, are blocked by the resolver rule and ignored).
"""

from __future__ import annotations

import json
import re
import shutil
import subprocess
import tempfile
from html import unescape as html_unescape
from pathlib import Path

import pytest

CHROMIUM = "/usr/bin/chromium"

pytestmark = [
    pytest.mark.slow,
    pytest.mark.skipif(
        not Path(CHROMIUM).exists(), reason="Debian chromium is not installed (apt-get install chromium)"
    ),
]

FLAGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
    "--disable-quic",
    "--disable-dev-shm-usage",
    "--host-resolver-rules=MAP * ~NOTFOUND",
]
VIRTUAL_TIME = "--virtual-time-budget=15000"
"""Lets the page's timers run (decompressing an opened row) before the DOM is dumped."""

# Inserted first in <head>: records errors and console.error before any page script runs.
CATCH = """<script>
window.__errors = [];
window.addEventListener("error", function (e) { window.__errors.push(String(e.message)); });
(function () { var original = console.error; console.error = function () {
  window.__errors.push(Array.prototype.join.call(arguments, " ")); original.apply(console, arguments); }; })();
</script>"""

# Inserted before </body>: on load, note the load time, open the first row, report what rendered.
PROBE = """
<script>
window.addEventListener("load", function () {
  var loaded = performance.now();
  var nav = performance.getEntriesByType("navigation")[0];
  var first = document.querySelector("details.task");
  if (first) { first.open = true; }
  function report() {
    var out = document.createElement("pre");
    out.id = "probe";
    out.textContent = JSON.stringify({
      loadMs: loaded,
      domContentLoadedMs: nav ? nav.domContentLoadedEventEnd : null,
      errors: window.__errors,
      resources: performance.getEntriesByType("resource").map(function (e) { return e.name; }),
      svgs: document.querySelectorAll("svg.chart-svg").length,
      bars: document.querySelectorAll("svg.chart-svg rect.bar").length,
      tasks: document.querySelectorAll("details.task").length,
      bubbles: first ? first.querySelectorAll(".bubble").length : 0,
      bubbleVisible: first && first.querySelector(".bubble") ? first.querySelector(".bubble").getBoundingClientRect().height > 0 : false,
      reasons: first ? first.querySelectorAll("ul.reasons li").length : 0,
      treeLeaves: first ? first.querySelectorAll(".tree .leaf").length : 0,
      injected: document.querySelectorAll("img").length
    });
    document.body.appendChild(out);
  }
  setTimeout(report, 3000);
});
</script>
"""


def _chromium(args: list[str], tmp: Path) -> subprocess.CompletedProcess[str]:
    profile = tempfile.mkdtemp(prefix="chromium-profile-", dir=tmp)
    return subprocess.run(
        [CHROMIUM, *FLAGS, VIRTUAL_TIME, f"--user-data-dir={profile}", *args],
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )


def _page_requests(net_log: Path) -> list[str]:
    """URLs of network requests that the page (not the browser itself) initiated."""
    data = json.loads(net_log.read_text(encoding="utf-8"))
    names = {v: k for k, v in data["constants"]["logEventTypes"].items()}
    found = []
    for event in data.get("events", []):
        if names.get(event.get("type")) != "URL_REQUEST_START_JOB":
            continue
        params = event.get("params") or {}
        url = str(params.get("url", ""))
        if re.match(r"^(https?|wss?|ftp)://", url) and params.get("initiator") != "not an origin":
            found.append(url)
    return found


def _probe(dom: str) -> dict[str, object]:
    match = re.search(r'<pre id="probe">(.*?)</pre>', dom, re.S)
    assert match, "the probe did not run (JavaScript failed?)"
    return json.loads(html_unescape(match.group(1)))


def load_time_ms(page: Path, tmp: Path) -> float:
    """Milliseconds from navigation start to the load event, in real time (no virtual clock)."""
    profile = tempfile.mkdtemp(prefix="chromium-profile-", dir=tmp)
    proc = subprocess.run(
        [CHROMIUM, *FLAGS, f"--user-data-dir={profile}", "--dump-dom", page.as_uri()],
        capture_output=True, text=True, timeout=120, check=False,
    )  # fmt: skip
    assert proc.returncode == 0, proc.stderr[-2000:]
    match = re.search(r'<pre id="loadtime">([0-9.]+)</pre>', proc.stdout)
    assert match, "the load-time probe did not run"
    return float(match.group(1))


LOAD_PROBE = """<script>window.addEventListener("load", function () { var p = document.createElement("pre");
p.id = "loadtime"; p.textContent = String(performance.now()); document.body.appendChild(p); });</script>"""


def check_report_in_browser(report: Path, tmp: Path, screenshot: Path) -> dict[str, object]:
    """Render ``report`` headless; return what the probe saw (asserting offline-ness, no errors)."""
    html = report.read_text(encoding="utf-8")
    probed = tmp / "probed-report.html"
    probed.write_text(html.replace("<head>", "<head>" + CATCH, 1).replace("</body>", PROBE + "</body>"), encoding="utf-8")
    net_log = tmp / "netlog.json"
    dom = _chromium([f"--log-net-log={net_log}", "--dump-dom", probed.as_uri()], tmp)
    assert dom.returncode == 0, dom.stderr[-2000:]
    probe = _probe(dom.stdout)
    assert probe["resources"] == [], f"the page loaded resources: {probe['resources']}"
    assert probe["errors"] == [], f"console errors: {probe['errors']}"
    assert _page_requests(net_log) == []
    timed = tmp / "timed-report.html"
    timed.write_text(html.replace("</body>", LOAD_PROBE + "</body>"), encoding="utf-8")
    probe["realLoadMs"] = load_time_ms(timed, tmp)
    shot = _chromium(["--window-size=1400,2600", f"--screenshot={screenshot}", probed.as_uri()], tmp)
    assert shot.returncode == 0, shot.stderr[-2000:]
    assert screenshot.stat().st_size > 10_000
    return probe


def test_synthetic_report_renders_offline(tmp_path: Path) -> None:
    from navworld.runner.report import write_report

    from .test_report import EVIL, _run

    run_dir = _run(tmp_path, "run", [92.0, 35.0, 64.0, 71.0, 12.0], text=EVIL + " 😀 emoji")
    report = write_report(run_dir)
    probe = check_report_in_browser(report, tmp_path, tmp_path / "report.png")
    assert probe["svgs"] == 4 and probe["bars"] > 0
    assert probe["tasks"] == 5 and probe["bubbles"] == 5 and probe["bubbleVisible"]
    assert probe["reasons"] >= 1 and probe["treeLeaves"] > 0
    assert probe["injected"] == 0, "escaped model text must not create elements"
    keep = Path(tempfile.gettempdir()) / "navworld-report-screenshot.png"
    shutil.copy(tmp_path / "report.png", keep)


def test_eval_report_renders_offline(tmp_path: Path, model_args: list[str]) -> None:
    from .helpers import run_cli

    out = tmp_path / "run"
    proc = run_cli(
        ["eval", *model_args, "--tasks", "0:7", "--salt", "t1", "--out", str(out), "--json"], tmp_path
    )
    assert proc.returncode == 0, proc.stderr
    probe = check_report_in_browser(out / "report.html", tmp_path, tmp_path / "eval-report.png")
    assert probe["svgs"] == 4 and probe["bars"] > 0
    assert probe["tasks"] == 7 and probe["bubbles"] >= 4 and probe["bubbleVisible"]
    shutil.copy(
        tmp_path / "eval-report.png", Path(tempfile.gettempdir()) / "navworld-eval-report-screenshot.png"
    )
