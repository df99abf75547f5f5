// Types of the npm package `mcp-elicit` (index.js). The schema and validation types are
// wasm-bindgen's (mcp_elicit_web.d.ts, from the Rust crate's annotations). McpClient's are
// in client.d.ts (the entry "mcp-elicit/client").

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
  ContentValidator,
  InitInput,
  InitOutput,
  SyncInitInput,
} from "./mcp_elicit_web.js";
export { compileValidator, loadLocale } from "./mcp_elicit_web.js";

import type {
  FormSpec,
  InitInput,
  InitOutput,
  JsonValue,
  SyncInitInput,
  ValidationResult,
} from "./mcp_elicit_web.js";

/** The language of `compileSchema`'s and `validateContent`'s words. */
export interface LocaleOptions {
  /** BCP 47, e.g. "de"; in a browser, `await loadLocale(locale)` first (Node reads it). */
  locale?: string;
  /** Texts replacing the catalog's, by message key (docs/i18n.md); placeholders as English's. */
  messages?: { [key: string]: string };
}

/**
 * Compiles a `requestedSchema` into the form description, or throws a `SchemaError` (its
 * `path`, `code` and `data`; its message in `options.locale`, else English).
 */
export function compileSchema(requestedSchema: JsonValue, options?: LocaleOptions): FormSpec;

/**
 * Validates content as it would be sent; each error's message (and a refused schema's) in
 * `options.locale`, else the core's English.
 */
export function validateContent(
  requestedSchema: JsonValue,
  content: JsonValue,
  options?: LocaleOptions,
): ValidationResult;

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
  /** The card's language (BCP 47, e.g. "zh-CN"); by default the browser's languages. */
  locale?: string;
  /** Texts replacing the catalog's, by message key (docs/i18n.md); placeholders as English's. */
  messages?: { [key: string]: string };
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
 * Ends the waiting state of the URL card with this `elicitationId` that `elicit` mounted
 * into `element` (or an element inside it): what `notifications/elicitation/complete` does,
 * for the card of the server that sent it only. Without `element`, every such card `elicit`
 * shows. Throws an `Error` when `element` is given and is not an element.
 */
export function completeElicitation(elicitationId: string, element?: Element): void;

/**
 * Ends at once what `elicit` rendered into `element`: its card leaves the DOM, what it held
 * is freed, and its Promise, if still open, resolves `cancel`. (A card whose element left
 * the page is also ended at the next `elicit` or `completeElicitation` call.)
 */
export function releaseElicitation(element: Element): void;

/**
 * Registers the `<mcp-elicitation>` custom element (once; later calls do nothing). Set its
 * `params` (form or URL params as on the wire) and listen for its `answer` event, whose
 * `detail` is the `ElicitResult`; `complete()` ends a URL card's wait. The card lives in
 * the element's open shadow root; theme it with `--mce-*` properties and `::part()`.
 * Throws if another element already took the name.
 */
export function defineElements(): void;

/** The `<mcp-elicitation>` element, once `defineElements()` ran. */
export interface McpElicitationElement extends HTMLElement {
  /** The elicitation/create params; setting new ones replaces the card. */
  params: ElicitParams | null;
  /** URL mode: the server completed this elicitation. */
  complete(): void;
  addEventListener<K extends keyof McpElicitationEventMap>(
    type: K,
    listener: (this: McpElicitationElement, ev: McpElicitationEventMap[K]) => unknown,
    options?: boolean | AddEventListenerOptions,
  ): void;
  addEventListener(
    type: string,
    listener: EventListenerOrEventListenerObject,
    options?: boolean | AddEventListenerOptions,
  ): void;
}

/** The element's events: `answer` (the ElicitResult) and `error` (params it cannot use). */
export interface McpElicitationEventMap {
  answer: CustomEvent<ElicitResult>;
  error: CustomEvent<Error>;
}

declare global {
  interface HTMLElementTagNameMap {
    "mcp-elicitation": McpElicitationElement;
  }
}

/** What one form answer holds on the wire: the flat values a card's fields produce. */
export type ElicitContent = { [key: string]: string | number | boolean | string[] };

