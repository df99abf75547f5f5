//! Tools as tasks in the 2026-07-28 era (the Tasks extension, SEP-2663): the extension
//! declared, a `CreateTaskResult` taken only where it may come, the task polled within
//! bounds, its `inputRequests` answered by `tasks/update` (`taskId` and `inputResponses`
//! only), its end in words; and hostile tasks (another task's id, status going backwards,
//! poll intervals of 0 and 10⁹, huge or malformed `inputRequests`, endless rounds).

use mcp_elicit::driver::modern::{
    simple_request, ModernCall, ModernConfig, ModernStep, MAX_INPUT_REQUESTS_PER_ROUND,
};
use mcp_elicit::driver::task_ext::{ExtTask, TaskStep, EXTENSION};
use mcp_elicit::driver::tool_tasks::{MAX_POLL_INTERVAL_MS, MIN_POLL_INTERVAL_MS};
use mcp_elicit::driver::DriverError;
use mcp_elicit::wire::{Call, ClientCapabilities, ElicitResult, RequestId};
use serde_json::{json, Map, Value};

fn config() -> ModernConfig {
    ModernConfig {
        capabilities: ClientCapabilities::for_host(false).with_tasks_extension(),
        ..ModernConfig::default()
    }
}

fn tool_call(config: ModernConfig) -> ModernCall {
    let call = Call::Tool {
        name: "research".into(),
        arguments: Map::new(),
    };
    ModernCall::new(config, call, 1)
}

fn task(status: &str) -> Value {
    json!({"taskId":"t-1","status":status,"createdAt":"","lastUpdatedAt":"","ttlMs":null,
           "pollIntervalMs":2000,"resultType":"complete"})
}

fn with(mut body: Value, key: &str, value: Value) -> Value {
    if let Some(o) = body.as_object_mut() {
        o.insert(key.into(), value);
    }
    body
}

fn question() -> Value {
    json!({"method":"elicitation/create","params":{"mode":"form","message":"Name?",
           "requestedSchema":{"type":"object","properties":{"name":{"type":"string"}}}}})
}

fn ask(key: &str) -> Value {
    let mut one = Map::new();
    one.insert(key.into(), question());
    Value::Object(one)
}

/// The task a call's `CreateTaskResult` makes, and its first step.
fn created(body: Value) -> (ExtTask, TaskStep) {
    let mut call = tool_call(config());
    call.request().unwrap();
    let created = with(body, "resultType", json!("task"));
    let message = json!({"jsonrpc":"2.0","id":1,"result":created}).to_string();
    let ModernStep::Task { mut task, created } = call.on_message(&message) else {
        panic!("not a task")
    };
    let first = task.on_task(&created).unwrap();
    (*task, first)
}

#[test]
fn every_request_declares_the_extension_in_its_capabilities() {
    let mut call = tool_call(config());
    let body: Value = serde_json::from_str(&call.request().unwrap().body.unwrap()).unwrap();
    let caps = &body["params"]["_meta"]["io.modelcontextprotocol/clientCapabilities"];
    assert_eq!(caps["extensions"][EXTENSION], json!({}));
    // Not declared unless asked for (a host with tasks "never").
    let mut plain = tool_call(ModernConfig::default());
    let body = plain.request().unwrap().body.unwrap();
    assert!(!body.contains(EXTENSION), "{body}");
}

#[test]
fn a_task_is_taken_only_for_a_tools_call_that_declared_the_extension() {
    let answer =
        json!({"jsonrpc":"2.0","id":1,"result":with(task("working"),"resultType",json!("task"))})
            .to_string();
    let mut undeclared = tool_call(ModernConfig::default());
    undeclared.request().unwrap();
    let ModernStep::Failed(e) = undeclared.on_message(&answer) else {
        panic!("taken")
    };
    assert!(e.to_string().contains("answered with a task"), "{e}");
    assert!(
        matches!(&e, DriverError::BadResult(w) if w.kind == mcp_elicit::wire::WireKind::Unexpected),
        "{e:?}"
    );
    let mut read = ModernCall::new(
        config(),
        Call::Resource {
            uri: "r://x".into(),
        },
        1,
    );
    read.request().unwrap();
    assert!(matches!(read.on_message(&answer), ModernStep::Failed(_)));
    let no_id = json!({"jsonrpc":"2.0","id":1,"result":{"resultType":"task","status":"working"}});
    let mut call = tool_call(config());
    call.request().unwrap();
    let ModernStep::Failed(e) = call.on_message(&no_id.to_string()) else {
        panic!("taken")
    };
    assert!(e.to_string().contains("without a taskId"), "{e}");
}

