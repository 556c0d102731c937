// SPDX-License-Identifier: GPL-2.0-only
/* t_run.c: run_suite() on the host with stand-in suites (the watch loop's
 * done / silent / timeout outcomes), the watch loop on a stand-in guest
 * that Oopses, and initramfs_build() on a tiny suite. */
#include <atf-c.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "guest.h"
#include "kutil.h"
#include "proc.h"
#include "watch.h"

/* A suite dir whose run-suite.sh is `body` (a sh script fragment);
 * $R is the real tp_report. */
static void
fake_suite(const atf_tc_t *tc, const char *body)
{
	const char *src = atf_tc_get_config_var_wd(tc, "srcdir", ".");
	char rep[PATH_MAX], abs[PATH_MAX];
	snprintf(rep, sizeof rep, "%s/../../fixtures/tp_report", src);
	ATF_REQUIRE_MSG(realpath(rep, abs), "fixtures/tp_report not built");
	ATF_REQUIRE(ku_mkdir_p("suite/fixtures/guest", 0755) == 0);
	FILE *f = fopen("suite/fixtures/guest/run-suite.sh", "w");
	ATF_REQUIRE(f);
	fprintf(f, "#!/bin/sh\nR=%s\n%s\n", abs, body);
	fclose(f);
}

static void
run_host_suite(struct run_outcome *out, int deadline_s)
{
	struct kernel_info k = {.label = "host", .release = "test"};
	struct run_opts o = {.suite_dir = "suite", .deadline_s = deadline_s};
	ATF_REQUIRE_EQ(run_suite(&k, &o, "results", "console", out), 0);
	ATF_CHECK_STREQ(out->accel, "host");
}

ATF_TC(host_done);
ATF_TC_HEAD(host_done, tc)
{
	atf_tc_set_md_var(tc, "descr", "a runner that reports begin and end "
			  "is RUN_DONE; results are appended, stderr is the "
			  "console");
}
ATF_TC_BODY(host_done, tc)
{
	fake_suite(tc, "t=$($R now)\n$R begin uname=x arch=y cases=1\n"
		       "echo kyua-output >&2\n"
		       "$R case-hex a/t_x:c passed 1000 ''\n$R end 0 $t\n");
	ku_write_file("results", "earlier line\n", 13);
	struct run_outcome out;
	run_host_suite(&out, 30);
	ATF_CHECK_EQ(out.end, RUN_DONE);
	char *r = ku_read_file("results", NULL), *c = ku_read_file("console", NULL);
	ATF_REQUIRE(r && c);
	ATF_CHECK_MSG(!strncmp(r, "earlier line\n@TTYPOT1 begin ", 28), "%s", r);
	ATF_CHECK_MSG(strstr(r, "@TTYPOT1 case a/t_x:c pass 0.001 - *"), "%s", r);
	ATF_CHECK_MSG(strstr(r, "@TTYPOT1 end rc=0 "), "%s", r);
	ATF_CHECK_MSG(strstr(c, "kyua-output"), "%s", c);
	free(r);
	free(c);
}

ATF_TC(host_kyua_vars);
ATF_TC_HEAD(host_kyua_vars, tc)
{
	atf_tc_set_md_var(tc, "descr", "run_opts' Kyua words (--vars) reach the runner as "
			  "TTYPOT_KYUA_VARS, as a guest's init passes them to run-suite.sh");
}
ATF_TC_BODY(host_kyua_vars, tc)
{
	fake_suite(tc, "t=$($R now)\n$R begin uname=x arch=y cases=1\n"
		       "echo \"vars:$TTYPOT_KYUA_VARS\" >&2\n$R end 0 $t\n");
	struct kernel_info k = {.label = "host", .release = "test"};
	struct run_opts o = {.suite_dir = "suite", .deadline_s = 30,
			     .kyua_vars = "-v test_suites.ttypot.compile_iterations=7"};
	struct run_outcome out;
	ATF_REQUIRE_EQ(run_suite(&k, &o, "results", "console", &out), 0);
	ATF_CHECK_EQ(out.end, RUN_DONE);
	char *c = ku_read_file("console", NULL);
	ATF_REQUIRE(c);
	ATF_CHECK_MSG(strstr(c, "vars:-v test_suites.ttypot.compile_iterations=7\n"), "%s", c);
	free(c);
}

