// SPDX-License-Identifier: GPL-2.0-only
/* t_guest_panic: a kernel that dies in the middle of a test program keeps
 * every case of that program that finished before it.  A suite of one
 * program (harness/tests/guest/t_panic_midway: two passing cases, then one
 * that crashes the kernel through sysrq, then one that never runs) boots
 * Debian's linux-image-amd64 under QEMU; the matrix must show the first two
 * as pass and the others as panic or missing, with the panic recorded. */
#include <atf-c.h>

#include "e2e.h"
#include "kutil.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define KERNEL "deb:linux-image-amd64"
#define PROG "t_panic_midway"
/* Download, unpack, initramfs, boot, run and the panic under TCG. */
#define RUN_DEADLINE_S 600

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
	char ttypot[1024], dir[] = "/tmp/ttypot-panic.XXXXXX", log[1100], q[1300],
	     out[1100], csv[1200];
	e2e_ttypot(tc, ttypot, sizeof ttypot);
	ATF_REQUIRE(mkdtemp(dir) != NULL);

	/* A suite of its own: the real fixtures (guest init, reporter), and a
	 * cases/ tree with only the crashing program, marked as allowed to. */
	e2e_suite_init(tc, dir);
	e2e_suite_add(tc, dir, "guest/" PROG, PROG);
	e2e_suite_file(dir, "panic-allowed", "harness/tests/t_guest_panic\n");
	/* Exclusive: Kyua runs the cases one at a time, in order. */
	e2e_suite_file(dir, "Kyuafile", "syntax(2)\ntest_suite(\"ttypot\")\n"
		       "atf_test_program{name=\"" PROG "\", is_exclusive=true}\n");

	snprintf(out, sizeof out, "%s/out", dir);
	snprintf(log, sizeof log, "%s/ttypot.log", dir);
	char *mx[] = {ttypot, "matrix", "-o", out, "--suite", dir, KERNEL, NULL};
	/* A panic column is an error of the kernel, not of the run: any exit
	 * code but a crash of ttypot itself is fine; the cells decide. */
	e2e_run(mx, RUN_DEADLINE_S, log, KERNEL);

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
	FILE *f = fopen(csv, "r");
	for (size_t i = 0; i < sizeof cells / sizeof *cells; i++) {
		char cell[256] = "(no row)";
		bool found = f != NULL && e2e_csv_cell(f, cells[i].id, cell, sizeof cell);
		if (found && (strcmp(cell, cells[i].want) == 0 ||
			      (cells[i].also && strcmp(cell, cells[i].also) == 0)))
			continue;
		bad++;
		atf_tc_fail_nonfatal("%s: cell \"%s\", want \"%s\"%s%s (log %s)",
				     cells[i].id, cell, cells[i].want,
				     cells[i].also ? " or " : "",
				     cells[i].also ? cells[i].also : "", log);
	}
	if (f != NULL)
		fclose(f);
	/* The column says the kernel panicked. */
	snprintf(q, sizeof q, "%s/matrix.md", out);
	char *md = ku_read_file(q, NULL);
	if (md == NULL || strstr(md, "panic") == NULL) {
		bad++;
		atf_tc_fail_nonfatal("%s does not say the kernel panicked", q);
	}
	free(md);
	/* Kept for a look when something is wrong, removed otherwise. */
	if (bad == 0)
		e2e_cleanup(tc, dir);
}

ATF_TP_ADD_TCS(tp)
{
	ATF_TP_ADD_TC(tp, panic_midway_keeps_finished_cases);
	return atf_no_error();
}
