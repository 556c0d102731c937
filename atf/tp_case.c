// SPDX-License-Identifier: GPL-2.0-only
/* tp_case.c: case metadata, the watchdog thread and end-of-case reaping. */
#include <errno.h>
#include <pthread.h>
#include <semaphore.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "ttypot.h"
#include "tp_private.h"

/* What the case is blocked on right now, for the watchdog's message. */
static char waiting_for[256] = "nothing in particular";
static pthread_mutex_t waiting_lock = PTHREAD_MUTEX_INITIALIZER;

void
tp_head(atf_tc_t *tc, const char *standard, int timeout_s, const char *descr)
{
	atf_tc_set_md_var(tc, "descr", "%s", descr);
	atf_tc_set_md_var(tc, "timeout", "%d", timeout_s);
	atf_tc_set_md_var(tc, "X-ttypot.standard", "%s", standard);
}

void
tp_waiting_for(const char *what)
{
	pthread_mutex_lock(&waiting_lock);
	snprintf(waiting_for, sizeof(waiting_for), "%s", what);
	pthread_mutex_unlock(&waiting_lock);
}

/* The case's own thread, parked by the watchdog before it fails: the reaper
 * that atf_tc_fail()'s exit runs kills the children, and a case thread still
 * running would see them die and write its own failure ("process exited
 * instead of blocking") over the watchdog's. */
static pthread_t case_thread;
static sem_t case_parked;
#define TP_PARK_SIG (SIGRTMIN + 7)

static void
park(int sig)
{
	(void)sig;
	sem_post(&case_parked); /* async-signal-safe */
	for (;;)
		pause();
}

/* The watchdog is a thread, not a signal handler, so failing from it may use
 * stdio and malloc; atf_tc_fail() exits the process, which runs the reaper. */
static void *
watchdog(void *arg)
{
	int seconds = *(int *)arg;
	struct timespec ts = {.tv_sec = seconds};

	while (clock_nanosleep(CLOCK_MONOTONIC, 0, &ts, &ts) == EINTR)
		;
	/* Park the case's thread (up to a second: a case that blocks the
	 * signal is not parked, and fails as before). */
	if (pthread_kill(case_thread, TP_PARK_SIG) == 0) {
		struct timespec until;
		clock_gettime(CLOCK_REALTIME, &until);
		until.tv_sec += 1;
		while (sem_timedwait(&case_parked, &until) != 0 && errno == EINTR)
			;
	}
	pthread_mutex_lock(&waiting_lock);
	char what[256];
	snprintf(what, sizeof(what), "%s", waiting_for);
	pthread_mutex_unlock(&waiting_lock);
	atf_tc_fail("watchdog: case still running after %d s; last wait: %s",
		    seconds, what);
	return NULL;
}

void
tp_begin(const atf_tc_t *tc, int timeout_s)
{
	static int seconds;
	pthread_t thr;

	(void)tc;
	tp_case_pid = getpid();
	case_thread = pthread_self();
	sem_init(&case_parked, 0, 0);
	struct sigaction sa = {.sa_handler = park};
	sigemptyset(&sa.sa_mask);
	sigaction(TP_PARK_SIG, &sa, NULL);
	/* A SIGPIPE on a closed pty or pipe must be an EPIPE the case sees. */
	signal(SIGPIPE, SIG_IGN);
	atexit(tp_reap_all);
	seconds = timeout_s > 10 ? timeout_s - 5 : timeout_s;
	if (pthread_create(&thr, NULL, watchdog, &seconds) != 0)
		atf_tc_fail("cannot start the watchdog thread");
	pthread_detach(thr);
}

void
tp_end(void)
{
	tp_reap_all();
}

long
tp_config_long(const atf_tc_t *tc, const char *name, long dflt)
{
	if (!atf_tc_has_config_var(tc, name))
		return dflt;
	const char *v = atf_tc_get_config_var(tc, name);
	char *end;
	errno = 0;
	long n = strtol(v, &end, 10);
	if (errno != 0 || *end != '\0' || end == v || n < 0)
		atf_tc_fail("config variable %s=%s is not a non-negative number",
			    name, v);
	return n;
}

void
tp_fail_eio_race(const char *fmt, ...)
{
	char msg[1024];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	atf_tc_fail("%s %s", TP_EIO_RACE_TAG, msg);
}

long long
tp_now_ms(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (long long)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

/* Exponential polling interval, 50 us doubling to 5 ms: state waits converge
 * fast on a native kernel and stay cheap under TCG. */
void
tp_backoff(int *step_us)
{
	if (*step_us < 50)
		*step_us = 50;
	struct timespec ts = {.tv_nsec = (long)*step_us * 1000};
	nanosleep(&ts, NULL);
	if (*step_us < 5000)
		*step_us *= 2;
}

void
tp_fixture_path(const atf_tc_t *tc, const char *name, char *out, size_t outlen)
{
	/* Case programs live in cases/<area>/, fixtures in fixtures/. */
	const char *src = atf_tc_get_config_var_wd(tc, "srcdir", ".");
	snprintf(out, outlen, "%s/../../fixtures/%s", src, name);
	if (access(out, X_OK) != 0)
		atf_tc_fail("fixture %s not found at %s", name, out);
}
