// SPDX-License-Identifier: GPL-2.0-only
/* t_lava: `ttypot lava` without a lab: the job YAML of a kernel, a job log
 * turned into a column (the same ingestion and end rules as a local run),
 * and the token kept off command lines and out of every message. */
#include <atf-c.h>

/* Paths are short here; a truncated one only fails the case. */
#pragma GCC diagnostic ignored "-Wformat-truncation"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "ingest.h"
#include "kutil.h"
#include "lava.h"
#include "proc.h"
#include "proto.h"
#include "rbuf.h"

#define TOKEN "s3cr3t-T0KEN-never-shown"

static void job_params(struct lava_job_params *p)
{
	memset(p, 0, sizeof *p);
	p->label = "6.1.0-57-amd64";
	p->spec = "deb:linux-image-6.1.0-57-amd64";
	p->cases = "pty/t_echo,ioctl/t_tiocsti";
	p->kernel_url = "file:///x/vmlinuz";
	p->ramdisk_url = "file:///x/initramfs.cpio.gz";
	p->device_type = "qemu";
	p->tag = "ttypot-lab";
	p->udp_a = 41001;
	p->udp_b = 41002;
	p->job_minutes = 60;
	p->test_minutes = 35;
}

ATF_TC(job_yaml_boots_kernel_ramdisk_uarts_and_suite);
ATF_TC_HEAD(job_yaml_boots_kernel_ramdisk_uarts_and_suite, tc)
{
	atf_tc_set_md_var(tc, "descr", "The job YAML of a kernel: the local runner's kernel "
			  "command line, the ramdisk with LAVA's overlay, the loop pair crossed over "
			  "UDP at 00:10/00:11 and a third UART at 00:12, the boot prompt of the guest "
			  "init, the suite step with the filter as words, the metadata collect reads");
}
ATF_TC_BODY(job_yaml_boots_kernel_ramdisk_uarts_and_suite, tc)
{
	struct lava_job_params p;
	job_params(&p);
	struct rbuf b = {0};
	lava_job_yaml(&p, &b);
	const char *y = rbuf_str(&b);
	const char *want[] = {
		"device_type: \"qemu\"\ntags: [\"ttypot-lab\"]",
		"-append \\\"console=ttyS0,115200o8 panic=-1 8250.nr_uarts=8 rdinit=/init\\\"",
		"url: \"file:///x/vmlinuz\"",
		"url: \"file:///x/initramfs.cpio.gz\"",
		"overlays:\n          lava: true",
		"udp,id=la,host=127.0.0.1,port=41002,localaddr=127.0.0.1,localport=41001",
		"udp,id=lb,host=127.0.0.1,port=41001,localaddr=127.0.0.1,localport=41002",
		"pci-serial,chardev=la,addr=0x10", "pci-serial,chardev=lb,addr=0x11",
		"pci-serial,chardev=res,addr=0x12",
		"prompts: [\"ttypot-lava# \"]",
		"\"sh /ttypot/fixtures/guest/lava-suite.sh pty/t_echo ioctl/t_tiocsti\"",
		"job: {minutes: 60}",
	};
	for (size_t i = 0; i < sizeof want / sizeof *want; i++)
		ATF_CHECK_MSG(strstr(y, want[i]) != NULL, "YAML lacks %s:\n%s", want[i], y);
	char *l = lava_def_meta(y, "label"), *s = lava_def_meta(y, "spec"),
	     *c = lava_def_meta(y, "cases"), *none = lava_def_meta(y, "nothing");
	ATF_CHECK_STREQ(l, "6.1.0-57-amd64");
	ATF_CHECK_STREQ(s, "deb:linux-image-6.1.0-57-amd64");
	ATF_CHECK_STREQ(c, "pty/t_echo,ioctl/t_tiocsti");
	ATF_CHECK(none == NULL);
	free(l), free(s), free(c);
	rbuf_free(&b);
}

