//! Tools as tasks (2025-11-25, experimental tasks): when a call is made as a task, and
//! following the server's task, including hostile answers (another task's id, status
//! going backwards, poll intervals of 0 and 10⁹, unknown statuses, floods).

use mcp_elicit::driver::tasks::TaskStatus;
use mcp_elicit::driver::tool_tasks::{
    call_as_task, server_runs_tool_tasks, task_support, TaskMode, TaskNext, ToolTask,
    DEFAULT_POLL_INTERVAL_MS, MAX_POLL_INTERVAL_MS, MAX_STATUS_MESSAGE_CHARS, MIN_POLL_INTERVAL_MS,
};
use serde_json::{json, Value};

fn created(task: Value) -> ToolTask {
    ToolTask::from_call_result(&json!({ "task": task }))
        .expect("a task")
        .expect("followable")
}

fn task(status: &str) -> Value {
    json!({"taskId":"t-1","status":status,"createdAt":"","lastUpdatedAt":"","ttl":null})
}

#[test]
fn required_tools_are_called_as_tasks_optional_ones_per_the_hosts_mode() {
    let caps = json!({"tasks":{"requests":{"tools":{"call":{}}}}});
    assert!(server_runs_tool_tasks(&caps));
    assert!(!server_runs_tool_tasks(&json!({"tasks":{"list":{}}})));
    let required = json!({"taskSupport":"required"});
    let optional = json!({"taskSupport":"optional"});
    assert_eq!(task_support(Some(&required)), Some("required"));
    for mode in [TaskMode::Auto, TaskMode::Always, TaskMode::Never] {
        assert!(call_as_task(true, Some("required"), mode));
        assert!(!call_as_task(true, Some("forbidden"), mode));
        assert!(!call_as_task(true, None, mode));
        // Undeclared by the server: never (the spec's MUST NOT).
        assert!(!call_as_task(false, Some("required"), mode));
    }
    assert!(call_as_task(
        true,
        task_support(Some(&optional)),
        TaskMode::Auto
    ));
    assert!(call_as_task(true, Some("optional"), TaskMode::Always));
    assert!(!call_as_task(true, Some("optional"), TaskMode::Never));
    assert_eq!(TaskMode::parse("never"), Some(TaskMode::Never));
    assert_eq!(TaskMode::parse("sometimes"), None);
    assert_eq!(TaskMode::default(), TaskMode::Auto);
}

#[test]
fn a_plain_result_is_not_a_task_and_a_task_without_id_is_said_in_words() {
    assert!(ToolTask::from_call_result(&json!({"content":[]})).is_none());
    let err = ToolTask::from_call_result(&json!({"task":{"status":"working"}}))
        .unwrap()
        .unwrap_err();
    assert!(err.contains("without a taskId"), "{err}");
}

#[test]
fn a_task_is_polled_then_its_questions_and_result_fetched() {
    let mut t = created(json!({"taskId":"t-1","status":"working","pollInterval":2000}));
    assert_eq!(t.next(), TaskNext::Poll { after_ms: 2000 });
    assert_eq!(
        t.on_task(&task("input_required")),
        Ok(TaskNext::FetchResult)
    );
    assert_eq!(t.status(), TaskStatus::InputRequired);
    // Back to working after the questions (a legal move): polling again, same interval.
    assert_eq!(
        t.on_task(&task("working")),
        Ok(TaskNext::Poll { after_ms: 2000 })
    );
    assert_eq!(t.on_task(&task("completed")), Ok(TaskNext::FetchResult));
    assert_eq!(t.id_params()["taskId"], "t-1");
    let mut t = created(task("working"));
    assert_eq!(t.on_task(&task("failed")), Ok(TaskNext::FetchResult));
    let mut t = created(task("working"));
    assert_eq!(t.on_task(&task("cancelled")), Ok(TaskNext::Cancelled));
}

#[test]
fn poll_intervals_are_kept_within_bounds() {
    let t = created(json!({"taskId":"t-1","status":"working"}));
    assert_eq!(t.poll_ms(), DEFAULT_POLL_INTERVAL_MS);
    for (asked, kept) in [
        (json!(0), MIN_POLL_INTERVAL_MS),
        (json!(1), MIN_POLL_INTERVAL_MS),
        (json!(-5), MIN_POLL_INTERVAL_MS),
        (json!(1e9), MAX_POLL_INTERVAL_MS),
        (json!(1e300), MAX_POLL_INTERVAL_MS),
        (json!(1500), 1500),
    ] {
        let t = created(json!({"taskId":"t-1","status":"working","pollInterval":asked}));
        assert_eq!(t.poll_ms(), kept, "{asked}");
    }
    // Not a number: the interval before stays.
    let mut t = created(json!({"taskId":"t-1","status":"working","pollInterval":700}));
    let _ = t.on_task(&json!({"taskId":"t-1","status":"working","pollInterval":"fast"}));
    assert_eq!(t.poll_ms(), 700);
}

