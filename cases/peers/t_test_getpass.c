// SPDX-License-Identifier: GPL-2.0-only
/*
 * t_test_getpass.c: CPython's test_getpass: getpass on /dev/tty and its fallbacks, echo turned off and termios restored.
 * One row per test (peer_run.h); `listed` checks the list against
 * the installed module.
 */
#define PEER_MODULE "test_getpass"
#include "peer_run.h"

#define PEER_TESTS(X) \
	X(GetpassGetuserTest, test_username_falls_back_to_pwd) \
	X(GetpassGetuserTest, test_username_priorities_of_env_values) \
	X(GetpassGetuserTest, test_username_takes_username_from_env) \
	X(GetpassRawinputTest, test_flushes_stream_after_prompt) \
	X(GetpassRawinputTest, test_raises_on_empty_input) \
	X(GetpassRawinputTest, test_trims_trailing_newline) \
	X(GetpassRawinputTest, test_uses_stderr_as_default) \
	X(GetpassRawinputTest, test_uses_stdin_as_default_input) \
	X(GetpassRawinputTest, test_uses_stdin_as_different_locale) \
	X(UnixGetpassTest, test_falls_back_to_fallback_if_termios_raises) \
	X(UnixGetpassTest, test_falls_back_to_stdin) \
	X(UnixGetpassTest, test_flushes_stream_after_input) \
	X(UnixGetpassTest, test_resets_termios) \
	X(UnixGetpassTest, test_uses_tty_directly) \

PEER_TESTS(PEER_CASE)

PEER_PROGRAM(true, "exactly the tests of")
