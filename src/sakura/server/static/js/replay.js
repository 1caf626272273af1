// The replay page: a finished game, move by move, as a spectator saw it.
import { loadCatalog, t } from "./i18n.js";
import { el, seatName, COLOURS, SHAPES, letter } from "./common.js";
import { drawGarden } from "./garden.js";
import { LogWriter } from "./log.js";
import { addHelp } from "./help.js";

const $ = (id) => document.getElementById(id);
const tableId = location.pathname.split("/").pop();
let steps = [];
let table = null;
let index = 0;

function show(i) {
  index = Math.max(0, Math.min(steps.length - 1, i));
  const { view, events } = steps[index];
  const names = view.painters.map((_, s) => seatName(s, table, view, null));
  drawGarden($("garden"), view, { names });
  $("position").textContent = t("replay.step", { n: index, total: steps.length - 1 });
  $("facts").replaceChildren(
    el("li", {}, t("table.round", { round: view.round })),
    el("li", {}, t("table.deck", { n: view.deck_size })),
    el("li", {}, t("table.supply", { n: view.supply })),
    el("li", {}, t("table.scored", { n: view.scored, total: view.sakuras.length })));
  $("seats").replaceChildren(...view.painters.map((_, s) => el("li", { class: "seat" },
    el("span", { class: `badge shape-${SHAPES[s]}`, style: `background:${COLOURS[s]}`, "aria-hidden": "true" }, letter(s)),
    el("span", { class: "seat-name" }, names[s]), el("span", { class: "seat-tokens" }, t("table.tokens", { n: view.tokens[s] })))));
  $("log").replaceChildren();
  const log = new LogWriter($("log"), (s) => names[s] ?? String(s), null, { newestFirst: false });
  for (const event of events) log.event(event);
}

await loadCatalog();
addHelp();
const response = await fetch(`/api/tables/${tableId}/replay`);
if (!response.ok) {
  $("error").textContent = t("replay.unavailable");
  $("error").hidden = false;
} else {
  ({ steps, table } = await response.json());
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
