// The app: wires the board, the controls, the keyboard, the API, the URL and localStorage.

import { api } from "./api.js";
import { Board, symbolOf } from "./board.js";
import {
  COLOURS, Game, Geometry, SYMBOLS, bit, candidatesOf, conflicts, digitsOf, formatTime, lineOf, penKindAt, penPointAt,
  penSegmentOk, penSide, penSteps, rulesOf, rulesText, variantName,
} from "./game.js";

const OLD_SAVE_KEY = "sudokit.game.v1"; // the single save slot of earlier versions
const GAMES_KEY = "sudokit.games.v2"; // every game: [{ id, updated, game }], newest first
const STATS_KEY = "sudokit.stats.v1"; // wins: { levels: { level: { solved, total, best } }, days }
const SETTINGS_KEY = "sudokit.settings.v1";
const $ = (id) => document.getElementById(id);

const state = {
  game: null,
  selected: null,
  notes: false,
  markKind: "candidates", // what notes mode writes: "candidates" (centre) or "corner"
  colourMode: false, // digit keys colour the selected cells (V; Z, X, C or Space leave it)
  penMode: false, // the board's press and drag draws pen lines (Q or the Pen tool; Z, X, C, V leave it)
  dragRemoves: false, // a Ctrl-drag takes the cells it enters out of the selection
  multi: new Set(), // further selected cells (Ctrl/Shift-click, drag), besides `selected`
  paused: false,
  full: false, // whether every cell of the game holds a digit (to say when that first happens)
  kinds: null, // the server's drawing of the game's rule kinds (loadKinds)
  steps: null, // the hint or explanation being shown
  stepIndex: 0,
  stepMode: null, // "hint" | "explain"
  hintLevel: 3, // graded hints: 1 technique and area, 2 the cells, 3 the answer
  leftOut: [], // where the player's notes leave out a digit the hint uses: [{ cell, digits }]
  rulesOpen: false, // the rules shown in full (a long rules text is cut to a few lines)
  settings: {
    mistakes: false, autoRemove: true, peers: true, numbers: false, theme: null,
    hideTimer: false, outline: false, smallMarks: false,
  },
};

const board = new Board(
  $("board"),
  (r, c, ev) => {
    if (state.paused) return;
    const cell = r * state.game.n + c;
    const ctrl = ev.ctrlKey || ev.metaKey;
    // A Shift-drag adds the cells it enters to the selection, a Ctrl-drag takes them out.
    state.dragRemoves = ctrl && !ev.shiftKey;
    if ((ctrl || ev.shiftKey) && state.selected != null) {
      // Ctrl/Shift-click adds a cell to the selection (or takes it out again).
      if (cell === state.selected || state.multi.has(cell)) deselect(cell);
      else state.multi.add(cell);
      render();
    } else select(cell);
    $("board").focus({ preventScroll: true });
  },
  (r, c) => {
    const cell = r * state.game.n + c;
    if (state.paused || state.selected == null) return;
    if (state.dragRemoves) deselect(cell);
    else if (cell !== state.selected) state.multi.add(cell);
    render();
  },
  (r, c) => {
    // A double-click on a digit selects every cell holding it.
    const g = state.game, d = g && g.values[r * g.n + c];
    if (state.paused || !d) return;
    const same = [...g.values.keys()].filter((i) => g.values[i] === d);
    state.selected = r * g.n + c;
    state.multi = new Set(same.filter((i) => i !== state.selected));
    render();
  },
  { down: penDown, move: penMove, up: penUp },
);

// -- the pen --------------------------------------------------------------------------------

/** The pen stroke under way: what it draws along ("centre" or "edge", chosen where it starts),
 * the last lattice point it reached, whether it draws or erases (its first segment decides:
 * over a line already drawn it erases), and whether the game remembered the state before it
 * (a stroke is one undo step). */
const stroke = { kind: null, last: -1, draw: null, remembered: false };

function penDown(x, y) {
  const g = state.game;
  if (!g || state.paused || g.finished) return;
  stroke.kind = penKindAt(g.n, x, y);
  stroke.last = penPointAt(g.n, stroke.kind, x, y, true);
  stroke.draw = null;
  stroke.remembered = false;
}

function penMove(x, y) {
  const g = state.game;
  if (!g || stroke.kind == null || stroke.last < 0) return;
  const to = penPointAt(g.n, stroke.kind, x, y);
  if (to < 0 || to === stroke.last) return;
  let drawn = false;
  for (const q of penSteps(g.n, stroke.last, to)) {
    if (stroke.draw === null) stroke.draw = !g.hasPen(stroke.last, q);
    if (!stroke.remembered && penSegmentOk(g.n, Math.min(stroke.last, q), Math.max(stroke.last, q))
      && g.hasPen(stroke.last, q) !== stroke.draw) {
      g.remember();
      stroke.remembered = true;
    }
    drawn = g.setPen(stroke.last, q, stroke.draw) || drawn;
    stroke.last = q;
  }
  if (drawn) render();
}

function penUp() {
  if (stroke.remembered) {
    announce(stroke.draw ? "Pen line drawn" : "Pen line erased");
    changed();
  }
  stroke.kind = null;
}

/** Shift+arrow in pen mode: a line from the selected cell's centre to the next one's (or
 * the line between them erased), and the selection moves on. */
function penKey(from, to) {
  const g = state.game, n = g.n, side = penSide(n);
  const centre = (i) => (2 * Math.floor(i / n) + 1) * side + 2 * (i % n) + 1;
  const a = Math.min(centre(from), centre(to)), b = Math.max(centre(from), centre(to));
  if (g.finished || !penSegmentOk(n, a, b)) return;
  const on = !g.hasPen(a, b);
  g.remember();
  g.setPen(a, b, on);
  announce(`${cellName(from)} to ${cellName(to)}: pen line ${on ? "drawn" : "erased"}`);
  changed();
}

/** Take *cell* out of the selection; the focused cell gives way to another selected one. */
function deselect(cell) {
  if (cell !== state.selected) return state.multi.delete(cell);
  const [next] = state.multi;
  state.selected = next ?? null;
  if (next != null) state.multi.delete(next);
}

/** What the digit keys put now: "digit", "corner", "centre" or "colour". */
function currentMode() {
  if (state.penMode) return "pen";
  if (state.colourMode) return "colour";
  if (!state.notes) return "digit";
  return state.markKind === "corner" ? "corner" : "centre";
}

/** Switch to a mode of currentMode (the keys Z, X, C and V, Q for the pen). */
function setMode(mode) {
  state.penMode = mode === "pen";
  state.colourMode = mode === "colour";
  state.notes = mode === "corner" || mode === "centre";
  if (state.notes) state.markKind = mode === "corner" ? "corner" : "candidates";
  announce(`${{ digit: "Digit", corner: "Corner mark", centre: "Centre mark", colour: "Colour", pen: "Pen" }[mode]} mode`);
  render();
}

/** The selected cells: the focused one first, then any added by Ctrl/Shift-click or drag. */
function selectedCells() {
  return state.selected == null ? [] : [state.selected, ...[...state.multi].filter((c) => c !== state.selected)];
}

// -- persistence ----------------------------------------------------------------------------

function newId() {
  return `${Date.now().toString(36)}-${Math.random().toString(36).slice(2, 8)}`;
}

/** Every saved game, newest first; the old single slot is taken over once. */
function readGames() {
  let list = [];
  try {
    list = JSON.parse(localStorage.getItem(GAMES_KEY) || "[]");
    if (!Array.isArray(list)) list = [];
  } catch (err) {
    list = [];
  }
  try {
    const old = JSON.parse(localStorage.getItem(OLD_SAVE_KEY) || "null");
    if (old && old.givens) {
      old.meta = { ...(old.meta || {}), id: newId() };
      list.push({ id: old.meta.id, updated: Date.now(), game: old });
      if (writeGames(list)) localStorage.removeItem(OLD_SAVE_KEY);
    }
  } catch (err) {
    /* an unreadable old slot is left where it is */
  }
  return list.filter((e) => e && e.id && e.game && e.game.givens);
}

/** Store the list; when storage is full, drop the undo history of the other games (never a
 * game) and try once more. Answers whether it was stored. */
function writeGames(list) {
  try {
    localStorage.setItem(GAMES_KEY, JSON.stringify(list));
    return true;
  } catch (err) {
    try {
      const lean = list.map((e, k) => (k === 0 ? e : { ...e, game: { ...e.game, undo: [], redo: [] } }));
      localStorage.setItem(GAMES_KEY, JSON.stringify(lean));
      return true;
    } catch (err2) {
      return false; // storage full or disabled: play on without saving
    }
  }
}

/** Save the current game in its own entry: other tabs' and earlier games stay as they are. */
function save() {
  const g = state.game;
  if (!g) return;
  if (!g.meta.id) g.meta.id = newId();
  const list = readGames().filter((e) => e.id !== g.meta.id);
  list.unshift({ id: g.meta.id, updated: Date.now(), game: g.toJSON() });
  writeGames(list);
}

/** The game of a saved entry, or null when it is beyond repair (see Game). */
function gameOf(entry) {
  try {
    const game = new Game(entry.game);
    if (!game.meta.id) game.meta.id = entry.id; // saved again under its own entry
    return game;
  } catch (err) {
    return null;
  }
}

function deleteGame(id) {
  writeGames(readGames().filter((e) => e.id !== id));
}

function saveSettings() {
  try {
    localStorage.setItem(SETTINGS_KEY, JSON.stringify(state.settings));
  } catch (err) {
    /* storage full or disabled: the setting holds for this visit */
  }
}

