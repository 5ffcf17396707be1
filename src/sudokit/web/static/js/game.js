// The game model: geometry, the player's grid, pencil marks, undo/redo, timer. No DOM here.

export const SYMBOLS = "123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ";
/** The cell colours, 1 to 9 (the digit keys in colour mode; app.css draws them). */
export const COLOURS = ["Grey", "Dark grey", "Black", "Pink", "Orange", "Red", "Yellow", "Green", "Blue"];

/** The variant rules' fields, named as the API's grid objects (and the json format) name them. */
export const RULE_KEYS = ["windoku", "cages", "antiknight", "antiking", "nonconsecutive", "kropki",
  "xv", "parity", "thermos", "rules"];

/** The rule fields of a grid object or a saved game: only those that are set. */
export function rulesOf(obj) {
  const out = {};
  for (const k of RULE_KEYS) {
    const v = obj ? obj[k] : null;
    if (v != null && v !== false && !(Array.isArray(v) && !v.length)) out[k] = v;
  }
  return out;
}

const KNIGHT = [[-2, -1], [-2, 1], [-1, -2], [-1, 2], [1, -2], [1, 2], [2, -1], [2, 1]];
const KING = [[-1, -1], [-1, 0], [-1, 1], [0, -1], [0, 1], [1, -1], [1, 0], [1, 1]];

/** The pair rules (dots, letters, neighbours, thermometer steps) as [a, b, ok(x, y), kind]. */
function pairRules(n, rules) {
  const out = [];
  const key = (a, b) => `${Math.min(a, b)},${Math.max(a, b)}`;
  const marked = new Map();
  const kropki = rules.kropki || {}, xv = rules.xv || {};
  const kinds = [["white", kropki.white, (x, y) => Math.abs(x - y) === 1],
    ["black", kropki.black, (x, y) => x === 2 * y || y === 2 * x],
    ["x", xv.x, (x, y) => x + y === 10], ["v", xv.v, (x, y) => x + y === 5]];
  for (const [kind, pairs, ok] of kinds) {
    for (const [a, b] of pairs || []) {
      out.push([a, b, ok, kind]);
      marked.set(key(a, b), (marked.get(key(a, b)) || "") + kind);
    }
  }
  for (let i = 0; i < n * n; i++) {
    for (const j of [i % n < n - 1 ? i + 1 : -1, i + n < n * n ? i + n : -1]) {
      if (j < 0) continue;
      const on = marked.get(key(i, j)) || "";
      if (rules.nonconsecutive) out.push([i, j, (x, y) => Math.abs(x - y) !== 1, "nonconsecutive"]);
      if (kropki.negative && !/white|black/.test(on)) {
        out.push([i, j, (x, y) => Math.abs(x - y) !== 1 && x !== 2 * y && y !== 2 * x, "no dot"]);
      }
      if (xv.negative && !/x|v/.test(on)) out.push([i, j, (x, y) => x + y !== 10 && x + y !== 5, "no letter"]);
    }
  }
  for (const path of rules.thermos || []) {
    for (let k = 1; k < path.length; k++) out.push([path[k - 1], path[k], (x, y) => x < y, "thermo"]);
  }
  return out;
}

/**
 * Geometry of an n x n grid with boxRows x boxCols boxes, or jigsaw regions (the region index
 * 0..n-1 of every cell, as the API's grid objects carry them), optional diagonals, and the
 * variant rules (`rules`: the grid object's rule fields, see RULE_KEYS): windoku windows are
 * units; anti-knight/king moves and cage mates are peers; cages, pair rules and parity are
 * checked by `conflicts`.
 */
