// SPDX-License-Identifier: GPL-2.0-only
/* t_vt_ioctl.c: the VT and keyboard ioctls that act on one VT and need no
 * switch: VT_GETSTATE, VT_DISALLOCATE, KDGKBMODE/KDSKBMODE, KDGETMODE/
 * KDSETMODE, KDGKBLED/KDSKBLED, KDGKBTYPE, TIOCLINUX queries, and the
 * errors: bad VT numbers and modes, and VT ioctls on a tty that is not a
 * VT.  Each case uses a background VT of its own and puts its modes back. */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <termios.h>
#include <unistd.h>

#include "tp_vt.h"

TP_CASE_ROOT(getstate_tracks_open_vts, TP_LINUX,
	"VT_GETSTATE's v_state has bit N set while /dev/ttyN is open and "
	"clears it once the last descriptor is closed; v_active is the "
	"foreground VT, which TIOCLINUX 12 (TIOCL_GETFGCONSOLE) counts from 0")
{
	struct tp_vt vt;

	tp_vt_take(tc, &vt);
	tp_vt_wait_in_use(vt.num, false, "the taken VT not open before the case");
	vt.fd = tp_vt_open_path(vt.num);
	if (!tp_vt_in_use(vt.num))
		atf_tc_fail("VT_GETSTATE: tty%d open but its bit is clear", vt.num);
	int fd2 = tp_vt_open_path(vt.num);
	close(vt.fd);
	if (!tp_vt_in_use(vt.num))
		atf_tc_fail("tty%d still open on a second descriptor, bit clear",
			    vt.num);
	int fg = tp_tioclinux(fd2, TIOCL_GETFGCONSOLE, NULL);
	if (fg != tp_vt_active() - 1)
		atf_tc_fail("TIOCL_GETFGCONSOLE %d, VT_GETSTATE v_active %d", fg,
			    tp_vt_active());
	close(fd2);
	tp_vt_wait_in_use(vt.num, false, "bit clear after the last close");
}

static bool
exists(const char *path)
{
	struct stat st;
	return stat(path, &st) == 0;
}

TP_CASE_ROOT(disallocate_frees_unused_vt, TP_LINUX,
	"VT_DISALLOCATE N frees a VT no one has open: its screen devices "
	"(vcsN, vcsaN in /sys/class/vc) go away, and opening /dev/ttyN "
	"allocates it again with a blank screen")
{
	struct tp_vt vt;
	struct tp_screen s;
	char vcs[64], vcsa[64];

	tp_vt_take(tc, &vt);
	snprintf(vcs, sizeof vcs, "/sys/class/vc/vcs%d", vt.num);
	snprintf(vcsa, sizeof vcsa, "/sys/class/vc/vcsa%d", vt.num);
	vt.fd = tp_vt_open_path(vt.num);
	tp_vt_write(&vt, "\033[Hgone", "text on the VT");
	tp_vt_wait_text(&vt, 0, 0, "gone", &s, "the text drawn");
	if (!exists(vcs) || !exists(vcsa))
		atf_tc_fail("%s or %s missing for an allocated VT", vcs, vcsa);
	tp_vt_free(&vt);
	if (exists(vcs) || exists(vcsa))
		atf_tc_fail("%s still there after VT_DISALLOCATE", exists(vcs) ? vcs : vcsa);
	vt.fd = tp_vt_open_path(vt.num);
	if (!exists(vcs) || !exists(vcsa))
		atf_tc_fail("%s not back after reopening /dev/tty%d",
			    exists(vcs) ? vcsa : vcs, vt.num);
	tp_vt_screen(vt.num, &s);
	tp_vt_expect_blank(&s, 0, 0, "the reallocated VT's first row");
	close(vt.fd);
}

TP_CASE_ROOT(disallocate_busy_vt_fails, TP_LINUX,
	"VT_DISALLOCATE of an open VT, and of the foreground VT, fails with "
	"EBUSY and leaves it allocated")
{
	struct tp_vt vt;

	tp_vt_open(tc, &vt);
	TP_VT_EXPECT_ERRNO(ioctl(vt.fd, VT_DISALLOCATE, vt.num), EBUSY,
		     "VT_DISALLOCATE of the open VT");
	TP_VT_EXPECT_ERRNO(ioctl(vt.fd, VT_DISALLOCATE, tp_vt_active()), EBUSY,
		     "VT_DISALLOCATE of the foreground VT");
	tp_vt_write(&vt, "still", "text on the VT after the refusal");
	struct tp_screen s;
	tp_vt_wait_text(&vt, 0, 0, "still", &s, "the VT's screen kept");
}

