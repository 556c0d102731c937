// SPDX-License-Identifier: GPL-2.0-only
/* progress.c: per-kernel progress from a growing results file. */
#include "progress.h"
#include "ingest.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

double progress_now(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

void progress_start(struct progress *p, int idx, int total, const char *label,
		    const char *results_path, long expected, FILE *out)
{
	memset(p, 0, sizeof *p);
	p->idx = idx;
	p->total = total;
	snprintf(p->label, sizeof p->label, "%s", label);
	snprintf(p->path, sizeof p->path, "%s", results_path);
	p->scratch = col_new(label);
	p->expected = expected;
	p->t_start = progress_now();
	p->last_done = -1;
	p->out = out;
	if (out)
		fprintf(out, "[%d/%d] %s: booting\n", idx, total, label);
}

static long count_bad(const struct column *c)
{
	long n = 0;
	for (size_t i = 0; i < c->ncases; i++)
		n += status_bad(c->cases[i].raw);
	return n;
}

void progress_text(const struct progress *p, char *out, size_t outlen)
{
	const struct column *c = p->scratch;
	if (!c->begin_seen) {
		snprintf(out, outlen, "[%d/%d] %s: booting", p->idx, p->total, p->label);
		return;
	}
	long want = c->begin_cases > 0 ? c->begin_cases : p->expected;
	char of[32] = "";
	if (want > 0)
		snprintf(of, sizeof of, "/%ld", want);
	snprintf(out, outlen, "[%d/%d] %s: boot %.1f s, %zu%s cases, %ld failed",
		 p->idx, p->total, p->label, p->t_begin - p->t_start, c->ncases, of,
		 count_bad(c));
}

void progress_poll(struct progress *p)
{
	int fd = open(p->path, O_RDONLY | O_CLOEXEC);
	if (fd >= 0) {
		char buf[65536];
		for (;;) {
			ssize_t n = pread(fd, buf, sizeof buf, p->off);
			if (n < 0 && errno == EINTR)
				continue;
			if (n <= 0)
				break;
			int had_begin = p->scratch->begin_seen;
			size_t used = ingest_buf(p->scratch, buf, (size_t)n, false);
			if (!had_begin && p->scratch->begin_seen)
				p->t_begin = progress_now();
			if (used == 0) {
				if ((size_t)n == sizeof buf) /* an absurd line: skip it */
					p->off += n;
				break;
			}
			p->off += (off_t)used;
		}
		close(fd);
	}
	if (!p->out || !p->scratch->begin_seen)
		return;
	long done = (long)p->scratch->ncases;
	double now = progress_now();
	bool first = p->last_done < 0;
	if (first || (done != p->last_done && now - p->last_print >= PROGRESS_EVERY_S)) {
		char line[512];
		progress_text(p, line, sizeof line);
		fprintf(p->out, "%s\n", line);
		p->last_done = done;
		p->last_print = now;
	}
}

void progress_finish(struct progress *p, const struct column *c)
{
	if (p->out) {
		long bad = 0;
		for (size_t i = 0; i < c->ncases; i++)
			bad += status_bad(c->cases[i].st);
		size_t nkw = column_warning_count(c);
		char kw[48] = "";
		if (nkw) /* a column whose cases all pass must not look clean */
			snprintf(kw, sizeof kw, ", %zu kernel warning%s", nkw, nkw == 1 ? "" : "s");
		fprintf(p->out, "[%d/%d] %s: %s, %zu cases, %ld failed%s, boot %.1f s, suite %.1f s%s%s\n",
			p->idx, p->total, c->label, end_name(c->end), c->ncases, bad, kw,
			c->boot_s, c->suite_s, c->error[0] ? ": " : "", c->error);
	}
	col_free(p->scratch);
	p->scratch = NULL;
}
