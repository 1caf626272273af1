// The table page: one WebSocket, the garden, the hand, the log. It renders what the server
// sends (views and events) and sends the actions the view lists; it knows no rules.
import { loadCatalog, t, list, num } from "./i18n.js";
import { el, seatName, loadCards, cardFace, COLOURS, SHAPES, letter } from "./common.js";
import { drawGarden } from "./garden.js";
import { LogWriter, showOnBoard, moves } from "./log.js";
import { addHelp } from "./help.js";
import { saveToken, readCookie, forget } from "./cookies.js";

const tableId = location.pathname.split("/").pop();
const params = new URLSearchParams(location.search);
const speed = Number(params.get("speed") ?? localStorage.getItem("sakuraSpeed") ?? 450);

let socket = null;
let me = null;
let table = null;
let view = null;
let board = null;
let seq = 0;
let courtPick = null;
let deadline = null;
const queue = [];
let animating = false;
let log = null;

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

const names = () => (view ? [...Array(view.painters.length).keys()].map((s) => seatName(s, table, view, me)) : []);

function send(message) {
  if (socket && socket.readyState === WebSocket.OPEN) socket.send(JSON.stringify(message));
}

function act(action) {
  send({ type: "act", action });
  for (const b of document.querySelectorAll("#hand button, #choice button")) b.disabled = true;
}

function connect() {
  $("status").textContent = t(socket ? "table.reconnecting" : "table.connecting");
  const proto = location.protocol === "https:" ? "wss" : "ws";
  socket = new WebSocket(`${proto}://${location.host}/ws/${tableId}`);
  socket.addEventListener("open", () => send({ type: "hello", token: readToken() }));
  socket.addEventListener("message", (e) => receive(JSON.parse(e.data)));
  socket.addEventListener("close", () => {
    $("status").textContent = t("table.reconnecting");
    setTimeout(connect, 1000);
  });
}

