// SPDX-License-Identifier: GPL-2.0-only
/* report_mutation_md.c: mutation.md: the run, the score overall, per file
 * and per operator, then every survivor, timeout, warning and error. */
#include "report_mutation.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char tally_head[] =
	" | generated | equivalent | not covered | uncompilable | killed | of which timeout "
	"| of which warning | survived | error | pending | score | 95 % interval | score of all |\n"
	"|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---|---:|\n";

/* "9/10 = 90.0 %" and "59.6-98.2 %", or "-" when nothing was scored. */
static void score_cells(struct rbuf *b, const struct mutation_tally *t)
{
	size_t k = mutation_tally_killed(t), d = mutation_tally_scored(t);
	double lo, hi;
	if (!mutation_wilson95(k, d, &lo, &hi)) {
		rbuf_add(b, " - | - |");
		return;
	}
	rbuf_addf(b, " %zu/%zu = %.1f %% | %.1f-%.1f %% |", k, d, 100.0 * (double)k / (double)d,
		  100 * lo, 100 * hi);
}

/* "9/12 = 75.0 %": the kills over every mutant a case could have caught,
 * the not covered counted as undetected; "-" when there is none. */
static void score_all_cell(struct rbuf *b, const struct mutation_tally *t)
{
	size_t k = mutation_tally_killed(t), a = mutation_tally_scored_all(t);
	if (a == 0)
		rbuf_add(b, " - |");
	else
		rbuf_addf(b, " %zu/%zu = %.1f %% |", k, a, 100.0 * (double)k / (double)a);
}

static void tally_row(struct rbuf *b, const char *label, bool bold,
		      const struct mutation_tally *t)
{
	rbuf_add(b, bold ? "| **" : "| ");
	rbuf_md(b, label);
	rbuf_addf(b, "%s | %zu | %zu | %zu | %zu | %zu | %zu | %zu | %zu | %zu | %zu |",
		  bold ? "**" : "", t->total, t->n[MS_EQUIVALENT], t->n[MS_NOT_COVERED],
		  t->n[MS_UNCOMPILABLE], mutation_tally_killed(t), t->n[MS_KILLED_TIMEOUT],
		  t->n[MS_KILLED_WARNING], t->n[MS_SURVIVED], t->n[MS_ERROR], t->n[MS_PENDING]);
	score_cells(b, t);
	score_all_cell(b, t);
	rbuf_addc(b, '\n');
}

static int by_file(const void *a, const void *b)
{
	const struct mutant *x = *(const struct mutant *const *)a,
			    *y = *(const struct mutant *const *)b;
	int c = strcmp(x->file, y->file);
	if (c == 0)
		c = (x->line > y->line) - (x->line < y->line);
	if (c == 0)
		c = (x->col > y->col) - (x->col < y->col);
	return c ? c : strcmp(x->key, y->key);
}

static void header(struct rbuf *b, const struct mutant *m, size_t n,
		   const struct mutation_report_info *info)
{
	rbuf_add(b, "# ");
	rbuf_md(b, info->title ? info->title : "ttypot generated mutants");
	rbuf_add(b, "\n\n");
	const char *what[] = {"Kernel source", "Suite", "Run"};
	const char *val[] = {info->source, info->suite, info->date};
	for (int i = 0; i < 3; i++) {
		if (!val[i] || !val[i][0])
			continue;
		rbuf_addf(b, "- %s: ", what[i]);
		rbuf_md(b, val[i]);
		rbuf_addc(b, '\n');
	}
	if (info->sampled)
		rbuf_addf(b, "- Mutants: a sample of %zu of %zu generated, stratified per file, "
			  "seed %lu\n", n, info->generated ? info->generated : n, info->seed);
	else
		rbuf_addf(b, "- Mutants: all %zu generated\n", n);

	size_t ran = 0;
	double sum = 0, lo = 0, hi = 0;
	for (size_t i = 0; i < n; i++) {
		if (!(m[i].secs > 0))
			continue;
		if (!ran || m[i].secs < lo)
			lo = m[i].secs;
		if (!ran || m[i].secs > hi)
			hi = m[i].secs;
		sum += m[i].secs;
		ran++;
	}
	if (info->wall_s > 0)
		rbuf_addf(b, "- Wall time: %.0f s (%.2f h)\n", info->wall_s, info->wall_s / 3600);
	if (info->build_s > 0)
		rbuf_addf(b, "- Generation, triage and the schemata build: %.0f s\n", info->build_s);
	if (info->baseline_s > 0)
		rbuf_addf(b, "- The unmutated kernel (id 0) with the suite: %.0f s\n", info->baseline_s);
	if (ran)
		rbuf_addf(b, "- Mutant runs (boot + selected programs): %zu, %.1f s each on average "
			  "(%.1f-%.1f s), %.0f s in all\n", ran, sum / (double)ran, lo, hi, sum);
	else
		rbuf_add(b, "- Mutant runs: none\n");
}

