/*
 * sk_fast9.h - the 9x9 fast path of the sudokit C core.
 *
 * Pure C99 (no Python.h, no globals except constant tables, no I/O, no RNG): reentrant, all
 * state lives on the caller's stack. One entry point, tdoku's single-signature design: count
 * the solutions of one standard 9x9 Sudoku up to a limit, optionally writing the first one.
 */
#ifndef SK_FAST9_H
#define SK_FAST9_H

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/*
 * sk9_search - count the solutions of a standard 9x9 Sudoku, exactly, up to `limit` (64-bit).
 *
 * cells, budget, first_solution and guesses as for sk9_count below; limit >= 1, any value.
 * count          NULL or out: the number of solutions found, 0..limit (exact when 0 is
 *                returned and it is below limit; a lower bound otherwise).
 * poll           NULL, or called with poll_ctx every few thousand guesses (and never on a
 *                search that makes fewer): a nonzero return stops the search.
 *
 * Returns 0 (complete), 1 (the budget ran out), 2 (poll asked to stop), or -1, touching no
 * output, when `cells` is NULL, a value exceeds 9, or `limit` is 0.
 */
int sk9_search(const uint8_t *cells, uint64_t limit, uint64_t budget, uint8_t *first_solution,
               uint64_t *count, uint64_t *guesses, int (*poll)(void *), void *poll_ctx);

/*
 * sk9_count - count the solutions of a standard 9x9 Sudoku, exactly, up to `limit`.
 *
 * cells          81 values, row-major (cell = row * 9 + col), 0 = empty, 1..9 = given.
 * limit          stop after this many solutions (>= 1; 2 = solve and prove uniqueness);
 *                values above INT_MAX count as INT_MAX (the result is an int).
 * budget         maximum number of guesses (0 = unbounded). The search stops, with *gave_up
 *                set, rather than make guess number budget + 1.
 * first_solution NULL or 81 bytes: receives the first solution found (values 1..9); left
 *                untouched when none is found.
 * guesses        NULL or out: the guesses made. A guess is one branch explored on a copy of
 *                the state: a cell with k candidates costs k - 1 guesses (the last candidate
 *                is tried in place, as a deduction), so a bivalue cell costs one.
 * gave_up        NULL or out: 1 when the budget ran out before the search finished (then the
 *                return value is only a lower bound), else 0.
 *
 * Returns the number of solutions found, 0..limit: when it is below `limit` and *gave_up is 0
 * it is exact. Givens that contradict each other (a digit twice in a unit) give 0. Returns -1,
 * touching no output, when `cells` is NULL, a value exceeds 9, or `limit` is 0.
 * Not validated: that `cells` really holds 81 readable bytes (the length is the caller's).
 */
int sk9_count(const uint8_t *cells, uint32_t limit, uint64_t budget, uint8_t *first_solution,
              uint64_t *guesses, int *gave_up); /* sk9_search without poll, int-sized */

#ifdef __cplusplus
}
#endif

#endif /* SK_FAST9_H */
