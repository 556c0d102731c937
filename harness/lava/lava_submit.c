// SPDX-License-Identifier: GPL-2.0-only
/* lava_submit.c: `ttypot lava submit`: resolve each kernel as matrix does,
 * publish its images (lava_images.c), write its job (lava_job.c) and submit
 * it (lava_rest.c); --wait collects the jobs (lava_collect.c). */
/* Paths are bounded by PATH_MAX; a truncated message is only shorter. */
#pragma GCC diagnostic ignored "-Wformat-truncation"
#include "lava.h"
#include "lava_cmd.h"
#include "lava_images.h"
#include "guest.h"
#include "kernel.h"
#include "kutil.h"
#include "suite_dir.h"

#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>
#include <time.h>
#include <unistd.h>

/* Two distinct UDP ports for the loop pair, random in 20000..59999 so that
 * jobs on one worker do not collide (and free here, where that can be
 * checked: a worker on this machine). */
static void pick_ports(int *a, int *b)
{
	unsigned r[2] = { 0, 0 };
	if (getrandom(r, sizeof r, 0) != (ssize_t)sizeof r) {
		r[0] = (unsigned)getpid() * 7919u;
		r[1] = (unsigned)time(NULL);
	}
	*a = 20000 + (int)(r[0] % 40000);
	*b = 20000 + (int)(r[1] % 40000);
	if (*b == *a)
		*b = *a == 59999 ? 20000 : *a + 1;
}

/* file://ABS or BASE/NAME. */
static int image_url(const struct lava_opts *o, const char *path, char *url, size_t len)
{
	char abs[PATH_MAX];
	if (o->image_url_base) {
		const char *name = strrchr(path, '/');
		return ku_fmt(url, len, "%s/%s", o->image_url_base, name ? name + 1 : path);
	}
	if (!realpath(path, abs))
		return -1;
	return ku_fmt(url, len, "file://%s", abs);
}

/* One kernel: resolve, images, YAML, submit.  The job id, 0 for a dry run,
 * -1 on errors (printed). */
static long submit_one(const struct lava_opts *o, struct lava_server *s, const char *specs,
		       const char *imgdir, const char *initramfs, size_t idx, size_t total)
{
	char err[1024];
	struct kspec ks;
	struct kernel_info ki;
	if (kspec_parse(specs, &ks, err, sizeof err) < 0) {
		fprintf(stderr, "ttypot: lava: %s\n", err);
		return -1;
	}
	if (ks.kind == KSPEC_HOST) {
		fprintf(stderr, "ttypot: lava: host is the running kernel; a LAVA job boots a "
			"kernel image\n");
		return -1;
	}
	fprintf(stderr, "[%zu/%zu] %s: resolving\n", idx, total, specs);
	if (kernel_resolve(&ks, o->cache, &ki, err, sizeof err) < 0) {
		fprintf(stderr, "[%zu/%zu] %s: %s\n", idx, total, specs, err);
		return -1;
	}
	const char *label = ki.label[0] ? ki.label : specs;
	char safe[128], kpath[PATH_MAX], rpath[PATH_MAX], ypath[PATH_MAX];
	safe_name(label, safe, sizeof safe);
	ku_fmt(kpath, sizeof kpath, "%s/%s.vmlinuz", imgdir, safe);
	ku_fmt(rpath, sizeof rpath, "%s/%s.initramfs.cpio.gz", imgdir, safe);
	ku_fmt(ypath, sizeof ypath, "%s/jobs/%s.yaml", o->outdir, safe);
	if (ku_copy_file(ki.image, kpath) < 0) {
		fprintf(stderr, "ttypot: lava: cannot copy %s: %s\n", ki.image, strerror(errno));
		return -1;
	}
	if (lava_ramdisk(&ki, initramfs, rpath, err, sizeof err) < 0) {
		fprintf(stderr, "ttypot: lava: %s\n", err);
		return -1;
	}
	char kurl[PATH_MAX + 600], rurl[PATH_MAX + 600];
	if ((o->kernel_url ? ku_fmt(kurl, sizeof kurl, "%s", o->kernel_url) :
	     image_url(o, kpath, kurl, sizeof kurl)) < 0 ||
	    image_url(o, rpath, rurl, sizeof rurl) < 0) {
		fprintf(stderr, "ttypot: lava: no URL for the images of %s\n", label);
		return -1;
	}
	struct lava_job_params p = {
		.label = label, .spec = specs, .cases = o->cases, .version = ki.version,
		.config_hash = ki.config_hash, .kernel_url = kurl,
		.ramdisk_url = rurl, .device_type = o->device_type, .tag = o->tag,
		.job_minutes = o->job_minutes, .test_minutes = o->job_minutes - 25,
	};
	if (p.test_minutes < 5)
		p.test_minutes = 5;
	pick_ports(&p.udp_a, &p.udp_b);
	struct rbuf y = {0};
	lava_job_yaml(&p, &y);
	if (ku_write_file(ypath, y.s, y.len) < 0) {
		fprintf(stderr, "ttypot: lava: cannot write %s: %s\n", ypath, strerror(errno));
		rbuf_free(&y);
		return -1;
	}
	long id = 0;
	if (o->dry_run) {
		printf("ttypot: lava: %s: job definition in %s (not submitted)\n", label, ypath);
	} else if (lava_submit(s, y.s, &id, err, sizeof err) < 0) {
		fprintf(stderr, "ttypot: lava: %s: %s\n", label, err);
		id = -1;
	} else {
		printf("ttypot: lava: %s: job %ld (%s/scheduler/job/%ld)\n", label, id, s->url, id);
	}
	fflush(stdout);
	rbuf_free(&y);
	return id;
}

