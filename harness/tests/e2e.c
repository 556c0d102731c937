// SPDX-License-Identifier: GPL-2.0-only
/* e2e.c: the end-to-end harness tests' shared steps (see e2e.h). */
#include "e2e.h"

#include <errno.h>
#include <pwd.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "kutil.h"
#include "proc.h"
#include "rbuf.h"

int e2e_run(char *const argv[], int deadline_s, const char *log,
	    const char *what)
{
	struct rbuf out = {0};
	char err[512];
	int rc = capture_run(argv, NULL, deadline_s, &out, &out, err, sizeof err);
	FILE *f = fopen(log, "w");
	if (f != NULL) {
		fwrite(rbuf_str(&out), 1, out.len, f);
		fclose(f);
	}
	rbuf_free(&out);
	if (rc < 0)
		atf_tc_fail("ttypot matrix %s: %s; see %s", what, err, log);
	return rc;
}

int e2e_run_logged(char *const argv[], int deadline_s, const char *log,
		   const char *what)
{
	struct rbuf out = {0};
	char err[512];
	double t0 = proc_now();
	int rc = capture_run(argv, NULL, deadline_s, &out, &out, err, sizeof err);
	FILE *f = fopen(log, "a");
	if (f) {
		fprintf(f, "==== %s: exit %d in %.0f s\n%s", what, rc, proc_now() - t0,
			rbuf_str(&out));
		fclose(f);
	}
	fprintf(stderr, "==== %s: exit %d in %.0f s\n%s", what, rc, proc_now() - t0,
		rbuf_str(&out));
	rbuf_free(&out);
	if (rc < 0)
		atf_tc_fail("%s: %s; see %s", what, err, log);
	return rc;
}

bool e2e_csv_cell(FILE *f, const char *id, char *cell, size_t len)
{
	char line[1024];
	size_t idlen = strlen(id);
	rewind(f);
	while (fgets(line, sizeof line, f) != NULL) {
		if (strncmp(line, id, idlen) != 0 || line[idlen] != ',')
			continue;
		char *c = strchr(line + idlen + 1, ','); /* skip the area */
		if (c == NULL)
			return false;
		snprintf(cell, len, "%s", c + 1);
		cell[strcspn(cell, "\r\n")] = '\0';
		return true;
	}
	return false;
}

static long csv_rows(FILE *f)
{
	char line[1024];
	long n = -1; /* the header */
	rewind(f);
	while (fgets(line, sizeof line, f) != NULL)
		n++;
	return n;
}

void e2e_check_cells(FILE *f, const struct e2e_want *want, size_t n)
{
	ATF_CHECK_EQ(csv_rows(f), (long)n);
	for (size_t i = 0; i < n; i++) {
		char cell[256];
		if (!e2e_csv_cell(f, want[i].id, cell, sizeof cell)) {
			atf_tc_fail_nonfatal("%s: no row in matrix.csv", want[i].id);
			continue;
		}
		ATF_CHECK_MSG(strcmp(cell, want[i].status) == 0,
			      "%s: cell \"%s\", want \"%s\"", want[i].id, cell,
			      want[i].status);
	}
}

void e2e_check_csv(const char *csv, const struct e2e_want *want, size_t n,
		   char *header, size_t hlen)
{
	char own[512];
	if (header == NULL)
		header = own, hlen = sizeof own;
	FILE *f = fopen(csv, "r");
	ATF_REQUIRE_MSG(f != NULL, "%s: %s", csv, strerror(errno));
	ATF_REQUIRE(fgets(header, (int)hlen, f) != NULL);
	ATF_CHECK_MSG(strncmp(header, "case,area,", 10) == 0, "csv header: %s", header);
	e2e_check_cells(f, want, n);
	fclose(f);
}

void e2e_ttypot(const atf_tc_t *tc, char *out, size_t len)
{
	snprintf(out, len, "%s/../ttypot", atf_tc_get_config_var_wd(tc, "srcdir", "."));
	ATF_REQUIRE_MSG(access(out, X_OK) == 0, "%s not built", out);
}

void e2e_run_ok(char *const argv[], int deadline_s, const char *what)
{
	struct rbuf out = {0};
	char err[512];
	int rc = capture_run(argv, NULL, deadline_s, &out, &out, err, sizeof err);
	if (rc != 0)
		atf_tc_fail("%s: %s\n%s", what, err, rbuf_str(&out));
	rbuf_free(&out);
}

void e2e_put_file(const char *path, const char *text)
{
	FILE *f = fopen(path, "w");
	ATF_REQUIRE_MSG(f != NULL, "%s: %s", path, strerror(errno));
	fputs(text, f);
	ATF_REQUIRE(fclose(f) == 0);
}

void e2e_suite_init(const atf_tc_t *tc, const char *dir)
{
	char from[1100], to[1100];
	snprintf(from, sizeof from, "%s/../../fixtures",
		 atf_tc_get_config_var_wd(tc, "srcdir", "."));
	snprintf(to, sizeof to, "%s/fixtures", dir);
	char *cp[] = {"cp", "-r", from, to, NULL};
	e2e_run_ok(cp, 60, "copying fixtures/");
	snprintf(to, sizeof to, "%s/cases", dir);
	ATF_REQUIRE_MSG(ku_mkdir_p(to, 0755) == 0, "%s: %s", to, strerror(errno));
}

void e2e_suite_add(const atf_tc_t *tc, const char *dir, const char *from,
		   const char *to)
{
	char src[1100], dst[1100], what[300];
	snprintf(src, sizeof src, "%s/%s", atf_tc_get_config_var_wd(tc, "srcdir", "."),
		 from);
	ATF_REQUIRE_MSG(access(src, X_OK) == 0, "%s not built", src);
	snprintf(dst, sizeof dst, "%s/cases/%s", dir, to);
	*strrchr(dst, '/') = '\0';
	ATF_REQUIRE_MSG(ku_mkdir_p(dst, 0755) == 0, "%s: %s", dst, strerror(errno));
	snprintf(dst, sizeof dst, "%s/cases/%s", dir, to);
	snprintf(what, sizeof what, "copying %s", to);
	char *cp[] = {"cp", src, dst, NULL};
	e2e_run_ok(cp, 10, what);
}

void e2e_suite_file(const char *dir, const char *rel, const char *text)
{
	char path[1100];
	snprintf(path, sizeof path, "%s/cases/%s", dir, rel);
	e2e_put_file(path, text);
}

void e2e_cleanup(const atf_tc_t *tc, const char *dir)
{
	if (atf_tc_get_config_var_as_bool_wd(tc, "keep_e2e", false))
		return;
	char *rm[] = {"rm", "-rf", (char *)dir, NULL}, err[256];
	capture_run(rm, NULL, 60, NULL, NULL, err, sizeof err);
}

void e2e_user_env(const char *var, const char *rel, char *out, size_t len)
{
	const char *v = getenv(var);
	struct passwd *pw = getpwuid(getuid());
	if (v != NULL && *v)
		snprintf(out, len, "%s=%s", var, v);
	else
		snprintf(out, len, "%s=%s/%s", var, pw != NULL ? pw->pw_dir : "/root", rel);
}

void e2e_cache_env(char *out, size_t len)
{
	e2e_user_env("TTYPOT_CACHE", ".cache/ttypot", out, len);
}
