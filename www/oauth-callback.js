// The end of a sign-in: the authorization server sends the person's browser back here
// (the `redirectUrl` a host gives McpClient.connect's `auth`) with `code`, `state` and
// `iss` (or `error`) in the query. This hands the query to the page that started the
// sign-in and closes. It reads nothing of the query itself: the client checks `state`
// and `iss` against the sign-in it started, and ignores anything else.
//
// The page that started it gets the query in one of three ways:
// - the popup's opener, by postMessage to this page's own origin only (a page of another
//   origin that opened this one gets nothing);
// - a BroadcastChannel of this origin, for when the opener is gone (an authorization
//   server that sends Cross-Origin-Opener-Policy severs it);
// - after a full-page redirect (the popup was blocked), sessionStorage: the query is kept,
//   and the browser goes back to the page that started, which finds it there.
//
// The names below are also in web/src/auth/glue.rs: the two must agree.

/** What the message carries. */
export const CALLBACK_TYPE = "mcp-elicit/oauth-callback";
/** The BroadcastChannel's name. */
export const CHANNEL = "mcp-elicit/oauth";
/** sessionStorage: the callback's query, for the page after a full-page redirect. */
export const RETURN_KEY = "mcp-elicit/oauth-return";
/** sessionStorage: where to go back to after a full-page redirect (set by the client). */
export const RETURN_TO_KEY = "mcp-elicit/oauth-return-to";

/**
 * Hands this page's callback query to the page that started the sign-in, then closes
 * (a popup) or goes back to that page (a full-page redirect). Returns how it was handed
 * over: "opener", "redirect", or "none" (nothing started a sign-in here).
 */
export function handleOAuthCallback(win = window) {
  const message = { type: CALLBACK_TYPE, query: win.location.search };
  const origin = win.location.origin;
  let opener = null;
  try {
    opener = win.opener && !win.opener.closed ? win.opener : null;
  } catch (_) {
    opener = null;
  }
  if (opener) {
    try {
      opener.postMessage(message, origin);
    } catch (_) {
      // An opener of another origin: postMessage to our origin does not reach it.
    }
  }
  let sent = opener !== null;
  if (typeof BroadcastChannel === "function") {
    const channel = new BroadcastChannel(CHANNEL);
    channel.postMessage(message);
    channel.close();
    sent = true;
  }
  let back = null;
  try {
    back = win.sessionStorage.getItem(RETURN_TO_KEY);
  } catch (_) {
    back = null;
  }
  if (!opener && back) {
    let target = null;
    try {
      target = new URL(back, win.location.href);
    } catch (_) {
      target = null;
    }
    if (target && target.origin === origin) {
      win.sessionStorage.setItem(RETURN_KEY, JSON.stringify(message));
      win.sessionStorage.removeItem(RETURN_TO_KEY);
      win.location.replace(target.href);
      return "redirect";
    }
  }
  if (sent) {
    // Closing only works for a window a script opened (the popup); a tab the person opened
    // stays, with the words below.
    win.close();
    return "opener";
  }
  return "none";
}
