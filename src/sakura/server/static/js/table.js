// The table page: one WebSocket, the board, the hand, the seats, the log. It renders what
// the server sends (views and events) and sends the actions the view lists; it knows no
// rules. What is drawn for a game (board, hand, facts, log sentences, the result) comes from
// that game's module in games/, chosen by the table's `game`.
import { loadCatalog, t } from "./i18n.js";
import { el } from "./common.js";
import { gameModule } from "./games/index.js";
import { addHelp } from "./help.js";
import { saveToken, readCookie, forget } from "./cookies.js";

const tableId = location.pathname.split("/").pop();
const params = new URLSearchParams(location.search);
const speed = Number(params.get("speed") ?? localStorage.getItem("sakuraSpeed") ?? 450);

let socket = null;
let me = null;
let table = null;
let view = null;
let seq = 0;
let deadline = null;
const queue = [];
let animating = false;
let log = null;
let game = null; // the game's module (games/sakura.js, games/cards.js)
let screen = null; // its live table

// The server's errors carry an English detail (the engine's words); the page shows a message
// chosen by the error's code, and the detail below it, marked as English.
const ERRORS = {
  malformed: "error.malformed", no_hello: "error.no_hello", hello_again: "error.hello_again",
  bad_token: "error.bad_token", no_table: "error.no_table", not_seated: "error.not_seated",
  illegal: "error.illegal", bad_seat: "error.bad_seat", not_finished: "error.not_finished",
};

function showError(key, detail) {
  const box = $("error");
  box.replaceChildren(el("span", {}, t(key)));
  if (detail) box.append(" ", el("small", { class: "detail", lang: "en", dir: "ltr" }, detail));
  box.hidden = false;
}

const $ = (id) => document.getElementById(id);

function readToken() {
  const hash = new URLSearchParams(location.hash.slice(1));
  if (hash.get("token")) {
    saveToken(tableId, hash.get("token"));
    history.replaceState(null, "", location.pathname + location.search);
  }
  return readCookie(tableId);
}

const names = () => (view && game ? [...Array(game.seatCount(view)).keys()].map((s) => game.seatName(s, table, view, me)) : []);

function send(message) {
  if (socket && socket.readyState === WebSocket.OPEN) socket.send(JSON.stringify(message));
}

function act(action) {
  send({ type: "act", action });
  for (const b of document.querySelectorAll("#hand button, #choice button, #board button")) b.disabled = true;
}

function connect() {
  $("status").textContent = t(socket ? "table.reconnecting" : "table.connecting");
  const proto = location.protocol === "https:" ? "wss" : "ws";
  socket = new WebSocket(`${proto}://${location.host}/ws/${tableId}`);
  socket.addEventListener("open", () => send({ type: "hello", token: readToken() }));
  // One message at a time, in order (the first welcome waits for its game's module).
  socket.addEventListener("message", (e) => {
    const message = JSON.parse(e.data);
    inbox = inbox.then(() => receive(message));
  });
  socket.addEventListener("close", () => {
    if (gone) return;
    $("status").textContent = t("table.reconnecting");
    setTimeout(connect, 1000);
  });
}

let inbox = Promise.resolve();
let gone = false; // no such table: stop reconnecting

// The first welcome names the game: load its module, then its help and its log.
async function startGame(name) {
  game = await gameModule(name);
  await game.load();
  screen = new game.Table({ act });
  document.body.dataset.game = name;
  addHelp(game.helpGame);
  log = game.newLog($("log"), (s) => names()[s] ?? String(s), me);
}

async function receive(message) {
  if (message.type === "error" && message.code === "no_table") {
    gone = true;
    $("status").textContent = "";
    showError("error.no_table");
    return;
  }
  if (!game && message.type === "welcome") await startGame(message.table.game);
  if (!game) return;
  switch (message.type) {
    case "welcome":
      me = message.seat;
      log.me = me;
      table = message.table;
      queue.length = 0;
      setView(message.view, message.seq, message.deadline);
      $("status").textContent = me === null ? t("table.spectating") : t("table.you", { name: game.seatName(me, table, view, me) });
      break;
    case "table":
      table = message.table;
      renderSeats();
      renderInvite();
      renderResult();
      break;
    case "update":
      queue.push(message);
      if (!animating) animate();
      break;
    case "error":
      showError(ERRORS[message.code] ?? "error.unknown", message.message);
      if (message.code === "bad_token") { forget(tableId); socket.close(); }
      if (view) render();
      break;
    case "rematch":
      if (message.token) saveToken(message.table, message.token);
      table = { ...table, rematch: message.table };
      renderResult();
      break;
    default:
      break;
  }
}

const pause = (ms) => new Promise((r) => setTimeout(r, ms));