ATF_TC(host_boot_deadline);
ATF_TC_HEAD(host_boot_deadline, tc)
{
	atf_tc_set_md_var(tc, "descr", "a runner that does not begin the suite within the "
			  "boot deadline is stopped there as RUN_TIMEOUT, saying so, long before "
			  "the run's own deadline; one that begins in time is not");
	atf_tc_set_md_var(tc, "timeout", "60");
}
ATF_TC_BODY(host_boot_deadline, tc)
{
	/* A boot that never ends: the runner waits without a begin line. */
	fake_suite(tc, "sleep 120 &\nwait\n");
	struct kernel_info k = {.label = "host", .release = "test"};
	struct run_opts o = {.suite_dir = "suite", .deadline_s = 50, .boot_deadline_s = 2};
	struct run_outcome out;
	double t0 = proc_now();
	ATF_REQUIRE_EQ(run_suite(&k, &o, "results", "console", &out), 0);
	ATF_CHECK_MSG(proc_now() - t0 < 10, "stopped after %.1f s", proc_now() - t0);
	ATF_CHECK_EQ(out.end, RUN_TIMEOUT);
	ATF_CHECK_MSG(strstr(out.err, "boot deadline of 2 s"), "%s", out.err);

	/* A begin line in time: the boot deadline no longer applies. */
	fake_suite(tc, "t=$($R now)\n$R begin uname=x arch=y cases=1\nsleep 3\n$R end 0 $t\n");
	ATF_REQUIRE_EQ(run_suite(&k, &o, "results", "console", &out), 0);
	ATF_CHECK_EQ(out.end, RUN_DONE);
}

ATF_TC(host_silent);
ATF_TC_HEAD(host_silent, tc)
{
	atf_tc_set_md_var(tc, "descr", "a runner that exits without an end "
			  "line is RUN_SILENT; a corrupted end line does not "
			  "count");
}
ATF_TC_BODY(host_silent, tc)
{
	fake_suite(tc, "$R begin uname=x arch=y cases=1\n"
		       "echo '@TTYPOT1 end rc=0 suite_s=1.0 *00000000'\n");
	struct run_outcome out;
	run_host_suite(&out, 30);
	ATF_CHECK_EQ(out.end, RUN_SILENT);
	ATF_CHECK(out.err[0] != '\0');
}

ATF_TC(host_timeout);
ATF_TC_HEAD(host_timeout, tc)
{
	atf_tc_set_md_var(tc, "descr", "a runner past the deadline is killed "
			  "(with its children) and is RUN_TIMEOUT");
	atf_tc_set_md_var(tc, "timeout", "60");
}
ATF_TC_BODY(host_timeout, tc)
{
	fake_suite(tc, "$R begin uname=x arch=y cases=1\nsleep 120 &\n"
		       "echo $! > sleeper\nwait\n");
	struct run_outcome out;
	double t0 = proc_now();
	run_host_suite(&out, 2);
	ATF_CHECK(proc_now() - t0 < 10);
	ATF_CHECK_EQ(out.end, RUN_TIMEOUT);
	ATF_CHECK(out.boot_s < 2.5);
	char *p = ku_read_file("suite/cases/../sleeper", NULL);
	if (!p)
		p = ku_read_file("sleeper", NULL);
	ATF_REQUIRE_MSG(p, "the runner did not start its child");
	int pid = atoi(p);
	free(p);
	char path[64];
	snprintf(path, sizeof path, "/proc/%d/cmdline", pid);
	/* Killed with the group: gone, or at most a zombie of init. */
	char *cmd = NULL;
	for (int i = 0; i < 100; i++) {
		free(cmd);
		cmd = ku_read_file(path, NULL);
		if (!cmd || !*cmd)
			break;
		usleep(20000); /* polling a state, not ordering */
	}
	ATF_CHECK_MSG(!cmd || !*cmd, "sleeper %d still running", pid);
	free(cmd);
}

/* A stand-in guest watched as QEMU is (watch_spawn, the console scanned):
 * body is a sh script; its stdout is the results channel ($R writes protocol
 * lines there), its stderr the console.  With oops_silence_s, banner_s and
 * deadline_s as run_opts has them. */
static void
watch_guest_opts(const atf_tc_t *tc, const char *body, const struct run_opts *o,
		 struct run_outcome *out)
{
	const char *src = atf_tc_get_config_var_wd(tc, "srcdir", ".");
	char rep[PATH_MAX], abs[PATH_MAX], script[PATH_MAX + 4096];
	snprintf(rep, sizeof rep, "%s/../../fixtures/tp_report", src);
	ATF_REQUIRE_MSG(realpath(rep, abs), "fixtures/tp_report not built");
	snprintf(script, sizeof script, "R=%s\n%s", abs, body);
	const char *argv[] = { "sh", "-c", script, NULL };
	struct proc_opts po = { .stdout_path = "results", .stderr_path = "console" };
	memset(out, 0, sizeof *out);
	snprintf(out->console_path, sizeof out->console_path, "console");
	ATF_REQUIRE_EQ(ku_write_file("results", "", 0), 0);
	ATF_REQUIRE_EQ(ku_write_file("console", "", 0), 0); /* this guest's lines only */
	ATF_REQUIRE_EQ(watch_spawn(argv, &po, o, "results", "guest", true, NULL, out), 0);
}

