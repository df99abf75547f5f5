//! The server's prompts and resources in the demo, each runnable like a tool: a prompt's
//! arguments and a resource template's variables become the same flat form as an
//! elicitation's; a listed resource is one button.

use crate::words::DemoWords;
use leptos::prelude::*;
use mcp_elicit::schema::compile;
use mcp_elicit::wire::{Call, Prompt, Resource, ResourceTemplate};
use mcp_elicit_web::components::SchemaForm;
use mcp_elicit_web::i18n::use_messages;
use serde_json::{Map, Value};

use crate::actions;
use crate::state::AppState;

/// One of the server's lists as a section: its heading over a card per item, keyed by
/// `key` (unique: the lists are deduplicated when set, `state::first_of_each`). Shown only
/// while the list has items, unless `always`.
#[component]
pub fn CatalogList<T, K, C>(
    /// The section's class; its heading is also its `aria-label`.
    class: &'static str,
    #[prop(into)] heading: String,
    items: RwSignal<Vec<T>>,
    key: K,
    card: C,
    #[prop(optional)] always: bool,
) -> impl IntoView
where
    T: Clone + Send + Sync + 'static,
    K: Fn(&T) -> String + Clone + Send + Sync + 'static,
    C: Fn(T) -> AnyView + Clone + Send + Sync + 'static,
{
    view! {
        <Show when=move || always || items.with(|i| !i.is_empty())>
            <section class=class aria-label=heading.clone()>
                <h2>{heading.clone()}</h2>
                <For each=move || items.get() key=key.clone() children=card.clone() />
            </section>
        </Show>
    }
}

/// One entry of a list as a card: a section named by its heading, the heading, a line of
/// description, then `children` (its form or button). Which entry it is goes on as
/// attributes after `{..}` (`data-tool`, `data-prompt`, ...: the marks of the DOM contract).
#[component]
pub fn CatalogCard(heading: String, description: String, children: Children) -> impl IntoView {
    let label = heading.clone();
    view! {
        <section class="tool" aria-label=label>
            <h3>{heading}</h3>
            <p class="description">{description}</p>
            {children()}
        </section>
    }
}

/// The prompts, when the server has any.
#[component]
pub fn PromptList(state: AppState) -> impl IntoView {
    view! {
        <CatalogList
            class="prompts"
            heading=use_messages().d("demo.prompts", &[])
            items=state.prompts
            key=|p: &Prompt| p.name.clone()
            card=move |prompt: Prompt| view! { <PromptCard state=state prompt=prompt /> }.into_any()
        />
    }
}

#[component]
fn PromptCard(state: AppState, prompt: Prompt) -> impl IntoView {
    let name = prompt.name.clone();
    let heading = prompt.title.clone().unwrap_or_else(|| name.clone());
    let form = match compile(&prompt.arguments_schema()) {
        Ok(spec) => {
            let form_name = name.clone();
            let name = name.clone();
            let on_submit = Callback::new(move |args: Map<String, Value>| {
                actions::run(
                    state,
                    Call::Prompt {
                        name: name.clone(),
                        arguments: args,
                    },
                )
            });
            view! { <SchemaForm spec=spec on_submit=on_submit submit_label=use_messages().d("demo.get_prompt", &[]) autofocus=false form_name=form_name /> }
                .into_any()
        }
        // Prompt arguments are plain strings, so this only happens for a name the form
        // renderer refuses; say so rather than hide the prompt.
        Err(err) => {
            view! { <p class="refused">{use_messages().d("demo.prompt_refused", &[("reason", &err.to_string())])}</p> }
                .into_any()
        }
    };
    // (Each value before `{..}` ends in a call: a bare name there would read as a struct.)
    view! {
        <CatalogCard
            heading=heading
            description=prompt.description.clone().unwrap_or_default()
            {..}
            data-prompt=name
        >
            {form}
        </CatalogCard>
    }
}

/// The resources and resource templates, when the server has any.
#[component]
pub fn ResourceList(state: AppState) -> impl IntoView {
    let any =
        move || state.resources.with(|r| !r.is_empty()) || state.templates.with(|t| !t.is_empty());
    let heading = use_messages().d("demo.resources", &[]);
    view! {
        <Show when=any>
            <section class="resources" aria-label=heading.clone()>
                <h2>{heading.clone()}</h2>
                <For
                    each=move || state.resources.get()
                    // Unique: deduplicated when set, as `CatalogList`'s lists are.
                    key=|r: &Resource| r.uri.clone()
                    children=move |resource: Resource| view! { <ResourceCard state=state resource=resource /> }
                />
                <For
                    each=move || state.templates.get()
                    key=|t: &ResourceTemplate| t.uri_template.clone()
                    children=move |template: ResourceTemplate| view! { <TemplateCard state=state template=template /> }
                />
            </section>
        </Show>
    }
}

#[component]
fn ResourceCard(state: AppState, resource: Resource) -> impl IntoView {
    let heading = resource
        .title
        .clone()
        .unwrap_or_else(|| resource.name.clone());
    let uri = resource.uri.clone();
    let read = move |_| actions::run(state, Call::Resource { uri: uri.clone() });
    let read_word = use_messages().d("demo.read_resource", &[]);
    view! {
        <CatalogCard
            heading=heading
            description=resource.uri.clone()
            {..}
            data-resource=resource.uri.clone()
        >
            <button type="button" on:click=read>{read_word}</button>
        </CatalogCard>
    }
}

#[component]
fn TemplateCard(state: AppState, template: ResourceTemplate) -> impl IntoView {
    let heading = template
        .title
        .clone()
        .unwrap_or_else(|| template.name.clone());
    let form = match template
        .variables_schema()
        .and_then(|schema| compile(&schema).map_err(|e| e.to_string()))
    {
        Ok(spec) => {
            let form_name = template.name.clone();
            let template = template.clone();
            let on_submit =
                Callback::new(
                    move |values: Map<String, Value>| match template.expand(&values) {
                        Ok(uri) => actions::run(state, Call::Resource { uri }),
                        Err(why) => state.alert.set(Some(why)),
                    },
                );
            view! { <SchemaForm spec=spec on_submit=on_submit submit_label=use_messages().d("demo.read_resource", &[]) autofocus=false form_name=form_name /> }
                .into_any()
        }
        Err(why) => {
            view! { <p class="refused">{use_messages().d("demo.template_refused", &[("reason", &why)])}</p> }
                .into_any()
        }
    };
    view! {
        <CatalogCard
            heading=heading
            description=template.uri_template.clone()
            {..}
            data-resource-template=template.uri_template.clone()
        >
            {form}
        </CatalogCard>
    }
}
