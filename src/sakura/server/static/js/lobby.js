// The lobby: create a table (the game, seats, variant, bots, timer); your tables to resume,
// open seats to join, games in play to watch, abandoned ones apart, and finished games with
// players, winner and date, newest first, a page at a time.
import { loadCatalog, t, num, list } from "./i18n.js";
import { el, seatName } from "./common.js";
import { addHelp } from "./help.js";
import { saveToken, readToken } from "./tokens.js";
import { addAccountBox, post, whoami } from "./session.js";
import { yourMoveCount } from "./turns.js";

const $ = (id) => document.getElementById(id);
// A seat is a friend or a bot of one of the ladder's levels (weakest first; docs/bots.md).
const KINDS = { friend: "lobby.seat.friend", beginner: "lobby.seat.beginner", casual: "lobby.seat.casual",
  club: "lobby.seat.club", expert: "lobby.seat.expert", master: "lobby.seat.master" };
// Older names of levels (links and forms from before the ladder).
const LEGACY = { easy: "beginner", medium: "club", hard: "expert" };

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
    const before = previous[i - 1];
    select.value = (before && (LEGACY[before] || before)) || "club";
    if ($("rated").checked) { // a rated table: every seat a friend's
      select.value = "friend";
      for (const option of select.options) option.disabled = option.value !== "friend";
    }
    items.push(el("li", {}, el("label", { for: id }, t("lobby.seat", { n: i + 1 })), select));
  }
  $("seat-choices").replaceChildren(...items);
  $("hints").disabled = $("rated").checked; // a rated game has no hints
}

// Open a table as the form (or Play now) describes it, and take its first seat.
async function openTable(body) {
  const response = await post("/api/tables", body);
  const data = await response.json();
  if (!response.ok) {
    const detail = typeof data.detail === "string" ? data.detail : JSON.stringify(data.detail);
    const words = data.code === "too_many_games" ? "error.too_many_games" : "lobby.error";
    $("error").replaceChildren(el("span", {}, t(words)), " ",
      el("small", { class: "detail", lang: "en", dir: "ltr" }, detail));
    $("error").hidden = false;
    return;
  }
  saveToken(data.table.id, data.token);
  if (body.name) localStorage.setItem("sakuraName", body.name); // the next table's name, prefilled
  location.href = `/t/${data.table.id}${location.search}`;
}

// Turn-based tables' paces (a move's time), offered with the real-time timers.
const PACES = { "1h": "lobby.pace.1h", "12h": "lobby.pace.12h", "1d": "lobby.pace.1d", "3d": "lobby.pace.3d" };

// One click from the lobby to a game: Sakura for four, you against three bots of a level.
const QUICK = "sakuraQuickLevel";
function playNow() {
  const level = $("quick-level").value;
  localStorage.setItem(QUICK, level);
  openTable({ game: "sakura", players: 4, seats: [{ kind: "human" }, ...[1, 2, 3].map(() => ({ kind: "bot", level }))],
    timer: null, name: $("name").value.trim() || null, variant: null, spectator_chat: true, hints: true });
}

function addPlayNow() {
  const levels = Object.keys(KINDS).filter((k) => k !== "friend");
  $("quick-level").replaceChildren(...levels.map((k) => el("option", { value: k }, t(KINDS[k]))));
  const remembered = localStorage.getItem(QUICK);
  $("quick-level").value = levels.includes(remembered) ? remembered : "club";
  $("play-now").addEventListener("click", playNow);
}

async function create(event) {
  event.preventDefault();
  const players = playerCount();
  const game = $("game").value;
  const seats = [{ kind: "human" }];
  for (const select of document.querySelectorAll("#seat-choices select")) {
    seats.push(select.value === "friend" ? { kind: "human" } : { kind: "bot", level: select.value });
  }
  const pace = $("timer").value.startsWith("pace:") ? $("timer").value.slice(5) : null;
  const body = { game, players, seats, timer: pace ? null : Number($("timer").value) || null, name: $("name").value.trim() || null,
    variant: game === "sakura" && players === 2 ? $("variant").value : null,
    spectator_chat: $("spectator-chat").checked, hints: $("hints").checked && !$("rated").checked };
  if ($("rated").checked) body.rated = true;
  if (pace) Object.assign(body, { pace, timeouts: Number($("timeouts").value) });
  await openTable(body);
}

// A player of a listed table, named as at the table ("Ada (Blue)", "Red (bot, easy)").
function player(table, seat) {
  if (table.game === "sakura-cards") return table.seats[seat].name || t("lobby.player_n", { n: seat + 1 });
  return seatName(seat, table, null, null);
}
const players = (table) => list(table.seats.map((_, i) => player(table, i)));
const date = (iso) => new Date(iso).toLocaleString(document.documentElement.lang, { dateStyle: "medium", timeStyle: "short" });

