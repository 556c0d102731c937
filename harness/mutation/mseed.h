/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * mseed.h: may a user's tree (--diff --tree DIR) start its schemata build
 * from the objects of the src: build of the same source?
 *
 * Only when nothing but C files of the kernel differs (none of tools/ and
 * scripts/, the build's own programs): the seeded objects' recorded
 * dependencies name the source's headers, so a changed header, Makefile or
 * Kconfig would go unseen, and a file the source lacks (an in-tree build's
 * objects, a new file) is not vouched for.  The C files that differ are
 * given fresh copies in the schemata tree, so that make, deciding by
 * mtimes, remakes their objects whatever the user's files' mtimes are.
 */
#ifndef TTYPOT_MSEED_H
#define TTYPOT_MSEED_H

#include <stddef.h>

#include "rbuf.h"

/* Compare tree with pristine, file by file (.git left out; the same inode,
 * the same bytes or a symbolic link to the same name is the same file).
 * 1: only C files differ, their paths relative to the tree in `differ`,
 * one a line; 0: not seedable, why says which file; -1: with why. */
int mseed_check(const char *pristine, const char *tree, struct rbuf *differ, char *why,
		size_t whylen);

/* Give each file of `list` (mseed_check's) a copy of its own in tree, with
 * the current time as its mtime.  0, or -1 with err. */
int mseed_refresh(const char *tree, const char *list, char *err, size_t errlen);

#endif