export class Geometry {
  constructor(n, boxRows, boxCols, diagonals = false, regions = null, rules = {}) {
    this.n = n;
    this.boxRows = boxRows;
    this.boxCols = boxCols;
    this.diagonals = diagonals;
    this.regions = regions ? regions.slice() : null;
    this.rules = rulesOf(rules);
    this.ncells = n * n;
    // The rule kinds of sudokit.rules (arrows, renban, little killers, ...): the server draws,
    // states and checks them; this geometry only carries them (see Game.isComplete).
    this.kinds = this.rules.rules || [];
    const units = [];
    for (let r = 0; r < n; r++) units.push([...Array(n).keys()].map((c) => r * n + c));
    for (let c = 0; c < n; c++) units.push([...Array(n).keys()].map((r) => r * n + c));
    for (let b = 0; b < n; b++) units.push([]);
    for (let i = 0; i < this.ncells; i++) units[2 * n + this.boxOf(i)].push(i);
    if (diagonals) {
      units.push([...Array(n).keys()].map((i) => i * n + i));
      units.push([...Array(n).keys()].map((i) => i * n + (n - 1 - i)));
    }
    // Windoku windows: k x k blocks at row/column offsets 1, k + 2, 2k + 3, ... (k x k boxes).
    this.windows = [];
    if (this.rules.windoku) {
      const k = boxRows;
      const starts = [...Array(k - 1).keys()].map((i) => 1 + i * (k + 1));
      for (const r0 of starts) {
        for (const c0 of starts) {
          const w = [];
          for (let r = 0; r < k; r++) for (let c = 0; c < k; c++) w.push((r0 + r) * n + c0 + c);
          this.windows.push(w);
        }
      }
      units.push(...this.windows);
    }
    this.units = units;
    this.cages = (this.rules.cages || []).map((c) => ({ cells: c.cells.slice().sort((a, b) => a - b), sum: c.sum }));
    this.cageOf = new Array(this.ncells).fill(-1);
    this.cages.forEach((c, k) => c.cells.forEach((i) => (this.cageOf[i] = k)));
    this.peers = [];
    for (let i = 0; i < this.ncells; i++) this.peers.push(new Set());
    const link = (a, b) => {
      if (a === b) return;
      this.peers[a].add(b);
      this.peers[b].add(a);
    };
    for (const u of units) for (const a of u) for (const b of u) link(a, b);
    for (const c of this.cages) for (const a of c.cells) for (const b of c.cells) link(a, b);
    for (const [on, moves] of [[this.rules.antiknight, KNIGHT], [this.rules.antiking, KING]]) {
      if (!on) continue;
      for (let i = 0; i < this.ncells; i++) {
        const r = Math.floor(i / n), c = i % n;
        for (const [dr, dc] of moves) {
          if (r + dr >= 0 && r + dr < n && c + dc >= 0 && c + dc < n) link(i, (r + dr) * n + c + dc);
        }
      }
    }
    this.peers = this.peers.map((s) => [...s]);
    this.pairs = pairRules(n, this.rules);
    const even = [...Array(n).keys()].reduce((m, k) => ((k + 1) % 2 === 0 ? m | (1 << k) : m), 0);
    const full = (1 << n) - 1;
    this.allowed = this.rules.parity
      ? [...this.rules.parity].map((ch) => (ch === "e" ? even : ch === "o" ? full & ~even : full))
      : null;
  }

  static fromBox(n, box, diagonals = false, regions = null, rules = {}) {
    const [r, c] = box.split("x").map(Number);
    return new Geometry(n, r, c, diagonals, regions, rules);
  }

  /** Whether any variant rule beyond boxes, regions and diagonals is set. */
  get hasRules() {
    return Object.keys(this.rules).length > 0;
  }

  /** The shape fields of an API request: the box, or the jigsaw regions (one symbol a cell),
   * and the variant rules. */
  get apiShape() {
    if (!this.regions) return { box: this.box, diagonals: this.diagonals, ...this.rules };
    return { regions: this.regions.map((x) => SYMBOLS[x]).join(""), diagonals: this.diagonals, ...this.rules };
  }

  get box() {
    return `${this.boxRows}x${this.boxCols}`;
  }

  boxOf(cell) {
    if (this.regions) return this.regions[cell];
    const r = Math.floor(cell / this.n), c = cell % this.n;
    return Math.floor(r / this.boxRows) * (this.n / this.boxCols) + Math.floor(c / this.boxCols);
  }
}

