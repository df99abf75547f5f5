//! Elicitation and sampling as tasks (2025-11-25, experimental tasks): the declaration,
//! the session's reading of task-augmented `elicitation/create`, `sampling/createMessage`
//! and of `tasks/*`, and the task machine, including hostile input (ids never created,
//! results asked early, floods).

use mcp_elicit::driver::legacy::{LegacyConfig, LegacyEvent, LegacySession};
use mcp_elicit::driver::tasks::{
    iso8601, ElicitationTasks, Outcome, Reply, RetireWhy, TaskRequest, LIST_PAGE_SIZE,
    MAX_RESULT_WAITERS, MAX_TASKS, MAX_TTL_MS, RELATED_TASK_KEY,
};
use mcp_elicit::wire::{ClientCapabilities, ElicitResult, ErrorObject, RequestId};
use serde_json::{json, Map, Value};

const INIT_RESULT: &str = r#"{"jsonrpc":"2.0","id":0,"result":{"capabilities":{},"protocolVersion":"2025-11-25","serverInfo":{"name":"Seeds","version":""}}}"#;

fn body(req: &mcp_elicit::driver::HttpRequest) -> Value {
    serde_json::from_str(req.body.as_deref().unwrap()).unwrap()
}

fn session(tasks: bool) -> (LegacySession, Value) {
    session_with(false, tasks)
}

/// A session whose host has a sampling handler iff `sampling`, declaring tasks iff `tasks`.
fn session_with(sampling: bool, tasks: bool) -> (LegacySession, Value) {
    let mut capabilities = ClientCapabilities::for_host(sampling);
    if tasks {
        capabilities = capabilities.with_elicitation_tasks();
    }
    let mut s = LegacySession::new(LegacyConfig {
        capabilities,
        ..LegacyConfig::default()
    });
    let init = s.initialize_request().unwrap();
    s.on_http_status(Some(&RequestId::Number(0)), 200, Some("s-1"));
    let LegacyEvent::Initialized { .. } = s.on_message(INIT_RESULT) else {
        panic!("no handshake")
    };
    (s, body(&init))
}

const ASK_AS_TASK: &str = r#"{"jsonrpc":"2.0","id":"e1","method":"elicitation/create","params":{"message":"Sure?","requestedSchema":{"type":"object","properties":{}},"task":{"ttl":60000}}}"#;

fn req(id: i64, method: &str, params: Value) -> String {
    json!({"jsonrpc":"2.0","id":id,"method":method,"params":params}).to_string()
}

fn get(id: &str) -> TaskRequest {
    TaskRequest::Get { task_id: id.into() }
}

fn result_of(id: &str) -> TaskRequest {
    TaskRequest::Result { task_id: id.into() }
}

/// The one reply in `replies`, to request `n`, as a result.
fn ok(replies: &[Reply], n: i64) -> Value {
    match replies {
        [Reply {
            id: RequestId::Number(got),
            outcome: Outcome::Result(v),
        }] if *got == n => v.clone(),
        other => panic!("expected one result to {n}, got {other:?}"),
    }
}

/// The one reply in `replies` as an error: (code, message).
fn err(replies: &[Reply]) -> (i64, String) {
    match replies {
        [Reply {
            outcome: Outcome::Error(e),
            ..
        }] => (e.code, e.message.clone()),
        other => panic!("expected one error, got {other:?}"),
    }
}

/// A machine with one task for card `c1`, made at time 1000; its task id.
fn one_task(ttl: Value) -> (ElicitationTasks, String) {
    let mut tasks = ElicitationTasks::new();
    let created = tasks
        .create(
            RequestId::String("e1".into()),
            "c1".into(),
            &json!({ "ttl": ttl }),
            1000,
        )
        .unwrap();
    let id = created["task"]["taskId"].as_str().unwrap().to_owned();
    (tasks, id)
}

#[test]
fn initialize_declares_elicitation_tasks_list_and_cancel_only_when_asked() {
    let (_, init) = session(true);
    assert_eq!(
        init["params"]["capabilities"]["tasks"],
        json!({"list":{},"cancel":{},"requests":{"elicitation":{"create":{}}}})
    );
    let (_, init) = session(false);
    assert!(init["params"]["capabilities"].get("tasks").is_none());
}

