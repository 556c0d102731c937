/* cmd_lava.c: `ttypot lava submit|collect|definition` (lava.h, ttypot(1)).
 * submit resolves kernels as matrix does and submits one job each; collect
 * waits for jobs (bounded, with progress), reads each job's log through the
 * REST API and renders the jobs as matrix columns labelled LABEL@lava. */
/* Paths are bounded by PATH_MAX; a truncated message is only shorter. */
#pragma GCC diagnostic ignored "-Wformat-truncation"
#include "lava.h"
#include "lava_images.h"
#include "cli.h"
#include "expectations.h"
#include "guest.h"
#include "ingest.h"
#include "kernel.h"
#include "kutil.h"
#include "matrix.h"
#include "proc.h"
#include "render.h"
#include "suite_dir.h"

#include <errno.h>
#include <jansson.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>
#include <time.h>
#include <unistd.h>

#define LAVA_DEFAULT_OUTDIR "reports/lava"
#define LAVA_DEFAULT_WAIT_S 3600
#define LAVA_DEFAULT_JOB_MIN 60
#define LAVA_POLL_S 5
#define LAVA_PROGRESS_EVERY_S 30
#define LAVA_POLL_TRIES 6 /* failed polls in a row before collect gives up */
#define KYUA_LIST_DEADLINE_S 120
#define MAX_JOBS 256

static volatile sig_atomic_t interrupted;

static void on_signal(int sig)
{
	(void)sig;
	interrupted = 1;
}

static void catch_signals(void)
{
	struct sigaction sa;
	memset(&sa, 0, sizeof sa);
	sa.sa_handler = on_signal;
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
}

/* Options of submit and collect (one struct; each has its own table). */
struct lava_opts {
	const char *server, *token_file, *device_type, *cases, *outdir, *cache, *suite;
	const char *image_url_base, *kernel_url, *expect, *baseline, *tag;
	bool dry_run, wait;
	int deadline_s, job_minutes;
};

/* ---------------- collect ---------------- */

struct ljob {
	long id;
	char state[32], health[32];
	char *failure;    /* failure_comment */
	char *definition; /* original_definition */
	bool finished;
	int poll_errors;  /* failed polls in a row */
};

static const char *jstr(json_t *o, const char *k)
{
	const char *s = json_string_value(json_object_get(o, k));
	return s ? s : "";
}

static int job_poll(struct lava_server *s, struct ljob *j, char *err, size_t errlen)
{
	char path[64];
	snprintf(path, sizeof path, "/api/v0.2/jobs/%ld/", j->id);
	struct rbuf b = {0};
	int rc = lava_get(s, path, &b, err, errlen);
	json_error_t je;
	json_t *o = rc == 0 ? json_loads(rbuf_str(&b), 0, &je) : NULL;
	rbuf_free(&b);
	if (rc == 0 && !json_is_object(o)) {
		snprintf(err, errlen, "GET %s: not a JSON object", path);
		rc = -1;
	}
	if (rc == 0) {
		snprintf(j->state, sizeof j->state, "%s", jstr(o, "state"));
		snprintf(j->health, sizeof j->health, "%s", jstr(o, "health"));
		free(j->failure);
		j->failure = utf8_clean(jstr(o, "failure_comment"), strlen(jstr(o, "failure_comment")));
		if (!j->definition)
			j->definition = xstrdup(jstr(o, "original_definition"));
		j->finished = !strcmp(j->state, "Finished");
	}
	json_decref(o);
	return rc;
}

/* Poll every job until all finished, the deadline, or Ctrl-C.  A job the
 * server does not know is an error (-1). */
