// SPDX-License-Identifier: GPL-2.0-only
/* t_unhandled.c: tty requests the kernel defines and no code handles.
 * tty_ioctl() passes a request it does not know to the line discipline;
 * n_tty_ioctl() to n_tty_ioctl_helper() and tty_mode_ioctl(), which answer
 * -ENOIOCTLCMD, and user space sees ENOTTY.  The serial "wild", "struct"
 * and "multiport" requests of ioctls.h have had no handler for years; the
 * termiox requests (TCGETX ...) answer ENOTTY explicitly since termiox was
 * removed (5.12).  Neither side of a pty changes state. */
#include <errno.h>
#include <string.h>
#include <sys/ioctl.h>
#include <termios.h>
#include <unistd.h>

#include "ttypot.h"

/* Larger than any argument these requests ever took. */
#define ARG_BYTES 256
#define FILL 0xa5

static const struct {
	unsigned long req;
	const char *name;
} unhandled[] = {
	{ TIOCSERGWILD, "TIOCSERGWILD" },
	{ TIOCSERSWILD, "TIOCSERSWILD" },
	{ TIOCSERGSTRUCT, "TIOCSERGSTRUCT" },
	{ TIOCSERGETMULTI, "TIOCSERGETMULTI" },
	{ TIOCSERSETMULTI, "TIOCSERSETMULTI" },
	{ TCGETX, "TCGETX" },
	{ TCSETX, "TCSETX" },
	{ TCSETXW, "TCSETXW" },
	{ TCSETXF, "TCSETXF" },
};
#define NUNHANDLED (sizeof unhandled / sizeof *unhandled)

/* Each request on fd fails ENOTTY and writes nothing into its argument. */
static void
expect_enotty(int fd, const char *side)
{
	unsigned char arg[ARG_BYTES];
	for (size_t i = 0; i < NUNHANDLED; i++) {
		memset(arg, FILL, sizeof arg);
		errno = 0;
		int r = ioctl(fd, unhandled[i].req, arg);
		ATF_CHECK_MSG(r < 0 && errno == ENOTTY, "%s on the %s: %d (%s), want "
			      "ENOTTY", unhandled[i].name, side, r, strerror(errno));
		size_t k = 0;
		while (k < sizeof arg && arg[k] == FILL)
			k++;
		ATF_CHECK_MSG(k == sizeof arg, "%s on the %s wrote its argument at "
			      "byte %zu", unhandled[i].name, side, k);
	}
}

TP_CASE(unhandled_requests_fail_enotty, TP_LINUX,
	"TIOCSERGWILD, TIOCSERSWILD, TIOCSERGSTRUCT, TIOCSERGETMULTI, "
	"TIOCSERSETMULTI (no handler) and TCGETX, TCSETX, TCSETXW, TCSETXF "
	"(termiox, gone since 5.12) fail ENOTTY on a pty master and slave "
	"without touching their argument")
{
	struct tp_pty p;
	tp_pty_open(&p, TP_COOKED);
	expect_enotty(p.master, "master");
	expect_enotty(p.slave, "slave");
	tp_pty_close(&p);
}

TP_CASE(unhandled_requests_change_nothing, TP_LINUX,
	"After every unhandled request the slave's termios is as before and "
	"a line written by the master still reaches the slave whole")
{
	struct tp_pty p;
	struct termios before, after;
	/* compared whole: no stack garbage in the padding */
	memset(&before, 0, sizeof before);
	memset(&after, 0, sizeof after);
	tp_pty_open(&p, TP_RAW);
	tp_tc_get(p.slave, &before);
	unsigned char arg[ARG_BYTES];
	for (size_t i = 0; i < NUNHANDLED; i++) {
		memset(arg, 0, sizeof arg);
		ioctl(p.slave, unhandled[i].req, arg);
		ioctl(p.master, unhandled[i].req, arg);
	}
	tp_tc_get(p.slave, &after);
	ATF_CHECK_MSG(memcmp(&before, &after, sizeof before) == 0,
		      "termios changed: iflag 0x%x->0x%x oflag 0x%x->0x%x cflag "
		      "0x%x->0x%x lflag 0x%x->0x%x", before.c_iflag, after.c_iflag,
		      before.c_oflag, after.c_oflag, before.c_cflag, after.c_cflag,
		      before.c_lflag, after.c_lflag);
	tp_write_str(p.master, "still\n", "a line after the requests");
	char got[6];
	tp_read_exact(p.slave, got, sizeof got, sizeof got, "the line on the slave");
	ATF_CHECK_MSG(memcmp(got, "still\n", sizeof got) == 0, "slave read %s",
		      tp_esc(got, sizeof got));
	tp_pty_close(&p);
}

ATF_TP_ADD_TCS(tp)
{
	ATF_TP_ADD_TC(tp, unhandled_requests_fail_enotty);
	ATF_TP_ADD_TC(tp, unhandled_requests_change_nothing);
	return atf_no_error();
}
