/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * ingest.h: turn a results-channel file (harness/PROTOCOL.md) into a column.
 *
 * Rules (documented in reports/README.md):
 * - a line whose CRC is absent or wrong, or that does not parse, counts as
 *   garbage and is otherwise ignored; noise before "@TTYPOT1 " on a line
 *   counts as one garbage line and the rest of the line is still parsed;
 * - a last line without a newline is truncated: ignored, counted;
 * - a case reported twice: the last line wins (counted as a duplicate);
 * - "cases/" in front of a program path is dropped.
 */
#ifndef TTYPOT_INGEST_H
#define TTYPOT_INGEST_H

#include <stdbool.h>
#include <stddef.h>

#include "guest.h"
#include "result.h"

/* One line without its newline.  0 parsed, -1 garbage (counted). */
int ingest_line(struct column *c, const char *line, size_t n);
/* Complete lines of buf; returns the bytes consumed (through the last
 * newline).  With final, a trailing partial line is counted as truncated. */
size_t ingest_buf(struct column *c, const char *buf, size_t n, bool final);
/* The whole file.  0, or -1 with a message naming the file. */
int ingest_file(struct column *c, const char *path, char *err, size_t errlen);
/* After the run: expected cases the stream lacks become panic (c->end is
 * END_PANIC), timeout (END_TIMEOUT) or missing (otherwise); an END_DONE
 * column without an end line becomes END_SILENT.  filter: --cases. */
void ingest_finish(struct column *c, const struct idlist *expected,
		   const char *filter);
/* Was r filled in by ingest_finish (never reported by the guest, whose
 * statuses are pass fail skip xfail broken)? */
bool ingest_filled(const struct case_result *r);

/* How a run ended (guest.h), as a column's end. */
enum col_end ingest_end(enum run_end e);

/* Expected case ids: `kyua list -k KYUAFILE`, with a deadline.  Ids are
 * "program:case" relative to the Kyuafile's directory, "cases/" dropped.
 * 0, or -1 with a message. */
int caselist_kyua(const char *kyuafile, int deadline_s, struct idlist *out,
		  char *err, size_t errlen);
/* Parse kyua list output (one "program:case" per line). */
void caselist_parse(const char *text, struct idlist *out);
/* caselist_kyua with `kyua list -v`, also keeping each case's description
 * and custom.ttypot.commits in meta (may be NULL). */
int caselist_kyua_meta(const char *kyuafile, int deadline_s, struct idlist *out,
		       struct metalist *meta, char *err, size_t errlen);
/* Parse kyua list -v output: "program:case (suite)" lines, each followed by
 * indented "name = value" properties. */
void caselist_parse_verbose(const char *text, struct idlist *out,
			    struct metalist *meta);

#endif
