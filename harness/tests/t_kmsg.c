// SPDX-License-Identifier: GPL-2.0-only
/* t_kmsg: kernel warnings (harness/PROTOCOL.md, "Kernel warnings"): the
 * watch, kmsg, taint and span lines, their attribution to cases, the
 * reports that show them, matrix.json round trips, and the real watcher
 * (fixtures/guest/kmsg-watch.sh) started, made ready and stopped. */
#include <atf-c.h>

#include <errno.h>
#include <fcntl.h>
#include <grp.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "ingest.h"
#include "kutil.h"
#include "merge.h"
#include "proto.h"
#include "rbuf.h"
#include "report.h"

#define WARN_TEXT "WARNING:%20CPU:%201%20PID:%2042%20at%20drivers/tty/n_tty.c:1234%20n_tty_read"

static struct column *ingest_text(const char *label, const char *text)
{
	struct column *c = col_new(label);
	ingest_buf(c, text, strlen(text), true);
	return c;
}

static bool listed(const struct kwarn *w, const char *id)
{
	for (size_t i = 0; i < w->cases.n; i++)
		if (strcmp(w->cases.v[i], id) == 0)
			return true;
	return false;
}

/* A guest that warned at boot, then during pty/t_a:one (read while it ran,
 * its case line after), a taint during close/t_b:two; close/t_c:far ran
 * long after both. */
static void guest_stream(struct rbuf *b)
{
	proto_line(b, "begin uname=6.1.0-57-amd64 arch=x86_64 cases=3");
	proto_line(b, "watch boot 10.000 512 -");
	proto_line(b, "kmsg 3.141592 boot 512 - WARNING:%20CPU:%200%20PID:%201%20at%20boot");
	proto_line(b, "taint boot 10.000 0 512 -");
	proto_line(b, "kmsg 12.400000 12.450 512 - " WARN_TEXT);
	proto_line(b, "case pty/t_a:one pass 1.000 - mono=12.900");
	proto_line(b, "case close/t_b:two fail 0.500 a%20reason%20with%20mono=1 mono=14.000");
	proto_line(b, "taint 13.700 13.950 512 576 close/t_b:two");
	proto_line(b, "case close/t_c:far pass 0.200 - mono=20.000");
	proto_line(b, "end rc=1 suite_s=10.5");
}

ATF_TC(lines_parse_and_attribute);
ATF_TC_HEAD(lines_parse_and_attribute, tc)
{
	atf_tc_set_md_var(tc, "descr", "watch, kmsg and taint lines become the column's kernel "
			  "warnings: boot ones attributed to boot, later ones to the cases whose "
			  "span they fall in (whichever line came first) or that were seen running; "
			  "mono= is no part of a reason; new taint flags are named");
}
ATF_TC_BODY(lines_parse_and_attribute, tc)
{
	struct rbuf b = {0};
	guest_stream(&b);
	struct column *c = ingest_text("k", b.s);
	ATF_CHECK_EQ(c->garbage, 0);
	ATF_CHECK_STREQ(c->kmsg_mode, "boot");
	ATF_CHECK_EQ(c->taint_start, 0);
	ATF_REQUIRE_EQ(column_warning_count(c), 4);
	/* the boot's */
	ATF_CHECK_EQ(c->kw[0].kind, KW_KMSG);
	ATF_CHECK(c->kw[0].to < 0 && c->kw[0].ktime > 3.14 && c->kw[0].ktime < 3.15);
	ATF_CHECK(c->kw[0].cases.n == 1 && listed(&c->kw[0], "boot"));
	ATF_CHECK_EQ(c->kw[1].kind, KW_TAINT);
	ATF_CHECK(c->kw[1].cases.n == 1 && listed(&c->kw[1], "boot"));
	ATF_CHECK_STREQ(c->kw[1].text, "taint flags appeared: W (warn)");
	/* read at 12.45, before pty/t_a:one (11.9-12.9) was reported */
	ATF_CHECK_STREQ(c->kw[2].text, "WARNING: CPU: 1 PID: 42 at drivers/tty/n_tty.c:1234 n_tty_read");
	ATF_CHECK(listed(&c->kw[2], "pty/t_a:one"));
	ATF_CHECK(!listed(&c->kw[2], "close/t_c:far"));
	/* the taint: seen running, and in its span 13.5-14.0 */
	ATF_CHECK_EQ(c->kw[3].taint, 576);
	ATF_CHECK_EQ(c->kw[3].taint_old, 512);
	ATF_CHECK_STREQ(c->kw[3].text, "taint flags appeared: U (user)");
	ATF_CHECK(listed(&c->kw[3], "close/t_b:two"));
	ATF_CHECK(!listed(&c->kw[3], "close/t_c:far"));
	ATF_CHECK_EQ(column_new_taint(c), 576);
	ATF_CHECK(column_taint_appeared(c));
	ATF_CHECK_EQ(column_case_warnings(c, "pty/t_a:one"), 1);
	ATF_CHECK_EQ(column_case_warnings(c, "close/t_c:far"), 0);
	/* mono= is the time, never part of the reason */
	const struct case_result *r = col_find(c, "close/t_b:two");
	ATF_REQUIRE(r != NULL);
	ATF_CHECK_STREQ(r->reason, "a reason with mono=1");
	ATF_CHECK(r->t_end > 13.99 && r->t_end < 14.01);
	col_free(c);
	rbuf_free(&b);
}