static int wait_jobs(struct lava_server *s, struct ljob *jobs, size_t n, int deadline_s)
{
	char err[1024];
	double t0 = proc_now(), last = -1;
	for (;;) {
		size_t done = 0;
		bool changed = false;
		for (size_t i = 0; i < n; i++) {
			if (jobs[i].finished) {
				done++;
				continue;
			}
			char before[32];
			snprintf(before, sizeof before, "%s", jobs[i].state);
			if (job_poll(s, &jobs[i], err, sizeof err) < 0) {
				/* A server restart or a network hiccup: try again
				 * next round; a job that never answers ends it. */
				fprintf(stderr, "ttypot: lava: job %ld: %s\n", jobs[i].id, err);
				if (++jobs[i].poll_errors >= LAVA_POLL_TRIES)
					return -1;
				continue;
			}
			jobs[i].poll_errors = 0;
			if (strcmp(before, jobs[i].state)) {
				changed = true;
				fprintf(stderr, "[%zu/%zu] LAVA job %ld: %s%s%s (%.0f s)\n", i + 1, n,
					jobs[i].id, jobs[i].state, jobs[i].finished ? ", " : "",
					jobs[i].finished ? jobs[i].health : "", proc_now() - t0);
			}
			done += jobs[i].finished;
		}
		double now = proc_now();
		if (done == n)
			return 0;
		if (interrupted || now - t0 > deadline_s) {
			fprintf(stderr, "ttypot: lava: %s after %.0f s: %zu of %zu jobs unfinished\n",
				interrupted ? "interrupted" : "collect deadline passed", now - t0,
				n - done, n);
			return 0;
		}
		if (!changed && (last < 0 || now - last >= LAVA_PROGRESS_EVERY_S)) {
			fprintf(stderr, "ttypot: lava: %zu/%zu jobs finished, waiting (%.0f s of %d)\n",
				done, n, now - t0, deadline_s);
			last = now;
		}
		for (int k = 0; k < LAVA_POLL_S * 4 && !interrupted; k++) {
			struct timespec ts = { 0, 250000000L };
			nanosleep(&ts, NULL);
		}
	}
}

static bool label_taken(struct matrix *m, const char *label)
{
	for (size_t i = 0; i < m->ncols; i++)
		if (!strcmp(m->cols[i]->label, label))
			return true;
	return false;
}

/* One job as a column: its log through the REST API, ingested, ended. */
static struct column *job_column(struct lava_server *s, struct ljob *j, const char *rawdir,
				 struct matrix *m, const struct lava_opts *o, char **cases_out)
{
	char *label = lava_def_meta(j->definition, "label");
	char *spec = lava_def_meta(j->definition, "spec");
	char *cases = lava_def_meta(j->definition, "cases");
	char want[128], lab[128];
	if (label && *label)
		snprintf(want, sizeof want, "%.100s@lava", label);
	else
		snprintf(want, sizeof want, "lava-job-%ld", j->id);
	snprintf(lab, sizeof lab, "%s", want);
	for (int k = 2; label_taken(m, lab); k++)
		snprintf(lab, sizeof lab, "%.110s-%d", want, k);
	struct column *c = col_new(lab);
	snprintf(c->spec, sizeof c->spec, "%s", spec && *spec ? spec : "");
	char *version = lava_def_meta(j->definition, "version");
	char *config = lava_def_meta(j->definition, "config");
	snprintf(c->version, sizeof c->version, "%s", version ? version : "");
	snprintf(c->config_hash, sizeof c->config_hash, "%s", config ? config : "");
	free(version);
	free(config);
	snprintf(c->accel, sizeof c->accel, "tcg");
	char v[64];
	snprintf(v, sizeof v, "%ld", j->id);
	col_set_feature(c, "lava_job", v);
	/* Never credentials in a report: drop any user:password@. */
	char shown[512];
	const char *scheme = strstr(s->url, "://"), *at = strchr(s->url, '@');
	if (scheme && at && at > scheme)
		snprintf(shown, sizeof shown, "%.*s%s", (int)(scheme + 3 - s->url), s->url, at + 1);
	else
		snprintf(shown, sizeof shown, "%s", s->url);
	col_set_feature(c, "lava_server", shown);
	*cases_out = o->cases ? xstrdup(o->cases) : cases ? xstrdup(cases) : xstrdup("");

	char path[64], err[1024];
	snprintf(path, sizeof path, "/api/v0.2/jobs/%ld/logs/", j->id);
	struct rbuf log = {0};
	struct lava_log info;
	memset(&info, 0, sizeof info);
	if (lava_get(s, path, &log, err, sizeof err) < 0) {
		/* No log (yet): the state alone decides the column. */
		fprintf(stderr, "ttypot: lava: job %ld: %s\n", j->id, err);
		info.console_tail = xstrdup("");
		info.boot_s = -1;
	} else {
		char safe[128], name[200];
		safe_name(lab, safe, sizeof safe);
		snprintf(name, sizeof name, "%s.lava-log.yaml", safe);
		write_file(rawdir, name, &log, err, sizeof err);
		lava_log_read(c, rbuf_str(&log), log.len, &info);
	}
	rbuf_free(&log);
	if (info.boot_s >= 0)
		c->boot_s = info.boot_s;
	lava_column_end(c, j->id, j->state, j->finished ? j->health : NULL, j->failure, &info);
	lava_log_free(&info);
	free(label);
	free(spec);
	free(cases);
	return c;
}

