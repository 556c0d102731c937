/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * tp_vt.h: the virtual console area's helpers (cases/vt), on top of ttypot.h.
 *
 * The oracle is the screen itself: /dev/vcsaN gives a VT's rows, columns,
 * cursor and cells (glyph byte, attribute byte), /dev/vcsuN the cells as
 * Unicode.  Output to a VT is drawn by the writer's own write(): once write
 * returns, the screen buffer shows it; the waits below still poll with a
 * deadline, so a kernel that draws late or never fails naming the wait.
 *
 * Where cases run: a VT case changes a console's screen, termios, keyboard
 * and display mode, and some switch the active VT, which on a machine with a
 * real console is the user's screen.  They run only where the Kyua variable
 * vt_ok is set (fixtures/guest/init sets it in ttypot's guests, whose
 * console is a UART and whose VTs nobody uses); elsewhere they skip saying
 * so.  A kernel without CONFIG_VT (no /sys/class/tty/tty1) skips naming it.
 *
 * Each case takes one VT among TP_VT_FIRST..TP_VT_LAST to itself (a lock
 * file per VT, as programs of the area run in parallel), resets it (RIS),
 * and puts back at exit what it changed: termios, keyboard mode, display
 * mode, VT mode and the active VT.
 */
#ifndef TP_VT_H
#define TP_VT_H

#include <errno.h>
#include <stdbool.h>
#include <stdint.h>
#include <string.h>
#include <sys/ioctl.h>
#include <linux/kd.h>
#include <linux/tiocl.h>
#include <linux/vt.h>

#include "ttypot.h"

/* VTs a case may take: VT_GETSTATE reports the first 15 only, and tty1 is
 * the foreground VT a guest boots with. */
#define TP_VT_FIRST 2
#define TP_VT_LAST 15

#define TP_VT_MAX_ROWS 100
#define TP_VT_MAX_COLS 256

/* A VT taken by a case. */
struct tp_vt {
	int num;      /* N of /dev/ttyN, 1-based as VT_ACTIVATE counts */
	int fd;       /* /dev/ttyN, O_RDWR|O_NOCTTY|O_NONBLOCK, raw; -1 if not open */
	char path[32];
};

/* What /dev/vcsaN shows. */
struct tp_screen {
	int rows, cols;
	int x, y;     /* the cursor, 0-based column and row */
	uint8_t ch[TP_VT_MAX_ROWS][TP_VT_MAX_COLS];   /* glyph bytes */
	uint8_t attr[TP_VT_MAX_ROWS][TP_VT_MAX_COLS]; /* attribute bytes */
};

/* The default attribute of a colour VT after a reset: light grey on black. */
#define TP_VT_ATTR_DEFAULT 0x07

/* Skip the case unless VT cases may run here (vt_ok) and the kernel has
 * VTs; root is required by the cases' heads (TP_CASE_ROOT). */
void tp_vt_require(const atf_tc_t *tc);
/* Require, take a free VT (locked for the rest of the case), open it,
 * save its termios and make it raw (no output processing, no echo,
 * non-canonical, VMIN 0), reset it (ESC c) and wait for a blank screen
 * with the cursor home. */
void tp_vt_open(const atf_tc_t *tc, struct tp_vt *vt);
/* Require and take a free VT without opening it (vt->fd is -1). */
void tp_vt_take(const atf_tc_t *tc, struct tp_vt *vt);
/* Open /dev/ttyN O_RDWR|O_NOCTTY|O_NONBLOCK; fails the case on error. */
int tp_vt_open_path(int num);

/* tp_vt_open, then a descriptor of the VT of the caller's own and
 * restore registered with atexit: restore puts back through it what the
 * case changed (global tables of the console), also when the case fails. */
int tp_vt_open_restoring(const atf_tc_t *tc, struct tp_vt *vt, void (*restore)(void));

/* 0 for a call that returned 0, else errno. */
static inline int
tp_vt_errno_of(int r)
{
	return r == 0 ? 0 : errno;
}

/* Fail unless call ends with errno want (0: succeeds). */
#define TP_VT_EXPECT_ERRNO(call, want, what)                                   \
	do {                                                                   \
		int e_ = tp_vt_errno_of(call);                                 \
		if (e_ != (want))                                              \
			atf_tc_fail("%s: %s, want %s", (what),                 \
				    e_ ? strerror(e_) : "success",             \
				    (want) ? strerror(want) : "success");      \
	} while (0)

