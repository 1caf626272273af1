// Turn-based tables in the browser: this browser's seats (the tokens it keeps, tokens.js) as
// the "your move" list sends them, and a deadline hours or days away in words.
import { t, num } from "./i18n.js";

const PREFIX = "sakura.token.";

export function browserSeats() {
  const seats = [];
  for (let i = 0; i < localStorage.length; i += 1) {
    const key = localStorage.key(i);
    if (key && key.startsWith(PREFIX)) seats.push({ table: key.slice(PREFIX.length), token: localStorage.getItem(key) });
  }
  return seats.slice(0, 200);
}

// "Due in 2 days 3 h", "Due in 14 min", "Due now".
export function untilDeadline(deadline) {
  const left = Math.max(0, Math.round(deadline - Date.now() / 1000));
  if (left < 60) return t("turns.due_now");
  const days = Math.floor(left / 86400);
  const hours = Math.floor((left % 86400) / 3600);
  const minutes = Math.floor((left % 3600) / 60);
  if (days) return t("turns.due_days", { d: num(days), h: num(hours) });
  if (hours) return t("turns.due_hours", { h: num(hours), m: num(minutes) });
  return t("turns.due_minutes", { m: num(minutes) });
}

// The lobby's link: "Your move (2)", shown when any game waits for this browser or account.
export async function yourMoveCount(post) {
  try {
    const response = await post("/api/moves", { seats: browserSeats() });
    return response.ok ? (await response.json()).your_move : 0;
  } catch {
    return 0;
  }
}
