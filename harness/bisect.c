/* bisect.c: `ttypot bisect-run` and the one-kernel runner (kr_*) that
 * bisect-run, ci and mutants share. */
#include "bisect.h"
#include "ingest.h"
#include "kutil.h"
#include "orchestrate.h"
#include "proc.h"
#include "rbuf.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

/* Paths are bounded by PATH_MAX; a truncated message is only shorter. */
#pragma GCC diagnostic ignored "-Wformat-truncation"

#define KR_POLL_MS 250
#define KR_PROGRESS_EVERY_S 10.0
#define KR_LIST_DEADLINE_S 120
#define BISECT_DEFAULT_DEADLINE_S 1800

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

/* SIGKILL pid's descendants (QEMU runs in its own process group, so a
 * group kill of the runner would miss it), then pid's group. */
static void kill_tree(pid_t pid)
{
	char path[64];
	snprintf(path, sizeof path, "/proc/%d/task/%d/children", (int)pid, (int)pid);
	char *kids = ku_read_file(path, NULL);
	if (kids) {
		for (char *t = strtok(kids, " \n"); t; t = strtok(NULL, " \n")) {
			pid_t k = (pid_t)atoi(t);
			if (k > 1) {
				kill_tree(k);
				kill(-k, SIGKILL);
				kill(k, SIGKILL);
			}
		}
		free(kids);
	}
	kill(-pid, SIGKILL);
	kill(pid, SIGKILL);
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
	e->deadline_s = deadline_s > 0 ? deadline_s : BISECT_DEFAULT_DEADLINE_S;
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
	if (cur && *cur)
		return;
	char ra[PATH_MAX], rb[PATH_MAX];
	if (!realpath(a, ra) || !realpath(b, rb))
		return;
	size_t n = 0, slash = 0;
	while (ra[n] && ra[n] == rb[n]) {
		if (ra[n] == '/')
			slash = n;
		n++;
	}
	if ((!ra[n] || ra[n] == '/') && (!rb[n] || rb[n] == '/'))
		slash = n;
	/* "/" is too wide to be useful; leave ccache alone then. */
	if (slash <= 1)
		return;
	ra[slash] = '\0';
	setenv("CCACHE_BASEDIR", ra, 1);
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

static enum col_end map_end(enum run_end e)
{
	switch (e) {
	case RUN_DONE: return END_DONE;
	case RUN_PANIC: return END_PANIC;
	case RUN_TIMEOUT: return END_TIMEOUT;
	case RUN_SILENT: return END_SILENT;
	default: return END_ERROR;
	}
}

/* The forked runner: run_suite, then the outcome into a file. */
static void kr_child(const struct kernel_info *ki, const struct run_opts *ro,
		     const char *results, const char *console, const char *outcome,
		     const char *tmpdir)
{
	struct run_outcome out;
	memset(&out, 0, sizeof out);
	setpgid(0, 0);
	/* QEMU's scratch files go here, so a run stopped with SIGKILL leaves
	 * nothing behind once the parent removes the directory. */
	setenv("TMPDIR", tmpdir, 1);
	signal(SIGINT, SIG_DFL);
	signal(SIGTERM, SIG_DFL);
	if (run_suite(ki, ro, results, console, &out) != 0 && out.end == RUN_DONE)
		out.end = RUN_ERROR;
	char tmp[PATH_MAX + 300];
	snprintf(tmp, sizeof tmp, "%.4200s.tmp", outcome);
	int fd = open(tmp, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
	if (fd >= 0) {
		ssize_t w = write(fd, &out, sizeof out);
		close(fd);
		if (w == (ssize_t)sizeof out)
			rename(tmp, outcome);
	}
	_exit(0);
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
	r->end = RUN_ERROR;
	r->col = col_new(tag);
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
	char tmpdir[PATH_MAX + 160];
	snprintf(tmpdir, sizeof tmpdir, "%s/%s.tmp", e->workdir, safe);
	ku_rm_rf(tmpdir);
	if (ku_mkdir_p(tmpdir, 0700) < 0) {
		snprintf(r->err, sizeof r->err, "cannot create %s: %s", tmpdir, strerror(errno));
		r->col->end = END_ERROR;
		col_set_error(r->col, r->err);
		return -1;
	}
	unlink(outcome);
	int fd = open(results, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
	if (fd >= 0)
		close(fd);
	long nexpected = 0;
	for (size_t i = 0; i < e->expected.n; i++)
		nexpected += case_selected(filter, e->expected.v[i]);
	struct run_opts ro = { e->suite, e->initramfs, filter, e->deadline_s, NULL };
	fflush(stdout);
	fflush(stderr);
	double t0 = proc_now();
	pid_t pid = fork();
	if (pid < 0) {
		snprintf(r->err, sizeof r->err, "fork: %s", strerror(errno));
		r->col->end = END_ERROR;
		col_set_error(r->col, r->err);
		return -1;
	}
	if (pid == 0)
		kr_child(ki, &ro, results, console, outcome, tmpdir);
	setpgid(pid, pid);
	int st = 0;
	bool stopped = false;
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
		if (r->first_kill_s < 0 && ref && any_kill(ref, sc))
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
		bool deadline = now - t0 > e->deadline_s + 120;
		if (kr_interrupted || deadline || (stop_on_kill && r->first_kill_s >= 0)) {
			kill_tree(pid);
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
	memset(&out, 0, sizeof out);
	fd = open(outcome, O_RDONLY | O_CLOEXEC);
	bool have = fd >= 0 && read(fd, &out, sizeof out) == (ssize_t)sizeof out;
	if (fd >= 0)
		close(fd);
	struct column *c = r->col;
	if (have) {
		r->end = out.end;
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
	c->end = map_end(r->end);
	c->boot_s = r->boot_s;
	c->suite_s = r->suite_s;
	if (ingest_file(c, results, err, sizeof err) < 0 && !r->err[0])
		snprintf(r->err, sizeof r->err, "%.500s", err);
	r->begun = c->begin_seen > 0;
	if (r->err[0])
		col_set_error(c, r->err);
	/* A run stopped at its first kill did not miss the rest. */
	if (stopped && stop_on_kill && r->first_kill_s >= 0) {
		c->end_seen = 1;
		ingest_finish(c, NULL, filter);
	} else {
		ingest_finish(c, &e->expected, filter);
	}
	expect_apply(&e->ex, c);
	if (!stopped || r->first_kill_s < 0) {
		/* recompute on the final column: missing/panic cells count */
		if (ref && r->first_kill_s < 0 && r->begun)
			for (size_t i = 0; i < c->ncases; i++)
				if (kr_kills(ref, c, c->cases[i].id)) {
					r->first_kill_s = r->wall_s;
					break;
				}
	}
	return kr_interrupted || r->end == RUN_ERROR ? -1 : 0;
}

/* ---- bisect-run ---- */

int bisect_exit_code(const struct bisect_obs *o)
{
	if (o->usage_error || o->build_failed || o->run_error || !o->begun)
		return BISECT_SKIP;
	if (o->first_bad <= 0)
		return BISECT_GOOD;
	if (o->reruns_done <= 0)
		return BISECT_SKIP; /* failures nobody could confirm or refute */
	return o->confirmed > 0 ? BISECT_BAD : BISECT_GOOD;
}

struct bopts {
	const char *cases, *tree, *baseline, *cache, *suite, *workdir;
	int reruns, deadline_s;
};

static int bisect_parse(int argc, char **argv, struct bopts *b, char *err, size_t errlen)
{
	memset(b, 0, sizeof *b);
	b->tree = ".";
	b->reruns = BISECT_DEFAULT_RERUNS;
	b->deadline_s = BISECT_DEFAULT_DEADLINE_S;
	for (int i = 2; i < argc; i++) {
		const char *a = argv[i], *val = NULL;
		char name[64];
		const char *eq = strncmp(a, "--", 2) == 0 ? strchr(a, '=') : NULL;
		if (eq) {
			snprintf(name, sizeof name, "%.*s", (int)(eq - a), a);
			val = eq + 1;
		} else {
			snprintf(name, sizeof name, "%s", a);
		}
		static const char *const known[] = { "--cases", "--tree", "--baseline",
			"--reruns", "--cache", "--suite", "--deadline", "-o", NULL };
		bool ok = false;
		for (int k = 0; known[k]; k++)
			ok |= !strcmp(name, known[k]);
		if (!ok) {
			snprintf(err, errlen, "bisect-run: unknown argument '%s'", a);
			return -1;
		}
		if (!val) {
			if (i + 1 >= argc) {
				snprintf(err, errlen, "bisect-run: %s needs a value", name);
				return -1;
			}
			val = argv[++i];
		}
		if (!*val) {
			snprintf(err, errlen, "bisect-run: %s needs a non-empty value", name);
			return -1;
		}
		if (!strcmp(name, "--reruns") || !strcmp(name, "--deadline")) {
			char *end;
			long n = strtol(val, &end, 10);
			bool rr = !strcmp(name, "--reruns");
			if (*end || n < (rr ? 0 : 1) || n > 100000) {
				snprintf(err, errlen, "bisect-run: %s: '%s' is not a number >= %d",
					 name, val, rr ? 0 : 1);
				return -1;
			}
			if (rr)
				b->reruns = (int)n;
			else
				b->deadline_s = (int)n;
		} else if (!strcmp(name, "--cases")) b->cases = val;
		else if (!strcmp(name, "--tree")) b->tree = val;
		else if (!strcmp(name, "--baseline")) b->baseline = val;
		else if (!strcmp(name, "--cache")) b->cache = val;
		else if (!strcmp(name, "--suite")) b->suite = val;
		else if (!strcmp(name, "-o")) b->workdir = val;
	}
	return 0;
}

/* Commas and spaces separate filters; the guest splits on spaces only. */
static void filter_words(const char *in, char *out, size_t outlen)
{
	snprintf(out, outlen, "%s", in ? in : "");
	for (char *p = out; *p; p++)
		if (*p == ',')
			*p = ' ';
}

/* The baseline's results for this filter, run once and kept in the cache
 * (keyed on the kernel, its config and the filter). */
static struct column *bisect_baseline(struct kr_env *e, const char *spec,
				      const char *filter)
{
	struct kernel_info ki;
	char err[1024];
	double secs;
	if (kr_resolve(e, spec, &ki, &secs, err, sizeof err) < 0) {
		fprintf(stderr, "ttypot: bisect-run: baseline %s: %s\n", spec, err);
		return NULL;
	}
	char key[4096], hex[65], tag[64];
	snprintf(key, sizeof key, "%s|%s|%s|%s", spec, ki.image, ki.config_hash,
		 filter ? filter : "");
	ku_sha256_hex(key, strlen(key), hex);
	snprintf(tag, sizeof tag, "baseline-%.16s", hex);
	char saved[PATH_MAX + 100];
	snprintf(saved, sizeof saved, "%s/%s.results", e->workdir, tag);
	struct column *c = col_new(ki.label);
	char *text = ku_read_file(saved, NULL);
	if (text && strstr(text, "@TTYPOT1 end ")) {
		ku_progress("bisect-run: baseline %s: reusing %s", spec, saved);
		free(text);
		if (ingest_file(c, saved, err, sizeof err) == 0) {
			ingest_finish(c, &e->expected, filter);
			expect_apply(&e->ex, c);
			return c;
		}
	}
	free(text);
	col_free(c);
	struct kr_result r;
	kr_run(e, &ki, tag, filter, NULL, false, &r);
	if (!r.begun) {
		fprintf(stderr, "ttypot: bisect-run: baseline %s did not run the suite: %s\n",
			spec, r.err);
		col_free(r.col);
		return NULL;
	}
	return r.col;
}

int cmd_bisect_run(int argc, char **argv)
{
	struct bopts b;
	char err[1024];
	struct bisect_obs obs = {0};
	double t0 = proc_now();
	if (bisect_parse(argc, argv, &b, err, sizeof err) < 0) {
		fprintf(stderr, "ttypot: %s\n", err);
		fprintf(stderr, "usage: ttypot bisect-run [--cases FILTER] [--tree DIR] "
			"[--baseline KERNEL] [--reruns N]\n"
			"       [--cache DIR] [--suite DIR] [--deadline S] [-o WORKDIR]\n");
		obs.usage_error = true;
		return bisect_exit_code(&obs);
	}
	kr_install_signals();
	char cache[PATH_MAX], workdir[PATH_MAX + 32], filter[2048];
	if (b.cache)
		snprintf(cache, sizeof cache, "%s", b.cache);
	else
		ku_default_cache(cache, sizeof cache);
	if (b.workdir)
		snprintf(workdir, sizeof workdir, "%s", b.workdir);
	else
		snprintf(workdir, sizeof workdir, "%s/bisect-run", cache);
	filter_words(b.cases, filter, sizeof filter);
	const char *flt = filter[0] ? filter : NULL;
	struct kr_env e;
	if (kr_env_init(&e, b.suite, argv[0], b.cache, workdir, b.deadline_s, err,
			sizeof err) < 0) {
		fprintf(stderr, "ttypot: bisect-run: %s\n", err);
		obs.usage_error = true;
		kr_env_free(&e);
		return bisect_exit_code(&obs);
	}
	long nsel = 0;
	for (size_t i = 0; i < e.expected.n; i++)
		nsel += case_selected(flt, e.expected.v[i]);
	if (nsel == 0) {
		fprintf(stderr, "ttypot: bisect-run: --cases '%s' selects no case of %s/cases\n",
			b.cases ? b.cases : "", e.suite);
		obs.usage_error = true;
		kr_env_free(&e);
		return bisect_exit_code(&obs);
	}
	char spec[PATH_MAX + 8], tree[PATH_MAX];
	if (!realpath(b.tree, tree))
		snprintf(tree, sizeof tree, "%s", b.tree);
	snprintf(spec, sizeof spec, "tree:%s", tree);
	kr_ccache_basedir(tree, cache);
	struct column *base = NULL;
	if (b.baseline) {
		base = bisect_baseline(&e, b.baseline, flt);
		if (!base) {
			obs.usage_error = true;
			kr_env_free(&e);
			return bisect_exit_code(&obs);
		}
	}
	struct kernel_info ki;
	double build_s = 0;
	ku_progress("bisect-run: building %s", spec);
	if (kr_resolve(&e, spec, &ki, &build_s, err, sizeof err) < 0) {
		fprintf(stderr, "ttypot: bisect-run: %s\n", err);
		obs.build_failed = true;
	}
	struct kr_result r = {0};
	long nbad = 0;
	char **bad = NULL;
	if (!obs.build_failed) {
		kr_run(&e, &ki, "first", flt, base, false, &r);
		obs.run_error = r.end == RUN_ERROR && !r.begun;
		obs.begun = r.begun;
		if (!r.begun)
			fprintf(stderr, "ttypot: bisect-run: the kernel did not reach the suite "
				"(%s%s%s): skip\n", end_name(r.col->end), r.err[0] ? ": " : "", r.err);
		/* The ids that count: bad here, and not already bad on the baseline. */
		for (size_t i = 0; r.begun && i < r.col->ncases; i++) {
			const char *id = r.col->cases[i].id;
			if (!status_bad(r.col->cases[i].st))
				continue;
			if (base && kr_bad(base, id))
				continue;
			bad = xrealloc(bad, (size_t)(nbad + 1) * sizeof *bad);
			bad[nbad++] = xstrdup(id);
			fprintf(stderr, "ttypot: bisect-run: %s: %s%s%s\n", id,
				status_name(r.col->cases[i].st),
				r.col->cases[i].reason[0] ? ": " : "", r.col->cases[i].reason);
		}
		obs.first_bad = nbad;
	}
	/* Re-run only the failing cases, until one fails again. */
	bool *again = nbad ? calloc((size_t)nbad, sizeof *again) : NULL;
	for (int k = 0; nbad && k < b.reruns && obs.confirmed == 0 && !kr_interrupted; k++) {
		struct rbuf f = {0};
		for (long i = 0; i < nbad; i++) {
			rbuf_add(&f, i ? " " : "");
			rbuf_add(&f, bad[i]);
		}
		char tag[32];
		snprintf(tag, sizeof tag, "rerun-%d", k + 1);
		ku_progress("bisect-run: re-run %d/%d of %ld failing case%s", k + 1, b.reruns,
			    nbad, nbad == 1 ? "" : "s");
		struct kr_result rr;
		kr_run(&e, &ki, tag, rbuf_str(&f), NULL, false, &rr);
		if (rr.begun) {
			obs.reruns_done++;
			for (long i = 0; i < nbad; i++)
				if (!again[i] && kr_bad(rr.col, bad[i])) {
					again[i] = true;
					obs.confirmed++;
				}
		}
		col_free(rr.col);
		rbuf_free(&f);
	}
	int rc = bisect_exit_code(&obs);
	if (kr_interrupted && rc != BISECT_BAD)
		rc = BISECT_SKIP;
	printf("ttypot: bisect-run %s: %s (exit %d): %ld failing, %ld confirmed in %d "
	       "re-run%s; build %.0f s, total %.0f s\n",
	       ki.version[0] ? ki.version : tree,
	       rc == BISECT_GOOD ? "good" : rc == BISECT_BAD ? "bad" : "skip", rc,
	       obs.first_bad, obs.confirmed, obs.reruns_done,
	       obs.reruns_done == 1 ? "" : "s", build_s, proc_now() - t0);
	for (long i = 0; i < nbad; i++) {
		if (again && again[i])
			printf("  bad: %s\n", bad[i]);
		else if (obs.reruns_done)
			printf("  flaky (not confirmed): %s\n", bad[i]);
		free(bad[i]);
	}
	fflush(stdout);
	free(bad);
	free(again);
	if (r.col)
		col_free(r.col);
	if (base)
		col_free(base);
	kr_env_free(&e);
	return rc;
}
