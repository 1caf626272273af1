// Sakura, the race through the Emperor's garden, on the table and replay pages: the garden,
// the hand of numbered cards, the mid-resolution choice, the facts, the seats' tokens and the
// log. It renders views and events and sends what the view lists; it knows no rules.
import { t, list, num } from "../i18n.js";
import { el, seatName, loadCards, cardFace, COLOURS, SHAPES, letter } from "../common.js";
import { drawGarden } from "../garden.js";
import { LogWriter, showOnBoard, moves } from "../log.js";

const $ = (id) => document.getElementById(id);

export const helpGame = "sakura";

export async function load() {
  await loadCards();
}

export function badge(seat) {
  return el("span", { class: `badge shape-${SHAPES[seat]}`, style: `background:${COLOURS[seat]}`, "aria-hidden": "true" },
    letter(seat));
}

// The painters, the court painter included (it is the last painter of a two-player game).
export const seatCount = (view) => view.painters.length;
export { seatName };

export function newLog(listElement, name, me, options) {
  return new LogWriter(listElement, name, me, options);
}

function facts(view) {
  return [
    el("li", { id: "facts-round" }, t("table.round", { round: view.round })),
    el("li", {}, t("table.deck", { n: view.deck_size })),
    el("li", {}, t("table.supply", { n: view.supply })),
    el("li", {}, t("table.scored", { n: view.scored, total: view.sakuras.length })),
    el("li", {}, t("table.discard", { n: view.discard.length }))];
}

export function result(view, names) {
  const { winners, scores } = view.outcome;
  const best = Math.max(...scores);
  const headline = winners.length === 1
    ? t("table.result.one", { name: names[winners[0]], n: best })
    : t("table.result.shared", { names: list(winners.map((w) => names[w])), n: best });
  const rows = scores.map((s, seat) => [seat, s]).sort((a, b) => b[1] - a[1])
    .map(([seat, s]) => t("table.score", { name: names[seat], n: s }));
  return { headline, rows };
}

// A replay step: the garden and the facts of a spectator's view.
export function drawReplay(view, names) {
  drawGarden($("board"), view, { names });
  $("facts").replaceChildren(...facts(view).slice(0, 4));
}

export const seatScore = (view, seat) => t("table.tokens", { n: view.tokens[seat] });

// The live table: the board shown while an update plays out is a copy the events move
// (`showOnBoard`); the next view is the truth.
export class Table {
  constructor({ act }) {
    this.act = act;
    this.board = null;
    this.courtPick = null; // tactical variant: the card chosen for one's own painter
  }

  setView(view) {
    this.board = { garden: view.garden, sakuras: view.sakuras, scored: view.scored, emperor: view.emperor,
      painters: [...view.painters] };
    if (!view.legal_actions.some((a) => a.includes("court"))) this.courtPick = null;
  }

  // Move the pieces an event names; true when the board changed enough to pause on.
  event(event) {
    showOnBoard(this.board, event);
    return moves(event);
  }

  myChoice(view, me) {
    return view.pending && view.pending[0] === me && view.legal_actions.includes("forward")
      ? { seat: me, card: view.pending[1], part: view.pending[2] } : null;
  }

  drawBoard(view, ctx) {
    const choice = ctx.animating ? null : this.myChoice(view, ctx.me);
    drawGarden($("board"), this.board, { names: ctx.names, choice, onChoice: (dir) => this.act(dir) });
  }

  render(view, ctx) {
    this.drawBoard(view, ctx);
    $("facts").replaceChildren(...facts(view));
    if (ctx.me !== null) this.renderHand(view, ctx);
  }

  seatStatus(view, seat) {
    if (view.pending && view.pending[0] === seat) return t("table.status.choosing");
    if (seat < view.chosen.length && !view.terminal && view.revealed.length === 0) {
      return t(view.chosen[seat] ? "table.status.chosen" : "table.status.thinking");
    }
    return "";
  }

  renderHand(view, ctx) {
    const hand = $("hand");
    const prompt = $("prompt");
    const choiceBox = $("choice");
    const { busy } = ctx;
    const legal = new Set(view.legal_actions);
    const double = view.legal_actions.some((a) => a.includes("court"));
    hand.replaceChildren(...view.hand.map((card, i) => {
      let enabled = false;
      if (double) {
        enabled = this.courtPick === null ? view.legal_actions.some((a) => a.startsWith(`play ${card} court`))
          : legal.has(`play ${this.courtPick} court ${card}`);
      } else enabled = legal.has(`play ${card}`);
      const chosen = (view.my_choice || []).includes(card) || this.courtPick === card;
      const button = cardFace(card, { disabled: !enabled || busy, "aria-pressed": chosen ? "true" : "false",
        "data-key": i + 1 });
      button.addEventListener("click", () => {
        if (!double) return this.act(`play ${card}`);
        if (this.courtPick === null) { this.courtPick = card; this.renderHand(view, ctx); return; }
        this.act(`play ${this.courtPick} court ${card}`);
      });
      return button;
    }));
    const choice = this.myChoice(view, ctx.me);
    choiceBox.hidden = !choice;
    if (choice) {
      prompt.textContent = t(choice.part === "garden" ? "table.choice_garden" : "table.choice_painter", { card: choice.card });
      choiceBox.replaceChildren(
        el("button", { "data-choice": "back", onclick: () => this.act("back"), disabled: busy }, t("table.back_button")),
        el("button", { "data-choice": "forward", onclick: () => this.act("forward"), disabled: busy }, t("table.forward_button")));
    } else if (view.terminal) prompt.textContent = "";
    else if (double) prompt.textContent = t(this.courtPick === null ? "table.choose_two" : "table.choose_court");
    else if (legal.size) prompt.textContent = t("table.choose");
    else if (view.my_choice) prompt.textContent = t("table.chosen", { cards: list(view.my_choice.map((card) => num(card))) });
    else prompt.textContent = t("table.waiting");
  }

  // 1-9 play the hand's cards; F and B answer a choice.
  key(e) {
    if (/^[1-9]$/.test(e.key)) document.querySelector(`#hand button[data-key="${e.key}"]:not([disabled])`)?.click();
    if (e.key === "f") document.querySelector('#choice button[data-choice="forward"]:not([disabled])')?.click();
    if (e.key === "b") document.querySelector('#choice button[data-choice="back"]:not([disabled])')?.click();
  }
}
