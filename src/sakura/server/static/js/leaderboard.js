// The leaderboard of one class and mode (real time or turn-based: ratings of their own): best
// first by mu - 3 sigma (a rating the player has shown, not only hoped for), 25 a page.
import { loadCatalog, t, num } from "./i18n.js";
import { el } from "./common.js";
import { addAccountBox } from "./session.js";
import { pager, rating } from "./people.js";

const $ = (id) => document.getElementById(id);
const params = new URLSearchParams(location.search);
let page = 0;

async function show() {
  const search = new URLSearchParams({ class: $("class").value, mode: $("mode").value, page: String(page) });
  const data = await (await fetch(`/api/leaderboard?${search}`)).json();
  $("rows").replaceChildren(...(data.players.length ? data.players.map((p) => el("tr", {},
    el("td", {}, num(p.rank)),
    el("td", {}, el("a", { href: `/u/${encodeURIComponent(p.username)}` }, p.username)),
    el("td", {}, rating(p)), el("td", {}, num(p.games)), el("td", {}, num(p.wins))))
    : [el("tr", {}, el("td", { colspan: "5", class: "none" }, t("board.empty")))]));
  pager(data, page, (p) => { page = Math.max(0, p); show(); });
}

await loadCatalog();
await addAccountBox();
if (params.get("class")) $("class").value = params.get("class");
if (params.get("mode")) $("mode").value = params.get("mode");
for (const id of ["class", "mode"]) $(id).addEventListener("change", () => { page = 0; show(); });
show();