function loadSettings() {
  try {
    Object.assign(state.settings, JSON.parse(localStorage.getItem(SETTINGS_KEY) || "{}"));
  } catch (err) {
    /* keep the defaults */
  }
}

// -- the URL: the puzzle itself, so a link shares it ---------------------------------------

function shareHash(game) {
  const shape = game.geo.apiShape;
  const params = new URLSearchParams({ p: game.puzzleLine });
  if (shape.regions) params.set("r", shape.regions);
  else params.set("b", shape.box);
  if (game.geo.diagonals) params.set("x", "1");
  if (game.geo.hasRules) params.set("v", JSON.stringify(game.geo.rules)); // the variant's rules
  // The words a link carried (title, author, the setter's rules) and the setter's solution.
  for (const [key, name] of META_PARAMS) if (game.meta[name]) params.set(key, game.meta[name]);
  if (game.meta.setter && game.solution) params.set("s", lineOf(game.geo, game.solution));
  return `#${params.toString()}`;
}

/** The share link's parameters of the words about a puzzle, and the game's names for them. */
const META_PARAMS = [["t", "title"], ["a", "author"], ["n", "ruleset"]];
/** The game's names of the words about a puzzle: as the API's `meta` names them. */
const META_KEYS = META_PARAMS.map(([, name]) => name);

/** The words about a puzzle an answer of /api/convert carries (title, author, the setter's
 * rules text), as a game's meta keeps them. */
function aboutOf(data) {
  const out = {};
  for (const key of META_KEYS) if (data.meta && data.meta[key]) out[key] = data.meta[key];
  return out;
}

/** Start the puzzle an /api/convert answer holds (an import or a shared link): with its title,
 * author and rules text, and the setter's solution when it carries one that keeps the givens
 * and every rule sudokit reads; one that does not is left out, and the player told so (the
 * mistakes and the win then go by the solution sudokit finds). *said* words the toast that
 * says the game has started. */
function startConverted(data, source, said) {
  const setter = data.solution && data.solution_valid ? data.solution : null;
  const meta = { source, ...aboutOf(data) };
  if (setter) meta.setter = true;
  const game = gameFromGrid(data.puzzle, setter, meta);
  start(game);
  toast(said(game));
  if (data.solution && !data.solution_valid) {
    toast("The setter's solution breaks a given or a rule: your digits are checked against the solution sudokit finds.", true);
    warnUnlessUnique(game, 3000); // after the player has read that
  } else warnUnlessUnique(game);
  return game;
}

function syncUrl() {
  const hash = shareHash(state.game);
  if (location.hash !== hash) history.replaceState(null, "", hash);
}

/** Open the puzzle of the URL's share link: true when it did, false when the URL has none, or
 * the message that says why the link's puzzle cannot be opened (the caller shows it). */
async function loadFromHash() {
  const params = new URLSearchParams(location.hash.slice(1));
  const puzzle = params.get("p");
  if (!puzzle) return false;
  const box = params.get("b") || undefined;
  const regions = params.get("r") || undefined;
  const diagonals = params.get("x") === "1";
  let rules = {};
  try {
    rules = rulesOf(JSON.parse(params.get("v") || "{}"));
  } catch (err) {
    return "This link's variant rules are not valid JSON";
  }
  const same = (g) => g && g.puzzleLine === puzzle && (!box || g.geo.box === box)
    && (g.geo.apiShape.regions || "") === (regions || "") && g.geo.diagonals === diagonals
    && JSON.stringify(g.geo.rules) === JSON.stringify(rules);
  if (same(state.game)) return true;
  // A game of this puzzle already saved is resumed (unfinished ones first); others stay saved.
  const saved = readGames().map(gameOf).filter(same);
  const resume = saved.find((g) => !g.finished) || saved[0];
  if (resume) {
    start(resume);
    return true;
  }
  const meta = {};
  for (const [key, name] of META_PARAMS) if (params.get(key)) meta[name] = params.get(key);
  const body = { puzzle, box, regions, diagonals, ...rules, to: "line" };
  if (Object.keys(meta).length) body.meta = meta;
  if (params.get("s")) body.solution = params.get("s");
  try {
    const data = await api("convert", body);
    startConverted(data, "link", () => "Loaded the shared puzzle");
  } catch (err) {
    return `This link has no valid puzzle: ${err.message}`;
  }
  return true;
}

// -- games ----------------------------------------------------------------------------------

function gameFromGrid(grid, solution, meta = {}) {
  return new Game({
    n: grid.size, box: grid.box, diagonals: grid.diagonals, regions: grid.regions, rules: rulesOf(grid),
    givens: grid.cells, solution: solution ? solution.cells : null, meta,
  });
}

function start(game) {
  state.game = game;
  loadKinds(game);
  state.full = !game.values.includes(0);
  state.selected = null;
  state.paused = false;
  state.rulesOpen = false;
  closeSteps();
  state.notes = false;
  state.penMode = false;
  buildPad();
  $("banner").hidden = true; // the completion card shows once, when the game is won
  syncUrl();
  save();
  render();
}

/** Generate a puzzle and start it; answers whether it did. *signal* aborting (the new-game
 * dialog cancelled) stops the request: the game on screen plays on, the app as it was. */
async function newGame(opts, signal) {
  const body = {
    size: Number(opts.size), symmetry: opts.symmetry, diagonals: !!opts.diagonals,
  };
  if (opts.jigsaw) body.jigsaw = true;
  for (const flag of opts.variants || []) body[flag] = true;
  if (opts.seed != null) body.seed = opts.seed;
  // The server rates candidates for a difficulty target only up to 9x9.
  if (opts.difficulty && body.size <= 9) body.difficulty = opts.difficulty;
  document.body.classList.add("busy");
  const go = $("new-go");
  unavailable(go, true); // keeps the focus it has (the dialog's own Generate, pressed)
  go.textContent = "Generating…";
  // In the dialog, the seconds so far and the server's limit (a long generation, a 16x16
  // killer, can take most of it), in place of the note that said so beforehand. Not a live
  // region: the toast says "Generating" once, a count each second would be chatter.
  const limit = $("dlg-new").open ? await timeLimit() : info?.limits?.timeout ?? null;
  const began = Date.now();
  const progress = () => {
    const so = Math.floor((Date.now() - began) / 1000);
    $("new-progress").textContent = `Working: ${so} s so far${limit ? `; the server stops after ${limit} s` : ""}.`;
  };
  progress();
  const ticker = setInterval(progress, 1000);
  $("new-progress").hidden = false;
  $("new-note").hidden = true;
  $("new-error").hidden = true;
  toast("Generating a puzzle…");
  try {
    let data;
    try {
      data = await api("generate", body, signal);
    } catch (err) {
      // A symmetry the grid lacks: fall back to none rather than fail; likewise a difficulty
      // target the generator cannot aim at for these variant rules.
      if (body.symmetry !== "none" && /symmetr/.test(err.message)) {
        body.symmetry = "none";
        data = await api("generate", body, signal);
      } else if (body.difficulty && /difficulty/.test(err.message)) {
        delete body.difficulty;
        data = await api("generate", body, signal);
      } else throw err;
    }
    const p = data.puzzles[0];
    start(gameFromGrid(p.puzzle, p.solution, {
      difficulty: p.difficulty, seed: p.seed, symmetry: p.symmetry,
    }));
    hideToast();
    return true;
  } catch (err) {
    hideToast();
    if (signal?.aborted) return false;
    // The server's time limit passed: one plain line of advice, not its own words.
    const message = err.status === 504
      ? `No puzzle came within the server's ${limit ? `${limit} s ` : ""}limit: press Generate to try again (another try is often quicker), or choose a smaller size or fewer variant rules.`
      : err.message;
    // Inside the open dialog the error shows in it, not dimmed behind its backdrop.
    if ($("dlg-new").open) {
      $("new-error").textContent = message;
      $("new-error").hidden = false;
    } else toast(message, true);
    return false;
  } finally {
    clearInterval(ticker);
    $("new-progress").hidden = true;
    syncNewNote();
    document.body.classList.remove("busy");
    unavailable(go, false);
    go.textContent = "Generate";
  }
}

async function ensureSolution() {
  const g = state.game;
  if (g.solution) return g.solution;
  const data = await api("solve", { puzzle: g.puzzleLine, ...g.geo.apiShape });
  if (data.status !== "unique") throw new Error(describeStatus(data.status));
  g.solution = data.solution.cells;
  save();
  return g.solution;
}

/** Say so when a puzzle just opened cannot be played to one answer: its givens break a rule,
 * it has no solution, or several (the Uniqueness button's check; a search that gives up says
 * nothing here). */
async function warnUnlessUnique(game, wait = 0) {
  try {
    const data = await api("check", puzzleBody(false));
    if (wait) await new Promise((done) => setTimeout(done, wait));
    if (state.game === game && ["invalid", "none", "multiple"].includes(data.status)) {
      // A setter's solution picks one of several (the link may hold rules sudokit cannot read).
      const decides = data.status === "multiple" && game.meta.setter ? " The setter's solution decides: your digits are checked against it." : "";
      toast(describeStatus(data.status) + decides, true);
    }
  } catch (err) {
    /* the game plays on; the Uniqueness button says more */
  }
}

function describeStatus(status) {
  return {
    unique: "This puzzle has exactly one solution.",
    multiple: "This puzzle has more than one solution.",
    none: "This puzzle has no solution.",
    invalid: "The givens break a rule: the same digit twice in a unit, or a variant's rule.",
    "gave-up": "The search gave up: the puzzle is too open to decide quickly.",
  }[status] || status;
}

