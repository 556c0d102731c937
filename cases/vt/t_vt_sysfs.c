// SPDX-License-Identifier: GPL-2.0-only
/* t_vt_sysfs.c: what the VT layer shows in sysfs, as init systems and
 * console tools (systemd-vconsole-setup, kbd's scripts) read it: the
 * console drivers in /sys/class/vtconsole (name, and which one the VTs are
 * bound to) and the foreground VT in /sys/class/tty/tty0/active.
 * Exclusive: a case switches the foreground VT, one per machine. */
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "tp_vt.h"

TP_CASE_ROOT(vtconsole_lists_the_bound_driver, TP_LINUX,
	"/sys/class/vtconsole has a vtconN for each console driver, numbered "
	"from vtcon0 without gaps; each shows its name, \"(S) ...\" for a "
	"system driver or \"(M) ...\" for a modular one, and its bind state "
	"0 or 1; the driver the VTs use (at least one) shows 1")
{
	char path[96], name[128], bind[16];
	int n = 0, bound = 0;

	tp_vt_require(tc);
	for (;; n++) {
		snprintf(path, sizeof path, "/sys/class/vtconsole/vtcon%d/name", n);
		if (!tp_attr_read(path, name, sizeof name))
			break;
		if (strncmp(name, "(S) ", 4) && strncmp(name, "(M) ", 4))
			atf_tc_fail("vtcon%d's name \"%s\" starts with neither (S) nor (M)",
				    n, tp_esc(name, strlen(name)));
		snprintf(path, sizeof path, "/sys/class/vtconsole/vtcon%d/bind", n);
		if (!tp_attr_read(path, bind, sizeof bind))
			atf_tc_fail("vtcon%d has a name and no bind attribute", n);
		if (strcmp(bind, "0") && strcmp(bind, "1"))
			atf_tc_fail("vtcon%d's bind is \"%s\", want 0 or 1", n,
				    tp_esc(bind, strlen(bind)));
		bound += bind[0] == '1';
	}
	if (n == 0)
		atf_tc_fail("no /sys/class/vtconsole/vtcon0 on a kernel with VTs");
	snprintf(path, sizeof path, "/sys/class/vtconsole/vtcon%d", n + 1);
	if (access(path, F_OK) == 0)
		atf_tc_fail("vtcon%d is missing between vtcon0 and vtcon%d", n, n + 1);
	if (bound == 0)
		atf_tc_fail("none of vtcon0..vtcon%d is bound (bind 1)", n - 1);
}

/* Wait until tty0's active attribute names ttyN. */
static void
wait_active_attr(int num, const char *what)
{
	char want[16], got[32] = "";
	snprintf(want, sizeof want, "tty%d", num);
	long long end = tp_now_ms() + TP_WAIT_MS;
	int step = 0;
	tp_waiting_for(what);
	for (;;) {
		if (!tp_attr_read("/sys/class/tty/tty0/active", got, sizeof got))
			atf_tc_fail("no /sys/class/tty/tty0/active");
		if (!strcmp(got, want))
			break;
		if (tp_now_ms() > end)
			atf_tc_fail("%s: tty0/active says \"%s\", want \"%s\"", what,
				    tp_esc(got, strlen(got)), want);
		tp_backoff(&step);
	}
	tp_waiting_for("");
}

TP_CASE_ROOT(tty0_active_names_the_foreground_vt, TP_LINUX,
	"/sys/class/tty/tty0/active names the foreground VT (ttyN, as "
	"VT_GETSTATE's v_active) and follows a switch")
{
	struct tp_vt vt;

	tp_vt_open(tc, &vt);
	wait_active_attr(tp_vt_active(), "tty0/active before the switch");
	tp_vt_activate(vt.num, "VT_ACTIVATE to the case's VT");
	wait_active_attr(vt.num, "tty0/active after the switch");
}

ATF_TP_ADD_TCS(tp)
{
	ATF_TP_ADD_TC(tp, vtconsole_lists_the_bound_driver);
	ATF_TP_ADD_TC(tp, tty0_active_names_the_foreground_vt);
	return atf_no_error();
}
