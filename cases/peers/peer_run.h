/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * peer_run.h: CPython's own tests of the same interfaces as rows of the
 * matrix.  Each row runs one test of Debian's libpython3.11-testsuite
 * (/usr/lib/python3.11/test) with unittest, on a fresh pty that is
 * python's controlling terminal (as in a developer's terminal: test_ioctl
 * needs /dev/tty), and takes its result from a JSON file the runner
 * writes, never from python's output: CPython's pass is a pass, its skip
 * a skip with CPython's reason, its failure or error a failure with the
 * assertion, its expected failure an expected failure.
 *
 * A program lists its module's tests with PEER_TESTS(X), X(class, method)
 * per test, and gets one case per test plus `listed`, which fails when the
 * installed module has a test the list lacks or lacks a listed one (a
 * Debian update), naming them.
 */
#ifndef PEER_RUN_H
#define PEER_RUN_H

#include "../apps/app_run.h"

#define PYTHON "/usr/bin/python3"
#define PEER_TESTDIR "/usr/lib/python3.11/test"

/* argv: TEST_ID OUT.json, or --list MODULE OUT.json. */
static const char peer_runner_py[] =
	"import json, sys, traceback, unittest\n"
	"def ids(s):\n"
	"    for t in s:\n"
	"        if isinstance(t, unittest.TestSuite):\n"
	"            yield from ids(t)\n"
	"        else:\n"
	"            yield t.id()\n"
	"def last(err):\n"
	"    lines = [l for l in err.strip().splitlines() if l.strip()]\n"
	"    return ' | '.join(lines[-3:])\n"
	"res = {'status': 'error', 'reason': 'the runner stopped early'}\n"
	"out = sys.argv[-1]\n"
	"try:\n"
	"    if sys.argv[1] == '--list':\n"
	"        s = unittest.defaultTestLoader.loadTestsFromName(sys.argv[2])\n"
	"        res = {'status': 'list', 'ids': sorted(ids(s))}\n"
	"    else:\n"
	"        s = unittest.defaultTestLoader.loadTestsFromName(sys.argv[1])\n"
	"        r = unittest.TextTestRunner(stream=sys.stdout, verbosity=2).run(s)\n"
	"        if r.testsRun != 1:\n"
	"            res = {'status': 'error', 'reason': '%s names %d tests' %\n"
	"                   (sys.argv[1], r.testsRun)}\n"
	"        elif r.failures or r.errors:\n"
	"            res = {'status': 'fail' if r.failures else 'error',\n"
	"                   'reason': last((r.failures or r.errors)[0][1])}\n"
	"        elif r.unexpectedSuccesses:\n"
	"            res = {'status': 'fail', 'reason': 'unexpected success'}\n"
	"        elif r.expectedFailures:\n"
	"            res = {'status': 'xfail',\n"
	"                   'reason': last(r.expectedFailures[0][1])}\n"
	"        elif r.skipped:\n"
	"            res = {'status': 'skip', 'reason': r.skipped[0][1]}\n"
	"        else:\n"
	"            res = {'status': 'pass', 'reason': ''}\n"
	"except unittest.SkipTest as e:\n"
	"    res = {'status': 'skip', 'reason': 'the module skips: %s' % e}\n"
	"except BaseException:\n"
	"    res = {'status': 'error', 'reason': last(traceback.format_exc())}\n"
	"with open(out, 'w') as f:\n"
	"    json.dump(res, f)\n";

/* The value of "key": "..." in the runner's one-level JSON (escapes kept
 * as JSON wrote them: the text is for a message). */
static inline void
peer_json_str(const char *json, const char *key, char *out, size_t outlen)
{
	char k[64];
	snprintf(k, sizeof k, "\"%s\": \"", key);
	const char *p = strstr(json, k);
	out[0] = '\0';
	if (!p)
		return;
	p += strlen(k);
	size_t n = 0;
	for (; *p && !(*p == '"' && p[-1] != '\\') && n + 1 < outlen; p++)
		out[n++] = *p;
	out[n] = '\0';
}

/* Run the runner with args on a pty (python's controlling terminal),
 * drain the pty to EOF, and read the JSON it wrote into res. */
static inline void
peer_python(const atf_tc_t *tc, const char *module, const char *a1,
	    const char *a2, struct app_buf *res)
{
	app_require(tc, PYTHON);
	char mod[PATH_MAX];
	snprintf(mod, sizeof mod, "%s%s/%s.py",
		 app_chrooted(tc) ? app_root(tc) : "", PEER_TESTDIR, module);
	if (access(mod, R_OK) != 0)
		atf_tc_skip("%s/%s.py is not installed (Debian's "
			    "libpython3.11-testsuite; the guests' Debian root "
			    "has it: harness/guest-root/build.sh)", PEER_TESTDIR,
			    module);
	const char *wd = app_workdir(tc);
	char py[PATH_MAX], out[PATH_MAX];
	snprintf(py, sizeof py, "%s/peer_runner.py", wd);
	snprintf(out, sizeof out, "%s/result.json", wd);
	app_write_file(py, peer_runner_py, 0644);
	unlink(out);
	const char *argv[] = {PYTHON, py, a1, a2, out, NULL};
	if (!a2)
		argv[3] = out, argv[4] = NULL;
	const char *env[] = {"TERM=xterm", NULL};
	struct app a;
	struct app_buf term = {0};
	char what[200];
	snprintf(what, sizeof what, "python3 running %s", a2 ? a2 : a1);
	app_spawn(&a, tc, argv, env, true, 24, 80);
	app_read(a.fd, &term, NULL, APP_WAIT_MS, what);
	close(a.fd);
	int st = app_wait(&a, APP_WAIT_MS, what);
	if (!app_read_file(out, res))
		atf_tc_fail("%s: no result (python3 %s); its terminal: \"%s\"",
			    what, app_status(st),
			    tp_esc(term.p + (term.len > 600 ? term.len - 600 : 0),
				   term.len > 600 ? 600 : term.len));
	app_buf_free(&term);
}

