// Gathers what scripts/bench measured into ONE table of ratios, printed, and written as
// JSON and markdown. Reports; asserts nothing (the exit status says only whether the
// inputs were there).
//
//   node tests/bench/report.mjs --dir artifacts/bench --criterion TARGET/criterion
//
// Reads, from --dir: node.json (node-validate.mjs), browser.json (browser.mjs),
// sizes.json (scripts/bench); criterion's medians from --criterion. Writes bench.json and
// bench.md to --dir.
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { parseArgs } from "node:util";

const { values } = parseArgs({
  options: { dir: { type: "string", default: "artifacts/bench" }, criterion: { type: "string", default: "" } },
});
const dir = values.dir;
const load = (name) => {
  const path = join(dir, name);
  return existsSync(path) ? JSON.parse(readFileSync(path, "utf8")) : null;
};
const node = load("node.json");
const browser = load("browser.json");
const sizes = load("sizes.json");

/** The goals of issue 12. A ratio goal is `{ atLeast }` or `{ atMost }`. */
const GOALS = {
  cfworker: { atLeast: 1 },
  ajv: { atLeast: 50 },
  render: { atMost: 1.5 },
  packageKb: { atMost: 250 },
  coreKb: { atMost: 60 },
};

const rows = [];
const missing = [];

function goalText(goal, unit = "×") {
  if (!goal) return "—";
  return "atLeast" in goal ? `≥ ${goal.atLeast}${unit}` : `≤ ${goal.atMost}${unit === "×" ? "×" : ` ${unit}`}`;
}
function meets(goal, value) {
  if (!goal || value == null || !Number.isFinite(value)) return null;
  return "atLeast" in goal ? value >= goal.atLeast : value <= goal.atMost;
}
/** Three significant digits, no exponent. */
const sig = (x) => (x >= 100 ? String(Math.round(x)) : x.toPrecision(3));
/** Nanoseconds in the unit that keeps three significant digits readable. */
const time = (ns) => (ns < 1e3 ? `${sig(ns)} ns` : ns < 1e6 ? `${sig(ns / 1e3)} µs` : `${sig(ns / 1e6)} ms`);
const ms = (x) => `${x.toFixed(1)} ms`;
const kb = (bytes) => `${(bytes / 1000).toFixed(1)} KB`;

function add({ group, what, ours, peer, ratio, goal, goalUnit, value }) {
  const ok = meets(goal, value ?? ratio);
  rows.push({
    group,
    what,
    ours,
    peer: peer ?? "—",
    ratio: ratio == null ? "—" : `${ratioText(ratio, goal)}×`,
    ratio_value: ratio ?? null,
    goal: goalText(goal, goalUnit),
    met: ok === null ? "—" : ok ? "yes" : "no",
  });
}

/**
 * A ratio in three significant digits (two below 0.1), with more where rounding would show
 * a miss as meeting `goal`: 0.9996 against "≥ 1×" is "0.9996", not "1.00".
 */
function ratioText(ratio, goal) {
  let text = ratio >= 10 ? ratio.toFixed(1) : ratio >= 1 ? ratio.toFixed(2) : ratio >= 0.1 ? ratio.toPrecision(3) : ratio.toPrecision(2);
  for (let digits = 3; digits <= 6 && meets(goal, ratio) === false && meets(goal, Number(text)); digits++) {
    text = ratio.toFixed(digits);
  }
  return text;
}

/**
 * With several page loads, a row is the load with the median ratio (browser.mjs): each
 * load's ratio, printed as the row's is.
 */
function ofLoads(r, goal) {
  return r.loads?.length > 1
    ? `; the median of ${r.loads.length} page loads: ${r.loads.map((x) => `${ratioText(x, goal)}×`).join(", ")}`
    : "";
}

function validationRows(env, result) {
  if (!result) {
    missing.push(`validation (${env})`);
    return;
  }
  for (const r of result.rows) {
    const once = r.mode === "once";
    const how = once ? "validateContent (compile + validate)" : "compiled handle, validate again";
    add({
      group: env,
      what: `${r.case}: ${how} vs ${once ? "" : "a reused "}@cfworker/json-schema${ofLoads(r, once ? GOALS.cfworker : null)}`,
      ours: time(r.ours_ns),
      peer: time(r.cfworker_ns),
      ratio: r.cfworker_ns / r.ours_ns,
      goal: once ? GOALS.cfworker : null,
    });
    add({
      group: env,
      what: `${r.case}: ${how} vs ${once ? "ajv + ajv-formats (compile + validate)" : "ajv's compiled function"}`,
      ours: time(r.ours_ns),
      peer: time(r.ajv_ns),
      ratio: r.ajv_ns / r.ours_ns,
      goal: once ? GOALS.ajv : null,
    });
  }
  if (!result.compiledHandle) missing.push(`the compiled handle in ${env}: the core exports no compileValidator`);
}

validationRows("Node", node);
validationRows("Chromium", browser?.validate);

