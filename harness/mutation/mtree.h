/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * mtree.h: the schemata kernel tree and single-object compiles.
 *
 * The tree is a hard-link copy of the pristine unpacked source (cp -al:
 * seconds, no space) in which only the files ttypot writes are replaced,
 * each unlinked first so the pristine copy is never touched: the mutated
 * files, drivers/tty/Makefile (every object under drivers/tty includes
 * include/linux/ttypot_mutant.h) and that header.  The tree builds out of
 * tree like any tree: kernel, and ccache shares the untouched objects.
 */
#ifndef TTYPOT_MTREE_H
#define TTYPOT_MTREE_H

#include <stddef.h>

#include "rbuf.h"

/* Make (once per pristine source) the hard-link copy and the Makefile and
 * header it needs.  0, or -1 with a message. */
int mtree_prepare(const char *pristine, const char *tree, char *err, size_t errlen);
/* The same for any source (a user's git tree: --tree), linked again when
 * ident (what the source holds) differs from the last link's. */
int mtree_prepare_ident(const char *pristine, const char *tree, const char *ident, char *err,
			size_t errlen);

/* Make every object of tree/dir (and its subdirectories) see the mutant
 * id: its Makefile as pristine's, with the header forced in.  mtree_prepare
 * does it for drivers/tty; mutated files elsewhere (drivers/usb/serial)
 * need it for their own directory.  0, or -1 with a message. */
int mtree_include_in(const char *pristine, const char *tree, const char *dir, char *err,
		     size_t errlen);

/* Replace tree/rel with text, unless it already holds exactly that (so make
 * rebuilds only what changed).  0, or -1 with a message. */
int mtree_write(const char *tree, const char *rel, const char *text, char *err,
		size_t errlen);

/* Compile rel (a .c under drivers/tty) alone, as the build in build_dir
 * compiled it (its .cmd file), with -DTTYPOT_MUTANT_CONST=id, into out_obj.
 * 0; 1 when the compiler rejects it (diag gets its messages); -1 with a
 * message when it could not be tried. */
int mtree_compile_const(const char *build_dir, const char *rel, unsigned id,
			const char *out_obj, struct rbuf *diag, char *err,
			size_t errlen);

/* mtree_compile_const for ids[0..n) of one file, jobs at a time; objects
 * go to workdir/mut-ID.o.  res[i]: 0 compiled, 1 rejected (diag[i] gets
 * the compiler's first error, malloc'd), -1 not tried (diag[i] says why). */
void mtree_compile_batch(const char *build_dir, const char *rel, const unsigned *ids,
			 size_t n, const char *workdir, int jobs, int *res, char **diag);

/* Do two objects hold the same code and data (debug information and notes
 * aside)?  1 same, 0 different, -1 with a message. */
int mtree_same_code(const char *a, const char *b, char *err, size_t errlen);

#endif
