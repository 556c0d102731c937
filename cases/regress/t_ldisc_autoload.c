// SPDX-License-Identifier: GPL-2.0-only
/* t_ldisc_autoload.c: regressions.md #22: the 6.2 sysctl table conversion
 * (5fd8c2d3de3d) let dev.tty.ldisc_autoload accept 2 until 635a9fca54f4
 * (6.13).  sysctl/t_tty_sysctl.c checks out-of-range values from the
 * current setting; here 2 is refused from both legal values.  Exclusive in
 * the Kyuafile: the sysctl is global. */
#include <errno.h>
#include <string.h>

#include "ttypot.h"

#define SYSCTL_PATH "/proc/sys/dev/tty/ldisc_autoload"

TP_CASE_META(ldisc_autoload_refuses_2_from_0_and_1, TP_LINUX,
	     "#22 (root): with dev.tty.ldisc_autoload at 0 and then at 1, "
	     "writing 2 fails EINVAL and the value stays what it was",
	     (TP_REQUIRE_ROOT(tc),
	      TP_TAG_COMMITS(tc, "5fd8c2d3de3d", "635a9fca54f4")))
{
	long v;

	for (long from = 0; from <= 1; from++) {
		if (!tp_sysctl_set(SYSCTL_PATH, from))
			atf_tc_skip("needs the dev.tty.ldisc_autoload sysctl "
				    "(5.1+)");
		int e = tp_sysctl_write(SYSCTL_PATH, "2");
		ATF_CHECK_MSG(e == EINVAL, "writing 2 over %ld: %s, want "
			      "EINVAL", from, e ? strerror(e) : "accepted");
		ATF_REQUIRE(tp_sysctl_read(SYSCTL_PATH, &v));
		ATF_CHECK_EQ_MSG(v, from, "value after writing 2 over %ld: %ld",
				 from, v);
	}
}

ATF_TP_ADD_TCS(tp)
{
	ATF_TP_ADD_TC(tp, ldisc_autoload_refuses_2_from_0_and_1);
	return atf_no_error();
}
