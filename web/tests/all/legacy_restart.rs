//! The legacy session against a server that restarts (wasm-bindgen-test in Chromium): a
//! fake Streamable HTTP server stands in for `window.fetch`, numbers its requests from 0
//! again after a "restart" (as a fresh SDK server does), and logs every POST. What must
//! hold: a card of the old session is never answered on the new one (its id there is
//! another question); a kept answer goes only to the re-run of its own call; a failed
//! resend is said on the card, never reported as sent.

#![cfg(target_arch = "wasm32")]

use std::cell::RefCell;
use std::rc::Rc;

use crate::ui_support::*;
use js_sys::{Function, Reflect};
use mcp_elicit::wire::{Call, ElicitResult};
use mcp_elicit_web::client::{
    ClientConfig, ClientError, ClientEvent, EventSink, LegacySession, ProtocolChoice,
};
use serde_json::{json, Map, Value};
use wasm_bindgen::JsValue;
use wasm_bindgen_test::*;

/// The fake server at `http://fake.invalid/` (the handler for `fake_fetch`);
/// `window.__fake` is its control and log.
/// `notifications/initialized` fails with 503 while `failInitialized` is set.
/// Each `tools/call` gets an SSE stream that asks one question (message `Q {q}`, `q` the
/// call's argument) under the next server id, and stays open. Answers are taken (202), or refused with 503
/// while `failAnswers` is set. `restart()` forgets the session and the ids. With
/// `finishOnAnswer` set, a taken answer also ends its call: the stream carries the call's
/// result and closes. With `asTask` set, the question is asked as a task (2025-11-25).
const FAKE_SERVER: &str = r#"
const fake = { session: 1, nextId: 0, failAnswers: false, failInitialized: false, finishOnAnswer: false, asTask: false, posts: [], streams: [], asked: {} };
fake.restart = () => {
  fake.session += 1; fake.nextId = 0;
  for (const c of fake.streams) { try { c.error(new TypeError('server went away')); } catch (e) {} }
  fake.streams = [];
};
const enc = new TextEncoder();
const sse = (m) => enc.encode('event: message\ndata: ' + JSON.stringify(m) + '\n\n');
window.__fake = fake;
return async (request, reply) => {
  const sid = request.headers.get('mcp-session-id');
  if (request.method === 'GET') return new Response(null, { status: 405 });
  if (request.method === 'DELETE') return new Response(null, { status: 200 });
  const msg = JSON.parse(await request.text());
  fake.posts.push({ session: sid, msg });
  if (msg.method === 'initialize') {
    return reply.result(msg.id, {
      protocolVersion: '2025-11-25', capabilities: {}, serverInfo: { name: 'fake', version: '1' } },
      { headers: { 'mcp-session-id': 's' + fake.session } });
  }
  if (sid !== 's' + fake.session) {
    return reply.error(null, -32600, 'Session not found', { status: 404 });
  }
  if (msg.method === 'notifications/initialized' && fake.failInitialized) {
    return new Response(null, { status: 503 });
  }
  if (!('method' in msg)) {
    const asked = fake.asked[msg.id];
    if (!fake.failAnswers && fake.finishOnAnswer && asked) {
      delete fake.asked[msg.id];
      asked.c.enqueue(sse({ jsonrpc: '2.0', id: asked.call, result: { content: [], isError: false } }));
      asked.c.close();
    }
    return new Response(null, { status: fake.failAnswers ? 503 : 202 });
  }
  if (msg.method !== 'tools/call') return new Response(null, { status: 202 });
  const id = fake.nextId++;
  const params = { message: 'Q ' + msg.params.arguments.q,
    requestedSchema: { type: 'object', properties: { ok: { type: 'boolean' } } } };
  if (fake.asTask) params.task = { ttl: 600000 };
  const body = new ReadableStream({ start(c) {
    fake.streams.push(c);
    fake.asked[id] = { c, call: msg.id };
    c.enqueue(sse({ jsonrpc: '2.0', id, method: 'elicitation/create', params }));
  } });
  return new Response(body, { status: 200, headers: { 'content-type': 'text/event-stream' } });
};
"#;

fn install_fake_server() {
    fake_fetch_script("http://fake.invalid/", FAKE_SERVER);
}

fn fake() -> JsValue {
    Reflect::get(&js_sys::global(), &"__fake".into()).expect("the fake server")
}

