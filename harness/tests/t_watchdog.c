// SPDX-License-Identifier: GPL-2.0-only
/* t_watchdog: the case library's watchdog (atf/tp_case.c) fails a stuck
 * case saying what it waited for, and that message is the one Kyua keeps.
 * A case program is compiled here against the built atf/libttypot.a: its
 * case starts a child and spins until the child is gone.  The watchdog's
 * exit kills the child (the reaper); a case thread still running would see
 * that and write its own failure over the watchdog's. */
#include <atf-c.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "e2e.h"
#include "kutil.h"

static const char *const stuck_case =
	"// SPDX-License-Identifier: GPL-2.0-only\n"
	"#include <signal.h>\n#include <sys/wait.h>\n#include <unistd.h>\n"
	"#include \"ttypot.h\"\n"
	"static int sleeper(void *a) { (void)a; for (;;) pause(); return 0; }\n"
	"TP_CASE_TIMEOUT(stuck_with_child, TP_LINUX, 11, \"stuck\")\n"
	"{\n\tstruct tp_child c;\n\tint st;\n"
	"\ttp_child_start(&c, sleeper, NULL);\n"
	"\ttp_waiting_for(\"the sleeper to end on its own\");\n"
	"\tfor (;;)\n\t\tif (waitpid(c.pid, &st, WNOHANG) == c.pid)\n"
	"\t\t\tatf_tc_fail(\"the child ended under the case\");\n}\n"
	"ATF_TP_ADD_TCS(tp)\n{\n\tATF_TP_ADD_TC(tp, stuck_with_child);\n"
	"\treturn atf_no_error();\n}\n";

ATF_TC(stuck_case_names_its_wait);
ATF_TC_HEAD(stuck_case_names_its_wait, tc)
{
	atf_tc_set_md_var(tc, "descr", "A case still running 5 s before its timeout fails "
			  "with the watchdog's message naming its last wait, every time, though "
			  "the reaper kills the child the case is watching (5 runs)");
	atf_tc_set_md_var(tc, "timeout", "180");
}
ATF_TC_BODY(stuck_case_names_its_wait, tc)
{
	const char *src = atf_tc_get_config_var_wd(tc, "srcdir", ".");
	char atf[PATH_MAX], rel[PATH_MAX + 16], cwd[PATH_MAX];
	snprintf(rel, sizeof rel, "%s/../../atf", src);
	ATF_REQUIRE_MSG(realpath(rel, atf), "%s: not found", rel);
	ATF_REQUIRE(getcwd(cwd, sizeof cwd));
	e2e_put_file("t_stuck.c", stuck_case);
	e2e_put_file("Kyuafile", "syntax(2)\ntest_suite(\"w\")\n"
		     "atf_test_program{name=\"t_stuck\"}\n");
	char inc[PATH_MAX + 8], lib[PATH_MAX + 32];
	snprintf(inc, sizeof inc, "-I%s", atf);
	snprintf(lib, sizeof lib, "%s/libttypot.a", atf);
	char *cc[] = { "cc", "-std=c11", "-D_GNU_SOURCE", inc, "-o", "t_stuck", "t_stuck.c",
		       lib, "-latf-c", "-lpthread", NULL };
	e2e_run_ok(cc, 120, "compiling the stuck case");
	for (int i = 0; i < 5; i++) {
		char *kyua[] = { "kyua", "test", "-r", "results.db", NULL };
		char log[32];
		snprintf(log, sizeof log, "kyua-%d.log", i);
		e2e_run(kyua, 60, log, "kyua test of the stuck case");
		char *out = ku_read_file(log, NULL);
		ATF_REQUIRE_MSG(out, "%s: not written", log);
		ATF_CHECK_MSG(strstr(out, "failed: watchdog: case still running after 6 s; "
				     "last wait: the sleeper to end on its own"),
			      "run %d: %s", i, out);
		free(out);
		unlink("results.db");
	}
}

ATF_TP_ADD_TCS(tp)
{
	ATF_TP_ADD_TC(tp, stuck_case_names_its_wait);
	return atf_no_error();
}
