// SPDX-License-Identifier: GPL-2.0-only
/* mutants_verdict.c: a patch's verdict (mutants_verdict.h). */
#include "mutants_verdict.h"
#include "arid.h"
#include "diffmap.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Changed live lines of one file (its text and arid lines given) in
 * functions the map knows and no program executes, as ranges per
 * function; *nlines counts them. */
static void unexecuted(const struct verdict_in *in, const struct dm_file *f, const char *text,
		       const struct arid *a, struct rbuf *out, size_t *nlines)
{
	struct dm_fn *fns = NULL;
	size_t nf = dm_functions(text, &fns);
	for (size_t h = 0; h < f->nhunks; h++) {
		int first = 0, last = 0;
		const char *fname = NULL;
		for (int l = f->hunks[h].ns; l <= f->hunks[h].ns + f->hunks[h].nc; l++) {
			const char *name = NULL;
			bool end = l == f->hunks[h].ns + f->hunks[h].nc;
			if (!end && !arid_why(a, l)) {
				for (size_t i = 0; i < nf && !name; i++)
					if (l >= fns[i].start && l <= fns[i].end)
						name = fns[i].name;
				struct rbuf progs = {0};
				if (!name || ps_fn_programs(in->map, f->path, name, &progs) != 0)
					name = NULL;
				rbuf_free(&progs);
			}
			if (fname && (!name || strcmp(name, fname) || end)) {
				if (first == last)
					rbuf_addf(out, "- %s:%d: no program executes %s\n", f->path,
						  first, fname);
				else
					rbuf_addf(out, "- %s:%d-%d: no program executes %s\n",
						  f->path, first, last, fname);
				fname = NULL;
			}
			if (name) {
				if (!fname)
					first = l, fname = name;
				last = l;
				(*nlines)++;
			}
		}
	}
	free(fns);
}

/* The patch file by file: its changed lines, arid ones, live ones in
 * functions no program executes, and its mutants by verdict.  Only the
 * C files that were mutated (those with a text).  The unexecuted lines
 * themselves go to unexec, *nunexec counting them (with a map). */
static void by_file(const struct verdict_in *in, struct rbuf *out, struct rbuf *unexec,
		    size_t *nunexec)
{
	const struct ps_change *c = in->change;
	bool head = false;
	for (size_t i = 0; i < c->diff.n; i++) {
		const struct dm_file *f = &c->diff.v[i];
		const char *text = f->deleted ? NULL : in->file_text(in->ctx, f->path);
		if (!text)
			continue;
		struct arid a;
		arid_scan(text, &a);
		size_t lines = 0, arid = 0, before = *nunexec;
		for (size_t h = 0; h < f->nhunks; h++)
			for (int l = f->hunks[h].ns; l < f->hunks[h].ns + f->hunks[h].nc; l++) {
				lines++;
				arid += arid_why(&a, l) != NULL;
			}
		if (in->map)
			unexecuted(in, f, text, &a, unexec, nunexec);
		arid_free(&a);
		size_t tally[MS__N] = {0}, run = 0;
		for (size_t k = 0; k < in->n; k++)
			if (in->pick[k] && !strcmp(in->v[k].m.file, f->path)) {
				tally[in->v[k].m.status]++;
				run++;
			}
		if (!head)
			rbuf_add(out, "| file | changed lines | arid | live, in functions no "
				 "program executes | mutants | killed | survived | equivalent | "
				 "not covered | other |\n|---|---:|---:|---:|---:|---:|---:|---:|---:|"
				 "---:|\n");
		head = true;
		size_t killed = tally[MS_KILLED] + tally[MS_KILLED_TIMEOUT] +
				tally[MS_KILLED_WARNING];
		size_t other = run - killed - tally[MS_SURVIVED] - tally[MS_EQUIVALENT] -
			       tally[MS_NOT_COVERED];
		char ux[32];
		snprintf(ux, sizeof ux, in->map ? "%zu" : "?", *nunexec - before);
		rbuf_addf(out, "| %s | %zu | %zu | %s | %zu | %zu | %zu | %zu | %zu | %zu |\n",
			  f->path, lines, arid, ux, run, killed, tally[MS_SURVIVED],
			  tally[MS_EQUIVALENT], tally[MS_NOT_COVERED], other);
	}
	if (head)
		rbuf_add(out, "\n");
}

