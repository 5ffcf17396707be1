// The SVG board: draws a Game (plus selection, highlights, a hint step) and reports clicks.

import { SYMBOLS, bit, conflicts, digitsOf, penSide } from "./game.js";

const NS = "http://www.w3.org/2000/svg";
const CELL = 60;

function el(name, attrs = {}, text) {
  const node = document.createElementNS(NS, name);
  for (const [k, v] of Object.entries(attrs)) node.setAttribute(k, v);
  if (text !== undefined) node.textContent = text;
  return node;
}

export function symbolOf(d, n, numbers) {
  if (!d) return "";
  return numbers && n > 9 ? String(d) : SYMBOLS[d - 1];
}

const SIDES = { [-1]: "to the left", 1: "to the right" };
const PAIR_WORDS = { white: "white dot", black: "black dot", x: "X", v: "V" };

/** What the variant rules say about cell *i*, for its accessible name: its windoku window,
 * its cage (size and sum), parity, thermometer, and the dots and letters on its edges. */
export function ruleWords(geo, i) {
  const n = geo.n;
  const out = [];
  const w = geo.windows.findIndex((cells) => cells.includes(i));
  if (w >= 0) out.push(`window ${w + 1}`);
  const k = geo.cageOf[i];
  if (k >= 0) {
    const cage = geo.cages[k];
    const sum = cage.sum == null ? "no sum" : `sum ${cage.sum}`;
    out.push(`cage of ${cage.cells.length} cells, ${sum}`);
  }
  if (geo.rules.parity && geo.rules.parity[i] !== ".") out.push(geo.rules.parity[i] === "e" ? "even cell" : "odd cell");
  for (const path of geo.rules.thermos || []) {
    const at = path.indexOf(i);
    if (at === 0) out.push("thermometer bulb");
    else if (at > 0) out.push(`thermometer, step ${at + 1} of ${path.length}`);
  }
  for (const [a, b, , kind] of geo.pairs) {
    if (!PAIR_WORDS[kind] || (a !== i && b !== i)) continue;
    const other = a === i ? b : a;
    const side = Math.abs(other - i) === 1 ? SIDES[other - i] : other > i ? "below" : "above";
    out.push(`${PAIR_WORDS[kind]} ${side}`);
  }
  return out.length ? `, ${out.join(", ")}` : "";
}

const TOWARDS = { "-1,-1": "up-left", "-1,0": "up", "-1,1": "up-right", "0,-1": "left", "0,1": "right",
  "1,-1": "down-left", "1,0": "down", "1,1": "down-right" };

/** The pen lines through cell *i*, for its accessible name: ", pen line up, down-right" (the
 * cells it joins, as seen from this one; lines along the edges are not said). */
export function penWords(game, i) {
  const n = game.n, side = penSide(n);
  const here = (2 * Math.floor(i / n) + 1) * side + 2 * (i % n) + 1;
  const ways = [];
  for (const [a, b] of game.pen || []) {
    if (a !== here && b !== here) continue;
    const other = a === here ? b : a;
    ways.push(TOWARDS[`${Math.sign(Math.floor(other / side) - Math.floor(here / side))},${Math.sign((other % side) - (here % side))}`]);
  }
  return ways.length ? `, pen line ${ways.join(", ")}` : "";
}

/** A cell's accessible name: "row 3, column 7, empty, candidates 1 4 9, cage of 3 cells,
 * sum 11" (digits as shown; a jigsaw's region after the column; the rules of a variant last); a digit's *problem* ("breaks a
 * rule", "wrong") follows the digit, as the board's red and its flag show it. */
