/*
 * sk_fast9.c - the 9x9 fast path: band bitboards, propagation folded into band updates,
 * bivalue-first branching on the most constrained cell. See sk_fast9.h for the contract.
 *
 * Representation (the band bitboards of JCZSolve / fsss2, written from the idea)
 * -------------------------------------------------------------------------------
 * The grid is 3 bands of 3 rows. For every digit d (0..8) and band b (0..2) one 27-bit word
 * f[W(d, b)] = f[b*9 + d] holds the cells of the band where d is still a candidate:
 *
 *        bit:  0  1  2 |  3  4  5 |  6  7  8      row 0 of the band
 *              9 10 11 | 12 13 14 | 15 16 17      row 1
 *             18 19 20 | 21 22 23 | 24 25 26      row 2
 *              box 0      box 1      box 2
 *
 * so cell (row, col) is band row / 3, bit (row % 3) * 9 + col, i.e. cell index 27*b + bit. The
 * three cells where a row meets a box form a "minirow"; minirow j = r*3 + k is bits
 * r*9 + 3k .. r*9 + 3k + 2.
 *
 * Propagation
 * -----------
 * Inside one band a digit sits once in each of the 3 rows and once in each of the 3 boxes,
 * i.e. on a row->box permutation of minirows (6 of them). The SHRINK table maps the 9-bit set
 * of non-empty minirows to the cells of the minirows that lie on at least one such
 * permutation: one lookup does every row/box interaction of that digit in that band (hidden
 * singles in rows and boxes, pointing box -> row, claiming row -> box, and more). Folding
 * the band onto its 9 columns, a stack whose box keeps the digit in a single column locks
 * that column (LOCKED table) and the digit leaves it in the other two bands (pointing box ->
 * column; a placed digit is the special case). A row reduced to one cell while the digit is
 * not yet placed there (`urows`) is a placement: the cell leaves the other 8 digits (`ucells`
 * = unsolved cells). That is update(), run for every word that changed (a 27-bit dirty mask,
 * lowest first) until none is left; then naked singles (bit-sliced counting of candidates per
 * band), then columns(): every column keeps every digit, and hidden singles of columns are
 * placed (AVX-512 decides "nothing to do" for all nine digits at once); any change restarts
 * the loop.
 *
 * Search
 * ------
 * Branch on a bivalue cell (most branch points have one), else on a cell with the fewest
 * candidates; among those the cell with the most unsolved peers. Every alternative but the
 * last is explored on a copy of the 136-byte state, the last one in place (it is then a
 * deduction, not a guess). Counting is exact: the alternatives partition the solutions, and
 * the search only stops early at `limit` solutions or at the guess budget.
 *
 * Measured (cachegrind instruction counts and mispredicts, random isomorphs, limit 2; the
 * shared machine made wall-clock comparisons of variants useless) against the first design,
 * a plain JCZSolve-like solver branching on the first bivalue cell:
 * - most-unsolved-peers choice of the bivalue cell: guesses per puzzle on top1465 (first 400
 *   puzzles) 24 -> 14, forum_hardest_1106 (first 200) 249 -> 131, about -40% instructions;
 *   scoring by bivalue peers, by the candidates the two digits would eliminate, or with the
 *   box weighted up, was worse;
 * - band-major words (a placed cell leaves the 9 contiguous words of its band with two SSE2
 *   ANDs and a movemask): -13 to -23% instructions;
 * - update() branch-free except for placements, a local dirty mask: about -30% time (making
 *   the placement branch-free too halves the mispredicts but costs as much in instructions);
 * - givens scanned 16 at a time with SSE2: halves the mispredicts of easy puzzles.
 *
 * Tried and rejected (so nobody retries them blindly):
 * - tdoku's branching on a digit's placement pattern in a band or stack (6 permutations):
 *   without tdoku's triad constraints (a minirow holds exactly 3 digits) nothing notices 9
 *   digits crowding one minirow and the search near an empty grid goes exponential; as a
 *   fallback when no bivalue cell exists it saved ~6% of guesses on forum_hardest_1106 only;
 * - claiming column -> box, and the full column-side twin of the band shrink (band->column
 *   permutations per stack): fewer guesses, more cycles (see columns()); hidden singles in
 *   columns were rejected too while scalar, and are kept since the hardest-tail work with an
 *   AVX-512 filter (numbers at columns());
 * - comparing each word with a saved copy instead of a dirty mask (JCZSolve's CompF): twice
 *   the state to copy per guess;
 * - clearing a placed cell from the other digits lazily: a second digit could "place" itself
 *   in the same cell meanwhile; the eager clear is two vector ANDs.
 *
 * The hardest tail of 9x9 (2026-11-24: not to lose to tdoku on any set), measured as CPU time
 * against tdoku in the same process on the same random isomorphs (bench_fast9_tdoku -T, 5
 * rounds, median ratio; load 7-12, so only differences of 2% or more between variants of one
 * run count; guesses at limit 2):
 * - kept: hidden singles in columns (columns()); update passes over a snapshot of the dirty
 *   words (propagate()); the digit of a naked single found branch-free;
 * - update() fully branch-free (placement included), before the snapshot passes: 1106
 *   1.125 -> 1.168, easy50 1.089 -> 1.281; after them: 1106 0.844 -> 0.850, easy50 0.757 ->
 *   0.860, serg 0.952 -> 0.987 (limit 1): rejected again;
 * - claiming column -> box (see columns()), after the snapshot passes, applied with AVX-512
 *   masked stores: guesses 1106 148.2 -> 141.6, ratio 1106 0.844 -> 0.829, 1905 0.820 ->
 *   0.812, but hardest x100 0.816 -> 0.826 and serg 0.952 -> 0.983 / 0.920 -> 0.942: rejected;
 * - the naked-singles pass without the skip of solved bands (branch-free): every set 2-5%
 *   worse (1106 0.819 -> 0.873, serg 0.907 -> 0.961): rejected;
 * - b, d and the other bands' words of update() by arithmetic instead of tables: within the
 *   noise (1106 at limit 2: 0.849, 0.875 against 0.840, 0.816, alternating runs): not kept;
 * - limit 1 on the 11 "hardest" (1.33x of tdoku in bench_solve's draw of isomorphs, 8.55
 *   guesses against 3.27; 0.70x on 1,100 isomorphs of the same puzzles): at a bivalue cell,
 *   trying first the digit with fewer candidates left in the grid: that draw 1.39 -> 1.13,
 *   hardest x100 0.82 -> 0.63, but serg 0.914 -> 1.005 (guesses 6.45 -> 7.96) and 1106 0.84 ->
 *   0.87; the digit with more candidates first: hardest x100 0.82 -> 0.90: both rejected.
 *   The 11 puzzles alone measure the isomorphs drawn more than the solver.
 *
 * Portability: GCC/Clang builtins (ctz, popcount); BMI2 pext and SSE2 used when the compiler
 * targets them, with plain C fallbacks.
 */
#include "sk_fast9.h"

#include <limits.h>
#include <string.h>

#if defined(__BMI2__) || defined(__SSE2__)
#include <immintrin.h>
#endif
#include "sk_port.h" /* after the system headers: it may redefine builtins */

/* Word index of digit d (0..8) in band b (0..2): band-major, so a band's 9 digits are
 * contiguous (one vector AND clears a placed cell from all of them). */
#define W(d, b) ((b) * 9 + (d))

#define BAND_ALL 0x7FFFFFFu   /* 27 cells of a band */
#define COL_SPREAD 0x40201u   /* column mask c (9 bits) * this = the column in all 3 rows */

