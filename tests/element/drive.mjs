// Drives <mcp-elicitation> in headless Chromium: www/element.html (plain HTML) and the
// React page bundled by run.sh (argv[3]). Serves www/ (argv[2], with its built pkg/) at /
// and the bundle at /react/. Exits non-zero with the reasons on any failure.
import { join } from "node:path";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { createRequire } from "node:module";
import { chromium } from "playwright-core";
import { serveFiles } from "../npm/serve.mjs";

const indexed = (path) => (path.endsWith("/") ? path + "index.html" : path);

const [www, bundle] = process.argv.slice(2);
const axePath = createRequire(import.meta.url).resolve("axe-core/axe.min.js");
const { server, origin } = await serveFiles((path) =>
  path.startsWith("/react/")
    ? [bundle, indexed(path.slice("/react".length))]
    : [www, indexed(path)],
);

const profile = mkdtempSync(join(tmpdir(), "mce-element-chromium-"));
const browser = await chromium.launchPersistentContext(profile, {
  executablePath: "/usr/bin/chromium",
  headless: true,
  args: [
    "--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
    "--disable-background-networking", "--disable-component-update", "--disable-sync",
  ],
});

const failures = [];
const check = (ok, what) => {
  console.log(`${ok ? "ok  " : "FAIL"} ${what}`);
  if (!ok) failures.push(what);
};

// Every field kind, so axe sees each control the card can render.
const everyKind = {
  message: "Tell us about your trip <b>(plain text)</b>",
  requestedSchema: {
    type: "object",
    properties: {
      name: { type: "string", title: "Name", minLength: 2, description: "As on your passport" },
      email: { type: "string", format: "email", title: "Email" },
      site: { type: "string", format: "uri", title: "Website" },
      day: { type: "string", format: "date", title: "Day", default: "2026-12-24" },
      at: { type: "string", format: "date-time", title: "Departure" },
      guests: { type: "integer", title: "Guests", minimum: 1, maximum: 9, default: 2 },
      budget: { type: "number", title: "Budget", minimum: 0 },
      insured: { type: "boolean", title: "Insured", default: false },
      seat: { type: "string", enum: ["aisle", "window"] },
      meal: { type: "string", title: "Meal", oneOf: [{ const: "veg", title: "Vegetarian" }, { const: "any", title: "Anything" }] },
      extras: { type: "array", title: "Extras", items: { type: "string", enum: ["bag", "wifi"] }, default: ["wifi"] },
      tags: { type: "array", title: "Tags", items: { anyOf: [{ const: "biz", title: "Business" }, { const: "fun", title: "Leisure" }] } },
    },
    required: ["name", "email"],
  },
};

async function newPage() {
  const page = await browser.newPage();
  page.setDefaultTimeout(15000);
  const errors = [];
  page.on("pageerror", (e) => errors.push(String(e)));
  page.on("console", (m) => {
    if (m.type() === "error") errors.push(m.text());
  });
  return { page, errors };
}

// Computed styles of everything in the card, to compare before and after the page's CSS.
const snapshot = (page) =>
  page.evaluate(() => {
    const root = document.querySelector("mcp-elicitation").shadowRoot;
    const props = ["display", "visibility", "color", "font-size", "font-family", "width", "height", "background-color"];
    return JSON.stringify([...root.querySelectorAll("*")].map((el) => {
      const s = getComputedStyle(el);
      return [el.tagName, ...props.map((p) => s.getPropertyValue(p))];
    }));
  });

