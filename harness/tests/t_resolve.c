// SPDX-License-Identifier: GPL-2.0-only
/* t_resolve.c: kernel_resolve() on local inputs (no network, no builds):
 * image checks, broken .debs, a kernel .deb built here, bad trees, the
 * host. */
#include <atf-c.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/utsname.h>
#include <unistd.h>

#include "guest.h"
#include "kutil.h"

/* Parse and resolve; returns kernel_resolve's result, err filled. */
static int
resolve(const char *text, struct kernel_info *k, char *err, size_t errlen)
{
	struct kspec s;
	ATF_REQUIRE_MSG(kspec_parse(text, &s, err, errlen) == 0, "%s", err);
	return kernel_resolve(&s, "cache", k, err, errlen);
}

static void
fixture(const atf_tc_t *tc, const char *name, char *out, size_t outlen)
{
	const char *src = atf_tc_get_config_var_wd(tc, "srcdir", ".");
	snprintf(out, outlen, "%s/../../fixtures/bad/%s", src, name);
	ATF_REQUIRE_MSG(access(out, R_OK) == 0, "fixture %s missing", out);
}

/* A minimal file that passes the bzImage header check. */
static void
fake_bzimage(const char *path, const char *version)
{
	unsigned char img[0x600];
	memset(img, 0, sizeof img);
	memcpy(img + 0x202, "HdrS", 4);
	unsigned off = 0x400 - 0x200;
	img[0x20e] = off & 0xff;
	img[0x20f] = off >> 8;
	memcpy(img + 0x400, version, strlen(version));
	int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0644);
	ATF_REQUIRE(fd >= 0);
	ATF_REQUIRE(write(fd, img, sizeof img) == (ssize_t)sizeof img);
	close(fd);
}

ATF_TC(host);
ATF_TC_HEAD(host, tc)
{
	atf_tc_set_md_var(tc, "descr", "host resolves to the running kernel "
			  "with no image");
}
ATF_TC_BODY(host, tc)
{
	struct kernel_info k;
	char err[1024];
	struct utsname u;
	ATF_REQUIRE(resolve("host", &k, err, sizeof err) == 0);
	uname(&u);
	ATF_CHECK_STREQ(k.image, "");
	ATF_CHECK_STREQ(k.label, "host");
	ATF_CHECK_STREQ(k.release, u.release);
	ATF_CHECK_STREQ(k.arch, u.machine);
}

ATF_TC(image_ok);
ATF_TC_HEAD(image_ok, tc)
{
	atf_tc_set_md_var(tc, "descr", "a file with the bzImage header is "
			  "accepted and its release read from the header");
}
ATF_TC_BODY(image_ok, tc)
{
	struct kernel_info k;
	char err[1024];
	fake_bzimage("vmlinuz-9.9.9-test", "9.9.9-test (me@here) #1 SMP");
	ATF_REQUIRE_MSG(resolve("vmlinuz-9.9.9-test", &k, err, sizeof err) == 0,
			"%s", err);
	ATF_CHECK_STREQ(k.release, "9.9.9-test");
	ATF_CHECK_STREQ(k.label, "vmlinuz-9.9.9-test");
	ATF_CHECK(k.image[0] == '/');
	ATF_CHECK(strstr(k.image, "/vmlinuz-9.9.9-test") != NULL);
	/* A config next to it gives the hash. */
	FILE *f = fopen("config-9.9.9-test", "w");
	ATF_REQUIRE(f);
	fputs("CONFIG_TTY=y\n", f);
	fclose(f);
	ATF_REQUIRE(resolve("vmlinuz-9.9.9-test", &k, err, sizeof err) == 0);
	ATF_CHECK_EQ(strlen(k.config_hash), 16);
}

ATF_TC(image_text_file);
ATF_TC_HEAD(image_text_file, tc)
{
	atf_tc_set_md_var(tc, "descr", "a text file is 'not a kernel image: PATH'");
}
ATF_TC_BODY(image_text_file, tc)
{
	struct kernel_info k;
	char err[1024], path[1024], want[1200];
	fixture(tc, "not-a-kernel.txt", path, sizeof path);
	ATF_CHECK_EQ(resolve(path, &k, err, sizeof err), -1);
	snprintf(want, sizeof want, "not a kernel image: %s", path);
	ATF_CHECK_MSG(strstr(err, want) != NULL, "got: %s", err);
	/* A short file too. */
	ATF_REQUIRE(close(open("empty", O_WRONLY | O_CREAT, 0644)) == 0);
	ATF_CHECK_EQ(resolve("empty", &k, err, sizeof err), -1);
	ATF_CHECK_MSG(strstr(err, "not a kernel image: empty") != NULL,
		      "got: %s", err);
}