ATF_TC(filter_with_shell_syntax_is_refused);
ATF_TC_HEAD(filter_with_shell_syntax_is_refused, tc)
{
	atf_tc_set_md_var(tc, "descr", "A --cases filter becomes shell words in the job: "
			  "program/case/area characters pass, shell syntax does not");
}
ATF_TC_BODY(filter_with_shell_syntax_is_refused, tc)
{
	ATF_CHECK(lava_filter_ok(NULL));
	ATF_CHECK(lava_filter_ok("pty/t_echo:echo_on_returns_input,serial"));
	ATF_CHECK(!lava_filter_ok("pty;reboot"));
	ATF_CHECK(!lava_filter_ok("$(id)"));
	ATF_CHECK(!lava_filter_ok("a'b"));
	ATF_CHECK(!lava_filter_ok("a\nb"));
}

/* A log entry line as LAVA's /logs/ endpoint writes it. */
static void entry(struct rbuf *b, const char *dt, const char *lvl, const char *json_msg)
{
	rbuf_addf(b, "- {\"dt\": \"%s\", \"lvl\": \"%s\", \"msg\": %s}\n", dt, lvl, json_msg);
}

/* A results-channel line as a JSON string (no characters to escape). */
static void target_line(struct rbuf *b, const char *dt, const char *fields)
{
	struct rbuf l = {0}, m = {0};
	proto_line(&l, fields);
	l.s[--l.len] = '\0'; /* the newline */
	rbuf_addf(&m, "\"%s\"", l.s);
	entry(b, dt, "target", m.s);
	rbuf_free(&l);
	rbuf_free(&m);
}

static struct column *read_log(const char *text, struct lava_log *info)
{
	struct column *c = col_new("6.1.0-57-amd64@lava");
	lava_log_read(c, text, strlen(text), info);
	return c;
}

ATF_TC(log_results_channel_becomes_the_column);
ATF_TC_HEAD(log_results_channel_becomes_the_column, tc)
{
	atf_tc_set_md_var(tc, "descr", "The results-channel lines of a Complete job's log "
			  "become the column's cells (CRC-checked: a corrupted line is garbage, "
			  "not a result); the time from the log's start to the begin line is the boot "
			  "time; the column is done with no error");
}
ATF_TC_BODY(log_results_channel_becomes_the_column, tc)
{
	struct rbuf b = {0};
	entry(&b, "2026-12-03T18:35:32.000000", "info", "\"start: 0 validate\"");
	entry(&b, "2026-12-03T18:35:40.000000", "target", "\"[    0.000000] Linux version 6.1\"");
	target_line(&b, "2026-12-03T18:36:22.500000", "begin uname=6.1.0-57-amd64 arch=x86_64 cases=3");
	target_line(&b, "2026-12-03T18:36:30.000000", "case pty/t_echo:a pass 0.5 -");
	target_line(&b, "2026-12-03T18:36:31.000000", "case pty/t_echo:b fail 1.0 echo%20lost");
	/* A result whose text changed on the way: the CRC no longer holds. */
	entry(&b, "2026-12-03T18:36:31.500000", "target",
	      "\"@TTYPOT1 case pty/t_echo:c pass 0.1 - *00000000\"");
	entry(&b, "2026-12-03T18:36:32.000000", "results",
	      "{\"case\": \"pty.t_echo.a\", \"definition\": \"0_ttypot\", \"result\": \"pass\"}");
	target_line(&b, "2026-12-03T18:36:40.000000", "end rc=1 suite_s=18.0");
	struct lava_log info;
	struct column *c = read_log(b.s, &info);
	ATF_CHECK_EQ(info.entries, 8);
	ATF_CHECK_EQ(c->garbage, 1);
	ATF_REQUIRE_EQ(c->ncases, 2);
	ATF_CHECK_EQ(col_find(c, "pty/t_echo:a")->st, ST_PASS);
	ATF_CHECK_EQ(col_find(c, "pty/t_echo:b")->st, ST_FAIL);
	ATF_CHECK_STREQ(col_find(c, "pty/t_echo:b")->reason, "echo lost");
	ATF_CHECK(col_find(c, "pty/t_echo:c") == NULL);
	ATF_CHECK_STREQ(c->uname, "6.1.0-57-amd64");
	ATF_CHECK(info.boot_s > 50.4 && info.boot_s < 50.6);
	lava_column_end(c, 7, "Finished", "Complete", "", &info);
	ATF_CHECK_EQ(c->end, END_DONE);
	ATF_CHECK_STREQ(c->error, "");
	/* The case the stream lacks is missing, as for a local kernel. */
	struct idlist want = {0};
	idlist_add(&want, "pty/t_echo:a");
	idlist_add(&want, "pty/t_echo:b");
	idlist_add(&want, "pty/t_echo:c");
	ingest_finish(c, &want, "pty/t_echo");
	ATF_CHECK_EQ(col_find(c, "pty/t_echo:c")->st, ST_MISSING);
	idlist_free(&want);
	lava_log_free(&info);
	col_free(c);
	rbuf_free(&b);
}