/** The answer `elicitationHandler`'s request handler resolves with (the SDK's `ElicitResult`). */
export type ElicitationHandlerResult =
  | { action: "accept"; content?: ElicitContent }
  | { action: "decline" }
  | { action: "cancel" };

/**
 * The part of the TypeScript SDK's `Client` that `install` uses (structural: the package
 * does not depend on the SDK).
 */
export interface SdkClientLike {
  registerCapabilities(capabilities: { elicitation: { form: {}; url: {} } }): void;
  setRequestHandler(schema: any, handler: (request: any, extra: any) => any): void;
  setNotificationHandler(schema: any, handler: (notification: any) => any): void;
  getServerVersion?(): { name: string; title?: string } | undefined;
}

/** What `elicitationHandler` takes. */
export interface ElicitationHandlerOptions {
  /** Required: each request's card appears in a child of its own appended here. */
  container: HTMLElement;
  /**
   * The endpoint (the URL given to `StreamableHTTPClientTransport`): its host is shown in
   * every card as the requesting server's. Without it (or `serverHost`) cards name no server.
   */
  serverUrl?: string | URL;
  /** The host to show instead of `serverUrl`'s. */
  serverHost?: string;
  /** The cards' language (BCP 47); by default the browser's languages. */
  locale?: string;
  /** Texts replacing the catalog's, by message key (docs/i18n.md). */
  messages?: { [key: string]: string };
  /**
   * The name to show; by default the server's own (`client.getServerVersion()`: its title,
   * else its name).
   */
  serverName?: string;
  /** The SDK client whose server's name cards show (set by `install` when absent). */
  client?: SdkClientLike;
}

/** The SDK's `elicitation/create` request, as its `ElicitRequestSchema` parses it. */
export interface SdkElicitRequest {
  method: "elicitation/create";
  params: { [key: string]: unknown };
}

/** The SDK's `notifications/elicitation/complete` notification. */
export interface SdkElicitationComplete {
  method: "notifications/elicitation/complete";
  params: { elicitationId: string; [key: string]: unknown };
}

/** What `elicitationHandler` returns: the SDK handlers, the capabilities, and the cards' state. */
export interface ElicitationHandler {
  /** Declare these (`new Client(info, { capabilities })` or `registerCapabilities`). */
  readonly capabilities: { elicitation: { form: {}; url: {} } };
  /**
   * For `client.setRequestHandler(ElicitRequestSchema, handler.handleRequest)`: shows the
   * card and resolves with the person's answer (a form's content has passed the card's
   * validation). When `extra.signal` aborts (the server cancelled, the connection closed)
   * the card is removed and the handler resolves `cancel`, which the SDK does not send.
   * Rejects with an Error carrying a JSON-RPC `code` (the SDK's error response) for params
   * that are not elicitation params (-32602), a task-augmented request (-32602), or a
   * request beyond the cards' limits (-32603).
   */
  handleRequest(
    request: SdkElicitRequest,
    extra?: { signal?: AbortSignal },
  ): Promise<ElicitationHandlerResult>;
  /**
   * For `client.setNotificationHandler(ElicitationCompleteNotificationSchema,
   * handler.handleComplete)`: ends the wait of this handler's URL card with that id.
   */
  handleComplete(notification: SdkElicitationComplete): void;
  /**
   * Before `client.connect`: declares the capabilities and sets both handlers, the
   * schemas given by the caller from `@modelcontextprotocol/sdk/types.js`. Returns the client.
   */
  install<C extends SdkClientLike>(
    client: C,
    schemas: { ElicitRequestSchema: unknown; ElicitationCompleteNotificationSchema: unknown },
  ): C;
  /** Cards waiting for the person now. */
  readonly pending: number;
  /** Removes every card; those still waiting are answered `cancel`. */
  dispose(): void;
}

/**
 * An adapter for the official TypeScript SDK's `Client` (`@modelcontextprotocol/sdk` 1.x):
 * its elicitations shown as this package's cards in `options.container`. Throws a
 * TypeError for a missing container or a malformed option. The package does not import
 * the SDK: its schemas come from the caller.
 */
export function elicitationHandler(options: ElicitationHandlerOptions): ElicitationHandler;
