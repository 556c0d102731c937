/* t_serinfo.c: TIOCGSERIAL/TIOCSSERIAL on an 8250 port: what the serial
 * core reports about the UART behind a ttyS. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <unistd.h>

#include "tp_serial.h"

static void
gserial(int fd, struct serial_struct *ss)
{
	memset(ss, 0, sizeof(*ss));
	if (ioctl(fd, TIOCGSERIAL, ss) != 0)
		atf_tc_fail("TIOCGSERIAL: %s", strerror(errno));
}

TP_CASE(gserial_describes_16550a, TP_LINUX,
	"TIOCGSERIAL describes each port of the pair as a 16550A (PORT_16550A, "
	"16-byte FIFO, baud_base 115200 from the 1.8432 MHz clock), with the "
	"line number of its ttyS name")
{
	struct tp_serial_pair p;
	struct serial_struct ss;

	tp_serial_find(tc, &p);
	if (p.from_config) {
		char why[256];
		struct tp_serial_pair sys;
		if (!tp_serial_find_sysfs(&sys, why, sizeof(why)))
			atf_tc_skip("the pair is not QEMU's pci-serial (%s): its "
				    "UART type is unknown", why);
	}
	const char *paths[2] = {p.a, p.b};
	for (int i = 0; i < 2; i++) {
		int fd = tp_uart_open(paths[i], 0);
		gserial(fd, &ss);
		ATF_CHECK_EQ_MSG(ss.type, PORT_16550A, "%s: type %d", paths[i], ss.type);
		ATF_CHECK_EQ_MSG(ss.xmit_fifo_size, 16, "%s: xmit_fifo_size %d",
				 paths[i], ss.xmit_fifo_size);
		ATF_CHECK_EQ_MSG(ss.baud_base, 115200, "%s: baud_base %d", paths[i],
				 ss.baud_base);
		long line = strtol(paths[i] + strcspn(paths[i], "0123456789"), NULL, 10);
		ATF_CHECK_EQ_MSG(ss.line, line, "%s: line %d", paths[i], ss.line);
	}
}

TP_CASE_ROOT(sserial_round_trip_unchanged, TP_LINUX,
	     "TIOCSSERIAL of what TIOCGSERIAL returned succeeds and changes "
	     "nothing: a second TIOCGSERIAL reads the same fields")
{
	struct tp_serial_pair p;
	struct serial_struct s0, s1;

	tp_serial_find(tc, &p);
	int fd = tp_uart_open(p.a, 0);
	gserial(fd, &s0);
	ATF_REQUIRE_EQ_MSG(ioctl(fd, TIOCSSERIAL, &s0), 0, "TIOCSSERIAL: %s",
			   strerror(errno));
	gserial(fd, &s1);
	ATF_CHECK_EQ(s1.type, s0.type);
	ATF_CHECK_EQ(s1.line, s0.line);
	ATF_CHECK_EQ(s1.port, s0.port);
	ATF_CHECK_EQ(s1.irq, s0.irq);
	ATF_CHECK_EQ(s1.flags, s0.flags);
	ATF_CHECK_EQ(s1.baud_base, s0.baud_base);
	ATF_CHECK_EQ(s1.close_delay, s0.close_delay);
	ATF_CHECK_EQ(s1.closing_wait, s0.closing_wait);
	ATF_CHECK_EQ(s1.custom_divisor, s0.custom_divisor);
}

ATF_TP_ADD_TCS(tp)
{
	ATF_TP_ADD_TC(tp, gserial_describes_16550a);
	ATF_TP_ADD_TC(tp, sserial_round_trip_unchanged);
	return atf_no_error();
}
