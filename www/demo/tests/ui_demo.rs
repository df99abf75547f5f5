//! The demo app in a real browser against a fake MCP server of the modern era that lives in
//! the page (`window.fetch` is replaced): races the real servers cannot time on demand
//! (a slower call or connect finishing after a newer one), lists a real server would
//! not send (duplicate names from a looping cursor), and a link's `tool`/`args` (filled
//! in, called only on a click).

// Browser-only: these mount the app into a real DOM.
#![cfg(target_arch = "wasm32")]

// The helpers the library's browser tests use (mount, type, click, query, wait, fake a server).
#[path = "../../../web/tests/all/ui_support/mod.rs"]
mod ui_support;

use ui_support::*;
use wasm_bindgen::JsCast;
use wasm_bindgen_test::*;

wasm_bindgen_test_configure!(run_in_browser);

/// The fake server (the handler `fake_fetch` is given for each of `SERVERS`). Every
/// server's tools are `tools[url]` (input schema `schemas[name]`,
/// else no properties; each call's arguments go to `calls`); a tool call answers
/// `{name} done` once its gate (if any) is opened; `server/discover` of a held URL waits
/// until released (a tool named in `texts` answers that text instead). `loopCursor` makes `tools/list` always say there is another page.
/// `sent` counts requests the moment `fetch` is called; `log` gets `{url} {method} {name}`
/// once a request is read, and `{url} read {method} {name}` once the client has read its
/// answer's body to the end (so a test knows the client has all of it).
const FAKE: &str = r#"
const fake = {
  loopCursor: false,
  tools: {},
  schemas: {},
  calls: [],
  texts: {},
  gates: {},
  held: {},
  log: [],
  sent: 0,
  gate(key) {
    let open;
    const promise = new Promise((resolve) => { open = resolve; });
    this.gates[key] = { promise, open };
  },
  open(key) { const g = this.gates[key]; if (g) { delete this.gates[key]; g.open(); } },
};
window.__fake = fake;
// A body handed out only as the client reads it, noting when the client reached its end.
const body = (text, note) => {
  let given = false;
  return new ReadableStream({
    pull(controller) {
      if (!given) { given = true; controller.enqueue(new TextEncoder().encode(text)); return; }
      fake.log.push(note);
      controller.close();
    },
  }, { highWaterMark: 0 });
};
return async (req, rpc) => {
  fake.sent += 1;
  const msg = JSON.parse(await req.text());
  const url = req.url;
  const name = (msg.params && msg.params.name) || "";
  fake.log.push(`${url} ${msg.method} ${name}`.trim());
  const reply = (result) => new Response(
    body(JSON.stringify({ jsonrpc: "2.0", id: msg.id, result: Object.assign({ resultType: "complete" }, result) }),
      `${url} read ${msg.method} ${name}`.trim()),
    { status: 200, headers: { "content-type": "application/json" } },
  );
  const schema = { type: "object", properties: {} };
  switch (msg.method) {
    case "server/discover":
      if (fake.gates["connect " + url]) await fake.gates["connect " + url].promise;
      fake.log.push(`${url} discovered`);
      return reply({ supportedVersions: ["2026-07-28"], capabilities: { tools: {} } });
    case "tools/list": {
      const tools = (fake.tools[url] || []).map((n) => ({ name: n, inputSchema: fake.schemas[n] || schema }));
      return reply(fake.loopCursor ? { tools, nextCursor: "again" } : { tools });
    }
    case "prompts/list": return reply({ prompts: [] });
    case "resources/list": return reply({ resources: [] });
    case "resources/templates/list": return reply({ resourceTemplates: [] });
    case "tools/call":
      fake.calls.push(`${name} ${JSON.stringify(msg.params.arguments)}`);
      if (fake.gates[name]) await fake.gates[name].promise;
      fake.log.push(`${url} done ${name}`);
      return reply({ content: [{ type: "text", text: fake.texts[name] || `${name} done` }], isError: false });
    default:
      return rpc.error(msg.id, -32601, "Method not found");
  }
};
"#;

/// The servers the fake answers for.
const SERVERS: [&str; 5] = ["runs", "slow", "fast", "loop", "link"];

/// Installs a fresh fake server.
fn install_fake() {
    // One handler, so every server shares the one `window.__fake`.
    let handler = run_js(FAKE)
        .dyn_into::<js_sys::Function>()
        .unwrap_or_else(|_| panic!("the fake server is a function"));
    for server in SERVERS {
        fake_fetch(&format!("http://{server}.test/"), &handler);
    }
}

fn fake_log() -> Vec<String> {
    let log = run_js("return window.__fake.log.slice()");
    js_sys::Array::from(&log)
        .iter()
        .filter_map(|v| v.as_string())
        .collect()
}

