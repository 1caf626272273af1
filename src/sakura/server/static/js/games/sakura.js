// Sakura, the race through the Emperor's garden, on the table and replay pages: the garden,
// the hand of numbered cards, the mid-resolution choice, the facts, the seats' tokens and the
// log. It renders views and events and sends what the view lists; it knows no rules.
//
// The round is staged on the board (STYLE.md, "Animating a board from positions"): the table
// keeps the position it last drew (`shown`); each event of an update moves it on (a copy of
// what the event says, nothing computed) and the pieces slide from the previous position to
// the new one; the update's view is then drawn exactly. Facts (tokens, supply, sakuras) are
// read from `shown`, so they change in step with the pieces, never ahead of them.
import { t, list, num } from "../i18n.js";
import { el, seatName, loadCards, cardFace, CARDS, actionIcon, COLOURS, SHAPES, letter } from "../common.js";
import { Garden, drawGarden, arrow } from "../garden.js";
import { LogWriter } from "../log.js";
import { cue } from "../sound.js";

const $ = (id) => document.getElementById(id);
const pause = (ms) => (ms > 0 ? new Promise((r) => setTimeout(r, ms)) : Promise.resolve());
const range = (a, b) => {
  const out = [a];
  for (let s = a; s !== b; s += b > a ? 1 : -1) out.push(s + (b > a ? 1 : -1));
  return out;
};

export const helpGame = "sakura";

export async function load() {
  await loadCards();
}

export function badge(seat) {
  return el("span", { class: `badge shape-${SHAPES[seat]}`, style: `background:${COLOURS[seat]}`, "aria-hidden": "true" },
    letter(seat));
}

// The painters, the court painter included (it is the last painter of a two-player game).
export const seatCount = (view) => view.painters.length;
export { seatName };

export function newLog(listElement, name, me, options) {
  return new LogWriter(listElement, name, me, options);
}

function facts(shown) {
  return [
    el("li", { id: "facts-round" }, t("table.round", { round: shown.round })),
    el("li", {}, t("table.deck", { n: shown.deck_size })),
    el("li", { id: "facts-supply" }, t("table.supply", { n: shown.supply })),
    el("li", {}, t("table.scored", { n: shown.scored, total: shown.sakuras.length })),
    el("li", {}, t("table.discard", { n: shown.discard })),
  ];
}

// The engine's reasons (Outcome.reason) for a win decided past the tokens, in the page's
// language; a plain "most tokens" needs no sentence beside the headline.
const REASONS = {
  "most tokens, then closest to the Emperor": "table.result.reason.closest",
  "most tokens, tied on the gate: shared win": "table.result.reason.gate",
};

// The end as the engine decided it: the winners first (its tie-break applied), then the others
// by tokens; the reason in words; each row says whether it is a winner's and the reader's.
export function result(view, names, me = null) {
  const { winners, scores, reason } = view.outcome;
  const best = Math.max(...scores);
  const headline = winners.length === 1
    ? t("table.result.one", { name: names[winners[0]], n: best })
    : t("table.result.shared", { names: list(winners.map((w) => names[w])), n: best });
  const others = scores.map((_, seat) => seat).filter((seat) => !winners.includes(seat))
    .sort((a, b) => scores[b] - scores[a]);
  const rows = [...winners, ...others].map((seat) => ({
    seat, text: t("table.score", { name: names[seat], n: scores[seat] }),
    winner: winners.includes(seat), me: seat === me,
  }));
  const key = REASONS[reason];
  return { headline, reason: key ? t(key, { n: best, name: names[winners[0]] }) : "", rows };
}

