// SPDX-License-Identifier: GPL-2.0-only
/* t_hvcio.c: an hvc as a tty driver: its registration (/proc/tty/drivers,
 * sysfs), non-blocking reads, poll readiness, window size, modem-line
 * ioctls it does not have, and opens sharing one port. */
#include <errno.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include "tp_hvc.h"

/* The hvc driver's major (drivers/tty/hvc/hvc_console.c, HVC_MAJOR). */
#define HVC_MAJOR 229

TP_CASE(hvc_driver_registered, TP_LINUX,
	"/proc/tty/drivers lists the hvc driver: name hvc, node /dev/hvc, "
	"major 229, type system; the hvc port is a character device of that "
	"major whose /sys/class/tty entry has the same dev number")
{
	char path[64], line[256], sys[128];
	struct stat st;
	bool found = false;

	tp_hvc_find(tc, path, sizeof(path));
	FILE *f = fopen("/proc/tty/drivers", "r");
	ATF_REQUIRE_MSG(f, "/proc/tty/drivers: %s", strerror(errno));
	while (fgets(line, sizeof(line), f)) {
		char name[64], node[64], range[64], type[64];
		int major;
		if (sscanf(line, "%63s %63s %d %63s %63s", name, node, &major,
			   range, type) == 5 && strcmp(name, "hvc") == 0) {
			found = true;
			ATF_CHECK_STREQ(node, "/dev/hvc");
			ATF_CHECK_EQ(major, HVC_MAJOR);
			ATF_CHECK_STREQ(type, "system");
		}
	}
	fclose(f);
	ATF_CHECK_MSG(found, "no hvc line in /proc/tty/drivers");
	ATF_REQUIRE_MSG(stat(path, &st) == 0, "stat %s: %s", path,
			strerror(errno));
	ATF_CHECK_MSG(S_ISCHR(st.st_mode) && major(st.st_rdev) == HVC_MAJOR,
		      "%s is %u:%u", path, major(st.st_rdev), minor(st.st_rdev));
	snprintf(sys, sizeof(sys), "/sys/class/tty/%s/dev", strrchr(path, '/') + 1);
	f = fopen(sys, "r");
	ATF_REQUIRE_MSG(f, "%s: %s", sys, strerror(errno));
	unsigned ma = 0, mi = 0;
	ATF_CHECK_MSG(fscanf(f, "%u:%u", &ma, &mi) == 2 &&
		      ma == major(st.st_rdev) && mi == minor(st.st_rdev),
		      "%s reads %u:%u, the node is %u:%u", sys, ma, mi,
		      major(st.st_rdev), minor(st.st_rdev));
	fclose(f);
}

TP_CASE(hvc_nonblocking_read_eagain, TP_POSIX,
	"A non-blocking read of an hvc with no input fails with EAGAIN; once "
	"the USB port sent a byte the same read returns it")
{
	int h, u;

	tp_vlink_open(tc, NULL, &h, &u, O_NONBLOCK);
	tp_vlink_check_eagain(h, u, "hvc");
}

TP_CASE(hvc_poll_readiness, TP_POSIX,
	"poll on an idle hvc reports POLLOUT and not POLLIN; POLLIN comes "
	"when bytes arrive and goes once they are read")
{
	int h, u;

	tp_vlink_open(tc, NULL, &h, &u, O_NONBLOCK);
	tp_vlink_check_poll(h, u, "hvc");
}

TP_CASE(hvc_window_size, TP_LINUX,
	"TIOCSWINSZ on an hvc is read back by TIOCGWINSZ.  (SIGWINCH from "
	"the host, VIRTIO_CONSOLE_F_SIZE, cannot be driven: QEMU's "
	"virtconsole offers no resize)")
{
	char path[64];
	struct winsize w0, w = {.ws_row = 33, .ws_col = 101}, r;

	tp_hvc_find(tc, path, sizeof(path));
	int h = tp_hvc_open(path, 0);
	ATF_REQUIRE_MSG(ioctl(h, TIOCGWINSZ, &w0) == 0, "TIOCGWINSZ: %s",
			strerror(errno));
	ATF_REQUIRE_MSG(ioctl(h, TIOCSWINSZ, &w) == 0, "TIOCSWINSZ: %s",
			strerror(errno));
	int rc = ioctl(h, TIOCGWINSZ, &r);
	int err = errno;
	ioctl(h, TIOCSWINSZ, &w0);
	ATF_REQUIRE_MSG(rc == 0, "TIOCGWINSZ: %s", strerror(err));
	ATF_CHECK_MSG(r.ws_row == 33 && r.ws_col == 101, "read back %ux%u",
		      r.ws_row, r.ws_col);
}