static void
watch_guest(const atf_tc_t *tc, const char *body, int oops_silence_s, int banner_s,
	    int deadline_s, struct run_outcome *out)
{
	struct run_opts o = { .deadline_s = deadline_s, .oops_silence_s = oops_silence_s,
			      .banner_s = banner_s };
	watch_guest_opts(tc, body, &o, out);
}

/* What a 6.12 guest's console shows when a task oopses. */
#define OOPS_LINES \
	"echo '[    2.101] BUG: kernel NULL pointer dereference, address: 0000000000000010' >&2\n" \
	"echo '[    2.102] Oops: Oops: 0000 [#1] PREEMPT SMP NOPTI' >&2\n" \
	"echo '[    2.103] RIP: 0010:tty_port_default_receive_buf+0x1c/0x70' >&2\n"

#define STALL_LINES \
	"echo '[   26.975] rcu: INFO: rcu_sched detected stalls on CPUs/tasks:' >&2\n" \
	"echo '[   26.981] CPU: 0 UID: 0 PID: 115 Comm: t_echo Not tainted 6.12.118+' >&2\n"

ATF_TC(oops_then_silence_is_dead);
ATF_TC_HEAD(oops_then_silence_is_dead, tc)
{
	atf_tc_set_md_var(tc, "descr", "with oops_silence_s, a guest whose console shows an "
			  "Oops and then nothing more is stopped once that long has passed, as "
			  "RUN_PANIC naming the Oops, not at the deadline, and so is one that "
			  "reports an RCU stall or 6.1's x86 die line (divide error: 0000 "
			  "[#1]); a guest that goes on reporting after an Oops or a stall runs "
			  "to its end; without it the dead guest waits for the deadline "
			  "(RUN_TIMEOUT)");
	atf_tc_set_md_var(tc, "timeout", "120");
}
ATF_TC_BODY(oops_then_silence_is_dead, tc)
{
	struct run_outcome out;
	const char *dead = "$R begin uname=x arch=y cases=2\n" OOPS_LINES "sleep 100 &\nwait\n";
	double t0 = proc_now();
	watch_guest(tc, dead, 3, 0, 60, &out);
	double took = proc_now() - t0;
	ATF_CHECK_EQ(out.end, RUN_PANIC);
	ATF_CHECK_MSG(took >= 3 && took < 15, "stopped after %.1f s", took);
	ATF_CHECK_MSG(strstr(out.err, "Oops: Oops: 0000 [#1]") && strstr(out.err, "3 s"),
		      "%s", out.err);

	/* Alive after the Oops: a case every second, each sooner than the
	 * silence, then the end line. */
	watch_guest(tc, "t=$($R now)\n$R begin uname=x arch=y cases=6\n" OOPS_LINES
		    "for i in 1 2 3 4 5 6; do sleep 1; $R case-hex a/t_x:c$i passed 1000 ''; done\n"
		    "$R end 0 $t\n", 3, 0, 60, &out);
	ATF_CHECK_EQ(out.end, RUN_DONE);

	/* A CPU stuck in the kernel (a mutant looping in n_tty_read): an RCU
	 * stall and then silence is dead too. */
	t0 = proc_now();
	watch_guest(tc, "$R begin uname=x arch=y cases=2\n" STALL_LINES "sleep 100 &\nwait\n",
		    3, 0, 60, &out);
	ATF_CHECK_EQ(out.end, RUN_PANIC);
	ATF_CHECK_MSG(proc_now() - t0 < 15, "stopped after %.1f s", proc_now() - t0);
	ATF_CHECK_MSG(strstr(out.err, "rcu_sched detected stalls on CPUs/tasks"), "%s", out.err);
	/* the CPU's own report of its stall, as the mutant's second boot showed */
	watch_guest(tc, "$R begin uname=x arch=y cases=2\n"
		    "echo '[   25.630] rcu: INFO: rcu_sched self-detected stall on CPU' >&2\n"
		    "sleep 100 &\nwait\n", 3, 0, 60, &out);
	ATF_CHECK_EQ(out.end, RUN_PANIC);
	ATF_CHECK_MSG(strstr(out.err, "rcu: INFO: rcu_sched self-detected stall on CPU"), "%s",
		      out.err);
	/* 6.1's x86 die line, which has no "Oops: " before it */
	watch_guest(tc, "$R begin uname=x arch=y cases=2\n"
		    "echo '[   25.841] divide error: 0000 [#1] PREEMPT SMP NOPTI' >&2\n"
		    "sleep 100 &\nwait\n", 3, 0, 60, &out);
	ATF_CHECK_EQ(out.end, RUN_PANIC);
	ATF_CHECK_MSG(strstr(out.err, "(divide error: 0000 [#1] PREEMPT SMP NOPTI)"), "%s",
		      out.err);
	/* ... but a stall the guest gets over (a starved vCPU) is not */
	watch_guest(tc, "t=$($R now)\n$R begin uname=x arch=y cases=6\n" STALL_LINES
		    "for i in 1 2 3 4 5 6; do sleep 1; $R case-hex a/t_x:c$i passed 1000 ''; done\n"
		    "$R end 0 $t\n", 3, 0, 60, &out);
	ATF_CHECK_EQ(out.end, RUN_DONE);

	/* No oops_silence_s: the dead guest runs to the deadline. */
	t0 = proc_now();
	watch_guest(tc, dead, 0, 0, 6, &out);
	ATF_CHECK_EQ(out.end, RUN_TIMEOUT);
	ATF_CHECK_MSG(proc_now() - t0 >= 6, "stopped after %.1f s", proc_now() - t0);
}

