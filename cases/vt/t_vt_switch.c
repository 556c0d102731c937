// SPDX-License-Identifier: GPL-2.0-only
/* t_vt_switch.c: switching the foreground VT: VT_ACTIVATE and
 * VT_WAITACTIVE, VT_OPENQRY, VT_SETMODE VT_PROCESS with its release and
 * acquire signals and VT_RELDISP, and the state only the foreground VT
 * shows (mouse reporting, the keyboard LEDs, the blanking of a VT in
 * KD_GRAPHICS).  The program is exclusive:
 * the foreground VT is one for the whole machine.  The VT active before a
 * case is active again after it. */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <signal.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "tp_vt.h"

TP_CASE_ROOT(activate_switches_foreground, TP_LINUX,
	"VT_ACTIVATE N makes VT N the foreground VT: VT_GETSTATE's v_active "
	"and TIOCL_GETFGCONSOLE (0-based) say so, and VT_WAITACTIVE N "
	"returns at once")
{
	struct tp_vt vt;
	struct tp_child c;

	tp_vt_open(tc, &vt);
	tp_vt_activate(vt.num, "VT_ACTIVATE to the case's VT");
	int fg = tp_tioclinux(vt.fd, TIOCL_GETFGCONSOLE, NULL);
	if (fg != vt.num - 1)
		atf_tc_fail("TIOCL_GETFGCONSOLE %d after VT_ACTIVATE %d, want %d",
			    fg, vt.num, vt.num - 1);
	tp_vt_waitactive_start(&c, vt.fd, vt.num);
	tp_child_join(&c, TP_WAIT_MS, "VT_WAITACTIVE of the active VT");
}

TP_CASE_ROOT(waitactive_sleeps_until_the_switch, TP_LINUX,
	"VT_WAITACTIVE N sleeps while VT N is in the background and returns "
	"0 once VT_ACTIVATE N has made it the foreground VT")
{
	struct tp_vt vt;
	struct tp_child c;

	tp_vt_open(tc, &vt);
	tp_vt_waitactive_start(&c, vt.fd, vt.num);
	tp_wait_blocked(c.pid, SYS_ioctl, "VT_WAITACTIVE asleep");
	if (tp_has_exited(c.pid))
		atf_tc_fail("VT_WAITACTIVE %d returned while the VT was in the "
			    "background", vt.num);
	tp_vt_activate(vt.num, "VT_ACTIVATE to the awaited VT");
	tp_child_join(&c, TP_WAIT_MS, "VT_WAITACTIVE after the switch");
}

TP_CASE_ROOT(openqry_names_a_free_vt, TP_LINUX,
	"VT_OPENQRY returns a VT that no one has open (its VT_GETSTATE bit is "
	"clear); once that VT is open, VT_OPENQRY returns another")
{
	struct tp_vt vt;
	int n, n2;

	tp_vt_open(tc, &vt);
	if (ioctl(vt.fd, VT_OPENQRY, &n) != 0)
		atf_tc_fail("VT_OPENQRY: %s", strerror(errno));
	if (n < 1 || n > MAX_NR_CONSOLES)
		atf_tc_fail("VT_OPENQRY returned %d", n);
	if (n == vt.num)
		atf_tc_fail("VT_OPENQRY returned tty%d, which the case has open", n);
	if (n > 15)
		atf_tc_skip("VT_OPENQRY gave tty%d: VT_GETSTATE reports 15 VTs", n);
	/* VT_GETSTATE through the case's own VT: tp_vt_in_use opens
	 * /dev/tty0, which holds the foreground VT open meanwhile. */
	struct vt_stat st;
	if (ioctl(vt.fd, VT_GETSTATE, &st) != 0)
		atf_tc_fail("VT_GETSTATE: %s", strerror(errno));
	if (st.v_state & (1u << n))
		atf_tc_fail("VT_OPENQRY returned tty%d, whose VT_GETSTATE bit is "
			    "set (v_state 0x%x)", n, st.v_state);
	int fd = tp_vt_open_path(n);
	if (ioctl(vt.fd, VT_OPENQRY, &n2) != 0)
		atf_tc_fail("VT_OPENQRY: %s", strerror(errno));
	close(fd);
	if (n2 == n)
		atf_tc_fail("VT_OPENQRY returned tty%d again while it was open", n);
}

/* A VT under VT_PROCESS control: the child owns vt A, the case switches. */
struct proc_vt {
	struct tp_sync s;
	int num;
	bool allow; /* answer the release with VT_RELDISP 1 (else 0) */
};

