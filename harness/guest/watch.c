// SPDX-License-Identifier: GPL-2.0-only
/* watch.c: the watch loop both runners share (results file, console,
 * deadline), and the filter splitting. */
#include "watch.h"
#include "proto.h"
#include "kutil.h"
#include "proc.h"

#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

/* After the end line, the guest gets this long to power off. */
#define AFTER_END_GRACE_S 20.0
/* After a panic shows, QEMU gets this long to stop by itself (panic=-1). */
#define AFTER_PANIC_GRACE_S 5.0
/* After the last case the begin line announced, the guest's own reporting
 * (fixtures/guest/run-suite.sh: Kyua's database read twice, the failures'
 * output) gets this long to write the end line. */
#define WATCH_AFTER_LAST_CASE_S 300

int
split_words(const char *s, char *buf, size_t buflen, const char **words,
	    int max)
{
	int n = 0;
	if (!s)
		return 0;
	snprintf(buf, buflen, "%s", s);
	for (char *t = strtok(buf, " ,\t\n"); t && n < max;
	     t = strtok(NULL, " ,\t\n"))
		words[n++] = t;
	return n;
}

/* A complete, CRC-valid protocol line of this kind? */
static bool
line_is(const char *line, size_t len, const char *kind)
{
	while (len > 0 && (line[len - 1] == '\r' || line[len - 1] == '\n'))
		len--;
	size_t ml = strlen(PROTO_MAGIC), kl = strlen(kind);
	return len > ml + kl && !memcmp(line, PROTO_MAGIC, ml) &&
	       !memcmp(line + ml, kind, kl) && line[ml + kl] == ' ' &&
	       proto_check(line, len) >= 0;
}

struct tail {
	int fd;
	long long off;
	char buf[8192]; /* the current incomplete line / overlap */
	size_t len;
};

static void
tail_open(struct tail *t, const char *path, long long off)
{
	t->fd = open(path, O_RDONLY | O_CLOEXEC);
	t->off = off;
	t->len = 0;
}

/* Feed new complete lines of t to fn. */
static void
tail_lines(struct tail *t, void (*fn)(void *, const char *, size_t), void *arg)
{
	if (t->fd < 0)
		return;
	char chunk[4096];
	ssize_t n;
	while ((n = pread(t->fd, chunk, sizeof chunk, t->off)) > 0) {
		t->off += n;
		for (ssize_t i = 0; i < n; i++) {
			if (t->len < sizeof t->buf - 1)
				t->buf[t->len++] = chunk[i];
			if (chunk[i] == '\n') {
				t->buf[t->len] = '\0';
				fn(arg, t->buf, t->len);
				t->len = 0;
			}
		}
	}
}

struct seen {
	int results_fd; /* console protocol lines are copied here, or -1 */
	double now;
	double t_begin, t_end, t_panic, t_oops, t_output;
	double t_result; /* the last begin or case line */
	long expected, reported; /* the begin line's cases=N; case lines */
	bool begin, end, panic, oops, banner;
	char last_case[160]; /* the id of the last case reported */
	char oops_line[160]; /* the first Oops line, its timestamp dropped */
};

/* The lines a kernel prints when it dies in a task (die(), BUG()): x86
 * prints "Oops: " before every oops (6.12; older ones: x86_die_line), arm64
 * "Internal error: Oops"; and
 * those it prints when a CPU or a task no longer gets on (an RCU stall, a
 * soft lockup, a hung task: a mutant looping in n_tty_read showed the
 * first, then nothing for good).  A WARN or a "BUG: sleeping function" is
 * not one: the kernel goes on.  A guest starved by a loaded host may print
 * a stall and go on: only silence after the mark counts, and a mutation
 * run confirms a dead kernel on a second boot. */
static const char *const oops_marks[] = { "Oops: ", "kernel BUG at ",
					  "Unable to handle kernel ",
					  "detected stalls on CPUs/tasks",
					  "self-detected stall on CPU",
					  "BUG: soft lockup",
					  "blocked for more than" };

