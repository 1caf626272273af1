// The post-game analysis on the replay page, like lichess's: "Analyse" asks the server to
// score one seat's decisions (POST /api/tables/{id}/analysis/{seat}); it works in the
// background and the page follows its progress (GET, every half second) until the analysis
// comes. Then the page draws each player's estimated chance of winning at every round's
// start (an SVG drawn here from the data), marks the seat's inaccuracies, mistakes and
// blunders on the graph and in the move list, and lists them; a click shows that move.
// Everything shown comes from the server's analysis; nothing is computed here.
import { t, num } from "./i18n.js";
import { el, COLOURS } from "./common.js";
import { actionLabel } from "./hints.js";

const $ = (id) => document.getElementById(id);
const NS = "http://www.w3.org/2000/svg";
// The chess signs, kept left to right in a right-to-left page ("?!" never becomes "!?").
const MARKS = { blunder: "??", mistake: "?", inaccuracy: "?!" };
const sign = (label) => el("bdi", { dir: "ltr", class: "sign" }, MARKS[label]);
const MARK_KEYS = { blunder: "analysis.blunder", mistake: "analysis.mistake", inaccuracy: "analysis.inaccuracy" };
const W = 340; // the side column's width, so the graph's text is drawn at its own size
const H = 190;
const PAD = { left: 32, right: 8, top: 22, bottom: 22 };

function svg(tag, attrs = {}, ...children) {
  const node = document.createElementNS(NS, tag);
  for (const [k, v] of Object.entries(attrs)) node.setAttribute(k, String(v));
  for (const c of children) node.append(c);
  return node;
}

export class AnalysisPanel {
  // names: the seats' names; moves: how many moves the game has; show(step): go to a step;
  // seat: the seat picked at first (the viewer's own, where the page knows it).
  constructor(tableId, names, moves, show, seat = 0) {
    this.tableId = tableId;
    this.names = names;
    this.moves = moves;
    this.show = show;
    this.seat = Number.isInteger(seat) && seat >= 0 && seat < names.length ? seat : 0;
    this.data = null;
    this.timer = null;
    this.step = 0;
  }

  mount(box) {
    const select = el("select", { id: "analysis-seat", "aria-label": t("analysis.seat") },
      ...this.names.map((name, s) => el("option", { value: String(s) }, name)));
    select.value = String(this.seat);
    select.addEventListener("change", () => { this.seat = Number(select.value); this.load(); });
    box.replaceChildren(
      el("h2", { id: "analysis-title" }, t("analysis.title")),
      el("p", { class: "analysis-controls" }, el("label", { for: "analysis-seat" }, t("analysis.seat")), select,
        el("button", { id: "analyse", class: "small", onclick: () => this.start() }, t("analysis.start"))),
      el("p", { id: "analysis-status", class: "analysis-status", role: "status", "aria-live": "polite" }),
      el("div", { id: "analysis-graph", class: "analysis-graph" }),
      el("ol", { id: "analysis-marks", class: "analysis-marks" }));
    this.load();
  }

  async load() {
    clearTimeout(this.timer);
    const response = await fetch(`/api/tables/${this.tableId}/analysis/${this.seat}`);
    const data = await response.json();
    if (!response.ok) { this.say(t("error.unknown"), data.detail); return; }
    this.apply(data);
  }

  async start() {
    $("analyse").disabled = true;
    const response = await fetch(`/api/tables/${this.tableId}/analysis/${this.seat}`, { method: "POST" });
    const data = await response.json();
    if (response.status === 409) { this.say(t("analysis.not_finished"), data.detail); return; }
    if (!response.ok) {
      this.say(t(data.code === "busy" ? "error.busy" : "error.unknown"), data.detail);
      $("analyse").disabled = false;
      return;
    }
    this.apply(data);
  }

  say(text, detail) {
    const status = $("analysis-status");
    status.replaceChildren(text);
    if (detail) status.append(" ", el("small", { class: "detail", lang: "en", dir: "ltr" }, detail));
  }

  apply(status) {
    if (status.seat !== undefined && status.seat !== this.seat) return; // an answer for another seat
    const button = $("analyse");
    this.data = null;
    this.clear();
    if (status.status === "done") {
      button.hidden = true;
      this.data = status.analysis;
      const { counts } = this.data;
      this.say(t("analysis.summary", { name: this.names[this.seat], blunders: t("analysis.blunders", { n: counts.blunder }),
        mistakes: t("analysis.mistakes", { n: counts.mistake }), inaccuracies: t("analysis.inaccuracies", { n: counts.inaccuracy }) }));
      this.draw();
      this.onData?.(); // the page redraws its step: the better card may be shown now
      return;
    }
    button.hidden = false;
    if (status.status === "running") {
      button.disabled = true;
      const status_ = $("analysis-status");
      const value = status.total ? Math.round((100 * status.done) / status.total) : 0;
      status_.replaceChildren(el("progress", { id: "analysis-progress", max: "100", value: String(value),
        "aria-label": t("analysis.running") }), " ",
      status.total ? t("analysis.progress", { done: status.done, total: status.total }) : t("analysis.running"));
      this.timer = setTimeout(() => this.load(), 500);
      return;
    }
    button.disabled = false;
    if (status.status === "failed") this.say(t("analysis.failed"), status.message);
    else this.say(t("analysis.none", { name: this.names[this.seat] }));
  }