ATF_TC(all_cases_then_no_end_is_stopped);
ATF_TC_HEAD(all_cases_then_no_end_is_stopped, tc)
{
	atf_tc_set_md_var(tc, "descr", "a guest that reports every case its begin line "
			  "announced and then never its end line (its Kyua aborted, what "
			  "follows wedged) is stopped after_last_case_s later as RUN_TIMEOUT "
			  "saying so, not at the deadline; one with a case still to report "
			  "waits for the deadline, and one that ends is RUN_DONE");
	atf_tc_set_md_var(tc, "timeout", "120");
}
ATF_TC_BODY(all_cases_then_no_end_is_stopped, tc)
{
	struct run_outcome out;
	struct run_opts o = { .deadline_s = 30, .after_last_case_s = 3 };
	const char *two = "$R begin uname=x arch=y cases=2\n"
			  "$R case-hex a/t_x:one passed 1000 ''\n"
			  "$R case-hex a/t_x:two passed 1000 ''\n";
	char body[512];
	snprintf(body, sizeof body, "%ssleep 100 &\nwait\n", two);
	double t0 = proc_now();
	watch_guest_opts(tc, body, &o, &out);
	double took = proc_now() - t0;
	ATF_CHECK_EQ(out.end, RUN_TIMEOUT);
	ATF_CHECK_MSG(took >= 3 && took < 15, "stopped after %.1f s", took);
	ATF_CHECK_MSG(strstr(out.err, "all 2 cases reported, then no end line for 3 s"),
		      "%s", out.err);

	/* One case of two: not all in, so the deadline decides. */
	o.deadline_s = 6;
	t0 = proc_now();
	watch_guest_opts(tc, "$R begin uname=x arch=y cases=2\n"
			 "$R case-hex a/t_x:one passed 1000 ''\nsleep 100 &\nwait\n", &o, &out);
	ATF_CHECK_EQ(out.end, RUN_TIMEOUT);
	ATF_CHECK_MSG(proc_now() - t0 >= 6, "stopped after %.1f s", proc_now() - t0);
	ATF_CHECK_MSG(!strstr(out.err, "cases reported"), "%s", out.err);

	/* Every case and the end line: done. */
	o.deadline_s = 30;
	snprintf(body, sizeof body, "t=$($R now)\n%s$R end 0 $t\n", two);
	watch_guest_opts(tc, body, &o, &out);
	ATF_CHECK_EQ(out.end, RUN_DONE);
}

