// SPDX-License-Identifier: GPL-2.0-only
/*
 * t_test_pty.c: CPython's test_pty: pty.openpty, pty.fork, pty.spawn and its copy loop.
 * One row per test (peer_run.h); `listed` checks the list against
 * the installed module.
 */
#define PEER_MODULE "test_pty"
#include "peer_run.h"

#define PEER_TESTS(X) \
	X(PtyTest, test_fork) \
	X(PtyTest, test_master_read) \
	X(PtyTest, test_openpty) \
	X(PtyTest, test_spawn_doesnt_hang) \
	X(SmallPtyTests, test__copy_eof_on_all) \
	X(SmallPtyTests, test__copy_to_each) \
	X(SmallPtyTests, test__restore_tty_mode_normal_return) \

PEER_TESTS(PEER_CASE)

PEER_PROGRAM(true, "exactly the tests of")