/// Waits until the client has read the whole answer to the request logged as `request`
/// (`{url} {method} {name}`), then lets one task turn pass: what the client does with an
/// answer it has read runs in promise jobs, which all run before the next task. So a
/// negative check after this sees everything that answer caused.
async fn answer_read(request: &str) {
    let (url, rest) = request.split_once(' ').unwrap_or((request, ""));
    let note = format!("{url} read {rest}");
    until(&note.clone(), || fake_log().iter().any(|l| l == &note)).await;
    tick().await;
}

/// Mounts the demo app (the test page has no query string, so it does not connect). The
/// app mounts once its language's catalog is there (English: at the next turn).
async fn mount_app() -> web_sys::HtmlElement {
    let root = host();
    mcp_elicit_demo::mount_demo(root.clone());
    until("the demo mounted", || {
        root.query_selector("#server-url").ok().flatten().is_some()
    })
    .await;
    root
}

fn text(root: &web_sys::Element, sel: &str) -> String {
    q(root, sel).text_content().unwrap_or_default()
}

/// Types `url` into Server URL and presses Connect.
fn connect_to(root: &web_sys::Element, url: &str) {
    type_into(&input_at(root, "#server-url"), url);
    button(root, "Connect").click();
}

async fn connected(root: &web_sys::Element) {
    until("connected", || {
        text(root, "[data-testid=connection-status]").contains("connected · 2026-07-28")
    })
    .await;
}

fn call(root: &web_sys::Element, tool: &str) {
    button(&q(root, &format!("[data-tool={tool}]")), "Call tool").click();
}