#[test]
fn a_task_is_polled_its_question_answered_by_tasks_update_and_its_result_taken() {
    let (mut t, first) = created(task("working"));
    assert!(matches!(first, TaskStep::Poll { after_ms: 2000 }));
    assert_eq!(t.task().task_id(), "t-1");
    let asking = with(task("input_required"), "inputRequests", ask("name"));
    // A requestState on a task is not the task's to echo.
    let asking = with(asking, "requestState", json!({"not": "a string"}));
    let TaskStep::Ask {
        elicitations,
        sampling,
    } = t.on_task(&asking).unwrap()
    else {
        panic!("no question")
    };
    assert!(sampling.is_empty());
    assert_eq!(elicitations.len(), 1);
    assert_eq!(elicitations[0].key, "name");
    assert_eq!(elicitations[0].params.message(), "Name?");
    assert!(
        t.update_params().is_none(),
        "nothing to send before the answer"
    );
    let mut content = Map::new();
    content.insert("name".into(), json!("Ada"));
    assert!(t
        .answer("name", ElicitResult::accept(Some(content)))
        .unwrap());
    let update = Value::Object(t.update_params().unwrap());
    assert_eq!(
        update,
        json!({"taskId":"t-1","inputResponses":{"name":{"action":"accept","content":{"name":"Ada"}}}})
    );
    // The update has not landed yet: the same question again is not shown again.
    assert!(matches!(
        t.on_task(&asking).unwrap(),
        TaskStep::Poll { after_ms: 2000 }
    ));
    assert!(t.update_params().is_none(), "an answer goes once");
    let done = with(
        task("completed"),
        "result",
        json!({"content":[{"type":"text","text":"hello Ada"}]}),
    );
    let TaskStep::Completed(result) = t.on_task(&done).unwrap() else {
        panic!("not done")
    };
    assert_eq!(result["content"][0]["text"], "hello Ada");
}

#[test]
fn the_seed_may_already_be_the_end() {
    let done = with(
        task("completed"),
        "result",
        json!({"content":[],"isError":true}),
    );
    let (_, first) = created(done);
    let TaskStep::Completed(result) = first else {
        panic!("not done")
    };
    assert_eq!(result["isError"], true);
}

#[test]
fn failed_and_cancelled_are_said_in_words() {
    let (mut t, _) = created(task("working"));
    let failed = with(
        task("failed"),
        "error",
        json!({"code":-32603,"message":"API rate limit exceeded"}),
    );
    let TaskStep::Failed(e) = t.on_task(&failed).unwrap() else {
        panic!("not failed")
    };
    assert!(e.to_string().contains("API rate limit exceeded"), "{e}");
    let (mut t, _) = created(task("working"));
    let bare = with(task("failed"), "statusMessage", json!("the disk is full"));
    let TaskStep::Failed(e) = t.on_task(&bare).unwrap() else {
        panic!("not failed")
    };
    assert!(e.to_string().contains("the disk is full"), "{e}");
    assert!(
        matches!(&e, DriverError::BadResult(w) if w.kind == mcp_elicit::wire::WireKind::TaskFailed),
        "{e:?}"
    );
    let (mut t, _) = created(task("working"));
    let gone = with(
        task("cancelled"),
        "statusMessage",
        json!("operator said no"),
    );
    assert!(matches!(t.on_task(&gone).unwrap(), TaskStep::Cancelled));
    assert_eq!(t.task().message(), Some("operator said no"));
    let no_result = task("completed");
    let (mut t, _) = created(task("working"));
    assert!(t.on_task(&no_result).unwrap_err().contains("no result"));
}

#[test]
fn another_tasks_id_or_an_unknown_status_changes_nothing() {
    let (mut t, _) = created(task("working"));
    let other = with(task("completed"), "taskId", json!("t-2"));
    assert!(t.on_task(&other).unwrap_err().contains("t-2"));
    assert!(t.on_task(&task("paused")).unwrap_err().contains("paused"));
    assert_eq!(t.task().status().as_str(), "working");
}

