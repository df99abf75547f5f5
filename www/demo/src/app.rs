//! The demo app's view, per the DOM contract the browser tests drive
//! (`docs/dom-contract.md`): Server URL + Connect, the connection status, the tools with a
//! form each, pending elicitations, the result, errors.

use crate::words::DemoWords;
use leptos::prelude::*;
use mcp_elicit::wire::{Call, CallToolResult, ContentItem, Tool};
use mcp_elicit_web::client::ProtocolChoice;
use mcp_elicit_web::components::{reveal, SchemaForm};
use mcp_elicit_web::pending::PendingList;
use serde_json::{Map, Value};

use crate::actions;
use crate::catalog::{CatalogCard, CatalogList, PromptList, ResourceList};
use crate::query::StartParams;
use crate::state::{AppState, Outcome};
use mcp_elicit_web::i18n::{use_messages, Messages};

/// The whole app. `start` comes from the query string.
#[component]
pub fn DemoApp(start: StartParams) -> impl IntoView {
    let state = AppState::new();
    if let Some(server) = start.server.clone() {
        state.server_url.set(server);
    }
    if let Some(protocol) = start.protocol {
        state.protocol.set(protocol);
    }
    // Problems with the query parameters stay on screen (in the alert, above whatever the
    // connect or a call says there): the page's URL does not change, so neither do they.
    let m = use_messages();
    let query_problems = (!start.problems.is_empty()).then(|| {
        let said: Vec<String> = start.problems.iter().map(|p| p.words(&m)).collect();
        said.join(" ")
    });
    if start.server.is_some() {
        actions::connect(state, start.prefill.clone());
    }
    // What the person's own action produced comes into view: an alert, then the result
    // (a card that arrives: PendingList's `reveal`). The result ends the action.
    let alert_ref = NodeRef::<leptos::html::Div>::new();
    let result_ref = NodeRef::<leptos::html::Section>::new();
    Effect::new(move |_| {
        if state.alert.with(Option::is_some) && state.acted.get_untracked() {
            // A frame later than a card the same answer brought (a -32042's URL cards), so
            // the alert, above them, is what ends in view.
            request_animation_frame(move || {
                reveal_later(move || alert_ref.get_untracked().map(Into::into))
            });
        }
    });
    Effect::new(move |_| {
        if state.result.with(Option::is_some) && state.acted.get_untracked() {
            state.acted.set(false);
            reveal_later(move || result_ref.get_untracked().map(Into::into));
        }
    });
    view! {
        <main class="demo">
            <h1>{use_messages().d("demo.title", &[])}</h1>
            <ConnectBar state=state />
            <p data-testid="connection-status" class="connection-status">
                {move || state.messages.with_value(|m| state.status.get().text(m))}
            </p>
            <p class="notice" role="status">{move || state.requests.notice.get().unwrap_or_default()}</p>
            <div role="alert" data-testid="app-error" class="app-error" node_ref=alert_ref>
                {query_problems.map(|p| view! { <p class="query-error" data-testid="query-error">{p}</p> })}
                {move || state.alert.get().unwrap_or_default()}
            </div>
            // Beside the alert, not in it: the alert's text is the error alone.
            <RetryButton state=state />
            <AutoButton state=state />
            <crate::running::RunningCall state=state />
            <h2 class="visually-hidden">{use_messages().d("demo.requests", &[])}</h2>
            <PendingList
                requests=state.requests
                on_answer=Callback::new(move |(key, result, status)| {
                    actions::answer(state, key, result, status)
                })
                reveal=Signal::derive(move || state.acted.get())
            />
            <ResultView state=state node_ref=result_ref />
            <ToolList state=state />
            <PromptList state=state />
            <ResourceList state=state />
        </main>
    }
}

