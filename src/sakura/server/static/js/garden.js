// The garden as SVG: a winding path of stepping stones from the gate, the torii, cherry trees
// by the sakura spaces, arched bridges over a stream; the Emperor and the painters on top.
// It draws positions and slides pieces between positions it is given (Web Animations API);
// it never decides a move. The layout (how many stones a row) is chosen to fill the space the
// page leaves for the board, not the window's width.
import { t, num, rtl } from "./i18n.js";
import { COLOURS, SHAPES, letter } from "./common.js";

const KIND_KEYS = { G: "space.G", path: "space.path", B: "space.B", T: "space.T", S: "space.S" };

const NS = "http://www.w3.org/2000/svg";
const STEP = 64;
const ROW = STEP * 1.35;
const R = 24;

export function svg(tag, attrs = {}, text) {
  const node = document.createElementNS(NS, tag);
  for (const [k, v] of Object.entries(attrs)) node.setAttribute(k, v);
  if (text !== undefined) node.textContent = text;
  return node;
}

// Spaces wind like a snake, `cols` a row, from the gate at the top left; in a right-to-left
// language the drawing is mirrored, so the path reads the way the page does.
function place(i, cols) {
  const row = Math.floor(i / cols);
  let col = row % 2 === 0 ? i % cols : cols - 1 - (i % cols);
  if (rtl()) col = cols - 1 - col;
  return [col * STEP + STEP / 2 + 8, row * ROW + STEP / 2 + 22];
}

// The columns that give the largest drawing inside width × height.
function bestColumns(count, width, height) {
  let best = 9;
  let bestScale = 0;
  for (let cols = 5; cols <= 14; cols++) {
    const rows = Math.ceil(count / cols);
    const scale = Math.min(width / (cols * STEP + 16), height ? height / (rows * ROW + 34) : Infinity);
    if (scale > bestScale * 1.02) { best = cols; bestScale = scale; }
  }
  return best;
}

