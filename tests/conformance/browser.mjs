// The headless Chromium of the conformance clients (client.mjs), and the one browser that
// scripts/conformance starts for a whole run.
//
//   node tests/conformance/browser.mjs    starts Chromium, prints its WebSocket endpoint on
//                                         one line, and keeps it until stdin closes or a
//                                         SIGTERM/SIGINT comes
//
// A client given the endpoint in MCP_ELICIT_BROWSER_WS connects to that browser and works
// in a browser context of its own (its own cookies, storage and cache, closed with it), so a
// run starts Chromium once instead of once per scenario (24 starts, some 0.5 CPU-s each, on a
// 2-core CI machine that is busy all along). Without the variable a client starts its own.
//
// Environment: CHROMIUM, the browser binary (default /usr/bin/chromium).
import { pathToFileURL } from "node:url";
import { chromium } from "playwright-core";

export const CHROMIUM = process.env.CHROMIUM ?? "/usr/bin/chromium";
// As root Chromium needs --no-sandbox; the rest keep it from calling out (no network
// here) and from slow first-run work. Playwright adds --headless and a fresh temporary
// --user-data-dir itself.
export const CHROMIUM_FLAGS = [
  "--no-sandbox",
  "--disable-gpu",
  "--disable-quic",
  "--no-first-run",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
  // Autofill asks a Google server about forms; the conformance proxy would refuse it.
  "--disable-features=AutofillServerCommunication",
];

/**
 * A browser for one client: the run's shared one when MCP_ELICIT_BROWSER_WS names it (its
 * `close()` then only disconnects, closing this client's contexts), else one of its own.
 */
export async function clientBrowser() {
  const endpoint = process.env.MCP_ELICIT_BROWSER_WS;
  if (endpoint) {
    return chromium.connect(endpoint);
  }
  return chromium.launch({ executablePath: CHROMIUM, args: CHROMIUM_FLAGS });
}

async function serve() {
  const server = await chromium.launchServer({ executablePath: CHROMIUM, args: CHROMIUM_FLAGS });
  let closing = false;
  const stop = () => {
    if (closing) return;
    closing = true;
    server.close().finally(() => process.exit(0));
  };
  process.on("SIGTERM", stop);
  process.on("SIGINT", stop);
  process.stdin.on("end", stop);
  process.stdin.on("error", stop);
  process.stdin.resume();
  process.stdout.write(`${server.wsEndpoint()}\n`);
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  serve().catch((err) => {
    process.stderr.write(`${err?.stack ?? err}\n`);
    process.exit(1);
  });
}