#[component]
fn ConnectBar(state: AppState) -> impl IntoView {
    let on_submit = move |ev: leptos::ev::SubmitEvent| {
        ev.prevent_default();
        actions::connect(state, None);
    };
    let on_protocol = move |ev| {
        if let Some(choice) = ProtocolChoice::parse(&event_target_value(&ev)) {
            state.protocol.set(choice);
        }
    };
    let protocol_value = move || match state.protocol.get() {
        ProtocolChoice::Auto => "auto",
        ProtocolChoice::Modern => "2026-07-28",
        ProtocolChoice::Legacy => "2025-11-25",
    };
    view! {
        // `novalidate`: the browser's own bubble for a `type=url` input would block the
        // submit, so the app's worded error (in the alert) would never show.
        <form class="connect" novalidate=true on:submit=on_submit>
            <label for="server-url">{use_messages().d("demo.server_url", &[])}</label>
            <input
                id="server-url"
                name="server"
                type="url"
                placeholder="http://127.0.0.1:8001/mcp"
                prop:value=move || state.server_url.get()
                on:input=move |ev| state.server_url.set(event_target_value(&ev))
            />
            <label for="protocol">{use_messages().d("demo.protocol", &[])}</label>
            <select id="protocol" name="protocol" prop:value=protocol_value on:change=on_protocol>
                <option value="auto">{use_messages().d("demo.protocol_auto", &[])}</option>
                <option value="2026-07-28">"2026-07-28"</option>
                <option value="2025-11-25">"2025-11-25"</option>
            </select>
            <button type="submit">{use_messages().d("demo.connect", &[])}</button>
        </form>
    }
}

/// Brings the element `target` finds into view once it is laid out (see [`reveal`]).
fn reveal_later(target: impl Fn() -> Option<web_sys::Element> + 'static) {
    request_animation_frame(move || {
        if let Some(el) = target() {
            reveal(&el);
        }
    });
}

/// Offered when a 2026-07-28-only connect met a server that speaks the handshake: connects
/// again with Auto (the Protocol choice follows).
#[component]
fn AutoButton(state: AppState) -> impl IntoView {
    let connect = move |_| {
        state.protocol.set(ProtocolChoice::Auto);
        actions::connect(state, None);
    };
    view! {
        <Show when=move || state.offer_auto.get()>
            <button type="button" class="retry" on:click=connect>{use_messages().d("demo.connect_auto", &[])}</button>
        </Show>
    }
}

/// Offered after a -32042 (URL elicitation required): open the URLs, then retry.
#[component]
fn RetryButton(state: AppState) -> impl IntoView {
    let visible = move || {
        state.alert.get().is_some() && state.last_call.get().is_some() && !state.calling.get()
    };
    let retry = move |_| {
        if let Some(request) = state.last_call.get_untracked() {
            actions::run(state, request);
        }
    };
    view! {
        <Show when=visible>
            <button type="button" class="retry" on:click=retry>{use_messages().d("demo.retry_call", &[])}</button>
        </Show>
    }
}

#[component]
fn ResultView(state: AppState, node_ref: NodeRef<leptos::html::Section>) -> impl IntoView {
    let is_error = move || {
        let failed = matches!(
            state.result.get(),
            Some(Outcome::Tool(CallToolResult {
                is_error: Some(true),
                ..
            }))
        );
        failed.to_string()
    };
    let kind = move || match state.result.get() {
        Some(Outcome::Tool(_)) => "tool",
        Some(Outcome::Prompt(_)) => "prompt",
        Some(Outcome::Resource(_)) => "resource",
        None => "",
    };
    view! {
        <section class="result" aria-label=use_messages().d("demo.result", &[]) node_ref=node_ref>
            <h2>{use_messages().d("demo.result", &[])}</h2>
            <div data-testid="tool-result" data-is-error=is_error data-kind=kind>
                {move || state.result.get().map(render_outcome)}
            </div>
        </section>
    }
}

