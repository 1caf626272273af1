// Log in or sign up, then back to the page the player came from (?next=, this site's only).
import { loadCatalog, t } from "./i18n.js";
import { el } from "./common.js";
import { post, whoami } from "./session.js";

const $ = (id) => document.getElementById(id);
const ERRORS = { bad_login: "account.error.bad_login", taken: "account.error.taken", bad_name: "account.error.bad_name",
  bad_password: "account.error.bad_password", rate_limited: "account.error.rate_limited", csrf: "account.error.csrf",
  banned: "account.error.banned" };

function next() {
  const target = new URLSearchParams(location.search).get("next") || "/";
  return target.startsWith("/") && !target.startsWith("//") ? target : "/";
}

async function submit(event, url, prefix) {
  event.preventDefault();
  const response = await post(url, { username: $(`${prefix}-username`).value.trim(), password: $(`${prefix}-password`).value });
  const data = await response.json().catch(() => ({}));
  // One message, in the reader's language, under the button just pressed; the server's own
  // words (English) only when no translation fits its code.
  for (const form of ["login", "signup"]) $(`${form}-error`).hidden = true;
  if (!response.ok) {
    const box = $(`${prefix}-error`);
    const key = ERRORS[data.code];
    box.replaceChildren(el("span", {}, t(key ?? "account.error.other")),
      ...(key ? [] : [" ", el("small", { class: "detail", lang: "en", dir: "ltr" }, String(data.detail ?? ""))]));
    box.hidden = false;
    return;
  }
  if (!localStorage.getItem("sakuraName")) localStorage.setItem("sakuraName", data.username);
  location.href = next();
}

await loadCatalog();
await whoami();
$("login-form").addEventListener("submit", (e) => submit(e, "/api/login", "login"));
$("signup-form").addEventListener("submit", (e) => submit(e, "/api/signup", "signup"));
// Enabled only now: a form sent before its script is ready would go to the server as a page
// request, the password with it.
$("login").disabled = false;
$("signup").disabled = false;
