// SPDX-License-Identifier: GPL-2.0-only
/* t_uarttype.c: an 8250 port told it is another UART type (TIOCSSERIAL's
 * type, setserial's "uart 16450"), autoconfig (TIOCSERCONFIG), which finds
 * the chip's own type again, and the port's sysfs attributes: the type's
 * name, its receive trigger levels (rx_trig_bytes), the console switch.
 * QEMU's 16550A goes on moving bytes under every type of tp_uart_types;
 * what changes is the driver's view and its type-specific paths.  A type
 * change shuts the port down and starts it again, so the descriptor that
 * made it gets EIO until the port is opened anew (the tty keeps
 * TTY_IO_ERROR from the shutdown): the cases reopen, as setserial's users
 * do. */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <unistd.h>

#include "tp_serial.h"

/* The receive trigger levels of the types that have them (uart_config[]
 * in 8250_port.c, the chips' data sheets); others have none. */
static const struct {
	int type;
	unsigned char levels[4];
} trig[] = {
	{PORT_16550A, {1, 4, 8, 14}},    {PORT_16650V2, {8, 16, 24, 28}},
	{PORT_16750, {1, 16, 32, 56}},   {PORT_16654, {8, 16, 56, 60}},
	{PORT_16C950, {16, 32, 112, 120}},
};

static const unsigned char *
levels_of(int type)
{
	for (size_t i = 0; i < sizeof(trig) / sizeof(trig[0]); i++)
		if (trig[i].type == type)
			return trig[i].levels;
	return NULL;
}

/* ---------------------------------------------------------------- sysfs */

static const char *
tty_name_of(const char *path)
{
	return strrchr(path, '/') ? strrchr(path, '/') + 1 : path;
}

static void
attr_path(const char *port, const char *attr, char *out, size_t len)
{
	snprintf(out, len, "/sys/class/tty/%s/%s", tty_name_of(port), attr);
}

/* Read a port's attribute: 0 and the text (newline cut), or -errno. */
static int
attr_read(const char *port, const char *attr, char *buf, size_t len)
{
	char path[256];
	attr_path(port, attr, path, sizeof(path));
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	ssize_t n = read(fd, buf, len - 1);
	int err = n < 0 ? errno : 0;
	close(fd);
	if (n < 0)
		return -err;
	buf[n] = '\0';
	buf[strcspn(buf, "\n")] = '\0';
	return 0;
}

