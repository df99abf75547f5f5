//! Compile and validate a typical schema and a 50-field one, against a reference measured in
//! the same run: `serde_json::from_str` of the same schema text. The ratios are what to read
//! (they survive a busy or slower machine); nothing here asserts on time.
//!
//! Run: `cargo bench -p mcp-elicit --bench schema` (add `-- --quick` for a short run).

// criterion is a native-only dev-dependency; on wasm32 this bench is an empty program so
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
    use std::time::{Duration, Instant};

    /// The SDK's booking example plus a few typical kinds.
    fn typical() -> (String, Value) {
        let schema = json!({"type":"object","title":"AlternativeDate","properties":{
            "accept_alternative":{"type":"boolean","title":"Accept Alternative","description":"Try another date?"},
            "date":{"type":"string","format":"date","default":"2025-12-26"},
            "party":{"type":"integer","minimum":1,"maximum":12},
            "seat":{"type":"string","oneOf":[{"const":"in","title":"Inside"},{"const":"out","title":"Outside"}]},
            "email":{"type":"string","format":"email"}
        },"required":["accept_alternative","party"]});
        let content = json!({"accept_alternative":true,"date":"2025-12-27","party":4,"seat":"out","email":"ada@example.com"});
        (schema.to_string(), content)
    }

    /// 50 fields cycling through every kind, with constraints.
    fn fifty() -> (String, Value) {
        let mut props = Map::new();
        let mut content = Map::new();
        for i in 0..50 {
            let name = format!("f{i}");
            let (p, v) = match i % 7 {
                0 => (
                    json!({"type":"string","minLength":1,"maxLength":40}),
                    json!("hello world"),
                ),
                1 => (
                    json!({"type":"string","pattern":"^[A-Z]{3}-[0-9]{2}$"}),
                    json!("ABC-12"),
                ),
                2 => (
                    json!({"type":"string","format":"date-time"}),
                    json!("2025-12-26T19:30:00Z"),
                ),
                3 => (
                    json!({"type":"number","minimum":0,"maximum":100}),
                    json!(42.5),
                ),
                4 => (json!({"type":"boolean","default":false}), json!(true)),
                5 => (
                    json!({"type":"string","enum":["a","b","c","d"]}),
                    json!("c"),
                ),
                _ => (
                    json!({"type":"array","items":{"anyOf":[{"const":"x","title":"X"},{"const":"y","title":"Y"}]},"maxItems":2}),
                    json!(["y"]),
                ),
            };
            props.insert(name.clone(), p);
            content.insert(name, v);
        }
        let schema = json!({"type":"object","properties":props});
        (schema.to_string(), Value::Object(content))
    }

    fn benches(c: &mut Criterion) {
        for (label, (text, content)) in [("typical", typical()), ("fifty", fifty())] {
            let schema: Value = serde_json::from_str(&text).unwrap_or_default();
            let spec = compile(&schema).unwrap_or_else(|e| panic!("bench schema refused: {e}"));
            let mut g = c.benchmark_group(label);
            g.bench_function(BenchmarkId::new("reference_parse_json", label), |b| {
                b.iter(|| serde_json::from_str::<Value>(black_box(&text)))
            });
            g.bench_function(BenchmarkId::new("compile", label), |b| {
                b.iter(|| compile(black_box(&schema)))
            });
            g.bench_function(BenchmarkId::new("validate_content", label), |b| {
                b.iter(|| validate_content(black_box(&spec), black_box(&content)))
            });
            g.finish();
        }
    }

    /// Mean time per call of `f`, run in rounds interleaved with the reference so both see the
    /// same machine load.
    fn per_call(f: &mut dyn FnMut(), iters: u32) -> Duration {
        let start = Instant::now();
        for _ in 0..iters {
            f();
        }
        start.elapsed() / iters
    }

    /// Prints compile and validate time as multiples of parsing the schema text.
    fn ratios() {
        println!("\nratios (x the time serde_json::from_str takes on the same schema text):");
        for (label, (text, content)) in [("typical", typical()), ("fifty", fifty())] {
            let schema: Value = serde_json::from_str(&text).unwrap_or_default();
            let Ok(spec) = compile(&schema) else { return };
            let (mut parse, mut comp, mut val) = (Duration::ZERO, Duration::ZERO, Duration::ZERO);
            for _ in 0..20 {
                parse += per_call(
                    &mut || drop(black_box(serde_json::from_str::<Value>(black_box(&text)))),
                    200,
                );
                comp += per_call(&mut || drop(black_box(compile(black_box(&schema)))), 200);
                val += per_call(
                    &mut || {
                        drop(black_box(validate_content(
                            black_box(&spec),
                            black_box(&content),
                        )))
                    },
                    200,
                );
            }
            let p = parse.as_secs_f64().max(f64::MIN_POSITIVE);
            println!(
                "  {label:8} compile {:6.2}x   validate_content {:6.2}x",
                comp.as_secs_f64() / p,
                val.as_secs_f64() / p
            );
        }
    }

    pub fn run() {
        let mut c = Criterion::default().configure_from_args();
        benches(&mut c);
        c.final_summary();
        ratios();
    }
}
