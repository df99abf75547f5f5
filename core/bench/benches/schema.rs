//! Our compile + validate against the `jsonschema` crate's, natively, on the cases every
//! benchmark of `scripts/bench` uses (`www/bench-cases.js`, mirrored here): the SDK's
//! book_table schema, and flat forms of 20, 50 and 500 fields of every kind.
//!
//! - `once/<who>/<case>`: compile the schema and validate one answer (ours: `compile` then
//!   `validate_content`; jsonschema: build a validator with formats checked, as ours are,
//!   then `validate`).
//! - `repeated/<who>/<case>`: validate with what was compiled before.
//!
//! `scripts/bench` reads criterion's medians (`target/criterion/*/*/*/new/estimates.json`)
//! and reports ratios (jsonschema / ours). Nothing here asserts on time.
//!
//! Run: `cargo bench -p mcp-elicit-bench --bench schema` (criterion's own flags follow `--`).

// criterion is a native-only dependency; on wasm32 this bench is an empty program so
// `--all-targets` builds for wasm32 still succeed.
#[cfg(target_arch = "wasm32")]
fn main() {}

#[cfg(not(target_arch = "wasm32"))]
fn main() {
    native::run();
}

#[cfg(not(target_arch = "wasm32"))]
mod native {
    use criterion::{BenchmarkId, Criterion};
    use mcp_elicit::schema::compile;
    use mcp_elicit::validate::validate_content;
    use serde_json::{json, Map, Value};
    use std::hint::black_box;
    use std::time::Duration;

    /// The schema the SDK's book_table example sends, and a valid answer.
    fn book_table() -> (Value, Value) {
        let schema = json!({"type":"object","title":"AlternativeDate","properties":{
            "accept_alternative":{"type":"boolean","title":"Accept Alternative","description":"Try another date?"},
            "date":{"type":"string","title":"Date","description":"Alternative date (YYYY-MM-DD)","default":"2025-12-26"}
        },"required":["accept_alternative"]});
        let content = json!({"accept_alternative":true,"date":"2025-12-27"});
        (schema, content)
    }

    /// A flat form of `n` fields cycling through every kind, as `fields(n)` in www/bench-cases.js.
    fn fields(n: usize) -> (Value, Value) {
        let mut props = Map::new();
        let mut content = Map::new();
        let mut required = Vec::new();
        for i in 0..n {
            let name = format!("f{i}");
            let title = format!("Field {i}");
            let description = format!("What field {i} is for");
            let kind = if i + 1 == n { 0 } else { i % 8 };
            let (p, v) = match kind {
                0 => (
                    json!({"type":"string","title":title,"description":description,"minLength":1,"maxLength":40}),
                    json!("hello world"),
                ),
                1 => (
                    json!({"type":"string","format":"email","title":title,"description":description}),
                    json!("ada@example.com"),
                ),
                2 => (
                    json!({"type":"string","format":"date","title":title,"description":description,"default":"2025-12-26"}),
                    json!("2025-12-27"),
                ),
                3 => (
                    json!({"type":"integer","title":title,"description":description,"minimum":0,"maximum":100}),
                    json!(42),
                ),
                4 => (
                    json!({"type":"number","title":title,"description":description,"minimum":0}),
                    json!(12.5),
                ),
                5 => (
                    json!({"type":"boolean","title":title,"description":description,"default":false}),
                    json!(true),
                ),
                6 => (
                    json!({"type":"string","title":title,"description":description,"oneOf":[
                        {"const":"in","title":"Inside"},{"const":"out","title":"Outside"},{"const":"bar","title":"At the bar"}]}),
                    json!("out"),
                ),
                _ => (
                    json!({"type":"array","title":title,"description":description,
                        "items":{"type":"string","enum":["x","y","z"]},"maxItems":2}),
                    json!(["x", "z"]),
                ),
            };
            if i % 2 == 0 {
                required.push(Value::String(name.clone()));
            }
            props.insert(name.clone(), p);
            content.insert(name, v);
        }
        let schema = json!({"type":"object","properties":props,"required":required});
        (schema, Value::Object(content))
    }

    fn cases() -> Vec<(&'static str, Value, Value)> {
        let (s, c) = book_table();
        let mut out = vec![("typical", s, c)];
        for (label, n) in [("20_fields", 20), ("50_fields", 50), ("500_fields", 500)] {
            let (s, c) = fields(n);
            out.push((label, s, c));
        }
        out
    }

    /// The peer's validator, checking formats as ours does (2020-12 treats `format` as an
    /// annotation unless asked).
    fn peer(schema: &Value) -> Option<jsonschema::Validator> {
        jsonschema::options()
            .should_validate_formats(true)
            .build(schema)
            .ok()
    }

    fn benches(c: &mut Criterion) {
        for (label, schema, content) in cases() {
            // Both must accept the answer, or the figures compare different work.
            let Ok(spec) = compile(&schema) else {
                eprintln!("{label}: our compiler refuses the schema; skipped");
                continue;
            };
            let Some(validator) = peer(&schema) else {
                eprintln!("{label}: jsonschema refuses the schema; skipped");
                continue;
            };
            if validate_content(&spec, &content).is_err() || validator.validate(&content).is_err() {
                eprintln!("{label}: a validator refuses the answer; skipped");
                continue;
            }

            let mut once = c.benchmark_group("once");
            once.bench_function(BenchmarkId::new("ours", label), |b| {
                b.iter(|| {
                    compile(black_box(&schema))
                        .map(|spec| validate_content(&spec, black_box(&content)).is_ok())
                })
            });
            once.bench_function(BenchmarkId::new("jsonschema", label), |b| {
                b.iter(|| peer(black_box(&schema)).map(|v| v.validate(black_box(&content)).is_ok()))
            });
            once.finish();

            let mut repeated = c.benchmark_group("repeated");
            repeated.bench_function(BenchmarkId::new("ours", label), |b| {
                b.iter(|| validate_content(black_box(&spec), black_box(&content)).is_ok())
            });
            repeated.bench_function(BenchmarkId::new("jsonschema", label), |b| {
                b.iter(|| validator.validate(black_box(&content)).is_ok())
            });
            repeated.finish();
        }
    }

    pub fn run() {
        // Short by default (scripts/bench must take minutes, not more); criterion's flags
        // (e.g. `-- --measurement-time 10`) override.
        let mut c = Criterion::default()
            .warm_up_time(Duration::from_millis(500))
            .measurement_time(Duration::from_secs(2))
            .sample_size(30)
            .configure_from_args();
        benches(&mut c);
        c.final_summary();
    }
}
