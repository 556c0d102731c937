// SPDX-License-Identifier: GPL-2.0-only
/* t_pollrdnorm.c: regressions.md #7: a poller asking only for POLLRDNORM
 * slept through input (3.18 .. 5.17) because the receive wakeup named
 * EPOLLIN alone.  poll/t_poll.c checks the catalogue's canonical slave; here
 * the same wakeup on a raw slave and on the master (both n_tty receivers),
 * each poller seen asleep before the data arrives. */
#include <errno.h>
#include <poll.h>
#include <string.h>
#include <unistd.h>

#include "ttypot.h"

static int
rdnorm_poller(void *arg)
{
	int fd = *(int *)arg;
	struct pollfd pfd = { .fd = fd, .events = POLLRDNORM };
	int n = poll(&pfd, 1, TP_WAIT_MS);
	if (n != 1 || !(pfd.revents & POLLRDNORM))
		return tp_child_fail("poll(POLLRDNORM) returned %d, revents "
				     "0x%x", n, (unsigned)pfd.revents);
	return 0;
}

static void
check_woken(int poll_fd, int write_fd, const char *data)
{
	struct tp_child c;

	tp_child_start(&c, rdnorm_poller, &poll_fd);
	tp_wait_blocked_poll(c.pid, "poller asleep for POLLRDNORM");
	tp_write_str(write_fd, data, "data for the poller");
	tp_child_join(&c, TP_WAIT_MS, "POLLRDNORM poller woken by the data");
}

TP_CASE_COMMITS(pollrdnorm_raw_slave_woken, TP_LINUX, "57087d515441",
		"c816b2e65b0e",
		"#7 on a raw slave: a process asleep in poll(slave, POLLRDNORM) "
		"is woken by the master's write with POLLRDNORM in revents")
{
	struct tp_pty p;

	tp_pty_open(&p, TP_RAW);
	check_woken(p.slave, p.master, "hello");
	tp_pty_close(&p);
}

TP_CASE_COMMITS(pollrdnorm_master_woken, TP_LINUX, "57087d515441",
		"c816b2e65b0e",
		"#7 on the master: a process asleep in poll(master, POLLRDNORM) "
		"is woken by the slave's write with POLLRDNORM in revents")
{
	struct tp_pty p;

	tp_pty_open(&p, TP_RAW);
	check_woken(p.master, p.slave, "hello\n");
	tp_pty_close(&p);
}

ATF_TP_ADD_TCS(tp)
{
	ATF_TP_ADD_TC(tp, pollrdnorm_raw_slave_woken);
	ATF_TP_ADD_TC(tp, pollrdnorm_master_woken);
	return atf_no_error();
}
