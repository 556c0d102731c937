// SPDX-License-Identifier: GPL-2.0-only
/* t_serspeed.c: how TIOCSSERIAL changes the speeds a port takes: its
 * baud_base (the UART clock / 16) caps the rate, and the old spd_hi /
 * spd_vhi flags make a request for 38400 baud mean 57600 / 115200
 * (uart_get_baud_rate's "kludge"), spd_shi / spd_warp 230400 / 460800 on a
 * port whose clock allows them; a rate beyond the clock gives the fastest
 * the clock makes; magic_multiplier lets a port take a quarter and an eighth
 * of its clock.  The 8250 driver writes the rate it set back into
 * termios, which is what tcgetattr shows. */
#include <errno.h>
#include <string.h>
#include <sys/ioctl.h>
#include <unistd.h>

#include "tp_serial.h"
#include "tp_termios2.h"

static void
sserial(int fd, const struct serial_struct *req, const char *what)
{
	struct serial_struct r = *req;
	if (ioctl(fd, TIOCSSERIAL, &r) != 0)
		atf_tc_fail("TIOCSSERIAL %s: %s", what, strerror(errno));
}

/* Ask for speed s; what tcgetattr reads back. */
static speed_t
ask_speed(int fd, speed_t s)
{
	struct termios t;
	tp_uart_speed(fd, s);
	tp_tc_get(fd, &t);
	ATF_CHECK_EQ_MSG(cfgetispeed(&t), cfgetospeed(&t), "input speed %#o, "
			 "output %#o", (unsigned)cfgetispeed(&t),
			 (unsigned)cfgetospeed(&t));
	return cfgetospeed(&t);
}

static speed_t
speed_now(int fd)
{
	struct termios t;
	tp_tc_get(fd, &t);
	return cfgetospeed(&t);
}

TP_CASE_ROOT(baud_base_caps_speed, TP_LINUX,
	     "As root, TIOCSSERIAL with baud_base 57600 (half the clock) "
	     "makes 57600 the fastest rate the port takes: B57600 reads back, "
	     "B115200 is refused by keeping the previous speed (B57600); with "
	     "baud_base put back, B115200 is taken again")
{
	struct tp_serial_pair p;
	struct serial_struct s0, req, s1;

	tp_serial_find(tc, &p);
	int fd = tp_uart_open(p.a, 0);
	tp_serial_save(fd, &s0);
	ATF_REQUIRE_EQ_MSG(s0.baud_base, 115200, "baud_base %d to begin with",
			   s0.baud_base);
	req = s0;
	req.baud_base = 57600;
	sserial(fd, &req, "baud_base 57600");
	tp_uart_gserial(fd, &s1);
	ATF_CHECK_EQ_MSG(s1.baud_base, 57600, "baud_base reads %d", s1.baud_base);
	ATF_CHECK_EQ_MSG(ask_speed(fd, B57600), B57600, "B57600 read back as "
			 "%#o", (unsigned)speed_now(fd));
	ATF_CHECK_EQ_MSG(ask_speed(fd, B115200), B57600, "B115200 above "
			 "baud_base 57600 read back as %#o, want the previous "
			 "B57600", (unsigned)speed_now(fd));
	tp_serial_put_back();
	ATF_CHECK_EQ_MSG(ask_speed(fd, B115200), B115200, "with baud_base "
			 "115200 again B115200 read back as %#o",
			 (unsigned)speed_now(fd));
}

/* With flag set at B38400 (and baud_base, when not 0, set first): what the
 * port runs at, and that asking for B38400 again gives the same; with the
 * flag cleared B38400 is 38400. */
static void
spd_flag(const atf_tc_t *tc, int baud_base, int flag, speed_t means, const char *name)
{
	struct tp_serial_pair p;
	struct serial_struct s0, req;

	tp_serial_find(tc, &p);
	int fd = tp_uart_open(p.a, 0);
	tp_serial_save(fd, &s0);
	ATF_REQUIRE_EQ_MSG(s0.flags & ASYNC_SPD_MASK, 0, "a speed flag is "
			   "already set: %#x", s0.flags);
	ATF_REQUIRE_EQ(ask_speed(fd, B38400), B38400);
	req = s0;
	if (baud_base) {
		req.baud_base = baud_base;
		sserial(fd, &req, "baud_base");
		ATF_REQUIRE_EQ_MSG(speed_now(fd), B38400, "a new baud_base %d "
				   "changed the speed to %#o", baud_base,
				   (unsigned)speed_now(fd));
	}
	req.flags = (s0.flags & ~ASYNC_SPD_MASK) | flag;
	sserial(fd, &req, name);
	ATF_CHECK_EQ_MSG(speed_now(fd), means, "after setting %s at B38400 "
			 "the port reads %#o, want %#o", name,
			 (unsigned)speed_now(fd), (unsigned)means);
	ATF_CHECK_EQ_MSG(ask_speed(fd, B38400), means, "with %s, B38400 "
			 "read back as %#o, want %#o", name,
			 (unsigned)speed_now(fd), (unsigned)means);
	req.flags = s0.flags & ~ASYNC_SPD_MASK;
	sserial(fd, &req, "no speed flag");
	ATF_CHECK_EQ_MSG(ask_speed(fd, B38400), B38400, "without %s, B38400 "
			 "read back as %#o", name, (unsigned)speed_now(fd));
	tp_serial_put_back();
}

