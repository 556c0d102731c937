// SPDX-License-Identifier: GPL-2.0-only
/* t_kbd.c: keys typed on the machine's keyboard (QEMU's send-key on the pc
 * machine's PS/2 keyboard, asked of the host side) reach the foreground
 * VT as its keyboard mode says: text (K_UNICODE, with Shift and Caps
 * Lock; a key bound to a Unicode character in UTF-8; a dead key and the
 * accent table), keycodes
 * (K_MEDIUMRAW), scancodes (K_RAW) or nothing (K_OFF);
 * Alt+Fn switches VTs.  Exclusive: the keyboard feeds the one foreground
 * VT. */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/ioctl.h>
#include <unistd.h>
#include <linux/keyboard.h>

#include "tp_vt.h"

/* The case's VT, foreground, raw, with its modes put back at the end. */
static void
kbd_open(const atf_tc_t *tc, struct tp_vt *vt)
{
	tp_vt_open(tc, vt);
	tp_vt_require_keyboard(tc);
	tp_vt_save_modes(vt);
	tp_vt_activate(vt->num, "VT_ACTIVATE to the VT the keys go to");
}

static void
kbmode(struct tp_vt *vt, int mode)
{
	if (ioctl(vt->fd, KDSKBMODE, mode) != 0)
		atf_tc_fail("KDSKBMODE %d: %s", mode, strerror(errno));
}

TP_CASE_ROOT(keys_arrive_as_text, TP_LINUX,
	"In K_UNICODE mode a key typed on the keyboard reaches the foreground "
	"VT as its character: a gives \"a\", Shift+a \"A\", Enter \"\\r\"; a "
	"background VT gets nothing")
{
	struct tp_vt vt, bg;

	kbd_open(tc, &vt);
	tp_vt_take(tc, &bg);
	bg.fd = tp_vt_open_path(bg.num);
	tcflush(bg.fd, TCIFLUSH);
	kbmode(&vt, K_UNICODE);
	tp_vt_key("a");
	TP_EXPECT_BYTES(vt.fd, "a", "the key a");
	tp_vt_key("shift-a");
	TP_EXPECT_BYTES(vt.fd, "A", "Shift+a");
	tp_vt_key("ret");
	TP_EXPECT_BYTES(vt.fd, "\r", "Enter");
	tp_expect_quiet(vt.fd, "nothing more than the keys typed");
	tp_expect_not_readable(bg.fd, "the background VT got no key");
	close(bg.fd);
}

TP_CASE_ROOT(caps_lock_flag_and_letters, TP_LINUX,
	"Caps Lock toggles the VT's caps flag (KDGKBLED LED_CAP) and makes "
	"letters capital; pressed again it clears the flag")
{
	struct tp_vt vt;
	char fl;

	kbd_open(tc, &vt);
	kbmode(&vt, K_UNICODE);
	if (ioctl(vt.fd, KDSKBLED, 0) != 0)
		atf_tc_fail("KDSKBLED 0: %s", strerror(errno));
	tp_vt_key("caps_lock");
	tp_vt_key("b");
	TP_EXPECT_BYTES(vt.fd, "B", "b with Caps Lock on");
	ioctl(vt.fd, KDGKBLED, &fl);
	if (!(fl & LED_CAP))
		atf_tc_fail("KDGKBLED 0x%x after Caps Lock: LED_CAP clear", fl);
	tp_vt_key("caps_lock");
	tp_vt_key("b");
	TP_EXPECT_BYTES(vt.fd, "b", "b with Caps Lock off again");
	ioctl(vt.fd, KDGKBLED, &fl);
	if (fl & LED_CAP)
		atf_tc_fail("KDGKBLED 0x%x after the second Caps Lock", fl);
}

/* In keyboard mode `mode`, the key Up gives exactly want[0..len). */
static void
up_key_in_mode(const atf_tc_t *tc, int mode, const char *want, size_t len,
	       const char *what)
{
	struct tp_vt vt;

	kbd_open(tc, &vt);
	kbmode(&vt, mode);
	tp_vt_key("up");
	tp_expect_bytes(vt.fd, want, len, what);
	tp_expect_quiet(vt.fd, "nothing after the release");
}