// -- rendering ------------------------------------------------------------------------------

function currentStep() {
  return state.steps ? state.steps[state.stepIndex] : null;
}

function previewState() {
  // While stepping through an explanation, show the grid as it is before the current step.
  if (state.stepMode !== "explain" || !state.steps) return {};
  const g = state.game, n = g.n;
  const values = g.values.slice();
  const gone = new Set();
  for (const s of state.steps.slice(0, state.stepIndex)) {
    for (const [r, c, d] of s.placements) values[(r - 1) * n + c - 1] = d;
    for (const [r, c, d] of s.eliminations) gone.add(`${(r - 1) * n + c - 1}:${d}`);
  }
  const marks = values.map((v, i) => {
    if (v) return 0;
    let m = candidatesOf(g.geo, values, i);
    for (let d = 1; d <= n; d++) if (gone.has(`${i}:${d}`)) m &= ~bit(d);
    return m;
  });
  return { values, marks };
}

function render() {
  const g = state.game;
  if (!g) return;
  board.draw({
    game: g, selected: state.selected, multi: state.multi, numbers: state.settings.numbers,
    showMistakes: state.settings.mistakes, peers: state.settings.peers,
    step: currentStep() && gradedStep(currentStep()).step, paused: state.paused,
    kinds: kindsOf(g), penMode: state.penMode, outline: state.settings.outline,
    smallMarks: state.settings.smallMarks, ...previewState(),
  });
  for (const btn of $("pad").querySelectorAll("button[data-digit]")) {
    const d = Number(btn.dataset.digit);
    const left = g.remaining(d);
    btn.querySelector("small").textContent = left > 0 ? left : "";
    btn.title = `${left > 0 ? left : "none"} left`;
    btn.classList.toggle("done", left <= 0);
    btn.firstChild.textContent = symbolOf(d, g.n, state.settings.numbers);
  }
  $("pad").classList.toggle("notes", state.notes);
  $("pad").dataset.mode = currentMode();
  $("mode-label").textContent = { digit: "Digits", corner: "Corner marks", centre: "Centre marks",
    colour: "Colours", pen: "Pen" }[currentMode()];
  $("btn-notes").setAttribute("aria-pressed", String(state.notes && !state.penMode));
  $("btn-pen").setAttribute("aria-pressed", String(state.penMode));
  const corner = state.markKind === "corner";
  $("kind-label").textContent = corner ? "Corner" : "Centre";
  unavailable($("btn-undo"), !g.undoStack.length);
  unavailable($("btn-redo"), !g.redoStack.length);
  const level = g.meta.difficulty ? ` · ${g.meta.difficulty}` : "";
  const kind = g.geo.hasRules ? ` ${variantName(g.geo)}` : `${g.geo.regions ? " Jigsaw" : ""}${g.geo.diagonals ? " X" : ""}`;
  $("puzzle-label").textContent = `${g.n}×${g.n}${kind}${level}`;
  $("print-head").textContent = printTitle(g);
  renderAbout();
  renderRules();
  $("edit-bar").hidden = !g.meta.editing;
  renderCellMarks();
  renderTime();
}

/** The drawing and the sentences of the game's rule kinds (arrows, renban, little killers...),
 * from the server, which draws every kind (the board lays its marks under the cells' digits):
 * state.kinds = { game, svg, margins, sentences } once they arrive; the board meanwhile shows
 * the rest. */
async function loadKinds(game) {
  if (!game.geo.kinds.length) return;
  try {
    const data = await api("rules-layer", { puzzle: game.puzzleLine, ...game.geo.apiShape });
    state.kinds = { game, ...data };
    if (state.game === game) render();
  } catch (err) {
    toast(`The rules could not be drawn: ${err.message}`, true);
  }
}

/** The kinds' drawing of the current game, or null (none, or not arrived yet). */
function kindsOf(game) {
  return state.kinds && state.kinds.game === game ? state.kinds : null;
}

/** The puzzle's title and "by" its author over the board, when a link or a file named them. */
function renderAbout() {
  const { title, author } = state.game.meta;
  $("puzzle-head").hidden = !title && !author;
  $("puzzle-title").textContent = title || variantName(state.game.geo);
  $("puzzle-author").textContent = author ? `by ${author}` : "";
  $("puzzle-author").hidden = !author;
}

/** The puzzle's rules in words, under the board: the setter's own text when the puzzle came
 * with one, then sudokit's sentence for every rule it reads (every kind has one: jigsaw and
 * Sudoku-X too). Plain Sudoku without a setter's text shows none: its rule is known, and on a
 * 360x640 phone the line would push the hint box off the screen. A text longer than a few
 * lines is cut short until the player asks for all of it. */
function renderRules() {
  const g = state.game;
  const kinds = kindsOf(g);
  const sentences = [...rulesText(g.geo), ...(kinds ? kinds.sentences : [])];
  const setter = g.meta.ruleset || "";
  const plain = !g.geo.hasRules && !g.geo.regions && !g.geo.diagonals;
  $("rules").hidden = plain && !setter;
  const key = JSON.stringify([setter, sentences, state.rulesOpen]);
  if ($("rules").dataset.key === key) return;
  $("rules").dataset.key = key;
  $("rules-setter").textContent = setter;
  $("rules-setter").hidden = !setter;
  $("rules-words").textContent = sentences.join(" ");
  $("rules-words").classList.toggle("muted", !!setter);
  fitRules();
}

/** Cut the rules to a few lines, with a button to show them all, when they are longer. */
function fitRules() {
  const body = $("rules-body"), more = $("rules-more");
  body.classList.add("clamped");
  const long = body.scrollHeight > body.clientHeight + 2;
  body.classList.toggle("clamped", long && !state.rulesOpen);
  more.hidden = !long;
  more.textContent = state.rulesOpen ? "Show less" : "Show all rules";
  more.setAttribute("aria-expanded", String(state.rulesOpen));
}

/** For 10x10 and up, the selected cell's candidates in full size under the board (they are
 * tiny in the grid on a phone). */
function renderCellMarks() {
  const g = state.game, sel = state.selected;
  const box = $("cell-marks");
  box.hidden = g.n <= 9 || sel == null || !!g.values[sel];
  if (box.hidden) return;
  const marks = digitsOf(g.marks[sel]).map((d) => symbolOf(d, g.n, state.settings.numbers));
  const r = Math.floor(sel / g.n) + 1, c = (sel % g.n) + 1;
  box.textContent = `r${r}c${c}: ${marks.length ? marks.join(" ") : "no candidates marked"}`;
}

function renderTime() {
  const g = state.game;
  $("time").textContent = formatTime(g ? g.elapsed : 0);
  // Hidden (the setting), the time still counts; the button still pauses.
  $("time").hidden = !!state.settings.hideTimer;
  $("timer-name").textContent = state.settings.hideTimer ? "Pause" : "Pause, time";
  $("timer").setAttribute("aria-pressed", String(state.paused));
  $("timer-icon").setAttribute("d", state.paused || (g && g.finished)
    ? "M8 5v14l11-7z" : "M8 5h3v14H8zM13 5h3v14h-3z");
}

function buildPad() {
  const n = state.game.n;
  const pad = $("pad");
  pad.replaceChildren();
  for (let d = 1; d <= n; d++) {
    const b = document.createElement("button");
    b.type = "button";
    b.dataset.digit = String(d);
    const left = document.createElement("small");
    left.setAttribute("aria-hidden", "true"); // said by the title: "5 left"
    b.append(document.createTextNode(SYMBOLS[d - 1]), left);
    b.addEventListener("click", () => input(d));
    pad.append(b);
  }
  const cols = { 4: 4, 6: 6, 8: 4, 9: 5, 12: 6, 16: 8 }[n] || Math.ceil(Math.sqrt(n)) * 2;
  pad.style.setProperty("--pad-cols", cols);
  pad.style.setProperty("--pad-cols-phone", n <= 9 ? n : Math.ceil(n / 2));
  pad.classList.toggle("dense", n > 9);
}

// -- actions --------------------------------------------------------------------------------

function select(cell) {
  state.selected = cell;
  state.multi.clear();
  render();
}

function changed() {
  const g = state.game;
  if (state.stepMode === "hint") closeSteps();
  // The rule kinds are checked against the solution: a full grid that keeps the other rules
  // fetches it first, then looks again.
  if (!g.finished && !g.meta.editing && g.geo.kinds.length && !g.solution && !g.values.includes(0)
    && conflicts(g.geo, g.values).size === 0) {
    ensureSolution().then(() => state.game === g && changed(), () => {});
  }
  if (!g.finished && !g.meta.editing && g.isComplete()) {
    g.finished = true;
    if (g.meta.revealed) announce("The solution is shown: this game does not count as solved.");
    else if (g.meta.won) toast("Solved again: a game counts once in the statistics.");
    else {
      g.meta.won = true; // undo then redo completes the grid again: the same win, not another
      recordWin(g);
      showBanner();
    }
  }
  // The last empty cell filled, and the grid is not a solution: say so (the flags show where).
  const full = !g.values.includes(0);
  const pending = g.geo.kinds.length && !g.solution; // the solution is on its way (above)
  if (full && !state.full && !g.finished && !g.meta.editing && !pending) {
    const wrong = g.mistakes().size;
    if (g.meta.setter && wrong && !conflicts(g.geo, g.values).size) {
      // Every rule sudokit reads holds, yet the grid is not the setter's: say where to look.
      toast(`Every cell is filled and keeps the rules, but ${wrong} digit${wrong > 1 ? "s differ" : " differs"} from the setter's solution: Show mistakes marks ${wrong > 1 ? "them" : "it"}.`, true);
    } else toast("Every cell is filled, but some digits break a rule: they are flagged in red.", true);
  }
  state.full = full;
  if (g.meta.editing) checkOwn();
  save();
  render();
}

