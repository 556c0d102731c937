// SPDX-License-Identifier: GPL-2.0-only
/* t_usbinfo.c: the USB serial port as a tty driver: its registration
 * (sysfs driver link, /proc/tty/drivers, /proc/tty/driver/usbserial),
 * TIOCGSERIAL, non-blocking reads, poll readiness, a hangup (TIOCVHANGUP)
 * under a blocked reader, ftdi_sio's own attributes and TIOCSSERIAL's
 * ASYNC_LOW_LATENCY.  (TIOCSERGETLSR is not checked: QEMU's FT232 model
 * never sets TEMT in its status bytes, so it reads 0 on every kernel.) */
#include <errno.h>
#include <limits.h>
#include <poll.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include "tp_hvc.h"

/* drivers/usb/serial/usb-serial.c: SERIAL_TTY_MAJOR. */
#define USB_SERIAL_MAJOR 188

static unsigned
usb_minor(const char *path)
{
	struct stat st;

	ATF_REQUIRE_MSG(stat(path, &st) == 0 && S_ISCHR(st.st_mode), "stat %s: "
			"%s", path, strerror(errno));
	ATF_CHECK_MSG(major(st.st_rdev) == USB_SERIAL_MAJOR, "%s has major %u",
		      path, major(st.st_rdev));
	return minor(st.st_rdev);
}

TP_CASE(usb_driver_is_ftdi_sio, TP_LINUX,
	"The USB serial port's sysfs device is bound to ftdi_sio: "
	"/sys/class/tty/ttyUSBn/device/driver links to the usb-serial bus "
	"driver ftdi_sio")
{
	char path[64], link[128], target[PATH_MAX];

	tp_usb_find(tc, path, sizeof(path));
	snprintf(link, sizeof(link), "/sys/class/tty/%s/device/driver",
		 strrchr(path, '/') + 1);
	ssize_t n = readlink(link, target, sizeof(target) - 1);
	ATF_REQUIRE_MSG(n > 0, "readlink %s: %s", link, strerror(errno));
	target[n] = '\0';
	const char *base = strrchr(target, '/');
	ATF_CHECK_MSG(base && strcmp(base, "/ftdi_sio") == 0 &&
		      strstr(target, "/bus/usb-serial/drivers/"), "%s -> %s",
		      link, target);
}

TP_CASE(usb_proc_registration, TP_LINUX,
	"/proc/tty/drivers lists usbserial (/dev/ttyUSB, major 188, type "
	"serial), and /proc/tty/driver/usbserial has a line for the port's "
	"minor naming the ftdi_sio driver (\"FTDI USB Serial Device\"), the "
	"FTDI vendor 0403 and product 6001")
{
	char path[64], line[512];
	bool drv = false, port = false;

	tp_usb_find(tc, path, sizeof(path));
	unsigned mi = usb_minor(path);
	FILE *f = fopen("/proc/tty/drivers", "r");
	ATF_REQUIRE_MSG(f, "/proc/tty/drivers: %s", strerror(errno));
	while (fgets(line, sizeof(line), f)) {
		char name[64], node[64], range[64], type[64];
		int major;
		if (sscanf(line, "%63s %63s %d %63s %63s", name, node, &major,
			   range, type) == 5 && strcmp(name, "usbserial") == 0) {
			drv = true;
			ATF_CHECK_STREQ(node, "/dev/ttyUSB");
			ATF_CHECK_EQ(major, USB_SERIAL_MAJOR);
			ATF_CHECK_STREQ(type, "serial");
		}
	}
	fclose(f);
	ATF_CHECK_MSG(drv, "no usbserial line in /proc/tty/drivers");
	f = fopen("/proc/tty/driver/usbserial", "r");
	ATF_REQUIRE_MSG(f, "/proc/tty/driver/usbserial: %s", strerror(errno));
	while (fgets(line, sizeof(line), f)) {
		unsigned n;
		if (sscanf(line, "%u:", &n) == 1 && n == mi) {
			port = true;
			/* module:ftdi_sio only where it is a module. */
			ATF_CHECK_MSG(strstr(line, "name:\"FTDI USB Serial "
					     "Device\"") &&
				      strstr(line, "vendor:0403") &&
				      strstr(line, "product:6001"), "line %s",
				      tp_esc(line, strlen(line)));
		}
	}
	fclose(f);
	ATF_CHECK_MSG(port, "no line for minor %u in /proc/tty/driver/usbserial",
		      mi);
}

