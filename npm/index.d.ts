// Types of the npm package `mcp-elicit` (index.js). The schema, validation and client
// types are wasm-bindgen's (mcp_elicit_web.d.ts, from the Rust crate's annotations).

export type {
  JsonValue,
  EnumOption,
  StringField,
  NumberField,
  BooleanField,
  SelectField,
  MultiSelectField,
  Field,
  FormSpec,
  ErrorCode,
  FieldError,
  ValidationResult,
  SchemaError,
  InitInput,
  InitOutput,
  SyncInitInput,
} from "./mcp_elicit_web.js";
export { compileSchema, validateContent } from "./mcp_elicit_web.js";

import type { InitInput, InitOutput, JsonValue, SyncInitInput } from "./mcp_elicit_web.js";
import type { McpClient as WasmMcpClient } from "./mcp_elicit_web.js";

/** What `McpClient.connect` takes besides the URL. */
export interface McpClientOptions {
  /** Required: the element where elicitation cards appear. */
  container: HTMLElement;
  /** Default "auto": the modern era when the server speaks it, else the legacy one. */
  protocol?: "auto" | "2026-07-28" | "2025-11-25";
  /** Input rounds one call may take (a whole number, at most the client's limit). */
  maxRounds?: number;
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
}

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

/**
 * Loads the WebAssembly module; await it once before any other export. Without an argument
 * the .wasm is fetched from next to the package's JS (`new URL(..., import.meta.url)`, which
 * Vite and webpack 5 follow); a bundler that does not (esbuild) passes its URL:
 * `init({ module_or_path: wasmUrl })`.
 */
export default function init(
  module_or_path?: { module_or_path: InitInput | Promise<InitInput> } | InitInput | Promise<InitInput>,
): Promise<InitOutput>;

/** Synchronous init from the .wasm's bytes or a compiled WebAssembly.Module. */
export function initSync(module: { module: SyncInitInput } | SyncInitInput): InitOutput;

/** `elicitation/create` params as on the wire: form mode. */
export interface FormElicitParams {
  mode?: "form";
  message: string;
  /** A flat object schema: string, number, integer, boolean and enum properties. */
  requestedSchema: { [key: string]: JsonValue };
  _meta?: { [key: string]: JsonValue };
}

/** `elicitation/create` params as on the wire: URL mode. */
export interface UrlElicitParams {
  mode: "url";
  message: string;
  url: string;
  elicitationId: string;
  _meta?: { [key: string]: JsonValue };
}

export type ElicitParams = FormElicitParams | UrlElicitParams;

/** Who is asking, shown in the card; a host showing requests from servers should pass it. */
export interface ElicitOptions {
  serverName?: string;
  /** Without it the card names no server. */
  serverHost?: string;
}

/** The answer, exactly as it goes on the wire. */
export type ElicitResult =
  | { action: "accept"; content?: { [key: string]: JsonValue } }
  | { action: "decline" }
  | { action: "cancel" };

/**
 * Renders one elicitation into `element` (replacing its content) and resolves with the
 * answer. Rejects with an Error in words for params that are not elicitation params. A
 * second `elicit` on the same element resolves the first with `cancel`.
 */
export function elicit(
  element: Element,
  params: ElicitParams,
  options?: ElicitOptions,
): Promise<ElicitResult>;

/**
 * Ends the waiting state of every URL card mounted by `elicit` with this `elicitationId`
 * (what `notifications/elicitation/complete` does).
 */
export function completeElicitation(elicitationId: string): void;
