// SPDX-License-Identifier: GPL-2.0-only
/* t_speed.c: line speeds in termios on a pty (tty_baudrate.c, set_termios
 * in tty_ioctl.c).  Each Bnnn code of c_cflag's CBAUD field stands for the
 * rate of the kernel's baud table, which TCGETS2 reports in c_ospeed; the
 * CIBAUD field (the same codes IBSHIFT bits up) sets the input speed, and 0
 * there means "as the output"; BOTHER (the CBAUDEX bit alone) takes the
 * rate from c_ospeed/c_ispeed as given.  A pty stores all of it; only a
 * UART acts on it.  TCSETSW2 and TCSETSF2 are TCSETSW and TCSETSF with the
 * speeds: the second discards unread input, the first keeps it. */
#include <errno.h>
#include <string.h>
#include <sys/ioctl.h>
#include <termios.h>
#include <unistd.h>

#include "tp_termios2.h"
#include "ttypot.h"

static const struct {
	tcflag_t code;
	speed_t rate;
	const char *name;
} speeds[] = {
	{ B0, 0, "B0" }, { B50, 50, "B50" }, { B75, 75, "B75" }, { B110, 110, "B110" },
	{ B134, 134, "B134" }, { B150, 150, "B150" }, { B200, 200, "B200" },
	{ B300, 300, "B300" }, { B600, 600, "B600" }, { B1200, 1200, "B1200" },
	{ B1800, 1800, "B1800" }, { B2400, 2400, "B2400" }, { B4800, 4800, "B4800" },
	{ B9600, 9600, "B9600" }, { B19200, 19200, "B19200" }, { B38400, 38400, "B38400" },
	{ B57600, 57600, "B57600" }, { B115200, 115200, "B115200" },
	{ B230400, 230400, "B230400" }, { B460800, 460800, "B460800" },
	{ B500000, 500000, "B500000" }, { B576000, 576000, "B576000" },
	{ B921600, 921600, "B921600" }, { B1000000, 1000000, "B1000000" },
	{ B1152000, 1152000, "B1152000" }, { B1500000, 1500000, "B1500000" },
	{ B2000000, 2000000, "B2000000" }, { B2500000, 2500000, "B2500000" },
	{ B3000000, 3000000, "B3000000" }, { B3500000, 3500000, "B3500000" },
	{ B4000000, 4000000, "B4000000" },
};
#define NSPEEDS (sizeof speeds / sizeof *speeds)

static void
get2(int fd, struct k_termios2 *t)
{
	ATF_REQUIRE_MSG(ioctl(fd, K_TCGETS2, t) == 0, "TCGETS2: %s", strerror(errno));
}

static void
set2(int fd, unsigned long req, const struct k_termios2 *t, const char *what)
{
	ATF_REQUIRE_MSG(ioctl(fd, req, t) == 0, "%s: %s", what, strerror(errno));
}

TP_CASE(every_speed_code_reads_back_as_its_rate, TP_LINUX,
	"Each CBAUD code B0 ... B4000000 set with tcsetattr (CIBAUD 0) reads "
	"back in c_cflag, and TCGETS2 reports the code's rate from the kernel's "
	"baud table as both c_ospeed and c_ispeed (CIBAUD 0: input as output)")
{
	struct tp_pty p;
	tp_pty_open(&p, TP_RAW);
	for (size_t i = 0; i < NSPEEDS; i++) {
		struct termios t;
		tp_tc_get(p.slave, &t);
		t.c_cflag = (t.c_cflag & ~(CBAUD | CIBAUD)) | speeds[i].code;
		ATF_REQUIRE_MSG(tcsetattr(p.slave, TCSANOW, &t) == 0, "tcsetattr %s: %s",
				speeds[i].name, strerror(errno));
		struct termios g;
		tp_tc_get(p.slave, &g);
		ATF_CHECK_EQ_MSG(g.c_cflag & CBAUD, speeds[i].code, "%s: CBAUD reads %#o",
				 speeds[i].name, g.c_cflag & CBAUD);
		struct k_termios2 k;
		get2(p.slave, &k);
		ATF_CHECK_EQ_MSG(k.c_ospeed, speeds[i].rate, "%s: c_ospeed %u, want %u",
				 speeds[i].name, k.c_ospeed, speeds[i].rate);
		ATF_CHECK_EQ_MSG(k.c_ispeed, speeds[i].rate, "%s: c_ispeed %u, want %u",
				 speeds[i].name, k.c_ispeed, speeds[i].rate);
	}
	tp_pty_close(&p);
}

