// Every visible string comes from a catalog (one JSON file a language). Sentences are whole
// templates with {placeholders}; nothing is built by concatenating translated fragments.
let catalog = {};

export async function loadCatalog() {
  const wanted = (new URLSearchParams(location.search).get("lang") || localStorage.getItem("sakuraLang") || "en");
  const lang = /^[a-z]{2}$/.test(wanted) ? wanted : "en";
  let response = await fetch(`/static/i18n/${lang}.json`);
  if (!response.ok) response = await fetch("/static/i18n/en.json");
  catalog = await response.json();
  document.documentElement.lang = catalog._lang || lang;
  document.documentElement.dir = catalog._dir || "ltr";
  translatePage();
}

export function t(key, params = {}) {
  const template = catalog[key] ?? key;
  return template.replace(/\{(\w+)\}/g, (_, name) => (name in params ? String(params[name]) : `{${name}}`));
}

export function list(items) {
  return new Intl.ListFormat(document.documentElement.lang, { style: "long", type: "conjunction" }).format(items);
}

export function translatePage(root = document) {
  for (const el of root.querySelectorAll("[data-i18n]")) el.textContent = t(el.dataset.i18n);
  for (const el of root.querySelectorAll("[data-i18n-title]")) el.title = t(el.dataset.i18nTitle);
  for (const el of root.querySelectorAll("[data-i18n-label]")) el.setAttribute("aria-label", t(el.dataset.i18nLabel));
}