ATF_TC(incomplete_job_is_error_column_with_lava_reason);
ATF_TC_HEAD(incomplete_job_is_error_column_with_lava_reason, tc)
{
	atf_tc_set_md_var(tc, "descr", "An Incomplete job that never reported a case is an "
			  "error column whose reason is LAVA's error_msg, its cells missing, the "
			  "console's last lines kept");
}
ATF_TC_BODY(incomplete_job_is_error_column_with_lava_reason, tc)
{
	struct rbuf b = {0};
	entry(&b, "2026-12-03T18:29:12.000000", "target", "\"Booting the kernel\"");
	entry(&b, "2026-12-03T18:34:36.827537", "error", "\"JobError: Your job cannot terminate cleanly.\"");
	entry(&b, "2026-12-03T18:34:36.827989", "results",
	      "{\"case\": \"job\", \"definition\": \"lava\", \"error_msg\": "
	      "\"auto-login-action timed out after 300 seconds\", \"error_type\": \"Job\", "
	      "\"result\": \"fail\"}");
	struct lava_log info;
	struct column *c = read_log(b.s, &info);
	lava_column_end(c, 1, "Finished", "Incomplete", NULL, &info);
	ATF_CHECK_EQ(c->end, END_ERROR);
	ATF_CHECK_MSG(strstr(c->error, "auto-login-action timed out after 300 seconds") != NULL,
		      "error: %s", c->error);
	ATF_CHECK_MSG(strstr(c->error, "Incomplete") != NULL, "error: %s", c->error);
	ATF_CHECK_MSG(strstr(c->console_tail, "Booting the kernel") != NULL, "tail: %s",
		      c->console_tail);
	struct idlist want = {0};
	idlist_add(&want, "pty/t_echo:a");
	ingest_finish(c, &want, NULL);
	ATF_REQUIRE(col_find(c, "pty/t_echo:a") != NULL);
	ATF_CHECK_EQ(col_find(c, "pty/t_echo:a")->st, ST_MISSING);
	idlist_free(&want);
	lava_log_free(&info);
	col_free(c);
	rbuf_free(&b);
}

ATF_TC(panic_and_deadline_follow_the_local_rules);
ATF_TC_HEAD(panic_and_deadline_follow_the_local_rules, tc)
{
	atf_tc_set_md_var(tc, "descr", "A kernel panic on the console before the end line "
			  "makes the unreported cells panic; a job still running at the collect "
			  "deadline makes them timeout; cases reported before either keep their "
			  "results");
}
ATF_TC_BODY(panic_and_deadline_follow_the_local_rules, tc)
{
	struct rbuf b = {0};
	target_line(&b, "2026-12-03T18:36:22.000000", "begin uname=6.1.0-57-amd64 arch=x86_64 cases=2");
	target_line(&b, "2026-12-03T18:36:30.000000", "case pty/t_echo:a pass 0.5 -");
	entry(&b, "2026-12-03T18:36:31.000000", "target",
	      "\"[   40.1] Kernel panic - not syncing: Fatal exception\"");
	struct idlist want = {0};
	idlist_add(&want, "pty/t_echo:a");
	idlist_add(&want, "pty/t_echo:b");

	struct lava_log info;
	struct column *c = read_log(b.s, &info);
	ATF_CHECK(info.panic);
	lava_column_end(c, 9, "Finished", "Incomplete", NULL, &info);
	ATF_CHECK_EQ(c->end, END_PANIC);
	ingest_finish(c, &want, NULL);
	ATF_CHECK_EQ(col_find(c, "pty/t_echo:a")->st, ST_PASS);
	ATF_CHECK_EQ(col_find(c, "pty/t_echo:b")->st, ST_PANIC);
	lava_log_free(&info);
	col_free(c);

	/* The same log, the job still Running when collect gave up. */
	c = read_log(b.s, &info);
	lava_column_end(c, 9, "Running", NULL, NULL, &info);
	ATF_CHECK_EQ(c->end, END_TIMEOUT);
	ATF_CHECK_MSG(strstr(c->error, "still Running") != NULL, "error: %s", c->error);
	ingest_finish(c, &want, NULL);
	ATF_CHECK_EQ(col_find(c, "pty/t_echo:a")->st, ST_PASS);
	ATF_CHECK_EQ(col_find(c, "pty/t_echo:b")->st, ST_TIMEOUT);
	lava_log_free(&info);
	col_free(c);
	idlist_free(&want);
	rbuf_free(&b);
}

