/*
 * t_test_readline.c: CPython's test_readline: GNU readline driven over a pty (history, non-ASCII input, init).
 * One row per test (peer_run.h); `listed` checks the list against
 * the installed module.
 */
#define PEER_MODULE "test_readline"
#include "peer_run.h"

#define PEER_TESTS(X) \
	X(TestHistoryManipulation, testHistoryUpdates) \
	X(TestHistoryManipulation, test_nonascii_history) \
	X(TestHistoryManipulation, test_write_read_append) \
	X(TestReadline, test_auto_history_disabled) \
	X(TestReadline, test_auto_history_enabled) \
	X(TestReadline, test_history_size) \
	X(TestReadline, test_init) \
	X(TestReadline, test_nonascii) \

PEER_TESTS(PEER_CASE)

TP_CASE_TIMEOUT(listed, TP_LINUX, APP_TIMEOUT_S,
		"the rows of this program are exactly the tests of CPython's test.test_readline "
		"as installed (Debian's libpython3.11-testsuite)")
{
	static const char *const ids[] = {PEER_TESTS(PEER_ID)};
	peer_listed(tc, PEER_MODULE, ids, sizeof ids / sizeof *ids, true);
}

ATF_TP_ADD_TCS(tp)
{
	PEER_TESTS(PEER_ADD)
	ATF_TP_ADD_TC(tp, listed);
	return atf_no_error();
}
