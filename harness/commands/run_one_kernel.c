// SPDX-License-Identifier: GPL-2.0-only
/* run_one_kernel.c: the one-kernel runner that bisect-run, ci and mutants
 * share (run_one_kernel.h). */
#include "run_one_kernel.h"
#include "ingest.h"
#include "kutil.h"
#include "proc.h"
#include "rbuf.h"
#include "run_detached.h"
#include "suite_dir.h"

#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

/* Paths are bounded by PATH_MAX; a truncated message is only shorter. */
#pragma GCC diagnostic ignored "-Wformat-truncation"

#define KR_POLL_MS 250
#define KR_PROGRESS_EVERY_S 10.0
#define KR_LIST_DEADLINE_S 120

volatile sig_atomic_t kr_interrupted;

static void kr_on_signal(int sig)
{
	(void)sig;
	kr_interrupted = 1;
}

void kr_install_signals(void)
{
	struct sigaction sa;
	memset(&sa, 0, sizeof sa);
	sa.sa_handler = kr_on_signal;
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
}

int kr_env_init(struct kr_env *e, const char *suite_opt, const char *argv0,
		const char *cache_opt, const char *workdir, int deadline_s,
		char *err, size_t errlen)
{
	memset(e, 0, sizeof *e);
	find_suite_dir(suite_opt, argv0, e->suite, sizeof e->suite);
	char abs[PATH_MAX];
	if (realpath(e->suite, abs))
		snprintf(e->suite, sizeof e->suite, "%s", abs);
	if (cache_opt && *cache_opt)
		snprintf(e->cache, sizeof e->cache, "%s", cache_opt);
	else
		ku_default_cache(e->cache, sizeof e->cache);
	snprintf(e->workdir, sizeof e->workdir, "%s", workdir);
	e->deadline_s = deadline_s > 0 ? deadline_s : KR_DEFAULT_DEADLINE_S;
	if (mkdir_p(e->workdir) < 0) {
		snprintf(err, errlen, "cannot create %s: %s", e->workdir, strerror(errno));
		return -1;
	}
	char kyuafile[PATH_MAX + 32];
	snprintf(kyuafile, sizeof kyuafile, "%s/cases/Kyuafile", e->suite);
	if (caselist_kyua(kyuafile, KR_LIST_DEADLINE_S, &e->expected, err, errlen) < 0)
		return -1;
	char dir[PATH_MAX + 32];
	snprintf(dir, sizeof dir, "%s/fixtures/expect", e->suite);
	if (expect_load_dir(&e->ex, dir, err, errlen) < 0)
		return -1;
	snprintf(e->initramfs, sizeof e->initramfs, "%s/initramfs.cpio.gz", e->workdir);
	return 0;
}

void kr_env_free(struct kr_env *e)
{
	idlist_free(&e->expected);
	expect_free(&e->ex);
}

void kr_ccache_basedir(const char *a, const char *b)
{
	const char *cur = getenv("CCACHE_BASEDIR");
	char dir[PATH_MAX];
	if ((!cur || !*cur) && ku_common_dir(a, b, dir, sizeof dir) == 0)
		setenv("CCACHE_BASEDIR", dir, 1);
}

int kr_resolve(const struct kr_env *e, const char *spec, struct kernel_info *ki,
	       double *secs, char *err, size_t errlen)
{
	struct kspec ks;
	double t0 = proc_now();
	memset(ki, 0, sizeof *ki);
	if (kspec_parse(spec, &ks, err, errlen) < 0)
		return -1;
	int rc = kernel_resolve(&ks, e->cache[0] ? e->cache : NULL, ki, err, errlen);
	if (secs)
		*secs = proc_now() - t0;
	return rc;
}

bool kr_bad(const struct column *c, const char *id)
{
	const struct case_result *r = col_find(c, id);
	return !r || status_bad(r->st);
}

bool kr_kills(const struct column *ref, const struct column *c, const char *id)
{
	const struct case_result *b = ref ? col_find(ref, id) : NULL;
	if (ref && (!b || b->st != ST_PASS))
		return false;
	const struct case_result *r = col_find(c, id);
	return r && status_bad(r->st);
}

