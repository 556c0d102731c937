// SPDX-License-Identifier: GPL-2.0-only
/* t_guest_panic: a kernel that dies in the middle of a test program keeps
 * every case of that program that finished before it.  A suite of one
 * program (harness/tests/guest/t_panic_midway: two passing cases, then one
 * that crashes the kernel through sysrq, then one that never runs) boots
 * Debian's linux-image-amd64 under QEMU; the matrix must show the first two
 * as pass and the others as panic or missing, with the panic recorded. */
#include <atf-c.h>

#include "kutil.h"
#include "proc.h"
#include "rbuf.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#define KERNEL "deb:linux-image-amd64"
#define PROG "t_panic_midway"
/* Download, unpack, initramfs, boot, run and the panic under TCG. */
#define RUN_DEADLINE_S 600

static void run_or_fail(char *const argv[], int deadline_s, const char *what)
{
	struct rbuf out = {0};
	char err[512];
	int rc = capture_run(argv, NULL, deadline_s, &out, &out, err, sizeof err);
	if (rc != 0)
		atf_tc_fail("%s: %s\n%s", what, err, rbuf_str(&out));
	rbuf_free(&out);
}

static void put_file(const char *path, const char *text)
{
	FILE *f = fopen(path, "w");
	ATF_REQUIRE_MSG(f != NULL, "%s: %s", path, strerror(errno));
	fputs(text, f);
	ATF_REQUIRE(fclose(f) == 0);
}

/* The cell of case id in matrix.csv ("case,area,<label>"). */
static bool csv_cell(const char *csv, const char *id, char *cell, size_t len)
{
	FILE *f = fopen(csv, "r");
	char line[1024];
	size_t idlen = strlen(id);
	bool found = false;
	while (f != NULL && !found && fgets(line, sizeof line, f) != NULL) {
		char *c;
		if (strncmp(line, id, idlen) != 0 || line[idlen] != ',' ||
		    (c = strchr(line + idlen + 1, ',')) == NULL)
			continue;
		snprintf(cell, len, "%s", c + 1);
		cell[strcspn(cell, "\r\n")] = '\0';
		found = true;
	}
	if (f != NULL)
		fclose(f);
	return found;
}

ATF_TC(panic_midway_keeps_finished_cases);
ATF_TC_HEAD(panic_midway_keeps_finished_cases, tc)
{
	atf_tc_set_md_var(tc, "descr", "A guest whose test program crashes the kernel "
			  "(sysrq c) after two of its cases passed: the matrix keeps both "
			  "passes and marks the crashing and the unrun case panic/missing");
	atf_tc_set_md_var(tc, "timeout", "900");
	atf_tc_set_md_var(tc, "require.progs", "qemu-system-x86_64 apt-get dpkg-deb cpio");
}
ATF_TC_BODY(panic_midway_keeps_finished_cases, tc)
{
	const char *src = atf_tc_get_config_var_wd(tc, "srcdir", ".");
	char ttypot[1024], prog[1024], dir[] = "/tmp/ttypot-panic.XXXXXX", p[1100],
	     q[1300], out[1100], csv[1200];
	snprintf(ttypot, sizeof ttypot, "%s/../ttypot", src);
	snprintf(prog, sizeof prog, "%s/guest/" PROG, src);
	ATF_REQUIRE_MSG(access(ttypot, X_OK) == 0, "%s not built", ttypot);
	ATF_REQUIRE_MSG(access(prog, X_OK) == 0, "%s not built", prog);
	ATF_REQUIRE(mkdtemp(dir) != NULL);

	/* A suite of its own: the real fixtures (guest init, reporter), and a
	 * cases/ tree with only the crashing program, marked as allowed to. */
	snprintf(p, sizeof p, "%s/../../fixtures", src);
	snprintf(q, sizeof q, "%s/fixtures", dir);
	char *cp[] = {"cp", "-r", p, q, NULL};
	run_or_fail(cp, 60, "copying fixtures/");
	snprintf(p, sizeof p, "%s/cases", dir);
	ATF_REQUIRE(mkdir(p, 0755) == 0);
	snprintf(q, sizeof q, "%s/cases/" PROG, dir);
	char *cpp[] = {"cp", prog, q, NULL};
	run_or_fail(cpp, 10, "copying " PROG);
	snprintf(q, sizeof q, "%s/cases/panic-allowed", dir);
	put_file(q, "harness/tests/t_guest_panic\n");
	snprintf(q, sizeof q, "%s/cases/Kyuafile", dir);
	/* Exclusive: Kyua runs the cases one at a time, in order. */
	put_file(q, "syntax(2)\ntest_suite(\"ttypot\")\n"
		      "atf_test_program{name=\"" PROG "\", is_exclusive=true}\n");

	snprintf(out, sizeof out, "%s/out", dir);
	char *mx[] = {ttypot, "matrix", "-o", out, "--suite", dir, KERNEL, NULL};
	struct rbuf log = {0};
	char err[512];
	/* A panic column is an error of the kernel, not of the run: any exit
	 * code but a crash of ttypot itself is fine; the cells decide. */
	int rc = capture_run(mx, NULL, RUN_DEADLINE_S, &log, &log, err, sizeof err);
	snprintf(p, sizeof p, "%s/ttypot.log", dir);
	put_file(p, rbuf_str(&log));
	rbuf_free(&log);
	ATF_REQUIRE_MSG(rc >= 0, "ttypot matrix: %s; see %s", err, p);

	snprintf(csv, sizeof csv, "%s/matrix.csv", out);
	static const struct {
		const char *id, *want, *also;
	} cells[] = {
		{"t_panic_midway:a_first_passes", "pass", NULL},
		{"t_panic_midway:b_second_passes", "pass", NULL},
		{"t_panic_midway:c_panics_the_kernel", "panic", "missing"},
		{"t_panic_midway:d_never_runs", "panic", "missing"},
	};
	int bad = 0;
	for (size_t i = 0; i < sizeof cells / sizeof *cells; i++) {
		char cell[256] = "(no row)";
		bool found = csv_cell(csv, cells[i].id, cell, sizeof cell);
		if (found && (strcmp(cell, cells[i].want) == 0 ||
			      (cells[i].also && strcmp(cell, cells[i].also) == 0)))
			continue;
		bad++;
		atf_tc_fail_nonfatal("%s: cell \"%s\", want \"%s\"%s%s (log %s)",
				     cells[i].id, cell, cells[i].want,
				     cells[i].also ? " or " : "",
				     cells[i].also ? cells[i].also : "", p);
	}
	/* The column says the kernel panicked. */
	snprintf(q, sizeof q, "%s/matrix.md", out);
	char *md = ku_read_file(q, NULL);
	if (md == NULL || strstr(md, "panic") == NULL) {
		bad++;
		atf_tc_fail_nonfatal("%s does not say the kernel panicked", q);
	}
	free(md);
	/* Kept for a look when something is wrong, removed otherwise. */
	if (bad == 0) {
		char *rm[] = {"rm", "-rf", dir, NULL};
		run_or_fail(rm, 60, "removing the scratch suite");
	}
}

ATF_TP_ADD_TCS(tp)
{
	ATF_TP_ADD_TC(tp, panic_midway_keeps_finished_cases);
	return atf_no_error();
}
