// The rules in brief, in the page's language, on every page (docs/rules*.md and
// docs/rules-cards.md tell the whole rules): a <details> under the header, closed until
// asked. A table's page shows its game's rules; the lobby, where either game may be chosen,
// shows both.
import { t } from "./i18n.js";
import { el, actionText, actionIcon } from "./common.js";

const SUMMARY = ["help.goal", "help.round", "help.moves", "help.bump", "help.scoring", "help.end", "help.two"];
const GARDEN = ["E+1", "E+2", "E-1", "E±1", "C-2", "F+2"];
const PAINTER = ["P+1", "P+2", "P+3", "P±1", "P±2", "P±3", "JUMP", "COUNT"];
const CARDS_SUMMARY = ["help.cards.goal", "help.cards.deal", "help.cards.turn", "help.cards.order",
  "help.cards.scoring", "help.cards.blossoms", "help.cards.end"];

function legend(title, codes) {
  return el("section", { class: "legend" }, el("h3", {}, t(title)),
    el("dl", {}, ...codes.flatMap((code) => [
      el("dt", { dir: "ltr" }, actionIcon(code)),
      el("dd", {}, actionText(code)),
    ])));
}

function sakuraHelp(title) {
  return [el("section", {}, el("h3", {}, t(title)), ...SUMMARY.map((key) => el("p", {}, t(key)))),
    legend("help.legend.garden", GARDEN),
    legend("help.legend.painter", PAINTER)];
}

function cardsHelp(title) {
  return [el("section", { class: "help-cards" }, el("h3", {}, t(title)), ...CARDS_SUMMARY.map((key) => el("p", {}, t(key))))];
}

// `game`: "sakura", "sakura-cards" or "all".
export function addHelp(game = "all") {
  const header = document.querySelector("header.top");
  if (!header || document.getElementById("help")) return;
  let parts;
  if (game === "sakura-cards") parts = cardsHelp("help.rules");
  else if (game === "sakura") parts = sakuraHelp("help.rules");
  else parts = [...sakuraHelp("help.game.sakura"), ...cardsHelp("help.game.cards")];
  const box = el("details", { id: "help", class: "help" }, el("summary", {}, t("help.title")),
    el("div", { class: "help-body" }, ...parts));
  // The table keeps it in the header (a popover: the legend one tap away, the board in view).
  const slot = document.getElementById("help-slot");
  if (slot) slot.append(box);
  else header.after(box);
}
