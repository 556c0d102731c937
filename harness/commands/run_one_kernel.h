/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * run_one_kernel.h: the one-kernel runner that bisect-run, ci and mutants
 * share: resolve (build) one kernel, boot it with some cases, watch the
 * results as they come (progress, first kill, deadline, Ctrl-C) and ingest
 * them into a column with expectations applied.
 */
#ifndef TTYPOT_RUN_ONE_KERNEL_H
#define TTYPOT_RUN_ONE_KERNEL_H

#include <limits.h>
#include <signal.h>
#include <stdbool.h>
#include <stddef.h>

#include "expectations.h"
#include "guest.h"
#include "result.h"

#define KR_DEFAULT_DEADLINE_S 1800
/* Mutation runs: a kernel that Oopses and then prints nothing, on the
 * console or the results channel, for this long is dead; its boot ends
 * there (kr_env.oops_silence_s) instead of at the deadline.  An Oops on a
 * mutant is a kill in any case. */
#define KR_OOPS_SILENCE_S 20
/* Mutation runs: no case result for KR_CASE_SILENCE_FACTOR times the
 * baseline's longest case, plus KR_CASE_SILENCE_SLACK_S, is a hang
 * (kr_case_silence_s); a loaded host slows a case, it does not stop one. */
#define KR_CASE_SILENCE_FACTOR 3
#define KR_CASE_SILENCE_SLACK_S 60

extern volatile sig_atomic_t kr_interrupted;
/* SIGINT/SIGTERM set kr_interrupted (runs stop, QEMU is killed). */
void kr_install_signals(void);

struct kr_env {
	char suite[PATH_MAX];
	char cache[PATH_MAX];    /* "" for the default cache */
	char workdir[PATH_MAX];  /* raw files (initramfs, results, consoles) */
	char initramfs[PATH_MAX + 32];
	bool have_initramfs;
	struct idlist expected;  /* every case id of the suite */
	struct expectations ex;
	int deadline_s;          /* per boot */
	int boot_deadline_s;     /* to the suite's start, per boot; 0 none */
	int oops_silence_s;      /* an Oops and then silence this long ends a
				    boot as a panic (run_opts); 0: never */
	int case_silence_s;      /* begun, then no case result this long ends
				    a boot as a hang (run_opts); 0: never */
	double ref_boot_s;       /* the boot those were measured against: a
				    slower boot stretches deadline_s and
				    case_silence_s (run_opts); 0: never */
	bool quiet;              /* no per-case progress lines */
	const char *kyua_vars;   /* extra Kyua "-v" words for every run, or NULL */
};

/* 0, or -1 with a message (exit 2 / 125 material). */
int kr_env_init(struct kr_env *e, const char *suite_opt, const char *argv0,
		const char *cache_opt, const char *workdir, int deadline_s,
		char *err, size_t errlen);
void kr_env_free(struct kr_env *e);

/* CCACHE_BASEDIR (when the user did not set one) to the longest common
 * directory of a and b, so that trees at the same relative place share
 * ccache entries. */
void kr_ccache_basedir(const char *a, const char *b);

/* Resolve (build) a kernel spec; *secs gets the wall time. */
int kr_resolve(const struct kr_env *e, const char *spec,
	       struct kernel_info *ki, double *secs, char *err, size_t errlen);

struct kr_result {
	struct column *col;    /* ingested, finished, expectations applied */
	enum run_end end;
	bool begun;            /* the begin line arrived */
	double boot_s, suite_s, wall_s;
	double first_kill_s;   /* seconds from the start to the first case that
				  passes in ref and fails here; -1 none */
	bool stopped_at_kill;  /* stop_on_kill ended the run: only the cases
				  reported by then are in col */
	bool oops_silent;      /* ended as a panic: an Oops, then silence */
	bool case_silent;      /* ended as a hang: no case result for
				  kr_env.case_silence_s */
	double stretch;        /* the deadlines' stretch (kr_env.ref_boot_s);
				  1 none */
	char console[PATH_MAX + 160]; /* the boot's console log */
	char err[512];
};

/* Boot ki with the cases of filter (NULL: all); tag names the raw files.
 * ref (may be NULL) is the baseline for first_kill_s; with stop_on_kill the
 * run is stopped at the first kill, which without a ref is the first case
 * that fails (bisect-run with no --baseline).  Without ref or stop_on_kill
 * no kill is watched for (first_kill_s stays -1).  0, or -1 (interrupted, or
 * could not start: r->err).  r->col is always set (free with col_free). */
int kr_run(struct kr_env *e, const struct kernel_info *ki, const char *tag,
	   const char *filter, const struct column *ref, bool stop_on_kill,
	   struct kr_result *r);

/* The case silence for runs held against base: KR_CASE_SILENCE_FACTOR
 * times its longest case plus KR_CASE_SILENCE_SLACK_S. */
int kr_case_silence_s(const struct column *base);

/* Does case id pass in ref (after expectations) and fail in c? */
bool kr_kills(const struct column *ref, const struct column *c,
	      const char *id);
/* A case bad in c (fail/broken/timeout/panic/missing after expectations). */
bool kr_bad(const struct column *c, const char *id);

#endif