export function cellLabel(view, i, v, mask, cornerMask = 0, problem = "") {
  const { game } = view;
  const n = game.n;
  // A jigsaw region does not follow from row and column as a box does: it is said.
  const region = game.geo.regions ? `, region ${game.geo.regions[i] + 1}` : "";
  const where = `row ${Math.floor(i / n) + 1}, column ${(i % n) + 1}${region}`;
  const rules = (game.geo.hasRules ? ruleWords(game.geo, i) : "") + penWords(game, i);
  if (v) {
    const what = `${game.isGiven(i) ? "given" : "placed"} ${symbolOf(v, n, view.numbers)}`;
    return `${where}, ${what}${problem ? `, ${problem}` : ""}${rules}`;
  }
  const named = (m) => digitsOf(m).map((d) => symbolOf(d, n, view.numbers)).join(" ");
  const marks = mask ? `, candidates ${named(mask)}` : "";
  const notes = cornerMask ? `, corner marks ${named(cornerMask)}` : "";
  return `${where}, empty${marks}${notes}${rules}`;
}

/** The inset outline of a cage, as line segments [x1, y1, x2, y2] (cell size *cell*, inset
 * *d*): every cell edge on the cage's border, moved *d* inwards, and lengthened or shortened
 * at its ends so that the segments meet at the outline's corners. */
export function cageOutline(cells, n, cell, d) {
  const inside = new Set(cells);
  const has = (r, c) => r >= 0 && r < n && c >= 0 && c < n && inside.has(r * n + c);
  const segs = [];
  // How far an edge's end reaches past the cell corner: inset at a convex corner, flush where
  // the border runs straight on, extended at a concave corner.
  const end = (along, diagonal) => (!along ? d : diagonal ? -d : 0);
  for (const i of cells) {
    const r = Math.floor(i / n), c = i % n;
    const x = c * cell, y = r * cell;
    if (!has(r - 1, c)) segs.push([x + end(has(r, c - 1), has(r - 1, c - 1)), y + d, x + cell - end(has(r, c + 1), has(r - 1, c + 1)), y + d]);
    if (!has(r + 1, c)) segs.push([x + end(has(r, c - 1), has(r + 1, c - 1)), y + cell - d, x + cell - end(has(r, c + 1), has(r + 1, c + 1)), y + cell - d]);
    if (!has(r, c - 1)) segs.push([x + d, y + end(has(r - 1, c), has(r - 1, c - 1)), x + d, y + cell - end(has(r + 1, c), has(r + 1, c - 1))]);
    if (!has(r, c + 1)) segs.push([x + cell - d, y + end(has(r - 1, c), has(r - 1, c + 1)), x + cell - d, y + cell - end(has(r + 1, c), has(r + 1, c + 1))]);
  }
  return segs;
}

/** The drawing of a variant's rules: `under` goes beneath the digits (windows, parity,
 * thermometers, cages), `over` above the grid lines (dots, letters). Both are decoration,
 * hidden from assistive technology (each cell's name says the rules instead). */
