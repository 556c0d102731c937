// SPDX-License-Identifier: GPL-2.0-only
/* t_deb: the Debian packages, end to end.  harness/deb/build.sh builds
 * ttypot and ttypot-tests from this tree with dpkg-buildpackage -b;
 * harness/deb/check.sh runs lintian on them and their autopkgtests that
 * need neither network nor a VM with the null runner, which installs the
 * packages on this machine and purges them afterwards.  lintian must report
 * no error, every such test must PASS, the installed suite must hold every
 * case of this tree's cases/Kyuafile and have run (as root and as nobody)
 * every one whose program does not need the machine to itself, and nothing
 * of ttypot may stay installed.  make check runs it after the tree's cases
 * (harness/run-check.sh), beside the other harness tests: the installed
 * cases never meet the tree's. */
#include <atf-c.h>

/* Paths are short here; a truncated one only fails the case. */
#pragma GCC diagnostic ignored "-Wformat-truncation"

#include "e2e.h"
#include "proc.h"
#include "rbuf.h"

#include <glob.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* dpkg-buildpackage from a clean copy: ~1 min of CPU, several on a loaded
 * machine. */
#define BUILD_DEADLINE_S 1200
/* lintian (~1 min), package installs, the suite twice and ttypot run once. */
#define CHECK_DEADLINE_S 1800
/* The tests check.sh runs (debian/tests/control). */
static const char *const tests[] = {"installed-suite", "installed-suite-user", "command"};

static char top[1024];

static bool installed(const char *pkg)
{
	struct rbuf out = {0};
	char err[256];
	char *argv[] = {"dpkg-query", "-W", "-f=${Status}", (char *)pkg, NULL};
	int rc = capture_run(argv, NULL, 30, &out, NULL, err, sizeof err);
	bool yes = rc == 0 && strstr(rbuf_str(&out), "install ok installed");
	rbuf_free(&out);
	return yes;
}

/* The cases of this tree: kyua list of cases/Kyuafile, one line each. */
static long tree_cases(void)
{
	struct rbuf out = {0};
	char err[256], kf[1100];
	snprintf(kf, sizeof kf, "%s/cases/Kyuafile", top);
	char *argv[] = {"kyua", "list", "-k", kf, NULL};
	ATF_REQUIRE_EQ_MSG(capture_run(argv, NULL, 300, &out, NULL, err, sizeof err), 0,
			   "kyua list -k %s: %s", kf, err);
	long n = 0;
	for (const char *p = rbuf_str(&out); *p; p++)
		n += *p == '\n';
	rbuf_free(&out);
	return n;
}

/* debian/tests/run-kyua's DIR/NAME.summary: "N cases: P passed, F failed,
 * B broken, ...; L listed, not run".  The cases run and the cases listed
 * (the programs that need the machine to themselves) must add up to want,
 * at least one must have passed and none failed. */
static void check_summary(const char *dir, const char *name, long want)
{
	char path[1200], err[128];
	snprintf(path, sizeof path, "%s/%s.summary", dir, name);
	char *t = read_file(path, NULL, err, sizeof err);
	if (!t) {
		atf_tc_fail_nonfatal("%s: %s", path, err);
		return;
	}
	long n = -1, pass = -1, fail = -1, broken = -1, listed = -1;
	int got = sscanf(t, "%ld cases: %ld passed, %ld failed, %ld broken", &n, &pass, &fail,
			 &broken);
	const char *semi = strchr(t, ';');
	ATF_CHECK_EQ_MSG(got, 4, "%s: unexpected summary: %s", name, t);
	ATF_CHECK_MSG(semi && sscanf(semi, "; %ld listed", &listed) == 1,
		      "%s: no count of listed cases: %s", name, t);
	ATF_CHECK_EQ_MSG(n + listed, want, "%s: %ld cases installed and run and %ld listed, "
			 "the tree has %ld", name, n, listed, want);
	ATF_CHECK_MSG(pass > 0 && fail == 0 && broken == 0, "%s: %s", name, t);
	fprintf(stderr, "%s: %s", name, t);
	free(t);
}

