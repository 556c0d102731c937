/* orchestrate.c: matrix/run/report/merge: resolve, run in parallel with
 * progress, ingest, render.  Everything collected is rendered even when a
 * kernel fails or the run is interrupted. */
#include "orchestrate.h"
#include "expectations.h"
#include "deflist.h"
#include "guest.h"
#include "ingest.h"
#include "matrix.h"
#include "merge.h"
#include "progress.h"
#include "rbuf.h"
#include "report.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#define KYUA_LIST_DEADLINE_S 120
#define WATCHDOG_GRACE_S 120   /* past --deadline, the runner process is killed */
#define POLL_MS 250
#define CONSOLE_TAIL_LINES 40

static volatile sig_atomic_t interrupted;

static void on_signal(int sig)
{
	(void)sig;
	interrupted = 1;
}

static bool is_file(const char *p)
{
	struct stat st;
	return stat(p, &st) == 0 && S_ISREG(st.st_mode);
}

void find_suite_dir(const char *opt, const char *argv0, char *out, size_t outlen)
{
	if (opt) {
		snprintf(out, outlen, "%s", opt);
		return;
	}
	char exe[PATH_MAX], path[PATH_MAX + 64];
	ssize_t n = readlink("/proc/self/exe", exe, sizeof exe - 1);
	if (n <= 0)
		n = (ssize_t)snprintf(exe, sizeof exe, "%s", argv0);
	exe[n] = '\0';
	char *slash = strrchr(exe, '/');
	if (slash) {
		*slash = '\0'; /* exe dir */
		snprintf(path, sizeof path, "%s/../cases/Kyuafile", exe);
		if (is_file(path)) {
			snprintf(out, outlen, "%s/..", exe);
			return;
		}
		snprintf(path, sizeof path, "%s/../lib/ttypot/cases/Kyuafile", exe);
		if (is_file(path)) {
			snprintf(out, outlen, "%s/../lib/ttypot", exe);
			return;
		}
	}
	snprintf(out, outlen, ".");
}

