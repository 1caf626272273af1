// Log sentences, rendered from events with the catalog's whole-sentence templates, and the
// board moves each event shows (a copy of what the event says; the next view is the truth).
import { t, list } from "./i18n.js";

export function sentence(event, name, me) {
  const n = (seat) => (seat === null || seat === undefined ? "" : name(seat));
  switch (event.type) {
    case "round_started":
      return event.double === null || event.double === undefined
        ? t("log.round_started", { round: event.round })
        : t("log.round_started_double", { round: event.round, name: n(event.double) });
    case "card_chosen":
      return event.cards ? t("log.card_chosen_own", { cards: list(event.cards.map(String)) })
        : t("log.card_chosen", { name: n(event.player) });
    case "cards_revealed": {
      const plays = list(event.plays.map(([seat, card]) => t("log.play", { name: n(seat), card })));
      return t(event.court_from_deck ? "log.cards_revealed_court" : "log.cards_revealed", { plays });
    }
    case "card_resolving":
      return t("log.card_resolving", { name: n(event.seat), card: event.card });
    case "emperor_moved":
      return t(event.start === event.end ? "log.emperor_stayed" : "log.emperor_moved", event);
    case "painter_moved":
      return t(`log.painter_moved.${event.cause}`, { name: n(event.seat), start: event.start, end: event.end });
    case "painter_stayed": {
      const key = ["closest", "nobody", "no_one_ahead"].includes(event.why) ? event.why : "other";
      return t(`log.painter_stayed.${key}`, { name: n(event.seat), card: event.card });
    }
    case "bumped": {
      const key = (event.by === "emperor" ? "log.bumped_emperor" : "log.bumped") + (event.token_lost ? "" : "_no_token");
      return t(key, { name: n(event.seat), at: event.at, end: event.end });
    }
    case "cards_discarded":
      return t("log.cards_discarded");
    case "sakura_scored": {
      const awards = event.awards.length
        ? list(event.awards.map(([seat, , tokens]) => t("log.award", { name: n(seat), tokens })))
        : t("log.no_award");
      return t("log.sakura_scored", { space: event.space, awards, supply: event.supply });
    }
    case "hands_refilled": {
      const mine = me !== null && event.draws[me];
      return mine && mine.length ? t("log.hands_refilled_own", { cards: list(mine.map(String)) }) : t("log.hands_refilled");
    }
    case "deck_reshuffled":
      return t("log.deck_reshuffled", { size: event.size });
    case "choice_asked":
      return t("log.choice_asked", { name: n(event.seat), card: event.card });
    case "choice_made":
      return t(event.forward ? "log.choice_made_forward" : "log.choice_made_back", { name: n(event.seat) });
    case "game_ended":
      return t("log.game_ended", { winners: list(event.winners.map(n)), tokens: Math.max(...event.tokens) });
    default:
      return "";
  }
}

// Show an event on the board: move the pieces it names.
export function showOnBoard(board, event) {
  if (event.type === "emperor_moved") board.emperor = event.end;
  else if (event.type === "painter_moved" || event.type === "bumped") board.painters[event.seat] = event.end;
  else if (event.type === "sakura_scored") board.scored += 1;
}

// Whether an event is worth a pause in the animation.
export function moves(event) {
  return ["emperor_moved", "painter_moved", "bumped", "sakura_scored", "cards_revealed"].includes(event.type);
}
