// SPDX-License-Identifier: GPL-2.0-only
/* t_kmsg_guest: kernel warnings end to end.  Debian's linux-image-amd64 (a
 * 6.1 kernel) boots under QEMU with a small suite of its own: pty/t_echo
 * and, in the first case, harness/tests/guest/t_kmsg_warn, whose case
 * warns_and_taints sets a real taint flag (TAINT_USER) and writes a
 * WARNING-shaped line into the kernel log.  The column must show both,
 * attributed to that case, while every cell still passes; the same boot
 * without it must show no kernel warning at all (an unmodified Debian
 * kernel that warned would be a finding, shown the same way). */
#include <atf-c.h>

#include "e2e.h"
#include "kutil.h"
#include "merge.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define KERNEL "deb:linux-image-amd64"
#define PROG "t_kmsg_warn"
#define WARNS PROG ":warns_and_taints"
#define TAINT_USER 64UL
/* Download, unpack, initramfs, boot and run under TCG on a loaded machine. */
#define RUN_DEADLINE_S 600

/* A suite of its own in dir: the real fixtures (guest init, reporter,
 * kmsg-watch.sh), pty/t_echo, and with_warner: t_kmsg_warn, allowed to
 * taint.  Runs ttypot matrix on it; the matrix comes back in m. */
static void run_suite(const atf_tc_t *tc, const char *dir, bool with_warner,
		      struct matrix *m)
{
	char ttypot[1024];
	e2e_ttypot(tc, ttypot, sizeof ttypot);
	e2e_suite_init(tc, dir);
	e2e_suite_add(tc, dir, "../../cases/pty/t_echo", "pty/t_echo");
	e2e_suite_file(dir, "pty/Kyuafile",
		       "syntax(2)\ntest_suite(\"ttypot\")\natf_test_program{name=\"t_echo\"}\n");
	if (with_warner) {
		e2e_suite_add(tc, dir, "guest/" PROG, PROG);
		e2e_suite_file(dir, "kmsg-allowed", "harness/tests/t_kmsg_guest\n");
		e2e_suite_file(dir, "Kyuafile", "syntax(2)\ntest_suite(\"ttypot\")\n"
			       "atf_test_program{name=\"" PROG "\"}\ninclude(\"pty/Kyuafile\")\n");
	} else {
		e2e_suite_file(dir, "Kyuafile",
			       "syntax(2)\ntest_suite(\"ttypot\")\ninclude(\"pty/Kyuafile\")\n");
	}

	char out[1100], log[1100], json[1200];
	snprintf(out, sizeof out, "%s/out", dir);
	snprintf(log, sizeof log, "%s/ttypot.log", dir);
	char *mx[] = {ttypot, "matrix", "-o", out, "--suite", (char *)dir, KERNEL, NULL};
	int rc = e2e_run(mx, RUN_DEADLINE_S, log, KERNEL);
	/* One kernel is its own baseline: no regression can exist. */
	ATF_REQUIRE_MSG(rc == 0, "ttypot matrix exit %d; see %s", rc, log);
	snprintf(json, sizeof json, "%s/matrix.json", out);
	char err[1024];
	matrix_init(m);
	ATF_REQUIRE_MSG(merge_load_json(m, json, NULL, 0, err, sizeof err) == 0, "%s", err);
	matrix_build(m);
	ATF_REQUIRE_EQ(m->ncols, 1);
}

static bool listed(const struct kwarn *w, const char *id)
{
	for (size_t i = 0; i < w->cases.n; i++)
		if (strcmp(w->cases.v[i], id) == 0)
			return true;
	return false;
}

/* Every cell of the column passed. */
static void all_pass(const struct column *c, size_t want)
{
	ATF_CHECK_EQ(c->ncases, want);
	for (size_t i = 0; i < c->ncases; i++)
		ATF_CHECK_MSG(c->cases[i].st == ST_PASS, "%s: %s (%s)", c->cases[i].id,
			      status_name(c->cases[i].st), c->cases[i].reason);
}