TP_CASE_ROOT(kbmode_set_and_read_back, TP_LINUX,
	"KDSKBMODE sets a VT's keyboard mode (K_RAW, K_MEDIUMRAW, K_UNICODE, "
	"K_OFF, K_XLATE) as KDGKBMODE reads it back; an unknown mode fails "
	"with EINVAL and changes nothing; setting a mode discards pending input")
{
	struct tp_vt vt;
	static const int modes[] = {K_RAW, K_MEDIUMRAW, K_UNICODE, K_OFF, K_XLATE};
	int m;

	tp_vt_open(tc, &vt);
	tp_vt_save_modes(&vt);
	for (size_t i = 0; i < sizeof modes / sizeof *modes; i++) {
		if (ioctl(vt.fd, KDSKBMODE, modes[i]) != 0)
			atf_tc_fail("KDSKBMODE %d: %s", modes[i], strerror(errno));
		if (ioctl(vt.fd, KDGKBMODE, &m) != 0)
			atf_tc_fail("KDGKBMODE: %s", strerror(errno));
		if (m != modes[i])
			atf_tc_fail("KDGKBMODE %d after KDSKBMODE %d", m, modes[i]);
	}
	TP_VT_EXPECT_ERRNO(ioctl(vt.fd, KDSKBMODE, 99), EINVAL, "KDSKBMODE 99");
	ioctl(vt.fd, KDGKBMODE, &m);
	if (m != K_XLATE)
		atf_tc_fail("KDGKBMODE %d after a refused KDSKBMODE, want K_XLATE", m);
	tp_vt_write(&vt, "\033[5n", "DSR 5: a reply in the input queue");
	tp_wait_fionread(vt.fd, 4, TP_WAIT_MS, "the reply queued as input");
	if (ioctl(vt.fd, KDSKBMODE, K_UNICODE) != 0)
		atf_tc_fail("KDSKBMODE K_UNICODE: %s", strerror(errno));
	int n = tp_fionread(vt.fd);
	if (n != 0)
		atf_tc_fail("%d bytes of input left after KDSKBMODE", n);
}

TP_CASE_ROOT(kdsetmode_graphics_and_text, TP_LINUX,
	"KDSETMODE KD_GRAPHICS and KD_TEXT set the VT's display mode as "
	"KDGETMODE reads it; KD_TEXT0 and KD_TEXT1 mean KD_TEXT; other modes "
	"fail with EINVAL")
{
	struct tp_vt vt;
	int m;

	tp_vt_open(tc, &vt);
	tp_vt_save_modes(&vt);
	if (ioctl(vt.fd, KDSETMODE, KD_GRAPHICS) != 0)
		atf_tc_fail("KDSETMODE KD_GRAPHICS: %s", strerror(errno));
	ioctl(vt.fd, KDGETMODE, &m);
	if (m != KD_GRAPHICS)
		atf_tc_fail("KDGETMODE %d after KD_GRAPHICS", m);
	if (ioctl(vt.fd, KDSETMODE, KD_TEXT1) != 0)
		atf_tc_fail("KDSETMODE KD_TEXT1: %s", strerror(errno));
	ioctl(vt.fd, KDGETMODE, &m);
	if (m != KD_TEXT)
		atf_tc_fail("KDGETMODE %d after KD_TEXT1, want KD_TEXT (0)", m);
	TP_VT_EXPECT_ERRNO(ioctl(vt.fd, KDSETMODE, 7), EINVAL, "KDSETMODE 7");
	ioctl(vt.fd, KDGETMODE, &m);
	if (m != KD_TEXT)
		atf_tc_fail("KDGETMODE %d after a refused KDSETMODE", m);
}

TP_CASE_ROOT(kbled_flags_read_back, TP_LINUX,
	"KDSKBLED sets a VT's keyboard flags (low 3 bits) and default flags "
	"(bits 4-6) as KDGKBLED reads them; any other bit fails with EINVAL; "
	"KDGKBTYPE says KB_101")
{
	struct tp_vt vt;
	char old, got, type;

	tp_vt_open(tc, &vt);
	if (ioctl(vt.fd, KDGKBLED, &old) != 0)
		atf_tc_fail("KDGKBLED: %s", strerror(errno));
	if (ioctl(vt.fd, KDSKBLED, 0x52) != 0)
		atf_tc_fail("KDSKBLED 0x52: %s", strerror(errno));
	ioctl(vt.fd, KDGKBLED, &got);
	int bad = tp_vt_errno_of(ioctl(vt.fd, KDSKBLED, 0x08));
	char after;
	ioctl(vt.fd, KDGKBLED, &after);
	ioctl(vt.fd, KDSKBLED, (unsigned char)old);
	if ((unsigned char)got != 0x52)
		atf_tc_fail("KDGKBLED 0x%02x after KDSKBLED 0x52", (unsigned char)got);
	if (bad != EINVAL)
		atf_tc_fail("KDSKBLED 0x08: %s, want EINVAL",
			    bad ? strerror(bad) : "success");
	if ((unsigned char)after != 0x52)
		atf_tc_fail("KDGKBLED 0x%02x after a refused KDSKBLED", (unsigned char)after);
	if (ioctl(vt.fd, KDGKBTYPE, &type) != 0)
		atf_tc_fail("KDGKBTYPE: %s", strerror(errno));
	if (type != KB_101)
		atf_tc_fail("KDGKBTYPE %d, want KB_101 (%d)", type, KB_101);
}

