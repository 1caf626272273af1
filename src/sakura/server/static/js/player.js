// A player's page: each class's rating with its uncertainty, a plot of its history (SVG drawn
// here, from the numbers), games and wins, and the player's finished games.
import { loadCatalog, t, num, language } from "./i18n.js";
import { el } from "./common.js";
import { addAccountBox, post, whoami } from "./session.js";
import { className, fail, gameRow, rating } from "./people.js";
import { pushButton } from "./push.js";

const $ = (id) => document.getElementById(id);
const username = decodeURIComponent(location.pathname.split("/").pop());
const NS = "http://www.w3.org/2000/svg";
const MODES = ["realtime", "turn"];

function svg(tag, attrs = {}, ...children) {
  const node = document.createElementNS(NS, tag);
  for (const [k, v] of Object.entries(attrs)) node.setAttribute(k, String(v));
  node.append(...children);
  return node;
}

// mu after each game, with a band of ± sigma; the first point is the starting rating.
export function plot(history, label) {
  const points = [{ mu: 25, sigma: 25 / 3 }, ...history];
  const w = 320, h = 140, pad = 24;
  const lo = Math.min(...points.map((p) => p.mu - p.sigma)), hi = Math.max(...points.map((p) => p.mu + p.sigma));
  const x = (i) => pad + (i * (w - 2 * pad)) / Math.max(1, points.length - 1);
  const y = (v) => h - pad - ((v - lo) * (h - 2 * pad)) / Math.max(1e-9, hi - lo);
  const line = points.map((p, i) => `${x(i).toFixed(1)},${y(p.mu).toFixed(1)}`).join(" ");
  const band = [...points.map((p, i) => `${x(i).toFixed(1)},${y(p.mu + p.sigma).toFixed(1)}`),
    ...points.map((p, i) => `${x(i).toFixed(1)},${y(p.mu - p.sigma).toFixed(1)}`).reverse()].join(" ");
  return svg("svg", { class: "rating-plot", viewBox: `0 0 ${w} ${h}`, role: "img", "aria-label": label },
    svg("title", {}, label),
    svg("polygon", { points: band, class: "rating-band" }),
    svg("polyline", { points: line, class: "rating-line", fill: "none" }),
    ...points.map((p, i) => svg("circle", { cx: x(i).toFixed(1), cy: y(p.mu).toFixed(1), r: 2.5, class: "rating-point" })),
    svg("text", { x: 2, y: y(hi) + 10, class: "rating-axis" }, num(Math.round(hi))),
    svg("text", { x: 2, y: y(lo), class: "rating-axis" }, num(Math.round(lo))));
}

await loadCatalog();
await addAccountBox();
const response = await fetch(`/api/players/${encodeURIComponent(username)}`);
if (!response.ok) fail("player.missing");
else {
  const data = await response.json();
  $("title").textContent = data.username;
  // real-time and turn-based ratings apart (ratings.py ``mode_of``), each class a card
  const cards = MODES.flatMap((mode) => Object.keys(data.ratings[mode] ?? {}).map((klass) => {
    const r = data.ratings[mode][klass];
    const name = `${className(klass)} · ${t(`mode.${mode}`)}`;
    return el("section", { class: "rating-card", "data-class": klass, "data-mode": mode },
      el("h3", {}, name),
      el("p", { class: "rating-value" }, rating(r)),
      el("p", {}, t("player.record", { wins: num(r.wins), n: r.games })),
      plot(data.history[mode]?.[klass] ?? [], t("player.plot", { klass: name })));
  }));
  $("ratings").replaceChildren(el("h2", {}, t("player.ratings")),
    ...(cards.length ? cards : [el("p", { class: "none" }, t("player.unrated"))]));
  $("games").replaceChildren(...(data.games.games.length ? data.games.games.map(gameRow)
    : [el("li", { class: "none" }, t("lobby.none_finished"))]));
  if ((await whoami()).username === data.username) $("main").append(await notifications(), deletion());
}

// On one's own page: notifications when the page is closed (turn-based tables): e-mail, with the
// address it goes to, and Web Push in this browser. Both off until turned on.
async function notifications() {
  const section = el("section", { id: "notify-section" }, el("h2", {}, t("notifications.title")),
    el("p", {}, t("notifications.what")));
  const answer = await fetch("/api/notifications");
  if (!answer.ok) return section;
  const choices = await answer.json();
  const address = el("input", { id: "notify-email", type: "email", maxlength: "254", autocomplete: "email",
    value: choices.email ?? "" });
  const on = el("input", { id: "notify-email-on", type: "checkbox", checked: choices.email_on });
  const status = el("p", { id: "notify-status", role: "status" });
  const form = el("form", { id: "notify-form", class: "account-form" },
    el("p", {}, el("label", { for: "notify-email" }, t("notifications.email")), address),
    el("p", {}, on, " ", el("label", { for: "notify-email-on" }, t("notifications.email_on"))),
    el("p", {}, el("button", { type: "submit", id: "notify-save" }, t("notifications.save"))), status);
  if (!choices.mail_available) form.prepend(el("p", { class: "note", id: "notify-mail-off" }, t("notifications.mail_off")));
  form.addEventListener("submit", async (e) => {
    e.preventDefault();
    const saved = await post("/api/notifications", { email: address.value.trim() || null, email_on: on.checked,
      language: language() });
    status.textContent = t(saved.ok ? "notifications.saved" : "notifications.bad_email");
  });
  section.append(form, el("p", { id: "notify-push-count" }, t("notifications.push", { n: choices.push })));
  const button = choices.push_available ? await pushButton() : null;
  if (button) section.append(el("p", {}, button));
  return section;
}

// On one's own page: delete the account, the password asked again (games stay, unnamed).
function deletion() {
  const password = el("input", { id: "delete-password", type: "password", maxlength: "200", required: true,
    autocomplete: "current-password" });
  const error = el("p", { id: "delete-error", class: "form-error", role: "alert", hidden: true });
  const form = el("form", { id: "delete-form", class: "account-form" },
    el("p", {}, t("account.delete_what")),
    el("p", {}, el("label", { for: "delete-password" }, t("account.password")), password),
    el("p", {}, el("button", { type: "submit", id: "delete-account", class: "danger" }, t("account.delete"))), error);
  form.addEventListener("submit", async (e) => {
    e.preventDefault();
    const answer = await post("/api/account/delete", { password: password.value });
    if (answer.ok) { location.href = "/"; return; }
    error.textContent = t(answer.status === 401 ? "account.error.bad_login" : "account.error.other");
    error.hidden = false;
  });
  return el("section", { id: "delete-section" }, el("h2", {}, t("account.delete_title")), form);
}