async function axeViolations(page) {
  await page.addScriptTag({ path: axePath });
  return page.evaluate(async () => {
    const result = await window.axe.run(document, { resultTypes: ["violations"] });
    return result.violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(" ")).join(", ")}`);
  });
}

const activeName = (page) =>
  page.evaluate(() => document.querySelector("mcp-elicitation").shadowRoot.activeElement?.getAttribute("name") ?? null);

try {
  // ---- plain HTML ---------------------------------------------------------------
  {
    const { page, errors } = await newPage();
    await page.goto(`${origin}/element.html?params=${encodeURIComponent(JSON.stringify(everyKind))}`);
    const card = page.locator("mcp-elicitation [data-elicitation]");
    await card.waitFor();
    check(await page.locator("mcp-elicitation").evaluate((el) => el.shadowRoot.mode === "open"), "the card is in an open shadow root");
    check((await page.evaluate(() => document.querySelectorAll("[data-elicitation]").length)) === 0, "document queries do not reach into the card");
    const message = await page.locator("mcp-elicitation .mce-message").textContent();
    check(message.includes("<b>(plain text)</b>"), `server text is text: ${message}`);

    const before = await snapshot(page);
    await page.addStyleTag({ content: "input, button, label { display: none; color: red; font-size: 40px }" });
    await page.addStyleTag({ content: "input, button, label, p, section, fieldset, select { display: none !important; color: red !important; font-size: 40px !important }" });
    const after = await snapshot(page);
    check(before === after, "an aggressive page stylesheet changes nothing in the card");

    for (const theme of ["light", "dark"]) {
      await page.goto(`${origin}/element.html?theme=${theme}&params=${encodeURIComponent(JSON.stringify(everyKind))}`);
      await card.waitFor();
      const violations = await axeViolations(page);
      check(violations.length === 0, `axe-core, theme=${theme}: ${violations.length} violations ${violations.join(" | ")}`);
    }

    // Submit with the required fields empty: focus lands on the first invalid field.
    await page.getByRole("button", { name: "Submit" }).click();
    check((await activeName(page)) === "name", `focus on the first invalid field (${await activeName(page)})`);
    const invalid = await page.locator("mcp-elicitation input[name=name]").getAttribute("aria-invalid");
    check(invalid === "true", "the invalid field says so (aria-invalid)");
    const describedBy = await page.locator("mcp-elicitation input[name=name]").getAttribute("aria-describedby");
    const linked = await page.evaluate((ids) => {
      const root = document.querySelector("mcp-elicitation").shadowRoot;
      return ids.split(" ").map((id) => root.getElementById(id)?.textContent ?? "(missing)");
    }, describedBy ?? "");
    check(linked.some((t) => t.includes("passport")) && linked.length >= 2, `aria-describedby resolves inside the root: ${JSON.stringify(linked)}`);
    check((await page.locator("#result").textContent()) === "", "nothing was answered while invalid");

    await page.locator("mcp-elicitation input[name=name]").fill("Ada Lovelace");
    await page.locator("mcp-elicitation input[name=email]").fill("ada@example.com");
    await page.locator("mcp-elicitation input[name=email]").press("Enter");
    await page.locator("#result[data-action]").waitFor();
    const answer = JSON.parse(await page.locator("#result").textContent());
    check(
      answer.action === "accept" && answer.content.name === "Ada Lovelace" && answer.content.email === "ada@example.com" &&
        answer.content.guests === 2 && JSON.stringify(answer.content.extras) === '["wifi"]',
      `Enter submits; the answer event carries the ElicitResult: ${JSON.stringify(answer)}`,
    );

    await page.goto(`${origin}/element.html?params=${encodeURIComponent(JSON.stringify(everyKind))}`);
    await card.waitFor();
    await page.locator("mcp-elicitation input[name=name]").press("Escape");
    await page.locator("#result[data-action]").waitFor();
    check((await page.locator("#result").textContent()) === '{"action":"cancel"}', "Escape cancels");
    check(errors.length === 0, `no page errors${errors.length ? ": " + errors.join(" | ") : ""}`);
    await page.close();
  }

  // ---- React ---------------------------------------------------------------------
  {
    const { page, errors } = await newPage();
    await page.goto(`${origin}/react/`);
    const card = page.locator("mcp-elicitation [data-elicitation]");
    await card.waitFor();
    const who = await page.locator("mcp-elicitation [data-testid=requesting-server]").textContent();
    check(who.includes("React host") && who.includes("mcp.react.example"), `the card names the server: ${who}`);
    await page.locator("mcp-elicitation select[name=plan]").selectOption("pro");
    await page.getByRole("button", { name: "Submit" }).click();
    await page.locator("#react-result").filter({ hasText: "accept" }).waitFor();
    check(
      (await page.locator("#react-result").textContent()) === '[{"action":"accept","content":{"plan":"pro","seats":3}}]',
      `React state gets the answer: ${await page.locator("#react-result").textContent()}`,
    );
    // New params from React state replace the card.
    await page.getByRole("button", { name: "Next question" }).click();
    await page.locator("mcp-elicitation input[name=email]").waitFor();
    check((await page.locator("mcp-elicitation [data-elicitation]").count()) === 1, "new params replace the card");
    await page.getByRole("button", { name: "Decline" }).click();
    await page.locator("#react-result").filter({ hasText: "decline" }).waitFor();
    // React unmounts the element: its card is freed.
    await page.getByRole("button", { name: "Hide" }).click();
    await page.waitForFunction(() => !document.querySelector("mcp-elicitation"));
    const freed = await page.evaluate(async () => {
      await new Promise((r) => setTimeout(r, 0));
      return window.lastCard.shadowRoot.querySelector("[data-elicitation]") === null;
    });
    check(freed, "an element React removed has freed its card");
    const violations = await axeViolations(page);
    check(violations.length === 0, `axe-core on the React page: ${violations.join(" | ")}`);
    check(errors.length === 0, `no page errors${errors.length ? ": " + errors.join(" | ") : ""}`);
    await page.close();
  }
} catch (e) {
  failures.push(String(e));
  console.log(`FAIL ${e}`);
} finally {
  await browser.close();
  server.close();
  rmSync(profile, { recursive: true, force: true });
}
if (failures.length) {
  console.log(`\n[element test] ${failures.length} failure(s)`);
  process.exit(1);
}
console.log("\n[element test] all checks passed");