async function animate() {
  animating = true;
  while (queue.length) {
    const update = queue.shift();
    if (update.seq <= seq) continue;
    if (update.by === "timer") log.note(t("log.timer", { name: names()[update.seat] }));
    for (const event of update.events) {
      log.event(event);
      if (screen.event(event) && speed > 0) {
        screen.drawBoard(view, context());
        await pause(speed);
      }
    }
    setView(update.view, update.seq, update.deadline);
  }
  animating = false;
  if (view) render();
}

function setView(newView, newSeq, newDeadline) {
  view = newView;
  seq = newSeq;
  deadline = newDeadline;
  screen.setView(view);
  render();
}

const context = () => ({ me, names: names(), animating, busy: animating || queue.length > 0 });

function render() {
  $("hand-area").hidden = me === null;
  screen.render(view, context());
  renderSeats();
  renderInvite();
  renderResult();
}

function renderSeats() {
  if (!view || !table) return;
  const seatNames = names();
  const items = seatNames.map((name, seat) => {
    const info = table.seats[seat];
    const status = screen.seatStatus(view, seat);
    const presence = info && info.kind === "human" && info.claimed && !info.connected
      ? (info.replaced ? t("table.status.bot_plays") : t("table.status.away")) : "";
    const row = el("li", { class: `seat${seat === me ? " me" : ""}`, "data-seat": seat }, game.badge(seat),
      el("span", { class: "seat-name" }, name),
      el("span", { class: "seat-tokens" }, game.seatScore(view, seat)),
      el("span", { class: "seat-status" }, [status, presence].filter(Boolean).join(" · ")));
    if (presence && !info.replaced && me !== null && !view.terminal) {
      row.append(el("button", { class: "small", onclick: () => send({ type: "replace", seat }) }, t("table.replace")));
    }
    return row;
  });
  $("seats").replaceChildren(...items);
}

function copyRow(label, url) {
  const input = el("input", { readonly: true, value: url, "aria-label": label });
  return el("div", { class: "copy" }, el("label", {}, label), input,
    el("button", { class: "small", onclick: async (e) => {
      input.select();
      try { await navigator.clipboard.writeText(url); } catch { document.execCommand("copy"); }
      e.target.textContent = t("table.copied");
    } }, t("table.copy")));
}

function renderInvite() {
  const box = $("invite");
  if (!table) return;
  const parts = [];
  const free = table.seats.some((s) => s.kind === "human" && !s.claimed);
  parts.push(copyRow(t("table.invite"), `${location.origin}/t/${tableId}`));
  const token = readToken();
  if (me !== null && token) parts.push(copyRow(t("table.personal"), `${location.origin}/t/${tableId}#token=${token}`));
  if (me === null && free && !(view && view.terminal)) {
    parts.push(el("button", { id: "take-seat", onclick: takeSeat }, t("table.take_seat")));
  }
  box.replaceChildren(...parts);
}

async function takeSeat() {
  const response = await fetch(`/api/tables/${tableId}/join`, { method: "POST", headers: { "content-type": "application/json" }, body: "{}" });
  const data = await response.json();
  if (!response.ok) { showError(response.status === 409 ? "error.no_free_seat" : "error.unknown", String(data.detail ?? "")); return; }
  saveToken(tableId, data.token);
  socket.close();
}

function renderResult() {
  const box = $("result");
  if (!view || !view.terminal || !view.outcome || animating) { box.hidden = true; return; }
  const { headline, rows } = game.result(view, names());
  const children = [el("h2", {}, t("table.result")), el("p", { class: "headline" }, headline),
    el("ol", {}, ...rows.map((row) => el("li", {}, row)))];
  const actions = el("p", { class: "actions" });
  if (table && table.rematch) {
    actions.append(el("a", { href: `/t/${table.rematch}`, class: "button", id: "go-rematch" }, t("table.go_rematch")));
  } else if (me !== null) {
    actions.append(el("button", { id: "rematch", onclick: () => send({ type: "rematch" }) }, t("table.rematch")));
  }
  actions.append(el("a", { href: `/replay/${tableId}`, class: "button" }, t("table.replay")));
  actions.append(el("a", { href: `/api/tables/${tableId}/record`, class: "button", download: "" }, t("table.record")));
  children.push(actions);
  box.replaceChildren(...children);
  box.hidden = false;
}

function tick() {
  const box = $("timer");
  const mine = view && me !== null && view.current_players.includes(me);
  if (!deadline || !mine) { box.hidden = true; return; }
  box.hidden = false;
  box.textContent = t("table.timer", { n: Math.max(0, Math.round(deadline - Date.now() / 1000)) });
}

document.addEventListener("keydown", (e) => {
  if (e.target instanceof HTMLInputElement || e.altKey || e.ctrlKey || e.metaKey) return;
  if (screen) screen.key(e);
});

await loadCatalog();
setInterval(tick, 1000);
connect();
