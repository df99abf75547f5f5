// Serves the bundled scratch app (argv[2]) on loopback and drives it in headless Chromium:
// the guard's error before init, the package's exports (no demo), the CSS applied, and an
// answered form's ElicitResult. Exits non-zero with the reason on the first failure.
import { join } from "node:path";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { chromium } from "playwright-core";
import { serveFiles } from "./serve.mjs";

const root = process.argv[2];
const { server, origin } = await serveFiles((path) => [root, path === "/" ? "index.html" : path]);
const url = `${origin}/`;

const profile = mkdtempSync(join(tmpdir(), "mce-npm-chromium-"));
// A fresh profile each run (playwright's way of passing --user-data-dir).
const browser = await chromium.launchPersistentContext(profile, {
  executablePath: "/usr/bin/chromium",
  headless: true,
  args: [
    "--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
    "--disable-background-networking", "--disable-component-update", "--disable-sync",
  ],
});

const failures = [];
const pageErrors = [];
// A console error a page makes on purpose (the requests the client/inline page sends to a
// port nothing serves): not a page error. Set for the page that expects it.
let expectedConsoleError = () => false;
const check = (ok, what) => {
  console.log(`${ok ? "ok  " : "FAIL"} ${what}`);
  if (!ok) failures.push(what);
};

