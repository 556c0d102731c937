// SPDX-License-Identifier: GPL-2.0-only
/* t_ttynull.c: /dev/ttynull (ttynull.c, CONFIG_NULL_TTY), a tty that
 * swallows what is written and never has input.  Its driver has no
 * set_termios, so tcsetattr goes through tty_termios_copy_hw: of c_cflag
 * only HUPCL, CREAD and CLOCAL take the new values, every other bit (the
 * speed, CSIZE, parity, stop bits) and the speeds keep the old ones; the
 * other flags change as asked.  It starts from the driver's own termios
 * (c_oflag OPOST|OCRNL|ONOCR|ONLRET, not the usual ONLCR) and goes back to
 * it at the last close (TTY_DRIVER_RESET_TERMIOS).  The node is root's:
 * the cases need root and skip where the kernel has no ttynull. */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <string.h>
#include <sys/ioctl.h>
#include <termios.h>
#include <unistd.h>

#include "ttypot.h"

#define TTYNULL "/dev/ttynull"

static int
open_ttynull(int flags)
{
	int fd = open(TTYNULL, O_RDWR | O_NOCTTY | O_CLOEXEC | flags);
	if (fd < 0 && (errno == ENOENT || errno == ENXIO || errno == ENODEV))
		atf_tc_skip("%s: %s: the kernel has no ttynull (CONFIG_NULL_TTY)",
			    TTYNULL, strerror(errno));
	ATF_REQUIRE_MSG(fd >= 0, "%s: %s", TTYNULL, strerror(errno));
	return fd;
}

TP_CASE_ROOT(fresh_ttynull_has_the_drivers_termios, TP_LINUX,
	"(root) A first open of /dev/ttynull has the driver's termios: c_oflag "
	"OPOST|OCRNL|ONOCR|ONLRET, c_iflag ICRNL|IXON, c_cflag "
	"B38400|CS8|CREAD|HUPCL and the standard c_lflag")
{
	int fd = open_ttynull(0);
	struct termios t;
	tp_tc_get(fd, &t);
	ATF_CHECK_EQ_MSG(t.c_oflag, (tcflag_t)(OPOST | OCRNL | ONOCR | ONLRET),
			 "c_oflag %#o", t.c_oflag);
	ATF_CHECK_EQ_MSG(t.c_iflag, (tcflag_t)(ICRNL | IXON), "c_iflag %#o", t.c_iflag);
	ATF_CHECK_EQ_MSG(t.c_cflag, (tcflag_t)(B38400 | CS8 | CREAD | HUPCL),
			 "c_cflag %#o", t.c_cflag);
	ATF_CHECK_EQ_MSG(t.c_lflag, (tcflag_t)(ISIG | ICANON | ECHO | ECHOE | ECHOK |
					       ECHOCTL | ECHOKE | IEXTEN),
			 "c_lflag %#o", t.c_lflag);
	close(fd);
}

TP_CASE_ROOT(tcsetattr_keeps_the_hardware_bits, TP_LINUX,
	"(root) tcsetattr on /dev/ttynull (no set_termios: tty_termios_copy_hw) "
	"changes HUPCL, CREAD and CLOCAL and the non-cflag flags as asked, but "
	"the speed, CSIZE, CSTOPB and PARENB keep their old values")
{
	int fd = open_ttynull(0);
	struct termios t, g;
	tp_tc_get(fd, &t);
	tcflag_t old = t.c_cflag;
	ATF_REQUIRE_MSG((old & (CBAUD | CSIZE)) == (B38400 | CS8) &&
			!(old & (CSTOPB | PARENB | CLOCAL)) && (old & (HUPCL | CREAD)),
			"unexpected starting c_cflag %#o", old);
	t.c_cflag = B9600 | CS7 | CSTOPB | PARENB | CLOCAL;
	t.c_lflag &= ~ECHO;
	t.c_oflag |= ONLCR;
	ATF_REQUIRE_MSG(tcsetattr(fd, TCSANOW, &t) == 0, "tcsetattr: %s", strerror(errno));
	tp_tc_get(fd, &g);
	ATF_CHECK_EQ_MSG(g.c_cflag & ~(HUPCL | CREAD | CLOCAL),
			 old & ~(HUPCL | CREAD | CLOCAL),
			 "c_cflag %#o: the hardware bits of %#o did not stay", g.c_cflag, old);
	ATF_CHECK_EQ_MSG(g.c_cflag & (HUPCL | CREAD | CLOCAL), (tcflag_t)CLOCAL,
			 "HUPCL/CREAD/CLOCAL %#o, want CLOCAL alone",
			 g.c_cflag & (HUPCL | CREAD | CLOCAL));
	ATF_CHECK_MSG(cfgetospeed(&g) == B38400, "speed %#o, want B38400 kept",
		      cfgetospeed(&g));
	ATF_CHECK_MSG(!(g.c_lflag & ECHO), "ECHO not cleared: c_lflag %#o", g.c_lflag);
	ATF_CHECK_MSG(g.c_oflag & ONLCR, "ONLCR not set: c_oflag %#o", g.c_oflag);
	close(fd);
}