TP_CASE_ROOT(tioclinux_queries, TP_LINUX,
	"TIOCLINUX answers its queries in the argument's first byte: "
	"TIOCL_GETSHIFTSTATE 0 with no key held, TIOCL_GETKMSGREDIRECT the "
	"kernel message VT (0: the foreground one, by default); an unknown "
	"subcode fails with EINVAL")
{
	struct tp_vt vt;
	char b;

	tp_vt_open(tc, &vt);
	int r = tp_tioclinux(vt.fd, TIOCL_GETSHIFTSTATE, &b);
	if (r != 0 || b != 0)
		atf_tc_fail("TIOCL_GETSHIFTSTATE: result %d, shift state %d, want 0 "
			    "and 0", r, b);
	r = tp_tioclinux(vt.fd, TIOCL_GETKMSGREDIRECT, &b);
	if (r != 0 || b != 0)
		atf_tc_fail("TIOCL_GETKMSGREDIRECT: result %d, VT %d, want 0 and 0",
			    r, b);
	r = tp_tioclinux(vt.fd, 99, &b);
	if (r != -EINVAL)
		atf_tc_fail("TIOCLINUX 99: %s, want EINVAL",
			    r < 0 ? strerror(-r) : "success");
}

TP_CASE_ROOT(bad_vt_numbers_and_modes, TP_LINUX,
	"VT numbers outside 1..MAX_NR_CONSOLES fail with ENXIO (VT_ACTIVATE "
	"0 and 64, VT_WAITACTIVE 0, VT_DISALLOCATE 64) and an unknown "
	"VT_SETMODE mode with EINVAL; the foreground VT does not change")
{
	struct tp_vt vt;
	struct vt_mode vm = {.mode = 5};

	tp_vt_open(tc, &vt);
	int active = tp_vt_active();
	TP_VT_EXPECT_ERRNO(ioctl(vt.fd, VT_ACTIVATE, 0), ENXIO, "VT_ACTIVATE 0");
	TP_VT_EXPECT_ERRNO(ioctl(vt.fd, VT_ACTIVATE, MAX_NR_CONSOLES + 1), ENXIO, "VT_ACTIVATE 64");
	TP_VT_EXPECT_ERRNO(ioctl(vt.fd, VT_WAITACTIVE, 0), ENXIO, "VT_WAITACTIVE 0");
	TP_VT_EXPECT_ERRNO(ioctl(vt.fd, VT_DISALLOCATE, MAX_NR_CONSOLES + 1), ENXIO,
		     "VT_DISALLOCATE 64");
	tp_vt_save_modes(&vt);
	TP_VT_EXPECT_ERRNO(ioctl(vt.fd, VT_SETMODE, &vm), EINVAL, "VT_SETMODE mode 5");
	TP_VT_EXPECT_ERRNO(ioctl(vt.fd, VT_RELDISP, 1), EINVAL,
		     "VT_RELDISP on a VT not in VT_PROCESS mode");
	if (tp_vt_active() != active)
		atf_tc_fail("the foreground VT changed from %d to %d", active,
			    tp_vt_active());
}

TP_CASE(vt_ioctls_on_a_pty_are_enotty, TP_LINUX,
	"VT and keyboard ioctls on a tty that is not a VT (a pty slave) fail "
	"with ENOTTY: VT_GETSTATE, VT_OPENQRY, KDGKBMODE, KDGETMODE, TIOCLINUX")
{
	struct tp_pty p;
	struct vt_stat st;
	int v;
	char arg[2] = {TIOCL_GETSHIFTSTATE, 0};

	tp_pty_open(&p, TP_RAW);
	TP_VT_EXPECT_ERRNO(ioctl(p.slave, VT_GETSTATE, &st), ENOTTY, "VT_GETSTATE on a pty");
	TP_VT_EXPECT_ERRNO(ioctl(p.slave, VT_OPENQRY, &v), ENOTTY, "VT_OPENQRY on a pty");
	TP_VT_EXPECT_ERRNO(ioctl(p.slave, KDGKBMODE, &v), ENOTTY, "KDGKBMODE on a pty");
	TP_VT_EXPECT_ERRNO(ioctl(p.slave, KDGETMODE, &v), ENOTTY, "KDGETMODE on a pty");
	TP_VT_EXPECT_ERRNO(ioctl(p.slave, TIOCLINUX, arg), ENOTTY, "TIOCLINUX on a pty");
	tp_pty_close(&p);
}

