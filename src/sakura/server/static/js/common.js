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
const LEVEL_KEYS = { easy: "level.easy", medium: "level.medium", hard: "level.hard", beginner: "level.beginner",
  casual: "level.casual", club: "level.club", expert: "level.expert", master: "level.master" };
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

// The short word under an action's symbols on a card face ("Emperor", "you", "jump").
const WORD_KEYS = { E: "cardword.E", C: "cardword.C", F: "cardword.F", P: "cardword.P", JUMP: "cardword.JUMP", COUNT: "cardword.COUNT" };
export const actionWord = (code) => t(WORD_KEYS[code] ?? WORD_KEYS[code[0]] ?? "cardword.P");

// A card face: its order number, garden action and painter action, each as symbols and a
// short word. Where the language writes other digits, the number is shown in them with the
// printed (Latin) number small beneath, so the card stays recognisable. The button is named
// by its content (the whole sentence for screen readers, the face for the eye), so what a
// reader hears starts with what is seen.
export function cardFace(number, attrs = {}) {
  const card = CARDS[number];
  const tooltip = card
    ? t("card.tooltip", { n: number, garden: actionText(card.garden), painter: actionText(card.painter) })
    : t("card.label", { n: number });
  const face = el("span", { class: "card-number" }, num(number));
  if (foreignDigits()) face.append(el("small", { class: "card-latin", dir: "ltr", "aria-hidden": "true" }, String(number)));
  const part = (cls, code) => el("span", { class: cls, "aria-hidden": "true" },
    el("span", { dir: "ltr" }, code ? actionIcon(code) : ""), el("span", { class: "card-word" }, code ? actionWord(code) : ""));
  const spoken = card ? t("card.spoken", { garden: actionText(card.garden), painter: actionText(card.painter) }) : "";
  return el("button", { class: "card", title: tooltip, "data-card": number, ...attrs },
    face, part("card-garden", card && card.garden), part("card-painter", card && card.painter),
    el("span", { class: "sr-only" }, spoken));
}
