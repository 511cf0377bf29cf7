"""How long `fountain-audit report` takes on a 5 MB recorder-shaped session, and how long the
page takes to open in headless Chromium (Debian's chromium, driven by Playwright).

    python benchmarks/report.py [--size BYTES] [--rounds N]

Prints the median of N rounds: whole-process report time (s) and its CPU time (user + system,
s: less sensitive to other work on the machine), page size (MB), time to the
browser's load event (s) and to the first frame painted after it (s), and the machine's load
average before and after (1-minute, as ``uptime`` shows it), since other work on the machine
slows every figure.
"""

from __future__ import annotations

import argparse
import os
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from tests.test_report import CHROMIUM, CHROMIUM_ARGS, big_session  # noqa: E402


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--size", type=int, default=5_000_000)
    ap.add_argument("--rounds", type=int, default=5)
    args = ap.parse_args()
    exe = shutil.which("fountain-audit") or str(Path(sys.executable).with_name("fountain-audit"))
    load_before = os.getloadavg()[0]
    with tempfile.TemporaryDirectory() as tmp:
        src = Path(tmp) / "big.spmd"
        src.write_text(big_session(args.size))
        out = Path(tmp) / "big.html"
        render, cpu, opened, painted = [], [], [], []
        for _ in range(args.rounds):
            before = resource.getrusage(resource.RUSAGE_CHILDREN)
            t0 = time.perf_counter()
            subprocess.run([exe, "report", str(src), "-o", str(out)], check=True, stderr=subprocess.DEVNULL)
            render.append(time.perf_counter() - t0)
            after = resource.getrusage(resource.RUSAGE_CHILDREN)
            cpu.append(after.ru_utime - before.ru_utime + after.ru_stime - before.ru_stime)
        if CHROMIUM:
            from playwright.sync_api import sync_playwright

            with sync_playwright() as p:
                browser = p.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
                for _ in range(args.rounds):
                    page = browser.new_page()
                    t0 = time.perf_counter()
                    page.goto(out.as_uri(), wait_until="load", timeout=600_000)
                    opened.append(time.perf_counter() - t0)
                    page.evaluate("new Promise(done => requestAnimationFrame(() => setTimeout(done, 0)))")
                    painted.append(time.perf_counter() - t0)
                    page.close()
                browser.close()
        size_in = src.stat().st_size / 1e6
        size_out = out.stat().st_size / 1e6
    print(f"input {size_in:.1f} MB · cpus {os.cpu_count()} · load average {load_before:.2f} before, "
          f"{os.getloadavg()[0]:.2f} after · median of {args.rounds}")
    print(f"| report (whole process) | {statistics.median(render):.2f} s | CPU {statistics.median(cpu):.2f} s, "
          f"page {size_out:.1f} MB |")
    if opened:
        print(f"| page load in Chromium | {statistics.median(opened):.2f} s | first frame after load "
              f"{statistics.median(painted):.2f} s |")
    else:
        print("| page load in Chromium | not measured: chromium not installed | |")


if __name__ == "__main__":
    main()