ATF_TC(silent_case_is_a_hang);
ATF_TC_HEAD(silent_case_is_a_hang, tc)
{
	atf_tc_set_md_var(tc, "descr", "with case_silence_s, a guest that begins the suite, "
			  "reports a case and then no other (whatever else it prints) is stopped "
			  "once that long has passed, as RUN_TIMEOUT naming the last case "
			  "reported, not at the deadline; a guest reporting a case within each such span "
			  "runs to its end, and a slow boot before the begin line is not "
			  "counted; without it the hang waits for the deadline");
	atf_tc_set_md_var(tc, "timeout", "120");
}
ATF_TC_BODY(silent_case_is_a_hang, tc)
{
	struct run_outcome out;
	struct run_opts o = { .deadline_s = 60, .case_silence_s = 3 };
	const char *hang = "$R begin uname=x arch=y cases=3\n"
			   "$R case-hex a/t_x:first passed 1000 ''\n"
			   "sleep 100 &\nwait\n";
	double t0 = proc_now();
	watch_guest_opts(tc, hang, &o, &out);
	double took = proc_now() - t0;
	ATF_CHECK_EQ(out.end, RUN_TIMEOUT);
	ATF_CHECK(out.case_silent);
	ATF_CHECK_MSG(took >= 3 && took < 15, "stopped after %.1f s", took);
	ATF_CHECK_MSG(strstr(out.err, "no case result for 3 s after a/t_x:first"), "%s",
		      out.err);

	/* Other lines (a kernel log line each second) are not results. */
	t0 = proc_now();
	watch_guest_opts(tc, "$R begin uname=x arch=y cases=3\n"
			 "$R case-hex a/t_x:first passed 1000 ''\n"
			 "for i in $(seq 30); do sleep 1; echo '@TTYPOT1 kmsg 1.0 2.0 0 - stall *0'; "
			 "echo '[   26.9] rcu: INFO: rcu_sched detected stalls' >&2; done\n", &o, &out);
	ATF_CHECK_EQ(out.end, RUN_TIMEOUT);
	ATF_CHECK(out.case_silent);
	ATF_CHECK_MSG(proc_now() - t0 < 15, "stopped after %.1f s", proc_now() - t0);

	/* A case every second, slower in all than the silence, then the end;
	 * a boot that takes longer than the silence before its begin line. */
	watch_guest_opts(tc, "t=$($R now)\nsleep 4\n$R begin uname=x arch=y cases=6\n"
			 "for i in 1 2 3 4 5 6; do sleep 1; $R case-hex a/t_x:c$i passed 1000 ''; "
			 "done\n$R end 0 $t\n", &o, &out);
	ATF_CHECK_EQ(out.end, RUN_DONE);
	ATF_CHECK(!out.case_silent);

	/* No case_silence_s: the hang runs to the deadline. */
	o = (struct run_opts){ .deadline_s = 6 };
	t0 = proc_now();
	watch_guest_opts(tc, hang, &o, &out);
	ATF_CHECK_EQ(out.end, RUN_TIMEOUT);
	ATF_CHECK(!out.case_silent);
	ATF_CHECK_MSG(proc_now() - t0 >= 6, "stopped after %.1f s", proc_now() - t0);
}

ATF_TC(slow_boot_stretches_deadlines);
ATF_TC_HEAD(slow_boot_stretches_deadlines, tc)
{
	atf_tc_set_md_var(tc, "descr", "with ref_boot_s, a guest that boots slower than that "
			  "(a loaded host) gets deadline_s and case_silence_s stretched by the "
			  "ratio, at most RUN_MAX_STRETCH times: its cases 4 s apart pass a "
			  "silence of 2 s, its run passes a deadline of 10 s, and its hang is "
			  "stopped after the stretched silence, named with it; without "
			  "ref_boot_s the same guest is stopped at the first 4-s gap");
	atf_tc_set_md_var(tc, "timeout", "120");
}
ATF_TC_BODY(slow_boot_stretches_deadlines, tc)
{
	/* Boots in 4 s against 0.5 s: 8 times slower, stretched 4 times. */
	const char *slow = "sleep 4\n$R begin uname=x arch=y cases=9\n"
			   "$R case-hex a/t_x:c1 passed 1000 ''\n"
			   "sleep 4\n$R case-hex a/t_x:c2 passed 1000 ''\n"
			   "sleep 4\n$R case-hex a/t_x:c3 passed 1000 ''\n"
			   "sleep 100 &\nwait\n";
	struct run_opts o = { .deadline_s = 10, .case_silence_s = 2, .ref_boot_s = 0.5 };
	struct run_outcome out;
	double t0 = proc_now();
	watch_guest_opts(tc, slow, &o, &out);
	double took = proc_now() - t0;
	ATF_CHECK_EQ(out.end, RUN_TIMEOUT);
	ATF_CHECK(out.case_silent);
	ATF_CHECK_MSG(out.stretch > RUN_MAX_STRETCH - 0.01 && out.stretch < RUN_MAX_STRETCH + 0.01,
		      "stretch %.2f", out.stretch);
	ATF_CHECK_MSG(strstr(out.err, "no case result for 8 s after a/t_x:c3"), "%s", out.err);
	/* 4 s of boot, 8 s of cases, 8 s of silence; 16 s of silence uncapped */
	ATF_CHECK_MSG(took >= 20 && took < 30, "stopped after %.1f s", took);

	o.ref_boot_s = 0;
	watch_guest_opts(tc, slow, &o, &out);
	ATF_CHECK_EQ(out.end, RUN_TIMEOUT);
	ATF_CHECK(out.case_silent);
	ATF_CHECK_MSG(strstr(out.err, "no case result for 2 s after a/t_x:c1"), "%s", out.err);
}