/** Put d in the selected cells as the current mode says, or as *as* says ("corner",
 * "centre" or "colour": Shift, Ctrl or Ctrl+Shift with the digit). */
function input(d, { as = null } = {}) {
  const g = state.game;
  if (!g || state.paused || g.finished) return;
  if (state.selected == null) {
    toast("Select a cell first");
    return;
  }
  const cells = selectedCells();
  const cell = cells[0];
  // In pen mode the digit keys place digits, as in digit mode.
  const mode = as || (state.penMode ? "digit" : currentMode());
  if (mode === "colour") {
    if (d > COLOURS.length) return;
    if (g.colourAll(cells, d)) {
      announce(`${cells.length > 1 ? `${cells.length} cells` : cellName(cell)}: ${g.colours[cell] ? COLOURS[d - 1] : "no colour"}`);
      changed();
    }
    return;
  }
  const marking = mode !== "digit";
  const kind = mode === "corner" ? "corner" : "candidates";
  const ok = marking
    ? g.toggleMarks(cells, d, kind)
    : g.placeAll(cells, d, { autoRemove: state.settings.autoRemove });
  if (ok) {
    if (state.settings.mistakes && !g.solution) ensureSolution().then(render, () => {});
    const shown = symbolOf(d, g.n, state.settings.numbers);
    const where = cells.length > 1 ? `${cells.length} cells` : cellName(cell);
    if (marking) {
      const has = (kind === "corner" ? g.corner : g.marks)[cell] & bit(d);
      const what = kind === "corner" ? "corner mark" : "candidate";
      announce(`${where}: ${what} ${shown} ${has ? "added" : "removed"}`);
    } else announce(`${where}: ${g.values[cell] ? shown : "cleared"}`);
    changed();
  }
}

/** Switch what notes mode writes: candidates (centre) or corner marks. The button turns
 * notes mode on too (it shows pressed); Shift+Space leaves it as it is and says so. */
function toggleKind({ notesOn = true } = {}) {
  state.markKind = state.markKind === "corner" ? "candidates" : "corner";
  state.colourMode = false;
  state.penMode = false;
  if (notesOn) state.notes = true;
  const which = state.markKind === "corner" ? "corner marks" : "centre marks";
  announce(state.notes ? `Notes: ${which}` : `Notes will be ${which} (notes are off)`);
  render();
}

/** Delete or Backspace: clear what the current mode puts (digits with their marks, corner
 * marks, centre marks or colours) from the selected cells. In pen mode: the pen lines at the
 * selected cells (through them or along their edges), or every pen line when no cell is
 * selected (Escape deselects). */
function erase() {
  const g = state.game;
  if (state.paused || g.finished) return;
  if (state.penMode) {
    if (g.clearPen(selectedCells())) {
      announce(state.selected == null ? "Every pen line erased" : "Pen lines of the selected cells erased");
      changed();
    }
    return;
  }
  if (state.selected == null) return;
  const mode = currentMode();
  const cells = selectedCells();
  const ok = mode === "digit" ? g.placeAll(cells, 0) : g.clearAll(cells, mode);
  if (ok) {
    const what = { digit: "cleared", corner: "corner marks cleared", centre: "centre marks cleared",
      colour: "colour cleared" }[mode];
    announce(`${cells.length > 1 ? `${cells.length} cells` : cellName(state.selected)}: ${what}`);
    changed();
  }
}

function move(dr, dc) {
  const n = state.game.n;
  if (state.selected == null) return select(0);
  const cur = state.selected;
  const r = (Math.floor(cur / n) + dr + n) % n, c = ((cur % n) + dc + n) % n;
  select(r * n + c);
}

/** A button that cannot act now but keeps its place in the Tab order and the focus it has:
 * `disabled` on the focused button (Undo pressed until its history is empty, Start playing
 * while a digit is typed, Generate pressed) dropped the focus to the page's start. A screen
 * reader says "dimmed" or "unavailable"; its handler checks the state and does nothing. */
function unavailable(button, off) {
  button.setAttribute("aria-disabled", String(off));
}

function isUnavailable(button) {
  return button.getAttribute("aria-disabled") === "true";
}

// While paused the board is covered: nothing may change it unseen (undo, redo, auto notes,
// clearing notes), as typing and hints already could not.
function undo() {
  if (state.paused || !state.game.undoStack.length) return;
  if (state.game.undo()) {
    $("banner").hidden = true;
    closeSteps();
    if (state.game.meta.editing) checkOwn(); // an entered puzzle is checked again, as on redo
    save();
    render();
  }
}

function redo() {
  if (!state.paused && state.game.redo()) changed();
}

function togglePause(force) {
  const g = state.game;
  if (!g || g.finished) return;
  state.paused = force ?? !state.paused;
  render();
}

function cellName(cell) {
  const n = state.game.n;
  return `row ${Math.floor(cell / n) + 1}, column ${(cell % n) + 1}`;
}

/** Say *text* through the polite live region (screen readers read it once). */
function announce(text) {
  const region = $("announce");
  region.textContent = "";
  requestAnimationFrame(() => (region.textContent = text));
}

function showBanner() {
  const g = state.game;
  const hints = g.hinted ? ` with ${g.hinted} hint${g.hinted > 1 ? "s" : ""}` : "";
  $("banner-text").textContent = `${g.n}×${g.n} solved in ${formatTime(g.elapsed)}${hints}.`;
  $("banner").hidden = false;
  announce($("banner-text").textContent);
  $("banner-close").focus();
  renderTime();
}

// -- hints and explanations ----------------------------------------------------------------

function puzzleBody(withValues = true) {
  const g = state.game;
  const body = { puzzle: g.puzzleLine, ...g.geo.apiShape };
  if (withValues) body.values = g.values;
  return body;
}

let hintFields = null; // the fields /api/hint takes, read once from the OpenAPI

/** Whether the server's hint request has *field* (`candidates`: full lists, `notes`). */
async function hintTakes(field) {
  if (hintFields === null) {
    try {
      const doc = await (await fetch("/openapi.json")).json();
      let schema = doc.paths["/api/hint"].post.requestBody.content["application/json"].schema;
      if (schema.$ref) schema = doc.components.schemas[schema.$ref.split("/").pop()];
      hintFields = new Set(Object.keys(schema.properties || {}));
    } catch (err) {
      hintFields = new Set();
    }
  }
  return hintFields.has(field);
}

/** An explain request: the player's digits and the way the board names digits (the server
 * writes step texts with the same labels: letters for 10 and up, or numbers when the numbers
 * switch is on). */
function stepsBody() {
  return { ...puzzleBody(), labels: state.settings.numbers ? "numbers" : "symbols" };
}

/** A hint request: an explain request plus the player's centre marks, each kind in its own
 * field (see FULL LISTS AND NOTES in game.js; an empty list = none of that kind there). Full
 * lists go as `candidates`, so a removed candidate stays removed; notes go as `notes`, never
 * as candidates: the server works out the real ones there and says where the notes leave out
 * a digit the hint uses. */
async function hintBody() {
  const g = state.game;
  const body = stepsBody();
  const cells = [...g.values.keys()];
  for (const [field, has] of [["candidates", (i) => g.hasFullList(i)], ["notes", (i) => g.hasNotes(i)]]) {
    if (cells.some(has) && (await hintTakes(field))) {
      body[field] = cells.map((i) => (has(i) ? digitsOf(g.marks[i]) : []));
    }
  }
  return body;
}

async function showHint() {
  const g = state.game;
  if (!g || g.finished || state.paused) return;
  if (state.stepMode === "hint" && state.hintLevel < 3) return moreHint();
  try {
    const data = await api("hint", await hintBody());
    if (!data.step) {
      toast("Nothing left to deduce: the grid is full.");
      return;
    }
    // A step that only points at the player's mistake gives nothing away: not a hint.
    if (data.step.technique !== "Mistake") g.hinted += 1;
    state.steps = [data.step];
    state.leftOut = data.left_out || [];
    state.stepIndex = 0;
    state.stepMode = "hint";
    state.hintLevel = data.step.technique === "Mistake" ? 3 : 1;
    showStep();
    save();
  } catch (err) {
    toast(err.message, true);
  }
}

function moreHint() {
  state.hintLevel = Math.min(3, state.hintLevel + 1);
  showStep();
}

async function explainAll() {
  const g = state.game;
  if (!g || state.paused) return;
  toast("Working out the solving path…");
  try {
    const data = await api("explain", stepsBody());
    hideToast();
    if (!data.steps.length) {
      toast("Nothing to explain: the grid is full.");
      return;
    }
    state.steps = data.steps;
    state.stepIndex = 0;
    state.stepMode = "explain";
    state.hintLevel = 3;
    showStep();
  } catch (err) {
    toast(err.message, true);
  }
}

function cellList(cells) {
  return cells.map(([r, c]) => `r${r}c${c}`).join(", ");
}