function drawRules(geo) {
  const n = geo.n;
  const under = el("g", { class: "rules-under", "aria-hidden": "true" });
  const over = el("g", { class: "rules-over", "aria-hidden": "true" });
  const centre = (i) => [(i % n + 0.5) * CELL, (Math.floor(i / n) + 0.5) * CELL];
  for (const w of geo.windows) {
    for (const i of w) {
      under.append(el("rect", { x: (i % n) * CELL, y: Math.floor(i / n) * CELL, width: CELL, height: CELL, class: "window" }));
    }
  }
  const parity = geo.rules.parity || "";
  [...parity].forEach((ch, i) => {
    const [cx, cy] = centre(i);
    if (ch === "e") {
      under.append(el("rect", { x: cx - CELL * 0.36, y: cy - CELL * 0.36, width: CELL * 0.72, height: CELL * 0.72, rx: 3, class: "even" }));
    } else if (ch === "o") under.append(el("circle", { cx, cy, r: CELL * 0.38, class: "odd" }));
  });
  for (const path of geo.rules.thermos || []) {
    const points = path.map((i) => centre(i).join(",")).join(" ");
    const [bx, by] = centre(path[0]);
    under.append(el("circle", { cx: bx, cy: by, r: CELL * 0.36, class: "thermo-bulb" }));
    if (path.length > 1) under.append(el("polyline", { points, class: "thermo-line", "stroke-width": CELL * 0.3 }));
  }
  geo.cages.forEach((cage, k) => {
    const g = el("g", { class: "cage", "data-cage": k });
    for (const [x1, y1, x2, y2] of cageOutline(cage.cells, n, CELL, CELL * 0.08)) {
      g.append(el("line", { x1, y1, x2, y2 }));
    }
    if (cage.sum != null) {
      const first = cage.cells[0]; // the top-left cell: cells are sorted row-major
      const x = (first % n) * CELL, y = Math.floor(first / n) * CELL;
      // The text's stroke, in the cell's colour, breaks the dashed line where the sum stands.
      g.append(el("text", {
        x: x + CELL * 0.05, y: y + CELL * 0.15, class: "cage-sum", "data-cell": `${Math.floor(first / n)},${first % n}`,
      }, String(cage.sum)));
    }
    under.append(g);
  });
  for (const [a, b, , kind] of geo.pairs) {
    if (!PAIR_WORDS[kind]) continue;
    const [ax, ay] = centre(a), [bx, by] = centre(b);
    const mx = (ax + bx) / 2, my = (ay + by) / 2;
    if (kind === "white" || kind === "black") {
      over.append(el("circle", { cx: mx, cy: my, r: CELL * 0.11, class: `dot ${kind}`, "data-pair": `${a},${b}` }));
    } else {
      over.append(el("text", { x: mx, y: my + 1, class: "xv", "font-size": CELL * 0.32, "data-pair": `${a},${b}` }, kind.toUpperCase()));
    }
  }
  return [under, over];
}

/** The marks of the rule kinds (arrows, lines, outside clues...) as the server draws them
 * (POST /api/rules-layer: an SVG of the empty grid with only those rules, 60 units a cell as
 * here): its shaded cells and its `rules` layer, copied without their data-cell (clicks go to
 * the cells beneath) and hidden from assistive technology (the rules panel says them). The
 * parsed document is kept on *kinds*. */
function drawKinds(kinds) {
  if (!kinds.doc) kinds.doc = new DOMParser().parseFromString(kinds.svg, "image/svg+xml");
  const shades = el("g", { class: "kinds-shades", "aria-hidden": "true" });
  const marks = el("g", { class: "kinds", "aria-hidden": "true" });
  const copy = (node) => {
    const twin = document.importNode(node, true);
    twin.removeAttribute("data-cell");
    return twin;
  };
  for (const rect of kinds.doc.querySelectorAll('[data-layer="cells"] rect')) {
    // An unshaded cell is "cell empty"; a shaded one names its kind too ("cell clone empty").
    // The copy is no board cell: the board's .cell fills would hide the shade's own fill.
    if (rect.classList.length <= 2) continue;
    const shade = copy(rect);
    shade.classList.remove("cell", "empty");
    shades.append(shade);
  }
  const layer = kinds.doc.querySelector('[data-layer="rules"]');
  for (const node of layer ? layer.children : []) marks.append(copy(node));
  return [shades, marks];
}

/** The player's pen lines (game.pen, see PEN LINES in game.js): the lines through the cells'
 * centres, laid under the digits and marks (which stay readable), and the lines along their
 * edges, over the grid lines. Both are hidden from assistive technology (each cell's name
 * says the lines through it). */
function drawPen(game) {
  const side = penSide(game.n);
  const centre = el("g", { class: "pen", "aria-hidden": "true" });
  const edge = el("g", { class: "pen", "aria-hidden": "true" });
  const at = (p) => [(p % side) * (CELL / 2), Math.floor(p / side) * (CELL / 2)];
  for (const [a, b] of game.pen || []) {
    const [x1, y1] = at(a), [x2, y2] = at(b);
    const along = Math.floor(a / side) % 2 === 0;
    (along ? edge : centre).append(el("line", {
      x1, y1, x2, y2, class: along ? "pen-line edge" : "pen-line centre", "data-pen": `${a},${b}`,
    }));
  }
  return [centre, edge];
}

