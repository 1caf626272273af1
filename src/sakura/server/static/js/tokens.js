// A seat's secret token lives in this browser's storage for its table (and in the personal
// link), never in a cookie: a cookie went to the server with every request, readable by any
// script all the same, and the server never read it. A token left in a cookie by an older
// version is moved over once.
const key = (id) => `sakura.token.${id}`;

export function saveToken(id, token) {
  if (!token) return;
  localStorage.setItem(key(id), token);
}

export function readToken(id) {
  const stored = localStorage.getItem(key(id));
  if (stored) return stored;
  const match = document.cookie.split("; ").find((c) => c.startsWith(`sakura_${id}=`));
  if (!match) return null;
  const token = decodeURIComponent(match.split("=")[1]);
  saveToken(id, token);
  document.cookie = `sakura_${id}=; path=/; max-age=0`;
  return token;
}

export function forget(id) {
  localStorage.removeItem(key(id));
}
