// The table page: one WebSocket, the board, the hand, the seats, the log. It renders what
// the server sends (views and events) and sends the actions the view lists; it knows no
// rules. What is drawn for a game (board, hand, facts, log sentences, the result) comes from
// that game's module in games/, chosen by the table's `game`.
import { loadCatalog, t, num } from "./i18n.js";
import { el } from "./common.js";
import { gameModule } from "./games/index.js";
import { addHelp } from "./help.js";
import { saveToken, readToken as storedToken, forget } from "./tokens.js";
import { soundOn, setSound } from "./sound.js";
import { Hints } from "./hints.js";
import { ChatBox } from "./chat.js";
import { TurnNotifier } from "./notify.js";
import { pushButton } from "./push.js";
import { addAccountBox, post } from "./session.js";
import { refreshRatings, seatRating } from "./seat_ratings.js";
import { untilDeadline } from "./turns.js";
import { chosenSpeed, speedSelect } from "./speed.js";

const tableId = location.pathname.split("/").pop();
const params = new URLSearchParams(location.search);
// One duration (ms a step; 0 = instant) serves every speed; ?speed= overrides it (speed.js).
let speed = chosenSpeed(params);

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
let chat = null; // the table's chat (chat.js)
const notifier = new TurnNotifier(); // your turn while the tab is hidden (notify.js)

// The server's errors carry an English detail (the engine's words); the page shows a message
// chosen by the error's code, and the detail below it, marked as English.
const ERRORS = {
  malformed: "error.malformed", no_hello: "error.no_hello", hello_again: "error.hello_again",
  bad_token: "error.bad_token", no_table: "error.no_table", not_seated: "error.not_seated",
  illegal: "error.illegal", bad_seat: "error.bad_seat", not_finished: "error.not_finished",
  busy: "error.busy", no_hints: "error.no_hints", not_your_turn: "error.not_your_turn", hint_failed: "error.hint_failed",
  bad_name: "error.bad_name", closed: "error.closed", turn_based: "error.turn_based", handed: "error.handed",
};
const CHAT_ERRORS = { bad_chat: "chat.error.bad", chat_rate_limited: "chat.error.rate", chat_closed: "chat.closed" };

// A rated table says so at the table, not only in the lobby; and, at its end, when its accounts
// did not rate each other (one address or device: the server's farm.py), that and why.
function showRated() {
  if (!table.rated) return;
  if (!$("rated")) $("status").after(el("span", { id: "rated", class: "rated-tag" }));
  $("rated").textContent = t(table.unrated ? "table.unrated" : "table.rated");
  $("rated").title = t(table.unrated ? "table.unrated_title" : "table.rated_title");
}

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
  return storedToken(tableId);
}

// Seat names as the log and the board say them ("Orange", "Ada (Blue)"); your own seat is
// marked "you" beside it, not inside the name (bug 5: "Orange (you)'s card 12").
const names = () => (view && game ? [...Array(game.seatCount(view)).keys()].map((s) => game.seatName(s, table, view, null)) : []);

function send(message) {
  if (socket && socket.readyState === WebSocket.OPEN) socket.send(JSON.stringify(message));
}

let sinceAct = []; // the events received since this page last acted (for the tests)
const hints = new Hints(send); // "Suggest": each action's estimated chance of winning

function act(action) {
  sinceAct = [];
  send({ type: "act", action });
  for (const b of document.querySelectorAll("#hand button, #choice button, #board button")) b.disabled = true;
  // the prompt answered is gone at once (the next view brings the next one)
  $("prompt").textContent = t("table.sent");
  if (action === "forward" || action === "back") $("choice").hidden = true;
}