/* x86's die() line without the "Oops: " that 6.12 puts before it (6.1:
 * "divide error: 0000 [#1] PREEMPT SMP", "general protection fault, ...:
 * 0000 [#1]"): in a line holding ": NNNN [#N", where the event's name
 * starts; else NULL. */
static const char *
x86_die_line(const char *line, size_t len)
{
	const char *end = line + len;
	for (const char *p = memmem(line, len, " [#", 3); p;
	     p = memmem(p + 3, (size_t)(end - p - 3), " [#", 3)) {
		if (p - line < 6 || p[-6] != ':' || p[-5] != ' ')
			continue;
		bool hex = true;
		for (int k = 4; k >= 1; k--)
			hex &= isxdigit((unsigned char)p[-k]) != 0;
		if (!hex || p + 3 >= end || !isdigit((unsigned char)p[3]))
			continue;
		const char *ts = line[0] == '[' ? memchr(line, ']', (size_t)(p - line)) : NULL;
		return ts ? ts + 1 : line; /* the event's name, after the timestamp */
	}
	return NULL;
}

/* Where a line shows one of the marks above or an x86 die line; NULL. */
static const char *
oops_mark(const char *line, size_t len)
{
	for (size_t i = 0; i < sizeof oops_marks / sizeof *oops_marks; i++) {
		const char *m = memmem(line, len, oops_marks[i], strlen(oops_marks[i]));
		if (m)
			return m;
	}
	return x86_die_line(line, len);
}

static void
note_oops(struct seen *s, const char *line, size_t len)
{
	const char *m = s->oops ? NULL : oops_mark(line, len);
	if (!m)
		return;
	/* the whole line but its timestamp ("rcu: INFO: rcu_sched ...") */
	const char *ts = line[0] == '[' ? memchr(line, ']', (size_t)(m - line)) : NULL;
	if (ts) {
		m = ts + 1;
		while (m < line + len && *m == ' ')
			m++;
	}
	size_t n = len - (size_t)(m - line);
	while (n && (m[n - 1] == '\n' || m[n - 1] == '\r'))
		n--;
	snprintf(s->oops_line, sizeof s->oops_line, "%.*s", (int)n, m);
	s->oops = true;
	s->t_oops = s->now;
}

static void
on_result(void *arg, const char *line, size_t len)
{
	struct seen *s = arg;
	s->t_output = s->now;
	bool is_case = line_is(line, len, "case"), is_begin = line_is(line, len, "begin");
	/* only a case result is progress: a kernel log line every few
	 * seconds (a stall repeated) is not */
	if (is_case || is_begin)
		s->t_result = s->now;
	if (is_case) {
		s->reported++;
		const char *id = line + strlen(PROTO_MAGIC) + strlen("case ");
		snprintf(s->last_case, sizeof s->last_case, "%.*s",
			 (int)strcspn(id, " \r\n"), id);
	}
	if (!s->begin && is_begin) {
		s->begin = true;
		s->t_begin = s->now;
		const char *n = strstr(line, " cases=");
		s->expected = n ? strtol(n + 7, NULL, 10) : 0;
	} else if (!s->end && line_is(line, len, "end")) {
		s->end = true;
		s->t_end = s->now;
	}
}

static void
on_console(void *arg, const char *line, size_t len)
{
	struct seen *s = arg;
	s->t_output = s->now;
	note_oops(s, line, len);
	if (!s->banner && memmem(line, len, "Linux version", 13))
		s->banner = true;
	/* A guest without a results port reports on the console instead. */
	const char *p = strstr(line, "@TTYPOT1 ");
	if (p && s->results_fd >= 0) {
		size_t n = len - (size_t)(p - line);
		while (n > 0 && (p[n - 1] == '\n' || p[n - 1] == '\r'))
			n--;
		char buf[8200];
		memcpy(buf, p, n);
		buf[n] = '\n';
		if (write(s->results_fd, buf, n + 1) < 0)
			s->results_fd = -1;
	}
	if (!s->panic && strstr(line, "Kernel panic")) {
		s->panic = true;
		s->t_panic = s->now;
	}
}