/* ---- constant tables (generated by benchmarks/c/gen_fast9_tables.py; do not edit) ---- */
/* @@BEGIN TABLES@@ */
/* minirow set (bit r*3+k) -> cells of its minirows on a row->box permutation */
static const uint32_t SHRINK[512] = {
    0x0000000u, 0x0000000u, 0x0000000u, 0x0000000u, 0x0000000u, 0x0000000u, 0x0000000u, 0x0000000u,
    0x0000000u, 0x0000000u, 0x0000000u, 0x0000000u, 0x0000000u, 0x0000000u, 0x0000000u, 0x0000000u,
    0x0000000u, 0x0000000u, 0x0000000u, 0x0000000u, 0x0000000u, 0x0000000u, 0x0000000u, 0x0000000u,
    0x0000000u, 0x0000000u, 0x0000000u, 0x0000000u, 0x0000000u, 0x0000000u, 0x0000000u, 0x0000000u,
    0x0000000u, 0x0000000u, 0x0000000u, 0x0000000u, 0x0000000u, 0x0000000u, 0x0000000u, 0x0000000u,
    0x0000000u, 0x0000000u, 0x0000000u, 0x0000000u, 0x0000000u, 0x0000000u, 0x0000000u, 0x0000000u,
    0x0000000u, 0x0000000u, 0x0000000u, 0x0000000u, 0x0000000u, 0x0000000u, 0x0000000u, 0x0000000u,
    0x0000000u, 0x0000000u, 0x0000000u, 0x0000000u, 0x0000000u, 0x0000000u, 0x0000000u, 0x0000000u,
    0x0000000u, 0x0000000u, 0x0000000u, 0x0000000u, 0x0000000u, 0x0000000u, 0x0000000u, 0x0000000u,
    0x0000000u, 0x0000000u, 0x0000000u, 0x0000000u, 0x0000000u, 0x0000000u, 0x0000000u, 0x0000000u,
    0x0000000u, 0x0000000u, 0x0000000u, 0x0000000u, 0x01c71c0u, 0x01c71c0u, 0x01c71c0u, 0x01c71c0u,
    0x0000000u, 0x0000000u, 0x0000000u, 0x0000000u, 0x01c71c0u, 0x01c71c0u, 0x01c71c0u, 0x01c71c0u,
    0x0000000u, 0x0000000u, 0x01f8038u, 0x01f8038u, 0x0000000u, 0x0000000u, 0x01f8038u, 0x01f8038u,
    0x0000000u, 0x0000000u, 0x01f8038u, 0x01f8038u, 0x0000000u, 0x0000000u, 0x01f8038u, 0x01f8038u,
    0x0000000u, 0x0000000u, 0x01f8038u, 0x01f8038u, 0x01c71c0u, 0x01c71c0u, 0x01ff1f8u, 0x01ff1f8u,
    0x0000000u, 0x0000000u, 0x01f8038u, 0x01f8038u, 0x01c71c0u, 0x01c71c0u, 0x01ff1f8u, 0x01ff1f8u,
    0x0000000u, 0x0000000u, 0x0000000u, 0x0000000u, 0x0000000u, 0x0000000u, 0x0000000u, 0x0000000u,
    0x0000000u, 0x0000000u, 0x0000000u, 0x0000000u, 0x0e00fc0u, 0x0e00fc0u, 0x0e00fc0u, 0x0e00fc0u,
    0x0000000u, 0x0000000u, 0x0000000u, 0x0000000u, 0x0000000u, 0x0000000u, 0x0000000u, 0x0000000u,
    0x0000000u, 0x0000000u, 0x0000000u, 0x0000000u, 0x0e00fc0u, 0x0e00fc0u, 0x0e00fc0u, 0x0e00fc0u,
    0x0000000u, 0x0e38007u, 0x0000000u, 0x0e38007u, 0x0000000u, 0x0e38007u, 0x0000000u, 0x0e38007u,
    0x0000000u, 0x0e38007u, 0x0000000u, 0x0e38007u, 0x0e00fc0u, 0x0e38fc7u, 0x0e00fc0u, 0x0e38fc7u,
    0x0000000u, 0x0e38007u, 0x0000000u, 0x0e38007u, 0x0000000u, 0x0e38007u, 0x0000000u, 0x0e38007u,
    0x0000000u, 0x0e38007u, 0x0000000u, 0x0e38007u, 0x0e00fc0u, 0x0e38fc7u, 0x0e00fc0u, 0x0e38fc7u,
    0x0000000u, 0x0000000u, 0x0000000u, 0x0000000u, 0x0000000u, 0x0000000u, 0x0000000u, 0x0000000u,
    0x0000000u, 0x0000000u, 0x0000000u, 0x0000000u, 0x0e00fc0u, 0x0e00fc0u, 0x0e00fc0u, 0x0e00fc0u,
    0x0000000u, 0x0000000u, 0x0000000u, 0x0000000u, 0x01c71c0u, 0x01c71c0u, 0x01c71c0u, 0x01c71c0u,
    0x0000000u, 0x0000000u, 0x0000000u, 0x0000000u, 0x0fc7fc0u, 0x0fc7fc0u, 0x0fc7fc0u, 0x0fc7fc0u,
    0x0000000u, 0x0e38007u, 0x01f8038u, 0x0ff803fu, 0x0000000u, 0x0e38007u, 0x01f8038u, 0x0ff803fu,
    0x0000000u, 0x0e38007u, 0x01f8038u, 0x0ff803fu, 0x0e00fc0u, 0x0e38fc7u, 0x0ff8ff8u, 0x0ff8fffu,
    0x0000000u, 0x0e38007u, 0x01f8038u, 0x0ff803fu, 0x01c71c0u, 0x0fff1c7u, 0x01ff1f8u, 0x0fff1ffu,
    0x0000000u, 0x0e38007u, 0x01f8038u, 0x0ff803fu, 0x0fc7fc0u, 0x0ffffc7u, 0x0fffff8u, 0x0ffffffu,
    0x0000000u, 0x0000000u, 0x0000000u, 0x0000000u, 0x0000000u, 0x0000000u, 0x0000000u, 0x0000000u,
    0x0000000u, 0x0000000u, 0x7000e38u, 0x7000e38u, 0x0000000u, 0x0000000u, 0x7000e38u, 0x7000e38u,
    0x0000000u, 0x7007007u, 0x0000000u, 0x7007007u, 0x0000000u, 0x7007007u, 0x0000000u, 0x7007007u,
    0x0000000u, 0x7007007u, 0x7000e38u, 0x7007e3fu, 0x0000000u, 0x7007007u, 0x7000e38u, 0x7007e3fu,
    0x0000000u, 0x0000000u, 0x0000000u, 0x0000000u, 0x0000000u, 0x0000000u, 0x0000000u, 0x0000000u,
    0x0000000u, 0x0000000u, 0x7000e38u, 0x7000e38u, 0x0000000u, 0x0000000u, 0x7000e38u, 0x7000e38u,
    0x0000000u, 0x7007007u, 0x0000000u, 0x7007007u, 0x0000000u, 0x7007007u, 0x0000000u, 0x7007007u,
    0x0000000u, 0x7007007u, 0x7000e38u, 0x7007e3fu, 0x0000000u, 0x7007007u, 0x7000e38u, 0x7007e3fu,
    0x0000000u, 0x0000000u, 0x0000000u, 0x0000000u, 0x0000000u, 0x0000000u, 0x0000000u, 0x0000000u,
    0x0000000u, 0x0000000u, 0x7000e38u, 0x7000e38u, 0x0000000u, 0x0000000u, 0x7000e38u, 0x7000e38u,
    0x0000000u, 0x7007007u, 0x0000000u, 0x7007007u, 0x01c71c0u, 0x71c71c7u, 0x01c71c0u, 0x71c71c7u,
    0x0000000u, 0x7007007u, 0x7000e38u, 0x7007e3fu, 0x01c71c0u, 0x71c71c7u, 0x71c7ff8u, 0x71c7fffu,
    0x0000000u, 0x0000000u, 0x01f8038u, 0x01f8038u, 0x0000000u, 0x0000000u, 0x01f8038u, 0x01f8038u,
    0x0000000u, 0x0000000u, 0x71f8e38u, 0x71f8e38u, 0x0000000u, 0x0000000u, 0x71f8e38u, 0x71f8e38u,
    0x0000000u, 0x7007007u, 0x01f8038u, 0x71ff03fu, 0x01c71c0u, 0x71c71c7u, 0x01ff1f8u, 0x71ff1ffu,
    0x0000000u, 0x7007007u, 0x71f8e38u, 0x71ffe3fu, 0x01c71c0u, 0x71c71c7u, 0x71ffff8u, 0x71fffffu,
    0x0000000u, 0x0000000u, 0x0000000u, 0x0000000u, 0x0000000u, 0x0000000u, 0x0000000u, 0x0000000u,
    0x0000000u, 0x0000000u, 0x7000e38u, 0x7000e38u, 0x0e00fc0u, 0x0e00fc0u, 0x7e00ff8u, 0x7e00ff8u,
    0x0000000u, 0x7007007u, 0x0000000u, 0x7007007u, 0x0000000u, 0x7007007u, 0x0000000u, 0x7007007u,
    0x0000000u, 0x7007007u, 0x7000e38u, 0x7007e3fu, 0x0e00fc0u, 0x7e07fc7u, 0x7e00ff8u, 0x7e07fffu,
    0x0000000u, 0x0e38007u, 0x0000000u, 0x0e38007u, 0x0000000u, 0x0e38007u, 0x0000000u, 0x0e38007u,
    0x0000000u, 0x0e38007u, 0x7000e38u, 0x7e38e3fu, 0x0e00fc0u, 0x0e38fc7u, 0x7e00ff8u, 0x7e38fffu,
    0x0000000u, 0x7e3f007u, 0x0000000u, 0x7e3f007u, 0x0000000u, 0x7e3f007u, 0x0000000u, 0x7e3f007u,
    0x0000000u, 0x7e3f007u, 0x7000e38u, 0x7e3fe3fu, 0x0e00fc0u, 0x7e3ffc7u, 0x7e00ff8u, 0x7e3ffffu,
    0x0000000u, 0x0000000u, 0x0000000u, 0x0000000u, 0x0000000u, 0x0000000u, 0x0000000u, 0x0000000u,
    0x0000000u, 0x0000000u, 0x7000e38u, 0x7000e38u, 0x0e00fc0u, 0x0e00fc0u, 0x7e00ff8u, 0x7e00ff8u,
    0x0000000u, 0x7007007u, 0x0000000u, 0x7007007u, 0x01c71c0u, 0x71c71c7u, 0x01c71c0u, 0x71c71c7u,
    0x0000000u, 0x7007007u, 0x7000e38u, 0x7007e3fu, 0x0fc7fc0u, 0x7fc7fc7u, 0x7fc7ff8u, 0x7fc7fffu,
    0x0000000u, 0x0e38007u, 0x01f8038u, 0x0ff803fu, 0x0000000u, 0x0e38007u, 0x01f8038u, 0x0ff803fu,
    0x0000000u, 0x0e38007u, 0x71f8e38u, 0x7ff8e3fu, 0x0e00fc0u, 0x0e38fc7u, 0x7ff8ff8u, 0x7ff8fffu,
    0x0000000u, 0x7e3f007u, 0x01f8038u, 0x7fff03fu, 0x01c71c0u, 0x7fff1c7u, 0x01ff1f8u, 0x7fff1ffu,
    0x0000000u, 0x7e3f007u, 0x71f8e38u, 0x7fffe3fu, 0x0fc7fc0u, 0x7ffffc7u, 0x7fffff8u, 0x7ffffffu,
};
/* column set -> the columns that are alone in their stack */
static const uint16_t LOCKED[512] = {
    0x000u, 0x001u, 0x002u, 0x000u, 0x004u, 0x000u, 0x000u, 0x000u, 0x008u, 0x009u, 0x00au, 0x008u,
    0x00cu, 0x008u, 0x008u, 0x008u, 0x010u, 0x011u, 0x012u, 0x010u, 0x014u, 0x010u, 0x010u, 0x010u,
    0x000u, 0x001u, 0x002u, 0x000u, 0x004u, 0x000u, 0x000u, 0x000u, 0x020u, 0x021u, 0x022u, 0x020u,
    0x024u, 0x020u, 0x020u, 0x020u, 0x000u, 0x001u, 0x002u, 0x000u, 0x004u, 0x000u, 0x000u, 0x000u,
    0x000u, 0x001u, 0x002u, 0x000u, 0x004u, 0x000u, 0x000u, 0x000u, 0x000u, 0x001u, 0x002u, 0x000u,
    0x004u, 0x000u, 0x000u, 0x000u, 0x040u, 0x041u, 0x042u, 0x040u, 0x044u, 0x040u, 0x040u, 0x040u,
    0x048u, 0x049u, 0x04au, 0x048u, 0x04cu, 0x048u, 0x048u, 0x048u, 0x050u, 0x051u, 0x052u, 0x050u,
    0x054u, 0x050u, 0x050u, 0x050u, 0x040u, 0x041u, 0x042u, 0x040u, 0x044u, 0x040u, 0x040u, 0x040u,
    0x060u, 0x061u, 0x062u, 0x060u, 0x064u, 0x060u, 0x060u, 0x060u, 0x040u, 0x041u, 0x042u, 0x040u,
    0x044u, 0x040u, 0x040u, 0x040u, 0x040u, 0x041u, 0x042u, 0x040u, 0x044u, 0x040u, 0x040u, 0x040u,
    0x040u, 0x041u, 0x042u, 0x040u, 0x044u, 0x040u, 0x040u, 0x040u, 0x080u, 0x081u, 0x082u, 0x080u,
    0x084u, 0x080u, 0x080u, 0x080u, 0x088u, 0x089u, 0x08au, 0x088u, 0x08cu, 0x088u, 0x088u, 0x088u,
    0x090u, 0x091u, 0x092u, 0x090u, 0x094u, 0x090u, 0x090u, 0x090u, 0x080u, 0x081u, 0x082u, 0x080u,
    0x084u, 0x080u, 0x080u, 0x080u, 0x0a0u, 0x0a1u, 0x0a2u, 0x0a0u, 0x0a4u, 0x0a0u, 0x0a0u, 0x0a0u,
    0x080u, 0x081u, 0x082u, 0x080u, 0x084u, 0x080u, 0x080u, 0x080u, 0x080u, 0x081u, 0x082u, 0x080u,
    0x084u, 0x080u, 0x080u, 0x080u, 0x080u, 0x081u, 0x082u, 0x080u, 0x084u, 0x080u, 0x080u, 0x080u,
    0x000u, 0x001u, 0x002u, 0x000u, 0x004u, 0x000u, 0x000u, 0x000u, 0x008u, 0x009u, 0x00au, 0x008u,
    0x00cu, 0x008u, 0x008u, 0x008u, 0x010u, 0x011u, 0x012u, 0x010u, 0x014u, 0x010u, 0x010u, 0x010u,
    0x000u, 0x001u, 0x002u, 0x000u, 0x004u, 0x000u, 0x000u, 0x000u, 0x020u, 0x021u, 0x022u, 0x020u,
    0x024u, 0x020u, 0x020u, 0x020u, 0x000u, 0x001u, 0x002u, 0x000u, 0x004u, 0x000u, 0x000u, 0x000u,
    0x000u, 0x001u, 0x002u, 0x000u, 0x004u, 0x000u, 0x000u, 0x000u, 0x000u, 0x001u, 0x002u, 0x000u,
    0x004u, 0x000u, 0x000u, 0x000u, 0x100u, 0x101u, 0x102u, 0x100u, 0x104u, 0x100u, 0x100u, 0x100u,
    0x108u, 0x109u, 0x10au, 0x108u, 0x10cu, 0x108u, 0x108u, 0x108u, 0x110u, 0x111u, 0x112u, 0x110u,
    0x114u, 0x110u, 0x110u, 0x110u, 0x100u, 0x101u, 0x102u, 0x100u, 0x104u, 0x100u, 0x100u, 0x100u,
    0x120u, 0x121u, 0x122u, 0x120u, 0x124u, 0x120u, 0x120u, 0x120u, 0x100u, 0x101u, 0x102u, 0x100u,
    0x104u, 0x100u, 0x100u, 0x100u, 0x100u, 0x101u, 0x102u, 0x100u, 0x104u, 0x100u, 0x100u, 0x100u,
    0x100u, 0x101u, 0x102u, 0x100u, 0x104u, 0x100u, 0x100u, 0x100u, 0x000u, 0x001u, 0x002u, 0x000u,
    0x004u, 0x000u, 0x000u, 0x000u, 0x008u, 0x009u, 0x00au, 0x008u, 0x00cu, 0x008u, 0x008u, 0x008u,
    0x010u, 0x011u, 0x012u, 0x010u, 0x014u, 0x010u, 0x010u, 0x010u, 0x000u, 0x001u, 0x002u, 0x000u,
    0x004u, 0x000u, 0x000u, 0x000u, 0x020u, 0x021u, 0x022u, 0x020u, 0x024u, 0x020u, 0x020u, 0x020u,
    0x000u, 0x001u, 0x002u, 0x000u, 0x004u, 0x000u, 0x000u, 0x000u, 0x000u, 0x001u, 0x002u, 0x000u,
    0x004u, 0x000u, 0x000u, 0x000u, 0x000u, 0x001u, 0x002u, 0x000u, 0x004u, 0x000u, 0x000u, 0x000u,
    0x000u, 0x001u, 0x002u, 0x000u, 0x004u, 0x000u, 0x000u, 0x000u, 0x008u, 0x009u, 0x00au, 0x008u,
    0x00cu, 0x008u, 0x008u, 0x008u, 0x010u, 0x011u, 0x012u, 0x010u, 0x014u, 0x010u, 0x010u, 0x010u,
    0x000u, 0x001u, 0x002u, 0x000u, 0x004u, 0x000u, 0x000u, 0x000u, 0x020u, 0x021u, 0x022u, 0x020u,
    0x024u, 0x020u, 0x020u, 0x020u, 0x000u, 0x001u, 0x002u, 0x000u, 0x004u, 0x000u, 0x000u, 0x000u,
    0x000u, 0x001u, 0x002u, 0x000u, 0x004u, 0x000u, 0x000u, 0x000u, 0x000u, 0x001u, 0x002u, 0x000u,
    0x004u, 0x000u, 0x000u, 0x000u, 0x000u, 0x001u, 0x002u, 0x000u, 0x004u, 0x000u, 0x000u, 0x000u,
    0x008u, 0x009u, 0x00au, 0x008u, 0x00cu, 0x008u, 0x008u, 0x008u, 0x010u, 0x011u, 0x012u, 0x010u,
    0x014u, 0x010u, 0x010u, 0x010u, 0x000u, 0x001u, 0x002u, 0x000u, 0x004u, 0x000u, 0x000u, 0x000u,
    0x020u, 0x021u, 0x022u, 0x020u, 0x024u, 0x020u, 0x020u, 0x020u, 0x000u, 0x001u, 0x002u, 0x000u,
    0x004u, 0x000u, 0x000u, 0x000u, 0x000u, 0x001u, 0x002u, 0x000u, 0x004u, 0x000u, 0x000u, 0x000u,
    0x000u, 0x001u, 0x002u, 0x000u, 0x004u, 0x000u, 0x000u, 0x000u,
};
/* @@END TABLES@@ */
/* ---- end of generated tables ---- */