// The engine's score sheet of a finished game (GET /api/tables/ID/score-sheet, read off the
// game's events by the engine): a table of each painter's five tokens at the start, what each
// cherry tree gave, the tokens given back in bumps, the total and the final space, in the
// engine's order (winners first, the court painter last); under it, each token given back with
// its round and card. Nothing is added up or ordered here: every number is the sheet's.
export function scoreSheet(sheet, names, me = null) {
  const court = [...Array(sheet.tokens.length - sheet.players).keys()].map((k) => sheet.players + k);
  const order = [...sheet.order, ...court];
  const head = el("tr", {}, el("th", { scope: "col" }, "#"), el("th", { scope: "col" }, t("table.sheet.painter")),
    el("th", { scope: "col" }, t("table.sheet.start")),
    ...sheet.trees.map((tree) => el("th", { scope: "col", title: t("table.sheet.tree", { n: tree.sakura + 1, space: tree.space }) },
      `✿${tree.sakura + 1}`)),
    el("th", { scope: "col" }, t("table.sheet.bumps")), el("th", { scope: "col" }, t("table.sheet.tokens")),
    el("th", { scope: "col" }, t("table.sheet.space")));
  const rows = order.map((seat, i) => {
    const won = sheet.trees.map((tree) => tree.won[seat]);
    const lost = sheet.lost[seat];
    return el("tr", { class: [sheet.winners.includes(seat) ? "winner" : "", seat === me ? "me" : ""].join(" ").trim() || null,
      "data-seat": String(seat) },
      el("td", {}, seat >= sheet.players ? "–" : num(i + 1)), el("th", { scope: "row" }, names[seat] ?? t("table.sheet.court"),
        ...(seat === me ? [" ", el("span", { class: "you-tag" }, t("table.you_short"))] : [])),
      el("td", {}, num(sheet.start[seat])), ...won.map((n) => el("td", {}, n ? `+${num(n)}` : "·")),
      el("td", {}, lost ? `−${num(lost)}` : "·"), el("td", { class: "total" }, num(sheet.tokens[seat])),
      el("td", {}, num(sheet.spaces[seat])));
  });
  const bumps = sheet.bumps.filter((b) => b.token_lost).map((b) => el("li", {}, bumpLine(b, names)));
  return el("div", { class: "score-sheet" },
    el("table", {}, el("caption", {}, t("table.sheet")), el("thead", {}, head), el("tbody", {}, ...rows)),
    ...(bumps.length ? [el("ul", { class: "sheet-bumps" }, ...bumps)] : []));
}

function bumpLine(bump, names) {
  const name = names[bump.seat] ?? t("table.sheet.court");
  const by = bump.card_of !== null && bump.card_of !== bump.seat ? names[bump.card_of] : null;
  if (bump.by === "emperor") {
    return by ? t("table.sheet.bump.emperor_by", { round: bump.round, name, other: by, card: bump.card })
      : t("table.sheet.bump.emperor", { round: bump.round, name, card: bump.card });
  }
  return t("table.sheet.bump.painter", { round: bump.round, name, card: bump.card });
}

// A replay's move, named as a player names it once the game is over: "Blue plays 16" (the
// step's action is in the finished game's replay), "Blue: forward"; a step without its action
// says what a spectator saw.
export function moveLabel(step, names) {
  const name = names[step.seat] ?? "";
  const played = /^play (\d+)(?: court (\d+))?$/.exec(step.action ?? "");
  if (played && played[2]) return t("replay.move.plays_court", { name, card: played[1], court: played[2] });
  if (played) return t("replay.move.plays", { name, card: played[1] });
  const made = step.events.find((e) => e.type === "choice_made");
  if (made) return t(made.forward ? "replay.move.forward" : "replay.move.back", { name });
  if (step.events.some((e) => e.type === "cards_revealed")) return t("replay.move.reveal", { name });
  return t("replay.move.play", { name });
}

// The card tile beside a seat in the players list (the live table's and the replay's).
function seatTileOf(plays, seat) {
  const p = plays.find((x) => x.seat === seat);
  if (!p) return "";
  const face = cardFace(p.card, { tabindex: "-1", "aria-hidden": "true" });
  face.classList.add("tile", `tile-${p.state}`);
  return el("span", { class: "seat-tile", title: t(TILE_KEYS[p.state]) }, face,
    el("span", { class: "sr-only" }, t("tile.label", { n: p.card, state: t(TILE_KEYS[p.state]) })));
}

// A replay step's tile beside a seat, from the game's events up to that step.
export const replayTile = (seat, events) => seatTileOf(events.reduce(tilesAfter, []), seat);

