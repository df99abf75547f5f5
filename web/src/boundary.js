// JS helpers of boundary.rs, for values a JS host hands over. A static module: no eval.

/**
 * A fresh native Promise of what `value` settles to. An async function never throws
 * synchronously: `Promise.resolve(value)` could (a Promise with a throwing `constructor`
 * getter), and a returned Promise's own `then` could; here both reject instead.
 */
export async function settle(value) {
  return await value;
}
