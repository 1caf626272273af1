// The replay page: a finished game, move by move, as a spectator saw it, like lichess: a move
// list to click, a slider to jump to any step, the keys ← and →. The game's module draws each
// step's board, facts and log (the log up to that step, grouped by round as on the table).
// An unfinished game says so, with a link to watch it, instead of showing dead buttons.
import { loadCatalog, t, num } from "./i18n.js";
import { el } from "./common.js";
import { gameModule } from "./games/index.js";
import { addHelp } from "./help.js";
import { AnalysisPanel } from "./analysis.js";
import { chatLine } from "./chat.js";
import { chosenSpeed, speedSelect } from "./speed.js";

const $ = (id) => document.getElementById(id);
const tableId = location.pathname.split("/").pop();
let steps = [];
let table = null;
let index = 0;
let game = null;
let panel = null; // the post-game analysis (analysis.js)
let chat = []; // the table's messages, each shown from the step it was said at
let speed = chosenSpeed(new URLSearchParams(location.search)); // the table's setting (speed.js)
let shownAt = 0; // bumped at every step shown: a staging still running for an older one stops
let staging = 0; // how many stagings are running
const staged = []; // what the stagings staged, in order (the page's tests read it)

const seatNames = (view) => [...Array(game.seatCount(view)).keys()].map((s) => game.seatName(s, table, view, null));

// A move's label: who did what, as far as a spectator may know it.
function moveLabel(step, names) {
  const made = step.events.find((e) => e.type === "choice_made");
  if (made) return t(made.forward ? "replay.move.forward" : "replay.move.back", { name: names[step.seat] });
  if (step.events.some((e) => e.type === "cards_revealed")) return t("replay.move.reveal", { name: names[step.seat] });
  return t("replay.move.play", { name: names[step.seat] ?? "" });
}

// The first step of each round (where the view's round changes): the round buttons and
// PageUp/PageDown step by them, ?round=N opens at one.
const roundStarts = () => steps.map((s, k) => k).filter((k) => k === 0 || steps[k].view.round !== steps[k - 1].view.round);

function byRound(direction) {
  const starts = roundStarts();
  const next = direction > 0 ? starts.find((k) => k > index) : [...starts].reverse().find((k) => k < index);
  show(next ?? (direction > 0 ? steps.length - 1 : 0));
}

// The finished game's score sheet (the engine's), shown at the last step where the game keeps one.
let sheet = undefined;

async function showSheet(atEnd) {
  const box = $("sheet-box");
  if (!atEnd || !game.scoreSheet) { box.hidden = true; return; }
  if (sheet === undefined) {
    sheet = null;
    const reply = await fetch(`/api/tables/${tableId}/score-sheet`);
    if (reply.ok) sheet = game.scoreSheet(await reply.json(), seatNames(steps[steps.length - 1].view), null);
  }
  if (sheet) box.replaceChildren(sheet);
  box.tabIndex = 0; // it scrolls when long: reachable by keyboard, named for screen readers
  box.setAttribute("aria-label", t("table.sheet"));
  box.hidden = !sheet || index !== steps.length - 1;
}

// The hand the moving seat held at this step (public once the game is over: the server's
// replay reads it through the engine), the card it played marked and, where the analysis
// judged this decision, the better card the engine's analysis names.
const cardOf = (action) => (action ?? "").split(" ")[1] ?? null;

// The better card at a flagged decision of step `i` ({seat, card, played}), or null.
function betterAt(i) {
  const step = steps[i];
  const decision = panel?.decisionAt(i - 1) ?? null;
  if (!decision || !decision.label || step.seat === null) return null;
  const card = cardOf(decision.best);
  const played = cardOf(step.action);
  return card && card !== played ? { seat: step.seat, card, played } : null;
}

function showHeld(step, names) {
  const box = $("held-box");
  if (!step.hand || !step.hand.length || step.seat === null) { box.hidden = true; return; }
  const played = cardOf(step.action);
  const better = betterAt(index)?.card ?? null;
  const face = (card) => (game.cardFace ? game.cardFace(String(card), {}, "span") : el("span", { class: "held-number" }, num(Number(card))));
  box.replaceChildren(el("p", {}, t("replay.held", { name: names[step.seat] ?? "" })),
    el("ul", { class: "held-cards" }, ...step.hand.map((card) => {
      const marks = [];
      if (String(card) === played) marks.push(["played", t("replay.held.played")]);
      if (better && String(card) === better && better !== played) marks.push(["better", t("replay.held.better")]);
      return el("li", { class: marks.map(([k]) => k).join(" ") || null, "data-card": String(card) }, face(card),
        ...marks.map(([k, text]) => el("span", { class: `held-tag held-${k}` }, text)));
    })));
  box.hidden = false;
}