fn restart() {
    let restart = Reflect::get(&fake(), &"restart".into()).expect("restart");
    Function::from(restart)
        .call0(&fake())
        .expect("the fake server restarts");
}

fn fail_initialized(fail: bool) {
    Reflect::set(&fake(), &"failInitialized".into(), &fail.into()).expect("set");
}

fn fail_answers(fail: bool) {
    Reflect::set(&fake(), &"failAnswers".into(), &fail.into()).expect("set");
}

/// The answers (JSON-RPC responses) POSTed so far: (session header, message).
fn answers_posted() -> Vec<(Option<String>, Value)> {
    let posts = Reflect::get(&fake(), &"posts".into()).expect("posts");
    let text = js_sys::JSON::stringify(&posts)
        .ok()
        .and_then(|s| s.as_string())
        .expect("posts as JSON");
    let posts: Vec<Value> = serde_json::from_str(&text).expect("posts parse");
    posts
        .into_iter()
        .filter(|p| p["msg"].get("method").is_none())
        .map(|p| (p["session"].as_str().map(str::to_owned), p["msg"].clone()))
        .collect()
}

/// Lets the spawned tasks and the fake server's promises run.
async fn settle() {
    sleep(50).await;
}

#[derive(Default)]
struct Seen {
    /// Cards shown: (routing id, message).
    cards: Vec<(String, String)>,
    answered: Vec<String>,
    failed: Vec<(String, String)>,
    /// Cards whose call returned ([`ClientEvent::CallEnded`]).
    ended: Vec<String>,
}

async fn connect() -> (LegacySession, Rc<RefCell<Seen>>) {
    install_fake_server();
    let seen = Rc::new(RefCell::new(Seen::default()));
    let log = seen.clone();
    let sink: EventSink = Rc::new(move |event| match event {
        ClientEvent::Elicit { id, params, .. } => log
            .borrow_mut()
            .cards
            .push((id, params.message().to_owned())),
        ClientEvent::Answered { id } => log.borrow_mut().answered.push(id),
        ClientEvent::AnswerFailed { id, reason } => log.borrow_mut().failed.push((id, reason)),
        ClientEvent::CallEnded { id } => log.borrow_mut().ended.push(id),
        _ => {}
    });
    let config = ClientConfig::new("http://fake.invalid/mcp", ProtocolChoice::Legacy);
    let session = LegacySession::connect(config, sink)
        .await
        .expect("connects to the fake server");
    (session, seen)
}

/// The `tools/call` of `name` whose server asks `Q {question}`.
fn tool_call(name: &str, question: &str) -> Call {
    let mut arguments = Map::new();
    arguments.insert("q".into(), json!(question));
    Call::Tool {
        name: name.into(),
        arguments,
    }
}

/// Starts `tools/call` of `name` in the background; the server asks `Q {question}`.
fn call(session: &LegacySession, name: &str, question: &str) {
    let session = session.clone();
    let call = tool_call(name, question);
    wasm_bindgen_futures::spawn_local(async move {
        let _ = session.call(&call).await;
    });
}

/// Calls `name` with `question`, restarts the server while its card waits, and answers the
/// card: the forgotten session cannot take it, so the answer is kept for the call's re-run.
/// Returns the card's id.
async fn kept_across_restart(
    session: &LegacySession,
    seen: &Rc<RefCell<Seen>>,
    name: &str,
    question: &str,
) -> String {
    call(session, name, question);
    settle().await;
    let card = card_of(seen, &format!("Q {question}"));
    restart();
    settle().await;
    assert_eq!(
        session.answer(&card, yes()).await,
        Err(ClientError::RequestLost)
    );
    settle().await;
    card
}

fn card_of(seen: &Rc<RefCell<Seen>>, message: &str) -> String {
    let seen = seen.borrow();
    let cards: Vec<&String> = seen
        .cards
        .iter()
        .filter(|(_, m)| m == message)
        .map(|(id, _)| id)
        .collect();
    match cards.last() {
        Some(id) => (*id).clone(),
        None => panic!("no card {message:?} among {:?}", seen.cards),
    }
}

fn yes() -> ElicitResult {
    let mut content = Map::new();
    content.insert("ok".into(), json!(true));
    ElicitResult::accept(Some(content))
}

