// SPDX-License-Identifier: GPL-2.0-only
/* tp_flow.c: output flow control helpers: stop/start input with a marker,
 * tcflow, and children that sleep in write() or poll(POLLOUT) on a stopped
 * tty so a case can check that the restart wakes them. */
#include <errno.h>
#include <poll.h>
#include <string.h>
#include <sys/ioctl.h>
#include <termios.h>
#include <unistd.h>

#include "ttypot.h"

bool
tp_can_write(int fd)
{
	return tp_poll1(fd, POLLOUT, 0) & POLLOUT;
}

void
tp_tcflow(int fd, int action, const char *what)
{
	if (tcflow(fd, action) != 0)
		atf_tc_fail("tcflow (%s): %s", what, strerror(errno));
}

void
tp_flow_input(struct tp_pty *p, const char *ctl, const char *what)
{
	char buf[16];

	tp_write_str(p->master, ctl, what);
	tp_write_str(p->master, "m", "marker after the flow input");
	tp_wait_fionread(p->slave, 1, TP_WAIT_MS, what);
	ssize_t r = read(p->slave, buf, sizeof(buf));
	if (r < 0)
		atf_tc_fail("%s: read of the marker: %s", what, strerror(errno));
	if (r != 1 || buf[0] != 'm')
		atf_tc_fail("%s: slave read \"%s\", want the marker \"m\" alone "
			    "(flow characters are consumed)", what,
			    tp_esc(buf, (size_t)r));
}

static int
writer_main(void *arg)
{
	struct tp_writer *w = arg;
	ssize_t n = write(w->fd, w->buf, w->len);
	if (n != (ssize_t)w->len)
		return tp_child_fail("write of %zu bytes returned %zd (%s)",
				     w->len, n, n < 0 ? strerror(errno) : "short");
	return 0;
}

void
tp_writer_start(struct tp_writer *w, int fd, const void *buf, size_t len)
{
	w->fd = fd;
	w->buf = buf;
	w->len = len;
	tp_child_start(&w->child, writer_main, w);
}

static int
pollout_main(void *arg)
{
	struct tp_writer *w = arg;
	struct pollfd pfd = { .fd = w->fd, .events = POLLOUT };
	int n = poll(&pfd, 1, TP_WAIT_MS);
	if (n != 1 || !(pfd.revents & POLLOUT))
		return tp_child_fail("poll(POLLOUT) returned %d, revents 0x%x "
				     "(%s)", n, (unsigned)pfd.revents,
				     n < 0 ? strerror(errno) : "not woken");
	return 0;
}

void
tp_pollout_start(struct tp_writer *w, int fd)
{
	w->fd = fd;
	w->buf = NULL;
	w->len = 0;
	tp_child_start(&w->child, pollout_main, w);
}

void
tp_expect_still_blocked(struct tp_writer *w, int master, const char *what)
{
	/* The window the master stays quiet is also the child's chance to
	 * finish wrongly. */
	tp_expect_quiet(master, what);
	if (tp_has_exited(w->child.pid))
		atf_tc_fail("%s: the child returned while output was stopped",
			    what);
}