TP_CASE(usb_tiocgserial, TP_LINUX,
	"TIOCGSERIAL on the USB serial port reports its line as the node's "
	"minor and an FT232B's baud_base, 24000000 (48 MHz / 2)")
{
	char path[64];
	struct serial_struct ss;

	tp_usb_find(tc, path, sizeof(path));
	unsigned mi = usb_minor(path);
	int u = tp_uart_open(path, 0);
	memset(&ss, 0xff, sizeof(ss));
	tp_uart_gserial(u, &ss);
	ATF_CHECK_MSG(ss.line == (int)mi, "line %d, minor %u", ss.line, mi);
	ATF_CHECK_EQ(ss.baud_base, 24000000);
}

TP_CASE(usb_nonblocking_read_eagain, TP_POSIX,
	"A non-blocking read of the USB serial port with no input fails with "
	"EAGAIN; once the hvc sent a byte the same read returns it")
{
	int h, u;

	tp_vlink_open(tc, NULL, &h, &u, O_NONBLOCK);
	tp_vlink_check_eagain(u, h, "USB port");
}

TP_CASE(usb_poll_readiness, TP_POSIX,
	"poll on an idle USB serial port reports POLLOUT and not POLLIN; "
	"POLLIN comes when bytes arrive and goes once they are read")
{
	int h, u;

	tp_vlink_open(tc, NULL, &h, &u, O_NONBLOCK);
	tp_vlink_check_poll(u, h, "USB port");
}

TP_CASE_ROOT(usb_vhangup_wakes_reader, TP_LINUX,
	"TIOCVHANGUP on the USB serial port hangs it up: a reader blocked in "
	"read() returns 0, the old descriptor reads EOF and fails writes with "
	"EIO, and a new open works and carries bytes")
{
	struct tp_vlink p;
	struct tp_reader r;
	struct tp_rd_result res;
	int h, u;
	char c = 'z';

	tp_vlink_open(tc, &p, &h, &u, 0);
	tp_reader_start(&r, u, 8);
	tp_wait_blocked_fd(r.child.pid, SYS_read, u, "a reader blocked in "
			   "read(USB)");
	ATF_REQUIRE_MSG(ioctl(u, TIOCVHANGUP) == 0, "TIOCVHANGUP: %s",
			strerror(errno));
	tp_reader_result(&r, &res, "the blocked reader to return after the "
			 "hangup");
	ATF_CHECK_MSG(res.n == 0, "the blocked read returned %zd (%s)", res.n,
		      res.n < 0 ? strerror(res.err) : "data");
	ATF_CHECK_EQ(read(u, &c, 1), 0);
	errno = 0;
	ATF_CHECK_MSG(write(u, &c, 1) == -1 && errno == EIO, "write after the "
		      "hangup: %s", strerror(errno));
	int u2 = tp_uart_open(p.usb, 0);
	tp_write_str(h, "after", "bytes from the hvc");
	TP_EXPECT_BYTES(u2, "after", "them on the reopened USB port");
}

/* Write value to a sysfs attribute, failing the case on error. */
static void
write_attr(const char *path, const char *value)
{
	int e = tp_sysctl_write(path, value);
	ATF_REQUIRE_MSG(e == 0, "write \"%s\" to %s: %s", value, path, strerror(e));
}