static void explain(struct rbuf *b)
{
	rbuf_add(b, "\nScore: killed / (killed + survived), over mutants that are covered by "
		 "a program, not equivalent (their object code differs from the unmutated "
		 "kernel's), compile, and were evaluated.  Killed counts kills by a failing "
		 "case, by the run passing its deadline (timeout: the mutant hung the guest or "
		 "a reader) and by a kernel warning alone (WARN, BUG, Oops, lockdep, a new "
		 "taint); those two are also shown apart.  Not covered, equivalent, "
		 "uncompilable, error (could not be evaluated) and pending (not yet run) "
		 "mutants are outside the score.  The interval is the 95 % Wilson score "
		 "interval of the score as a binomial proportion.  The score of all "
		 "(Stryker's mutation score, where the first is its score based on covered "
		 "code) counts the not covered as what they are for a user, undetected: "
		 "killed / (killed + survived + not covered).\n");
}

/* One Markdown table row, each cell escaped. */
static void table_row(struct rbuf *b, const char *const *cells, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		rbuf_add(b, i ? " | " : "| ");
		rbuf_md(b, cells[i]);
	}
	rbuf_add(b, " |\n");
}

static const char *func_or_unknown(const struct mutant *m)
{
	return m->func[0] ? m->func : "?";
}

static const char *repl_or_removed(const struct mutant *m)
{
	return m->repl[0] ? m->repl : "(removed)";
}

static void survivor_list(struct rbuf *b, const struct mutant *const *v, size_t n)
{
	size_t k = 0;
	for (size_t i = 0; i < n; i++)
		k += v[i]->status == MS_SURVIVED;
	rbuf_addf(b, "\n## Survivors (%zu)\n\n", k);
	if (!k) {
		rbuf_add(b, "None.\n");
		return;
	}
	rbuf_add(b, "Every covering program passed with these mutants.\n\n"
		 "| mutant | function | original | mutated | covered by |\n|---|---|---|---|---|\n");
	for (size_t i = 0; i < n; i++) {
		const struct mutant *m = v[i];
		if (m->status != MS_SURVIVED)
			continue;
		const char *cells[] = { m->key, func_or_unknown(m), m->orig, repl_or_removed(m),
					m->covered_by };
		table_row(b, cells, sizeof cells / sizeof *cells);
	}
}

/* Mutants of an earlier sitting that --rerun-survivors or --rerun ran
 * again: what they were, what they are. */
static void rerun_list(struct rbuf *b, const struct mutant *const *v, size_t n)
{
	size_t k = 0;
	for (size_t i = 0; i < n; i++)
		k += v[i]->earlier[0] != '\0';
	if (!k)
		return;
	rbuf_addf(b, "\n## Verdicts given again (%zu)\n\nMutants of an earlier sitting run "
		  "again with the suite as it is now (cases added or fixed since).\n\n"
		  "| mutant | function | earlier | now | reason |\n|---|---|---|---|---|\n", k);
	for (size_t i = 0; i < n; i++) {
		const struct mutant *m = v[i];
		if (!m->earlier[0])
			continue;
		const char *cells[] = { m->key, func_or_unknown(m), m->earlier,
					mut_status_name(m->status), m->reason };
		table_row(b, cells, sizeof cells / sizeof *cells);
	}
}

