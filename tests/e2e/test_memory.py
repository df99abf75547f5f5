"""Memory stays flat in a long-lived host: answering cards frees what they held.

A side panel or a host page stays open for days. These tests answer a thousand cards the
way a person does (Submit, or Decline to end a call) and require the memory they leave
behind to stop growing: what the second 500 add is under a fixed byte budget, for both
the wasm memory (`WebAssembly.Memory.buffer.byteLength`, which never shrinks) and the JS
heap after a full garbage collection (CDP `HeapProfiler.collectGarbage`, then
`Runtime.getHeapUsage`). A resource bound, never a timing.

- `elicit()` (`www/embed.html`): a 20-field form, Submit, the host removes the element;
  and a URL card, declined (before: ~6 KB of wasm a card).
- `McpClient` (`www/host.html`) against the SDK demo server, in each era: `endless_questions`
  asks again after each accepted answer; each call answers nine cards with Submit and the
  tenth with Decline (a finished call), 100 calls.
- A host renewing its connection: 200 `McpClient`s in turn, each connected, used, closed
  (a legacy session is DELETEd) and freed.

The page-side loops run in one `execute_async_script` each (a WebDriver round trip per
click would make the test slow, not more faithful: the click is the DOM's own).
"""

from __future__ import annotations

import json
from typing import Any
from urllib.parse import urlencode

import pytest
from harness import LEGACY, MODERN, StaticServer, wait_text

WASM_BUDGET = 320 * 1024
"""Bytes the wasm memory may grow over the second 500 cards: five 64 KiB pages (memory
grows by pages and never shrinks). Before answered cards were freed, `elicit` left about
110 KB a card (53 MB per 500) and McpClient about 1.2 KB a card (nine pages per 500: arena
signals made outside any owner); now `elicit` leaves nothing and McpClient one or two
pages per 500 (~130-260 B a card; in part the dead weak reference per row Leptos's `For`
keeps). A leak of ~650 B a card exceeds it."""

RENEWED_WASM_BUDGET = 192 * 1024
"""Bytes the wasm memory may grow over the second 100 renewed clients: three pages. Before
a freed McpClient freed its card list, each left ~3.5 KB (five or six pages per 100); now
one page per 100."""

JS_HEAP_BUDGET = 128 * 1024
"""Bytes the JS heap (after a full GC) may grow over the second 500 cards (~260 B a card).
A leaked `elicit` card held about 22 KB of JS (its DOM, listeners, closures): 11 MB per
500; a freed one leaves ~35 B, an McpClient card ~40-50 B. When each request's cleared
timers kept their callbacks, an McpClient card left ~450 B (225 KB per 500): over it."""

LIVE_REFS_BUDGET = 8
"""JS values the wasm side may hold beyond the first half's once the second 500 McpClient
cards (50 calls) are done: under one a call, room only for what is in flight at the instant
of counting. Every JS value a card or a request holds is let go once it is done. Counted
as the live slots of wasm-bindgen's table of JS values (`__wbindgen_externrefs`: a freed
or never used slot holds `null`), not as the table's length, which is a high-water mark:
it doubles (by 128 slots at least) whenever more values happen to be alive at one instant
than ever before, which the machine's timing decides (answered cards waiting for their
delivery to be reported). When a request's bounding timer was a Promise awaited as a
JsFuture, each card left ~4 values behind (~2,000 per 500 cards): a cleared timer's
Promise never settles, and the JsFuture kept its two callbacks forever."""

HALF = 500
"""Cards per measured half: the first half warms every cache up, the second is measured."""

SCRIPT_TIMEOUT = 600
"""Seconds one page-side loop may take before WebDriver gives up: a bound against a hang."""