static int collect(const struct lava_opts *o, const char *argv0, long *ids, size_t n)
{
	char err[1024], suite[PATH_MAX], rawdir[PATH_MAX + 8];
	struct lava_server s;
	if (lava_open(&s, o->server, o->token_file, err, sizeof err) < 0) {
		fprintf(stderr, "ttypot: lava: %s\n", err);
		return 2;
	}
	find_suite_dir(o->suite, argv0, suite, sizeof suite);
	snprintf(rawdir, sizeof rawdir, "%s/raw", o->outdir);
	struct ljob *jobs = xrealloc(NULL, n * sizeof *jobs);
	memset(jobs, 0, n * sizeof *jobs);
	for (size_t i = 0; i < n; i++)
		jobs[i].id = ids[i];
	int rc = 2;
	struct idlist expected = {0};
	struct expectations ex = {0};
	struct matrix m;
	matrix_init(&m);
	if (mkdir_p(rawdir) < 0) {
		fprintf(stderr, "ttypot: lava: -o %s: %s\n", o->outdir, strerror(errno));
		goto out;
	}
	catch_signals();
	if (wait_jobs(&s, jobs, n, o->deadline_s) < 0)
		goto out;
	char kyuafile[PATH_MAX + 32], dir[PATH_MAX + 32];
	snprintf(kyuafile, sizeof kyuafile, "%s/cases/Kyuafile", suite);
	if (caselist_kyua(kyuafile, KYUA_LIST_DEADLINE_S, &expected, err, sizeof err) < 0)
		fprintf(stderr, "ttypot: lava: warning: no expected case list (%s): cases a "
			"job never reports will not show as missing\n", err);
	snprintf(dir, sizeof dir, "%s/fixtures/expect", suite);
	if (expect_load_dir(&ex, o->expect ? o->expect : dir, err, sizeof err) < 0) {
		fprintf(stderr, "ttypot: lava: expectations: %s\n", err);
		goto out;
	}
	for (size_t i = 0; i < n; i++) {
		char *cases = NULL;
		struct column *c = job_column(&s, &jobs[i], rawdir, &m, o, &cases);
		ingest_finish(c, &expected, cases);
		expect_apply(&ex, c);
		free(cases);
		matrix_add(&m, c);
	}
	rc = render_matrix(&m, o->baseline, o->outdir);
	if (interrupted && rc < 2)
		rc = 2;
out:
	lava_close(&s);
	matrix_free(&m);
	idlist_free(&expected);
	expect_free(&ex);
	for (size_t i = 0; i < n; i++) {
		free(jobs[i].failure);
		free(jobs[i].definition);
	}
	free(jobs);
	return rc;
}

/* ---------------- submit ---------------- */

/* Two distinct UDP ports for the loop pair, random in 20000..59999 so that
 * jobs on one worker do not collide (and free here, where that can be
 * checked: a worker on this machine). */
static void pick_ports(int *a, int *b)
{
	unsigned r[2] = { 0, 0 };
	if (getrandom(r, sizeof r, 0) != (ssize_t)sizeof r) {
		r[0] = (unsigned)getpid() * 7919u;
		r[1] = (unsigned)time(NULL);
	}
	*a = 20000 + (int)(r[0] % 40000);
	*b = 20000 + (int)(r[1] % 40000);
	if (*b == *a)
		*b = *a == 59999 ? 20000 : *a + 1;
}

/* file://ABS or BASE/NAME. */
static int image_url(const struct lava_opts *o, const char *path, char *url, size_t len)
{
	char abs[PATH_MAX];
	if (o->image_url_base) {
		const char *name = strrchr(path, '/');
		return ku_fmt(url, len, "%s/%s", o->image_url_base, name ? name + 1 : path);
	}
	if (!realpath(path, abs))
		return -1;
	return ku_fmt(url, len, "file://%s", abs);
}