export const bit = (d) => 1 << (d - 1);
export const digitsOf = (mask) => {
  const out = [];
  for (let d = 1; mask; d++, mask >>>= 1) if (mask & 1) out.push(d);
  return out;
};

/** Cell indices that break a rule: a digit repeated among peers (units, anti-knight/king,
 * cages), a cage whose digits add up to more than its sum (or, once full, to another), a pair
 * rule broken (dots, X/V, non-consecutive, thermometers), a digit of the wrong parity. */
export function conflicts(geo, values) {
  const bad = new Set();
  for (let i = 0; i < geo.ncells; i++) {
    const v = values[i];
    if (v && geo.peers[i].some((p) => values[p] === v)) bad.add(i);
  }
  for (const cage of geo.cages) {
    if (cage.sum == null) continue;
    const filled = cage.cells.filter((i) => values[i]);
    const total = filled.reduce((t, i) => t + values[i], 0);
    if (filled.length === cage.cells.length ? total !== cage.sum : total >= cage.sum) {
      filled.forEach((i) => bad.add(i));
    }
  }
  for (const [a, b, ok] of geo.pairs) {
    if (values[a] && values[b] && !ok(values[a], values[b])) {
      bad.add(a);
      bad.add(b);
    }
  }
  if (geo.allowed) values.forEach((v, i) => v && !(geo.allowed[i] & bit(v)) && bad.add(i));
  return bad;
}

/** The digits no peer of *cell* holds (and its parity allows), as a mask. */
export function candidatesOf(geo, values, cell) {
  let seen = 0;
  for (const p of geo.peers[cell]) if (values[p]) seen |= bit(values[p]);
  const open = ((1 << geo.n) - 1) & ~seen;
  return geo.allowed ? open & geo.allowed[cell] : open;
}

export function lineOf(geo, values) {
  return values.map((v) => (v ? SYMBOLS[v - 1] : ".")).join("");
}

// PEN LINES. The pen draws on a lattice of points 2n + 1 a side: point (R, C), numbered
// R * (2n + 1) + C, is a cell's centre when R and C are odd (cell r, c at 2r + 1, 2c + 1) and a
// cell's corner when both are even (the top-left corner of cell r, c at 2r, 2c). A segment
// joins two centres a king's move apart (a line through the cells, diagonals too) or two
// corners one edge apart (a line along the cells' edges), kept as [a, b] with a < b.

/** The points of the lattice a side, for an n x n grid. */
export const penSide = (n) => 2 * n + 1;

/** Whether [a, b] is a segment the pen can draw on an n x n grid (see PEN LINES). */
export function penSegmentOk(n, a, b) {
  const side = penSide(n), top = side * side;
  if (!Number.isInteger(a) || !Number.isInteger(b) || a < 0 || b < 0 || a >= top || b >= top || a >= b) return false;
  const [ra, ca, rb, cb] = [Math.floor(a / side), a % side, Math.floor(b / side), b % side];
  const dr = Math.abs(ra - rb), dc = Math.abs(ca - cb);
  if (ra % 2 === 1 && ca % 2 === 1 && rb % 2 === 1 && cb % 2 === 1) return dr <= 2 && dc <= 2;
  if (ra % 2 === 0 && ca % 2 === 0 && rb % 2 === 0 && cb % 2 === 0) return dr + dc === 2 && (dr === 0 || dc === 0);
  return false;
}

/** Whether a pen stroke starting at board position (x, y), in cells from the top-left
 * corner, draws along the edges ("edge": near a grid line, or outside the grid) or through
 * the cells' centres ("centre"). */
export function penKindAt(n, x, y) {
  if (x < 0 || y < 0 || x > n || y > n) return "edge";
  const fx = x - Math.floor(x), fy = y - Math.floor(y);
  return Math.min(fx, 1 - fx, fy, 1 - fy) < 0.2 ? "edge" : "centre";
}

/** The lattice point a pen stroke of *kind* reaches at board position (x, y), or -1 when the
 * pointer is not near enough to one: within 0.38 of a cell's centre (so that a diagonal
 * stroke that passes a corner does not enter the cells beside it), within 0.3 of a corner.
 * *loose* (where a stroke starts): the cell under the pointer, or the nearest corner. */
