/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * rcache.h: the result cache (stage "rcache": base -> kernel -> mutation ->
 * guest -> rcache -> results -> report -> commands).  A column whose key
 * matches is read, not run.
 *
 * The key is a hash of everything that determines a column's raw results:
 *   - the kernel: the image's content hash, the content of the tty modules
 *     a guest gets (lib/modules/REL/kernel/drivers/tty), uname -r, arch, ABI;
 *   - the built suite the guest runs: every file the initramfs takes from
 *     cases/ and fixtures/ (content and exec bit), kyua, busybox and the
 *     shared libraries of all of them; a cross userland adds its root's stamp;
 *   - the case filter and the extra Kyua variables;
 *   - the QEMU version (`qemu-system-ARCH --version`);
 *   - RCACHE_FORMAT, raised when the guest runner changes what a run reports.
 * The host kernel has no image to hash and its machine state is not in any
 * key: a host column is never cached.
 *
 * An entry is the results-channel file of one run that finished (its end
 * line arrived: RUN_DONE) and was complete (the caller checks every selected
 * case reported), with the outcome's accelerator and times and which run
 * stored it: CACHE/results/XX/KEY/{results,meta,key}.  Expectations are not
 * in the entry: they apply when the column is read, as for a fresh run.
 * An entry is taken whole or not at all (a cached column is never mixed
 * with a partial new one).
 */
#ifndef TTYPOT_RCACHE_H
#define TTYPOT_RCACHE_H

#include <stdbool.h>
#include <stddef.h>

#include "guest.h"
#include "kernel.h"

/* Raise when what a run reports changes for the same inputs (the guest
 * init, QEMU's options, the results channel). */
#define RCACHE_FORMAT 1

struct rcache_key {
	char hex[65];
	char text[8192]; /* the inputs, "name value" lines, kept in the entry */
};

/* The key for running ro's cases on ki.  -1 with the reason in err when
 * the column cannot be cached (the host, a file that cannot be read, a
 * cross userland not built yet). */
int rcache_key(const struct kernel_info *ki, const struct run_opts *ro,
	       struct rcache_key *k, char *err, size_t errlen);

/* The hash of the suite a guest of userland (NULL: the host's own build,
 * else arm64, ppc64el, i386) runs; memoised per process.  0 or -1. */
int rcache_suite_hash(const char *suite_dir, const char *userland,
		      char hex[65], char *err, size_t errlen);

struct rcache_hit {
	char stored[32];        /* when: "2026-12-05 03:10 UTC" */
	char run[1024];         /* which run: what stored it said (its -o DIR) */
	struct run_outcome out; /* RUN_DONE, accel, boot_s, suite_s as it ran */
};

/* "cached from the run of WHEN into RUN" (a column heading's note). */
void rcache_hit_note(const struct rcache_hit *h, char *out, size_t outlen);

/* Look k up under cache_dir (NULL: the default cache).  A hit copies the
 * entry's results to results_path and returns 1; 0 a miss (none, or an
 * entry that fails its checksum); -1 with a message on an I/O error. */
int rcache_fetch(const char *cache_dir, const struct rcache_key *k,
		 const char *results_path, struct rcache_hit *hit, char *err,
		 size_t errlen);

/* Keep results_path under k.  Only a finished run (out->end RUN_DONE) is
 * kept; run says which run it was.  0, or -1 with a message. */
int rcache_store(const char *cache_dir, const struct rcache_key *k,
		 const char *results_path, const struct run_outcome *out,
		 const char *run, char *err, size_t errlen);

#endif
