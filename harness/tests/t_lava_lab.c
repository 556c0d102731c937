// SPDX-License-Identifier: GPL-2.0-only
/* t_lava_lab: a real LAVA round trip.  fixtures/lava/local-lava.sh brings
 * up a lab of our own (PostgreSQL, server, scheduler, one qemu worker, KVM
 * off); `ttypot matrix` runs two Debian kernels locally; `ttypot lava
 * submit` sends the same kernels and cases to the lab, plus a job whose
 * kernel URL does not exist; `ttypot lava collect` turns the jobs into
 * columns.  Every lab cell must equal the local cell of the same kernel,
 * and the broken job must be an error column carrying LAVA's reason.  The
 * cleanup takes the lab down whatever happened. */
#include <atf-c.h>

/* Paths are short here; a truncated one only fails the case. */
#pragma GCC diagnostic ignored "-Wformat-truncation"

#include "matrix.h"
#include "merge.h"
#include "e2e.h"
#include "proc.h"
#include "rbuf.h"

#include <arpa/inet.h>
#include <errno.h>
#include <netinet/in.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

/* The end-to-end test's kernel and a second flavour of it. */
#define K1 "deb:linux-image-amd64"
#define K2 "deb:linux-image-cloud-amd64"
/* Pass-only, a skip and an xfail on 6.1 (as t_guest_e2e). */
#define SUBSET "pty/t_echo,ioctl/t_tiocsti,packet/t_pkt_poll"
#define BAD_URL "file:///nonexistent/ttypot-no-such-vmlinuz"
/* Package install on a fresh machine (~3 min) plus the daemons (~2 min). */
#define UP_DEADLINE_S 900
#define MATRIX_DEADLINE_S 900
#define SUBMIT_DEADLINE_S 600
/* Three jobs, one device, TCG: ~2.5 min each on a loaded machine. */
#define COLLECT_WAIT_S 1500

static char ttypot[1024], script[1024];

static void paths(const atf_tc_t *tc)
{
	const char *src = atf_tc_get_config_var_wd(tc, "srcdir", ".");
	snprintf(ttypot, sizeof ttypot, "%s/../ttypot", src);
	snprintf(script, sizeof script, "%s/../../fixtures/lava/local-lava.sh", src);
}

/* A free TCP port on 127.0.0.1 for our server (8000 may be someone's). */
static int free_port(void)
{
	int fd = socket(AF_INET, SOCK_STREAM, 0);
	struct sockaddr_in a = { .sin_family = AF_INET };
	socklen_t al = sizeof a;
	a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
	ATF_REQUIRE(fd >= 0);
	ATF_REQUIRE(bind(fd, (void *)&a, sizeof a) == 0);
	ATF_REQUIRE(getsockname(fd, (void *)&a, &al) == 0);
	close(fd);
	return ntohs(a.sin_port);
}

static bool file_has(const char *path, const char *needle)
{
	char *t = read_file(path, NULL, (char[64]){0}, 64);
	bool has = t && strstr(t, needle);
	free(t);
	return has;
}

static struct column *find_col(struct matrix *m, const char *label)
{
	for (size_t i = 0; i < m->ncols; i++)
		if (!strcmp(m->cols[i]->label, label))
			return m->cols[i];
	return NULL;
}

/* Every cell of loc equals the lab's, and the other way round. */
static void same_cells(const struct column *loc, const struct column *lab)
{
	ATF_CHECK_MSG(loc->ncases > 0, "%s: no cells", loc->label);
	ATF_CHECK_EQ_MSG(loc->ncases, lab->ncases, "%s: %zu cells locally, %zu in the lab",
			 loc->label, loc->ncases, lab->ncases);
	for (size_t i = 0; i < loc->ncases; i++) {
		const struct case_result *a = &loc->cases[i];
		const struct case_result *b = col_find(lab, a->id);
		if (!b) {
			atf_tc_fail_nonfatal("%s: %s has no lab cell", lab->label, a->id);
			continue;
		}
		ATF_CHECK_MSG(a->st == b->st && a->raw == b->raw,
			      "%s: local %s/%s, lab %s/%s (%s)", a->id, status_name(a->st),
			      status_name(a->raw), status_name(b->st), status_name(b->raw),
			      b->reason);
	}
	ATF_CHECK_MSG(!strcmp(loc->uname, lab->uname), "uname: local %s, lab %s", loc->uname,
		      lab->uname);
}

