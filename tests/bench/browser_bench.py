"""Runs www/bench.html in headless Chromium and prints its ratios.

The page times the core's wasm API (compileSchema, validateContent) against JSON.parse
of the same schema in the same run; this script only serves the page, waits and prints.
Speed is reported, never asserted: a slow machine is not a failing test.

Usage: .venv/bin/python tests/bench/browser_bench.py [--out FILE.json]
(www/pkg must exist: scripts/build-www.)
"""

from __future__ import annotations

import argparse
import json
import shutil
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "e2e"))

from harness import CHROMEDRIVER, WWW, StaticServer, chrome_options  # noqa: E402


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--out", type=Path, help="also write the results as JSON here")
    parser.add_argument("--timeout", type=float, default=300.0)
    args = parser.parse_args()

    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service

    if not any((WWW / "pkg").glob("*.wasm")):
        print("www/pkg has no .wasm: run scripts/build-www first", file=sys.stderr)
        return 2
    profile = tempfile.mkdtemp(prefix="mcp-elicit-bench-")
    browser = webdriver.Chrome(service=Service(executable_path=str(CHROMEDRIVER)), options=chrome_options(profile))
    try:
        with StaticServer(WWW) as www:
            browser.get(f"{www.origin}/bench.html")
            deadline = time.monotonic() + args.timeout
            while time.monotonic() < deadline:
                results = browser.execute_script("return window.benchResults || null")
                error = browser.execute_script("return window.benchError || null")
                if results or error:
                    break
                time.sleep(0.5)
            else:
                print("the benchmark page did not finish in time", file=sys.stderr)
                return 1
    finally:
        browser.quit()
        shutil.rmtree(profile, ignore_errors=True)
    if error:
        print(f"the benchmark page failed: {error}", file=sys.stderr)
        return 1
    print(f"{'case':<16} {'JSON.parse ns':>14} {'compile ns':>11} {'ratio':>7} {'validate ns':>12} {'ratio':>7}")
    for r in results:
        print(
            f"{r['case']:<16} {r['reference_json_parse_ns']:>14} {r['compile_ns']:>11} {r['compile_ratio']:>7}"
            f" {r['validate_ns']:>12} {r['validate_ratio']:>7}"
        )
    if args.out:
        args.out.parent.mkdir(parents=True, exist_ok=True)
        args.out.write_text(json.dumps(results, indent=2) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