void
watch_run(struct watch *w, struct run_outcome *out)
{
	struct tail res, con;
	struct seen s = {.results_fd = -1};
	if (w->scan_panic)
		s.results_fd = open(w->results, O_WRONLY | O_APPEND | O_CLOEXEC);
	tail_open(&res, w->results, w->offset);
	tail_open(&con, w->console, 0);
	bool exited = false, killed = false, boot_late = false, dead = false,
	     stalled = false, silent = false, no_end = false;
	int after_last = w->after_last_case_s > 0 ? w->after_last_case_s
						  : WATCH_AFTER_LAST_CASE_S;
	int st = 0;
	double last_note = w->t0, stretch = 1;
	bool stretched = false;
	int deadline = w->deadline_s, case_silence = w->case_silence_s;
	for (;;) {
		s.now = proc_now();
		tail_lines(&res, on_result, &s);
		if (w->scan_panic) {
			if (con.fd < 0)
				tail_open(&con, w->console, 0);
			tail_lines(&con, on_console, &s);
		}
		/* The boot measures the host's speed now: deadlines measured
		 * on a faster one stretch by as much, so that a loaded machine
		 * does not pass for a hung kernel. */
		if (w->ref_boot_s > 0 && s.begin && !stretched) {
			stretched = true;
			double boot = s.t_begin - w->t0;
			if (boot > w->ref_boot_s) {
				stretch = boot / w->ref_boot_s;
				stretch = stretch < RUN_MAX_STRETCH ? stretch : RUN_MAX_STRETCH;
				deadline = (int)(w->deadline_s * stretch);
				case_silence = (int)(w->case_silence_s * stretch);
				ku_progress("%s: booted in %.0f s against %.0f s: deadlines x%.2f "
					    "(%d s, case silence %d s)", w->who, boot,
					    w->ref_boot_s, stretch, deadline, case_silence);
			}
		}
		if (exited)
			break;
		if (proc_poll_exit(w->pid, &st)) {
			exited = true;
			continue; /* one last read of both files */
		}
		double el = s.now - w->t0;
		if ((s.end && s.now - s.t_end > AFTER_END_GRACE_S) ||
		    (s.panic && s.now - s.t_panic > AFTER_PANIC_GRACE_S)) {
			proc_kill(w->pid, 1000);
			exited = true;
			continue;
		}
		/* Quiet: no console line and no case result since the Oops. */
		double last = s.t_output > s.t_oops ? s.t_output : s.t_oops;
		double quiet = s.now - (s.t_result > last ? s.t_result : last);
		if (w->oops_silence_s > 0 && s.oops && !s.end && quiet > w->oops_silence_s) {
			ku_progress("%s: the kernel failed (%s) and has said nothing for "
				    "%d s: it is dead, stopping it", w->who, s.oops_line,
				    w->oops_silence_s);
			proc_kill(w->pid, 1000);
			exited = dead = true;
			continue;
		}
		/* A case that hangs with the kernel quiet (a mutant spinning
		 * in n_tty_read prints no stall): no result for that long is
		 * a hang, decided now rather than at the deadline. */
		if (case_silence > 0 && s.begin && !s.end &&
		    s.now - s.t_result > case_silence) {
			ku_progress("%s: no case result for %d s after %s: hung, stopping it",
				    w->who, case_silence,
				    s.last_case[0] ? s.last_case : "the begin line");
			proc_kill(w->pid, 1000);
			exited = killed = silent = true;
			continue;
		}
		/* Every case in, and the guest never says it is done (its Kyua
		 * aborted and what follows wedged): what it owes is in. */
		if (s.begin && !s.end && s.expected > 0 && s.reported >= s.expected &&
		    s.now - s.t_result > after_last) {
			ku_progress("%s: all %ld cases reported, then no end line for %d s: "
				    "stopping it", w->who, s.expected, after_last);
			proc_kill(w->pid, 1000);
			exited = killed = no_end = true;
			continue;
		}
		/* An accelerator that never runs the kernel proper (nested KVM
		 * here does so now and then): the caller boots it again. */
		if (w->banner_s > 0 && !s.banner && !s.begin && el > w->banner_s) {
			ku_progress("%s: no kernel banner on the console in %d s, "
				    "stopping it", w->who, w->banner_s);
			proc_kill(w->pid, 1000);
			exited = stalled = true;
			continue;
		}
		if (el > deadline) {
			ku_progress("%s: deadline of %d s passed, stopping it",
				    w->who, deadline);
			proc_kill(w->pid, 1000);
			exited = killed = true;
			continue;
		}
		if (!s.begin && w->boot_deadline_s > 0 && el > w->boot_deadline_s) {
			ku_progress("%s: no suite within the boot deadline of %d s, "
				    "stopping it", w->who, w->boot_deadline_s);
			proc_kill(w->pid, 1000);
			exited = killed = boot_late = true;
			continue;
		}
		if (s.now - last_note >= 60) {
			ku_progress("%s: %s for %.0f s", w->who,
				    s.begin ? "running the suite" : "booting",
				    el);
			last_note = s.now;
		}
		if (w->hs) {
			hostside_service(w->hs, 100);
		} else {
			struct timespec ts = {0, 100 * 1000 * 1000};
			nanosleep(&ts, NULL);
		}
	}
	if (res.fd >= 0)
		close(res.fd);
	if (con.fd >= 0)
		close(con.fd);
	if (s.results_fd >= 0)
		close(s.results_fd);
	double stop = proc_now();
	if (s.end)
		out->end = RUN_DONE;
	else if (s.panic || dead)
		out->end = RUN_PANIC;
	else if (killed)
		out->end = RUN_TIMEOUT;
	else
		out->end = RUN_SILENT;
	out->boot_s = (s.begin ? s.t_begin : stop) - w->t0;
	out->suite_s = s.begin ? (s.end ? s.t_end : stop) - s.t_begin : 0;
	if (out->end == RUN_SILENT)
		snprintf(out->err, sizeof out->err, "%s exited (status %d) "
			 "without an end line", w->who, st);
	out->oops_silent = dead && !s.panic;
	out->stalled = stalled;
	if (stalled)
		snprintf(out->err, sizeof out->err, "%s printed no kernel banner "
			 "within %d s", w->who, w->banner_s);
	if (out->oops_silent)
		snprintf(out->err, sizeof out->err, "the kernel failed (%s) and then "
			 "said nothing for %d s: stopped as dead", s.oops_line,
			 w->oops_silence_s);
	if (boot_late && out->end == RUN_TIMEOUT)
		snprintf(out->err, sizeof out->err, "%s did not start the suite "
			 "within the boot deadline of %d s", w->who, w->boot_deadline_s);
	if (no_end && out->end == RUN_TIMEOUT)
		snprintf(out->err, sizeof out->err, "all %ld cases reported, then no end "
			 "line for %d s", s.expected, after_last);
	out->case_silent = silent && out->end == RUN_TIMEOUT;
	if (out->case_silent)
		snprintf(out->err, sizeof out->err, "no case result for %d s after %.160s",
			 case_silence, s.last_case[0] ? s.last_case : "the begin line");
	out->stretch = stretch;
}

int
watch_spawn(const char *const argv[], const struct proc_opts *po,
	    const struct run_opts *o, const char *results_path,
	    const char *who, bool scan_panic, struct hostside *hs,
	    struct run_outcome *out)
{
	struct stat st;
	long long off = stat(results_path, &st) == 0 ? st.st_size : 0;
	struct watch w = {.t0 = proc_now(),
			  .deadline_s = o->deadline_s > 0 ? o->deadline_s
							  : 3600,
			  .boot_deadline_s = o->boot_deadline_s,
			  .oops_silence_s = o->oops_silence_s,
			  .banner_s = o->banner_s,
			  .case_silence_s = o->case_silence_s,
			  .after_last_case_s = o->after_last_case_s,
			  .ref_boot_s = o->ref_boot_s,
			  .results = results_path,
			  .offset = off,
			  .console = out->console_path,
			  .scan_panic = scan_panic,
			  .who = who,
			  .hs = hs};
	w.pid = proc_spawn(argv, po, out->err, sizeof out->err);
	if (w.pid < 0)
		return -1;
	watch_run(&w, out);
	return 0;
}