/* For cell bit p of a band: its row and its box inside the band (both include p). */
#define RB(r, k) ((0x1FFu << (9 * (r))) | (0x1C0E07u << (3 * (k))))
static const uint32_t ROWBOX[27] = {
    RB(0, 0), RB(0, 0), RB(0, 0), RB(0, 1), RB(0, 1), RB(0, 1), RB(0, 2), RB(0, 2), RB(0, 2),
    RB(1, 0), RB(1, 0), RB(1, 0), RB(1, 1), RB(1, 1), RB(1, 1), RB(1, 2), RB(1, 2), RB(1, 2),
    RB(2, 0), RB(2, 0), RB(2, 0), RB(2, 1), RB(2, 1), RB(2, 1), RB(2, 2), RB(2, 2), RB(2, 2),
};
#undef RB

/* The search state: copied whole at every guess, so kept small (136 bytes). */
typedef struct {
    uint32_t f[27];     /* f[W(d, b)] = f[b*9 + d]: cells of band b where digit d may go */
    uint32_t ucells[3]; /* unsolved cells of each band */
    uint32_t urows[3];  /* bit d*3 + r of urows[b]: digit d not yet placed in row r of band b */
    uint32_t dirty;     /* bit i: f[i] changed since its last update */
} St;

/* Per-call context (on the caller's stack). */
typedef struct {
    uint64_t limit;
    uint64_t count;
    uint64_t budget;
    uint64_t guesses;
    uint64_t check_at; /* next guess count at which the budget or the poll is looked at */
    int gave_up;       /* the search must stop: budget spent (1) or poll said stop (2) */
    int (*poll)(void *);
    void *poll_ctx;
    uint8_t *first;
} Ctx;

