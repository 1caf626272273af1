// Hints while playing: "Suggest" (or the H key) sends a `hint` message; the server searches
// from this seat's view in a worker process, reports its progress (`hint_progress`) and then
// each legal action's estimated chance of winning (`hint`). The page only shows those numbers:
// a badge on each card of the hand (the best one marked) and on the forward / back buttons,
// and the best action in words. A hint belongs to the decision it was asked for: it stays while
// the view offers the same actions in the same round and stage (others choosing their cards
// meanwhile change nothing of it) and is gone once the game moves on. Tables without hints (rated games) show no button.
import { t } from "./i18n.js";
import { el } from "./common.js";
import { cardName } from "./games/cards_log.js";

const $ = (id) => document.getElementById(id);
const pct = (win) => Math.round(win * 100);

const AREAS = { garden: "cards.area.garden", palace: "cards.area.palace", temple: "cards.area.temple" };

// An action in words: "card 17", "cards 5 and 9", "forward"; the card game's "the blue 5 in the
// Garden", "give the red 2"; anything else as the engine writes it.
export function actionLabel(action) {
  let m = action.match(/^play (\d+)$/);
  if (m) return t("hint.card", { n: Number(m[1]) });
  m = action.match(/^play (\d+) court (\d+)$/);
  if (m) return t("hint.two", { a: Number(m[1]), b: Number(m[2]) });
  if (action === "forward") return t("hint.forward");
  if (action === "back") return t("hint.back");
  m = action.match(/^place (\S+) (garden|palace|temple)$/);
  if (m) return t("hint.place", { card: cardName(m[1]), area: t(AREAS[m[2]]) });
  m = action.match(/^(discard|give) (\S+)$/);
  if (m) return t(m[1] === "give" ? "hint.give" : "hint.discard", { card: cardName(m[2]) });
  return action;
}

// The hand button an action plays (Sakura: "play N ..."; the card game: "place|discard|give CARD ...").
function targets(action) {
  if (action === "forward" || action === "back") return [...document.querySelectorAll(`#choice button[data-choice="${action}"]`)];
  const m = action.match(/^(?:play|place|discard|give) (\S+)/);
  return m ? [...document.querySelectorAll(`#hand button[data-card="${m[1]}"]`)] : [];
}

// The action with the highest estimated chance (the server's estimate: each action's playouts
// with a few at the position's own chance, so a card tried twice does not top the list).
const bestOf = (hint) => hint.actions.reduce((a, b) => (b.estimate > a.estimate ? b : a));

// What a hint answers: these actions, in this round, at this stage of it.
const decision = (view) => JSON.stringify([view.round ?? null, view.pending ?? null, view.turn ?? null,
  view.phase ?? null, view.legal_actions]);

export class Hints {
  constructor(send) {
    this.send = send;
    this.hint = null; // the last answer
    this.asked = null; // the decision (see decision()) a hint is being worked out for
    this.progress = 0;
  }

  allowed(table, view, me) {
    return Boolean(table && table.hints !== false && !table.rated && me !== null && view && !view.terminal
      && view.legal_actions.length > 0);
  }

  ask(view) {
    if (this.asked !== null) return;
    this.asked = decision(view);
    this.progress = 0;
    this.send({ type: "hint" });
  }

  receive(message) {
    if (message.type === "hint_progress") {
      this.progress = message.progress;
      const bar = $("hint-progress");
      if (bar) bar.value = pct(this.progress);
      return false;
    }
    if (message.type === "hint") this.hint = { ...message, decision: this.asked };
    this.asked = null;
    return true;
  }

  refused() { this.asked = null; }

  // After every render of the table: the button, the progress, the badges.
  render(table, view, me, busy) {
    const box = $("hint-box");
    if (!box) return;
    if (!this.allowed(table, view, me)) { box.hidden = true; box.replaceChildren(); return; }
    box.hidden = false;
    const current = this.hint && this.hint.decision === decision(view) ? this.hint : null;
    const waiting = this.asked !== null;
    const parts = [el("button", { id: "suggest", class: "small secondary", "aria-keyshortcuts": "H",
      disabled: waiting || busy || Boolean(current), onclick: () => this.ask(view) }, t("hint.suggest"))];
    if (waiting) {
      parts.push(el("progress", { id: "hint-progress", max: "100", value: String(pct(this.progress)),
        "aria-label": t("hint.thinking") }), el("span", { class: "hint-status" }, t("hint.thinking")));
    } else if (current) {
      const best = bestOf(current);
      parts.push(el("span", { class: "hint-status", id: "hint-best" },
        t("hint.best", { action: actionLabel(best.action), n: pct(best.estimate) }),
        // how sure the hint is (the judge's margins): said when the best does not stand out
        ...(current.sure === false ? [" ", t("hint.unsure")] : [])));
    }
    box.replaceChildren(...parts);
    if (current) this.decorate(current);
  }

  decorate(hint) {
    const top = bestOf(hint);
    const shown = new Map(); // one badge a button: its best action's chance
    for (const a of hint.actions) {
      for (const button of targets(a.action)) {
        const had = shown.get(button);
        const best = a === top || Boolean(had && had.best);
        if (!had || a.estimate > had.win) shown.set(button, { win: a.estimate, best, margin: a.margin ?? -1 });
        else had.best = best;
      }
    }
    for (const [button, { win, best, margin }] of shown) {
      button.querySelector(".hint-badge")?.remove();
      const title = margin >= 0 ? t("hint.badge_title_margin", { n: pct(win), m: Math.max(1, pct(margin)) })
        : t("hint.badge_title");
      button.append(el("span", { class: `hint-badge${best ? " best" : ""}`, title, "data-margin": margin >= 0 ? String(margin) : null },
        t("hint.percent", { n: pct(win) })));
    }
  }
}
