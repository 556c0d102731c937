// SPDX-License-Identifier: GPL-2.0-only
/* t_guest_arch: one guest of another architecture, end to end.  The suite
 * and its userland are cross-built for arm64 (harness/cross/build.sh, what
 * `ttypot matrix` would run, done first under a deadline of its own), then
 * `ttypot matrix` fetches Debian's current arm64 kernel
 * (linux-image-arm64:arm64, a 6.1 kernel), boots it under
 * qemu-system-aarch64 -M virt (TCG) with a few programs, and every cell of
 * matrix.csv is checked, as is the architecture the column records. */
#include <atf-c.h>

#include "e2e.h"
#include "proc.h"
#include "rbuf.h"

#include <errno.h>
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define KERNEL "deb:linux-image-arm64:arm64"
#define LABEL_PREFIX "6.1."
/* Echo and poll on a pty, and the 8250 PCI UARTs on the virt machine's
 * PCIe bus (the pair must be found by its sysfs PCI path): t_serinfo's two
 * read-and-round-trip cases; its TIOCSSERIAL rules were checked on x86_64
 * guests only. */
#define SUBSET "pty/t_echo,poll/t_poll,serial/t_serinfo:gserial_describes_16550a," \
	       "serial/t_serinfo:sserial_round_trip_unchanged,serial/t_open"
/* With the cross userland built: about 45 s warm (boot 9 s, suite 8 s,
 * the rest packing the initramfs), up to 3 minutes more to fetch and
 * unpack the kernel into an empty cache on two busy cores. */
#define RUN_DEADLINE_S 480
/* The cross userland into an empty cache (downloads, the whole suite
 * compiled for arm64) is built first, apart: 2-3 minutes on an idle
 * machine, 540 s on 2026-12-07 at a load of 13, which the run's deadline
 * alone had to absorb (it failed). */
#define CROSS_DEADLINE_S 1500

static const struct e2e_want wants[] = {
	{"pty/t_echo:echo_on_returns_input", "pass"},
	{"pty/t_echo:echo_off_returns_nothing", "pass"},
	{"pty/t_echo:echo_obeys_opost_off", "pass"},
	{"pty/t_echo:echoe_erase_echoes_backspace_space_backspace", "pass"},
	{"pty/t_echo:echonl_echoes_newline_without_echo", "pass"},
	{"pty/t_echo:echoctl_shows_caret_notation", "pass"},
	{"pty/t_echo:echo_happens_on_input_not_on_read", "pass"},
	{"pty/t_echo:echo_noncanonical_is_immediate", "pass"},
	{"poll/t_poll:pollrdnorm_wakes_sleeping_poller", "pass"},
	{"poll/t_poll:pollout_on_empty_pty", "pass"},
	{"poll/t_poll:select_canonical_needs_complete_line", "pass"},
	{"poll/t_poll:epoll_edge_triggered_per_line", "pass"},
	{"poll/t_poll:master_poll_sees_slave_output", "pass"},
	/* Skips here would mean the pair was not found on virt's PCIe. */
	{"serial/t_serinfo:gserial_describes_16550a", "pass"},
	{"serial/t_serinfo:sserial_round_trip_unchanged", "pass"},
	{"serial/t_open:two_openers_share_port", "pass"},
	{"serial/t_open:tiocexcl_refuses_open_without_cap", "pass"},
	{"serial/t_open:o_excl_is_not_exclusive", "pass"},
};
#define NWANTS (sizeof(wants) / sizeof(wants[0]))

/* harness/cross/build.sh arm64 (next to ttypot, in the tree or installed)
 * into the cache the run will use, so that the run finds it built. */
static void build_cross_userland(const char *ttypot, const char *log)
{
	char script[1100], cache[1100];
	snprintf(script, sizeof script, "%s", ttypot);
	char *slash = strrchr(script, '/');
	ATF_REQUIRE_MSG(slash != NULL, "ttypot path %s has no directory", ttypot);
	snprintf(slash, sizeof script - (size_t)(slash - script), "/cross/build.sh");
	ATF_REQUIRE_MSG(access(script, R_OK) == 0, "%s: %s", script, strerror(errno));
	e2e_cache_env(cache, sizeof cache);
	char *argv[] = {"env", cache, "sh", script, "arm64", NULL};
	int rc = e2e_run_logged(argv, CROSS_DEADLINE_S, log, "harness/cross/build.sh arm64");
	ATF_REQUIRE_MSG(rc == 0, "harness/cross/build.sh arm64 exit %d; see %s", rc, log);
}

