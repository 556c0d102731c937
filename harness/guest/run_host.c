// SPDX-License-Identifier: GPL-2.0-only
/* run_host.c: the suite on the running kernel, through the same
 * fixtures/guest/run-suite.sh the guests use. */
#include "watch.h"
#include "kutil.h"
#include "proc.h"

#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAX_FILTERS 64

int
run_host(const struct kernel_info *k, const struct run_opts *o,
	 const char *results_path, struct run_outcome *out)
{
	(void)k;
	snprintf(out->accel, sizeof out->accel, "host");
	char script[PATH_MAX];
	ku_fmt(script, sizeof script, "%s/fixtures/guest/run-suite.sh",
	       o->suite_dir);
	if (!ku_is_file(script)) {
		snprintf(out->err, sizeof out->err, "suite %.400s lacks "
			 "fixtures/guest/run-suite.sh", o->suite_dir);
		return -1;
	}
	/* A clean environment: Kyua copies variables into its reports. */
	static char home[PATH_MAX + 8], vars[2048];
	const char *h = getenv("HOME");
	ku_fmt(home, sizeof home, "HOME=%s", h && *h ? h : "/root");
	snprintf(vars, sizeof vars, "TTYPOT_KYUA_VARS=%s",
		 o->kyua_vars ? o->kyua_vars : "");
	char *envp[] = {"PATH=/usr/sbin:/usr/bin:/sbin:/bin", home,
			"TERM=dumb", "LANG=C", "TMPDIR=/tmp", vars, NULL};
	const char *argv[MAX_FILTERS + 4];
	char fbuf[4096];
	argv[0] = "/bin/sh";
	argv[1] = script;
	argv[2] = o->suite_dir;
	int n = split_words(o->cases_filter, fbuf, sizeof fbuf, argv + 3,
			    MAX_FILTERS);
	argv[3 + n] = NULL;
	struct proc_opts po = {.stdout_path = results_path,
			       .stdout_append = true,
			       .stderr_path = out->console_path,
			       .envp = envp};
	ku_progress("host: running the suite (kernel %s)", k->release);
	return watch_spawn(argv, &po, o, results_path, "host", false, NULL,
			   out);
}
