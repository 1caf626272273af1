// The replay page: a finished game, move by move, as a spectator saw it. The game's module
// draws each step's board, facts and log.
import { loadCatalog, t } from "./i18n.js";
import { el } from "./common.js";
import { gameModule } from "./games/index.js";
import { addHelp } from "./help.js";

const $ = (id) => document.getElementById(id);
const tableId = location.pathname.split("/").pop();
let steps = [];
let table = null;
let index = 0;
let game = null;

function show(i) {
  index = Math.max(0, Math.min(steps.length - 1, i));
  const { view, events } = steps[index];
  const names = [...Array(game.seatCount(view)).keys()].map((s) => game.seatName(s, table, view, null));
  game.drawReplay(view, names);
  $("position").textContent = t("replay.step", { n: index, total: steps.length - 1 });
  $("seats").replaceChildren(...names.map((name, s) => el("li", { class: "seat" }, game.badge(s),
    el("span", { class: "seat-name" }, name), el("span", { class: "seat-tokens" }, game.seatScore(view, s)))));
  $("log").replaceChildren();
  const log = game.newLog($("log"), (s) => names[s] ?? String(s), null, { newestFirst: false });
  for (const event of events) log.event(event);
}

await loadCatalog();
const response = await fetch(`/api/tables/${tableId}/replay`);
if (!response.ok) {
  addHelp("all");
  $("error").textContent = t("replay.unavailable");
  $("error").hidden = false;
} else {
  ({ steps, table } = await response.json());
  game = await gameModule(table.game);
  await game.load();
  document.body.dataset.game = table.game;
  addHelp(game.helpGame);
  $("title").textContent = t("replay.title", { id: tableId });
  $("first").addEventListener("click", () => show(0));
  $("prev").addEventListener("click", () => show(index - 1));
  $("next").addEventListener("click", () => show(index + 1));
  $("last").addEventListener("click", () => show(steps.length - 1));
  document.addEventListener("keydown", (e) => {
    if (e.key === "ArrowRight") show(index + (document.documentElement.dir === "rtl" ? -1 : 1));
    if (e.key === "ArrowLeft") show(index - (document.documentElement.dir === "rtl" ? -1 : 1));
  });
  show(0);
}