function connect() {
  $("status").textContent = t(socket ? "table.reconnecting" : "table.connecting");
  const proto = location.protocol === "https:" ? "wss" : "ws";
  socket = new WebSocket(`${proto}://${location.host}/ws/${tableId}`);
  socket.addEventListener("open", () => send({ type: "hello", token: readToken(), name: localStorage.getItem("sakuraName") || null }));
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
  screen = new game.Table({ act, refresh: () => { renderSeats(); } });
  document.body.dataset.game = name;
  addHelp(game.helpGame);
  log = game.newLog($("log"), (s) => names()[s] ?? String(s), me);
  chat = new ChatBox({ box: $("chat-box"), send, nameOf: (s) => names()[s] ?? String(s), tableId,
    onReport: async (m) => {
      const answer = await post(`/api/chat/${m.id}/report`, {});
      chat.error(t(answer.ok ? "chat.reported" : "chat.report_failed"));
    } });
  chat.onMute = renderSeats;
}

// The log from the table's start, as this viewer may see it (the welcome carries it), and the
// round's card tiles as those events leave them: after a reload the seats show the cards of the
// round just played, as they did before it.
function writeHistory(history) {
  if (!history) return;
  log.reset();
  const events = [];
  for (const step of history) {
    if (step.by === "timer") log.note(t("log.timer", { name: names()[step.seat] }));
    for (const event of step.events) {
      log.event(event, { byTimer: step.by === "timer" });
      events.push(event);
    }
  }
  if (screen.settleTiles) {
    screen.settleTiles(events);
    renderSeats();
  }
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
      chat.setOpen(me !== null || table.spectator_chat !== false);
      chat.setPeople(table.seats.some((s, i) => i !== me && s.kind === "human"));
      queue.length = 0;
      const seen = Number(localStorage.getItem(seenKey()) ?? "NaN"); // before this view counts as seen
      setView(message.view, message.seq, message.deadline);
      if (!(await catchUp(message, seen))) writeHistory(message.history);
      $("status").textContent = me === null ? t("table.spectating") : t("table.you", { name: game.seatName(me, table, view, null) });
      showRated();
      if (table.pace && me !== null) addPushButton();
      break;
    case "table":
      table = message.table;
      showRated();
      renderSeats();
      renderInvite();
      renderResult();
      break;
    case "chat_history":
      chat.history(message.messages);
      break;
    case "chat":
      chat.add(message);
      break;
    case "chat_hidden":
      chat.hide(message.id);
      break;
    case "closed":  // a moderator closed the table: no more moves
      table = { ...table, status: "closed" };
      showError("error.closed");
      break;
    case "update":
      queue.push(message);
      if (!animating) animate();
      break;
    case "hint":
    case "hint_progress":
      if (hints.receive(message) && view) render();
      break;
    case "error":
      if (["busy", "no_hints", "not_your_turn", "hint_failed", "not_seated"].includes(message.code)) hints.refused();
      if (CHAT_ERRORS[message.code]) { chat.error(t(CHAT_ERRORS[message.code], { n: Math.ceil(message.retry_after ?? 0) })); break; }
      showError(ERRORS[message.code] ?? "error.unknown", message.message);
      if (message.code === "bad_token") { forget(tableId); socket.close(); }
      if (view) render();
      break;
    case "rematch":
      if (message.token) saveToken(message.table, message.token);
      table = { ...table, rematch: message.table };
      // offered by another player: asked, not just a changed button (accept or decline)
      if (message.by !== null && message.by !== undefined && message.by !== me && me !== null) offer = { by: message.by };
      renderResult();
      break;
    case "rematch_declined":
      if (message.seat !== me) declined.add(message.seat);
      renderResult();
      break;
    default:
      break;
  }
}

// A turn-based table tells what happened since this seat's player last looked: the moves
// since the seq this browser saw last, staged on the board in order as if live (the same
// queue as the live updates), then the present. True when it did.
const seenKey = () => `sakura.seen.${tableId}`;
async function catchUp(welcome, seen) {
  if (!table.pace || me === null || !(seen >= 0 && seen < welcome.seq)) return false;
  const response = await post(`/api/tables/${tableId}/since`, { token: readToken(), seq: seen });
  if (!response.ok) return false;
  const since = await response.json();
  writeHistory(welcome.history.slice(0, since.seq));
  $("since")?.remove();
  $("status").after(el("span", { id: "since", class: "since-tag", role: "status" },
    t("table.since", { n: since.updates.length })));
  setView(since.view, since.seq, null);
  queue.unshift(...since.updates);
  if (!animating) animate();
  return true;
}

