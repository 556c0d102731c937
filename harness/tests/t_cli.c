// SPDX-License-Identifier: GPL-2.0-only
/* t_cli: command line, kernel presets (default, abi), --arch, progress lines. */
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

ATF_TC(vars_option);
ATF_TC_HEAD(vars_option, tc)
{
	atf_tc_set_md_var(tc, "descr", "matrix and run take --vars NAME=VALUE,... as Kyua's "
			  "'-v test_suites.ttypot.NAME=VALUE' words; a malformed pair is named, "
			  "and report has no --vars");
}
ATF_TC_BODY(vars_option, tc)
{
	struct cli o;
	char err[256];
	ATF_REQUIRE(parse(&o, err, sizeof err, "matrix", "--vars",
			  "compile_iterations=100,debian_root=/srv/root", "host", (char *)NULL) == 0);
	ATF_CHECK_STREQ(o.kyua_vars, "-v test_suites.ttypot.compile_iterations=100 "
			"-v test_suites.ttypot.debian_root=/srv/root");
	free(o.args);
	free(o.kyua_vars);
	ATF_REQUIRE(parse(&o, err, sizeof err, "run", (char *)NULL) == 0);
	ATF_CHECK(o.kyua_vars == NULL);
	free(o.args);
	static const char *const bad[] = {"a b=1", "x=1,=2", "x=", "x", "x=1;rm", "x=1,,y=2"};
	for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
		ATF_CHECK_EQ_MSG(parse(&o, err, sizeof err, "run", "--vars", bad[i], (char *)NULL),
				 -1, "--vars '%s' accepted", bad[i]);
		ATF_CHECK_MSG(strstr(err, "--vars") && strstr(err, "NAME=VALUE"), "%s", err);
		free(o.args);
		free(o.kyua_vars);
	}
	ATF_CHECK_EQ(parse(&o, err, sizeof err, "report", "--vars", "a=1", "x.json", (char *)NULL),
		     -1);
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

/* Fake apt lists: the search answer, and the PKG:ARCH pairs that exist. */
struct fake_apt {
	const char *names;
	const char *have; /* "pkg:arch pkg:arch ..." */
	int searches, lookups;
};

static int fake_search(void *ctx, const char *regex, struct rbuf *out, char *err,
		       size_t errlen)
{
	(void)regex;
	(void)err;
	(void)errlen;
	struct fake_apt *f = ctx;
	f->searches++;
	rbuf_add(out, f->names);
	return 0;
}

static int fake_has(void *ctx, const char *const *pkgs, const char *const *archs,
		    size_t n, bool *found, char *err, size_t errlen)
{
	(void)err;
	(void)errlen;
	struct fake_apt *f = ctx;
	f->lookups++;
	for (size_t i = 0; i < n; i++) {
		char q[200];
		snprintf(q, sizeof q, " %s:%s ", pkgs[i], archs[i]);
		char hay[1024];
		snprintf(hay, sizeof hay, " %s ", f->have);
		found[i] = strstr(hay, q) != NULL;
	}
	return 0;
}

static const char *const apt57 =
	"linux-image-6.1.0-47-amd64 - Linux 6.1 for 64-bit PCs (signed)\n"
	"linux-image-6.1.0-57-amd64 - Linux 6.1 for 64-bit PCs (signed)\n"
	"linux-image-6.1.0-57-cloud-amd64 - cloud\n"
	"linux-source-6.12 - source\n";
static const char *const have57 =
	"linux-image-6.1.0-57-amd64:amd64 linux-image-6.1.0-57-arm64:arm64 "
	"linux-image-6.1.0-57-powerpc64le:ppc64el";

ATF_TC(abi_preset);
ATF_TC_HEAD(abi_preset, tc)
{
	atf_tc_set_md_var(tc, "descr", "The abi preset: the newest 6.1 ABI as x86_64, x86_64-compat32, arm64 and ppc64le specs");
}
ATF_TC_BODY(abi_preset, tc)
{
	struct fake_apt f = { apt57, have57, 0, 0 };
	struct apt_src src = { fake_search, fake_has, &f };
	char *args[] = { "abi" };
	struct idlist l = {0};
	char err[512];
	ATF_REQUIRE_MSG(deflist_expand(&src, args, 1, &l, err, sizeof err) == 0, "%s", err);
	ATF_REQUIRE_EQ(l.n, 4);
	ATF_CHECK_STREQ(l.v[0], "deb:linux-image-6.1.0-57-amd64");
	ATF_CHECK_STREQ(l.v[1], "deb:linux-image-6.1.0-57-amd64+compat32");
	ATF_CHECK_STREQ(l.v[2], "deb:linux-image-6.1.0-57-arm64:arm64");
	ATF_CHECK_STREQ(l.v[3], "deb:linux-image-6.1.0-57-powerpc64le:ppc64el");
	ATF_CHECK_EQ(f.searches, 1);
	ATF_CHECK_EQ(f.lookups, 1);
	/* each parses to its arch and ABI */
	struct kspec k[4];
	ATF_REQUIRE_MSG(deflist_parse_specs(&l, NULL, k, err, sizeof err) == 0, "%s", err);
	const char *arch[] = { "x86_64", "x86_64", "arm64", "ppc64le" };
	const char *abi[] = { "", "compat32", "", "" };
	for (int i = 0; i < 4; i++) {
		ATF_CHECK_EQ(k[i].kind, KSPEC_DEB);
		ATF_CHECK_STREQ(k[i].arch, arch[i]);
		ATF_CHECK_STREQ(k[i].abi, abi[i]);
	}
	ATF_CHECK_STREQ(k[2].arg, "linux-image-6.1.0-57-arm64");
	ATF_CHECK_STREQ(k[3].arg, "linux-image-6.1.0-57-powerpc64le");
	idlist_free(&l);
}

