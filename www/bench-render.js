// Render benchmark: `elicit()` of a 50- and a 500-field form until the form is painted,
// against a plain-DOM floor in the same page (createElement per control: the label, the
// control, the description, the same controls the form has). Both sides are timed the
// same way, alternating, from just after a painted frame:
//   - `busy`: the call, until the form is in the DOM and every task it queued has run,
//     then style and layout (forced), plus the next frame's own rendering until it is
//     painted; the idle wait for that frame's vsync is left out. Headless Chromium draws
//     at 60 Hz whatever the flags, so a wall time to the next frame is rounded up to a
//     16.7 ms step, which would hide a 50-field form's cost. The ratio uses this figure.
//   - `wall`: the whole wall time from the call to the painted frame (reported too).
// Ratio = ours / floor.
//
// Query: ?fields=50,500 (the sizes), ?reps=N (timed runs per size and side).
import init, { elicit, releaseElicitation } from "./pkg/mcp_elicit_web.js";
import { fields, median, RENDER_FIELDS } from "./bench-cases.js";

/**
 * Timed runs per size and side when the query does not say; the median is reported. With
 * 15 runs after 2 warm-ups, the 50-field ratio moved between 1.37 and 1.66 from one page
 * load to the next; with 40 after 10, between 1.44 and 1.58 over seven loads (2026-12-05):
 * what is left is the loads differing, not the runs within one.
 */
const DEFAULT_REPS = 40;
/**
 * Untimed runs per size and side first: wasm tier-up, style caches, the allocator. Both
 * sides take some ten runs to settle (a 60-run trace of 50 fields: ours 23, 28, 17, 18, 15,
 * 26, 22 ms before settling near 13, the floor 16, 15, 21, 16 ms before settling near 9).
 */
const WARMUP_REPS = 10;

/**
 * Resolves after the next frame has been painted (a task queued from requestAnimationFrame
 * runs after that frame), with the time the frame's rAF callbacks ran.
 */
function nextPaint() {
  return new Promise((resolve) => {
    requestAnimationFrame(() => {
      const frameStart = performance.now();
      const channel = new MessageChannel();
      channel.port1.onmessage = () => resolve(frameStart);
      channel.port2.postMessage(null);
    });
  });
}

/** Resolves in a new task: every microtask queued before has run. */
function nextTask() {
  return new Promise((resolve) => {
    const channel = new MessageChannel();
    channel.port1.onmessage = () => resolve();
    channel.port2.postMessage(null);
  });
}

/** Resolves once `test()` holds, checked now and on every DOM change under `root`. */
function whenInDom(root, test) {
  if (test()) return Promise.resolve();
  return new Promise((resolve) => {
    const observer = new MutationObserver(() => {
      if (test()) {
        observer.disconnect();
        resolve();
      }
    });
    observer.observe(root, { childList: true, subtree: true });
  });
}

/** The floor: the form's controls built one createElement at a time, nothing else. */
function plainForm(slot, message, schema) {
  const card = document.createElement("section");
  const p = document.createElement("p");
  p.textContent = message;
  card.append(p);
  const form = document.createElement("div");
  form.setAttribute("role", "form");
  const required = new Set(schema.required ?? []);
  for (const [name, prop] of Object.entries(schema.properties)) {
    const row = document.createElement("div");
    const id = `floor-${name}`;
    const descId = `${id}-desc`;
    const desc = document.createElement("p");
    desc.id = descId;
    desc.textContent = prop.description ?? "";
    if (prop.type === "array") {
      const set = document.createElement("fieldset");
      const legend = document.createElement("legend");
      legend.textContent = prop.title ?? name;
      set.append(legend);
      set.setAttribute("aria-describedby", descId);
      for (const value of prop.items.enum) {
        const label = document.createElement("label");
        const box = document.createElement("input");
        box.type = "checkbox";
        box.name = name;
        box.value = value;
        label.append(box, value);
        set.append(label);
      }
      row.append(set, desc);
    } else {
      const label = document.createElement("label");
      label.htmlFor = id;
      label.textContent = prop.title ?? name;
      let control;
      if (prop.oneOf || prop.enum) {
        control = document.createElement("select");
        for (const o of prop.oneOf ?? prop.enum.map((v) => ({ const: v, title: v }))) {
          const option = document.createElement("option");
          option.value = o.const;
          option.textContent = o.title ?? o.const;
          control.append(option);
        }
      } else {
        control = document.createElement("input");
        if (prop.type === "boolean") control.type = "checkbox";
        else if (prop.type === "integer" || prop.type === "number") control.type = "number";
        else if (prop.format === "email") control.type = "email";
        else if (prop.format === "date") control.type = "date";
        else control.type = "text";
        if (prop.default !== undefined) {
          if (prop.type === "boolean") control.checked = prop.default;
          else control.value = String(prop.default);
        }
      }
      control.id = id;
      control.name = name;
      control.setAttribute("aria-describedby", descId);
      if (required.has(name)) {
        control.required = true;
        control.setAttribute("aria-required", "true");
      }
      row.append(label, control, desc);
    }
    form.append(row);
  }
  const buttons = document.createElement("div");
  for (const text of ["Submit", "Decline", "Cancel"]) {
    const b = document.createElement("button");
    b.type = "button";
    b.textContent = text;
    buttons.append(b);
  }
  card.append(form, buttons);
  slot.replaceChildren(card);
}

