//! The modern session's rounds in a real browser against a fake server of the 2026-07-28
//! era that lives in the page (`window.fetch` is replaced): failures in the steps that need
//! no person (a state-only retry, a roots-only or sampling-only round) after the person
//! answered, which a real server cannot time on demand, and a round too big to sample.

#![cfg(target_arch = "wasm32")]

use crate::ui_support::*;
use std::cell::{Cell, RefCell};
use std::rc::Rc;

use futures::FutureExt;
use mcp_elicit::wire::{Call, ElicitResult};
use mcp_elicit_web::client::{
    ClientConfig, ClientError, ClientEvent, ModernSession, ProtocolChoice, SamplingHandler,
};
use serde_json::value::RawValue;
use serde_json::{json, Map, Value};
use wasm_bindgen_test::*;

/// The fake server at `http://rounds.test/mcp` (the handler for `fake_fetch`). `tools/call` asks for a note (state
/// `asked`); the replay with the note answers, by `mode`, with a state-only result, a
/// roots-only round or a sampling-only round (state `noted:<note>`); the replay of that
/// automatic step fails with HTTP 503 the first time for each state, then completes with
/// the state as its text. `many` > 0: the first answer is one round of that many sampling
/// requests instead; `chatter` > 0: the call is answered on an event stream of that many
/// log notifications, then the result. Mode `refuse`: the replay with the note is refused
/// with a JSON-RPC error. `hang`: the replay with the note gets no answer at all (until its
/// `fetch` is aborted, counted in `aborted`). Every request is logged as `{ state, responses }`.
const FAKE: &str = r#"
const f = { mode: "state", many: 0, hang: false, chatter: 0, aborted: 0, log: [], failed: {} };
window.__rounds = f;
return async (req, reply) => {
  const msg = JSON.parse(await req.text());
  const p = msg.params || {};
  const state = p.requestState === undefined ? null : p.requestState;
  f.log.push({ state, responses: p.inputResponses || null });
  const result = (value) => reply.result(msg.id, value);
  if (f.chatter > 0 && state === null) {
    const note = (i) => "data: " + JSON.stringify({ jsonrpc: "2.0", method: "notifications/message", params: { level: "info", data: "step " + i } }) + "\n\n";
    const last = "data: " + JSON.stringify({ jsonrpc: "2.0", id: msg.id, result: { resultType: "complete", content: [] } }) + "\n\n";
    const bytes = new TextEncoder();
    let i = 0;
    // One event per chunk, each read a wait of its own (as a server flushing each event).
    const body = new ReadableStream({
      pull(controller) {
        if (i < f.chatter) controller.enqueue(bytes.encode(note(i++)));
        else { controller.enqueue(bytes.encode(last)); controller.close(); }
      },
    }, { highWaterMark: 0 });
    return new Response(body, { status: 200, headers: { "content-type": "text/event-stream" } });
  }
  if (f.many > 0 && state === null) {
    const inputRequests = {};
    for (let i = 0; i < f.many; i++) {
      inputRequests["s" + i] = { method: "sampling/createMessage", params: { messages: [], maxTokens: 1 } };
    }
    return result({ resultType: "input_required", inputRequests, requestState: "many" });
  }
  if (state === null) {
    return result({ resultType: "input_required", requestState: "asked", inputRequests: { note: {
      method: "elicitation/create",
      params: { message: "Write a note.", requestedSchema: { type: "object", properties: { note: { type: "string" } } } },
    } } });
  }
  if (state === "asked" && f.hang) {
    return new Promise((_, reject) => req.signal.addEventListener("abort", () => {
      f.aborted += 1;
      reject(new DOMException("The user aborted a request.", "AbortError"));
    }));
  }
  if (state === "asked" && f.mode === "refuse") {
    return reply.error(msg.id, -32602, "No notes today");
  }
  if (state === "asked") {
    const next = "noted:" + p.inputResponses.note.content.note;
    const asks = {
      state: undefined,
      roots: { r: { method: "roots/list" } },
      sampling: { s: { method: "sampling/createMessage", params: { messages: [], maxTokens: 5 } } },
    }[f.mode];
    return result(Object.assign({ resultType: "input_required", requestState: next }, asks ? { inputRequests: asks } : {}));
  }
  if (!f.failed[state]) {
    f.failed[state] = true;
    return new Response("busy, try again", { status: 503, headers: { "content-type": "text/plain" } });
  }
  return result({ resultType: "complete", content: [{ type: "text", text: state }] });
};
"#;

