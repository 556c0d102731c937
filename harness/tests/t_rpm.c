// SPDX-License-Identifier: GPL-2.0-only
/* t_rpm: rpm: kernels.  RPMs built here by rpmbuild in Fedora's layout
 * (kernel-core with lib/modules/REL/vmlinuz and a %ghost boot/vmlinuz-REL,
 * the tty ldiscs .ko.xz in kernel-modules-core, zstd payloads) and SUSE's
 * (kernel-default with boot/vmlinuz-REL and .ko.zst modules) are unpacked
 * byte for byte; bad RPMs are errors naming them; and Debian's current
 * kernel packaged as Fedora's kernel-core boots with the same cells as the
 * .deb it came from. */
#include <atf-c.h>

#include <fcntl.h>
#include <jansson.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "e2e.h"
#include "guest.h"
#include "kutil.h"
#include "proc.h"
#include "rbuf.h"

#pragma GCC diagnostic ignored "-Wformat-truncation"

#define RPMBUILD_S 300
/* The guest case: unpack, initramfs, two boots under TCG on a loaded machine. */
#define MATRIX_S 900
#define SUBSET "regress/t_n_hdlc,pty/t_echo,ioctl/t_tiocsti,packet/t_pkt_poll"

static char cwd[PATH_MAX];

/* A minimal file that passes the bzImage header check (as t_resolve's). */
static void fake_bzimage(const char *path, const char *version)
{
	unsigned char img[0x600];
	memset(img, 0, sizeof img);
	memcpy(img + 0x202, "HdrS", 4);
	unsigned off = 0x400 - 0x200;
	img[0x20e] = off & 0xff;
	img[0x20f] = off >> 8;
	memcpy(img + 0x400, version, strlen(version));
	ATF_REQUIRE(ku_write_file(path, (const char *)img, sizeof img) == 0);
}

static void sha(const char *path, char hex[65])
{
	ATF_REQUIRE_MSG(ku_sha256_file(path, hex) == 0, "cannot read %s", path);
}

static void same_file(const char *a, const char *b)
{
	char ha[65], hb[65];
	sha(a, ha);
	sha(b, hb);
	ATF_CHECK_MSG(!strcmp(ha, hb), "%s differs from %s", a, b);
}

/* Run rpmbuild -bb on spec text (topdir ./top, zstd payloads as Fedora's).
 * target: NULL, or an arch for --target. */
static void rpmbuild(const char *name, const char *spec, const char *target)
{
	char path[PATH_MAX + 64], top[PATH_MAX + 64], log[PATH_MAX + 64];
	ATF_REQUIRE(getcwd(cwd, sizeof cwd));
	snprintf(path, sizeof path, "%s/%s.spec", cwd, name);
	snprintf(top, sizeof top, "_topdir %s/top", cwd);
	snprintf(log, sizeof log, "%s.rpmbuild.log", name);
	ATF_REQUIRE(ku_write_file(path, spec, strlen(spec)) == 0);
	char *argv[12] = {"rpmbuild", "-bb", "--define", top, "--define",
			  "_binary_payload w19.zstdio", path, NULL};
	if (target) {
		argv[7] = "--target";
		argv[8] = (char *)target;
		argv[9] = NULL;
	}
	struct rbuf out = {0}, errout = {0};
	char err[512];
	int st = capture_run(argv, NULL, RPMBUILD_S, &out, &errout, err, sizeof err);
	ku_write_file(log, rbuf_str(&errout), errout.len);
	ATF_REQUIRE_MSG(st == 0, "rpmbuild %s: %s (see %s)", name, err, log);
	rbuf_free(&out);
	rbuf_free(&errout);
}

/* The header every spec here shares: no stripping or recompressing of
 * what it packs, no debuginfo. */
static void spec_head(struct rbuf *b, const char *name, const char *version,
		      const char *release, const char *tags)
{
	rbuf_addf(b, "Name: %s\nVersion: %s\nRelease: %s\nSummary: ttypot test kernel\n"
		  "License: GPL-2.0-only\n%s%%global debug_package %%{nil}\n"
		  "%%global __os_install_post %%{nil}\n%%description\n"
		  "A kernel repackaged by ttypot's tests.\n", name, version, release, tags);
}