  clear() {
    $("analysis-graph").replaceChildren();
    $("analysis-marks").replaceChildren();
    for (const item of document.querySelectorAll("#moves li[data-mark]")) {
      item.removeAttribute("data-mark");
      item.querySelector(".move-mark")?.remove();
    }
  }

  x(index) { return PAD.left + (index / Math.max(1, this.moves)) * (W - PAD.left - PAD.right); }

  y(win) { return PAD.top + (1 - win) * (H - PAD.top - PAD.bottom); }

  draw() {
    const { rounds, decisions } = this.data;
    const graph = svg("svg", { viewBox: `0 0 ${W} ${H}`, role: "group", "aria-labelledby": "analysis-graph-title",
      class: "win-graph" }, svg("title", { id: "analysis-graph-title" }, t("analysis.graph")));
    for (const w of [0, 0.25, 0.5, 0.75, 1]) {
      graph.append(svg("line", { x1: PAD.left, x2: W - PAD.right, y1: this.y(w), y2: this.y(w), class: "grid" }),
        svg("text", { x: PAD.left - 6, y: this.y(w) + 4, class: "axis", "text-anchor": "end" }, t("hint.percent", { n: w * 100 })));
    }
    const fair = 1 / this.names.length;
    graph.append(svg("line", { x1: PAD.left, x2: W - PAD.right, y1: this.y(fair), y2: this.y(fair), class: "fair" }));
    const every = Math.max(1, Math.ceil(rounds.length / 12));
    const end = rounds.length ? this.x(rounds[rounds.length - 1].index) : 0;
    rounds.forEach((p, i) => {
      const last = i === rounds.length - 1;
      if (last || (i % every === 0 && end - this.x(p.index) > 22)) {
        graph.append(svg("text", { x: this.x(p.index), y: H - 7, class: "axis", "text-anchor": last ? "end" : "middle" },
          last ? t("analysis.end") : num(p.round)));
      }
    });
    for (const d of decisions.filter((x) => x.label)) {
      const x = this.x(d.index);
      const mark = svg("g", { class: `mark mark-${d.label}`, tabindex: "0", role: "button", "data-index": d.index },
        svg("title", {}, this.describe(d)),
        svg("line", { x1: x, x2: x, y1: PAD.top - 4, y2: H - PAD.bottom }),
        svg("text", { x, y: PAD.top - 8, "text-anchor": "middle", direction: "ltr", "unicode-bidi": "bidi-override" },
          MARKS[d.label]));
      mark.addEventListener("click", () => this.show(d.index + 1));
      mark.addEventListener("keydown", (e) => { if (e.key === "Enter" || e.key === " ") { e.preventDefault(); this.show(d.index + 1); } });
      graph.append(mark);
    }
    this.names.forEach((_, seat) => {
      const points = rounds.map((p) => `${this.x(p.index).toFixed(1)},${this.y(p.wins[seat]).toFixed(1)}`).join(" ");
      graph.append(svg("polyline", { points, fill: "none", stroke: COLOURS[seat], class: seat === this.seat ? "line mine" : "line" }));
    });
    graph.append(svg("line", { id: "analysis-now", class: "now", x1: this.x(this.step), x2: this.x(this.step), y1: PAD.top, y2: H - PAD.bottom }));
    const legend = el("p", { class: "analysis-legend" }, ...this.names.map((name, seat) =>
      el("span", { class: seat === this.seat ? "mine" : "" }, el("span", { class: "swatch", style: `background:${COLOURS[seat]}` }), name)));
    $("analysis-graph").replaceChildren(graph, legend);
    const marked = decisions.filter((d) => d.label);
    $("analysis-marks").replaceChildren(...(marked.length ? marked.map((d) => el("li", { class: `mark-${d.label}` },
      el("button", { class: "move", "data-index": d.index, onclick: () => this.show(d.index + 1) },
        el("strong", {}, sign(d.label), " ", t(MARK_KEYS[d.label])), " · ", this.describe(d))))
      : [el("li", { class: "clean" }, t("analysis.clean"))]));
    for (const d of marked) {
      const item = document.querySelector(`#moves li[data-step="${d.index + 1}"]`);
      if (!item) continue;
      item.dataset.mark = d.label;
      item.querySelector("button")?.append(" ", el("span", { class: "move-mark", title: t(MARK_KEYS[d.label]) }, sign(d.label)));
    }
  }

  describe(d) {
    return t("analysis.decision", { move: d.index + 1, round: d.round ?? 0, played: actionLabel(d.played),
      best: actionLabel(d.best), n: Math.round(d.loss), m: Math.round(d.margin ?? 0) });
  }

  // The analysed decision taken at move `index` (from 0), if this seat's analysis has it.
  decisionAt(index) {
    return this.data?.decisions?.find((d) => d.index === index) ?? null;
  }

  setStep(step) {
    this.step = step;
    const now = $("analysis-now");
    if (now) { now.setAttribute("x1", this.x(step)); now.setAttribute("x2", this.x(step)); }
  }
}