TP_CASE(cibaud_sets_the_input_speed, TP_LINUX,
	"A code in CIBAUD (B9600 << IBSHIFT) makes the input speed differ "
	"from the output: TCGETS2 reads c_ispeed 9600 with c_ospeed 115200, "
	"and the CIBAUD field reads back as set")
{
	struct tp_pty p;
	tp_pty_open(&p, TP_RAW);
	struct k_termios2 k;
	get2(p.slave, &k);
	k.c_cflag = (k.c_cflag & ~(CBAUD | CIBAUD)) | B115200 | (B9600 << K_IBSHIFT);
	set2(p.slave, K_TCSETS2, &k, "TCSETS2 115200 out, 9600 in");
	get2(p.slave, &k);
	ATF_CHECK_EQ_MSG(k.c_ospeed, 115200, "c_ospeed %u", k.c_ospeed);
	ATF_CHECK_EQ_MSG(k.c_ispeed, 9600, "c_ispeed %u", k.c_ispeed);
	ATF_CHECK_EQ_MSG(k.c_cflag & CIBAUD, (tcflag_t)B9600 << K_IBSHIFT,
			 "CIBAUD %#o", k.c_cflag & CIBAUD);
	ATF_CHECK_EQ_MSG(k.c_cflag & CBAUD, B115200, "CBAUD %#o", k.c_cflag & CBAUD);
	tp_pty_close(&p);
}

TP_CASE(every_input_speed_code_reads_back_as_its_rate, TP_LINUX,
	"Each CBAUD code B50 ... B4000000 in CIBAUD, with B9600 out, is the "
	"input speed the baud table gives that code, the codes above B38400 "
	"(CBAUDEX) too: TCGETS2 reads it as c_ispeed, c_ospeed stays 9600 and "
	"CIBAUD reads back as set")
{
	struct tp_pty p;
	tp_pty_open(&p, TP_RAW);
	for (size_t i = 1; i < NSPEEDS; i++) { /* B0 in CIBAUD: as output */
		struct k_termios2 k;
		get2(p.slave, &k);
		k.c_cflag = (k.c_cflag & ~(CBAUD | CIBAUD)) | B9600 |
			    ((tcflag_t)speeds[i].code << K_IBSHIFT);
		set2(p.slave, K_TCSETS2, &k, speeds[i].name);
		get2(p.slave, &k);
		ATF_CHECK_EQ_MSG(k.c_ispeed, speeds[i].rate, "%s in: c_ispeed %u, "
				 "want %u", speeds[i].name, k.c_ispeed, speeds[i].rate);
		ATF_CHECK_EQ_MSG(k.c_ospeed, 9600, "%s in: c_ospeed %u, want 9600",
				 speeds[i].name, k.c_ospeed);
		ATF_CHECK_EQ_MSG(k.c_cflag & CIBAUD,
				 (tcflag_t)speeds[i].code << K_IBSHIFT,
				 "%s in: CIBAUD %#o", speeds[i].name, k.c_cflag & CIBAUD);
	}
	tp_pty_close(&p);
}

