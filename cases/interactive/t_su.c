// SPDX-License-Identifier: GPL-2.0-only
/*
 * t_su.c: a su-like password prompt on a pty, driven as a person would.
 * The fixture (fixtures/tp_su.c) turns ECHO off before it prints
 * "Password: ", reads the answer, restores the terminal and prints a
 * verdict.  The password must never come back from the pty, and the
 * terminal must be exactly as it was afterwards.
 */
#include <string.h>
#include <termios.h>

#include "tp_expect.h"

#define PASSWORD "hunter2"

/* Spawn tp_su, answer "login: " with root, and wait for "Password: ". */
static void
login(struct tp_exp *s, const atf_tc_t *tc, const char *const args[],
      struct termios *before)
{
	tp_exp_spawn(s, tc, "tp_su", args);
	tp_exp_expect_exact(s, "login: ", "login prompt");
	/* tp_su is now blocked reading the user name: its terminal is as the
	 * kernel made it. */
	tp_exp_termios(s, before);
	tp_exp_send(s, "root\n", "typing the user name");
	tp_exp_expect_exact(s, "root\r\n", "echo of the user name");
	tp_exp_expect_exact(s, "Password: ", "password prompt");
}

static void
check_never_echoed(struct tp_exp *s, const char *secret, const char *what)
{
	size_t len;
	const char *t = tp_exp_transcript(s, &len);
	if (tp_exp_transcript_has(s, secret, strlen(secret)))
		atf_tc_fail("%s: \"%s\" came back from the pty; session: \"%s\"",
			    what, secret, tp_esc(t, len));
}

static void
check_same_termios(const struct termios *a, const struct termios *b,
		   const char *what)
{
	ATF_CHECK_MSG(a->c_lflag == b->c_lflag, "%s: c_lflag 0%o, was 0%o",
		      what, (unsigned)b->c_lflag, (unsigned)a->c_lflag);
	ATF_CHECK_MSG(a->c_iflag == b->c_iflag, "%s: c_iflag 0%o, was 0%o",
		      what, (unsigned)b->c_iflag, (unsigned)a->c_iflag);
	ATF_CHECK_MSG(a->c_oflag == b->c_oflag, "%s: c_oflag 0%o, was 0%o",
		      what, (unsigned)b->c_oflag, (unsigned)a->c_oflag);
	ATF_CHECK_MSG(a->c_cflag == b->c_cflag, "%s: c_cflag 0%o, was 0%o",
		      what, (unsigned)b->c_cflag, (unsigned)a->c_cflag);
	ATF_CHECK_MSG(memcmp(a->c_cc, b->c_cc, sizeof(a->c_cc)) == 0,
		      "%s: c_cc changed", what);
}

TP_CASE(password_not_echoed_after_echo_off, TP_POSIX,
	"su-like prompt: once the slave's ECHO is seen off (tcgetattr on the "
	"master), the typed password never comes back and the login succeeds")
{
	struct tp_exp s;
	struct termios before;

	login(&s, tc, (const char *const[]){PASSWORD, NULL}, &before);
	tp_exp_wait_lflag(&s, 0, ECHO, "ECHO off for the password");
	tp_exp_type(&s, PASSWORD "\n", "typing the password");
	tp_exp_expect_exact(&s, "su: ok for root\r\n", "verdict");
	check_never_echoed(&s, PASSWORD, "password");
	tp_exp_send(&s, "exit\n", "answering the shell prompt");
	tp_exp_expect_exact(&s, "said [exit]", "shell reply");
	tp_exp_check_exit(tp_exp_wait_exit(&s, "su exit"), 0, "su");
}

TP_CASE(answer_at_prompt_instant_not_echoed, TP_POSIX,
	"su-like prompt: the password sent the instant \"Password: \" is seen, "
	"without waiting on termios, is not echoed: the prompter turned ECHO "
	"off before printing the prompt")
{
	struct tp_exp s;
	struct termios before;

	login(&s, tc, (const char *const[]){PASSWORD, NULL}, &before);
	tp_exp_send(&s, PASSWORD "\n", "password at the prompt");
	tp_exp_expect_exact(&s, "su: ok for root\r\n", "verdict");
	/* An echo is produced when the answer is received, before the
	 * prompter reads it: it would be in the session by now. */
	check_never_echoed(&s, PASSWORD, "password sent at once");
	tp_exp_close(&s, "su after the verdict");
}