/** One timed render into a fresh slot: { busy, wall } in milliseconds (see the top). */
async function timeOnce(stage, side, params, lastName) {
  const slot = document.createElement("div");
  stage.replaceChildren(slot);
  await nextPaint();
  const t0 = performance.now();
  let answer = null;
  if (side === "ours") answer = elicit(slot, params);
  else plainForm(slot, params.message, params.requestedSchema);
  const inDom = whenInDom(slot, () => slot.querySelector(`[name="${lastName}"]`) !== null);
  await (answer === null
    ? inDom
    : Promise.race([
        inDom,
        answer.then((a) => {
          throw new Error(`elicit answered ${JSON.stringify(a)} before its form was in the DOM`);
        }),
      ]));
  await nextTask();
  slot.getBoundingClientRect(); // style and layout, now
  const t1 = performance.now();
  const frameStart = await nextPaint();
  const t2 = performance.now();
  if (side === "ours") {
    releaseElicitation(slot);
    await answer;
  }
  stage.replaceChildren();
  return { busy: t1 - t0 + (t2 - frameStart), wall: t2 - t0 };
}

async function run() {
  const query = new URLSearchParams(location.search);
  const sizes = (query.get("fields") ?? RENDER_FIELDS.join(",")).split(",").map(Number).filter((n) => n > 0);
  const reps = Number(query.get("reps")) || DEFAULT_REPS;
  await init();
  const stage = document.getElementById("stage");
  const results = [];
  for (const n of sizes) {
    const { schema } = fields(n);
    const params = { message: `A form of ${n} fields`, requestedSchema: schema };
    const lastName = `f${n - 1}`;
    const samples = { ours: [], floor: [] };
    for (let r = 0; r < WARMUP_REPS + reps; r++) {
      // Alternate which side goes first, so neither always runs on a warmer page.
      const order = r % 2 ? ["floor", "ours"] : ["ours", "floor"];
      for (const side of order) {
        const t = await timeOnce(stage, side, params, lastName);
        if (r >= WARMUP_REPS) samples[side].push(t);
      }
    }
    const med = (side, key) => median(samples[side].map((t) => t[key]));
    const round = (xs, key) => xs.map((t) => +t[key].toFixed(2));
    results.push({
      case: `elicit() ${n} fields, to painted`,
      fields: n,
      ours_ms: +med("ours", "busy").toFixed(2),
      floor_ms: +med("floor", "busy").toFixed(2),
      ratio: +(med("ours", "busy") / med("floor", "busy")).toFixed(2),
      wall_ms: { ours: +med("ours", "wall").toFixed(2), floor: +med("floor", "wall").toFixed(2) },
      samples_busy_ms: { ours: round(samples.ours, "busy"), floor: round(samples.floor, "busy") },
    });
  }
  return results;
}

const status = document.querySelector("[data-testid=bench-status]");
const out = document.querySelector("[data-testid=bench-results]");
try {
  const results = await run();
  window.benchResults = results;
  out.textContent = JSON.stringify(results, null, 2);
  status.textContent = "done";
} catch (e) {
  window.benchError = String(e && e.stack ? e.stack : e);
  status.textContent = `failed: ${window.benchError}`;
}
