// SPDX-License-Identifier: GPL-2.0-only
/* t_n_gsm.c: regressions.md #21: attaching the N_GSM line discipline needs
 * CAP_NET_ADMIN since 67c37756898a (6.6; 6.1.86).  Root probes the ldisc
 * first (and so checks the privileged path); without it (no n_gsm module)
 * the case skips naming it. */
#include <errno.h>
#include <string.h>
#include <sys/ioctl.h>
#include <unistd.h>

#include "ttypot.h"

#ifndef N_GSM0710
#define N_GSM0710 21
#endif

static int
unprivileged_setd(void *arg)
{
	int fd = *(int *)arg, ld = N_GSM0710;

	if (tp_child_drop_to_nobody())
		return 1;
	errno = 0;
	if (ioctl(fd, TIOCSETD, &ld) == 0 || errno != EPERM)
		return tp_child_fail("TIOCSETD N_GSM without CAP_NET_ADMIN: %s,"
				     " want EPERM", errno ? strerror(errno)
							  : "accepted");
	return 0;
}

TP_CASE_META(n_gsm_needs_cap_net_admin, TP_LINUX,
	     "#21 (root; needs the n_gsm module): TIOCSETD N_GSM (21) on a "
	     "pty slave works as root; without CAP_NET_ADMIN it fails EPERM "
	     "and the slave keeps N_TTY",
	     (TP_REQUIRE_ROOT(tc), TP_TAG_COMMITS(tc, "-", "67c37756898a")))
{
	struct tp_pty p;
	struct tp_child c;
	int ld = N_GSM0710, now = -1;

	tp_pty_open(&p, TP_RAW);
	if (ioctl(p.slave, TIOCSETD, &ld) != 0)
		atf_tc_skip("TIOCSETD N_GSM as root failed: %s: needs the "
			    "n_gsm line discipline (module n_gsm)",
			    strerror(errno));
	ld = 0;
	ATF_REQUIRE_MSG(ioctl(p.slave, TIOCSETD, &ld) == 0, "back to N_TTY: "
			"%s", strerror(errno));
	tp_child_start(&c, unprivileged_setd, &p.slave);
	tp_child_join(&c, TP_WAIT_MS, "unprivileged TIOCSETD");
	ATF_REQUIRE(ioctl(p.slave, TIOCGETD, &now) == 0);
	ATF_CHECK_EQ_MSG(now, 0, "line discipline now %d, want N_TTY", now);
	tp_pty_close(&p);
}

ATF_TP_ADD_TCS(tp)
{
	ATF_TP_ADD_TC(tp, n_gsm_needs_cap_net_admin);
	return atf_no_error();
}
