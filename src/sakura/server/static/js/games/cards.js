// Sakura, the card game (garden, palace, temple) on the table and replay pages: both
// players' three areas as rows of cards with each area's score and the three cards behind
// it, your hand (the cards you received marked), whose turn and what to do, the round
// scores. A turn is two actions: place a card (pick it, then an area) or, when nothing fits,
// discard one; then give one. Everything offered comes from the view's legal actions.
import { t, list, num } from "../i18n.js";
import { el, COLOURS, SHAPES } from "../common.js";
import { CardsLog, cardName, describeArea } from "./cards_log.js";
import { CardsStage } from "./cards_stage.js";

const $ = (id) => document.getElementById(id);
const AREAS = ["garden", "palace", "temple"];
const AREA_KEYS = { garden: "cards.area.garden", palace: "cards.area.palace", temple: "cards.area.temple" };
const LEVEL_KEYS = { easy: "level.easy", medium: "level.medium", hard: "level.hard", beginner: "level.beginner",
  casual: "level.casual", club: "level.club", expert: "level.expert", master: "level.master" };
// Card colours: Okabe–Ito hues, each with its own shape, so colour is never the only cue.
const SUIT = {
  r: { colour: "#D55E00", shape: "◆" }, b: { colour: "#0072B2", shape: "●" },
  g: { colour: "#009E73", shape: "▲" }, y: { colour: "#F0E442", shape: "■" },
};

export const helpGame = "sakura-cards";
export const load = async () => {};
export const seatCount = () => 2;

export function seatName(seat, table, view, me) {
  const info = table && table.seats[seat];
  const n = seat + 1;
  if (seat === me) return t("cards.seat.you", { n });
  if (info && info.name) return t("cards.seat.named", { name: info.name, n });
  if (info && info.kind === "bot") return t("cards.seat.bot", { n, level: t(LEVEL_KEYS[info.level] ?? "level.medium") });
  return t("cards.seat", { n });
}

export function badge(seat) {
  return el("span", { class: `badge shape-${SHAPES[seat]}`, style: `background:${COLOURS[seat]}`, "aria-hidden": "true" },
    num(seat + 1));
}

// The points written down so far and, while a round is played, what its areas would score
// now (the engine's area_scores, the numbers shown on the areas), so the list agrees with them.
export const seatPoints = (view, seat) => view.totals[seat]; // the number alone (the phone's strip)
export const seatScore = (view, seat) => (view.terminal ? t("cards.points", { n: view.totals[seat] })
  : t("cards.points_round", { n: view.totals[seat], m: view.area_scores[seat].reduce((a, b) => a + b, 0) }));

export function newLog(listElement, name, me, options) {
  return new CardsLog(listElement, name, me, options);
}

// A card as printed: its number big, its colour's shape and a blossom if it bears one. The
// accessible name says it in words ("red 1 with a blossom").
export function cardFace(card, attrs = {}, tag = "button") {
  const suit = SUIT[card[0]];
  const label = cardName(card);
  return el(tag, { class: `card cc cc-${card[0]}`, title: label, "aria-label": label, "data-card": card,
    style: `--suit:${suit.colour}`, ...attrs },
  el("span", { class: "cc-number" }, num(Number(card[1]))),
  el("span", { class: "cc-suit", "aria-hidden": "true" }, suit.shape),
  card.endsWith("*") ? el("span", { class: "cc-blossom", "aria-hidden": "true" }, "✿") : "");
}

function facts(view, names) {
  const items = [el("li", { id: "facts-round" }, t("cards.round", { round: view.round, total: 3 })),
    el("li", {}, t("cards.starter", { name: names[view.starter] })),
    el("li", {}, t("cards.aside", { n: view.aside }))];
  return items;
}

