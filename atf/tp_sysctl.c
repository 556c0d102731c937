// SPDX-License-Identifier: GPL-2.0-only
/* tp_sysctl.c: change a sysctl for one case and put it back at case end,
 * also when a check fails (atexit, in the case process only). */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <unistd.h>

#include "ttypot.h"
#include "tp_private.h"

#define TP_MAX_SYSCTLS 8

static struct {
	char path[128];
	long value;
} saved[TP_MAX_SYSCTLS];
static int nsaved;

bool
tp_sysctl_read(const char *path, long *v)
{
	FILE *f = fopen(path, "r");
	if (f == NULL)
		return false;
	bool ok = fscanf(f, "%ld", v) == 1;
	fclose(f);
	return ok;
}

bool
tp_attr_read(const char *path, char *buf, size_t len)
{
	FILE *f = fopen(path, "re");
	if (f == NULL) {
		if (errno == ENOENT)
			return false;
		atf_tc_fail("open %s: %s", path, strerror(errno));
	}
	bool ok = fgets(buf, (int)len, f) != NULL;
	int e = ferror(f) ? errno : 0;
	fclose(f);
	if (!ok)
		atf_tc_fail("read %s: %s", path, e ? strerror(e) : "nothing");
	buf[strcspn(buf, "\n")] = '\0';
	return true;
}

int
tp_sysctl_write(const char *path, const char *text)
{
	FILE *f = fopen(path, "w");
	if (f == NULL)
		return errno;
	/* The kernel validates on write(2); stdio defers that to fclose. */
	setvbuf(f, NULL, _IONBF, 0);
	int err = fputs(text, f) < 0 ? errno : 0;
	if (fclose(f) != 0 && err == 0)
		err = errno;
	return err;
}

static void
restore_all(void)
{
	if (getpid() != tp_case_pid)
		return;
	for (int i = nsaved - 1; i >= 0; i--) {
		char text[32];
		snprintf(text, sizeof(text), "%ld\n", saved[i].value);
		tp_sysctl_write(saved[i].path, text);
	}
	nsaved = 0;
}

/* Sysctls are global to the host: is_exclusive orders the programs that
 * change them within one Kyua session, but two suites run at once (a
 * matrix's host column beside a `ttypot run`) would change them under each
 * other's cases.  The first change a case makes takes this lock, and the
 * case process keeps it until it exits, after the restore (atexit).  An
 * absolute path, not $TMPDIR, which Kyua makes per case. */
#define SYSCTL_LOCK "/tmp/ttypot-sysctl.lock"

void
tp_host_lock(const char *path, const char *what)
{
	long long deadline = tp_now_ms() + TP_WAIT_MS;
	int step = 0;
	int fd = open(path, O_RDONLY | O_CREAT | O_CLOEXEC, 0644);

	if (fd < 0)
		atf_tc_fail("open %s: %s", path, strerror(errno));
	tp_waiting_for(what);
	while (flock(fd, LOCK_EX | LOCK_NB) != 0) {
		if (errno != EWOULDBLOCK && errno != EINTR)
			atf_tc_fail("flock %s: %s", path, strerror(errno));
		if (tp_now_ms() > deadline)
			atf_tc_fail("a case of another suite held %s for %d ms",
				    path, TP_WAIT_MS);
		tp_backoff(&step);
	}
}

static void
lock_sysctls(void)
{
	static bool locked;

	if (locked)
		return;
	tp_host_lock(SYSCTL_LOCK,
		     "another suite's case to give back the sysctls");
	locked = true;
}

bool
tp_sysctl_set(const char *path, long v)
{
	long cur;
	if (!tp_sysctl_read(path, &cur))
		return false;
	/* Read again under the lock: that is the value to put back. */
	lock_sysctls();
	if (!tp_sysctl_read(path, &cur))
		return false;
	if (nsaved == 0)
		atexit(restore_all);
	if (nsaved == TP_MAX_SYSCTLS)
		atf_tc_fail("more than %d sysctls changed in one case", TP_MAX_SYSCTLS);
	snprintf(saved[nsaved].path, sizeof(saved[nsaved].path), "%s", path);
	saved[nsaved++].value = cur;
	char text[32];
	snprintf(text, sizeof(text), "%ld\n", v);
	int err = tp_sysctl_write(path, text);
	if (err != 0)
		atf_tc_fail("writing %ld to %s: %s", v, path, strerror(err));
	long now;
	if (!tp_sysctl_read(path, &now) || now != v)
		atf_tc_fail("%s reads %ld after writing %ld", path, now, v);
	return true;
}