ATF_TC(warning_and_taint_attributed);
ATF_TC_HEAD(warning_and_taint_attributed, tc)
{
	atf_tc_set_md_var(tc, "descr", "A guest case that sets TAINT_USER and writes a "
			  "WARNING line and a tty count-check line to /dev/kmsg: the column's "
			  "kernel warnings hold both lines and the new flag, all attributed to the "
			  "case, and matrix.md "
			  "says so although every cell passes");
	atf_tc_set_md_var(tc, "timeout", "900");
	atf_tc_set_md_var(tc, "require.progs", "qemu-system-x86_64 apt-get dpkg-deb cpio");
}
ATF_TC_BODY(warning_and_taint_attributed, tc)
{
	char dir[] = "/tmp/ttypot-kmsg.XXXXXX";
	ATF_REQUIRE(mkdtemp(dir) != NULL);
	struct matrix m;
	run_suite(tc, dir, true, &m);
	const struct column *c = m.cols[0];
	all_pass(c, 10);
	ATF_CHECK_STREQ(c->kmsg_mode, "boot");
	const struct kwarn *line = NULL, *flag = NULL, *count = NULL;
	for (size_t i = 0; i < c->nkw; i++) {
		const struct kwarn *w = &c->kw[i];
		if (w->kind == KW_KMSG && strstr(w->text, "tty->count(2) != (#fd's(1)"))
			count = w;
		if (w->kind == KW_KMSG && strstr(w->text, "WARNING: CPU: 0 PID: ") &&
		    strstr(w->text, "t_kmsg_warn.c warns_and_taints"))
			line = w;
		if (w->kind == KW_TAINT && (w->taint & ~w->taint_old & TAINT_USER))
			flag = w;
	}
	ATF_CHECK_MSG(line != NULL, "no kernel warning holds the WARNING line (%zu warnings)",
		      c->nkw);
	ATF_CHECK_MSG(flag != NULL, "no kernel warning holds the new TAINT_USER flag");
	ATF_CHECK_MSG(count != NULL, "no kernel warning holds the tty count-check line");
	if (count)
		ATF_CHECK_MSG(listed(count, WARNS), "the tty count-check line is not "
			      "attributed to " WARNS);
	if (line) {
		ATF_CHECK_MSG(listed(line, WARNS), "the WARNING line is not attributed to " WARNS);
		ATF_CHECK(line->ktime > 0 && line->to > 0);
		ATF_CHECK(line->taint & TAINT_USER);
	}
	if (flag)
		ATF_CHECK_MSG(listed(flag, WARNS), "the taint is not attributed to " WARNS);
	ATF_CHECK(column_new_taint(c) & TAINT_USER);
	/* matrix.md says so, though every cell passes */
	char md[1200];
	snprintf(md, sizeof md, "%s/out/matrix.md", dir);
	char *text = ku_read_file(md, NULL);
	ATF_REQUIRE_MSG(text != NULL, "%s unreadable", md);
	ATF_CHECK_MSG(strstr(text, " kernel warnings**.") != NULL, "%s: no kernel warnings count", md);
	ATF_CHECK(strstr(text, "| t\\_kmsg\\_warn:warns\\_and\\_taints | pass \xe2\x9a\xa0 |") != NULL);
	free(text);
	matrix_free(&m);
	e2e_cleanup(tc, dir);
}

ATF_TC(quiet_boot_shows_none);
ATF_TC_HEAD(quiet_boot_shows_none, tc)
{
	atf_tc_set_md_var(tc, "descr", "The same boot without the warning program: the kernel "
			  "log was watched from boot and the column has no kernel warning and no "
			  "new taint flag");
	atf_tc_set_md_var(tc, "timeout", "900");
	atf_tc_set_md_var(tc, "require.progs", "qemu-system-x86_64 apt-get dpkg-deb cpio");
}
ATF_TC_BODY(quiet_boot_shows_none, tc)
{
	char dir[] = "/tmp/ttypot-kmsg.XXXXXX";
	ATF_REQUIRE(mkdtemp(dir) != NULL);
	struct matrix m;
	run_suite(tc, dir, false, &m);
	const struct column *c = m.cols[0];
	all_pass(c, 8);
	ATF_CHECK_STREQ(c->kmsg_mode, "boot");
	ATF_CHECK_EQ(c->taint_start, 0);
	for (size_t i = 0; i < c->nkw; i++)
		atf_tc_fail_nonfatal("kernel warning: %s", c->kw[i].text);
	ATF_CHECK_EQ(column_new_taint(c), 0);
	matrix_free(&m);
	e2e_cleanup(tc, dir);
}

ATF_TP_ADD_TCS(tp)
{
	ATF_TP_ADD_TC(tp, warning_and_taint_attributed);
	ATF_TP_ADD_TC(tp, quiet_boot_shows_none);
	return atf_no_error();
}
