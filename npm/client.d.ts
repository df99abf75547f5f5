// Types of the entry `mcp-elicit/client` (client.js): McpClient, and the exports of
// `mcp-elicit`, over the wasm that has the client
// (mcp_elicit_host.js, whose McpClient class is wasm-bindgen's, from the Rust crate's
// annotations).

// Everything "mcp-elicit" exports (its values and types); `init`, `initSync` and the init
// types below are this entry's own and take precedence over the library's.
export * from "./index.js";
export type { InitInput, InitOutput, SyncInitInput } from "./mcp_elicit_host.js";

import type { ElicitParams, ElicitResult, JsonValue } from "./index.js";
import type {
  InitInput,
  InitOutput,
  McpClient as WasmMcpClient,
  SyncInitInput,
} from "./mcp_elicit_host.js";

/**
 * Loads this entry's WebAssembly module (mcp_elicit_host_bg.wasm); await it once before any
 * other export. Without an argument the .wasm is fetched from next to the package's JS
 * (`new URL(..., import.meta.url)`, which Vite and webpack 5 follow); a bundler that does not
 * (esbuild) passes its URL: `init({ module_or_path: wasmUrl })`.
 */
export default function init(
  module_or_path?: { module_or_path: InitInput | Promise<InitInput> } | InitInput | Promise<InitInput>,
): Promise<InitOutput>;

/** Synchronous init from the .wasm's bytes or a compiled WebAssembly.Module. */
export function initSync(module: { module: SyncInitInput } | SyncInitInput): InitOutput;

/** What `McpClient.connect` takes besides the URL. */
export interface McpClientOptions {
  /**
   * Required: the element where elicitation cards appear, or a shadow root (the cards and
   * the package's stylesheet then live in it, sealed from the page's CSS).
   */
  container: HTMLElement | ShadowRoot;
  /** Default "auto": the modern era when the server speaks it, else the legacy one. */
  protocol?: "auto" | "2026-07-28" | "2025-11-25";
  /** The cards' language (BCP 47, e.g. "ar"); by default the browser's languages. */
  locale?: string;
  /** Texts replacing the catalog's, by message key (docs/i18n.md); placeholders as English's. */
  messages?: { [key: string]: string };
  /** Input rounds one call may take (a whole number, at most the client's limit). */
  maxRounds?: number;
  /**
   * 2025-11-25 tasks: whether a tool whose `execution.taskSupport` is "optional" is called
   * as a task (default "auto": when the server runs tool calls as tasks). A tool that
   * requires one always is; one that forbids it never is.
   */
  tasks?: "auto" | "always" | "never";
  /** Answers `roots/list`. */
  roots?: { uri: string; name?: string }[];
  /**
   * Only a host with an LLM passes this; without it sampling is not declared. Returns the
   * `CreateMessageResult` (or a Promise of it); throwing refuses the request.
   */
  sampling?: (params: { [key: string]: JsonValue }) => unknown;
  /**
   * Answers an elicitation without a card (a saved profile, a policy), or returns
   * `undefined`/`null` to show the card. A form `accept` is sent only when its content
   * passes the card's validation; a URL `accept` never opens anything (the card shows).
   * A throw, a rejection, an invalid value or no answer within 10 s shows the card with a
   * notice. `info` is for display only: a server names itself.
   */
  onElicitation?: (
    params: ElicitParams,
    info: ElicitationInfo,
  ) => ElicitResult | undefined | null | Promise<ElicitResult | undefined | null>;
  /**
   * Sent on every request to the server (both eras, the probe too), and only to it: a
   * static API key, say. The protocol's own headers cannot be set.
   */
  headers?: { [name: string]: string };
  /** Used for every request, the authorization server's too (a host's backend route). */
  fetch?: (request: Request) => Promise<Response>;
  /** Signing the person in when the server asks (the MCP authorization spec). */
  auth?: McpClientAuth;
}

/** How a connection signs the person in. */
export interface McpClientAuth {
  /** The callback page on this page's origin (the package's www/oauth-callback.html). */
  redirectUrl: string;
  /** A client id registered with the authorization server beforehand. */
  clientId?: string;
  /** The pre-registered client's secret (a confidential client). */
  clientSecret?: string;
  /** An HTTPS URL of this client's metadata document (used where the server supports it). */
  clientMetadataUrl?: string;
  /** Scopes to ask for when neither the server's challenge nor its metadata name any. */
  scope?: string;
  /**
   * Where sign-in's own wasm (mcp_elicit_signin_bg.wasm) is served, for a bundle that does
   * not keep it beside mcp_elicit_signin.js. It is fetched only when a server first asks
   * for sign-in.
   */
  signInWasm?: string | URL;
  /** Where tokens are kept: "session" (sessionStorage, the default), "memory", or an object. */
  storage?:
    | "session"
    | "memory"
    | {
        get(key: string): string | null | undefined | Promise<string | null | undefined>;
        set(key: string, value: string): unknown;
        remove(key: string): unknown;
      };
}

/**
 * For a host's own callback page: hands the sign-in's result (this page's query) to the
 * page that started it, then closes the popup or goes back to that page.
 */
export function handleOAuthCallback(win?: Window): "opener" | "redirect" | "none";

/** Who asks and how, given to `onElicitation`. */
export interface ElicitationInfo {
  server: { name: string | null; host: string };
  /** The card's `data-elicitation` value. */
  key: string;
  mode: "form" | "url";
  era: "2026-07-28" | "2025-11-25";
}

/** A live connection and the view of its pending elicitations (wasm-bindgen's class). */
export type McpClient = WasmMcpClient;
export declare const McpClient: Function & Omit<typeof WasmMcpClient, "connect"> & {
  /** Connects and shows elicitations in `options.container`; rejects with the reason in words. */
  connect(url: string, options: McpClientOptions): Promise<WasmMcpClient>;
};