// A replay step: the garden with the cards played (the same tiles as the live table, left by
// the game's events up to this step) and the facts of a spectator's view.
// `better` ({seat, card, played}): at a flagged decision, the analysis's better card, drawn as a
// ghost tile beside that seat's painter.
export function drawReplay(view, names, events = [], { better = null } = {}) {
  const tiles = {};
  for (const p of events.reduce(tilesAfter, [])) tiles[p.seat] = p;
  // At the decision the played card is not revealed yet: its tile is shown with the better one.
  const own = better && tiles[better.seat];
  if (better && better.played && (!own || String(own.card) !== String(better.played))) {
    tiles[better.seat] = { seat: better.seat, card: Number(better.played), state: "waiting" };
  }
  drawGarden($("board"), view, { names, tiles, better });
  $("facts").replaceChildren(...facts(shownOf(view)).slice(0, 4));
}

export const seatScore = (view, seat) => t("table.tokens", { n: view.tokens[seat] });
export const seatPoints = (view, seat) => view.tokens[seat]; // the number alone (the phone's strip)

function shownOf(view) {
  return { garden: view.garden, sakuras: view.sakuras, scored: view.scored, emperor: view.emperor,
    painters: [...view.painters], tokens: [...view.tokens], supply: view.supply, round: view.round,
    deck_size: view.deck_size, discard: view.discard.length };
}

// A card tile's state: waiting its turn, resolving now, done, or discarded unplayed.
const TILE_KEYS = { waiting: "tile.waiting", current: "tile.current", done: "tile.done", discarded: "tile.discarded" };

// How one event changes the round's card tiles ({seat, card, state}): the new list.
function tilesAfter(plays, event) {
  switch (event.type) {
    case "round_started":
      for (const p of plays) if (p.state !== "discarded") p.state = "done";
      return plays;
    case "cards_revealed":
      return event.plays.map(([seat, card]) => ({ seat, card, state: "waiting" }));
    case "card_resolving":
      for (const p of plays) {
        if (p.state === "current") p.state = "done";
        if (p.seat === event.seat && p.card === event.card) p.state = "current";
      }
      return plays;
    case "cards_discarded":
      for (const p of plays) if (p.state === "waiting") p.state = "discarded";
      return plays;
    default:
      return plays;
  }
}

// The live table.
export class Table {
  constructor({ act, refresh }) {
    this.act = act;
    this.refresh = refresh; // redraw the seats and facts (table.js) from `shown`
    this.garden = new Garden($("board"), { onChoice: (dir) => this.act(dir) });
    this.shown = null;
    this.plays = []; // the round's revealed cards: {seat, card, state}
    this.courtPick = null; // tactical variant: the card chosen for one's own painter
    this.hand = null; // the hand the court pick was made from
    this.ctx = { me: null, names: [] };
  }

  setView(view) {
    this.shown = shownOf(view);
    if (view.revealed.length) {
      const current = view.pending ? view.resolved : -1;
      this.plays = view.revealed.map(([seat, card], i) => ({ seat, card,
        state: i < view.resolved ? "done" : i === current ? "current" : "waiting" }));
    } else {
      for (const p of this.plays) if (p.state !== "discarded") p.state = "done";
    }
    // Bug 1: a court pick is kept only while it is still in the hand it was picked from.
    const double = view.legal_actions.some((a) => a.includes("court"));
    if (!double || !view.hand || !view.hand.includes(this.courtPick) || this.hand !== view.hand.join(",")) {
      this.courtPick = null;
    }
  }

  // The tiles as these events (a whole game's so far, in order) leave them, at once: for a
  // page that jumps to a point of the game instead of staging up to it (the tutorial's Back).
  settleTiles(events) {
    this.plays = events.reduce(tilesAfter, []);
  }

  tiles() {
    const out = {};
    for (const p of this.plays) out[p.seat] = p;
    return out;
  }