/* The guesses between two calls of the poll callback (~2 ms of search on this path). */
#define SK9_POLL_EVERY 4096u

/* Sets c->check_at: the budget, or the next poll, whichever comes first. */
static void next_check(Ctx *c) {
    c->check_at = c->poll ? c->guesses + SK9_POLL_EVERY : UINT64_MAX;
    if (c->budget && c->budget < c->check_at)
        c->check_at = c->budget;
}

/* The slow side of the per-guess test, taken once c->check_at guesses are made: 1 when the
 * search must stop (the budget is spent, or the poll callback asked to stop), else sets the
 * next check point and returns 0.  Keeps the hot loop at one compare per guess. */
static int must_stop(Ctx *c) {
    if (c->budget && c->guesses >= c->budget) {
        c->gave_up = 1;
        return 1;
    }
    if (c->poll && c->guesses >= c->check_at && c->poll(c->poll_ctx)) {
        c->gave_up = 2;
        return 1;
    }
    next_check(c);
    return 0;
}

static inline int ctz32(uint32_t x) { return __builtin_ctz(x); }

/* The 9-bit set of non-empty minirows of a band word. */
static inline uint32_t minirows(uint32_t m) {
    uint32_t t = m | (m >> 1) | (m >> 2);
#if defined(__BMI2__)
    return _pext_u32(t, 0x1249249u);
#else
    uint32_t y;
    t &= 0x1249249u; /* bit r*9 + 3k set when minirow r*3 + k is non-empty */
    y = t | (t >> 2) | (t >> 4);
    return (y & 7u) | ((y >> 6) & 0x38u) | ((y >> 12) & 0x1C0u);
#endif
}

/* The 9-bit set of columns where a band word has a cell. */
static inline uint32_t fold(uint32_t m) { return (m | (m >> 9) | (m >> 18)) & 0x1FFu; }

#define FAIL 0x80000000u /* returned in place of a dirty mask on a contradiction */

/* AND f[j] with mask; returns dirty with bit j set when the word changed (branch-free). */
static inline uint32_t restrict_word(St *s, int j, uint32_t mask, uint32_t dirty) {
    uint32_t old = s->f[j], nw = old & mask;
    s->f[j] = nw;
    return dirty | (uint32_t)(nw != old) << j;
}

/* Word index -> its band, and the same digit's words in the two other bands. */
static const uint8_t BAND_OF[27] = {0, 0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 1,
                                    1, 1, 1, 1, 2, 2, 2, 2, 2, 2, 2, 2, 2};
#define O1(i) ((i) < 18 ? (i) + 9 : (i) - 18)
#define O2(i) ((i) < 9 ? (i) + 18 : (i) - 9)
static const uint8_t OTHER1[27] = {O1(0),  O1(1),  O1(2),  O1(3),  O1(4),  O1(5),  O1(6),
                                   O1(7),  O1(8),  O1(9),  O1(10), O1(11), O1(12), O1(13),
                                   O1(14), O1(15), O1(16), O1(17), O1(18), O1(19), O1(20),
                                   O1(21), O1(22), O1(23), O1(24), O1(25), O1(26)};
static const uint8_t OTHER2[27] = {O2(0),  O2(1),  O2(2),  O2(3),  O2(4),  O2(5),  O2(6),
                                   O2(7),  O2(8),  O2(9),  O2(10), O2(11), O2(12), O2(13),
                                   O2(14), O2(15), O2(16), O2(17), O2(18), O2(19), O2(20),
                                   O2(21), O2(22), O2(23), O2(24), O2(25), O2(26)};
#undef O1
#undef O2

/* AND the 9 words of band b (all digits) with mask; returns dirty plus the changed words. */
static inline uint32_t clear_band(St *s, int b, uint32_t mask, uint32_t dirty) {
    uint32_t *w = s->f + 9 * b, changed;
#if defined(__SSE2__)
    const __m128i mk = _mm_set1_epi32((int)mask);
    __m128i lo = _mm_loadu_si128((const __m128i *)w), hi = _mm_loadu_si128((const __m128i *)(w + 4));
    __m128i nlo = _mm_and_si128(lo, mk), nhi = _mm_and_si128(hi, mk);
    uint32_t last = w[8] & mask;
    _mm_storeu_si128((__m128i *)w, nlo);
    _mm_storeu_si128((__m128i *)(w + 4), nhi);
    changed = (uint32_t)(_mm_movemask_ps(_mm_castsi128_ps(_mm_cmpeq_epi32(lo, nlo))) |
                         _mm_movemask_ps(_mm_castsi128_ps(_mm_cmpeq_epi32(hi, nhi))) << 4) ^ 0xFFu;
    changed |= (uint32_t)(last != w[8]) << 8;
    w[8] = last;
#else
    int d;
    changed = 0;
    for (d = 0; d < 9; d++) {
        uint32_t old = w[d], nw = old & mask;
        w[d] = nw;
        changed |= (uint32_t)(nw != old) << d;
    }
#endif
    return dirty | changed << (9 * b);
}

/* Row masks of a band for a 3-bit set of rows. */
static const uint32_t ROWS3[8] = {0,       0x1FFu,    0x3FE00u,   0x3FFFFu,
                                  0x7FC0000u, 0x7FC01FFu, 0x7FFFE00u, BAND_ALL};

/*
 * Re-derive everything that follows from word i = W(d, b): shrink it to its row/box
 * permutations, lock its single-column stacks out of the other two bands, and place the digit
 * in rows reduced to one cell. Takes and returns the dirty mask (FAIL on a contradiction).
 * Branch-free except for placements: data-dependent branches here mispredict often, and a
 * mispredict costs more than the few no-op ANDs it would skip (measured).
 */
static inline uint32_t update(St *s, int i, uint32_t dirty) {
    const int b = BAND_OF[i], d = i - 9 * b;
    uint32_t m = s->f[i] & SHRINK[minirows(s->f[i])];
    uint32_t keep, x, single, nr;
    if (!m)
        return FAIL;
    s->f[i] = m;
    keep = ~(LOCKED[fold(m)] * COL_SPREAD);
    dirty = restrict_word(s, OTHER1[i], keep, dirty);
    dirty = restrict_word(s, OTHER2[i], keep, dirty);
    /* Rows reduced to one cell: every row is non-empty after the shrink, so subtracting 1 per
     * 9-bit field never borrows across fields and x keeps a bit only in rows of 2+ cells. */
    x = m & (m - 0x40201u);
    single = (uint32_t)((x & 0x1FFu) == 0) | (uint32_t)((x & 0x3FE00u) == 0) << 1 |
             (uint32_t)((x & 0x7FC0000u) == 0) << 2;
    nr = single & (s->urows[b] >> (d * 3));
    if (nr) {
        uint32_t placed = m & ROWS3[nr];
        s->urows[b] &= ~(nr << (d * 3));
        s->ucells[b] &= ~placed;
        dirty = clear_band(s, b, ~placed, dirty);
        s->f[i] = m; /* the placed digit keeps its cells */
        dirty &= ~(1u << i);
    }
    return dirty;
}