ATF_TC(host_missing_script);
ATF_TC_HEAD(host_missing_script, tc)
{
	atf_tc_set_md_var(tc, "descr", "a suite without run-suite.sh is "
			  "RUN_ERROR naming the suite");
}
ATF_TC_BODY(host_missing_script, tc)
{
	ATF_REQUIRE(mkdir("empty", 0755) == 0);
	struct kernel_info k = {.label = "host"};
	struct run_opts o = {.suite_dir = "empty", .deadline_s = 10};
	struct run_outcome out;
	ATF_CHECK_EQ(run_suite(&k, &o, "results", "console", &out), -1);
	ATF_CHECK_EQ(out.end, RUN_ERROR);
	ATF_CHECK_MSG(strstr(out.err, "empty"), "%s", out.err);
}

ATF_TC(initramfs_tiny_suite);
ATF_TC_HEAD(initramfs_tiny_suite, tc)
{
	atf_tc_set_md_var(tc, "descr", "initramfs_build packs init, busybox, "
			  "kyua with its libraries, the suite and its case list; "
			  "a suite missing pieces is an error naming what is "
			  "missing");
	atf_tc_set_md_var(tc, "require.progs", "busybox kyua cpio gzip");
	atf_tc_set_md_var(tc, "timeout", "120");
}
ATF_TC_BODY(initramfs_tiny_suite, tc)
{
	char err[1024];
	ATF_REQUIRE(ku_mkdir_p("s/cases/pty", 0755) == 0);
	ATF_REQUIRE(ku_mkdir_p("s/fixtures/guest", 0755) == 0);
	ATF_CHECK_EQ(initramfs_build("s", "ird.gz", err, sizeof err), -1);
	ATF_CHECK_MSG(strstr(err, "cases/Kyuafile"), "%s", err);
	const char *top = "syntax(2)\ninclude(\"pty/Kyuafile\")\n";
	const char *pty = "syntax(2)\ntest_suite(\"tiny\")\n"
			  "plain_test_program{name=\"t_x\"}\n";
	ku_write_file("s/cases/Kyuafile", top, strlen(top));
	ku_write_file("s/cases/pty/Kyuafile", pty, strlen(pty));
	ku_write_file("s/fixtures/guest/init", "#!/bin/busybox sh\n", 18);
	ku_write_file("s/fixtures/guest/run-suite.sh", "#!/bin/sh\n", 10);
	ku_write_file("s/cases/pty/t_x.c", "int main;\n", 10);
	ATF_REQUIRE(ku_copy_file("/bin/true", "s/cases/pty/t_x") == 0);
	ATF_REQUIRE(ku_copy_file("/bin/true", "s/fixtures/tp_report") == 0);
	ATF_REQUIRE_MSG(initramfs_build("s", "ird.gz", err, sizeof err) == 0,
			"%s", err);
	unsigned char m[2] = {0};
	int fd = open("ird.gz", O_RDONLY);
	ATF_REQUIRE(fd >= 0 && read(fd, m, 2) == 2);
	close(fd);
	ATF_CHECK(m[0] == 0x1f && m[1] == 0x8b);
	ATF_REQUIRE(system("gzip -dc ird.gz | cpio -t --quiet > list") == 0);
	char *l = ku_read_file("list", NULL);
	ATF_REQUIRE(l);
	const char *want[] = {"\ninit\n", "usr/bin/kyua\n", "usr/bin/busybox\n",
			      "ttypot/cases/Kyuafile\n", "ttypot/cases/pty/t_x\n",
			      "ttypot/fixtures/guest/run-suite.sh\n",
			      "libc.so.6\n", "etc/passwd\n", "usr/share/kyua/store"};
	for (size_t i = 0; i < sizeof want / sizeof *want; i++)
		ATF_CHECK_MSG(strstr(l, want[i]), "initramfs lacks %s", want[i]);
	ATF_CHECK_MSG(!strstr(l, "t_x.c"), "sources packed");
	free(l);
	/* The case list, made on the host so the guest need not list. */
	ATF_REQUIRE(system("gzip -dc ird.gz | cpio -i --quiet --to-stdout "
			   "ttypot/cases.list > cases.list") == 0);
	l = ku_read_file("cases.list", NULL);
	ATF_CHECK_MSG(l && strcmp(l, "pty/t_x:main\n") == 0,
		      "ttypot/cases.list is '%s', want 'pty/t_x:main'", l ? l : "");
	free(l);
	struct stat st;
	ATF_CHECK_MSG(stat("ird.gz.d", &st) < 0, "staging dir left behind");
}

