/*
 * sk_lines.c -- the bulk line path: parse, search and write blocks of 9x9 puzzle lines.
 *
 * See sk_lines.h for the contract, and above all for which lines this parser takes: the Python
 * line reader is the specification, and every line this file is not sure about goes back to
 * the caller untouched.  Data flow of one call:
 *
 *     data  |line 0\n|line 1\n|...|line k|          (bytes, explicit length)
 *             |        |
 *             v        v
 *     skl_scan_line -> 81 cells -> sk_search (limit, keep 1) -> status -> output text
 *                   \-> blank/comment: nothing     \-> a note for NONE, MULTIPLE, GAVE_UP
 *                    \-> anything else: a SKL_PYTHON note, nothing written
 *
 * Statuses are decided as sudokit.solver decides them (_result): two or more solutions is
 * "multiple" (even when the budget ran out), else an unfinished search is "gave-up", else one
 * solution is "unique", else "none" -- unless the givens conflict, which Python reports with
 * the cells named ("invalid"), so that line becomes a SKL_PYTHON note.  A count is the one
 * exception: there an unfinished search is "gave-up" whatever it found (its count is only a
 * lower bound, written ">=N"), unless it found more than the shown limit anyway.
 */
#include "sk_lines.h"

#include <string.h>

/* The bytes Python's str.strip() and str.split() treat as white space, among ASCII. */
static int is_space(uint8_t c) { return c == ' ' || (c >= 9 && c <= 13) || (c >= 28 && c <= 31); }

/* Cell symbol -> value 0..9, or -1 (the 9x9 line table of sudokit.grid._line_table). */
static int cell_value(uint8_t c) {
    if (c >= '1' && c <= '9') return c - '0';
    if (c == '.' || c == '0' || c == '-' || c == '_' || c == '*') return 0;
    return -1;
}

int skl_scan_line(const uint8_t *data, size_t len, uint8_t cells[81]) {
    for (size_t i = 0; i < len; i++)
        if (data[i] == 0 || data[i] > 127) return -1;
    /* '\r' only at the end (stream_lines strips "\r\n" there); elsewhere it breaks the line. */
    size_t end = len;
    while (end > 0 && (data[end - 1] == '\r' || data[end - 1] == '\n')) end--;
    for (size_t i = 0; i < end; i++)
        if (data[i] == '\r') return -1;
    size_t a = 0;
    while (a < end && is_space(data[a])) a++;
    size_t b = end;
    while (b > a && is_space(data[b - 1])) b--;
    if (a == b || data[a] == '#') return 0;
    if (b - a < 81) return -1;
    for (size_t i = 0; i < 81; i++) {
        const int v = cell_value(data[a + i]);
        if (v < 0) return -1;
        cells[i] = (uint8_t)v;
    }
    if (b - a > 81 && !is_space(data[a + 81])) return -1;
    return 1;
}

/* 1 when a digit appears twice in a row, column or box of the 9x9 grid. */
static int conflicts9(const uint8_t cells[81]) {
    uint16_t rows[9] = {0}, cols[9] = {0}, boxes[9] = {0};
    for (int i = 0; i < 81; i++) {
        if (!cells[i]) continue;
        const uint16_t bit = (uint16_t)(1u << cells[i]);
        const int r = i / 9, c = i % 9, b = (r / 3) * 3 + c / 3;
        if ((rows[r] | cols[c] | boxes[b]) & bit) return 1;
        rows[r] |= bit;
        cols[c] |= bit;
        boxes[b] |= bit;
    }
    return 0;
}

/* Writes s (NUL-terminated) and '\n' at out; returns the bytes written. */
static size_t put_text(uint8_t *out, const char *s) {
    size_t k = strlen(s);
    memcpy(out, s, k);
    out[k] = '\n';
    return k + 1;
}

/* Writes v in decimal after prefix and '\n'; returns the bytes written (<= 22). */
static size_t put_count(uint8_t *out, const char *prefix, uint64_t v) {
    char digits[24];
    int k = 0;
    do {
        digits[k++] = (char)('0' + v % 10);
        v /= 10;
    } while (v);
    size_t n = strlen(prefix);
    memcpy(out, prefix, n);
    while (k) out[n++] = (uint8_t)digits[--k];
    out[n++] = '\n';
    return n;
}

/* The status names of sudokit.Status, by note code (SKL_PYTHON unused). */
static const char *const status_name[] = {"invalid", "none", "multiple", "gave-up"};