static int winch_fd;

static int
winch_child(void *arg)
{
	(void)arg;
	sigset_t s;
	sigemptyset(&s);
	sigaddset(&s, SIGWINCH);
	sigprocmask(SIG_BLOCK, &s, NULL);
	int rc = tp_child_take_ctty(winch_fd);
	if (rc)
		return rc;
	struct winsize w = {.ws_row = 40, .ws_col = 120};
	if (ioctl(winch_fd, TIOCSWINSZ, &w) != 0)
		return tp_child_fail("TIOCSWINSZ: %s", strerror(errno));
	rc = tp_child_await_signal(SIGWINCH, TP_WAIT_MS,
				   "SIGWINCH after TIOCSWINSZ");
	/* Give the hvc up before exiting: a session leader's exit hangs up
	 * a controlling tty that is not a pty.  TIOCNOTTY sends the
	 * foreground group (this one) SIGHUP. */
	signal(SIGHUP, SIG_IGN);
	ioctl(winch_fd, TIOCNOTTY);
	return rc;
}

TP_CASE(hvc_winsize_change_sends_sigwinch, TP_POSIX,
	"A window size change on an hvc sends SIGWINCH to its foreground "
	"process group (a session whose controlling tty is the hvc)")
{
	char path[64];
	struct tp_child c;
	struct winsize w0;

	tp_hvc_find(tc, path, sizeof(path));
	winch_fd = tp_hvc_open(path, 0);
	ATF_REQUIRE(ioctl(winch_fd, TIOCGWINSZ, &w0) == 0);
	tp_child_start(&c, winch_child, NULL);
	tp_child_join(&c, TP_WAIT_MS, "the child to see SIGWINCH");
	ioctl(winch_fd, TIOCSWINSZ, &w0);
}

TP_CASE(hvc_has_no_modem_lines, TP_LINUX,
	"An hvc whose backend has no modem lines (virtio_console) answers "
	"TIOCMGET and TIOCMBIS with EINVAL, not with made-up lines")
{
	char path[64];
	int bits = TIOCM_DTR;

	tp_hvc_find(tc, path, sizeof(path));
	int h = tp_hvc_open(path, 0);
	errno = 0;
	ATF_CHECK_MSG(ioctl(h, TIOCMGET, &bits) == -1 && errno == EINVAL,
		      "TIOCMGET: %s (bits %#x)", strerror(errno), (unsigned)bits);
	errno = 0;
	bits = TIOCM_DTR;
	ATF_CHECK_MSG(ioctl(h, TIOCMBIS, &bits) == -1 && errno == EINVAL,
		      "TIOCMBIS: %s", strerror(errno));
}

TP_CASE(hvc_second_open_shares_port, TP_POSIX,
	"Two opens of an hvc share one port: closing one leaves the other "
	"working, and bytes from the USB port reach the one still open")
{
	struct tp_vlink p;
	int h, u;

	tp_vlink_open(tc, &p, &h, &u, 0);
	int h2 = open(p.hvc, O_RDWR | O_NOCTTY);
	ATF_REQUIRE_MSG(h2 >= 0, "second open of %s: %s", p.hvc, strerror(errno));
	struct termios a, b;
	tp_tc_get(h, &a);
	tp_tc_get(h2, &b);
	ATF_CHECK_MSG(a.c_iflag == b.c_iflag && a.c_oflag == b.c_oflag &&
		      a.c_cflag == b.c_cflag && a.c_lflag == b.c_lflag &&
		      memcmp(a.c_cc, b.c_cc, sizeof(a.c_cc)) == 0, "the two "
		      "opens see different termios");
	ATF_REQUIRE(close(h2) == 0);
	tp_write_str(u, "still", "bytes after the second close");
	TP_EXPECT_BYTES(h, "still", "the bytes on the first open");
}

ATF_TP_ADD_TCS(tp)
{
	ATF_TP_ADD_TC(tp, hvc_driver_registered);
	ATF_TP_ADD_TC(tp, hvc_nonblocking_read_eagain);
	ATF_TP_ADD_TC(tp, hvc_poll_readiness);
	ATF_TP_ADD_TC(tp, hvc_window_size);
	ATF_TP_ADD_TC(tp, hvc_winsize_change_sends_sigwinch);
	ATF_TP_ADD_TC(tp, hvc_has_no_modem_lines);
	ATF_TP_ADD_TC(tp, hvc_second_open_shares_port);
	return atf_no_error();
}
