// SPDX-License-Identifier: GPL-2.0-only
/* lava_images.c: what a LAVA worker downloads for one kernel: the kernel
 * image and a ramdisk that is the suite initramfs plus the kernel's tty
 * modules, as one cpio archive (LAVA unpacks the ramdisk with cpio to add
 * its overlay, and cpio stops at the first archive of a concatenation, so
 * the local runner's second segment would be lost). */
/* Paths are bounded by PATH_MAX; a truncated message is only shorter. */
#pragma GCC diagnostic ignored "-Wformat-truncation"
#include "lava_images.h"
#include "kutil.h"
#include "proc.h"

#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define TOOL_DEADLINE_MS 300000

/* The ldiscs distributions build as modules (as run_qemu.c packs them). */
static const char *const tty_modules[] = {
	"kernel/drivers/tty/n_hdlc.ko",
	"kernel/drivers/tty/n_gsm.ko",
	"kernel/drivers/tty/n_null.ko",
	"kernel/drivers/tty/ttynull.ko",
};

/* Stage the modules under dir and list what to append (dirs first). */
static int stage_modules(const struct kernel_info *k, const char *dir, const char *list,
			 int *nfiles, char *err, size_t errlen)
{
	char rel[PATH_MAX], q[PATH_MAX];
	*nfiles = 0;
	FILE *f = fopen(list, "w");
	if (!f) {
		snprintf(err, errlen, "cannot write %s: %s", list, strerror(errno));
		return -1;
	}
	ku_fmt(rel, sizeof rel, "lib/modules/%s/ttypot", k->release);
	ku_fmt(q, sizeof q, "%s/%s", dir, rel);
	if (k->modules_dir[0] && k->release[0])
		for (size_t i = 0; i < sizeof tty_modules / sizeof *tty_modules; i++) {
			char from[PATH_MAX], to[PATH_MAX];
			ku_fmt(from, sizeof from, "%s/%s", k->modules_dir, tty_modules[i]);
			if (!ku_is_file(from))
				continue;
			const char *base = strrchr(tty_modules[i], '/') + 1;
			ku_fmt(to, sizeof to, "%s/%s", q, base);
			if (ku_mkdir_p(q, 0755) < 0 || ku_copy_file(from, to) < 0) {
				snprintf(err, errlen, "cannot copy %s: %s", from, strerror(errno));
				fclose(f);
				return -1;
			}
			if (*nfiles == 0)
				fprintf(f, "lib\nlib/modules\nlib/modules/%s\n%s\n", k->release, rel);
			fprintf(f, "%s/%s\n", rel, base);
			(*nfiles)++;
		}
	fclose(f);
	return 0;
}

int lava_ramdisk(const struct kernel_info *k, const char *initramfs, const char *out,
		 char *err, size_t errlen)
{
	char dir[PATH_MAX], list[PATH_MAX], cpio[PATH_MAX], why[400];
	int n = 0, rc = -1;
	ku_fmt(dir, sizeof dir, "%s.d", out);
	ku_fmt(list, sizeof list, "%s.list", out);
	ku_fmt(cpio, sizeof cpio, "%s.cpio", out);
	ku_rm_rf(dir);
	if (ku_mkdir_p(dir, 0755) < 0) {
		snprintf(err, errlen, "cannot create %s: %s", dir, strerror(errno));
		return -1;
	}
	if (stage_modules(k, dir, list, &n, err, errlen) < 0)
		goto out;
	if (n == 0) {
		/* Nothing to add (a built-in or monolithic kernel). */
		if (ku_copy_file(initramfs, out) < 0) {
			snprintf(err, errlen, "cannot copy %s: %s", initramfs, strerror(errno));
			goto out;
		}
		rc = 0;
		goto out;
	}
	const char *unzip[] = { "gzip", "-dc", initramfs, NULL };
	struct proc_opts uo = { .stdout_path = cpio, .deadline_ms = TOOL_DEADLINE_MS };
	const char *append[] = { "cpio", "-o", "-A", "-H", "newc", "-R", "0:0", "--quiet",
				 "-F", cpio, NULL };
	struct proc_opts ao = { .cwd = dir, .stdin_path = list, .deadline_ms = TOOL_DEADLINE_MS };
	const char *zip[] = { "gzip", "-n", "-6", "-c", cpio, NULL };
	struct proc_opts zo = { .stdout_path = out, .deadline_ms = TOOL_DEADLINE_MS };
	if (proc_check(unzip, &uo, why, sizeof why) < 0 ||
	    proc_check(append, &ao, why, sizeof why) < 0 ||
	    proc_check(zip, &zo, why, sizeof why) < 0) {
		snprintf(err, errlen, "ramdisk %s: %s", out, why);
		unlink(out);
		goto out;
	}
	rc = 0;
out:
	unlink(list);
	unlink(cpio);
	ku_rm_rf(dir);
	return rc;
}
