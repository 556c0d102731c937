/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * report_agree.h: the agreement table of `ttypot mutants` (mutants.md and
 * mutants.json): for every mutant, whether ttypot's own cases (every area
 * but apps and peers), the real programs (apps rows: emacs, script, tmux
 * ...) and CPython's own pty/tty tests (peers rows) noticed it.
 *
 * A group noticed a mutant when one of its rows passes on the baseline and
 * is bad on the mutant: the mutant's killing cases (kr_kills) are exactly
 * those rows.  A group with no row passing on the baseline cannot notice
 * anything: it is "not run", with the reason (the baseline rows' skip
 * reason when they skipped), never "no".  A mutant the real programs or
 * CPython's tests notice and no ttypot case does is a hole in ttypot.
 */
#ifndef TTYPOT_REPORT_AGREE_H
#define TTYPOT_REPORT_AGREE_H

#include <stdbool.h>
#include <stddef.h>

#include <jansson.h>

#include "rbuf.h"
#include "result.h"

enum agree_group { AGREE_TTYPOT, AGREE_APPS, AGREE_PEERS, AGREE__N };

/* "ttypot", "apps", "peers" (the JSON keys). */
const char *agree_group_name(enum agree_group g);
/* The group of a case id by its area: apps/..., peers/..., else ttypot. */
enum agree_group agree_group_of(const char *id);

/* What the baseline says of each group: its rows, how many pass and skip,
 * and why it is not run when none passes ("" when one does). */
struct agree_base {
	size_t rows[AGREE__N], pass[AGREE__N], skip[AGREE__N];
	char reason[AGREE__N][600];
};
void agree_baseline(const struct column *base, struct agree_base *b);

/* One mutant as `ttypot mutants` knows it. */
struct agree_mutant {
	const char *name;
	const char *status;            /* killed, survived, build-failed ...; NULL not run */
	const struct idlist *killers;  /* rows passing on the baseline, bad on it */
};

/* What one group made of one mutant.  NOT_EVALUATED: the mutant never ran
 * a whole suite (apply, build or boot failed, or not reached yet);
 * UNSEEN: its runs stopped at the first kill (--stop-on-kill), so the
 * group's rows may not have run. */
enum agree_state { AGREE_YES, AGREE_NO, AGREE_NOT_RUN, AGREE_NOT_EVALUATED, AGREE_UNSEEN };

struct agree_verdict {
	enum agree_state st[AGREE__N];
	size_t count[AGREE__N];  /* rows of the group that noticed it */
	bool hole;               /* apps or peers yes, ttypot no */
};
void agree_judge(const struct agree_base *b, const struct agree_mutant *m,
		 bool stop_on_kill, struct agree_verdict *v);

/* The "Agreement" section of mutants.md into md (NULL: none) and the
 * names of the holes appended to holes (NULL: not wanted); returns how
 * many holes.  stop_on_kill: the mutants' runs stopped at their first
 * kill. */
size_t report_agree_md(const struct column *base, const struct agree_mutant *mv,
		       size_t n, bool stop_on_kill, struct rbuf *md,
		       struct idlist *holes);

/* mutants.json: a mutant's "agreement" object, and the run's (the
 * baseline counts per group and the holes). */
json_t *report_agree_json_mutant(const struct agree_base *b, const struct agree_mutant *m,
				 bool stop_on_kill);
json_t *report_agree_json_run(const struct column *base, const struct agree_mutant *mv,
			      size_t n, bool stop_on_kill);

#endif
