// The game model: geometry, the player's grid, pencil marks, undo/redo, timer. No DOM here.

export const SYMBOLS = "123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ";

/**
 * Geometry of an n x n grid with boxRows x boxCols boxes, or jigsaw regions (the region index
 * 0..n-1 of every cell, as the API's grid objects carry them), and optional diagonals.
 */
export class Geometry {
  constructor(n, boxRows, boxCols, diagonals = false, regions = null) {
    this.n = n;
    this.boxRows = boxRows;
    this.boxCols = boxCols;
    this.diagonals = diagonals;
    this.regions = regions ? regions.slice() : null;
    this.ncells = n * n;
    const units = [];
    for (let r = 0; r < n; r++) units.push([...Array(n).keys()].map((c) => r * n + c));
    for (let c = 0; c < n; c++) units.push([...Array(n).keys()].map((r) => r * n + c));
    for (let b = 0; b < n; b++) units.push([]);
    for (let i = 0; i < this.ncells; i++) units[2 * n + this.boxOf(i)].push(i);
    if (diagonals) {
      units.push([...Array(n).keys()].map((i) => i * n + i));
      units.push([...Array(n).keys()].map((i) => i * n + (n - 1 - i)));
    }
    this.units = units;
    this.peers = [];
    for (let i = 0; i < this.ncells; i++) this.peers.push(new Set());
    for (const u of units) for (const a of u) for (const b of u) if (a !== b) this.peers[a].add(b);
    this.peers = this.peers.map((s) => [...s]);
  }

  static fromBox(n, box, diagonals = false, regions = null) {
    const [r, c] = box.split("x").map(Number);
    return new Geometry(n, r, c, diagonals, regions);
  }

  /** The shape fields of an API request: the box, or the jigsaw regions (one symbol a cell). */
  get apiShape() {
    if (!this.regions) return { box: this.box, diagonals: this.diagonals };
    return { regions: this.regions.map((x) => SYMBOLS[x]).join(""), diagonals: this.diagonals };
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

/** Cell indices of every digit that repeats in a unit. */
export function conflicts(geo, values) {
  const bad = new Set();
  for (const unit of geo.units) {
    const seen = new Map();
    for (const c of unit) {
      const v = values[c];
      if (!v) continue;
      if (seen.has(v)) {
        bad.add(c);
        bad.add(seen.get(v));
      } else seen.set(v, c);
    }
  }
  return bad;
}

/** The digits no peer of *cell* holds, as a mask. */
export function candidatesOf(geo, values, cell) {
  let seen = 0;
  for (const p of geo.peers[cell]) if (values[p]) seen |= bit(values[p]);
  return ((1 << geo.n) - 1) & ~seen;
}

export function lineOf(geo, values) {
  return values.map((v) => (v ? SYMBOLS[v - 1] : ".")).join("");
}

/** A game: givens, the player's values and marks, history, timer. Serialisable to JSON. */
export class Game {
  constructor({ n, box, diagonals = false, regions = null, givens, values, marks, solution = null,
    elapsed = 0, meta = {}, undo = [], redo = [], hinted = 0, finished = false, corner, colours }) {
    this.geo = Geometry.fromBox(n, box, diagonals, regions);
    this.givens = givens.slice();
    this.values = values ? values.slice() : givens.slice();
    this.marks = marks ? marks.slice() : new Array(this.geo.ncells).fill(0);
    // Corner marks (Snyder notation): the player's own notes, never read as candidates.
    this.corner = corner ? corner.slice() : new Array(this.geo.ncells).fill(0);
    this.colours = colours ? colours.slice() : new Array(this.geo.ncells).fill(0); // 0 = none
    this.solution = solution;
    this.elapsed = elapsed;
    this.meta = meta;
    this.undoStack = undo;
    this.redoStack = redo;
    this.hinted = hinted;
    this.finished = finished;
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
      givens: this.givens,
      values: this.values, marks: this.marks, corner: this.corner, colours: this.colours, solution: this.solution, elapsed: this.elapsed,
      meta: this.meta, undo: this.undoStack.slice(-200), redo: this.redoStack.slice(-200),
      hinted: this.hinted, finished: this.finished,
    };
  }

  isGiven(cell) {
    return this.givens[cell] !== 0;
  }

  snapshot() {
    return { v: this.values.slice(), m: this.marks.slice(), k: this.corner.slice(), t: this.colours.slice() };
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
    this.corner = s.k || new Array(this.geo.ncells).fill(0);
    this.colours = s.t || new Array(this.geo.ncells).fill(0);
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
   * to all unless all have it, then removed from all (one undo step). */
  toggleMarks(cells, d, kind = "candidates") {
    if (this.finished) return false;
    const open = cells.filter((c) => !this.isGiven(c) && !this.values[c]);
    if (!open.length) return false;
    const masks = kind === "corner" ? this.corner : this.marks;
    const all = open.every((c) => masks[c] & bit(d));
    this.remember();
    for (const c of open) masks[c] = all ? masks[c] & ~bit(d) : masks[c] | bit(d);
    return true;
  }

  /** Fill every open cell's marks with the digits its peers leave open. */
  autoCandidates() {
    this.remember();
    for (let i = 0; i < this.geo.ncells; i++) {
      this.marks[i] = this.values[i] ? 0 : candidatesOf(this.geo, this.values, i);
    }
  }

  /** Colour every cell of *cells* with colour k (1..6), or clear them when all have it. */
  colourAll(cells, k) {
    if (!cells.length) return false;
    const all = cells.every((c) => this.colours[c] === k);
    this.remember();
    for (const c of cells) this.colours[c] = all ? 0 : k;
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

  isComplete() {
    return !this.values.includes(0) && conflicts(this.geo, this.values).size === 0;
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