/** Where the k-th corner mark of a cell goes (fractions of the cell): corners first, then
 * the middles of the edges, as players write them. */
const CORNERS = [[0.17, 0.19], [0.83, 0.19], [0.17, 0.83], [0.83, 0.83], [0.5, 0.19], [0.5, 0.83],
  [0.17, 0.5], [0.83, 0.5], [0.5, 0.5]];

export class Board {
  /** onCell(r, c, ev) on a press; onDouble(r, c) on a double-click; onDrag(r, c) for each
   * further cell a drag enters, by mouse, finger or stylus alike (the board's touch-action
   * keeps a finger's drag from scrolling the page); *pen* gets the strokes of pen mode. */
  constructor(svg, onCell, onDrag = () => {}, onDouble = () => {}, pen = null) {
    this.svg = svg;
    this.onCell = onCell;
    this.dragging = false;
    // In pen mode (view.penMode) a press and drag draws instead of selecting: pen.down(x, y)
    // with the board position in cells from the grid's top-left corner, pen.move(x, y) as it
    // moves, pen.up() when it ends. The board holds the pointer meanwhile (a finger's too).
    this.pen = pen;
    this.penMode = false;
    this.penning = null; // the pointer id of the stroke under way
    const boardPoint = (ev) => {
      const m = svg.getScreenCTM();
      const p = new DOMPoint(ev.clientX, ev.clientY).matrixTransform(m.inverse());
      return [p.x / CELL, p.y / CELL];
    };
    svg.addEventListener("pointerdown", (ev) => {
      if (!this.penMode || !this.pen) return;
      ev.preventDefault();
      ev.stopImmediatePropagation(); // never a selection in pen mode (a second finger neither)
      if (this.penning != null || (ev.pointerType === "mouse" && ev.button !== 0)) return;
      svg.setPointerCapture(ev.pointerId);
      svg.focus({ preventScroll: true }); // as a press that selects does: keys go on from here
      this.penning = ev.pointerId;
      this.pen.down(...boardPoint(ev));
    });
    svg.addEventListener("pointermove", (ev) => {
      if (this.penning === ev.pointerId) this.pen.move(...boardPoint(ev));
    });
    for (const end of ["pointerup", "pointercancel", "lostpointercapture"]) {
      svg.addEventListener(end, (ev) => {
        // (A lost capture of a cell, the implicit one a finger takes, bubbles up: not an end.)
        if (this.penning !== ev.pointerId || (end === "lostpointercapture" && ev.target !== svg)) return;
        this.penning = null;
        this.pen.up();
      });
    }
    const cellAt = (ev) => {
      const target = ev.target.closest && ev.target.closest("[data-cell]");
      return target ? target.getAttribute("data-cell").split(",").map(Number) : null;
    };
    svg.addEventListener("pointerdown", (ev) => {
      const rc = cellAt(ev);
      if (!rc) return;
      ev.preventDefault();
      // A finger or a pen holds the pointer to the cell it pressed (implicit capture): let go,
      // so that the cells it then crosses get their pointerover, as under a mouse (the redraw
      // of a new selection drops that cell too, but a press that redraws nothing would not).
      if (ev.target.hasPointerCapture(ev.pointerId)) ev.target.releasePointerCapture(ev.pointerId);
      this.dragging = true;
      // A second press on the same cell within 0.4 s is a double-click (the cancelled
      // pointerdown keeps the browser from sending dblclick).
      const again = this.pressed && this.pressed[0] === rc[0] && this.pressed[1] === rc[1]
        && ev.timeStamp - this.pressedAt < 400;
      this.pressed = rc;
      this.pressedAt = ev.timeStamp;
      this.entered = rc;
      this.onCell(rc[0], rc[1], ev);
      if (again) onDouble(rc[0], rc[1]);
    });
    svg.addEventListener("pointerover", (ev) => {
      if (!this.dragging || !(ev.buttons & 1)) return;
      const rc = cellAt(ev);
      // The redraw after a press puts a new element under the pointer, which gets a
      // pointerover of its own: only a cell other than the last one entered is a drag step
      // (else a Ctrl-click's cell was added, then taken out again by its own redraw).
      if (!rc || (this.entered && this.entered[0] === rc[0] && this.entered[1] === rc[1])) return;
      this.entered = rc;
      onDrag(rc[0], rc[1]);
    });
    for (const end of ["pointerup", "pointercancel"]) window.addEventListener(end, () => (this.dragging = false));
  }