/* Place digit d on cell bit x of band b: keep d only on x within x's row and box (the update
 * of the word then does the rest). Returns the dirty mask, FAIL when d is no longer a
 * candidate there. */
static inline uint32_t place(St *s, int d, int b, uint32_t x, uint32_t dirty) {
    const int i = W(d, b);
    if (!(s->f[i] & x))
        return FAIL;
    s->f[i] &= ~ROWBOX[ctz32(x)] | x;
    return dirty | 1u << i;
}

/* The columns where a band word has 2 or 3 cells (a majority of its three rows). */
static inline uint32_t multi(uint32_t m) {
    const uint32_t r0 = m & 0x1FFu, r1 = (m >> 9) & 0x1FFu, r2 = m >> 18;
    return (r0 & r1) | (r2 & (r0 | r1));
}

/*
 * The column side, run once the band updates and naked singles are at a fixpoint: fails
 * (FAIL) when a digit has no cell left in some column; places every hidden single of a column
 * (a digit with one cell left in a column, that cell unsolved). Returns the dirty mask of
 * the words changed (0: nothing to do). A column's count of cells is bit-sliced over the
 * three bands: `fold` says "1 or more in this band", `multi` "2 or more".
 *
 * Measured (2026-11-24, bench_fast9_tdoku -T, random isomorphs, CPU ratio to tdoku in
 * the same process, load ~7; guesses a puzzle at limit 2):
 * - scalar, for every digit: guesses 1106 162.8 -> 148.2, 1905 95.0 -> 85.9, hardest x100
 *   9.35 -> 8.83, top1465 11.78 -> 10.74; ratio at limit 2 1106 1.125 -> 1.114, 1905
 *   1.098 -> 1.081, but serg 1.086 -> 1.195 and easy50 1.089 -> 1.142 (the per-call cost);
 * - the same rule with AVX-512 deciding "nothing to do" for all 9 digits at once (3 masked
 *   loads, ~30 vector operations; the scalar loop runs only when a single exists or to
 *   fail): 1106 1.125 -> 1.026, 1905 1.098 -> 1.002, hardest x100 1.070 -> 1.024, top1465
 *   0.990 -> 0.898, serg 1.086 -> 1.052, easy50 1.089 -> 1.052 (kept);
 * - adding claiming column -> box (a digit in one band only in some column keeps to that
 *   column in the band's box of its stack), in the vector filter and the scalar loop:
 *   guesses 1106 148.2 -> 141.6, but every ratio worse than without it (1106 1.031,
 *   hardest x100 1.077, serg 1.085, easy50 1.107): rejected.
 * Without AVX-512 the scalar loop runs every time (same deductions, same guesses).
 */
static uint32_t columns(St *s) {
    uint32_t dirty = 0;
    int d;
#if defined(__AVX512F__)
    {
        /* lane d (0..8) = digit d; rows r0..r2 of a band word as 9-bit column sets. The
         * masked loads read f[0..26] only; even a full 16-lane read from f + 18 would end at
         * the end of St (27 + 3 + 3 + 1 words), never past it. */
        const __m512i lo9 = _mm512_set1_epi32(0x1FF);
        const __m512i a0 = _mm512_maskz_loadu_epi32(0x1FF, s->f);
        const __m512i a1 = _mm512_maskz_loadu_epi32(0x1FF, s->f + 9);
        const __m512i a2 = _mm512_maskz_loadu_epi32(0x1FF, s->f + 18);
        __m512i r0, r1, r2, f0, f1, f2, m0, m1, m2, two, sp;
        __mmask16 hit;
        /* f: 1+ cells in the column (r0 | r1 | r2), m: 2+ (majority of r0, r1, r2) */
        r0 = _mm512_and_si512(a0, lo9);
        r1 = _mm512_and_si512(_mm512_srli_epi32(a0, 9), lo9);
        r2 = _mm512_srli_epi32(a0, 18);
        f0 = _mm512_ternarylogic_epi32(r0, r1, r2, 0xFE);
        m0 = _mm512_ternarylogic_epi32(r0, r1, r2, 0xE8);
        r0 = _mm512_and_si512(a1, lo9);
        r1 = _mm512_and_si512(_mm512_srli_epi32(a1, 9), lo9);
        r2 = _mm512_srli_epi32(a1, 18);
        f1 = _mm512_ternarylogic_epi32(r0, r1, r2, 0xFE);
        m1 = _mm512_ternarylogic_epi32(r0, r1, r2, 0xE8);
        r0 = _mm512_and_si512(a2, lo9);
        r1 = _mm512_and_si512(_mm512_srli_epi32(a2, 9), lo9);
        r2 = _mm512_srli_epi32(a2, 18);
        f2 = _mm512_ternarylogic_epi32(r0, r1, r2, 0xFE);
        m2 = _mm512_ternarylogic_epi32(r0, r1, r2, 0xE8);
        if (_mm512_mask_cmpneq_epi32_mask(0x1FF, _mm512_ternarylogic_epi32(f0, f1, f2, 0xFE), lo9))
            return FAIL;
        two = _mm512_or_si512(_mm512_ternarylogic_epi32(f0, f1, f2, 0xE8),
                              _mm512_ternarylogic_epi32(m0, m1, m2, 0xFE));
        sp = _mm512_andnot_si512(two, lo9); /* columns with exactly one cell of the digit */
        sp = _mm512_ternarylogic_epi32(sp, _mm512_slli_epi32(sp, 9), _mm512_slli_epi32(sp, 18),
                                       0xFE);
        hit = _mm512_test_epi32_mask(_mm512_and_si512(a0, sp),
                                     _mm512_set1_epi32((int)s->ucells[0])) |
              _mm512_test_epi32_mask(_mm512_and_si512(a1, sp),
                                     _mm512_set1_epi32((int)s->ucells[1])) |
              _mm512_test_epi32_mask(_mm512_and_si512(a2, sp),
                                     _mm512_set1_epi32((int)s->ucells[2]));
        if (!(hit & 0x1FFu))
            return 0;
    }
#endif
    for (d = 0; d < 9; d++) {
        const uint32_t a0 = s->f[W(d, 0)], a1 = s->f[W(d, 1)], a2 = s->f[W(d, 2)];
        const uint32_t f0 = fold(a0), f1 = fold(a1), f2 = fold(a2);
        uint32_t spread, x[3];
        int b;
        if ((f0 | f1 | f2) != 0x1FFu)
            return FAIL;
        spread = (~((f0 & f1) | (f2 & (f0 | f1)) | multi(a0) | multi(a1) | multi(a2)) & 0x1FFu) *
                 COL_SPREAD;
        x[0] = a0 & spread & s->ucells[0];
        x[1] = a1 & spread & s->ucells[1];
        x[2] = a2 & spread & s->ucells[2];
        for (b = 0; b < 3; b++)
            while (x[b]) { /* two in one row or box: place() finds the digit gone, FAIL */
                const uint32_t c = x[b] & -x[b];
                x[b] ^= c;
                dirty = place(s, d, b, c, dirty);
                if (dirty & FAIL)
                    return FAIL;
            }
    }
    return dirty;
}

/*
 * Propagate to a fixpoint. Returns 0 on a contradiction; on success bival[b] holds the
 * unsolved cells of band b with exactly two candidates.
 */
static int propagate(St *s, uint32_t bival[3]) {
    uint32_t dirty = s->dirty;
    for (;;) {
        int b, d;
        /* Passes over a snapshot of the dirty words: the loop's next word does not wait for
         * the current update (pext, two table loads, a multiply: ~30 cycles of latency), so
         * the CPU overlaps successive updates; taking the lowest dirty word each time, as
         * before, chained them. A word dirtied again before its turn in the pass is updated
         * once, with its newest value. Same fixpoint, same guesses; CPU against tdoku at
         * limit 2 (load ~9): 1106 1.020 -> 0.847, 1905 0.988 -> 0.819, hardest x100 1.019 ->
         * 0.821, serg 1.042 -> 0.909, easy50 1.106 -> 0.728, kaggle 1.042 -> 0.776. */
        while (dirty) {
            uint32_t todo = dirty;
            do {
                const int i = ctz32(todo);
                todo &= todo - 1;
                dirty = update(s, i, dirty & ~(1u << i));
                if (dirty & FAIL)
                    return 0;
            } while (todo);
        }
        /* Naked singles: bit-sliced count of candidates per cell (1, 2, 3+). */
        for (b = 0; b < 3; b++) {
            uint32_t u = s->ucells[b], one = 0, two = 0, three = 0, single;
            bival[b] = 0;
            if (!u)
                continue;
            for (d = 0; d < 9; d++) {
                uint32_t x = s->f[W(d, b)];
                three |= two & x;
                two |= one & x;
                one |= x;
            }
            if (u & ~one)
                return 0; /* an unsolved cell without candidates */
            bival[b] = u & two & ~three;
            single = u & ~two;
            while (single) {
                /* its digit, branch-free (a loop breaking at the digit mispredicted: CPU
                 * against tdoku, limit 1, serg 0.955 -> 0.907, 1106 0.78 -> 0.76) */
                const uint32_t x = single & -single;
                const int p = ctz32(x);
                uint32_t dm = 0;
                single ^= x;
                for (d = 0; d < 9; d++)
                    dm |= ((s->f[W(d, b)] >> p) & 1u) << d;
                if (!dm)
                    return 0; /* an earlier single of this pass took its only digit */
                d = ctz32(dm);
                dirty = place(s, d, b, x, dirty);
                if (dirty & FAIL)
                    return 0;
            }
        }
        if (dirty)
            continue;
        /* Columns: every digit somewhere in every column, hidden singles placed (see
         * columns(); pointing box -> column is in update()). */
        dirty = columns(s);
        if (dirty & FAIL)
            return 0;
        if (!dirty) {
            s->dirty = 0;
            return 1;
        }
    }
}