TP_CASE_ROOT(spd_hi_38400_means_57600, TP_LINUX,
	     "With ASYNC_SPD_HI (setserial spd_hi) a port asked for 38400 "
	     "baud runs at 57600 and tcgetattr reads B57600, at once when the "
	     "flag is set at B38400 and for a later B38400; without the flag "
	     "B38400 is 38400 again")
{
	spd_flag(tc, 0, ASYNC_SPD_HI, B57600, "ASYNC_SPD_HI");
}

TP_CASE_ROOT(spd_vhi_38400_means_115200, TP_LINUX,
	     "With ASYNC_SPD_VHI (setserial spd_vhi) a port asked for 38400 "
	     "baud runs at 115200 and tcgetattr reads B115200; without the "
	     "flag B38400 is 38400 again")
{
	spd_flag(tc, 0, ASYNC_SPD_VHI, B115200, "ASYNC_SPD_VHI");
}

/* The clock of a faster UART (4 x QEMU's 1.8432 MHz): 460800 baud at most. */
#define FAST_BAUD_BASE 460800

TP_CASE_ROOT(spd_shi_38400_means_230400, TP_LINUX,
	     "With ASYNC_SPD_SHI (setserial spd_shi) on a port whose baud_base "
	     "is 460800, a port asked for 38400 baud runs at 230400 and "
	     "tcgetattr reads B230400; without the flag B38400 is 38400 again")
{
	spd_flag(tc, FAST_BAUD_BASE, ASYNC_SPD_SHI, B230400, "ASYNC_SPD_SHI");
}

TP_CASE_ROOT(spd_warp_38400_means_460800, TP_LINUX,
	     "With ASYNC_SPD_WARP (setserial spd_warp) on a port whose "
	     "baud_base is 460800, a port asked for 38400 baud runs at 460800 "
	     "and tcgetattr reads B460800; without the flag B38400 is 38400 "
	     "again")
{
	spd_flag(tc, FAST_BAUD_BASE, ASYNC_SPD_WARP, B460800, "ASYNC_SPD_WARP");
}

TP_CASE_ROOT(spd_flag_beyond_the_clock_gives_its_fastest, TP_LINUX,
	     "A speed flag whose rate the port's clock cannot make (spd_warp, "
	     "460800, with baud_base 115200) is not refused: the port runs at "
	     "the fastest rate its clock makes, B115200, both when the flag is "
	     "set at B38400 and for a later B38400")
{
	spd_flag(tc, 0, ASYNC_SPD_WARP, B115200, "ASYNC_SPD_WARP at baud_base 115200");
}

TP_CASE_ROOT(magic_multiplier_takes_clock_over_8_and_4, TP_LINUX,
	     "With ASYNC_MAGIC_MULTIPLIER (setserial magic_multiplier: the "
	     "divisors 0x8002 and 0x8001 of SMSC Super I/O chips) a port whose "
	     "baud_base is 115200 takes 230400 and 460800 (its clock / 8 and / "
	     "4): tcgetattr reads each back; without the flag each is refused "
	     "by keeping the previous speed, B115200")
{
	struct tp_serial_pair p;
	struct serial_struct s0, req;

	tp_serial_find(tc, &p);
	int fd = tp_uart_open(p.a, 0);
	tp_serial_save(fd, &s0);
	ATF_REQUIRE_EQ_MSG(s0.baud_base, 115200, "baud_base %d to begin with",
			   s0.baud_base);
	ATF_REQUIRE_EQ_MSG(s0.flags & ASYNC_MAGIC_MULTIPLIER, 0, "the flag is "
			   "already set: %#x", s0.flags);
	ATF_REQUIRE_EQ(ask_speed(fd, B115200), B115200);
	ATF_CHECK_EQ_MSG(ask_speed(fd, B230400), B115200, "without the flag "
			 "B230400 read back as %#o", (unsigned)speed_now(fd));
	req = s0;
	req.flags |= ASYNC_MAGIC_MULTIPLIER;
	sserial(fd, &req, "ASYNC_MAGIC_MULTIPLIER");
	ATF_CHECK_EQ_MSG(ask_speed(fd, B230400), B230400, "with the flag "
			 "B230400 read back as %#o", (unsigned)speed_now(fd));
	ATF_CHECK_EQ_MSG(ask_speed(fd, B460800), B460800, "with the flag "
			 "B460800 read back as %#o", (unsigned)speed_now(fd));
	ATF_CHECK_EQ_MSG(ask_speed(fd, B115200), B115200, "with the flag "
			 "B115200 read back as %#o", (unsigned)speed_now(fd));
	tp_serial_put_back();
	ATF_CHECK_EQ_MSG(ask_speed(fd, B460800), B115200, "without the flag "
			 "again B460800 read back as %#o", (unsigned)speed_now(fd));
}

