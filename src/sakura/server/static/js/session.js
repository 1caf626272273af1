// Who this browser is logged in as (GET /api/me), and POSTs that carry the session's CSRF
// token. Playing needs no account: logged out, everything works as it did.
import { t } from "./i18n.js";
import { el } from "./common.js";

let me = null;

export async function whoami(fresh = false) {
  if (!me || fresh) {
    try { me = await (await fetch("/api/me")).json(); } catch { me = { username: null, csrf: null, tables: [] }; }
  }
  return me;
}

// A state-changing request: JSON, with the token the server checks (csrf.py).
export async function post(url, body) {
  const { csrf } = await whoami();
  const headers = { "content-type": "application/json" };
  if (csrf) headers["x-csrf-token"] = csrf;
  return fetch(url, { method: "POST", headers, body: body === undefined ? undefined : JSON.stringify(body) });
}

// The header's corner: the player's name (their page) and "Log out", or "Log in".
export async function addAccountBox() {
  const header = document.querySelector("header.top");
  if (!header || document.getElementById("account")) return;
  const { username, admin } = await whoami();
  const box = el("span", { id: "account", class: "account-box" });
  box.append(el("a", { href: "/games", id: "archive-link" }, t("archive.link")), " ",
    el("a", { href: "/leaderboard", id: "leaderboard-link" }, t("board.link")), " ");
  if (admin) box.append(el("a", { href: "/admin", id: "admin-link" }, t("admin.title")), " ");
  if (username) {
    box.append(el("a", { href: `/u/${encodeURIComponent(username)}`, id: "me", class: "me-link" }, username), " ",
      el("button", { id: "logout", class: "small secondary", onclick: async () => {
        await post("/api/logout");
        location.reload();
      } }, t("account.logout")));
  } else {
    box.append(el("a", { href: `/login?next=${encodeURIComponent(location.pathname)}`, id: "login-link" }, t("account.login")));
  }
  header.append(box);
}
