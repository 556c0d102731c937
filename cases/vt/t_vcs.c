// SPDX-License-Identifier: GPL-2.0-only
/* t_vcs.c: the screen devices themselves (drivers/tty/vt/vc_screen.c), as
 * screen readers (brltty) and screen dumps use them: their sizes and
 * lseek, writes to /dev/vcsN and /dev/vcsaN that draw on the VT (and the
 * vcsa header's cursor), and the update events: POLLPRI on a screen
 * change, cleared by a read, that wakes a waiting poll, POLLHUP|POLLERR
 * when the VT is freed, SIGIO with O_ASYNC; and the devices' entries in
 * /sys/class/vc, made and removed with their VT.  The other vt cases only
 * read these devices. */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include "tp_vt.h"

/* poll() of fd for POLLPRI within timeout_ms; returns revents. */
static short
poll_pri(int fd, int timeout_ms)
{
	struct pollfd p = {.fd = fd, .events = POLLIN | POLLPRI};
	int r = poll(&p, 1, timeout_ms);
	if (r < 0)
		atf_tc_fail("poll of a screen device: %s", strerror(errno));
	return r ? p.revents : 0;
}

/* Read the whole device from offset 0 (this clears its update event). */
static void
read_all(int fd)
{
	static char buf[4 + 2 * TP_VT_MAX_ROWS * TP_VT_MAX_COLS];
	if (pread(fd, buf, sizeof buf, 0) <= 0)
		atf_tc_fail("read of a screen device: %s", strerror(errno));
}

TP_CASE_ROOT(sizes_and_lseek, TP_LINUX,
	"lseek(SEEK_END) of /dev/vcsN gives rows x columns, of /dev/vcsaN "
	"4 + 2 x rows x columns (the header, then glyph and attribute bytes), "
	"of /dev/vcsuN 4 x rows x columns; a seek past the end is EINVAL and "
	"a write at the end writes nothing")
{
	struct tp_vt vt;
	struct tp_screen s;

	tp_vt_open(tc, &vt);
	tp_vt_screen(vt.num, &s);
	static const struct {
		const char *kind;
		int mul, add;
	} dev[] = {{"vcs", 1, 0}, {"vcsa", 2, 4}, {"vcsu", 4, 0}};
	for (size_t i = 0; i < sizeof dev / sizeof *dev; i++) {
		int fd = tp_vt_open_screen_dev(dev[i].kind, vt.num, O_RDWR);
		off_t want = (off_t)s.rows * s.cols * dev[i].mul + dev[i].add;
		off_t end = lseek(fd, 0, SEEK_END);
		if (end != want)
			atf_tc_fail("/dev/%s%d: SEEK_END at %lld, want %lld (%d x %d)",
				    dev[i].kind, vt.num, (long long)end, (long long)want,
				    s.rows, s.cols);
		errno = 0;
		off_t past = lseek(fd, 1, SEEK_END);
		if (past != -1 || errno != EINVAL)
			atf_tc_fail("/dev/%s%d: a seek past the end gave %lld (%s), want "
				    "EINVAL", dev[i].kind, vt.num, (long long)past,
				    strerror(errno));
		if (i < 2) {
			ssize_t w = pwrite(fd, "x", 1, end);
			if (w != 0)
				atf_tc_fail("/dev/%s%d: a write at the end returned %zd "
					    "(%s), want 0", dev[i].kind, vt.num, w,
					    strerror(errno));
		}
		close(fd);
	}
}

