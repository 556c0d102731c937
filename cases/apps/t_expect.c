// SPDX-License-Identifier: GPL-2.0-only
/*
 * t_expect.c: Expect (the Tcl program) spawning a password prompter and
 * answering it, as install scripts and test rigs do.  The prompter is
 * Python's getpass (it turns echo off on its terminal before the prompt);
 * expect waits for "Password: ", sends the answer, reads the prompter's
 * report and its EOF, and waits for its exit status.  The answer must
 * reach the prompter whole, never be echoed, and the status must be 0.
 */
#include "app_run.h"

#define EXPECT "/usr/bin/expect"
#define PYTHON "/usr/bin/python3"
#define ROUNDS 3

/* argv: rounds.  One line per round: "RESULT got=... echoed=0|1
 * status=N"; a stuck expect prints what it waited for and exits 2. */
static const char session_tcl[] =
	"set timeout 100\n"
	"log_user 0\n"
	"for {set r 0} {$r < [lindex $argv 0]} {incr r} {\n"
	"  spawn /usr/bin/python3 -c {import getpass\n"
	"p = getpass.getpass('Password: ')\n"
	"print('got [' + p + ']')}\n"
	"  expect {\n"
	"    \"Password: \" {}\n"
	"    timeout { puts \"STUCK waiting for the prompt\"; exit 2 }\n"
	"    eof { puts \"EOF before the prompt: $expect_out(buffer)\"; exit 2 }\n"
	"  }\n"
	"  send \"s3cret-$r\\r\"\n"
	"  expect {\n"
	"    -re {^(.*)got \\[([^]]*)\\]\\r\\n} {\n"
	"      set pre $expect_out(1,string)\n"
	"      set got $expect_out(2,string)\n"
	"    }\n"
	"    timeout { puts \"STUCK waiting for the report\"; exit 2 }\n"
	"    eof { puts \"EOF before the report\"; exit 2 }\n"
	"  }\n"
	"  expect {\n"
	"    eof {}\n"
	"    timeout { puts \"STUCK waiting for EOF\"; exit 2 }\n"
	"  }\n"
	"  set st [wait]\n"
	"  puts \"RESULT got=$got echoed=[string match *s3cret* $pre] "
	"status=[lindex $st 3]\"\n"
	"}\n";

TP_CASE_TIMEOUT(answer_prompter, TP_LINUX, APP_TIMEOUT_S,
		"expect spawning getpass's \"Password: \" prompter on a pty and "
		"answering it: the answer arrives whole, is never echoed, EOF "
		"follows and wait gives status 0; apps_rounds times")
{
	app_require(tc, EXPECT);
	app_require(tc, PYTHON);
	const char *wd = app_workdir(tc);
	long rounds = tp_config_long(tc, "apps_rounds", ROUNDS);
	char tcl[PATH_MAX], r[24];
	snprintf(tcl, sizeof tcl, "%s/session.tcl", wd);
	app_write_file(tcl, session_tcl, 0644);
	snprintf(r, sizeof r, "%ld", rounds);
	const char *argv[] = {EXPECT, "-f", tcl, r, NULL};
	struct app_buf out = {0};
	int st = app_run(tc, argv, NULL, &out, "expect answering the prompter");
	if (!WIFEXITED(st) || WEXITSTATUS(st) != 0)
		atf_tc_fail("expect %s: \"%s\"", app_status(st),
			    tp_esc(out.p, out.len > 600 ? 600 : out.len));
	struct app_buf want = {0};
	for (long i = 0; i < rounds; i++) {
		char line[96];
		int l = snprintf(line, sizeof line,
				 "RESULT got=s3cret-%ld echoed=0 status=0\n", i);
		app_buf_add(&want, line, (size_t)l);
	}
	app_buf_strip_cr(&out);
	if (strcmp(out.p, want.p) != 0)
		atf_tc_fail("expect reported \"%s\", want \"%s\"",
			    tp_esc(out.p, out.len > 400 ? 400 : out.len),
			    tp_esc(want.p, want.len > 400 ? 400 : want.len));
	app_buf_free(&want);
	app_buf_free(&out);
}

ATF_TP_ADD_TCS(tp)
{
	ATF_TP_ADD_TC(tp, answer_prompter);
	return atf_no_error();
}
