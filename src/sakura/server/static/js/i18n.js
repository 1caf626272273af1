// Every visible string comes from a catalog the page loads: one JSON file a language in
// /static/i18n/ (languages.json lists them). Sentences are whole templates with
// {placeholders}; nothing is built by concatenating translated fragments. A message with
// plural forms is an object of CLDR categories ({"one": ..., "other": ...}) chosen by
// Intl.PluralRules from the parameter {n}. Numbers are formatted for the language (Persian
// digits in Persian). See docs/i18n.md.
const FALLBACK = "en";
const STORE = "sakuraLang";
let catalog = {};
let lang = FALLBACK;
let languages = [];
let numbers = new Intl.NumberFormat(FALLBACK, { useGrouping: false });
let plurals = new Intl.PluralRules(FALLBACK);

function cookieLang() {
  const match = document.cookie.split("; ").find((c) => c.startsWith("sakura_lang="));
  return match ? match.split("=")[1] : null;
}

// The first of: ?lang=xx, the choice remembered from the language menu, the browser's
// preferences (navigator.languages), English.
function pick(available) {
  const wanted = [new URLSearchParams(location.search).get("lang"), localStorage.getItem(STORE), cookieLang(),
    ...(navigator.languages || [navigator.language])];
  for (const w of wanted) {
    const base = (w || "").toLowerCase().split(/[-_]/)[0];
    if (available.includes(base)) return base;
  }
  return FALLBACK;
}

export async function loadCatalog() {
  languages = await (await fetch("/static/i18n/languages.json")).json();
  lang = pick(languages.map((l) => l.code));
  catalog = await (await fetch(`/static/i18n/${lang}.json`)).json();
  numbers = new Intl.NumberFormat(lang, { useGrouping: false });
  plurals = new Intl.PluralRules(lang);
  document.documentElement.lang = lang;
  document.documentElement.dir = languages.find((l) => l.code === lang).dir;
  document.title = t("app.title");
  translatePage();
  addLanguageMenu();
}

export const language = () => lang;
export const rtl = () => document.documentElement.dir === "rtl";

// A number in the page's language (Persian digits in Persian).
export function num(value) {
  return numbers.format(value);
}

// Latin digits are what the printed cards show: does this language write others?
export function foreignDigits() {
  return num(0) !== "0";
}

export function t(key, params = {}) {
  let template = catalog[key] ?? key;
  if (typeof template === "object") {
    const exact = template[`=${params.n}`];
    template = exact ?? template[plurals.select(Number(params.n))] ?? template.other;
  }
  return template.replace(/\{(\w+)\}/g, (_, name) => {
    if (!(name in params)) return `{${name}}`;
    const value = params[name];
    if (typeof value === "number") return num(value);
    // Names and other inserted text keep their own direction inside the sentence.
    return rtl() ? `\u2068${value}\u2069` : String(value);
  });
}

export function list(items) {
  return new Intl.ListFormat(lang, { style: "long", type: "conjunction" }).format(items.map(String));
}

export function translatePage(root = document) {
  for (const node of root.querySelectorAll("[data-i18n]")) node.textContent = t(node.dataset.i18n);
  for (const node of root.querySelectorAll("[data-i18n-title]")) node.title = t(node.dataset.i18nTitle);
  for (const node of root.querySelectorAll("[data-i18n-label]")) node.setAttribute("aria-label", t(node.dataset.i18nLabel));
}

// Remember a choice (this browser: localStorage and a cookie) and show the page again in it.
export function choose(code) {
  localStorage.setItem(STORE, code);
  document.cookie = `sakura_lang=${code}; path=/; max-age=${60 * 60 * 24 * 365}; SameSite=Lax`;
  const params = new URLSearchParams(location.search);
  params.delete("lang");
  const query = params.toString();
  location.replace(`${location.pathname}${query ? `?${query}` : ""}${location.hash}`);
}

// The language menu, in the header of every page. Each language is named in itself (and
// marked with its own lang), as language menus do.
function addLanguageMenu() {
  const header = document.querySelector("header.top");
  if (!header || document.getElementById("lang")) return;
  const select = document.createElement("select");
  select.id = "lang";
  // its own accessible name: a phone hides the visible label to save room (axe: select-name)
  select.setAttribute("aria-label", t("app.language"));
  for (const l of languages) {
    const option = document.createElement("option");
    option.value = l.code;
    option.lang = l.code;
    option.dir = l.dir;
    option.textContent = l.name;
    option.selected = l.code === lang;
    select.append(option);
  }
  select.addEventListener("change", () => choose(select.value));
  const label = document.createElement("label");
  label.className = "lang-menu";
  label.htmlFor = "lang";
  label.textContent = t("app.language");
  const box = document.createElement("span");
  box.className = "lang-box";
  box.append(label, select);
  header.append(box);
}