ATF_TC(packages_pass_lintian_and_autopkgtest);
ATF_TC_HEAD(packages_pass_lintian_and_autopkgtest, tc)
{
	atf_tc_set_md_var(tc, "descr", "make deb's packages have no lintian error; installed "
			  "with autopkgtest's null runner, their tests pass, the installed suite "
			  "holds every case of the tree and runs every one whose program does not "
			  "need the machine to itself, as root and as nobody, and the packages are "
			  "purged afterwards");
	atf_tc_set_md_var(tc, "require.user", "root");
	atf_tc_set_md_var(tc, "require.progs", "dpkg-buildpackage lintian autopkgtest kyua");
	atf_tc_set_md_var(tc, "timeout", "3300");
}
ATF_TC_BODY(packages_pass_lintian_and_autopkgtest, tc)
{
	const char *src = atf_tc_get_config_var_wd(tc, "srcdir", ".");
	snprintf(top, sizeof top, "%s/../..", src);
	if (installed("ttypot") || installed("ttypot-tests"))
		atf_tc_skip("ttypot or ttypot-tests is installed on this machine: the null "
			    "runner would replace it (purge it to run this case)");
	char cwd[512], log[600], out[600], build[1100], check[1100];
	ATF_REQUIRE(getcwd(cwd, sizeof cwd) != NULL);
	snprintf(log, sizeof log, "%s/deb.log", cwd);
	snprintf(out, sizeof out, "%s/deb", cwd);
	snprintf(build, sizeof build, "%s/harness/deb/build.sh", top);
	snprintf(check, sizeof check, "%s/harness/deb/check.sh", top);
	long want = tree_cases();
	ATF_REQUIRE_MSG(want > 0, "no case in %s/cases/Kyuafile (run make first)", top);

	char *b[] = {"sh", build, out, NULL};
	ATF_REQUIRE_EQ_MSG(e2e_run_logged(b, BUILD_DEADLINE_S, log, "build.sh"), 0,
			   "the packages did not build; see %s", log);
	const char *const debs[] = {"ttypot_*.deb", "ttypot-tests_*.deb"};
	for (size_t i = 0; i < 2; i++) {
		char pat[700];
		glob_t g;
		snprintf(pat, sizeof pat, "%s/%s", out, debs[i]);
		ATF_REQUIRE_MSG(glob(pat, 0, NULL, &g) == 0 && g.gl_pathc == 1,
				"build.sh left no single %s", pat);
		globfree(&g);
	}
	/* Other tests run beside this one (make check's second phase: guests,
	 * LAVA's pexpect ptys): the programs that need the machine to
	 * themselves are listed, not run; make check's first phase ran them
	 * from the tree. */
	char *c[] = {"env", "TTYPOT_SHARED_MACHINE=1", "sh", check, out, NULL};
	int rc = e2e_run_logged(c, CHECK_DEADLINE_S, log, "check.sh");
	ATF_CHECK_MSG(!installed("ttypot") && !installed("ttypot-tests"),
		      "ttypot or ttypot-tests is still installed after check.sh");
	if (rc == 3)
		atf_tc_fail("check.sh refused to run; see %s", log);

	/* lintian: no error line. */
	char path[1200], err[128];
	snprintf(path, sizeof path, "%s/lintian.txt", out);
	char *t = read_file(path, NULL, err, sizeof err);
	ATF_REQUIRE_MSG(t != NULL, "%s: %s", path, err);
	ATF_CHECK_MSG(strncmp(t, "E:", 2) && !strstr(t, "\nE:"), "lintian errors:\n%s", t);
	free(t);

	/* autopkgtest: each test PASS in the summary. */
	snprintf(path, sizeof path, "%s/autopkgtest.summary", out);
	t = read_file(path, NULL, err, sizeof err);
	ATF_REQUIRE_MSG(t != NULL, "%s: %s (see %s)", path, err, log);
	for (size_t i = 0; i < sizeof tests / sizeof *tests; i++) {
		char line[128];
		snprintf(line, sizeof line, "%s ", tests[i]);
		const char *l = strstr(t, line);
		while (l && l != t && l[-1] != '\n')
			l = strstr(l + 1, line);
		const char *end = l ? strchr(l, '\n') : NULL;
		size_t len = l ? (end ? (size_t)(end - l) : strlen(l)) : 0;
		ATF_CHECK_MSG(l && memmem(l, len, " PASS", 5), "autopkgtest %s did not pass:\n%s",
			      tests[i], t);
	}
	free(t);
	ATF_CHECK_EQ_MSG(rc, 0, "check.sh exit %d; see %s", rc, log);

	/* The installed suite ran every case of this tree, as root and not. */
	snprintf(path, sizeof path, "%s/autopkgtest/artifacts", out);
	check_summary(path, "installed-suite", want);
	check_summary(path, "installed-suite-user", want);
}

ATF_TP_ADD_TCS(tp)
{
	ATF_TP_ADD_TC(tp, packages_pass_lintian_and_autopkgtest);
	return atf_no_error();
}
