// SPDX-License-Identifier: GPL-2.0-only
/* t_open.c: openers of a UART: two descriptors share one port, TIOCEXCL
 * makes it exclusive for openers without CAP_SYS_ADMIN, O_EXCL does not. */
#include <errno.h>
#include <linux/capability.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "tp_serial.h"

TP_CASE(two_openers_share_port, TP_POSIX,
	"Two descriptors of B share its input queue (a byte is read once, by "
	"either) and both write to the link; closing one (not the last) "
	"leaves the other working and DTR up")
{
	int a, b1, b2;
	struct tp_serial_pair p;
	char got[4];

	tp_serial_open_pair(tc, &a, &b1, 0);
	tp_serial_find(tc, &p);
	b2 = tp_uart_try_open(p.b, O_RDWR | O_NOCTTY | O_NONBLOCK);
	ATF_REQUIRE_MSG(b2 >= 0, "second open of %s: %s", p.b, strerror(-b2));
	tp_write_str(a, "xy", "2 bytes from A");
	tp_uart_read_exact(b2, got, 2, TP_WAIT_MS, "both bytes through the second fd");
	ATF_CHECK_MSG(memcmp(got, "xy", 2) == 0, "read \"%s\"", tp_esc(got, 2));
	tp_expect_not_readable(b1, "the bytes were consumed by the other fd");
	tp_write_str(b1, "1", "write on the first fd");
	tp_write_str(b2, "2", "write on the second fd");
	tp_uart_read_exact(a, got, 2, TP_WAIT_MS, "both writes on A");
	ATF_CHECK_MSG(memcmp(got, "12", 2) == 0, "A read \"%s\"", tp_esc(got, 2));
	tp_uart_close(b2);
	ATF_CHECK_MSG(tp_uart_mget(b1) & TIOCM_DTR, "DTR dropped when a "
		      "non-last opener closed: %s", tp_tiocm_str(tp_uart_mget(b1)));
	tp_write_str(a, "z", "a byte after the close");
	tp_uart_read_exact(b1, got, 1, TP_WAIT_MS, "the byte on the remaining fd");
	ATF_CHECK_EQ(got[0], 'z');
}

/* In a child: drop CAP_SYS_ADMIN (effective and permitted) and open path;
 * report the errno (0 on success) through the exit status. */
static const char *excl_path;

static int
open_without_sys_admin(void *arg)
{
	int want = *(int *)arg;
	struct __user_cap_header_struct h = {.version = _LINUX_CAPABILITY_VERSION_3};
	struct __user_cap_data_struct d[2];

	if (syscall(SYS_capget, &h, d) != 0)
		return tp_child_fail("capget: %s", strerror(errno));
	d[CAP_SYS_ADMIN / 32].effective &= ~(1u << (CAP_SYS_ADMIN % 32));
	d[CAP_SYS_ADMIN / 32].permitted &= ~(1u << (CAP_SYS_ADMIN % 32));
	if (syscall(SYS_capset, &h, d) != 0)
		return tp_child_fail("capset: %s", strerror(errno));
	int fd = open(excl_path, O_RDWR | O_NOCTTY | O_NONBLOCK);
	int err = fd < 0 ? errno : 0;
	if (err != want)
		return tp_child_fail("open %s without CAP_SYS_ADMIN: %s, want %s",
				     excl_path, err ? strerror(err) : "success",
				     want ? strerror(want) : "success");
	return 0;
}

static void
expect_open_without_cap(const char *path, int want, const char *what)
{
	struct tp_child c;
	excl_path = path;
	tp_child_start(&c, open_without_sys_admin, &want);
	tp_child_join(&c, TP_WAIT_MS, what);
}

static int
gexcl(int fd)
{
	int v = -1;
	if (ioctl(fd, TIOCGEXCL, &v) != 0)
		atf_tc_fail("TIOCGEXCL: %s", strerror(errno));
	return v;
}

TP_CASE_ROOT(tiocexcl_refuses_open_without_cap, TP_LINUX,
	     "After TIOCEXCL on B, an open of B without CAP_SYS_ADMIN fails "
	     "with EBUSY, an open with it succeeds, TIOCGEXCL reads 1; after "
	     "TIOCNXCL the open without the capability succeeds again")
{
	int a, b;
	struct tp_serial_pair p;

	tp_serial_open_pair(tc, &a, &b, 0);
	tp_serial_find(tc, &p);
	ATF_CHECK_EQ(gexcl(b), 0);
	expect_open_without_cap(p.b, 0, "open before TIOCEXCL");
	ATF_REQUIRE_EQ_MSG(ioctl(b, TIOCEXCL), 0, "TIOCEXCL: %s", strerror(errno));
	ATF_CHECK_EQ(gexcl(b), 1);
	expect_open_without_cap(p.b, EBUSY, "open of an exclusive port");
	int fd = tp_uart_try_open(p.b, O_RDWR | O_NOCTTY | O_NONBLOCK);
	ATF_CHECK_MSG(fd >= 0, "open with CAP_SYS_ADMIN of an exclusive port: %s",
		      strerror(-fd));
	ATF_REQUIRE_EQ_MSG(ioctl(b, TIOCNXCL), 0, "TIOCNXCL: %s", strerror(errno));
	ATF_CHECK_EQ(gexcl(b), 0);
	expect_open_without_cap(p.b, 0, "open after TIOCNXCL");
}

TP_CASE(o_excl_is_not_exclusive, TP_LINUX,
	"O_EXCL without O_CREAT means nothing to a tty (POSIX leaves it "
	"undefined): B opens with O_EXCL while open elsewhere, and a later "
	"plain open still succeeds (TIOCGEXCL stays 0)")
{
	int a, b;
	struct tp_serial_pair p;

	tp_serial_open_pair(tc, &a, &b, 0);
	tp_serial_find(tc, &p);
	int fx = tp_uart_try_open(p.b, O_RDWR | O_NOCTTY | O_NONBLOCK | O_EXCL);
	ATF_REQUIRE_MSG(fx >= 0, "O_EXCL open of an open port: %s", strerror(-fx));
	ATF_CHECK_EQ(gexcl(fx), 0);
	expect_open_without_cap(p.b, 0, "plain open after an O_EXCL open");
}

ATF_TP_ADD_TCS(tp)
{
	ATF_TP_ADD_TC(tp, two_openers_share_port);
	ATF_TP_ADD_TC(tp, tiocexcl_refuses_open_without_cap);
	ATF_TP_ADD_TC(tp, o_excl_is_not_exclusive);
	return atf_no_error();
}