ATF_TC(abi_preset_missing);
ATF_TC_HEAD(abi_preset_missing, tc)
{
	atf_tc_set_md_var(tc, "descr", "A package the abi preset needs and the apt lists lack is named; no lists at all too");
}
ATF_TC_BODY(abi_preset_missing, tc)
{
	struct fake_apt f = { apt57, "linux-image-6.1.0-57-amd64:amd64 "
			      "linux-image-6.1.0-57-arm64:arm64", 0, 0 };
	struct apt_src src = { fake_search, fake_has, &f };
	char *args[] = { "host", "abi" };
	struct idlist l = {0};
	char err[512];
	ATF_CHECK_EQ(deflist_expand(&src, args, 2, &l, err, sizeof err), -1);
	ATF_CHECK_MSG(strstr(err, "linux-image-6.1.0-57-powerpc64le:ppc64el") != NULL, "%s", err);
	ATF_CHECK_MSG(strstr(err, "abi") != NULL, "%s", err);
	idlist_free(&l);
	/* an arm64 package of the newest ABI under the amd64 name only is no arm64 package */
	f.have = "linux-image-6.1.0-57-amd64:amd64 linux-image-6.1.0-57-arm64:amd64 "
		 "linux-image-6.1.0-57-powerpc64le:ppc64el";
	ATF_CHECK_EQ(deflist_expand(&src, args + 1, 1, &l, err, sizeof err), -1);
	ATF_CHECK_MSG(strstr(err, "linux-image-6.1.0-57-arm64:arm64") != NULL, "%s", err);
	idlist_free(&l);
	f.names = "";
	ATF_CHECK_EQ(deflist_expand(&src, args + 1, 1, &l, err, sizeof err), -1);
	ATF_CHECK_MSG(strstr(err, "apt-get update") != NULL, "%s", err);
	idlist_free(&l);
}

ATF_TC(presets_mix);
ATF_TC_HEAD(presets_mix, tc)
{
	atf_tc_set_md_var(tc, "descr", "Presets expand in place among explicit specs; no kernels is default; unknown presets are named");
}
ATF_TC_BODY(presets_mix, tc)
{
	struct fake_apt f = { apt57, have57, 0, 0 };
	struct apt_src src = { fake_search, fake_has, &f };
	struct idlist l = {0};
	char err[512];
	char *mixed[] = { "host", "abi", "tree:/src/linux" };
	ATF_REQUIRE_MSG(deflist_expand(&src, mixed, 3, &l, err, sizeof err) == 0, "%s", err);
	ATF_REQUIRE_EQ(l.n, 6);
	ATF_CHECK_STREQ(l.v[0], "host");
	ATF_CHECK_STREQ(l.v[1], "deb:linux-image-6.1.0-57-amd64");
	ATF_CHECK_STREQ(l.v[4], "deb:linux-image-6.1.0-57-powerpc64le:ppc64el");
	ATF_CHECK_STREQ(l.v[5], "tree:/src/linux");
	idlist_free(&l);
	/* default + abi: one search, the shared amd64 spec once */
	f.searches = 0;
	char *both[] = { "default", "abi" };
	ATF_REQUIRE_MSG(deflist_expand(&src, both, 2, &l, err, sizeof err) == 0, "%s", err);
	ATF_CHECK_EQ(f.searches, 1);
	ATF_REQUIRE_EQ(l.n, 5 + 3);
	ATF_CHECK_STREQ(l.v[0], "host");
	ATF_CHECK_STREQ(l.v[1], "deb:linux-image-6.1.0-57-amd64");
	ATF_CHECK_STREQ(l.v[5], "deb:linux-image-6.1.0-57-amd64+compat32");
	idlist_free(&l);
	/* nothing given: the default preset */
	ATF_REQUIRE(deflist_expand(&src, NULL, 0, &l, err, sizeof err) == 0);
	ATF_CHECK_EQ(l.n, 5);
	idlist_free(&l);
	/* explicit specs need no apt lists */
	f.searches = 0;
	char *plain[] = { "host", "deb:linux-image-6.1.0-9-amd64" };
	ATF_REQUIRE(deflist_expand(&src, plain, 2, &l, err, sizeof err) == 0);
	ATF_CHECK_EQ(f.searches, 0);
	ATF_CHECK_EQ(l.n, 2);
	idlist_free(&l);
	/* a bare word that is no preset and no file */
	char *typo[] = { "host", "abis" };
	ATF_CHECK_EQ(deflist_expand(&src, typo, 2, &l, err, sizeof err), -1);
	ATF_CHECK_MSG(strstr(err, "'abis'") && strstr(err, "default, abi"), "%s", err);
	idlist_free(&l);
	/* ... but an image file of that name is that file */
	FILE *img = fopen("vmlinuz", "w");
	ATF_REQUIRE(img);
	fclose(img);
	char *file[] = { "vmlinuz" };
	ATF_REQUIRE_MSG(deflist_expand(&src, file, 1, &l, err, sizeof err) == 0, "%s", err);
	ATF_CHECK_STREQ(l.v[0], "vmlinuz");
	idlist_free(&l);
}

