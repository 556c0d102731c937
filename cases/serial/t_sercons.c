// SPDX-License-Identifier: GPL-2.0-only
/* t_sercons.c: a serial console named with options on the kernel command
 * line (console=ttyS0,115200o8: <baud><parity><bits><flow>, read by the
 * serial core's uart_parse_options).  The console is set up with them at
 * boot, and the port's tty opens with them as its line settings: the
 * serial core hands the console's cflag to the tty at its first open (the
 * kernel's own, of /dev/console for init), and nothing in the guest
 * changes them after.  Only read here: the port carries the guest's
 * console. */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <termios.h>
#include <unistd.h>

#include "tp_serial.h"

struct sercons {
	char name[32];  /* ttyS0 */
	char path[48];  /* /dev/ttyS0 */
	long baud;
	char parity;    /* n, o, e */
	int bits;
	bool rtscts;
};

/* The serial console of the kernel command line: the 8250 has one console,
 * which the first console=ttyS<N> names. */
static void
find_sercons(struct sercons *c)
{
	char cmdline[4096];
	if (!tp_attr_read("/proc/cmdline", cmdline, sizeof cmdline))
		atf_tc_skip("no /proc/cmdline");
	for (char *tok = strtok(cmdline, " "); tok; tok = strtok(NULL, " ")) {
		if (strncmp(tok, "console=ttyS", 12) != 0)
			continue;
		char *opt = strchr(tok, ',');
		if (!opt)
			atf_tc_skip("the serial console (%s) has no options", tok);
		*opt++ = '\0';
		memset(c, 0, sizeof *c);
		snprintf(c->name, sizeof c->name, "%s", tok + 8);
		snprintf(c->path, sizeof c->path, "/dev/%s", c->name);
		/* uart_parse_options: digits, then parity, bits, flow */
		c->baud = strtol(opt, &opt, 10);
		c->parity = *opt ? *opt++ : 'n';
		c->bits = *opt ? *opt++ - '0' : 8;
		c->rtscts = *opt == 'r';
		return;
	}
	atf_tc_skip("the kernel command line names no serial console (console=ttySN)");
}

/* Only in the guest ttypot boots (QEMU's pci-serial pair in sysfs): a
 * machine's own serial console is not the case's to open (a last close
 * drops DTR). */
static void
need_ttypot_guest(void)
{
	struct tp_serial_pair p;
	char why[256];
	if (!tp_serial_find_sysfs(&p, why, sizeof why))
		atf_tc_skip("not the guest ttypot boots (%s): a machine's own serial "
			    "console is not the case's to open", why);
}

/* The line settings the console's options make (uart_set_options). */
static void
check_options(const struct sercons *c, const struct termios *t)
{
	struct termios want;
	memset(&want, 0, sizeof want);
	ATF_REQUIRE_MSG(cfsetspeed(&want, (speed_t)c->baud) == 0, "console speed %ld "
			"is no speed of termios", c->baud);
	ATF_CHECK_MSG(cfgetospeed(t) == cfgetospeed(&want) &&
		      cfgetispeed(t) == cfgetospeed(&want), "speeds %#o in, %#o "
		      "out, want %ld baud (%#o)", (unsigned)cfgetispeed(t),
		      (unsigned)cfgetospeed(t), c->baud, (unsigned)cfgetospeed(&want));
	tcflag_t mask = CSIZE | PARENB | PARODD | CSTOPB | CRTSCTS | CREAD | CLOCAL | HUPCL;
	tcflag_t flags = CREAD | CLOCAL | HUPCL | (c->bits == 7 ? CS7 : CS8) |
			 (c->parity == 'o' ? PARENB | PARODD : c->parity == 'e' ? PARENB : 0) |
			 (c->rtscts ? CRTSCTS : 0);
	ATF_CHECK_MSG((t->c_cflag & mask) == flags, "c_cflag %#o of %#o, want %#o "
		      "(%ld%c%d%s)", (unsigned)(t->c_cflag & mask), (unsigned)mask,
		      (unsigned)flags, c->baud, c->parity, c->bits, c->rtscts ? "r" : "");
}

/* Is the console listed in /proc/consoles? */
static bool
listed(const struct sercons *c)
{
	FILE *f = fopen("/proc/consoles", "r");
	ATF_REQUIRE_MSG(f, "/proc/consoles: %s", strerror(errno));
	char line[256];
	bool found = false;
	size_t n = strlen(c->name);
	while (fgets(line, sizeof line, f))
		found |= !strncmp(line, c->name, n) && line[n] == ' ';
	fclose(f);
	return found;
}

TP_CASE_ROOT(console_options_are_the_ports_line_settings, TP_LINUX,
	     "A UART named by console=ttySN,<baud><parity><bits> on the kernel "
	     "command line (the x86 guests': 115200o8) is a console: "
	     "/proc/consoles lists it and its sysfs console attribute reads Y; "
	     "its tty has the console's line settings: tcgetattr reads that "
	     "speed in and out, the data bits, parity (o: PARENB and PARODD), "
	     "CRTSCTS only with r, and CREAD, CLOCAL and HUPCL")
{
	struct sercons c;
	struct termios t;

	find_sercons(&c);
	need_ttypot_guest();
	ATF_CHECK_MSG(listed(&c), "/proc/consoles does not list %s", c.name);
	char attr[96], v[16];
	snprintf(attr, sizeof attr, "/sys/class/tty/%s/console", c.name);
	if (tp_attr_read(attr, v, sizeof v)) /* since Linux 4.19 */
		ATF_CHECK_MSG(!strcmp(v, "Y"), "%s reads %s, want Y", attr, v);
	int fd = open(c.path, O_RDWR | O_NOCTTY | O_NONBLOCK | O_CLOEXEC);
	ATF_REQUIRE_MSG(fd >= 0, "open %s: %s", c.path, strerror(errno));
	tp_tc_get(fd, &t);
	close(fd);
	check_options(&c, &t);
}

ATF_TP_ADD_TCS(tp)
{
	ATF_TP_ADD_TC(tp, console_options_are_the_ports_line_settings);
	return atf_no_error();
}