int lava_cmd_submit(const struct lava_opts *o, const char *argv0, char **specs, int nspecs)
{
	char err[1024], suite[PATH_MAX], imgdir[PATH_MAX + 32], initramfs[PATH_MAX + 64];
	struct lava_server s;
	memset(&s, 0, sizeof s);
	if (!o->dry_run && lava_open(&s, o->server, o->token_file, err, sizeof err) < 0) {
		fprintf(stderr, "ttypot: lava: %s\n", err);
		return 2;
	}
	find_suite_dir(o->suite, argv0, suite, sizeof suite);
	snprintf(imgdir, sizeof imgdir, "%s/jobs/images", o->outdir);
	snprintf(initramfs, sizeof initramfs, "%s/initramfs.cpio.gz", imgdir);
	long *ids = xrealloc(NULL, (size_t)nspecs * sizeof *ids);
	size_t nids = 0;
	int rc = 2;
	if (ku_mkdir_p(imgdir, 0755) < 0) {
		fprintf(stderr, "ttypot: lava: -o %s: %s\n", o->outdir, strerror(errno));
		goto out;
	}
	/* Absolute: cpio runs in a staging directory, URLs need them. */
	char abs[PATH_MAX];
	if (!realpath(imgdir, abs)) {
		fprintf(stderr, "ttypot: lava: %s: %s\n", imgdir, strerror(errno));
		goto out;
	}
	snprintf(imgdir, sizeof imgdir, "%s", abs);
	snprintf(initramfs, sizeof initramfs, "%s/initramfs.cpio.gz", imgdir);
	fprintf(stderr, "ttypot: lava: building the guest initramfs\n");
	if (initramfs_build(suite, initramfs, err, sizeof err) < 0) {
		fprintf(stderr, "ttypot: lava: %s\n", err);
		goto out;
	}
	bool failed = false;
	char jobs[PATH_MAX + 64];
	snprintf(jobs, sizeof jobs, "%s/jobs/ids", o->outdir);
	for (int i = 0; i < nspecs; i++) {
		long id = submit_one(o, &s, specs[i], imgdir, initramfs, (size_t)i + 1,
				     (size_t)nspecs);
		failed |= id < 0;
		if (id > 0) {
			ids[nids++] = id;
			FILE *f = fopen(jobs, "a");
			if (f) {
				fprintf(f, "%ld\n", id);
				fclose(f);
			}
		}
	}
	if (o->dry_run || !o->wait) {
		if (nids) {
			printf("ttypot: lava: %zu job%s submitted; collect with: ttypot lava collect "
			       "-o %s", nids, nids == 1 ? "" : "s", o->outdir);
			for (size_t i = 0; i < nids; i++)
				printf(" %ld", ids[i]);
			printf("\n");
		}
		rc = failed ? 2 : 0;
		goto out;
	}
	lava_close(&s);
	rc = nids ? lava_cmd_collect(o, argv0, ids, nids) : 2;
	if (failed && rc < 2)
		rc = 2;
out:
	lava_close(&s);
	free(ids);
	return rc;
}