/* One kernel: resolve, images, YAML, submit.  The job id, 0 for a dry run,
 * -1 on errors (printed). */
static long submit_one(const struct lava_opts *o, struct lava_server *s, const char *specs,
		       const char *imgdir, const char *initramfs, size_t idx, size_t total)
{
	char err[1024];
	struct kspec ks;
	struct kernel_info ki;
	if (kspec_parse(specs, &ks, err, sizeof err) < 0) {
		fprintf(stderr, "ttypot: lava: %s\n", err);
		return -1;
	}
	if (ks.kind == KSPEC_HOST) {
		fprintf(stderr, "ttypot: lava: host is the running kernel; a LAVA job boots a "
			"kernel image\n");
		return -1;
	}
	fprintf(stderr, "[%zu/%zu] %s: resolving\n", idx, total, specs);
	if (kernel_resolve(&ks, o->cache, &ki, err, sizeof err) < 0) {
		fprintf(stderr, "[%zu/%zu] %s: %s\n", idx, total, specs, err);
		return -1;
	}
	const char *label = ki.label[0] ? ki.label : specs;
	char safe[128], kpath[PATH_MAX], rpath[PATH_MAX], ypath[PATH_MAX];
	safe_name(label, safe, sizeof safe);
	ku_fmt(kpath, sizeof kpath, "%s/%s.vmlinuz", imgdir, safe);
	ku_fmt(rpath, sizeof rpath, "%s/%s.initramfs.cpio.gz", imgdir, safe);
	ku_fmt(ypath, sizeof ypath, "%s/jobs/%s.yaml", o->outdir, safe);
	if (ku_copy_file(ki.image, kpath) < 0) {
		fprintf(stderr, "ttypot: lava: cannot copy %s: %s\n", ki.image, strerror(errno));
		return -1;
	}
	if (lava_ramdisk(&ki, initramfs, rpath, err, sizeof err) < 0) {
		fprintf(stderr, "ttypot: lava: %s\n", err);
		return -1;
	}
	char kurl[PATH_MAX + 600], rurl[PATH_MAX + 600];
	if ((o->kernel_url ? ku_fmt(kurl, sizeof kurl, "%s", o->kernel_url) :
	     image_url(o, kpath, kurl, sizeof kurl)) < 0 ||
	    image_url(o, rpath, rurl, sizeof rurl) < 0) {
		fprintf(stderr, "ttypot: lava: no URL for the images of %s\n", label);
		return -1;
	}
	struct lava_job_params p = {
		.label = label, .spec = specs, .cases = o->cases, .version = ki.version,
		.config_hash = ki.config_hash, .kernel_url = kurl,
		.ramdisk_url = rurl, .device_type = o->device_type, .tag = o->tag,
		.job_minutes = o->job_minutes, .test_minutes = o->job_minutes - 25,
	};
	if (p.test_minutes < 5)
		p.test_minutes = 5;
	pick_ports(&p.udp_a, &p.udp_b);
	struct rbuf y = {0};
	lava_job_yaml(&p, &y);
	if (ku_write_file(ypath, y.s, y.len) < 0) {
		fprintf(stderr, "ttypot: lava: cannot write %s: %s\n", ypath, strerror(errno));
		rbuf_free(&y);
		return -1;
	}
	long id = 0;
	if (o->dry_run) {
		printf("ttypot: lava: %s: job definition in %s (not submitted)\n", label, ypath);
	} else if (lava_submit(s, y.s, &id, err, sizeof err) < 0) {
		fprintf(stderr, "ttypot: lava: %s: %s\n", label, err);
		id = -1;
	} else {
		printf("ttypot: lava: %s: job %ld (%s/scheduler/job/%ld)\n", label, id, s->url, id);
	}
	fflush(stdout);
	rbuf_free(&y);
	return id;
}