ATF_TC(spans_refine_attribution);
ATF_TC_HEAD(spans_refine_attribution, tc)
{
	atf_tc_set_md_var(tc, "descr", "A span line (Kyua's own start and end of a case) "
			  "takes a case off a warning its estimated span covered, and keeps "
			  "a case the guest saw running");
}
ATF_TC_BODY(spans_refine_attribution, tc)
{
	struct rbuf b = {0};
	proto_line(&b, "watch window 100.000 4096 -");
	/* read at 101.2; pty/t_a:one is estimated 99.5-101.5 (1 s slack) */
	proto_line(&b, "kmsg 101.100000 101.200 4096 pty/t_b:seen " WARN_TEXT);
	proto_line(&b, "case pty/t_a:one pass 1.000 - mono=101.500");
	proto_line(&b, "case pty/t_b:seen pass 0.100 - mono=103.000");
	struct column *c = ingest_text("k", b.s);
	ATF_REQUIRE_EQ(column_warning_count(c), 1);
	ATF_CHECK(listed(&c->kw[0], "pty/t_a:one"));
	ATF_CHECK(listed(&c->kw[0], "pty/t_b:seen"));
	rbuf_free(&b);
	/* Kyua says pty/t_a:one really ran 101.3-101.4, after the line was
	 * read; pty/t_b:seen's span misses it, but it was seen running. */
	proto_line(&b, "span pty/t_a:one 101.300 101.400");
	proto_line(&b, "span pty/t_b:seen 102.900 103.000");
	proto_line(&b, "span pty/t_never:reported 1.000 2.000");
	ingest_buf(c, b.s, b.len, true);
	ATF_CHECK_EQ(c->garbage, 0);
	ATF_CHECK(!listed(&c->kw[0], "pty/t_a:one"));
	ATF_CHECK(listed(&c->kw[0], "pty/t_b:seen"));
	ATF_CHECK_EQ(c->kw[0].cases.n, 1);
	/* a window's starting flags are not a finding */
	ATF_CHECK_STREQ(c->kmsg_mode, "window");
	ATF_CHECK_EQ(c->taint_start, 4096);
	ATF_CHECK_EQ(column_new_taint(c), 0);
	ATF_CHECK(!column_taint_appeared(c));
	col_free(c);
	rbuf_free(&b);
}

