// At a rated table, each player's rating next to their name: the server's shown scale
// (ratings.py ``shown``: "1180?" while provisional, mu ± sigma in the tooltip), asked once
// for each seating (a seat taken by another account asks again).
import { num } from "./i18n.js";
import { el } from "./common.js";
import { rating } from "./people.js";

let asked = null;
let seats = [];

export async function refreshRatings(tableId, table, redraw) {
  if (!table || !table.rated) return;
  const key = table.seats.map((s) => s.account ?? "").join("|");
  if (key === asked) return;
  asked = key;
  const reply = await fetch(`/api/tables/${tableId}/ratings`);
  if (!reply.ok) return;
  seats = (await reply.json()).seats;
  redraw();
}

// The number alone beside the name ("1180?"); the words and the model's numbers in its tooltip.
export function seatRating(seat) {
  const r = seats[seat];
  if (!r) return "";
  const words = rating(r);
  return el("span", { class: "seat-rating", title: `${words.textContent} · ${words.title}`, "data-rating": String(r.display) },
    `${num(r.display)}${r.provisional ? "?" : ""}`);
}