static int submit(const struct lava_opts *o, const char *argv0, char **specs, int nspecs)
{
	char err[1024], suite[PATH_MAX], imgdir[PATH_MAX + 32], initramfs[PATH_MAX + 64];
	struct lava_server s;
	memset(&s, 0, sizeof s);
	if (!o->dry_run && lava_open(&s, o->server, o->token_file, err, sizeof err) < 0) {
		fprintf(stderr, "ttypot: lava: %s\n", err);
		return 2;
	}
	find_suite_dir(o->suite, argv0, suite, sizeof suite);
	snprintf(imgdir, sizeof imgdir, "%s/jobs/images", o->outdir);
	snprintf(initramfs, sizeof initramfs, "%s/initramfs.cpio.gz", imgdir);
	long *ids = xrealloc(NULL, (size_t)nspecs * sizeof *ids);
	size_t nids = 0;
	int rc = 2;
	if (ku_mkdir_p(imgdir, 0755) < 0) {
		fprintf(stderr, "ttypot: lava: -o %s: %s\n", o->outdir, strerror(errno));
		goto out;
	}
	/* Absolute: cpio runs in a staging directory, URLs need them. */
	char abs[PATH_MAX];
	if (!realpath(imgdir, abs)) {
		fprintf(stderr, "ttypot: lava: %s: %s\n", imgdir, strerror(errno));
		goto out;
	}
	snprintf(imgdir, sizeof imgdir, "%s", abs);
	snprintf(initramfs, sizeof initramfs, "%s/initramfs.cpio.gz", imgdir);
	fprintf(stderr, "ttypot: lava: building the guest initramfs\n");
	if (initramfs_build(suite, initramfs, err, sizeof err) < 0) {
		fprintf(stderr, "ttypot: lava: %s\n", err);
		goto out;
	}
	bool failed = false;
	char jobs[PATH_MAX + 64];
	snprintf(jobs, sizeof jobs, "%s/jobs/ids", o->outdir);
	for (int i = 0; i < nspecs; i++) {
		long id = submit_one(o, &s, specs[i], imgdir, initramfs, (size_t)i + 1,
				     (size_t)nspecs);
		failed |= id < 0;
		if (id > 0) {
			ids[nids++] = id;
			FILE *f = fopen(jobs, "a");
			if (f) {
				fprintf(f, "%ld\n", id);
				fclose(f);
			}
		}
	}
	if (o->dry_run || !o->wait) {
		if (nids) {
			printf("ttypot: lava: %zu job%s submitted; collect with: ttypot lava collect "
			       "-o %s", nids, nids == 1 ? "" : "s", o->outdir);
			for (size_t i = 0; i < nids; i++)
				printf(" %ld", ids[i]);
			printf("\n");
		}
		rc = failed ? 2 : 0;
		goto out;
	}
	lava_close(&s);
	rc = nids ? collect(o, argv0, ids, nids) : 2;
	if (failed && rc < 2)
		rc = 2;
out:
	lava_close(&s);
	free(ids);
	return rc;
}

/* ---------------- definition ---------------- */

/* The generic test definition for a board that boots its own kernel and a
 * root file system with the suite installed (make install). */
static void board_definition(const char *cases, const char *suite_path)
{
	char words[2048];
	snprintf(words, sizeof words, "%s", cases ? cases : "");
	for (char *c = words; *c; c++)
		if (*c == ',')
			*c = ' ';
	printf("# ttypot on a board: a LAVA test action's inline definition.  The board's\n"
	       "# root file system needs the suite installed (make install: SUITE below),\n"
	       "# kyua, atf and busybox or coreutils.  SERIAL_A/SERIAL_B: two UARTs wired\n"
	       "# to each other (null modem) for the serial cases, else they skip.\n"
	       "- test:\n"
	       "    timeout: {minutes: 60}\n"
	       "    definitions:\n"
	       "    - from: inline\n"
	       "      name: ttypot\n"
	       "      path: inline/ttypot.yaml\n"
	       "      # Shell variables of the steps (LAVA's test parameters).\n"
	       "      parameters: {SUITE: \"%s\", FILTER: \"%s\", SERIAL_A: \"\", SERIAL_B: \"\"}\n"
	       "      repository:\n"
	       "        metadata:\n"
	       "          format: Lava-Test Test Definition 1.0\n"
	       "          name: ttypot\n"
	       "          description: ttypot TTY/PTY cases\n"
	       "        run:\n"
	       "          steps:\n"
	       "          - 'if [ -n \"$SERIAL_A\" ] && [ -n \"$SERIAL_B\" ]; then export "
	       "TTYPOT_KYUA_VARS=\"-v test_suites.ttypot.serial_a=$SERIAL_A -v "
	       "test_suites.ttypot.serial_b=$SERIAL_B\"; fi'\n"
	       "          - 'TTYPOT_SUITE=\"$SUITE\" sh \"$SUITE/fixtures/guest/lava-suite.sh\" $FILTER'\n",
	       suite_path, words);
}