/// Installs a fresh fake server.
fn install_fake() {
    fake_fetch_script("http://rounds.test/", FAKE);
}

/// The fake's request log: `(requestState, inputResponses)` as JSON.
fn log() -> Vec<(Value, Value)> {
    let text = run_js("return JSON.stringify(window.__rounds.log)")
        .as_string()
        .unwrap_or_default();
    let entries: Vec<Value> = serde_json::from_str(&text).unwrap_or_default();
    entries
        .into_iter()
        .map(|e| (e["state"].clone(), e["responses"].clone()))
        .collect()
}

type Events = Rc<RefCell<Vec<ClientEvent>>>;
type Outcome = Rc<RefCell<Option<Result<Box<RawValue>, ClientError>>>>;

/// A session to the fake (sampling answered by a handler counting its calls, at most
/// how many at once in `peak`), and a call of `keep` running in the background.
fn start(sampled: Rc<Cell<u32>>, peak: Rc<Cell<u32>>) -> (Rc<ModernSession>, Events, Outcome) {
    start_with(sampled, peak, None)
}

fn start_with(
    sampled: Rc<Cell<u32>>,
    peak: Rc<Cell<u32>>,
    silence_ms: Option<u32>,
) -> (Rc<ModernSession>, Events, Outcome) {
    let mut config = ClientConfig::new("http://rounds.test/mcp", ProtocolChoice::Modern);
    let in_flight = Rc::new(Cell::new(0u32));
    config.sampling = Some(SamplingHandler::new(move |_params: Value| {
        let (sampled, peak, in_flight) = (sampled.clone(), peak.clone(), in_flight.clone());
        async move {
            sampled.set(sampled.get() + 1);
            in_flight.set(in_flight.get() + 1);
            peak.set(peak.get().max(in_flight.get()));
            sleep(1).await;
            in_flight.set(in_flight.get() - 1);
            Ok(json!({"role": "assistant", "model": "m", "content": {"type": "text", "text": "ok"}}))
        }
        .boxed_local()
    }));
    let events: Events = Rc::default();
    let sink = {
        let events = events.clone();
        Rc::new(move |e: ClientEvent| events.borrow_mut().push(e))
    };
    let mut session = ModernSession::new(config, sink);
    if let Some(ms) = silence_ms {
        session = session.with_silence_limit(ms);
    }
    let session = Rc::new(session);
    let outcome: Outcome = Rc::default();
    {
        let (session, outcome) = (session.clone(), outcome.clone());
        wasm_bindgen_futures::spawn_local(async move {
            let result = session
                .call(
                    Call::Tool {
                        name: "keep".into(),
                        arguments: Map::new(),
                    },
                    None,
                )
                .await;
            *outcome.borrow_mut() = Some(result);
        });
    }
    (session, events, outcome)
}

fn elicited(events: &Events) -> Option<String> {
    events.borrow().iter().find_map(|e| match e {
        ClientEvent::Elicit { id, .. } => Some(id.clone()),
        _ => None,
    })
}

fn answered(events: &Events) -> bool {
    events
        .borrow()
        .iter()
        .any(|e| matches!(e, ClientEvent::Answered { .. }))
}

fn note(text: &str) -> ElicitResult {
    let mut content = Map::new();
    content.insert("note".into(), json!(text));
    ElicitResult::accept(Some(content))
}