/* A fake curl first in PATH: records its argv and any @FILE header's mode,
 * answers HTTP 401 with a body. */
static void fake_curl(const char *dir)
{
	char path[1024];
	snprintf(path, sizeof path, "%s/curl", dir);
	FILE *f = fopen(path, "w");
	ATF_REQUIRE(f != NULL);
	fprintf(f, "#!/bin/sh\n"
		   "printf '%%s\\n' \"$@\" > '%s/argv'\n"
		   "out=\n"
		   "while [ $# -gt 0 ]; do\n"
		   "  case \"$1\" in\n"
		   "  -o) out=$2; shift ;;\n"
		   "  -H) case \"$2\" in @*) stat -c %%a \"${2#@}\" > '%s/mode' ;; esac; shift ;;\n"
		   "  esac\n"
		   "  shift\n"
		   "done\n"
		   "echo '{\"detail\": \"Invalid token.\"}' > \"$out\"\n"
		   "printf 401\n", dir, dir);
	fclose(f);
	ATF_REQUIRE(chmod(path, 0755) == 0);
}

ATF_TC(token_stays_off_command_lines_and_messages);
ATF_TC_HEAD(token_stays_off_command_lines_and_messages, tc)
{
	atf_tc_set_md_var(tc, "descr", "The token reaches curl only through a mode-600 header "
			  "file (never in its argv), an HTTP error message does not quote it, and "
			  "the private directory is gone after lava_close; the environment variable "
			  "works the same way");
}
ATF_TC_BODY(token_stays_off_command_lines_and_messages, tc)
{
	char dir[1024], tokf[1100], path[1200], argvf[1100];
	ATF_REQUIRE(getcwd(dir, sizeof dir) != NULL);
	fake_curl(dir);
	snprintf(tokf, sizeof tokf, "%s/token", dir);
	FILE *f = fopen(tokf, "w");
	ATF_REQUIRE(f != NULL);
	fprintf(f, "%s\n", TOKEN);
	fclose(f);
	snprintf(path, sizeof path, "%s:/usr/bin:/bin", dir);
	ATF_REQUIRE(setenv("PATH", path, 1) == 0);
	snprintf(argvf, sizeof argvf, "%s/argv", dir);

	for (int how = 0; how < 2; how++) {
		struct lava_server s;
		char err[1024];
		unsetenv("TTYPOT_LAVA_TOKEN_FILE");
		if (how == 1)
			setenv("TTYPOT_LAVA_TOKEN", TOKEN, 1);
		ATF_REQUIRE_MSG(lava_open(&s, "http://127.0.0.1:9/", how == 0 ? tokf : NULL, err,
					  sizeof err) == 0, "%s", err);
		char priv[sizeof s.dir];
		snprintf(priv, sizeof priv, "%s", s.dir);
		struct rbuf out = {0};
		ATF_CHECK(lava_get(&s, "/api/v0.2/jobs/1/", &out, err, sizeof err) < 0);
		ATF_CHECK_MSG(strstr(err, "HTTP 401") != NULL, "err: %s", err);
		ATF_CHECK_MSG(strstr(err, TOKEN) == NULL, "the error quotes the token");
		long id = 0;
		ATF_CHECK(lava_submit(&s, "job_name: x\n", &id, err, sizeof err) < 0);
		ATF_CHECK_MSG(strstr(err, TOKEN) == NULL, "the error quotes the token");
		char *argv = ku_read_file(argvf, NULL);
		ATF_REQUIRE(argv != NULL);
		ATF_CHECK_MSG(strstr(argv, TOKEN) == NULL, "curl's argv holds the token");
		ATF_CHECK_MSG(strstr(argv, "\n-H\n@") != NULL, "no -H @FILE in argv: %s", argv);
		free(argv);
		snprintf(path, sizeof path, "%s/mode", dir);
		char *mode = ku_read_file(path, NULL);
		ATF_CHECK_MSG(mode && !strncmp(mode, "600", 3), "header file mode %s", mode);
		free(mode);
		rbuf_free(&out);
		lava_close(&s);
		ATF_CHECK_MSG(access(priv, F_OK) != 0, "%s left behind", priv);
		unsetenv("TTYPOT_LAVA_TOKEN");
	}
	/* No token at all: an error that says where a token comes from. */
	struct lava_server s;
	char err[1024];
	ATF_CHECK(lava_open(&s, "http://127.0.0.1:9", NULL, err, sizeof err) < 0);
	ATF_CHECK_MSG(strstr(err, "--token-file") != NULL, "err: %s", err);
}

