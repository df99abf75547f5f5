// The pages refuse to run inside a frame. A page of another site could show them in an
// invisible frame and steer the person's clicks onto their buttons (Call tool, Submit,
// Open in new tab) against the person's own local MCP server. The static servers send
// `frame-ancestors 'none'` and `X-Frame-Options: DENY` so a browser never loads them in a
// frame; this check is for hosts that drop those headers. A file, not inline script, so
// a page's strict CSP (script-src 'self') allows it.

/** True (and the page replaced by a worded refusal) when this page is inside a frame. */
export function refuseIfFramed() {
  let framed;
  try {
    framed = window.top !== window.self;
  } catch (_) {
    // A browser that will not even say whether there is an outer page: treat it as one.
    framed = true;
  }
  if (!framed) return false;
  const main = document.createElement("main");
  const alert = document.createElement("p");
  alert.setAttribute("role", "alert");
  alert.dataset.testid = "framed";
  alert.textContent =
    "This page does not run inside another page: a page around it could steer your clicks. " +
    "Open it in a tab of its own.";
  const address = document.createElement("p");
  address.textContent = location.href;
  main.append(alert, address);
  document.body.replaceChildren(main);
  return true;
}