TP_CASE_ROOT(usb_ftdi_attributes, TP_LINUX,
	"The FT232's port shows event_char (every chip but the SIO has it; "
	"write-only, 0200) and latency_timer where the chip has one (0644), "
	"each with its declared mode; latency_timer reads back a value "
	"written (16 ms)")
{
	char path[64], dir[128], attr[160], val[32], old[32];
	struct stat st;

	tp_usb_find(tc, path, sizeof(path));
	snprintf(dir, sizeof(dir), "/sys/class/tty/%s/device", strrchr(path, '/') + 1);
	static const struct {
		const char *name;
		unsigned mode;
	} attrs[] = {{"event_char", 0200}, {"latency_timer", 0644}};
	for (size_t i = 0; i < sizeof attrs / sizeof *attrs; i++) {
		snprintf(attr, sizeof(attr), "%s/%s", dir, attrs[i].name);
		if (stat(attr, &st) != 0) {
			ATF_REQUIRE_MSG(errno == ENOENT, "stat %s: %s", attr, strerror(errno));
			ATF_CHECK_MSG(i != 0, "no %s on an FT232", attr);
			continue;
		}
		ATF_CHECK_MSG((st.st_mode & 07777) == attrs[i].mode, "%s has mode %04o, "
			      "want %04o", attr, (unsigned)(st.st_mode & 07777), attrs[i].mode);
	}
	snprintf(attr, sizeof(attr), "%s/latency_timer", dir);
	if (!tp_attr_read(attr, old, sizeof(old)))
		return;
	write_attr(attr, "16");
	bool got = tp_attr_read(attr, val, sizeof(val));
	write_attr(attr, old);
	ATF_CHECK_MSG(got && strcmp(val, "16") == 0, "latency_timer reads \"%s\" after "
		      "16 was written (it was %s)", got ? val : "nothing", old);
}

TP_CASE_ROOT(usb_low_latency_flag, TP_LINUX,
	"TIOCSSERIAL's ASYNC_LOW_LATENCY on the FT232 port reads back from "
	"TIOCGSERIAL and sets the chip's latency timer to 1 ms (latency_timer "
	"reads 1); clearing it gives the timer its own value back")
{
	char path[64], attr[160], before[32], low[32] = "", after[32] = "";
	struct serial_struct ss, got;

	tp_usb_find(tc, path, sizeof(path));
	snprintf(attr, sizeof(attr), "/sys/class/tty/%s/device/latency_timer",
		 strrchr(path, '/') + 1);
	if (!tp_attr_read(attr, before, sizeof(before)))
		atf_tc_skip("no %s: the chip has no latency timer", attr);
	int u = tp_uart_open(path, 0);
	tp_uart_gserial(u, &ss);
	int old = ss.flags;
	ss.flags = old | ASYNC_LOW_LATENCY;
	int set = ioctl(u, TIOCSSERIAL, &ss) == 0 ? 0 : errno;
	memset(&got, 0, sizeof(got));
	tp_uart_gserial(u, &got);
	tp_attr_read(attr, low, sizeof(low));
	ss.flags = old & ~ASYNC_LOW_LATENCY;
	int back = ioctl(u, TIOCSSERIAL, &ss) == 0 ? 0 : errno;
	tp_attr_read(attr, after, sizeof(after));
	ss.flags = old;
	ioctl(u, TIOCSSERIAL, &ss);
	ATF_REQUIRE_MSG(set == 0 && back == 0, "TIOCSSERIAL: %s", strerror(set ? set : back));
	ATF_CHECK_MSG(got.flags & ASYNC_LOW_LATENCY, "TIOCGSERIAL flags 0x%x after "
		      "ASYNC_LOW_LATENCY was set", got.flags);
	ATF_CHECK_MSG(strcmp(low, "1") == 0, "latency_timer \"%s\" with "
		      "ASYNC_LOW_LATENCY, want 1", low);
	ATF_CHECK_MSG(strcmp(after, before) == 0 || (old & ASYNC_LOW_LATENCY),
		      "latency_timer \"%s\" after ASYNC_LOW_LATENCY was cleared, was "
		      "\"%s\"", after, before);
}

ATF_TP_ADD_TCS(tp)
{
	ATF_TP_ADD_TC(tp, usb_driver_is_ftdi_sio);
	ATF_TP_ADD_TC(tp, usb_proc_registration);
	ATF_TP_ADD_TC(tp, usb_tiocgserial);
	ATF_TP_ADD_TC(tp, usb_nonblocking_read_eagain);
	ATF_TP_ADD_TC(tp, usb_poll_readiness);
	ATF_TP_ADD_TC(tp, usb_vhangup_wakes_reader);
	ATF_TP_ADD_TC(tp, usb_ftdi_attributes);
	ATF_TP_ADD_TC(tp, usb_low_latency_flag);
	return atf_no_error();
}
