// "Notify me": this browser subscribes to Web Push (the service worker /sw.js shows what the
// server sends when it is your move at a turn-based table, or the game ended, while the page is
// closed). Hidden where the browser has no Push API or the server no Web Push; a link to log
// in when nobody is.
import { t, language } from "./i18n.js";
import { el } from "./common.js";
import { post, whoami } from "./session.js";

export const pushSupported = () => "serviceWorker" in navigator && "PushManager" in window && "Notification" in window;

let registration = null;

// The service worker, registered once a page (scope /); null where there is none.
export async function registerWorker() {
  if (!pushSupported()) return null;
  if (!registration) registration = await navigator.serviceWorker.register("/sw.js", { scope: "/" });
  return registration;
}

function b64ToBytes(text) {
  const padded = (text + "=".repeat((4 - (text.length % 4)) % 4)).replace(/-/g, "+").replace(/_/g, "/");
  return Uint8Array.from(atob(padded), (c) => c.charCodeAt(0));
}

// The server's VAPID public key, or null when it sends no Web Push.
async function serverKey() {
  const answer = await fetch("/api/push/key").catch(() => null);
  return answer && answer.ok ? (await answer.json()).key : null;
}

async function subscribe(reg) {
  const key = await serverKey();
  if (!key) throw new Error("push_off");
  if ((await Notification.requestPermission()) !== "granted") throw new Error("blocked");
  const sub = await reg.pushManager.subscribe({ userVisibleOnly: true, applicationServerKey: b64ToBytes(key) });
  const saved = await post("/api/push/subscriptions", { ...sub.toJSON(), language: language() });
  if (!saved.ok) { await sub.unsubscribe(); throw new Error("refused"); }
}

async function unsubscribe(sub) {
  const { csrf } = await whoami();
  await fetch("/api/push/subscriptions", { method: "DELETE", body: JSON.stringify({ endpoint: sub.endpoint }),
    headers: { "content-type": "application/json", ...(csrf ? { "x-csrf-token": csrf } : {}) } });
  await sub.unsubscribe();
}

// The button (or the login link), or null where the browser cannot be notified or the server
// sends no Web Push.
export async function pushButton() {
  if (!pushSupported() || !(await serverKey())) return null;
  const { username } = await whoami();
  if (!username) {
    return el("a", { id: "push-login", class: "small", href: `/login?next=${encodeURIComponent(location.pathname)}` },
      t("push.login"));
  }
  const button = el("button", { id: "push", class: "small secondary", type: "button" }, t("push.button"));
  const show = (on, key) => {
    button.setAttribute("aria-pressed", on ? "true" : "false");
    button.textContent = t(key ?? (on ? "push.on" : "push.button"));
  };
  let reg = null;
  try { reg = await registerWorker(); } catch { return null; }
  const current = await reg.pushManager.getSubscription().catch(() => null);
  show(Boolean(current) && Notification.permission === "granted");
  button.addEventListener("click", async () => {
    const sub = await reg.pushManager.getSubscription().catch(() => null);
    try {
      if (sub && button.getAttribute("aria-pressed") === "true") { await unsubscribe(sub); show(false); }
      else { await subscribe(reg); show(true); }
    } catch (error) {
      show(false, error.message === "blocked" ? "push.blocked" : "push.failed");
    }
  });
  return button;
}