static int run_ttypot(const char *ttypot, const char *outdir, const char *log)
{
	char cache[1100];
	e2e_cache_env(cache, sizeof cache);
	char *argv[] = {"env", cache, (char *)ttypot, "matrix", "-o", (char *)outdir,
			"--cases", SUBSET, KERNEL, NULL};
	return e2e_run(argv, RUN_DEADLINE_S, log, KERNEL);
}

/* Skip, naming what is missing, when the host cannot run an arm64 guest:
 * the dpkg architecture (apt-get download PKG:arm64) must be there. */
static void require_arm64_dpkg(void)
{
	char *argv[] = {"dpkg", "--print-foreign-architectures", NULL};
	struct rbuf out = {0};
	char err[256];
	int rc = capture_run(argv, NULL, 30, &out, NULL, err, sizeof err);
	bool have = rc == 0 && strstr(rbuf_str(&out), "arm64") != NULL;
	rbuf_free(&out);
	if (!have)
		atf_tc_skip("dpkg has no arm64 architecture (run harness/deps.sh cross "
			    "or harness/deps.sh check)");
}

ATF_TC(debian_arm64_subset_cell_by_cell);
ATF_TC_HEAD(debian_arm64_subset_cell_by_cell, tc)
{
	atf_tc_set_md_var(tc, "descr", "ttypot matrix boots Debian's arm64 kernel (6.1) under "
			  "qemu-system-aarch64 -M virt with the suite cross-built for arm64 and "
			  SUBSET "; every cell is a pass (the 8250 PCI pair is found on virt), "
			  "the column is headed arm64 and matrix.json records its arch");
	/* CROSS_DEADLINE_S + RUN_DEADLINE_S and the checks */
	atf_tc_set_md_var(tc, "timeout", "2100");
	atf_tc_set_md_var(tc, "require.progs",
			  "qemu-system-aarch64 aarch64-linux-gnu-gcc apt-get dpkg-deb cpio");
}
ATF_TC_BODY(debian_arm64_subset_cell_by_cell, tc)
{
	require_arm64_dpkg();
	char ttypot[1024], dir[] = "/tmp/ttypot-arch.XXXXXX", log[1100], csv[1100], js[1100];
	e2e_ttypot(tc, ttypot, sizeof ttypot);
	ATF_REQUIRE(mkdtemp(dir) != NULL);
	snprintf(log, sizeof log, "%s/ttypot.log", dir);
	snprintf(csv, sizeof csv, "%s/matrix.csv", dir);
	snprintf(js, sizeof js, "%s/matrix.json", dir);
	char cross_log[1100];
	snprintf(cross_log, sizeof cross_log, "%s/cross.log", dir);

	build_cross_userland(ttypot, cross_log);
	int st = run_ttypot(ttypot, dir, log);
	ATF_REQUIRE_MSG(st == 0, "ttypot matrix exit %d; see %s", st, log);

	char header[512];
	e2e_check_csv(csv, wants, NWANTS, header, sizeof header);
	/* The heading says the arch: the resolver's "LABEL [arm64]", or the
	 * report's "LABEL · arm64" (the label itself may contain "arm64"). */
	ATF_CHECK_MSG(strncmp(header, "case,area," LABEL_PREFIX, 10 + strlen(LABEL_PREFIX)) == 0 &&
			      (strstr(header, "[arm64]") != NULL ||
			       strstr(header, "\xc2\xb7 arm64") != NULL),
		      "csv header names no %s* column headed arm64: %s", LABEL_PREFIX, header);

	/* The column records the architecture it ran on: the kernel's name
	 * (arm64) or the guest's uname -m (aarch64). */
	json_error_t jerr;
	json_t *root = json_load_file(js, 0, &jerr);
	ATF_REQUIRE_MSG(root != NULL, "%s: %s", js, jerr.text);
	json_t *col = json_array_get(json_object_get(root, "columns"), 0);
	const char *arch = json_string_value(json_object_get(col, "arch"));
	ATF_CHECK_MSG(arch != NULL && (!strcmp(arch, "arm64") || !strcmp(arch, "aarch64")),
		      "matrix.json column arch is %s, want arm64", arch ? arch : "(none)");
	const char *end = json_string_value(json_object_get(col, "end"));
	ATF_CHECK_MSG(end != NULL && !strcmp(end, "done"), "column end %s", end ? end : "(none)");
	json_decref(root);
	e2e_cleanup(tc, dir);
}

ATF_TP_ADD_TCS(tp)
{
	ATF_TP_ADD_TC(tp, debian_arm64_subset_cell_by_cell);
	return atf_no_error();
}