/// Text as text; anything else (images, blobs, embedded resources) as its JSON, also as
/// text: server content never becomes HTML.
fn render_outcome(outcome: Outcome) -> AnyView {
    match outcome {
        Outcome::Tool(result) => result
            .content
            .into_iter()
            .map(|item| match item {
                ContentItem::Text(text) => view! { <p class="text">{text.text}</p> }.into_any(),
                ContentItem::Other(value) => other(&value),
            })
            .collect_view()
            .into_any(),
        Outcome::Prompt(result) => result
            .messages
            .iter()
            .map(|message| {
                let role = message["role"].as_str().unwrap_or("message").to_owned();
                match message["content"]["text"].as_str() {
                    Some(text) => view! {
                        <p class="text" data-role=role.clone()>
                            <span class="role">{format!("{role}: ")}</span>
                            {text.to_owned()}
                        </p>
                    }
                    .into_any(),
                    None => other(message),
                }
            })
            .collect_view()
            .into_any(),
        Outcome::Resource(result) => result
            .contents
            .iter()
            .map(|item| match item["text"].as_str() {
                Some(text) => view! { <p class="text">{text.to_owned()}</p> }.into_any(),
                None => other(item),
            })
            .collect_view()
            .into_any(),
    }
}

fn other(value: &Value) -> AnyView {
    view! { <pre class="other">{value.to_string()}</pre> }.into_any()
}

/// The tools, shown from the start (empty until a connection lists them).
#[component]
fn ToolList(state: AppState) -> impl IntoView {
    view! {
        <CatalogList
            class="tools"
            heading=use_messages().d("demo.tools", &[])
            items=state.tools
            key=|t: &Tool| t.name.clone()
            card=move |tool: Tool| view! { <ToolCard state=state tool=tool /> }.into_any()
            always=true
        />
    }
}

/// One tool: its name, description and a form for its arguments with Call tool. A flat
/// input schema gets the same form renderer as elicitations; any other schema (nested
/// objects, arrays of objects, ...) gets a JSON editor.
///
/// The tool a link names (`state.prefill`) is selected (`data-selected`, scrolled to) and
/// its form starts with the link's arguments; it still runs only on the Call tool click.
#[component]
fn ToolCard(state: AppState, tool: Tool) -> impl IntoView {
    let name = tool.name.clone();
    let heading = tool.title.clone().unwrap_or_else(|| tool.name.clone());
    let linked: Option<Map<String, Value>> = state.prefill.with_value(|p| {
        p.as_ref()
            .filter(|p| p.tool == tool.name)
            .map(|p| p.args.clone())
    });
    let selected = linked.is_some();
    let mut left_out = Vec::new();
    let form = match mcp_elicit::schema::compile(&tool.input_schema) {
        Ok(mut spec) => {
            // The tool's own heading is shown; the schema's generated title is noise.
            spec.title = None;
            if let Some(args) = &linked {
                left_out = args_left_out(&spec, args);
            }
            let form_name = name.clone();
            let name = name.clone();
            let on_submit = Callback::new(move |args: Map<String, Value>| {
                actions::run(
                    state,
                    Call::Tool {
                        name: name.clone(),
                        arguments: args,
                    },
                )
            });
            // An empty map starts every field at its default, as no map would.
            let initial = linked.clone().unwrap_or_default();
            view! {
                <SchemaForm spec=spec on_submit=on_submit submit_label=use_messages().d("demo.call_tool", &[]) autofocus=false initial=initial form_name=form_name />
            }
            .into_any()
        }
        Err(_) => {
            let text = match &linked {
                Some(args) => serde_json::to_string_pretty(&Value::Object(args.clone()))
                    .unwrap_or_else(|_| String::from("{}")),
                None => String::from("{}"),
            };
            view! { <JsonArgsForm state=state name=name.clone() text=text /> }.into_any()
        }
    };
    let link_note = selected.then(|| view! { <LinkNote left_out=left_out /> });
    let card = NodeRef::<leptos::html::Section>::new();
    if selected {
        Effect::new(move |_| {
            if let Some(section) = card.get() {
                section.scroll_into_view();
            }
        });
    }
    view! {
        <CatalogCard
            heading=heading
            description=tool.description.clone().unwrap_or_default()
            {..}
            class:selected=selected
            data-tool=name.clone()
            data-selected=selected.then_some("true")
            node_ref=card
        >
            {link_note}
            {form}
        </CatalogCard>
    }
}

