/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * patchsel.h: the mutants of a patch.  `ttypot mutants --generate --diff
 * REV[..REV] --tree DIR` reads the change with git (gitdiff.c), generates
 * every mutant of the C files under drivers/tty it touches (generate.h)
 * and keeps those whose span holds a line the change added or replaced,
 * unless all of the span's lines are arid (arid.h) or it lies where C
 * needs a constant: no sampling, every operator, every site.
 *
 * Only drivers/tty: the schemata guard reaches the objects there (mtree.h)
 * and the suite and its coverage map are about them.  Other changed files
 * are named, not mutated.
 */
#ifndef TTYPOT_PATCHSEL_H
#define TTYPOT_PATCHSEL_H

#include <stdbool.h>
#include <stddef.h>

#include "cover.h"
#include "diffmap.h"
#include "generate.h"
#include "rbuf.h"

/* A change of a git tree's working files. */
struct ps_change {
	char tree[4096];      /* the tree's top, as realpath gives it */
	char spec[200];       /* as given: REV or A..B */
	char from[160], to[160]; /* to "": the working files */
	char head[48];        /* HEAD's sha */
	struct dm_diff diff;
};

/* Read "REV" (the working files against REV, as `ci --base`) or "A..B" (B
 * against A; then the working files of every changed file must be B's,
 * since they are what is built) in tree.  0, or -1 with a message naming
 * the tree that is no git tree's top, the revision git does not know, or
 * the file that differs from B. */
int ps_read(const char *tree, const char *spec, struct ps_change *c, char *err,
	    size_t errlen);
void ps_free(struct ps_change *c);

/* The changed C files under drivers/tty that the tree still has
 * (comma-separated into files, the form of --files); the other changed
 * files into others (space-separated).  Returns how many C files. */
size_t ps_files(const struct ps_change *c, struct rbuf *files, struct rbuf *others);

/* The diff's file path, or NULL. */
const struct dm_file *ps_file(const struct dm_diff *d, const char *path);

/* Does the change add or replace a line of l1..l2 (new numbering)? */
bool ps_touches(const struct dm_file *f, int l1, int l2);

struct ps_counts {
	size_t touched;       /* mutants on changed lines */
	size_t arid;          /* of them on arid lines only: left out */
	size_t constant;      /* of them in constant contexts: left out */
	size_t picked;        /* the rest: the patch's mutants */
	size_t lines;         /* changed lines */
	size_t arid_lines;    /* of them arid */
};

/* Mark pick[i] for the patch's mutants among v[0..n) (generated from the
 * files' texts, as gen_finish leaves them); file_text gives a file's text
 * (NULL: none).  Counts are added to *k. */
void ps_select(const struct dm_diff *d, const struct gmut *v, size_t n,
	       const char *(*file_text)(const void *ctx, const char *file),
	       const void *ctx, unsigned char *pick, struct ps_counts *k);

/* The programs that execute a line of file's function func in the map,
 * space-separated into out (stale programs left out, as cover_programs
 * does): a patch's lines are new to a map made of the source before it,
 * so its mutants go by the function that holds them.  Returns how many,
 * -1 when the map does not know the function (new, or renamed). */
int ps_fn_programs(const struct cover_map *m, const char *file, const char *func,
		   struct rbuf *out);

#endif