def twenty_fields() -> dict[str, Any]:
    """A 20-field form of every kind, each with a default, so Submit is accepted as is."""
    props: dict[str, Any] = {}
    for i in range(6):
        props[f"text{i}"] = {"type": "string", "title": f"Text {i}", "default": f"value {i}", "minLength": 1}
    props["email"] = {"type": "string", "format": "email", "title": "Email", "default": "me@example.com"}
    props["site"] = {"type": "string", "format": "uri", "title": "Site", "default": "https://example.com/"}
    props["day"] = {"type": "string", "format": "date", "title": "Day", "default": "2026-01-02"}
    for i in range(3):
        props[f"int{i}"] = {"type": "integer", "title": f"Count {i}", "minimum": 0, "maximum": 99, "default": i}
    props["ratio"] = {"type": "number", "title": "Ratio", "default": 0.5}
    props["agree"] = {"type": "boolean", "title": "Agree", "default": True}
    props["notify"] = {"type": "boolean", "title": "Notify", "description": "By email", "default": False}
    props["size"] = {"type": "string", "title": "Size", "enum": ["s", "m", "l"], "default": "m"}
    props["colour"] = {
        "type": "string",
        "title": "Colour",
        "oneOf": [{"const": "r", "title": "Red"}, {"const": "g", "title": "Green"}, {"const": "b", "title": "Blue"}],
        "default": "g",
    }
    props["plan"] = {"type": "string", "title": "Plan", "enum": ["free", "pro"], "default": "free"}
    props["days"] = {
        "type": "array",
        "title": "Days",
        "items": {"type": "string", "enum": ["mon", "tue", "wed", "thu", "fri"]},
        "default": ["mon", "wed"],
    }
    props["langs"] = {
        "type": "array",
        "title": "Languages",
        "items": {"anyOf": [{"const": "en", "title": "English"}, {"const": "fr", "title": "French"}]},
        "default": ["en"],
    }
    assert len(props) == 20
    return {
        "message": "Tell us everything (20 fields).",
        "requestedSchema": {"type": "object", "properties": props, "required": list(props)[:10]},
    }



def package(module: str) -> str:
    """A wasm package's exports (its memory) in the page, `mcp_elicit_web` (elicit) or
    `mcp_elicit_host` (McpClient): `init()` returns the instance the page started, or
    starts one when the page has not (McpClient on `embed.html`)."""
    return f"""
const pkg = await import(new URL('./pkg/{module}.js', location.href).href);
const wasm = await pkg.default();
"""


PACKAGE = package("mcp_elicit_web")
HOST_PACKAGE = package("mcp_elicit_host")

# Lets every queued task run (freeing is deferred past the click that answers) first.
SETTLE = "await new Promise((r) => setTimeout(r, 0));"

# The JS values the wasm side holds now: the slots of its externref table that are not
# `null` (what a freed or unused slot holds; a live `undefined` counts).
LIVE_REFS = """
const liveRefs = () => {
  const table = wasm.__wbindgen_externrefs;
  let live = 0;
  for (let i = 0; i < table.length; i++) if (table.get(i) !== null) live++;
  return live;
};
"""

ELICIT_LOOP = (
    """
const [count, params, press, expected, done] = arguments;
(async () => {
"""
    + PACKAGE
    + """
  for (let i = 0; i < count; i++) {
    const slot = document.createElement('div');
    document.body.append(slot);
    const answer = pkg.elicit(slot, params, { serverName: 'Memory', serverHost: 'mcp.example.com' });
    const button = [...slot.querySelectorAll('button')].find((b) => b.textContent.trim() === press);
    if (!button) throw new Error('card ' + i + ' has no ' + press + ' button');
    button.click();
    const result = await answer;
    const fields = result.content ? Object.keys(result.content).length : 0;
    if (result.action !== expected || (expected === 'accept' && fields !== 20)) {
      throw new Error('card ' + i + ' answered ' + JSON.stringify(result));
    }
    slot.remove();
  }
"""
    + SETTLE
    + """
  done({ wasm: wasm.memory.buffer.byteLength });
})().catch((e) => done({ error: String(e && e.stack || e) }));
"""
)