ATF_TC_WITH_CLEANUP(lab_columns_equal_local_columns);
ATF_TC_HEAD(lab_columns_equal_local_columns, tc)
{
	atf_tc_set_md_var(tc, "descr", "A local LAVA lab runs " K1 " and " K2 " with " SUBSET
			  " and every lab cell equals the local run's; a job whose kernel URL "
			  "does not exist is an error column with LAVA's reason; the token is in "
			  "no report");
	atf_tc_set_md_var(tc, "require.user", "root");
	atf_tc_set_md_var(tc, "require.progs", "qemu-system-x86_64 apt-get dpkg-deb cpio");
	/* up + local matrix + submit + three jobs, on a fresh machine. */
	atf_tc_set_md_var(tc, "timeout", "3600");
}
ATF_TC_BODY(lab_columns_equal_local_columns, tc)
{
	paths(tc);
	ATF_REQUIRE_MSG(access(ttypot, X_OK) == 0, "%s not built", ttypot);
	char cwd[512], log[600], state[600], port[16], env_port[40], url[64], tok[700];
	ATF_REQUIRE(getcwd(cwd, sizeof cwd) != NULL);
	snprintf(log, sizeof log, "%s/lava.log", cwd);
	/* The daemons (user lavaserver) write logs there: not under Kyua's
	 * private work directory. */
	snprintf(state, sizeof state, "/tmp/ttypot-lab.XXXXXX");
	ATF_REQUIRE(mkdtemp(state) != NULL);
	snprintf(port, sizeof port, "%d", free_port());
	snprintf(env_port, sizeof env_port, "TTYPOT_LAVA_PORT=%s", port);
	snprintf(url, sizeof url, "http://127.0.0.1:%s", port);
	snprintf(tok, sizeof tok, "%s/token", state);
	FILE *pf = fopen("lab-where", "w"); /* for the cleanup */
	ATF_REQUIRE(pf != NULL);
	fprintf(pf, "%s %s\n", port, state);
	fclose(pf);
	fprintf(stderr, "t_lava_lab: lab on %s, log %s\n", url, log);

	int rc;
	double t0 = proc_now();
	char *up[] = { "env", env_port, "sh", script, "up", state, NULL };
	ATF_REQUIRE_MSG(e2e_run_logged(up, UP_DEADLINE_S, log, "local-lava.sh up") == 0,
			"the lab did not come up; see %s", log);
	double t_up = proc_now();

	char *loc[] = { ttypot, "matrix", "-o", "local", "-j", "1", "--cases", SUBSET, K1, K2,
			NULL };
	/* 1: the second kernel differs from the first (still compared). */
	rc = e2e_run_logged(loc, MATRIX_DEADLINE_S, log, "ttypot matrix");
	ATF_REQUIRE_MSG(rc == 0 || rc == 1, "the local run failed (exit %d)", rc);
	double t_local = proc_now();

	/* Our device's tag: no other lab on this machine's database (another
	 * engineer's, say) takes our jobs. */
	char tag[64];
	snprintf(tag, sizeof tag, "ttypot-lab-%s", port);
	char *sub[] = { ttypot, "lava", "submit", "--server", url, "--token-file", tok, "-o",
			"lab", "--tag", tag, "--cases", SUBSET, K1, K2, NULL };
	ATF_REQUIRE_MSG(e2e_run_logged(sub, SUBMIT_DEADLINE_S, log, "ttypot lava submit") == 0,
			"submit failed; see %s", log);
	char *bad[] = { ttypot, "lava", "submit", "--server", url, "--token-file", tok, "-o",
			"bad", "--tag", tag, "--kernel-url", BAD_URL, "--cases", "pty/t_echo", K1,
			NULL };
	ATF_REQUIRE_MSG(e2e_run_logged(bad, SUBMIT_DEADLINE_S, log, "ttypot lava submit (bad URL)") == 0,
			"submit of the bad job failed; see %s", log);
	long ids[3] = { 0, 0, 0 };
	FILE *f = fopen("lab/jobs/ids", "r");
	ATF_REQUIRE_MSG(f != NULL, "lab/jobs/ids: %s", strerror(errno));
	ATF_REQUIRE(fscanf(f, "%ld %ld", &ids[0], &ids[1]) == 2);
	fclose(f);
	f = fopen("bad/jobs/ids", "r");
	ATF_REQUIRE_MSG(f != NULL, "bad/jobs/ids: %s", strerror(errno));
	ATF_REQUIRE(fscanf(f, "%ld", &ids[2]) == 1);
	fclose(f);
	char a[3][24], wait[16];
	for (int i = 0; i < 3; i++)
		snprintf(a[i], sizeof a[i], "%ld", ids[i]);
	snprintf(wait, sizeof wait, "%d", COLLECT_WAIT_S);
	char *col[] = { ttypot, "lava", "collect", "--server", url, "--token-file", tok, "-o",
			"lab", "--deadline", wait, a[0], a[1], a[2], NULL };
	/* The broken job's missing cells are regressions against the first
	 * column: exit 1 is expected, 2 is not. */
	rc = e2e_run_logged(col, COLLECT_WAIT_S + 300, log, "ttypot lava collect");
	ATF_CHECK_MSG(rc == 1, "collect exit %d (want 1: the bad job's cells); see %s", rc, log);
	double t_lab = proc_now();
	fprintf(stderr, "t_lava_lab: up %.0f s, local run %.0f s, lab round trip %.0f s\n",
		t_up - t0, t_local - t_up, t_lab - t_local);

	struct matrix l, b;
	char err[1024], base[256];
	matrix_init(&l);
	matrix_init(&b);
	ATF_REQUIRE_MSG(merge_load_json(&l, "local/matrix.json", base, sizeof base, err,
					sizeof err) == 0, "%s", err);
	ATF_REQUIRE_MSG(merge_load_json(&b, "lab/matrix.json", base, sizeof base, err,
					sizeof err) == 0, "%s", err);
	ATF_REQUIRE_EQ_MSG(l.ncols, 2, "local columns: %zu", l.ncols);
	ATF_REQUIRE_EQ_MSG(b.ncols, 3, "lab columns: %zu", b.ncols);
	for (size_t i = 0; i < l.ncols; i++) {
		char want[200];
		snprintf(want, sizeof want, "%s@lava", l.cols[i]->label);
		struct column *c = find_col(&b, want);
		if (!c) {
			atf_tc_fail_nonfatal("no lab column %s", want);
			continue;
		}
		ATF_CHECK_MSG(c->end == END_DONE, "%s: end %s (%s)", want, end_name(c->end),
			      c->error);
		same_cells(l.cols[i], c);
	}
	/* The third job: the same kernel's label, made unique, an error. */
	const struct column *e = b.cols[2];
	ATF_CHECK_MSG(e->end == END_ERROR, "%s: end %s", e->label, end_name(e->end));
	ATF_CHECK_MSG(strstr(e->error, "Incomplete: ") != NULL &&
		      strstr(e->error, "no error message") == NULL,
		      "%s: error without LAVA's reason: %s", e->label, e->error);
	fprintf(stderr, "t_lava_lab: the bad job's column: %s\n", e->error);
	for (size_t i = 0; i < e->ncases; i++)
		ATF_CHECK_MSG(e->cases[i].st == ST_MISSING, "%s: %s is %s", e->label,
			      e->cases[i].id, status_name(e->cases[i].st));
	ATF_CHECK_MSG(e->ncases > 0, "the error column has no (missing) cells");
	matrix_free(&l);
	matrix_free(&b);

	/* merge shows local and lab columns together. */
	char *mg[] = { ttypot, "merge", "-o", "merged", "local/matrix.json", "lab/matrix.json",
		       NULL };
	rc = e2e_run_logged(mg, 120, log, "ttypot merge");
	ATF_CHECK_MSG(rc == 0 || rc == 1, "merge exit %d; see %s", rc, log);
	ATF_CHECK_MSG(file_has("merged/matrix.md", "@lava"), "merged/matrix.md has no lab column");

	/* The token is in no report and no output. */
	char *t = read_file(tok, NULL, err, sizeof err);
	if (t) {
		t[strcspn(t, "\n")] = '\0';
		ATF_CHECK(strlen(t) >= 16);
		const char *files[] = { "lab/matrix.json", "lab/matrix.md", "lab/matrix.html",
					"lab/kcidb.json", "lab/matrix.csv", "merged/matrix.json",
					log };
		for (size_t i = 0; i < sizeof files / sizeof *files; i++)
			ATF_CHECK_MSG(!file_has(files[i], t), "%s holds the token", files[i]);
		free(t);
	}
}
ATF_TC_CLEANUP(lab_columns_equal_local_columns, tc)
{
	paths(tc);
	char port[16], state[600], env_port[40];
	FILE *f = fopen("lab-where", "r");
	if (!f)
		return; /* the body never started a lab */
	int n = fscanf(f, "%15s %599s", port, state);
	fclose(f);
	if (n != 2)
		return;
	snprintf(env_port, sizeof env_port, "TTYPOT_LAVA_PORT=%s", port);
	char *down[] = { "env", env_port, "sh", script, "down", state, NULL };
	char err[512];
	capture_run(down, NULL, 300, NULL, NULL, err, sizeof err);
	/* The daemons' logs are kept only when asked (keep_lava=true). */
	if (!atf_tc_get_config_var_as_bool_wd(tc, "keep_lava", false)) {
		char *rm[] = { "rm", "-rf", state, NULL };
		capture_run(rm, NULL, 120, NULL, NULL, err, sizeof err);
	}
}

ATF_TP_ADD_TCS(tp)
{
	ATF_TP_ADD_TC(tp, lab_columns_equal_local_columns);
	return atf_no_error();
}
