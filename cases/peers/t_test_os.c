// SPDX-License-Identifier: GPL-2.0-only
/*
 * t_test_os.c: the pty and tty parts of CPython's test_os: os.openpty's descriptors' inheritance, os.get_terminal_size against stty, isatty/ttyname/tcgetpgrp/tcsetpgrp on invalid descriptors.
 * One row per test (peer_run.h); `listed` checks the list against
 * the installed module.
 */
#define PEER_MODULE "test_os"
#include "peer_run.h"

#define PEER_TESTS(X) \
	X(FDInheritanceTests, test_openpty) \
	X(TermsizeTests, test_does_not_crash) \
	X(TermsizeTests, test_stty_match) \
	X(TestInvalidFD, test_isatty) \
	X(TestInvalidFD, test_ttyname) \
	X(TestInvalidFD, test_tcgetpgrp) \
	X(TestInvalidFD, test_tcsetpgrpt) \

PEER_TESTS(PEER_CASE)

PEER_PROGRAM(false, "tests that exist in")