// Native: criterion's medians, jsonschema / ours.
const CRITERION_CASES = [
  ["typical", "typical (book_table)"],
  ["20_fields", "20 fields"],
  ["50_fields", "50 fields"],
  ["500_fields", "500 fields"],
];
function criterionMedian(group, who, label) {
  const path = join(values.criterion, group, who, label, "new", "estimates.json");
  if (!values.criterion || !existsSync(path)) return null;
  return JSON.parse(readFileSync(path, "utf8")).median?.point_estimate ?? null;
}
for (const [group, how] of [
  ["once", "compile + validate"],
  ["repeated", "compiled, validate again"],
]) {
  for (const [label, name] of CRITERION_CASES) {
    const ours = criterionMedian(group, "ours", label);
    const peer = criterionMedian(group, "jsonschema", label);
    if (ours == null || peer == null) {
      missing.push(`native ${group} ${label}`);
      continue;
    }
    add({
      group: "native",
      what: `${name}: ${how} vs the jsonschema crate (criterion)`,
      ours: time(ours),
      peer: time(peer),
      ratio: peer / ours,
    });
  }
}

// Render: ours / floor.
if (browser?.render) {
  for (const r of browser.render) {
    add({
      group: "Chromium",
      what: `render ${r.fields} fields: elicit() to the painted form vs a plain-DOM floor (ours / floor)${ofLoads(r, GOALS.render)}`,
      ours: ms(r.ours_ms),
      peer: ms(r.floor_ms),
      ratio: r.ours_ms / r.floor_ms,
      goal: GOALS.render,
    });
  }
} else missing.push("render");

// Sizes: gzip -9, against the goals.
if (sizes) {
  const pkg = sizes.entries["mcp-elicit"];
  const client = sizes.entries["mcp-elicit/client"];
  add({
    group: "size",
    what: `npm package, entry "mcp-elicit" (elicit, the element, validation): wasm + JS a page loads (${pkg.files.length} files), gzip -9; the wasm ${kb(pkg.wasm_raw)} raw`,
    ours: kb(pkg.gzip),
    goal: GOALS.packageKb,
    goalUnit: "KB",
    value: pkg.gzip / 1000,
  });
  add({
    group: "size",
    what: `npm package, entry "mcp-elicit/client" (the same with McpClient, a wasm of its own), gzip -9; the wasm ${kb(client.wasm_raw)} raw`,
    ours: kb(client.gzip),
  });
  add({
    group: "size",
    what: `core JS API wasm (compileSchema, validateContent), release${sizes.core.wasm_opt ? " + wasm-opt" : ""}, gzip -9; ${kb(sizes.core.wasm_raw)} raw`,
    ours: kb(sizes.core.gzip),
    goal: GOALS.coreKb,
    goalUnit: "KB",
    value: sizes.core.gzip / 1000,
  });
} else missing.push("sizes");

// init(): the figure, and the ratio against the same bytes already fetched.
if (browser?.init) {
  const i = browser.init;
  add({
    group: "Chromium",
    what: "init(): fetch + compile + instantiate of the package's wasm vs the same bytes already fetched",
    ours: ms(i.init_ms),
    peer: ms(i.prefetched_ms),
    ratio: i.init_ms / i.prefetched_ms,
  });
} else missing.push("init");

const header = ["what", "ours", "peer", "ratio", "goal", "met?"];
const cells = (r) => [`${r.group}: ${r.what}`, r.ours, r.peer, r.ratio, r.goal, r.met];
const md = [
  `| ${header.join(" | ")} |`,
  `|${header.map(() => "---").join("|")}|`,
  ...rows.map((r) => `| ${cells(r).join(" | ")} |`),
].join("\n");
const notes = [
  "Every row's sides were measured side by side in the same run (interleaved batches; medians).",
  "Validation ratios: peer time / our time (> 1: ours is faster). Render: ours / floor (< 1.5 is the goal).",
  "init ratio: a fresh load / the same bytes already fetched (there is no peer; the figure is the point).",
  "KB = 1000 bytes.",
];
const summary = {
  date: new Date().toISOString(),
  machine: sizes?.machine ?? null,
  node: node?.node ?? null,
  chromium: browser?.chromium ?? null,
  rows,
  missing,
};
writeFileSync(join(dir, "bench.json"), JSON.stringify(summary, null, 2) + "\n");
const m = summary.machine;
const measured = `Measured ${summary.date.slice(0, 16).replace("T", " ")} UTC by \`scripts/bench\`` +
  (m ? ` on ${m.nproc} × ${m.cpu}` : "") + `, Node ${summary.node ?? "?"}, Chromium ${summary.chromium ?? "?"} (headless).`;
writeFileSync(
  join(dir, "bench.md"),
  measured + "\n\n" + md + "\n\n" + notes.map((n) => `- ${n}`).join("\n") + "\n" +
    (missing.length ? `- Not measured: ${missing.join("; ")}.\n` : ""),
);

// The terminal table: plain columns.
const widths = header.map((h, k) => Math.max(h.length, ...rows.map((r) => cells(r)[k].length)));
const line = (cs) => cs.map((c, k) => (k === 0 ? c.padEnd(widths[k]) : c.padStart(widths[k]))).join("  ");
console.log(line(header));
for (const r of rows) console.log(line(cells(r)));
for (const n of notes) console.log(`  ${n}`);
if (missing.length) console.log(`  not measured: ${missing.join("; ")}`);
