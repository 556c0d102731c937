// SPDX-License-Identifier: GPL-2.0-only
/* t_help: every command answers --help and --version; help lists them all;
 * usage errors name the problem and exit with the command's usage code. */
#include <atf-c.h>

#include <limits.h>
#include <stdio.h>
#include <string.h>

#include "proc.h"

#define HELP_DEADLINE_S 30

static const char *const commands[] = {
	"matrix", "run", "report", "merge", "ci", "bisect-run", "mutants", "inventory",
};
#define NCOMMANDS (sizeof commands / sizeof *commands)

/* Run the ttypot next to this test program; its exit status, output in out. */
static int ttypot(const atf_tc_t *tc, struct rbuf *out, const char *a, const char *b,
		  const char *c)
{
	char exe[PATH_MAX], err[512];
	snprintf(exe, sizeof exe, "%s/../ttypot", atf_tc_get_config_var(tc, "srcdir"));
	char *argv[] = { exe, (char *)a, (char *)b, (char *)c, NULL };
	int st = capture_run(argv, NULL, HELP_DEADLINE_S, out, out, err, sizeof err);
	ATF_REQUIRE_MSG(st >= 0, "%s %s: %s", exe, a ? a : "", err);
	return st;
}

ATF_TC(every_command_has_help);
ATF_TC_HEAD(every_command_has_help, tc)
{
	atf_tc_set_md_var(tc, "descr", "ttypot COMMAND --help and ttypot help COMMAND print the "
			  "command's usage and exit 0, for all eight commands");
}
ATF_TC_BODY(every_command_has_help, tc)
{
	for (size_t i = 0; i < NCOMMANDS; i++) {
		char want[64];
		snprintf(want, sizeof want, "usage: ttypot %s ", commands[i]);
		struct rbuf out = {0};
		ATF_CHECK_EQ_MSG(ttypot(tc, &out, commands[i], "--help", NULL), 0, "%s --help",
				 commands[i]);
		ATF_CHECK_MSG(strstr(rbuf_str(&out), want) && strstr(rbuf_str(&out), "--help"),
			      "%s --help: %s", commands[i], rbuf_str(&out));
		rbuf_free(&out);
		ATF_CHECK_EQ_MSG(ttypot(tc, &out, "help", commands[i], NULL), 0, "help %s",
				 commands[i]);
		ATF_CHECK_MSG(strstr(rbuf_str(&out), want), "help %s: %s", commands[i],
			      rbuf_str(&out));
		rbuf_free(&out);
	}
}

ATF_TC(help_lists_all_commands);
ATF_TC_HEAD(help_lists_all_commands, tc)
{
	atf_tc_set_md_var(tc, "descr", "ttypot help lists every command (exit 0); no command "
			  "lists them on stderr (exit 2)");
}
ATF_TC_BODY(help_lists_all_commands, tc)
{
	struct rbuf out = {0}, none = {0};
	ATF_CHECK_EQ(ttypot(tc, &out, "help", NULL, NULL), 0);
	ATF_CHECK_EQ(ttypot(tc, &none, NULL, NULL, NULL), 2);
	for (size_t i = 0; i < NCOMMANDS; i++) {
		char line[64];
		snprintf(line, sizeof line, "  %s ", commands[i]);
		ATF_CHECK_MSG(strstr(rbuf_str(&out), line), "help lacks %s", commands[i]);
		ATF_CHECK_MSG(strstr(rbuf_str(&none), line), "no-command message lacks %s",
			      commands[i]);
	}
	rbuf_free(&out);
	rbuf_free(&none);
}

ATF_TC(version_everywhere);
ATF_TC_HEAD(version_everywhere, tc)
{
	atf_tc_set_md_var(tc, "descr", "ttypot --version and ttypot COMMAND --version print "
			  "\"ttypot VERSION\" and exit 0");
}
ATF_TC_BODY(version_everywhere, tc)
{
	struct rbuf out = {0};
	ATF_CHECK_EQ(ttypot(tc, &out, "--version", NULL, NULL), 0);
	ATF_CHECK_MSG(strncmp(rbuf_str(&out), "ttypot ", 7) == 0, "%s", rbuf_str(&out));
	rbuf_free(&out);
	for (size_t i = 0; i < NCOMMANDS; i++) {
		ATF_CHECK_EQ_MSG(ttypot(tc, &out, commands[i], "--version", NULL), 0, "%s",
				 commands[i]);
		ATF_CHECK_MSG(strncmp(rbuf_str(&out), "ttypot ", 7) == 0, "%s --version: %s",
			      commands[i], rbuf_str(&out));
		rbuf_free(&out);
	}
}

