/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * report_mutation.h: the reports of generated kernel mutants (struct mutant,
 * mutation/mutant.h), written by `ttypot mutants --generate` into a
 * directory:
 *   mutation.md           per file and per operator tables, the mutation
 *                         score with its 95 % Wilson score interval, the
 *                         survivors, the timeouts and warnings
 *   mutation-report.json  the mutation-testing-report-schema (npm package of
 *                         that name, fixtures/report-npm/), with the source
 *                         of every mutated file read from the kernel tree
 *   mutation.html         that JSON and the mutation-testing-elements web
 *                         component's bundle inlined into one page, which a
 *                         browser opens from disk with no server or network
 *
 * The score is killed / (killed + survived): covered, not equivalent,
 * compiled and evaluated mutants.  Not covered, equivalent, uncompilable,
 * error and pending mutants are counted apart and are outside it.
 *
 * What the writers read from struct mutant beyond its fields' comments:
 * the reason of a killed or warning mutant names the killing cases (or the
 * programs running at the warning) as words of the form area/t_program or
 * area/t_program:case, which become the JSON's killedBy (other words are
 * the message, kept whole as statusReason); covered_by is space-separated
 * programs; col and end_col count bytes (the JSON converts them to the
 * 1-based UTF-16 columns the web component counts).
 */
#ifndef TTYPOT_REPORT_MUTATION_H
#define TTYPOT_REPORT_MUTATION_H

#include <stdbool.h>
#include <stddef.h>

#include "mutant.h"
#include "rbuf.h"

/* What a reader needs beside the mutants.  Zero means unknown throughout:
 * a zeroed struct is valid. */
struct mutation_report_info {
	const char *title;     /* NULL: "ttypot generated mutants" */
	const char *source;    /* the kernel source, "linux-source-6.12 6.12.57-1" */
	const char *suite;     /* the suite's version (git describe) */
	const char *date;      /* when the run started, as the reader should see it */
	bool sampled;          /* the mutants are a seeded sample ... */
	unsigned long seed;    /* ... drawn with this seed (--seed) ... */
	size_t generated;      /* ... of this many generated mutants */
	double wall_s;         /* the whole run */
	double build_s;        /* generation, triage and the schemata build */
	double baseline_s;     /* the unmutated kernel's (id 0) run */
	const char *verdict;   /* mutants of a patch (--diff): its verdict, lines of
				* text (survivors, lines no program executes, the
				* score); NULL otherwise */
};

/* Counts of one group of mutants (a file, an operator, all). */
struct mutation_tally {
	size_t n[MS__N];       /* per status */
	size_t total;
};
void mutation_tally_add(struct mutation_tally *t, const struct mutant *m);
/* killed, timeout and warning */
size_t mutation_tally_killed(const struct mutation_tally *t);
/* the score's denominator: killed + survived */
size_t mutation_tally_scored(const struct mutation_tally *t);
/* The scored ones and the not covered (undetected by any case, as a user
 * meets them): the denominator of the score of all mutants. */
size_t mutation_tally_scored_all(const struct mutation_tally *t);

/* The 95 % Wilson score interval of k successes in n trials, as fractions
 * (0..1); false (nothing set) when n is 0. */
bool mutation_wilson95(size_t k, size_t n, double *lo, double *hi);

/* A long name of an operator for readers: "relational operator replaced". */
const char *mutation_op_text(enum mut_op op);

/* The three formats.  md cannot fail; json reads the mutated files from
 * src_root and fails naming a file it cannot read or a mutant whose span
 * lies outside it; html inlines json_text and the component's bundle from
 * the npm directory and fails saying how to install a missing one. */
void mutation_report_md(const struct mutant *m, size_t n,
			const struct mutation_report_info *info, struct rbuf *out);
int mutation_report_json(const struct mutant *m, size_t n, const char *src_root,
			 const struct mutation_report_info *info, struct rbuf *out,
			 char *err, size_t errlen);
int mutation_report_html(const char *json_text, const struct mutation_report_info *info,
			 const char *npm_dir, struct rbuf *out, char *err, size_t errlen);

/* Where harness/deps.sh installs fixtures/report-npm: $TTYPOT_NPM_DIR, else
 * the cache's npm/ ($TTYPOT_CACHE or ~/.cache/ttypot). */
void mutation_npm_dir(char *out, size_t outlen);
/* The component's bundle and the report schema inside an npm directory. */
#define MUTATION_BUNDLE "node_modules/mutation-testing-elements/dist/mutation-test-elements.js"
#define MUTATION_SCHEMA \
	"node_modules/mutation-testing-report-schema/src/mutation-testing-report-schema.json"

/* A patch's mutants (`ttypot mutants --generate --diff`) as KCIDB v5 tests:
 * one checkout (head, the tree's HEAD sha; comment says what was mutated),
 * one build, a test per mutant (killed PASS, survived FAIL). */
void mutation_report_kcidb(const struct mutant *m, size_t n, const char *head,
			   const char *comment, struct rbuf *out);

/* Write mutation.md, mutation-report.json and mutation.html into dir
 * (created), in that order.  0, or -1 with a message naming what could not
 * be written and why; the files before it are written (a missing bundle
 * leaves the md and json in place). */
int mutation_report_write(const char *dir, const struct mutant *m, size_t n,
			  const char *src_root, const struct mutation_report_info *info,
			  char *err, size_t errlen);

#endif