const pause = (ms) => new Promise((r) => setTimeout(r, ms));

async function animate() {
  animating = true;
  while (queue.length) {
    const update = queue.shift();
    if (update.seq <= seq) continue;
    if (update.by === "timer") log.note(t("log.timer", { name: names()[update.seat] }));
    document.body.dataset.animating = "1";
    screen.staging = true; // who is due is the next view's news: not shown ahead of the pieces
    if (me !== null) screen.renderHand(view, context()); // the hand waits while the round is staged
    screen.upcoming?.(update.view, update.events); // a game that stages toward the next view
    for (const event of update.events) {
      sinceAct.push(event);
      log.event(event, { byTimer: update.by === "timer" });
      const staged = screen.event(event, speed);
      if (staged instanceof Promise) await staged;
      else if (staged && speed > 0) {
        screen.drawBoard(view, context());
        await pause(speed);
      }
    }
    if (update.seq > seq) setView(update.view, update.seq, update.deadline); // a welcome may have come meanwhile
  }
  animating = false;
  screen.staging = false;
  delete document.body.dataset.animating;
  if (view) render();
}

function setView(newView, newSeq, newDeadline) {
  view = newView;
  seq = newSeq;
  if (me !== null && table && table.pace) localStorage.setItem(seenKey(), String(newSeq));
  deadline = newDeadline;
  screen.setView(view);
  render();
}

const context = () => ({ me, names: names(), animating, busy: animating || queue.length > 0 });

function render() {
  $("hand-area").hidden = me === null;
  screen.render(view, context());
  hints.render(table, view, me, animating || queue.length > 0);
  notifier.update(me !== null && !view.terminal && (view.legal_actions ?? []).length > 0);
  renderSeats();
  renderInvite();
  renderResult();
}

function renderSeats() {
  if (!view || !table) return;
  refreshRatings(tableId, table, renderSeats);
  const seatNames = names();
  const items = seatNames.map((name, seat) => {
    const info = table.seats[seat];
    const status = screen.seatStatus(view, seat, info);
    // The server lets a bot take an empty seat only after a grace period: count it down.
    const wait = info && info.replace_after ? Math.ceil(info.replace_after - Date.now() / 1000) : 0;
    const presence = info && info.kind === "human" && info.claimed && !info.connected
      ? (info.replaced ? t("table.status.bot_plays")
        : wait > 0 ? t("table.status.away_wait", { seconds: wait }) : t("table.status.away")) : "";
    const score = screen.seatScore ? screen.seatScore(view, seat) : game.seatScore(view, seat);
    const row = el("li", { class: `seat${seat === me ? " me" : ""}${view.current_players.includes(seat) && !screen.staging ? " due" : ""}`, "data-seat": seat },
      game.badge(seat),
      el("span", { class: "seat-name" }, name), seatRating(seat),
      seat === me ? el("span", { class: "you-tag" }, t("table.you_short")) : "",
      screen.seatTile ? screen.seatTile(seat) : "",
      el("span", { class: "seat-tokens" }, score),
      el("span", { class: "seat-status" }, [status, presence].filter(Boolean).join(" · ")));
    if (seat !== me && info && info.kind === "human" && info.claimed) row.append(chat.muteButton(seat));
    if (wait > 0) countdown();
    if (presence && !info.replaced && wait <= 0 && me !== null && !view.terminal) {
      row.append(el("button", { class: "small", onclick: () => send({ type: "replace", seat }) }, t("table.replace")));
    }
    return row;
  });
  $("seats").replaceChildren(...items);
  // On a phone the players' list is below the dock: a strip above the board keeps every
  // seat's score in sight (hidden on wider screens, where the list is beside the board).
  const points = (seat) => (screen.seatPoints ? screen.seatPoints(view, seat) : game.seatPoints(view, seat));
  $("strip").replaceChildren(...seatNames.map((name, seat) => el("li",
    { class: seat === me ? "me" : null, "data-seat": seat, title: name },
    game.badge(seat), el("span", { class: "strip-points" }, num(points(seat))))));
}