/* ---------------- the command ---------------- */

static const char *const submit_more =
	"Resolves each KERNEL as `ttypot matrix` does and submits one LAVA job per\n"
	"kernel: the kernel and the ttypot initramfs booted on a QEMU device type,\n"
	"each case a LAVA test case, the results channel in the job log.  Images are\n"
	"file:// URLs (a worker on this machine) unless --image-url-base maps\n"
	"DIR/jobs/images.  The token: --token-file, $TTYPOT_LAVA_TOKEN_FILE or\n"
	"$TTYPOT_LAVA_TOKEN; the server: --server or $TTYPOT_LAVA_URL.\n";
static const char *const collect_more =
	"Waits (--deadline, default 3600 s) for the jobs, reads each job's log through\n"
	"the REST API and writes the matrix (columns LABEL@lava) into DIR.  `ttypot\n"
	"merge` puts them beside local columns.\n";

static int lava_usage(FILE *f)
{
	fprintf(f, "usage: ttypot lava submit [OPTIONS] KERNEL...\n"
		   "       ttypot lava collect [OPTIONS] JOB...\n"
		   "       ttypot lava definition [--cases FILTER] [--suite-path DIR]\n"
		   "`ttypot lava submit --help` and `ttypot lava collect --help` list the options.\n");
	return f == stdout ? 0 : 2;
}

