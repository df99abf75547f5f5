// Validation benchmark, shared by Node.js (tests/bench/node-validate.mjs) and the page
// (bench.js): the core's JS API against the validators the TypeScript SDK offers, called
// the way the SDK calls them (its validation/cfworker-provider and validation/ajv-provider):
//   - @cfworker/json-schema: `new Validator(schema, "2020-12", true).validate(content)`
//     (draft 2020-12, short-circuit: the provider's defaults);
//   - ajv + ajv-formats: one `new Ajv({strict: false, validateFormats: true,
//     validateSchema: false, allErrors: true})` with the formats added, then
//     `ajv.compile(schema)(content)`.
// "once" = compile + validate one answer (ours: validateContent). "repeated" = validate
// with what was compiled before: our compiled handle, a reused cfworker Validator, ajv's
// compiled function. Ratio = peer time / our time (> 1: we are faster).
import { timeSideBySide, validationCases } from "./bench-cases.js";

/**
 * `core`: { validateContent, compileValidator? }; `peers`: { Validator, Ajv, addFormats }.
 * Returns one row per case and mode: { case, mode, ours_ns, cfworker_ns, ajv_ns }.
 */
export function measureValidation(core, peers) {
  const { Validator, Ajv, addFormats } = peers;
  const ajv = new Ajv({ strict: false, validateFormats: true, validateSchema: false, allErrors: true });
  addFormats(ajv);
  const handleOf = typeof core.compileValidator === "function" ? core.compileValidator : null;
  const rows = [];
  for (const { case: name, schema, content } of validationCases()) {
    checkAllAccept(name, core, Validator, ajv, schema, content);
    // ajv keeps what it compiled, keyed by the schema object: forget it each time, or
    // the second compile is a cache look-up.
    const once = timeSideBySide({
      ours: () => core.validateContent(schema, content),
      cfworker: () => new Validator(schema, "2020-12", true).validate(content),
      ajv: () => {
        ajv.compile(schema)(content);
        ajv.removeSchema(schema);
      },
    });
    rows.push(row(name, "once", once));
    if (handleOf) {
      const handle = handleOf(schema);
      const validator = new Validator(schema, "2020-12", true);
      const compiled = ajv.compile(schema);
      const repeated = timeSideBySide({
        ours: () => handle.validate(content),
        cfworker: () => validator.validate(content),
        ajv: () => compiled(content),
      });
      rows.push(row(name, "repeated", repeated));
      handle.free?.();
      ajv.removeSchema(schema);
    }
  }
  return { rows, compiledHandle: handleOf !== null };
}

function row(name, mode, { ours, cfworker, ajv }) {
  return { case: name, mode, ours_ns: Math.round(ours), cfworker_ns: Math.round(cfworker), ajv_ns: Math.round(ajv) };
}

/** Every validator must accept the case's answer, or the figures compare different work. */
function checkAllAccept(name, core, Validator, ajv, schema, content) {
  const ours = core.validateContent(schema, content);
  if (!ours.ok) throw new Error(`${name}: validateContent refuses the answer: ${JSON.stringify(ours.errors)}`);
  const cf = new Validator(schema, "2020-12", true).validate(content);
  if (!cf.valid) throw new Error(`${name}: cfworker refuses the answer: ${JSON.stringify(cf.errors)}`);
  const fn = ajv.compile(schema);
  if (!fn(content)) throw new Error(`${name}: ajv refuses the answer: ${JSON.stringify(fn.errors)}`);
  ajv.removeSchema(schema);
  if (typeof core.compileValidator === "function") {
    const handle = core.compileValidator(schema);
    const again = handle.validate(content);
    handle.free?.();
    if (again?.ok !== true) throw new Error(`${name}: the compiled handle refuses the answer: ${JSON.stringify(again.errors)}`);
  }
}
