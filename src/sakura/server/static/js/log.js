// The log, written in the browser from the engine's events with the catalog's templates:
// one line a card ("Red's card 17: the Emperor moves 2 → space 14; Red jumps to 13"), one
// for the line-up after a scoring, one for everything else. A card's line grows as its
// events arrive (a choice may come in a later update).
import { t, list, num } from "./i18n.js";

const MOVED = {
  jump: "clause.jump", count: "clause.count", closest: "clause.closest", furthest: "clause.furthest",
  lineup: "clause.lineup",
};
const STAYED = {
  closest: "clause.stayed_closest", nobody: "clause.stayed_nobody", no_one_ahead: "clause.stayed_no_one_ahead",
};

// What one event adds to the line of the card being resolved ("" when nothing).
function clause(event, n) {
  switch (event.type) {
    case "emperor_moved": {
      const params = { n: Math.abs(event.end - event.start), end: event.end };
      if (event.start === event.end) return t("clause.emperor_stays", params);
      return t(event.end > event.start ? "clause.emperor_forward" : "clause.emperor_back", params);
    }
    case "painter_moved": {
      const params = { name: n(event.seat), end: event.end };
      if (MOVED[event.cause]) return t(MOVED[event.cause], params);
      return t(event.end >= event.start ? "clause.painter_forward" : "clause.painter_back", params);
    }
    case "painter_stayed":
      return t(STAYED[event.why] ?? "clause.stayed_other", { name: n(event.seat) });
    case "bumped": {
      const emperor = event.by === "emperor";
      const key = event.token_lost
        ? (emperor ? "clause.backed_into" : "clause.bumped")
        : (emperor ? "clause.backed_into_no_token" : "clause.bumped_no_token");
      return t(key, { name: n(event.seat), at: event.at, end: event.end });
    }
    case "choice_asked":
      return t("clause.choosing", { name: n(event.seat) });
    case "choice_made":
      return t(event.forward ? "clause.chose_forward" : "clause.chose_back", { name: n(event.seat) });
    default:
      return "";
  }
}

// A line of its own ("" when the event is not worth one).
function sentence(event, n, me) {
  switch (event.type) {
    case "round_started":
      return event.double === null || event.double === undefined
        ? t("log.round_started", { round: event.round })
        : t("log.round_started_double", { round: event.round, name: n(event.double) });
    case "card_chosen":
      // The others' choices show in the players list; the log keeps your own.
      return event.cards ? t("log.card_chosen_own", { cards: list(event.cards.map(cardNumber)) }) : "";
    case "cards_revealed": {
      const plays = list(event.plays.map(([seat, card]) => t("log.play", { name: n(seat), card })));
      return t(event.court_from_deck ? "log.cards_revealed_court" : "log.cards_revealed", { plays });
    }
    case "cards_discarded":
      return event.cards.length ? t("log.cards_discarded", { n: event.cards.length }) : "";
    case "sakura_scored": {
      const awards = event.awards.length
        ? list(event.awards.map(([seat, , tokens]) => t("log.award", { name: n(seat), n: tokens })))
        : t("log.no_award");
      return t("log.sakura_scored", { space: event.space, awards, n: event.supply });
    }
    case "hands_refilled": {
      const mine = me !== null && event.draws[me];
      return mine && mine.length ? t("log.hands_refilled_own", { cards: list(mine.map(cardNumber)) })
        : t("log.hands_refilled");
    }
    case "deck_reshuffled":
      return t("log.deck_reshuffled", { n: event.size });
    case "game_ended": {
      const best = Math.max(...event.tokens);
      return event.winners.length === 1 ? t("log.game_ended_one", { name: n(event.winners[0]), n: best })
        : t("log.game_ended_shared", { names: list(event.winners.map(n)), n: best });
    }
    default:
      return "";
  }
}

const cardNumber = (card) => num(card);

// The first letter in upper case (the language's own rules; no change where it has no case).
const capital = (text) => (text ? text[0].toLocaleUpperCase(document.documentElement.lang || "en") + text.slice(1) : text);

// Writes lines into the log element, grouped by round ("Round 4"): the current round on top
// (on the table and the replay page alike), and inside a round its lines in the order they
// happened, so the log reads one way everywhere. Every line starts with a capital letter
// (bug 5: "the court painter's card 22: ...").
export class LogWriter {
  constructor(listElement, name, me, { limit = 400 } = {}) {
    this.list = listElement;
    this.name = (seat) => (seat === null || seat === undefined ? "" : name(seat));
    this.me = me;
    this.limit = limit;
    this.line = null;
    this.group = null;
    this.count = 0;
  }

  reset() {
    this.list.replaceChildren();
    this.line = null;
    this.group = null;
    this.count = 0;
  }

  // A new group of lines under its heading, above the older ones.
  startGroup(title) {
    const lines = document.createElement("ol");
    const section = document.createElement("section");
    section.className = "log-round";
    if (title) {
      const heading = document.createElement("h3");
      heading.textContent = title;
      section.append(heading);
    }
    section.append(lines);
    this.list.prepend(section);
    this.group = lines;
    this.line = null;
  }

  add(text) {
    if (!this.group) this.startGroup(t("log.round", { round: 1 })); // the first round starts with no event
    const item = document.createElement("li");
    item.textContent = capital(text);
    this.group.append(item);
    this.count += 1;
    while (this.count > this.limit && this.list.lastChild) {
      const oldest = this.list.lastChild.querySelector("li");
      if (!oldest) { this.list.lastChild.remove(); continue; }
      oldest.remove();
      this.count -= 1;
    }
    return item;
  }

  note(text) {
    this.line = null;
    this.add(text);
  }

  render() {
    const { item, head, clauses } = this.line;
    const actions = clauses.join(t("log.separator"));
    item.textContent = capital(clauses.length ? t(`${head.key}`, { ...head.params, actions }) : t(head.empty, head.params));
  }

  // ``byTimer``: the event came of a move a bot made for a player whose time ran out (the
  // server's ``by: "timer"``): the player's own card is then the bot's choice, not theirs.
  event(event, { byTimer = false } = {}) {
    if (byTimer && event.type === "card_chosen" && event.cards) {
      this.note(t("log.card_chosen_timer", { cards: list(event.cards.map(cardNumber)) }));
      return;
    }
    if (event.type === "round_started") this.startGroup(t("log.round", { round: event.round }));
    if (event.type === "card_resolving") {
      const head = { key: "log.card", empty: "log.card_start", params: { name: this.name(event.seat), card: event.card } };
      this.line = { item: this.add(""), head, clauses: [] };
      this.render();
      return;
    }
    if (event.type === "painter_moved" && event.cause === "lineup" && !(this.line && this.line.lineup)) {
      const head = { key: "log.lineup", empty: "log.lineup", params: {} };
      this.line = { item: this.add(""), head, clauses: [], lineup: true };
    }
    const part = this.line ? clause(event, this.name) : "";
    if (part) {
      const last = this.line.clauses.length - 1;
      if (event.type === "choice_made" && this.line.asked === last) this.line.clauses[last] = part;
      else this.line.clauses.push(part);
      this.line.asked = event.type === "choice_asked" ? this.line.clauses.length - 1 : null;
      this.render();
      return;
    }
    const text = sentence(event, this.name, this.me);
    if (text) this.note(text);
  }
}
