// What the archive, the players' pages and the leaderboard share: a finished game's row, a
// seat's name, a rating's text and class names. Every name goes in as text.
import { t, num, list } from "./i18n.js";
import { el, seatName } from "./common.js";

export const CLASS_KEYS = { "sakura-3-6": "class.sakura-3-6", "sakura-2-court": "class.sakura-2-court",
  "sakura-2-tactical": "class.sakura-2-tactical", "sakura-cards": "class.sakura-cards" };
export const className = (klass) => t(CLASS_KEYS[klass] ?? "class.sakura-3-6");

// A seat of an archived game as the lobby names it ("Ada (Blue)", "Red (bot, easy)").
export function seatOf(game, seat) {
  if (game.game === "sakura-cards") return game.seats[seat].name || t("lobby.player_n", { n: seat + 1 });
  return seatName(seat, game, null, null);
}

export const date = (iso) => new Date(iso).toLocaleString(document.documentElement.lang, { dateStyle: "medium", timeStyle: "short" });

// mu ± sigma, one decimal, in the page's digits.
// A rating as the server displays it (ratings.py ``shown``: 1500 for an established average
// player, "?" while provisional); the model's own mu ± sigma in its tooltip.
export function rating(r) {
  const value = t(r.provisional ? "player.rating_provisional" : "player.rating_shown", { rating: num(r.display) });
  const model = t("player.rating_value", { mu: num(Math.round(r.mu * 10) / 10), sigma: num(Math.round(r.sigma * 10) / 10) });
  return el("span", { class: "rating", title: model }, value);
}

export function gameRow(game) {
  const players = list(game.seats.map((_, i) => seatOf(game, i)));
  const winners = list(game.winners.map((w) => seatOf(game, w)));
  return el("li", { "data-table": game.id },
    el("a", { href: `/games/${game.id}`, class: "game-link" }, t("archive.game", { players, winner: winners })),
    game.rated ? el("span", { class: "chat-tag" }, t("archive.rated")) : "",
    game.pace ? el("span", { class: "chat-tag pace-tag", "data-pace": game.pace }, t(`lobby.pace.${game.pace}`)) : "",
    el("time", { datetime: game.finished }, date(game.finished)));
}

export function pager(data, page, go) {
  const newer = document.getElementById("newer");
  const older = document.getElementById("older");
  newer.disabled = page === 0;
  older.disabled = !data.more;
  newer.onclick = () => go(page - 1);
  older.onclick = () => go(page + 1);
  document.getElementById("page").textContent = t("lobby.page", { n: page + 1 });
}

export function fail(key) {
  const box = document.getElementById("error");
  box.textContent = t(key);
  box.hidden = false;
  document.getElementById("main").hidden = true;
}