static void record(const St *s, Ctx *c) {
    c->count++;
    if (c->count == 1 && c->first) {
        int d, b;
        for (d = 0; d < 9; d++)
            for (b = 0; b < 3; b++) {
                uint32_t m = s->f[W(d, b)];
                while (m) {
                    c->first[b * 27 + ctz32(m)] = (uint8_t)(d + 1);
                    m &= m - 1;
                }
            }
    }
}

/* A branch point: alternatives a = 0..n-1, each restricting digit d[a] by f[W(d, b)] &= m[a][b]
 * for the three bands. The alternatives are exclusive and cover every solution. */
typedef struct {
    int n;
    int d[9];
    uint32_t m[9][3];
} Branch;

/* Branch on the cell (band b, bit x): one alternative per candidate digit. */
static void branch_cell(const St *s, int b, uint32_t x, Branch *br) {
    const int p = ctz32(x);
    const uint32_t col = ~((1u << (p % 9)) * COL_SPREAD);
    int d;
    int n = 0;
    for (d = 0; d < 9; d++) { /* written for every digit, kept for candidates: no branch */
        br->d[n] = d;
        br->m[n][0] = br->m[n][1] = br->m[n][2] = col;
        br->m[n][b] = ~ROWBOX[p] | x;
        n += (s->f[W(d, b)] & x) != 0;
    }
    br->n = n;
}

/* Unsolved cells among the peers of cell bit p of band b, plus the cell itself. */
static inline int unsolved_peers(const St *s, int b, int p) {
    static const uint8_t NEXT1[3] = {1, 2, 0}, NEXT2[3] = {2, 0, 1};
    const uint32_t col = (1u << (p % 9)) * COL_SPREAD;
    return __builtin_popcount(s->ucells[b] & (ROWBOX[p] | col)) +
           __builtin_popcount(s->ucells[NEXT1[b]] & col) +
           __builtin_popcount(s->ucells[NEXT2[b]] & col);
}

