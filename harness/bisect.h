/*
 * bisect.h: `ttypot bisect-run` (for `git bisect run`) and the one-kernel
 * runner shared with `ttypot mutants` (build a kernel, boot it with some
 * cases, ingest the results into a column).
 *
 *   ttypot bisect-run [--cases FILTER] [--tree DIR] [--baseline KERNEL]
 *                     [--reruns N] [--cache DIR] [--suite DIR] [--deadline S]
 *
 * Exit codes (git bisect run): 0 good, 1 bad, 125 skip (the tree does not
 * build, the kernel does not boot to the suite, usage errors); never above
 * 127.  A commit is bad when a selected case fails in the first run and
 * fails again in at least one of the --reruns re-runs (default 2) of the
 * failing cases (fixtures/mutants/README.md says why).
 */
#ifndef TTYPOT_BISECT_H
#define TTYPOT_BISECT_H

#include <limits.h>
#include <signal.h>
#include <stdbool.h>
#include <stddef.h>

#include "expectations.h"
#include "guest.h"
#include "result.h"

#define BISECT_GOOD 0
#define BISECT_BAD 1
#define BISECT_SKIP 125
#define BISECT_DEFAULT_RERUNS 2

/* What one bisect-run step observed (the input of the verdict). */
struct bisect_obs {
	bool usage_error;  /* bad options, a filter selecting no case */
	bool build_failed; /* the tree did not resolve/build */
	bool run_error;    /* QEMU could not start, no initramfs, ... */
	bool begun;        /* the first run reached the suite (begin line) */
	long first_bad;    /* cases bad in the first run (regressions only) */
	int reruns_done;   /* re-runs that reached the suite */
	long confirmed;    /* of first_bad, cases bad again in >= 1 re-run */
};

/* The exit status for git bisect run: a pure function of obs. */
int bisect_exit_code(const struct bisect_obs *obs);

/* The bisect-run subcommand (argv[0] is "ttypot", argv[1] "bisect-run"). */
int cmd_bisect_run(int argc, char **argv);

/* ---- the one-kernel runner shared with mutants.c ---- */

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
	bool quiet;              /* no per-case progress lines */
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
	char err[512];
};

/* Boot ki with the cases of filter (NULL: all); tag names the raw files.
 * ref (may be NULL) is the baseline for first_kill_s; with stop_on_kill the
 * run is stopped at the first kill.  0, or -1 (interrupted, or could not
 * start: r->err).  r->col is always set (free with col_free). */
int kr_run(struct kr_env *e, const struct kernel_info *ki, const char *tag,
	   const char *filter, const struct column *ref, bool stop_on_kill,
	   struct kr_result *r);

/* Does case id pass in ref (after expectations) and fail in c? */
bool kr_kills(const struct column *ref, const struct column *c,
	      const char *id);
/* A case bad in c (fail/broken/timeout/panic/missing after expectations). */
bool kr_bad(const struct column *c, const char *id);

#endif