/* The guest's filtered case list: run-suite.sh's narrow_list over the
 * host-made list selects what `kyua list FILTER...` selects on the real
 * suite, and fails (so the guest lists for itself) on a filter that selects
 * nothing. */
ATF_TC(narrow_list_as_kyua);
ATF_TC_HEAD(narrow_list_as_kyua, tc)
{
	atf_tc_set_md_var(tc, "descr", "a filtered run's case list, narrowed "
			  "from the host-made one, is kyua list's for programs, "
			  "cases and areas; a filter selecting nothing fails it");
}
ATF_TC_BODY(narrow_list_as_kyua, tc)
{
	const char *src = atf_tc_get_config_var_wd(tc, "srcdir", ".");
	char top[PATH_MAX], rel[PATH_MAX], script[PATH_MAX + 2048];
	snprintf(rel, sizeof rel, "%s/../..", src);
	ATF_REQUIRE(realpath(rel, top));
	snprintf(script, sizeof script,
		 "set -eu\nW=$(pwd)\nS=%s\ncd \"$S/cases\"\n"
		 "kyua list -k Kyuafile > \"$W/cases.list\"\n"
		 "eval \"$(sed -n '/^narrow_list() {/,/^}/p' "
		 "\"$S/fixtures/guest/run-suite.sh\")\"\n"
		 "suite=$W\n"
		 "for f in pty/t_overread close close/ 'pty/t_echo:echo_obeys_opost_off "
		 "canon/t_eof' 'noncanon/t_vtime signals'; do\n"
		 "  narrow_list $f | sort > \"$W/got\"\n"
		 "  kyua list -k Kyuafile $f | sort > \"$W/want\"\n"
		 "  [ -s \"$W/want\" ] || { echo \"kyua lists nothing for $f\"; exit 1; }\n"
		 "  cmp -s \"$W/got\" \"$W/want\" || { echo \"filter '$f': not kyua's list\"; "
		 "exit 1; }\n"
		 "done\n"
		 "if narrow_list pty/t_overread pty/t_nosuch > /dev/null; then\n"
		 "  echo 'pty/t_nosuch: narrowed, not left to kyua list'; exit 1\nfi\n",
		 top);
	ku_write_file("check.sh", script, strlen(script));
	ATF_CHECK_EQ_MSG(system("sh check.sh > out 2>&1"), 0, "%s",
			 ku_read_file("out", NULL));
}

ATF_TC(no_banner_is_stalled);
ATF_TC_HEAD(no_banner_is_stalled, tc)
{
	atf_tc_set_md_var(tc, "descr", "with banner_s, a guest whose console shows no "
			  "\"Linux version\" line in that long (a real-mode line does not "
			  "count) is stopped as stalled, for its caller to boot again under "
			  "TCG; one that shows the banner runs on past that to its end");
	atf_tc_set_md_var(tc, "timeout", "60");
}
ATF_TC_BODY(no_banner_is_stalled, tc)
{
	struct run_outcome out;
	double t0 = proc_now();
	watch_guest(tc, "echo 'Probing EDD (edd=off to disable)... ok' >&2\n"
		    "sleep 100 &\nwait\n", 0, 2, 60, &out);
	ATF_CHECK_MSG(proc_now() - t0 < 20, "stopped after %.1f s", proc_now() - t0);
	ATF_CHECK_MSG(out.stalled, "not marked stalled (end %d, err %s)", out.end, out.err);
	ATF_CHECK_MSG(strstr(out.err, "no kernel banner"), "err: %s", out.err);

	watch_guest(tc, "echo '[    0.000000] Linux version 6.12.118 (gcc)' >&2\n"
		    "t=$($R now)\n$R begin uname=x arch=y cases=0\n"
		    "sleep 3\n$R end 0 $t\n", 0, 2, 60, &out);
	ATF_CHECK_MSG(!out.stalled, "a guest with its banner marked stalled");
	ATF_CHECK_EQ_MSG(out.end, RUN_DONE, "end %d: %s", out.end, out.err);
}

