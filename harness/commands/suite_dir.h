/* SPDX-License-Identifier: GPL-2.0-only */
/* suite_dir.h: the built suite a command runs: --suite, else the tree this
 * ttypot was built in (EXE/../ when it holds cases/Kyuafile), else
 * EXE/../lib/ttypot/tests (make install, the Debian package ttypot-tests),
 * else ".". */
#ifndef TTYPOT_SUITE_DIR_H
#define TTYPOT_SUITE_DIR_H

#include <stddef.h>

void find_suite_dir(const char *opt, const char *argv0, char *out, size_t outlen);

#endif
