// SPDX-License-Identifier: GPL-2.0-only
/*
 * t_job_signals.c: job control keys typed into a session whose leader is a
 * shell-like fixture (fixtures/tp_jobsh.c).  ^C, ^\ and ^Z must reach the
 * job in the foreground process group, not the shell, and the shell reads
 * the job's fate back with waitpid(); ^D ends the job's input.
 */
#include <string.h>

#include "tp_expect.h"

/* Start the reader job; once it says ready it owns the terminal. */
static void
run_reader(struct tp_exp *s)
{
	tp_exp_send(s, "run reader\n", "command run reader");
	tp_exp_expect_exact(s, "job reader ready\r\n", "reader job started");
}

TP_CASE(ctrl_c_kills_foreground_job_only, TP_POSIX,
	"^C typed while a job is in the foreground kills that job with SIGINT; "
	"the shell (same session, other process group) catches nothing")
{
	struct tp_exp s;

	tp_exp_shell_start(&s, tc);
	run_reader(&s);
	tp_exp_send(&s, "\003", "typing ^C");
	tp_exp_expect_exact(&s, "job reader: signalled SIGINT (shell caught "
			    "INT=0 QUIT=0)", "the shell's report of the job");
	tp_exp_shell_exit(&s);
}

TP_CASE(ctrl_backslash_quits_foreground_job_only, TP_POSIX,
	"^\\ typed while a job is in the foreground kills that job with "
	"SIGQUIT; the shell catches nothing")
{
	struct tp_exp s;

	tp_exp_shell_start(&s, tc);
	run_reader(&s);
	tp_exp_send(&s, "\034", "typing ^\\");
	tp_exp_expect_exact(&s, "job reader: signalled SIGQUIT (shell caught "
			    "INT=0 QUIT=0)", "the shell's report of the job");
	tp_exp_shell_exit(&s);
}

TP_CASE(ctrl_z_stops_job_and_fg_resumes_it, TP_POSIX,
	"^Z stops the foreground job (the shell sees WIFSTOPPED with SIGTSTP "
	"and gets the terminal back); fg continues it in the foreground, "
	"where it reads the next line and then ^C kills it")
{
	struct tp_exp s;

	tp_exp_shell_start(&s, tc);
	run_reader(&s);
	tp_exp_send(&s, "\032", "typing ^Z");
	tp_exp_expect_exact(&s, "job reader: stopped SIGTSTP (shell caught "
			    "INT=0 QUIT=0)", "the shell's report of the stop");
	tp_exp_expect_exact(&s, "$ ", "shell prompt while the job is stopped");
	tp_exp_send(&s, "say still here\n", "a command to the shell");
	tp_exp_expect_exact(&s, "said [still here]", "the shell owns the terminal");
	tp_exp_expect_exact(&s, "$ ", "shell prompt");
	tp_exp_send(&s, "fg\n", "command fg");
	tp_exp_expect_exact(&s, "continued\r\n", "job continued in the foreground");
	tp_exp_send(&s, "after\n", "a line for the continued job");
	tp_exp_expect_exact(&s, "job read [after\\x0a]", "the job read the line");
	tp_exp_send(&s, "\003", "typing ^C");
	tp_exp_expect_exact(&s, "job reader: signalled SIGINT (shell caught "
			    "INT=0 QUIT=0)", "the shell's report of the job");
	tp_exp_shell_exit(&s);
}

TP_CASE(ctrl_c_at_prompt_reaches_shell_and_drops_line, TP_POSIX,
	"^C typed at the shell's own prompt signals the shell (now the "
	"foreground group), is echoed as ^C and discards the partial line")
{
	struct tp_exp s;

	tp_exp_shell_start(&s, tc);
	tp_exp_type(&s, "say abc", "a partial line");
	/* A person sees the echo before pressing ^C; in one input batch the
	 * flush done by ^C may drop echoes not yet written. */
	tp_exp_expect_exact(&s, "say abc", "echo of the partial line");
	tp_exp_send(&s, "\003", "typing ^C");
	tp_exp_expect_exact(&s, "^C", "echo of ^C");
	tp_exp_send(&s, "say x\n", "a new line");
	tp_exp_expect_exact(&s, "said [x]", "only the new line was read");
	tp_exp_send(&s, "status\n", "command status");
	tp_exp_expect_exact(&s, "shell caught INT=1 QUIT=0", "the shell's count");
	tp_exp_shell_exit(&s);
}

