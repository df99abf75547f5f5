"""The example Manifest V3 extension (`www/extension`, assembled by `scripts/build-extension`
from the built package) loaded into headless Chromium with `--load-extension`, against the
Python SDK demo server.

- The manifest is MV3 with the extension CSP `script-src 'self' 'wasm-unsafe-eval'` (no
  `unsafe-eval`), and its `key` fixes the id, so the side panel page opens in a tab as
  `chrome-extension://<id>/sidepanel.html`.
- From that page, in each era: a tool's form request and a URL request are answered (the
  URL opens a normal tab), and the server's trace shows what it received, every request
  sent with the extension's origin and none preflighted (the manifest's loopback
  `host_permissions` lift CORS).
- Under the extension's CSP a script of the extension's own that calls `eval` or
  `new Function` gets an `EvalError`, an inline script is refused, and the package still
  runs (its wasm needs only `'wasm-unsafe-eval'`): `compileSchema` (a cyclic schema
  refused in words), `validateContent`, `elicit` and `McpClient`. This is the proof that
  the package works in an extension.
- The server URL is kept in `chrome.storage.local`: a first run connects nowhere, a saved
  server is connected again when the panel opens, and a URL of another scheme is refused in
  words.
"""

from __future__ import annotations

import base64
import hashlib
import json
import shutil
import subprocess
import tempfile
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from demo_server.texts import DECLINED, SERVER_NAME, DeleteFolder, Deposit
from harness import (
    CHROMEDRIVER,
    CHROMIUM,
    REPO,
    WWW,
    button,
    chrome_options,
    control_by_label,
    wait_css,
    wait_for,
    wait_text,
)
from test_demo_flows import LEGACY, MODERN, card, set_checkbox

EXTENSION_ID = "aeegiafafipebfgjabdlaggpbindkkdm"
"""The id Chromium derives from the manifest's `key` (README, scripts/build-extension)."""
EXTENSION_ORIGIN = f"chrome-extension://{EXTENSION_ID}"
PANEL = f"{EXTENSION_ORIGIN}/sidepanel.html"
EXTENSION_CSP = "script-src 'self' 'wasm-unsafe-eval'; object-src 'self'"
DEFAULT_SERVER = "http://127.0.0.1:8001/mcp"

BOTH = [LEGACY, MODERN]


def id_of_key(key: str) -> str:
    """Chromium's extension id for a manifest `key`: the first 32 hex digits of the
    SHA-256 of the DER public key, each digit 0-f written as a letter a-p."""
    digest = hashlib.sha256(base64.b64decode(key)).hexdigest()[:32]
    return "".join(chr(ord("a") + int(d, 16)) for d in digest)


# --- fixtures ----------------------------------------------------------------------------


@pytest.fixture
def build_extension(tmp_path: Path) -> Callable[..., Path]:
    """`build_extension(extra={name: text})`: runs scripts/build-extension into a fresh
    directory (plus `extra` files, for the CSP probe) and returns it."""

    def build(extra: dict[str, str] | None = None) -> Path:
        out = tmp_path / "extension"
        done = subprocess.run(
            [str(REPO / "scripts" / "build-extension"), str(out)], cwd=REPO, capture_output=True, text=True
        )
        if done.returncode != 0:
            pytest.fail(f"scripts/build-extension failed (is www/pkg built?):\n{done.stdout}{done.stderr}")
        for name, text in (extra or {}).items():
            (out / name).write_text(text, encoding="utf-8")
        return out

    return build


@pytest.fixture
def browser_with(artifacts: Path, request: pytest.FixtureRequest) -> Iterator[Callable[[Path], Any]]:
    """`browser_with(directory)`: headless Chromium (own profile) with that unpacked extension
    loaded and no other; a screenshot on failure."""
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service

    for path in (CHROMIUM, CHROMEDRIVER):
        if not path.exists():
            pytest.fail(f"{path} is missing: run scripts/setup (installs Debian chromium and chromium-driver)")
    started: list[tuple[Any, str]] = []

    def start(extension: Path) -> Any:
        profile = tempfile.mkdtemp(prefix="mcp-elicit-chromium-ext-")
        options = chrome_options(profile)
        options.add_argument(f"--load-extension={extension}")
        options.add_argument(f"--disable-extensions-except={extension}")
        browser = webdriver.Chrome(service=Service(executable_path=str(CHROMEDRIVER)), options=options)
        started.append((browser, profile))
        return browser

    yield start
    report = getattr(request.node, "rep_call", None)
    for i, (browser, profile) in enumerate(started):
        if report is not None and report.failed:
            name = request.node.nodeid.replace("/", "_").replace("::", "__")
            try:
                browser.save_screenshot(str(artifacts / f"failed-{name}-{i}.png"))
            except Exception:  # noqa: BLE001 - a failed screenshot must not hide the test failure
                pass
        browser.quit()
        shutil.rmtree(profile, ignore_errors=True)


