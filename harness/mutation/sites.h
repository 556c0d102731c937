/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * sites.h: mutation sites of the tty layer, found by Coccinelle.
 *
 * Each rule in fixtures/mutation/<op>.cocci (one operator, one purpose)
 * prints one line per site:
 *
 *     S <op> <file> <line> <col> <end_line> <end_col> <function> <extra>
 *
 * (0-based columns, the end exclusive; extra depends on the operator, see
 * the rule's header).  spatch reads the C; this file only runs it and reads
 * its lines.
 */
#ifndef TTYPOT_SITES_H
#define TTYPOT_SITES_H

#include <stddef.h>

#include "mutant.h"

struct site {
	enum mut_op op;
	char file[96];       /* relative to the source root */
	int l1, c1, l2, c2;
	char func[64];
	char extra[128];
};

/* Parse one "S ..." line; the file is made relative to src_root.  0, 1 for
 * a line that is not a site (spatch's own chatter), -1 with a message for a
 * malformed site line. */
int site_parse(const char *line, const char *src_root, struct site *s,
	       char *err, size_t errlen);

/* Run every rule of rules_dir (*.cocci, sorted) on src_root/file and append
 * the sites to *v.  0, or -1 with a message naming the rule and the file. */
int sites_scan(const char *src_root, const char *rules_dir, const char *file,
	       struct site **v, size_t *n, char *err, size_t errlen);

#endif
