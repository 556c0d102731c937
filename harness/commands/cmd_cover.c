// SPDX-License-Identifier: GPL-2.0-only
/* cmd_cover.c: `ttypot cover [--map FILE] WHERE...`: the test programs
 * that execute a line or a function of the tty layer, from the per-program
 * coverage map `make coverage` writes (harness/mutation/cover.h). */
#include "cmd_cover.h"
#include "cli.h"
#include "cover.h"
#include "suite_dir.h"

#include <ctype.h>
#include <limits.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char *const cover_more =
	"WHERE is FILE:LINE (drivers/tty/n_tty.c:1234), FILE:FUNCTION\n"
	"(drivers/tty/n_tty.c:n_tty_read) or FUNCTION (n_tty_read); FILE may be\n"
	"shortened to its last components (n_tty.c).  Prints the programs that\n"
	"execute the line, or any line of the function, one per line, in the\n"
	"order they ran; a summary per WHERE goes to stderr.  A line executed before\n"
	"the first program (boot, the guest's init) counts for every program.\n"
	"The map (default SUITE/reports/cover.map) comes from `make coverage`.\n"
	"Exit: 0 some program reaches a WHERE, 1 none does, 2 usage or input errors\n"
	"(an unknown file or function, a map that does not parse).\n";

/* The files the map knows, in the order first seen. */
static size_t known_files(const struct cover_map *m, const char ***out)
{
	const char **f = calloc(m->nfns + m->nlines + 1, sizeof *f);
	size_t n = 0;
	if (!f)
		abort();
	for (size_t i = 0; i < m->nfns + m->nlines; i++) {
		const char *p = i < m->nfns ? m->fns[i].file : m->lines[i - m->nfns].file;
		if (n && !strcmp(f[n - 1], p))
			continue;
		bool seen = false;
		for (size_t j = 0; j < n && !seen; j++)
			seen = !strcmp(f[j], p);
		if (!seen)
			f[n++] = p;
	}
	*out = f;
	return n;
}

/* spec names which known file: exactly, or as its last path components. */
static const char *resolve_file(const struct cover_map *m, const char *spec, const char *map)
{
	const char **f;
	size_t n = known_files(m, &f), hits = 0, sl = strlen(spec);
	const char *found = NULL, *other = NULL;
	for (size_t i = 0; i < n; i++) {
		size_t fl = strlen(f[i]);
		if (!strcmp(f[i], spec)) {
			found = f[i];
			hits = 1;
			break;
		}
		if (fl > sl && f[i][fl - sl - 1] == '/' && !strcmp(f[i] + fl - sl, spec)) {
			if (hits++)
				other = f[i];
			else
				found = f[i];
		}
	}
	if (hits > 1)
		fprintf(stderr, "ttypot: cover: file '%s' is ambiguous (%s, %s, ...): give more "
			"of its path\n", spec, found, other);
	else if (!hits)
		fprintf(stderr, "ttypot: cover: unknown file '%s': %s has no function or "
			"executed line in it (paths are relative to the kernel source, e.g. "
			"drivers/tty/n_tty.c)\n", spec, map);
	free(f);
	return hits == 1 ? found : NULL;
}

/* The function called name (in file, or anywhere when file is NULL);
 * an error when unknown or, without a file, in several files. */
static const struct cover_fn *resolve_fn(const struct cover_map *m, const char *file,
					 const char *name, const char *map)
{
	const struct cover_fn *f = cover_fn_named(m, file, name);
	if (!f) {
		if (file)
			fprintf(stderr, "ttypot: cover: no function '%s' in %s\n", name, file);
		else
			fprintf(stderr, "ttypot: cover: unknown function '%s': %s has no "
				"function of that name\n", name, map);
		return NULL;
	}
	if (!file)
		for (size_t i = 0; i < m->nfns; i++)
			if (!strcmp(m->fns[i].name, name) && strcmp(m->fns[i].file, f->file)) {
				fprintf(stderr, "ttypot: cover: function '%s' is in %s and %s: "
					"say which (FILE:%s)\n", name, f->file, m->fns[i].file, name);
				return NULL;
			}
	return f;
}

static bool all_digits(const char *s)
{
	if (!*s)
		return false;
	for (; *s; s++)
		if (!isdigit((unsigned char)*s))
			return false;
	return true;
}

/* Mark in reach[] the programs executing file's lines first..last;
 * *boot when one of them is a boot line.  The number of lines executed. */
static size_t mark(const struct cover_map *m, const char *file, int first, int last,
		   bool *reach, bool *boot)
{
	size_t lines = 0;
	for (size_t i = 0; i < m->nlines; i++) {
		const struct cover_line *c = &m->lines[i];
		if (strcmp(c->file, file) || c->line < first || c->line > last)
			continue;
		lines++;
		if (c->boot)
			*boot = true;
		for (size_t j = 0; j < c->nprogs; j++)
			for (size_t k = 0; k < m->nprogs; k++)
				if (c->progs[j] == m->progs[k])
					reach[k] = true;
	}
	return lines;
}

