// SPDX-License-Identifier: GPL-2.0-only
/* tp_kmsg.c: wait for a record of the kernel log (/dev/kmsg) that a case
 * made the kernel write: its warnings and notices are part of what it
 * promises (a SysRq key's help, a deprecated flag's warning). */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <string.h>
#include <unistd.h>

#include "ttypot.h"

int
tp_kmsg_at_end(void)
{
	int fd = open("/dev/kmsg", O_RDONLY | O_NONBLOCK | O_CLOEXEC);
	if (fd < 0)
		atf_tc_skip("/dev/kmsg: %s: the case reads the kernel log", strerror(errno));
	ATF_REQUIRE_MSG(lseek(fd, 0, SEEK_END) >= 0, "lseek /dev/kmsg: %s",
			strerror(errno));
	return fd;
}

void
tp_kmsg_expect(int kmsg, const char *needle, const char *alt, const char *what)
{
	char rec[8192];
	long long deadline = tp_now_ms() + TP_WAIT_MS;
	tp_waiting_for(what);
	while (tp_now_ms() < deadline) {
		ssize_t n = read(kmsg, rec, sizeof rec - 1);
		if (n < 0 && errno == EPIPE) /* records overwritten: read on */
			continue;
		if (n < 0 && errno == EAGAIN) {
			tp_poll1(kmsg, POLLIN, 100);
			continue;
		}
		ATF_REQUIRE_MSG(n >= 0, "read /dev/kmsg: %s", strerror(errno));
		rec[n] = '\0';
		if (strstr(rec, needle) || (alt && strstr(rec, alt)))
			return;
	}
	atf_tc_fail("%s: no record holding \"%s\" in the kernel log within %d ms", what,
		    needle, TP_WAIT_MS);
}
