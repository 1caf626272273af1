// A seat's secret token lives in a cookie of its table (and in the personal link).
export function saveToken(id, token) {
  if (!token) return;
  document.cookie = `sakura_${id}=${encodeURIComponent(token)}; path=/; max-age=${60 * 60 * 24 * 60}; SameSite=Strict`;
}

export function readCookie(id) {
  const match = document.cookie.split("; ").find((c) => c.startsWith(`sakura_${id}=`));
  return match ? decodeURIComponent(match.split("=")[1]) : null;
}

export function forget(id) {
  document.cookie = `sakura_${id}=; path=/; max-age=0`;
}