/* Fail naming what unless ioctl(fd, req, arg) succeeds. */
#define TP_VT_IOCTL(fd, req, arg, what)                                        \
	do {                                                                   \
		if (ioctl((fd), (req), (arg)) != 0)                            \
			atf_tc_fail("%s: %s", (what), strerror(errno));        \
	} while (0)

/* Write bytes to the VT (failing on error). */
void tp_vt_write(struct tp_vt *vt, const char *s, const char *what);
/* Open /dev/<kind>N (kind "vcs", "vcsa" or "vcsu") with flags |
 * O_CLOEXEC; fails the case naming the device on error. */
int tp_vt_open_screen_dev(const char *kind, int num, int flags);
/* Read the screen of VT num. */
void tp_vt_screen(int num, struct tp_screen *s);
/* The text of row y, columns x..x+len-1, as a C string (static buffer). */
const char *tp_vt_text(const struct tp_screen *s, int y, int x, int len);
/* Wait (TP_WAIT_MS) until row y shows text at column x; fail showing the
 * row.  Returns with s holding the screen that matched. */
void tp_vt_wait_text(struct tp_vt *vt, int y, int x, const char *text,
		     struct tp_screen *s, const char *what);
/* Wait until the cursor is at (x, y), 0-based. */
void tp_vt_wait_cursor(struct tp_vt *vt, int x, int y, struct tp_screen *s,
		       const char *what);
/* Fail unless row y, from column x, shows text (the screen as read). */
void tp_vt_expect_text(const struct tp_screen *s, int y, int x,
		       const char *text, const char *what);
/* Fail unless the cells of row y from x to the end of the row are blank. */
void tp_vt_expect_blank(const struct tp_screen *s, int y, int x,
			const char *what);
/* Fill the screen: row y shows 'A'+y repeated in every column, the
 * cursor ends at (0, 0).  Erase and scroll cases start from it. */
void tp_vt_fill(struct tp_vt *vt, struct tp_screen *s);

/* Read the VT's Unicode cells of row y (at most n) from /dev/vcsuN: 0, or
 * the errno of the read (ENODATA when the VT is not in UTF-8 mode). */
int tp_vt_unicode_row(int num, int y, uint32_t *out, int n);

/* Read the reply the console puts in the VT's input queue: exactly
 * want[0..len) within TP_WAIT_MS, then nothing more for
 * TP_QUIET_WINDOW_MS. */
void tp_vt_expect_reply(struct tp_vt *vt, const char *want, size_t len,
			const char *what);

/* The active VT (VT_GETSTATE v_active) and whether VT num (<= 15) is in
 * use (open).  Both ask through /dev/tty0, which holds the foreground VT
 * open during the call: ask through a VT of the case's own to see the
 * foreground VT's own state. */
int tp_vt_active(void);
bool tp_vt_in_use(int num);
/* Wait (TP_WAIT_MS) until tp_vt_in_use(num) is want; fail naming what. */
void tp_vt_wait_in_use(int num, bool want, const char *what);
/* Close the case's descriptor of its VT (if open), wait until the VT is
 * released and free it: VT_DISALLOCATE through /dev/tty0, which must
 * succeed.  Opening /dev/ttyN allocates it again. */
void tp_vt_free(struct tp_vt *vt);
/* Make VT num the active one (VT_ACTIVATE through a descriptor of it) and
 * wait (bounded) until VT_GETSTATE says so.  The VT active before the
 * first switch of a case is made active again when the case ends. */
void tp_vt_activate(int num, const char *what);
/* A child blocked in VT_WAITACTIVE(num) on fd (a VT descriptor): it
 * succeeds when the ioctl returns 0; join it with tp_child_join, whose
 * deadline bounds the wait. */
void tp_vt_waitactive_start(struct tp_child *c, int fd, int num);

/* Save the keyboard mode and flags, display mode and VT mode of vt now;
 * they are put back when the case ends, also when it fails. */
void tp_vt_save_modes(struct tp_vt *vt);

/* Whether the guest has a keyboard: an input device with the VT's kbd
 * handler (/proc/bus/input/devices). */
bool tp_vt_has_keyboard(void);
/* Keys typed on the machine's keyboard by the host side (atf/tp_host.h,
 * action "key"): skips the case where no host side offers it, or where
 * the guest has no keyboard input device. */
void tp_vt_require_keyboard(const atf_tc_t *tc);
/* Type keys (QEMU key names joined by '-': "a", "shift-a") and wait for
 * the host side's answer; the guest reads them after that. */
void tp_vt_key(const char *keys);

/* TIOCLINUX with subcode sub: returns the ioctl's result (or -errno); *byte
 * gets the first byte of the argument afterwards. */
int tp_tioclinux(int fd, char sub, char *byte);

#endif
