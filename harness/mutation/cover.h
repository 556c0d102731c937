/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * cover.h: the per-program coverage map of drivers/tty (stage "mutation":
 * base -> kernel -> mutation -> guest -> results -> report -> commands).
 *
 * `make coverage` boots the gcov kernel (harness/coverage/) and, with
 * --per-program, resets the counters before each test program and dumps them
 * after it, so every executed line of the tty layer is known per program.
 * Lines the kernel executes before the first program (boot, the guest's own
 * init) count as reached by every program.
 *
 * The map is a text file people can read (default reports/cover.map):
 *
 *     # ttypot coverage map 2
 *     # source linux-source-6.12 <release>, suite <git describe>, <date>
 *     program pty/t_open 3.2              # seconds on the gcov kernel
 *     cases pty/t_open master_opens slave_opens_after_unlock
 *     fn drivers/tty/n_tty.c 1530 1620 n_tty_set_termios
 *     line drivers/tty/n_tty.c 1234 *                      # boot: every program
 *     line drivers/tty/n_tty.c 1235 pty/t_open canon/t_line_edit
 *
 * Paths are relative to the kernel source root; lines are 1-based lines of
 * the unmodified source.  A line not listed was executed by no program.
 *
 * "unrun" (version 3) lists lines gcov counts that no program executed:
 *
 *     unrun drivers/tty/n_tty.c 1236 1240 1302
 *
 * so a line in neither "line" nor "unrun" has no counter of its own (gcov's
 * "-": a return after a loop, a break, a statement the compiler merged
 * into a neighbouring block).  Such a line is reached by whoever reaches
 * its nearest counted neighbours, or the counted line its braces put before
 * it on every path (cover_programs_around, blocks.h); in a version 1
 * or 2 map it cannot be told from an unexecuted line.
 *
 * "cases" (version 2) lists the cases a program had when the map was made
 * (its `-l` listing), after its "program" line.  A map records what those
 * cases executed and nothing about a case added since, so a program whose
 * cases differ now, or whose list the map lacks, is stale
 * (cover_check_cases): it counts as a program the map does not know, which
 * every user of the map runs for every mutant or change.  A version 1 map
 * (no case lists) still loads; its case lists are unknown and its programs
 * are trusted as they were (cover_check_cases says so).
 */
#ifndef TTYPOT_COVER_H
#define TTYPOT_COVER_H

#include <stdbool.h>
#include <stddef.h>

struct cover_fn {
	char *file, *name;
	int first, last;      /* line range of the function's body */
};

struct cover_line {
	char *file;
	int line;
	bool boot;            /* reached before the first program: every program */
	char **progs;         /* programs that executed it (when !boot) */
	size_t nprogs;
};

struct cover_map {
	int version;          /* of the file: 1 has no case lists */
	char **progs;         /* every program the map knows */
	double *prog_secs;    /* its seconds on the gcov kernel (-1 unknown) */
	char ***prog_cases;   /* its cases when the map was made (NULL unknown) */
	size_t *prog_ncases;
	bool *prog_stale;     /* cover_check_cases: its cases changed since */
	size_t nprogs;
	struct cover_fn *fns;
	size_t nfns;
	struct cover_line *lines; /* sorted by file, line */
	size_t nlines;
	struct cover_line *unrun; /* counted, executed by none (version 3) */
	size_t nunrun;
	char source[256];     /* the "# source" comment, "" when absent */
};

/* Load a map; 0, or -1 with a message naming the file and line. */
int cover_load(const char *path, struct cover_map *m, char *err, size_t errlen);
void cover_free(struct cover_map *m);

/* The entry for file:line, or NULL when no program executed it. */
const struct cover_line *cover_find(const struct cover_map *m,
				    const char *file, int line);
/* The function containing file:line, or NULL. */
const struct cover_fn *cover_fn_at(const struct cover_map *m, const char *file,
				   int line);
/* A function by name (first match in any file, or in file when not NULL). */
const struct cover_fn *cover_fn_named(const struct cover_map *m,
				      const char *file, const char *name);

/* Programs reaching file:line, space-separated, into out; every program
 * when the line is a boot line.  Stale programs are left out: the caller
 * runs them as programs the map does not know.  Returns how many (0: not
 * covered). */
size_t cover_programs(const struct cover_map *m, const char *file, int line,
		      char *out, size_t outlen);

/* Does gcov count file:line (executed or "unrun")?  Always true for a
 * version 1 or 2 map, which cannot tell. */
bool cover_has_counter(const struct cover_map *m, const char *file, int line);

/* The nearest counted lines (executed or "unrun") before and after line
 * in its function, 0 for none (and both 0 outside a function the map
 * knows). */
void cover_counted_neighbours(const struct cover_map *m, const char *file, int line,
			      int *before, int *after);

/* For a line without a counter (cover_has_counter false): the programs of
 * the nearest counted lines before and after it in its function, and with
 * the file's braces (src, or NULL) those of the nearest counted line that
 * is before it on every path (blocks_before), as cover_programs gives
 * them; the number found, 0 when all are unexecuted or it is in no
 * function the map knows. */
struct blocks;
size_t cover_programs_around(const struct cover_map *m, const char *file, int line,
			     const struct blocks *src, char *out, size_t outlen);

/* Hold the map's case lists against the suite's cases now (ids:
 * "program:case", as `kyua list` gives them): each program whose list
 * differs, or that has none in a version 2 map, is marked stale.  note
 * gets one sentence for the user ("" when nothing is to be said): the
 * stale programs, or that a version 1 map cannot tell.  Returns how many
 * programs are stale. */
size_t cover_check_cases(struct cover_map *m, const char *const *ids, size_t nids,
			 char *note, size_t notelen);

/* Was file profiled when the map was made (a function or an executed line
 * of it listed)?  A line of a file the map never profiled is not "executed
 * by no program": the map cannot say, so its users run every program. */
bool cover_knows_file(const struct cover_map *m, const char *file);

/* Does the map know prog and its cases (listed and not stale)? */
bool cover_knows(const struct cover_map *m, const char *prog);

#endif
