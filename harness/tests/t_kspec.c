// SPDX-License-Identifier: GPL-2.0-only
/* t_kspec.c: kernel spec parsing, every form and the bad ones. */
#include <atf-c.h>
#include <string.h>

#include "guest.h"

static struct kspec
parse_ok(const char *text)
{
	struct kspec s;
	char err[512] = "";
	ATF_REQUIRE_MSG(kspec_parse(text, &s, err, sizeof err) == 0,
			"'%s' rejected: %s", text, err);
	ATF_CHECK_STREQ(s.text, text);
	return s;
}

/* A bad spec fails with a message that names it. */
static void
parse_bad(const char *text, const char *why)
{
	struct kspec s;
	char err[512] = "";
	ATF_CHECK_MSG(kspec_parse(text, &s, err, sizeof err) == -1,
		      "'%s' accepted", text);
	ATF_CHECK_MSG(strstr(err, text) != NULL,
		      "error for '%s' does not name it: %s", text, err);
	ATF_CHECK_MSG(strstr(err, why) != NULL,
		      "error for '%s' does not say '%s': %s", text, why, err);
}

ATF_TC(host);
ATF_TC_HEAD(host, tc)
{
	atf_tc_set_md_var(tc, "descr", "'host' is the running kernel");
}
ATF_TC_BODY(host, tc)
{
	struct kspec s = parse_ok("host");
	ATF_CHECK_EQ(s.kind, KSPEC_HOST);
	ATF_CHECK_STREQ(s.arg, "");
}

ATF_TC(image_paths);
ATF_TC_HEAD(image_paths, tc)
{
	atf_tc_set_md_var(tc, "descr", "a path is a kernel image, kept as "
			  "written (no file system access while parsing)");
}
ATF_TC_BODY(image_paths, tc)
{
	struct kspec s = parse_ok("/boot/vmlinuz-6.1.0-41-amd64");
	ATF_CHECK_EQ(s.kind, KSPEC_IMAGE);
	ATF_CHECK_STREQ(s.arg, "/boot/vmlinuz-6.1.0-41-amd64");
	s = parse_ok("build/arch/x86/boot/bzImage");
	ATF_CHECK_EQ(s.kind, KSPEC_IMAGE);
	ATF_CHECK_STREQ(s.arg, "build/arch/x86/boot/bzImage");
	/* A colon after a slash is part of a path, not a kind. */
	s = parse_ok("./odd:name/bzImage");
	ATF_CHECK_EQ(s.kind, KSPEC_IMAGE);
	s = parse_ok("/does/not/exist");
	ATF_CHECK_EQ(s.kind, KSPEC_IMAGE);
}

ATF_TC(deb_package);
ATF_TC_HEAD(deb_package, tc)
{
	atf_tc_set_md_var(tc, "descr", "deb:PACKAGE and deb:PACKAGE=VERSION");
}
ATF_TC_BODY(deb_package, tc)
{
	struct kspec s = parse_ok("deb:linux-image-6.1.0-41-amd64");
	ATF_CHECK_EQ(s.kind, KSPEC_DEB);
	ATF_CHECK(!s.deb_is_file);
	ATF_CHECK_STREQ(s.arg, "linux-image-6.1.0-41-amd64");
	ATF_CHECK_STREQ(s.version, "");
	s = parse_ok("deb:linux-image-6.1.0-41-amd64=6.1.158-1");
	ATF_CHECK_EQ(s.kind, KSPEC_DEB);
	ATF_CHECK_STREQ(s.arg, "linux-image-6.1.0-41-amd64");
	ATF_CHECK_STREQ(s.version, "6.1.158-1");
	s = parse_ok("deb:linux-image-amd64=1:6.1+deb12u1~bpo");
	ATF_CHECK_STREQ(s.version, "1:6.1+deb12u1~bpo");
}

ATF_TC(deb_file);
ATF_TC_HEAD(deb_file, tc)
{
	atf_tc_set_md_var(tc, "descr", "a path ending in .deb is a package file");
}
ATF_TC_BODY(deb_file, tc)
{
	struct kspec s = parse_ok("/tmp/linux-image-6.1.0-41-amd64_6.1.158-1_amd64.deb");
	ATF_CHECK_EQ(s.kind, KSPEC_DEB);
	ATF_CHECK(s.deb_is_file);
	ATF_CHECK_STREQ(s.arg, "/tmp/linux-image-6.1.0-41-amd64_6.1.158-1_amd64.deb");
	s = parse_ok("k.deb");
	ATF_CHECK(s.deb_is_file);
}

ATF_TC(src);
ATF_TC_HEAD(src, tc)
{
	atf_tc_set_md_var(tc, "descr", "src:linux-source-X.Y");
}
ATF_TC_BODY(src, tc)
{
	struct kspec s = parse_ok("src:linux-source-6.12");
	ATF_CHECK_EQ(s.kind, KSPEC_SRC);
	ATF_CHECK_STREQ(s.arg, "linux-source-6.12");
	s = parse_ok("src:linux-source-6.1");
	ATF_CHECK_STREQ(s.arg, "linux-source-6.1");
}

