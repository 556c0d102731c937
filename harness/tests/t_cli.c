/* t_cli: command line, default kernel list, progress lines. */
#include <atf-c.h>

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "deflist.h"
#include "progress.h"
#include "proto.h"
#include "rbuf.h"

static int parse(struct cli *o, char *err, size_t errlen, ...)
{
	static char *argv[32];
	int argc = 0;
	va_list ap;
	va_start(ap, errlen);
	argv[argc++] = "ttypot";
	for (char *a; (a = va_arg(ap, char *));)
		argv[argc++] = a;
	va_end(ap);
	argv[argc] = NULL;
	return cli_parse(argc, argv, o, err, errlen);
}

ATF_TC(matrix_options);
ATF_TC_HEAD(matrix_options, tc)
{
	atf_tc_set_md_var(tc, "descr", "matrix takes its options in any order and both --opt forms");
}
ATF_TC_BODY(matrix_options, tc)
{
	struct cli o;
	char err[256];
	ATF_REQUIRE(parse(&o, err, sizeof err, "matrix", "host", "-o", "/tmp/x", "-j", "3",
			  "--baseline=host", "deb:linux-image-6.1.0-57-amd64", "--cases",
			  "pty,close", "--deadline", "600", (char *)NULL) == 0);
	ATF_CHECK_EQ(o.cmd, CMD_MATRIX);
	ATF_CHECK_STREQ(o.outdir, "/tmp/x");
	ATF_CHECK_EQ(o.jobs, 3);
	ATF_CHECK_STREQ(o.baseline, "host");
	ATF_CHECK_STREQ(o.cases, "pty,close");
	ATF_CHECK_EQ(o.deadline_s, 600);
	ATF_REQUIRE_EQ(o.nargs, 2);
	ATF_CHECK_STREQ(o.args[0], "host");
	ATF_CHECK_STREQ(o.args[1], "deb:linux-image-6.1.0-57-amd64");
	free(o.args);
	ATF_REQUIRE(parse(&o, err, sizeof err, "matrix", (char *)NULL) == 0);
	ATF_CHECK_EQ(o.nargs, 0);
	ATF_CHECK_STREQ(o.outdir, "reports");
	ATF_CHECK_EQ(o.deadline_s, CLI_DEFAULT_DEADLINE_S);
	free(o.args);
}

ATF_TC(usage_errors);
ATF_TC_HEAD(usage_errors, tc)
{
	atf_tc_set_md_var(tc, "descr", "Bad command lines are rejected with a message naming the problem");
}
ATF_TC_BODY(usage_errors, tc)
{
	struct cli o;
	char err[256];
	ATF_CHECK_EQ(parse(&o, err, sizeof err, (char *)NULL), -1);
	free(o.args);
	ATF_CHECK_EQ(parse(&o, err, sizeof err, "frobnicate", (char *)NULL), -1);
	ATF_CHECK(strstr(err, "frobnicate") != NULL);
	free(o.args);
	ATF_CHECK_EQ(parse(&o, err, sizeof err, "matrix", "--bogus", (char *)NULL), -1);
	ATF_CHECK(strstr(err, "--bogus") != NULL);
	free(o.args);
	ATF_CHECK_EQ(parse(&o, err, sizeof err, "matrix", "-j", "0", (char *)NULL), -1);
	ATF_CHECK(strstr(err, "-j") != NULL);
	free(o.args);
	ATF_CHECK_EQ(parse(&o, err, sizeof err, "matrix", "--deadline", "soon", (char *)NULL), -1);
	free(o.args);
	ATF_CHECK_EQ(parse(&o, err, sizeof err, "matrix", "-o", (char *)NULL), -1);
	ATF_CHECK(strstr(err, "-o") != NULL);
	free(o.args);
	ATF_CHECK_EQ(parse(&o, err, sizeof err, "run", "deb:x", (char *)NULL), -1);
	free(o.args);
	ATF_CHECK_EQ(parse(&o, err, sizeof err, "merge", "-o", "d", (char *)NULL), -1);
	free(o.args);
	ATF_CHECK_EQ(parse(&o, err, sizeof err, "report", (char *)NULL), -1);
	free(o.args);
	ATF_CHECK_EQ(parse(&o, err, sizeof err, "merge", "--help", (char *)NULL), 0);
	ATF_CHECK_EQ(o.cmd, CMD_HELP);
	free(o.args);
}