/// After the person answered, a 503 on the state-only retry, the roots-only replay or
/// the sampling-only replay keeps the call and the answer: Submit reports the failure in
/// words (the card stays, with what was typed), and Submitting again resends the round
/// and gets the result: the answer is not taken as delivered, so the note is not lost with
/// the 503.
#[wasm_bindgen_test]
async fn a_503_in_an_automatic_step_keeps_the_answer_for_a_resend() {
    for mode in ["state", "roots", "sampling"] {
        install_fake();
        run_js(&format!("window.__rounds.mode = {mode:?}"));
        let sampled = Rc::new(Cell::new(0));
        let (session, events, outcome) = start(sampled.clone(), Rc::default());
        until("the card", || elicited(&events).is_some()).await;
        let id = elicited(&events).unwrap_or_default();

        let first = session.answer(&id, note("milk")).await;
        let Err(err) = first else {
            panic!(
                "{mode}: the automatic step's 503 was not reported: {:?}",
                outcome.borrow()
            )
        };
        assert!(err.to_string().contains("503"), "{mode}: {err}");
        sleep(20).await;
        assert!(
            outcome.borrow().is_none(),
            "{mode}: the call ended: {:?}",
            outcome.borrow()
        );
        assert!(!answered(&events), "{mode}: the card went");

        session
            .answer(&id, note("milk"))
            .await
            .unwrap_or_else(|e| panic!("{mode}: the resend failed: {e}"));
        until("the result", || outcome.borrow().is_some()).await;
        let result = outcome.borrow_mut().take();
        let Some(Ok(raw)) = result else {
            panic!("{mode}: {result:?}")
        };
        assert!(raw.get().contains("noted:milk"), "{mode}: {}", raw.get());
        assert!(answered(&events), "{mode}: the card stays after the result");
        // The resend was the person's round again: its state and the note.
        let resends: Vec<_> = log()
            .into_iter()
            .filter(|(state, _)| state == "asked")
            .collect();
        assert_eq!(resends.len(), 2, "{mode}: {resends:?}");
        assert!(resends
            .iter()
            .all(|(_, r)| r["note"]["content"]["note"] == "milk"));
        let expected_samples = if mode == "sampling" { 2 } else { 0 };
        assert_eq!(sampled.get(), expected_samples, "{mode}");
    }
}

/// A round of 10^5 sampling requests makes no call to the host's handler: the call fails
/// in words naming the cap. A round at the cap is sampled one request at a time.
#[wasm_bindgen_test]
async fn sampling_is_capped_per_round_and_never_fanned_out() {
    use mcp_elicit::driver::modern::MAX_INPUT_REQUESTS_PER_ROUND as CAP;
    install_fake();
    run_js("window.__rounds.many = 100000");
    let (sampled, peak) = (Rc::new(Cell::new(0)), Rc::new(Cell::new(0)));
    let (_session, _events, outcome) = start(sampled.clone(), peak.clone());
    until("the refusal", || outcome.borrow().is_some()).await;
    let result = outcome.borrow_mut().take();
    let Some(Err(err)) = result else {
        panic!("{result:?}")
    };
    let words = err.to_string();
    assert!(
        words.contains("100000") && words.contains(&CAP.to_string()),
        "{words}"
    );
    assert_eq!(sampled.get(), 0);

    install_fake();
    run_js(&format!("window.__rounds.many = {CAP}"));
    let (sampled, peak) = (Rc::new(Cell::new(0)), Rc::new(Cell::new(0)));
    let (_session, _events, _outcome) = start(sampled.clone(), peak.clone());
    until("every sample", || sampled.get() == CAP as u32).await;
    assert_eq!(
        peak.get(),
        1,
        "the handler had {} requests at once",
        peak.get()
    );
}

