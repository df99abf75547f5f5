// Runs the benchmark pages (www/bench*.html) in headless Chromium and writes what each
// page reports as JSON. Speed is reported, never asserted.
//
//   node tests/bench/browser.mjs [--pages render,validate,init] [--pkg DIR] [--core DIR]
//                                [--peers DIR] [--out FILE] [--query-render Q]
//                                [--loads N]
//
// The render and validation pages are each loaded N times (default 1; scripts/bench asks
// for 3), each load a fresh page: a ratio moves more between loads than between the runs
// within one (render at 50 fields from 1.35× to 1.54× over three loads in a row; book_table
// against cfworker from 0.97× to 1.05×), so one load decides nothing near a goal's line.
// Each row is then the one of the load with the median ratio (for validation, the ratio
// against cfworker, the goal that is near), and `loads` lists every load's ratio.
//
// It serves www/ at /, the browser package (--pkg, default www/pkg: scripts/build-www's
// output) at /pkg/, the core's JS API built for the web (--core) at /core/, and the peer
// validators bundled for the browser (--peers) at /peers/. scripts/bench passes all three.
import { mkdtempSync, rmSync, writeFileSync, mkdirSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { tmpdir } from "node:os";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";
import { chromium } from "playwright-core";
import { serveFiles } from "../npm/serve.mjs";

const repo = resolve(dirname(fileURLToPath(import.meta.url)), "../..");

/** Upper bound on one page's run: a bound against a hung page, not a speed expectation. */
const PAGE_TIMEOUT_MS = 240_000;

const { values } = parseArgs({
  options: {
    pages: { type: "string", default: "render" },
    pkg: { type: "string", default: join(repo, "www/pkg") },
    core: { type: "string", default: "" },
    peers: { type: "string", default: "" },
    out: { type: "string", default: "" },
    "query-render": { type: "string", default: "" },
    loads: { type: "string", default: "1" },
  },
});

const mounts = [
  ["/pkg/", resolve(values.pkg)],
  ...(values.core ? [["/core/", resolve(values.core)]] : []),
  ...(values.peers ? [["/peers/", resolve(values.peers)]] : []),
];
const { server, origin } = await serveFiles((path) => {
  for (const [prefix, root] of mounts) {
    if (path.startsWith(prefix)) return [root, path.slice(prefix.length - 1)];
  }
  return [join(repo, "www"), path];
});

const pages = {
  render: `bench-render.html${values["query-render"] ? `?${values["query-render"]}` : ""}`,
  validate: "bench.html",
  init: "bench-init.html",
};

const profile = mkdtempSync(join(tmpdir(), "mce-bench-chromium-"));
const browser = await chromium.launchPersistentContext(profile, {
  executablePath: process.env.CHROMIUM ?? "/usr/bin/chromium",
  headless: true,
  viewport: { width: 1280, height: 1024 },
  args: [
    "--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
    "--disable-background-networking", "--disable-component-update", "--disable-sync",
  ],
});

const results = { chromium: browser.browser()?.version() ?? null };
let failed = false;
try {
  const loadCount = Number(values.loads);
  if (!Number.isInteger(loadCount) || loadCount < 1) {
    throw new Error(`--loads must be a whole number of 1 or more, not ${JSON.stringify(values.loads)}`);
  }
  const loads = { render: [], validate: [] };
  const runs = values.pages
    .split(",")
    .filter(Boolean)
    .flatMap((name) => Array(name in loads ? loadCount : 1).fill(name));
  for (const name of runs) {
    const page = await browser.newPage();
    const logs = [];
    page.on("console", (m) => logs.push(`${m.type()}: ${m.text()}`));
    page.on("pageerror", (e) => logs.push(`pageerror: ${e.message}`));
    const url = pages[name];
    if (!url) throw new Error(`no benchmark page named ${name}`);
    process.stderr.write(`[bench] ${origin}/${url}\n`);
    await page.goto(`${origin}/${url}`);
    await page.waitForFunction(() => window.benchResults || window.benchError, null, { timeout: PAGE_TIMEOUT_MS, polling: 250 });
    const error = await page.evaluate(() => window.benchError ?? null);
    if (error) {
      failed = true;
      process.stderr.write(`[bench] ${name} failed: ${error}\n${logs.join("\n")}\n`);
    } else if (name in loads) {
      loads[name].push(await page.evaluate(() => window.benchResults));
    } else {
      results[name] = await page.evaluate(() => window.benchResults);
    }
    await page.close();
  }
  // The ratios the report prints: ours / floor from the row's times, cfworker / ours.
  if (loads.render.length > 0) results.render = medianLoad(loads.render, (r) => r.ours_ms / r.floor_ms);
  if (loads.validate.length > 0) {
    results.validate = {
      ...loads.validate[0],
      rows: medianLoad(
        loads.validate.map((v) => v.rows),
        (r) => r.cfworker_ns / r.ours_ns,
      ),
    };
  }
} finally {
  await browser.close();
  server.close();
  rmSync(profile, { recursive: true, force: true });
}

/**
 * Row by row, the row of the load whose `ratio(row)` is the median (the lower middle one
 * for an even count), with every load's ratio in `loads`, in load order.
 */
function medianLoad(perLoad, ratio) {
  return perLoad[0].map((_, i) => {
    const rows = perLoad.map((load) => load[i]);
    const sorted = [...rows].sort((a, b) => ratio(a) - ratio(b));
    return { ...sorted[(sorted.length - 1) >> 1], loads: rows.map(ratio) };
  });
}

const text = JSON.stringify(results, null, 2);
if (values.out) {
  mkdirSync(dirname(resolve(values.out)), { recursive: true });
  writeFileSync(values.out, text + "\n");
}
console.log(text);
process.exit(failed ? 1 : 0);