/*
 * Choose the branching cell: a bivalue cell if there is one, else a cell with the fewest
 * candidates; among those, the one with the most unsolved peers (the most constraining
 * choice). Measured on top1465 / forum_hardest_1106 (random isomorphs, limit 2) against the
 * first bivalue cell in band order (JCZSolve's choice): 24 -> 14 and 249 -> 131 guesses per
 * puzzle, about 40% fewer instructions overall. Counting the peers as a set matters: counting
 * row+box and the column separately (box cells of the column twice) gave 10% more guesses.
 *
 * Rejected: tdoku's branching on the placement pattern of one digit in one band or stack
 * (its 6 row->box permutations). Without tdoku's triad constraints (a minirow holds exactly
 * three digits) nothing notices 9 digits crowding one minirow, and the search near an empty
 * grid goes exponential; as a fallback only when no bivalue cell exists it saved ~6% of the
 * guesses on forum_hardest_1106 and nothing elsewhere. Also rejected: scoring bivalue cells
 * by the candidates their two digits eliminate (more guesses than unsolved peers, and dearer).
 *
 * The "hardest" set (2026-11-24: where tdoku makes fewer guesses), measured in guesses
 * per puzzle, limit 2 unless said, on 1,100 random isomorphs of the 11 "hardest" (100 each:
 * 11 puzzles alone say more about the isomorphs drawn than about the solver) and on
 * top95 / top1465 / forum_hardest_1106, isomorphs seeded alike; this choice as the base:
 * hardest 9.45, top95 10.46, top1465 11.90, 1106 160.65 (tdoku on the same isomorphs:
 * hardest 5.52, 1106 114.6). Every branch point met on the hardest has a bivalue cell, so
 * only the choice among bivalue cells (or a 2-way branch preferred to them) can matter there.
 * - a digit with exactly two row->box permutations left in a band, as a 2-way branch taken
 *   before any bivalue cell (tdoku's band branching where it is binary): 10.29 / 28.2 /
 *   27.3 / 432; only where no bivalue cell exists: 9.45 / 10.37 / 11.99 / 181.9;
 * - a digit with exactly two cells in a row or box, where no bivalue cell exists:
 *   9.45 / 10.40 / 12.06 / 197.4;
 * - ties of unsolved peers broken by the candidates left to the cell's two digits (all
 *   bands): more first 9.32 / 11.12 / 11.71 / 157.6 (-1.4% on the hardest for 27 popcounts a
 *   candidate cell: no measurable gain), fewer first 8.96 / 11.38 / 11.92 / 179.7; as the
 *   first key instead of the peers, more: 9.39 / 20.3 / 16.8 / 215, fewer: 8.55 / 29.4 /
 *   19.8 / 360;
 * - trying first the digit of a bivalue cell with fewer candidates left (matters only until
 *   the first solution, so limit 1): hardest 6.15 -> 5.25, but top1465 7.58 -> 7.77 and
 *   1106 84.4 -> 89.1; the other way round: 7.20 / 7.59 / 80.6;
 * - tdoku's minirow triads as a propagation step after the column check (a minirow with fewer
 *   than 3 digits left fails; one with exactly 3 and an unsolved cell clears those digits from
 *   the rest of its row and box): guesses hardest 9.45 -> 9.23, top1465 11.62 -> 10.93, 1106
 *   160.9 -> 158.4, but CPU time against tdoku in the same process (bench_fast9_tdoku -T)
 *   hardest 1.07x -> 1.20x, top1465 0.98x -> 1.07x, 1106 1.12x -> 1.28x, serg 1.08x -> 1.43x.
 * The conclusion drawn then (tdoku's gain on the hardest is its triads, not its branching)
 * did not hold up on 2026-11-25, below: it is the branching.
 *
 * 2026-11-25 (goal: the 11 "hardest" <= 1.0x tdoku at limits 1 and 2 in
 * bench_solve's draw AND in other draws, no other set more than ~3% worse). Guesses a puzzle
 * at limit 1 / limit 2 on bench_solve's seed-1 isomorphs (hardest x100 = its 1,100; 1905 =
 * the first 5,000 of forum_hardest_1905); this choice as the base: hardest x100 5.49 / 8.65
 * (tdoku 3.99 / 5.51), top95 6.63 / 9.35, top1465 7.00 / 10.60, 1106 82.7 / 148.9, serg
 * 6.45 / 7.03, 1905 46.8 / 87.8. The tail is two puzzles: the 2nd and 6th of hardest.txt,
 * 34.9 guesses each at limit 2 over their 100 isomorphs (tdoku 14.6 and 26.0); in the seed-1
 * draw they take 35 and 38 at limit 1, where their mean is 19-20: that draw is unlucky for
 * us (8.55 against tdoku's 3.27 guesses, 1.38x CPU). Seeds 1-8 of the draw, CPU ratio at
 * limit 1 / 2: benchmarks/results/2026-11-25-773942b-hardest.md (benchmarks/c/hardest_seeds.py).
 * Tried, all rejected:
 * - deductions only at branch points (after the fixpoint, before choose(); a change goes back
 *   to propagate()): minirow triads (a minirow with 3 candidate digits left holds those 3,
 *   fewer fails): hardest x100 5.42 / 8.48, top95 6.01 / 8.46, top1465 6.65 / 9.98, 1106
 *   81.2 / 146.4; minicolumn triads: 5.47 / 8.54, 6.31 / 8.75, 6.35 / 9.54, 80.9 / 144.5;
 *   the stack twin of the band shrink (claiming column -> box and more): 5.57 / 8.66, 6.38 /
 *   8.95, 6.66 / 10.04, 78.9 / 141.6; all three: 5.44 / 8.36, 5.71 / 7.81, 5.79 / 8.59, 76.2
 *   / 136.2. Propagation barely moves the hardest (8.65 -> 8.36 where tdoku makes 5.51); and
 *   the straightforward scalar version cost more than it saved: CPU ratio at limit 2 (two
 *   alternating runs of each, load 3.5-5) hardest x100 0.78-0.93 -> 1.00-1.01, top95
 *   0.59-0.61 -> 0.70-0.72, top1465 0.75-0.77 -> 0.83-0.88, 1106 0.84-0.88 -> 1.09-1.12;
 * - tdoku's branching, rows and stacks (the band or stack with the fewest row->box
 *   placement patterns in total, in it the digit with the fewest, 2 first; one alternative
 *   per pattern): alone 4.30 / 6.12, top95 9.22 / 17.4, top1465 9.62 / 15.1, 1106 86.0 /
 *   166.8; with the three deductions above: 4.12 / 5.78 (tdoku's tree: 3.99 / 5.51; puzzles 2
 *   and 6 at 14.6 and 27.6), but top95 6.49 / 13.1, top1465 7.75 / 11.9, 1106 69.5 / 133.8,
 *   1905 43.5 / 80.5, and CPU at limit 2 (pattern counts not tuned) hardest x100 -> 0.97-1.01,
 *   top95 -> 1.36-1.37, top1465 -> 1.39-1.43, 1106 -> 1.51-1.60; the 11 of the seed-1 draw
 *   still 1.50-1.56x / 1.20-1.21x (4.73 / 5.73 guesses). So the tail IS the branching
 *   (cell branching makes 35 guesses where pattern branching makes 15 on puzzle 2), but
 *   pattern branching makes 12-40% more guesses on top1465 / top95 here;
 * - mixing the two, guesses at limit 2 on hardest x100 / top95 / top1465 / 1106: patterns
 *   when their best band or stack has at most T patterns in all, T = 12: 8.36 / 9.82 / 10.76 /
 *   148.2, T = 16: 7.40 / 11.5 / 12.1 / 163.7, T = 20: 6.47 / 15.9 / 13.7 / 166.5; at the
 *   first K branch points of a path, K = 1: 7.93 / 10.3 / 11.0 / 153.6, K = 5: 6.30 / 14.9 /
 *   13.0 / 157.0; after the puzzle's first G guesses, G = 8: 7.45 / 10.2 / 11.8 / 172.5, G =
 *   32: 8.61 / 9.33 / 10.8 / 167.6; when the best bivalue cell has fewer than P unsolved
 *   peers, P = 12: 8.39 / 9.11 / 10.53 / 143.6 (serg 6.98: 2-4% fewer everywhere), P = 14:
 *   7.33 / 9.26 / 11.2 / 152.5; fewer than R% of the unsolved cells, R = 30: 6.47 / 13.7 /
 *   12.9 / 159.0; the bivalue cell taken in the band or stack of fewest patterns: 7.84 /
 *   13.3 / 12.7 / 201.7. Only P = 12 lost nowhere, and in CPU it lost everywhere (the
 *   pattern counts at those branch points; two alternating runs, load ~5): at limit 1 serg
 *   0.92 -> 1.29-1.30, hardest x100 0.70 -> 0.73-0.75, 1106 0.84-0.86 -> 0.92;
 * - bivalue cells scored 2 x unsolved peers + the number of its two digits with exactly two
 *   placement patterns left in its band, and in its stack (a 512-bit table, 54 lookups a
 *   branch point): 8.14 / 9.59 / 10.06 / 143.6 (-6% hardest, -5% top1465, +2.6% top95);
 *   weighting the patterns up (1 x peers + 1 x patterns) 7.41 / 10.1 / 10.1 / 144.7, rows
 *   only 8.43 / 10.4 / 10.3 / 146.6; the 11 of the seed-1 draw 7.55 / 8.91: far from 1.0x.
 *   CPU (the first scoring, two alternating runs, load 3.5-4): serg 0.92 -> 1.31 / 0.87-0.92
 *   -> 1.26-1.27, 1106 0.83-0.84 -> 1.04-1.06 / 0.84 -> 1.03, hardest x100 0.71 -> 0.80-0.83
 *   / 0.78-0.79 -> 0.88-0.90, top1465 0.69-0.70 -> 0.80-0.81 (limit 1 / limit 2): the 54
 *   pattern lookups a branch point cost far more than the 3-6% of guesses saved.
 * - value order at a bivalue cell (limit 1 only; counts and limit-2 trees of proper puzzles
 *   do not change): the digit left in more of the cell's peers first ("most constraining
 *   value"): guesses at limit 1 hardest x100 5.49 -> 5.60 (over the 8,800 isomorphs of seeds
 *   1-8: 5.66 -> 5.49), top95 6.63 -> 5.55, 1106 82.7 -> 77.7, serg 6.45 -> 5.08 (and 7.03 ->
 *   5.81 at limit 2: two solutions sooner), 1905 46.8 -> 45.2, top1465 7.00 -> 7.02; the
 *   seed-1 draw of the 11 falls to 5.18 (CPU 1.40x -> 0.94-0.95x) and 5 other seeds' draws
 *   fall, but seeds 3 and 5 rise (6.36 -> 6.45, 5.45 -> 7.64), and over the 8,800 the gain
 *   is 3%: the 11 at limit 1 measure the draw; limit 2 stays 1.08-1.11x. CPU with a
 *   branch-free swap (8 popcounts a branch point; two alternating pairs, load ~4): limit 1
 *   serg 0.91-0.92 -> 0.89-0.91, 1106 0.83 -> 0.81-0.84, hardest x100 0.70 -> 0.73-0.76,
 *   top1465 0.69 -> 0.72-0.73; limit 2 1905 0.76-0.77 -> 0.80 (the popcounts, no guess
 *   saved): rejected. The digit left in fewer of its peers first: serg 8.49 / 8.75, 1106 88.1.
 * No mix found keeps both the hardest's trees (pattern branching) and top95 / top1465's
 * (cell branching): the choice stays as it is.
 *
 * 2026-11-28 (same goal). CPU ratio to tdoku at limit 1 / limit 2, bench_fast9_tdoku -T -P on
 * bench_solve's seed-1 isomorphs (1905 = its first 5,000), 3-7 rounds, variants alternating,
 * load 4-10 (so +-10% between runs of one binary); the base over 17 runs: the 11 1.17-1.48 /
 * 0.88-1.31, hardest x100 0.67-0.85 / 0.78-0.93, top95 0.60-0.78 / 0.54-0.75, top1465 0.66-0.82
 * / 0.70-0.88, 1106 0.82-1.04 / 0.84-0.97, serg 0.90-1.04 / 0.85-0.99. Rejected:
 * - failed-literal probing at a branch point with bivalue cells: both digits of the K best (by
 *   unsolved peers) propagated on copies; a digit that fails forces the other (no guess), else
 *   branch on the cell whose two children leave the fewest unsolved cells in all, its
 *   propagated children kept. Counted guesses collapse (hardest x100 5.49 / 8.65 -> 1.1 / 1.4
 *   at K = 3, probes not counted) but every probe is a full propagation: K = 3: the 11 1.29 /
 *   1.05, hardest x100 0.94 / 0.86, top1465 0.97 / 0.79, 1106 1.04 / 0.97, serg 2.92 / 2.88;
 *   K = 2: hardest x100 1.05 / 0.83, serg 2.30 / 2.16; K = 6 worse; K = 1 (the same tree, the
 *   second child propagated eagerly): 1106 1.02-1.04 / 1.03-1.13, serg 1.50-1.56 / 1.21-1.37.
 *   Narrowed: K = 3 only when the best cell has < 14 unsolved peers: the 11 1.14 / 0.95,
 *   hardest x100 0.93 / 0.91, serg 2.36 / 2.32; only after the puzzle's first 8 guesses: 1.64 /
 *   1.18, 0.99 / 0.91, 1106 1.21 / 0.97, serg 1.19 / 1.07; both: 1.37 / 0.95, 0.78 / 0.85, 1106
 *   1.11 / 1.08, serg 1.18 / 1.15; at the root only (K = 8, until the first guess): hardest
 *   x100 1.00 / 0.98, top1465 1.21 / 1.00, serg 2.07 / 1.84; scoring by the larger child
 *   instead of the sum: worse (K = 3: serg 3.33, 1106 1.20 / 1.11). A propagation from near the
 *   root costs about a guess: probing only pays where it removes more guesses than it adds
 *   propagations;
 * - why the tail (an oracle, hardest.txt as given, limit 2): puzzle 2 has 2 bivalue cells at
 *   its root, 33 and 34 guesses below them with this choice; the best of ALL its 56 unsolved
 *   root cells gives 21 (a 4-candidate cell); puzzle 6: 33 and 37, best 32. No single better
 *   choice at the root reaches tdoku's 15 / 26: the whole tree is bigger;
 * - value order from the propagated children of a bivalue cell (both propagated before
 *   descending, the one with fewer unsolved cells first; limit-2 trees of proper puzzles
 *   unchanged): guesses at limit 1 the 11 of seed 1 8.55 -> 5.45, seed 2 7.36 -> 4.45, seed 3
 *   6.36 -> 6.91, hardest x100 5.49 -> 5.35 (seeds 2, 3: 5.64 -> 5.14, 5.68 -> 5.37), top95
 *   6.63 -> 5.30, top1465 7.00 -> 6.65, 1106 82.7 -> 81.4, serg 6.45 -> 4.80 (limit 2: 7.03 ->
 *   5.50); more unsolved first: worse (the 11 7.7, serg 9.5). CPU: the second child is
 *   propagated even when the first subtree ends the search: serg 0.95 -> 1.13-1.32 at limit 1.
 *   Lazily (the first child taken first, unpropagated second, when it already solved 6+ cells),
 *   two alternating pairs of 7 rounds, load 7-9: the 11 1.32, 1.38 -> 1.03, 1.06 but limit 2
 *   1.14, 1.13 -> 1.19, 1.08 (same tree); hardest x100 0.83, 0.73 -> 0.73, 0.77 / 0.91, 0.80 ->
 *   0.88, 0.85; top1465 limit 2 0.74, 0.79 -> 0.83, 0.83 and top95 0.59, 0.64 -> 0.66, 0.66
 *   (same trees: the restructured loop's cost); serg 0.99, 0.99 -> 1.04, 0.96 / 0.95, 0.96 ->
 *   1.04, 0.97; only after the puzzle's first 4, 8 or 16 guesses: the 11 back to 8.1. A value
 *   order cannot move limit 2 (1.08x on the 11) anyway.
 * - cells of 3+ candidates competing with bivalue cells, key 4 x unsolved peers - A x
 *   (candidates - 2), guesses at limit 1 / 2 on hardest x100, top95, top1465, 1106, serg:
 *   base 5.49 / 8.65, 6.63 / 9.35, 7.00 / 10.60, 82.7 / 148.9, 6.45 / 7.03; A = 8: 6.26 /
 *   10.19, 8.07 / 11.89, 8.34 / 13.01, 77.0 / 145.6, 6.10 / 6.70; A = 12: 5.60 / 8.80, 7.22 /
 *   10.27, 7.32 / 11.26, 77.3 / 141.6, 6.39 / 6.98; A = 16: 5.49 / 8.65, 6.77 / 9.48, 7.00 /
 *   10.69, 79.0 / 142.2, serg unchanged. Never fewer on the hardest (only 1106 gains 5%).
 */
