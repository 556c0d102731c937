// SPDX-License-Identifier: GPL-2.0-only
/* t_devstate.c: per-tty state ioctls on a pty: window size default,
 * exclusive mode (TIOCEXCL), line discipline (TIOCGETD/TIOCSETD), output
 * flow (TCXONC), FIONBIO, and serial-only ioctls a pty does not have. */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <termios.h>
#include <unistd.h>

#include <linux/serial.h>

#include "ttypot.h"

/* An unprivileged uid that needs no /etc/passwd entry (minimal guests). */
#define NOBODY_UID 65534
/* A line discipline number inside the valid range that no kernel driver
 * registers (N_DEVELOPMENT, reserved for out-of-tree work). */
#define LDISC_UNREGISTERED 29

TP_CASE(tiocgwinsz_defaults_to_zero, TP_LINUX,
	"A new pty reports a 0x0 window size (rows, columns and pixels) on "
	"both sides")
{
	struct tp_pty p;
	struct winsize ws;

	tp_pty_open(&p, TP_COOKED);
	int fds[2] = {p.master, p.slave};
	for (int i = 0; i < 2; i++) {
		memset(&ws, 0xff, sizeof(ws));
		ATF_REQUIRE(ioctl(fds[i], TIOCGWINSZ, &ws) == 0);
		ATF_CHECK_MSG(ws.ws_row == 0 && ws.ws_col == 0 &&
				      ws.ws_xpixel == 0 && ws.ws_ypixel == 0,
			      "%s: %ux%u (%ux%u px)", i ? "slave" : "master",
			      ws.ws_row, ws.ws_col, ws.ws_xpixel, ws.ws_ypixel);
	}
	tp_pty_close(&p);
}

struct opener {
	const char *name;
	bool drop_privileges;
	int expect_errno; /* 0: the open must succeed */
};

static int
open_child(void *arg)
{
	struct opener *o = arg;
	if (o->drop_privileges && setuid(NOBODY_UID) != 0)
		return tp_child_fail("setuid(%d): %s", NOBODY_UID,
				     strerror(errno));
	int fd = open(o->name, O_RDWR | O_NOCTTY | O_CLOEXEC);
	int e = fd < 0 ? errno : 0;
	if (fd >= 0)
		close(fd);
	if (e != o->expect_errno)
		return tp_child_fail("%s open of %s: %s, expected %s",
				     o->drop_privileges ? "unprivileged"
							: "root",
				     o->name, e ? strerror(e) : "success",
				     o->expect_errno ? strerror(o->expect_errno)
						     : "success");
	return 0;
}

static void
try_open(const char *name, bool drop, int expect_errno, const char *what)
{
	struct opener o = {name, drop, expect_errno};
	struct tp_child c;
	tp_child_start(&c, open_child, &o);
	tp_child_join(&c, TP_WAIT_MS, what);
}

static int
get_excl(int fd)
{
	int on = -1;
	if (ioctl(fd, TIOCGEXCL, &on) != 0)
		atf_tc_fail("TIOCGEXCL: %s", strerror(errno));
	return on;
}

TP_CASE_ROOT(tiocexcl_refuses_unprivileged_open, TP_LINUX,
	     "After TIOCEXCL on the slave, a further open by an unprivileged "
	     "process fails EBUSY while root (CAP_SYS_ADMIN) may still open "
	     "it; TIOCNXCL lifts the restriction; TIOCGEXCL reports the state")
{
	struct tp_pty p;

	tp_pty_open(&p, TP_COOKED);
	/* Let the unprivileged opener past the permission check, so that
	 * only the exclusive mode can refuse it. */
	ATF_REQUIRE(fchmod(p.slave, 0666) == 0);
	try_open(p.name, true, 0, "unprivileged open, not exclusive");
	ATF_CHECK_EQ(get_excl(p.slave), 0);
	ATF_REQUIRE(ioctl(p.slave, TIOCEXCL) == 0);
	ATF_CHECK_EQ(get_excl(p.slave), 1);
	try_open(p.name, true, EBUSY, "unprivileged open, exclusive");
	try_open(p.name, false, 0, "root open, exclusive");
	ATF_REQUIRE(ioctl(p.slave, TIOCNXCL) == 0);
	ATF_CHECK_EQ(get_excl(p.slave), 0);
	try_open(p.name, true, 0, "unprivileged open after TIOCNXCL");
	tp_pty_close(&p);
}

static int
get_ldisc(int fd)
{
	int d = -1;
	if (ioctl(fd, TIOCGETD, &d) != 0)
		atf_tc_fail("TIOCGETD: %s", strerror(errno));
	return d;
}

TP_CASE(tiocsetd_rejects_unavailable_ldisc, TP_LINUX,
	"A pty starts with N_TTY (0) on both sides; TIOCSETD to N_TTY "
	"succeeds, to an out-of-range or unregistered discipline fails EINVAL "
	"and leaves N_TTY working")
{
	struct tp_pty p;
	char c;

	tp_pty_open(&p, TP_RAW);
	ATF_CHECK_EQ(get_ldisc(p.slave), N_TTY);
	ATF_CHECK_EQ(get_ldisc(p.master), N_TTY);
	ATF_CHECK(ioctl(p.slave, TIOCSETD, &(int){N_TTY}) == 0);
	int bad[] = {-1, 64, LDISC_UNREGISTERED};
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		errno = 0;
		int r = ioctl(p.slave, TIOCSETD, &bad[i]);
		ATF_CHECK_MSG(r != 0 && errno == EINVAL,
			      "TIOCSETD %d: %s, expected EINVAL", bad[i],
			      r == 0 ? "success" : strerror(errno));
	}
	ATF_CHECK_EQ(get_ldisc(p.slave), N_TTY);
	tp_write_str(p.master, "k", "input after the failed switches");
	tp_read_exact(p.slave, &c, 1, 1, "input through N_TTY");
	ATF_CHECK(c == 'k');
	tp_pty_close(&p);
}

