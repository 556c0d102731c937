// SPDX-License-Identifier: GPL-2.0-only
/* t_locked.c: what tcsetattr cannot change: bits and control characters
 * locked with TIOCSLCKTRMIOS (privileged to set, anyone may read), and the
 * c_cflag a pty forces (CS8, CREAD, no parity). */
#include <errno.h>
#include <string.h>
#include <sys/ioctl.h>
#include <termios.h>
#include <unistd.h>

#include "ttypot.h"

/* TIOC[GS]LCKTRMIOS copy the kernel's struct termios, not glibc's.  The
 * asm-generic one (x86, arm64) is glibc's prefix; powerpc's (arch/powerpc/
 * include/uapi/asm/termbits.h) puts c_cc before c_line, so glibc's
 * c_cc[VERASE] would land on the kernel's VKILL. */
struct k_termios {
	tcflag_t c_iflag, c_oflag, c_cflag, c_lflag;
#ifdef __powerpc__
	cc_t c_cc[19];
	cc_t c_line;
	speed_t c_ispeed, c_ospeed;
#else
	cc_t c_line;
	cc_t c_cc[19];
#endif
};

/* An unprivileged uid that needs no /etc/passwd entry (minimal guests). */
#define NOBODY_UID 65534

TP_CASE_ROOT(locked_termios_bits_keep_their_values, TP_LINUX,
	     "With ECHO and VERASE locked (TIOCSLCKTRMIOS, CAP_SYS_ADMIN), "
	     "tcsetattr silently keeps ECHO and VERASE while it changes "
	     "unlocked bits and characters; TIOCGLCKTRMIOS reads the lock "
	     "back; an all-zero lock frees them again")
{
	struct tp_pty p;
	struct k_termios lock;
	struct termios t;

	tp_pty_open(&p, TP_COOKED);
	tp_lflag(p.slave, ECHO | ICANON, 0);
	tp_set_cc(p.slave, VERASE, 0177);
	memset(&lock, 0, sizeof(lock));
	lock.c_lflag = ECHO;
	lock.c_cc[VERASE] = 1;
	if (ioctl(p.master, TIOCSLCKTRMIOS, &lock) != 0)
		atf_tc_fail("TIOCSLCKTRMIOS via the master: %s",
			    strerror(errno));
	memset(&lock, 0, sizeof(lock));
	ATF_REQUIRE(ioctl(p.slave, TIOCGLCKTRMIOS, &lock) == 0);
	ATF_CHECK_MSG(lock.c_lflag == ECHO && lock.c_cc[VERASE] == 1,
		      "slave TIOCGLCKTRMIOS: c_lflag %#o VERASE %u", lock.c_lflag,
		      lock.c_cc[VERASE]);

	tp_tc_get(p.slave, &t);
	t.c_lflag &= ~(tcflag_t)(ECHO | ICANON);
	t.c_cc[VERASE] = 010;
	t.c_cc[VKILL] = 030;
	tp_tc_set(p.slave, &t);
	tp_tc_get(p.slave, &t);
	ATF_CHECK_MSG(t.c_lflag & ECHO, "locked ECHO was cleared");
	ATF_CHECK_MSG(!(t.c_lflag & ICANON), "unlocked ICANON was kept");
	ATF_CHECK_EQ_MSG(t.c_cc[VERASE], 0177, "locked VERASE became %#o",
			 t.c_cc[VERASE]);
	ATF_CHECK_EQ_MSG(t.c_cc[VKILL], 030, "unlocked VKILL is %#o",
			 t.c_cc[VKILL]);

	memset(&lock, 0, sizeof(lock));
	ATF_REQUIRE(ioctl(p.slave, TIOCSLCKTRMIOS, &lock) == 0);
	tp_lflag(p.slave, 0, ECHO);
	tp_tc_get(p.slave, &t);
	ATF_CHECK_MSG(!(t.c_lflag & ECHO), "ECHO still set after unlocking");
	tp_pty_close(&p);
}

static int
unprivileged_lock(void *arg)
{
	struct tp_pty *p = arg;
	struct k_termios lock;

	if (getuid() == 0 && setuid(NOBODY_UID) != 0)
		return tp_child_fail("setuid(%d): %s", NOBODY_UID,
				     strerror(errno));
	memset(&lock, 0, sizeof(lock));
	if (ioctl(p->slave, TIOCGLCKTRMIOS, &lock) != 0)
		return tp_child_fail("unprivileged TIOCGLCKTRMIOS: %s",
				     strerror(errno));
	lock.c_lflag = ECHO;
	if (ioctl(p->slave, TIOCSLCKTRMIOS, &lock) == 0 || errno != EPERM)
		return tp_child_fail("unprivileged TIOCSLCKTRMIOS: %s, "
				     "expected EPERM",
				     errno ? strerror(errno) : "success");
	return 0;
}

TP_CASE(tiocslcktrmios_unprivileged_eperm, TP_LINUX,
	"An unprivileged process (uid 65534 in a child when run as root) may "
	"read the termios lock but setting it fails EPERM and locks nothing")
{
	struct tp_pty p;
	struct tp_child c;
	struct k_termios lock;

	tp_pty_open(&p, TP_COOKED);
	tp_child_start(&c, unprivileged_lock, &p);
	tp_child_join(&c, TP_WAIT_MS, "unprivileged lock attempt");
	memset(&lock, 0xff, sizeof(lock));
	ATF_REQUIRE(ioctl(p.slave, TIOCGLCKTRMIOS, &lock) == 0);
	ATF_CHECK_EQ_MSG(lock.c_lflag, 0, "lock c_lflag %#o after the refused "
			 "TIOCSLCKTRMIOS", lock.c_lflag);
	tp_pty_close(&p);
}

TP_CASE(pty_forces_cs8_cread_without_parity, TP_LINUX,
	"A pty keeps c_cflag at CS8|CREAD without PARENB: tcsetattr asking "
	"for CS7, PARENB and no CREAD reads back CS8, CREAD, no "
	"PARENB (other c_cflag bits such as CSTOPB are kept)")
{
	struct tp_pty p;
	struct termios t;

	tp_pty_open(&p, TP_COOKED);
	tp_tc_get(p.slave, &t);
	t.c_cflag = (t.c_cflag & ~(tcflag_t)(CSIZE | CREAD)) | CS7 | PARENB |
		    CSTOPB;
	tp_tc_set(p.slave, &t);
	tp_tc_get(p.slave, &t);
	ATF_CHECK_EQ_MSG(t.c_cflag & CSIZE, (tcflag_t)CS8, "CSIZE %#o",
			 t.c_cflag & CSIZE);
	ATF_CHECK_MSG(t.c_cflag & CREAD, "CREAD cleared on a pty");
	ATF_CHECK_MSG(!(t.c_cflag & PARENB), "PARENB kept on a pty");
	ATF_CHECK_MSG(t.c_cflag & CSTOPB, "CSTOPB was not kept");
	tp_pty_close(&p);
}

ATF_TP_ADD_TCS(tp)
{
	ATF_TP_ADD_TC(tp, locked_termios_bits_keep_their_values);
	ATF_TP_ADD_TC(tp, tiocslcktrmios_unprivileged_eperm);
	ATF_TP_ADD_TC(tp, pty_forces_cs8_cread_without_parity);
	return atf_no_error();
}
