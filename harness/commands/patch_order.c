// SPDX-License-Identifier: GPL-2.0-only
/* patch_order.c: a patch's programs as filters over the suite's cases
 * (patch_order.h). */
#include "patch_order.h"
#include "cover.h"
#include "diffmap.h"
#include "kutil.h"
#include "rbuf.h"

#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Paths are bounded by PATH_MAX; a truncated message is only shorter. */
#pragma GCC diagnostic ignored "-Wformat-truncation"

/* "pty/t_open" of "pty/t_open:case". */
static void program_of(const char *id, char *out, size_t outlen)
{
	snprintf(out, outlen, "%.*s", (int)strcspn(id, ":"), id);
}

/* Filters from the suite's cases: the programs r selects, and the others
 * (a whole area as its name). */
static void filters(const struct dm_result *r, const struct idlist *expected,
		    struct patch_order *po)
{
	struct rbuf first = {0}, rest = {0};
	char prog[256], last[256] = "", area[128], whole[128] = "";
	for (size_t i = 0; i < expected->n; i++) {
		const char *id = expected->v[i];
		program_of(id, prog, sizeof prog);
		bool sel = dm_selects(r, prog);
		if (sel)
			po->first_cases++;
		else
			po->rest_cases++;
		if (!strcmp(prog, last))
			continue;
		snprintf(last, sizeof last, "%s", prog);
		if (sel) {
			rbuf_addf(&first, "%s%s", first.len ? " " : "", prog);
			continue;
		}
		/* An area none of whose programs is selected goes as one word. */
		case_area(id, area, sizeof area);
		bool area_whole = true;
		for (size_t k = 0; k < expected->n && area_whole; k++) {
			char a[128], p[256];
			case_area(expected->v[k], a, sizeof a);
			program_of(expected->v[k], p, sizeof p);
			area_whole = strcmp(a, area) != 0 || !dm_selects(r, p);
		}
		if (area_whole && !strcmp(whole, area))
			continue;
		if (area_whole)
			snprintf(whole, sizeof whole, "%s", area);
		rbuf_addf(&rest, "%s%s", rest.len ? " " : "", area_whole ? area : prog);
	}
	po->first = xstrdup(rbuf_str(&first));
	po->rest = xstrdup(rbuf_str(&rest));
	rbuf_free(&first);
	rbuf_free(&rest);
}

int patch_order_plan(const char *suite, const char *map_path, const char *tree,
		     const char *base, const struct idlist *expected,
		     struct patch_order *po, char *err, size_t errlen)
{
	memset(po, 0, sizeof *po);
	char path[PATH_MAX];
	if (map_path)
		snprintf(path, sizeof path, "%s", map_path);
	else
		snprintf(path, sizeof path, "%s/%s", suite, PATCH_ORDER_MAP);
	if (!ku_is_file(path)) {
		snprintf(err, errlen, "no coverage map %s (make coverage writes it; --map FILE)",
			 path);
		return -1;
	}
	struct cover_map m;
	char why[512];
	if (cover_load(path, &m, why, sizeof why) < 0) {
		snprintf(err, errlen, "coverage map: %s", why);
		return -1;
	}
	po->nstale = cover_check_cases(&m, (const char *const *)expected->v, expected->n,
				       po->note, sizeof po->note);
	struct dm_diff d;
	struct dm_result r;
	int rc = -1;
	if (dm_git_diff(tree, base, &d, err, errlen) < 0)
		goto out_map;
	if (dm_map(&m, &d, tree, base, &r, err, errlen) < 0)
		goto out_diff;
	po->all = r.all;
	snprintf(po->why, sizeof po->why, "%s", r.why);
	po->nprogs = r.nprogs;
	po->nlines = r.nlines;
	po->by_function = r.by_function;
	if (!r.all)
		filters(&r, expected, po);
	/* A program the map names that the suite no longer has is not run;
	 * a suite program the map never saw, or whose cases changed since,
	 * is in first (dm_selects). */
	dm_result_free(&r);
	rc = 0;
out_diff:
	dm_diff_free(&d);
out_map:
	cover_free(&m);
	return rc;
}

void patch_order_free(struct patch_order *po)
{
	free(po->first);
	free(po->rest);
	memset(po, 0, sizeof *po);
}