int cmd_lava(int argc, char **argv)
{
	if (argc < 3)
		return lava_usage(stderr);
	const char *sub = argv[2];
	if (!strcmp(sub, "--help") || !strcmp(sub, "-h") || !strcmp(sub, "help"))
		return lava_usage(stdout);
	if (!strcmp(sub, "--version") || !strcmp(sub, "-V")) {
		cli_version(stdout);
		return 0;
	}
	struct lava_opts o = {
		.device_type = "qemu", .outdir = LAVA_DEFAULT_OUTDIR,
		.deadline_s = LAVA_DEFAULT_WAIT_S, .job_minutes = LAVA_DEFAULT_JOB_MIN,
	};
	const char *suite_path = "/usr/local/lib/ttypot";
	char name[32];
	snprintf(name, sizeof name, "lava %.20s", sub);
	char **sargv = xrealloc(NULL, (size_t)argc * sizeof *sargv);
	sargv[0] = argv[0];
	sargv[1] = name;
	for (int i = 3; i < argc; i++)
		sargv[i - 1] = argv[i];
	sargv[argc - 1] = NULL;
	int sargc = argc - 1;
	char **rest = NULL;
	int nrest = 0, rc = 2;
	struct cli_opt srv = { "server", 0, OPT_STR, &o.server, 0, "URL",
			       "the LAVA server (default $TTYPOT_LAVA_URL)" };
	struct cli_opt tok = { "token-file", 0, OPT_STR, &o.token_file, 0, "FILE",
			       "the API token's file (never printed)" };
	if (!strcmp(sub, "submit")) {
		const struct cli_opt opts[] = {
			srv, tok,
			{ "device-type", 0, OPT_STR, &o.device_type, 0, "TYPE", "the lab's QEMU device type (default qemu)" },
			{ "tag", 0, OPT_STR, &o.tag, 0, "TAG", "only devices with this tag run the jobs" },
			cli_opt_cases(&o.cases),
			cli_opt_output(&o.outdir, "job files, images and (--wait) reports (default reports/lava)"),
			{ "dry-run", 'n', OPT_FLAG, &o.dry_run, 0, NULL, "write the job YAML, submit nothing" },
			{ "wait", 'w', OPT_FLAG, &o.wait, 0, NULL, "then collect the jobs (as lava collect)" },
			{ "deadline", 0, OPT_INT, &o.deadline_s, 1, "S", "--wait: seconds to wait for the jobs (default 3600)" },
			{ "job-timeout", 0, OPT_INT, &o.job_minutes, 30, "MIN", "each job's LAVA timeout (default 60)" },
			{ "image-url-base", 0, OPT_STR, &o.image_url_base, 0, "URL", "where the lab downloads DIR/jobs/images/ (default file://)" },
			{ "kernel-url", 0, OPT_STR, &o.kernel_url, 0, "URL", "boot this kernel URL instead of the resolved image" },
			cli_opt_cache(&o.cache),
			cli_opt_suite(&o.suite),
			cli_opt_expect(&o.expect),
			{ "baseline", 0, OPT_STR, &o.baseline, 0, "LABEL", "--wait: the column others are compared with" },
			CLI_OPT_END,
		};
		enum cli_verdict v = cli_command(sargc, sargv, opts, "[OPTIONS] KERNEL...",
						 submit_more, &rest, &nrest);
		if (v == CLI_HELP || v == CLI_VERSION)
			rc = 0;
		else if (v == CLI_OK && nrest == 0)
			fprintf(stderr, "ttypot: lava submit: a KERNEL is needed\n");
		else if (v == CLI_OK && !lava_filter_ok(o.cases))
			fprintf(stderr, "ttypot: lava submit: --cases: only letters, digits and "
				"_ - . / : , go into a job definition\n");
		else if (v == CLI_OK)
			rc = submit(&o, argv[0], rest, nrest);
	} else if (!strcmp(sub, "collect")) {
		const struct cli_opt opts[] = {
			srv, tok,
			cli_opt_output(&o.outdir, "where the reports go (default reports/lava)"),
			{ "deadline", 0, OPT_INT, &o.deadline_s, 1, "S", "seconds to wait for the jobs (default 3600)" },
			{ "cases", 0, OPT_STR, &o.cases, 0, "FILTER", "the cases the jobs ran (default: as submitted)" },
			cli_opt_suite(&o.suite),
			cli_opt_expect(&o.expect),
			{ "baseline", 0, OPT_STR, &o.baseline, 0, "LABEL", "the column others are compared with" },
			CLI_OPT_END,
		};
		enum cli_verdict v = cli_command(sargc, sargv, opts, "[OPTIONS] JOB...",
						 collect_more, &rest, &nrest);
		if (v == CLI_HELP || v == CLI_VERSION) {
			rc = 0;
		} else if (v == CLI_OK && nrest == 0) {
			fprintf(stderr, "ttypot: lava collect: a JOB id is needed\n");
		} else if (v == CLI_OK && nrest > MAX_JOBS) {
			fprintf(stderr, "ttypot: lava collect: at most %d jobs at once\n", MAX_JOBS);
		} else if (v == CLI_OK) {
			long ids[MAX_JOBS];
			bool ok = true;
			for (int i = 0; i < nrest; i++) {
				char *end;
				ids[i] = strtol(rest[i], &end, 10);
				if (*end || ids[i] <= 0) {
					fprintf(stderr, "ttypot: lava collect: '%s' is not a job id\n",
						rest[i]);
					ok = false;
				}
			}
			if (ok)
				rc = collect(&o, argv[0], ids, (size_t)nrest);
		}
	} else if (!strcmp(sub, "definition")) {
		const struct cli_opt opts[] = {
			cli_opt_cases(&o.cases),
			{ "suite-path", 0, OPT_STR, &suite_path, 0, "DIR", "the suite on the board (default /usr/local/lib/ttypot)" },
			CLI_OPT_END,
		};
		enum cli_verdict v = cli_command(sargc, sargv, opts, "[OPTIONS]",
						 "Prints the generic test definition a board lab puts in its jobs.\n",
						 NULL, NULL);
		if (v == CLI_HELP || v == CLI_VERSION)
			rc = 0;
		else if (v == CLI_OK && (!lava_filter_ok(o.cases) || !lava_filter_ok(suite_path)))
			fprintf(stderr, "ttypot: lava definition: only letters, digits and "
				"_ - . / : , in --cases and --suite-path\n");
		else if (v == CLI_OK) {
			board_definition(o.cases, suite_path);
			rc = 0;
		}
	} else {
		fprintf(stderr, "ttypot: lava: unknown subcommand '%s'\n", sub);
		lava_usage(stderr);
	}
	free(rest);
	free(sargv);
	return rc;
}
