// "Your turn" while the tab is hidden: the document's title and its favicon say so and, if the
// player allowed it (the header's button, then the browser's own question), a browser
// notification. All of it goes away as soon as the tab is seen again.
import { t } from "./i18n.js";
import { el } from "./common.js";

const STORE = "sakuraNotify";
const TURN_ICON = "/static/favicon-turn.svg";

export class TurnNotifier {
  constructor() {
    this.icon = document.querySelector("link[rel=icon]");
    this.plainIcon = this.icon ? this.icon.getAttribute("href") : null;
    this.title = null;
    this.shown = false;
    this.notified = 0; // browser notifications sent (read by the tests)
    document.addEventListener("visibilitychange", () => { if (!document.hidden) this.clear(); });
  }

  wanted() {
    return typeof Notification !== "undefined" && Notification.permission === "granted" && localStorage.getItem(STORE) === "1";
  }

  // Called whenever the page draws a view: is it this player's turn to decide?
  update(yourTurn) {
    if (!yourTurn) { this.clear(); return; }
    if (!document.hidden || this.shown) return;
    this.shown = true;
    this.title = document.title;
    document.title = t("notify.title", { title: this.title });
    if (this.icon) this.icon.setAttribute("href", TURN_ICON);
    if (this.wanted()) {
      try {
        const note = new Notification(t("notify.title", { title: this.title }), { body: t("notify.body"), tag: "sakura-turn", icon: TURN_ICON });
        note.addEventListener("click", () => { window.focus(); note.close(); });
        this.notified += 1;
      } catch { /* a browser that shows notifications only from a service worker: title and icon suffice */ }
    }
  }

  clear() {
    if (!this.shown) return;
    this.shown = false;
    if (this.title !== null) document.title = this.title;
    if (this.icon && this.plainIcon) this.icon.setAttribute("href", this.plainIcon);
  }

  // The header's button: ask the browser once, then remember the player's choice.
  button() {
    const label = () => t(this.wanted() ? "notify.on" : "notify.off");
    const button = el("button", { id: "notify", class: "small secondary", "aria-pressed": this.wanted() ? "true" : "false" }, label());
    button.addEventListener("click", async () => {
      if (typeof Notification === "undefined") { button.textContent = t("notify.unsupported"); return; }
      if (this.wanted()) localStorage.setItem(STORE, "0");
      else {
        const answer = Notification.permission === "granted" ? "granted" : await Notification.requestPermission();
        localStorage.setItem(STORE, answer === "granted" ? "1" : "0");
        if (answer === "denied") { button.textContent = t("notify.denied"); return; }
      }
      button.setAttribute("aria-pressed", this.wanted() ? "true" : "false");
      button.textContent = label();
    });
    return button;
  }
}
