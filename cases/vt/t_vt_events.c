// SPDX-License-Identifier: GPL-2.0-only
/* t_vt_events.c: the ioctls around a switch of the foreground VT that
 * t_vt_switch does not use: VT_WAITEVENT, VT_LOCKSWITCH/VT_UNLOCKSWITCH
 * and VT_SETACTIVATE.  They switch the foreground VT and lock switching
 * for every VT: the program is exclusive; the foreground VT, the VT modes
 * and the switch lock are put back at exit. */
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "tp_vt.h"

/* ---------------------------------------------------------------- VT_WAITEVENT */

struct waitevent_arg {
	int fd;
	int from, to; /* the switch the parent makes, 1-based */
};

static int
waitevent_child(void *arg)
{
	struct waitevent_arg *a = arg;
	struct vt_event ev = {.event = VT_EVENT_SWITCH};
	if (ioctl(a->fd, VT_WAITEVENT, &ev) != 0)
		return tp_child_fail("VT_WAITEVENT: %s", strerror(errno));
	if (ev.event != VT_EVENT_SWITCH || (int)ev.oldev != a->from ||
	    (int)ev.newev != a->to)
		return tp_child_fail("VT_WAITEVENT gave event 0x%x from %u to %u, "
				     "want VT_EVENT_SWITCH (0x%x) from %d to %d",
				     ev.event, ev.oldev, ev.newev, VT_EVENT_SWITCH,
				     a->from, a->to);
	return 0;
}

TP_CASE_ROOT(waitevent_reports_the_switch, TP_LINUX,
	"VT_WAITEVENT with VT_EVENT_SWITCH sleeps until the foreground VT "
	"changes and returns the event with the old and new VT (1-based); an "
	"event bit above VT_MAX_EVENT fails with EINVAL")
{
	struct tp_vt vt;
	struct tp_child c;
	struct vt_event bad = {.event = VT_MAX_EVENT + 1};

	tp_vt_open(tc, &vt);
	TP_VT_EXPECT_ERRNO(ioctl(vt.fd, VT_WAITEVENT, &bad), EINVAL,
		     "VT_WAITEVENT of event 0x10");
	struct waitevent_arg a = {vt.fd, tp_vt_active(), vt.num};
	if (a.from == vt.num)
		atf_tc_fail("the case's VT tty%d is the foreground VT", vt.num);
	tp_child_start(&c, waitevent_child, &a);
	tp_wait_blocked(c.pid, SYS_ioctl, "VT_WAITEVENT asleep");
	if (tp_has_exited(c.pid))
		atf_tc_fail("VT_WAITEVENT returned before any switch");
	tp_vt_activate(vt.num, "VT_ACTIVATE to the case's VT");
	tp_child_join(&c, TP_WAIT_MS, "VT_WAITEVENT after the switch");
}

/* ---------------------------------------------------------------- VT_LOCKSWITCH */

static int lock_fd = -1;

/* In atexit: before tp_vt's switch back (registered earlier, runs later). */
static void
unlock_switch(void)
{
	if (lock_fd >= 0 && ioctl(lock_fd, VT_UNLOCKSWITCH, 0) != 0)
		fprintf(stderr, "VT_UNLOCKSWITCH: %s\n", strerror(errno));
}