TP_CASE_ROOT(writes_draw_on_the_vt, TP_LINUX,
	"A write to /dev/vcsaN at 4 + 2 x (row x columns + column) draws "
	"glyph and attribute pairs there; a write to /dev/vcsN replaces "
	"glyphs and keeps attributes; writing the vcsa header's bytes 2 and 3 "
	"moves the VT's cursor to that column and row")
{
	struct tp_vt vt;
	struct tp_screen s;

	tp_vt_open(tc, &vt);
	tp_vt_screen(vt.num, &s);
	int fa = tp_vt_open_screen_dev("vcsa", vt.num, O_RDWR);
	int fc = tp_vt_open_screen_dev("vcs", vt.num, O_RDWR);
	off_t at = 4 + 2 * ((off_t)2 * s.cols + 5);
	if (pwrite(fa, "A\x1f" "B\x4e", 4, at) != 4)
		atf_tc_fail("write to /dev/vcsa%d: %s", vt.num, strerror(errno));
	tp_vt_wait_text(&vt, 2, 5, "AB", &s, "the cells the vcsa write drew");
	if (s.attr[2][5] != 0x1f || s.attr[2][6] != 0x4e)
		atf_tc_fail("attributes 0x%02x 0x%02x after the vcsa write, want "
			    "0x1f 0x4e", s.attr[2][5], s.attr[2][6]);
	if (pwrite(fc, "xy", 2, (off_t)2 * s.cols + 5) != 2)
		atf_tc_fail("write to /dev/vcs%d: %s", vt.num, strerror(errno));
	tp_vt_wait_text(&vt, 2, 5, "xy", &s, "the glyphs the vcs write replaced");
	if (s.attr[2][5] != 0x1f || s.attr[2][6] != 0x4e)
		atf_tc_fail("attributes 0x%02x 0x%02x after the vcs write, want the "
			    "vcsa write's 0x1f 0x4e", s.attr[2][5], s.attr[2][6]);
	unsigned char xy[2] = {7, 3};
	if (pwrite(fa, xy, 2, 2) != 2)
		atf_tc_fail("write of the vcsa header's cursor: %s", strerror(errno));
	tp_vt_wait_cursor(&vt, 7, 3, &s, "the cursor the header write set");
	tp_vt_write(&vt, "C", "a character at the cursor");
	tp_vt_wait_text(&vt, 3, 7, "C", &s, "C drawn where the header put the cursor");
	close(fa);
	close(fc);
}

TP_CASE_ROOT(poll_reports_screen_updates, TP_LINUX,
	"poll() of /dev/vcsaN reports POLLPRI the first time (an update may "
	"have come before), not after a read of the device, and again once "
	"the VT's screen changes (output written to it, or a write to its "
	"vcs); a read clears it each time")
{
	struct tp_vt vt;

	tp_vt_open(tc, &vt);
	int fa = tp_vt_open_screen_dev("vcsa", vt.num, O_RDONLY);
	int fc = tp_vt_open_screen_dev("vcs", vt.num, O_WRONLY);
	if (!(poll_pri(fa, 0) & POLLPRI))
		atf_tc_fail("the first poll of /dev/vcsa%d: no POLLPRI", vt.num);
	read_all(fa);
	short r = poll_pri(fa, 0);
	if (r & POLLPRI)
		atf_tc_fail("POLLPRI after a read, with no update since (revents "
			    "0x%x)", r);
	if (!(r & POLLIN))
		atf_tc_fail("no POLLIN from /dev/vcsa%d (revents 0x%x)", vt.num, r);
	tp_vt_write(&vt, "x", "output to the VT");
	tp_waiting_for("POLLPRI after output to the VT");
	if (!(poll_pri(fa, TP_WAIT_MS) & POLLPRI))
		atf_tc_fail("no POLLPRI within %d ms of output to tty%d", TP_WAIT_MS,
			    vt.num);
	tp_waiting_for("");
	read_all(fa);
	if (poll_pri(fa, 0) & POLLPRI)
		atf_tc_fail("POLLPRI again after the second read");
	if (pwrite(fc, "z", 1, 0) != 1)
		atf_tc_fail("write to /dev/vcs%d: %s", vt.num, strerror(errno));
	if (!(poll_pri(fa, TP_WAIT_MS) & POLLPRI))
		atf_tc_fail("no POLLPRI within %d ms of a write to /dev/vcs%d",
			    TP_WAIT_MS, vt.num);
	close(fa);
	close(fc);
}