#[wasm_bindgen_test]
async fn the_result_is_the_latest_calls_even_when_an_earlier_one_ends_later() {
    install_fake();
    run_js(
        r#"window.__fake.tools["http://runs.test/mcp"] = ["slow_one", "fast_one"];
          window.__fake.gate("slow_one");"#,
    );
    let root = mount_app().await;
    connect_to(&root, "http://runs.test/mcp");
    connected(&root).await;
    until("the tools", || {
        q_opt(&root, "[data-tool=fast_one]").is_some()
    })
    .await;

    call(&root, "slow_one");
    until("the slow call sent", || {
        fake_log()
            .iter()
            .any(|l| l.ends_with("tools/call slow_one"))
    })
    .await;
    call(&root, "fast_one");
    until("the fast result", || {
        text(&root, "[data-testid=tool-result]") == "fast_one done"
    })
    .await;

    run_js(r#"window.__fake.open("slow_one")"#);
    answer_read("http://runs.test/mcp tools/call slow_one").await;
    assert_eq!(
        text(&root, "[data-testid=tool-result]"),
        "fast_one done",
        "the earlier call, ending last, does not replace the latest call's result"
    );
    assert!(text(&root, "[data-testid=app-error]").trim().is_empty());
}

#[wasm_bindgen_test]
async fn a_slower_earlier_connect_does_not_replace_a_newer_one() {
    install_fake();
    run_js(
        r#"const f = window.__fake;
          f.tools["http://slow.test/mcp"] = ["from_slow"];
          f.tools["http://fast.test/mcp"] = ["from_fast"];
          f.gate("connect http://slow.test/mcp");"#,
    );
    let root = mount_app().await;
    connect_to(&root, "http://slow.test/mcp");
    until("the slow probe sent", || {
        fake_log()
            .iter()
            .any(|l| l == "http://slow.test/mcp server/discover")
    })
    .await;
    connect_to(&root, "http://fast.test/mcp");
    connected(&root).await;
    until("the fast tools", || {
        q_opt(&root, "[data-tool=from_fast]").is_some()
    })
    .await;

    run_js(r#"window.__fake.open("connect http://slow.test/mcp")"#);
    answer_read("http://slow.test/mcp server/discover").await;
    assert!(
        q_opt(&root, "[data-tool=from_fast]").is_some()
            && q_opt(&root, "[data-tool=from_slow]").is_none(),
        "the lists are the newer connection's"
    );
    assert_eq!(
        fake_log()
            .iter()
            .filter(|l| l.starts_with("http://slow.test/mcp ") && !l.contains("discover"))
            .count(),
        0,
        "the older connect went no further than its probe: {:?}",
        fake_log()
    );
    call(&root, "from_fast");
    until("the result", || {
        text(&root, "[data-testid=tool-result]") == "from_fast done"
    })
    .await;
    assert!(
        fake_log()
            .iter()
            .any(|l| l == "http://fast.test/mcp tools/call from_fast"),
        "the call went to the newer connection's server: {:?}",
        fake_log()
    );
}

#[wasm_bindgen_test]
async fn duplicate_names_from_a_looping_cursor_show_one_card_each_and_still_work() {
    // Leptos's keyed list needs unique keys: with [a, a, b] it rendered `a` twice and no `b`.
    install_fake();
    run_js(
        r#"window.__fake.tools["http://loop.test/mcp"] = ["first_tool", "first_tool", "second_tool"];
          window.__fake.loopCursor = true;"#,
    );
    let root = mount_app().await;
    connect_to(&root, "http://loop.test/mcp");
    connected(&root).await;
    until("the tools", || {
        q_opt(&root, "[data-tool=second_tool]").is_some()
    })
    .await;
    // The listing's last step: every page of tools is in by then.
    answer_read("http://loop.test/mcp resources/templates/list").await;
    assert_eq!(q_all(&root, "[data-tool=first_tool]").len(), 1);
    assert_eq!(q_all(&root, "[data-tool=second_tool]").len(), 1);
    call(&root, "second_tool");
    until("the result", || {
        text(&root, "[data-testid=tool-result]") == "second_tool done"
    })
    .await;
    call(&root, "first_tool");
    until("the result", || {
        text(&root, "[data-testid=tool-result]") == "first_tool done"
    })
    .await;
}

#[wasm_bindgen_test]
async fn a_link_fills_in_its_tool_and_only_the_click_calls_it() {
    // The page's own query string is the test runner's, so the link is given directly.
    install_fake();
    run_js(
        r#"const f = window.__fake;
          f.tools["http://link.test/mcp"] = ["other", "linked"];
          f.schemas.linked = { type: "object", required: ["city"],
            properties: { city: { type: "string", title: "City" } } };"#,
    );
    let mut args = serde_json::Map::new();
    args.insert("city".into(), serde_json::Value::from("Oslo"));
    let root = host();
    mcp_elicit_demo::mount_demo_with(
        root.clone(),
        mcp_elicit_demo::StartParams {
            server: Some("http://link.test/mcp".into()),
            prefill: Some(mcp_elicit_demo::Prefill {
                tool: "linked".into(),
                args,
            }),
            ..Default::default()
        },
    );
    connected(&root).await;
    until("the linked tool selected", || {
        q_opt(&root, "[data-tool=linked][data-selected=true]").is_some()
    })
    .await;
    // Listing is the last step of a connect (an automatic call came right after it).
    answer_read("http://link.test/mcp resources/templates/list").await;
    assert!(
        !fake_log().iter().any(|l| l.contains("tools/call")),
        "a link alone called a tool: {:?}",
        fake_log()
    );
    // A request the client began but the fake has not logged yet counts here.
    let requests = fake_log()
        .iter()
        .filter(|l| !l.contains(" read ") && !l.ends_with(" discovered"))
        .count();
    let sent = run_js("return window.__fake.sent").as_f64().unwrap_or(-1.0);
    assert_eq!(
        sent,
        requests as f64,
        "requests in flight: {:?}",
        fake_log()
    );
    let city = input_at(&root, "[data-tool=linked] input[name=city]");
    assert_eq!(city.value(), "Oslo");
    assert!(text(&root, "[data-testid=tool-result]").trim().is_empty());
    assert!(q_opt(&root, "[data-tool=other][data-selected]").is_none());

    call(&root, "linked");
    until("the result", || {
        text(&root, "[data-testid=tool-result]") == "linked done"
    })
    .await;
    let calls = run_js("return window.__fake.calls.slice()");
    let calls: Vec<String> = js_sys::Array::from(&calls)
        .iter()
        .filter_map(|v| v.as_string())
        .collect();
    assert_eq!(calls, vec![r#"linked {"city":"Oslo"}"#.to_owned()]);
}

/// A result keeps the server's line breaks and indentation (a list, indented JSON), as card
/// messages do, with the page's own stylesheet applied.
#[wasm_bindgen_test]
async fn a_result_keeps_its_lines_and_indentation() {
    install_fake();
    run_js(
        r#"window.__fake.tools["http://runs.test/mcp"] = ["listing"];
          window.__fake.texts.listing = "Files:\n- a.txt\n- b.txt\n{\n  \"size\": 2\n}";"#,
    );
    let css = serde_json::to_string(include_str!("../../style.css")).unwrap_or_default();
    run_js(&format!(
        r#"const style = document.createElement("style");
          style.id = "page-style";
          style.textContent = {css};
          document.head.append(style);"#
    ));
    let root = mount_app().await;
    connect_to(&root, "http://runs.test/mcp");
    connected(&root).await;
    until("the tool", || q_opt(&root, "[data-tool=listing]").is_some()).await;
    call(&root, "listing");
    until("the result", || {
        text(&root, "[data-testid=tool-result]").contains("b.txt")
    })
    .await;
    let shown = q(&root, "[data-testid=tool-result] .text");
    assert_eq!(
        shown.text_content().unwrap_or_default(),
        "Files:\n- a.txt\n- b.txt\n{\n  \"size\": 2\n}"
    );
    shown
        .set_attribute("data-probe", "lines")
        .expect("mark the result");
    let white_space = run_js(
        r#"const ws = getComputedStyle(document.querySelector("[data-probe=lines]")).whiteSpace;
          document.getElementById("page-style").remove();
          return ws;"#,
    )
    .as_string()
    .unwrap_or_default();
    assert!(
        ["pre", "pre-wrap", "break-spaces"].contains(&white_space.as_str()),
        "line breaks and indentation are kept: white-space {white_space:?}"
    );
}