ATF_TC(default_kernels);
ATF_TC_HEAD(default_kernels, tc)
{
	atf_tc_set_md_var(tc, "descr", "The default list: host, newest and oldest 6.1 ABI, cloud, rt, 6.12 source");
}
ATF_TC_BODY(default_kernels, tc)
{
	const char *apt =
		"linux-image-6.1.0-47-amd64 - Linux 6.1 for 64-bit PCs (signed)\n"
		"linux-image-6.1.0-57-amd64 - Linux 6.1 for 64-bit PCs (signed)\n"
		"linux-image-6.1.0-9-amd64 - Linux 6.1 for 64-bit PCs (signed)\n"
		"linux-image-6.1.0-57-cloud-amd64 - cloud\n"
		"linux-image-6.1.0-56-rt-amd64 - rt\n"
		"linux-image-6.1.0-57-amd64-dbg - debug\n"
		"linux-source-6.12 - source\n";
	struct idlist l = {0};
	char err[256];
	ATF_REQUIRE(deflist_from_names(apt, &l, err, sizeof err) == 0);
	ATF_REQUIRE_EQ(l.n, 6);
	ATF_CHECK_STREQ(l.v[0], "host");
	ATF_CHECK_STREQ(l.v[1], "deb:linux-image-6.1.0-57-amd64");
	ATF_CHECK_STREQ(l.v[2], "deb:linux-image-6.1.0-9-amd64"); /* numeric, not text order */
	ATF_CHECK_STREQ(l.v[3], "deb:linux-image-6.1.0-57-cloud-amd64");
	ATF_CHECK_STREQ(l.v[4], "deb:linux-image-6.1.0-56-rt-amd64");
	ATF_CHECK_STREQ(l.v[5], "src:linux-source-6.12");
	idlist_free(&l);
	ATF_CHECK_EQ(deflist_from_names("", &l, err, sizeof err), -1);
	ATF_CHECK(strstr(err, "apt-get update") != NULL);
	ATF_CHECK_EQ(l.n, 0);
}

ATF_TC(progress_lines);
ATF_TC_HEAD(progress_lines, tc)
{
	atf_tc_set_md_var(tc, "descr", "Progress follows a growing results file: booting, then counts and failures");
}
ATF_TC_BODY(progress_lines, tc)
{
	FILE *f = fopen("k.results", "w");
	ATF_REQUIRE(f);
	struct progress p;
	progress_start(&p, 2, 5, "deb61", "k.results", 120, NULL);
	char line[256];
	progress_poll(&p);
	progress_text(&p, line, sizeof line);
	ATF_CHECK_STREQ(line, "[2/5] deb61: booting");
	struct rbuf b = {0};
	proto_line(&b, "begin uname=6.1.0 arch=x86_64 cases=3");
	proto_line(&b, "case pty/t_a:x pass 0.1 -");
	proto_line(&b, "case pty/t_a:y fail 0.1 -");
	fputs(b.s, f);
	fputs("@TTYPOT1 case pty/t_a:z pa", f); /* a line still being written */
	fflush(f);
	progress_poll(&p);
	progress_text(&p, line, sizeof line);
	ATF_CHECK_MSG(strstr(line, "[2/5] deb61: boot ") == line, "%s", line);
	ATF_CHECK_MSG(strstr(line, "2/3 cases, 1 failed") != NULL, "%s", line);
	rbuf_free(&b);
	proto_line(&b, "case pty/t_a:z broken 0.1 -");
	fputs(b.s, f);
	fclose(f);
	/* the partial line is completed by garbage + a full line: 3 cases */
	progress_poll(&p);
	progress_text(&p, line, sizeof line);
	ATF_CHECK_MSG(strstr(line, "3/3 cases, 2 failed") != NULL, "%s", line);
	struct column *c = col_new("deb61");
	progress_finish(&p, c);
	col_free(c);
	rbuf_free(&b);
}

ATF_TP_ADD_TCS(tp)
{
	ATF_TP_ADD_TC(tp, matrix_options);
	ATF_TP_ADD_TC(tp, usage_errors);
	ATF_TP_ADD_TC(tp, default_kernels);
	ATF_TP_ADD_TC(tp, progress_lines);
	return atf_no_error();
}