/* In a fresh process (a fork whose parent never asked), kvm_usable()'s
 * answer, its progress lines in `log`; 1 KVM, 0 TCG. */
static int
kvm_answer_in_child(const char *log)
{
	fflush(NULL);
	pid_t pid = fork();
	ATF_REQUIRE(pid >= 0);
	if (pid == 0) {
		int fd = open(log, O_WRONLY | O_CREAT | O_TRUNC, 0644);
		if (fd < 0 || dup2(fd, 2) < 0)
			_exit(3);
		_exit(kvm_usable() ? 1 : 0);
	}
	int st;
	ATF_REQUIRE(waitpid(pid, &st, 0) == pid);
	ATF_REQUIRE_MSG(WIFEXITED(st) && WEXITSTATUS(st) < 2, "the child failed");
	return WEXITSTATUS(st);
}

ATF_TC(kvm_stall_lasts_the_boot);
ATF_TC_HEAD(kvm_stall_lasts_the_boot, tc)
{
	atf_tc_set_md_var(tc, "descr", "once a kernel stalled under KVM, a later ttypot "
			  "process of the same machine boot takes TCG without probing, saying "
			  "why; TTYPOT_ACCEL=kvm still forces KVM");
}
ATF_TC_BODY(kvm_stall_lasts_the_boot, tc)
{
	char cwd[PATH_MAX], cache[PATH_MAX + 16];
	ATF_REQUIRE(getcwd(cwd, sizeof cwd));
	snprintf(cache, sizeof cache, "%s/cache", cwd);
	setenv("TTYPOT_CACHE", cache, 1);
	unsetenv("TTYPOT_ACCEL");
	char *id = ku_read_file("/proc/sys/kernel/random/boot_id", NULL);
	if (!id)
		atf_tc_skip("no /proc/sys/kernel/random/boot_id to key the note by");
	id[strcspn(id, "\n")] = '\0';
	char note[PATH_MAX + 100];
	snprintf(note, sizeof note, "%s/accel/kvm-stalled-%s", cache, id);
	free(id);
	/* One process gives up on KVM... */
	fflush(NULL);
	pid_t pid = fork();
	ATF_REQUIRE(pid >= 0);
	if (pid == 0) {
		kvm_give_up("a stand-in stall");
		_exit(0);
	}
	int st;
	ATF_REQUIRE(waitpid(pid, &st, 0) == pid);
	ATF_REQUIRE_MSG(ku_is_file(note), "no note %s after kvm_give_up", note);
	/* ...and the next one takes TCG at once, naming the earlier stall. */
	ATF_CHECK_EQ_MSG(kvm_answer_in_child("next.log"), 0, "a later process chose KVM");
	char *log = ku_read_file("next.log", NULL);
	ATF_CHECK_MSG(log && strstr(log, "earlier on this boot: a stand-in stall"),
		      "the later process did not say why: %s", log ? log : "(no log)");
	free(log);
	setenv("TTYPOT_ACCEL", "kvm", 1);
	ATF_CHECK_EQ_MSG(kvm_answer_in_child("forced.log"), 1, "TTYPOT_ACCEL=kvm ignored");
	unsetenv("TTYPOT_ACCEL");
}

ATF_TP_ADD_TCS(tp)
{
	ATF_TP_ADD_TC(tp, host_done);
	ATF_TP_ADD_TC(tp, host_kyua_vars);
	ATF_TP_ADD_TC(tp, host_boot_deadline);
	ATF_TP_ADD_TC(tp, host_silent);
	ATF_TP_ADD_TC(tp, host_timeout);
	ATF_TP_ADD_TC(tp, host_missing_script);
	ATF_TP_ADD_TC(tp, oops_then_silence_is_dead);
	ATF_TP_ADD_TC(tp, silent_case_is_a_hang);
	ATF_TP_ADD_TC(tp, slow_boot_stretches_deadlines);
	ATF_TP_ADD_TC(tp, all_cases_then_no_end_is_stopped);
	ATF_TP_ADD_TC(tp, no_banner_is_stalled);
	ATF_TP_ADD_TC(tp, kvm_stall_lasts_the_boot);
	ATF_TP_ADD_TC(tp, initramfs_tiny_suite);
	ATF_TP_ADD_TC(tp, narrow_list_as_kyua);
	return atf_no_error();
}