/* Fedora's layout: kernel-core (image, config, %ghost /boot image) and
 * kernel-modules-core (the ldiscs, .ko.xz). */
static void fedora_rpms(const char *version, const char *release, const char *rel,
			const char *image, const char *config, const char *const *mods,
			size_t nmods)
{
	struct rbuf b = {0};
	spec_head(&b, "kernel", version, release, "");
	rbuf_addf(&b, "%%package core\nSummary: the image\n%%description core\nimage\n"
		  "%%package modules-core\nSummary: modules\n%%description modules-core\n"
		  "modules\n%%install\nd=%%{buildroot}/lib/modules/%s\n"
		  "mkdir -p $d/kernel/drivers/tty\ncp %s $d/vmlinuz\ncp %s $d/config\n",
		  rel, image, config);
	for (size_t i = 0; i < nmods; i++)
		rbuf_addf(&b, "xz -c %s > $d/kernel/drivers/tty/$(basename %s).xz\n", mods[i],
			  mods[i]);
	rbuf_addf(&b, "%%files core\n/lib/modules/%s/vmlinuz\n/lib/modules/%s/config\n"
		  "%%ghost /boot/vmlinuz-%s\n%%files modules-core\n/lib/modules/%s/kernel\n",
		  rel, rel, rel, rel);
	rpmbuild("fedora", b.s, NULL);
	rbuf_free(&b);
}

/* A module-sized file of known bytes. */
static void fake_module(const char *path, char tag)
{
	char buf[4096];
	for (size_t i = 0; i < sizeof buf; i++)
		buf[i] = (char)(tag + i * 7);
	ATF_REQUIRE(ku_write_file(path, buf, sizeof buf) == 0);
}

static int resolve(const char *text, const char *arch, struct kernel_info *k, char *err,
		   size_t errlen)
{
	struct kspec s;
	if (kspec_parse(text, &s, err, errlen) < 0)
		return -1;
	if (arch)
		ATF_REQUIRE_MSG(kspec_set_arch(&s, arch, err, errlen) == 0, "%s", err);
	return kernel_resolve(&s, "cache", k, err, errlen);
}

#define FED_REL "6.12.0-1.fc41.x86_64"
#define FED_CORE "top/RPMS/x86_64/kernel-core-6.12.0-1.fc41.x86_64.rpm"
#define FED_MODS "top/RPMS/x86_64/kernel-modules-core-6.12.0-1.fc41.x86_64.rpm"

static void fedora_fixture(void)
{
	ATF_REQUIRE(getcwd(cwd, sizeof cwd));
	fake_bzimage("bzImage", FED_REL " (mockbuild@fedora) #1 SMP");
	ATF_REQUIRE(ku_write_file("config", "CONFIG_N_HDLC=m\n", 16) == 0);
	fake_module("n_hdlc.ko", 'h');
	fake_module("n_gsm.ko", 'g');
	char img[PATH_MAX + 16], cfg[PATH_MAX + 16], m1[PATH_MAX + 16], m2[PATH_MAX + 16];
	snprintf(img, sizeof img, "%s/bzImage", cwd);
	snprintf(cfg, sizeof cfg, "%s/config", cwd);
	snprintf(m1, sizeof m1, "%s/n_hdlc.ko", cwd);
	snprintf(m2, sizeof m2, "%s/n_gsm.ko", cwd);
	const char *mods[] = {m1, m2};
	fedora_rpms("6.12.0", "1.fc41", FED_REL, img, cfg, mods, 2);
}