static int
owner(void *arg)
{
	struct proc_vt *p = arg;
	sigset_t set;
	tp_child_sync_side(&p->s);
	sigemptyset(&set);
	sigaddset(&set, SIGUSR1);
	sigaddset(&set, SIGUSR2);
	sigprocmask(SIG_BLOCK, &set, NULL);
	int fd = -1;
	char path[32];
	snprintf(path, sizeof path, "/dev/tty%d", p->num);
	fd = open(path, O_RDWR | O_NOCTTY);
	if (fd < 0)
		return tp_child_fail("open %s: %s", path, strerror(errno));
	struct vt_mode vm = {.mode = VT_PROCESS, .relsig = SIGUSR1,
			     .acqsig = SIGUSR2};
	if (ioctl(fd, VT_SETMODE, &vm) != 0)
		return tp_child_fail("VT_SETMODE VT_PROCESS: %s", strerror(errno));
	if (tp_child_post(&p->s, 'm') ||
	    tp_child_await_signal(SIGUSR1, TP_WAIT_MS, "the release signal") ||
	    tp_child_post(&p->s, 'r') || tp_child_await(&p->s, 'R', "case"))
		return 1;
	if (ioctl(fd, VT_RELDISP, p->allow ? 1 : 0) != 0)
		return tp_child_fail("VT_RELDISP %d: %s", p->allow, strerror(errno));
	if (tp_child_post(&p->s, 'd'))
		return 1;
	if (p->allow) {
		if (tp_child_await_signal(SIGUSR2, TP_WAIT_MS, "the acquire signal"))
			return 1;
		if (ioctl(fd, VT_RELDISP, VT_ACKACQ) != 0)
			return tp_child_fail("VT_RELDISP VT_ACKACQ: %s", strerror(errno));
	} else if (ioctl(fd, VT_RELDISP, 1) == 0 || errno != EINVAL) {
		return tp_child_fail("VT_RELDISP 1 with no switch pending: %s, "
				     "want EINVAL", strerror(errno));
	}
	if (tp_child_post(&p->s, 'a') || tp_child_await(&p->s, 'q', "case"))
		return 1;
	vm.mode = VT_AUTO;
	if (ioctl(fd, VT_SETMODE, &vm) != 0)
		return tp_child_fail("VT_SETMODE VT_AUTO: %s", strerror(errno));
	close(fd);
	return 0;
}

/* The owner's VT a is the foreground; the case asks for b. */
static void
process_switch(const atf_tc_t *tc, bool allow)
{
	struct tp_vt a, b;
	struct tp_child c;
	static struct proc_vt p;

	tp_vt_take(tc, &a);
	tp_vt_take(tc, &b);
	tp_vt_save_modes(&a);
	tp_vt_activate(a.num, "VT_ACTIVATE to the owner's VT");
	p.num = a.num;
	p.allow = allow;
	tp_sync_open(&p.s);
	tp_child_start(&c, owner, &p);
	tp_sync_parent_side(&p.s, &c);
	tp_sync_await(&p.s, 'm', "the owner in VT_PROCESS mode");
	int fd = tp_vt_open_path(b.num);
	if (ioctl(fd, VT_ACTIVATE, b.num) != 0)
		atf_tc_fail("VT_ACTIVATE %d: %s", b.num, strerror(errno));
	tp_sync_await(&p.s, 'r', "the owner's release signal");
	if (tp_vt_active() != a.num)
		atf_tc_fail("tty%d active before the owner released tty%d",
			    tp_vt_active(), a.num);
	tp_sync_post(&p.s, 'R', "let the owner answer");
	tp_sync_await(&p.s, 'd', "the owner's VT_RELDISP");
	if (allow) {
		long long end = tp_now_ms() + TP_WAIT_MS;
		int step = 0;
		while (tp_vt_active() != b.num) {
			if (tp_now_ms() > end)
				atf_tc_fail("tty%d still active %d ms after "
					    "VT_RELDISP 1", tp_vt_active(),
					    TP_WAIT_MS);
			tp_backoff(&step);
		}
		if (ioctl(fd, VT_ACTIVATE, a.num) != 0)
			atf_tc_fail("VT_ACTIVATE %d back: %s", a.num, strerror(errno));
		tp_sync_await(&p.s, 'a', "the owner's acquire signal");
		if (tp_vt_active() != a.num)
			atf_tc_fail("tty%d active after the owner acquired tty%d",
				    tp_vt_active(), a.num);
	} else {
		tp_sync_await(&p.s, 'a', "the owner's second VT_RELDISP");
		if (tp_vt_active() != a.num)
			atf_tc_fail("the switch to tty%d happened although the "
				    "owner refused it", tp_vt_active());
	}
	tp_sync_post(&p.s, 'q', "let the owner go back to VT_AUTO");
	tp_child_join(&c, TP_WAIT_MS, "the VT owner");
	tp_sync_close(&p.s);
	close(fd);
}