export function penPointAt(n, kind, x, y, loose = false) {
  const side = penSide(n);
  const clamp = (v, hi) => Math.max(0, Math.min(hi, v));
  if (kind === "centre") {
    const r = Math.floor(y), c = Math.floor(x);
    if (r < 0 || c < 0 || r >= n || c >= n) return -1;
    if (!loose && Math.hypot(x - c - 0.5, y - r - 0.5) > 0.38) return -1;
    return (2 * r + 1) * side + 2 * c + 1;
  }
  const r = clamp(Math.round(y), n), c = clamp(Math.round(x), n);
  if (!loose && Math.hypot(x - c, y - r) > 0.3) return -1;
  return 2 * r * side + 2 * c;
}

/** The points a stroke passes from *from* to *to* (both of the same kind), *to* last: king
 * steps between centres, edge steps between corners (a fast drag skips points). */
export function penSteps(n, from, to) {
  const side = penSide(n), out = [];
  let r = Math.floor(from / side), c = from % side;
  const tr = Math.floor(to / side), tc = to % side;
  const corner = r % 2 === 0;
  while (r !== tr || c !== tc) {
    const dr = Math.sign(tr - r) * 2, dc = Math.sign(tc - c) * 2;
    if (!corner) {
      r += dr;
      c += dc;
    } else if (Math.abs(tr - r) >= Math.abs(tc - c)) r += dr;
    else c += dc;
    out.push(r * side + c);
  }
  return out;
}

/** The pen segments of a save, those the grid can hold, each once; none when absent. */
function penOr(x, n) {
  if (!Array.isArray(x)) return [];
  const seen = new Set();
  const out = [];
  for (const s of x) {
    if (!Array.isArray(s) || s.length !== 2 || !penSegmentOk(n, s[0], s[1]) || seen.has(`${s[0]},${s[1]}`)) continue;
    seen.add(`${s[0]},${s[1]}`);
    out.push([s[0], s[1]]);
  }
  return out;
}

/** A copy of *x* when it is an array of *len* integers in 0..max, else null. */
function cellsOr(x, len, max) {
  const ok = Array.isArray(x) && x.length === len && x.every((v) => Number.isInteger(v) && v >= 0 && v <= max);
  return ok ? x.slice() : null;
}

/** Which centre marks are a full candidate list (1) and which are notes (0), as saved in *f*;
 * for a save from before the two kinds: full lists when every open cell is marked (as auto
 * notes leave it), else notes. See FULL LISTS AND NOTES below. */
function fullListOr(f, values, marks) {
  const noted = values.every((v, i) => v || marks[i]);
  return cellsOr(f, values.length, 1) || new Array(values.length).fill(noted ? 1 : 0);
}

// FULL LISTS AND NOTES. Centre marks are of two kinds, and only one is read as candidates.
// - A full list: every digit the cell may still hold. The app makes them (auto notes, and the
//   cells a hint's Apply removes a digit from); the player edits them by hand as candidates,
//   and placed digits take themselves out of their peers' lists. A hint starts from them, so a
//   candidate removed stays removed, and a list that lacks the digit that belongs there is a
//   mistake.
// - Notes: centre marks typed into a cell that had none (a pair written Snyder style, or the
//   first marks of a player who writes candidates by hand). They may leave digits out on
//   purpose, so a hint never reads them: it starts from the real candidates there (the digits
//   no placed peer rules out) and says, as information, where the notes leave out a digit it
//   uses.
// `fullList[i]` (1 or 0) says which kind cell i's centre marks are; it means nothing while the
// cell has none (a cell marked again starts as notes). Corner marks are never candidates.

/**
 * A game: givens, the player's values and marks, history, timer. Serialisable to JSON.
 *
 * Built from a fresh grid or from a saved game (localStorage, which a bug, another version or a
 * hand edit may have left damaged): throws when the size, box or givens are unusable; any other
 * field that does not fit the grid is taken as absent (values: the givens; marks, corner marks,
 * colours: none; a broken undo entry is dropped; time 0), so a damaged save never breaks the app.
 */