static void check_fedora(const struct kernel_info *k)
{
	ATF_CHECK_STREQ(k->release, FED_REL);
	ATF_CHECK_STREQ(k->label, FED_REL);
	ATF_CHECK_STREQ(k->version, "6.12.0-1.fc41");
	ATF_CHECK_STREQ(k->arch, "x86_64");
	same_file(k->image, "bzImage");
	char p[PATH_MAX + 64], hex[65];
	sha("config", hex);
	ATF_CHECK_MSG(!strncmp(k->config_hash, hex, 16), "config hash %s, want %.16s",
		      k->config_hash, hex);
	snprintf(p, sizeof p, "%s/kernel/drivers/tty/n_hdlc.ko", k->modules_dir);
	same_file(p, "n_hdlc.ko");
	snprintf(p, sizeof p, "%s/kernel/drivers/tty/n_gsm.ko", k->modules_dir);
	same_file(p, "n_gsm.ko");
	snprintf(p, sizeof p, "%s/kernel/drivers/tty/n_hdlc.ko.xz", k->modules_dir);
	ATF_CHECK_MSG(!ku_is_file(p), "%s left compressed", p);
}

ATF_TC(fedora_layout);
ATF_TC_HEAD(fedora_layout, tc)
{
	atf_tc_set_md_var(tc, "descr", "rpm:kernel-core-*.rpm in Fedora's layout "
			  "(lib/modules/REL/vmlinuz, %%ghost /boot image, zstd payload) gives the "
			  "image, release, EVR and config hash, and the .ko.xz ldiscs of "
			  "kernel-modules-core found beside it come out as the same .ko bytes; "
			  "naming the modules RPM and the bare PATH.rpm give the same");
	atf_tc_set_md_var(tc, "require.progs", "rpmbuild rpm rpm2cpio cpio xz");
	atf_tc_set_md_var(tc, "timeout", "300");
}
ATF_TC_BODY(fedora_layout, tc)
{
	fedora_fixture();
	struct kernel_info k;
	char err[1024];
	ATF_REQUIRE_MSG(resolve("rpm:" FED_CORE, NULL, &k, err, sizeof err) == 0, "%s", err);
	check_fedora(&k);
	ATF_REQUIRE_MSG(resolve("rpm:" FED_CORE "," FED_MODS, NULL, &k, err, sizeof err) == 0,
			"%s", err);
	check_fedora(&k);
	ATF_REQUIRE_MSG(resolve(FED_CORE, "x86_64", &k, err, sizeof err) == 0, "%s", err);
	check_fedora(&k);
}

ATF_TC(suse_layout);
ATF_TC_HEAD(suse_layout, tc)
{
	atf_tc_set_md_var(tc, "descr", "rpm:kernel-default-*.rpm in SUSE's layout "
			  "(boot/vmlinuz-REL, boot/config-REL, .ko.zst modules in the same "
			  "package) gives the image and the ldiscs as the same .ko bytes");
	atf_tc_set_md_var(tc, "require.progs", "rpmbuild rpm rpm2cpio cpio zstd");
	atf_tc_set_md_var(tc, "timeout", "300");
}
ATF_TC_BODY(suse_layout, tc)
{
	ATF_REQUIRE(getcwd(cwd, sizeof cwd));
	const char *rel = "6.4.0-150600.23.25-default";
	fake_bzimage("bzImage", "6.4.0-150600.23.25-default (geeko@buildhost) #1 SMP");
	ATF_REQUIRE(ku_write_file("config", "CONFIG_N_HDLC=m\n", 16) == 0);
	fake_module("n_hdlc.ko", 's');
	struct rbuf b = {0};
	spec_head(&b, "kernel-default", "6.4.0", "150600.23.25.1", "");
	rbuf_addf(&b, "%%install\nmkdir -p %%{buildroot}/boot "
		  "%%{buildroot}/lib/modules/%s/kernel/drivers/tty\n"
		  "cp %s/bzImage %%{buildroot}/boot/vmlinuz-%s\n"
		  "cp %s/config %%{buildroot}/boot/config-%s\n"
		  "zstd -q -o %%{buildroot}/lib/modules/%s/kernel/drivers/tty/n_hdlc.ko.zst "
		  "%s/n_hdlc.ko\n%%files\n/boot\n/lib/modules\n",
		  rel, cwd, rel, cwd, rel, rel, cwd);
	rpmbuild("suse", b.s, NULL);
	rbuf_free(&b);
	struct kernel_info k;
	char err[1024], p[PATH_MAX + 64];
	ATF_REQUIRE_MSG(resolve("rpm:top/RPMS/x86_64/kernel-default-6.4.0-150600.23.25.1."
				"x86_64.rpm", NULL, &k, err, sizeof err) == 0, "%s", err);
	ATF_CHECK_STREQ(k.release, rel);
	ATF_CHECK_STREQ(k.version, "6.4.0-150600.23.25.1");
	same_file(k.image, "bzImage");
	snprintf(p, sizeof p, "%s/kernel/drivers/tty/n_hdlc.ko", k.modules_dir);
	same_file(p, "n_hdlc.ko");
	char hex[65];
	sha("config", hex);
	ATF_CHECK_MSG(!strncmp(k.config_hash, hex, 16), "config hash %s, want %.16s",
		      k.config_hash, hex);
}