TP_CASE_ROOT(lockswitch_holds_the_foreground, TP_LINUX,
	"After VT_LOCKSWITCH, VT_ACTIVATE of another VT returns 0 but the "
	"foreground VT stays; after VT_UNLOCKSWITCH, VT_ACTIVATE switches")
{
	struct tp_vt vt;

	tp_vt_open(tc, &vt);
	/* tp_vt's restore (registered here) runs after unlock_switch */
	tp_vt_save_modes(&vt);
	int before = tp_vt_active();
	tp_vt_activate(before, "VT_ACTIVATE of the foreground VT (a no-op)");
	lock_fd = dup(vt.fd);
	if (lock_fd < 0)
		atf_tc_fail("dup: %s", strerror(errno));
	atexit(unlock_switch);
	if (ioctl(vt.fd, VT_LOCKSWITCH, 0) != 0)
		atf_tc_fail("VT_LOCKSWITCH: %s", strerror(errno));
	TP_VT_EXPECT_ERRNO(ioctl(vt.fd, VT_ACTIVATE, vt.num), 0,
		     "VT_ACTIVATE while switching is locked");
	/* a switch is made at once or from a work item: none may come */
	long long end = tp_now_ms() + TP_QUIET_WINDOW_MS;
	int step = 0;
	while (tp_now_ms() < end) {
		if (tp_vt_active() != before)
			atf_tc_fail("tty%d became the foreground VT while switching "
				    "was locked", tp_vt_active());
		tp_backoff(&step);
	}
	if (ioctl(vt.fd, VT_UNLOCKSWITCH, 0) != 0)
		atf_tc_fail("VT_UNLOCKSWITCH: %s", strerror(errno));
	tp_vt_activate(vt.num, "VT_ACTIVATE after VT_UNLOCKSWITCH");
}

/* ---------------------------------------------------------------- VT_SETACTIVATE */

TP_CASE_ROOT(setactivate_switches_and_sets_mode, TP_LINUX,
	"VT_SETACTIVATE sets VT N's mode (frsig forced to 0), as VT_GETMODE "
	"reads it, and makes N the foreground VT; N of 0 or above "
	"MAX_NR_CONSOLES fails with ENXIO")
{
	struct tp_vt vt;

	tp_vt_open(tc, &vt);
	tp_vt_save_modes(&vt);
	/* records the foreground VT, made active again at exit */
	tp_vt_activate(tp_vt_active(), "VT_ACTIVATE of the foreground VT (a no-op)");
	struct vt_setactivate sa = {
		.console = 0,
		.mode = {.mode = VT_AUTO, .relsig = SIGUSR2, .acqsig = SIGUSR1, .frsig = 5},
	};
	TP_VT_EXPECT_ERRNO(ioctl(vt.fd, VT_SETACTIVATE, &sa), ENXIO, "VT_SETACTIVATE of VT 0");
	sa.console = MAX_NR_CONSOLES + 1;
	TP_VT_EXPECT_ERRNO(ioctl(vt.fd, VT_SETACTIVATE, &sa), ENXIO, "VT_SETACTIVATE of VT 64");
	sa.console = vt.num;
	if (ioctl(vt.fd, VT_SETACTIVATE, &sa) != 0)
		atf_tc_fail("VT_SETACTIVATE of tty%d: %s", vt.num, strerror(errno));
	long long end = tp_now_ms() + TP_WAIT_MS;
	int step = 0;
	tp_waiting_for("the VT of VT_SETACTIVATE in the foreground");
	while (tp_vt_active() != vt.num) {
		if (tp_now_ms() > end)
			atf_tc_fail("tty%d is the foreground VT %d ms after "
				    "VT_SETACTIVATE %d", tp_vt_active(), TP_WAIT_MS,
				    vt.num);
		tp_backoff(&step);
	}
	tp_waiting_for("");
	struct vt_mode m;
	if (ioctl(vt.fd, VT_GETMODE, &m) != 0)
		atf_tc_fail("VT_GETMODE: %s", strerror(errno));
	if (m.mode != VT_AUTO || m.relsig != SIGUSR2 || m.acqsig != SIGUSR1 ||
	    m.frsig != 0)
		atf_tc_fail("VT_GETMODE: mode %d relsig %d acqsig %d frsig %d, want "
			    "%d %d %d 0", m.mode, m.relsig, m.acqsig, m.frsig, VT_AUTO,
			    SIGUSR2, SIGUSR1);
}

ATF_TP_ADD_TCS(tp)
{
	ATF_TP_ADD_TC(tp, waitevent_reports_the_switch);
	ATF_TP_ADD_TC(tp, lockswitch_holds_the_foreground);
	ATF_TP_ADD_TC(tp, setactivate_switches_and_sets_mode);
	return atf_no_error();
}