/** What a graded hint shows at its level: 1 the technique and where, 2 the cells, 3 all. */
function gradedStep(step) {
  const level = state.stepMode === "hint" ? state.hintLevel : 3;
  const where = step.units && step.units.length ? step.units.join(", ") : cellList(step.cells);
  if (level === 1) {
    return {
      text: `Look for a ${step.technique} in ${where}.`,
      step: { ...step, cells: [], highlights: [], eliminations: [], placements: [], links: [] },
    };
  }
  if (level === 2) {
    const cells = step.cells.length ? step.cells : step.highlights.map(([r, c]) => [r, c]);
    return {
      text: `${step.technique} in ${where}: the cells involved are ${cellList(cells)}.`,
      step: { ...step, cells, highlights: [], eliminations: [], placements: [], links: [] },
    };
  }
  return { text: step.text, step };
}

/** Where the player's notes leave out a digit the hint uses, said as information ("" when
 * they do not): at the first level without naming cells, as the hint does not name them yet. */
function leftOutNote() {
  const left = state.stepMode === "hint" ? state.leftOut : [];
  if (!left.length) return "";
  if (state.hintLevel === 1) return "Some of your marks leave out digits that are still possible.";
  const g = state.game;
  const named = (digits) => {
    const words = digits.map((d) => symbolOf(d, g.n, state.settings.numbers));
    return words.length > 1 ? `${words.slice(0, -1).join(", ")} and ${words.at(-1)}` : words[0];
  };
  if (left.length === 1) {
    const [{ cell: [r, c], digits }] = left;
    const verb = digits.length > 1 ? "are" : "is";
    return `Your marks in r${r}c${c} leave out ${named(digits)}, which ${verb} still possible there.`;
  }
  const where = left.map(({ cell: [r, c], digits }) => `${named(digits)} in r${r}c${c}`).join("; ");
  return `Your marks leave out digits that are still possible where this hint looks: ${where}.`;
}

/** Shows the current step in the hint box and, unless *reveal* is false (a relabelling the
 * player asked for elsewhere), brings the box whole into view. */
function showStep({ reveal = true } = {}) {
  const step = currentStep();
  if (!step) return closeSteps();
  const explaining = state.stepMode === "explain";
  const shown = gradedStep(step);
  const answer = explaining || state.hintLevel >= 3;
  const moreFocused = document.activeElement === $("hint-more");
  $("hint-box").hidden = false;
  $("hint-technique").textContent = step.technique;
  $("hint-rating").textContent = step.technique === "Mistake" ? "check" : `SE ${step.rating.toFixed(1)}`;
  $("hint-text").textContent = shown.text;
  const note = leftOutNote();
  $("hint-note").textContent = note;
  $("hint-note").hidden = !note;
  $("hint-prev").hidden = !explaining;
  $("hint-next").hidden = !explaining;
  // At the first or last step Prev or Next is unavailable but keeps the focus: `disabled` on
  // the focused button dropped it to the page's start (the next Tab went to the top bar), and
  // moving it to the other button would make a further Enter go back. A screen reader says
  // "dimmed" or "unavailable"; pressing it does nothing.
  $("hint-prev").setAttribute("aria-disabled", String(state.stepIndex === 0));
  $("hint-next").setAttribute("aria-disabled", String(state.stepIndex >= state.steps.length - 1));
  $("hint-pos").textContent = explaining ? `${state.stepIndex + 1} / ${state.steps.length}` : "";
  $("hint-more").hidden = answer;
  $("hint-more").textContent = state.hintLevel === 1 ? "Show the cells" : "Show the answer";
  $("hint-apply").hidden = step.technique === "Mistake" || !answer;
  $("hint-apply").textContent = explaining ? "Apply up to here" : "Apply";
  // "Show the answer" hides itself: the focus goes on to Apply (Close for a mistake).
  if (moreFocused && answer) ($("hint-apply").hidden ? $("hint-close") : $("hint-apply")).focus();
  announce(`${step.technique}. ${shown.text}${note ? ` ${note}` : ""}`);
  render();
  if (reveal) revealHintBox();
}

// Parts the layout puts elsewhere on a phone, in the DOM, not by CSS order, so that the reading
// and focus order is the order on screen. The media queries are app.css's ("phones and narrow
// windows", "phones held sideways").
// - The hint box: in the phone's one column, after the digit pad, it opened below the bottom of
//   the screen. There it sits right under the toolbar instead (Hint, then the hint's buttons,
//   then the colours and the pad). A wide screen keeps it after the pad, beside the board.
// - A variant's rules: held sideways the board is as tall as the screen and stays in view
//   (sticky); the rules under it made it taller than the screen, so they were never seen with
//   the board's top. There they follow the digit pad, beside the board.
const NARROW = matchMedia("(max-width: 860px)");
const SIDEWAYS = matchMedia("(max-width: 860px) and (orientation: landscape) and (max-height: 620px)");

function placeParts() {
  place($("hint-box"), NARROW.matches ? document.querySelector(".panel > .toolbar") : $("pad"));
  place($("rules"), SIDEWAYS.matches ? $("pad") : $("board-help"));
}

/** Put *part* right after *after*, keeping the focus it holds (moving a node drops it). */
function place(part, after) {
  if (after.nextElementSibling === part) return;
  const focused = part.contains(document.activeElement) ? document.activeElement : null;
  after.after(part);
  if (focused) focused.focus({ preventScroll: true });
}

let scrolledFrom = null; // where the page was before revealHintBox scrolled it, while the box is open

/** Scrolls the page until the hint box is whole on screen, clear of the sticky top bar, by as
 * little as it takes: not at all when it already is (the usual case on a phone now, and always
 * beside the board). Below the screen it comes up just far enough; above it (Explain steps
 * pressed lower down the page) it comes down only as far as its bottom, which brings the board
 * above it back into view too. A box taller than the room shows its top. */
function revealHintBox() {
  const box = $("hint-box").getBoundingClientRect();
  const top = document.querySelector(".topbar").getBoundingClientRect().bottom + 8;
  const bottom = innerHeight - 8;
  if (box.top >= top && box.bottom <= bottom) return;
  if (scrolledFrom === null) scrolledFrom = scrollY;
  const still = matchMedia("(prefers-reduced-motion: reduce)").matches;
  scrollBy({ top: Math.min(box.bottom - bottom, box.top - top), behavior: still ? "auto" : "smooth" });
}

/** The shown steps' texts again, with the labels the board now shows (after the numbers
 * switch changed): the same request answers the same steps, only their texts differ. */
async function relabelSteps() {
  const mode = state.stepMode;
  const shown = state.steps;
  try {
    const data = mode === "hint" ? await api("hint", await hintBody()) : await api("explain", stepsBody());
    const fresh = mode === "hint" ? [data.step] : data.steps;
    const same = fresh && fresh.length === shown.length && fresh.every((s, i) => s && s.technique === shown[i].technique);
    if (state.steps !== shown || !same) return;
    state.steps = shown.map((s, i) => ({ ...s, text: fresh[i].text }));
    showStep({ reveal: false }); // the player is at the settings switch: the page stays put
  } catch (err) {
    toast(err.message, true);
  }
}

/** Closes the hint box. *scrollBack* (its Close and Apply buttons, Escape): if showing the box
 * scrolled the page down, the page goes back up, so the board is whole again (the box no longer
 * pushes the pad down either). Focus in the box goes to the board, where play goes on (a hidden
 * button would drop it to the page's start). */
function closeSteps({ scrollBack = false } = {}) {
  state.steps = null;
  state.leftOut = [];
  state.stepMode = null;
  state.hintLevel = 3;
  const hadFocus = $("hint-box").contains(document.activeElement);
  $("hint-box").hidden = true;
  if (hadFocus) $("board").focus({ preventScroll: true });
  if (scrollBack && scrolledFrom !== null && scrollY > scrolledFrom) {
    const still = matchMedia("(prefers-reduced-motion: reduce)").matches;
    scrollTo({ top: scrolledFrom, behavior: still ? "auto" : "smooth" });
  }
  scrolledFrom = null;
}

function applySteps() {
  const g = state.game;
  if (!state.steps) return;
  const upto = state.stepMode === "explain" ? state.stepIndex + 1 : 1;
  const steps = state.steps.slice(0, upto);
  // Steps taken from an explanation are hints too (a hint's own count was taken when asked).
  if (state.stepMode === "explain") g.hinted += steps.length;
  closeSteps({ scrollBack: true });
  g.remember();
  const before = g.undoStack.pop(); // one undo entry for the whole batch
  // An elimination must outlive the step, so the cells it removes a digit from hold full
  // lists: a player without centre marks gets every cell's filled in; otherwise the cells that
  // hold notes or nothing get theirs (notes there give way; Undo brings them back).
  const n = g.n;
  const from = steps.flatMap((s) => s.eliminations.map(([r, c]) => (r - 1) * n + c - 1));
  if (from.length) {
    const bare = !g.marks.some((m, i) => m && !g.values[i]);
    g.listCandidates(bare ? [...g.values.keys()] : from.filter((i) => !g.hasFullList(i)));
  }
  for (const s of steps) g.applyStep(s);
  g.undoStack.splice(g.undoStack.length - steps.length, steps.length, before);
  changed();
}

// -- your own puzzle -------------------------------------------------------------------------

/** A blank grid of the current shape (boxes) where the digits typed become the givens. */
function enterOwn() {
  const geo = state.game.geo;
  const n = geo.n;
  start(new Game({
    n, box: geo.box, diagonals: geo.diagonals, givens: new Array(n * n).fill(0),
    meta: { editing: true, source: "entered" },
  }));
  $("edit-status").textContent = "Type the givens of your puzzle.";
  unavailable($("edit-done"), true);
  $("board").focus({ preventScroll: true });
}

