// The card game staged, event by event, at the table's chosen speed: a placed card travels
// from the hand (or the player's name) to the end of its area, then the area's points change
// with their reason (the engine's: the next view's area score and explanation, or the round's
// scoring when this action ends the round, since the areas are cleared right after); a gift
// travels face down from giver to receiver, a discard face down to the discarder's pile; a
// round's scoring is announced. Nothing is scored here: every number is the engine's.
import { t, num } from "../i18n.js";
import { el } from "../common.js";
import { cue } from "../sound.js";
import { describeArea } from "./cards_log.js";

const AREAS = ["garden", "palace", "temple"];
const $ = (id) => document.getElementById(id);
const pause = (ms) => new Promise((r) => setTimeout(r, ms));
const copy = (value) => JSON.parse(JSON.stringify(value));
const centre = (rect) => [rect.left + rect.width / 2, rect.top + rect.height / 2];

export class CardsStage {
  constructor(table) {
    this.table = table; // the card game's Table: its view on screen, its drawBoard and context
    this.shown = null; // the view as staged so far (a copy of the one on screen)
    this.next = null; // the update being staged: its view and its round's scoring, if any
    this.log = []; // what was staged, in order (the page's tests read it)
  }

  // The update about to be staged: the board starts from the view on screen.
  upcoming(view, events) {
    this.shown = this.table.view ? copy(this.table.view) : null;
    this.next = { view, scored: events.find((e) => e.type === "round_scored") ?? null };
  }

  // What `seat`'s area `i` scores once this update is done, with the engine's explanation.
  after(seat, i) {
    const { scored, view } = this.next;
    if (scored) return { points: scored.areas[seat][i], detail: scored.detail[seat][i], count: scored.cards[seat][i].length };
    return { points: view.area_scores[seat][i], detail: view.area_details[seat][i], count: view.areas[seat][i].length };
  }

  async event(event, ms) {
    if (!this.shown || !this.next) return false;
    if (event.type === "card_placed") await this.placed(event, ms);
    else if (event.type === "card_given") await this.given(event, ms);
    else if (event.type === "card_discarded") await this.discarded(event, ms);
    else if (event.type === "round_scored") await this.scored(event, ms);
    return false;
  }

  draw() {
    this.table.drawBoard(this.shown, { ...this.table.ctx, busy: true });
  }

  // Where a card of `seat` comes from: its button in the reader's hand, else the player's name.
  origin(seat, card) {
    const mine = seat === this.table.ctx.me && card ? document.querySelector(`#hand [data-card="${CSS.escape(card)}"]`) : null;
    return (mine ?? document.querySelector(`.cards-player[data-seat="${seat}"] h2`))?.getBoundingClientRect() ?? null;
  }

  target(seat) {
    const hand = seat === this.table.ctx.me ? $("hand") : null;
    return (hand ?? document.querySelector(`.cards-player[data-seat="${seat}"] h2`))?.getBoundingClientRect() ?? null;
  }

  async placed(event, ms) {
    const { player: seat, card, area } = event;
    const i = AREAS.indexOf(area);
    const from = this.origin(seat, card);
    const before = this.shown.area_scores[seat][i];
    const after = this.after(seat, i);
    this.shown.areas[seat][i].push(card);
    this.shown.area_scores[seat][i] = after.points;
    this.shown.area_details[seat][i] = after.detail;
    this.shown.hand_sizes[seat] = Math.max(0, this.shown.hand_sizes[seat] - 1);
    this.draw();
    const box = document.querySelector(`.area[data-seat="${seat}"][data-area="${area}"]`);
    const face = box?.querySelector(".area-cards .card:last-child");
    const reason = describeArea(after.detail, after.count);
    const change = after.points - before;
    this.log.push({ type: "placed", seat, card, area, points: after.points, change, reason, flew: Boolean(face && from && ms > 0) });
    if (face && from && ms > 0) await arrive(face, from, ms);
    if (!box || change === 0) return;
    box.classList.add("just-scored"); // its reason line lights up until the board is redrawn
    if (ms > 0) {
      floatOver(box.querySelector(".area-points"), `${change > 0 ? "+" : "−"}${num(Math.abs(change))}`, change > 0 ? "up" : "down", ms * 2.5);
      cue("score");
      await pause(ms);
    }
  }