ATF_TC(image_missing);
ATF_TC_HEAD(image_missing, tc)
{
	atf_tc_set_md_var(tc, "descr", "a missing image is an error naming it");
}
ATF_TC_BODY(image_missing, tc)
{
	struct kernel_info k;
	char err[1024];
	ATF_CHECK_EQ(resolve("no/such/bzImage", &k, err, sizeof err), -1);
	ATF_CHECK_MSG(strstr(err, "no/such/bzImage") != NULL, "got: %s", err);
	ATF_REQUIRE(mkdir("adir", 0755) == 0);
	ATF_CHECK_EQ(resolve("adir", &k, err, sizeof err), -1);
	ATF_CHECK_MSG(strstr(err, "not a kernel image") != NULL, "got: %s", err);
}

ATF_TC(deb_broken);
ATF_TC_HEAD(deb_broken, tc)
{
	atf_tc_set_md_var(tc, "descr", "a broken .deb file is an error naming "
			  "it, and leaves nothing half unpacked");
	atf_tc_set_md_var(tc, "require.progs", "dpkg-deb");
}
ATF_TC_BODY(deb_broken, tc)
{
	struct kernel_info k;
	char err[1024], path[1024];
	fixture(tc, "broken.deb", path, sizeof path);
	ATF_CHECK_EQ(resolve(path, &k, err, sizeof err), -1);
	ATF_CHECK_MSG(strstr(err, "broken .deb") != NULL, "got: %s", err);
	ATF_CHECK_MSG(strstr(err, "broken.deb") != NULL, "got: %s", err);
	ATF_CHECK_EQ(resolve("missing.deb", &k, err, sizeof err), -1);
	ATF_CHECK_MSG(strstr(err, "missing.deb") != NULL, "got: %s", err);
}

ATF_TC(deb_not_kernel);
ATF_TC_HEAD(deb_not_kernel, tc)
{
	atf_tc_set_md_var(tc, "descr", "a valid .deb without boot/vmlinuz-* "
			  "is 'not a kernel image package'");
	atf_tc_set_md_var(tc, "require.progs", "dpkg-deb");
}
ATF_TC_BODY(deb_not_kernel, tc)
{
	struct kernel_info k;
	char err[1024];
	ATF_REQUIRE(mkdir("pkg", 0755) == 0 && mkdir("pkg/DEBIAN", 0755) == 0);
	FILE *f = fopen("pkg/DEBIAN/control", "w");
	ATF_REQUIRE(f);
	fputs("Package: ttypot-test\nVersion: 1.0\nArchitecture: all\n"
	      "Maintainer: t <t@t>\nDescription: test\n", f);
	fclose(f);
	ATF_REQUIRE(system("dpkg-deb -b pkg notkernel.deb >/dev/null 2>&1") == 0);
	ATF_CHECK_EQ(resolve("notkernel.deb", &k, err, sizeof err), -1);
	ATF_CHECK_MSG(strstr(err, "not a kernel image package") != NULL,
		      "got: %s", err);
}

#define DEB_REL "6.1.0-99-amd64"

/* A kernel .deb built here as Debian's are laid out: boot/vmlinuz-REL (a
 * bzImage header), boot/config-REL holding config, lib/modules/REL/. */
static void
fake_kernel_deb(const char *deb, const char *config)
{
	char cmd[600];
	ATF_REQUIRE(ku_mkdir_p("kpkg/DEBIAN", 0755) == 0 &&
		    ku_mkdir_p("kpkg/boot", 0755) == 0 &&
		    ku_mkdir_p("kpkg/lib/modules/" DEB_REL "/kernel", 0755) == 0);
	const char *control = "Package: linux-image-" DEB_REL "\nVersion: 6.1.99-1\n"
			      "Architecture: amd64\nMaintainer: t <t@t>\n"
			      "Description: test\n";
	ATF_REQUIRE(ku_write_file("kpkg/DEBIAN/control", control, strlen(control)) == 0);
	ATF_REQUIRE(ku_write_file("kpkg/boot/config-" DEB_REL, config, strlen(config)) == 0);
	fake_bzimage("kpkg/boot/vmlinuz-" DEB_REL, DEB_REL " (t@t) #1 SMP");
	snprintf(cmd, sizeof cmd, "dpkg-deb -b kpkg %s >/dev/null 2>&1 && rm -r kpkg", deb);
	ATF_REQUIRE_MSG(system(cmd) == 0, "%s", cmd);
}