/* The last n lines of a file (console excerpt), malloc'd; "" if none. */
static char *file_tail(const char *path, int lines)
{
	char err[256];
	size_t len = 0;
	char *text = path && *path ? read_file(path, &len, err, sizeof err) : NULL;
	if (!text)
		return xstrdup("");
	size_t end = len;
	while (end > 0 && (text[end - 1] == '\n' || text[end - 1] == '\r'))
		end--;
	size_t start = end;
	int seen = 0;
	while (start > 0) {
		if (text[start - 1] == '\n' && ++seen == lines)
			break;
		start--;
	}
	char *tail = utf8_clean(text + start, end - start);
	free(text);
	/* drop the CRs of a serial console */
	char *w = tail;
	for (char *r = tail; *r; r++)
		if (*r != '\r')
			*w++ = *r;
	*w = '\0';
	return tail;
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

struct job {
	struct kspec spec;
	struct kernel_info ki;
	struct column *col;
	bool runnable;       /* resolved, not an error column */
	pid_t pid;
	bool done;
	double t0;
	char results[4400], console[4400], outcome[4400];
	struct progress prog;
};

static void job_paths(struct job *j, const char *rawdir)
{
	char safe[128];
	safe_name(j->col->label, safe, sizeof safe);
	snprintf(j->results, sizeof j->results, "%s/%s.results", rawdir, safe);
	snprintf(j->console, sizeof j->console, "%s/%s.console", rawdir, safe);
	snprintf(j->outcome, sizeof j->outcome, "%s/%s.outcome", rawdir, safe);
}

/* The forked runner: run the suite, leave the outcome in a file. */
static void job_child(struct job *j, const struct run_opts *ro)
{
	struct run_outcome out;
	memset(&out, 0, sizeof out);
	setpgid(0, 0);
	signal(SIGINT, SIG_DFL);
	signal(SIGTERM, SIG_DFL);
	if (run_suite(&j->ki, ro, j->results, j->console, &out) != 0 && out.end == RUN_DONE)
		out.end = RUN_ERROR;
	char tmp[4500];
	snprintf(tmp, sizeof tmp, "%s.tmp", j->outcome);
	int fd = open(tmp, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
	if (fd >= 0) {
		ssize_t w = write(fd, &out, sizeof out);
		close(fd);
		if (w == (ssize_t)sizeof out)
			rename(tmp, j->outcome);
	}
	_exit(0);
}

static void job_collect(struct job *j, int wstatus, bool killed)
{
	struct column *c = j->col;
	struct run_outcome out;
	memset(&out, 0, sizeof out);
	int fd = open(j->outcome, O_RDONLY | O_CLOEXEC);
	bool have = fd >= 0 && read(fd, &out, sizeof out) == (ssize_t)sizeof out;
	if (fd >= 0)
		close(fd);
	if (have) {
		c->end = map_end(out.end);
		snprintf(c->accel, sizeof c->accel, "%s", out.accel);
		c->boot_s = out.boot_s;
		c->suite_s = out.suite_s;
		if (out.console_path[0])
			snprintf(j->console, sizeof j->console, "%s", out.console_path);
		if (out.end == RUN_ERROR)
			col_set_error(c, out.err[0] ? out.err : "the run could not start");
		else if (out.err[0])
			col_set_error(c, out.err);
	} else if (killed) {
		c->end = END_TIMEOUT;
		col_set_error(c, "the runner passed its deadline and was killed");
	} else {
		char msg[128];
		if (WIFSIGNALED(wstatus))
			snprintf(msg, sizeof msg, "the runner died (signal %d)", WTERMSIG(wstatus));
		else
			snprintf(msg, sizeof msg, "the runner exited (%d) without an outcome",
				 WIFEXITED(wstatus) ? WEXITSTATUS(wstatus) : -1);
		c->end = interrupted ? END_ERROR : END_SILENT;
		col_set_error(c, interrupted ? "interrupted" : msg);
	}
	char err[512];
	if (ingest_file(c, j->results, err, sizeof err) < 0 && c->end == END_DONE) {
		c->end = END_ERROR;
		col_set_error(c, err);
	}
	if (c->end != END_DONE || (c->end_seen == 0)) {
		char *tail = file_tail(j->console, CONSOLE_TAIL_LINES);
		col_set_console(c, tail);
		free(tail);
	}
	j->done = true;
}

static bool label_taken(struct job *jobs, size_t n, const char *label)
{
	for (size_t i = 0; i < n; i++)
		if (strcmp(jobs[i].col->label, label) == 0)
			return true;
	return false;
}

/* Render whatever the matrix holds; pick the baseline; return the exit code. */
static int render(struct matrix *m, const char *baseline, const char *outdir)
{
	char err[1024];
	int rc = 0;
	if (matrix_set_baseline(m, baseline, err, sizeof err) < 0) {
		fprintf(stderr, "ttypot: %s; using %s\n", err,
			m->ncols ? m->cols[0]->label : "-");
		rc = 2;
	}
	matrix_build(m);
	if (report_write_all(m, outdir, err, sizeof err) < 0) {
		fprintf(stderr, "ttypot: writing reports: %s\n", err);
		return 2;
	}
	printf("ttypot: %zu kernels, %zu cases, baseline %s, %ld regression%s\n",
	       m->ncols, m->rows.n, m->ncols ? m->cols[m->base]->label : "-",
	       m->regressions, m->regressions == 1 ? "" : "s");
	for (size_t c = 0; c < m->ncols; c++) {
		const struct col_summary *s = &m->sum[c];
		printf("  %-28s %-8s pass %ld fail %ld skip %ld xfail %ld broken %ld "
		       "timeout %ld panic %ld missing %ld\n",
		       m->cols[c]->label, end_name(m->cols[c]->end), s->count[ST_PASS],
		       s->count[ST_FAIL], s->count[ST_SKIP], s->count[ST_XFAIL],
		       s->count[ST_BROKEN], s->count[ST_TIMEOUT], s->count[ST_PANIC],
		       s->count[ST_MISSING]);
	}
	printf("ttypot: reports in %s/ (matrix.md matrix.html matrix.csv matrix.json "
	       "kcidb.json junit-*.xml)\n", outdir);
	fflush(stdout);
	if (rc)
		return rc;
	return m->regressions ? 1 : 0;
}

static int load_expectations(const struct cli *o, const char *suite,
			     struct expectations *ex)
{
	char dir[PATH_MAX], err[1024];
	if (o->expect_dir)
		snprintf(dir, sizeof dir, "%s", o->expect_dir);
	else
		snprintf(dir, sizeof dir, "%s/fixtures/expect", suite);
	if (expect_load_dir(ex, dir, err, sizeof err) < 0) {
		fprintf(stderr, "ttypot: expectations: %s\n", err);
		return -1;
	}
	return 0;
}

static int default_jobs(void)
{
	long n = sysconf(_SC_NPROCESSORS_ONLN);
	return n >= 4 ? (int)(n / 2) : 1;
}

int cmd_matrix(const struct cli *o, const char *argv0)
{
	char err[1024], suite[PATH_MAX];
	size_t unusable = 0; /* kernels that failed to resolve */
	struct idlist specs = {0};
	find_suite_dir(o->suite_dir, argv0, suite, sizeof suite);
	if (o->cmd == CMD_RUN) {
		idlist_add(&specs, "host");
	} else if (o->nargs == 0) {
		if (deflist_kernels(&specs, err, sizeof err) < 0) {
			fprintf(stderr, "ttypot: %s\n", err);
			return 2;
		}
		fprintf(stderr, "ttypot: default kernels:");
		for (size_t i = 0; i < specs.n; i++)
			fprintf(stderr, " %s", specs.v[i]);
		fprintf(stderr, "\n");
	} else {
		for (int i = 0; i < o->nargs; i++)
			idlist_add(&specs, o->args[i]);
	}
	size_t n = specs.n;
	struct job *jobs = xrealloc(NULL, n * sizeof *jobs);
	memset(jobs, 0, n * sizeof *jobs);
	/* 1. every spec must parse before any work */
	for (size_t i = 0; i < n; i++)
		if (kspec_parse(specs.v[i], &jobs[i].spec, err, sizeof err) < 0) {
			fprintf(stderr, "ttypot: %s\n", err);
			free(jobs);
			idlist_free(&specs);
			return 2;
		}
	struct expectations ex = {0};
	if (load_expectations(o, suite, &ex) < 0) {
		free(jobs);
		idlist_free(&specs);
		return 2;
	}
	char rawdir[PATH_MAX + 8];
	snprintf(rawdir, sizeof rawdir, "%s/raw", o->outdir);
	if (mkdir_p(rawdir) < 0) {
		fprintf(stderr, "ttypot: -o %s: %s\n", o->outdir, strerror(errno));
		expect_free(&ex);
		free(jobs);
		idlist_free(&specs);
		return 2;
	}
	/* 2. the cases the suite has (for missing/panic/timeout cells) */
	struct idlist expected = {0};
	char kyuafile[PATH_MAX + 32];
	snprintf(kyuafile, sizeof kyuafile, "%s/cases/Kyuafile", suite);
	if (caselist_kyua(kyuafile, KYUA_LIST_DEADLINE_S, &expected, err, sizeof err) < 0)
		fprintf(stderr, "ttypot: warning: no expected case list (%s): cases a "
			"kernel never reports will not show as missing\n", err);
	long nexpected = 0;
	for (size_t i = 0; i < expected.n; i++)
		nexpected += case_selected(o->cases, expected.v[i]);

	struct sigaction sa;
	memset(&sa, 0, sizeof sa);
	sa.sa_handler = on_signal;
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);

	/* 3. resolve each kernel; a failure makes an error column */
	char cache[PATH_MAX];
	if (o->cache_dir)
		snprintf(cache, sizeof cache, "%s", o->cache_dir);
	else
		cache[0] = '\0';
	bool need_initramfs = false;
	for (size_t i = 0; i < n && !interrupted; i++) {
		struct job *j = &jobs[i];
		fprintf(stderr, "[%zu/%zu] %s: resolving\n", i + 1, n, j->spec.text);
		j->col = col_new(NULL);
		snprintf(j->col->spec, sizeof j->col->spec, "%s", j->spec.text);
		int rc = kernel_resolve(&j->spec, cache[0] ? cache : NULL, &j->ki, err, sizeof err);
		char label[128];
		snprintf(label, sizeof label, "%s", rc == 0 && j->ki.label[0] ? j->ki.label : j->spec.text);
		for (int k = 2; label_taken(jobs, i, label); k++)
			snprintf(label, sizeof label, "%.100s-%d",
				 rc == 0 && j->ki.label[0] ? j->ki.label : j->spec.text, k);
		snprintf(j->col->label, sizeof j->col->label, "%s", label);
		if (rc < 0) {
			fprintf(stderr, "[%zu/%zu] %s: %s\n", i + 1, n, label, err);
			unusable++;
			j->col->end = END_ERROR;
			col_set_error(j->col, err);
			continue;
		}
		snprintf(j->col->uname, sizeof j->col->uname, "%s", j->ki.release);
		snprintf(j->col->version, sizeof j->col->version, "%s", j->ki.version);
		snprintf(j->col->config_hash, sizeof j->col->config_hash, "%s", j->ki.config_hash);
		snprintf(j->col->arch, sizeof j->col->arch, "%s", j->ki.arch);
		j->runnable = true;
		need_initramfs |= j->spec.kind != KSPEC_HOST;
	}
	/* 4. one initramfs for every guest */
	char initramfs[PATH_MAX + 32];
	snprintf(initramfs, sizeof initramfs, "%s/initramfs.cpio.gz", rawdir);
	if (need_initramfs && !interrupted) {
		fprintf(stderr, "ttypot: building the guest initramfs\n");
		if (initramfs_build(suite, initramfs, err, sizeof err) < 0) {
			fprintf(stderr, "ttypot: initramfs: %s\n", err);
			for (size_t i = 0; i < n; i++)
				if (jobs[i].runnable && jobs[i].spec.kind != KSPEC_HOST) {
					char msg[1100];
					snprintf(msg, sizeof msg, "initramfs: %s", err);
					jobs[i].runnable = false;
					jobs[i].col->end = END_ERROR;
					col_set_error(jobs[i].col, msg);
				}
		}
	}
	/* 5. run, -j at a time, each in a forked process */
	struct run_opts ro = { suite, initramfs, o->cases, o->deadline_s, NULL };
	int maxjobs = o->jobs > 0 ? o->jobs : default_jobs();
	size_t next = 0;
	int running = 0;
	fflush(stdout);
	fflush(stderr);
	for (;;) {
		while (!interrupted && running < maxjobs && next < n) {
			struct job *j = &jobs[next++];
			if (!j->runnable || !j->col)
				continue;
			job_paths(j, rawdir);
			unlink(j->outcome);
			int fd = open(j->results, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
			if (fd >= 0)
				close(fd);
			pid_t pid = fork();
			if (pid < 0) {
				j->col->end = END_ERROR;
				col_set_error(j->col, strerror(errno));
				continue;
			}
			if (pid == 0)
				job_child(j, &ro);
			setpgid(pid, pid);
			j->pid = pid;
			j->t0 = progress_now();
			running++;
			progress_start(&j->prog, (int)(j - jobs) + 1, (int)n, j->col->label,
				       j->results, nexpected, stderr);
		}
		if (running == 0 && (next >= n || interrupted))
			break;
		struct timespec ts = { 0, POLL_MS * 1000000L };
		nanosleep(&ts, NULL);
		for (size_t i = 0; i < n; i++) {
			struct job *j = &jobs[i];
			if (!j->pid || j->done)
				continue;
			progress_poll(&j->prog);
			int st = 0;
			bool killed = false;
			pid_t w = waitpid(j->pid, &st, WNOHANG);
			if (w == 0 && (interrupted ||
				       progress_now() - j->t0 > o->deadline_s + WATCHDOG_GRACE_S)) {
				kill(-j->pid, interrupted ? SIGTERM : SIGKILL);
				if (interrupted) {
					struct timespec g = { 2, 0 };
					nanosleep(&g, NULL);
					kill(-j->pid, SIGKILL);
				}
				w = waitpid(j->pid, &st, 0);
				killed = !interrupted;
			}
			if (w == j->pid) {
				running--;
				job_collect(j, st, killed);
				progress_finish(&j->prog, j->col);
			}
		}
	}
	/* 6. columns: ingest done; fill, expectations, render */
	struct matrix m;
	matrix_init(&m);
	for (size_t i = 0; i < n; i++) {
		struct job *j = &jobs[i];
		if (!j->col)
			continue;
		if (j->runnable && !j->done) {
			j->col->end = END_ERROR;
			col_set_error(j->col, "interrupted before it ran");
		}
		ingest_finish(j->col, &expected, o->cases);
		expect_apply(&ex, j->col);
		matrix_add(&m, j->col);
		j->col = NULL;
	}
	if (interrupted)
		fprintf(stderr, "ttypot: interrupted: rendering what was collected\n");
	int rc = m.ncols ? render(&m, o->baseline, o->outdir) : 2;
	if (interrupted && rc < 2)
		rc = 2;
	/* A kernel that could not be used (missing file, not a kernel, broken
	 * .deb, failed build) is an input error: the other kernels' results
	 * are in the reports, but the run did not test what was asked. */
	if (unusable && rc < 2) {
		fprintf(stderr, "ttypot: %zu kernel%s could not be used (error column%s "
			"above); exit 2\n", unusable, unusable == 1 ? "" : "s",
			unusable == 1 ? "" : "s");
		rc = 2;
	}
	matrix_free(&m);
	idlist_free(&expected);
	expect_free(&ex);
	free(jobs);
	idlist_free(&specs);
	return rc;
}

static bool looks_like_json(const char *path)
{
	char err[256];
	size_t len;
	char *t = read_file(path, &len, err, sizeof err);
	if (!t)
		return false;
	size_t i = strspn(t, " \t\r\n");
	bool j = t[i] == '{';
	free(t);
	return j;
}

int cmd_report(const struct cli *o, const char *argv0)
{
	char err[1024], suite[PATH_MAX], base[256] = "";
	find_suite_dir(o->suite_dir, argv0, suite, sizeof suite);
	struct expectations ex = {0};
	if (load_expectations(o, suite, &ex) < 0)
		return 2;
	struct matrix m;
	matrix_init(&m);
	int rc = 0;
	for (int i = 0; i < o->nargs && rc == 0; i++) {
		const char *path = o->args[i];
		if (access(path, R_OK) < 0) {
			fprintf(stderr, "ttypot: %s: %s\n", path, strerror(errno));
			rc = 2;
		} else if (looks_like_json(path)) {
			char b[256];
			if (merge_load_json(&m, path, b, sizeof b, err, sizeof err) < 0) {
				fprintf(stderr, "ttypot: %s\n", err);
				rc = 2;
			} else if (!base[0]) {
				snprintf(base, sizeof base, "%s", b);
			}
		} else {
			/* a results-channel file: label = its name without .results */
			const char *slash = strrchr(path, '/');
			char label[128];
			snprintf(label, sizeof label, "%s", slash ? slash + 1 : path);
			char *dot = strstr(label, ".results");
			if (dot && dot[8] == '\0')
				*dot = '\0';
			struct column *c = col_new(label);
			snprintf(c->spec, sizeof c->spec, "%s", path);
			if (ingest_file(c, path, err, sizeof err) < 0) {
				fprintf(stderr, "ttypot: %s\n", err);
				col_free(c);
				rc = 2;
				break;
			}
			ingest_finish(c, NULL, NULL);
			expect_apply(&ex, c);
			matrix_add(&m, c);
		}
	}
	if (rc == 0)
		rc = render(&m, o->baseline ? o->baseline : base, o->outdir);
	matrix_free(&m);
	expect_free(&ex);
	return rc;
}

int cmd_merge(const struct cli *o)
{
	char err[1024], base[256] = "";
	struct matrix m;
	matrix_init(&m);
	for (int i = 0; i < o->nargs; i++) {
		char b[256];
		if (merge_load_json(&m, o->args[i], b, sizeof b, err, sizeof err) < 0) {
			fprintf(stderr, "ttypot: %s\n", err);
			matrix_free(&m);
			return 2;
		}
		if (!base[0])
			snprintf(base, sizeof base, "%s", b);
	}
	int rc = render(&m, o->baseline ? o->baseline : base, o->outdir);
	matrix_free(&m);
	return rc;
}