/* Survivors whose kill did not repeat on a second boot: a flaky case or a
 * race, to be looked at rather than trusted either way. */
static void not_repeated_list(struct rbuf *b, const struct mutant *const *v, size_t n)
{
	size_t k = 0, pl = strlen(MUT_NOT_REPEATED);
	for (size_t i = 0; i < n; i++)
		k += v[i]->status == MS_SURVIVED && !strncmp(v[i]->reason, MUT_NOT_REPEATED, pl);
	if (!k)
		return;
	rbuf_addf(b, "\n## Kills not repeated (%zu)\n\nA case failed on the first boot and "
		  "passed when the mutant was booted again with only that case: counted as "
		  "survived, since a case that fails once may be flaky; look at each.\n\n"
		  "| mutant | function | case that failed once |\n|---|---|---|\n", k);
	for (size_t i = 0; i < n; i++) {
		const struct mutant *m = v[i];
		if (m->status != MS_SURVIVED || strncmp(m->reason, MUT_NOT_REPEATED, pl))
			continue;
		const char *cases = m->reason + pl;
		const char *cells[] = { m->key, func_or_unknown(m), cases + (*cases == ' ') };
		table_row(b, cells, sizeof cells / sizeof *cells);
	}
}

/* Mutants of the given statuses with their reasons: timeouts and warnings
 * (kills that say more about the kernel than a failing case), errors. */
static void reason_list(struct rbuf *b, const char *title, const char *intro,
			const struct mutant *const *v, size_t n, enum mut_status s1,
			enum mut_status s2)
{
	size_t k = 0;
	for (size_t i = 0; i < n; i++)
		k += v[i]->status == s1 || v[i]->status == s2;
	rbuf_addf(b, "\n## %s (%zu)\n\n", title, k);
	if (!k) {
		rbuf_add(b, "None.\n");
		return;
	}
	rbuf_add(b, intro);
	rbuf_add(b, "\n\n| mutant | function | status | original | mutated | reason |\n"
		 "|---|---|---|---|---|---|\n");
	for (size_t i = 0; i < n; i++) {
		const struct mutant *m = v[i];
		if (m->status != s1 && m->status != s2)
			continue;
		const char *cells[] = { m->key, func_or_unknown(m), mut_status_name(m->status),
					m->orig, repl_or_removed(m), m->reason };
		table_row(b, cells, sizeof cells / sizeof *cells);
	}
}