TP_CASE_ROOT(process_mode_release_and_acquire, TP_LINUX,
	"Under VT_SETMODE VT_PROCESS a switch away sends the owner relsig and "
	"waits: the VT stays active until the owner's VT_RELDISP 1; a switch "
	"back sends acqsig, which VT_RELDISP VT_ACKACQ acknowledges")
{
	process_switch(tc, true);
}

TP_CASE_ROOT(process_mode_refused_release, TP_LINUX,
	"Under VT_PROCESS the owner's VT_RELDISP 0 refuses the switch: the VT "
	"stays active, and a later VT_RELDISP 1 has no switch to complete "
	"(EINVAL)")
{
	process_switch(tc, false);
}

TP_CASE_ROOT(mouse_reporting_of_foreground_vt, TP_LINUX,
	"TIOCL_GETMOUSEREPORTING gives the foreground VT's mouse mode: 1 "
	"after ESC [ ? 9 h (X10), 2 after ESC [ ? 1000 h (X11), 0 after "
	"ESC [ ? 1000 l")
{
	struct tp_vt vt;
	char b;

	tp_vt_open(tc, &vt);
	tp_vt_activate(vt.num, "VT_ACTIVATE to the case's VT");
	static const struct {
		const char *seq;
		int want;
	} st[] = {{"", 0}, {"\033[?9h", 1}, {"\033[?1000h", 2}, {"\033[?1000l", 0}};
	for (size_t i = 0; i < sizeof st / sizeof *st; i++) {
		tp_vt_write(&vt, st[i].seq, "a mouse mode sequence");
		int r = tp_tioclinux(vt.fd, TIOCL_GETMOUSEREPORTING, &b);
		if (r != 0 || b != st[i].want)
			atf_tc_fail("TIOCL_GETMOUSEREPORTING after \"%s\": result "
				    "%d, mode %d, want %d", tp_esc(st[i].seq,
				    strlen(st[i].seq)), r, b, st[i].want);
	}
}

static void
wait_leds(int fd, int want, const char *what)
{
	long long end = tp_now_ms() + TP_WAIT_MS;
	int step = 0;
	char l = 0;
	tp_waiting_for(what);
	for (;;) {
		if (ioctl(fd, KDGETLED, &l) != 0)
			atf_tc_fail("KDGETLED: %s", strerror(errno));
		if (l == want)
			break;
		if (tp_now_ms() > end)
			atf_tc_fail("%s: KDGETLED 0x%x, want 0x%x", what, l, want);
		tp_backoff(&step);
	}
	tp_waiting_for("");
}

TP_CASE_ROOT(kdsetled_lights_of_foreground_vt, TP_LINUX,
	"KDSETLED on the foreground VT sets the keyboard lights, as KDGETLED "
	"reads them, without changing the VT's flags (KDGKBLED); a value "
	"above 7 gives the lights back to the flags")
{
	struct tp_vt vt;
	char flags, after;

	tp_vt_open(tc, &vt);
	tp_vt_activate(vt.num, "VT_ACTIVATE to the case's VT");
	if (ioctl(vt.fd, KDGKBLED, &flags) != 0)
		atf_tc_fail("KDGKBLED: %s", strerror(errno));
	if (ioctl(vt.fd, KDSETLED, LED_CAP | LED_NUM) != 0)
		atf_tc_fail("KDSETLED: %s", strerror(errno));
	wait_leds(vt.fd, LED_CAP | LED_NUM, "the lights KDSETLED set");
	ioctl(vt.fd, KDGKBLED, &after);
	if (ioctl(vt.fd, KDSETLED, 0xff) != 0)
		atf_tc_fail("KDSETLED 0xff: %s", strerror(errno));
	wait_leds(vt.fd, flags & 7, "the lights back to the VT's flags");
	if (after != flags)
		atf_tc_fail("KDGKBLED 0x%x after KDSETLED, was 0x%x", after, flags);
}

/* Wait until TIOCL_BLANKEDSCREEN (the blanked VT, 1-based, or 0) is want. */
static void
wait_blanked(int fd, int want, const char *what)
{
	long long end = tp_now_ms() + TP_WAIT_MS;
	int step = 0, b;
	tp_waiting_for(what);
	while ((b = tp_tioclinux(fd, TIOCL_BLANKEDSCREEN, NULL)) != want) {
		if (b < 0)
			atf_tc_fail("TIOCL_BLANKEDSCREEN: %s", strerror(-b));
		if (tp_now_ms() > end)
			atf_tc_fail("%s: TIOCL_BLANKEDSCREEN %d, want %d", what, b, want);
		tp_backoff(&step);
	}
	tp_waiting_for("");
}

