// The extension's service worker: the toolbar button opens the side panel (sidepanel.html).
// It holds no state and talks to no server; the panel page does that.
chrome.sidePanel
  .setPanelBehavior({ openPanelOnActionClick: true })
  .catch((e) => console.error("mcp-elicit: the toolbar button cannot open the side panel:", e));
