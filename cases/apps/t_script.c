// SPDX-License-Identifier: GPL-2.0-only
/*
 * t_script.c: util-linux script(1) recording a command.  script runs the
 * command on a pty of its own and copies what it reads from that pty's
 * master into the typescript file and to its own terminal (ours, another
 * pty).  A command that prints N numbered lines and exits at once must
 * leave every byte in the typescript, between script's header and its
 * "Script done" line, and script -e must return the command's status.
 */
#include "app_run.h"

#define SCRIPT "/usr/bin/script"
#define ROUNDS 3

static void
record(const atf_tc_t *tc, long n, long round)
{
	const char *wd = app_workdir(tc);
	char ts[PATH_MAX], cmd[64], what[160];
	snprintf(ts, sizeof ts, "%s/typescript-%ld-%ld", wd, n, round);
	snprintf(cmd, sizeof cmd, "seq 1 %ld; exit 7", n);
	snprintf(what, sizeof what, "round %ld, script -e -c '%s'", round, cmd);
	const char *argv[] = {SCRIPT, "-q", "-e", "-c", cmd, ts, NULL};
	struct app a;
	struct app_buf term = {0}, file = {0};
	app_spawn(&a, tc, argv, NULL, true, 24, 80);
	app_read(a.fd, &term, NULL, APP_WAIT_MS, what);
	close(a.fd);
	int st = app_wait(&a, APP_WAIT_MS, what);
	if (!WIFEXITED(st) || WEXITSTATUS(st) != 7)
		atf_tc_fail("%s: %s, want exit 7 (the command's status); on its "
			    "terminal: \"%s\"", what, app_status(st),
			    tp_esc(term.p, term.len > 300 ? 300 : term.len));
	if (!app_read_file(ts, &file))
		atf_tc_fail("%s: no typescript %s", what, ts);
	/* The header is one line; the command's bytes follow exactly as it
	 * wrote them through script's pty (ONLCR: "\r\n"). */
	if (strncmp(file.p, "Script started on ", 18) != 0)
		atf_tc_fail("%s: the typescript starts \"%s\", want \"Script "
			    "started on \"", what, tp_esc(file.p, file.len > 80 ? 80 : file.len));
	const char *body = strchr(file.p, '\n');
	body = body ? body + 1 : file.p + file.len;
	struct app_buf want = {0};
	for (long i = 1; i <= n; i++) {
		char line[32];
		int l = snprintf(line, sizeof line, "%ld\r\n", i);
		app_buf_add(&want, line, (size_t)l);
	}
	size_t have = file.len - (size_t)(body - file.p);
	size_t same = 0;
	while (same < want.len && same < have && body[same] == want.p[same])
		same++;
	if (same < want.len)
		atf_tc_fail("%s: the typescript differs from the command's output "
			    "at byte %zu of %zu: \"%s\" where \"%s\" was written",
			    what, same, want.len,
			    tp_esc(body + same, have - same > 40 ? 40 : have - same),
			    tp_esc(want.p + same, want.len - same > 40 ? 40 : want.len - same));
	const char *rest = body + want.len;
	if (!strstr(rest, "Script done on "))
		atf_tc_fail("%s: after the output the typescript has \"%s\", want "
			    "script's \"Script done on\" line", what,
			    tp_esc(rest, strlen(rest) > 120 ? 120 : strlen(rest)));
	/* The copy on script's own terminal has every line too. */
	app_buf_strip_cr(&term);
	app_check_seq(term.p, n, "the output script copied to its terminal");
	app_buf_free(&want);
	app_buf_free(&term);
	app_buf_free(&file);
}

TP_CASE_TIMEOUT(typescript_whole, TP_LINUX, APP_TIMEOUT_S,
		"script -e -c recording a command that prints N lines (1, "
		"1000, 20000) and exits 7 at once: the typescript has every "
		"byte it wrote, script's terminal every line, and script "
		"returns 7; apps_rounds times")
{
	static const long sizes[] = {1, 1000, 20000};
	app_require(tc, SCRIPT);
	long rounds = tp_config_long(tc, "apps_rounds", ROUNDS);
	for (long r = 1; r <= rounds; r++)
		for (size_t i = 0; i < sizeof sizes / sizeof *sizes; i++)
			record(tc, sizes[i], r);
}

ATF_TP_ADD_TCS(tp)
{
	ATF_TP_ADD_TC(tp, typescript_whole);
	return atf_no_error();
}
