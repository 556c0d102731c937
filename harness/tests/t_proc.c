// SPDX-License-Identifier: GPL-2.0-only
/* t_proc.c: the bounded fork/exec helper and the hashes the kernel side uses. */
#include <atf-c.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>

#include "kutil.h"
#include "proc.h"

ATF_TC(capture_and_status);
ATF_TC_HEAD(capture_and_status, tc)
{
	atf_tc_set_md_var(tc, "descr", "stdout and stderr are captured and "
			  "the exit status returned");
}
ATF_TC_BODY(capture_and_status, tc)
{
	struct proc_result r;
	const char *argv[] = {"sh", "-c", "echo out; echo err >&2; exit 3",
			      NULL};
	struct proc_opts o = {.deadline_ms = 10000};
	ATF_CHECK_EQ(proc_run(argv, &o, &r), 3);
	ATF_CHECK(!r.timed_out);
	ATF_CHECK_MSG(strstr(r.out, "out\n") && strstr(r.out, "err\n"),
		      "captured: %s", r.out);
}

ATF_TC(first_line_for_messages);
ATF_TC_HEAD(first_line_for_messages, tc)
{
	atf_tc_set_md_var(tc, "descr", "proc_first_line gives the first non-blank line, cut "
			  "to the buffer, and \"(no output)\" for none");
}
ATF_TC_BODY(first_line_for_messages, tc)
{
	(void)tc;
	char buf[8];
	ATF_CHECK_STREQ(proc_first_line("\n  dpkg: error\nmore\n", buf, sizeof buf), "dpkg: e");
	ATF_CHECK_STREQ(proc_first_line("ok\n", buf, sizeof buf), "ok");
	ATF_CHECK_STREQ(proc_first_line(" \n\n", buf, sizeof buf), "(no output)");
}

ATF_TC(deadline_kills_group);
ATF_TC_HEAD(deadline_kills_group, tc)
{
	atf_tc_set_md_var(tc, "descr", "a command past its deadline is killed "
			  "with its children, promptly");
}
ATF_TC_BODY(deadline_kills_group, tc)
{
	struct proc_result r;
	/* The child's child holds the output pipe open: must not hang us. */
	const char *argv[] = {"sh", "-c", "sleep 30 & echo $!; wait", NULL};
	struct proc_opts o = {.deadline_ms = 300};
	double t0 = proc_now();
	int st = proc_run(argv, &o, &r);
	double el = proc_now() - t0;
	ATF_CHECK(r.timed_out);
	ATF_CHECK_EQ(st, 128 + SIGKILL);
	ATF_CHECK_MSG(el < 5, "took %.1f s", el);
	int pid = atoi(r.out);
	ATF_REQUIRE_MSG(pid > 0, "no pid in '%s'", r.out);
	/* The grandchild was killed with the group (it may be a zombie of
	 * init for a moment: give it a bounded while). */
	bool gone = false;
	for (int i = 0; i < 100 && !gone; i++) {
		char p[64], st2[256] = "";
		snprintf(p, sizeof p, "/proc/%d/stat", pid);
		FILE *f = fopen(p, "r");
		if (!f) {
			gone = true;
			break;
		}
		if (fgets(st2, sizeof st2, f) && strstr(st2, ") Z"))
			gone = true;
		fclose(f);
		if (!gone)
			usleep(20000); /* polling a state, not ordering */
	}
	ATF_CHECK_MSG(gone, "grandchild %d still running", pid);
}

ATF_TC(not_found);
ATF_TC_HEAD(not_found, tc)
{
	atf_tc_set_md_var(tc, "descr", "a missing program is an error naming it");
}
ATF_TC_BODY(not_found, tc)
{
	struct proc_result r;
	const char *argv[] = {"ttypot-no-such-program", NULL};
	ATF_CHECK_EQ(proc_run(argv, NULL, &r), -1);
	ATF_CHECK_MSG(strstr(r.err, "ttypot-no-such-program"), "%s", r.err);
	char err[256];
	ATF_CHECK_EQ(proc_spawn(argv, NULL, err, sizeof err), -1);
	ATF_CHECK_MSG(strstr(err, "ttypot-no-such-program"), "%s", err);
}

ATF_TC(files_and_cwd);
ATF_TC_HEAD(files_and_cwd, tc)
{
	atf_tc_set_md_var(tc, "descr", "stdin/stdout files, append and cwd "
			  "are honoured; no shell interprets arguments");
}
ATF_TC_BODY(files_and_cwd, tc)
{
	struct proc_result r;
	FILE *f = fopen("in", "w");
	fputs("hello\n", f);
	fclose(f);
	ATF_REQUIRE(mkdir("d", 0755) == 0);
	const char *argv[] = {"cat", NULL};
	struct proc_opts o = {.stdin_path = "in", .stdout_path = "out",
			      .deadline_ms = 10000};
	ATF_CHECK_EQ(proc_run(argv, &o, &r), 0);
	o.stdout_append = true;
	ATF_CHECK_EQ(proc_run(argv, &o, &r), 0);
	char *s = ku_read_file("out", NULL);
	ATF_CHECK_STREQ(s, "hello\nhello\n");
	free(s);
	const char *pw[] = {"sh", "-c", "pwd", NULL};
	struct proc_opts c = {.cwd = "d", .deadline_ms = 10000};
	ATF_CHECK_EQ(proc_run(pw, &c, &r), 0);
	ATF_CHECK_MSG(strstr(r.out, "/d\n") != NULL, "%s", r.out);
	const char *ec[] = {"echo", "$(id)", ";", "x", NULL};
	ATF_CHECK_EQ(proc_run(ec, NULL, &r), 0);
	ATF_CHECK_STREQ(r.out, "$(id) ; x\n");
}

ATF_TC(hashes);
ATF_TC_HEAD(hashes, tc)
{
	atf_tc_set_md_var(tc, "descr", "CRC-32 and SHA-256 match their "
			  "standard test vectors");
}
ATF_TC_BODY(hashes, tc)
{
	ATF_CHECK_EQ(ku_crc32("123456789", 9), 0xcbf43926u);
	ATF_CHECK_EQ(ku_crc32("", 0), 0);
	char hex[65];
	ku_sha256_hex("abc", 3, hex);
	ATF_CHECK_STREQ(hex, "ba7816bf8f01cfea414140de5dae2223"
			     "b00361a396177a9cb410ff61f20015ad");
	ku_sha256_hex("", 0, hex);
	ATF_CHECK_STREQ(hex, "e3b0c44298fc1c149afbf4c8996fb924"
			     "27ae41e4649b934ca495991b7852b855");
	const char *two = "abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq";
	ku_sha256_hex(two, strlen(two), hex);
	ATF_CHECK_STREQ(hex, "248d6a61d20638b8e5c026930c3e6039"
			     "a33ce45964ff2167f6ecedd419db06c1");
}

ATF_TP_ADD_TCS(tp)
{
	ATF_TP_ADD_TC(tp, first_line_for_messages);
	ATF_TP_ADD_TC(tp, capture_and_status);
	ATF_TP_ADD_TC(tp, deadline_kills_group);
	ATF_TP_ADD_TC(tp, not_found);
	ATF_TP_ADD_TC(tp, files_and_cwd);
	ATF_TP_ADD_TC(tp, hashes);
	return atf_no_error();
}