/// How many argument names a link note lists before saying "and N more": a link can carry
/// a long query, and the note is there to be read; the count still says how many.
const LINK_NOTE_MAX_NAMES: usize = 10;

/// Says the form was filled in from the link and waits for the person's click, and which
/// of the link's arguments the form could not show (those are not sent: only what the
/// form shows is).
#[component]
fn LinkNote(left_out: Vec<String>) -> impl IntoView {
    let m = use_messages();
    let mut text = m.d("demo.prefilled", &[("button", &m.d("demo.call_tool", &[]))]);
    if !left_out.is_empty() {
        let shown: Vec<String> = left_out
            .iter()
            .take(LINK_NOTE_MAX_NAMES)
            .map(|n| format!("{n:?}"))
            .collect();
        let names = shown.join(&m.t("list.separator", &[]));
        let more = left_out.len().saturating_sub(LINK_NOTE_MAX_NAMES);
        text.push_str(&if more > 0 {
            let count = m.number(more as f64);
            m.d(
                "demo.left_out_more",
                &[("names", &names), ("count", &count)],
            )
        } else {
            m.d("demo.left_out", &[("names", &names)])
        });
    }
    view! { <p class="from-link" role="status" data-testid="from-link">{text}</p> }
}

/// The link's arguments the form cannot show: names that are not fields of `spec`, and
/// values a field cannot hold (a number for a checkbox, ...). Linear in both sizes.
fn args_left_out(spec: &mcp_elicit::schema::FormSpec, args: &Map<String, Value>) -> Vec<String> {
    let fields: std::collections::HashMap<&str, &mcp_elicit::schema::Field> =
        spec.fields.iter().map(|f| (f.name.as_str(), f)).collect();
    args.iter()
        .filter(|(name, value)| {
            fields
                .get(name.as_str())
                // The offset only converts date-times; whether a value fits does not depend on it.
                .and_then(|field| mcp_elicit::validate::input_for_value(field, value, 0))
                .is_none()
        })
        .map(|(name, _)| name.clone())
        .collect()
}

/// The arguments of a tool whose schema the form renderer does not take, as JSON, starting
/// with `text`.
#[component]
fn JsonArgsForm(state: AppState, name: String, text: String) -> impl IntoView {
    let args_text = RwSignal::new(text);
    let field_id = format!("args-{name}");
    let label = use_messages().d("demo.arguments", &[("tool", &name)]);
    let call = move |ev: leptos::ev::SubmitEvent| {
        ev.prevent_default();
        match state
            .messages
            .with_value(|m| parse_args(m, &args_text.get_untracked()))
        {
            Ok(args) => actions::run(
                state,
                Call::Tool {
                    name: name.clone(),
                    arguments: args,
                },
            ),
            Err(why) => state.alert.set(Some(why)),
        }
    };
    view! {
        <form class="json-args" on:submit=call>
            <label for=field_id.clone()>{label}</label>
            <textarea
                id=field_id
                name="arguments"
                rows="3"
                prop:value=move || args_text.get()
                on:input=move |ev| args_text.set(event_target_value(&ev))
            ></textarea>
            <button type="submit">{use_messages().d("demo.call_tool", &[])}</button>
        </form>
    }
}

/// The arguments editor's text as a JSON object, or why not.
fn parse_args(m: &Messages, text: &str) -> Result<Map<String, Value>, String> {
    if text.trim().is_empty() {
        return Ok(Map::new());
    }
    match serde_json::from_str::<Value>(text) {
        Ok(Value::Object(map)) => Ok(map),
        Ok(_) => Err(m.d(
            "demo.args_not_object",
            &[("example", r#"{"path": "/tmp"}"#)],
        )),
        Err(err) => Err(m.d("demo.args_not_json", &[("reason", &err.to_string())])),
    }
}