class ExtServer:
    """A demo server started for one test, and what it received since it started: its
    trace file is named by port and appended to, so an earlier run on the same port may
    have left records in it."""

    def __init__(self, server: Any):
        self.server = server
        self.url = server.url
        self.port = server.port
        self._skip = len(server.trace())

    def trace(self) -> list[dict[str, Any]]:
        return self.server.trace()[self._skip :]


@pytest.fixture
def ext_server(make_demo_server: Any) -> ExtServer:
    """The demo server with the extension's origin allowed (the SDK's DNS-rebinding check
    refuses any `Origin` it does not list; CORS itself is lifted by `host_permissions`)."""
    return ExtServer(make_demo_server(["--cors-origin", EXTENSION_ORIGIN]))


# --- page helpers --------------------------------------------------------------------------


def open_panel(driver: Any) -> None:
    """Opens the side panel page in this tab and waits until it has read its saved setting."""
    driver.get(PANEL)
    wait_css(driver, "#settings:enabled")


def connect(driver: Any, server: Any, protocol: str) -> None:
    """Types the server into the panel, picks the protocol, presses Connect, waits for it."""
    from selenium.webdriver.support.ui import Select

    field = wait_css(driver, "#server")
    field.clear()
    field.send_keys(server.url)
    Select(wait_css(driver, "#protocol")).select_by_value(protocol)
    button(driver, "Connect").click()
    wait_text(driver, "[data-testid=connection-status]", f"connected · {protocol} · 127.0.0.1:{server.port}")


def call_tool(driver: Any, tool: str, args: dict[str, Any]) -> None:
    from selenium.webdriver.support.ui import Select

    wait_css(driver, f"#tool option[value={tool}]")
    Select(wait_css(driver, "#tool")).select_by_value(tool)
    field = wait_css(driver, "#args")
    field.clear()
    field.send_keys(json.dumps(args))
    button(driver, "Call tool").click()


def tool_text(driver: Any, expected: str) -> None:
    """Waits for the call's result and checks its text is `expected`."""
    element = wait_css(driver, "[data-testid=host-result][data-done=true]")
    text = json.loads(element.text)["content"][0]["text"]
    assert text == expected, text


def host_error(driver: Any, text: str) -> str:
    return wait_text(driver, "[data-testid=host-error][role=alert]", text).text


def answers_received(server: ExtServer) -> list[Any]:
    """Every elicitation answer the server received, in order: legacy JSON-RPC responses'
    `result`s, and modern `inputResponses` values."""
    answers: list[Any] = []
    for record in server.trace():
        try:
            body = json.loads(record.get("request_body") or "null")
        except ValueError:
            continue
        if not isinstance(body, dict):
            continue
        if "result" in body and "method" not in body:
            answers.append(body["result"])
        responses = (body.get("params") or {}).get("inputResponses") if "method" in body else None
        if isinstance(responses, dict):
            answers.extend(responses.values())
    return answers


# --- the manifest --------------------------------------------------------------------------


def test_the_manifest_is_mv3_with_the_extension_csp_and_a_fixed_id(build_extension: Any) -> None:
    out = build_extension()
    manifest = json.loads((out / "manifest.json").read_text(encoding="utf-8"))
    assert manifest["manifest_version"] == 3
    assert manifest["content_security_policy"] == {"extension_pages": EXTENSION_CSP}
    assert "'unsafe-eval'" not in json.dumps(manifest)
    assert id_of_key(manifest["key"]) == EXTENSION_ID
    # The version is the workspace's, and every file the manifest names is in the build.
    assert manifest["version"] != "@VERSION@" and manifest["version"][0].isdigit(), manifest["version"]
    for name in (manifest["side_panel"]["default_path"], manifest["background"]["service_worker"]):
        assert (out / name).is_file(), name
    wasm = "mcp_elicit_host_bg.wasm"
    assert (out / "pkg" / wasm).read_bytes() == (WWW / "pkg" / wasm).read_bytes(), "the package is www/pkg's"


# --- elicitations in the side panel ----------------------------------------------------------