export class Game {
  constructor({ n, box, diagonals = false, regions = null, rules = {}, givens, values, marks,
    solution = null, elapsed = 0, meta = {}, undo = [], redo = [], hinted = 0, finished = false,
    corner, colours, fullList, pen }) {
    if (!Number.isInteger(n) || n < 1 || n > SYMBOLS.length || typeof box !== "string") {
      throw new Error("not a game: no size or box");
    }
    this.geo = Geometry.fromBox(n, box, diagonals, regions, rules);
    if (this.geo.boxRows * this.geo.boxCols !== n) throw new Error("not a game: the box does not fit");
    const cells = this.geo.ncells, full = 2 ** n - 1, none = () => new Array(cells).fill(0);
    this.givens = cellsOr(givens, cells, n);
    if (!this.givens) throw new Error("not a game: the givens are not a grid of this size");
    const own = cellsOr(values, cells, n);
    this.values = own && own.every((v, i) => !this.givens[i] || v === this.givens[i]) ? own : this.givens.slice();
    this.marks = cellsOr(marks, cells, full) || none();
    this.fullList = fullListOr(fullList, this.values, this.marks);
    // Corner marks (Snyder notation): the player's own notes, never read as candidates.
    this.corner = cellsOr(corner, cells, full) || none();
    this.colours = cellsOr(colours, cells, COLOURS.length) || none(); // 0 = none
    // Pen lines (see PEN LINES): a save from before the pen has none.
    this.pen = penOr(pen, n);
    this.solution = cellsOr(solution, cells, n);
    this.elapsed = Number.isFinite(elapsed) && elapsed >= 0 ? elapsed : 0;
    this.meta = meta && typeof meta === "object" && !Array.isArray(meta) ? meta : {};
    const snapshot = (s) => !!s && !!cellsOr(s.v, cells, n) && !!cellsOr(s.m, cells, full);
    this.undoStack = Array.isArray(undo) ? undo.filter(snapshot) : [];
    this.redoStack = Array.isArray(redo) ? redo.filter(snapshot) : [];
    this.hinted = Number.isInteger(hinted) && hinted >= 0 ? hinted : 0;
    this.finished = finished === true;
  }

  get n() {
    return this.geo.n;
  }

  get puzzleLine() {
    return lineOf(this.geo, this.givens);
  }

  toJSON() {
    return {
      n: this.n, box: this.geo.box, diagonals: this.geo.diagonals, regions: this.geo.regions,
      rules: this.geo.rules, givens: this.givens,
      values: this.values, marks: this.marks, fullList: this.fullList, corner: this.corner, colours: this.colours,
      pen: this.pen, solution: this.solution, elapsed: this.elapsed,
      meta: this.meta, undo: this.undoStack.slice(-200), redo: this.redoStack.slice(-200),
      hinted: this.hinted, finished: this.finished,
    };
  }

  isGiven(cell) {
    return this.givens[cell] !== 0;
  }

  snapshot() {
    return { v: this.values.slice(), m: this.marks.slice(), f: this.fullList.slice(), k: this.corner.slice(),
      t: this.colours.slice(), p: this.pen.map((seg) => seg.slice()) };
  }

  /** Record the state before a change; returns true so callers can chain. */
  remember() {
    this.undoStack.push(this.snapshot());
    if (this.undoStack.length > 500) this.undoStack.shift();
    this.redoStack = [];
    return true;
  }

  /** Go back to the last state of *from*, saving the current one on *to*. */
  restore(from, to) {
    const s = from.pop();
    if (!s) return false;
    to.push(this.snapshot());
    this.values = s.v;
    this.marks = s.m;
    this.fullList = fullListOr(s.f, s.v, s.m);
    this.corner = cellsOr(s.k, this.geo.ncells, 2 ** this.n - 1) || new Array(this.geo.ncells).fill(0);
    this.colours = cellsOr(s.t, this.geo.ncells, COLOURS.length) || new Array(this.geo.ncells).fill(0);
    this.pen = penOr(s.p, this.n); // an undo step saved before the pen: no lines then
    return true;
  }