let ticking = null;
function countdown() {  // redraw the seats once a second while a grace period runs
  if (ticking === null) ticking = setTimeout(() => { ticking = null; renderSeats(); }, 1000);
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
  box.replaceChildren(...parts);
  const details = $("invite-box");
  if (!details.dataset.touched) details.open = free && me !== null && !(view && view.terminal);
  // A visitor with a free seat open: their name (remembered by this browser) and the seat.
  const join = $("join-box");
  if (me === null && free && !(view && view.terminal)) {
    if (!$("take-seat")) {
      const name = el("input", { id: "join-name", maxlength: "24", autocomplete: "nickname",
        value: localStorage.getItem("sakuraName") ?? "", placeholder: t("table.your_name") });
      join.replaceChildren(el("label", { for: "join-name" }, t("table.your_name")), name,
        el("button", { id: "take-seat", onclick: takeSeat }, t("table.take_seat")));
    }
    join.hidden = false;
  } else {
    join.replaceChildren();
    join.hidden = true;
  }
}

async function takeSeat() {
  const name = ($("join-name")?.value ?? "").trim();
  if (name) localStorage.setItem("sakuraName", name);
  const response = await post(`/api/tables/${tableId}/join`, name ? { name } : {});
  const data = await response.json();
  if (!response.ok) {
    const named = { login_required: "error.login_required", too_many_games: "error.too_many_games" };
    const key = named[data.code] ?? (response.status === 409 ? "error.no_free_seat" : "error.unknown");
    showError(key, String(data.detail ?? ""));
    return;
  }
  saveToken(tableId, data.token);
  socket.close();
}

// The result is a panel over the board that the player may close (its button, Esc, a click
// outside it) to look at the final garden, and open again from the dock.
let resultClosed = false;

function showResult(open) {
  resultClosed = !open;
  renderResult();
  if (open) $("close-result")?.focus();
  else $("show-result")?.focus();
}

// The finished game's score sheet, asked of the server once (the engine reads it off the
// game's events); until it comes (or where a game keeps none) the standings stand alone.
let sheet = null;
let sheetAsked = false;
let offer = null; // a rematch another player asked for: { by, answered }
const declined = new Set(); // the seats that said no to the rematch

async function askSheet() {
  sheetAsked = true;
  const reply = await fetch(`/api/tables/${tableId}/score-sheet`);
  if (!reply.ok) return;
  sheet = game.scoreSheet(await reply.json(), names(), me);
  renderResult();
}

function renderResult() {
  const box = $("result");
  const reopen = $("show-result");
  if (!view || !view.terminal || !view.outcome || animating) { box.hidden = true; reopen.hidden = true; return; }
  const { headline, reason, rows } = game.result(view, names(), me);
  const children = [
    el("button", { type: "button", id: "close-result", class: "close", "aria-label": t("table.result.close"),
      title: t("table.result.close"), onclick: () => showResult(false) }, "×"),
    el("h2", {}, t("table.result")), el("p", { class: "headline" }, headline)];
  if (reason) children.push(el("p", { class: "reason" }, reason));
  if (sheet) children.push(sheet);
  else if (game.scoreSheet && !sheetAsked) askSheet();
  children.push(el("ol", { class: "standings", hidden: sheet ? "" : null }, ...rows.map((row) => el("li",
    { class: [row.winner ? "winner" : "", row.me ? "me" : ""].join(" ").trim() || null },
    row.text, ...(row.me ? [" ", el("span", { class: "you-tag" }, t("table.you_short"))] : [])))));
  if (offer && !offer.answered) {
    children.push(el("p", { class: "rematch-offer", id: "rematch-offer" },
      t("table.rematch_offer", { name: names()[offer.by] ?? "" }), " ",
      el("a", { href: `/t/${table.rematch}`, class: "button", id: "accept-rematch" }, t("table.rematch_accept")), " ",
      el("button", { type: "button", id: "decline-rematch", class: "secondary",
        onclick: () => { offer.answered = true; send({ type: "rematch", decline: true }); renderResult(); } },
      t("table.rematch_decline"))));
  }
  for (const seat of declined) children.push(el("p", { class: "rematch-declined" }, t("table.rematch_declined", { name: names()[seat] ?? "" })));
  const actions = el("p", { class: "actions" });
  if (offer && !offer.answered) {
    // the offer above holds the way there
  } else if (table && table.rematch) {
    actions.append(el("a", { href: `/t/${table.rematch}`, class: "button", id: "go-rematch" }, t("table.go_rematch")));
  } else if (me !== null) {
    actions.append(el("button", { id: "rematch", onclick: () => send({ type: "rematch" }) }, t("table.rematch")));
  }
  // the replay's analysis starts on this player's own seat
  const replay = me !== null ? `/replay/${tableId}?seat=${me}` : `/replay/${tableId}`;
  actions.append(el("a", { href: replay, class: "button", id: "go-replay" }, t("table.replay")));
  actions.append(el("a", { href: `/api/tables/${tableId}/record`, class: "button", download: "" }, t("table.record")));
  children.push(actions);
  box.replaceChildren(...children);
  box.hidden = resultClosed;
  reopen.hidden = !resultClosed;
}