TP_CASE_ROOT(graphics_vt_blanks_while_foreground, TP_LINUX,
	"A VT in KD_GRAPHICS blanks the console while it is the foreground "
	"VT: KD_GRAPHICS on a background VT changes nothing, switching to it "
	"makes TIOCL_BLANKEDSCREEN name it, and KDSETMODE on the foreground "
	"VT unblanks (KD_TEXT, 0) and blanks (KD_GRAPHICS) at once.  (In "
	"VT_AUTO mode a switch away from a KD_GRAPHICS VT is ignored, so the "
	"case returns it to KD_TEXT first.)")
{
	struct tp_vt gfx;

	tp_vt_open(tc, &gfx);
	tp_vt_save_modes(&gfx);
	tp_tioclinux(gfx.fd, TIOCL_UNBLANKSCREEN, NULL);
	wait_blanked(gfx.fd, 0, "a text VT in the foreground, unblanked");
	TP_VT_IOCTL(gfx.fd, KDSETMODE, KD_GRAPHICS, "KDSETMODE KD_GRAPHICS in the background");
	wait_blanked(gfx.fd, 0, "a background VT's KD_GRAPHICS");
	tp_vt_activate(gfx.num, "VT_ACTIVATE to the KD_GRAPHICS VT");
	wait_blanked(gfx.fd, gfx.num, "the KD_GRAPHICS VT in the foreground");
	TP_VT_IOCTL(gfx.fd, KDSETMODE, KD_TEXT, "KDSETMODE KD_TEXT in the foreground");
	wait_blanked(gfx.fd, 0, "the foreground VT back in KD_TEXT");
	TP_VT_IOCTL(gfx.fd, KDSETMODE, KD_GRAPHICS, "KDSETMODE KD_GRAPHICS in the foreground");
	wait_blanked(gfx.fd, gfx.num, "the foreground VT's own KD_GRAPHICS");
	TP_VT_IOCTL(gfx.fd, KDSETMODE, KD_TEXT, "KDSETMODE KD_TEXT again");
	wait_blanked(gfx.fd, 0, "the foreground VT in KD_TEXT again");
}

TP_CASE_ROOT(tioclinux_blanks_and_unblanks, TP_LINUX,
	"TIOCL_BLANKSCREEN blanks the console (TIOCL_BLANKEDSCREEN names the "
	"foreground VT) and TIOCL_UNBLANKSCREEN unblanks it (0); the screen's "
	"text is kept")
{
	struct tp_vt vt;
	struct tp_screen s;

	tp_vt_open(tc, &vt);
	tp_vt_activate(vt.num, "VT_ACTIVATE to the case's VT");
	tp_vt_write(&vt, "kept", "text on the VT");
	tp_tioclinux(vt.fd, TIOCL_UNBLANKSCREEN, NULL);
	wait_blanked(vt.fd, 0, "unblanked to begin with");
	int r = tp_tioclinux(vt.fd, TIOCL_BLANKSCREEN, NULL);
	if (r != 0)
		atf_tc_fail("TIOCL_BLANKSCREEN: %s", strerror(-r));
	wait_blanked(vt.fd, vt.num, "blanked by TIOCL_BLANKSCREEN");
	r = tp_tioclinux(vt.fd, TIOCL_UNBLANKSCREEN, NULL);
	if (r != 0)
		atf_tc_fail("TIOCL_UNBLANKSCREEN: %s", strerror(-r));
	wait_blanked(vt.fd, 0, "unblanked by TIOCL_UNBLANKSCREEN");
	tp_vt_wait_text(&vt, 0, 0, "kept", &s, "the text kept through the blanking");
}

ATF_TP_ADD_TCS(tp)
{
	ATF_TP_ADD_TC(tp, activate_switches_foreground);
	ATF_TP_ADD_TC(tp, waitactive_sleeps_until_the_switch);
	ATF_TP_ADD_TC(tp, openqry_names_a_free_vt);
	ATF_TP_ADD_TC(tp, process_mode_release_and_acquire);
	ATF_TP_ADD_TC(tp, process_mode_refused_release);
	ATF_TP_ADD_TC(tp, mouse_reporting_of_foreground_vt);
	ATF_TP_ADD_TC(tp, kdsetled_lights_of_foreground_vt);
	ATF_TP_ADD_TC(tp, graphics_vt_blanks_while_foreground);
	ATF_TP_ADD_TC(tp, tioclinux_blanks_and_unblanks);
	return atf_no_error();
}
