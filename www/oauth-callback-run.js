// The script of oauth-callback.html (a file, not inline, so a strict CSP such as an
// extension's `script-src 'self'` runs it): hands the sign-in back, or says why not.
import { handleOAuthCallback } from "./oauth-callback.js";

if (handleOAuthCallback() === "none") {
  const note = document.querySelector("[data-testid=oauth-callback]");
  if (note) note.textContent = "No sign-in is waiting for this page. You can close this window.";
}
