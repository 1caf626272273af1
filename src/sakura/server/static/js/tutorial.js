// "Learn to play": a guided first game on the table's own board. The server sends the whole
// tutorial, played through by the engine from its script (/api/tutorial): for each step its
// words in every language, what to highlight, the move it expects, and the learner's view
// with the events that led to it. The page stages those events exactly as a live table does
// (games/sakura.js) and holds no rules: a move is right when it is the step's expected move;
// any other is explained and nothing changes.
import { loadCatalog, t, language } from "./i18n.js";
import { el } from "./common.js";
import { gameModule } from "./games/index.js";
import { addHelp } from "./help.js";

const $ = (id) => document.getElementById(id);
const params = new URLSearchParams(location.search);
const speed = params.has("speed") ? Number(params.get("speed")) : 450; // ms a step; tests: 0

let steps = [];
let me = 0;
let index = 0;
let view = null;
let game = null;
let screen = null;
let log = null;
let busy = false;
let finished = false;

const step = () => steps[index];
const names = () => (view ? [...Array(game.seatCount(view)).keys()].map((s) => game.seatName(s, null, view, null)) : []);
const words = (texts) => (texts && (texts[language()] || texts.en)) || "";

// The learner's move, from the hand, the choice buttons or the board's choice markers.
function act(action) {
  if (busy || finished) return;
  const current = step();
  if (current.expect === null) { feedback(t("tutorial.read_first")); return; }
  if (action !== current.expect) { feedback(words(current.wrong)); return; }
  advance();
}

function feedback(text) {
  const box = $("lesson-feedback");
  box.textContent = text;
  box.hidden = !text;
}

// To the next step: stage the events that lead to it (if any), then draw its view.
async function advance() {
  if (index === steps.length - 1) { finish(); return; }
  busy = true;
  feedback("");
  index += 1;
  document.body.dataset.animating = "1";
  renderLesson();
  screen.staging = true;
  if (step().events.length) screen.renderHand(view, context());
  for (const event of step().events) {
    log.event(event);
    await screen.event(event, speed);
  }
  screen.staging = false;
  busy = false;
  delete document.body.dataset.animating;
  show();
}

// Back one step: its view at once (nothing staged), the log as it stood there, the result
// hidden again if the lesson was over. Going on from there stages the next step's events anew.
function back() {
  if (busy || index === 0) return;
  index -= 1;
  finished = false;
  $("result").hidden = true;
  delete document.body.dataset.finished;
  feedback("");
  const events = steps.slice(1, index + 1).flatMap((s) => s.events);
  log.reset();
  for (const event of events) log.event(event);
  screen.settleTiles(events);
  show();
}

function finish() {
  finished = true;
  $("result").hidden = false;
  $("play-real").focus();
  document.body.dataset.finished = "1";
}

const context = () => ({ me, names: names(), animating: busy, busy });

function show() {
  view = step().view;
  screen.setView(view);
  render();
  // The keyboard follows the lesson: Next has the focus while a step only speaks (Enter goes
  // on); a step that asks for a move leaves it to the hand's keys (1-5, F/B) and buttons.
  if (step().expect === null) $("lesson-next").focus({ preventScroll: true });
}

function render() {
  screen.render(view, context());
  if (step().expect === null) {  // a step that speaks: read, then Next
    for (const b of document.querySelectorAll("#hand button, #choice button")) b.disabled = true;
    if (!view.pending) $("prompt").textContent = t("tutorial.read_first");
  }
  renderSeats();
  renderLesson();
  highlight();
}

function renderLesson() {
  const current = step();
  $("lesson-count").textContent = t("tutorial.step", { n: index + 1, total: steps.length });
  $("lesson-text").textContent = words(current.text);
  const next = $("lesson-next");
  next.hidden = current.expect !== null;
  next.disabled = busy;
  next.textContent = t(index === steps.length - 1 ? "tutorial.finish" : "tutorial.next");
  const previous = $("lesson-back");
  previous.hidden = index === 0;
  previous.disabled = busy;
  document.body.dataset.step = current.id;
  document.body.dataset.expect = current.expect ?? "";
  if (current.expect !== null && !busy) {
    const how = current.expect.startsWith("play") ? "tutorial.how_card" : "tutorial.how_choice";
    $("status").textContent = t(how);
  } else $("status").textContent = "";
}

function renderSeats() {
  if (!view) return;
  $("seats").replaceChildren(...names().map((name, seat) => el("li", { class: `seat${seat === me ? " me" : ""}`, "data-seat": seat },
    game.badge(seat),
    el("span", { class: "seat-name" }, name),
    seat === me ? el("span", { class: "you-tag" }, t("table.you_short")) : "",
    screen.seatTile(seat),
    el("span", { class: "seat-tokens" }, screen.seatScore(view, seat)),
    el("span", { class: "seat-status" }, screen.seatStatus(view, seat, null)))));
  highlight();
}

// What the step talks about, marked on the board, the hand and the side (redrawn with them).
function highlight() {
  for (const node of document.querySelectorAll(".tut-hl")) node.classList.remove("tut-hl");
  if (!steps.length) return;
  const h = step().highlight;
  const mark = (node) => node && node.classList.add("tut-hl");
  const board = $("board");
  for (const s of h.spaces || []) mark(board.querySelector(`[data-space="${s}"]`));
  for (const p of h.painters || []) mark(board.querySelector(`[data-painter="${p}"]`));
  if (h.emperor) mark(board.querySelector(".emperor"));
  if (h.hand) mark($("hand"));
  for (const c of h.cards || []) mark($("hand").querySelector(`[data-card="${c}"]`));
  if (h.choice) { mark($("choice")); for (const m of board.querySelectorAll(".choice-arrow")) mark(m); }
  if (h.tiles) for (const tile of document.querySelectorAll("#seats .seat-tile, #board .tile-flag")) mark(tile);
  if (h.seats) mark($("seats"));
  if (h.log) mark($("log"));
}

await loadCatalog();
addHelp("sakura");
game = await gameModule("sakura");
await game.load();
document.body.dataset.game = "sakura";
const response = await fetch("/api/tutorial");
if (!response.ok) {
  $("error").textContent = t("tutorial.unavailable");
  $("error").hidden = false;
} else {
  const data = await response.json();
  steps = data.steps;
  me = data.you;
  screen = new game.Table({ act, refresh: renderSeats });
  log = game.newLog($("log"), (s) => names()[s] ?? String(s), me);
  log.reset();
  $("lesson-next").addEventListener("click", () => { if (!busy && step().expect === null) advance(); });
  $("lesson-back").addEventListener("click", back);
  document.addEventListener("keydown", (e) => {
    const target = e.target;
    if (e.altKey || e.ctrlKey || e.metaKey || target instanceof HTMLInputElement || target instanceof HTMLSelectElement) return;
    screen.key(e);
  });
  window.addEventListener("resize", () => { if (view && !busy) render(); });
  // Read-only, for the browser tests.
  window.sakuraTutorial = { step: () => step().id, index: () => index, busy: () => busy, finished: () => finished,
    view: () => view };
  show();
  document.body.dataset.ready = "1";
}