ATF_TC(malformed_lines_are_garbage);
ATF_TC_HEAD(malformed_lines_are_garbage, tc)
{
	atf_tc_set_md_var(tc, "descr", "watch, kmsg, taint and span lines with missing or "
			  "malformed fields count as garbage and add no warning; a case line "
			  "without mono= (an older guest) still parses");
}
ATF_TC_BODY(malformed_lines_are_garbage, tc)
{
	struct rbuf b = {0};
	proto_line(&b, "watch sideways 1.0 0 -");
	proto_line(&b, "watch boot x 0 -");
	proto_line(&b, "kmsg 1.0 2.0 nan - text");
	proto_line(&b, "kmsg 1.0 later 0 - text");
	proto_line(&b, "kmsg 1.0 2.0 0 -");
	proto_line(&b, "taint 1.0 2.0 0 -1 -");
	proto_line(&b, "taint 1.0 2.0 0");
	proto_line(&b, "span pty/t_a:one 2.0 1.0");
	proto_line(&b, "case pty/t_a:one pass 0.5 old%20reason");
	struct column *c = ingest_text("k", b.s);
	ATF_CHECK_EQ(c->garbage, 8);
	ATF_CHECK_EQ(column_warning_count(c), 0);
	ATF_CHECK_STREQ(c->kmsg_mode, "");
	const struct case_result *r = col_find(c, "pty/t_a:one");
	ATF_REQUIRE(r != NULL);
	ATF_CHECK_STREQ(r->reason, "old reason");
	ATF_CHECK(r->t_end < 0);
	char d[200];
	taint_describe(1UL << 9 | 1UL << 6 | 1UL << 40, d, sizeof d);
	ATF_CHECK_STREQ(d, "U (user), W (warn), bit 40");
	col_free(c);
	rbuf_free(&b);
}

/* A matrix of the guest column (warned, all its suite cases pass but one)
 * and a column that was never watched. */
static void two_columns(struct matrix *m)
{
	struct rbuf b = {0};
	guest_stream(&b);
	matrix_init(m);
	matrix_add(m, ingest_text("deb<6.1>", b.s));
	struct column *old = col_new("old");
	col_put(old, "pty/t_a:one", ST_PASS, 1, "");
	matrix_add(m, old);
	matrix_build(m);
	rbuf_free(&b);
}

ATF_TC(reports_show_warnings);
ATF_TC_HEAD(reports_show_warnings, tc)
{
	atf_tc_set_md_var(tc, "descr", "matrix.md and matrix.html say how many kernel warnings "
			  "each column had, mark the cells of the cases that ran then, and list "
			  "each warning with its cases; a column never watched says so");
}
ATF_TC_BODY(reports_show_warnings, tc)
{
	struct matrix m;
	two_columns(&m);
	struct rbuf md = {0}, html = {0};
	report_md(&m, &md);
	ATF_CHECK(strstr(md.s, "0 regressions, **4 kernel warnings**.") != NULL);
	ATF_CHECK(strstr(md.s, "| 0 | 0 | 0 | 4 kernel warnings, taint +U (user), W (warn) |") != NULL);
	ATF_CHECK(strstr(md.s, "| 0 | 0 | 0 | not watched |") != NULL);
	ATF_CHECK(strstr(md.s, "| pty/t\\_a:one | pass \xe2\x9a\xa0 | pass |") != NULL);
	ATF_CHECK(strstr(md.s, "| close/t\\_c:far | pass |") != NULL);
	ATF_CHECK(strstr(md.s, "\n## Kernel warnings\n") != NULL);
	ATF_CHECK(strstr(md.s, "| 12.400000 | 512 | pty/t\\_a:one | WARNING: CPU: 1 PID: 42 at "
			 "drivers/tty/n\\_tty.c:1234 n\\_tty\\_read |") != NULL);
	ATF_CHECK(strstr(md.s, "| - | 512 | boot | taint flags appeared: W (warn) |") != NULL);
	report_html(&m, &html);
	ATF_CHECK(strstr(html.s, "<b>4 kernel warnings</b>") != NULL);
	ATF_CHECK(strstr(html.s, "<tr class=\"ovkw\">") != NULL);
	ATF_CHECK(strstr(html.s, "<td class=\"kw\">4</td>") != NULL);
	ATF_CHECK(strstr(html.s, "<h2 id=\"kernel-warnings\">") != NULL);
	ATF_CHECK(strstr(html.s, "pass <span class=\"kwm\" title=\"kernel warnings while it ran:"
			   "\nWARNING: CPU: 1 PID: 42 at drivers/tty/n_tty.c:1234 n_tty_read\">") != NULL);
	ATF_CHECK(strstr(html.s, "deb&lt;6.1&gt;") != NULL);
	rbuf_free(&md);
	rbuf_free(&html);
	matrix_free(&m);
}