  // Stage one event on the board; resolves when its animation is over. `ms`: one step.
  async event(event, ms) {
    const shown = this.shown;
    const step = ms * 0.45;
    switch (event.type) {
      case "round_started":
        shown.round = event.round;
        this.plays = tilesAfter(this.plays, event);
        this.redraw();
        return;
      case "cards_revealed":
        this.plays = tilesAfter(this.plays, event);
        cue("reveal");
        this.redraw();
        await pause(ms);
        return;
      case "card_resolving":
        this.plays = tilesAfter(this.plays, event);
        this.redraw();
        await pause(ms * 0.5);
        return;
      case "emperor_moved":
        await this.garden.slide("emperor", range(event.start, event.end), step);
        shown.emperor = event.end;
        this.redraw();
        return;
      case "painter_moved":
        await this.garden.slide(event.seat, range(event.start, event.end), event.cause === "lineup" ? step * 0.5 : step);
        shown.painters[event.seat] = event.end;
        this.redraw();
        return;
      case "bumped":
        await this.garden.slide(event.seat, [...range(event.start, event.at), ...range(event.at, event.end).slice(1)], step);
        shown.painters[event.seat] = event.end;
        if (event.token_lost) { shown.tokens[event.seat] -= 1; shown.supply += 1; }
        this.redraw();
        this.garden.float(event.end, event.token_lost ? "−1" : t("table.bump"), "float-bump", ms);
        cue("bump");
        this.refresh();
        await pause(ms);
        return;
      case "cards_discarded":
        this.plays = tilesAfter(this.plays, event);
        this.redraw();
        await pause(ms * 0.5);
        return;
      case "sakura_scored":
        shown.scored += 1;
        for (const [seat, , tokens] of event.awards) shown.tokens[seat] += tokens;
        shown.supply = event.supply;
        this.redraw();
        this.banner(t("table.scoring_banner", { space: event.space }), ms);
        for (const [seat, , tokens] of event.awards) this.garden.float(shown.painters[seat], `+${num(tokens)}`, "float-award", ms);
        cue("score");
        this.refresh();
        await pause(ms * 2.5);
        return;
      case "hands_refilled":
        shown.deck_size = Math.max(0, shown.deck_size - event.draws.reduce((a, d) => a + (d ? d.length : 0), 0));
        return;
      case "game_ended":
        cue("end");
        return;
      default:
    }
  }

  banner(text, ms) {
    const box = $("banner");
    if (!box || ms <= 0) return;
    box.textContent = text;
    box.hidden = false;
    clearTimeout(this.bannerTimer);
    this.bannerTimer = setTimeout(() => { box.hidden = true; }, ms * 4);
  }

  redraw(view = null) {
    const choice = view && this.myChoice(view, this.ctx.me);
    this.garden.draw(this.shown, { names: this.ctx.names, me: this.ctx.me, tiles: this.tiles(),
      previews: view ? view.preview : [], pick: Boolean(choice) });
    $("facts").replaceChildren(...facts(this.shown));
    this.refresh();
  }

  myChoice(view, me) {
    return view.pending && view.pending[0] === me && view.legal_actions.includes("forward")
      ? { seat: me, card: view.pending[1], part: view.pending[2] } : null;
  }

  render(view, ctx) {
    this.ctx = ctx;
    this.redraw(ctx.busy ? null : view);
    if (ctx.me !== null) this.renderHand(view, ctx);
  }

  seatScore(view, seat) {
    return t("table.tokens", { n: this.seatPoints(view, seat) });
  }

  // In step with the staging: the tokens of the position drawn, not yet the view's.
  seatPoints(view, seat) {
    return this.shown ? this.shown.tokens[seat] : view.tokens[seat];
  }

  // The seat's card of the round, face up, beside its name.
  seatTile(seat) {
    return seatTileOf(this.plays, seat);
  }

  seatStatus(view, seat, info) {
    if (info && info.kind === "human" && !info.claimed && !view.terminal) return t("table.status.waiting_join");
    if (this.staging) return "";
    if (view.pending && view.pending[0] === seat) return t("table.status.choosing");
    if (seat < view.chosen.length && !view.terminal && view.revealed.length === 0) {
      return t(view.chosen[seat] ? "table.status.chosen" : "table.status.thinking");
    }
    return "";
  }

  previewText(p) {
    if (p.bumps.length && p.piece === "painter") return t("table.preview_bump", { at: p.bumps[0].at, end: p.end });
    if (p.bumps.length) return t("table.preview_emperor_bump", { n: p.end });
    if (p.sakura) return t("table.preview_sakura", { n: p.end });
    return t("table.preview_to", { n: p.end });
  }