int skl_run(const sk_geom *g, sk_work *w, const uint8_t *data, size_t len, const skl_opts *o,
            uint8_t *out, size_t out_cap, size_t *out_len, skl_note *notes, size_t notes_cap,
            size_t *nnotes, size_t *consumed, uint64_t *lines, uint64_t *records,
            sk_poll_fn poll, void *poll_ctx) {
    if (g == NULL || w == NULL || (data == NULL && len) || o == NULL || out == NULL ||
        out_len == NULL || notes == NULL || nnotes == NULL || consumed == NULL ||
        lines == NULL || records == NULL || !sk_geom_is_standard9(g) || o->limit < 2 ||
        out_cap < SKL_MAX_OUT_LINE || notes_cap == 0)
        return SK_EINVAL;
    size_t pos = 0, o_len = 0, n_notes = 0;
    uint64_t line = 0, record = 0, since_poll = 0;
    int rc = SK_COMPLETE;
    uint8_t cells[81], sol[81];
    while (pos < len) {
        if (n_notes == notes_cap || out_cap - o_len < SKL_MAX_OUT_LINE) break;
        const uint8_t *nl = memchr(data + pos, '\n', len - pos);
        const size_t end = nl ? (size_t)(nl - data) : len;
        const size_t next = nl ? end + 1 : len;
        skl_note *note = &notes[n_notes];
        note->start = pos;
        note->end = end;
        note->out = o_len;
        note->line = line;
        note->record = record;
        note->guesses = 0;
        note->count = 0;
        const int kind = skl_scan_line(data + pos, end - pos, cells);
        if (kind < 0) {
            note->code = SKL_PYTHON;
            n_notes++;
        } else if (kind == 1) {
            if (poll != NULL && ++since_poll >= 256) {
                since_poll = 0;
                if (poll(poll_ctx)) {
                    rc = SK_STOPPED;
                    break;
                }
            }
            uint64_t count = 0, guesses = 0;
            memset(sol, 0, sizeof sol);
            const int src = sk_search(g, w, cells, o->limit, 1, sol, o->budget, &count,
                                      &guesses, poll, poll_ctx);
            if (src == SK_STOPPED) {
                rc = SK_STOPPED;
                break;
            }
            if (src != SK_COMPLETE && src != SK_GAVE_UP) return SK_EINVAL;
            /* A count that stopped short of its limit is exact only when the search finished. */
            const int bounded = src != SK_COMPLETE && o->mode == SKL_COUNT && count <= o->shown;
            int code;
            if (bounded)
                code = SKL_GAVE_UP;
            else if (count >= 2)
                code = SKL_MULTIPLE;
            else if (src != SK_COMPLETE)
                code = SKL_GAVE_UP;
            else if (count == 1)
                code = -1; /* unique */
            else
                code = conflicts9(cells) ? SKL_PYTHON : SKL_NONE;
            if (code == SKL_PYTHON) { /* "invalid": Python names the conflicting cells */
                note->code = SKL_PYTHON;
                n_notes++;
                pos = next;
                line++;
                continue; /* not counted as a record here: the caller's reading counts it */
            }
            uint8_t *dst = out + o_len;
            if (o->mode == SKL_SOLVE) {
                if (count >= 1 && (code < 0 || !o->unique)) {
                    for (int i = 0; i < 81; i++) dst[i] = (uint8_t)('0' + sol[i]);
                    dst[81] = '\n';
                    o_len += 82;
                } else {
                    dst[0] = '!';
                    o_len += 1 + put_text(dst + 1, status_name[code]);
                }
            } else if (o->mode == SKL_CHECK) {
                o_len += put_text(dst, code < 0 ? "unique" : status_name[code]);
            } else if (count > o->shown) {
                o_len += put_count(dst, ">", o->shown);
            } else if (code == SKL_GAVE_UP) { /* the count so far is a lower bound */
                o_len += count ? put_count(dst, ">=", count) : put_text(dst, "!gave-up");
            } else {
                o_len += put_count(dst, "", count);
            }
            if (code >= 0) {
                note->code = code;
                note->guesses = guesses;
                note->count = count;
                n_notes++;
            }
            record++;
        }
        pos = next;
        line++;
    }
    *out_len = o_len;
    *nnotes = n_notes;
    *consumed = pos;
    *lines = line;
    *records = record;
    return rc;
}