/** Check the entered puzzle while it is typed (the last answer wins). */
async function checkOwn() {
  const g = state.game;
  const line = lineOf(g.geo, g.values);
  checkOwn.line = line;
  unavailable($("edit-done"), true);
  if (!g.values.some((v) => v)) {
    $("edit-status").textContent = "Type the givens of your puzzle."; // not the last answer's
    return;
  }
  try {
    const data = await api("check", { puzzle: line, ...g.geo.apiShape });
    if (checkOwn.line !== line || state.game !== g) return;
    $("edit-status").textContent = describeStatus(data.status);
    unavailable($("edit-done"), data.status !== "unique");
  } catch (err) {
    if (checkOwn.line === line) $("edit-status").textContent = err.message;
  }
}

/** Play the entered puzzle: its digits become the givens. */
function startOwn() {
  const g = state.game;
  if (!g.meta.editing || isUnavailable($("edit-done"))) return; // not (yet) one solution
  const focused = document.activeElement === $("edit-done");
  const givens = g.values.slice();
  start(new Game({
    n: g.n, box: g.geo.box, diagonals: g.geo.diagonals, givens, meta: { source: "entered", id: g.meta.id },
  }));
  toast("Your puzzle is ready: it has exactly one solution.");
  // The edit bar is gone with the button pressed in it: the focus goes on to the board.
  if (focused) $("board").focus({ preventScroll: true });
}

// -- daily puzzle and statistics ------------------------------------------------------------

/** Today's date (UTC, so everyone has the same daily puzzle), as YYYY-MM-DD. */
function today() {
  return new Date().toISOString().slice(0, 10);
}

/** The daily puzzle: a medium 9x9 generated from the date's seed (20261124), the same for
 * everyone; a daily already begun today is resumed. */
async function dailyGame() {
  const day = today();
  const begun = readGames().map(gameOf).find((g) => g && g.meta.daily === day);
  if (begun) {
    start(begun);
    return;
  }
  const ok = await newGame({
    size: 9, difficulty: "medium", symmetry: "rot180", seed: Number(day.replaceAll("-", "")),
  });
  if (ok) {
    state.game.meta.daily = day;
    save();
    render();
  }
}

function readStats() {
  try {
    const s = JSON.parse(localStorage.getItem(STATS_KEY) || "null");
    if (s && s.levels && Array.isArray(s.days)) return s;
  } catch (err) {
    /* start afresh */
  }
  return { levels: {}, days: [] };
}

/** Count a win (not a shown solution) under its level, with its time and the day. */
function recordWin(g) {
  const stats = readStats();
  const level = `${g.n}×${g.n} ${g.meta.difficulty || "unrated"}`;
  const row = stats.levels[level] || { solved: 0, total: 0, best: null };
  row.solved += 1;
  row.total += g.elapsed;
  row.best = row.best == null ? g.elapsed : Math.min(row.best, g.elapsed);
  stats.levels[level] = row;
  if (!stats.days.includes(today())) stats.days.push(today());
  stats.days = stats.days.slice(-400);
  try {
    localStorage.setItem(STATS_KEY, JSON.stringify(stats));
  } catch (err) {
    /* storage full: the win is not recorded */
  }
}

/** Consecutive days with a win, ending today or yesterday; and the longest such run. */
function streaks(days) {
  const set = new Set(days);
  const dayMs = 86400000;
  const iso = (t) => new Date(t).toISOString().slice(0, 10);
  let best = 0;
  for (const d of set) {
    if (set.has(iso(Date.parse(d) - dayMs))) continue; // not the start of a run
    let k = 0;
    while (set.has(iso(Date.parse(d) + k * dayMs))) k++;
    best = Math.max(best, k);
  }
  let t = Date.parse(today());
  if (!set.has(iso(t))) t -= dayMs;
  let current = 0;
  while (set.has(iso(t - current * dayMs))) current++;
  return { current, best };
}

function openStats() {
  const stats = readStats();
  const body = $("stats-body");
  body.replaceChildren();
  const levels = Object.keys(stats.levels).sort();
  for (const level of levels) {
    const row = stats.levels[level];
    const tr = document.createElement("tr");
    for (const text of [level, row.solved, formatTime(row.best), formatTime(row.total / row.solved)]) {
      const td = document.createElement("td");
      td.textContent = String(text);
      tr.append(td);
    }
    body.append(tr);
  }
  if (!levels.length) {
    const tr = document.createElement("tr");
    const td = document.createElement("td");
    td.colSpan = 4;
    td.textContent = "No puzzle solved yet.";
    tr.append(td);
    body.append(tr);
  }
  const { current, best } = streaks(stats.days);
  $("stats-streak").textContent = `Streak: ${current} day${current === 1 ? "" : "s"} · longest ${best}`;
  openDialog($("dlg-stats"));
}

// -- dialogs --------------------------------------------------------------------------------

function closeBanner() {
  $("banner").hidden = true;
  $("board").focus({ preventScroll: true });
}

/** The title of a printed game: its own and its author when it has them, else its kind, size
 * and difficulty. */
function printTitle(g) {
  if (g.meta.title) return g.meta.author ? `${g.meta.title} by ${g.meta.author}` : g.meta.title;
  const level = g.meta.difficulty ? ` · ${g.meta.difficulty}` : "";
  return `${variantName(g.geo)} ${g.n}×${g.n}${level}`;
}

/** The most characters of a setter's rules text a print link carries (the server reads a
 * request head of 16 kB; a text is seldom near this). */
const PRINT_RULES = 2000;

/** The server's PDF of this game: the same page `sudokit print` makes, with every constraint. */
function printUrl(g) {
  const shape = g.geo.apiShape;
  const q = new URLSearchParams({ puzzle: g.puzzleLine, title: g.meta.title || printTitle(g) });
  if (g.meta.author) q.set("author", g.meta.author);
  if (g.meta.ruleset) {
    const text = g.meta.ruleset;
    q.set("ruleset", text.length > PRINT_RULES ? `${text.slice(0, PRINT_RULES - 1)}…` : text);
  }
  if (shape.regions) q.set("regions", shape.regions);
  else q.set("box", shape.box);
  if (g.geo.diagonals) q.set("diagonals", "true");
  if (g.geo.hasRules) q.set("rules", JSON.stringify(g.geo.rules));
  if (g.meta.difficulty) q.set("difficulty", g.meta.difficulty);
  return `/api/print.pdf?${q}`;
}

/** One line about a saved game: size, kind, difficulty, progress, time, last played. */
function describeGame(entry, g) {
  const open = g.givens.filter((v) => !v).length;
  const done = g.values.filter((v, i) => v && !g.givens[i]).length;
  const pct = open ? Math.round((100 * done) / open) : 100;
  const kind = g.geo.hasRules ? ` ${variantName(g.geo)}` : `${g.geo.regions ? " jigsaw" : ""}${g.geo.diagonals ? " X" : ""}`;
  const level = g.meta.difficulty ? ` · ${g.meta.difficulty}` : "";
  const status = g.finished ? (g.meta.revealed ? "solution shown" : "solved") : `${pct}% done`;
  const when = new Date(entry.updated).toLocaleString([], { dateStyle: "short", timeStyle: "short" });
  const name = g.meta.title ? `${g.meta.title}${g.meta.author ? ` by ${g.meta.author}` : ""} · ` : "";
  return `${name}${g.n}×${g.n}${kind}${level} · ${status} · ${formatTime(g.elapsed)} · ${when}`;
}

function openGames() {
  save();
  const list = $("games-list");
  list.replaceChildren();
  for (const entry of readGames()) {
    const g = gameOf(entry);
    if (!g) continue;
    const li = document.createElement("li");
    li.dataset.id = entry.id;
    const text = document.createElement("span");
    text.className = "game-line";
    text.textContent = describeGame(entry, g);
    if (entry.id === state.game.meta.id && !g.finished) text.textContent += " · playing"; // not once solved
    const button = (act, label, cls) => {
      const b = document.createElement("button");
      b.type = "button";
      b.className = cls;
      b.dataset.act = act;
      b.textContent = label;
      b.setAttribute("aria-label", `${label} ${text.textContent}`);
      return b;
    };
    li.append(text, button("resume", "Resume", "btn small primary"), button("delete", "Delete", "btn small"));
    list.append(li);
  }
  openDialog($("dlg-games"));
}

function onGamesClick(ev) {
  const btn = ev.target.closest("button[data-act]");
  if (!btn) return;
  const id = btn.closest("li").dataset.id;
  if (btn.dataset.act === "resume") {
    const entry = readGames().find((e) => e.id === id);
    const g = entry && gameOf(entry);
    $("dlg-games").close();
    if (g) start(g);
    return;
  }
  if (!confirm("Delete this saved game? It cannot be brought back.")) return;
  deleteGame(id);
  if (id === state.game.meta.id) state.game.meta.id = newId(); // the game on screen stays saved
  $("dlg-games").close();
  openGames();
}

function syncDifficulty() {
  const big = Number($("new-size").value) > 9;
  $("new-difficulty").disabled = big;
  $("new-difficulty").title = big ? "difficulty targets are for sizes up to 9×9" : "";
}

let info = null; // the server's /api/info (variants its generator takes, its limits), once

async function serverInfo() {
  if (!info) {
    try {
      info = await (await fetch("/api/info")).json();
    } catch (err) {
      return null; // offline: generating fails with its own message
    }
  }
  return info;
}

/** The seconds the server gives one generation (its time limit), or null when unknown. */
async function timeLimit() {
  const got = await serverInfo();
  return got && got.limits && got.limits.timeout ? got.limits.timeout : null;
}

