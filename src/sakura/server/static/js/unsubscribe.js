// The pages of an e-mail's unsubscribe link. The button posts to the same address without this
// browser's cookies (credentials: "omit"): the signed token in the address is the authority, as
// in a mail program's one-click POST (RFC 8058), so a logged-in browser needs no CSRF token.
import { loadCatalog, t, translatePage } from "./i18n.js";

await loadCatalog();
translatePage();
const form = document.getElementById("unsubscribe-form");
if (form) {
  form.addEventListener("submit", async (event) => {
    event.preventDefault();
    const answer = await fetch(location.pathname, { method: "POST", credentials: "omit" }).catch(() => null);
    const said = document.getElementById("unsubscribe-said");
    said.textContent = t(answer && answer.ok ? "unsubscribe.done" : "unsubscribe.bad");
    said.hidden = false;
    form.hidden = answer && answer.ok;
  });
}
document.body.dataset.ready = "1";
