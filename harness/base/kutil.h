/* SPDX-License-Identifier: GPL-2.0-only */
/* kutil.h: small helpers shared by the kernel/QEMU side of the harness. */
#ifndef TTYPOT_KUTIL_H
#define TTYPOT_KUTIL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* Progress line on stderr: "ttypot: ...". */
void ku_progress(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/* SHA-256 of a buffer / a file as 64 lowercase hex digits (+NUL). */
void ku_sha256_hex(const void *buf, size_t len, char out[65]);
int ku_sha256_file(const char *path, char out[65]);

/* CRC-32 (IEEE): zlib's crc32_z(0, buf, len). */
uint32_t ku_crc32(const void *buf, size_t len);

/* mkdir -p; 0 or -1 (errno). */
int ku_mkdir_p(const char *path, int mode);
/* rm -rf of a directory we created (no symlink following). */
int ku_rm_rf(const char *path);
bool ku_is_file(const char *path);
bool ku_is_dir(const char *path);
/* Read a whole small file (NUL-terminated, malloc'd); NULL on error. */
char *ku_read_file(const char *path, size_t *len);
int ku_write_file(const char *path, const char *data, size_t len);
/* Copy a file preserving its mode. */
int ku_copy_file(const char *from, const char *to);

/* The longest common directory of existing paths a and b (both resolved),
 * 0; -1 when it is only "/" (too wide to be useful) or a path is missing. */
int ku_common_dir(const char *a, const char *b, char *out, size_t outlen);

/* The cache dir: $TTYPOT_CACHE, else $HOME/.cache/ttypot. */
void ku_default_cache(char *out, size_t outlen);

/* An exclusive lock on path (created if missing) held until ku_unlock: for
 * work two ttypot processes must not do at once (building one kernel tree,
 * unpacking one source).  Waits up to wait_s, saying at once and then every
 * minute what it waits for ("WHAT: waiting for another ttypot ...").  Returns the lock's fd, or -1 (errno ETIMEDOUT when
 * another process held it all along). */
int ku_lock(const char *path, int wait_s, const char *what);
void ku_unlock(int fd);

/* Cache entries appear whole or not at all, whoever else writes the same
 * cache (two matrix runs, a matrix beside a ci, make check's tests).
 * ku_once makes `final` once: when it is missing, it takes the lock
 * final.lock (a second writer waits, saying what for, instead of doing the
 * same minutes of work again), looks again, and has fill() write into a
 * fresh directory of a unique name beside final; that directory (is_file:
 * the file of final's name in it) is then renamed to final.  what says
 * what is being made, for the waiter's message and errors; wait_s bounds
 * the wait.  0 when final exists after, -1 with err (nothing half-made is
 * left under final's name). */
typedef int (*ku_fill_fn)(const char *tmpdir, void *arg, char *err,
			  size_t errlen);
int ku_once(const char *final, bool is_file, const char *what, int wait_s,
	    ku_fill_fn fill, void *arg, char *err, size_t errlen);

/* A new directory of a unique name beside final (".NAME.tmp.XXXXXX" in
 * final's directory, which is created), for an entry made elsewhere than
 * through ku_once; 0 or -1 (errno). */
int ku_tmpdir_beside(const char *final, char *out, size_t outlen);

/* snprintf that reports truncation as -1. */
int ku_fmt(char *out, size_t outlen, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

#endif