# `calls` calls of endless_questions on window.mcpClient, each answering `per_call - 1`
# cards with Submit and the last with Decline; every card a new element in #requests.
CLIENT_LOOP = (
    """
const [calls, perCall, done] = arguments;
(async () => {
"""
    + HOST_PACKAGE
    + LIVE_REFS
    + """
  if (!window.pendingTimers) {
    // Counts timers scheduled and not yet run or cleared (reported with the figures).
    const set = window.setTimeout.bind(window), clear = window.clearTimeout.bind(window);
    const live = new Set();
    window.pendingTimers = live;
    window.setTimeout = (f, ms, ...rest) => {
      const id = set((...a) => { live.delete(id); return typeof f === 'function' ? f(...a) : undefined; }, ms, ...rest);
      live.add(id);
      return id;
    };
    window.clearTimeout = (id) => { live.delete(id); clear(id); };
  }
  const client = window.mcpClient;
  const box = document.getElementById('requests');
  const answered = new WeakSet();
  const nextCard = () => new Promise((resolve) => {
    const look = () => {
      for (const card of box.querySelectorAll('[data-elicitation][data-state=pending]')) {
        if (!answered.has(card)) { observer.disconnect(); resolve(card); return; }
      }
    };
    const observer = new MutationObserver(look);
    observer.observe(box, { subtree: true, childList: true, attributes: true });
    look();
  });
  for (let c = 0; c < calls; c++) {
    const call = client.callTool('endless_questions', {});
    for (let k = 0; k < perCall; k++) {
      const card = await Promise.race([nextCard(), call.then((r) => { throw new Error('call ended: ' + JSON.stringify(r)); })]);
      answered.add(card);
      const name = k === perCall - 1 ? 'Decline' : 'Submit';
      const b = [...card.querySelectorAll('button')].find((x) => x.textContent.trim() === name);
      if (!b) throw new Error('no ' + name + ' on card ' + k + ' of call ' + c);
      b.click();
    }
    const result = await call;
    const text = result.content && result.content[0] && result.content[0].text;
    if (text !== 'stopped after ' + (perCall - 1) + ' answers: decline') {
      throw new Error('call ' + c + ' ended with ' + JSON.stringify(result));
    }
  }
"""
    + """
  // The last answer's delivery may be reported after the call's result: wait for the list
  // to drop its card (a bound against a hang is the script timeout, not a speed).
  await new Promise((resolve) => {
    const empty = () => {
      if (!box.querySelector('[data-elicitation]')) { observer.disconnect(); resolve(); }
    };
    const observer = new MutationObserver(empty);
    observer.observe(box, { subtree: true, childList: true });
    empty();
  });
"""
    + SETTLE
    + """
  done({ wasm: wasm.memory.buffer.byteLength, refs: liveRefs(), slots: wasm.__wbindgen_externrefs.length, timers: window.pendingTimers.size });
})().catch((e) => done({ error: String(e && e.stack || e) }));
"""
)


def js_heap(driver: Any) -> int:
    """The JS heap's used bytes after a full garbage collection."""
    driver.execute_cdp_cmd("HeapProfiler.collectGarbage", {})
    return int(driver.execute_cdp_cmd("Runtime.getHeapUsage", {})["usedSize"])


def page_loop(driver: Any, script: str, *args: Any) -> dict[str, Any]:
    driver.set_script_timeout(SCRIPT_TIMEOUT)
    out = driver.execute_async_script(script, *args)
    assert isinstance(out, dict) and "error" not in out, out
    return out


def assert_flat(what: str, first: tuple[int, int], second: tuple[int, int], start: tuple[int, int]) -> None:
    """Second-half growth within budget; the figures (per card) are in the message."""
    wasm_growth = second[0] - first[0]
    heap_growth = second[1] - first[1]
    figures = (
        f"{what}: wasm {start[0]} -> {first[0]} -> {second[0]} bytes "
        f"({wasm_growth / HALF:.0f} B/card over the second {HALF}), "
        f"JS heap {start[1]} -> {first[1]} -> {second[1]} bytes ({heap_growth / HALF:.0f} B/card)"
    )
    print(figures)
    assert wasm_growth <= WASM_BUDGET, figures
    assert heap_growth <= JS_HEAP_BUDGET, figures


def test_elicit_thousand_cards_memory_flat(driver: Any, www: StaticServer) -> None:
    params = twenty_fields()
    driver.get(f"{www.origin}/embed.html")
    wait_text(driver, "h1", "Embedding example")
    run = ("Submit", "accept")
    start = (page_loop(driver, ELICIT_LOOP, 0, params, *run)["wasm"], js_heap(driver))
    first = (page_loop(driver, ELICIT_LOOP, HALF, params, *run)["wasm"], js_heap(driver))
    second = (page_loop(driver, ELICIT_LOOP, HALF, params, *run)["wasm"], js_heap(driver))
    assert_flat("elicit", first, second, start)


