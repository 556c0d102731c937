// SPDX-License-Identifier: GPL-2.0-only
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

PEER_PROGRAM(true, "exactly the tests of")
