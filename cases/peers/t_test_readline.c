// SPDX-License-Identifier: GPL-2.0-only
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

PEER_PROGRAM(true, "exactly the tests of")
