/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * patch_order.h: which of the suite's cases a patch reaches (ci --base,
 * bisect-run): the programs diffmap.h finds through the coverage map,
 * turned into Kyua filters over the suite's cases, those first and the
 * rest after.
 */
#ifndef TTYPOT_PATCH_ORDER_H
#define TTYPOT_PATCH_ORDER_H

#include <stdbool.h>
#include <stddef.h>

#include "result.h"

/* The map's place when --map is not given: SUITE/reports/cover.map (what
 * `make coverage` with --per-program writes). */
#define PATCH_ORDER_MAP "reports/cover.map"

struct patch_order {
	bool all;          /* everything may be affected (why says why) */
	char why[700];
	char *first;       /* the programs reaching the change, as a filter ("" none) */
	char *rest;        /* every other program of the suite, by area where whole */
	long first_cases;  /* cases in first */
	long rest_cases;
	size_t nprogs;     /* programs in first */
	size_t nlines;     /* changed lines the map answered for */
	bool by_function;  /* some file of another version went by function names */
	size_t nstale;     /* programs whose cases differ from the map's: in first */
	char note[1024];   /* what cover_check_cases said about them ("" nothing) */
};

/* The map (map_path, or SUITE/PATCH_ORDER_MAP when NULL) and the diff of
 * tree against base; a program whose cases in expected differ from the
 * map's counts as one the map does not know (po->note names them).  0: po filled (po->all when the map cannot narrow it);
 * -1 with a message: no map, a map that does not load, git failed. */
int patch_order_plan(const char *suite, const char *map_path, const char *tree,
		     const char *base, const struct idlist *expected,
		     struct patch_order *po, char *err, size_t errlen);
void patch_order_free(struct patch_order *po);

#endif