/** Say beforehand when the dialog's choice may take long: a 16x16 with variant rules (a
 * killer takes 10-25 s on a loaded 2-core machine) comes near the server's limit. */
async function syncNewNote() {
  const big = Number($("new-size").value) >= 16;
  const rules = document.querySelectorAll("#new-variants input[data-variant]:checked").length > 0;
  const note = $("new-note");
  note.hidden = !(big && rules);
  if (note.hidden) return;
  const limit = await timeLimit();
  note.textContent = `A 16×16 with variant rules can take many seconds to generate${limit ? `: the server stops after ${limit} s` : ""}.`;
}

/** Switch off the dialog's variant switches the server cannot generate. */
async function syncVariants() {
  const got = await serverInfo();
  if (!got) return;
  const served = got.variants || [];
  for (const box of document.querySelectorAll("#new-variants input[data-variant]")) {
    const ok = served.includes(box.dataset.variant);
    box.disabled = !ok;
    if (!ok) box.checked = false;
    box.closest("label").title = ok ? "" : "this server does not generate these";
  }
}

function openNew() {
  syncVariants();
  const g = state.game;
  if (g && $("new-size").querySelector(`option[value="${g.n}"]`)) $("new-size").value = String(g.n);
  syncDifficulty();
  syncNewNote();
  $("new-error").hidden = true;
  openDialog($("dlg-new"));
}

async function exportText() {
  const g = state.game;
  const withMine = $("export-progress").checked;
  const puzzle = withMine ? lineOf(g.geo, g.values) : g.puzzleLine;
  try {
    const body = { puzzle, ...g.geo.apiShape, to: $("export-format").value };
    const meta = Object.fromEntries(META_KEYS.filter((k) => g.meta[k]).map((k) => [k, g.meta[k]]));
    if (Object.keys(meta).length) body.meta = meta;
    if (g.meta.setter && g.solution) body.solution = lineOf(g.geo, g.solution);
    const data = await api("convert", body);
    $("export-text").value = data.text;
  } catch (err) {
    $("export-text").value = err.message;
  }
}

/** The clipboard refused the link (no permission, an insecure page): show it in a dialog, in
 * a read-only field, focused and selected, for the player to copy. A toast went away after
 * 2.6 s and let taps through, so the link could be neither selected nor copied. Closing
 * returns the focus to Share link, as every dialog here does. */
function showShareLink(url) {
  const field = $("share-url");
  field.value = url;
  openDialog($("dlg-share"));
  field.focus();
  field.setSelectionRange(0, url.length); // select() alone leaves nothing selected on iOS
  field.scrollLeft = 0; // the link's start in view: where it says which site it opens
}

/** Open *dialog* as a modal. A toast on screen goes: it would stay under the backdrop, dimmed,
 * and out of a screen reader's reach (a modal dialog makes the page outside it inert). */
function openDialog(dialog) {
  hideToast();
  dialog.showModal();
}

/** A short message at the foot of the screen (a polite live region). While a dialog is open
 * it shows in the dialog, above its backdrop, where a screen reader reaches it ("Copied"). */
function toast(message, error = false) {
  const t = $("toast");
  const host = document.querySelector("dialog[open]") || document.body;
  if (t.parentElement !== host) host.append(t);
  t.textContent = message;
  t.classList.toggle("error", error);
  t.hidden = false;
  clearTimeout(toast.timer);
  toast.timer = setTimeout(() => (t.hidden = true), error ? 5000 : 2600);
}

function hideToast() {
  $("toast").hidden = true;
}

function applyTheme() {
  const dark = state.settings.theme
    ? state.settings.theme === "dark"
    : matchMedia("(prefers-color-scheme: dark)").matches;
  document.documentElement.dataset.theme = dark ? "dark" : "light";
  $("btn-theme").setAttribute("aria-pressed", String(dark));
}

// -- keyboard -------------------------------------------------------------------------------

/** The digit a key places: only the board alphabet's own keys (1-9, then letters) count;
 * Shift+digit (a candidate) is read from the key's position. Every other key answers 0. */
function digitFromKey(ev) {
  const n = state.game.n;
  let ch = ev.key.length === 1 ? ev.key.toUpperCase() : "";
  if (ev.shiftKey && /^Digit[1-9]$/.test(ev.code)) ch = ev.code.slice(5);
  if (!ch) return 0;
  const d = SYMBOLS.indexOf(ch) + 1;
  return d >= 1 && d <= n ? d : 0;
}

/** Elements that take typed text: keys there are never board input. */
function takesText(target) {
  if (!target || !target.tagName) return false;
  if (target.isContentEditable || target.tagName === "TEXTAREA" || target.tagName === "SELECT") return true;
  return target.tagName === "INPUT"
    && !["checkbox", "radio", "button", "submit", "reset", "range", "color"].includes(target.type);
}

function onKey(ev) {
  if (!state.game || ev.defaultPrevented) return;
  if (document.querySelector("dialog[open]")) return;
  if (takesText(ev.target)) return;
  // On a button or switch, Space and Enter keep their meaning: they activate it.
  const onControl = ev.target !== $("board") && !!ev.target.closest
    && !!ev.target.closest("button, input, a, summary, [role=button]");
  const ctrl = ev.ctrlKey || ev.metaKey;
  if (ctrl && ev.key.toLowerCase() === "z") {
    ev.preventDefault();
    return ev.shiftKey ? redo() : undo();
  }
  if (ctrl && ev.key.toLowerCase() === "y") {
    ev.preventDefault();
    return redo();
  }
  if (ctrl && !ev.altKey && ev.key.toLowerCase() === "a" && !onControl) {
    ev.preventDefault();
    if (state.paused) return;
    const all = [...state.game.values.keys()];
    if (state.selected == null) state.selected = 0;
    state.multi = new Set(all.filter((c) => c !== state.selected));
    return render();
  }
  // Ctrl+digit: a centre mark; Ctrl+Shift+digit: a colour (read from the key's position).
  if (ctrl && !ev.altKey && /^Digit[1-9]$/.test(ev.code)) {
    ev.preventDefault();
    const d = Number(ev.code.slice(5));
    if (ev.shiftKey) return input(d, { as: "colour" });
    if (d <= state.game.n) input(d, { as: "centre" });
    return;
  }
  if (ctrl || ev.altKey) return;
  const arrows = { ArrowUp: [-1, 0], ArrowDown: [1, 0], ArrowLeft: [0, -1], ArrowRight: [0, 1] };
  if (arrows[ev.key]) {
    ev.preventDefault();
    if (state.paused) return;
    // Shift+arrow extends the selection to the cells passed over.
    if (state.penMode && ev.shiftKey && state.selected != null) {
      const from = state.selected;
      move(...arrows[ev.key]);
      return penKey(from, state.selected);
    }
    const keep = ev.shiftKey && state.selected != null ? new Set([...state.multi, state.selected]) : null;
    move(...arrows[ev.key]);
    if (keep) {
      for (const c of keep) if (c !== state.selected) state.multi.add(c);
      render();
    }
    return;
  }
  // With numbers shown for 10 and up, two digits typed quickly in one cell make one number.
  if (state.settings.numbers && state.game.n > 9 && /^[0-9]$/.test(ev.key) && !ev.shiftKey
    && currentMode() !== "colour") {
    const last = state.lastDigit;
    const now = Date.now();
    const both = last ? last.d * 10 + Number(ev.key) : 0;
    if (last && last.cell === state.selected && now - last.t < 900 && both <= state.game.n) {
      ev.preventDefault();
      state.lastDigit = null;
      if (last.changed) state.game.undo();
      return input(both);
    }
    if (ev.key !== "0") {
      const before = state.game.undoStack.length;
      input(Number(ev.key));
      state.lastDigit = {
        cell: state.selected, d: Number(ev.key), t: now,
        changed: state.game.undoStack.length > before,
      };
      ev.preventDefault();
      return;
    }
  }
  if (ev.key === "Backspace" || ev.key === "Delete" || ev.key === "0") {
    ev.preventDefault();
    return erase();
  }
  if (ev.key === " ") {
    if (onControl) return;
    ev.preventDefault();
    // Shift+Space switches the kind of notes; it never turns notes mode on unseen.
    if (ev.shiftKey) return toggleKind({ notesOn: false });
    state.notes = !state.notes;
    state.colourMode = false;
    state.penMode = false;
    return render();
  }
  if (ev.key === "Escape") {
    if (!$("banner").hidden) return closeBanner();
    if (state.steps) closeSteps({ scrollBack: true });
    else if (state.multi.size) state.multi.clear();
    else state.selected = null;
    return render();
  }
  if (ev.key === "?") return showHint();
  const d = digitFromKey(ev);
  if (d) {
    ev.preventDefault();
    return input(d, { as: ev.shiftKey ? "corner" : null });
  }
  // Z, X, C, V: digit, corner, centre and colour mode (a letter that is a digit of the board
  // places it instead, above).
  const mode = { z: "digit", x: "corner", c: "centre", v: "colour" }[ev.key.toLowerCase()];
  if (mode && !ev.shiftKey) {
    ev.preventDefault();
    return setMode(mode);
  }
  // Q: pen mode on, or back to digits (SudokuPad has no key for its pen; Q is no digit of any
  // board up to 25x25).
  if (ev.key.toLowerCase() === "q" && !ev.shiftKey) {
    ev.preventDefault();
    return setMode(state.penMode ? "digit" : "pen");
  }
  if (ev.key.toLowerCase() === "p") return togglePause();
}

// -- wiring ---------------------------------------------------------------------------------