// One player's three areas: each a row of cards, its score and what scores.
function playerPanel(view, seat, names, { targets = null, onPlace = null } = {}) {
  const areas = AREAS.map((area, i) => {
    const cards = view.areas[seat][i];
    const detail = view.area_details[seat][i];
    const best = [...detail.best];
    const row = el("div", { class: "area-cards" }, ...cards.map((card) => {
      const at = best.indexOf(card);
      if (at >= 0) best.splice(at, 1);
      return cardFace(card, { class: `card cc cc-${card[0]} mini${at >= 0 ? " scoring" : ""}` }, "span");
    }));
    if (!cards.length) row.append(el("span", { class: "area-empty" }, t("cards.area.empty")));
    const box = el("section", { class: "area", "data-area": area, "data-seat": seat },
      el("h3", {}, t(AREA_KEYS[area]), " ", el("span", { class: "area-points" }, num(view.area_scores[seat][i]))),
      row, el("p", { class: "area-score" }, describeArea(detail, cards.length)));
    if (targets && targets.has(area)) {
      box.classList.add("target");
      box.append(el("button", { class: "small place-here", "data-place": area, onclick: () => onPlace(area) },
        t("cards.place_here")));
    }
    return box;
  });
  const turn = !view.terminal && view.turn === seat;
  const line = [t("cards.hand_size", { n: view.hand_sizes[seat] }), t("cards.discards", { n: view.discard_counts[seat] }),
    t("cards.total", { n: view.totals[seat] })];
  if (view.round_scores[seat].length) {
    line.push(t("cards.rounds", { scores: list(view.round_scores[seat].map((s) => num(s))) }));
  }
  return el("section", { class: `cards-player${turn ? " turn" : ""}`, "data-seat": seat },
    el("h2", {}, badge(seat), " ", names[seat]),
    el("p", { class: "cards-facts" }, line.join(" · ")),
    el("div", { class: "areas" }, ...areas));
}

// The last round's scoring as the event told it: the areas are cleared right after.
function scoredPanel(scored, names) {
  return el("section", { class: "cards-scored", "aria-live": "polite" },
    el("h2", {}, t("cards.scored_title", { round: scored.round })),
    ...[0, 1].map((seat) => el("div", { class: "scored-seat" },
      el("h3", {}, t("cards.scored_seat", { name: names[seat], n: scored.areas[seat].reduce((a, b) => a + b, 0) })),
      el("ul", {}, ...AREAS.map((area, i) => el("li", {}, el("strong", {}, t(AREA_KEYS[area])),
        el("span", { class: "scored-cards" },
          ...scored.cards[seat][i].map((card) => cardFace(card, { class: `card cc cc-${card[0]} mini` }, "span"))),
        describeArea(scored.detail[seat][i], scored.cards[seat][i].length) || t("cards.area.empty")))))));
}

// The board: both players' areas; it scrolls where the screen is short, so the keyboard can
// reach it (axe: scrollable-region-focusable).
function board() {
  const box = $("board");
  box.tabIndex = 0;
  return box;
}

// Board order: the opponent above, you below (a spectator sees seat 2 above seat 1).
const order = (me) => (me === 1 ? [0, 1] : [1, 0]);

export function drawReplay(view, names) {
  board().replaceChildren(el("div", { class: "cards-board" }, ...order(null).map((s) => playerPanel(view, s, names))));
  $("facts").replaceChildren(...facts(view, names));
}

// One step forward in the replay, staged as the live table stages it (cards_stage.js, at the
// table's speed): the board starts from the step before and each event plays on it. `alive()`
// turns false when the reader has moved on: nothing more is drawn then. Resolves with what was
// staged (the page's tests read it).
export async function stageReplay(before, step, names, ms, alive) {
  const table = new Table({ act: () => {} });
  const draw = table.drawBoard.bind(table);
  table.drawBoard = (view, ctx) => { if (alive()) draw(view, ctx); };
  table.view = before;
  table.ctx = { me: null, names };
  table.drawBoard(before, table.ctx);
  table.stage.upcoming(step.view, step.events);
  for (const event of step.events) {
    if (!alive()) break;
    await table.event(event, ms);
  }
  return table.stage.log;
}

export function result(view, names, me = null) {
  const { winners, scores } = view.outcome;
  const headline = winners.length === 1
    ? t("cards.result.one", { name: names[winners[0]], n: scores[winners[0]], other: scores[1 - winners[0]] })
    : t("cards.result.draw", { n: scores[0] });
  const rows = [0, 1].sort((a, b) => Number(winners.includes(b)) - Number(winners.includes(a)) || scores[b] - scores[a])
    .map((seat) => ({ seat, winner: winners.includes(seat), me: seat === me,
      text: t("cards.result.row", { name: names[seat], n: scores[seat], rounds: list(view.round_scores[seat].map((s) => num(s))) }) }));
  return { headline, reason: "", rows };
}

