// SPDX-License-Identifier: GPL-2.0-only
/*
 * t_resize.c: window resizes reaching a full-screen program
 * (fixtures/tp_fullscreen.c) as SIGWINCH.  The case resizes with
 * TIOCSWINSZ on the master, as a terminal emulator does; the program
 * redraws "redraw N size ROWSxCOLS" for every SIGWINCH (N counts them) and
 * "key redraw winch N size ..." when 'r' is typed.
 */
#include <termios.h>

#include "tp_expect.h"

static void
start(struct tp_exp *s, const atf_tc_t *tc)
{
	tp_exp_spawn(s, tc, "tp_fullscreen", NULL);
	tp_exp_expect_exact(s, "redraw 0 size 0x0\r\n",
			    "first draw at the size of a new pty");
}

static void
quit(struct tp_exp *s)
{
	tp_exp_send(s, "q", "key q");
	tp_exp_expect_exact(s, "bye", "program quit");
	tp_exp_check_exit(tp_exp_wait_exit(s, "full-screen exit"), 0,
			  "full-screen program");
}

TP_CASE(resize_reaches_program_as_sigwinch, TP_POSIX,
	"TIOCSWINSZ on the master sends SIGWINCH to the foreground program, "
	"which reads the new size with TIOCGWINSZ and redraws")
{
	struct tp_exp s;

	start(&s, tc);
	tp_exp_winsize(&s, 30, 100);
	tp_exp_expect_exact(&s, "\033[H\033[2Jredraw 1 size 30x100\r\n",
			    "redraw after the resize");
	tp_exp_winsize(&s, 50, 132);
	tp_exp_expect_exact(&s, "redraw 2 size 50x132\r\n",
			    "redraw after the second resize");
	quit(&s);
}

TP_CASE(same_size_sends_no_sigwinch, TP_LINUX,
	"Setting the size the window already has sends no SIGWINCH: a key "
	"redraw afterwards still counts one signal")
{
	struct tp_exp s;

	start(&s, tc);
	tp_exp_winsize(&s, 30, 100);
	tp_exp_expect_exact(&s, "redraw 1 size 30x100\r\n", "first resize");
	tp_exp_winsize(&s, 30, 100);
	/* TIOCSWINSZ signals before it returns, and the program handles
	 * signals before keys: an extra SIGWINCH would be drawn first. */
	tp_exp_send(&s, "r", "key r");
	tp_exp_expect_exact(&s, "\033[H\033[2Jkey redraw winch 1 size 30x100\r\n",
			    "key redraw right after the first resize's");
	quit(&s);
}

TP_CASE(last_of_quick_resizes_wins, TP_POSIX,
	"Three resizes in a row (SIGWINCHs may merge) leave the program "
	"drawing the last size")
{
	struct tp_exp s;

	start(&s, tc);
	tp_exp_winsize(&s, 24, 80);
	tp_exp_winsize(&s, 50, 132);
	tp_exp_winsize(&s, 25, 81);
	tp_exp_send(&s, "r", "key r");
	tp_exp_expect(&s, "key redraw winch ? size 25x81\r\n",
		      "key redraw at the last size");
	quit(&s);
}

TP_CASE(quit_restores_cooked_terminal, TP_POSIX,
	"The program ran in raw mode and restored the terminal before it "
	"said bye: ICANON, ECHO and ISIG are on again")
{
	struct tp_exp s;

	start(&s, tc);
	tp_exp_wait_lflag(&s, 0, ICANON | ECHO | ISIG, "raw mode while drawing");
	tp_exp_send(&s, "q", "key q");
	tp_exp_expect_exact(&s, "bye", "program quit");
	struct termios t;
	tp_exp_termios(&s, &t);
	ATF_CHECK_MSG((t.c_lflag & (ICANON | ECHO | ISIG)) ==
			      (ICANON | ECHO | ISIG),
		      "c_lflag 0%o after quit lacks ICANON|ECHO|ISIG",
		      (unsigned)t.c_lflag);
	tp_exp_check_exit(tp_exp_wait_exit(&s, "full-screen exit"), 0,
			  "full-screen program");
}

ATF_TP_ADD_TCS(tp)
{
	ATF_TP_ADD_TC(tp, resize_reaches_program_as_sigwinch);
	ATF_TP_ADD_TC(tp, same_size_sends_no_sigwinch);
	ATF_TP_ADD_TC(tp, last_of_quick_resizes_wins);
	ATF_TP_ADD_TC(tp, quit_restores_cooked_terminal);
	return atf_no_error();
}
