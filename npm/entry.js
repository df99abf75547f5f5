// The init guard of the package's two entries, each over its own wasm-bindgen module:
// "mcp-elicit" (index.js over mcp_elicit_web.js) and "mcp-elicit/client" (client.js over
// mcp_elicit_host.js, the same exports plus McpClient). A call made before `await init()`
// fails with an Error that says so (wasm-bindgen's own functions would throw a TypeError
// about `undefined` from inside its glue). The demo app's mount function is not part of
// either.

/**
 * The guarded functions of one wasm-bindgen module: `wasmInit` is its default export,
 * `wasm` its namespace, `wasmFile` the name of its .wasm (said when init() cannot load it).
 */
export function guardedEntry(wasmInit, wasm, wasmFile) {
  let ready = false;
  let starting;

  const notReady = (name) =>
    new Error(
      `mcp-elicit: ${name} was called before init() finished; ` +
        "call `await init()` (the default export of the entry you import) once, first",
    );

  const need = (name) => {
    if (!ready) throw notReady(name);
  };

  /**
   * Loads and instantiates the WebAssembly module; every other export needs it. Takes what
   * wasm-bindgen's init takes: nothing (the .wasm next to this file, by `import.meta.url`),
   * or `{ module_or_path }` with a URL, a Response, bytes or a WebAssembly.Module. Calling
   * it again returns the same Promise; after a failure it may be called again.
   */
  const init = (input) => {
    if (!starting) {
      starting = wasmInit(input).then(
        (exports) => {
          ready = true;
          return exports;
        },
        (e) => {
          starting = undefined;
          if (input !== undefined) throw e;
          // The usual cause: a bundler that does not copy the .wasm next to the bundle.
          throw new Error(
            `mcp-elicit: init() could not load ${wasmFile} from next to the ` +
              `package's JS (${e && e.message ? e.message : e}); if a bundler (e.g. esbuild) ` +
              "did not copy it, import its URL and pass it: " +
              "init({ module_or_path: new URL(wasmUrl, import.meta.url) }) (see the README)",
            { cause: e },
          );
        },
      );
    }
    return starting;
  };

  /**
   * `call()`, a SchemaError it throws for `requestedSchema` worded in `options.locale` when
   * options are given.
   */
  const worded = (call, requestedSchema, options) => {
    if (options === undefined || options === null) return call();
    try {
      return call();
    } catch (e) {
      throw wasm.wordErrors(requestedSchema, undefined, e, options);
    }
  };

  return {
    isReady: () => ready,
    notReady,
    init,
    /** Synchronous init from bytes or a WebAssembly.Module: `initSync({ module })`. */
    initSync(module) {
      const exports = wasm.initSync(module);
      ready = true;
      return exports;
    },
    elicit(element, params, options) {
      if (!ready) return Promise.reject(notReady("elicit()"));
      return wasm.elicit(element, params, options);
    },
    completeElicitation(elicitationId, element) {
      need("completeElicitation()");
      return wasm.completeElicitation(elicitationId, element);
    },
    releaseElicitation(element) {
      need("releaseElicitation()");
      return wasm.releaseElicitation(element);
    },
    /**
     * Registers the `<mcp-elicitation>` custom element (once; later calls do nothing): set
     * its `params`, listen for its `answer` event. Its card lives in its own shadow root.
     */
    defineElements() {
      need("defineElements()");
      return wasm.defineElements();
    },
    /**
     * `options.locale` (and `options.messages`): a refused schema's `SchemaError` says why in
     * that language, worded from its `code` and `data`. Without options, in English.
     */
    compileSchema(requestedSchema, options) {
      need("compileSchema()");
      return worded(() => wasm.compileSchema(requestedSchema), requestedSchema, options);
    },
    /**
     * `options.locale` (and `options.messages`): each error's `message` in that language,
     * worded from its `code` and its `data` (the bound, length, count or choices it is
     * about), and so is a refused schema's `SchemaError`. Without options the core's
     * English answer, unchanged.
     */
    validateContent(requestedSchema, content, options) {
      need("validateContent()");
      const answer = worded(() => wasm.validateContent(requestedSchema, content), requestedSchema, options);
      if (options === undefined || options === null || answer.ok) return answer;
      return wasm.wordErrors(requestedSchema, content, answer, options);
    },
    /**
     * Loads the catalog of `locale` (absent: the browser's languages); resolves to the tag of
     * the catalog now used for it (`en` when none fits or it could not be loaded). elicit,
     * McpClient.connect and <mcp-elicitation lang> load theirs themselves; validateContent
     * in a browser words its errors in a language once loaded (under Node it reads it).
     */
    loadLocale(locale) {
      if (!ready) return Promise.reject(notReady("loadLocale()"));
      return wasm.loadLocale(locale);
    },
    compileValidator(requestedSchema) {
      need("compileValidator()");
      return wasm.compileValidator(requestedSchema);
    },
  };
}
