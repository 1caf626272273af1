// "Your move": every game in progress of this browser's seats (their tokens, kept here) and of
// the logged-in account, the ones waiting for you first, with their deadline and what happened
// last. The tab's title and favicon say how many wait for you; the list is read again every
// half minute and whenever the tab is seen again.
import { t, num, loadCatalog, translatePage } from "./i18n.js";
import { el, seatName } from "./common.js";
import { LogWriter } from "./log.js";
import { post } from "./session.js";
import { pushButton } from "./push.js";
import { browserSeats, untilDeadline } from "./turns.js";

const $ = (id) => document.getElementById(id);
const TURN_ICON = "/static/favicon-turn.svg";
const PLAIN_ICON = "/static/favicon.svg";

function game(entry) {
  const names = (seat) => seatName(seat, entry, null, entry.seat);
  const whose = entry.your_move
    ? el("strong", { class: "your-move" }, t("moves.yours"))
    : el("span", {}, entry.to_move.length
      ? t("moves.theirs", { names: entry.to_move.map(names).join(", ") })
      : t("moves.bots"));
  const parts = [
    el("a", { href: `/t/${entry.id}`, class: "button" }, t("moves.open", { id: entry.id })), " ", whose,
    el("span", { class: "note" }, ` · ${t("moves.round", { round: num(entry.round) })}`),
  ];
  if (entry.deadline) {
    parts.push(el("span", { class: "deadline", "data-deadline": entry.deadline }, ` · ${untilDeadline(entry.deadline)}`));
  }
  const item = el("li", { class: entry.your_move ? "moves-game mine" : "moves-game", "data-table": entry.id }, ...parts);
  if (entry.last_round && entry.last_round.length) {
    const log = el("div", { class: "moves-last" });
    const writer = new LogWriter(log, names, entry.seat, { limit: 40 });
    for (const step of entry.last_round) {
      if (step.by === "timer") writer.note(t("log.timer", { name: names(step.seat) }));
      for (const event of step.events) writer.event(event, { byTimer: step.by === "timer" });
    }
    item.append(el("details", {}, el("summary", {}, t("moves.last")), log));
  }
  return item;
}

async function refresh() {
  const response = await post("/api/moves", { seats: browserSeats() });
  if (!response.ok) return;
  const data = await response.json();
  $("moves-list").replaceChildren(...data.games.map(game));
  $("moves-none").hidden = data.games.length > 0;
  $("moves-count").textContent = t("moves.count", { n: data.your_move });
  document.body.dataset.yourMove = String(data.your_move);
  document.title = data.your_move ? t("moves.tab", { n: data.your_move }) : t("moves.title");
  document.querySelector("link[rel=icon]").setAttribute("href", data.your_move ? TURN_ICON : PLAIN_ICON);
}

await loadCatalog();
translatePage();
await refresh();
// "Notify me" (push.js); data-push says it was decided (shown, or none here), for the tests
pushButton().then((button) => {
  if (button) $("push-slot").append(button);
  document.body.dataset.push = button ? "shown" : "none";
});
document.body.dataset.ready = "1";
setInterval(refresh, 30_000);
document.addEventListener("visibilitychange", () => { if (!document.hidden) refresh(); });