def test_elicit_thousand_url_cards_memory_flat(driver: Any, www: StaticServer) -> None:
    # Declined: opening a thousand tabs is not what is measured (the card's own state is).
    params = {"mode": "url", "message": "Sign in", "url": "https://example.com/login", "elicitationId": "e-1"}
    driver.get(f"{www.origin}/embed.html")
    wait_text(driver, "h1", "Embedding example")
    run = ("Decline", "decline")
    start = (page_loop(driver, ELICIT_LOOP, 0, params, *run)["wasm"], js_heap(driver))
    first = (page_loop(driver, ELICIT_LOOP, HALF, params, *run)["wasm"], js_heap(driver))
    second = (page_loop(driver, ELICIT_LOOP, HALF, params, *run)["wasm"], js_heap(driver))
    assert_flat("elicit (URL)", first, second, start)


PER_CALL = 10
"""Cards per call of endless_questions: nine Submit, then a Decline ends the call."""


@pytest.mark.parametrize("protocol", [LEGACY, MODERN])
def test_mcp_client_thousand_cards_memory_flat(driver: Any, www: StaticServer, demo_server: Any, protocol: str) -> None:
    # Each call takes PER_CALL rounds in the modern era: room for them under maxRounds.
    query = urlencode({"server": demo_server.url, "protocol": protocol, "maxRounds": PER_CALL + 1})
    driver.get(f"{www.origin}/host.html?{query}")
    wait_text(driver, "[data-testid=connection-status]", f"connected · {protocol}")
    calls = HALF // PER_CALL
    start = (page_loop(driver, CLIENT_LOOP, 0, PER_CALL)["wasm"], js_heap(driver))
    first_run = page_loop(driver, CLIENT_LOOP, calls, PER_CALL)
    first = (first_run["wasm"], js_heap(driver))
    second_run = page_loop(driver, CLIENT_LOOP, calls, PER_CALL)
    second = (second_run["wasm"], js_heap(driver))
    print(json.dumps([first_run, second_run]))
    assert_flat(f"McpClient {protocol}", first, second, start)
    refs = (first_run["refs"], second_run["refs"])
    assert refs[1] - refs[0] <= LIVE_REFS_BUDGET, f"live JS values {refs[0]} -> {refs[1]} over the second {HALF}"


# What the person and the host see once cards are freed: an answered card left in the page
# still shows what was answered (now an inert copy), a card whose element was taken away
# unanswered resolves `cancel` at the next call, and `releaseElicitation` ends one at once.
AFTER_FREE = (
    """
const [params, done] = arguments;
(async () => {
"""
    + PACKAGE
    + """
  const out = {};
  const tick = () => new Promise((r) => setTimeout(r, 0));
  const slot = () => { const d = document.createElement('div'); document.body.append(d); return d; };
  const kept = slot();
  const first = pkg.elicit(kept, params);
  const before = kept.querySelector('[data-elicitation]');
  const size = kept.querySelector('select[name=size]');
  size.value = 'l';
  size.dispatchEvent(new Event('change', { bubbles: true }));
  const text = kept.querySelector('input[name=text0]');
  text.value = 'typed';
  text.dispatchEvent(new Event('input', { bubbles: true }));
  [...kept.querySelectorAll('button')].find((b) => b.textContent.trim() === 'Submit').click();
  out.answer = await first;
  await tick(); await tick();
  const card = kept.querySelector('[data-elicitation]');
  out.copied = card !== null && card !== before;
  out.state = card && card.dataset.state;
  out.size = kept.querySelector('select[name=size]').value;
  out.text = kept.querySelector('input[name=text0]').value;
  out.disabled = kept.querySelector('input[name=text0]').disabled;
  // Keys on the copy reach no handler (nothing is left to run, nothing throws).
  kept.querySelector('input[name=text0]').dispatchEvent(new KeyboardEvent('keydown', { key: 'Escape', bubbles: true }));
  kept.querySelector('input[name=text0]').dispatchEvent(new KeyboardEvent('keydown', { key: 'Enter', bubbles: true }));

  const gone = slot();
  const unanswered = pkg.elicit(gone, params);
  gone.remove();
  const other = slot();
  const later = pkg.elicit(other, params);
  // Settled by then, or never: a few turns of the event loop tell (no clock involved).
  const open = () => tick().then(tick).then(() => ({ action: 'still open' }));
  out.removed = (await Promise.race([unanswered, open()])).action;
  if (pkg.releaseElicitation) pkg.releaseElicitation(other);
  out.released = (await Promise.race([later, open()])).action;
  out.releasedEmpty = other.childNodes.length === 0;
  // The page still works after all of it.
  const again = slot();
  const last = pkg.elicit(again, params);
  [...again.querySelectorAll('button')].find((b) => b.textContent.trim() === 'Decline').click();
  out.last = (await last).action;
  done(out);
})().catch((e) => done({ error: String(e && e.stack || e) }));
"""
)


