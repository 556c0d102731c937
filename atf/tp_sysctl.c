/* tp_sysctl.c: change a sysctl for one case and put it back at case end,
 * also when a check fails (atexit, in the case process only). */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
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

bool
tp_sysctl_set(const char *path, long v)
{
	long cur;
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
