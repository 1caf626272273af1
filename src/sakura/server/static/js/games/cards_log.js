// The card game in words: a card's name, what an area scores and why, and the log written
// from the engine's events (a gift or a discard the reader may not see is told as such).
import { t, list } from "../i18n.js";
import { LogWriter } from "../log.js";

const COLOUR_KEYS = { r: "cards.colour.r", b: "cards.colour.b", g: "cards.colour.g", y: "cards.colour.y" };
const PLACED_KEYS = { garden: "cards.log.placed.garden", palace: "cards.log.placed.palace", temple: "cards.log.placed.temple" };
const COMBO_KEYS = {
  colours: "cards.combo.colours", colours_run: "cards.combo.colours_run", one_colour: "cards.combo.one_colour",
  one_colour_run: "cards.combo.one_colour_run", none_run: "cards.combo.run",
};

// "red 3", "red 1 with a blossom", in the page's language and digits.
export function cardName(card) {
  const params = { colour: t(COLOUR_KEYS[card[0]]), n: Number(card[1]) };
  return t(card.endsWith("*") ? "cards.card_blossom" : "cards.card", params);
}

// What an area scores and why, from the engine's explanation (`AreaScore`): "blue 1, green 2
// and red 3: three colours in a row: 15".
export function describeArea(detail, count) {
  if (detail.blossoms > 1) return t("cards.area.spoiled", { n: detail.blossoms });
  let combo = null;
  if (detail.best.length === 3) {
    const key = COMBO_KEYS[`${detail.combination}${detail.run ? "_run" : ""}`];
    combo = t(key, { cards: list(detail.best.map(cardName)) });
  }
  const n = detail.points;
  if (detail.blossoms === 1) return combo ? t("cards.area.combo_blossom", { combo, n }) : t("cards.area.blossom", { n });
  if (combo) return t("cards.area.combo", { combo, n });
  return count ? t("cards.area.nothing") : "";
}

// The list handling (grouped by round, the current one on top, a limit) is Sakura's log
// writer's; the sentences are the card game's, one or two an event.
export class CardsLog extends LogWriter {
  event(event) {
    if (event.type === "round_started") this.startGroup(t("log.round", { round: event.round }));
    for (const text of this.sentences(event)) this.note(text);
  }

  sentences(event) {
    const n = this.name;
    switch (event.type) {
      case "round_started":
        return [t("cards.log.round", { round: event.round, name: n(event.starter) })];
      case "cards_dealt": {
        const mine = this.me !== null && event.hands[this.me];
        return mine ? [t("cards.log.dealt", { cards: list(mine.map(cardName)) })] : [];
      }
      case "card_placed":
        return [t(PLACED_KEYS[event.area], { name: n(event.player), card: cardName(event.card) })];
      case "card_discarded":
        return [event.card ? t("cards.log.discarded_own", { card: cardName(event.card) })
          : t("cards.log.discarded", { name: n(event.player) })];
      case "card_given":
        if (event.card && event.giver === this.me) return [t("cards.log.gave", { card: cardName(event.card), name: n(event.receiver) })];
        if (event.card && event.receiver === this.me) return [t("cards.log.received", { card: cardName(event.card), name: n(event.giver) })];
        return [t("cards.log.given", { name: n(event.giver), other: n(event.receiver) })];
      case "round_scored":
        return [0, 1].map((seat) => {
          const [garden, palace, temple] = event.detail[seat].map((d, i) => describeArea(d, event.cards[seat][i].length)
            || t("cards.area.nothing"));
          const points = event.areas[seat].reduce((a, b) => a + b, 0);
          return t("cards.log.scored", { round: event.round, name: n(seat), n: points, garden, palace, temple,
            total: event.totals[seat] });
        });
      case "game_ended": {
        if (event.winners.length !== 1) return [t("cards.log.end_draw", { n: event.scores[0] })];
        const w = event.winners[0];
        return [t("cards.log.end_one", { name: n(w), n: event.scores[w], other: event.scores[1 - w] })];
      }
      default:
        return [];
    }
  }
}
