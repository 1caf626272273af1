// The garden as SVG, drawn from a view: one symbol a space (G gate, . path, B bridge,
// T torii, S sakura), the Emperor and the painters. It draws; it never decides a move.
import { t, num, rtl } from "./i18n.js";
import { COLOURS, SHAPES, letter } from "./common.js";

const KIND_KEYS = { G: "space.G", path: "space.path", B: "space.B", T: "space.T", S: "space.S" };

const NS = "http://www.w3.org/2000/svg";
const STEP = 64;
const R = 24;

function svg(tag, attrs = {}, text) {
  const node = document.createElementNS(NS, tag);
  for (const [k, v] of Object.entries(attrs)) node.setAttribute(k, v);
  if (text !== undefined) node.textContent = text;
  return node;
}

// Spaces wind like a snake, `cols` a row (fewer on a narrow screen), from the gate at the top
// left; in a right-to-left language the drawing is mirrored, so the path starts at the top
// right and is read the way the page is. Only positions change: the same space, same piece.
function place(i, cols) {
  const row = Math.floor(i / cols);
  let col = row % 2 === 0 ? i % cols : cols - 1 - (i % cols);
  if (rtl()) col = cols - 1 - col;
  return [col * STEP + STEP / 2 + 8, row * STEP * 1.35 + STEP / 2 + 20];
}

function shape(kind, x, y, r, fill) {
  const poly = (n, inner = null) => {
    const pts = [];
    const count = inner ? n * 2 : n;
    for (let k = 0; k < count; k++) {
      const rr = inner && k % 2 ? inner : r;
      const a = -Math.PI / 2 + (k * 2 * Math.PI) / count;
      pts.push(`${(x + rr * Math.cos(a)).toFixed(1)},${(y + rr * Math.sin(a)).toFixed(1)}`);
    }
    return svg("polygon", { points: pts.join(" "), fill });
  };
  switch (kind) {
    case "circle": return svg("circle", { cx: x, cy: y, r, fill });
    case "square": return svg("rect", { x: x - r * 0.85, y: y - r * 0.85, width: r * 1.7, height: r * 1.7, fill });
    case "triangle": return poly(3);
    case "diamond": return poly(4);
    case "pentagon": return poly(5);
    case "hexagon": return poly(6);
    default: return poly(5, r * 0.5);
  }
}

export function drawGarden(container, board, opts = {}) {
  const { garden, sakuras, scored } = board;
  const cols = container.clientWidth && container.clientWidth < 520 ? 6 : 9;
  const rows = Math.ceil(garden.length / cols);
  const width = cols * STEP + 16;
  const height = rows * STEP * 1.35 + 30;
  const root = svg("svg", { viewBox: `0 0 ${width} ${height}`, role: "group", class: "garden" });
  const pts = [...garden].map((_, i) => place(i, cols).join(",")).join(" ");
  root.append(svg("polyline", { points: pts, class: "path-line" }));
  [...garden].forEach((symbol, i) => {
    const [x, y] = place(i, cols);
    const sakuraIndex = sakuras.indexOf(i);
    const isScored = sakuraIndex >= 0 && sakuraIndex < scored;
    const kind = symbol === "." ? "path" : symbol;
    const g = svg("g", { class: `space space-${kind}${isScored ? " scored" : ""}`, "data-space": i });
    g.append(svg("title", {}, t("space.label", { n: i, kind: t(isScored ? "space.S_scored" : KIND_KEYS[kind]) })));
    if (symbol === "G") {
      g.append(svg("rect", { x: x - R - 6, y: y - R, width: 2 * R + 12, height: 2 * R, rx: 6 }));
    } else {
      g.append(svg("circle", { cx: x, cy: y, r: R }));
    }
    if (symbol === "T") {
      g.append(svg("path", { d: `M${x - 14} ${y - 10} h28 M${x - 11} ${y - 4} h22 M${x - 8} ${y - 10} v22 M${x + 8} ${y - 10} v22`,
        class: "torii-mark" }));
    } else if (symbol === "S") {
      for (let k = 0; k < 5; k++) {
        const a = -Math.PI / 2 + (k * 2 * Math.PI) / 5;
        g.append(svg("circle", { cx: x + 9 * Math.cos(a), cy: y + 9 * Math.sin(a), r: 6, class: "petal" }));
      }
      if (isScored) g.append(svg("path", { d: `M${x - 8} ${y} l6 6 l10 -12`, class: "check" }));
    } else if (symbol === "B") {
      g.append(svg("path", { d: `M${x - 16} ${y + 6} Q${x} ${y - 14} ${x + 16} ${y + 6}`, class: "bridge-mark" }));
    }
    g.append(svg("text", { x, y: y + R + 13, class: "space-number" }, num(i)));
    root.append(g);
  });
  // A pending choice: which piece moves, and the two directions, on the board.
  if (opts.choice) {
    const at = opts.choice.part === "garden" ? board.emperor : board.painters[opts.choice.seat];
    for (const [dir, delta] of [["forward", 1], ["back", -1]]) {
      const target = Math.min(garden.length - 1, Math.max(0, at + delta));
      if (target === at) continue;
      const [x, y] = place(target, cols);
      const label = t(dir === "forward" ? "table.forward" : "table.back_dir");
      const arrow = svg("g", { class: `choice-arrow choice-${dir}`, tabindex: "0", role: "button",
        "data-choice": dir, "aria-label": label });
      arrow.append(svg("title", {}, label));
      arrow.append(svg("circle", { cx: x, cy: y, r: R + 4 }));
      arrow.append(svg("text", { x, y: y + 7 }, delta > 0 ? "»" : "«"));
      arrow.addEventListener("click", () => opts.onChoice(dir));
      arrow.addEventListener("keydown", (e) => { if (e.key === "Enter" || e.key === " ") opts.onChoice(dir); });
      root.append(arrow);
    }
  }
  // Painters; several on one space (the gate) stand together.
  const bySpace = new Map();
  board.painters.forEach((space, seat) => {
    if (!bySpace.has(space)) bySpace.set(space, []);
    bySpace.get(space).push(seat);
  });
  for (const [space, seats] of bySpace) {
    const [x, y] = place(space, cols);
    seats.forEach((seat, k) => {
      const n = seats.length;
      const dx = n === 1 ? 0 : (k - (n - 1) / 2) * Math.min(14, 64 / n);
      const dy = n === 1 ? -2 : (k % 2 ? 8 : -8);
      const p = svg("g", { class: `painter seat-${seat}`, "data-painter": seat });
      p.append(svg("title", {}, t("piece.painter", { name: opts.names ? opts.names[seat] : seat })));
      const s = shape(SHAPES[seat], x + dx, y + dy, n === 1 ? 14 : 10, COLOURS[seat]);
      s.setAttribute("class", "painter-shape");
      p.append(s);
      p.append(svg("text", { x: x + dx, y: y + dy + 4, class: "painter-letter" }, letter(seat)));
      root.append(p);
    });
  }
  const [ex, ey] = place(board.emperor, cols);
  const emperor = svg("g", { class: "emperor", "data-emperor": board.emperor });
  emperor.append(svg("title", {}, t("space.label", { n: board.emperor, kind: t("piece.emperor") })));
  emperor.append(svg("path", { d: `M${ex - 14} ${ey - 18} l4 -14 l6 8 l4 -12 l4 12 l6 -8 l4 14 z` }));
  root.append(emperor);
  container.replaceChildren(root);
}
