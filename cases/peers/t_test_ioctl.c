/*
 * t_test_ioctl.c: CPython's test_ioctl: TIOCGPGRP through fcntl.ioctl on /dev/tty and a pty, with mutable and immutable buffers.
 * One row per test (peer_run.h); `listed` checks the list against
 * the installed module.
 */
#define PEER_MODULE "test_ioctl"
#include "peer_run.h"

#define PEER_TESTS(X) \
	X(IoctlTests, test_ioctl) \
	X(IoctlTests, test_ioctl_mutate) \
	X(IoctlTests, test_ioctl_mutate_1024) \
	X(IoctlTests, test_ioctl_mutate_2048) \
	X(IoctlTests, test_ioctl_signed_unsigned_code_param) \

PEER_TESTS(PEER_CASE)

TP_CASE_TIMEOUT(listed, TP_LINUX, APP_TIMEOUT_S,
		"the rows of this program are exactly the tests of CPython's test.test_ioctl "
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