TP_CASE_ROOT(writes_are_swallowed_reads_never_come, TP_LINUX,
	"(root) /dev/ttynull takes every write whole at once (200000 bytes, "
	"non-blocking too), always polls writable, and has no input: a "
	"non-blocking read fails EAGAIN and POLLIN never comes")
{
	int fd = open_ttynull(O_NONBLOCK);
	static char buf[200000];
	memset(buf, 'n', sizeof buf);
	ssize_t n = write(fd, buf, sizeof buf);
	ATF_CHECK_EQ_MSG(n, (ssize_t)sizeof buf, "write of %zu: %zd (%s)", sizeof buf, n,
			 n < 0 ? strerror(errno) : "short");
	ATF_CHECK_MSG(tp_poll1(fd, POLLOUT, 0) & POLLOUT, "not writable after the write");
	char c;
	errno = 0;
	n = read(fd, &c, 1);
	ATF_CHECK_MSG(n < 0 && errno == EAGAIN, "read: %zd (%s), want EAGAIN", n,
		      strerror(errno));
	tp_expect_quiet(fd, "input on /dev/ttynull");
	close(fd);
}

TP_CASE_ROOT(last_close_resets_termios, TP_LINUX,
	"(root) After the last close /dev/ttynull forgets what tcsetattr did "
	"(TTY_DRIVER_RESET_TERMIOS): ECHO cleared and ONLCR set before the "
	"close read back as the driver's termios after a new open")
{
	int fd = open_ttynull(0);
	struct termios t;
	tp_tc_get(fd, &t);
	t.c_lflag &= ~ECHO;
	t.c_oflag |= ONLCR;
	tp_tc_set(fd, &t);
	close(fd);
	fd = open_ttynull(0);
	tp_tc_get(fd, &t);
	ATF_CHECK_MSG(t.c_lflag & ECHO, "ECHO still cleared after the last close");
	ATF_CHECK_EQ_MSG(t.c_oflag, (tcflag_t)(OPOST | OCRNL | ONOCR | ONLRET),
			 "c_oflag %#o after the last close", t.c_oflag);
	close(fd);
}

TP_CASE_ROOT(hangup_ends_old_opens_new_open_works, TP_LINUX,
	"(root) TIOCVHANGUP on /dev/ttynull hangs up every open file of it, "
	"whatever its driver: they read 0 (EOF), write EIO and poll POLLHUP; "
	"an open made after the hangup is a working tty again (writes taken "
	"whole) while the hung-up files stay hung up")
{
	int fd = open_ttynull(0), other = open_ttynull(0);
	if (ioctl(fd, TIOCVHANGUP) != 0)
		atf_tc_fail("TIOCVHANGUP on %s: %s", TTYNULL, strerror(errno));
	char c;
	errno = 0;
	ssize_t n = read(other, &c, 1);
	ATF_CHECK_MSG(n == 0, "hung-up file: read %zd (%s), want 0", n,
		      n < 0 ? strerror(errno) : "data");
	errno = 0;
	n = write(other, "x", 1);
	ATF_CHECK_MSG(n == -1 && errno == EIO, "hung-up file: write %zd (%s), want EIO",
		      n, strerror(errno));
	ATF_CHECK_MSG(tp_poll1(other, POLLIN | POLLOUT, 0) & POLLHUP,
		      "hung-up file: no POLLHUP");
	int fresh = open_ttynull(0);
	n = write(fresh, "after the hangup", 16);
	ATF_CHECK_MSG(n == 16, "a new open after the hangup: write %zd (%s), want 16", n,
		      n < 0 ? strerror(errno) : "short");
	struct termios t;
	ATF_CHECK_MSG(tcgetattr(fresh, &t) == 0, "a new open after the hangup: "
		      "tcgetattr: %s", strerror(errno));
	errno = 0;
	n = write(fd, "x", 1);
	ATF_CHECK_MSG(n == -1 && errno == EIO, "the file that hung up, after the new "
		      "open: write %zd (%s), want EIO", n, strerror(errno));
	close(fresh);
	close(other);
	close(fd);
}

ATF_TP_ADD_TCS(tp)
{
	ATF_TP_ADD_TC(tp, fresh_ttynull_has_the_drivers_termios);
	ATF_TP_ADD_TC(tp, tcsetattr_keeps_the_hardware_bits);
	ATF_TP_ADD_TC(tp, writes_are_swallowed_reads_never_come);
	ATF_TP_ADD_TC(tp, last_close_resets_termios);
	ATF_TP_ADD_TC(tp, hangup_ends_old_opens_new_open_works);
	return atf_no_error();
}