static void choose(const St *s, const uint32_t bival[3], Branch *br) {
    /* key = fewer candidates, then more unsolved peers, then the lower cell: one max, no
     * unpredictable branch (ties and scores are data-dependent). */
    uint32_t best = 0;
    int b;
    const int have_bival = (bival[0] | bival[1] | bival[2]) != 0;
    for (b = 0; b < 3; b++) {
        uint32_t v = have_bival ? bival[b] : s->ucells[b];
        while (v) {
            const int p = ctz32(v), cell = b * 27 + p;
            int n = 2;
            uint32_t key;
            v &= v - 1;
            if (!have_bival) {
                int d;
                n = 0;
                for (d = 0; d < 9; d++)
                    n += (int)((s->f[W(d, b)] >> p) & 1u);
            }
            key = ((uint32_t)(10 - n) << 13) | ((uint32_t)unsolved_peers(s, b, p) << 7) |
                  (uint32_t)(127 - cell);
            best = key > best ? key : best;
        }
    }
    {
        const int cell = 127 - (int)(best & 127u);
        branch_cell(s, cell / 27, 1u << (cell % 27), br);
    }
}

static inline uint32_t apply(St *s, const Branch *br, int a, uint32_t dirty) {
    const int d = br->d[a];
    dirty = restrict_word(s, W(d, 0), br->m[a][0], dirty);
    dirty = restrict_word(s, W(d, 1), br->m[a][1], dirty);
    return restrict_word(s, W(d, 2), br->m[a][2], dirty);
}

/* Depth-first search from s (consumed). Stops when c->count reaches the limit or the budget
 * runs out. The last alternative of each branch point is taken in place (a loop, not a call). */
static void search(St *s, Ctx *c) {
    for (;;) {
        uint32_t bival[3];
        Branch br;
        int a;
        if (!propagate(s, bival))
            return;
        if (!(s->ucells[0] | s->ucells[1] | s->ucells[2])) {
            record(s, c);
            return;
        }
        choose(s, bival, &br);
        if (br.n == 0)
            return;
        for (a = 0; a + 1 < br.n; a++) {
            St child;
            if (c->guesses >= c->check_at && must_stop(c))
                return;
            c->guesses++;
            child = *s;
            child.dirty = apply(&child, &br, a, 0);
            search(&child, c);
            if (c->count >= c->limit || c->gave_up)
                return;
        }
        s->dirty = apply(s, &br, br.n - 1, s->dirty);
    }
}

/*
 * The givens of band b as a 27-bit mask (bit p set when cells[27*b + p] != 0); sets *bad when a
 * value exceeds 9. SSE2 compares 16 cells at a time: a per-cell branch on "given or empty"
 * mispredicts about every other cell, which cost ~10% on easy puzzles.
 */
static uint32_t given_mask(const uint8_t *band, int *bad) {
#if defined(__SSE2__)
    uint8_t buf[32];
    __m128i a, b2, zero = _mm_setzero_si128(), nine = _mm_set1_epi8(9);
    uint32_t nz;
    memcpy(buf, band, 27); /* never read past the 81 bytes of the caller */
    memset(buf + 27, 0, 5);
    a = _mm_loadu_si128((const __m128i *)buf);
    b2 = _mm_loadu_si128((const __m128i *)(buf + 16));
    nz = (uint32_t)_mm_movemask_epi8(_mm_cmpeq_epi8(a, zero)) |
         (uint32_t)_mm_movemask_epi8(_mm_cmpeq_epi8(b2, zero)) << 16;
    if (_mm_movemask_epi8(_mm_cmpeq_epi8(_mm_or_si128(_mm_subs_epu8(a, nine),
                                                      _mm_subs_epu8(b2, nine)),
                                         zero)) != 0xFFFF)
        *bad = 1;
    return ~nz & BAND_ALL;
#else
    uint32_t m = 0;
    int p;
    for (p = 0; p < 27; p++) {
        m |= (uint32_t)(band[p] != 0) << p;
        *bad |= band[p] > 9;
    }
    return m;
#endif
}

int sk9_search(const uint8_t *cells, uint64_t limit, uint64_t budget, uint8_t *first_solution,
               uint64_t *count, uint64_t *guesses, int (*poll)(void *), void *poll_ctx) {
    St s;
    Ctx c;
    uint32_t given[3];
    int b, bad = 0, i;
    if (!cells || limit == 0)
        return -1;
    for (b = 0; b < 3; b++)
        given[b] = given_mask(cells + 27 * b, &bad);
    if (bad)
        return -1;
    c.limit = limit;
    c.count = 0;
    c.budget = budget;
    c.guesses = 0;
    c.gave_up = 0;
    c.poll = poll;
    c.poll_ctx = poll_ctx;
    next_check(&c);
    c.first = first_solution;
    for (i = 0; i < 27; i++)
        s.f[i] = BAND_ALL;
    s.ucells[0] = s.ucells[1] = s.ucells[2] = BAND_ALL;
    s.urows[0] = s.urows[1] = s.urows[2] = BAND_ALL;
    s.dirty = BAND_ALL;
    /* Each given keeps its digit alone in its row, box and column; the updates of all 27 words
     * then place it and propagate. A given whose digit is already gone from its cell repeats a
     * digit of its row, column or box: no solution. */
    for (b = 0; b < 3; b++) {
        uint32_t g = given[b];
        while (g) {
            const int p = ctz32(g), w = W(cells[27 * b + p] - 1, b);
            const uint32_t x = 1u << p, col = ~((1u << (p % 9)) * COL_SPREAD);
            g &= g - 1;
            if (!(s.f[w] & x))
                goto done;
            s.f[w] &= ~ROWBOX[p] | x;
            s.f[OTHER1[w]] &= col;
            s.f[OTHER2[w]] &= col;
        }
    }
    search(&s, &c);
done:
    if (count)
        *count = c.count;
    if (guesses)
        *guesses = c.guesses;
    return c.gave_up;
}

int sk9_count(const uint8_t *cells, uint32_t limit, uint64_t budget, uint8_t *first_solution,
              uint64_t *guesses, int *gave_up) {
    uint64_t count = 0;
    /* The count is returned as an int: larger limits count as INT_MAX (sk9_search is 64-bit). */
    const int rc = sk9_search(cells, limit > INT_MAX ? INT_MAX : limit, budget, first_solution,
                              &count, guesses, NULL, NULL);
    if (rc < 0)
        return -1;
    if (gave_up)
        *gave_up = rc != 0;
    return (int)count;
}