ATF_TC(json_round_trip);
ATF_TC_HEAD(json_round_trip, tc)
{
	atf_tc_set_md_var(tc, "descr", "matrix.json carries the watch mode, starting taint, "
			  "every warning with its times, flags and cases, and the cells' counts; "
			  "merge loads them back as they were");
}
ATF_TC_BODY(json_round_trip, tc)
{
	struct matrix m, back;
	two_columns(&m);
	struct rbuf j = {0}, j2 = {0};
	report_json(&m, &j);
	ATF_CHECK(strstr(j.s, "\"kernel_warnings\": 4") != NULL);
	ATF_CHECK(strstr(j.s, "\"kwarn\": 1") != NULL);
	matrix_init(&back);
	char err[512];
	ATF_REQUIRE_MSG(merge_load_text(&back, j.s, j.len, "mem", NULL, 0, err, sizeof err) == 0,
			"%s", err);
	ATF_REQUIRE_EQ(back.ncols, 2);
	const struct column *a = m.cols[0], *c = back.cols[0];
	ATF_CHECK_STREQ(c->kmsg_mode, "boot");
	ATF_CHECK_EQ(c->taint_start, 0);
	ATF_REQUIRE_EQ(column_warning_count(c), column_warning_count(a));
	for (size_t i = 0; i < c->nkw; i++) {
		ATF_CHECK_EQ(c->kw[i].kind, a->kw[i].kind);
		ATF_CHECK_STREQ(c->kw[i].text, a->kw[i].text);
		ATF_CHECK_EQ(c->kw[i].taint, a->kw[i].taint);
		ATF_CHECK_EQ(c->kw[i].taint_old, a->kw[i].taint_old);
		ATF_CHECK((c->kw[i].to < 0) == (a->kw[i].to < 0));
		ATF_CHECK_EQ(c->kw[i].cases.n, a->kw[i].cases.n);
		for (size_t k = 0; k < a->kw[i].cases.n; k++)
			ATF_CHECK(listed(&c->kw[i], a->kw[i].cases.v[k]));
	}
	ATF_CHECK_EQ(column_new_taint(c), column_new_taint(a));
	ATF_CHECK_EQ(column_warning_count(back.cols[1]), 0);
	ATF_CHECK_STREQ(back.cols[1]->kmsg_mode, "");
	/* and written again, the same document */
	matrix_build(&back);
	report_json(&back, &j2);
	ATF_CHECK_STREQ(j.s, j2.s);
	rbuf_free(&j);
	rbuf_free(&j2);
	matrix_free(&m);
	matrix_free(&back);
}