#[test]
fn an_ended_task_never_goes_back() {
    let mut t = created(task("working"));
    assert_eq!(t.on_task(&task("completed")), Ok(TaskNext::FetchResult));
    for later in ["working", "input_required", "cancelled", "failed"] {
        assert_eq!(t.on_task(&task(later)), Ok(TaskNext::FetchResult));
        assert_eq!(t.status(), TaskStatus::Completed);
    }
    let mut t = created(task("working"));
    let _ = t.on_task(&task("cancelled"));
    assert_eq!(t.on_task(&task("working")), Ok(TaskNext::Cancelled));
}

#[test]
fn answers_about_another_task_or_with_unknown_statuses_are_errors_in_words() {
    let mut t = created(task("working"));
    let err = t
        .on_task(&json!({"taskId":"someone-else","status":"completed"}))
        .unwrap_err();
    assert!(err.contains("someone-else") && err.contains("t-1"), "{err}");
    let err = t
        .on_task(&json!({"taskId":"t-1","status":"done"}))
        .unwrap_err();
    assert!(err.contains("unknown status"), "{err}");
    assert!(t.on_task(&json!({"taskId":"t-1"})).is_err());
    assert!(t.on_task(&json!({"status":"completed"})).is_err());
    assert!(t.on_task(&json!(null)).is_err());
    // Nothing changed.
    assert_eq!(t.status(), TaskStatus::Working);
    // A megabyte of an id is quoted cut.
    let long = "x".repeat(1 << 20);
    let err = t
        .on_task(&json!({"taskId":long,"status":"working"}))
        .unwrap_err();
    assert!(err.len() < 400);
}

#[test]
fn status_messages_are_cut_and_a_flood_of_notifications_keeps_only_the_latest() {
    let mut t = created(task("working"));
    let long = "é".repeat(10_000);
    let _ = t.on_task(&json!({"taskId":"t-1","status":"working","statusMessage":long}));
    let kept = t.message().unwrap();
    assert_eq!(kept.chars().count(), MAX_STATUS_MESSAGE_CHARS + 1);
    assert!(kept.ends_with('…'));
    for n in 0..100_000 {
        let note = json!({"jsonrpc":"2.0","method":"notifications/tasks/status",
            "params":{"taskId":"t-1","status":"working","statusMessage":format!("step {n}")}})
        .to_string();
        assert!(t.on_message(&note).is_some());
    }
    assert_eq!(t.message(), Some("step 99999"));
    // Another task's notification, other methods, and junk change nothing.
    let other = r#"{"jsonrpc":"2.0","method":"notifications/tasks/status","params":{"taskId":"t-2","status":"completed"}}"#;
    assert_eq!(t.on_message(other), None);
    assert_eq!(t.on_message(r#"{"jsonrpc":"2.0","method":"notifications/progress","params":{"taskId":"t-1","status":"completed"}}"#), None);
    assert_eq!(t.on_message("not json"), None);
    assert_eq!(t.status(), TaskStatus::Working);
}

#[test]
fn a_call_as_a_task_carries_an_empty_task_beside_its_progress_token() {
    use mcp_elicit::driver::legacy::{LegacyConfig, LegacyEvent, LegacySession};
    use mcp_elicit::wire::{Call, RequestId};
    let mut s = LegacySession::new(LegacyConfig::default());
    s.initialize_request().unwrap();
    s.on_http_status(Some(&RequestId::Number(0)), 200, Some("s-1"));
    let init = r#"{"jsonrpc":"2.0","id":0,"result":{"capabilities":{"tasks":{"requests":{"tools":{"call":{}}}}},"protocolVersion":"2025-11-25","serverInfo":{"name":"x","version":""}}}"#;
    let LegacyEvent::Initialized { result, .. } = s.on_message(init) else {
        panic!("no handshake")
    };
    assert!(server_runs_tool_tasks(&result.capabilities));
    let call = Call::Tool {
        name: "slow".into(),
        arguments: Default::default(),
    };
    let (_, post) = s.call_with(&call, Some("tok"), true).unwrap();
    let body: Value = serde_json::from_str(post.body.as_deref().unwrap()).unwrap();
    assert_eq!(body["params"]["task"], json!({}));
    assert_eq!(body["params"]["_meta"]["progressToken"], "tok");
    let (_, post) = s.call_with(&call, None, false).unwrap();
    let body: Value = serde_json::from_str(post.body.as_deref().unwrap()).unwrap();
    assert!(body["params"].get("task").is_none());
}