/// After a restart, once another request renewed the session, a card of the old session
/// posts nothing: its old id names another question on the new one.
#[wasm_bindgen_test]
async fn a_card_of_the_old_session_is_not_answered_on_the_new_one() {
    let (session, seen) = connect().await;
    call(&session, "a", "a");
    call(&session, "b", "b");
    settle().await;
    let a = card_of(&seen, "Q a");
    card_of(&seen, "Q b");
    restart();
    settle().await;
    // Another call renews the session; the new server asks it under id 0 again.
    call(&session, "c", "c");
    settle().await;
    card_of(&seen, "Q c");
    let outcome = session.answer(&a, yes()).await;
    assert_eq!(outcome, Err(ClientError::RequestLost));
    assert_eq!(answers_posted(), vec![], "nothing is sent across sessions");
}

/// A kept answer goes to the re-run of its own call only, and a failed resend is said on
/// the card (never "Answer sent.").
#[wasm_bindgen_test]
async fn a_kept_answer_goes_only_to_the_rerun_of_its_call_and_a_failed_resend_is_said() {
    let (session, seen) = connect().await;
    // The answer meets the forgotten session: kept for the re-run of call "a".
    let a = kept_across_restart(&session, &seen, "a", "a").await;
    // The re-run of "a" asks the same question; its resend fails (503).
    fail_answers(true);
    call(&session, "a", "a");
    settle().await;
    assert_eq!(seen.borrow().answered, Vec::<String>::new(), "not sent");
    let failed = seen.borrow().failed.clone();
    assert_eq!(failed.len(), 1, "{failed:?}");
    assert_eq!(failed[0].0, a, "the card says so");
    // Submit resends, to the re-run's request, on the current session.
    fail_answers(false);
    session.answer(&a, yes()).await.expect("delivered");
    let posted = answers_posted();
    let last = posted.last().expect("an answer");
    assert_eq!(last.0.as_deref(), Some("s2"));
    assert_eq!(last.1["id"], json!(0));
    assert_eq!(last.1["result"]["content"]["ok"], json!(true));
}

#[wasm_bindgen_test]
async fn a_kept_answer_is_not_replayed_into_another_calls_identical_question() {
    let (session, seen) = connect().await;
    let a = kept_across_restart(&session, &seen, "a", "same").await;
    let before = answers_posted().len();
    // Another call asks the very same question: it gets a card of its own.
    call(&session, "b", "same");
    settle().await;
    assert_eq!(answers_posted().len(), before, "nothing replayed into it");
    assert!(seen.borrow().answered.is_empty());
    assert_ne!(card_of(&seen, "Q same"), a, "a new card");
    // The kept answer waited for its own call; another came first, so the card is told.
    let failed = seen.borrow().failed.clone();
    assert_eq!(failed.len(), 1, "{failed:?}");
    assert_eq!(failed[0].0, a);
    assert!(failed[0].1.contains("not sent"), "{}", failed[0].1);
}

/// A renewal whose `notifications/initialized` failed leaves no session usable under the
/// old session's number, so a card of the old session cannot answer the new session's
/// request of the same id.
#[wasm_bindgen_test]
async fn after_a_failed_renewal_an_old_card_is_not_answered_on_the_new_session() {
    let (session, seen) = connect().await;
    call(&session, "a", "a");
    settle().await;
    let a = card_of(&seen, "Q a");
    restart();
    fail_initialized(true);
    assert!(session.call(&tool_call("b", "b")).await.is_err());
    fail_initialized(false);
    assert_eq!(
        session.answer(&a, yes()).await,
        Err(ClientError::RequestLost)
    );
    assert_eq!(answers_posted(), vec![], "nothing is sent across sessions");
    // The next call sets the session up again; its question gets a card of its own.
    call(&session, "c", "c");
    settle().await;
    assert_ne!(card_of(&seen, "Q c"), a);
    assert_eq!(answers_posted(), vec![]);
}

/// Connections do not share session numbers, so a card of a closed connection ("1/0")
/// never has the route of the next connection's first request.
#[wasm_bindgen_test]
async fn no_two_connections_share_a_route() {
    let (first, seen) = connect().await;
    call(&first, "a", "a");
    settle().await;
    let a = card_of(&seen, "Q a");
    first.close().await;
    let (second, seen) = connect().await;
    call(&second, "b", "b");
    settle().await;
    assert_ne!(card_of(&seen, "Q b"), a);
}

