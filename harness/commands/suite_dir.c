// SPDX-License-Identifier: GPL-2.0-only
/* suite_dir.c: where the built suite is (suite_dir.h). */
#include "suite_dir.h"

#include <limits.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static bool is_file(const char *p)
{
	struct stat st;
	return stat(p, &st) == 0 && S_ISREG(st.st_mode);
}

void
find_suite_dir(const char *opt, const char *argv0, char *out, size_t outlen)
{
	if (opt) {
		snprintf(out, outlen, "%s", opt);
		return;
	}
	char exe[PATH_MAX], path[PATH_MAX + 64];
	ssize_t n = readlink("/proc/self/exe", exe, sizeof exe - 1);
	if (n <= 0)
		n = (ssize_t)snprintf(exe, sizeof exe, "%s", argv0);
	exe[n] = '\0';
	char *slash = strrchr(exe, '/');
	if (slash) {
		*slash = '\0'; /* exe dir */
		snprintf(path, sizeof path, "%s/../cases/Kyuafile", exe);
		if (is_file(path)) {
			snprintf(out, outlen, "%s/..", exe);
			return;
		}
		/* make install and the Debian package ttypot-tests */
		snprintf(path, sizeof path, "%s/../lib/ttypot/tests/cases/Kyuafile", exe);
		if (is_file(path)) {
			snprintf(out, outlen, "%s/../lib/ttypot/tests", exe);
			return;
		}
	}
	snprintf(out, outlen, ".");
}