/// A replay that gets no answer at all is given up after the silence bound: Submit
/// reports it in words and the fetch is aborted; the card keeps the answer, and Submitting
/// again delivers it: Submit does not stay at "Sending..." forever.
#[wasm_bindgen_test]
async fn a_replay_with_no_answer_is_given_up_and_the_answer_kept_for_submit() {
    install_fake();
    run_js("window.__rounds.hang = true");
    let (session, events, outcome) = start_with(Rc::default(), Rc::default(), Some(1_000));
    until("the card", || elicited(&events).is_some()).await;
    let id = elicited(&events).unwrap_or_default();
    let first = futures::future::select(
        Box::pin(session.answer(&id, note("tea"))),
        Box::pin(sleep(5_000)),
    )
    .await;
    let futures::future::Either::Left((Err(err), _)) = first else {
        panic!("Submit was still sending after 5 s, or was taken as delivered")
    };
    assert!(err.to_string().contains("did not answer"), "{err}");
    assert_eq!(run_js("return window.__rounds.aborted").as_f64(), Some(1.0));
    assert!(outcome.borrow().is_none() && !answered(&events));

    // (The state-only step after it answers at once this time.)
    run_js(r#"const f = window.__rounds; f.hang = false; f.failed["noted:tea"] = true;"#);
    session
        .answer(&id, note("tea"))
        .await
        .unwrap_or_else(|e| panic!("the resend failed: {e}"));
    until("the result", || outcome.borrow().is_some()).await;
    let result = outcome.borrow_mut().take();
    let Some(Ok(raw)) = result else {
        panic!("{result:?}")
    };
    assert!(raw.get().contains("noted:tea"), "{}", raw.get());
}

/// The bound on the server's silence costs one timer per wait, not per message: a result
/// after 20,000 notifications on one stream, one per chunk, arms a handful of `setTimeout`s (each one
/// pending for minutes, holding its callback), not 20,000.
#[wasm_bindgen_test]
async fn a_chatty_stream_arms_a_bounded_number_of_timers() {
    install_fake();
    run_js(
        r#"window.__rounds.chatter = 20000;
          if (!window.__timeouts) {
            const real = window.setTimeout.bind(window);
            window.__timeouts = 0;
            window.setTimeout = (...args) => { window.__timeouts += 1; return real(...args); };
          }
          window.__timeouts = 0;"#,
    );
    let (_session, _events, outcome) = start(Rc::default(), Rc::default());
    until("the result", || outcome.borrow().is_some()).await;
    let armed = run_js("return window.__timeouts")
        .as_f64()
        .unwrap_or(f64::MAX);
    let result = outcome.borrow_mut().take();
    assert!(matches!(result, Some(Ok(_))), "{result:?}");
    // (`until` polls with its own timers: about one per 20 ms of waiting.)
    assert!(armed < 100.0, "{armed} timers for one call");
}

/// A call that fails outright after the person answered (the server refuses the replay)
/// retires its round's cards with the failure in words, so they neither wait for an answer
/// nobody can send nor count toward the card cap (cards left waiting would, after a few
/// such calls, have every later request refused).
#[wasm_bindgen_test]
async fn a_call_that_fails_retires_its_cards_in_words() {
    install_fake();
    run_js("window.__rounds.mode = 'refuse'");
    let (session, events, outcome) = start(Rc::default(), Rc::default());
    until("the card", || elicited(&events).is_some()).await;
    let id = elicited(&events).unwrap_or_default();
    let sent = session.answer(&id, note("hello")).await;
    assert!(
        sent.is_err(),
        "the refusal is the answer's outcome: {sent:?}"
    );
    until("the call's end", || outcome.borrow().is_some()).await;
    let retired: Vec<(String, String)> = events
        .borrow()
        .iter()
        .filter_map(|e| match e {
            ClientEvent::Retired { id, reason } => Some((id.clone(), reason.clone())),
            _ => None,
        })
        .collect();
    assert_eq!(retired.len(), 1, "{retired:?}");
    assert_eq!(retired[0].0, id);
    assert!(retired[0].1.contains("No notes today"), "{retired:?}");
}

/// Once the call returns its result, the session says so for each card it showed
/// ([`ClientEvent::CallEnded`]): an opened URL card stops waiting for a completion the
/// server may never send.
#[wasm_bindgen_test]
async fn a_call_that_returns_says_so_for_its_cards() {
    install_fake();
    run_js("window.__rounds.mode = 'state'; window.__rounds.failed['noted:tea'] = true;");
    let (session, events, outcome) = start(Rc::default(), Rc::default());
    until("the card", || elicited(&events).is_some()).await;
    let id = elicited(&events).unwrap_or_default();
    let ended = |events: &Events| -> Vec<String> {
        events
            .borrow()
            .iter()
            .filter_map(|e| match e {
                ClientEvent::CallEnded { id } => Some(id.clone()),
                _ => None,
            })
            .collect()
    };
    assert!(ended(&events).is_empty(), "the call runs");
    session
        .answer(&id, note("tea"))
        .await
        .unwrap_or_else(|e| panic!("the answer: {e}"));
    until("the result", || outcome.borrow().is_some()).await;
    assert!(
        matches!(*outcome.borrow(), Some(Ok(_))),
        "{:?}",
        outcome.borrow()
    );
    assert_eq!(ended(&events), vec![id]);
}