/* Write text to a port's attribute: 0 or -errno. */
static int
attr_write(const char *port, const char *attr, const char *text)
{
	char path[256];
	attr_path(port, attr, path, sizeof(path));
	int fd = open(path, O_WRONLY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	ssize_t n = write(fd, text, strlen(text));
	int err = n < 0 ? errno : 0;
	close(fd);
	return n < 0 ? -err : 0;
}

static long
attr_long(const char *port, const char *attr)
{
	char buf[64];
	int rc = attr_read(port, attr, buf, sizeof(buf));
	if (rc != 0)
		atf_tc_fail("read %s's %s: %s", port, attr, strerror(-rc));
	return strtol(buf, NULL, 0);
}

static void
need_attr(const char *port, const char *attr)
{
	char path[256];
	attr_path(port, attr, path, sizeof(path));
	if (access(path, F_OK) != 0)
		atf_tc_skip("%s has no %s (%s)", port, attr, strerror(errno));
}

/* ---------------------------------------------------------------- changing the type */

/* The port opened anew (a type change leaves the old descriptor failing
 * with EIO); the restore follows the new descriptor. */
static int
reopen(int fd, const char *path)
{
	tp_uart_close(fd);
	fd = tp_uart_open(path, 0);
	tp_serial_put_back_fd(fd);
	return fd;
}

static void
set_type(int fd, int type, const char *what)
{
	struct serial_struct ss;
	tp_uart_gserial(fd, &ss);
	ss.type = type;
	if (ioctl(fd, TIOCSSERIAL, &ss) != 0)
		atf_tc_fail("TIOCSSERIAL type %d (%s): %s", type, what,
			    strerror(errno));
}

/* ---------------------------------------------------------------- a type, end to end */

static void
check_trigger_levels(const char *port, const struct tp_uart_type *t)
{
	const unsigned char *lv = levels_of(t->type);
	char buf[32];
	if (lv == NULL) {
		int rc = attr_read(port, "rx_trig_bytes", buf, sizeof(buf));
		ATF_CHECK_MSG(rc == -EOPNOTSUPP, "a %s has no trigger levels: "
			      "rx_trig_bytes read %s, want EOPNOTSUPP", t->name,
			      rc == 0 ? buf : strerror(-rc));
		rc = attr_write(port, "rx_trig_bytes", "8");
		ATF_CHECK_MSG(rc == -EOPNOTSUPP, "a %s has no trigger levels: "
			      "writing rx_trig_bytes gave %s, want EOPNOTSUPP",
			      t->name, rc == 0 ? "success" : strerror(-rc));
		return;
	}
	for (int i = 0; i < 4; i++) {
		char v[8];
		snprintf(v, sizeof(v), "%u", lv[i]);
		int rc = attr_write(port, "rx_trig_bytes", v);
		ATF_CHECK_MSG(rc == 0, "%s: writing rx_trig_bytes %s: %s",
			      t->name, v, strerror(-rc));
		ATF_CHECK_EQ_MSG(attr_long(port, "rx_trig_bytes"), lv[i],
				 "%s: rx_trig_bytes reads %ld after %s",
				 t->name, attr_long(port, "rx_trig_bytes"), v);
	}
}

static void
check_proc_name(const char *port, const char *name)
{
	struct tp_serial_proc pr;
	char why[256], want[64];
	if (!tp_serial_proc(port, &pr, why, sizeof(why)))
		atf_tc_fail("%s", why);
	snprintf(want, sizeof(want), " uart:%s ", name);
	ATF_CHECK_MSG(strstr(pr.text, want) != NULL, "/proc/tty/driver/serial "
		      "shows \"%s\", want uart:%s", pr.text, name);
}

static void
as_type(const atf_tc_t *tc, const char *id)
{
	const struct tp_uart_type *t = NULL;
	for (int i = 0; i < tp_uart_ntypes; i++)
		if (strcmp(tp_uart_types[i].id, id) == 0)
			t = &tp_uart_types[i];
	ATF_REQUIRE(t != NULL);

	struct tp_serial_pair p;
	struct serial_struct s0, s1;
	char data[256];
	int a, b;

	tp_serial_open_pair_at(tc, &p, &a, &b, 0);
	need_attr(p.a, "rx_trig_bytes");
	tp_serial_save(a, &s0);
	set_type(a, t->type, t->name);
	tp_uart_gserial(a, &s1);
	ATF_CHECK_EQ_MSG(s1.type, t->type, "TIOCGSERIAL type %d after setting "
			 "%d (%s)", s1.type, t->type, t->name);
	ATF_CHECK_EQ_MSG(attr_long(p.a, "type"), t->type, "sysfs type reads "
			 "%ld, want %d", attr_long(p.a, "type"), t->type);
	check_proc_name(p.a, t->name);

	a = reopen(a, p.a);
	tp_pattern(data, sizeof(data), 29);
	tp_serial_transfer(a, b, data, sizeof(data), TP_WAIT_MS,
			   "256 bytes A to B under the new type");
	tp_serial_transfer(b, a, data, sizeof(data), TP_WAIT_MS,
			   "256 bytes B to A under the new type");
	tp_uart_loop(a, true);
	/* One byte in flight: loop mode has no backpressure (tp_serial.h). */
	tp_serial_transfer_window(a, a, data, sizeof(data), 1, TP_WAIT_MS,
				  "256 bytes through A's loopback under the new type");
	tp_uart_loop(a, false);
	check_trigger_levels(p.a, t);

	/* Autoconfig probes the chip: QEMU's is a 16550A whatever it was
	 * told, with its 16-byte FIFO and its default trigger level. */
	ATF_REQUIRE_EQ_MSG(ioctl(a, TIOCSERCONFIG), 0, "TIOCSERCONFIG: %s",
			   strerror(errno));
	tp_uart_gserial(a, &s1);
	ATF_CHECK_EQ_MSG(s1.type, PORT_16550A, "after TIOCSERCONFIG the type "
			 "is %d, want the chip's 16550A", s1.type);
	ATF_CHECK_EQ_MSG(s1.xmit_fifo_size, 16, "after TIOCSERCONFIG the FIFO "
			 "is %d bytes", s1.xmit_fifo_size);
	ATF_CHECK_EQ_MSG(attr_long(p.a, "rx_trig_bytes"), 8, "after "
			 "TIOCSERCONFIG rx_trig_bytes reads %ld, want the "
			 "16550A's default 8", attr_long(p.a, "rx_trig_bytes"));
	a = reopen(a, p.a);
	tp_serial_transfer(a, b, data, 64, TP_WAIT_MS,
			   "64 bytes A to B after autoconfig");
	tp_serial_put_back();
}

#define AS_TYPE(fn, id)                                                        \
	TP_CASE_ROOT(fn, TP_LINUX,                                            \
		     "As root, TIOCSSERIAL makes an 8250 port with no other "  \
		     "user a " id ": TIOCGSERIAL, sysfs type and /proc name "  \
		     "it, the port (opened again) carries data both ways and " \
		     "in loopback, rx_trig_bytes takes and reads back each "  \
		     "trigger level the type has (EOPNOTSUPP where it has "   \
		     "none); TIOCSERCONFIG then finds the chip's own 16550A, " \
		     "16-byte FIFO and trigger level 8")                       \
	{                                                                      \
		as_type(tc, id);                                               \
	}

AS_TYPE(as_8250, "8250")
AS_TYPE(as_16450, "16450")
AS_TYPE(as_16550, "16550")
AS_TYPE(as_16550a, "16550A")
AS_TYPE(as_16650, "16650")
AS_TYPE(as_16650v2, "16650V2")
AS_TYPE(as_16750, "16750")
AS_TYPE(as_16654, "16654")
AS_TYPE(as_16850, "16850")
AS_TYPE(as_16c950, "16C950")

/* ---------------------------------------------------------------- no UART at all */

TP_CASE_ROOT(type_none_opens_with_io_failing_eio, TP_LINUX,
	     "As root, TIOCSSERIAL type none (setserial's uart none: "
	     "PORT_UNKNOWN) leaves a line without a UART, and /proc/tty/"
	     "driver/serial names it unknown; the line still opens (setserial "
	     "must reach it), but read, write and TIOCMGET fail EIO while "
	     "TIOCGSERIAL reads type none; TIOCSERCONFIG on that descriptor "
	     "finds the chip's 16550A again, and the port opened anew carries "
	     "bytes")
{
	struct tp_serial_pair p;
	struct serial_struct s0, s1;
	char c = 'n', data[64];
	int a, b, bits;

	tp_serial_open_pair_at(tc, &p, &a, &b, 0);
	tp_serial_save(a, &s0);
	set_type(a, PORT_UNKNOWN, "none");
	check_proc_name(p.a, "unknown");
	tp_uart_close(a);

	int fd = tp_uart_try_open(p.a, O_RDWR | O_NOCTTY | O_NONBLOCK);
	ATF_REQUIRE_MSG(fd >= 0, "open of the line with no UART: %s",
			strerror(-fd));
	errno = 0;
	ATF_CHECK_MSG(write(fd, &c, 1) == -1 && errno == EIO, "write on the "
		      "line with no UART: %s, want EIO",
		      errno ? strerror(errno) : "it wrote");
	errno = 0;
	ATF_CHECK_MSG(read(fd, &c, 1) == -1 && errno == EIO, "read on the "
		      "line with no UART: %s, want EIO",
		      errno ? strerror(errno) : "it read");
	errno = 0;
	ATF_CHECK_MSG(ioctl(fd, TIOCMGET, &bits) == -1 && errno == EIO,
		      "TIOCMGET on the line with no UART: %s, want EIO",
		      errno ? strerror(errno) : "success");
	tp_uart_gserial(fd, &s1);
	ATF_CHECK_EQ_MSG(s1.type, PORT_UNKNOWN, "TIOCGSERIAL type %d, want "
			 "none (%d)", s1.type, PORT_UNKNOWN);

	ATF_REQUIRE_EQ_MSG(ioctl(fd, TIOCSERCONFIG), 0, "TIOCSERCONFIG on the "
			   "line with no UART: %s", strerror(errno));
	tp_uart_gserial(fd, &s1);
	ATF_CHECK_EQ_MSG(s1.type, PORT_16550A, "after TIOCSERCONFIG the type "
			 "is %d, want the chip's 16550A", s1.type);
	a = reopen(fd, p.a);
	tp_pattern(data, sizeof(data), 31);
	tp_serial_transfer(a, b, data, sizeof(data), TP_WAIT_MS,
			   "64 bytes A to B after autoconfig");
	tp_serial_put_back();
}

TP_CASE_ROOT(autoconfig_loopback_test_finds_the_chip, TP_LINUX,
	     "With ASYNC_SKIP_TEST cleared (setserial's ^skip_test), "
	     "TIOCSERCONFIG first checks that a UART is there by its loopback "
	     "(in loop mode MSR must follow MCR: DCD and CTS for OUT2 and RTS); "
	     "QEMU's 16550A passes, so autoconfig finds it (type 16550A, 16-byte "
	     "FIFO, the flag still clear) and the port opened anew carries bytes")
{
	struct tp_serial_pair p;
	struct serial_struct s0, ss;
	char data[64];
	int a, b;

	tp_serial_open_pair_at(tc, &p, &a, &b, 0);
	tp_serial_save(a, &s0);
	ss = s0;
	ss.flags &= ~ASYNC_SKIP_TEST;
	ATF_REQUIRE_EQ_MSG(ioctl(a, TIOCSSERIAL, &ss), 0, "TIOCSSERIAL clearing "
			   "ASYNC_SKIP_TEST: %s", strerror(errno));
	ATF_REQUIRE_EQ_MSG(ioctl(a, TIOCSERCONFIG), 0, "TIOCSERCONFIG with the "
			   "loopback test: %s", strerror(errno));
	tp_uart_gserial(a, &ss);
	ATF_CHECK_EQ_MSG(ss.type, PORT_16550A, "after TIOCSERCONFIG with the "
			 "loopback test the type is %d, want the chip's 16550A",
			 ss.type);
	ATF_CHECK_EQ_MSG(ss.xmit_fifo_size, 16, "FIFO %d bytes", ss.xmit_fifo_size);
	ATF_CHECK_MSG(!(ss.flags & ASYNC_SKIP_TEST), "flags %#x: ASYNC_SKIP_TEST "
		      "is back", ss.flags);
	a = reopen(a, p.a);
	tp_pattern(data, sizeof(data), 33);
	tp_serial_transfer(a, b, data, sizeof(data), TP_WAIT_MS,
			   "64 bytes A to B after autoconfig");
	tp_serial_put_back();
}

/* ---------------------------------------------------------------- autoconfig's refusals */

TP_CASE_ROOT(autoconfig_busy_ebusy, TP_LINUX,
	     "TIOCSERCONFIG on a port that is open twice fails with EBUSY "
	     "(autoconfig shuts the port down: only its sole user may) and "
	     "changes nothing: TIOCGSERIAL reads the same type and FIFO size")
{
	struct tp_serial_pair p;
	struct serial_struct s0, s1;

	tp_serial_find(tc, &p);
	int fd = tp_uart_open(p.a, 0);
	int second = tp_uart_open(p.a, 0);
	tp_uart_gserial(fd, &s0);
	errno = 0;
	int rc = ioctl(fd, TIOCSERCONFIG);
	ATF_CHECK_MSG(rc == -1 && errno == EBUSY, "TIOCSERCONFIG with the port "
		      "open twice: %s, want EBUSY",
		      rc == 0 ? "success" : strerror(errno));
	tp_uart_gserial(second, &s1);
	ATF_CHECK_EQ(s1.type, s0.type);
	ATF_CHECK_EQ(s1.xmit_fifo_size, s0.xmit_fifo_size);
	char c = 'k';
	ATF_CHECK_MSG(write(fd, &c, 1) == 1, "write after the refused "
		      "TIOCSERCONFIG: %s", strerror(errno));
}

static int
unprivileged_autoconfig(void *arg)
{
	int fd = *(int *)arg;
	int rc;
	if ((rc = tp_child_drop_to_nobody()) != 0)
		return rc;
	errno = 0;
	if (ioctl(fd, TIOCSERCONFIG) != -1 || errno != EPERM)
		return tp_child_fail("unprivileged TIOCSERCONFIG: %s, want "
				     "EPERM", errno ? strerror(errno)
						    : "success");
	return 0;
}

TP_CASE_ROOT(autoconfig_unprivileged_eperm, TP_LINUX,
	     "TIOCSERCONFIG from a process without CAP_SYS_ADMIN (uid 65534 "
	     "in a child, on the case's only descriptor of the port) fails "
	     "with EPERM and leaves the type as it was")
{
	struct tp_serial_pair p;
	struct serial_struct s0, s1;
	struct tp_child c;

	tp_serial_find(tc, &p);
	int fd = tp_uart_open(p.a, 0);
	tp_uart_gserial(fd, &s0);
	tp_child_start(&c, unprivileged_autoconfig, &fd);
	tp_child_join(&c, TP_WAIT_MS, "the unprivileged TIOCSERCONFIG");
	tp_uart_gserial(fd, &s1);
	ATF_CHECK_EQ(s1.type, s0.type);
}

/* ---------------------------------------------------------------- rx_trig_bytes */

TP_CASE_ROOT(rxtrig_rounds_down_closed_port, TP_LINUX,
	     "rx_trig_bytes works while the port is closed: a value between "
	     "the type's trigger levels reads back as the level below it, one "
	     "below the lowest as the lowest, one above the highest as the "
	     "highest; a value that is no number fails with EINVAL and one "
	     "beyond 255 with ERANGE, leaving the level as it was")
{
	struct tp_serial_pair p;

	tp_serial_find(tc, &p);
	need_attr(p.a, "rx_trig_bytes");
	const struct tp_uart_type *t = tp_serial_want_type(tc);
	const unsigned char *lv = levels_of(t->type);
	if (lv == NULL)
		atf_tc_skip("a %s (serial_uart_type) has no trigger levels",
			    t->name);
	long before = attr_long(p.a, "rx_trig_bytes");
	const struct {
		unsigned v;
		unsigned char want;
	} tries[] = {
		{lv[1] + 1u, lv[1]}, {lv[3] - 1u, lv[2]}, {lv[0] > 0 ? lv[0] - 1u : 0, lv[0]},
		{200, lv[3]},        {lv[2], lv[2]},
	};
	for (size_t i = 0; i < sizeof(tries) / sizeof(tries[0]); i++) {
		char v[8];
		snprintf(v, sizeof(v), "%u", tries[i].v);
		int rc = attr_write(p.a, "rx_trig_bytes", v);
		ATF_CHECK_MSG(rc == 0, "writing %s: %s", v, strerror(-rc));
		ATF_CHECK_EQ_MSG(attr_long(p.a, "rx_trig_bytes"), tries[i].want,
				 "after %s rx_trig_bytes reads %ld, want %u", v,
				 attr_long(p.a, "rx_trig_bytes"), tries[i].want);
	}
	int rc = attr_write(p.a, "rx_trig_bytes", "many");
	ATF_CHECK_MSG(rc == -EINVAL, "writing \"many\": %s, want EINVAL",
		      rc == 0 ? "success" : strerror(-rc));
	rc = attr_write(p.a, "rx_trig_bytes", "300");
	ATF_CHECK_MSG(rc == -ERANGE, "writing 300: %s, want ERANGE",
		      rc == 0 ? "success" : strerror(-rc));
	ATF_CHECK_EQ_MSG(attr_long(p.a, "rx_trig_bytes"), lv[2], "the refused "
			 "writes changed the level to %ld",
			 attr_long(p.a, "rx_trig_bytes"));
	char v[8];
	snprintf(v, sizeof(v), "%ld", before);
	ATF_CHECK_EQ(attr_write(p.a, "rx_trig_bytes", v), 0);
}

/* The receive trigger is the port's and outlives the case's open: put
 * back at exit, whatever check ended the case. */
static char trig_port[PATH_MAX];
static long trig_before = -1;

static void
put_back_trigger(void)
{
	char v[24];
	if (trig_before < 0)
		return;
	snprintf(v, sizeof(v), "%ld", trig_before);
	(void)attr_write(trig_port, "rx_trig_bytes", v);
}

/* Set rx_trig_bytes to 8, then A's speed, and read the level back. */
static long
trigger_at(const char *port, int fd, speed_t speed, const char *what)
{
	ATF_REQUIRE_EQ_MSG(attr_write(port, "rx_trig_bytes", "8"), 0,
			   "writing rx_trig_bytes 8 before %s", what);
	tp_uart_speed(fd, speed);
	return attr_long(port, "rx_trig_bytes");
}

TP_CASE_ROOT(low_speed_takes_a_one_byte_trigger, TP_LINUX,
	     "Below 2400 baud a UART with a receive FIFO (and no DMA) takes a "
	     "1-byte receive trigger, so that each byte is handed on at once "
	     "rather than at the FIFO's timeout: with rx_trig_bytes 8, a "
	     "termios of 1200 baud on A makes it read 1, one of 2400 baud "
	     "leaves 8; the smallest FIFO, 2 bytes (TIOCSSERIAL "
	     "xmit_fifo_size 2), drops to 1 at 1200 baud too")
{
	struct tp_serial_pair p;
	struct serial_struct s0, req;
	int a, b;

	tp_serial_open_pair_at(tc, &p, &a, &b, 0);
	need_attr(p.a, "rx_trig_bytes");
	const struct tp_uart_type *t = tp_serial_want_type(tc);
	const unsigned char *lv = levels_of(t->type);
	if (lv == NULL || lv[0] != 1 || lv[2] != 8)
		atf_tc_skip("a %s (serial_uart_type) has no levels of 1 and 8", t->name);
	snprintf(trig_port, sizeof(trig_port), "%s", p.a);
	trig_before = attr_long(p.a, "rx_trig_bytes");
	atexit(put_back_trigger);
	long at = trigger_at(p.a, a, B2400, "2400 baud");
	ATF_CHECK_EQ_MSG(at, 8, "rx_trig_bytes at 2400 baud reads %ld, want 8", at);
	at = trigger_at(p.a, a, B1200, "1200 baud");
	ATF_CHECK_EQ_MSG(at, 1, "rx_trig_bytes at 1200 baud reads %ld, want 1", at);

	tp_serial_save(a, &s0);
	req = s0;
	req.xmit_fifo_size = 2;
	ATF_REQUIRE_EQ_MSG(ioctl(a, TIOCSSERIAL, &req), 0, "TIOCSSERIAL "
			   "xmit_fifo_size 2: %s", strerror(errno));
	/* A termios the port has already reaches no driver: away first. */
	tp_uart_speed(a, B9600);
	at = trigger_at(p.a, a, B1200, "1200 baud with a 2-byte FIFO");
	ATF_CHECK_EQ_MSG(at, 1, "rx_trig_bytes at 1200 baud with a 2-byte FIFO reads %ld, "
			 "want 1", at);
	tp_serial_put_back();
}

/* ---------------------------------------------------------------- the other attributes */

TP_CASE_ROOT(sysfs_attrs_match_gserial, TP_LINUX,
	     "A UART's sysfs attributes (type, line, port, irq, flags, "
	     "xmit_fifo_size, uartclk, close_delay, closing_wait, "
	     "custom_divisor, io_type, iomem_base, iomem_reg_shift) say what "
	     "TIOCGSERIAL "
	     "says: uartclk is baud_base * 16, the times the same units")
{
	struct tp_serial_pair p;
	struct serial_struct ss;

	tp_serial_find(tc, &p);
	int fd = tp_uart_open(p.a, 0);
	tp_uart_gserial(fd, &ss);
	const struct {
		const char *attr;
		long want;
	} v[] = {
		{"type", ss.type},
		{"line", ss.line},
		{"port", (long)ss.port | ((long)ss.port_high << 32)},
		{"irq", ss.irq},
		{"flags", ss.flags},
		{"xmit_fifo_size", ss.xmit_fifo_size},
		{"uartclk", (long)ss.baud_base * 16},
		{"close_delay", ss.close_delay},
		{"closing_wait", ss.closing_wait},
		{"custom_divisor", ss.custom_divisor},
		{"io_type", ss.io_type},
		{"iomem_base", (long)(uintptr_t)ss.iomem_base},
		{"iomem_reg_shift", ss.iomem_reg_shift},
	};
	for (size_t i = 0; i < sizeof(v) / sizeof(v[0]); i++)
		ATF_CHECK_EQ_MSG(attr_long(p.a, v[i].attr), v[i].want,
				 "sysfs %s reads %ld, TIOCGSERIAL says %ld",
				 v[i].attr, attr_long(p.a, v[i].attr), v[i].want);
}

TP_CASE_ROOT(console_attr_not_console, TP_LINUX,
	     "The console attribute of a UART that is not a console reads N; "
	     "writing N succeeds and changes nothing, writing Y fails with "
	     "ENOENT (only the port a console was set up for can become one), "
	     "a word that is no boolean fails with EINVAL")
{
	struct tp_serial_pair p;
	char buf[16];

	tp_serial_find(tc, &p);
	need_attr(p.a, "console");
	ATF_REQUIRE_EQ(attr_read(p.a, "console", buf, sizeof(buf)), 0);
	ATF_CHECK_STREQ_MSG(buf, "N", "console reads %s", buf);
	int rc = attr_write(p.a, "console", "N");
	ATF_CHECK_MSG(rc == 0, "writing N: %s", strerror(-rc));
	rc = attr_write(p.a, "console", "Y");
	ATF_CHECK_MSG(rc == -ENOENT, "writing Y: %s, want ENOENT",
		      rc == 0 ? "success" : strerror(-rc));
	rc = attr_write(p.a, "console", "perhaps");
	ATF_CHECK_MSG(rc == -EINVAL, "writing perhaps: %s, want EINVAL",
		      rc == 0 ? "success" : strerror(-rc));
	ATF_REQUIRE_EQ(attr_read(p.a, "console", buf, sizeof(buf)), 0);
	ATF_CHECK_STREQ_MSG(buf, "N", "console reads %s after the writes", buf);
}

TP_CASE_ROOT(fifo_size_one_no_trigger, TP_LINUX,
	     "As root, TIOCSSERIAL xmit_fifo_size 1 makes the driver treat the "
	     "port as FIFO-less: TIOCGSERIAL reads 1, rx_trig_bytes fails with "
	     "EINVAL both ways, xmit_fifo_size 0 leaves it at 1, data still "
	     "crosses; put back to 16, the trigger level reads again (where "
	     "the port's type has levels)")
{
	struct tp_serial_pair p;
	struct serial_struct s0, req, s1;
	char buf[32], data[64];
	int a, b;

	tp_serial_open_pair_at(tc, &p, &a, &b, 0);
	need_attr(p.a, "rx_trig_bytes");
	tp_serial_save(a, &s0);
	req = s0;
	req.xmit_fifo_size = 1;
	ATF_REQUIRE_EQ_MSG(ioctl(a, TIOCSSERIAL, &req), 0, "TIOCSSERIAL "
			   "xmit_fifo_size 1: %s", strerror(errno));
	tp_uart_gserial(a, &s1);
	ATF_CHECK_EQ_MSG(s1.xmit_fifo_size, 1, "xmit_fifo_size reads %d",
			 s1.xmit_fifo_size);
	int rc = attr_read(p.a, "rx_trig_bytes", buf, sizeof(buf));
	ATF_CHECK_MSG(rc == -EINVAL, "rx_trig_bytes with a 1-byte FIFO read "
		      "%s, want EINVAL", rc == 0 ? buf : strerror(-rc));
	rc = attr_write(p.a, "rx_trig_bytes", "4");
	ATF_CHECK_MSG(rc == -EINVAL, "writing rx_trig_bytes with a 1-byte "
		      "FIFO: %s, want EINVAL", rc == 0 ? "success" : strerror(-rc));
	req = s1;
	req.xmit_fifo_size = 0;
	ATF_REQUIRE_EQ(ioctl(a, TIOCSSERIAL, &req), 0);
	tp_uart_gserial(a, &s1);
	ATF_CHECK_EQ_MSG(s1.xmit_fifo_size, 1, "xmit_fifo_size 0 changed it "
			 "to %d", s1.xmit_fifo_size);
	tp_pattern(data, sizeof(data), 31);
	tp_serial_transfer(a, b, data, sizeof(data), TP_WAIT_MS,
			   "64 bytes A to B with a 1-byte FIFO size");
	tp_serial_put_back();
	/* Back to a FIFO: the type's levels again, or none for a type that
	 * has none (serial_uart_type). */
	int want = levels_of(s0.type) ? 0 : -EOPNOTSUPP;
	rc = attr_read(p.a, "rx_trig_bytes", buf, sizeof(buf));
	ATF_CHECK_MSG(rc == want, "rx_trig_bytes after putting the FIFO size "
		      "back: %s, want %s", rc == 0 ? buf : strerror(-rc),
		      want == 0 ? "a level" : strerror(-want));
}

ATF_TP_ADD_TCS(tp)
{
	ATF_TP_ADD_TC(tp, as_8250);
	ATF_TP_ADD_TC(tp, as_16450);
	ATF_TP_ADD_TC(tp, as_16550);
	ATF_TP_ADD_TC(tp, as_16550a);
	ATF_TP_ADD_TC(tp, as_16650);
	ATF_TP_ADD_TC(tp, as_16650v2);
	ATF_TP_ADD_TC(tp, as_16750);
	ATF_TP_ADD_TC(tp, as_16654);
	ATF_TP_ADD_TC(tp, as_16850);
	ATF_TP_ADD_TC(tp, as_16c950);
	ATF_TP_ADD_TC(tp, type_none_opens_with_io_failing_eio);
	ATF_TP_ADD_TC(tp, low_speed_takes_a_one_byte_trigger);
	ATF_TP_ADD_TC(tp, autoconfig_loopback_test_finds_the_chip);
	ATF_TP_ADD_TC(tp, autoconfig_busy_ebusy);
	ATF_TP_ADD_TC(tp, autoconfig_unprivileged_eperm);
	ATF_TP_ADD_TC(tp, rxtrig_rounds_down_closed_port);
	ATF_TP_ADD_TC(tp, fifo_size_one_no_trigger);
	ATF_TP_ADD_TC(tp, sysfs_attrs_match_gserial);
	ATF_TP_ADD_TC(tp, console_attr_not_console);
	return atf_no_error();
}
