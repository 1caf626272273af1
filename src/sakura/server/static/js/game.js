// One finished game: its players (with scores, the winners marked), date, length, the final
// garden drawn by the game's own module, and links to the replay and the record.
import { loadCatalog, t, num } from "./i18n.js";
import { el } from "./common.js";
import { gameModule } from "./games/index.js";
import { addAccountBox } from "./session.js";
import { className, date, fail, seatOf } from "./people.js";

const $ = (id) => document.getElementById(id);
const tableId = location.pathname.split("/").pop();

await loadCatalog();
await addAccountBox();
const response = await fetch(`/api/archive/${tableId}`);
if (!response.ok) fail("game.missing");
else {
  const game = await response.json();
  $("title").textContent = t("game.title", { id: game.id });
  $("players").replaceChildren(...game.seats.map((seat, i) => el("li", { class: `seat${game.winners.includes(i) ? " winner" : ""}` },
    el("span", { class: "seat-name" }, seatOf(game, i)),
    seat.account ? el("a", { href: `/u/${encodeURIComponent(seat.account)}`, class: "small" }, t("game.profile")) : "",
    el("span", { class: "seat-tokens" }, seat.score === null ? "" : num(seat.score)),
    game.winners.includes(i) ? el("span", { class: "chat-tag" }, t("game.winner")) : "",
    seat.forfeit ? el("span", { class: "chat-tag" }, t("game.forfeit")) : "")));
  const facts = [["game.date", date(game.finished)], ["game.class", className(game.class)],
    ["game.length", t("game.length_value", { n: game.actions })]];
  if (game.rounds) facts.push(["game.rounds", num(game.rounds)]);
  if (game.rated) facts.push(["game.rated", t("archive.rated")]);
  if (game.pace) facts.push(["mode.label", t(`lobby.pace.${game.pace}`)]); // a turn-based game's
  $("game-facts").replaceChildren(...facts.flatMap(([key, value]) => [el("dt", {}, t(key)), el("dd", {}, value)]));
  $("links").replaceChildren(el("a", { class: "button", href: `/replay/${game.id}`, id: "replay-link" }, t("table.replay")),
    el("a", { class: "button secondary", href: `/api/tables/${game.id}/record`, download: "" }, t("table.record")));
  const replay = await fetch(`/api/tables/${game.id}/replay`);
  if (replay.ok) {
    const { steps, table } = await replay.json();
    const module = await gameModule(table.game);
    await module.load();
    document.body.dataset.game = table.game;
    const view = steps[steps.length - 1].view;
    module.drawReplay(view, [...Array(module.seatCount(view)).keys()].map((s) => module.seatName(s, table, view, null)));
  }
}
