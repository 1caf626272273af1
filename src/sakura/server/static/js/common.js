// Seat names, colours and shapes, card faces: shared by the table and the replay pages.
import { t } from "./i18n.js";

// Okabe–Ito colours (safe for the common colour-vision deficiencies), each with a shape and a
// letter as a second cue.
export const COLOURS = ["#E69F00", "#56B4E9", "#009E73", "#F0E442", "#0072B2", "#D55E00", "#CC79A7"];
export const SHAPES = ["circle", "square", "triangle", "diamond", "pentagon", "hexagon", "star"];
export const LETTERS = ["O", "B", "G", "Y", "N", "R", "P"];

export function el(tag, attrs = {}, ...children) {
  const node = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) {
    if (v === null || v === undefined || v === false) continue;
    if (k === "class") node.className = v;
    else if (k.startsWith("on")) node.addEventListener(k.slice(2), v);
    else node.setAttribute(k, v === true ? "" : v);
  }
  for (const c of children) node.append(c);
  return node;
}

// The painter seat index of the court painter is the last one (view.court).
export function seatName(seat, table, view, me) {
  if (view && view.court !== null && seat === view.court) return t("seat.court");
  const colour = t(`colour.${seat}`);
  const info = table && table.seats[seat];
  if (seat === me) return t("seat.name_you", { colour });
  if (info && info.name) return t("seat.name_named", { name: info.name, colour });
  if (info && info.kind === "bot") return t("seat.name_bot", { colour, level: t(`level.${info.level}`) });
  return t("seat.name", { colour });
}

export let CARDS = {};

export async function loadCards() {
  const list = await (await fetch("/api/cards")).json();
  CARDS = Object.fromEntries(list.map((c) => [c.number, c]));
}

function gardenText(code) {
  const m = code.match(/^(E|C|F)(\+|-|±)(\d+)$/);
  if (!m) return code;
  const [, who, sign, n] = m;
  if (who === "E") return t(sign === "±" ? "garden.E?" : `garden.E${sign}`, { n });
  return t(`garden.${who}`, { n });
}

function painterText(code) {
  if (code === "JUMP" || code === "COUNT") return t(`painter.${code}`);
  const m = code.match(/^P(\+|-|±)(\d+)$/);
  if (!m) return code;
  return t(m[1] === "±" ? "painter.P?" : `painter.P${m[1]}`, { n: m[2] });
}

const GARDEN_ICON = { E: "♔", C: "◎", F: "⟫" };

function gardenIcon(code) {
  return `${GARDEN_ICON[code[0]] || "?"}${code.slice(1)}`;
}

function painterIcon(code) {
  if (code === "JUMP") return "⤴";
  if (code === "COUNT") return "#";
  return `✎${code.slice(1)}`;
}

// A card face: its order number, garden action and painter action, icons with a tooltip.
export function cardFace(number, attrs = {}) {
  const card = CARDS[number];
  const tooltip = card
    ? t("card.tooltip", { n: number, garden: gardenText(card.garden), painter: painterText(card.painter) })
    : t("card.label", { n: number });
  return el("button", { class: "card", title: tooltip, "aria-label": tooltip, "data-card": number, ...attrs },
    el("span", { class: "card-number" }, String(number)),
    el("span", { class: "card-garden", "aria-hidden": "true" }, card ? gardenIcon(card.garden) : ""),
    el("span", { class: "card-painter", "aria-hidden": "true" }, card ? painterIcon(card.painter) : ""));
}