function receive(message) {
  switch (message.type) {
    case "welcome":
      me = message.seat;
      log.me = me;
      table = message.table;
      queue.length = 0;
      setView(message.view, message.seq, message.deadline);
      $("status").textContent = me === null ? t("table.spectating") : t("table.you", { name: seatName(me, table, view, me) });
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
      if (message.code === "no_table") { showError("error.no_table"); socket.onclose = null; return; }
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
      showOnBoard(board, event);
      if (moves(event) && speed > 0) {
        drawBoard();
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
  board = { garden: view.garden, sakuras: view.sakuras, scored: view.scored, emperor: view.emperor,
    painters: [...view.painters] };
  if (!view.legal_actions.some((a) => a.includes("court"))) courtPick = null;
  render();
}

function myChoice() {
  return view && view.pending && view.pending[0] === me && view.legal_actions.includes("forward")
    ? { seat: me, card: view.pending[1], part: view.pending[2] } : null;
}

function drawBoard() {
  const choice = animating ? null : myChoice();
  drawGarden($("garden"), board, { names: names(), choice, onChoice: (dir) => act(dir) });
}

function render() {
  drawBoard();
  renderFacts();
  renderSeats();
  renderHand();
  renderInvite();
  renderResult();
}

function renderFacts() {
  $("facts").replaceChildren(
    el("li", { id: "facts-round" }, t("table.round", { round: view.round })),
    el("li", {}, t("table.deck", { n: view.deck_size })),
    el("li", {}, t("table.supply", { n: view.supply })),
    el("li", {}, t("table.scored", { n: view.scored, total: view.sakuras.length })),
    el("li", {}, t("table.discard", { n: view.discard.length })));
}

function renderSeats() {
  if (!view || !table) return;
  const seatNames = names();
  const items = view.painters.map((space, seat) => {
    const info = table.seats[seat];
    let status = "";
    if (view.pending && view.pending[0] === seat) status = t("table.status.choosing");
    else if (seat < view.chosen.length && !view.terminal && view.revealed.length === 0) {
      status = t(view.chosen[seat] ? "table.status.chosen" : "table.status.thinking");
    }
    const presence = info && info.kind === "human" && info.claimed && !info.connected
      ? (info.replaced ? t("table.status.bot_plays") : t("table.status.away")) : "";
    const badge = el("span", { class: `badge shape-${SHAPES[seat]}`, style: `background:${COLOURS[seat]}`, "aria-hidden": "true" }, letter(seat));
    const row = el("li", { class: `seat${seat === me ? " me" : ""}`, "data-seat": seat }, badge,
      el("span", { class: "seat-name" }, seatNames[seat]),
      el("span", { class: "seat-tokens" }, t("table.tokens", { n: view.tokens[seat] })),
      el("span", { class: "seat-status" }, [status, presence].filter(Boolean).join(" · ")));
    if (presence && !info.replaced && me !== null && !view.terminal) {
      row.append(el("button", { class: "small", onclick: () => send({ type: "replace", seat }) }, t("table.replace")));
    }
    return row;
  });
  $("seats").replaceChildren(...items);
}

function renderHand() {
  const hand = $("hand");
  const prompt = $("prompt");
  const choiceBox = $("choice");
  $("hand-area").hidden = me === null;
  if (me === null) return;
  const busy = animating || queue.length > 0;
  const legal = new Set(view.legal_actions);
  const double = view.legal_actions.some((a) => a.includes("court"));
  hand.replaceChildren(...view.hand.map((card, i) => {
    let enabled = false;
    if (double) {
      enabled = courtPick === null ? view.legal_actions.some((a) => a.startsWith(`play ${card} court`))
        : legal.has(`play ${courtPick} court ${card}`);
    } else enabled = legal.has(`play ${card}`);
    const chosen = (view.my_choice || []).includes(card) || courtPick === card;
    const button = cardFace(card, { disabled: !enabled || busy, "aria-pressed": chosen ? "true" : "false",
      "data-key": i + 1 });
    button.addEventListener("click", () => {
      if (!double) return act(`play ${card}`);
      if (courtPick === null) { courtPick = card; renderHand(); return; }
      act(`play ${courtPick} court ${card}`);
    });
    return button;
  }));
  const choice = myChoice();
  choiceBox.hidden = !choice;
  if (choice) {
    prompt.textContent = t(choice.part === "garden" ? "table.choice_garden" : "table.choice_painter", { card: choice.card });
    choiceBox.replaceChildren(
      el("button", { "data-choice": "back", onclick: () => act("back"), disabled: busy }, t("table.back_button")),
      el("button", { "data-choice": "forward", onclick: () => act("forward"), disabled: busy }, t("table.forward_button")));
  } else if (view.terminal) prompt.textContent = "";
  else if (double) prompt.textContent = t(courtPick === null ? "table.choose_two" : "table.choose_court");
  else if (legal.size) prompt.textContent = t("table.choose");
  else if (view.my_choice) prompt.textContent = t("table.chosen", { cards: list(view.my_choice.map((card) => num(card))) });
  else prompt.textContent = t("table.waiting");
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
  const { winners, scores } = view.outcome;
  const seats = names();
  const best = Math.max(...scores);
  const headline = winners.length === 1
    ? t("table.result.one", { name: seats[winners[0]], n: best })
    : t("table.result.shared", { names: list(winners.map((w) => seats[w])), n: best });
  const children = [el("h2", {}, t("table.result")), el("p", { class: "headline" }, headline),
    el("ol", {}, ...scores.map((s, seat) => [seat, s]).sort((a, b) => b[1] - a[1])
      .map(([seat, s]) => el("li", {}, t("table.score", { name: seats[seat], n: s }))))];
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
  if (/^[1-9]$/.test(e.key)) document.querySelector(`#hand button[data-key="${e.key}"]:not([disabled])`)?.click();
  if (e.key === "f") document.querySelector('#choice button[data-choice="forward"]:not([disabled])')?.click();
  if (e.key === "b") document.querySelector('#choice button[data-choice="back"]:not([disabled])')?.click();
});

await loadCatalog();
await loadCards();
addHelp();
log = new LogWriter($("log"), (s) => names()[s] ?? String(s), null);
setInterval(tick, 1000);
connect();
