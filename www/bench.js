// Browser benchmark of the core's JS API (compileSchema, validateContent), as ratios
// against a reference measured in the same run: JSON.parse of the same schema text.
// Ratios, not absolute times, are what is reported, because absolute times say more
// about the machine than about the code.
import init, { compileSchema, validateContent } from "./pkg/mcp_elicit_web.js";

/** The schema the SDK's book_table example sends (a recorded transcript, core/tests/fixtures/transcripts/). */
function bookTable() {
  return {
    schema: {
      type: "object",
      title: "AlternativeDate",
      properties: {
        accept_alternative: { type: "boolean", title: "Accept Alternative", description: "Try another date?" },
        date: { type: "string", title: "Date", description: "Alternative date (YYYY-MM-DD)", default: "2025-12-26" },
      },
      required: ["accept_alternative"],
    },
    content: { accept_alternative: true, date: "2025-12-27" },
  };
}

/** A wide form: 50 fields cycling through every kind. */
function wide() {
  const properties = {};
  const content = {};
  const required = [];
  for (let i = 0; i < 50; i++) {
    const name = `f${i}`;
    switch (i % 6) {
      case 0:
        properties[name] = { type: "string", minLength: 1, maxLength: 40, title: `Text ${i}` };
        content[name] = "hello world";
        break;
      case 1:
        properties[name] = { type: "string", format: "email" };
        content[name] = "a@example.com";
        break;
      case 2:
        properties[name] = { type: "integer", minimum: 0, maximum: 100 };
        content[name] = 42;
        break;
      case 3:
        properties[name] = { type: "boolean", default: false };
        content[name] = true;
        break;
      case 4:
        properties[name] = { type: "string", oneOf: [{ const: "a", title: "A" }, { const: "b", title: "B" }] };
        content[name] = "b";
        break;
      default:
        properties[name] = { type: "array", items: { type: "string", enum: ["x", "y", "z"] }, maxItems: 2 };
        content[name] = ["x", "z"];
    }
    required.push(name);
  }
  return { schema: { type: "object", properties, required }, content };
}

/** Median nanoseconds per call of `f`, over 7 batches sized to take ~30 ms each. */
function timePerCall(f) {
  let n = 1;
  for (;;) {
    const t0 = performance.now();
    for (let i = 0; i < n; i++) f();
    if (performance.now() - t0 > 30) break;
    n *= 2;
  }
  const samples = [];
  for (let b = 0; b < 7; b++) {
    const t0 = performance.now();
    for (let i = 0; i < n; i++) f();
    samples.push(((performance.now() - t0) * 1e6) / n);
  }
  samples.sort((a, b) => a - b);
  return samples[3];
}

function bench(name, { schema, content }) {
  const text = JSON.stringify(schema);
  const reference = timePerCall(() => JSON.parse(text));
  const compile = timePerCall(() => compileSchema(schema));
  const validate = timePerCall(() => validateContent(schema, content));
  const check = validateContent(schema, content);
  if (!check.ok) throw new Error(`${name}: the benchmark's own content is invalid: ${JSON.stringify(check.errors)}`);
  return {
    case: name,
    reference_json_parse_ns: Math.round(reference),
    compile_ns: Math.round(compile),
    validate_ns: Math.round(validate),
    compile_ratio: +(compile / reference).toFixed(2),
    validate_ratio: +(validate / reference).toFixed(2),
  };
}

const status = document.querySelector("[data-testid=bench-status]");
const out = document.querySelector("[data-testid=bench-results]");
try {
  await init();
  const results = [bench("book_table", bookTable()), bench("wide_50_fields", wide())];
  window.benchResults = results;
  out.textContent = JSON.stringify(results, null, 2);
  status.textContent = "done";
} catch (e) {
  window.benchError = String(e && e.message ? e.message : e);
  status.textContent = `failed: ${window.benchError}`;
}