static bool
ends_with(const char *s, const char *tail)
{
	size_t n = strlen(s), t = strlen(tail);
	return n >= t && !strcmp(s + n - t, tail);
}

ATF_TC(deb_kernel_local);
ATF_TC_HEAD(deb_kernel_local, tc)
{
	atf_tc_set_md_var(tc, "descr", "a kernel .deb gives its boot/vmlinuz-REL, "
			  "release and label REL, the package version, lib/modules/REL and "
			  "the hash of boot/config-REL; with +compat32 a config without "
			  "CONFIG_IA32_EMULATION=y is an error naming that config and the "
			  ".deb, one with it resolves");
	atf_tc_set_md_var(tc, "require.progs", "dpkg-deb");
}
ATF_TC_BODY(deb_kernel_local, tc)
{
	struct kernel_info k;
	char err[1024], hex[65];
	const char *config = "CONFIG_TTY=y\n";
	fake_kernel_deb("k.deb", config);
	ATF_REQUIRE_MSG(resolve("k.deb", &k, err, sizeof err) == 0, "%s", err);
	ATF_CHECK_STREQ(k.release, DEB_REL);
	ATF_CHECK_STREQ(k.label, DEB_REL);
	ATF_CHECK_STREQ(k.version, "6.1.99-1");
	ATF_CHECK_STREQ(k.arch, "x86_64");
	ATF_CHECK_MSG(ends_with(k.image, "/boot/vmlinuz-" DEB_REL), "image %s", k.image);
	ATF_CHECK_MSG(ends_with(k.modules_dir, "/lib/modules/" DEB_REL), "modules %s",
		      k.modules_dir);
	ku_sha256_hex(config, strlen(config), hex);
	ATF_CHECK_MSG(!strncmp(k.config_hash, hex, 16), "config hash %s, want %.16s",
		      k.config_hash, hex);

	ATF_CHECK_EQ(resolve("k.deb+compat32", &k, err, sizeof err), -1);
	ATF_CHECK_MSG(strstr(err, "CONFIG_IA32_EMULATION=y") != NULL &&
		      strstr(err, "boot/config-" DEB_REL " of ") != NULL &&
		      strstr(err, "/k.deb") != NULL, "got: %s", err);

	fake_kernel_deb("k32.deb", "CONFIG_TTY=y\nCONFIG_IA32_EMULATION=y\n");
	ATF_REQUIRE_MSG(resolve("k32.deb+compat32", &k, err, sizeof err) == 0, "%s", err);
	ATF_CHECK_STREQ(k.abi, "compat32");
}

ATF_TC(tree_bad);
ATF_TC_HEAD(tree_bad, tc)
{
	atf_tc_set_md_var(tc, "descr", "tree: of a missing dir, a non-kernel "
			  "dir, or a tree with an in-tree build is an error, "
			  "and the tree is not written to");
}
ATF_TC_BODY(tree_bad, tc)
{
	struct kernel_info k;
	char err[1024];
	ATF_CHECK_EQ(resolve("tree:nosuchdir", &k, err, sizeof err), -1);
	ATF_CHECK_MSG(strstr(err, "nosuchdir") != NULL, "got: %s", err);
	ATF_REQUIRE(mkdir("notkernel", 0755) == 0);
	ATF_CHECK_EQ(resolve("tree:notkernel", &k, err, sizeof err), -1);
	ATF_CHECK_MSG(strstr(err, "not a kernel source tree: notkernel") != NULL,
		      "got: %s", err);
	/* Looks like a kernel tree but has an in-tree .config. */
	ATF_REQUIRE(mkdir("k", 0755) == 0 && mkdir("k/arch", 0755) == 0 &&
		    mkdir("k/arch/x86", 0755) == 0 &&
		    mkdir("k/arch/x86/boot", 0755) == 0);
	ATF_REQUIRE(close(open("k/Kconfig", O_WRONLY | O_CREAT, 0644)) == 0);
	ATF_REQUIRE(close(open("k/.config", O_WRONLY | O_CREAT, 0644)) == 0);
	ATF_CHECK_EQ(resolve("tree:k", &k, err, sizeof err), -1);
	ATF_CHECK_MSG(strstr(err, "in-tree build") != NULL, "got: %s", err);
	struct stat st;
	ATF_CHECK(stat("k/.config", &st) == 0 && st.st_size == 0);
}