function tick() {
  const box = $("timer");
  const mine = view && me !== null && view.current_players.includes(me);
  if (!deadline || !mine) { box.hidden = true; return; }
  box.hidden = false;
  if (table && table.pace) { box.textContent = untilDeadline(deadline); return; } // turn-based: hours, days
  box.textContent = t("table.timer", { n: Math.max(0, Math.round(deadline - Date.now() / 1000)) });
}

// Keys act on the table only when no menu, input or link has the focus (bug 3: number keys
// played a card while the language menu had it).
document.addEventListener("keydown", (e) => {
  const target = e.target;
  if (e.key === "Escape" && !$("result").hidden) { showResult(false); return; }
  if (e.altKey || e.ctrlKey || e.metaKey) return;
  if (target instanceof HTMLInputElement || target instanceof HTMLSelectElement
    || target instanceof HTMLTextAreaElement || target.isContentEditable) return;
  if (e.code === "KeyH" && hints.allowed(table, view, me)) { document.getElementById("suggest")?.click(); return; }
  if (screen) screen.key(e);
});

// The speed of the staging and the sound toggle, in the header, remembered by the browser.
function addControls() {
  const slot = $("controls");
  const select = speedSelect((ms) => { speed = ms; });
  const sound = el("button", { id: "sound", class: "small secondary", "aria-pressed": soundOn() ? "true" : "false" },
    t(soundOn() ? "table.sound_on" : "table.sound_off"));
  sound.addEventListener("click", () => {
    setSound(!soundOn());
    sound.setAttribute("aria-pressed", soundOn() ? "true" : "false");
    sound.textContent = t(soundOn() ? "table.sound_on" : "table.sound_off");
  });
  slot.replaceChildren(el("label", { for: "speed", class: "control-label" }, t("table.speed")), select, sound, notifier.button());
}

// A turn-based table: "Notify me" in the header (push.js), once, where the browser can be notified.
let pushAdded = false;
async function addPushButton() {
  if (pushAdded) return;
  pushAdded = true;
  const button = await pushButton();
  if (button) $("controls").append(button);
}

// Read-only, for the browser tests: the view the page last drew from.
window.sakuraTable = { view: () => view, animating: () => animating || queue.length > 0, lastEvents: () => sinceAct,
  staged: () => screen.stage?.log ?? [],
  hint: () => hints.hint, notified: () => notifier.notified };

await loadCatalog();
addControls();
addAccountBox();
$("show-result").addEventListener("click", () => showResult(true));
// A click elsewhere on the page closes the result; the header's controls (help, speed,
// language) open above it instead.
document.addEventListener("click", (e) => {
  const box = $("result");
  const target = e.target instanceof Element ? e.target : null;
  if (!box.hidden && target && !box.contains(target) && target.id !== "show-result" && !target.closest("header.top")) {
    showResult(false);
  }
});
$("invite-box").addEventListener("toggle", () => { $("invite-box").dataset.touched = "1"; });
window.addEventListener("resize", () => { if (view && !animating) render(); });
setInterval(tick, 1000);
connect();