TP_CASE(ctrl_d_at_line_start_ends_job_input, TP_POSIX,
	"^D at the start of a line makes the job's read() return 0: the job "
	"sees end of input and exits 0, which the shell reports")
{
	struct tp_exp s;

	tp_exp_shell_start(&s, tc);
	run_reader(&s);
	tp_exp_send(&s, "\004", "typing ^D");
	tp_exp_expect_exact(&s, "job eof\r\n", "the job saw end of input");
	tp_exp_expect_exact(&s, "job reader: exited 0", "the shell's report");
	tp_exp_shell_exit(&s);
}

TP_CASE(ctrl_d_mid_line_delivers_partial_line, TP_POSIX,
	"^D after some characters delivers them without a newline and is not "
	"end of input; a second ^D on the now empty line is")
{
	struct tp_exp s;

	tp_exp_shell_start(&s, tc);
	run_reader(&s);
	tp_exp_type(&s, "ab\004", "ab and ^D");
	tp_exp_expect_exact(&s, "job read [ab]", "partial line, no newline");
	tp_exp_send(&s, "\004", "^D on an empty line");
	tp_exp_expect_exact(&s, "job eof\r\n", "end of input");
	tp_exp_expect_exact(&s, "job reader: exited 0", "the shell's report");
	tp_exp_shell_exit(&s);
}

TP_CASE(ctrl_d_at_shell_prompt_logs_out, TP_POSIX,
	"^D at the shell's empty prompt is end of input for the session "
	"leader: it logs out, its exit status is collected and the pty reads "
	"EOF")
{
	struct tp_exp s;

	tp_exp_shell_start(&s, tc);
	tp_exp_send(&s, "\004", "typing ^D");
	tp_exp_expect_exact(&s, "logout\r\n", "the shell logged out");
	tp_exp_expect_eof(&s, "EOF after logout");
	tp_exp_check_exit(tp_exp_wait_exit(&s, "shell exit"), 0, "shell");
}

TP_CASE(lnext_ctrl_c_is_data_not_a_signal, TP_POSIX,
	"With IEXTEN, ^V ^C puts a literal \\x03 into the job's line; the job "
	"is not signalled and still reads on")
{
	struct tp_exp s;

	tp_exp_shell_start(&s, tc);
	run_reader(&s);
	tp_exp_type(&s, "a\026\003b\n", "a ^V ^C b");
	tp_exp_expect_exact(&s, "job read [a\\x03b\\x0a]", "literal ^C in the line");
	tp_exp_send(&s, "\004", "typing ^D");
	tp_exp_expect_exact(&s, "job reader: exited 0", "the job was not signalled");
	tp_exp_shell_exit(&s);
}

ATF_TP_ADD_TCS(tp)
{
	ATF_TP_ADD_TC(tp, ctrl_c_kills_foreground_job_only);
	ATF_TP_ADD_TC(tp, ctrl_backslash_quits_foreground_job_only);
	ATF_TP_ADD_TC(tp, ctrl_z_stops_job_and_fg_resumes_it);
	ATF_TP_ADD_TC(tp, ctrl_c_at_prompt_reaches_shell_and_drops_line);
	ATF_TP_ADD_TC(tp, ctrl_d_at_line_start_ends_job_input);
	ATF_TP_ADD_TC(tp, ctrl_d_mid_line_delivers_partial_line);
	ATF_TP_ADD_TC(tp, ctrl_d_at_shell_prompt_logs_out);
	ATF_TP_ADD_TC(tp, lnext_ctrl_c_is_data_not_a_signal);
	return atf_no_error();
}
