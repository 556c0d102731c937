/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * diffmap.h: which test programs reach a change of the tty layer, from a
 * git diff (gitdiff.c) and the per-program coverage map (cover.h), through
 * the functions of the changed files (cfuncs.c).  `ttypot ci --base`
 * runs them first, `ttypot bisect-run` runs only them.
 *
 * Never fewer programs than the diff can affect: anything the map cannot
 * answer for runs everything, with the reason:
 *   - a header, a build file (Makefile, Kconfig, scripts), any file that
 *     is not a .c file the map has functions for, a new, deleted, renamed
 *     or binary file;
 *   - a changed line outside every function (a declaration, a macro, an
 *     initializer), a function the map does not know (new, or renamed).
 * Files the kernel build never reads (Documentation/, LICENSES/, README,
 * MAINTAINERS, CREDITS, COPYING, .mailmap, .gitignore) are left out.
 *
 * Line numbers are the map's own only when the base file is the map's
 * source: every function the map lists for the file starts and ends where
 * it does in the base file.  Then a changed line the map lists gives the
 * programs that executed it; any other changed line of a function (a
 * declaration, a brace, an insertion) gives every program that executed a
 * line of that function.  In a file of another version (another kernel)
 * each changed line goes through the function that holds it, by name.
 */
#ifndef TTYPOT_DIFFMAP_H
#define TTYPOT_DIFFMAP_H

#include <stdbool.h>
#include <stddef.h>

#include "cover.h"

/* One hunk of a `git diff -U0`: base lines [os, os+oc) became new lines
 * [ns, ns+nc); oc 0 is an insertion after base line os. */
struct dm_hunk {
	int os, oc, ns, nc;
};

/* One file of a `git diff -U0`. */
struct dm_file {
	char *path;            /* b/ side (a/ side for a deletion) */
	bool created, deleted, renamed, binary;
	struct dm_hunk *hunks;
	size_t nhunks;
};

struct dm_diff {
	struct dm_file *v;
	size_t n;
};

/* Parse `git diff -U0 --no-renames` output.  0, or -1 with a message. */
int dm_parse(const char *text, struct dm_diff *d, char *err, size_t errlen);
void dm_diff_free(struct dm_diff *d);

/* The diff of tree's working files against base (a git revision).  0, or
 * -1 with a message naming the tree or revision. */
int dm_git_diff(const char *tree, const char *base, struct dm_diff *d, char *err,
		size_t errlen);

/* git -C tree ARGS... (at most 12): its output, malloc'd; NULL with git's
 * message when it fails.  dm_git_show: `git show rev:path`. */
char *dm_git(const char *tree, const char *const *args, char *err, size_t errlen);
char *dm_git_show(const char *tree, const char *rev, const char *path, char *err,
		  size_t errlen);

/* The base a `git bisect run` step compares with: the nearest
 * refs/bisect/good-* that is an ancestor of HEAD (the commits a bad step's
 * bug was made in lie between them), else HEAD's parent.  0 or -1. */
int dm_bisect_base(const char *tree, char *rev, size_t revlen, char *err,
		   size_t errlen);

/* A function of a C file, as dm_functions finds it. */
struct dm_fn {
	char name[64];
	int start;   /* the line of its name */
	int brace;   /* the line of its opening brace */
	int end;     /* the line of its closing brace */
};

/* The function definitions of C source text (comments, strings and
 * preprocessor lines skipped; braces counted).  *out malloc'd. */
size_t dm_functions(const char *text, struct dm_fn **out);

struct dm_result {
	bool all;              /* run everything */
	char why[512];         /* the first reason for everything */
	char **progs;          /* else: the programs reaching the changes */
	size_t nprogs;
	size_t nfiles;         /* tty files mapped */
	size_t nlines;         /* changed lines mapped */
	bool by_function;      /* some file went through function names */
	char **known;          /* the programs the map knows */
	size_t nknown;
};

/* Map the diff of tree against base onto m.  0, or -1 with a message (a
 * file of the diff that git cannot show). */
int dm_map(const struct cover_map *m, const struct dm_diff *d, const char *tree,
	   const char *base, struct dm_result *r, char *err, size_t errlen);
void dm_result_free(struct dm_result *r);

/* Is the program in r: reaching the change, or one the map does not know
 * (a program newer than the map, or one whose cases changed since it was
 * made: cover_check_cases, may reach anything), or r everything?
 * None is when only files the build never reads changed. */
bool dm_selects(const struct dm_result *r, const char *prog);

#endif