static void bad(const char *spec, const char *arch, const char *want1, const char *want2)
{
	struct kernel_info k;
	char err[1024];
	ATF_CHECK_EQ_MSG(resolve(spec, arch, &k, err, sizeof err), -1, "%s resolved", spec);
	ATF_CHECK_MSG(strstr(err, want1) && (!want2 || strstr(err, want2)),
		      "%s: got \"%s\", want \"%s\"%s%s", spec, err, want1, want2 ? " and " : "",
		      want2 ? want2 : "");
}

ATF_TC(bad_rpms_are_named);
ATF_TC_HEAD(bad_rpms_are_named, tc)
{
	atf_tc_set_md_var(tc, "descr", "a file that is not an RPM, a missing file, a truncated "
			  "RPM, an RPM without a kernel image (a modules package), +compat32 of a "
			  "kernel whose config lacks CONFIG_IA32_EMULATION, an RPM of another or no "
			  "architecture, a source RPM and a modules RPM of another release are "
			  "errors naming the file and what is wrong");
	atf_tc_set_md_var(tc, "require.progs", "rpmbuild rpm rpm2cpio cpio xz");
	atf_tc_set_md_var(tc, "timeout", "300");
}
ATF_TC_BODY(bad_rpms_are_named, tc)
{
	fedora_fixture();
	ATF_REQUIRE(ku_write_file("kernel-core-1-1.x86_64.rpm", "not an rpm\n", 11) == 0);
	bad("rpm:kernel-core-1-1.x86_64.rpm", NULL, "kernel-core-1-1.x86_64.rpm is not an RPM",
	    NULL);
	bad("rpm:nothere.rpm", NULL, "nothere.rpm", "No such file");
	bad("rpm:", NULL, "rpm: needs a kernel RPM", NULL);
	bad("rpm:" FED_MODS, NULL, "no kernel image in", "kernel-modules-core-6.12.0");
	/* Its config lacks the i386 syscall entry. */
	bad("rpm:" FED_CORE "+compat32", NULL, "CONFIG_IA32_EMULATION=y",
	    "lib/modules/" FED_REL "/config of ");
	/* Cut short: the header reads, the payload does not. */
	size_t len;
	char *whole = ku_read_file(FED_CORE, &len);
	ATF_REQUIRE(whole && len > 600);
	ATF_REQUIRE(ku_mkdir_p("cut", 0755) == 0);
	ATF_REQUIRE(ku_write_file("cut/kernel-core-6.12.0-1.fc41.x86_64.rpm", whole, len - 200) == 0);
	free(whole);
	bad("rpm:cut/kernel-core-6.12.0-1.fc41.x86_64.rpm", NULL, "broken RPM", "cut/kernel-core");

	/* The same kernel-core built for aarch64 and for noarch. */
	char *spec = ku_read_file("fedora.spec", NULL);
	ATF_REQUIRE(spec);
	rpmbuild("fedora-a64", spec, "aarch64");
	bad("rpm:top/RPMS/aarch64/kernel-core-6.12.0-1.fc41.aarch64.rpm", "x86_64",
	    "is an RPM for aarch64, not x86_64", NULL);
	/* Without --arch the package's arch is asked for, and the image is no
	 * arm64 Image. */
	bad("rpm:top/RPMS/aarch64/kernel-core-6.12.0-1.fc41.aarch64.rpm", NULL,
	    "not a arm64 kernel image", NULL);
	struct rbuf b = {0};
	spec_head(&b, "kernel-core", "6.12.0", "1.fc41", "BuildArch: noarch\n");
	rbuf_addf(&b, "%%install\nmkdir -p %%{buildroot}/lib/modules/x\n"
		  "cp %s/bzImage %%{buildroot}/lib/modules/x/vmlinuz\n%%files\n/lib/modules/x\n",
		  cwd);
	rpmbuild("noarch", b.s, NULL);
	bad("rpm:top/RPMS/noarch/kernel-core-6.12.0-1.fc41.noarch.rpm", NULL,
	    "is an RPM for noarch", NULL);
	rbuf_free(&b);

	/* A source RPM. */
	char top[PATH_MAX + 16], path[PATH_MAX + 16];
	snprintf(top, sizeof top, "_topdir %s/top", cwd);
	snprintf(path, sizeof path, "%s/fedora.spec", cwd);
	char *argv[] = {"rpmbuild", "-bs", "--define", top, path, NULL}, err[512];
	ATF_REQUIRE_MSG(capture_run(argv, NULL, RPMBUILD_S, NULL, NULL, err, sizeof err) == 0,
			"rpmbuild -bs: %s", err);
	bad("rpm:top/SRPMS/kernel-6.12.0-1.fc41.src.rpm", NULL, "is a source RPM", NULL);

	/* A modules RPM of another release, named. */
	spec_head(&b, "kernel", "6.12.0", "2.fc41", "");
	rbuf_addf(&b, "%%package modules-core\nSummary: m\n%%description modules-core\nm\n"
		  "%%install\nmkdir -p %%{buildroot}/lib/modules/r\n%%files modules-core\n"
		  "/lib/modules/r\n");
	rpmbuild("other", b.s, NULL);
	rbuf_free(&b);
	bad("rpm:" FED_CORE ",top/RPMS/x86_64/kernel-modules-core-6.12.0-2.fc41.x86_64.rpm",
	    NULL, "is 6.12.0-2.fc41.x86_64, the kernel RPM", NULL);
	free(spec);
}

