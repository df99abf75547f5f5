"""The demo server's CORS set-up, seen from a real headless Chromium page on another origin.

No wasm here: a blank page on a second loopback port calls `fetch()` the way the
browser client does, so these tests prove the server side of cross-origin access (and
the driver fixture) independently of the client code.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from harness import MODERN, StaticServer

# Runs in the page: one modern-era tools/call with every header the client sends, or a
# legacy initialize that reads the exposed mcp-session-id. Reports what JS could see.
FETCH_SCRIPT = """
const [url, kind, done] = arguments;
const meta = {
  "io.modelcontextprotocol/protocolVersion": "%(modern)s",
  "io.modelcontextprotocol/clientInfo": {name: "browser-probe", version: "0"},
  "io.modelcontextprotocol/clientCapabilities": {elicitation: {form: {}, url: {}}},
};
const modern = {
  headers: {
    "Content-Type": "application/json",
    "Accept": "application/json, text/event-stream",
    "MCP-Protocol-Version": "%(modern)s",
    "Mcp-Method": "tools/call",
    "Mcp-Name": "delete_folder",
    "Mcp-Param-Region": "eu",
  },
  body: {jsonrpc: "2.0", id: 1, method: "tools/call",
         params: {name: "delete_folder", arguments: {path: "/tmp/project"}, _meta: meta}},
};
const legacy = {
  headers: {"Content-Type": "application/json", "Accept": "application/json, text/event-stream"},
  body: {jsonrpc: "2.0", id: 0, method: "initialize",
         params: {protocolVersion: "2025-11-25", capabilities: {}, clientInfo: {name: "b", version: "0"}}},
};
const req = kind === "modern" ? modern : legacy;
fetch(url, {method: "POST", headers: req.headers, body: JSON.stringify(req.body)})
  .then(async (r) => done({ok: true, status: r.status, session: r.headers.get("mcp-session-id"),
                           text: await r.text()}))
  .catch((e) => done({ok: false, error: String(e)}));
""" % {"modern": MODERN}


@pytest.fixture
def blank_page(tmp_path: Path) -> Iterator[StaticServer]:
    (tmp_path / "index.html").write_text("<!doctype html><title>probe</title><p>probe</p>")
    with StaticServer(tmp_path) as server:
        yield server


def browser_fetch(driver: Any, page: StaticServer, url: str, kind: str) -> dict[str, Any]:
    driver.get(page.origin + "/")
    driver.set_script_timeout(30)
    return driver.execute_async_script(FETCH_SCRIPT, url, kind)


def test_cross_origin_modern_call_from_browser(driver: Any, blank_page: StaticServer, demo_server: Any) -> None:
    reply = browser_fetch(driver, blank_page, demo_server.url, "modern")
    assert reply["ok"], reply
    assert reply["status"] == 200
    assert '"resultType":"input_required"' in reply["text"]
    assert "Delete anyway?" in reply["text"]


def test_cross_origin_session_id_is_readable(driver: Any, blank_page: StaticServer, demo_server: Any) -> None:
    reply = browser_fetch(driver, blank_page, demo_server.url, "legacy")
    assert reply["ok"], reply
    assert reply["status"] == 200
    assert reply["session"], "mcp-session-id must be exposed to the page"


def test_cross_origin_blocked_without_cors(driver: Any, blank_page: StaticServer, make_demo_server: Any) -> None:
    server = make_demo_server(["--no-cors"])
    reply = browser_fetch(driver, blank_page, server.url, "modern")
    assert reply["ok"] is False, reply
    assert "TypeError" in reply["error"]


LABELLED_PAGE = """<!doctype html><title>labels</title>
<form>
  <label for="n">Full name</label><input id="n" name="name">
  <label>Subscribe <input type="checkbox" name="subscribe"></label>
  <select aria-label="Colour" name="colour"><option>red</option></select>
  <button type="button" onclick="document.getElementById('out').textContent = 'clicked ' + n.value">Submit</button>
</form>
<p id="out"></p>
"""


def test_harness_finds_controls_by_label(driver: Any, tmp_path: Path) -> None:
    from harness import button, control_by_label, wait_text

    (tmp_path / "index.html").write_text(LABELLED_PAGE)
    with StaticServer(tmp_path) as page:
        driver.get(page.origin + "/")
        assert control_by_label(driver, "Full name").get_attribute("name") == "name"
        assert control_by_label(driver, "Subscribe").get_attribute("name") == "subscribe"
        assert control_by_label(driver, "Colour").get_attribute("name") == "colour"
        with pytest.raises(AssertionError, match="no control labelled 'Nope'"):
            control_by_label(driver, "Nope")
        control_by_label(driver, "Full name").send_keys("Ada")
        button(driver, "Submit").click()
        assert wait_text(driver, "#out", "clicked Ada").text == "clicked Ada"
