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

TP_CASE_TIMEOUT(listed, TP_LINUX, APP_TIMEOUT_S,
		"the rows of this program are tests that exist in CPython's test.test_os "
		"as installed (Debian's libpython3.11-testsuite)")
{
	static const char *const ids[] = {PEER_TESTS(PEER_ID)};
	peer_listed(tc, PEER_MODULE, ids, sizeof ids / sizeof *ids, false);
}

ATF_TP_ADD_TCS(tp)
{
	PEER_TESTS(PEER_ADD)
	ATF_TP_ADD_TC(tp, listed);
	return atf_no_error();
}