ATF_TC(usage_errors_exit_codes);
ATF_TC_HEAD(usage_errors_exit_codes, tc)
{
	atf_tc_set_md_var(tc, "descr", "An unknown option is named, with the command's usage "
			  "exit code: 2, and 125 (skip) for bisect-run");
}
ATF_TC_BODY(usage_errors_exit_codes, tc)
{
	for (size_t i = 0; i < NCOMMANDS; i++) {
		struct rbuf out = {0};
		int want = strcmp(commands[i], "bisect-run") ? 2 : 125;
		ATF_CHECK_EQ_MSG(ttypot(tc, &out, commands[i], "--no-such-option", NULL), want,
				 "%s", commands[i]);
		ATF_CHECK_MSG(strstr(rbuf_str(&out), "--no-such-option"), "%s: %s", commands[i],
			      rbuf_str(&out));
		rbuf_free(&out);
	}
}

ATF_TC(matrix_presets_and_arch);
ATF_TC_HEAD(matrix_presets_and_arch, tc)
{
	atf_tc_set_md_var(tc, "descr", "matrix --help names the presets and --arch (run's does not "
			  "take --arch); an unknown preset is named before any work, exit 2");
}
ATF_TC_BODY(matrix_presets_and_arch, tc)
{
	struct rbuf out = {0};
	ATF_CHECK_EQ(ttypot(tc, &out, "matrix", "--help", NULL), 0);
	const char *h = rbuf_str(&out);
	ATF_CHECK_MSG(strstr(h, "--arch ARCH") && strstr(h, "  abi ") && strstr(h, "  default ") &&
		      strstr(h, "+compat32") && strstr(h, "[:ARCH]"), "%s", h);
	rbuf_free(&out);
	ATF_CHECK_EQ(ttypot(tc, &out, "run", "--help", NULL), 0);
	ATF_CHECK_MSG(!strstr(rbuf_str(&out), "--arch"), "%s", rbuf_str(&out));
	rbuf_free(&out);
	ATF_CHECK_EQ(ttypot(tc, &out, "matrix", "abii", NULL), 2);
	ATF_CHECK_MSG(strstr(rbuf_str(&out), "'abii'") && strstr(rbuf_str(&out), "preset"), "%s",
		      rbuf_str(&out));
	rbuf_free(&out);
	ATF_CHECK_EQ(ttypot(tc, &out, "matrix", "--arch=arm64", "host"), 2);
	ATF_CHECK_MSG(strstr(rbuf_str(&out), "no kernel image path"), "%s", rbuf_str(&out));
	rbuf_free(&out);
}

ATF_TC(mutants_one_help_for_both_modes);
ATF_TC_HEAD(mutants_one_help_for_both_modes, tc)
{
	atf_tc_set_md_var(tc, "descr", "mutants --help, mutants --generate --help and help "
			  "mutants print the same help, naming both modes (patch files and "
			  "--generate) with the options of each, as the man page does");
}
ATF_TC_BODY(mutants_one_help_for_both_modes, tc)
{
	struct rbuf a = {0}, b = {0}, c = {0};
	ATF_CHECK_EQ(ttypot(tc, &a, "mutants", "--help", NULL), 0);
	ATF_CHECK_EQ(ttypot(tc, &b, "mutants", "--generate", "--help"), 0);
	ATF_CHECK_EQ(ttypot(tc, &c, "help", "mutants", NULL), 0);
	const char *h = rbuf_str(&a);
	ATF_CHECK_STREQ(h, rbuf_str(&b));
	ATF_CHECK_STREQ(h, rbuf_str(&c));
	/* Both synopses, and options only one mode has, from each. */
	static const char *const want[] = {
		"usage: ttypot mutants [OPTIONS] [PATCH...]",
		"ttypot mutants --generate [OPTIONS]",
		"--race-runs N", "--stop-on-kill", "--vars NAME=VALUE",
		"--sample N", "--seed S", "--resume DIR", "--rerun-survivors", "--rerun KEYS",
		"--map FILE", "--files LIST", "--list", "--keys LIST", "--patch KEY",
		"fixtures/mutants/*.patch", "-h, --help",
	};
	for (size_t i = 0; i < sizeof want / sizeof *want; i++)
		ATF_CHECK_MSG(strstr(h, want[i]), "mutants --help lacks '%s':\n%s", want[i], h);
	rbuf_free(&a);
	rbuf_free(&b);
	rbuf_free(&c);
}

ATF_TP_ADD_TCS(tp)
{
	ATF_TP_ADD_TC(tp, every_command_has_help);
	ATF_TP_ADD_TC(tp, help_lists_all_commands);
	ATF_TP_ADD_TC(tp, version_everywhere);
	ATF_TP_ADD_TC(tp, usage_errors_exit_codes);
	ATF_TP_ADD_TC(tp, matrix_presets_and_arch);
	ATF_TP_ADD_TC(tp, mutants_one_help_for_both_modes);
	return atf_no_error();
}
