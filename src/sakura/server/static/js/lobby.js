// The lobby: create a table (the game, seats, variant, bots, timer), see the tables in play,
// join or watch.
import { loadCatalog, t, num } from "./i18n.js";
import { el } from "./common.js";
import { addHelp } from "./help.js";
import { saveToken } from "./cookies.js";

const $ = (id) => document.getElementById(id);
const KINDS = { friend: "lobby.seat.friend", easy: "lobby.seat.easy", medium: "lobby.seat.medium", hard: "lobby.seat.hard" };

// The card game is for two; the players and the variant are Sakura's choices.
const cardGame = () => $("game").value === "sakura-cards";
const playerCount = () => (cardGame() ? 2 : Number($("players").value));

function renderSeats() {
  const players = playerCount();
  $("players-row").hidden = cardGame();
  $("variant-row").hidden = cardGame() || players !== 2;
  $("game-note").textContent = t(cardGame() ? "lobby.game.cards_note" : "lobby.game.sakura_note");
  const previous = [...document.querySelectorAll("#seat-choices select")].map((s) => s.value);
  const items = [el("li", {}, el("span", {}, t("lobby.seat.you")))];
  for (let i = 1; i < players; i++) {
    const id = `seat-${i}`;
    const select = el("select", { id, name: id }, ...Object.entries(KINDS).map(([k, key]) => el("option", { value: k }, t(key))));
    select.value = previous[i - 1] || "medium";
    items.push(el("li", {}, el("label", { for: id }, t("lobby.seat", { n: i + 1 })), select));
  }
  $("seat-choices").replaceChildren(...items);
}

async function create(event) {
  event.preventDefault();
  const players = playerCount();
  const game = $("game").value;
  const seats = [{ kind: "human" }];
  for (const select of document.querySelectorAll("#seat-choices select")) {
    seats.push(select.value === "friend" ? { kind: "human" } : { kind: "bot", level: select.value });
  }
  const body = { game, players, seats, timer: Number($("timer").value) || null, name: $("name").value.trim() || null,
    variant: game === "sakura" && players === 2 ? $("variant").value : null };
  const response = await fetch("/api/tables", { method: "POST", headers: { "content-type": "application/json" },
    body: JSON.stringify(body) });
  const data = await response.json();
  if (!response.ok) {
    const detail = typeof data.detail === "string" ? data.detail : JSON.stringify(data.detail);
    $("error").replaceChildren(el("span", {}, t("lobby.error")), " ",
      el("small", { class: "detail", lang: "en", dir: "ltr" }, detail));
    $("error").hidden = false;
    return;
  }
  saveToken(data.table.id, data.token);
  location.href = `/t/${data.table.id}${location.search}`;
}

async function refresh() {
  const data = await (await fetch("/api/tables")).json();
  const open = data.open.map((table) => {
    const free = table.seats.filter((s) => s.kind === "human" && !s.claimed).length;
    const text = table.game === "sakura-cards" ? t("lobby.table_cards", { id: table.id, round: table.round })
      : t("lobby.table", { id: table.id, n: table.players, round: table.round });
    return el("li", {}, el("span", {}, text), free ? el("span", { class: "free" }, t("lobby.free", { n: free })) : "",
      el("a", { class: "button", href: `/t/${table.id}` }, t(free ? "lobby.join" : "lobby.watch")));
  });
  $("open").replaceChildren(...(open.length ? open : [el("li", {}, t("lobby.none"))]));
  $("finished").replaceChildren(...data.finished.map((id) =>
    el("li", {}, el("a", { href: `/replay/${id}` }, t("lobby.replay", { id })))));
}

await loadCatalog();
addHelp();
for (const option of $("players").options) option.textContent = num(Number(option.value));
$("timer").replaceChildren(el("option", { value: "" }, t("lobby.timer.none")),
  ...[30, 60, 120].map((n) => el("option", { value: n }, t("lobby.timer.seconds", { n }))));
$("players").addEventListener("change", renderSeats);
$("game").addEventListener("change", renderSeats);
$("create").addEventListener("submit", create);
renderSeats();
refresh();
setInterval(refresh, 5000);