  renderHand(view, ctx) {
    const hand = $("hand");
    const prompt = $("prompt");
    const choiceBox = $("choice");
    const { busy } = ctx;
    const legal = new Set(view.legal_actions);
    const double = view.legal_actions.some((a) => a.includes("court"));
    hand.replaceChildren(...view.hand.map((card, i) => {
      let enabled = false;
      if (double) {
        enabled = this.courtPick === null ? view.legal_actions.some((a) => a.startsWith(`play ${card} court`))
          : legal.has(`play ${this.courtPick} court ${card}`);
      } else enabled = legal.has(`play ${card}`);
      const chosen = (view.my_choice || []).includes(card) || this.courtPick === card;
      const button = cardFace(card, { disabled: !enabled || busy, "aria-pressed": chosen ? "true" : "false",
        "data-key": i + 1 });
      button.addEventListener("click", () => {
        if (!double) return this.act(`play ${card}`);
        if (this.courtPick === null) {
          this.courtPick = card;
          this.hand = view.hand.join(",");
          this.renderHand(view, ctx);
          return;
        }
        if (this.courtPick === card) { this.courtPick = null; this.renderHand(view, ctx); return; }
        this.act(`play ${this.courtPick} court ${card}`);
      });
      return button;
    }));
    const choice = this.myChoice(view, ctx.me);
    choiceBox.hidden = !choice;
    document.body.classList.toggle("deciding", Boolean(choice));
    if (choice) {
      const [fwd, back] = ["forward", "back"].map((c) => view.preview.find((p) => p.choice === c));
      const code = resolvingIcons(choice.card);
      prompt.replaceChildren(
        el("strong", {}, t(choice.part === "garden" ? "table.choice_garden" : "table.choice_painter", { card: choice.card })),
        " ", el("span", { class: "resolving-card", dir: "ltr" }, code),
        el("br"), el("span", { class: "preview-text" }, t("table.choice_preview",
          { back: back ? this.previewText(back) : "", forward: fwd ? this.previewText(fwd) : "" })));
      const label = (p, key) => (p ? `${t(key, { n: p.end })}${p.bumps.length ? ` (${t("table.bump")})` : ""}` : "");
      choiceBox.replaceChildren(
        el("button", { "data-choice": "back", onclick: () => this.act("back"), disabled: busy }, `${arrow("back")} ${label(back, "table.back_to")}`),
        el("button", { "data-choice": "forward", onclick: () => this.act("forward"), disabled: busy }, `${label(fwd, "table.forward_to")} ${arrow("forward")}`));
      if (!busy) cue("turn");
    } else if (view.terminal) prompt.textContent = "";
    else if (busy) prompt.textContent = t("table.resolving");
    else if (double) prompt.textContent = t(this.courtPick === null ? "table.choose_two" : "table.choose_court");
    else if (legal.size) prompt.textContent = t("table.choose");
    else if (view.pending) prompt.textContent = t("table.waiting_choice", { name: ctx.names[view.pending[0]] ?? "" });
    else if (view.my_choice) prompt.textContent = t("table.chosen", { cards: list(view.my_choice.map((card) => num(card))) });
    else prompt.textContent = t("table.waiting");
  }

  // 1-9 play the hand's cards; F and B answer a choice. Read by the key's place on the
  // keyboard (e.code), so they work the same on a Persian or Spanish layout.
  key(e) {
    const digit = /^(Digit|Numpad)([1-9])$/.exec(e.code);
    if (digit) document.querySelector(`#hand button[data-key="${digit[2]}"]:not([disabled])`)?.click();
    if (e.code === "KeyF") document.querySelector('#choice button[data-choice="forward"]:not([disabled])')?.click();
    if (e.code === "KeyB") document.querySelector('#choice button[data-choice="back"]:not([disabled])')?.click();
  }
}

// The icons of the card being resolved (its garden and painter actions).
function resolvingIcons(number) {
  const card = CARDS[number];
  return card ? `${actionIcon(card.garden)} ${actionIcon(card.painter)}` : "";
}