ATF_TC(cli_usage_errors_and_board_definition);
ATF_TC_HEAD(cli_usage_errors_and_board_definition, tc)
{
	atf_tc_set_md_var(tc, "descr", "ttypot lava: submit without a kernel and collect with "
			  "a non-numeric job are usage errors (exit 2); definition prints an inline "
			  "test definition that runs lava-suite.sh from the installed suite");
}
ATF_TC_BODY(cli_usage_errors_and_board_definition, tc)
{
	char ttypot[1024];
	snprintf(ttypot, sizeof ttypot, "%s/../ttypot",
		 atf_tc_get_config_var_wd(tc, "srcdir", "."));
	ATF_REQUIRE_MSG(access(ttypot, X_OK) == 0, "%s not built", ttypot);
	char err[512];
	struct rbuf out = {0};
	char *a1[] = { ttypot, "lava", "submit", NULL };
	ATF_CHECK_EQ(capture_run(a1, NULL, 30, NULL, &out, err, sizeof err), 2);
	char *a2[] = { ttypot, "lava", "collect", "--server", "http://127.0.0.1:9",
		       "--token-file", "/dev/null", "abc", NULL };
	ATF_CHECK_EQ(capture_run(a2, NULL, 30, NULL, &out, err, sizeof err), 2);
	ATF_CHECK_MSG(strstr(rbuf_str(&out), "'abc' is not a job id") != NULL, "%s",
		      rbuf_str(&out));
	char *a3[] = { ttypot, "lava", "submit", "--dry-run", "--cases", "pty;reboot",
		       "deb:linux-image-amd64", NULL };
	ATF_CHECK_EQ(capture_run(a3, NULL, 30, NULL, &out, err, sizeof err), 2);
	rbuf_free(&out);
	char *a4[] = { ttypot, "lava", "definition", "--cases", "pty,serial", NULL };
	ATF_CHECK_EQ(capture_run(a4, NULL, 30, &out, NULL, err, sizeof err), 0);
	const char *d = rbuf_str(&out);
	ATF_CHECK_MSG(strstr(d, "from: inline") != NULL, "%s", d);
	ATF_CHECK_MSG(strstr(d, "fixtures/guest/lava-suite.sh") != NULL, "%s", d);
	ATF_CHECK_MSG(strstr(d, "FILTER: \"pty serial\"") != NULL, "%s", d);
	ATF_CHECK_MSG(strstr(d, "SUITE: \"/usr/local/lib/ttypot/tests\"") != NULL, "%s", d);
	rbuf_free(&out);
}

ATF_TP_ADD_TCS(tp)
{
	ATF_TP_ADD_TC(tp, job_yaml_boots_kernel_ramdisk_uarts_and_suite);
	ATF_TP_ADD_TC(tp, filter_with_shell_syntax_is_refused);
	ATF_TP_ADD_TC(tp, log_results_channel_becomes_the_column);
	ATF_TP_ADD_TC(tp, incomplete_job_is_error_column_with_lava_reason);
	ATF_TP_ADD_TC(tp, panic_and_deadline_follow_the_local_rules);
	ATF_TP_ADD_TC(tp, token_stays_off_command_lines_and_messages);
	ATF_TP_ADD_TC(tp, cli_usage_errors_and_board_definition);
	return atf_no_error();
}
