// The table's chat: messages of the seated players and of spectators (marked), quick phrases
// in the reader's language, and a mute per seat kept by this browser for this table. Every
// word a person typed goes into the page as text (textContent through el()), never as HTML.
import { t, num } from "./i18n.js";
import { el } from "./common.js";

export const PHRASES = ["gg", "wp", "oops", "hello", "thanks", "blossom"];
const PHRASE_KEYS = { gg: "chat.phrase.gg", wp: "chat.phrase.wp", oops: "chat.phrase.oops", hello: "chat.phrase.hello",
  thanks: "chat.phrase.thanks", blossom: "chat.phrase.blossom" };
const phrase = (p) => t(PHRASE_KEYS[p] ?? "chat.phrase.oops");

// One message as a list item: who (a seat's name, or a spectator's), then what; with
// onReport, a button that reports the message to the site's moderators.
export function chatLine(message, nameOf, onReport = null) {
  const spectator = message.seat === null || message.seat === undefined;
  const who = spectator ? (message.name || t("chat.spectator")) : nameOf(message.seat);
  const words = message.phrase ? phrase(message.phrase) : message.text;
  const report = onReport && message.text ? el("button", { type: "button", class: "small secondary chat-report",
    "data-report": message.id, title: t("chat.report"), "aria-label": t("chat.report"), onclick: () => onReport(message) },
  "⚑") : "";
  return el("li", { class: `chat-line${spectator ? " spectator" : ""}`, "data-seat": spectator ? "" : message.seat,
    "data-id": message.id },
  el("span", { class: "chat-who" }, who),
  spectator ? el("span", { class: "chat-tag" }, t("chat.spectator_tag")) : "",
  el("span", { class: "chat-text", dir: "auto" }, words), report);
}

export class ChatBox {
  constructor({ box, send, nameOf, tableId, onError, onReport }) {
    this.box = box;
    this.onReport = onReport ?? null;
    this.send = send;
    this.nameOf = nameOf;
    this.key = `sakura.mute.${tableId}`;
    this.muted = new Set(JSON.parse(localStorage.getItem(this.key) || "[]"));
    this.messages = [];
    this.onError = onError;
    this.list = el("ol", { id: "chat", class: "chat", tabindex: "0", "aria-labelledby": "chat-title" });
    this.input = el("input", { id: "chat-input", maxlength: "300", autocomplete: "off", "aria-label": t("chat.placeholder"),
      placeholder: t("chat.placeholder") });
    this.form = el("form", { id: "chat-form", class: "chat-form" }, this.input,
      el("button", { type: "submit", id: "chat-send", class: "small" }, t("chat.send")));
    this.form.addEventListener("submit", (e) => {
      e.preventDefault();
      const text = this.input.value.trim();
      if (!text) return;
      this.send({ type: "chat", text });
      this.input.value = "";
    });
    this.phrases = el("div", { id: "chat-phrases", class: "chat-phrases" }, ...PHRASES.map((p) =>
      el("button", { type: "button", class: "small secondary", "data-phrase": p, onclick: () => this.send({ type: "chat", phrase: p }) },
        phrase(p))));
    this.note = el("p", { id: "chat-note", class: "chat-note", role: "status" });
    // the spectators, all together, can be muted too ("s" in the muted set)
    this.spectatorsButton = el("button", { type: "button", id: "mute-spectators", class: "small secondary",
      onclick: () => { this.toggleMute("s"); this.labelSpectators(); } });
    this.labelSpectators();
    // The log role on a wrapper: on the list itself it would hide the list's items (axe: listitem).
    // Folded away at a table of bots (the log needs the room), open where people are.
    // Messages that came while the reader kept the chat folded: counted on its title.
    this.unread = 0;
    this.badge = el("span", { id: "chat-unread", class: "unread", hidden: true });
    this.details = el("details", { id: "chat-details", class: "chat-details" },
      el("summary", {}, el("h2", { id: "chat-title" }, t("chat.title")), this.badge),
      el("div", { role: "log", "aria-labelledby": "chat-title" }, this.list), this.phrases, this.form, this.note,
      this.spectatorsButton);
    this.details.addEventListener("toggle", () => {
      if (this.settled) this.touched = true;
      if (this.details.open) this.markRead();
    });
    box.replaceChildren(this.details);
  }

  // Spectators may write unless the table says otherwise.
  setOpen(open) {
    this.form.hidden = !open;
    this.phrases.hidden = !open;
    this.note.textContent = open ? "" : t("chat.closed");
  }

  // Open while other people are at the table (until the reader folds or opens it themselves).
  setPeople(present) {
    if (this.touched) return;
    this.settled = false;
    this.details.open = present || this.messages.length > 0;
    setTimeout(() => { this.settled = true; }, 0);
  }

  error(text) {
    this.note.textContent = text;
  }

  history(messages) {
    const known = new Set(messages.map((m) => m.id));
    this.messages = [...messages, ...this.messages.filter((m) => !known.has(m.id) && m.id > (messages.at(-1)?.id ?? -1))];
    this.redraw();
  }

  add(message) {
    if (this.messages.some((m) => m.id === message.id)) return; // also in a history that came meanwhile
    this.messages.push(message);
    if (this.messages.length > 400) this.messages.shift();
    if (this.isMuted(message.seat)) return;
    this.list.append(chatLine(message, this.nameOf, this.onReport));
    this.list.scrollTop = this.list.scrollHeight;
    if (!this.touched) this.details.open = true;
    if (!this.details.open) {
      this.unread += 1;
      this.badge.textContent = num(this.unread);
      this.badge.setAttribute("aria-label", t("chat.unread", { n: this.unread }));
      this.badge.hidden = false;
    }
    this.spectatorsButton.hidden = !this.messages.some((m) => m.seat === null);
  }

  // A moderator hid a message: gone from this page (and from the history the server sends).
  hide(id) {
    this.messages = this.messages.filter((m) => m.id !== id);
    this.redraw();
  }

  markRead() {
    this.unread = 0;
    this.badge.hidden = true;
  }

  redraw() {
    this.spectatorsButton.hidden = !this.messages.some((m) => m.seat === null) && !this.muted.has("s");
    this.list.replaceChildren(...this.messages.filter((m) => !this.isMuted(m.seat))
      .map((m) => chatLine(m, this.nameOf, this.onReport)));
    this.list.scrollTop = this.list.scrollHeight;
  }

  isMuted(seat) {
    return seat === null || seat === undefined ? this.muted.has("s") : this.muted.has(seat);
  }

  labelSpectators() {
    const muted = this.muted.has("s");
    this.spectatorsButton.setAttribute("aria-pressed", muted ? "true" : "false");
    this.spectatorsButton.textContent = t(muted ? "chat.unmute_spectators" : "chat.mute_spectators");
  }

  toggleMute(seat) {
    if (this.muted.has(seat)) this.muted.delete(seat); else this.muted.add(seat);
    localStorage.setItem(this.key, JSON.stringify([...this.muted]));
    this.redraw();
  }

  // The players' list's button for another seat: mute (or unmute) its chat for this reader.
  muteButton(seat) {
    const muted = this.muted.has(seat);
    return el("button", { class: "small secondary mute", "data-mute": seat, "aria-pressed": muted ? "true" : "false",
      onclick: () => { this.toggleMute(seat); this.onMute?.(); } }, t(muted ? "chat.unmute" : "chat.mute"));
  }
}
