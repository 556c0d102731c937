// SPDX-License-Identifier: GPL-2.0-only
/* tp_hvc.c: finding and opening the hvc and the USB serial port joined to
 * it (tp_hvc.h). */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <sys/ioctl.h>
#include <termios.h>
#include <unistd.h>

#include "tp_hvc.h"
#include "tp_host.h"
#include "tp_private.h"

static bool
is_dir(const char *p)
{
	return access(p, F_OK) == 0;
}

static void
find_var(const atf_tc_t *tc, const char *var, const char *drvdir,
	 const char *driver, const char *what, char *path, size_t len)
{
	if (!atf_tc_has_config_var(tc, var)) {
		if (!is_dir(drvdir))
			atf_tc_skip("no %s: the kernel has no %s driver (%s "
				    "missing)", what, driver, drvdir);
		atf_tc_skip("no %s: %s is loaded but no port was named "
			    "(Kyua variable %s: ttypot's QEMU guests set it; "
			    "the host column has none)", what, driver, var);
	}
	snprintf(path, len, "%s", atf_tc_get_config_var(tc, var));
	if (access(path, F_OK) != 0)
		atf_tc_skip("%s %s (Kyua variable %s) does not exist", what,
			    path, var);
}

void
tp_hvc_find(const atf_tc_t *tc, char *path, size_t len)
{
	find_var(tc, "hvc_port", "/sys/bus/virtio/drivers/virtio_console",
		 "virtio_console", "virtio-console hvc port", path, len);
}

void
tp_usb_find(const atf_tc_t *tc, char *path, size_t len)
{
	find_var(tc, "usb_port", "/sys/bus/usb-serial/drivers/ftdi_sio",
		 "ftdi_sio", "FTDI USB serial port", path, len);
}

/* ---------------------------------------------------------------- hvc state */

int
tp_hvc_open(const char *path, int extra)
{
	return tp_tty_open_restored(path, extra);
}

void
tp_hvc_close(int fd)
{
	tp_uart_close(fd);
}

int
tp_tcsets(int fd, const struct termios *t)
{
	return ioctl(fd, TCSETS, t);
}

/* ---------------------------------------------------------------- the link */

void
tp_vlink_drain(int a, int b)
{
	char junk[512];
	long long quiet_since = tp_now_ms(), deadline = quiet_since + TP_WAIT_MS;

	tp_waiting_for("stale bytes on the hvc-USB link to stop");
	while (tp_now_ms() - quiet_since < TP_QUIET_WINDOW_MS) {
		if (tp_now_ms() > deadline)
			atf_tc_fail("the hvc-USB link never went quiet: bytes "
				    "keep arriving for %d ms", TP_WAIT_MS);
		struct pollfd pf[2] = {{.fd = a, .events = POLLIN},
				       {.fd = b, .events = POLLIN}};
		if (poll(pf, 2, TP_QUIET_WINDOW_MS) > 0)
			for (int i = 0; i < 2; i++)
				if ((pf[i].revents & POLLIN) &&
				    tp_fionread(pf[i].fd) > 0 &&
				    read(pf[i].fd, junk, sizeof(junk)) > 0)
					quiet_since = tp_now_ms();
	}
}

void
tp_vlink_open(const atf_tc_t *tc, struct tp_vlink *paths, int *hvc, int *usb,
	      int extra)
{
	struct tp_vlink p;

	tp_hvc_find(tc, p.hvc, sizeof(p.hvc));
	tp_usb_find(tc, p.usb, sizeof(p.usb));
	*hvc = tp_hvc_open(p.hvc, extra);
	*usb = tp_uart_open(p.usb, extra);
	tp_vlink_drain(*hvc, *usb);
	if (paths)
		*paths = p;
}

void
tp_vlink_transfer(int tx, int rx, const void *data, size_t len,
		  const char *what)
{
	tp_serial_transfer_window(tx, rx, data, len, TP_VLINK_WINDOW,
				  TP_WAIT_MS * 3, what);
}

/* ---------------------------------------------------------------- shared checks */

void
tp_vlink_check_eagain(int rx, int tx, const char *rxname)
{
	char c, what[96];

	errno = 0;
	ATF_CHECK_MSG(read(rx, &c, 1) == -1 && errno == EAGAIN, "read of an "
		      "idle %s: errno %s", rxname, strerror(errno));
	tp_write_str(tx, "x", "one byte from the other end");
	snprintf(what, sizeof(what), "the byte on the %s", rxname);
	tp_wait_poll(rx, POLLIN, TP_WAIT_MS, what);
	ATF_CHECK_MSG(read(rx, &c, 1) == 1 && c == 'x', "read of the %s after "
		      "POLLIN: %s", rxname, strerror(errno));
}

void
tp_vlink_check_poll(int rx, int tx, const char *rxname)
{
	char buf[8], what[96];

	short r = tp_poll1(rx, POLLIN | POLLOUT, 0);
	ATF_CHECK_MSG(r == POLLOUT, "idle %s polls %#x", rxname, (unsigned)r);
	tp_write_str(tx, "ab", "two bytes from the other end");
	snprintf(what, sizeof(what), "both bytes on the %s", rxname);
	tp_wait_fionread(rx, 2, TP_WAIT_MS, what);
	ATF_CHECK(tp_poll1(rx, POLLIN, 0) & POLLIN);
	ATF_CHECK_EQ(read(rx, buf, sizeof(buf)), 2);
	ATF_CHECK_MSG(!(tp_poll1(rx, POLLIN, 0) & POLLIN), "POLLIN on the %s "
		      "after reading everything", rxname);
}

void
tp_vlink_unplug_blocked(int fd, const char *dev, int alt_err, int round)
{
	struct tp_reader r;
	struct tp_rd_result res;
	char c = 'w';

	tp_reader_start(&r, fd, 8);
	tp_wait_blocked_fd(r.child.pid, SYS_read, fd, "a reader blocked in "
			   "read() on the port");
	tp_host_ask(TP_WAIT_MS, "unplug %s", dev);
	tp_reader_result(&r, &res, "the blocked reader to return after the "
			 "unplug");
	ATF_CHECK_MSG(res.n == 0 || (res.n < 0 && res.err == EIO), "round %d: "
		      "the blocked read returned %zd (%s), not 0 or EIO", round,
		      res.n, res.n < 0 ? strerror(res.err) : "data");
	errno = 0;
	ATF_CHECK_MSG(write(fd, &c, 1) == -1 && (errno == EIO ||
		      (alt_err && errno == alt_err)), "round %d: write after "
		      "the unplug: %s", round, strerror(errno));
	short ev = tp_poll1(fd, POLLIN | POLLOUT, 0);
	ATF_CHECK_MSG(ev & POLLHUP, "round %d: poll after the unplug reports "
		      "%#x, no POLLHUP", round, (unsigned)ev);
}