/* Under a survivor, its line whole before and after the mutation: the span
 * alone ("2 -> (2 - 1)") may fit several places of the line or of the lines
 * around it.  Nothing when the file's text is not at hand or the span is not
 * where the mutant says (a text cut at its 200 characters). */
static void whole_line(const struct verdict_in *in, const struct mutant *m, struct rbuf *out)
{
	const char *t = in->file_text(in->ctx, m->file);
	for (int l = 1; t && l < m->line; l++)
		if ((t = strchr(t, '\n')))
			t++;
	if (!t || m->col < 0)
		return;
	size_t len = strcspn(t, "\n"), olen = strlen(m->orig), col = (size_t)m->col;
	if (col + olen > len || strncmp(t + col, m->orig, olen) != 0)
		return;
	size_t lead = strspn(t, " \t");
	if (lead > col)
		lead = col;
	rbuf_add(out, "  `");
	rbuf_addn(out, t + lead, len - lead);
	rbuf_add(out, "` -> `");
	rbuf_addn(out, t + lead, col - lead);
	rbuf_add(out, m->repl);
	rbuf_addn(out, t + col + olen, len - col - olen);
	rbuf_add(out, "`\n");
}

void verdict_write(const struct verdict_in *in, struct rbuf *out)
{
	const struct ps_counts *k = in->counts;
	const struct ps_change *c = in->change;
	rbuf_addf(out, "## The patch's verdict: %s in %s\n\n", c->spec, c->tree);
	rbuf_addf(out, "%zu changed lines (%zu arid: blank, comments, declarations, log calls, "
		  "assertions, tracepoints); %zu mutants on them, of which %zu on arid lines "
		  "and %zu in constant contexts left out: %zu mutants of the patch.\n\n",
		  k->lines, k->arid_lines, k->touched, k->arid, k->constant, k->picked);
	struct rbuf u = {0};
	size_t nl = 0;
	by_file(in, out, &u, &nl);
	size_t tally[MS__N] = {0}, survivors = 0;
	for (size_t i = 0; i < in->n; i++) {
		if (!in->pick[i])
			continue;
		const struct mutant *m = &in->v[i].m;
		tally[m->status]++;
		if (m->status != MS_SURVIVED)
			continue;
		if (!survivors++)
			rbuf_add(out, "Survivors:\n\n");
		rbuf_addf(out, "- %s:%d: %s -> %s survived: no case checks %s\n", m->file, m->line,
			  m->orig, m->repl, m->func[0] ? m->func : "this line");
		whole_line(in, m, out);
	}
	if (survivors)
		rbuf_add(out, "\n");
	if (in->map) {
		if (nl)
			rbuf_addf(out, "Changed lines no program executes (%zu):\n\n%s\n", nl,
				  rbuf_str(&u));
		else
			rbuf_add(out, "Every changed line is in a function some program executes "
				 "(or one the coverage map does not know).\n\n");
	} else {
		rbuf_add(out, "No coverage map: the changed lines no program executes are not "
			 "known (make coverage writes reports/cover.map).\n\n");
	}
	rbuf_free(&u);
	if (in->others && in->others[0])
		rbuf_addf(out, "Changed, not mutated (not C files under drivers/tty): %s\n\n",
			  in->others);
	size_t killed = tally[MS_KILLED] + tally[MS_KILLED_TIMEOUT] + tally[MS_KILLED_WARNING];
	size_t scored = killed + tally[MS_SURVIVED];
	if (scored)
		rbuf_addf(out, "Score of the patch: %zu/%zu = %.1f %% (%zu equivalent, %zu not "
			  "covered, %zu uncompilable, %zu errors, %zu pending)\n", killed, scored,
			  100.0 * (double)killed / (double)scored, tally[MS_EQUIVALENT],
			  tally[MS_NOT_COVERED], tally[MS_UNCOMPILABLE], tally[MS_ERROR],
			  tally[MS_PENDING]);
	else
		rbuf_addf(out, "Score of the patch: none (%s)\n", k->picked ?
			  "no mutant of it was killed or survived" : "nothing to mutate");
}