def test_freed_cards_stay_readable_and_removed_ones_end(driver: Any, www: StaticServer) -> None:
    driver.get(f"{www.origin}/embed.html")
    wait_text(driver, "h1", "Embedding example")
    out = page_loop(driver, AFTER_FREE, twenty_fields())
    assert out["answer"]["action"] == "accept"
    assert out["answer"]["content"]["size"] == "l" and out["answer"]["content"]["text0"] == "typed"
    # The answered card stays on screen as it was: answered, read-only, the values given.
    assert out["copied"] is True, out
    assert (out["state"], out["size"], out["text"], out["disabled"]) == ("answered", "l", "typed", True), out
    assert out["removed"] == "cancel", out
    assert (out["released"], out["releasedEmpty"]) == ("cancel", True), out
    assert out["last"] == "decline", out
    # A panic or a throw in the page is logged as a console error (a 404 favicon is not one).
    logs = [e for e in driver.get_log("browser") if e.get("level") == "SEVERE" and e.get("source") != "network"]
    assert not logs, logs


CLIENTS_HALF = 100
"""Clients per measured half of the reconnect test (each: connect, list tools, close, free)."""

# A host that renews its connection: `count` times a new McpClient on its own element,
# a request, close (a legacy session is DELETEd), free, and the element removed.
RECONNECT_LOOP = (
    """
const [count, url, protocol, done] = arguments;
(async () => {
"""
    + HOST_PACKAGE
    + """
  for (let i = 0; i < count; i++) {
    const container = document.createElement('div');
    document.body.append(container);
    const client = await pkg.McpClient.connect(url, { container, protocol });
    const tools = await client.listTools();
    if (!tools.some((t) => t.name === 'endless_questions')) throw new Error('no tools listed');
    await client.close();
    client.free();
    container.remove();
  }
"""
    + SETTLE
    + """
  done({ wasm: wasm.memory.buffer.byteLength, refs: wasm.__wbindgen_externrefs.length });
})().catch((e) => done({ error: String(e && e.stack || e) }));
"""
)


@pytest.mark.parametrize("protocol", [LEGACY, MODERN])
def test_mcp_client_renewed_connections_memory_flat(
    driver: Any, www: StaticServer, demo_server: Any, protocol: str
) -> None:
    driver.get(f"{www.origin}/embed.html")
    wait_text(driver, "h1", "Embedding example")
    args = (demo_server.url, protocol)
    start = (page_loop(driver, RECONNECT_LOOP, 0, *args)["wasm"], js_heap(driver))
    first = (page_loop(driver, RECONNECT_LOOP, CLIENTS_HALF, *args)["wasm"], js_heap(driver))
    second = (page_loop(driver, RECONNECT_LOOP, CLIENTS_HALF, *args)["wasm"], js_heap(driver))
    growth = (second[0] - first[0], second[1] - first[1])
    figures = (
        f"McpClient renewed {protocol}: wasm {start[0]} -> {first[0]} -> {second[0]}, "
        f"JS heap {start[1]} -> {first[1]} -> {second[1]} "
        f"({growth[0] / CLIENTS_HALF:.0f} / {growth[1] / CLIENTS_HALF:.0f} B per client over the second {CLIENTS_HALF})"
    )
    print(figures)
    assert growth[0] <= RENEWED_WASM_BUDGET, figures
    assert growth[1] <= JS_HEAP_BUDGET, figures