function wire() {
  document.addEventListener("keydown", onKey);
  // Safari on iOS gives a touched control its :active look (the pressed feedback that stands in
  // for the tap highlight, app.css) only on a page that listens to touches.
  document.addEventListener("touchstart", () => {}, { passive: true });
  $("btn-new").addEventListener("click", openNew);
  $("banner-new").addEventListener("click", openNew);
  $("rules-more").addEventListener("click", () => {
    state.rulesOpen = !state.rulesOpen;
    renderRules();
  });
  window.addEventListener("resize", () => state.game && fitRules()); // a turned phone: other lines
  $("banner-close").addEventListener("click", closeBanner);
  $("hint-more").addEventListener("click", moreHint);
  $("btn-games").addEventListener("click", openGames);
  $("btn-daily").addEventListener("click", dailyGame);
  $("colours").addEventListener("click", (ev) => {
    const btn = ev.target.closest("button[data-colour]");
    const g = state.game;
    if (!btn || state.paused || !selectedCells().length) return;
    const k = Number(btn.dataset.colour);
    const cells = selectedCells();
    if (k ? g.colourAll(cells, k) : cells.some((c) => g.colours[c]) && g.colourAll(cells.filter((c) => g.colours[c]), 0)) {
      changed();
    }
  });
  $("btn-full").addEventListener("click", () => {
    if (document.fullscreenElement) document.exitFullscreen();
    else document.documentElement.requestFullscreen().catch(() => toast("Full screen is not available here"));
  });
  $("btn-custom").addEventListener("click", enterOwn);
  $("edit-done").addEventListener("click", startOwn);
  $("btn-stats").addEventListener("click", openStats);
  $("new-size").addEventListener("change", () => {
    syncDifficulty();
    syncNewNote();
  });
  $("new-variants").addEventListener("change", syncNewNote);
  $("new-go").addEventListener("click", async () => {
    if (isUnavailable($("new-go"))) return; // a puzzle is being generated already
    // Cancel or Escape closes the dialog while it generates: that aborts the request.
    const cancelled = new AbortController();
    const abort = () => cancelled.abort();
    $("dlg-new").addEventListener("close", abort);
    const ok = await newGame({
      size: $("new-size").value, difficulty: $("new-difficulty").value,
      symmetry: $("new-symmetry").value, diagonals: $("new-diagonals").checked,
      jigsaw: $("new-jigsaw").checked,
      variants: [...document.querySelectorAll("#new-variants input[data-variant]:checked")]
        .map((box) => box.dataset.variant),
    }, cancelled.signal);
    $("dlg-new").removeEventListener("close", abort);
    if (ok) $("dlg-new").close();
  });
  $("btn-theme").addEventListener("click", () => {
    state.settings.theme = document.documentElement.dataset.theme === "dark" ? "light" : "dark";
    saveSettings();
    applyTheme();
  });
  $("timer").addEventListener("click", () => togglePause());
  $("btn-undo").addEventListener("click", undo);
  $("btn-redo").addEventListener("click", redo);
  $("btn-erase").addEventListener("click", erase);
  $("btn-notes").addEventListener("click", () => {
    state.notes = state.penMode ? true : !state.notes;
    state.colourMode = false;
    state.penMode = false;
    render();
  });
  $("btn-pen").addEventListener("click", () => setMode(state.penMode ? "digit" : "pen"));
  $("btn-hint").addEventListener("click", showHint);
  $("btn-kind").addEventListener("click", toggleKind);
  $("btn-explain").addEventListener("click", explainAll);
  $("hint-close").addEventListener("click", () => {
    closeSteps({ scrollBack: true });
    render();
  });
  $("hint-apply").addEventListener("click", applySteps);
  $("hint-prev").addEventListener("click", () => {
    if (!state.steps || state.stepIndex === 0) return; // aria-disabled: it stays focusable
    state.stepIndex -= 1;
    showStep();
  });
  $("hint-next").addEventListener("click", () => {
    if (!state.steps || state.stepIndex >= state.steps.length - 1) return;
    state.stepIndex += 1;
    showStep();
  });
  $("btn-auto").addEventListener("click", () => {
    if (state.game.finished || state.paused) return;
    state.game.autoCandidates();
    changed();
  });
  $("btn-clear-notes").addEventListener("click", () => {
    if (state.paused) return;
    state.game.clearMarks();
    changed();
  });
  $("btn-restart").addEventListener("click", () => {
    if (!confirm("Restart this puzzle? Your digits and notes are cleared (Undo brings them back).")) return;
    state.game.reset();
    state.game.elapsed = 0;
    $("banner").hidden = true;
    changed();
  });
  $("btn-check").addEventListener("click", async () => {
    try {
      const data = await api("check", puzzleBody(false));
      toast(describeStatus(data.status), data.status !== "unique");
    } catch (err) {
      toast(err.message, true);
    }
  });
  $("btn-solve").addEventListener("click", async () => {
    const g = state.game;
    try {
      const sol = await ensureSolution();
      g.remember();
      g.values = sol.slice();
      g.marks.fill(0);
      g.meta.revealed = true; // shown, not solved: no completion card, no win
      closeSteps();
      changed();
    } catch (err) {
      toast(err.message, true);
    }
  });
  $("btn-import").addEventListener("click", () => {
    $("import-error").hidden = true;
    openDialog($("dlg-import"));
  });
  $("import-go").addEventListener("click", async () => {
    const text = $("import-text").value;
    const box = $("import-box").value.trim() || undefined;
    try {
      const data = await api("convert", { puzzle: text, box, to: "line" });
      $("dlg-import").close();
      startConverted(data, data.from, (game) => {
        const kind = game.geo.hasRules ? `${variantName(game.geo)} ` : "";
        const name = game.meta.title ? `“${game.meta.title}”, a` : "a";
        return `Imported ${name} ${game.n}×${game.n} ${kind}puzzle (${data.from})`;
      });
    } catch (err) {
      $("import-error").textContent = err.message;
      $("import-error").hidden = false;
    }
  });
  $("btn-export").addEventListener("click", () => {
    openDialog($("dlg-export"));
    exportText();
  });
  $("export-format").addEventListener("change", exportText);
  $("export-progress").addEventListener("change", exportText);
  $("export-copy").addEventListener("click", async () => {
    try {
      await navigator.clipboard.writeText($("export-text").value);
      toast("Copied");
    } catch (err) {
      $("export-text").select();
    }
  });
  $("btn-share").addEventListener("click", async () => {
    syncUrl();
    const url = location.href;
    try {
      await navigator.clipboard.writeText(url);
      toast("Link copied: it opens this puzzle");
    } catch (err) {
      showShareLink(url);
    }
  });
  $("btn-print").addEventListener("click", () => openDialog($("dlg-print")));
  $("print-blank").addEventListener("click", () => {
    $("dlg-print").close();
    window.open(printUrl(state.game), "_blank", "noopener");
  });
  // The player's grid as it stands is the page's own print view (app.css, as Ctrl+P prints);
  // a hint or an explanation on the board goes first (its candidates and previews are not
  // the player's).
  $("print-mine").addEventListener("click", () => {
    $("dlg-print").close();
    closeSteps();
    render();
    window.print();
  });
  const opts = {
    "opt-mistakes": "mistakes", "opt-autoremove": "autoRemove", "opt-peers": "peers", "opt-numbers": "numbers",
    "opt-timer": "hideTimer", "opt-outline": "outline", "opt-small-marks": "smallMarks",
  };
  for (const [id, key] of Object.entries(opts)) {
    $(id).checked = !!state.settings[key];
    $(id).addEventListener("change", async () => {
      state.settings[key] = $(id).checked;
      saveSettings();
      if (key === "numbers" && state.steps && state.game && state.game.n > 9) relabelSteps();
      if (key === "mistakes" && state.settings.mistakes) {
        try {
          await ensureSolution();
        } catch (err) {
          toast(err.message, true);
        }
      }
      render();
    });
  }
  $("games-list").addEventListener("click", onGamesClick);
  window.addEventListener("hashchange", () => {
    if (state.game && location.hash !== shareHash(state.game)) {
      loadFromHash().then((got) => typeof got === "string" && toast(got, true));
    }
  });
  document.addEventListener("visibilitychange", () => {
    if (document.hidden) save();
  });
  // The clock counts playing time: not while the game is paused, finished or out of sight,
  // nor while a dialog covers the board (its time would count in the best times).
  setInterval(() => {
    const g = state.game;
    if (!g || g.finished || state.paused || document.hidden || document.querySelector("dialog[open]")) return;
    g.elapsed += 1;
    renderTime();
    if (g.elapsed % 5 === 0) save();
  }, 1000);
}

async function main() {
  loadSettings();
  applyTheme();
  // Until a theme is chosen with the button, the app follows the system's, also when it changes.
  matchMedia("(prefers-color-scheme: dark)").addEventListener("change", applyTheme);
  wire();
  placeParts();
  for (const layout of [NARROW, SIDEWAYS]) layout.addEventListener("change", placeParts);
  const linked = await loadFromHash();
  if (linked === true) return;
  const saved = readGames().map(gameOf).find((g) => g);
  if (saved) start(saved);
  else if (!(await newGame({ size: 9, difficulty: "easy", symmetry: "rot180" }))) {
    // Offline or failing server: an empty board still works as a scratchpad.
    start(new Game({ n: 9, box: "3x3", givens: new Array(81).fill(0) }));
  }
  // A broken link says why once the game in its place is up (generating one shows its own
  // messages, which would have replaced this one).
  if (typeof linked === "string") toast(linked, true);
}

main();

// Exposed for tests and the console.
window.sudokit = { state, Geometry };