export function shape(kind, x, y, r, fill) {
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

function blossomTree(x, y, painted) {
  const g = svg("g", { class: `tree${painted ? " painted" : ""}`, "aria-hidden": "true" });
  g.append(svg("path", { d: `M${x} ${y + 16} q-2 -12 0 -22 M${x} ${y + 2} l-8 -7 M${x} ${y - 2} l7 -8`, class: "trunk" }));
  for (const [dx, dy, r] of [[-9, -10, 8], [8, -12, 8], [0, -19, 9], [-2, -6, 7], [11, -3, 6], [-12, -1, 6]]) {
    g.append(svg("circle", { cx: x + dx, cy: y + dy, r, class: "blossom" }));
  }
  return g;
}

function torii(x, y) {
  return svg("path", { d: `M${x - 17} ${y - 13} q17 -6 34 0 M${x - 13} ${y - 6} h26 M${x - 9} ${y - 14} v26 M${x + 9} ${y - 14} v26`,
    class: "torii-mark" });
}

// Where each painter stands: alone in the middle of its stone; several on one space (the
// gate, at the start and after bumps) in a small grid, up to three a row, a piece's width
// apart so none hides another, the reader's own first (top row: its "you" label above it
// covers nobody) and the whole pile inside the lawn.
const PILE_STEP = 21;

function offsets(painters, me = null) {
  const bySpace = new Map();
  painters.forEach((space, seat) => {
    if (!bySpace.has(space)) bySpace.set(space, []);
    bySpace.get(space).push(seat);
  });
  const out = [];
  for (const seats of bySpace.values()) {
    const n = seats.length;
    if (n === 1) { out[seats[0]] = [0, -2, 1]; continue; }
    seats.sort((a, b) => Number(b === me) - Number(a === me) || a - b);
    const cols = n <= 3 ? n : Math.ceil(n / 2);
    const rows = Math.ceil(n / cols);
    seats.forEach((seat, k) => {
      const col = k % cols;
      const row = Math.floor(k / cols);
      out[seat] = [(col - (cols - 1) / 2) * PILE_STEP, (row - (rows - 1) / 2) * PILE_STEP + (rows === 1 ? 2 : 4), 0.72];
    });
  }
  return out;
}

// The arrow of a direction in words and buttons: the way the page reads (→ forward in
// English, ← in Persian), in arrows that bidi never mirrors.
export const arrow = (choice) => ((choice === "forward") !== rtl() ? "→" : "←");

export class Garden {
  constructor(container, { onChoice = () => {} } = {}) {
    this.container = container;
    this.onChoice = onChoice;
    this.cols = 0;
    this.garden = "";
    this.root = null;
    this.pieces = new Map(); // "emperor" | seat -> <g>
  }

  // Redraw everything for `board` ({garden, sakuras, scored, emperor, painters}); `opts`:
  // names, me, tiles (seat -> {card, state}), previews (the view's preview), pick (clickable),
  // better ({seat, card, played}: the replay's better card at a flagged decision).
  draw(board, opts = {}) {
    // The layout is chosen once per window size: a prompt growing a line never reflows the path.
    const key = `${window.innerWidth}x${window.innerHeight}:${board.garden.length}`;
    if (this.sizeKey !== key || !this.cols) {
      const box = this.container.getBoundingClientRect();
      this.cols = bestColumns(board.garden.length, box.width || 600, box.height);
      this.sizeKey = key;
    }
    const cols = this.cols;
    this.board = board;
    const rows = Math.ceil(board.garden.length / cols);
    const width = cols * STEP + 16;
    const height = rows * ROW + 34;
    const root = svg("svg", { viewBox: `0 0 ${width} ${height}`, role: "group", class: "garden",
      preserveAspectRatio: "xMidYMid meet", "aria-label": t("garden.label") });
    root.append(svg("rect", { x: 0, y: 0, width, height, rx: 14, class: "lawn" }));
    this.drawStream(root, board, cols);
    const pts = [...board.garden].map((_, i) => place(i, cols).join(",")).join(" ");
    root.append(svg("polyline", { points: pts, class: "path-line" }));
    [...board.garden].forEach((symbol, i) => root.append(this.space(symbol, i, board)));
    this.pieceLayer = svg("g", { class: "pieces" });
    root.append(this.pieceLayer);
    this.pieces = new Map();
    const at = offsets(board.painters, opts.me);
    board.painters.forEach((space, seat) => {
      const p = this.painter(seat, opts, at[seat][2]);
      this.put(p, space, at[seat]);
      this.pieceLayer.append(p);
      this.pieces.set(seat, p);
    });
    const emperor = svg("g", { class: "emperor", "data-emperor": board.emperor });
    emperor.append(svg("title", {}, t("space.label", { n: board.emperor, kind: t("piece.emperor") })));
    emperor.append(svg("ellipse", { cx: 0, cy: 6, rx: 16, ry: 5, class: "emperor-shadow" }));
    emperor.append(svg("path", { d: "M-15 4 l4 -16 l6 8 l5 -14 l5 14 l6 -8 l4 16 z", class: "crown" }));
    this.put(emperor, board.emperor, [0, -10, 1]);
    this.pieceLayer.append(emperor);
    this.pieces.set("emperor", emperor);
    this.overlay = svg("g", { class: "overlay" });
    root.append(this.overlay);
    if (opts.previews && opts.previews.length) this.drawPreviews(opts.previews, opts);
    this.container.replaceChildren(root);
    this.root = root;
  }

  drawStream(root, board, cols) {
    // Each bridge crosses a stream running across the path there.
    const cells = [...board.garden].map((s, i) => (s === "B" ? i : -1)).filter((i) => i >= 0);
    const groups = [];
    for (const i of cells) {
      const last = groups[groups.length - 1];
      if (last && last[last.length - 1] === i - 1) last.push(i);
      else groups.push([i]);
    }
    // A bridge that turns a corner of the path lies on two rows: each row's part gets its own
    // water and arch, over exactly its spaces (one span from the group's min x to max x at the
    // first space's row drew water over plain stones and left bridge spaces dry).
    const runs = [];
    for (const group of groups) {
      for (const i of group) {
        const last = runs[runs.length - 1];
        if (last && last[last.length - 1] === i - 1 && place(i, cols)[1] === place(last[0], cols)[1]) last.push(i);
        else runs.push([i]);
      }
    }
    for (const run of runs) {
      const xy = run.map((i) => place(i, cols));
      const xs = xy.map(([x]) => x);
      const y = xy[0][1];
      const x0 = Math.min(...xs) - STEP / 2;
      const x1 = Math.max(...xs) + STEP / 2;
      root.append(svg("path", { d: `M${x0 + 6} ${y - ROW / 2 - 4} q-10 ${ROW / 2} 0 ${ROW + 8} H${x1 - 6} q10 ${-ROW / 2} 0 ${-ROW - 8} z`,
        class: "stream" }));
      root.append(svg("path", { d: `M${x0 - 2} ${y + 10} Q${(x0 + x1) / 2} ${y - 26} ${x1 + 2} ${y + 10}`, class: "bridge-arch" }));
    }
  }

  space(symbol, i, board) {
    const cols = this.cols;
    const [x, y] = place(i, cols);
    const sakuraIndex = board.sakuras.indexOf(i);
    const isScored = sakuraIndex >= 0 && sakuraIndex < board.scored;
    const kind = symbol === "." ? "path" : symbol;
    const g = svg("g", { class: `space space-${kind}${isScored ? " scored" : ""}`, "data-space": i });
    g.append(svg("title", {}, t("space.label", { n: i, kind: t(isScored ? "space.S_scored" : KIND_KEYS[kind]) })));
    if (symbol === "G") {
      g.append(svg("rect", { x: x - R - 6, y: y - R, width: 2 * R + 12, height: 2 * R, rx: 6, class: "gate" }));
      g.append(svg("path", { d: `M${x - R - 6} ${y - R + 2} h${2 * R + 12} M${x - R} ${y - R} v${2 * R} M${x + R} ${y - R} v${2 * R}`, class: "gate-bars" }));
    } else {
      const rx = R - 1 + ((i * 7) % 5) * 0.6;
      const ry = R - 4 + ((i * 3) % 4) * 0.7;
      g.append(svg("ellipse", { cx: x, cy: y, rx, ry, class: "stone" }));
    }
    if (symbol === "T") g.append(torii(x, y));
    else if (symbol === "S") {
      const up = Math.floor(i / cols) === 0 ? 1 : -1;
      g.append(blossomTree(x + 2, y + up * 0, isScored));
      if (isScored) g.append(svg("path", { d: `M${x - 9} ${y + 8} l6 6 l12 -14`, class: "check" }));
    }
    g.append(svg("text", { x, y: y + R + 13, class: "space-number" }, num(i)));
    return g;
  }

  painter(seat, opts, scale = 1) {
    const p = svg("g", { class: `painter seat-${seat}${seat === opts.me ? " mine" : ""}`, "data-painter": seat });
    p.append(svg("title", {}, t("piece.painter", { name: opts.names ? opts.names[seat] : seat })));
    const body = svg("g", { class: "painter-body", transform: `scale(${scale})` });
    if (seat === opts.me) body.append(svg("circle", { cx: 0, cy: 0, r: 20, class: "you-ring" }));
    const s = shape(SHAPES[seat], 0, 0, 14, COLOURS[seat]);
    s.setAttribute("class", "painter-shape");
    body.append(s);
    body.append(svg("text", { x: 0, y: 4, class: "painter-letter" }, letter(seat)));
    if (seat === opts.me) body.append(svg("text", { x: 0, y: -23, class: "you-label" }, t("table.you_short")));
    const tile = opts.tiles && opts.tiles[seat];
    if (tile) {
      const flag = svg("g", { class: `tile-flag tile-${tile.state}`, transform: "translate(11 1)" });
      flag.append(svg("rect", { x: 0, y: 0, width: 22, height: 16, rx: 3 }));
      flag.append(svg("text", { x: 11, y: 12 }, num(tile.card)));
      body.append(flag);
    }
    // The replay's better card at an analysed decision: a ghost tile on the painter's other side.
    if (opts.better && opts.better.seat === seat) {
      const ghost = svg("g", { class: "better-tile", transform: "translate(-37 1)", "data-card": opts.better.card });
      ghost.append(svg("title", {}, t("replay.better_tile", { n: num(Number(opts.better.card)), m: num(Number(opts.better.played)) })));
      ghost.append(svg("rect", { x: 0, y: 0, width: 22, height: 16, rx: 3 }));
      ghost.append(svg("text", { x: 11, y: 12 }, num(opts.better.card)));
      ghost.append(svg("text", { x: 11, y: 27, class: "better-label" }, t("replay.held.better")));
      body.append(ghost);
    }
    p.append(body);
    return p;
  }

  xy(space, offset = [0, 0]) {
    const [x, y] = place(space, this.cols);
    return [x + offset[0], y + offset[1]];
  }

  put(node, space, offset) {
    const [x, y] = this.xy(space, offset);
    node.style.transform = `translate(${x}px, ${y}px)`;
    node.dataset.at = space;
  }

  // Slide a piece through `path` (spaces, first to last), `ms` a step; resolves at the end.
  async slide(key, path, ms, offset) {
    const node = this.pieces.get(key);
    if (!node || path.length < 2 || ms <= 0) return;
    const off = offset ?? (key === "emperor" ? [0, -10] : [0, -2]);
    const frames = path.map((space) => {
      const [x, y] = this.xy(space, off);
      return { transform: `translate(${x}px, ${y}px)` };
    });
    this.pieceLayer.append(node); // the moving piece on top
    const animation = node.animate(frames, { duration: ms * (path.length - 1), easing: "ease-in-out", fill: "forwards" });
    await animation.finished.catch(() => {});
    node.style.transform = frames[frames.length - 1].transform;
    animation.cancel();
    node.dataset.at = path[path.length - 1];
  }

  // A word floating up from a space (+3, −1, bump!), gone after `ms`.
  float(space, text, cls, ms) {
    if (!this.overlay || ms <= 0) return;
    const [x, y] = this.xy(space, [0, -30]);
    const node = svg("text", { x, y, class: `float ${cls}` }, text);
    this.overlay.append(node);
    node.animate([{ transform: "translateY(0)", opacity: 1 }, { transform: "translateY(-26px)", opacity: 0 }],
      { duration: ms * 2.5, easing: "ease-out" }).finished.then(() => node.remove(), () => node.remove());
  }

  // A chevron on `space` pointing the way the path runs there (forward: dir 1, back: -1).
  chevron(space, dir) {
    const [x, y] = this.xy(space);
    const last = this.board.garden.length - 1;
    const from = Math.min(last, Math.max(0, space - dir));
    const to = Math.min(last, Math.max(0, space + dir));
    const [ax, ay] = from !== space ? this.xy(from) : this.xy(to).map((v, k) => 2 * [x, y][k] - v);
    const angle = (Math.atan2(y - ay, x - ax) * 180) / Math.PI;
    return svg("path", { d: "M-7 -9 L5 0 L-7 9", class: "ghost-arrow", transform: `translate(${x} ${y}) rotate(${angle.toFixed(0)})` });
  }

  // The answers of a pending choice, on their landing spaces, above every piece.
  drawPreviews(previews, opts) {
    // Both answers may land on one space (a bump back to the gate either way): then they stand
    // side by side, forward on the right, so that each can still be seen and picked.
    const shared = previews.length > 1 && previews.every((p) => p.end === previews[0].end);
    for (const p of previews) {
      const label = t(p.choice === "forward" ? "table.forward_to" : "table.back_to", { n: p.end });
      const marker = svg("g", { class: `choice-arrow choice-${p.choice}${opts.pick ? " pickable" : ""}`,
        "data-choice": p.choice, "data-end": p.end });
      marker.append(svg("title", {}, label));
      const [x, y] = this.xy(p.end);
      if (p.piece === "emperor") {
        marker.append(svg("circle", { cx: x, cy: y, r: R + 4, class: "ghost-ring" }));
        marker.append(svg("path", { d: `M${x - 15} ${y - 6} l4 -16 l6 8 l5 -14 l5 14 l6 -8 l4 16 z`, class: "ghost-crown" }));
      } else {
        marker.append(svg("circle", { cx: x, cy: y, r: R + 4, class: "ghost-ring" }));
        const ghost = shape(SHAPES[p.seat], x, y, 13, COLOURS[p.seat]);
        ghost.setAttribute("class", "ghost-painter");
        marker.append(ghost);
      }
      marker.append(this.chevron(p.end, p.choice === "forward" ? 1 : -1));
      for (const b of p.bumps) {
        const [bx, by] = this.xy(b.at);
        marker.append(svg("text", { x: bx, y: by - 28, class: "bump-warning" }, t("table.bump")));
      }
      if (opts.pick) {
        marker.setAttribute("tabindex", "0");
        marker.setAttribute("role", "button");
        marker.setAttribute("aria-label", label);
        marker.addEventListener("click", () => this.onChoice(p.choice));
        marker.addEventListener("keydown", (e) => { if (e.key === "Enter" || e.key === " ") this.onChoice(p.choice); });
      }
      if (shared) marker.setAttribute("transform", `translate(${p.choice === "forward" ? R + 6 : -(R + 6)} 0)`);
      this.overlay.append(marker);
    }
  }
}

// A still drawing of a view (the replay page).
export function drawGarden(container, board, opts = {}) {
  new Garden(container).draw(board, opts);
}