void mutation_report_md(const struct mutant *m, size_t n,
			const struct mutation_report_info *info, struct rbuf *b)
{
	struct mutation_report_info none = {0};
	if (!info)
		info = &none;
	const struct mutant **v = xrealloc(NULL, (n ? n : 1) * sizeof *v);
	for (size_t i = 0; i < n; i++)
		v[i] = &m[i];
	qsort(v, n, sizeof *v, by_file);

	header(b, m, n, info);
	struct mutation_tally all = {0};
	for (size_t i = 0; i < n; i++)
		mutation_tally_add(&all, &m[i]);
	size_t k = mutation_tally_killed(&all), d = mutation_tally_scored(&all);
	double lo, hi;
	rbuf_add(b, "\n## Score\n\n");
	if (mutation_wilson95(k, d, &lo, &hi))
		rbuf_addf(b, "**Mutation score %zu/%zu = %.1f %%** (95 %% Wilson score interval "
			  "%.1f-%.1f %%)", k, d, 100.0 * (double)k / (double)d, 100 * lo, 100 * hi);
	else
		rbuf_add(b, "**Mutation score: none** (no mutant was killed or survived)");
	rbuf_addf(b, "; %zu generated, %zu equivalent, %zu not covered, %zu uncompilable, "
		  "%zu killed (%zu by timeout, %zu by a kernel warning), %zu survived, %zu error, "
		  "%zu pending.\n", all.total, all.n[MS_EQUIVALENT], all.n[MS_NOT_COVERED],
		  all.n[MS_UNCOMPILABLE], k, all.n[MS_KILLED_TIMEOUT], all.n[MS_KILLED_WARNING],
		  all.n[MS_SURVIVED], all.n[MS_ERROR], all.n[MS_PENDING]);
	size_t a = mutation_tally_scored_all(&all);
	if (a)
		rbuf_addf(b, "\n**Score of all %zu/%zu = %.1f %%**: the %zu not covered counted "
			  "as undetected.\n", k, a, 100.0 * (double)k / (double)a,
			  all.n[MS_NOT_COVERED]);
	/* Verdicts given again (--rerun-survivors, --rerun): the score as it
	 * was before, from each one's first verdict. */
	size_t again = 0, turned = 0, kb = k, db = d;
	for (size_t i = 0; i < n; i++) {
		if (!m[i].earlier[0])
			continue;
		char first[24];
		snprintf(first, sizeof first, "%.*s", (int)strcspn(m[i].earlier, " "),
			 m[i].earlier);
		int st = mut_status_parse(first);
		bool was_k = st >= 0 && mut_status_killed((enum mut_status)st);
		bool was_d = was_k || st == MS_SURVIVED;
		bool is_k = mut_status_killed(m[i].status);
		bool is_d = is_k || m[i].status == MS_SURVIVED;
		kb += (size_t)was_k - (size_t)is_k;
		db += (size_t)was_d - (size_t)is_d;
		again++;
		turned += was_k != is_k;
	}
	if (again && mutation_wilson95(kb, db, &lo, &hi))
		rbuf_addf(b, "\nBefore %zu verdicts were given again with the suite as it is now "
			  "(--rerun-survivors, --rerun): %zu/%zu = %.1f %% (%.1f-%.1f %%); %zu of them "
			  "changed.\n", again, kb, db, 100.0 * (double)kb / (double)db, 100 * lo,
			  100 * hi, turned);
	explain(b);

	rbuf_add(b, "\n## Per file\n\n| file");
	rbuf_add(b, tally_head);
	for (size_t i = 0; i < n;) {
		struct mutation_tally t = {0};
		size_t j = i;
		for (; j < n && strcmp(v[j]->file, v[i]->file) == 0; j++)
			mutation_tally_add(&t, v[j]);
		tally_row(b, v[i]->file, false, &t);
		i = j;
	}
	tally_row(b, "all", true, &all);

	rbuf_add(b, "\n## Per operator\n\n| operator");
	rbuf_add(b, tally_head);
	for (int op = 0; op < OP__N; op++) {
		struct mutation_tally t = {0};
		for (size_t i = 0; i < n; i++)
			if ((int)m[i].op == op)
				mutation_tally_add(&t, &m[i]);
		if (!t.total)
			continue;
		char label[96];
		snprintf(label, sizeof label, "%s (%s)", mut_op_name(op), mutation_op_text(op));
		tally_row(b, label, false, &t);
	}
	tally_row(b, "all", true, &all);

	survivor_list(b, v, n);
	rerun_list(b, v, n);
	not_repeated_list(b, v, n);
	reason_list(b, "Timeouts and warnings",
		    "Killed by the run passing its deadline (timeout) or by a kernel warning "
		    "alone (warning).", v, n, MS_KILLED_TIMEOUT, MS_KILLED_WARNING);
	reason_list(b, "Errors", "Could not be evaluated; outside the score.", v, n, MS_ERROR,
		    MS_ERROR);
	if (info->verdict)
		rbuf_addf(b, "\n%s", info->verdict);
	free(v);
}