TP_CASE_ROOT(o_async_sends_sigio_on_update, TP_LINUX,
	"With O_ASYNC and an owner (F_SETOWN_EX), /dev/vcsaN sends it the signal "
	"(F_SETSIG's, with si_code POLL_PRI) when its VT's screen changes, "
	"and none for another VT's output")
{
	struct tp_vt vt, other;
	sigset_t set;
	siginfo_t si;
	struct timespec zero = {0, 0}, wait = {TP_WAIT_MS / 1000, 0};
	int sig = SIGRTMIN + 1;

	tp_vt_open(tc, &vt);
	tp_vt_open(tc, &other);
	sigemptyset(&set);
	sigaddset(&set, sig);
	if (sigprocmask(SIG_BLOCK, &set, NULL) != 0)
		atf_tc_fail("sigprocmask: %s", strerror(errno));
	int fa = tp_vt_open_screen_dev("vcsa", vt.num, O_RDONLY);
	/* The signal goes to this thread, which blocks it (the case's
	 * process may have other threads). */
	struct f_owner_ex owner = {F_OWNER_TID, (pid_t)syscall(SYS_gettid)};
	if (fcntl(fa, F_SETOWN_EX, &owner) != 0 || fcntl(fa, F_SETSIG, sig) != 0 ||
	    fcntl(fa, F_SETFL, fcntl(fa, F_GETFL) | O_ASYNC) != 0)
		atf_tc_fail("O_ASYNC on /dev/vcsa%d: %s", vt.num, strerror(errno));
	tp_vt_write(&other, "o", "output to another VT");
	if (sigtimedwait(&set, &si, &zero) == sig)
		atf_tc_fail("a signal for tty%d's output on tty%d's vcsa", other.num,
			    vt.num);
	tp_vt_write(&vt, "x", "output to the VT");
	tp_waiting_for("the signal for the screen update");
	int got = sigtimedwait(&set, &si, &wait);
	tp_waiting_for("");
	if (got != sig)
		atf_tc_fail("no signal within %d ms of output to tty%d (%s)",
			    TP_WAIT_MS, vt.num, strerror(errno));
	if (si.si_code != POLL_PRI)
		atf_tc_fail("si_code %d, want POLL_PRI (%d)", si.si_code, POLL_PRI);
	close(fa);
}

TP_CASE_ROOT(freed_vt_gives_pollhup, TP_LINUX,
	"When the VT of an open /dev/vcsaN is freed (closed, VT_DISALLOCATE), "
	"poll() of the device reports POLLHUP and POLLERR, and a read fails "
	"with ENXIO")
{
	struct tp_vt vt;
	struct tp_screen s;

	tp_vt_take(tc, &vt);
	vt.fd = tp_vt_open_path(vt.num);
	tp_vt_write(&vt, "\033[Hgone", "text on the VT");
	tp_vt_wait_text(&vt, 0, 0, "gone", &s, "the text drawn");
	int fa = tp_vt_open_screen_dev("vcsa", vt.num, O_RDONLY);
	poll_pri(fa, 0); /* the device's events start with its first poll */
	read_all(fa);
	tp_vt_free(&vt);
	short r = poll_pri(fa, TP_WAIT_MS);
	if ((r & (POLLHUP | POLLERR)) != (POLLHUP | POLLERR))
		atf_tc_fail("poll of the freed VT's vcsa: revents 0x%x, want "
			    "POLLHUP|POLLERR", r);
	char b[8];
	errno = 0;
	ssize_t n = pread(fa, b, sizeof b, 0);
	if (n != -1 || errno != ENXIO)
		atf_tc_fail("read of the freed VT's vcsa: %zd (%s), want ENXIO", n,
			    strerror(errno));
	close(fa);
}