@pytest.mark.parametrize("protocol", BOTH)
def test_the_side_panel_answers_a_form_and_a_url_request(
    browser_with: Any, build_extension: Any, ext_server: Any, protocol: str
) -> None:
    driver = browser_with(build_extension())
    open_panel(driver)
    connect(driver, ext_server, protocol)

    call_tool(driver, "delete_folder", {"path": "/tmp/ext"})
    form = card(driver, "form", DeleteFolder.QUESTION.format(path="/tmp/ext"))
    asker = form.find_element("css selector", "[data-testid=requesting-server]").text
    assert SERVER_NAME in asker and f"127.0.0.1:{ext_server.port}" in asker, asker
    set_checkbox(form, "Ok", True)
    button(form, "Submit").click()
    tool_text(driver, DeleteFolder.DELETED.format(path="/tmp/ext"))

    call_tool(driver, "pay_deposit", {"booking_id": "x1"})
    url_card = card(driver, "url", Deposit.MESSAGE)
    panel = driver.current_window_handle
    before = set(driver.window_handles)
    button(url_card, "Open in new tab").click()
    wait_for(driver, lambda d: len(set(d.window_handles) - before) == 1, "a new tab")
    tool_text(driver, Deposit.PAY)
    (tab,) = set(driver.window_handles) - before
    driver.switch_to.window(tab)
    wait_for(driver, lambda d: d.current_url.startswith(Deposit.URL.format(booking_id="x1")), "the payment page's URL")
    driver.switch_to.window(panel)
    if protocol == LEGACY:
        # The server's completion notification ends the card's wait.
        call_tool(driver, "confirm_deposit", {"booking_id": "x1"})
        tool_text(driver, Deposit.CONFIRMED.format(elicitation_id="deposit-x1"))
        wait_css(driver, "[data-elicitation][data-mode=url][data-state=complete]")

    assert answers_received(ext_server) == [{"action": "accept", "content": {"ok": True}}, {"action": "accept"}]
    posts = [r for r in ext_server.trace() if r["path"] == "/mcp" and r["method"] != "OPTIONS"]
    assert posts and all(r["request_headers"].get("origin") == EXTENSION_ORIGIN for r in posts), [
        r["request_headers"].get("origin") for r in posts
    ]
    assert not [r for r in ext_server.trace() if r["method"] == "OPTIONS"], "host_permissions should lift CORS"
    assert not [m for m in driver.get_log("browser") if m["level"] == "SEVERE"]


# --- the extension's CSP ------------------------------------------------------------------

# A module of the extension's own (so 'self' lets it run): what the CSP forbids, then the
# package's JS API (compileSchema once built its JSON replacer with `new Function`).
CSP_PROBE = """
import init, { compileSchema, validateContent, elicit, defineElements } from "./pkg/mcp_elicit_host.js";

const tried = {};
const failure = (e) => `${e && e.name}: ${e && e.message}`;
try { tried.eval = String(eval("6 * 7")); } catch (e) { tried.eval = e.name; }
try { tried.function = String(new Function("return 6 * 7")()); } catch (e) { tried.function = e.name; }

await init();
const schema = {
  type: "object",
  properties: { name: { type: "string", title: "Your name", minLength: 2 } },
  required: ["name"],
};
try { tried.compile = compileSchema(schema).fields.map((f) => f.name); } catch (e) { tried.compile = failure(e); }
try { tried.validate = validateContent(schema, { name: "Ada" }); } catch (e) { tried.validate = failure(e); }
const cyclic = { type: "object", properties: {} };
cyclic.properties.self = cyclic;
try { tried.cyclic = compileSchema(cyclic); } catch (e) { tried.cyclic = failure(e); }
document.body.dataset.cspProbe = JSON.stringify(tried);

const slot = document.createElement("div");
slot.id = "probe-slot";
document.body.append(slot);
elicit(slot, { message: "Who are you?", requestedSchema: schema }).then(
  (result) => { document.body.dataset.cspElicit = JSON.stringify(result); },
  (e) => { document.body.dataset.cspElicit = failure(e); },
);

// The <mcp-elicitation> element: its shadow root adopts a constructed stylesheet.
defineElements();
const card = document.createElement("mcp-elicitation");
card.id = "probe-element";
card.addEventListener("answer", (e) => { document.body.dataset.cspElement = JSON.stringify(e.detail); });
card.params = { message: "Which city?", requestedSchema: {
  type: "object", properties: { city: { type: "string", title: "City" } }, required: ["city"] } };
document.body.append(card);
"""

# Listens for CSP violations, then adds the probe (allowed) and an inline script (refused).
INJECT = """
const done = arguments[arguments.length - 1];
window.violations = [];
document.addEventListener("securitypolicyviolation", (e) => {
  window.violations.push(`${e.effectiveDirective} ${e.blockedURI}`);
});
const inline = document.createElement("script");
inline.textContent = "window.inlineRan = true;";
document.body.append(inline);
const probe = document.createElement("script");
probe.type = "module";
probe.src = "csp-probe.js";
probe.onload = () => done(true);
probe.onerror = () => done(false);
document.body.append(probe);
"""


