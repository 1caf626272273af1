// Seat names, colours and shapes, card faces: shared by the table and the replay pages.
import { t, num, foreignDigits } from "./i18n.js";

// Okabe–Ito colours (safe for the common colour-vision deficiencies), each with a shape and a
// letter as a second cue.
export const COLOURS = ["#E69F00", "#56B4E9", "#009E73", "#F0E442", "#0072B2", "#D55E00", "#CC79A7"];
export const SHAPES = ["circle", "square", "triangle", "diamond", "pentagon", "hexagon", "star"];
// Colour names and their letters come from the catalog (the letter is the colour's initial in
// each language).
const COLOUR_KEYS = ["colour.0", "colour.1", "colour.2", "colour.3", "colour.4", "colour.5", "colour.6"];
const LETTER_KEYS = ["letter.0", "letter.1", "letter.2", "letter.3", "letter.4", "letter.5", "letter.6"];
const LEVEL_KEYS = { easy: "level.easy", medium: "level.medium", hard: "level.hard" };
export const colourName = (seat) => t(COLOUR_KEYS[seat]);
export const letter = (seat) => t(LETTER_KEYS[seat]);

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
  const colour = colourName(seat);
  const info = table && table.seats[seat];
  if (seat === me) return t("seat.name_you", { colour });
  if (info && info.name) return t("seat.name_named", { name: info.name, colour });
  if (info && info.kind === "bot") return t("seat.name_bot", { colour, level: t(LEVEL_KEYS[info.level] ?? "level.medium") });
  return t("seat.name", { colour });
}

export let CARDS = {};

export async function loadCards() {
  const list = await (await fetch("/api/cards")).json();
  CARDS = Object.fromEntries(list.map((c) => [c.number, c]));
}

// A card action's sentence, from its code in the deck file (E+1, C-2, P±3, JUMP, ...).
const GARDEN_KEYS = { "E+": "garden.E+", "E-": "garden.E-", "E±": "garden.E?", "C-": "garden.C", "F+": "garden.F" };
const PAINTER_KEYS = { "P+": "painter.P+", "P-": "painter.P-", "P±": "painter.P?", JUMP: "painter.JUMP", COUNT: "painter.COUNT" };

export function actionText(code) {
  if (PAINTER_KEYS[code]) return t(PAINTER_KEYS[code]);
  const m = code.match(/^([ECFP][+\-±])(\d+)$/);
  const key = m && (GARDEN_KEYS[m[1]] || PAINTER_KEYS[m[1]]);
  return key ? t(key, { n: Number(m[2]) }) : code;
}

const GARDEN_ICON = { E: "♔", C: "◎", F: "⟫" };

// The icon of an action, as on the printed card; its amount in the page's digits.
export function actionIcon(code) {
  if (code === "JUMP") return "⤴";
  if (code === "COUNT") return "#";
  const head = code[0] === "P" ? "✎" : GARDEN_ICON[code[0]] || "?";
  return `${head}${code[1]}${num(Number(code.slice(2)))}`;
}

// A card face: its order number, garden action and painter action, icons with a tooltip.
// Where the language writes other digits, the number is shown in them with the printed
// (Latin) number small beneath, so the card stays recognisable.
export function cardFace(number, attrs = {}) {
  const card = CARDS[number];
  const tooltip = card
    ? t("card.tooltip", { n: number, garden: actionText(card.garden), painter: actionText(card.painter) })
    : t("card.label", { n: number });
  const face = el("span", { class: "card-number" }, num(number));
  if (foreignDigits()) face.append(el("small", { class: "card-latin", dir: "ltr" }, String(number)));
  return el("button", { class: "card", title: tooltip, "aria-label": tooltip, "data-card": number, ...attrs },
    face,
    el("span", { class: "card-garden", "aria-hidden": "true", dir: "ltr" }, card ? actionIcon(card.garden) : ""),
    el("span", { class: "card-painter", "aria-hidden": "true", dir: "ltr" }, card ? actionIcon(card.painter) : ""));
}