  undo() {
    if (!this.restore(this.undoStack, this.redoStack)) return false;
    this.finished = false;
    return true;
  }

  redo() {
    return this.restore(this.redoStack, this.undoStack);
  }

  /** Place digit d (0 clears) in cell; removes d from the peers' marks (auto-removal). */
  place(cell, d, { autoRemove = true } = {}) {
    return this.placeAll([cell], d, { autoRemove });
  }

  /** Place d in every cell of *cells* (one undo step); when every one already holds d, clear
   * them (typing the same digit again clears it). 0 clears digits and marks. */
  placeAll(cells, d, { autoRemove = true } = {}) {
    if (this.finished) return false;
    const open = cells.filter((c) => !this.isGiven(c));
    if (d && open.length && open.every((c) => this.values[c] === d)) d = 0;
    const changes = open.filter((c) => this.values[c] !== d
      || (d === 0 && (this.marks[c] || this.corner[c])));
    if (!changes.length) return false;
    this.remember();
    for (const cell of changes) {
      this.values[cell] = d;
      this.marks[cell] = 0;
      this.corner[cell] = 0;
      if (d && autoRemove) {
        for (const p of this.geo.peers[cell]) {
          this.marks[p] &= ~bit(d);
          this.corner[p] &= ~bit(d);
        }
      }
    }
    return true;
  }

  toggleMark(cell, d, kind = "candidates") {
    return this.toggleMarks([cell], d, kind);
  }

  /** Toggle mark d (a candidate, or a corner mark) in the open cells of *cells* at once: added
   * to all unless all have it, then removed from all (one undo step). Centre marks typed into
   * a cell without any are notes; in a full list they edit the list, which stays one. */
  toggleMarks(cells, d, kind = "candidates") {
    if (this.finished) return false;
    const open = cells.filter((c) => !this.isGiven(c) && !this.values[c]);
    if (!open.length) return false;
    const masks = kind === "corner" ? this.corner : this.marks;
    const all = open.every((c) => masks[c] & bit(d));
    this.remember();
    for (const c of open) {
      if (kind !== "corner" && !masks[c]) this.fullList[c] = 0;
      masks[c] = all ? masks[c] & ~bit(d) : masks[c] | bit(d);
    }
    return true;
  }

  /** Whether *cell* is open and its centre marks are a full candidate list. */
  hasFullList(cell) {
    return !this.values[cell] && this.marks[cell] !== 0 && this.fullList[cell] === 1;
  }

  /** Whether *cell* is open and its centre marks are notes. */
  hasNotes(cell) {
    return !this.values[cell] && this.marks[cell] !== 0 && this.fullList[cell] === 0;
  }

  /** Fill the open cells of *cells* with the digits their peers leave open, as full lists
   * (notes there give way). Part of a change the caller remembers. */
  listCandidates(cells) {
    for (const i of cells) {
      this.marks[i] = this.values[i] ? 0 : candidatesOf(this.geo, this.values, i);
      this.fullList[i] = 1;
    }
  }

  /** Fill every open cell's marks with the digits its peers leave open (auto notes). */
  autoCandidates() {
    this.remember();
    this.listCandidates([...this.values.keys()]);
  }

  /** Clear the *kind* ("corner", "centre" or "colour") of the open cells of *cells* (colours
   * of any cell), one undo step; false when there is none to clear. */
  clearAll(cells, kind) {
    if (this.finished) return false;
    const masks = { corner: this.corner, centre: this.marks, colour: this.colours }[kind];
    const some = cells.filter((c) => masks[c] && (kind === "colour" || !this.isGiven(c)));
    if (!some.length) return false;
    this.remember();
    for (const c of some) masks[c] = 0;
    return true;
  }

