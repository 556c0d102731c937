// SPDX-License-Identifier: GPL-2.0-only
/* lava_log.c: a LAVA job's log as a matrix column.  The guest printed every
 * results-channel line (harness/PROTOCOL.md) on its console, so the log's
 * "target" entries carry the same CRC-checked lines the local runner reads
 * from its results port: the column is built from those, with the same
 * ingestion rules; LAVA's test cases (lava-test-case) are for the lab's own
 * views.  LAVA's job error (the "job" result's error_msg) is kept as the
 * column's reason. */
/* Paths are bounded by PATH_MAX; a truncated message is only shorter. */
#pragma GCC diagnostic ignored "-Wformat-truncation"
#include "lava.h"
#include "ingest.h"

#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

/* "2026-12-03T18:36:40.830774" as seconds (only differences matter);
 * -1 when it does not parse. */
static double dt_secs(const char *dt)
{
	struct tm tm;
	memset(&tm, 0, sizeof tm);
	const char *rest = dt ? strptime(dt, "%Y-%m-%dT%H:%M:%S", &tm) : NULL;
	if (!rest)
		return -1;
	double frac = *rest == '.' ? strtod(rest, NULL) : 0;
	return (double)timegm(&tm) + frac;
}

struct tail {
	char *line[LAVA_CONSOLE_TAIL_LINES];
	size_t next, n;
};

static void tail_add(struct tail *t, const char *s)
{
	free(t->line[t->next]);
	t->line[t->next] = utf8_clean(s, strlen(s));
	t->next = (t->next + 1) % LAVA_CONSOLE_TAIL_LINES;
	if (t->n < LAVA_CONSOLE_TAIL_LINES)
		t->n++;
}

static char *tail_join(struct tail *t)
{
	struct rbuf b = {0};
	size_t first = (t->next + LAVA_CONSOLE_TAIL_LINES - t->n) % LAVA_CONSOLE_TAIL_LINES;
	for (size_t i = 0; i < t->n; i++) {
		rbuf_add(&b, t->line[(first + i) % LAVA_CONSOLE_TAIL_LINES]);
		rbuf_addc(&b, '\n');
	}
	for (size_t i = 0; i < LAVA_CONSOLE_TAIL_LINES; i++)
		free(t->line[i]);
	char *s = xstrdup(rbuf_str(&b));
	rbuf_free(&b);
	return s;
}

/* The job's own result: {"case": "job", "error_msg": ..., "error_type": ...}. */
static void job_error(json_t *msg, struct lava_log *out)
{
	const char *cs = json_string_value(json_object_get(msg, "case"));
	const char *em = json_string_value(json_object_get(msg, "error_msg"));
	const char *et = json_string_value(json_object_get(msg, "error_type"));
	if (!cs || strcmp(cs, "job") || !em || !*em)
		return;
	size_t n = strlen(em);
	while (n && (em[n - 1] == ' ' || em[n - 1] == '\n'))
		n--;
	snprintf(out->error, sizeof out->error, "%.*s%s%s%s", (int)(n > 900 ? 900 : n), em,
		 et && *et ? " (" : "", et && *et ? et : "", et && *et ? " error)" : "");
}

static void one_target_line(struct column *c, const char *s, double t, double t0,
			    struct tail *tail, struct lava_log *out)
{
	size_t n = strlen(s);
	while (n && (s[n - 1] == '\r' || s[n - 1] == '\n'))
		n--;
	if (memmem(s, n, "@TTYPOT1 ", 9)) {
		int had_begin = c->begin_seen;
		ingest_line(c, s, n);
		if (!had_begin && c->begin_seen && t >= 0 && t0 >= 0)
			out->boot_s = t - t0;
	}
	if (!out->panic && strstr(s, "Kernel panic"))
		out->panic = true;
	tail_add(tail, s);
}

void lava_log_read(struct column *c, const char *text, size_t len, struct lava_log *out)
{
	memset(out, 0, sizeof *out);
	out->boot_s = -1;
	struct tail tail;
	memset(&tail, 0, sizeof tail);
	double t0 = -1;
	const char *end = text + len;
	for (const char *l = text; l && l < end;) {
		const char *nl = memchr(l, '\n', (size_t)(end - l));
		size_t n = nl ? (size_t)(nl - l) : (size_t)(end - l);
		const char *next = nl ? nl + 1 : NULL;
		if (n < 3 || strncmp(l, "- ", 2)) {
			l = next;
			continue;
		}
		json_error_t je;
		json_t *e = json_loadb(l + 2, n - 2, 0, &je);
		l = next;
		if (!json_is_object(e)) {
			json_decref(e);
			continue;
		}
		out->entries++;
		const char *lvl = json_string_value(json_object_get(e, "lvl"));
		json_t *msg = json_object_get(e, "msg");
		double t = dt_secs(json_string_value(json_object_get(e, "dt")));
		if (t0 < 0)
			t0 = t;
		if (lvl && !strcmp(lvl, "target") && json_is_string(msg)) {
			/* One entry may hold several console lines. */
			char *s = xstrdup(json_string_value(msg));
			for (char *p = s, *q; p; p = q) {
				q = strchr(p, '\n');
				if (q)
					*q++ = '\0';
				one_target_line(c, p, t, t0, &tail, out);
			}
			free(s);
		} else if (lvl && !strcmp(lvl, "results") && json_is_object(msg)) {
			job_error(msg, out);
		}
		json_decref(e);
	}
	out->console_tail = tail_join(&tail);
}

void lava_log_free(struct lava_log *l)
{
	free(l->console_tail);
	l->console_tail = NULL;
}

void lava_column_end(struct column *c, long id, const char *state, const char *health,
		     const char *failure_comment, const struct lava_log *l)
{
	char msg[1500];
	const char *why = l->error[0] ? l->error :
		failure_comment && *failure_comment ? failure_comment : "";
	bool finished = state && !strcmp(state, "Finished");
	if (!finished) {
		/* The collect deadline passed first: the cells not reported are
		 * timeouts, as for a local kernel past its deadline. */
		c->end = END_TIMEOUT;
		snprintf(msg, sizeof msg, "LAVA job %ld still %s when the collect deadline passed",
			 id, state ? state : "unknown");
		col_set_error(c, msg);
	} else if (l->panic && !c->end_seen) {
		c->end = END_PANIC;
		snprintf(msg, sizeof msg, "kernel panic (LAVA job %ld %s%s%s)", id,
			 health ? health : "", why[0] ? ": " : "", why);
		col_set_error(c, msg);
	} else if (c->end_seen) {
		/* The suite finished: every cell is in the log, whatever LAVA
		 * thought of the job's end. */
		c->end = END_DONE;
	} else if (health && !strcmp(health, "Complete")) {
		c->end = END_SILENT;
		col_set_error(c, c->begin_seen ?
			      "LAVA job Complete but the suite's end line never came" :
			      "LAVA job Complete but the suite never started (no begin line in the log)");
	} else {
		/* Incomplete or Canceled: LAVA's own reason. */
		c->end = END_ERROR;
		snprintf(msg, sizeof msg, "LAVA job %ld %s: %s", id, health ? health : "Unknown",
			 why[0] ? why : "no error message from LAVA");
		col_set_error(c, msg);
	}
	if (c->end != END_DONE)
		col_set_console(c, l->console_tail ? l->console_tail : "");
}
