/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * lava/: `ttypot lava`, the suite on a LAVA lab's workers (stage 5 beside
 * commands/, on top of kernel/, guest/, results/ and report/):
 *   lava_job.c   the job YAML of one kernel (QEMU device types)
 *   lava_rest.c  the REST client (curl through proc.h; the token only in a
 *                mode-600 header file, never on a command line or in output)
 *   lava_log.c   a job's log -> a matrix column (the results channel lines
 *                the guest wrote into the log, LAVA's own error)
 *   lava_images.c  the ramdisk a job boots (lava_images.h)
 *   cmd_lava.c   the command line and the generic board definition;
 *   lava_submit.c, lava_collect.c  the two commands (lava_cmd.h)
 */
#ifndef TTYPOT_LAVA_H
#define TTYPOT_LAVA_H

#include <limits.h>
#include <stdbool.h>
#include <stddef.h>

#include "rbuf.h"
#include "result.h"

/* ---- lava_job.c ---- */

/* The prompt fixtures/guest/init gives LAVA's test shell. */
#define LAVA_PROMPT "ttypot-lava# "
/* Where the initramfs puts the suite. */
#define LAVA_SUITE_IN_GUEST "/ttypot"

struct lava_job_params {
	const char *label;       /* the kernel's column label (without @lava) */
	const char *spec;        /* the kernel spec as given */
	const char *cases;       /* --cases filter, or NULL for every case */
	const char *version;     /* package version / git sha, or "" */
	const char *config_hash; /* of the kernel's .config, or "" */
	const char *kernel_url;
	const char *ramdisk_url; /* the ttypot initramfs (gzip'd newc cpio) */
	const char *device_type; /* a QEMU device type of the lab */
	const char *tag;         /* a device tag the job requires, or NULL */
	int udp_a, udp_b;        /* the loop pair's UDP ports on the worker */
	int job_minutes;         /* the whole job's timeout */
	int test_minutes;        /* the suite's (test action's) timeout */
};

/* Is a --cases filter safe as shell words in the test definition
 * (letters, digits, _ - . / : , and spaces)?  NULL/"" is. */
bool lava_filter_ok(const char *filter);

/* The job definition (YAML).  The "# ttypot-<key>: value" comments carry
 * what collect needs (label, spec, cases) through LAVA's original
 * definition. */
void lava_job_yaml(const struct lava_job_params *p, struct rbuf *out);

/* The value of "# ttypot-<key>: " in a definition, malloc'd; NULL when
 * absent. */
char *lava_def_meta(const char *definition, const char *key);

/* ---- lava_rest.c ---- */

struct lava_server {
	char url[512];         /* base URL, no trailing slash */
	char dir[PATH_MAX];    /* private temp dir (mode 700): header, bodies */
	char header[PATH_MAX]; /* "Authorization: Token ..." (mode 600) */
};

/* The URL: opt, else $TTYPOT_LAVA_URL.  The token: the first line of
 * token_file, else of $TTYPOT_LAVA_TOKEN_FILE, else $TTYPOT_LAVA_TOKEN.
 * 0, or -1 with a message that never contains the token. */
int lava_open(struct lava_server *s, const char *url, const char *token_file,
	      char *err, size_t errlen);
void lava_close(struct lava_server *s);

/* GET base+path (e.g. "/api/v0.2/jobs/3/") into out.  0 on HTTP 2xx, else
 * -1 with "GET PATH: HTTP N ..." in err. */
int lava_get(struct lava_server *s, const char *path, struct rbuf *out,
	     char *err, size_t errlen);
/* POST {"definition": yaml} to /api/v0.2/jobs/; *id the new job. */
int lava_submit(struct lava_server *s, const char *yaml, long *id, char *err,
		size_t errlen);

/* ---- lava_log.c ---- */

#define LAVA_CONSOLE_TAIL_LINES 40

struct lava_log {
	char error[1024];   /* LAVA's error: the job result's error_msg (+type) */
	bool panic;         /* the guest console showed a kernel panic */
	double boot_s;      /* log start to the begin line, -1 unknown */
	char *console_tail; /* last target lines, malloc'd ("" none) */
	long entries;       /* log entries read */
};

/* Feed a job's /logs/ text (YAML, one "- {json}" entry per line) into c:
 * every results-channel line of the guest console goes through
 * ingest_line; LAVA's job error and a kernel panic are noted in out. */
void lava_log_read(struct column *c, const char *text, size_t len,
		   struct lava_log *out);
void lava_log_free(struct lava_log *l);

/* How a finished (or abandoned) job ends as a column: state/health from
 * the job's REST record (health NULL: the collect deadline passed first).
 * Sets c->end and c->error (LAVA's reason kept). */
void lava_column_end(struct column *c, long id, const char *state,
		     const char *health, const char *failure_comment,
		     const struct lava_log *l);

/* ---- cmd_lava.c ---- */

int cmd_lava(int argc, char **argv);

#endif
