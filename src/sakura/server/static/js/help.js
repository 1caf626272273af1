// The rules in brief and the legend of the card icons, on every page, in the page's language
// (docs/rules*.md tell the whole rules). A <details> under the header: closed until asked.
import { t } from "./i18n.js";
import { el, actionText, actionIcon } from "./common.js";

const SUMMARY = ["help.goal", "help.round", "help.moves", "help.bump", "help.scoring", "help.end", "help.two"];
const GARDEN = ["E+1", "E+2", "E-1", "E±1", "C-2", "F+2"];
const PAINTER = ["P+1", "P+2", "P+3", "P±1", "P±2", "P±3", "JUMP", "COUNT"];

function legend(title, codes) {
  return el("section", { class: "legend" }, el("h3", {}, t(title)),
    el("dl", {}, ...codes.flatMap((code) => [
      el("dt", { dir: "ltr" }, actionIcon(code)),
      el("dd", {}, actionText(code)),
    ])));
}

export function addHelp() {
  const header = document.querySelector("header.top");
  if (!header || document.getElementById("help")) return;
  const box = el("details", { id: "help", class: "help" }, el("summary", {}, t("help.title")),
    el("div", { class: "help-body" },
      el("section", {}, el("h3", {}, t("help.rules")), ...SUMMARY.map((key) => el("p", {}, t(key)))),
      legend("help.legend.garden", GARDEN),
      legend("help.legend.painter", PAINTER)));
  header.after(box);
}