ATF_TC(arch_option);
ATF_TC_HEAD(arch_option, tc)
{
	atf_tc_set_md_var(tc, "descr", "matrix --arch ARCH sets the arch of image paths only; bad or pointless uses are errors");
}
ATF_TC_BODY(arch_option, tc)
{
	struct cli o;
	char err[512];
	ATF_REQUIRE_MSG(parse(&o, err, sizeof err, "matrix", "--arch", "aarch64", "/boot/Image",
			      "deb:linux-image-6.1.0-57-amd64", "host", (char *)NULL) == 0, "%s", err);
	ATF_CHECK_STREQ(o.arch, "aarch64");
	struct idlist l = {0};
	for (int i = 0; i < o.nargs; i++)
		idlist_add(&l, o.args[i]);
	struct kspec k[3];
	ATF_REQUIRE_MSG(deflist_parse_specs(&l, o.arch, k, err, sizeof err) == 0, "%s", err);
	ATF_CHECK_EQ(k[0].kind, KSPEC_IMAGE);
	ATF_CHECK_STREQ(k[0].arch, "arm64");
	ATF_CHECK(k[0].arch_given);
	ATF_CHECK_STREQ(k[1].arch, "x86_64"); /* a deb: says its own */
	ATF_CHECK(!k[1].arch_given);
	ATF_CHECK_STREQ(k[2].arch, "x86_64");
	free(o.args);
	/* an image with +compat32 is x86_64 only */
	idlist_free(&l);
	idlist_add(&l, "/boot/vmlinuz+compat32");
	ATF_CHECK_EQ(deflist_parse_specs(&l, "ppc64le", k, err, sizeof err), -1);
	ATF_CHECK_MSG(strstr(err, "compat32") != NULL, "%s", err);
	ATF_REQUIRE(deflist_parse_specs(&l, "amd64", k, err, sizeof err) == 0);
	ATF_CHECK_STREQ(k[0].arch, "x86_64");
	ATF_CHECK_STREQ(k[0].abi, "compat32");
	/* no image to apply it to */
	idlist_free(&l);
	idlist_add(&l, "host");
	ATF_CHECK_EQ(deflist_parse_specs(&l, "arm64", k, err, sizeof err), -1);
	ATF_CHECK_MSG(strstr(err, "--arch") != NULL, "%s", err);
	idlist_free(&l);
	ATF_CHECK_EQ(parse(&o, err, sizeof err, "matrix", "--arch", "sparc", "/boot/x", (char *)NULL), -1);
	ATF_CHECK_MSG(strstr(err, "sparc") != NULL, "%s", err);
	free(o.args);
	ATF_CHECK_EQ(parse(&o, err, sizeof err, "run", "--arch", "arm64", (char *)NULL), -1);
	ATF_CHECK_MSG(strstr(err, "--arch") != NULL, "%s", err);
	free(o.args);
	ATF_CHECK_EQ(parse(&o, err, sizeof err, "merge", "--arch", "arm64", "a.json", (char *)NULL), -1);
	free(o.args);
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
	ATF_TP_ADD_TC(tp, vars_option);
	ATF_TP_ADD_TC(tp, default_kernels);
	ATF_TP_ADD_TC(tp, abi_preset);
	ATF_TP_ADD_TC(tp, abi_preset_missing);
	ATF_TP_ADD_TC(tp, presets_mix);
	ATF_TP_ADD_TC(tp, arch_option);
	ATF_TP_ADD_TC(tp, progress_lines);
	return atf_no_error();
}
