// The moderators' page: reported messages (hide one), accounts (ban, unban), tables (close
// one), and the audit log of every moderator's action. Everything comes from /api/admin,
// which refuses anyone but an admin; every word a person typed is inserted as text.
import { loadCatalog, t } from "./i18n.js";
import { el } from "./common.js";
import { addAccountBox, post } from "./session.js";

const $ = (id) => document.getElementById(id);
const ACTIONS = { ban: "admin.action.ban", unban: "admin.action.unban", hide: "admin.action.hide",
  close: "admin.action.close", grant: "admin.action.grant", revoke: "admin.action.revoke",
  delete: "admin.action.delete" };
const when = (iso) => (iso ? new Date(iso).toLocaleString(document.documentElement.lang) : "");

function refused(key, detail) {
  const box = $("error");
  box.replaceChildren(el("span", {}, t(key)), ...(detail ? [" ", el("small", { lang: "en", dir: "ltr" }, detail)] : []));
  box.hidden = false;
}

async function act(url, body, doneKey) {
  const answer = await post(url, body);
  const data = await answer.json().catch(() => ({}));
  if (!answer.ok) { refused(answer.status === 404 ? "admin.not_found" : "admin.failed", data.detail); return; }
  $("error").hidden = true;
  $("done").textContent = t(doneKey);
  await show();
}

function report(r) {
  return el("li", { class: "admin-report", "data-message": r.chat_id },
    el("a", { href: `/t/${encodeURIComponent(r.table)}` }, r.table), " ",
    el("strong", {}, r.name || t("chat.spectator")), " ",
    el("span", { class: "chat-text", dir: "auto" }, r.text ?? r.phrase ?? ""), " ",
    r.reason ? el("em", { dir: "auto" }, r.reason) : "", " ",
    el("button", { type: "button", class: "small", "data-hide": r.chat_id,
      onclick: () => act("/api/admin/hide", { message: r.chat_id }, "admin.hidden") }, t("admin.hide")));
}

async function show() {
  const answer = await fetch("/api/admin");
  if (!answer.ok) { refused(answer.status === 403 ? "admin.forbidden" : "admin.failed"); $("main").hidden = true; return; }
  const data = await answer.json();
  $("main").hidden = false;
  $("reports").replaceChildren(...(data.reports.length ? data.reports.map(report) : [el("li", { class: "none" }, t("admin.no_reports"))]));
  $("banned").replaceChildren(...(data.banned.length ? data.banned.map((b) => el("li", {}, b.username, " ",
    el("button", { type: "button", class: "small secondary", onclick: () => act("/api/admin/unban", { username: b.username }, "admin.unbanned") },
      t("admin.unban")))) : [el("li", { class: "none" }, t("admin.none_banned"))]));
  $("audit").querySelector("tbody").replaceChildren(...data.audit.map((a) => el("tr", {},
    el("td", {}, when(a.at)), el("td", { dir: "auto" }, a.actor), el("td", {}, t(ACTIONS[a.action] ?? "admin.action.other")),
    el("td", { dir: "auto" }, a.target), el("td", { dir: "auto" }, a.detail ?? ""))));
}

await loadCatalog();
await addAccountBox();
$("ban-form").addEventListener("submit", (e) => {
  e.preventDefault();
  act("/api/admin/ban", { username: $("ban-username").value.trim(), reason: $("ban-reason").value.trim() || null }, "admin.banned_done");
});
$("unban").addEventListener("click", () => act("/api/admin/unban", { username: $("ban-username").value.trim() }, "admin.unbanned"));
$("close-form").addEventListener("submit", (e) => {
  e.preventDefault();
  act("/api/admin/close", { table: $("close-table").value.trim(), reason: $("close-reason").value.trim() || null }, "admin.closed");
});
await show();