  /** Colour every cell of *cells* with colour k (1..9), or clear them when all have it. */
  colourAll(cells, k) {
    if (!cells.length) return false;
    const all = cells.every((c) => this.colours[c] === k);
    this.remember();
    for (const c of cells) this.colours[c] = all ? 0 : k;
    return true;
  }

  /** Whether the pen segment [a, b] (either order) is drawn. */
  hasPen(a, b) {
    const [x, y] = a < b ? [a, b] : [b, a];
    return this.pen.some(([p, q]) => p === x && q === y);
  }

  /** Draw (on) or erase the pen segment [a, b]; answers whether that changed anything. Part
   * of a change the caller remembers (a stroke is one undo step). */
  setPen(a, b, on) {
    const [x, y] = a < b ? [a, b] : [b, a];
    if (!penSegmentOk(this.n, x, y) || this.hasPen(x, y) === on) return false;
    if (on) this.pen.push([x, y]);
    else this.pen = this.pen.filter(([p, q]) => p !== x || q !== y);
    return true;
  }

  /** Erase the pen lines at *cells* (a line through a cell's centre, or along one of its
   * edges), or every line when *cells* is empty; one undo step, false when there is none. */
  clearPen(cells) {
    if (this.finished) return false;
    const side = penSide(this.n);
    const points = new Set();
    for (const i of cells) {
      const r = Math.floor(i / this.n), c = i % this.n;
      points.add((2 * r + 1) * side + 2 * c + 1);
    }
    const corners = (p) => {
      const R = Math.floor(p / side), C = p % side;
      return [Math.floor(R / 2), Math.floor(C / 2)];
    };
    const edgeOf = ([a, b]) => {
      // The cells an edge segment borders: those with both its ends among their corners.
      const [ra, ca] = corners(a), [rb, cb] = corners(b);
      const out = [];
      for (const [r, c] of ra === rb ? [[ra - 1, Math.min(ca, cb)], [ra, Math.min(ca, cb)]]
        : [[Math.min(ra, rb), ca - 1], [Math.min(ra, rb), ca]]) {
        if (r >= 0 && c >= 0 && r < this.n && c < this.n) out.push(r * this.n + c);
      }
      return out;
    };
    const chosen = new Set(cells);
    const hit = (seg) => !cells.length || points.has(seg[0]) || points.has(seg[1])
      || (Math.floor(seg[0] / side) % 2 === 0 && edgeOf(seg).some((i) => chosen.has(i)));
    if (!this.pen.some(hit)) return false;
    this.remember();
    this.pen = this.pen.filter((seg) => !hit(seg));
    return true;
  }

  clearMarks() {
    this.remember();
    this.marks.fill(0);
    this.corner.fill(0);
  }

  /** Apply a logic step (0-based placements and eliminations). */
  applyStep(step) {
    const n = this.n;
    this.remember();
    for (const [r, c, d] of step.eliminations) this.marks[(r - 1) * n + (c - 1)] &= ~bit(d);
    for (const [r, c, d] of step.placements) {
      const cell = (r - 1) * n + (c - 1);
      this.values[cell] = d;
      this.marks[cell] = 0;
      this.corner[cell] = 0;
      for (const p of this.geo.peers[cell]) this.marks[p] &= ~bit(d);
    }
  }

  reset() {
    this.remember();
    this.values = this.givens.slice();
    this.marks.fill(0);
    this.corner.fill(0);
    this.finished = false;
  }

  remaining(d) {
    let k = 0;
    for (const v of this.values) if (v === d) k++;
    return this.n - k;
  }

  /** Whether the grid is full and keeps every rule. The rule kinds (geo.kinds) are not
   * checked here: with any, the grid must equal the known solution; so must it when the
   * solution is the setter's (meta.setter: a link's own, which may rest on rules sudokit does
   * not read). */
  isComplete() {
    if (this.values.includes(0) || conflicts(this.geo, this.values).size !== 0) return false;
    if (!this.needsSolution) return true;
    return !!this.solution && this.values.every((v, i) => v === this.solution[i]);
  }

  /** Whether a win is the known solution rather than any grid that keeps the rules. */
  get needsSolution() {
    return this.geo.kinds.length > 0 || this.meta.setter === true;
  }