ATF_TC(tree);
ATF_TC_HEAD(tree, tc)
{
	atf_tc_set_md_var(tc, "descr", "tree:DIR keeps the directory as written");
}
ATF_TC_BODY(tree, tc)
{
	struct kspec s = parse_ok("tree:/src/linux");
	ATF_CHECK_EQ(s.kind, KSPEC_TREE);
	ATF_CHECK_STREQ(s.arg, "/src/linux");
	s = parse_ok("tree:../linux");
	ATF_CHECK_STREQ(s.arg, "../linux");
}

ATF_TC(bad_specs);
ATF_TC_HEAD(bad_specs, tc)
{
	atf_tc_set_md_var(tc, "descr", "syntax errors are rejected with a "
			  "message naming the input");
}
ATF_TC_BODY(bad_specs, tc)
{
	parse_bad("deb:", "package name");
	parse_bad("deb:=6.1", "package name");
	parse_bad("deb:Linux-Image", "not a valid Debian package name");
	parse_bad("deb:linux image", "not a valid Debian package name");
	parse_bad("deb:linux-image-amd64=", "version");
	parse_bad("deb:linux-image-amd64=abc", "version");
	parse_bad("src:", "linux-source");
	parse_bad("src:linux-6.12", "linux-source");
	parse_bad("src:linux-source-", "linux-source");
	parse_bad("src:linux-source-6", "linux-source");
	parse_bad("src:linux-source-6.12x", "linux-source");
	parse_bad("src:linux-source-6.12.1", "linux-source");
	parse_bad("tree:", "source directory");
	parse_bad("foo:bar", "unknown kind");
	parse_bad("hots:", "unknown kind");
	parse_bad("/boot/", "directory");
	parse_bad("bad\tname", "control character");
}

ATF_TC(empty_and_long);
ATF_TC_HEAD(empty_and_long, tc)
{
	atf_tc_set_md_var(tc, "descr", "an empty or overlong spec is an error");
}
ATF_TC_BODY(empty_and_long, tc)
{
	struct kspec s;
	char err[1024] = "";
	ATF_CHECK_EQ(kspec_parse("", &s, err, sizeof err), -1);
	ATF_CHECK_MSG(strstr(err, "empty") != NULL, "%s", err);
	char big[600];
	memset(big, 'a', sizeof big - 1);
	big[sizeof big - 1] = '\0';
	ATF_CHECK_EQ(kspec_parse(big, &s, err, sizeof err), -1);
	ATF_CHECK_MSG(strstr(err, "too long") != NULL, "%s", err);
}

ATF_TC(debug_flavour);
ATF_TC_HEAD(debug_flavour, tc)
{
	atf_tc_set_md_var(tc, "descr", "+debug after src: or tree: names the debug "
			  "flavour (with +compat32 in either order); after any other "
			  "kind it is an error naming the spec");
}
ATF_TC_BODY(debug_flavour, tc)
{
	struct kspec s = parse_ok("src:linux-source-6.12+debug");
	ATF_CHECK_EQ(s.kind, KSPEC_SRC);
	ATF_CHECK_STREQ(s.arg, "linux-source-6.12");
	ATF_CHECK_STREQ(s.flavour, "debug");
	s = parse_ok("tree:/src/linux+debug");
	ATF_CHECK_EQ(s.kind, KSPEC_TREE);
	ATF_CHECK_STREQ(s.arg, "/src/linux");
	ATF_CHECK_STREQ(s.flavour, "debug");
	s = parse_ok("src:linux-source-6.12");
	ATF_CHECK_STREQ(s.flavour, "");
	s = parse_ok("tree:/src/linux+compat32+debug");
	ATF_CHECK_STREQ(s.flavour, "debug");
	ATF_CHECK_STREQ(s.abi, "compat32");
	ATF_CHECK_STREQ(s.arg, "/src/linux");
	s = parse_ok("tree:/src/linux+debug+compat32");
	ATF_CHECK_STREQ(s.flavour, "debug");
	ATF_CHECK_STREQ(s.abi, "compat32");
	parse_bad("deb:linux-image-amd64+debug", "follows a src: or tree: spec");
	parse_bad("host+debug", "follows a src: or tree: spec");
	parse_bad("/boot/vmlinuz+debug", "follows a src: or tree: spec");
}

ATF_TP_ADD_TCS(tp)
{
	ATF_TP_ADD_TC(tp, debug_flavour);
	ATF_TP_ADD_TC(tp, host);
	ATF_TP_ADD_TC(tp, image_paths);
	ATF_TP_ADD_TC(tp, deb_package);
	ATF_TP_ADD_TC(tp, deb_file);
	ATF_TP_ADD_TC(tp, src);
	ATF_TP_ADD_TC(tp, tree);
	ATF_TP_ADD_TC(tp, bad_specs);
	ATF_TP_ADD_TC(tp, empty_and_long);
	return atf_no_error();
}
