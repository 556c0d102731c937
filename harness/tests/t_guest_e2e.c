// SPDX-License-Identifier: GPL-2.0-only
/* t_guest_e2e: one real guest run, end to end.  `ttypot matrix` fetches
 * Debian's current linux-image-amd64 (a 6.1 kernel), boots it under QEMU
 * (KVM if it works, else TCG) with the real suite, and every cell of the
 * resulting matrix.csv is checked against what a 6.1 kernel does. */
#include <atf-c.h>

#include "e2e.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define KERNEL "deb:linux-image-amd64"
#define LABEL_PREFIX "6.1."
/* Programs run in the guest: a pass-only topic, one with a skip (6.1 has no
 * dev.tty.legacy_tiocsti), one with a known kernel bug (xfail), the real
 * 8250 pair (the serial path: it skips on the host) and a libexpect session
 * (Tcl and libexpect in the guest image). */
#define SUBSET "pty/t_echo,ioctl/t_tiocsti,packet/t_pkt_poll,serial/t_link,interactive/t_su"
/* Download, unpack, initramfs, boot and run under TCG on a loaded machine. */
#define RUN_DEADLINE_S 600

static const struct e2e_want wants[] = {
	{"pty/t_echo:echo_on_returns_input", "pass"},
	{"pty/t_echo:echo_off_returns_nothing", "pass"},
	{"pty/t_echo:echo_obeys_opost_off", "pass"},
	{"pty/t_echo:echoe_erase_echoes_backspace_space_backspace", "pass"},
	{"pty/t_echo:echonl_echoes_newline_without_echo", "pass"},
	{"pty/t_echo:echoctl_shows_caret_notation", "pass"},
	{"pty/t_echo:echo_happens_on_input_not_on_read", "pass"},
	{"pty/t_echo:echo_noncanonical_is_immediate", "pass"},
	{"ioctl/t_tiocsti:tiocsti_root_injects_input", "pass"},
	{"ioctl/t_tiocsti:tiocsti_unprivileged_when_legacy_on", "pass"},
	/* 6.1 predates the sysctl (83efeeeb3d04, 6.2). */
	{"ioctl/t_tiocsti:tiocsti_unprivileged_eio_when_legacy_off", "skip"},
	{"packet/t_pkt_poll:pkt_poll_status_sets_pri", "pass"},
	{"packet/t_pkt_poll:pkt_poll_data_no_pri", "pass"},
	{"packet/t_pkt_poll:pkt_poll_pri_woken_by_flush", "pass"},
	{"packet/t_pkt_poll:pkt_poll_in_woken_by_stop", "pass"},
	/* pty_stop() wakes POLLPRI pollers with EPOLLIN only, on 6.1 too. */
	{"packet/t_pkt_poll:pkt_poll_pri_woken_by_stop", "xfail"},
	{"packet/t_pkt_poll:pkt_poll_pri_woken_by_flushwrite", "pass"},
	{"packet/t_pkt_poll:pkt_poll_in_woken_by_tcoon", "pass"},
	{"packet/t_pkt_poll:pkt_poll_in_woken_by_vstart", "pass"},
	{"serial/t_link:pair_found_in_sysfs", "pass"},
	{"serial/t_link:a_to_b_bytes", "pass"},
	{"serial/t_link:b_to_a_bytes", "pass"},
	{"serial/t_link:both_ways_at_once", "pass"},
	{"serial/t_link:all_byte_values_pass", "pass"},
	{"serial/t_link:every_char_size_carries_data", "pass"},
	{"serial/t_link:large_a_to_b", "pass"},
	{"serial/t_link:large_b_to_a", "pass"},
	{"serial/t_link:large_with_crtscts", "pass"},
	{"serial/t_link:large_with_ixon_ixoff", "pass"},
	{"serial/t_link:ixon_stop_holds_output", "pass"},
	{"interactive/t_su:password_not_echoed_after_echo_off", "pass"},
	{"interactive/t_su:answer_at_prompt_instant_not_echoed", "pass"},
	{"interactive/t_su:termios_restored_after_password", "pass"},
	{"interactive/t_su:wrong_password_fails_with_status_1", "pass"},
	{"interactive/t_su:password_editing_without_echo", "pass"},
	{"interactive/t_su:late_echo_off_prompter_is_seen_echoing", "pass"},
};
#define NWANTS (sizeof(wants) / sizeof(wants[0]))

/* Run ttypot matrix; its output goes to log.  Returns its exit code;
 * fails the case when it cannot start or overruns the deadline (the
 * process group is killed; QEMU dies with its runner). */
static int run_ttypot(const char *ttypot, const char *outdir, const char *log)
{
	char *argv[] = {(char *)ttypot, "matrix", "-o", (char *)outdir, "--cases", SUBSET,
			KERNEL, NULL};
	return e2e_run(argv, RUN_DEADLINE_S, log, KERNEL);
}

ATF_TC(debian_61_subset_cell_by_cell);
ATF_TC_HEAD(debian_61_subset_cell_by_cell, tc)
{
	atf_tc_set_md_var(tc, "descr", "ttypot matrix boots Debian's linux-image-amd64 (6.1) "
			  "under QEMU with " SUBSET " and every matrix cell is what 6.1 does: "
			  "passes, a skip for the missing legacy_tiocsti sysctl and an xfail for the "
			  "POLLPRI wakeup bug, the real 8250 pair carrying data both ways and a "
			  "libexpect su session; the column header names a 6.1 kernel");
	atf_tc_set_md_var(tc, "timeout", "900");
	atf_tc_set_md_var(tc, "require.progs", "qemu-system-x86_64 apt-get dpkg-deb cpio");
}
ATF_TC_BODY(debian_61_subset_cell_by_cell, tc)
{
	char ttypot[1024], dir[] = "/tmp/ttypot-e2e.XXXXXX", log[1100], csv[1100], md[1100];
	e2e_ttypot(tc, ttypot, sizeof ttypot);
	ATF_REQUIRE(mkdtemp(dir) != NULL);
	snprintf(log, sizeof log, "%s/ttypot.log", dir);
	snprintf(csv, sizeof csv, "%s/matrix.csv", dir);
	snprintf(md, sizeof md, "%s/matrix.md", dir);

	int st = run_ttypot(ttypot, dir, log);
	/* One kernel is its own baseline: no regression can exist, so 0. */
	ATF_REQUIRE_MSG(st == 0, "ttypot matrix exit %d; see %s", st, log);

	e2e_check_csv(csv, wants, NWANTS, NULL, 0);

	/* The column says which kernel ran: its uname in matrix.md. */
	FILE *f = fopen(md, "r");
	ATF_REQUIRE_MSG(f != NULL, "%s: %s", md, strerror(errno));
	char line[2048];
	bool named = false;
	while (fgets(line, sizeof line, f) != NULL)
		if (strstr(line, LABEL_PREFIX) != NULL && strstr(line, "-amd64") != NULL)
			named = true;
	fclose(f);
	ATF_CHECK_MSG(named, "matrix.md names no %s*-amd64 kernel", LABEL_PREFIX);
	e2e_cleanup(tc, dir);
}

ATF_TP_ADD_TCS(tp)
{
	ATF_TP_ADD_TC(tp, debian_61_subset_cell_by_cell);
	return atf_no_error();
}