/// A listing between a restart and the re-run of a call leaves the answer kept for it.
#[wasm_bindgen_test]
async fn a_listing_does_not_expire_a_kept_answer() {
    let (session, seen) = connect().await;
    let a = kept_across_restart(&session, &seen, "a", "a").await;
    let _ = session.request("tools/list", Map::new()).await;
    assert!(
        seen.borrow().failed.is_empty(),
        "{:?}",
        seen.borrow().failed
    );
    call(&session, "a", "a");
    settle().await;
    assert_eq!(seen.borrow().answered, vec![a], "replayed into the re-run");
}

/// A `tools/call` sent through `request` is a run of its call like one sent through `call`:
/// the answer kept across a restart is replayed into it.
#[wasm_bindgen_test]
async fn a_call_sent_as_a_request_gets_the_answer_kept_for_it() {
    let (session, seen) = connect().await;
    let a = kept_across_restart(&session, &seen, "a", "a").await;
    let rerun_of_a = tool_call("a", "a");
    let params = match serde_json::to_value(rerun_of_a.params()) {
        Ok(Value::Object(params)) => params,
        other => panic!("params of a call are an object: {other:?}"),
    };
    let rerun = session.clone();
    wasm_bindgen_futures::spawn_local(async move {
        let _ = rerun.request("tools/call", params).await;
    });
    settle().await;
    assert_eq!(seen.borrow().answered, vec![a], "replayed into the re-run");
}

/// A `tools/call` through `request` whose params name no tool is refused in words, not sent.
#[wasm_bindgen_test]
async fn a_call_request_without_a_name_is_refused_in_words() {
    let (session, _seen) = connect().await;
    let posts_before = posts_count();
    let outcome = session.request("tools/call", Map::new()).await;
    match outcome {
        Err(e) => assert!(e.to_string().contains("tools/call params"), "{e}"),
        Ok(raw) => panic!("sent: {raw}"),
    }
    assert_eq!(posts_count(), posts_before, "nothing was sent");
}

fn posts_count() -> u32 {
    let posts = Reflect::get(&fake(), &"posts".into()).expect("posts");
    js_sys::Array::from(&posts).length()
}

/// Once a call returns its result, the session says so for each card it showed
/// ([`ClientEvent::CallEnded`]): an opened URL card stops waiting for a completion the
/// server may never send. A call still running says nothing.
#[wasm_bindgen_test]
async fn a_call_that_returns_says_so_for_its_cards() {
    let (session, seen) = connect().await;
    Reflect::set(&fake(), &"finishOnAnswer".into(), &true.into()).expect("set");
    let done = Rc::new(RefCell::new(None));
    {
        let (session, done) = (session.clone(), done.clone());
        let call = tool_call("a", "a");
        wasm_bindgen_futures::spawn_local(async move {
            *done.borrow_mut() = Some(session.call(&call).await.is_ok());
        });
    }
    call(&session, "b", "b");
    settle().await;
    let a = card_of(&seen, "Q a");
    card_of(&seen, "Q b");
    assert_eq!(seen.borrow().ended, Vec::<String>::new(), "the calls run");
    session
        .answer(&a, yes())
        .await
        .unwrap_or_else(|e| panic!("the answer: {e}"));
    until("the call's result", || done.borrow().is_some()).await;
    assert_eq!(*done.borrow(), Some(true));
    assert_eq!(seen.borrow().ended, vec![a], "only the call that returned");
}

/// A question asked as a task goes with its session: after a restart its card is a card of
/// the old session like any other (its answer is kept for the re-run of its call, not
/// taken by a task the new session never made), and the re-run's task gets it.
#[wasm_bindgen_test]
async fn a_task_of_the_old_session_is_forgotten_with_it() {
    let (session, seen) = connect().await;
    Reflect::set(&fake(), &"asTask".into(), &true.into()).expect("set");
    call(&session, "a", "a");
    settle().await;
    let a = card_of(&seen, "Q a");
    let created = answers_posted();
    assert_eq!(created.len(), 1, "{created:?}");
    assert_eq!(created[0].1["result"]["task"]["status"], json!("working"));
    restart();
    settle().await;
    // Another call renews the session.
    call(&session, "c", "c");
    settle().await;
    card_of(&seen, "Q c");
    assert_eq!(
        session.answer(&a, yes()).await,
        Err(ClientError::RequestLost)
    );
    assert!(
        seen.borrow().answered.is_empty(),
        "not taken by the old task"
    );
    // The re-run of "a" asks again as a task: its new task completes with the kept answer.
    call(&session, "a", "a");
    settle().await;
    assert_eq!(seen.borrow().answered, vec![a], "replayed into the re-run");
}
