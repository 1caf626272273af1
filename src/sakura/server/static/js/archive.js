// The archive: every finished game, newest first, 20 a page; a search by a player's name
// (the whole name, any case), real-time or turn-based games only. The query is kept in the
// address (?q=&mode=&page=) for links.
import { loadCatalog, t } from "./i18n.js";
import { el } from "./common.js";
import { addAccountBox } from "./session.js";
import { gameRow, pager } from "./people.js";

const $ = (id) => document.getElementById(id);
const params = new URLSearchParams(location.search);
let query = params.get("q") ?? "";
let mode = params.get("mode") ?? "";
const address = (extra = {}) => `?${new URLSearchParams({ ...(query ? { q: query } : {}), ...(mode ? { mode } : {}), ...extra })}`;
let page = Number(params.get("page") ?? 0) || 0;

async function show() {
  const search = new URLSearchParams({ page: String(page) });
  if (query) search.set("q", query);
  if (mode) search.set("mode", mode);
  const data = await (await fetch(`/api/archive?${search}`)).json();
  $("games").replaceChildren(...(data.games.length ? data.games.map(gameRow)
    : [el("li", { class: "none" }, t(query ? "archive.none_named" : "lobby.none_finished", { name: query }))]));
  $("summary").textContent = query ? t("archive.results", { name: query }) : "";
  pager(data, page, (p) => { page = Math.max(0, p); history.replaceState(null, "", address({ page })); show(); });
}

// The box and its handler are set up before anything is awaited, so what a quick hand types
// while the catalog loads is neither overwritten nor submitted as a page reload.
$("q").value = query;
$("mode").value = mode;
const ready = (async () => { await loadCatalog(); await addAccountBox(); })();
$("search").addEventListener("submit", async (e) => {
  e.preventDefault();
  query = $("q").value.trim();
  mode = $("mode").value;
  page = 0;
  history.replaceState(null, "", query || mode ? address() : location.pathname);
  await ready;
  show();
});
$("mode").addEventListener("change", () => $("search").requestSubmit());
await ready;
show();
