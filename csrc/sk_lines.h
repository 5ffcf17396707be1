/*
 * sk_lines.h -- the bulk line path of the sudokit C core: a block of bytes holding many lines
 * of the line format (one 9x9 puzzle per line) in, the output lines of `sudokit solve`,
 * `check` or `count` out, with no Python per puzzle.
 *
 * Pure C99 (no Python.h, no globals, no I/O): reentrant; a call uses only its arguments, so any
 * number of threads may run blocks at once, each with its own workspace.
 *
 * The Python line reader (sudokit.formats.line + Grid.parse) stays the specification.  This
 * parser takes only the plain, unambiguous lines and hands every other line back to the caller
 * as a note (SKL_PYTHON) without writing anything for it; the caller then reads that line the
 * Python way and writes its output where the note says.  A line is taken here when
 *
 *   - every byte of it is ASCII and not NUL (1..127): no UTF-8 question, no BOM, no NUL;
 *   - it holds no '\r' except at its end (a lone '\r' is a line break for str.splitlines);
 *   - stripped of the ASCII bytes Python's str.strip() removes (space, \t \n \v \f \r and
 *     \x1c..\x1f), it is either empty (a blank line: no record, no output), or starts with '#'
 *     (a comment: no record, no output), or starts with exactly 81 cell symbols -- '1'..'9'
 *     a digit, '.' '0' '-' '_' '*' a blank -- followed by the end of the line or by one of
 *     those white-space bytes (the rest is the line's comment, which no line output shows).
 *
 * Anything else (other sizes, separators, integers, a symbol out of place, a long or binary
 * line) is the caller's.  The geometry must be the standard 9x9 one (no variant rules).
 */
#ifndef SK_LINES_H
#define SK_LINES_H

#include <stddef.h>
#include <stdint.h>

#include "sk_solver.h"

#ifdef __cplusplus
extern "C" {
#endif

/* What a block is turned into. */
enum {
    SKL_SOLVE = 0, /* the solution line, or a marker line "!none", "!multiple", "!gave-up"   */
    SKL_CHECK = 1, /* "unique", "multiple", "none", "gave-up"                               */
    SKL_COUNT = 2  /* the count, ">N" past the shown limit N, ">=N" (the N solutions found
                      before the budget ran out: a lower bound), "!gave-up" (none found)     */
};

/* Note codes: why a line needs the caller. */
enum {
    SKL_PYTHON = 0,   /* not taken here (see above), or conflicting givens: nothing written   */
    SKL_NONE = 1,     /* no solution (its output is written)                                 */
    SKL_MULTIPLE = 2, /* several solutions (written)                                         */
    SKL_GAVE_UP = 3   /* the guess budget ran out before the answer was known (written); in
                         SKL_COUNT any unfinished count up to the shown limit               */
};

typedef struct {
    int mode;        /* SKL_SOLVE, SKL_CHECK or SKL_COUNT                                     */
    int unique;      /* SKL_SOLVE: a puzzle with several solutions gets "!multiple"          */
    uint64_t limit;  /* search limit, >= 2 (solve and check: 2; count: shown + 1)            */
    uint64_t shown;  /* SKL_COUNT: counts above it are written ">shown"                       */
    uint64_t budget; /* guesses per puzzle (0 = unbounded), as sk_search                      */
} skl_opts;

/* A line the caller must look at: read it (SKL_PYTHON) or report it (the others). */
typedef struct {
    uint64_t start, end; /* the line is data[start .. end), without its '\n'                  */
    uint64_t out;        /* output offset of the line's output (SKL_PYTHON: where it goes)    */
    uint64_t line;       /* 0-based index of the line in this call's part of the block        */
    uint64_t record;     /* records read here before this line (in this call)                 */
    uint64_t guesses;    /* guesses of its search (SKL_GAVE_UP's message names them)          */
    uint64_t count;      /* solutions found (a lower bound when it gave up)                   */
    int code;            /* SKL_PYTHON .. SKL_GAVE_UP                                          */
} skl_note;

/* Most bytes one line's output takes (81 cells and '\n'; ">=N\n" with a 64-bit N fits too). */
#define SKL_MAX_OUT_LINE 82

/*
 * skl_run -- read, search and write the lines of data[0 .. len), one line after the other.
 *
 * g, w      the standard 9x9 geometry (sk_geom_is_standard9) and a workspace for it.
 * data,len  the block; lines end with '\n'; a last line without one is a line too.
 * o         options (see skl_opts); o->limit >= 2.
 * out       receives the output lines of the lines taken here, in order; out_cap bytes.
 * notes     receives a note per line that needs the caller, in order; notes_cap entries.
 * poll      NULL or a poll callback (sk_poll_fn), passed to every search and called every
 *           256 records.
 * progress  out: *consumed = bytes of data done (always at a line end, or len), *lines and
 *           *records = lines and records done, *out_len, *nnotes = what was written.
 *
 * Stops at the end of data, or before a line when out has less than SKL_MAX_OUT_LINE bytes
 * left or notes is full (the caller calls again from *consumed).  Returns SK_COMPLETE, or
 * SK_STOPPED (the poll asked: the progress says how far it got), or SK_EINVAL (a NULL pointer,
 * g not the standard 9x9 geometry, o->limit < 2, out_cap < SKL_MAX_OUT_LINE, notes_cap 0).
 * Not validated: that w belongs to g and the buffers have the stated sizes.
 */
int skl_run(const sk_geom *g, sk_work *w, const uint8_t *data, size_t len, const skl_opts *o,
            uint8_t *out, size_t out_cap, size_t *out_len, skl_note *notes, size_t notes_cap,
            size_t *nnotes, size_t *consumed, uint64_t *lines, uint64_t *records,
            sk_poll_fn poll, void *poll_ctx);

/*
 * skl_scan_line -- the parser alone (tests and fuzzing): classify data[0 .. len), one line
 * without its '\n'.  Returns 0 for a blank or comment line, 1 for a puzzle (cells receives
 * its 81 values 0..9), -1 for a line handed back to the caller.
 */
int skl_scan_line(const uint8_t *data, size_t len, uint8_t cells[81]);

#ifdef __cplusplus
}
#endif

#endif /* SK_LINES_H */
