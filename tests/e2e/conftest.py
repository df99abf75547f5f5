"""Shared pytest fixtures for the end-to-end tests.

Safe for parallel workers (`pytest -n N`, pytest-xdist): each worker is its own session,
with its own session fixtures; every server the harness starts binds a port the system
picks (none is fixed or chosen in advance); logs and traces have names no other server
shares; `www/` is only read.

- `demo_server`: the demo MCP server (both eras, CORS for any loopback page), one per
  test session (worker); `make_demo_server(options)`: extra servers with other options (e.g.
  `["--no-cors"]`), stopped after the test; each has `.url`, `.origin`, `.stop()`,
  `.restart()` (same port and `requestState` key, for the fault tests).
- `www`: `www/` served on 127.0.0.1 (`.origin`); fails, never skips, when `www/pkg` or
  `www/demo/pkg` (the wasm-bindgen outputs of `scripts/build-www`) is missing.
- `driver`: headless Debian Chromium through Selenium, never downloading anything: one
  browser per worker, each test given it as a fresh one shows itself (`Browsers`);
  `artifacts`: the git-ignored `artifacts/` directory for screenshots and logs;
  `app_url(server=..., protocol=..., tool=..., args=...)`: the demo page's URL.
"""

from __future__ import annotations

import json
import shutil
import tempfile
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any
from urllib.parse import urlencode, urlsplit

import pytest
from harness import CHROMEDRIVER, CHROMIUM, REPO, WWW, DemoServer, StaticServer, chrome_options

ARTIFACTS = REPO / "artifacts"


@pytest.fixture(scope="session")
def artifacts() -> Path:
    """`artifacts/` at the repo root (git-ignored): screenshots, server logs."""
    ARTIFACTS.mkdir(exist_ok=True)
    return ARTIFACTS


@pytest.fixture(scope="session")
def demo_server(artifacts: Path) -> Iterator[DemoServer]:
    """The demo MCP server with its default options (CORS for any loopback origin)."""
    server = DemoServer(log_dir=artifacts / "logs")
    with server:
        yield server


@pytest.fixture
def make_demo_server(artifacts: Path) -> Iterator[Callable[..., DemoServer]]:
    """Factory: `make_demo_server(["--no-cors"])` starts a server just for this test."""
    started: list[DemoServer] = []

    def make(options: list[str] | None = None, port: int | None = None) -> DemoServer:
        server = DemoServer(port=port, options=options, log_dir=artifacts / "logs")
        started.append(server)
        return server.start()

    yield make
    for server in started:
        server.stop()


@pytest.fixture(scope="session")
def www() -> Iterator[StaticServer]:
    """`www/` over HTTP. A missing package (the library's `www/pkg`, the demo's `www/demo/pkg`)
    is an error: run `scripts/build-www` first."""
    for pkg in [WWW / "pkg", WWW / "demo" / "pkg"]:
        if not (pkg.is_dir() and any(pkg.glob("*.wasm"))):
            pytest.fail(f"{pkg} has no .wasm: build the pages first with scripts/build-www (scripts/test does)")
    with StaticServer(WWW) as server:
        yield server


@pytest.fixture
def app_url(www: StaticServer) -> Callable[..., str]:
    """The demo page URL with the DOM contract's query parameters."""

    def make(
        server: str | None = None,
        protocol: str | None = None,
        tool: str | None = None,
        args: dict[str, Any] | None = None,
        page: str = "",
    ) -> str:
        query: dict[str, str] = {}
        if server is not None:
            query["server"] = server
        if protocol is not None:
            query["protocol"] = protocol
        if tool is not None:
            query["tool"] = tool
        if args is not None:
            query["args"] = json.dumps(args)
        suffix = f"?{urlencode(query)}" if query else ""
        return f"{www.origin}/{page}{suffix}"

    return make


# Kept for scripts that imported the private name (tests/bench/browser_bench.py).
_chrome_options = chrome_options