// One step forward, where the game stages its moves (the card game): the step is staged on the
// board as the live table stages it, at the table's speed; any other move shows it at once.
function forward() {
  if (!game.stageReplay || speed <= 0 || index >= steps.length - 1) { show(index + 1); return; }
  const before = steps[index].view;
  show(index + 1); // the page at the new step; its board is drawn again from `before`, unpainted
  $("board").scrollIntoView({ block: "nearest" }); // the move list's scroll may have taken it away (phone)
  const at = shownAt;
  const here = index;
  staging += 1;
  game.stageReplay(before, steps[here], seatNames(steps[here].view), speed, () => at === shownAt)
    .then((log) => {
      staged.push(...log.map((entry) => ({ ...entry, step: here })));
      if (at === shownAt) show(here); // the step's own drawing, exactly
    })
    .finally(() => { staging -= 1; });
}

function show(i) {
  index = Math.max(0, Math.min(steps.length - 1, i));
  shownAt += 1;
  const { view } = steps[index];
  const names = seatNames(view);
  const events = steps.slice(0, index + 1).flatMap((step) => step.events);
  game.drawReplay(view, names, events, { better: betterAt(index) });
  $("position").textContent = t("replay.step", { n: index, total: steps.length - 1 });
  $("slider").value = String(index);
  $("seats").replaceChildren(...names.map((name, s) => el("li", { class: "seat" }, game.badge(s),
    el("span", { class: "seat-name" }, name), game.replayTile ? game.replayTile(s, events) : "",
    el("span", { class: "seat-tokens" }, game.seatScore(view, s)))));
  const log = game.newLog($("log"), (s) => names[s] ?? String(s), null);
  log.reset();
  for (const step of steps.slice(0, index + 1)) for (const event of step.events) log.event(event);
  $("chat").replaceChildren(...chat.filter((m) => m.seq <= index).map((m) => chatLine(m, (s) => names[s] ?? String(s))));
  for (const item of $("moves").children) item.classList.toggle("current", Number(item.dataset.step) === index);
  $("moves").querySelector(".current")?.scrollIntoView({ block: "nearest" });
  if (panel) panel.setStep(index);
  showHeld(steps[index], names);
  showSheet(index === steps.length - 1);
}

function moveList() {
  const names = seatNames(steps[steps.length - 1].view);
  const label = game.moveLabel ?? moveLabel;
  $("moves").replaceChildren(...steps.slice(1).map((step, k) => el("li", { "data-step": k + 1 },
    el("button", { class: "move", onclick: () => show(k + 1) }, label(step, names)))));
}

await loadCatalog();
const response = await fetch(`/api/tables/${tableId}/replay`);
if (!response.ok) {
  addHelp("all");
  const box = $("error");
  box.replaceChildren(el("span", {}, t("replay.unavailable")));
  if (response.status === 409) box.append(" ", el("a", { href: `/t/${tableId}`, id: "watch" }, t("replay.watch")));
  box.hidden = false;
  document.querySelector("main").hidden = true;
} else {
  ({ steps, table, chat = [] } = await response.json());
  game = await gameModule(table.game);
  await game.load();
  document.body.dataset.game = table.game;
  addHelp(game.helpGame);
  $("title").textContent = t("replay.title", { id: tableId });
  $("hand-area").hidden = false;
  $("slider").max = String(steps.length - 1);
  $("slider").addEventListener("input", () => show(Number($("slider").value)));
  $("first").addEventListener("click", () => show(0));
  $("prev").addEventListener("click", () => show(index - 1));
  $("next").addEventListener("click", forward);
  $("last").addEventListener("click", () => show(steps.length - 1));
  $("prev-round").addEventListener("click", () => byRound(-1));
  $("next-round").addEventListener("click", () => byRound(1));
  document.addEventListener("keydown", (e) => {
    if (e.target instanceof HTMLInputElement) return;
    const rtl = document.documentElement.dir === "rtl";
    if (e.key === "ArrowRight") { if (rtl) show(index - 1); else forward(); }
    if (e.key === "ArrowLeft") { if (rtl) forward(); else show(index - 1); }
    if (e.key === "PageDown") { e.preventDefault(); byRound(1); }
    if (e.key === "PageUp") { e.preventDefault(); byRound(-1); }
  });
  if (game.stageReplay) { // only a game whose replay stages its steps has a speed to choose
    $("speed-slot").replaceChildren(el("label", { for: "speed", class: "control-label" }, t("table.speed")),
      speedSelect((ms) => { speed = ms; }));
  } else $("speed-slot").hidden = true;
  moveList();
  const asked = new URLSearchParams(location.search).get("seat"); // ?seat=N: from the table, the player's own
  panel = new AnalysisPanel(tableId, seatNames(steps[steps.length - 1].view), steps.length - 1, show,
    asked === null ? 0 : Number(asked));
  panel.onData = () => show(index);
  panel.mount($("analysis-box"));
  const query = new URLSearchParams(location.search);
  const round = Number(query.get("round"));
  const start = round > 0 ? steps.findIndex((step) => step.view.round === round) : Number(query.get("step") ?? 0);
  show(start >= 0 ? start : 0);
}

// Read-only, for the browser tests: what the replay staged, and whether a staging runs.
window.sakuraReplay = { staged: () => staged, animating: () => staging > 0, step: () => index };
