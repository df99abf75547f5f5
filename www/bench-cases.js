// The schemas and answers every benchmark of scripts/bench uses: in Node.js
// (tests/bench/node-validate.mjs), in the validation page (bench.js) and in the render
// page (bench-render.js). One definition, so every validator and every renderer sees the
// same input.

/** The schema the SDK's book_table example sends (a recorded transcript, core/tests/fixtures/transcripts/). */
export function bookTable() {
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

/**
 * A flat form of `n` fields cycling through every kind a form holds (text with bounds,
 * email, date, integer, number, boolean, a titled single choice, a multi-choice), each
 * with a title and a description, with a valid answer for it. The last field is always
 * a plain text input, so a page can tell the whole form is in the DOM by its name.
 */
export function fields(n) {
  const properties = {};
  const content = {};
  const required = [];
  for (let i = 0; i < n; i++) {
    const name = `f${i}`;
    const title = `Field ${i}`;
    const description = `What field ${i} is for`;
    const kind = i === n - 1 ? 0 : i % 8;
    switch (kind) {
      case 0:
        properties[name] = { type: "string", title, description, minLength: 1, maxLength: 40 };
        content[name] = "hello world";
        break;
      case 1:
        properties[name] = { type: "string", format: "email", title, description };
        content[name] = "ada@example.com";
        break;
      case 2:
        properties[name] = { type: "string", format: "date", title, description, default: "2025-12-26" };
        content[name] = "2025-12-27";
        break;
      case 3:
        properties[name] = { type: "integer", title, description, minimum: 0, maximum: 100 };
        content[name] = 42;
        break;
      case 4:
        properties[name] = { type: "number", title, description, minimum: 0 };
        content[name] = 12.5;
        break;
      case 5:
        properties[name] = { type: "boolean", title, description, default: false };
        content[name] = true;
        break;
      case 6:
        properties[name] = {
          type: "string",
          title,
          description,
          oneOf: [
            { const: "in", title: "Inside" },
            { const: "out", title: "Outside" },
            { const: "bar", title: "At the bar" },
          ],
        };
        content[name] = "out";
        break;
      default:
        properties[name] = {
          type: "array",
          title,
          description,
          items: { type: "string", enum: ["x", "y", "z"] },
          maxItems: 2,
        };
        content[name] = ["x", "z"];
    }
    if (i % 2 === 0) required.push(name);
  }
  return { schema: { type: "object", properties, required }, content };
}

/** The validation cases, in the table's order. */
export function validationCases() {
  return [
    { case: "typical (book_table)", ...bookTable() },
    { case: "20 fields", ...fields(20) },
    { case: "50 fields", ...fields(50) },
    { case: "500 fields", ...fields(500) },
  ];
}

/** The render cases: form sizes. */
export const RENDER_FIELDS = [50, 500];

/**
 * Median time per call of each function of `fns` (name -> function) in nanoseconds,
 * measured side by side: each is warmed up and given a batch size that takes about
 * `batchMs`, then `rounds` rounds each run one batch of every function, in an order that
 * rotates. A function's figure is the median of its batches, so a busy moment of the
 * machine weighs on every side alike, and one-off pauses (GC, a tier-up) do not decide.
 */
export function timeSideBySide(fns, { batchMs = 40, rounds = 11 } = {}) {
  const now = () => performance.now();
  const names = Object.keys(fns);
  const size = {};
  for (const name of names) {
    const f = fns[name];
    let n = 1;
    for (;;) {
      const t0 = now();
      for (let i = 0; i < n; i++) f();
      if (now() - t0 >= batchMs) break;
      n *= 2;
    }
    size[name] = n;
  }
  const samples = Object.fromEntries(names.map((name) => [name, []]));
  for (let r = 0; r < rounds; r++) {
    for (let k = 0; k < names.length; k++) {
      const name = names[(k + r) % names.length];
      const f = fns[name];
      const n = size[name];
      const t0 = now();
      for (let i = 0; i < n; i++) f();
      samples[name].push(((now() - t0) * 1e6) / n);
    }
  }
  return Object.fromEntries(names.map((name) => [name, median(samples[name])]));
}

export function median(xs) {
  const s = [...xs].sort((a, b) => a - b);
  const mid = s.length >> 1;
  return s.length % 2 ? s[mid] : (s[mid - 1] + s[mid]) / 2;
}