static double mono_now(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

ATF_TC(watcher_starts_and_stops);
ATF_TC_HEAD(watcher_starts_and_stops, tc)
{
	atf_tc_set_md_var(tc, "descr", "fixtures/guest/kmsg-watch.sh on this system: it says it "
			  "is ready through the FIFO, reports one well-formed watch line (window "
			  "mode: this is not a guest booted for the suite; off when /dev/kmsg is "
			  "unreadable), and ends at SIGTERM, reaped");
	atf_tc_set_md_var(tc, "timeout", "60");
}
ATF_TC_BODY(watcher_starts_and_stops, tc)
{
	const char *src = atf_tc_get_config_var_wd(tc, "srcdir", ".");
	char root[1024], script[1100], fifo[] = "ready", out[] = "watch.out";
	snprintf(root, sizeof root, "%s/../..", src);
	snprintf(script, sizeof script, "%s/fixtures/guest/kmsg-watch.sh", root);
	ATF_REQUIRE_MSG(access(script, R_OK) == 0, "%s: %s", script, strerror(errno));
	ATF_REQUIRE(mkfifo(fifo, 0600) == 0);
	pid_t pid = fork();
	ATF_REQUIRE(pid >= 0);
	if (pid == 0) {
		int fd = open(out, O_WRONLY | O_CREAT | O_TRUNC, 0644);
		if (fd < 0 || dup2(fd, 1) < 0)
			_exit(127);
		execl("/bin/sh", "sh", script, root, fifo, "seen", (char *)NULL);
		_exit(127);
	}
	/* ready: a line, or EOF when the watcher died (Linux reports no
	 * hangup on a FIFO that never had a writer, so poll waits for one) */
	int rfd = open(fifo, O_RDONLY | O_NONBLOCK);
	ATF_REQUIRE(rfd >= 0);
	char buf[64] = "";
	ssize_t n = -1;
	struct pollfd p = {rfd, POLLIN, 0};
	if (poll(&p, 1, 30000) > 0)
		n = read(rfd, buf, sizeof buf - 1);
	close(rfd);
	ATF_CHECK_MSG(n > 0 && strncmp(buf, "ready\n", 6) == 0, "no ready line within 30 s");
	ATF_REQUIRE(kill(pid, SIGTERM) == 0);
	int st = -1;
	double t0 = mono_now();
	while (waitpid(pid, &st, WNOHANG) == 0 && mono_now() - t0 < 20)
		poll(NULL, 0, 20);
	if (!WIFEXITED(st) && !WIFSIGNALED(st)) {
		kill(pid, SIGKILL);
		waitpid(pid, &st, 0);
		atf_tc_fail("the watcher did not end within 20 s of SIGTERM");
	}
	ATF_CHECK_MSG(WIFEXITED(st) && WEXITSTATUS(st) == 0, "watcher status %d", st);
	struct column *c = col_new("host");
	char err[256];
	ATF_REQUIRE_MSG(ingest_file(c, out, err, sizeof err) == 0, "%s", err);
	ATF_CHECK_EQ(c->garbage, 0);
	ATF_CHECK_EQ(c->truncated, 0);
	ATF_CHECK_MSG(strcmp(c->kmsg_mode, "window") == 0 || strcmp(c->kmsg_mode, "off") == 0,
		      "watch mode \"%s\"", c->kmsg_mode);
	ATF_CHECK(c->taint_start >= 0);
	col_free(c);
}

ATF_TC(unreadable_log_said_once);
ATF_TC_HEAD(unreadable_log_said_once, tc)
{
	atf_tc_set_md_var(tc, "descr", "A watcher that may not read /dev/kmsg (an unprivileged "
			  "user where dmesg_restrict is 1) still becomes ready, says why once on "
			  "stderr and in an off watch line, and ends at SIGTERM with status 0");
	atf_tc_set_md_var(tc, "require.user", "root");
	atf_tc_set_md_var(tc, "timeout", "60");
}
ATF_TC_BODY(unreadable_log_said_once, tc)
{
	char r[8] = "";
	int fd = open("/proc/sys/kernel/dmesg_restrict", O_RDONLY);
	if (fd < 0 || read(fd, r, sizeof r - 1) <= 0 || r[0] != '1')
		atf_tc_skip("kernel.dmesg_restrict is not 1: every user may read the kernel log");
	close(fd);
	const char *src = atf_tc_get_config_var_wd(tc, "srcdir", ".");
	char root[1024], script[1100], dir[] = "/tmp/ttypot-kmsg-off.XXXXXX", fifo[64], out[64],
	     err[64];
	snprintf(root, sizeof root, "%s/../..", src);
	snprintf(script, sizeof script, "%s/fixtures/guest/kmsg-watch.sh", root);
	ATF_REQUIRE(mkdtemp(dir) != NULL && chmod(dir, 0755) == 0);
	snprintf(fifo, sizeof fifo, "%s/ready", dir);
	snprintf(out, sizeof out, "%s/out", dir);
	snprintf(err, sizeof err, "%s/err", dir);
	ATF_REQUIRE(mkfifo(fifo, 0666) == 0 && chmod(fifo, 0666) == 0);
	pid_t pid = fork();
	ATF_REQUIRE(pid >= 0);
	if (pid == 0) {
		int o = open(out, O_WRONLY | O_CREAT | O_TRUNC, 0644);
		int e = open(err, O_WRONLY | O_CREAT | O_TRUNC, 0644);
		if (o < 0 || e < 0 || dup2(o, 1) < 0 || dup2(e, 2) < 0)
			_exit(127);
		/* nobody: no CAP_SYSLOG */
		if (setgroups(0, NULL) < 0 || setresgid(65534, 65534, 65534) < 0 ||
		    setresuid(65534, 65534, 65534) < 0)
			_exit(127);
		if (access(script, R_OK) < 0)
			_exit(126);
		execl("/bin/sh", "sh", script, root, fifo, "/nonexistent/seen", (char *)NULL);
		_exit(127);
	}
	int rfd = open(fifo, O_RDONLY | O_NONBLOCK);
	ATF_REQUIRE(rfd >= 0);
	char buf[64] = "";
	ssize_t n = -1;
	struct pollfd p = {rfd, POLLIN, 0};
	if (poll(&p, 1, 30000) > 0)
		n = read(rfd, buf, sizeof buf - 1);
	close(rfd);
	kill(pid, SIGTERM);
	int st = -1;
	double t0 = mono_now();
	while (waitpid(pid, &st, WNOHANG) == 0 && mono_now() - t0 < 20)
		poll(NULL, 0, 20);
	if (!WIFEXITED(st) && !WIFSIGNALED(st)) {
		kill(pid, SIGKILL);
		waitpid(pid, &st, 0);
		atf_tc_fail("the watcher did not end within 20 s of SIGTERM");
	}
	if (WIFEXITED(st) && WEXITSTATUS(st) == 126)
		atf_tc_skip("%s is not readable by nobody", script);
	ATF_CHECK_MSG(n > 0 && strncmp(buf, "ready\n", 6) == 0, "no ready line");
	ATF_CHECK_MSG(WIFEXITED(st) && WEXITSTATUS(st) == 0, "watcher status %d", st);
	struct column *c = col_new("host");
	char msg[256];
	ATF_REQUIRE_MSG(ingest_file(c, out, msg, sizeof msg) == 0, "%s", msg);
	ATF_CHECK_EQ(c->garbage, 0);
	ATF_CHECK_STREQ(c->kmsg_mode, "off");
	ATF_CHECK_MSG(strstr(c->kmsg_note, "/dev/kmsg: ") != NULL, "note \"%s\"", c->kmsg_note);
	struct rbuf t = {0};
	report_kwarn_summary(c, &t);
	ATF_CHECK_MSG(strncmp(t.s, "none (kernel log unreadable: /dev/kmsg: ", 40) == 0,
		      "summary \"%s\"", t.s);
	rbuf_free(&t);
	col_free(c);
	char *e = ku_read_file(err, NULL);
	int said = 0;
	for (const char *q = e ? e : ""; (q = strstr(q, "/dev/kmsg")); q++)
		said++;
	ATF_CHECK_EQ_MSG(said, 1, "stderr names /dev/kmsg %d times: %s", said, e ? e : "");
	free(e);
	unlink(fifo);
	unlink(out);
	unlink(err);
	rmdir(dir);
}

ATF_TP_ADD_TCS(tp)
{
	ATF_TP_ADD_TC(tp, lines_parse_and_attribute);
	ATF_TP_ADD_TC(tp, spans_refine_attribution);
	ATF_TP_ADD_TC(tp, malformed_lines_are_garbage);
	ATF_TP_ADD_TC(tp, reports_show_warnings);
	ATF_TP_ADD_TC(tp, json_round_trip);
	ATF_TP_ADD_TC(tp, watcher_starts_and_stops);
	ATF_TP_ADD_TC(tp, unreadable_log_said_once);
	return atf_no_error();
}