TP_CASE(bother_takes_any_rate, TP_LINUX,
	"BOTHER (the CBAUDEX bit alone; powerpc: code 0x1f) in CBAUD and in "
	"CIBAUD takes the rates "
	"from c_ospeed and c_ispeed: 12345 out and 4321 in read back through "
	"TCGETS2, with BOTHER still in both fields")
{
	struct tp_pty p;
	tp_pty_open(&p, TP_RAW);
#ifndef __powerpc__ /* there BOTHER is a code of its own */
	ATF_REQUIRE_EQ_MSG(BOTHER, CBAUDEX, "BOTHER %#o is not CBAUDEX %#o", BOTHER,
			   CBAUDEX);
#endif
	struct k_termios2 k;
	get2(p.slave, &k);
	k.c_cflag = (k.c_cflag & ~(CBAUD | CIBAUD)) | BOTHER | (BOTHER << K_IBSHIFT);
	k.c_ospeed = 12345;
	k.c_ispeed = 4321;
	set2(p.slave, K_TCSETS2, &k, "TCSETS2 BOTHER 12345/4321");
	memset(&k, 0, sizeof k);
	get2(p.slave, &k);
	ATF_CHECK_EQ_MSG(k.c_ospeed, 12345, "c_ospeed %u", k.c_ospeed);
	ATF_CHECK_EQ_MSG(k.c_ispeed, 4321, "c_ispeed %u", k.c_ispeed);
	ATF_CHECK_EQ_MSG(k.c_cflag & CBAUD, BOTHER, "CBAUD %#o", k.c_cflag & CBAUD);
	ATF_CHECK_EQ_MSG((k.c_cflag & CIBAUD) >> K_IBSHIFT, BOTHER, "CIBAUD %#o",
			 k.c_cflag & CIBAUD);
	tp_pty_close(&p);
}

/* Three bytes of unread input on a raw slave, and TCSETSW2 or TCSETSF2
 * turning ECHO on: the new termios applies; the input stays or goes. */
static void
set2_with_pending_input(unsigned long req, const char *name, int want_left)
{
	struct tp_pty p;
	tp_pty_open(&p, TP_RAW);
	tp_write_str(p.master, "abc", "input for the slave");
	tp_wait_fionread(p.slave, 3, TP_WAIT_MS, "the input queued on the slave");
	struct k_termios2 k;
	get2(p.slave, &k);
	ATF_REQUIRE(!(k.c_lflag & ECHO));
	k.c_lflag |= ECHO;
	set2(p.slave, req, &k, name);
	get2(p.slave, &k);
	ATF_CHECK_MSG(k.c_lflag & ECHO, "%s did not apply ECHO", name);
	int left = tp_fionread(p.slave);
	ATF_CHECK_EQ_MSG(left, want_left, "%s left %d bytes of input, want %d", name,
			 left, want_left);
	if (want_left) {
		char got[3];
		tp_read_exact(p.slave, got, sizeof got, sizeof got, "the kept input");
		ATF_CHECK_MSG(memcmp(got, "abc", 3) == 0, "kept input %s", tp_esc(got, 3));
	}
	tp_pty_close(&p);
}

TP_CASE(tcsetsw2_keeps_unread_input, TP_LINUX,
	"TCSETSW2 applies the new termios (here ECHO) once output has drained "
	"and keeps the slave's unread input")
{
	set2_with_pending_input(K_TCSETSW2, "TCSETSW2", 3);
}

TP_CASE(tcsetsf2_discards_unread_input, TP_LINUX,
	"TCSETSF2 applies the new termios and discards the slave's unread "
	"input, as tcsetattr(TCSAFLUSH) does")
{
	set2_with_pending_input(K_TCSETSF2, "TCSETSF2", 0);
}

ATF_TP_ADD_TCS(tp)
{
	ATF_TP_ADD_TC(tp, every_speed_code_reads_back_as_its_rate);
	ATF_TP_ADD_TC(tp, cibaud_sets_the_input_speed);
	ATF_TP_ADD_TC(tp, every_input_speed_code_reads_back_as_its_rate);
	ATF_TP_ADD_TC(tp, bother_takes_any_rate);
	ATF_TP_ADD_TC(tp, tcsetsw2_keeps_unread_input);
	ATF_TP_ADD_TC(tp, tcsetsf2_discards_unread_input);
	return atf_no_error();
}
