// SPDX-License-Identifier: GPL-2.0-only
/*
 * t_efault.c: a tty ioctl that reports into the caller's memory fails with
 * EFAULT when that memory is not writable, and never claims success: a
 * program that passes a bad pointer learns it from the return value, not
 * from garbage it then reads.  The address is a page mapped PROT_NONE, so
 * it is certainly not writable and certainly not NULL.
 */
#include <errno.h>
#include <string.h>
#include <sys/ioctl.h>
#include <termios.h>
#include <unistd.h>

#include "ttypot.h"

struct getter {
	unsigned long req;
	const char *name;
	bool on_master; /* ask the master (else the slave) */
};

/* Each answers from state that exists on a fresh pair, so the copy to
 * user memory is the first thing that can fail. */
static const struct getter getters[] = {
	{ TCGETS, "TCGETS", false },
	{ TCGETA, "TCGETA", false },
	{ TIOCGWINSZ, "TIOCGWINSZ", false },
	{ FIONREAD, "FIONREAD", false },
	{ TIOCOUTQ, "TIOCOUTQ", false },
	{ TIOCGETD, "TIOCGETD", false },
	{ TIOCGLCKTRMIOS, "TIOCGLCKTRMIOS", false },
	{ TIOCGEXCL, "TIOCGEXCL", false },
	{ TIOCGPGRP, "TIOCGPGRP", true }, /* the master needs no ctty */
	{ TIOCGPTN, "TIOCGPTN", true },
	{ TIOCGPKT, "TIOCGPKT", true },
	{ TIOCGPTLCK, "TIOCGPTLCK", true },
};

TP_CASE(getters_fail_efault_on_unwritable_memory, TP_LINUX,
	"TCGETS, TCGETA, TIOCGWINSZ, FIONREAD, TIOCOUTQ, TIOCGETD, TIOCGLCKTRMIOS and "
	"TIOCGEXCL on a slave, and TIOCGPGRP, TIOCGPTN, TIOCGPKT and "
	"TIOCGPTLCK on a master, given an address in a PROT_NONE page, fail "
	"with EFAULT")
{
	struct tp_pty p;
	void *bad = tp_unusable_page();

	tp_pty_open(&p, TP_COOKED);
	for (size_t i = 0; i < sizeof getters / sizeof *getters; i++) {
		const struct getter *g = &getters[i];
		errno = 0;
		int r = ioctl(g->on_master ? p.master : p.slave, g->req, bad);
		ATF_CHECK_MSG(r == -1 && errno == EFAULT, "%s on the %s into a "
			      "PROT_NONE page: %d (%s), want EFAULT", g->name,
			      g->on_master ? "master" : "slave", r,
			      r < 0 ? strerror(errno) : "success");
	}
	tp_pty_close(&p);
}

ATF_TP_ADD_TCS(tp)
{
	ATF_TP_ADD_TC(tp, getters_fail_efault_on_unwritable_memory);
	return atf_no_error();
}