/* A child asleep in poll() of fd with no timeout: it succeeds once poll
 * reports POLLPRI. */
static int
poll_forever(void *arg)
{
	struct pollfd p = {.fd = *(int *)arg, .events = POLLPRI};
	int r = poll(&p, 1, -1);
	if (r != 1 || !(p.revents & POLLPRI))
		return tp_child_fail("poll returned %d, revents 0x%x (%s)", r, p.revents,
				     r < 0 ? strerror(errno) : "no POLLPRI");
	return 0;
}

TP_CASE_ROOT(poll_waiter_wakes_on_update, TP_LINUX,
	"A process already asleep in poll() of /dev/vcsaN is woken when its "
	"VT's screen changes: the update wakes the waiter, it is not found "
	"only by the next poll")
{
	struct tp_vt vt;
	struct tp_child c;

	tp_vt_open(tc, &vt);
	int fa = tp_vt_open_screen_dev("vcsa", vt.num, O_RDONLY);
	poll_pri(fa, 0); /* the device's events start with its first poll */
	read_all(fa);
	if (poll_pri(fa, 0) & POLLPRI)
		atf_tc_fail("POLLPRI after a read, with no update since");
	tp_child_start(&c, poll_forever, &fa);
	tp_wait_blocked_poll(c.pid, "the poller asleep on /dev/vcsa");
	tp_vt_write(&vt, "x", "output to the VT");
	tp_child_join(&c, TP_WAIT_MS, "the poller woken by the screen update");
	close(fa);
}

/* Is /sys/class/vc/<kind>N there? */
static bool
vc_class_dev(const char *kind, int num)
{
	char path[64];
	snprintf(path, sizeof path, "/sys/class/vc/%s%d", kind, num);
	return access(path, F_OK) == 0;
}

/* Fail unless VT num's three screen devices are all present or all gone. */
static void
expect_vc_devs(int num, bool present, const char *what)
{
	static const char *const kinds[] = {"vcs", "vcsu", "vcsa"};
	for (size_t i = 0; i < sizeof kinds / sizeof *kinds; i++)
		if (vc_class_dev(kinds[i], num) != present)
			atf_tc_fail("%s: /sys/class/vc/%s%d %s", what, kinds[i], num,
				    present ? "missing" : "still there");
}

TP_CASE_ROOT(disallocate_removes_that_vts_devices, TP_LINUX,
	"An allocated VT has its screen devices vcsN, vcsuN and vcsaN in "
	"/sys/class/vc; VT_DISALLOCATE N removes those three and no other "
	"VT's (tty1's stay); opening the VT again brings them back")
{
	struct tp_vt vt;

	tp_vt_take(tc, &vt);
	vt.fd = tp_vt_open_path(vt.num);
	expect_vc_devs(vt.num, true, "the VT open");
	expect_vc_devs(1, true, "tty1");
	tp_vt_free(&vt);
	expect_vc_devs(vt.num, false, "after VT_DISALLOCATE");
	expect_vc_devs(1, true, "tty1 after another VT's VT_DISALLOCATE");
	vt.fd = tp_vt_open_path(vt.num);
	expect_vc_devs(vt.num, true, "the VT open again");
}

ATF_TP_ADD_TCS(tp)
{
	ATF_TP_ADD_TC(tp, sizes_and_lseek);
	ATF_TP_ADD_TC(tp, writes_draw_on_the_vt);
	ATF_TP_ADD_TC(tp, poll_reports_screen_updates);
	ATF_TP_ADD_TC(tp, o_async_sends_sigio_on_update);
	ATF_TP_ADD_TC(tp, freed_vt_gives_pollhup);
	ATF_TP_ADD_TC(tp, poll_waiter_wakes_on_update);
	ATF_TP_ADD_TC(tp, disallocate_removes_that_vts_devices);
	return atf_no_error();
}