class Browsers:
    """This worker's headless Chromium, started once and handed to test after test, each time
    as a fresh browser shows itself: one tab, blank, at the default window size and
    timeouts, no cookies or cache, no console messages from before.

    A browser start costs about a second of CPU (most of a short test's setup); a new tab
    costs a few milliseconds. What a test can change through WebDriver and CDP lives in its
    tabs (pages, frames, emulation) and goes when they are closed; the window size, the
    timeouts, cookies, cache and the console log are set back. A browser whose test failed,
    or that does not come back clean, is quit; the next test gets a new one."""

    def __init__(self) -> None:
        self.browser: Any = None
        self.profile: str | None = None
        self.defaults: tuple[dict[str, int], Any] = ({}, None)
        """The new browser's window size and WebDriver timeouts, given back to each test."""
        self.used = False
        """Whether the browser was handed out since it was last cleared."""

    def take(self) -> Any:
        """The browser, clean: cleared first if it was handed out before; started if none."""
        if self.used:
            self.clear()
        if self.browser is None:
            from selenium import webdriver
            from selenium.webdriver.chrome.service import Service

            for path in (CHROMIUM, CHROMEDRIVER):
                if not path.exists():
                    pytest.fail(f"{path} is missing: run scripts/setup (installs Debian chromium and chromium-driver)")
            self.profile = tempfile.mkdtemp(prefix="mcp-elicit-chromium-")
            service = Service(executable_path=str(CHROMEDRIVER))
            self.browser = webdriver.Chrome(service=service, options=chrome_options(self.profile))
            self.defaults = (self.browser.get_window_size(), self.browser.timeouts)
        self.used = True
        return self.browser

    def clear(self) -> None:
        """Leaves one new blank tab and nothing of what was done before; quits on any error."""
        browser = self.browser
        self.used = False
        if browser is None:
            return
        try:
            old = browser.window_handles
            browser.switch_to.new_window("tab")
            fresh = browser.current_window_handle
            # The origins the tabs were on, whose stored data (localStorage, IndexedDB,
            # Cache Storage, service workers) outlives the tabs.
            origins = set()
            for handle in old:
                browser.switch_to.window(handle)
                url = urlsplit(browser.current_url)  # no page script is run
                if url.scheme in ("http", "https"):
                    origins.add(f"{url.scheme}://{url.netloc}")
                browser.close()
            browser.switch_to.window(fresh)
            for origin in sorted(origins):
                browser.execute_cdp_cmd("Storage.clearDataForOrigin", {"origin": origin, "storageTypes": "all"})
            size, timeouts = self.defaults
            browser.set_window_size(size["width"], size["height"])
            browser.timeouts = timeouts
            browser.execute_cdp_cmd("Network.clearBrowserCookies", {})
            browser.execute_cdp_cmd("Network.clearBrowserCache", {})
            browser.get_log("browser")  # read, so what the closed pages logged is gone
        except Exception:  # noqa: BLE001 - a browser that cannot be cleared is replaced
            self.quit()

    def quit(self) -> None:
        browser, self.browser = self.browser, None
        self.used = False
        if browser is not None:
            try:
                browser.quit()
            except Exception:  # noqa: BLE001 - it may be gone already; the profile goes anyway
                pass
        if self.profile is not None:
            shutil.rmtree(self.profile, ignore_errors=True)
            self.profile = None


@pytest.fixture(scope="session")
def browsers() -> Iterator[Browsers]:
    """This worker's one headless Chromium (see `Browsers`), quit at the end of the session."""
    pool = Browsers()
    yield pool
    pool.quit()


@pytest.fixture
def driver(browsers: Browsers, artifacts: Path, request: pytest.FixtureRequest) -> Iterator[Any]:
    """Headless Chromium as a fresh browser shows itself (`Browsers`: one blank tab, no
    state left by another test); a screenshot on failure."""
    browser = browsers.take()
    try:
        yield browser
    finally:
        report = getattr(request.node, "rep_call", None)
        if report is not None and report.failed:
            name = request.node.nodeid.replace("/", "_").replace("::", "__")
            try:
                browser.save_screenshot(str(artifacts / f"failed-{name}.png"))
            except Exception:  # noqa: BLE001 - a failed screenshot must not hide the test failure
                pass
            browsers.quit()
        else:
            browsers.clear()


@pytest.hookimpl(tryfirst=True, hookwrapper=True)
def pytest_runtest_makereport(item: pytest.Item, call: pytest.CallInfo[Any]) -> Iterator[None]:
    """Expose each phase's report on the test item (the driver fixture screenshots failures)."""
    outcome = yield
    report = outcome.get_result()
    setattr(item, f"rep_{report.when}", report)