ATF_TC(tree_without_build_tools);
ATF_TC_HEAD(tree_without_build_tools, tc)
{
	atf_tc_set_md_var(tc, "descr", "a tree: kernel on a machine without "
			  "the build tools names every missing one and how to "
			  "install them, before any make runs");
}
ATF_TC_BODY(tree_without_build_tools, tc)
{
	struct kernel_info k;
	char err[1024];
	ATF_REQUIRE(mkdir("k", 0755) == 0 && mkdir("k/arch", 0755) == 0 &&
		    mkdir("k/arch/x86", 0755) == 0 &&
		    mkdir("k/arch/x86/boot", 0755) == 0 && mkdir("bin", 0755) == 0);
	ATF_REQUIRE(close(open("k/Kconfig", O_WRONLY | O_CREAT, 0644)) == 0);
	/* a PATH with nothing in it: no make, no flex, no bison */
	char cwd[PATH_MAX], path[PATH_MAX + 8];
	ATF_REQUIRE(getcwd(cwd, sizeof cwd));
	snprintf(path, sizeof path, "%s/bin", cwd);
	ATF_REQUIRE(setenv("PATH", path, 1) == 0);
	ATF_CHECK_EQ(resolve("tree:k", &k, err, sizeof err), -1);
	ATF_CHECK_MSG(strstr(err, "missing: make gcc flex bison bc xz perl") &&
		      strstr(err, "harness/deps.sh matrix"), "got: %s", err);
}

/* Parse, set --arch, resolve. */
static int
resolve_arch(const char *text, const char *arch, struct kernel_info *k,
	     char *err, size_t errlen)
{
	struct kspec s;
	ATF_REQUIRE_MSG(kspec_parse(text, &s, err, errlen) == 0, "%s", err);
	ATF_REQUIRE_MSG(kspec_set_arch(&s, arch, err, errlen) == 0, "%s", err);
	return kernel_resolve(&s, "cache", k, err, errlen);
}

/* A file with an arm64 Image header ("ARM\x64" at 0x38) or a ppc64le ELF
 * header, and a "Linux version" string. */
static void
fake_foreign(const char *path, const char *arch, const char *version)
{
	unsigned char img[0x800];
	memset(img, 0, sizeof img);
	if (!strcmp(arch, "arm64")) {
		memcpy(img + 0x38, "ARM\x64", 4);
	} else {
		memcpy(img, "\177ELF", 4);
		img[4] = 2, img[5] = 1, img[18] = 21;
	}
	char v[256];
	snprintf(v, sizeof v, "Linux version %s (me@here) #1 SMP", version);
	memcpy(img + 0x400, v, strlen(v));
	int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0644);
	ATF_REQUIRE(fd >= 0);
	ATF_REQUIRE(write(fd, img, sizeof img) == (ssize_t)sizeof img);
	close(fd);
}