// The engine's score sheet of a finished game (GET /api/tables/ID/score-sheet): a column a
// player (the engine's order: the winner first), and for each round a row an area with its
// points and the combination that scored, the cards discarded and given, the round's points
// and the running total; the game's total last. Every number is the sheet's: none is added here.
export function scoreSheet(sheet, names, me = null) {
  const seats = sheet.order;
  const faces = (cards) => (cards.length
    ? el("span", { class: "sheet-cards" }, ...cards.map((card) => cardFace(card, { class: `card cc cc-${card[0]} mini` }, "span")))
    : "·");
  const row = (label, cells, attrs = {}) => el("tr", attrs, el("th", { scope: "row" }, label), ...cells);
  const head = el("tr", {}, el("th", { scope: "col" }, t("cards.sheet.round_col")), ...seats.map((seat) => el("th",
    { scope: "col", class: [sheet.winners.includes(seat) ? "winner" : "", seat === me ? "me" : ""].join(" ").trim() || null,
      "data-seat": String(seat) }, names[seat], ...(seat === me ? [" ", el("span", { class: "you-tag" }, t("table.you_short"))] : []))));
  const bodies = sheet.rounds.map((round) => el("tbody", { "data-round": String(round.round) },
    el("tr", { class: "sheet-round" }, el("th", { scope: "colgroup", colspan: String(seats.length + 1) },
      t("cards.round", { round: round.round, total: sheet.rounds.length }))),
    ...sheet.areas.map((area, i) => row(t(AREA_KEYS[area]), seats.map((seat) => el("td", { "data-area": area },
      el("strong", { class: "sheet-points" }, num(round.areas[seat][i])), " ",
      el("small", {}, describeArea(round.detail[seat][i], round.cards[seat][i].length) || t("cards.area.empty")))))),
    row(t("cards.sheet.discarded"), seats.map((seat) => el("td", {}, faces(round.discarded[seat])))),
    row(t("cards.sheet.given"), seats.map((seat) => el("td", {}, faces(round.given[seat])))),
    row(t("cards.sheet.round_points", { round: round.round }), seats.map((seat) => el("td", { class: "total" },
      t("cards.sheet.points_total", { n: round.points[seat], total: round.totals[seat] }))), { class: "sheet-sum" })));
  const foot = el("tfoot", {}, row(t("cards.sheet.total"), seats.map((seat) => el("td", { class: "total", "data-seat": String(seat) },
    num(sheet.totals[seat])))));
  return el("div", { class: "score-sheet cards-sheet" },
    el("table", {}, el("caption", {}, t("table.sheet")), el("thead", {}, head), ...bodies, foot));
}

// A replay's move, named once the game is over (the step carries the action, public then):
// "Player 1 places the red 3 in the garden", "… gives Player 2 the blue 4", "… discards …".
export function moveLabel(step, names) {
  const name = names[step.seat] ?? "";
  const [verb, card, area] = (step.action ?? "").split(" ");
  if (verb === "place" && AREA_KEYS[area]) return t(`cards.log.placed.${area}`, { name, card: cardName(card) });
  if (verb === "give") return t("cards.move.gives", { name, other: names[1 - step.seat] ?? "", card: cardName(card) });
  if (verb === "discard") return t("cards.move.discards", { name, card: cardName(card) });
  return t("replay.move.play", { name });
}

export class Table {
  constructor({ act }) {
    this.act = act;
    this.selected = null; // the card picked to place, before its area
    this.scored = null; // the last round_scored event: how the last round scored, shown beneath
    this.stage = new CardsStage(this); // each update's events staged on the board (cards_stage.js)
    this.ctx = { me: null, names: [] };
  }

  setView(view) {
    if (this.selected && !view.legal_actions.some((a) => a.startsWith(`place ${this.selected} `))) this.selected = null;
  }

  // The update about to be staged (table.js tells it before its events).
  upcoming(view, events) {
    this.stage.upcoming(view, events);
  }

  // Stage one event at `ms` a step; resolves when it is over.
  event(event, ms) {
    if (event.type === "round_scored") this.scored = event;
    return this.stage.event(event, ms);
  }

  drawBoard(view, ctx) {
    const mine = ctx.me !== null && !ctx.busy ? this.targets(view) : null;
    const panels = order(ctx.me).map((seat) => playerPanel(view, seat, ctx.names,
      seat === ctx.me ? { targets: mine, onPlace: (area) => this.place(area) } : {}));
    const parts = [el("div", { class: "cards-board" }, ...panels)];
    if (this.scored) parts.push(scoredPanel(this.scored, ctx.names));
    board().replaceChildren(...parts);
  }

