/*
 * sk_gen.h -- the generator's two hot loops in the C core: phase 1 (sk_fill: random digits
 * until the puzzle is unique) and phase 2 (sk_reduce, declared in sk_solver.h: the
 * clue-removal pass).
 *
 * Pure C99 like sk_solver.c: no Python.h, no globals, no I/O and no random number generator.
 * The randomness stays with the caller: sk_fill asks a draw callback for each uniform number
 * it needs, in the order the Python generator (src/sudokit/generator/fill.py, its
 * specification) draws them, so a seeded caller gets the very same puzzles from either.
 */
#ifndef SK_GEN_H
#define SK_GEN_H

#include <stdint.h>

#include "sk_solver.h"

#ifdef __cplusplus
extern "C" {
#endif

/*
 * A draw callback: one uniform number in [0, 1) (Python's random.random()), or a negative
 * value to stop the work (the caller's generator raised).
 */
typedef double (*sk_draw_fn)(void *ctx);

/* Outcomes of sk_fill (its *outcome). */
enum {
    SK_FILL_DEAD = -1,  /* a cell had no digit left: no puzzle (the caller starts again)     */
    SK_FILL_FULL = 0,   /* every cell of the order holds a digit and there are still several */
    SK_FILL_UNIQUE = 1  /* the puzzle has exactly one solution, written to solution          */
};

/*
 * The settings of a generation call (sk_fill, sk_random_puzzle).  Start from
 * SK_GEN_OPTS_DEFAULT and set the draw callback and what else differs:
 *
 *   sk_gen_opts opts = SK_GEN_OPTS_DEFAULT;
 *   opts.draw = my_draw;
 *   opts.draw_ctx = &my_rng;
 */
typedef struct {
    sk_draw_fn draw;       /* required: one uniform number per call (see sk_draw_fn) */
    void *draw_ctx;        /* its context */
    uint64_t budget;       /* guesses per search, 0 = unbounded (see sk_search); default 0 */
    uint64_t max_searches; /* the most searches the call may make: a search that would be
                              number max_searches + 1 is not made and SK_GAVE_UP is returned;
                              default UINT64_MAX (no cap) */
    int complete_orbits;   /* sk_random_puzzle only: the orbit where phase 1 reaches uniqueness
                              is completed from the solution (sk_fill's ends); default 0 */
    sk_poll_fn poll;       /* NULL (default) or a poll callback, passed to every search */
    void *poll_ctx;        /* its context */
} sk_gen_opts;

#define SK_GEN_OPTS_DEFAULT                                                                     \
    {.draw = NULL, .draw_ctx = NULL, .budget = 0, .max_searches = UINT64_MAX,                 \
     .complete_orbits = 0, .poll = NULL, .poll_ctx = NULL}

/* What a generation call reports besides its buffers and return code. */
typedef struct {
    uint64_t searches; /* the searches made (uniqueness decisions: see each function) */
    int outcome;       /* SK_FILL_UNIQUE, SK_FILL_FULL or SK_FILL_DEAD */
    int decided;       /* sk_random_puzzle only: as sk_reduce's (1: no removal search gave up) */
} sk_gen_result;

/*
 * sk_fill -- phase 1 of generation: place random digits on the cells of `order`, in order,
 * until the puzzle has exactly one solution (the non-guided path of generator/fill.py's _fill,
 * decision for decision; that Python code is the specification and the tests hold both equal).
 *
 * A digit for cell i is drawn from those no placed digit of i's units and no refuted try at i
 * excludes (ascending, index int(draw() * count)); a cell with none left draws nothing.  The
 * first batch holds ncells / 5 cells, later ones at most ncells / 10; a batch is kept when the
 * puzzle still has a solution (counted up to 2 with sk_search, opts->budget guesses; a search
 * that gives up counts as no solution) and halved when not; single digits that fail are banned from
 * their cell.  With `ends` (complete orbits), when uniqueness is reached at position k the
 * cells order[k .. ends[k-1]-1] get their digits from the solution, so symmetric clue
 * positions stay symmetric.
 *
 * g, w          as for sk_search; the geometry's units give the digits a cell may take.
 * order         norder distinct cell indices (< ncells); ends NULL or norder positions
 *               (ends[j] = the position just after the orbit of order[j], > j, <= norder).
 * opts          the draw callback, guess budget, search cap and poll (sk_gen_opts;
 *               complete_orbits is not read: ends says it).
 * puzzle        out: ncells values, the puzzle (0 = empty).
 * solution      out: ncells values, its solution when the outcome is SK_FILL_UNIQUE.
 * result        out: searches (the uniqueness decisions made, each would have been one
 *               search) and outcome (SK_FILL_UNIQUE, SK_FILL_FULL or SK_FILL_DEAD).
 *
 * Returns SK_COMPLETE (then the outcome says what came out), SK_GAVE_UP (max_searches),
 * SK_STOPPED (the poll or draw callback asked to stop), or SK_EINVAL (a NULL pointer, no draw
 * callback, a bad order or ends entry, more than SK_FILL_MAX_UNITS units).  Deterministic given
 * the draws; reentrant; no allocation (about 45 KB of stack, sized for 64x64).
 */
int sk_fill(const sk_geom *g, sk_work *w, const uint16_t *order, const uint32_t *ends,
            uint32_t norder, const sk_gen_opts *opts, uint8_t *puzzle, uint8_t *solution,
            sk_gen_result *result);

/*
 * sk_random_puzzle -- phases 1 and 2 of one generation attempt in one call: the orbits in a
 * random order (one draw each, stable sort by the draws: generator/search.py's shuffled),
 * sk_fill on their cells (complete orbits when complete_orbits), then the orbits that hold
 * digits in a new random order (one draw each) and sk_reduce over them, each orbit a group.
 * What generator/puzzle.py's _attempt does for a puzzle without pattern or clue target,
 * draw for draw, so the same seed gives the same puzzle either way.
 *
 * cells, ends   the orbits: orbit k is cells[ends[k-1] .. ends[k]-1] (orbit 0 starts at 0),
 *               norbits of them, distinct cells covering what is to be filled.
 * perm          out: norbits orbit numbers, the shuffled order (the caller's later moves use
 *               it).
 * opts          as for sk_fill, complete_orbits included; max_searches caps the searches of
 *               both phases together.
 * puzzle,       out: ncells values each: the puzzle after the removal pass, and its solution
 * solution      (when the outcome is SK_FILL_UNIQUE; otherwise the pass did not run and puzzle
 *               is what sk_fill left).
 * result        out: searches (of both phases), outcome (sk_fill's) and decided (as
 *               sk_reduce's: 1 when no removal search gave up).
 * The return value as for sk_fill; SK_GAVE_UP when max_searches ran out in either phase.
 * No allocation: about 150 KB of stack with sk_fill and sk_reduce.
 */
int sk_random_puzzle(const sk_geom *g, sk_work *w, const uint16_t *cells, const uint32_t *ends,
                     uint32_t norbits, const sk_gen_opts *opts, uint32_t *perm, uint8_t *puzzle,
                     uint8_t *solution, sk_gen_result *result);

/* Most units a geometry may have for sk_fill. */
#define SK_FILL_MAX_UNITS (8 * SK_MAX_N)

#ifdef __cplusplus
}
#endif

#endif /* SK_GEN_H */