ATF_TC(image_foreign_arch);
ATF_TC_HEAD(image_foreign_arch, tc)
{
	atf_tc_set_md_var(tc, "descr", "an arm64 Image and a ppc64le vmlinux are "
			  "recognised by their headers: arch, release and a label "
			  "that names the arch");
}
ATF_TC_BODY(image_foreign_arch, tc)
{
	struct kernel_info k;
	char err[1024];
	fake_foreign("Image", "arm64", "9.9.9-a64");
	ATF_REQUIRE_MSG(resolve("Image", &k, err, sizeof err) == 0, "%s", err);
	ATF_CHECK_STREQ(k.arch, "arm64");
	ATF_CHECK_STREQ(k.abi, "");
	ATF_CHECK_STREQ(k.release, "9.9.9-a64");
	ATF_CHECK_STREQ(k.label, "Image [arm64]");
	fake_foreign("vmlinux", "ppc64le", "9.9.9-ppc");
	ATF_REQUIRE_MSG(resolve_arch("vmlinux", "ppc64el", &k, err, sizeof err) == 0,
			"%s", err);
	ATF_CHECK_STREQ(k.arch, "ppc64le");
	ATF_CHECK_STREQ(k.release, "9.9.9-ppc");
	ATF_CHECK_STREQ(k.label, "vmlinux [ppc64le]");
	/* x86 stays as it was: no suffix, arch filled. */
	fake_bzimage("bz", "9.9.9-x86 (me@here) #1");
	ATF_REQUIRE_MSG(resolve("bz", &k, err, sizeof err) == 0, "%s", err);
	ATF_CHECK_STREQ(k.arch, "x86_64");
	ATF_CHECK_STREQ(k.label, "bz");
	ATF_REQUIRE_MSG(resolve("bz+compat32", &k, err, sizeof err) == 0, "%s", err);
	ATF_CHECK_STREQ(k.abi, "compat32");
	ATF_CHECK_STREQ(k.label, "bz [x86_64-compat32]");
}

ATF_TC(image_arch_mismatch);
ATF_TC_HEAD(image_arch_mismatch, tc)
{
	atf_tc_set_md_var(tc, "descr", "--arch that the image's header "
			  "contradicts is an error naming the file and both arches");
}
ATF_TC_BODY(image_arch_mismatch, tc)
{
	struct kernel_info k;
	char err[1024];
	fake_foreign("Image", "arm64", "9.9.9-a64");
	ATF_CHECK_EQ(resolve_arch("Image", "ppc64le", &k, err, sizeof err), -1);
	ATF_CHECK_MSG(strstr(err, "not a ppc64le kernel image: Image") != NULL &&
		      strstr(err, "arm64") != NULL, "got: %s", err);
	fake_bzimage("bz", "9.9.9-x86 (me@here) #1");
	ATF_CHECK_EQ(resolve_arch("bz", "arm64", &k, err, sizeof err), -1);
	ATF_CHECK_MSG(strstr(err, "not a arm64 kernel image: bz") != NULL,
		      "got: %s", err);
}

ATF_TC(built_cross_unsupported);
ATF_TC_HEAD(built_cross_unsupported, tc)
{
	atf_tc_set_md_var(tc, "descr", "src:/tree: for another arch or "
			  "+compat32 say they are not supported yet, naming the spec");
}
ATF_TC_BODY(built_cross_unsupported, tc)
{
	struct kernel_info k;
	char err[1024];
	ATF_CHECK_EQ(resolve_arch("src:linux-source-6.12", "arm64", &k, err,
				  sizeof err), -1);
	ATF_CHECK_MSG(strstr(err, "'src:linux-source-6.12'") != NULL &&
		      strstr(err, "cross-building src: for arm64 is not "
			     "supported yet") != NULL, "got: %s", err);
	ATF_CHECK_EQ(resolve_arch("tree:k", "ppc64le", &k, err, sizeof err), -1);
	ATF_CHECK_MSG(strstr(err, "cross-building tree: for ppc64le") != NULL,
		      "got: %s", err);
	ATF_CHECK_EQ(resolve("tree:k+compat32", &k, err, sizeof err), -1);
	ATF_CHECK_MSG(strstr(err, "'tree:k+compat32'") != NULL &&
		      strstr(err, "IA32_EMULATION") != NULL, "got: %s", err);
}

ATF_TP_ADD_TCS(tp)
{
	ATF_TP_ADD_TC(tp, host);
	ATF_TP_ADD_TC(tp, image_ok);
	ATF_TP_ADD_TC(tp, image_text_file);
	ATF_TP_ADD_TC(tp, image_missing);
	ATF_TP_ADD_TC(tp, deb_broken);
	ATF_TP_ADD_TC(tp, deb_not_kernel);
	ATF_TP_ADD_TC(tp, deb_kernel_local);
	ATF_TP_ADD_TC(tp, tree_bad);
	ATF_TP_ADD_TC(tp, tree_without_build_tools);
	ATF_TP_ADD_TC(tp, image_foreign_arch);
	ATF_TP_ADD_TC(tp, image_arch_mismatch);
	ATF_TP_ADD_TC(tp, built_cross_unsupported);
	return atf_no_error();
}