  mistakes() {
    const bad = new Set();
    if (!this.solution) return bad;
    this.values.forEach((v, i) => {
      if (v && !this.givens[i] && v !== this.solution[i]) bad.add(i);
    });
    return bad;
  }
}

export function formatTime(seconds) {
  const s = Math.floor(seconds);
  const h = Math.floor(s / 3600), m = Math.floor((s % 3600) / 60), r = s % 60;
  const mm = String(m).padStart(h ? 2 : 1, "0"), ss = String(r).padStart(2, "0");
  return h ? `${h}:${mm}:${ss}` : `${mm}:${ss}`;
}

const RULE_NAMES = [["windoku", "Windoku"], ["cages", "Killer"], ["antiknight", "Anti-knight"],
  ["antiking", "Anti-king"], ["nonconsecutive", "Non-consecutive"], ["kropki", "Kropki"], ["xv", "XV"],
  ["parity", "Even/odd"], ["thermos", "Thermo"]];

/** The kind of puzzle in words: "Sudoku", "Jigsaw Sudoku-X", "Killer", "Windoku Killer", ... */
/** The top bar's short names of the rule kinds whose key is not one word: "Littlekiller" was
 * one long word, which the bar on a phone can only cut. The others are the key capitalised. */
const KIND_NAMES = {
  littlekiller: "Little killer", doublearrow: "Double arrow", slowthermo: "Slow thermo",
  regionsum: "Region sum", xsum: "X-sum", sumcage: "Multi-sum cage", pairsum: "Sum mark",
  columnindexer: "Column indexer", rowindexer: "Row indexer", boxindexer: "Box indexer",
  extraregion: "Extra region", disjointgroups: "Disjoint groups", selftaxicab: "Self-taxicab",
  diagonalnonconsecutive: "Diagonal non-consecutive",
};

export function variantName(geo) {
  const names = RULE_NAMES.filter(([k]) => geo.rules[k]).map(([, name]) => name);
  for (const kind of new Set(geo.kinds.map((r) => r.kind))) names.push(KIND_NAMES[kind] || kind[0].toUpperCase() + kind.slice(1));
  if (geo.regions) names.unshift("Jigsaw");
  if (geo.diagonals) names.push("X");
  if (!geo.hasRules) return `${geo.regions ? "Jigsaw " : ""}${geo.diagonals ? "Sudoku-X" : "Sudoku"}`;
  return names.join(" ");
}

/** The rules of the puzzle in words, one sentence a rule (classic Sudoku's one too). */
export function rulesText(geo) {
  const r = geo.rules, n = geo.n;
  const house = geo.regions ? "outlined region" : "box";
  const extra = [geo.diagonals ? "on both main diagonals" : "", r.windoku ? "in each shaded window" : ""]
    .filter(Boolean).join(" and ");
  const out = [`Place 1–${SYMBOLS[n - 1]} once in every row, column and ${house}${extra ? ` and ${extra}` : ""}.`];
  if (r.cages) out.push("Killer: the digits in a dashed cage do not repeat and add up to the small number in its corner.");
  if (r.antiknight) out.push("Anti-knight: cells a chess knight's move apart never hold the same digit.");
  if (r.antiking) out.push("Anti-king: cells that touch, even at a corner, never hold the same digit.");
  if (r.nonconsecutive) out.push("Non-consecutive: side-by-side cells never hold consecutive digits.");
  if (r.kropki) {
    out.push("Kropki: a white dot joins consecutive digits, a black dot a digit and its double."
      + (r.kropki.negative ? " Where there is no dot, neither is true." : ""));
  }
  if (r.xv) {
    out.push("XV: the digits either side of an X add up to 10, of a V to 5."
      + (r.xv.negative ? " No other side-by-side digits add up to 5 or 10." : ""));
  }
  if (r.parity) out.push("Even/odd: a grey square holds an even digit, a grey circle an odd one.");
  if (r.thermos) out.push("Thermo: digits increase along each thermometer, starting at its bulb.");
  return out;
}
