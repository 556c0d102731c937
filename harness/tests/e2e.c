// SPDX-License-Identifier: GPL-2.0-only
/* e2e.c: the end-to-end harness tests' shared steps (see e2e.h). */
#include "e2e.h"

#include <atf-c.h>
#include <pwd.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

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

/* The cell of case id in matrix.csv (header "case,area,<label>"). */
static bool csv_cell(FILE *f, const char *id, char *cell, size_t len)
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
		if (!csv_cell(f, want[i].id, cell, sizeof cell)) {
			atf_tc_fail_nonfatal("%s: no row in matrix.csv", want[i].id);
			continue;
		}
		ATF_CHECK_MSG(strcmp(cell, want[i].status) == 0,
			      "%s: cell \"%s\", want \"%s\"", want[i].id, cell,
			      want[i].status);
	}
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