/* One CPython test as this case's result. */
static inline void
peer_run(const atf_tc_t *tc, const char *module, const char *id)
{
	struct app_buf res = {0};
	char status[32], reason[1200];
	peer_python(tc, module, id, NULL, &res);
	peer_json_str(res.p, "status", status, sizeof status);
	peer_json_str(res.p, "reason", reason, sizeof reason);
	if (!strcmp(status, "pass"))
		return;
	if (!strcmp(status, "skip"))
		atf_tc_skip("CPython skips %s: %s", id, reason);
	if (!strcmp(status, "xfail")) {
		atf_tc_expect_fail("CPython marks %s an expected failure", id);
		atf_tc_fail("%s", reason);
	}
	if (!strcmp(status, "fail") || !strcmp(status, "error"))
		atf_tc_fail("CPython's %s: %s: %s", id,
			    !strcmp(status, "fail") ? "failed" : "error", reason);
	atf_tc_fail("%s: the runner wrote \"%s\"", id, tp_esc(res.p, res.len));
}

/* The installed module's tests against the list (exact: whole = true;
 * else every listed test must exist). */
static inline void
peer_listed(const atf_tc_t *tc, const char *module,
	    const char *const *ids, size_t n, bool whole)
{
	struct app_buf res = {0};
	char name[128];
	snprintf(name, sizeof name, "test.%s", module);
	peer_python(tc, module, "--list", name, &res);
	if (!strstr(res.p, "\"status\": \"list\""))
		atf_tc_fail("listing %s: \"%s\"", name, tp_esc(res.p, res.len));
	char missing[2000] = "", extra[2000] = "";
	for (size_t i = 0; i < n; i++) {
		char q[300];
		snprintf(q, sizeof q, "\"%s\"", ids[i]);
		if (!strstr(res.p, q))
			snprintf(missing + strlen(missing),
				 sizeof missing - strlen(missing), " %s", ids[i]);
	}
	if (whole)
		for (const char *p = strchr(res.p, '['); p && (p = strchr(p, '"'));) {
			const char *e = strchr(p + 1, '"');
			if (!e)
				break;
			bool known = false;
			for (size_t i = 0; i < n && !known; i++)
				known = strlen(ids[i]) == (size_t)(e - p - 1) &&
					!strncmp(ids[i], p + 1, (size_t)(e - p - 1));
			if (!known)
				snprintf(extra + strlen(extra),
					 sizeof extra - strlen(extra), " %.*s",
					 (int)(e - p - 1), p + 1);
			p = e + 1;
		}
	if (missing[0] || extra[0])
		atf_tc_fail("%s: the rows and the installed tests differ: listed "
			    "but not installed:%s; installed but not listed:%s",
			    name, missing[0] ? missing : " none",
			    extra[0] ? extra : " none");
	app_buf_free(&res);
}

/* One case per X(class, method) of PEER_TESTS, for module PEER_MODULE. */
#define PEER_CASE(cls, meth)                                                   \
	TP_CASE_TIMEOUT(cls##_##meth, TP_LINUX, APP_TIMEOUT_S,                 \
			"CPython's test." PEER_MODULE "." #cls "." #meth       \
			" (Debian's libpython3.11-testsuite), run on a pty "   \
			"that is python's controlling terminal")               \
	{                                                                      \
		peer_run(tc, PEER_MODULE,                                      \
			 "test." PEER_MODULE "." #cls "." #meth);              \
	}
#define PEER_ID(cls, meth) "test." PEER_MODULE "." #cls "." #meth,
#define PEER_ADD(cls, meth) ATF_TP_ADD_TC(tp, cls##_##meth);

/* The rest of a peer program, after PEER_TESTS(PEER_CASE): its `listed`
 * row, which checks PEER_TESTS against the installed module (exact: the
 * rows are all its tests; else each row is one of them; which says so in
 * the descr), and the ATF table. */
#define PEER_PROGRAM(exact, which)                                             \
	TP_CASE_TIMEOUT(listed, TP_LINUX, APP_TIMEOUT_S,                       \
			"the rows of this program are " which " CPython's "    \
			"test." PEER_MODULE " as installed (Debian's "         \
			"libpython3.11-testsuite)")                            \
	{                                                                      \
		static const char *const ids[] = {PEER_TESTS(PEER_ID)};        \
		peer_listed(tc, PEER_MODULE, ids, sizeof ids / sizeof *ids,    \
			    exact);                                            \
	}                                                                      \
	ATF_TP_ADD_TCS(tp)                                                     \
	{                                                                      \
		PEER_TESTS(PEER_ADD)                                           \
		ATF_TP_ADD_TC(tp, listed);                                     \
		return atf_no_error();                                         \
	}

#endif
