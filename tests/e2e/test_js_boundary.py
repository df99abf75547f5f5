"""Hostile values from a JS host against the real SDK demo server.

- `McpClient.callTool` with cyclic arguments rejects in words and the next call works
  (before: the wasm stack overflowed, "memory access out of bounds", and every later call
  into the module trapped).
- A sampling handler that returns a cyclic object is refused in words, and the client
  still works.

The host-side calls run as scripts in `www/host.html`, connected to the demo server: that
page's `window.mcpClient`, and `McpClient` from the package module it already loaded.
The package under a browser extension's CSP is tested in `test_extension.py`.
"""

from __future__ import annotations

from typing import Any

import pytest
from demo_server.texts import ClientRequests
from harness import wait_for
from test_demo_flows import LEGACY, MODERN
from test_host_client import open_host

BOTH = [LEGACY, MODERN]

SCRIPT_TIMEOUT = 20


def run_async(driver: Any, body: str, *args: Any) -> Any:
    """Runs `body` (an async function body; `args` are `arguments[0..]`) in the page and
    returns {"value": its JSON-able result}, {"rejected": message}, or {"pending": ...}
    when it never settled (what a trapped module does)."""
    driver.set_script_timeout(SCRIPT_TIMEOUT + 5)
    script = f"""
        const done = arguments[arguments.length - 1];
        const args = Array.from(arguments).slice(0, -1);
        const late = new Promise((r) => setTimeout(() => r({{ pending: "not settled in {SCRIPT_TIMEOUT}s" }}), {SCRIPT_TIMEOUT * 1000}));
        const run = (async function () {{ {body} }}).apply(null, args).then(
          (value) => ({{ value }}),
          (e) => ({{ rejected: e instanceof Error ? e.constructor.name + ": " + e.message : String(e) }}),
        );
        Promise.race([run, late]).then(done);
    """
    return driver.execute_async_script(script, *args)


# Calls `name` with `args` and also reports whether the call threw synchronously (it must
# not: a Promise rejection is the contract).
CALL = """
    const [name, cyclic] = arguments;
    const args = { question: "x" };
    if (cyclic) args.parent = args;
    let promise;
    try { promise = window.mcpClient.callTool(name, args); }
    catch (e) { return { threw: e.constructor.name + ": " + e.message }; }
    try { return { result: await promise }; }
    catch (e) { return { rejected: e.constructor.name + ": " + e.message }; }
"""


@pytest.mark.parametrize("protocol", BOTH)
def test_call_tool_with_cyclic_arguments_rejects_in_words_and_the_next_call_works(
    driver: Any, www: Any, demo_server: Any, protocol: str
) -> None:
    open_host(driver, www, demo_server, protocol)
    got = run_async(driver, CALL, "list_my_roots", True)
    refusal = got.get("value", {}).get("rejected", "")
    assert refusal.startswith("Error: callTool's arguments: the member /parent"), got
    assert "cycle" in refusal, got
    # The module still works: the same call with plain arguments.
    got = run_async(driver, CALL, "list_my_roots", False)
    assert got["value"]["result"]["content"][0]["text"] == ClientRequests.NO_ROOTS, got


# Connects a second client whose sampling handler returns a cyclic result, then calls
# ask_llm, then a plain tool on the same client.
CYCLIC_SAMPLING = """
    const [server, protocol] = arguments;
    const { McpClient } = await import(new URL("./pkg/mcp_elicit_host.js", location.href).href);
    const container = document.createElement("div");
    container.id = "cyclic-sampling";
    document.body.append(container);
    // Every text the client's notice shows, in order: a later notice replaces an earlier one.
    const notices = [];
    new MutationObserver(() => {
      const text = container.querySelector(".notice[role=status]")?.textContent ?? "";
      if (text && notices[notices.length - 1] !== text) notices.push(text);
    }).observe(container, { subtree: true, childList: true, characterData: true });
    const sampling = async () => {
      const result = { role: "assistant", model: "m", content: { type: "text", text: "hi" } };
      result.content.owner = result;
      return result;
    };
    const client = await McpClient.connect(server, { container, protocol, sampling });
    let call;
    try { call = { result: await client.callTool("ask_llm", { question: "6x7?" }) }; }
    catch (e) { call = { rejected: e.constructor.name + ": " + e.message }; }
    const after = await client.callTool("list_my_roots", {});
    return { call, after: after.content[0].text, notices };
"""


def test_modern_sampling_handler_returning_a_cycle_is_refused_in_words(
    driver: Any, www: Any, demo_server: Any
) -> None:
    open_host(driver, www, demo_server, MODERN)
    got = run_async(driver, CYCLIC_SAMPLING, demo_server.url, MODERN)
    value = got.get("value")
    assert value is not None, got
    refusal = value["call"].get("rejected", "")
    assert "the sampling handler's result: the member /content/owner" in refusal, got
    assert "cycle" in refusal, got
    assert value["after"] == ClientRequests.NO_ROOTS, got


def test_legacy_sampling_handler_returning_a_cycle_is_refused_in_words(
    driver: Any, www: Any, demo_server: Any
) -> None:
    """Legacy: the refusal goes back as the JSON-RPC error of the server's request (the
    tool then fails one way or another) and the host's notice says why."""
    open_host(driver, www, demo_server, LEGACY)
    got = run_async(driver, CYCLIC_SAMPLING, demo_server.url, LEGACY)
    value = got.get("value")
    assert value is not None, got
    call = value["call"]
    assert "rejected" in call or call["result"].get("isError") is True, got
    # The notice said why when the refusal happened; it may say something else by now (a
    # later notice replaces it), so every text it showed is looked at.
    said = [n for n in value["notices"] if "the sampling handler's result" in n]
    assert said, value["notices"]
    assert "/content/owner" in said[0] and "cycle" in said[0], said
    assert value["after"] == ClientRequests.NO_ROOTS, got