/* The .deb behind a resolved deb: kernel: the cache keeps it as
 * deb/KEY.deb and unpacks it into deb/x/KEY/ (resolve_deb.c). */
static void deb_of(const struct kernel_info *k, char *out, size_t outlen)
{
	char x[PATH_MAX];
	snprintf(x, sizeof x, "%s", k->image);
	char *boot = strstr(x, "/boot/");
	ATF_REQUIRE_MSG(boot, "%s: not in boot/", k->image);
	*boot = '\0';
	char *key = strrchr(x, '/');
	ATF_REQUIRE(key && key - x > 2 && !strncmp(key - 2, "/x", 2));
	key[-2] = '\0';
	snprintf(out, outlen, "%s/%s.deb", x, key + 1);
	ATF_REQUIRE_MSG(ku_is_file(out), "%s: no such .deb", out);
}

ATF_TC(boots_like_the_deb);
ATF_TC_HEAD(boots_like_the_deb, tc)
{
	atf_tc_set_md_var(tc, "descr", "Debian's linux-image-amd64 repackaged by rpmbuild as "
			  "Fedora's kernel-core + kernel-modules-core (.ko.xz) boots under QEMU "
			  "with " SUBSET " and every cell equals the .deb's own column, n_hdlc "
			  "cases passing in both (the ldisc came out of the modules RPM)");
	atf_tc_set_md_var(tc, "require.progs", "rpmbuild rpm rpm2cpio cpio xz "
			  "qemu-system-x86_64 apt-get dpkg-deb");
	atf_tc_set_md_var(tc, "timeout", "1500");
}
ATF_TC_BODY(boots_like_the_deb, tc)
{
	char ttypot[PATH_MAX], err[1024];
	snprintf(ttypot, sizeof ttypot, "%s/../ttypot",
		 atf_tc_get_config_var_wd(tc, "srcdir", "."));
	ATF_REQUIRE_MSG(access(ttypot, X_OK) == 0, "%s not built", ttypot);
	ATF_REQUIRE(getcwd(cwd, sizeof cwd));
	/* Debian's kernel through the shared cache (t_guest_e2e fetches the
	 * same package), then its image, config and ldisc as Fedora's RPMs. */
	struct kspec s;
	struct kernel_info d;
	ATF_REQUIRE(kspec_parse("deb:linux-image-amd64", &s, err, sizeof err) == 0);
	ATF_REQUIRE_MSG(kernel_resolve(&s, NULL, &d, err, sizeof err) == 0, "%s", err);
	char deb[PATH_MAX], config[PATH_MAX + 200], hdlc[PATH_MAX + 64];
	deb_of(&d, deb, sizeof deb);
	snprintf(config, sizeof config, "%.*s/config-%s",
		 (int)(strrchr(d.image, '/') - d.image), d.image, d.release);
	snprintf(hdlc, sizeof hdlc, "%s/kernel/drivers/tty/n_hdlc.ko", d.modules_dir);
	ATF_REQUIRE_MSG(ku_is_file(hdlc), "%s: Debian's kernel has no n_hdlc module", hdlc);
	const char *mods[] = {hdlc};
	/* An RPM version may not hold '-': Debian's 6.1.192-3 becomes 6.1.192. */
	char version[64];
	snprintf(version, sizeof version, "%.*s", (int)strcspn(d.version, "-"), d.version);
	fedora_rpms(version, "1.ttypot", d.release, d.image, config, mods, 1);
	char core[PATH_MAX + 200];
	snprintf(core, sizeof core, "rpm:%s/top/RPMS/x86_64/kernel-core-%s-1.ttypot.x86_64.rpm",
		 cwd, version);

	/* Both columns in one matrix, unpacked into a cache of this case. */
	char *argv[] = {ttypot, "matrix", "-o", "out", "--cache", "cache", "--cases", SUBSET,
			deb, core, NULL};
	int st = e2e_run(argv, MATRIX_S, "matrix.log", "deb and rpm columns");
	ATF_REQUIRE_MSG(st == 0, "ttypot matrix exit %d; see matrix.log", st);
	json_error_t je;
	json_t *m = json_load_file("out/matrix.json", 0, &je);
	ATF_REQUIRE_MSG(m, "out/matrix.json: %s", je.text);
	json_t *cols = json_object_get(m, "columns");
	ATF_REQUIRE_EQ(json_array_size(cols), 2);
	const char *ld = json_string_value(json_object_get(json_array_get(cols, 0), "label"));
	const char *lr = json_string_value(json_object_get(json_array_get(cols, 1), "label"));
	char want_v[128];
	snprintf(want_v, sizeof want_v, "%s-1.ttypot", version);
	ATF_CHECK_STREQ(json_string_value(json_object_get(json_array_get(cols, 1), "version")),
			want_v);
	ATF_CHECK_STREQ(json_string_value(json_object_get(json_array_get(cols, 1), "uname")),
			d.release);
	size_t i, n = 0, hdlc_pass = 0;
	json_t *c;
	json_array_foreach(json_object_get(m, "cases"), i, c) {
		const char *id = json_string_value(json_object_get(c, "id"));
		json_t *cells = json_object_get(c, "cells");
		const char *a = json_string_value(
			json_object_get(json_object_get(cells, ld), "status"));
		const char *b = json_string_value(
			json_object_get(json_object_get(cells, lr), "status"));
		ATF_CHECK_MSG(a && b && !strcmp(a, b), "%s: deb %s, rpm %s", id, a ? a : "-",
			      b ? b : "-");
		if (!strncmp(id, "regress/t_n_hdlc:", 17) && a && b && !strcmp(a, "pass") &&
		    !strcmp(b, "pass"))
			hdlc_pass++;
		n++;
	}
	ATF_CHECK_MSG(n >= 15, "only %zu cases ran", n);
	ATF_CHECK_MSG(hdlc_pass >= 1, "no regress/t_n_hdlc case passed in both columns");
	json_decref(m);
}

ATF_TP_ADD_TCS(tp)
{
	ATF_TP_ADD_TC(tp, fedora_layout);
	ATF_TP_ADD_TC(tp, suse_layout);
	ATF_TP_ADD_TC(tp, bad_rpms_are_named);
	ATF_TP_ADD_TC(tp, boots_like_the_deb);
	return atf_no_error();
}