#[test]
fn a_task_that_ended_never_goes_back() {
    let (mut t, _) = created(task("working"));
    let done = with(task("completed"), "result", json!({"content":[]}));
    assert!(matches!(t.on_task(&done).unwrap(), TaskStep::Completed(_)));
    let back = with(task("input_required"), "inputRequests", ask("late"));
    assert!(matches!(t.on_task(&back).unwrap(), TaskStep::Poll { .. }));
    assert_eq!(t.task().status().as_str(), "completed");
    assert!(t.answer("late", ElicitResult::decline()).is_err());
}

#[test]
fn poll_intervals_of_zero_and_a_billion_are_bounded() {
    let (mut t, _) = created(task("working"));
    for (ms, want) in [
        (json!(0), MIN_POLL_INTERVAL_MS),
        (json!(1e9), MAX_POLL_INTERVAL_MS),
        (json!(-5), MIN_POLL_INTERVAL_MS),
        (json!("soon"), MIN_POLL_INTERVAL_MS),
    ] {
        let body = with(task("working"), "pollIntervalMs", ms);
        assert!(
            matches!(t.on_task(&body).unwrap(), TaskStep::Poll { after_ms } if after_ms == want)
        );
    }
}

#[test]
fn huge_or_malformed_input_requests_give_the_task_up_in_words() {
    let (mut t, _) = created(task("working"));
    let mut many = Map::new();
    for i in 0..=MAX_INPUT_REQUESTS_PER_ROUND {
        many.insert(format!("q{i}"), question());
    }
    let huge = with(task("input_required"), "inputRequests", Value::Object(many));
    let TaskStep::Failed(e) = t.on_task(&huge).unwrap() else {
        panic!("taken")
    };
    assert!(e.to_string().contains("at most 64"), "{e}");
    for bad in [
        json!("not a map"),
        json!({"q":{"method":"elicitation/create","params":{"message":7}}}),
        json!({"q":[1,2]}),
    ] {
        let (mut t, _) = created(task("working"));
        let body = with(task("input_required"), "inputRequests", bad.clone());
        let TaskStep::Failed(e) = t.on_task(&body).unwrap() else {
            panic!("taken: {bad}")
        };
        assert!(!e.to_string().is_empty());
    }
    let (mut t, _) = created(task("working"));
    let body = with(
        task("input_required"),
        "inputRequests",
        json!({"q":{"method":"sampling/createMessage","params":{}}}),
    );
    let TaskStep::Failed(DriverError::SamplingRefused { key }) = t.on_task(&body).unwrap() else {
        panic!("sampled without a handler")
    };
    assert_eq!(key, "q");
}

#[test]
fn endless_rounds_of_new_questions_are_bounded() {
    let (mut t, _) = created(task("working"));
    let max = ModernConfig::default().max_rounds;
    let mut asked = 0;
    for round in 0..1000 {
        let key = format!("q{round}");
        let body = with(task("input_required"), "inputRequests", ask(&key));
        match t.on_task(&body).unwrap() {
            TaskStep::Ask { .. } => {
                asked += 1;
                t.answer(&key, ElicitResult::decline()).unwrap();
                t.update_params().unwrap();
            }
            TaskStep::Failed(DriverError::RoundsExceeded { max_rounds }) => {
                assert_eq!(max_rounds, max);
                break;
            }
            other => panic!("{other:?}"),
        }
    }
    assert_eq!(asked, max);
}

#[test]
fn roots_are_answered_without_the_person() {
    let (mut t, _) = created(task("working"));
    let body = with(
        task("input_required"),
        "inputRequests",
        json!({"r":{"method":"roots/list"}}),
    );
    assert!(matches!(t.on_task(&body).unwrap(), TaskStep::Update));
    let update = t.update_params().unwrap();
    assert_eq!(update["inputResponses"]["r"], json!({"roots": []}));
}

#[test]
fn task_requests_carry_the_task_id_as_mcp_name() {
    let mut params = Map::new();
    params.insert("taskId".into(), json!("t-1"));
    for method in ["tasks/get", "tasks/update", "tasks/cancel"] {
        let req = simple_request(&config(), &RequestId::Number(9), method, Some(&params)).unwrap();
        assert_eq!(req.header("Mcp-Name"), Some("t-1"));
        assert_eq!(req.header("Mcp-Method"), Some(method));
    }
}