/* One WHERE into reach[]: 0 reached, 1 not reached, 2 an input error. */
static int lookup(const struct cover_map *m, const char *where, const char *map, bool *reach)
{
	char spec[PATH_MAX];
	snprintf(spec, sizeof spec, "%s", where);
	char *colon = strrchr(spec, ':');
	const char *file = NULL, *what = spec;
	if (colon) {
		*colon = '\0';
		what = colon + 1;
		if (!*spec || !*what) {
			fprintf(stderr, "ttypot: cover: '%s' is not FILE:LINE, FILE:FUNCTION or "
				"FUNCTION\n", where);
			return 2;
		}
		if (!(file = resolve_file(m, spec, map)))
			return 2;
	}
	bool *mine = calloc(m->nprogs + 1, sizeof *mine), boot = false;
	if (!mine)
		abort();
	char label[PATH_MAX + 128];
	size_t lines = 0, nlines = 0;
	if (file && all_digits(what)) {
		int line = atoi(what);
		if (line < 1) {
			fprintf(stderr, "ttypot: cover: %s: line numbers start at 1\n", where);
			free(mine);
			return 2;
		}
		const struct cover_fn *f = cover_fn_at(m, file, line);
		snprintf(label, sizeof label, "%s:%d%s%s%s", file, line, f ? " (" : "",
			 f ? f->name : "", f ? ")" : " (in no function)");
		lines = mark(m, file, line, line, mine, &boot);
		nlines = 1;
		if (!lines && f && !cover_has_counter(m, file, line)) {
			/* No counter of its own: who reaches its counted neighbours. */
			int before, after;
			cover_counted_neighbours(m, file, line, &before, &after);
			if (before)
				lines += mark(m, file, before, before, mine, &boot);
			if (after)
				lines += mark(m, file, after, after, mine, &boot);
			fprintf(stderr, "ttypot: cover: %s: gcov has no counter of its own for "
				"this line; counting its counted neighbours in %s (line %d before, "
				"%d after; 0: none)\n", label, f->name, before, after);
		}
	} else {
		const struct cover_fn *f = resolve_fn(m, file, what, map);
		if (!f) {
			free(mine);
			return 2;
		}
		snprintf(label, sizeof label, "%s:%s (lines %d-%d)", f->file, f->name, f->first,
			 f->last);
		lines = mark(m, f->file, f->first, f->last, mine, &boot);
		nlines = (size_t)(f->last - f->first + 1);
	}
	size_t n = 0;
	double secs = 0;
	for (size_t k = 0; k < m->nprogs; k++) {
		if (boot)
			mine[k] = true;
		if (!mine[k])
			continue;
		reach[k] = true;
		n++;
		if (m->prog_secs[k] > 0)
			secs += m->prog_secs[k];
	}
	free(mine);
	if (!lines) {
		fprintf(stderr, "ttypot: cover: %s: no program executes %s\n", label,
			nlines == 1 ? "this line" : "any of its lines");
		return 1;
	}
	if (boot)
		fprintf(stderr, "ttypot: cover: %s: every program (%zu): it runs before the first "
			"program (boot or the guest's init)\n", label, n);
	else
		fprintf(stderr, "ttypot: cover: %s: %zu of %zu programs, %.0f s on the gcov "
			"kernel\n", label, n, m->nprogs, secs);
	return 0;
}

int cmd_cover(int argc, char **argv)
{
	const char *mapopt = NULL, *suiteopt = NULL;
	char **rest = NULL;
	int nrest = 0;
	const struct cli_opt opts[] = {
		{ "map", 0, OPT_STR, &mapopt, 0, "FILE",
		  "the coverage map (default SUITE/reports/cover.map)" },
		cli_opt_suite(&suiteopt),
		CLI_OPT_END,
	};
	enum cli_verdict v = cli_command(argc, argv, opts, "[--map FILE] WHERE...", cover_more,
					 &rest, &nrest);
	if (v != CLI_OK) {
		free(rest);
		return v == CLI_ERROR ? 2 : 0;
	}
	if (!nrest) {
		fprintf(stderr, "ttypot: cover: a FILE:LINE, FILE:FUNCTION or FUNCTION is needed\n");
		cli_help(stderr, argv[1], "[--map FILE] WHERE...", opts, NULL);
		free(rest);
		return 2;
	}
	char path[PATH_MAX], suite[PATH_MAX], err[1024];
	if (mapopt) {
		snprintf(path, sizeof path, "%s", mapopt);
	} else {
		find_suite_dir(suiteopt, argv[0], suite, sizeof suite);
		snprintf(path, sizeof path, "%.*s/reports/cover.map", PATH_MAX - 20, suite);
	}
	struct cover_map m;
	if (cover_load(path, &m, err, sizeof err) < 0) {
		fprintf(stderr, "ttypot: cover: %s%s\n", err,
			mapopt ? "" : " (run `make coverage` to make the map, or give --map FILE)");
		free(rest);
		return 2;
	}
	bool *reach = calloc(m.nprogs + 1, sizeof *reach);
	if (!reach)
		abort();
	int rc = 1;
	for (int i = 0; i < nrest && rc != 2; i++) {
		int r = lookup(&m, rest[i], path, reach);
		if (r != 1)
			rc = r;
	}
	if (rc == 0)
		for (size_t k = 0; k < m.nprogs; k++)
			if (reach[k])
				printf("%s\n", m.progs[k]);
	free(reach);
	cover_free(&m);
	free(rest);
	return rc;
}