#[test]
fn a_task_augmented_elicitation_is_read_as_one_only_when_declared() {
    let (mut s, _) = session(true);
    let LegacyEvent::ElicitTask { id, task, .. } = s.on_message(ASK_AS_TASK) else {
        panic!("not read as a task")
    };
    assert_eq!(
        (id, task),
        (RequestId::String("e1".into()), json!({"ttl":60000}))
    );
    // Undeclared: processed normally, the task member ignored.
    let (mut s, _) = session(false);
    assert!(matches!(
        s.on_message(ASK_AS_TASK),
        LegacyEvent::Elicit { .. }
    ));
    // A task that is not an object is refused in words.
    let (mut s, _) = session(true);
    let bad = ASK_AS_TASK.replace(r#"{"ttl":60000}"#, "7");
    let LegacyEvent::Reply { note, .. } = s.on_message(&bad) else {
        panic!("not refused")
    };
    assert!(note.unwrap().contains("task is not an object"));
}

#[test]
fn tasks_requests_reach_the_caller_and_ping_is_still_answered() {
    let (mut s, _) = session(true);
    let ev = s.on_message(&req(3, "tasks/get", json!({"taskId":"x"})));
    assert!(matches!(
        ev,
        LegacyEvent::Task {
            request: TaskRequest::Get { .. },
            ..
        }
    ));
    let ev = s.on_message(&req(4, "tasks/list", json!({})));
    assert!(matches!(
        ev,
        LegacyEvent::Task {
            request: TaskRequest::List { cursor: None },
            ..
        }
    ));
    let LegacyEvent::Reply { ping: true, .. } = s.on_message(&req(5, "ping", json!({}))) else {
        panic!("ping not answered")
    };
    // A missing or non-string taskId is answered -32602 in words.
    let LegacyEvent::Reply { request, note, .. } =
        s.on_message(&req(6, "tasks/result", json!({"taskId": 5})))
    else {
        panic!("not refused")
    };
    assert_eq!(body(&request)["error"]["code"], -32602);
    assert!(note.unwrap().contains("taskId must be a string"));
    // Undeclared: tasks/* are methods this client does not support.
    let (mut s, _) = session(false);
    let LegacyEvent::Reply { request, .. } =
        s.on_message(&req(3, "tasks/get", json!({"taskId":"x"})))
    else {
        panic!("not refused")
    };
    assert_eq!(body(&request)["error"]["code"], -32601);
}

#[test]
fn a_task_works_until_answered_then_completes_and_its_result_is_the_answer() {
    let mut tasks = ElicitationTasks::new();
    let created = tasks
        .create(
            RequestId::String("e1".into()),
            "c1".into(),
            &json!({"ttl":60000}),
            1000,
        )
        .unwrap();
    let task = &created["task"];
    assert_eq!(task["status"], "working");
    assert_eq!(task["ttl"], 60000);
    assert_eq!(task["createdAt"], "1970-01-01T00:00:01.000Z");
    assert!(task["pollInterval"].as_u64().unwrap() >= 1000);
    let id = task["taskId"].as_str().unwrap().to_owned();
    assert!(tasks.has_card("c1") && !tasks.has_card("c2"));

    let h = tasks.on_request(RequestId::Number(1), get(&id), 2000);
    assert_eq!(ok(&h.replies, 1)["status"], "working");
    // tasks/result before completion is held: no reply yet.
    let h = tasks.on_request(RequestId::Number(2), result_of(&id), 2000);
    assert!(h.replies.is_empty() && h.retire.is_empty());

    let mut content = Map::new();
    content.insert("ok".into(), json!(true));
    let answer = ElicitResult::accept(Some(content));
    let h = tasks.answer("c1", &answer, 3000).unwrap();
    let result = ok(&h.replies, 2);
    assert_eq!(result["action"], "accept");
    assert_eq!(result["content"], json!({"ok":true}));
    assert_eq!(result["_meta"][RELATED_TASK_KEY]["taskId"], json!(id));

    let h = tasks.on_request(RequestId::Number(3), get(&id), 4000);
    let task = ok(&h.replies, 3);
    assert_eq!(task["status"], "completed");
    assert_eq!(task["lastUpdatedAt"], "1970-01-01T00:00:03.000Z");
    // After completion, tasks/result answers at once; a second answer is nothing owed.
    let h = tasks.on_request(RequestId::Number(4), result_of(&id), 4000);
    assert_eq!(ok(&h.replies, 4)["action"], "accept");
    assert!(tasks.answer("c1", &ElicitResult::cancel(), 5000).is_none());
}

#[test]
fn the_servers_cancel_retires_the_card_and_a_second_cancel_is_refused_in_words() {
    let (mut tasks, id) = one_task(json!(null));
    let h = tasks.on_request(RequestId::Number(2), result_of(&id), 2000);
    assert!(h.replies.is_empty());
    let h = tasks.on_request(
        RequestId::Number(3),
        TaskRequest::Cancel {
            task_id: id.clone(),
        },
        3000,
    );
    assert_eq!(h.retire.len(), 1);
    assert_eq!(h.retire[0].card, "c1");
    assert_eq!(h.retire[0].request, RequestId::String("e1".into()));
    assert_eq!(h.retire[0].why, RetireWhy::Cancelled);
    let cancelled = h
        .replies
        .iter()
        .find(|r| r.id == RequestId::Number(3))
        .unwrap();
    assert!(matches!(&cancelled.outcome, Outcome::Result(t) if t["status"] == "cancelled"));
    let held = h
        .replies
        .iter()
        .find(|r| r.id == RequestId::Number(2))
        .unwrap();
    assert!(matches!(&held.outcome, Outcome::Result(r) if r["action"] == "cancel"));
    // The person's late answer is nothing owed.
    assert!(tasks.answer("c1", &ElicitResult::cancel(), 4000).is_none());
    let h = tasks.on_request(
        RequestId::Number(4),
        TaskRequest::Cancel { task_id: id },
        5000,
    );
    let (code, message) = err(&h.replies);
    assert_eq!(code, -32602);
    assert!(message.contains("already cancelled"), "{message}");
}

#[test]
fn ttl_is_kept_and_an_expired_task_retires_its_card_and_answers_its_waiters() {
    let (mut tasks, id) = one_task(json!(5000));
    assert_eq!(tasks.next_expiry(), Some(6000));
    let h = tasks.on_request(RequestId::Number(2), result_of(&id), 2000);
    assert!(h.replies.is_empty());
    assert_eq!(tasks.expire(5999), Default::default());
    let h = tasks.expire(6000);
    assert_eq!(h.retire.len(), 1);
    assert_eq!(h.retire[0].why, RetireWhy::Expired);
    let (code, message) = err(&h.replies);
    assert_eq!(code, -32602);
    assert!(message.contains("expired"), "{message}");
    assert!(tasks.is_empty() && tasks.next_expiry().is_none());
    // Afterwards the task is unknown, said in words.
    let h = tasks.on_request(RequestId::Number(3), get(&id), 7000);
    assert!(err(&h.replies).1.contains("no task"));
    // A finished task expires without retiring anything.
    let (mut tasks, _) = one_task(json!(10));
    let _ = tasks.answer("c1", &ElicitResult::cancel(), 1005).unwrap();
    let h = tasks.expire(2000);
    assert!(h.retire.is_empty() && h.replies.is_empty() && tasks.is_empty());
    // Without a ttl a task never expires here: the person is not timed out.
    let (mut tasks, _) = one_task(json!(null));
    assert!(tasks.next_expiry().is_none());
    assert!(tasks.expire(u64::MAX).retire.is_empty());
    assert_eq!(tasks.len(), 1);
}

#[test]
fn a_ttl_is_a_number_of_milliseconds_kept_up_to_the_bound() {
    let (tasks, _) = one_task(json!(1e300));
    assert_eq!(tasks.next_expiry(), Some(1000 + MAX_TTL_MS));
    for bad in [json!(-1), json!("60000"), json!({})] {
        let mut tasks = ElicitationTasks::new();
        let e = tasks
            .create(RequestId::Number(1), "c".into(), &json!({ "ttl": bad }), 0)
            .unwrap_err();
        assert_eq!(e.code, -32602);
        assert!(e.message.contains("ttl"), "{}", e.message);
        assert!(tasks.is_empty());
    }
}

#[test]
fn ids_never_created_are_answered_in_words_and_keep_nothing() {
    let mut tasks = ElicitationTasks::new();
    for n in 0..10_000i64 {
        let id = format!("never-{n}");
        let request = match n % 3 {
            0 => get(&id),
            1 => result_of(&id),
            _ => TaskRequest::Cancel { task_id: id },
        };
        let h = tasks.on_request(RequestId::Number(n), request, 0);
        let (code, message) = err(&h.replies);
        assert_eq!(code, -32602);
        assert!(message.contains("no task"), "{message}");
    }
    assert!(tasks.is_empty());
    // A megabyte-long id is quoted cut, not echoed whole.
    let long = "x".repeat(1 << 20);
    let h = tasks.on_request(RequestId::Number(1), get(&long), 0);
    assert!(err(&h.replies).1.len() < 400);
}

#[test]
fn ten_thousand_tasks_keep_at_most_the_bound_and_the_rest_are_refused_in_words() {
    let mut tasks = ElicitationTasks::new();
    let mut refused = 0;
    for n in 0..10_000u64 {
        match tasks.create(RequestId::Number(n as i64), format!("c{n}"), &json!({}), n) {
            Ok(_) => {}
            Err(e) => {
                assert!(
                    e.message.contains("waiting for the person"),
                    "{}",
                    e.message
                );
                refused += 1;
            }
        }
    }
    assert_eq!(tasks.len(), MAX_TASKS);
    assert_eq!(refused, 10_000 - MAX_TASKS);
    // A finished task makes room for a new one.
    let _ = tasks.answer("c0", &ElicitResult::cancel(), 1).unwrap();
    assert!(tasks
        .create(RequestId::Number(-1), "new".into(), &json!({}), 2)
        .is_ok());
    assert_eq!(tasks.len(), MAX_TASKS);
    assert!(!tasks.has_card("c0") && tasks.has_card("new"));
}

#[test]
fn tasks_list_pages_through_every_task_and_refuses_a_cursor_it_never_gave() {
    let mut tasks = ElicitationTasks::new();
    for n in 0..MAX_TASKS as u64 {
        let _ = tasks
            .create(RequestId::Number(n as i64), format!("c{n}"), &json!({}), n)
            .unwrap();
    }
    let mut seen = 0;
    let mut cursor = None;
    for page in 1.. {
        let h = tasks.on_request(RequestId::Number(page), TaskRequest::List { cursor }, 0);
        let list = ok(&h.replies, page);
        let n = list["tasks"].as_array().unwrap().len();
        assert!(n <= LIST_PAGE_SIZE);
        seen += n;
        match list.get("nextCursor") {
            Some(Value::String(c)) => cursor = Some(c.clone()),
            _ => break,
        }
        assert!(page < 100, "no end to the pages");
    }
    assert_eq!(seen, MAX_TASKS);
    for bad in ["nope", "99999", "-1"] {
        let h = tasks.on_request(
            RequestId::Number(0),
            TaskRequest::List {
                cursor: Some(bad.into()),
            },
            0,
        );
        assert!(err(&h.replies).1.contains("unknown cursor"));
    }
}

#[test]
fn results_asked_early_are_held_up_to_the_bound_then_refused_in_words() {
    let (mut tasks, id) = one_task(json!(null));
    for n in 0..MAX_RESULT_WAITERS as i64 {
        let h = tasks.on_request(RequestId::Number(n), result_of(&id), 0);
        assert!(h.replies.is_empty());
    }
    for n in 0..1000 {
        let h = tasks.on_request(RequestId::Number(100 + n), result_of(&id), 0);
        assert!(err(&h.replies).1.contains("poll tasks/get"));
    }
    let h = tasks.answer("c1", &ElicitResult::cancel(), 1).unwrap();
    assert_eq!(h.replies.len(), MAX_RESULT_WAITERS);
}

#[test]
fn stopping_the_call_cancels_its_task_and_answers_the_held_result() {
    let (mut tasks, id) = one_task(json!(null));
    let _ = tasks.on_request(RequestId::Number(2), result_of(&id), 0);
    let replies = tasks.stop_card("c1", 1);
    assert!(
        matches!(&replies[..], [Reply { outcome: Outcome::Result(r), .. }] if r["action"] == "cancel")
    );
    let h = tasks.on_request(RequestId::Number(3), get(&id), 2);
    assert_eq!(ok(&h.replies, 3)["status"], "cancelled");
    assert!(tasks.stop_card("c1", 3).is_empty());
}

#[test]
fn task_replies_are_posted_on_the_session() {
    let (s, _) = session(true);
    let (mut tasks, id) = one_task(json!(null));
    let h = tasks.on_request(RequestId::Number(9), get(&id), 0);
    let post = s.task_reply(&h.replies[0]).unwrap();
    assert_eq!(post.header("Mcp-Session-Id"), Some("s-1"));
    assert_eq!(body(&post)["id"], 9);
    assert_eq!(body(&post)["result"]["taskId"], json!(id));
    let h = tasks.on_request(RequestId::Number(10), get("nope"), 0);
    assert_eq!(
        body(&s.task_reply(&h.replies[0]).unwrap())["error"]["code"],
        -32602
    );
}

#[test]
fn timestamps_are_iso_8601_utc() {
    assert_eq!(iso8601(0), "1970-01-01T00:00:00.000Z");
    assert_eq!(iso8601(1_764_066_600_123), "2025-11-25T10:30:00.123Z");
    // The largest time does not panic.
    assert!(iso8601(u64::MAX).ends_with('Z'));
}

// --- sampling as a task ---------------------------------------------------------------

const SAMPLE_AS_TASK: &str = r#"{"jsonrpc":"2.0","id":"s1","method":"sampling/createMessage","params":{"messages":[{"role":"user","content":{"type":"text","text":"Hi"}}],"maxTokens":9,"task":{"ttl":60000}}}"#;

/// The server's request `s1`.
fn s1() -> RequestId {
    RequestId::String("s1".into())
}

/// A machine with one sampling task (for request `s1`), made at time 1000; its task id.
fn one_sampling_task(ttl: Value) -> (ElicitationTasks, String) {
    let mut tasks = ElicitationTasks::new();
    let created = tasks
        .create_sampling(s1(), &json!({ "ttl": ttl }), 1000)
        .unwrap();
    let id = created["task"]["taskId"].as_str().unwrap().to_owned();
    (tasks, id)
}

fn sampled() -> Outcome {
    Outcome::Result(
        json!({"role":"assistant","model":"m","content":{"type":"text","text":"Hello"}}),
    )
}

#[test]
fn sampling_tasks_are_declared_only_with_a_sampling_handler() {
    let (_, init) = session_with(true, true);
    assert_eq!(
        init["params"]["capabilities"]["tasks"]["requests"],
        json!({"elicitation":{"create":{}},"sampling":{"createMessage":{}}})
    );
    assert!(ClientCapabilities::for_host(true)
        .with_elicitation_tasks()
        .sampling_tasks());
    for (sampling, tasks) in [(false, true), (true, false), (false, false)] {
        let (_, init) = session_with(sampling, tasks);
        let requests = init["params"]["capabilities"].pointer("/tasks/requests/sampling");
        assert!(requests.is_none(), "{sampling} {tasks}: {requests:?}");
    }
}

#[test]
fn a_task_augmented_sampling_request_is_read_as_one_only_when_declared() {
    let (mut s, _) = session_with(true, true);
    let LegacyEvent::SamplingTask { id, params, task } = s.on_message(SAMPLE_AS_TASK) else {
        panic!("not read as a task")
    };
    assert_eq!(id, RequestId::String("s1".into()));
    assert_eq!(task, json!({"ttl":60000}));
    // The handler gets the request's params, the task member taken out.
    assert!(params.get("task").is_none() && params["maxTokens"] == 9);
    // Sampling without tasks declared: processed normally.
    let (mut s, _) = session_with(true, false);
    assert!(matches!(
        s.on_message(SAMPLE_AS_TASK),
        LegacyEvent::Sampling { .. }
    ));
    // No sampling declared: refused, as any sampling request.
    let (mut s, _) = session_with(false, true);
    let LegacyEvent::Reply { request, .. } = s.on_message(SAMPLE_AS_TASK) else {
        panic!("not refused")
    };
    assert_eq!(body(&request)["error"]["code"], -32601);
    // A task that is not an object is refused in words.
    let (mut s, _) = session_with(true, true);
    for bad in ["7", "\"soon\"", "[]", "null"] {
        let text = SAMPLE_AS_TASK.replace(r#"{"ttl":60000}"#, bad);
        let LegacyEvent::Reply { note, .. } = s.on_message(&text) else {
            panic!("{bad}: not refused")
        };
        assert!(note.unwrap().contains("task is not an object"), "{bad}");
    }
}

#[test]
fn a_sampling_task_works_until_the_handler_answers_then_its_result_is_the_answer() {
    let (mut tasks, id) = one_sampling_task(json!(60000));
    assert!(id.starts_with("sample-"), "{id}");
    let h = tasks.on_request(RequestId::Number(1), get(&id), 2000);
    let task = ok(&h.replies, 1);
    assert_eq!(task["status"], "working");
    assert_eq!(task["ttl"], 60000);
    // tasks/result before the handler ended is held.
    let h = tasks.on_request(RequestId::Number(2), result_of(&id), 2000);
    assert!(h.replies.is_empty() && h.retire.is_empty());
    // It is no card: answering or stopping a card never touches it.
    assert!(!tasks.has_card("") && tasks.task_of("").is_none());
    assert!(tasks.answer("", &ElicitResult::cancel(), 2500).is_none());
    assert!(tasks.stop_card("", 2500).is_empty());

    let replies = tasks.finish_sampling(&s1(), sampled(), 3000);
    let result = ok(&replies, 2);
    assert_eq!(result["content"]["text"], "Hello");
    assert_eq!(result["model"], "m");
    assert_eq!(result["_meta"][RELATED_TASK_KEY]["taskId"], json!(id));
    let h = tasks.on_request(RequestId::Number(3), get(&id), 4000);
    assert_eq!(ok(&h.replies, 3)["status"], "completed");
    let h = tasks.on_request(RequestId::Number(4), result_of(&id), 4000);
    assert_eq!(ok(&h.replies, 4)["role"], "assistant");
    // Ended: a second end is nothing owed, and the result stays the first.
    assert!(tasks.finish_sampling(&s1(), sampled(), 5000).is_empty());
    // tasks/list lists it with the elicitation tasks.
    let _ = tasks
        .create(RequestId::Number(7), "c7".into(), &json!({}), 5000)
        .unwrap();
    let h = tasks.on_request(
        RequestId::Number(5),
        TaskRequest::List { cursor: None },
        5000,
    );
    let ids: Vec<Value> = ok(&h.replies, 5)["tasks"]
        .as_array()
        .unwrap()
        .iter()
        .map(|t| t["taskId"].clone())
        .collect();
    assert_eq!(ids.len(), 2);
    assert!(ids.contains(&json!(id)));
}

#[test]
fn a_failed_handler_fails_its_task_and_tasks_result_is_its_error() {
    let (mut tasks, id) = one_sampling_task(json!(null));
    let _ = tasks.on_request(RequestId::Number(2), result_of(&id), 0);
    let error = ErrorObject {
        code: -32603,
        message: "The user refused to share the model.".into(),
        data: None,
    };
    let replies = tasks.finish_sampling(&s1(), Outcome::Error(error), 1);
    assert_eq!(
        err(&replies),
        (-32603, "The user refused to share the model.".into())
    );
    let h = tasks.on_request(RequestId::Number(3), get(&id), 2);
    let task = ok(&h.replies, 3);
    assert_eq!(task["status"], "failed");
    assert!(task["statusMessage"]
        .as_str()
        .unwrap()
        .contains("could not answer"));
    let h = tasks.on_request(RequestId::Number(4), result_of(&id), 2);
    assert!(err(&h.replies).1.contains("refused to share"));
}

#[test]
fn the_servers_cancel_of_a_sampling_task_retires_no_card_and_drops_the_late_answer() {
    let (mut tasks, id) = one_sampling_task(json!(null));
    let _ = tasks.on_request(RequestId::Number(2), result_of(&id), 0);
    let h = tasks.on_request(
        RequestId::Number(3),
        TaskRequest::Cancel {
            task_id: id.clone(),
        },
        1,
    );
    assert!(h.retire.is_empty(), "{:?}", h.retire);
    // The cancel's own answer (the task) and the held tasks/result's (an error in words).
    assert_eq!(h.replies.len(), 2);
    assert!(h.replies.iter().any(|r| matches!(
        &r.outcome,
        Outcome::Result(t) if r.id == RequestId::Number(3) && t["status"] == "cancelled"
    )));
    assert!(h.replies.iter().any(|r| matches!(
        &r.outcome,
        Outcome::Error(e) if r.id == RequestId::Number(2) && e.message.contains("cancelled before the host answered")
    )));
    // The handler's answer, arriving later, is owed to nobody; the task stays cancelled.
    assert!(tasks.finish_sampling(&s1(), sampled(), 2).is_empty());
    let h = tasks.on_request(RequestId::Number(4), get(&id), 3);
    assert_eq!(ok(&h.replies, 4)["status"], "cancelled");
}

#[test]
fn an_expired_sampling_task_retires_no_card_and_answers_its_waiters_in_words() {
    let (mut tasks, id) = one_sampling_task(json!(500));
    let _ = tasks.on_request(RequestId::Number(2), result_of(&id), 1000);
    assert_eq!(tasks.next_expiry(), Some(1500));
    let h = tasks.expire(1500);
    assert!(h.retire.is_empty());
    assert!(err(&h.replies).1.contains("expired"));
    assert!(tasks.is_empty());
    assert!(tasks.finish_sampling(&s1(), sampled(), 1600).is_empty());
}

#[test]
fn hostile_sampling_ends_and_results_change_nothing_they_should_not() {
    let (mut tasks, id) = one_sampling_task(json!(null));
    let _ = tasks
        .create(RequestId::Number(1), "c1".into(), &json!({}), 0)
        .unwrap();
    let elicit_id = tasks.task_of("c1").unwrap().to_owned();
    // A request that made no task, or an elicitation task's: nothing owed, nothing changed.
    for other in [RequestId::String("nope".into()), RequestId::Number(1)] {
        assert!(tasks.finish_sampling(&other, sampled(), 1).is_empty());
    }
    let h = tasks.on_request(RequestId::Number(2), get(&elicit_id), 1);
    assert_eq!(ok(&h.replies, 2)["status"], "working");
    // A host result whose `_meta` is not an object still carries the related task.
    let _ = tasks.on_request(RequestId::Number(3), result_of(&id), 1);
    let odd = Outcome::Result(json!({"role":"assistant","_meta":7}));
    let result = ok(&tasks.finish_sampling(&s1(), odd, 2), 3);
    assert_eq!(result["_meta"][RELATED_TASK_KEY]["taskId"], json!(id));
    // Elicitation and sampling share the bound on tasks kept.
    let mut tasks = ElicitationTasks::new();
    let mut refused = 0;
    for n in 0..10_000i64 {
        if let Err(e) = tasks.create_sampling(RequestId::Number(n), &json!({}), 0) {
            assert!(e.message.contains("tasks waiting"), "{}", e.message);
            refused += 1;
        }
    }
    assert_eq!((tasks.len(), refused), (MAX_TASKS, 10_000 - MAX_TASKS));
    assert!(tasks
        .create(RequestId::Number(-1), "c".into(), &json!({}), 0)
        .is_err());
}