static bool
can_write(int fd)
{
	return tp_poll1(fd, POLLOUT, 0) & POLLOUT;
}

TP_CASE(tcxonc_suspends_and_sends_flow_chars, TP_POSIX,
	"tcflow on the slave: TCOOFF suspends its output (no POLLOUT, "
	"non-blocking write EAGAIN), TCOON resumes it; TCIOFF and TCION send "
	"VSTOP and VSTART to the master")
{
	struct tp_pty p;
	char got[2];

	tp_pty_open(&p, TP_RAW);
	tp_set_nonblock(p.slave, true);
	ATF_REQUIRE(can_write(p.slave));
	/* Flow characters first: while output is suspended (TCOOFF) Linux
	 * drops them, tty_send_xchar cannot restart a tco_stopped tty. */
	ATF_REQUIRE(tcflow(p.slave, TCIOFF) == 0);
	ATF_REQUIRE(tcflow(p.slave, TCION) == 0);
	tp_read_exact(p.master, got, 2, 2, "VSTOP and VSTART on the master");
	ATF_CHECK_MSG(got[0] == '\023' && got[1] == '\021',
		      "master read 0x%02x 0x%02x", got[0], got[1]);
	ATF_REQUIRE(tcflow(p.slave, TCOOFF) == 0);
	ATF_CHECK_MSG(!can_write(p.slave), "POLLOUT while output suspended");
	errno = 0;
	ATF_CHECK_MSG(write(p.slave, "x", 1) < 0 && errno == EAGAIN,
		      "write while suspended: %s", strerror(errno));
	ATF_REQUIRE(tcflow(p.slave, TCOON) == 0);
	ATF_CHECK_MSG(can_write(p.slave), "no POLLOUT after TCOON");
	tp_write_str(p.slave, "y", "write after TCOON");
	tp_read_exact(p.master, got, 1, 1, "output after TCOON");
	ATF_CHECK(got[0] == 'y');
	errno = 0;
	ATF_CHECK_MSG(tcflow(p.slave, 42) < 0 && errno == EINVAL,
		      "tcflow(42): %s", strerror(errno));
	tp_pty_close(&p);
}

TP_CASE(fionbio_sets_nonblocking, TP_POSIX,
	"FIONBIO sets and clears O_NONBLOCK on the open file: a read of an "
	"empty slave fails EAGAIN while it is set")
{
	struct tp_pty p;
	char c;

	tp_pty_open(&p, TP_RAW);
	ATF_REQUIRE(ioctl(p.slave, FIONBIO, &(int){1}) == 0);
	ATF_CHECK(fcntl(p.slave, F_GETFL) & O_NONBLOCK);
	errno = 0;
	ATF_CHECK_MSG(read(p.slave, &c, 1) < 0 && errno == EAGAIN,
		      "read of an empty slave: %s", strerror(errno));
	ATF_REQUIRE(ioctl(p.slave, FIONBIO, &(int){0}) == 0);
	ATF_CHECK(!(fcntl(p.slave, F_GETFL) & O_NONBLOCK));
	tp_pty_close(&p);
}

TP_CASE(serial_ioctls_enotty_on_pty, TP_LINUX,
	"Serial-port ioctls a pty driver does not implement (TIOCGSERIAL, "
	"TIOCGICOUNT) and an unknown ioctl fail ENOTTY")
{
	struct tp_pty p;
	struct serial_struct ss;
	struct serial_icounter_struct ic;

	tp_pty_open(&p, TP_COOKED);
	errno = 0;
	ATF_CHECK_MSG(ioctl(p.slave, TIOCGSERIAL, &ss) < 0 && errno == ENOTTY,
		      "TIOCGSERIAL: %s", strerror(errno));
	errno = 0;
	ATF_CHECK_MSG(ioctl(p.slave, TIOCGICOUNT, &ic) < 0 && errno == ENOTTY,
		      "TIOCGICOUNT: %s", strerror(errno));
	errno = 0;
	ATF_CHECK_MSG(ioctl(p.slave, _IO('T', 0x7e), 0) < 0 && errno == ENOTTY,
		      "unknown ioctl: %s", strerror(errno));
	tp_pty_close(&p);
}

ATF_TP_ADD_TCS(tp)
{
	ATF_TP_ADD_TC(tp, tiocgwinsz_defaults_to_zero);
	ATF_TP_ADD_TC(tp, tiocexcl_refuses_unprivileged_open);
	ATF_TP_ADD_TC(tp, tiocsetd_rejects_unavailable_ldisc);
	ATF_TP_ADD_TC(tp, tcxonc_suspends_and_sends_flow_chars);
	ATF_TP_ADD_TC(tp, fionbio_sets_nonblocking);
	ATF_TP_ADD_TC(tp, serial_ioctls_enotty_on_pty);
	return atf_no_error();
}