  /**
   * view: { game, values, marks, selected, numbers, showMistakes, peers, step, paused }
   * values/marks override the game's own (used to preview explanation steps).
   */
  draw(view) {
    const { game } = view;
    const geo = game.geo;
    const n = geo.n;
    const values = view.values || game.values;
    const marks = view.marks || game.marks;
    const size = n * CELL;
    const svg = this.svg;
    svg.replaceChildren();
    // Outside clues (little killers, sandwiches...) widen the board by their margins.
    const [top, right, bottom, left] = (view.kinds ? view.kinds.margins : [0, 0, 0, 0]).map((m) => m * CELL);
    svg.setAttribute("viewBox", `${-3 - left} ${-3 - top} ${size + 6 + left + right} ${size + 6 + top + bottom}`);
    svg.setAttribute("data-size", n);
    svg.classList.toggle("paused", !!view.paused);
    this.penMode = !!view.penMode && !view.paused;
    svg.classList.toggle("pen-mode", this.penMode);
    svg.classList.toggle("outline-sel", !!view.outline);

    const sel = view.selected;
    const multi = view.multi || new Set();
    const corner = view.corner || game.corner;
    const selDigit = sel != null ? values[sel] : 0;
    const peerSet = new Set(sel != null && view.peers !== false ? geo.peers[sel] : []);
    const bad = conflicts(geo, values);
    const wrong = view.showMistakes ? game.mistakes() : new Set();
    const step = view.step;
    const stepCells = new Set(), stepHi = new Set(), stepElim = new Set(), stepPlace = new Map();
    const stepUnits = new Set();
    if (step) {
      for (const [r, c] of step.unit_cells || []) stepUnits.add((r - 1) * n + c - 1);
      for (const [r, c] of step.cells) stepCells.add((r - 1) * n + c - 1);
      for (const [r, c, d] of step.highlights) stepHi.add(`${(r - 1) * n + c - 1}:${d}`);
      for (const [r, c, d] of step.eliminations) stepElim.add(`${(r - 1) * n + c - 1}:${d}`);
      for (const [r, c, d] of step.placements) stepPlace.set((r - 1) * n + c - 1, d);
    }

    // The cells form the ARIA grid (rows of named gridcells); the drawing on top is hidden
    // from assistive technology, which reads each cell's name instead.
    const gCells = el("g", { class: "cells", role: "rowgroup" });
    const rows = [];
    for (let r = 0; r < n; r++) {
      rows.push(el("g", { role: "row", "aria-rowindex": r + 1 }));
    }
    gCells.append(...rows);
    const gHi = el("g", { class: "marks-hi", "aria-hidden": "true" });
    const gTints = el("g", { class: "tints", "aria-hidden": "true" });
    const colours = game.colours || [];
    const gDigits = el("g", { class: "digits", "aria-hidden": "true" });
    const gMarks = el("g", { class: "marks", "aria-hidden": "true" });
    // A digit that breaks a rule or is wrong is flagged by a shape too, not by red alone.
    const gFlags = el("g", { class: "flags", "aria-hidden": "true" });
    const sub = Math.ceil(Math.sqrt(n));
    const subRows = Math.ceil(n / sub);
    // Pencil marks fill a box of the cell, [left, top, width, height]: all of it less the
    // half of the board's frame that falls inside (1.75), or in a cage the room inside its
    // dashed outline, below the sum in the cell carrying it.
    const sumCells = new Set(geo.cages.filter((c) => c.sum != null).map((c) => c.cells[0]));
    const EDGE = 2, IN = CELL * 0.1, SUM_TOP = CELL * 0.34;
    const markBox = (cell) => {
      if (geo.cageOf[cell] < 0) return [EDGE, EDGE, CELL - 2 * EDGE, CELL - 2 * EDGE];
      const top = sumCells.has(cell) ? SUM_TOP : IN;
      return [IN, top, CELL - 2 * IN, CELL - top - IN];
    };
    // A mark fills its place in the box (cut into sub x subRows places) as far as it stays
    // apart from its neighbours: digits are about 0.73 em tall and 0.64 em wide, so its ink
    // takes 0.7 of its place's height and at most 0.85 of its width (a label of two characters,
    // 10+ as numbers, half that a character); never over 0.4 of a cell, well under a placed
    // digit's 0.62. Its highlight ring is the place's inscribed circle. A 12x12 or 16x16 cell
    // is small on a phone (23 px wide on a 390 px screen, 16 places): there the ink takes 0.88
    // of its place's height, as large as the places allow (5 px of ink, where 0.7 gave 3.7).
    const chars = symbolOf(n, n, view.numbers).length;
    const tall = n > 9 ? 1.2 : 0.96;
    const markFont = (w, h) => Math.min(tall * (h / subRows), (0.85 * (w / sub)) / (0.64 * chars), 0.4 * CELL);
    const ringOf = (w, h) => Math.min(w / sub, h / subRows) / 2 - 0.5;

    for (let i = 0; i < geo.ncells; i++) {
      const r = Math.floor(i / n), c = i % n;
      const x = c * CELL, y = r * CELL;
      const cls = ["cell"];
      const shade = geo.regions ? geo.regions[i] : Math.floor(r / geo.boxRows) + Math.floor(c / geo.boxCols);
      if (shade % 2 === 1) cls.push("alt");
      if (peerSet.has(i)) cls.push("peer");
      if (selDigit && values[i] === selDigit) cls.push("same");
      if (stepUnits.has(i)) cls.push("hint-unit");
      if (stepCells.has(i)) cls.push("hint-cell");
      if (stepPlace.has(i)) cls.push("hint-place");
      if (i === sel || multi.has(i)) cls.push("selected");
      if (bad.has(i) && values[i]) cls.push("conflict");
      if (wrong.has(i)) cls.push("wrong");
      const v = values[i];
      const problem = v && bad.has(i) ? "breaks a rule" : wrong.has(i) ? "wrong" : "";
      if (problem) {
        gFlags.append(el("rect", {
          x: x + 4, y: y + 4, width: CELL - 8, height: CELL - 8, rx: 4, class: "flag", "data-cell": `${r},${c}`,
        }));
      }
      if (colours[i]) gTints.append(el("rect", { x, y, width: CELL, height: CELL, class: `tint t${colours[i]}` }));
      rows[r].append(el("rect", {
        x, y, width: CELL, height: CELL, class: cls.join(" "), "data-cell": `${r},${c}`,
        id: `cell-${r}-${c}`, role: "gridcell", "aria-colindex": c + 1,
        "aria-selected": String(i === sel || multi.has(i)),
        "aria-label": cellLabel(view, i, v, marks[i], corner[i], problem),
      }));
      if (v) {
        const dcls = ["digit", game.isGiven(i) ? "given" : "user"];
        if (bad.has(i)) dcls.push("conflict");
        if (wrong.has(i)) dcls.push("wrong");
        gDigits.append(el("text", {
          x: x + CELL / 2, y: y + CELL / 2 + 1, class: dcls.join(" "),
          "font-size": n > 9 ? CELL * 0.5 : CELL * 0.62, "data-cell": `${r},${c}`,
        }, symbolOf(v, n, view.numbers)));
      } else {
        let m = stepPlace.has(i) ? 0 : marks[i];
        // Candidates a step refers to are drawn even when the player has no marks there.
        for (const key of stepPlace.has(i) ? [] : [...stepHi, ...stepElim]) {
          const [cc, d] = key.split(":").map(Number);
          if (cc === i) m |= bit(d);
        }
        const [left, top, w, h] = markBox(i);
        let font = markFont(w, h), ring = ringOf(w, h);
        const digits = digitsOf(m);
        // The player's own centre marks (notes, not a full candidate list, and no step's
        // candidates) sit centred in the cell, in rows of at most `sub`, as large as they
        // fit: one mark at 0.4 of a cell, shrinking as more are marked, down to the size of
        // a full list's places. A full list keeps each digit in its place (hints point there).
        const centred = !view.marks && game.fullList[i] === 0 && m === marks[i];
        let place = (k) => [x + left + ((k % sub) + 0.5) * (w / sub), y + top + (Math.floor(k / sub) + 0.5) * (h / subRows)];
        if (centred && digits.length) {
          const count = digits.length, cols = Math.min(count, sub), lines = Math.ceil(count / cols);
          const shrink = n > 1 ? (count - 1) / (n - 1) : 1; // 0 for one mark, 1 for all n
          const fit = Math.min(0.96 * (h / Math.max(lines, 1.6)), (0.85 * (w / Math.max(cols, 1.6))) / (0.64 * chars));
          // Small marks (the setting): 0.85 of a full list's size, however few
          // there are.
          font = view.smallMarks ? Math.min(fit, 0.85 * font) : Math.min(fit, font + (0.4 * CELL - font) * (1 - shrink));
          const pitchX = Math.min(w / cols, (font * 0.64 * chars) / 0.85), pitchY = Math.min(h / lines, font / 0.96);
          ring = Math.min(pitchX, pitchY) / 2 - 0.5;
          place = (k) => {
            const line = Math.floor(k / cols), inLine = Math.min(cols, count - line * cols);
            return [x + CELL / 2 + (k % cols - (inLine - 1) / 2) * pitchX,
              y + top + h / 2 + (line - (lines - 1) / 2) * pitchY];
          };
        }
        for (const [k, d] of digits.entries()) {
          const [cx, cy] = place(centred ? k : d - 1);
          const key = `${i}:${d}`;
          const mcls = centred ? ["mark", "centred"] : ["mark"];
          if (selDigit && d === selDigit) mcls.push("same");
          if (stepElim.has(key)) mcls.push("elim");
          else if (stepHi.has(key)) mcls.push("hi");
          if (stepHi.has(key) || stepElim.has(key)) {
            gHi.append(el("circle", {
              cx, cy: cy, r: ring, class: stepElim.has(key) ? "ring elim" : "ring hi",
            }));
          } else if (selDigit && d === selDigit) {
            gHi.append(el("circle", { cx, cy, r: ring, class: "ring same" }));
          }
          gMarks.append(el("text", {
            x: cx, y: cy + 0.5, class: mcls.join(" "), "font-size": font,
          }, symbolOf(d, n, view.numbers)));
        }
        const skip = sumCells.has(i) ? 1 : 0; // the top-left corner holds the cage sum
        digitsOf(stepPlace.has(i) ? 0 : corner[i]).forEach((d, k) => {
          k += skip;
          const [fx, fy] = k < CORNERS.length ? CORNERS[k] : [0.2 + 0.15 * (k - CORNERS.length), 0.5];
          gMarks.append(el("text", {
            x: x + fx * CELL, y: y + fy * CELL, class: "corner", "font-size": CELL * (n > 9 ? 0.2 : 0.24),
          }, symbolOf(d, n, view.numbers)));
        });
        if (stepPlace.has(i)) {
          gDigits.append(el("text", {
            x: x + CELL / 2, y: y + CELL / 2 + 1, class: "digit ghost",
            "font-size": n > 9 ? CELL * 0.5 : CELL * 0.62,
          }, symbolOf(stepPlace.get(i), n, view.numbers)));
        }
      }
    }

    const gLines = el("g", { class: "lines", "aria-hidden": "true" });
    const jigsaw = !!geo.regions;
    for (let k = 1; k < n; k++) {
      const p = k * CELL;
      const thickV = !jigsaw && k % geo.boxCols === 0, thickH = !jigsaw && k % geo.boxRows === 0;
      gLines.append(el("line", { x1: p, y1: 0, x2: p, y2: size, class: thickV ? "thick" : "thin" }));
      gLines.append(el("line", { x1: 0, y1: p, x2: size, y2: p, class: thickH ? "thick" : "thin" }));
    }
    if (jigsaw) {
      // region borders: the edges between side-by-side cells of different regions
      for (let i = 0; i < geo.ncells; i++) {
        const x = (i % n) * CELL, y = Math.floor(i / n) * CELL;
        if (i % n < n - 1 && geo.boxOf(i) !== geo.boxOf(i + 1)) {
          gLines.append(el("line", { x1: x + CELL, y1: y, x2: x + CELL, y2: y + CELL, class: "thick" }));
        }
        if (i + n < geo.ncells && geo.boxOf(i) !== geo.boxOf(i + n)) {
          gLines.append(el("line", { x1: x, y1: y + CELL, x2: x + CELL, y2: y + CELL, class: "thick" }));
        }
      }
    }
    gLines.append(el("rect", { x: 0, y: 0, width: size, height: size, rx: 6, class: "frame" }));
    if (geo.diagonals) {
      gLines.append(el("line", { x1: 0, y1: 0, x2: size, y2: size, class: "diag" }));
      gLines.append(el("line", { x1: size, y1: 0, x2: 0, y2: size, class: "diag" }));
    }
    // A step's chain links, candidate to candidate: strong links solid, weak ones dashed.
    const gLinks = el("g", { class: "links", "aria-hidden": "true" });
    const at = (r, c, d) => {
      const [left, top, w, h] = markBox((r - 1) * n + c - 1);
      return [
        (c - 1) * CELL + left + (((d - 1) % sub) + 0.5) * (w / sub),
        (r - 1) * CELL + top + (Math.floor((d - 1) / sub) + 0.5) * (h / subRows),
      ];
    };
    for (const [r1, c1, d1, r2, c2, d2, strong] of (step && step.links) || []) {
      const [x1, y1] = at(r1, c1, d1), [x2, y2] = at(r2, c2, d2);
      gLinks.append(el("line", { x1, y1, x2, y2, class: strong ? "link strong" : "link weak" }));
    }
    const [gUnder, gOver] = drawRules(geo);
    const [gShades, gKinds] = view.kinds ? drawKinds(view.kinds) : [el("g"), el("g")];
    // The selection as an outline (the setting) instead of a fill: the border of the selected
    // cells, inset a little, over the grid lines.
    const gSel = el("g", { class: "sel-outline", "aria-hidden": "true" });
    if (view.outline && sel != null) {
      for (const [x1, y1, x2, y2] of cageOutline([sel, ...multi], n, CELL, 3)) gSel.append(el("line", { x1, y1, x2, y2 }));
    }
    const [gPenCentre, gPenEdge] = drawPen(game);
    svg.append(gCells, gShades, gTints, gUnder, gKinds, gPenCentre, gHi, gMarks, gDigits, gFlags, gLines, gSel, gPenEdge,
      gOver, gLinks);
    if (sel != null) svg.setAttribute("aria-activedescendant", `cell-${Math.floor(sel / n)}-${sel % n}`);
    else svg.removeAttribute("aria-activedescendant");
    if (view.paused) {
      svg.append(el("rect", {
        x: 0, y: 0, width: size, height: size, rx: 6, class: "pause-cover", "aria-hidden": "true",
      }));
      svg.append(el("text", { x: size / 2, y: size / 2, class: "pause-text", "aria-hidden": "true" }, "Paused"));
    }
  }
}