#ifndef N_NULL
#define N_NULL 27 /* include/uapi/linux/tty.h; glibc has no header for it */
#endif

TP_CASE_ROOT(only_n_tty_on_a_vt, TP_LINUX,
	"A VT takes no line discipline but N_TTY: TIOCSETD of N_NULL, which "
	"a pty slave takes, fails with EINVAL on a VT; TIOCGETD still reads "
	"0, TIOCSETD N_TTY succeeds, and text written to the VT is drawn")
{
	struct tp_vt vt;
	struct tp_pty p;
	struct tp_screen s;
	int ld = N_NULL;

	tp_pty_open(&p, TP_RAW);
	if (ioctl(p.slave, TIOCSETD, &ld) != 0)
		atf_tc_skip("no N_NULL to refuse: TIOCSETD N_NULL on a pty slave "
			    "failed too (%s)", strerror(errno));
	tp_pty_close(&p);
	tp_vt_open(tc, &vt);
	ld = N_NULL;
	TP_VT_EXPECT_ERRNO(ioctl(vt.fd, TIOCSETD, &ld), EINVAL, "TIOCSETD N_NULL on a VT");
	ld = -1;
	TP_VT_IOCTL(vt.fd, TIOCGETD, &ld, "TIOCGETD");
	ATF_CHECK_EQ_MSG(ld, N_TTY, "TIOCGETD reads %d after the refused N_NULL", ld);
	ld = N_TTY;
	TP_VT_IOCTL(vt.fd, TIOCSETD, &ld, "TIOCSETD N_TTY");
	tp_vt_write(&vt, "ok", "text after the refused discipline");
	tp_vt_wait_text(&vt, 0, 0, "ok", &s, "ok drawn");
}

/* The case's VT, to restart its output at exit if a check failed while
 * it was stopped (a later case gets the VT). */
static int flow_fd = -1;

static void
restart_output(void)
{
	if (flow_fd >= 0)
		tcflow(flow_fd, TCOON);
}

static char
kbled(int fd, const char *what)
{
	char f;
	if (ioctl(fd, KDGKBLED, &f) != 0)
		atf_tc_fail("KDGKBLED %s: %s", what, strerror(errno));
	return f;
}

TP_CASE_ROOT(output_stop_sets_scroll_lock, TP_LINUX,
	"Stopping a VT's output (tcflow TCOOFF) sets its Scroll Lock flag "
	"(KDGKBLED LED_SCR), as the Scroll Lock light shows a stopped console, "
	"and restarting it (TCOON) clears the flag")
{
	struct tp_vt vt;

	flow_fd = tp_vt_open_restoring(tc, &vt, restart_output);
	tp_tcflow(vt.fd, TCOOFF, "TCOOFF on the VT");
	char stopped = kbled(vt.fd, "with output stopped");
	tp_tcflow(vt.fd, TCOON, "TCOON on the VT");
	char started = kbled(vt.fd, "with output restarted");
	if (!(stopped & LED_SCR))
		atf_tc_fail("KDGKBLED 0x%02x with output stopped: no LED_SCR",
			    (unsigned char)stopped);
	if (started & LED_SCR)
		atf_tc_fail("KDGKBLED 0x%02x with output restarted: LED_SCR still set",
			    (unsigned char)started);
}

ATF_TP_ADD_TCS(tp)
{
	ATF_TP_ADD_TC(tp, getstate_tracks_open_vts);
	ATF_TP_ADD_TC(tp, disallocate_frees_unused_vt);
	ATF_TP_ADD_TC(tp, disallocate_busy_vt_fails);
	ATF_TP_ADD_TC(tp, kbmode_set_and_read_back);
	ATF_TP_ADD_TC(tp, kdsetmode_graphics_and_text);
	ATF_TP_ADD_TC(tp, kbled_flags_read_back);
	ATF_TP_ADD_TC(tp, output_stop_sets_scroll_lock);
	ATF_TP_ADD_TC(tp, tioclinux_queries);
	ATF_TP_ADD_TC(tp, bad_vt_numbers_and_modes);
	ATF_TP_ADD_TC(tp, vt_ioctls_on_a_pty_are_enotty);
	ATF_TP_ADD_TC(tp, only_n_tty_on_a_vt);
	return atf_no_error();
}