  // The areas the selected card may go to, by the view's legal actions.
  targets(view) {
    if (!this.selected) return null;
    return new Set(view.legal_actions.filter((a) => a.startsWith(`place ${this.selected} `)).map((a) => a.split(" ")[2]));
  }

  place(area) {
    const card = this.selected;
    this.selected = null;
    this.act(`place ${card} ${area}`);
  }

  render(view, ctx) {
    this.view = view;
    this.ctx = ctx;
    this.drawBoard(view, ctx);
    $("facts").replaceChildren(...facts(view, ctx.names));
    if (ctx.me !== null) this.renderHand(view, ctx);
  }

  seatStatus(view, seat) {
    if (view.terminal || view.turn !== seat) return "";
    return t(view.phase === "give" ? "cards.status.giving" : "cards.status.placing");
  }

  renderHand(view, ctx) {
    const legal = view.legal_actions;
    const discarding = legal.length > 0 && legal.every((a) => a.startsWith("discard "));
    const giving = legal.length > 0 && legal.every((a) => a.startsWith("give "));
    const received = [...view.received];
    const newest = received.length ? received[received.length - 1] : null;
    let newestShown = false;
    const buttons = view.hand.map((card, i) => {
      const at = received.indexOf(card);
      const gift = at >= 0;
      if (gift) received.splice(at, 1);
      const isNewest = gift && card === newest && !newestShown;
      if (isNewest) newestShown = true;
      const enabled = !ctx.busy && legal.some((a) => a.split(" ")[1] === card);
      const classes = ["card", "cc", `cc-${card[0]}`, gift ? "received" : "", isNewest ? "newest" : ""].filter(Boolean);
      const button = cardFace(card, { class: classes.join(" "), disabled: !enabled,
        "aria-pressed": this.selected === card ? "true" : "false", "data-key": i < 9 ? i + 1 : i === 9 ? 0 : null });
      if (gift) button.append(el("span", { class: "cc-gift" }, t("cards.received_mark")));
      button.addEventListener("click", () => this.choose(card));
      return button;
    });
    $("hand").replaceChildren(...buttons);
    const choiceBox = $("choice");
    const targets = this.targets(view);
    choiceBox.hidden = !targets;
    if (targets) {
      choiceBox.replaceChildren(...AREAS.filter((a) => targets.has(a)).map((area) => el("button",
        { "data-area": area, onclick: () => this.place(area), disabled: ctx.busy }, t(AREA_KEYS[area]))),
      el("button", { class: "secondary", "data-cancel": "", onclick: () => this.cancel() }, t("cards.cancel")));
    }
    const prompt = $("prompt");
    const other = ctx.names[1 - ctx.me];
    if (view.terminal) prompt.textContent = "";
    else if (targets) prompt.textContent = t("cards.choose_area", { card: cardName(this.selected) });
    else if (giving) prompt.textContent = t("cards.choose_give", { name: other });
    else if (discarding) prompt.textContent = t("cards.choose_discard");
    else if (legal.length) prompt.textContent = t("cards.choose_place");
    else prompt.textContent = t("cards.waiting", { name: other });
    const gifts = view.received.length
      ? t("cards.received", { cards: list(view.received.map(cardName)) }) : "";
    const given = view.given.length ? t("cards.given", { cards: list(view.given.map(cardName)) }) : "";
    $("hand-notes").replaceChildren(...[gifts, given].filter(Boolean).map((text) => el("p", {}, text)));
    if (targets && document.activeElement?.closest("#hand")) choiceBox.querySelector("button")?.focus();
  }

  choose(card) {
    const legal = this.view.legal_actions;
    if (legal.includes(`give ${card}`)) return this.act(`give ${card}`);
    if (legal.includes(`discard ${card}`)) return this.act(`discard ${card}`);
    this.selected = this.selected === card ? null : card;
    this.render(this.view, this.ctx);
    $("choice").querySelector("button")?.focus();
  }

  cancel() {
    this.selected = null;
    this.render(this.view, this.ctx);
  }

  // 1-9 and 0 pick the hand's first ten cards; Escape puts a picked card back.
  key(e) {
    if (/^[0-9]$/.test(e.key)) document.querySelector(`#hand button[data-key="${e.key}"]:not([disabled])`)?.click();
    if (e.key === "Escape" && this.selected) this.cancel();
  }
}