try {
  const page = await browser.newPage();
  page.setDefaultTimeout(15000);
  page.on("pageerror", (e) => pageErrors.push(String(e)));
  page.on("console", (m) => {
    // The 404 of the .wasm that init() without an argument looks for is expected.
    if (m.type() === "error" && !m.text().includes("404") && !expectedConsoleError(m)) {
      pageErrors.push(`${m.text()} (${m.location().url})`);
    }
  });
  await page.goto(url);

  const input = page.locator('[data-elicitation][data-mode="form"] input[name="name"]');
  await input.waitFor();

  const beforeInit = JSON.parse(await page.locator("#before-init").textContent());
  check(
    typeof beforeInit.error === "string" && beforeInit.error.includes("before init()"),
    `elicit before init rejects in words: ${beforeInit.error}`,
  );

  const defaultInit = JSON.parse(await page.locator("#default-init").textContent());
  check(
    typeof defaultInit.error === "string" && defaultInit.error.includes("module_or_path"),
    `init() without the .wasm next to the bundle says what to do: ${defaultInit.error}`,
  );

  const names = await page.evaluate(() => window.exportNames);
  const expected = ["compileSchema", "compileValidator", "completeElicitation", "default", "defineElements", "elicit",
    "elicitationHandler", "initSync", "loadLocale", "releaseElicitation", "validateContent"];
  check(
    JSON.stringify(names) === JSON.stringify(expected),
    `exports are the library's, no mountDemo and no McpClient: ${names.join(", ")}`,
  );
  // The page that shows elicitations downloads the library's wasm only, not the client's.
  const wasmLoaded = await page.evaluate(() =>
    performance.getEntriesByType("resource").map((r) => new URL(r.name).pathname).filter((p) => p.endsWith(".wasm")),
  );
  check(
    wasmLoaded.length > 0 && wasmLoaded.every((p) => p.includes("mcp_elicit_web_bg")),
    `"mcp-elicit" loads the library's wasm alone: ${wasmLoaded.join(", ")}`,
  );

  const style = await page.locator("#slot .mce-elicitation").evaluate((el) => {
    const s = getComputedStyle(el);
    return { radius: s.borderTopLeftRadius, border: s.borderTopStyle, accent: s.getPropertyValue("--mce-accent").trim() };
  });
  check(
    style.radius === "8px" && style.border === "solid" && style.accent !== "",
    `mcp-elicit/style.css applies to .mce-elicitation: ${JSON.stringify(style)}`,
  );
  const bodyMargin = await page.evaluate(() => getComputedStyle(document.body).margin);
  check(bodyMargin === "8px", `the CSS leaves the host's body alone (margin ${bodyMargin})`);

  const server = await page.locator("#slot [data-elicitation]").textContent();
  check(server.includes("scratch.example"), "the card names the requesting server's host");

  await input.fill("Ada");
  await page.locator("#slot").getByRole("button", { name: "Submit" }).click();
  await page.locator("#result").filter({ hasText: "action" }).waitFor();
  const result = JSON.parse(await page.locator("#result").textContent());
  check(
    JSON.stringify(result) === JSON.stringify({ action: "accept", content: { name: "Ada" } }),
    `elicit resolves with the ElicitResult: ${JSON.stringify(result)}`,
  );
  const elementCard = page.locator("mcp-elicitation [data-elicitation]");
  await elementCard.waitFor();
  check(
    (await page.evaluate(() => document.querySelector("mcp-elicitation").shadowRoot !== null)) &&
      (await elementCard.textContent()).includes("From the element"),
    "defineElements() from the package: <mcp-elicitation> renders its card in its shadow root",
  );
  await page.locator("mcp-elicitation").getByRole("button", { name: "Decline" }).click();
  await page.locator("#element-result").filter({ hasText: "decline" }).waitFor();
  check(
    (await page.locator("#element-result").textContent()) === '{"action":"decline"}',
    "the element's answer event carries the ElicitResult",
  );
  // A card in German from the bundle: its catalog loaded on demand, before its first paint.
  const german = page.locator("#german [data-elicitation]");
  await german.waitFor();
  check(
    (await german.getAttribute("lang")) === "de" && (await german.getByRole("button", { name: "Ablehnen" }).count()) === 1,
    `a card with locale "de" is in German from the bundle: lang=${await german.getAttribute("lang")}`,
  );
  await german.getByRole("button", { name: "Ablehnen" }).click();
  await page.locator("#german-result").filter({ hasText: "decline" }).waitFor();
  check(pageErrors.length === 0, `no page errors${pageErrors.length ? ": " + pageErrors.join(" | ") : ""}`);

  // Both entries in one page: one snippet module, two wasm memories (both.js).
  await page.goto(`${url}both.html`);
  await page.waitForFunction(() => window.bothChecks !== undefined);
  const both = await page.evaluate(() => window.bothChecks);
  const round = ['ok {"name":"Ada"}', "refused maxLength", 'ok {"note":"hi"}', 'ok {"name":"Lin"}', 'ok {"note":"yo"}', "refused maxLength"];
  check(
    both.error === undefined && JSON.stringify(both.answers) === JSON.stringify([...round, ...round, ...round]),
    `mcp-elicit and mcp-elicit/client in one page, sharing the snippet, each answer their own values: ${JSON.stringify(both)}`,
  );
  check(pageErrors.length === 0, `no page errors on the page with both entries${pageErrors.length ? ": " + pageErrors.join(" | ") : ""}`);

  // mcp-elicit/inline, bundled with no esbuild options: init() needs no URL and no file.
  await page.goto(`${url}inline.html`);
  await page.locator("#slot input[name=name]").fill("Grace");
  await page.locator("#slot").getByRole("button", { name: "Submit" }).click();
  await page.locator("#result").filter({ hasText: "action" }).waitFor();
  check(
    (await page.locator("#result").textContent()) === '{"action":"accept","content":{"name":"Grace"}}',
    "mcp-elicit/inline works from an esbuild bundle made with no options",
  );
  check(pageErrors.length === 0, `no page errors on the inline page${pageErrors.length ? ": " + pageErrors.join(" | ") : ""}`);

  // mcp-elicit/client/inline, the same way: McpClient runs and refuses a server that is
  // not there with the transport's own words for it (nothing answers on port 9: Chromium
  // does not even connect there), and the library's elicit answers. The failed requests to
  // that endpoint are the only console errors the page may make.
  const refused = "http://127.0.0.1:9/mcp";
  expectedConsoleError = (m) => m.location().url === refused && m.text().startsWith("Failed to load resource: ");
  await page.goto(`${url}client-inline.html`);
  await page.locator("#slot").getByRole("button", { name: "Decline" }).click();
  await page.locator("#result").filter({ hasText: "answer" }).waitFor();
  const clientInline = JSON.parse(await page.locator("#result").textContent());
  const unreachable = `Cannot reach the server at ${refused}: nothing answered. Is it running, and is the address right?`;
  check(
    clientInline.connect === unreachable && JSON.stringify(clientInline.answer) === '{"action":"decline"}',
    `mcp-elicit/client/inline works from an esbuild bundle made with no options, and McpClient.connect ` +
      `to a closed port rejects with "${unreachable}": ${JSON.stringify(clientInline)}`,
  );
  check(pageErrors.length === 0, `no page errors on the client/inline page${pageErrors.length ? ": " + pageErrors.join(" | ") : ""}`);
} catch (e) {
  failures.push(String(e));
  console.log(`FAIL ${e}`);
  if (pageErrors.length) console.log(`page errors: ${pageErrors.join(" | ")}`);
} finally {
  await browser.close();
  server.close();
  rmSync(profile, { recursive: true, force: true });
}
if (failures.length) {
  console.error(`[npm test] ${failures.length} check(s) failed`);
  process.exit(1);
}
console.log("[npm test] the installed package works");