def test_under_the_extension_csp_eval_is_refused_and_the_package_works(
    browser_with: Any, build_extension: Any, ext_server: Any
) -> None:
    driver = browser_with(build_extension({"csp-probe.js": CSP_PROBE}))
    open_panel(driver)
    assert driver.execute_async_script(INJECT) is True
    probe = wait_for(driver, lambda d: d.execute_script("return document.body.dataset.cspProbe"), "the probe ran")
    tried = json.loads(probe)
    assert tried.pop("eval") == "EvalError" and tried.pop("function") == "EvalError", probe
    assert driver.execute_script("return window.inlineRan") is None
    # Each refusal is reported (Chromium reports it once per policy in force: the manifest's
    # and the minimum it enforces on every extension page).
    expected = {"script-src eval", "script-src-elem inline"}
    wait_for(driver, lambda d: set(d.execute_script("return window.violations")) == expected, "both refusals reported")
    violations = driver.execute_script("return window.violations")

    # The package (its wasm compiled under 'wasm-unsafe-eval') runs in this very page: the
    # core's JS API, one form through elicit, and McpClient against the server.
    assert tried.pop("compile") == ["name"]
    assert tried.pop("validate") == {"ok": True, "content": {"name": "Ada"}}
    cyclic = tried.pop("cyclic")
    assert cyclic.startswith("SchemaError: ") and "/properties/self" in cyclic and "cycle" in cyclic, cyclic
    assert tried == {}
    form = wait_css(driver, "#probe-slot [data-elicitation]")
    control_by_label(form, "Your name").send_keys("Ada")
    button(form, "Submit").click()
    answer = wait_for(driver, lambda d: d.execute_script("return document.body.dataset.cspElicit"), "elicit's answer")
    assert json.loads(answer) == {"action": "accept", "content": {"name": "Ada"}}

    # The custom element, styled in its shadow root, answers under the same CSP.
    from selenium.webdriver.common.by import By

    root = wait_css(driver, "#probe-element").shadow_root
    city = wait_for(driver, lambda d: root.find_elements(By.CSS_SELECTOR, "input[name=city]"), "the element's form")[0]
    radius = driver.execute_script("return getComputedStyle(arguments[0]).borderTopLeftRadius", city)
    assert radius == "6px", f"the element's stylesheet applies under the CSP ({radius})"
    city.send_keys("Oslo")
    next(b for b in root.find_elements(By.CSS_SELECTOR, "button") if b.text.strip() == "Submit").click()
    element_answer = wait_for(driver, lambda d: d.execute_script("return document.body.dataset.cspElement"), "the element's answer")
    assert json.loads(element_answer) == {"action": "accept", "content": {"city": "Oslo"}}

    connect(driver, ext_server, MODERN)
    call_tool(driver, "delete_folder", {"path": "/tmp/csp"})
    form = card(driver, "form", DeleteFolder.QUESTION.format(path="/tmp/csp"))
    set_checkbox(form, "Ok", True)
    button(form, "Submit").click()
    tool_text(driver, DeleteFolder.DELETED.format(path="/tmp/csp"))
    assert driver.execute_script("return window.violations") == violations, "the package ran into the CSP"


# --- the server setting ----------------------------------------------------------------------


def test_the_server_is_kept_and_connected_again_when_the_panel_opens(
    browser_with: Any, build_extension: Any, ext_server: Any
) -> None:
    driver = browser_with(build_extension())
    open_panel(driver)
    # The service worker ran: the toolbar button opens the side panel.
    behavior = driver.execute_async_script(
        "const done = arguments[0]; chrome.sidePanel.getPanelBehavior().then(done, (e) => done(String(e)));"
    )
    assert behavior == {"openPanelOnActionClick": True}, behavior
    # First run: the demo server's address, and no connection until Connect is pressed.
    wait_text(driver, "[data-testid=connection-status]", "not connected: press Connect")
    assert wait_css(driver, "#server").get_attribute("value") == DEFAULT_SERVER

    connect(driver, ext_server, LEGACY)
    open_panel(driver)
    wait_text(driver, "[data-testid=connection-status]", f"connected · {LEGACY} · 127.0.0.1:{ext_server.port}")
    assert wait_css(driver, "#server").get_attribute("value") == ext_server.url
    call_tool(driver, "delete_folder", {"path": "/tmp/again"})
    button(card(driver, "form", DeleteFolder.QUESTION.format(path="/tmp/again")), "Decline").click()
    tool_text(driver, DeleteFolder.REFUSED.format(outcome=DECLINED))

    # Another scheme is refused in words; the saved server and the connection stay.
    field = wait_css(driver, "#server")
    field.clear()
    field.send_keys("javascript:alert(1)")
    button(driver, "Connect").click()
    assert "must start with https:// or http://" in host_error(driver, "javascript:")
    open_panel(driver)
    assert wait_css(driver, "#server").get_attribute("value") == ext_server.url