  async given(event, ms) {
    const { giver, receiver, card } = event;
    const from = this.origin(giver, card);
    const to = this.target(receiver);
    this.shown.hand_sizes[giver] = Math.max(0, this.shown.hand_sizes[giver] - 1);
    this.shown.hand_sizes[receiver] += 1;
    this.draw();
    this.log.push({ type: "given", giver, receiver, card, travelled: Boolean(ms > 0 && from && to) });
    if (ms > 0 && from && to) {
      cue("reveal");
      await travel(card, from, to, ms, t("cards.stage.gift"));
    }
  }

  async discarded(event, ms) {
    const { player: seat, card } = event;
    const from = this.origin(seat, card);
    this.shown.hand_sizes[seat] = Math.max(0, this.shown.hand_sizes[seat] - 1);
    this.shown.discard_counts[seat] += 1;
    this.draw();
    const to = document.querySelector(`.cards-player[data-seat="${seat}"] .cards-facts`)?.getBoundingClientRect();
    this.log.push({ type: "discarded", seat, card });
    if (ms > 0 && from && to) await travel(card, from, to, ms, t("cards.stage.discard"), true);
  }

  async scored(event, ms) {
    this.shown.totals = [...event.totals];
    this.draw();
    this.log.push({ type: "scored", round: event.round, totals: [...event.totals] });
    const box = $("banner");
    if (!box || ms <= 0) return;
    box.textContent = t("cards.scored_title", { round: event.round });
    box.hidden = false;
    cue("score");
    await pause(ms * 2.5);
    box.hidden = true;
  }
}

// A card just drawn at its place arrives there from `from` (a rect), on the compositor.
async function arrive(face, from, ms) {
  const [fx, fy] = centre(from);
  const [tx, ty] = centre(face.getBoundingClientRect());
  face.classList.add("arriving");
  const move = face.animate([{ transform: `translate(${fx - tx}px, ${fy - ty}px) scale(1.2)` }, { transform: "none" }],
    { duration: ms, easing: "cubic-bezier(.2,.7,.3,1)" });
  await move.finished.catch(() => {});
  face.classList.remove("arriving");
}

// A card (face down when `card` is hidden from the reader) travels from one rect to another.
async function travel(card, from, to, ms, label, fade = false) {
  const [fx, fy] = centre(from);
  const [tx, ty] = centre(to);
  const token = el("span", { class: `card cc mini travelling${card ? ` cc-${card[0]}` : " back"}`, "aria-hidden": "true",
    style: `left:${fx - 18}px;top:${fy - 20}px` }, card ? num(Number(card[1])) : "", el("span", { class: "travel-label" }, label));
  document.body.append(token);
  const move = token.animate([{ transform: "none", opacity: 1 }, { transform: `translate(${tx - fx}px, ${ty - fy}px)`, opacity: fade ? 0.2 : 1 }],
    { duration: ms, easing: "ease-in-out" });
  await move.finished.catch(() => {});
  token.remove();
}

// "+5" rising from an area's points, gone after `ms`: fixed on the page, so the board redrawn
// for the next event does not take it away.
function floatOver(anchor, text, kind, ms) {
  if (!anchor) return;
  const rect = anchor.getBoundingClientRect();
  const float = el("span", { class: `area-float ${kind}`, "aria-hidden": "true",
    style: `left:${rect.left + rect.width / 2}px;top:${rect.top - rect.height}px` }, text);
  document.body.append(float);
  float.animate([{ transform: "translate(-50%, 0)", opacity: 1, offset: 0 }, { opacity: 1, offset: 0.6 },
    { transform: "translate(-50%, -1.6rem)", opacity: 0 }], { duration: ms, easing: "ease-out" })
    .finished.catch(() => {}).then(() => float.remove());
}