function describe(table) {
  return table.game === "sakura-cards" ? t("lobby.table_cards", { id: table.id, round: table.round })
    : t("lobby.table", { id: table.id, n: table.players, round: table.round });
}

function row(table, action, href) {
  const free = table.seats.filter((s) => s.kind === "human" && !s.claimed).length;
  return el("li", { "data-table": table.id }, el("span", {}, describe(table)),
    el("span", { class: "players" }, players(table)),
    free ? el("span", { class: "free" }, t("lobby.free", { n: free })) : "",
    el("a", { class: "button", href }, t(action)));
}

function fill(id, items, none) {
  $(id).replaceChildren(...(items.length ? items : [el("li", { class: "none" }, t(none))]));
}

let finishedPage = 0;

async function refresh() {
  const data = await (await fetch("/api/tables")).json();
  const { open, playing, abandoned } = data.listing;
  // "Your tables": this browser holds a seat's token for them (a cookie per table).
  // ... or its account has a seat there (from any browser)
  const account = (await whoami()).username;
  const isMine = (table) => Boolean(readToken(table.id)) || (account && table.seats.some((s) => s.account === account));
  const mine = [...open, ...playing, ...abandoned].filter(isMine);
  fill("yours", mine.map((table) => row(table, "lobby.resume", `/t/${table.id}`)), "lobby.none_yours");
  fill("open", open.filter((x) => !isMine(x)).map((table) => row(table, "lobby.join", `/t/${table.id}`)), "lobby.none_open");
  fill("playing", playing.filter((x) => !isMine(x)).map((table) => row(table, "lobby.watch", `/t/${table.id}`)), "lobby.none");
  fill("abandoned", abandoned.filter((x) => !isMine(x)).map((table) => row(table, "lobby.watch", `/t/${table.id}`)), "lobby.none_abandoned");
  $("abandoned-box").hidden = !abandoned.length;
  await refreshFinished();
}

async function refreshFinished() {
  const data = await (await fetch(`/api/finished?page=${finishedPage}`)).json();
  fill("finished", data.games.map((table) => {
    const winners = table.winners ? list(table.winners.map((w) => player(table, w))) : "";
    return el("li", { "data-table": table.id },
      el("span", {}, t("lobby.finished_game", { players: players(table), winner: winners })),
      el("time", { datetime: table.created }, date(table.created)),
      el("a", { class: "button secondary", href: `/replay/${table.id}` }, t("lobby.replay_button")));
  }), "lobby.none_finished");
  $("newer").disabled = data.page === 0;
  $("older").disabled = !data.more;
  $("finished-page").textContent = t("lobby.page", { n: data.page + 1 });
}

await loadCatalog();
addHelp();
addPlayNow();
for (const option of $("players").options) option.textContent = num(Number(option.value));
$("timer").replaceChildren(el("option", { value: "" }, t("lobby.timer.none")),
  ...[30, 60, 120].map((n) => el("option", { value: n }, t("lobby.timer.seconds", { n }))),
  // turn-based (docs/turn-based.md): a move's time in hours or days, instead of the timer
  ...Object.entries(PACES).map(([p, key]) => el("option", { value: `pace:${p}` }, t(key))));
$("timeouts").replaceChildren(...[1, 2, 3, 4, 5].map((n) => el("option", { value: n }, num(n))));
$("timeouts").value = "3";
$("timer").addEventListener("change", () => { $("timeouts-row").hidden = !$("timer").value.startsWith("pace:"); });
$("players").addEventListener("change", renderSeats);
$("game").addEventListener("change", renderSeats);
$("create").addEventListener("submit", create);
renderSeats();
const account = (await whoami()).username;
yourMoveCount(post).then((n) => {  // "Your move (2)": the games waiting for you (/moves)
  $("your-move").textContent = t("moves.link", { n });
  $("your-move").hidden = false;
  $("your-move").classList.toggle("waiting", n > 0);
});
if (!$("name").value) $("name").value = localStorage.getItem("sakuraName") ?? account ?? "";
// Rated tables are for accounts, between players only (every seat a friend's).
$("rated").disabled = !account;
$("rated-note").textContent = t(account ? "lobby.rated_note" : "lobby.rated_login");
$("rated").addEventListener("change", renderSeats);
await addAccountBox();
$("newer").addEventListener("click", () => { finishedPage = Math.max(0, finishedPage - 1); refreshFinished(); });
$("older").addEventListener("click", () => { finishedPage += 1; refreshFinished(); });
// Ready: every string of the page in its language, the lists filled once (what a test, or a
// reader, may rely on; the server sends <html lang> before the catalog is applied).
try {
  await refresh();
} finally {
  document.body.dataset.ready = "1";
  setInterval(refresh, 5000);
}