TP_CASE_ROOT(mediumraw_gives_keycodes, TP_LINUX,
	"In K_MEDIUMRAW mode a key gives its keycode on press and keycode | "
	"0x80 on release: Up (keycode 103) gives 0x67 0xe7")
{
	up_key_in_mode(tc, K_MEDIUMRAW, "\x67\xe7", 2, "Up as keycodes");
}

TP_CASE_ROOT(raw_gives_scancodes, TP_LINUX,
	"In K_RAW mode a key gives the keyboard's scancodes: Up on an AT "
	"keyboard (set 1 through the i8042) gives E0 48 on press and E0 C8 "
	"on release")
{
	up_key_in_mode(tc, K_RAW, "\xe0\x48\xe0\xc8", 4, "Up as scancodes");
}

TP_CASE_ROOT(kbmode_off_drops_keys, TP_LINUX,
	"In K_OFF mode keys give the VT nothing; back in K_UNICODE the next "
	"key arrives")
{
	struct tp_vt vt;

	kbd_open(tc, &vt);
	kbmode(&vt, K_OFF);
	tp_vt_key("a");
	tp_expect_quiet(vt.fd, "no input in K_OFF");
	kbmode(&vt, K_UNICODE);
	tp_vt_key("c");
	TP_EXPECT_BYTES(vt.fd, "c", "the key after K_UNICODE again");
}

TP_CASE_ROOT(alt_fn_switches_vt, TP_LINUX,
	"With the default keymap, Alt+Fn makes VT n the foreground VT")
{
	struct tp_vt vt;
	char key[16];

	kbd_open(tc, &vt);
	if (vt.num > 12)
		atf_tc_skip("the case's VT is tty%d: no function key for it", vt.num);
	tp_vt_activate(1, "VT_ACTIVATE to tty1, away from the case's VT");
	snprintf(key, sizeof key, "alt-f%d", vt.num);
	tp_vt_key(key);
	long long end = tp_now_ms() + TP_WAIT_MS;
	int step = 0;
	while (tp_vt_active() != vt.num) {
		if (tp_now_ms() > end)
			atf_tc_fail("tty%d still active %d ms after %s",
				    tp_vt_active(), TP_WAIT_MS, key);
		tp_backoff(&step);
	}
}

/* Plain-table keymap entries a case rebinds, and the accent table it
 * replaces, put back at exit through a descriptor of its VT (both are
 * global to every VT). */
static struct {
	int fd, n;
	struct kbentry old[2];
	bool diacr;
	struct kbdiacrsuc diacr_old;
} rebound = {.fd = -1};

/* In atexit: no ATF calls, complaints on stderr. */
static void
restore_entries(void)
{
	for (int i = 0; i < rebound.n; i++)
		if (ioctl(rebound.fd, KDSKBENT, &rebound.old[i]) != 0)
			fprintf(stderr, "restore keymap entry %d: %s\n",
				rebound.old[i].kb_index, strerror(errno));
	if (rebound.diacr && ioctl(rebound.fd, KDSKBDIACRUC, &rebound.diacr_old) != 0)
		fprintf(stderr, "restore the accent table: %s\n", strerror(errno));
}

/* Bind keycode (plain table) to value, keeping the old entry to put back. */
static void
bind_key(int fd, int keycode, unsigned short value, const char *what)
{
	struct kbentry e = {.kb_table = 0, .kb_index = (unsigned char)keycode};
	TP_VT_IOCTL(fd, KDGKBENT, &e, "KDGKBENT of a key to rebind");
	rebound.old[rebound.n++] = e;
	e.kb_value = value;
	if (ioctl(fd, KDSKBENT, &e) != 0)
		atf_tc_fail("KDSKBENT keycode %d to %s (0x%04x): %s", keycode, what, value,
			    strerror(errno));
}

/* A Unicode character as a keymap value: U(uni), which the kernel takes
 * in K_UNICODE only. */
#define UNI_KEYSYM(uni) ((unsigned short)((uni) ^ 0xf000))