TP_CASE(late_echo_off_prompter_is_seen_echoing, TP_POSIX,
	"Non-vacuity of the echo checks: a prompter that prints \"Password: \" "
	"first and turns ECHO off only after the answer is queued gets its "
	"password echoed, and the session shows it")
{
	struct tp_exp s;
	struct termios before;

	login(&s, tc, (const char *const[]){"--late", PASSWORD, NULL}, &before);
	tp_exp_send(&s, PASSWORD "\n", "password at the prompt");
	tp_exp_expect_exact(&s, "su: ok for root\r\n", "verdict");
	ATF_REQUIRE_MSG(tp_exp_transcript_has(&s, PASSWORD "\r\n", 9),
			"the broken prompter's password echo was not seen: the "
			"echo checks of this program would be blind");
	tp_exp_close(&s, "su after the verdict");
}

TP_CASE(termios_restored_after_password, TP_POSIX,
	"After the password the slave's termios is exactly what it was before "
	"the prompt (every flag and c_cc), and a typed line echoes again")
{
	struct tp_exp s;
	struct termios before, after;

	login(&s, tc, (const char *const[]){PASSWORD, NULL}, &before);
	ATF_REQUIRE_MSG(before.c_lflag & ECHO, "a new pty starts without ECHO");
	tp_exp_wait_lflag(&s, 0, ECHO, "ECHO off for the password");
	tp_exp_send(&s, PASSWORD "\n", "password");
	/* tp_su restores the terminal before it prints the verdict. */
	tp_exp_expect_exact(&s, "su: ok for root\r\n", "verdict");
	tp_exp_termios(&s, &after);
	check_same_termios(&before, &after, "termios after the password");
	tp_exp_expect_exact(&s, "$ ", "shell prompt");
	tp_exp_send(&s, "visible\n", "a line at the shell prompt");
	tp_exp_expect_exact(&s, "visible\r\n", "echo of the line");
	tp_exp_expect_exact(&s, "said [visible]", "shell reply");
	tp_exp_check_exit(tp_exp_wait_exit(&s, "su exit"), 0, "su");
}

TP_CASE(wrong_password_fails_with_status_1, TP_POSIX,
	"A wrong password is not echoed either, gets \"su: Authentication "
	"failure\" and exit status 1, read back after EOF")
{
	struct tp_exp s;
	struct termios before;

	login(&s, tc, (const char *const[]){PASSWORD, NULL}, &before);
	tp_exp_wait_lflag(&s, 0, ECHO, "ECHO off for the password");
	tp_exp_type(&s, "letmein\n", "a wrong password");
	tp_exp_expect_exact(&s, "su: Authentication failure\r\n", "verdict");
	tp_exp_expect_eof(&s, "EOF after the verdict");
	check_never_echoed(&s, "letmein", "wrong password");
	tp_exp_check_exit(tp_exp_wait_exit(&s, "su exit"), 1, "su");
}

TP_CASE(password_editing_without_echo, TP_POSIX,
	"VERASE and VKILL still edit a password typed with ECHO off, and "
	"neither the keys nor their erasing (\\b \\b) are echoed")
{
	struct tp_exp s;
	struct termios before;

	login(&s, tc, (const char *const[]){PASSWORD, NULL}, &before);
	tp_exp_wait_lflag(&s, ICANON, ECHO, "ECHO off for the password");
	/* "wrong", kill the line, "huntx", erase the x, "er2". */
	tp_exp_type(&s, "wrong\025huntx\177er2\n", "an edited password");
	tp_exp_expect_exact(&s, "su: ok for root\r\n", "verdict after editing");
	check_never_echoed(&s, "wrong", "killed text");
	check_never_echoed(&s, "hunt", "password");
	check_never_echoed(&s, "\b", "erase echo");
	tp_exp_close(&s, "su after the verdict");
}

ATF_TP_ADD_TCS(tp)
{
	ATF_TP_ADD_TC(tp, password_not_echoed_after_echo_off);
	ATF_TP_ADD_TC(tp, answer_at_prompt_instant_not_echoed);
	ATF_TP_ADD_TC(tp, late_echo_off_prompter_is_seen_echoing);
	ATF_TP_ADD_TC(tp, termios_restored_after_password);
	ATF_TP_ADD_TC(tp, wrong_password_fails_with_status_1);
	ATF_TP_ADD_TC(tp, password_editing_without_echo);
	return atf_no_error();
}