int kr_case_silence_s(const struct column *base)
{
	double longest = 0;
	for (size_t i = 0; i < base->ncases; i++)
		if (base->cases[i].secs > longest)
			longest = base->cases[i].secs;
	return (int)(KR_CASE_SILENCE_FACTOR * longest) + KR_CASE_SILENCE_SLACK_S;
}

/* The results so far, as a column with expectations applied. */
static struct column *scratch_read(const struct kr_env *e, const char *path,
				   const char *tag)
{
	struct column *c = col_new(tag);
	char err[256];
	size_t len = 0;
	char *text = read_file(path, &len, err, sizeof err);
	if (text) {
		ingest_buf(c, text, len, false);
		free(text);
	}
	expect_apply(&e->ex, c);
	return c;
}

static bool any_kill(const struct column *ref, const struct column *c)
{
	for (size_t i = 0; i < c->ncases; i++)
		if (kr_kills(ref, c, c->cases[i].id))
			return true;
	return false;
}

int kr_run(struct kr_env *e, const struct kernel_info *ki, const char *tag,
	   const char *filter, const struct column *ref, bool stop_on_kill,
	   struct kr_result *r)
{
	char err[1024], safe[128];
	memset(r, 0, sizeof *r);
	r->first_kill_s = -1;
	r->stretch = 1;
	r->end = RUN_ERROR;
	r->col = col_new(tag);
	/* before expectations apply: they may be keyed on arch and ABI */
	col_set_arch(r->col, ki->arch[0] ? ki->arch : NULL, ki->abi[0] ? ki->abi : NULL);
	if (kr_interrupted) {
		snprintf(r->err, sizeof r->err, "interrupted");
		r->col->end = END_ERROR;
		col_set_error(r->col, r->err);
		return -1;
	}
	if (!e->have_initramfs) {
		ku_progress("building the guest initramfs from %s", e->suite);
		if (initramfs_build(e->suite, e->initramfs, err, sizeof err) < 0) {
			snprintf(r->err, sizeof r->err, "initramfs: %.490s", err);
			r->col->end = END_ERROR;
			col_set_error(r->col, r->err);
			return -1;
		}
		e->have_initramfs = true;
	}
	safe_name(tag, safe, sizeof safe);
	char results[PATH_MAX + 160], console[PATH_MAX + 160], outcome[PATH_MAX + 160];
	snprintf(results, sizeof results, "%s/%s.results", e->workdir, safe);
	snprintf(console, sizeof console, "%s/%s.console", e->workdir, safe);
	snprintf(outcome, sizeof outcome, "%s/%s.outcome", e->workdir, safe);
	snprintf(r->console, sizeof r->console, "%s", console);
	char tmpdir[PATH_MAX + 160];
	snprintf(tmpdir, sizeof tmpdir, "%s/%s.tmp", e->workdir, safe);
	ku_rm_rf(tmpdir);
	if (ku_mkdir_p(tmpdir, 0700) < 0) {
		snprintf(r->err, sizeof r->err, "cannot create %s: %s", tmpdir, strerror(errno));
		r->col->end = END_ERROR;
		col_set_error(r->col, r->err);
		return -1;
	}
	long nexpected = 0;
	for (size_t i = 0; i < e->expected.n; i++)
		nexpected += case_selected(filter, e->expected.v[i]);
	struct run_opts ro = { .suite_dir = e->suite, .initramfs = e->initramfs,
			       .cases_filter = filter, .deadline_s = e->deadline_s,
			       .kyua_vars = e->kyua_vars, .boot_deadline_s = e->boot_deadline_s,
			       .oops_silence_s = e->oops_silence_s,
			       .case_silence_s = e->case_silence_s,
			       .ref_boot_s = e->ref_boot_s };
	struct detached_paths dp = { results, console, outcome, tmpdir };
	double t0 = proc_now();
	pid_t pid = run_detached(ki, &ro, &dp);
	if (pid < 0) {
		snprintf(r->err, sizeof r->err, "fork: %s", strerror(errno));
		r->col->end = END_ERROR;
		col_set_error(r->col, r->err);
		return -1;
	}
	int st = 0;
	bool stopped = false;
	/* a kill: passes in ref and fails here; with no ref, any failure */
	const bool watch = ref || stop_on_kill;
	double last_print = t0, t_begin = -1;
	size_t last_n = 0;
	for (;;) {
		struct timespec ts = { 0, KR_POLL_MS * 1000000L };
		nanosleep(&ts, NULL);
		pid_t w = waitpid(pid, &st, WNOHANG);
		struct column *sc = scratch_read(e, results, tag);
		double now = proc_now();
		if (t_begin < 0 && sc->begin_seen)
			t_begin = now;
		if (r->first_kill_s < 0 && watch && any_kill(ref, sc))
			r->first_kill_s = now - t0;
		if (!e->quiet && sc->ncases != last_n && now - last_print >= KR_PROGRESS_EVERY_S) {
			long bad = 0;
			for (size_t i = 0; i < sc->ncases; i++)
				bad += status_bad(sc->cases[i].st);
			ku_progress("%s: %zu/%ld cases, %ld failed%s", tag, sc->ncases,
				    nexpected, bad, r->first_kill_s >= 0 ? " (killed)" : "");
			last_print = now;
			last_n = sc->ncases;
		}
		col_free(sc);
		if (w == pid)
			break;
		/* the runner's own watch ends it first, stretched or not */
		double stretch_max = e->ref_boot_s > 0 ? RUN_MAX_STRETCH : 1;
		bool deadline = now - t0 > e->deadline_s * stretch_max + 120;
		if (kr_interrupted || deadline || (stop_on_kill && r->first_kill_s >= 0)) {
			run_detached_kill(pid);
			waitpid(pid, &st, 0);
			stopped = true;
			if (kr_interrupted)
				snprintf(r->err, sizeof r->err, "interrupted");
			else if (deadline)
				snprintf(r->err, sizeof r->err, "the runner passed its deadline");
			break;
		}
	}
	r->wall_s = proc_now() - t0;
	ku_rm_rf(tmpdir);
	struct run_outcome out;
	bool have = run_detached_outcome(outcome, &out);
	struct column *c = r->col;
	if (have) {
		r->end = out.end;
		r->oops_silent = out.oops_silent;
		r->case_silent = out.case_silent;
		if (out.stretch > 1)
			r->stretch = out.stretch;
		r->boot_s = out.boot_s;
		r->suite_s = out.suite_s;
		snprintf(c->accel, sizeof c->accel, "%s", out.accel);
		if (out.err[0] && !r->err[0])
			snprintf(r->err, sizeof r->err, "%s", out.err);
	} else {
		r->end = stopped && !kr_interrupted && stop_on_kill && r->first_kill_s >= 0
				 ? RUN_DONE : RUN_ERROR;
		/* stopped early: the times as this loop saw them */
		if (t_begin >= 0) {
			r->boot_s = t_begin - t0;
			r->suite_s = r->wall_s - r->boot_s;
		}
		if (!r->err[0] && !stopped)
			snprintf(r->err, sizeof r->err, "the runner %s %d without an outcome",
				 WIFSIGNALED(st) ? "died of signal" : "exited with",
				 WIFSIGNALED(st) ? WTERMSIG(st) : WEXITSTATUS(st));
	}
	c->end = ingest_end(r->end);
	c->boot_s = r->boot_s;
	c->suite_s = r->suite_s;
	if (ingest_file(c, results, err, sizeof err) < 0 && !r->err[0])
		snprintf(r->err, sizeof r->err, "%.500s", err);
	r->begun = c->begin_seen > 0;
	if (r->err[0])
		col_set_error(c, r->err);
	/* A run stopped at its first kill did not miss the rest. */
	r->stopped_at_kill = stopped && stop_on_kill && r->first_kill_s >= 0;
	if (r->stopped_at_kill) {
		c->end_seen = 1;
		ingest_finish(c, NULL, filter);
	} else {
		ingest_finish(c, &e->expected, filter);
	}
	expect_apply(&e->ex, c);
	if (!stopped || r->first_kill_s < 0) {
		/* recompute on the final column: missing/panic cells count */
		if (watch && r->first_kill_s < 0 && r->begun)
			for (size_t i = 0; i < c->ncases; i++)
				if (kr_kills(ref, c, c->cases[i].id)) {
					r->first_kill_s = r->wall_s;
					break;
				}
	}
	return kr_interrupted || r->end == RUN_ERROR ? -1 : 0;
}
