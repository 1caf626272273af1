// The service worker (served as /sw.js, scope /): shows a Web Push notification the server sent
// ({title, body, url}, already in the reader's language) and, on a click, brings the table's tab
// forward or opens it. The payload says only what the seat may know (server/notify).
self.addEventListener("push", (event) => {
  let data = {};
  try { data = event.data ? event.data.json() : {}; } catch { data = { body: event.data ? event.data.text() : "" }; }
  event.waitUntil(self.registration.showNotification(data.title || "Sakura", {
    body: data.body || "",
    tag: data.tag,
    icon: "/static/favicon.svg",
    data: { url: data.url || "/moves" },
  }));
});

self.addEventListener("notificationclick", (event) => {
  event.notification.close();
  const url = new URL(event.notification.data?.url || "/moves", self.location.origin).href;
  event.waitUntil((async () => {
    const tabs = await self.clients.matchAll({ type: "window", includeUncontrolled: true });
    const open = tabs.find((tab) => tab.url === url);
    if (open) return open.focus();
    return self.clients.openWindow(url);
  })());
});

self.addEventListener("install", () => self.skipWaiting());
self.addEventListener("activate", (event) => event.waitUntil(self.clients.claim()));