TP_CASE_ROOT(unicode_keysyms_arrive_as_utf8, TP_LINUX,
	"A key bound to a Unicode character (KDSKBENT U+00E9, U+2665) gives "
	"it in UTF-8 in K_UNICODE mode (two and three bytes) and as one "
	"8-bit byte in K_XLATE (U+00E9 as 0xE9)")
{
	struct tp_vt vt;

	rebound.fd = tp_vt_open_restoring(tc, &vt, restore_entries);
	tp_vt_require_keyboard(tc);
	tp_vt_save_modes(&vt);
	tp_vt_activate(vt.num, "VT_ACTIVATE to the VT the keys go to");
	kbmode(&vt, K_UNICODE);
	bind_key(vt.fd, 30, UNI_KEYSYM(0x00e9), "U+00E9"); /* KEY_A */
	bind_key(vt.fd, 48, UNI_KEYSYM(0x2665), "U+2665"); /* KEY_B */
	tp_vt_key("a");
	TP_EXPECT_BYTES(vt.fd, "\xc3\xa9", "the key bound to U+00E9, in UTF-8");
	tp_vt_key("b");
	TP_EXPECT_BYTES(vt.fd, "\xe2\x99\xa5", "the key bound to U+2665, in UTF-8");
	kbmode(&vt, K_XLATE);
	tp_vt_key("a");
	TP_EXPECT_BYTES(vt.fd, "\xe9", "the key bound to U+00E9 in K_XLATE");
	tp_expect_quiet(vt.fd, "nothing more than the keys typed");
}

TP_CASE_ROOT(dead_key_composes_from_the_accent_table, TP_LINUX,
	"A dead key (K_DGRAVE) gives nothing, and the next key gives what the "
	"accent table (KDSKBDIACRUC) says for that pair, in UTF-8 in "
	"K_UNICODE (U+11041, four bytes); a key with no entry after it gives "
	"the accent itself, then the key")
{
	struct tp_vt vt;
	struct kbdiacrsuc t = {.kb_cnt = 1};

	rebound.fd = tp_vt_open_restoring(tc, &vt, restore_entries);
	tp_vt_require_keyboard(tc);
	tp_vt_save_modes(&vt);
	tp_vt_activate(vt.num, "VT_ACTIVATE to the VT the keys go to");
	kbmode(&vt, K_UNICODE);
	TP_VT_IOCTL(vt.fd, KDGKBDIACRUC, &rebound.diacr_old, "KDGKBDIACRUC");
	rebound.diacr = true;
	t.kbdiacruc[0] = (struct kbdiacruc){.diacr = '`', .base = 'a', .result = 0x11041};
	TP_VT_IOCTL(vt.fd, KDSKBDIACRUC, &t, "KDSKBDIACRUC of one entry");
	bind_key(vt.fd, 44, K_DGRAVE, "K_DGRAVE"); /* KEY_Z */
	tp_vt_key("z");
	tp_vt_key("a");
	TP_EXPECT_BYTES(vt.fd, "\xf0\x91\x81\x81", "dead grave then a: U+11041");
	tp_vt_key("z");
	tp_vt_key("b");
	TP_EXPECT_BYTES(vt.fd, "`b", "dead grave then b, which has no entry");
	tp_expect_quiet(vt.fd, "nothing more than the keys typed");
}

ATF_TP_ADD_TCS(tp)
{
	ATF_TP_ADD_TC(tp, keys_arrive_as_text);
	ATF_TP_ADD_TC(tp, caps_lock_flag_and_letters);
	ATF_TP_ADD_TC(tp, mediumraw_gives_keycodes);
	ATF_TP_ADD_TC(tp, raw_gives_scancodes);
	ATF_TP_ADD_TC(tp, kbmode_off_drops_keys);
	ATF_TP_ADD_TC(tp, alt_fn_switches_vt);
	ATF_TP_ADD_TC(tp, unicode_keysyms_arrive_as_utf8);
	ATF_TP_ADD_TC(tp, dead_key_composes_from_the_accent_table);
	return atf_no_error();
}