/* A clock of 1.6 MHz: baud_base 100000, below the port's 115200. */
#define LOW_BAUD_BASE 100000

TP_CASE_ROOT(speed_beyond_a_lowered_clock_is_clipped, TP_LINUX,
	     "After root lowers baud_base below the port's speed (115200 to "
	     "100000), a tcsetattr asking for more than the new clock makes "
	     "(230400), the old speed being beyond it too, is not refused: the "
	     "port runs at the fastest its clock makes, 100999 baud (the clock's "
	     "limit with 1 % tolerance, less one): tcsetattr succeeds and "
	     "TCGETS2 reads 100999 in and out.  [finding "
	     "serial-baud-clip-divide-error: a kernel without the fix divides "
	     "by zero there (an Oops) and leaves the port locked, so the case "
	     "runs only with the Kyua variable oops_ok=yes]")
{
	struct tp_serial_pair p;
	struct serial_struct s0, req;
	struct k_termios2 t2;

	if (!atf_tc_has_config_var(tc, "oops_ok") ||
	    strcmp(atf_tc_get_config_var(tc, "oops_ok"), "yes") != 0)
		atf_tc_skip("oopses a kernel without the fix of finding "
			    "serial-baud-clip-divide-error and leaves the port locked: "
			    "run with -v oops_ok=yes (ttypot matrix --vars oops_ok=yes)");
	tp_serial_find(tc, &p);
	int fd = tp_uart_open(p.a, 0);
	tp_serial_save(fd, &s0);
	ATF_REQUIRE_EQ(ask_speed(fd, B115200), B115200);
	req = s0;
	req.baud_base = LOW_BAUD_BASE;
	sserial(fd, &req, "baud_base 100000");
	struct termios t;
	tp_tc_get(fd, &t);
	cfsetispeed(&t, B230400);
	cfsetospeed(&t, B230400);
	tp_waiting_for("tcsetattr of 230400 beyond a 100000 clock");
	ATF_REQUIRE_MSG(tcsetattr(fd, TCSANOW, &t) == 0, "tcsetattr B230400: %s",
			strerror(errno));
	ATF_REQUIRE_MSG(ioctl(fd, K_TCGETS2, &t2) == 0, "TCGETS2: %s", strerror(errno));
	ATF_CHECK_MSG(t2.c_ospeed == 100999 && t2.c_ispeed == 100999, "speeds %u in, "
		      "%u out, want the clock's fastest, 100999", t2.c_ispeed, t2.c_ospeed);
	tp_serial_put_back();
	ATF_CHECK_EQ_MSG(ask_speed(fd, B115200), B115200, "with baud_base 115200 "
			 "again B115200 read back as %#o", (unsigned)speed_now(fd));
}

ATF_TP_ADD_TCS(tp)
{
	ATF_TP_ADD_TC(tp, baud_base_caps_speed);
	ATF_TP_ADD_TC(tp, spd_hi_38400_means_57600);
	ATF_TP_ADD_TC(tp, spd_vhi_38400_means_115200);
	ATF_TP_ADD_TC(tp, spd_shi_38400_means_230400);
	ATF_TP_ADD_TC(tp, spd_warp_38400_means_460800);
	ATF_TP_ADD_TC(tp, spd_flag_beyond_the_clock_gives_its_fastest);
	ATF_TP_ADD_TC(tp, magic_multiplier_takes_clock_over_8_and_4);
	ATF_TP_ADD_TC(tp, speed_beyond_a_lowered_clock_is_clipped);
	return atf_no_error();
}
