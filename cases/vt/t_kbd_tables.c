// SPDX-License-Identifier: GPL-2.0-only
/* t_kbd_tables.c: the keyboard's tables, read and written through a VT:
 * keymap entries (KDGKBENT/KDSKBENT), function-key strings (KDGKBSENT/
 * KDSKBSENT), the accent tables (KDGKBDIACR/KDGKBDIACRUC/KDSKBDIACR/
 * KDSKBDIACRUC), the meta mode (KDGKBMETA/KDSKBMETA), the scancode to
 * keycode table (KDGETKEYCODE/KDSETKEYCODE), the repeat rate (KDKBDREP)
 * and the keyboard signal (KDSIGACCEPT).  All but the meta mode are global
 * to every VT: the program is exclusive, and each case puts back what it
 * changed at exit, also when it fails. */
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <unistd.h>
#include <linux/input.h>
#include <linux/keyboard.h>

#include "tp_vt.h"

/* ---------------------------------------------------------------- putting back */

/* What a case changed, put back at exit through a descriptor of its VT. */
static struct {
	int fd;
	bool ent, sent, diacr, meta, keycode, rate;
	struct kbentry ent_old;
	struct kbsentry sent_old;
	struct kbdiacrsuc diacr_old;
	int meta_old;
	struct kbkeycode keycode_old;
	struct kbd_repeat rate_old;
} saved = {.fd = -1};

/* In atexit: no ATF calls, complaints on stderr. */
static void
restore_tables(void)
{
	int fd = saved.fd;
	if (saved.ent && ioctl(fd, KDSKBENT, &saved.ent_old) != 0)
		fprintf(stderr, "restore keymap %d entry %d: %s\n",
			saved.ent_old.kb_table, saved.ent_old.kb_index, strerror(errno));
	if (saved.sent && ioctl(fd, KDSKBSENT, &saved.sent_old) != 0)
		fprintf(stderr, "restore function key string %d: %s\n",
			saved.sent_old.kb_func, strerror(errno));
	if (saved.diacr && ioctl(fd, KDSKBDIACRUC, &saved.diacr_old) != 0)
		fprintf(stderr, "restore the accent table: %s\n", strerror(errno));
	if (saved.meta && ioctl(fd, KDSKBMETA, saved.meta_old) != 0)
		fprintf(stderr, "restore the meta mode: %s\n", strerror(errno));
	if (saved.keycode && ioctl(fd, KDSETKEYCODE, &saved.keycode_old) != 0)
		fprintf(stderr, "restore scancode 0x%x: %s\n", saved.keycode_old.scancode,
			strerror(errno));
	if (saved.rate && ioctl(fd, KDKBDREP, &saved.rate_old) != 0)
		fprintf(stderr, "restore the repeat rate: %s\n", strerror(errno));
}

static void
open_vt(const atf_tc_t *tc, struct tp_vt *vt)
{
	saved.fd = tp_vt_open_restoring(tc, vt, restore_tables);
}

/* ---------------------------------------------------------------- keymap entries */

static unsigned short
kbent(int fd, int table, int index)
{
	struct kbentry e = {.kb_table = table, .kb_index = index};
	TP_VT_IOCTL(fd, KDGKBENT, &e, "KDGKBENT");
	return e.kb_value;
}

/* A keymap table the default keymap does not allocate: shift+altgr+ctrl+
 * alt+shiftl+shiftr+ctrll+ctrlr, all eight modifiers. */
#define UNUSED_TABLE 255
#define KEY_INDEX 30 /* KEY_A */

TP_CASE_ROOT(kbent_tables_read_back, TP_LINUX,
	"KDGKBENT reads a keymap entry: index 0 of a table not allocated is "
	"K_NOSUCHMAP, its other entries K_HOLE; KDSKBENT allocates the table "
	"(index 0 K_ALLOCATED, the rest K_HOLE) and the entry reads back; "
	"KDSKBENT of K_NOSUCHMAP at index 0 frees it; a value whose type "
	"(0x20) or value (KT_SHIFT 0x20) is out of range fails with EINVAL "
	"outside K_UNICODE and changes nothing")
{
	struct tp_vt vt;

	open_vt(tc, &vt);
	tp_vt_save_modes(&vt);
	TP_VT_IOCTL(vt.fd, KDSKBMODE, K_XLATE, "KDSKBMODE K_XLATE");
	if (kbent(vt.fd, UNUSED_TABLE, 0) != K_NOSUCHMAP)
		atf_tc_skip("keymap table %d is allocated here (a keymap was "
			    "loaded): the case needs a table no one uses",
			    UNUSED_TABLE);
	unsigned short hole = kbent(vt.fd, UNUSED_TABLE, KEY_INDEX);
	if (hole != K_HOLE)
		atf_tc_fail("KDGKBENT of entry %d of a free table: 0x%04x, want "
			    "K_HOLE 0x%04x", KEY_INDEX, hole, K_HOLE);

	struct kbentry e = {.kb_table = UNUSED_TABLE, .kb_index = KEY_INDEX,
			    .kb_value = K(KT_LATIN, 'q')};
	saved.ent_old = (struct kbentry){.kb_table = UNUSED_TABLE, .kb_index = 0,
					 .kb_value = K_NOSUCHMAP};
	saved.ent = true;
	TP_VT_IOCTL(vt.fd, KDSKBENT, &e, "KDSKBENT of a free table's entry");
	unsigned short got = kbent(vt.fd, UNUSED_TABLE, KEY_INDEX);
	if (got != K(KT_LATIN, 'q'))
		atf_tc_fail("KDGKBENT 0x%04x after KDSKBENT 0x%04x", got,
			    K(KT_LATIN, 'q'));
	if ((got = kbent(vt.fd, UNUSED_TABLE, 0)) != K_ALLOCATED)
		atf_tc_fail("index 0 of the allocated table: 0x%04x, want "
			    "K_ALLOCATED 0x%04x", got, K_ALLOCATED);
	if ((got = kbent(vt.fd, UNUSED_TABLE, KEY_INDEX + 1)) != K_HOLE)
		atf_tc_fail("another entry of the new table: 0x%04x, want K_HOLE",
			    got);

	e.kb_value = K(0x20, 'x');
	TP_VT_EXPECT_ERRNO(ioctl(vt.fd, KDSKBENT, &e), EINVAL,
		     "KDSKBENT of type 0x20 in K_XLATE");
	e.kb_value = K(KT_SHIFT, 0x20);
	TP_VT_EXPECT_ERRNO(ioctl(vt.fd, KDSKBENT, &e), EINVAL, "KDSKBENT of KT_SHIFT 0x20");
	if ((got = kbent(vt.fd, UNUSED_TABLE, KEY_INDEX)) != K(KT_LATIN, 'q'))
		atf_tc_fail("the entry 0x%04x after refused KDSKBENTs, want 0x%04x",
			    got, K(KT_LATIN, 'q'));

	TP_VT_IOCTL(vt.fd, KDSKBENT, &saved.ent_old, "KDSKBENT K_NOSUCHMAP at index 0");
	saved.ent = false;
	if ((got = kbent(vt.fd, UNUSED_TABLE, 0)) != K_NOSUCHMAP)
		atf_tc_fail("index 0 of the freed table: 0x%04x, want K_NOSUCHMAP",
			    got);
}

/* ---------------------------------------------------------------- function-key strings */

/* A function key the default keymap gives no string (F1..F20, Find ...
 * are the first 30 or so). */
#define FUNC 200

static const char *
kbsent(int fd, int func, struct kbsentry *s)
{
	memset(s, 0, sizeof *s);
	s->kb_func = func;
	TP_VT_IOCTL(fd, KDGKBSENT, s, "KDGKBSENT");
	return (const char *)s->kb_string;
}

static void
set_kbsent(int fd, int func, const char *str, const char *what)
{
	struct kbsentry s = {.kb_func = func};
	snprintf((char *)s.kb_string, sizeof s.kb_string, "%s", str);
	TP_VT_IOCTL(fd, KDSKBSENT, &s, what);
}

TP_CASE_ROOT(kbsent_strings_read_back, TP_LINUX,
	"KDSKBSENT sets a function key's string and KDGKBSENT reads it back, "
	"whether it grows or shrinks, up to 511 bytes; a string of 512 bytes "
	"with no NUL in kb_string fails with EINVAL and changes nothing; "
	"KDGKBSENT of F1 (0) gives the default \"\\033[[A\"")
{
	struct tp_vt vt;
	struct kbsentry s;
	static char longest[sizeof s.kb_string];

	open_vt(tc, &vt);
	const char *f1 = kbsent(vt.fd, 0, &s);
	if (strcmp(f1, "\033[[A") != 0)
		atf_tc_skip("F1's string is not the default \\033[[A (a keymap "
			    "was loaded): the case reads the defaults");
	kbsent(vt.fd, FUNC, &saved.sent_old);
	saved.sent = true;

	static const char *const strs[] = {"ttypot", "\033[ttypot-longer~", "t"};
	for (size_t i = 0; i < sizeof strs / sizeof *strs; i++) {
		set_kbsent(vt.fd, FUNC, strs[i], "KDSKBSENT");
		const char *got = kbsent(vt.fd, FUNC, &s);
		if (strcmp(got, strs[i]) != 0)
			atf_tc_fail("KDGKBSENT \"%s\" after KDSKBSENT \"%s\"", got,
				    strs[i]);
	}
	memset(longest, 'L', sizeof longest - 1);
	set_kbsent(vt.fd, FUNC, longest, "KDSKBSENT of 511 bytes");
	size_t len = strlen(kbsent(vt.fd, FUNC, &s));
	if (len != sizeof longest - 1 || memcmp(s.kb_string, longest, len) != 0)
		atf_tc_fail("KDGKBSENT: %zu bytes after KDSKBSENT of 511", len);

	struct kbsentry full = {.kb_func = FUNC};
	memset(full.kb_string, 'X', sizeof full.kb_string);
	/* the kernel reads at most sizeof kb_string bytes: no NUL in them */
	TP_VT_EXPECT_ERRNO(ioctl(vt.fd, KDSKBSENT, &full), EINVAL,
		     "KDSKBSENT of 512 bytes without a NUL");
	len = strlen(kbsent(vt.fd, FUNC, &s));
	if (len != sizeof longest - 1 || s.kb_string[0] != 'L')
		atf_tc_fail("KDGKBSENT: %zu bytes starting '%c' after a refused "
			    "KDSKBSENT, want the 511 'L's", len, s.kb_string[0]);
}

/* ---------------------------------------------------------------- accent tables */

TP_CASE_ROOT(diacr_tables_read_back, TP_LINUX,
	"KDSKBDIACR replaces the accent table with kb_cnt entries, which "
	"KDGKBDIACR reads back and KDGKBDIACRUC gives as Unicode (Latin-1 "
	"bytes as themselves); KDSKBDIACRUC sets Unicode entries beyond "
	"Latin-1 that KDGKBDIACRUC reads back; kb_cnt 256 (MAX_DIACR) fails "
	"with EINVAL and changes nothing")
{
	struct tp_vt vt;
	static struct kbdiacrs d8;
	static struct kbdiacrsuc duc;

	open_vt(tc, &vt);
	TP_VT_IOCTL(vt.fd, KDGKBDIACRUC, &saved.diacr_old, "KDGKBDIACRUC");
	saved.diacr = true;
	TP_VT_IOCTL(vt.fd, KDGKBDIACR, &d8, "KDGKBDIACR");
	if (d8.kb_cnt != saved.diacr_old.kb_cnt)
		atf_tc_fail("KDGKBDIACR has %u entries, KDGKBDIACRUC %u", d8.kb_cnt,
			    saved.diacr_old.kb_cnt);

	static const struct kbdiacr two[] = {{'`', 'a', 0xe0}, {'^', 'e', 0xea}};
	memset(&d8, 0, sizeof d8);
	d8.kb_cnt = 2;
	memcpy(d8.kbdiacr, two, sizeof two);
	TP_VT_IOCTL(vt.fd, KDSKBDIACR, &d8, "KDSKBDIACR of 2 entries");
	memset(&d8, 0xff, sizeof d8);
	TP_VT_IOCTL(vt.fd, KDGKBDIACR, &d8, "KDGKBDIACR");
	if (d8.kb_cnt != 2 || memcmp(d8.kbdiacr, two, sizeof two) != 0)
		atf_tc_fail("KDGKBDIACR: %u entries, first %02x %02x %02x; want "
			    "the 2 set", d8.kb_cnt, d8.kbdiacr[0].diacr,
			    d8.kbdiacr[0].base, d8.kbdiacr[0].result);
	TP_VT_IOCTL(vt.fd, KDGKBDIACRUC, &duc, "KDGKBDIACRUC");
	if (duc.kb_cnt != 2 || duc.kbdiacruc[0].result != 0xe0 ||
	    duc.kbdiacruc[1].diacr != '^' || duc.kbdiacruc[1].result != 0xea)
		atf_tc_fail("KDGKBDIACRUC after KDSKBDIACR: %u entries, results "
			    "U+%04X U+%04X", duc.kb_cnt, duc.kbdiacruc[0].result,
			    duc.kbdiacruc[1].result);

	/* combining tilde + e = U+1EBD, beyond Latin-1 */
	static const struct kbdiacruc uc[] = {{0x303, 'e', 0x1ebd}, {'~', 'n', 0xf1},
					      {0x2c7, 'z', 0x17e}};
	memset(&duc, 0, sizeof duc);
	duc.kb_cnt = 3;
	memcpy(duc.kbdiacruc, uc, sizeof uc);
	TP_VT_IOCTL(vt.fd, KDSKBDIACRUC, &duc, "KDSKBDIACRUC of 3 entries");
	memset(&duc, 0xff, sizeof duc);
	TP_VT_IOCTL(vt.fd, KDGKBDIACRUC, &duc, "KDGKBDIACRUC");
	if (duc.kb_cnt != 3 || memcmp(duc.kbdiacruc, uc, sizeof uc) != 0)
		atf_tc_fail("KDGKBDIACRUC: %u entries, first U+%04X U+%04X U+%04X; "
			    "want the 3 set", duc.kb_cnt, duc.kbdiacruc[0].diacr,
			    duc.kbdiacruc[0].base, duc.kbdiacruc[0].result);

	d8.kb_cnt = MAX_DIACR;
	TP_VT_EXPECT_ERRNO(ioctl(vt.fd, KDSKBDIACR, &d8), EINVAL, "KDSKBDIACR of 256 entries");
	duc.kb_cnt = MAX_DIACR;
	TP_VT_EXPECT_ERRNO(ioctl(vt.fd, KDSKBDIACRUC, &duc), EINVAL,
		     "KDSKBDIACRUC of 256 entries");
	TP_VT_IOCTL(vt.fd, KDGKBDIACRUC, &duc, "KDGKBDIACRUC");
	if (duc.kb_cnt != 3)
		atf_tc_fail("KDGKBDIACRUC: %u entries after refused sets, want 3",
			    duc.kb_cnt);
}

/* ---------------------------------------------------------------- meta mode */

TP_CASE_ROOT(kbmeta_set_and_read_back, TP_LINUX,
	"KDSKBMETA sets a VT's meta key mode, K_ESCPREFIX or K_METABIT, as "
	"KDGKBMETA reads it; any other value fails with EINVAL and changes "
	"nothing; the mode is the VT's own: another VT's is unchanged")
{
	struct tp_vt vt;
	int m, other_before, other_after;

	open_vt(tc, &vt);
	TP_VT_IOCTL(vt.fd, KDGKBMETA, &saved.meta_old, "KDGKBMETA");
	saved.meta = true;
	int other = tp_vt_open_path(1);
	TP_VT_IOCTL(other, KDGKBMETA, &other_before, "KDGKBMETA of tty1");
	int want = saved.meta_old == K_ESCPREFIX ? K_METABIT : K_ESCPREFIX;
	static const int modes[2] = {K_ESCPREFIX, K_METABIT};
	for (int i = 0; i < 2; i++) {
		int mode = i == 0 ? want : modes[want == K_ESCPREFIX];
		TP_VT_IOCTL(vt.fd, KDSKBMETA, mode, "KDSKBMETA");
		TP_VT_IOCTL(vt.fd, KDGKBMETA, &m, "KDGKBMETA");
		if (m != mode)
			atf_tc_fail("KDGKBMETA %d after KDSKBMETA %d", m, mode);
		if (i == 0) {
			TP_VT_IOCTL(other, KDGKBMETA, &other_after, "KDGKBMETA of tty1");
			if (other_after != other_before)
				atf_tc_fail("tty1's meta mode went from %d to %d when "
					    "tty%d's was set", other_before,
					    other_after, vt.num);
		}
	}
	close(other);
	TP_VT_EXPECT_ERRNO(ioctl(vt.fd, KDSKBMETA, 0), EINVAL, "KDSKBMETA 0");
	TP_VT_EXPECT_ERRNO(ioctl(vt.fd, KDSKBMETA, K_ESCPREFIX + 1), EINVAL, "KDSKBMETA 5");
	TP_VT_IOCTL(vt.fd, KDGKBMETA, &m, "KDGKBMETA");
	if (m != modes[want == K_ESCPREFIX])
		atf_tc_fail("KDGKBMETA %d after refused KDSKBMETAs, want %d", m,
			    modes[want == K_ESCPREFIX]);
}

/* ---------------------------------------------------------------- scancodes and keycodes */

/* A scancode of the PS/2 keyboard's table (atkbd: 512 entries). */
#define SCANCODE 0x1e

TP_CASE_ROOT(keycode_table_read_back, TP_LINUX,
	"KDSETKEYCODE maps a scancode of the keyboard to a keycode that "
	"KDGETKEYCODE reads back; a scancode beyond the keyboard's table "
	"fails with EINVAL, a keycode above KEY_MAX with EINVAL")
{
	struct tp_vt vt;
	struct kbkeycode k = {.scancode = SCANCODE};

	open_vt(tc, &vt);
	if (!tp_vt_has_keyboard())
		atf_tc_skip("no keyboard: no input device with the VT's kbd "
			    "handler in /proc/bus/input/devices");
	TP_VT_IOCTL(vt.fd, KDGETKEYCODE, &k, "KDGETKEYCODE 0x1e");
	saved.keycode_old = k;
	saved.keycode = true;
	unsigned int want = k.keycode == KEY_F24 ? KEY_F23 : KEY_F24;
	struct kbkeycode set = {.scancode = SCANCODE, .keycode = want};
	TP_VT_IOCTL(vt.fd, KDSETKEYCODE, &set, "KDSETKEYCODE 0x1e");
	k.keycode = 0;
	TP_VT_IOCTL(vt.fd, KDGETKEYCODE, &k, "KDGETKEYCODE 0x1e");
	if (k.keycode != want)
		atf_tc_fail("KDGETKEYCODE %u after KDSETKEYCODE %u", k.keycode, want);

	struct kbkeycode far = {.scancode = 0x100000, .keycode = KEY_A};
	TP_VT_EXPECT_ERRNO(ioctl(vt.fd, KDGETKEYCODE, &far), EINVAL,
		     "KDGETKEYCODE of scancode 0x100000");
	TP_VT_EXPECT_ERRNO(ioctl(vt.fd, KDSETKEYCODE, &far), EINVAL,
		     "KDSETKEYCODE of scancode 0x100000");
	set.keycode = KEY_MAX + 1;
	TP_VT_EXPECT_ERRNO(ioctl(vt.fd, KDSETKEYCODE, &set), EINVAL,
		     "KDSETKEYCODE to keycode KEY_MAX + 1");
	TP_VT_IOCTL(vt.fd, KDGETKEYCODE, &k, "KDGETKEYCODE 0x1e");
	if (k.keycode != want)
		atf_tc_fail("KDGETKEYCODE %u after a refused KDSETKEYCODE, want %u",
			    k.keycode, want);
}

/* ---------------------------------------------------------------- repeat rate */

TP_CASE_ROOT(kbdrep_sets_and_reports_rate, TP_LINUX,
	"KDKBDREP sets the keyboards' repeat delay and period and returns "
	"the values in use: a delay or period <= 0 changes nothing and reads "
	"them; values the keyboard has (500 ms, 100 ms on the PS/2 "
	"keyboard) are returned as set and read again")
{
	struct tp_vt vt;
	struct kbd_repeat r = {0, 0};

	open_vt(tc, &vt);
	TP_VT_IOCTL(vt.fd, KDKBDREP, &r, "KDKBDREP 0, 0 (read)");
	if (r.delay <= 0 && r.period <= 0)
		atf_tc_skip("no keyboard with autorepeat (KDKBDREP reads 0, 0)");
	saved.rate_old = r;
	saved.rate = true;
	int want_delay = r.delay == 500 ? 750 : 500, want_period = r.period == 100 ? 50 : 100;
	r = (struct kbd_repeat){want_delay, want_period};
	TP_VT_IOCTL(vt.fd, KDKBDREP, &r, "KDKBDREP set");
	if (r.delay != want_delay || r.period != want_period)
		atf_tc_fail("KDKBDREP %d, %d returned %d, %d", want_delay, want_period,
			    r.delay, r.period);
	r = (struct kbd_repeat){-1, 0};
	TP_VT_IOCTL(vt.fd, KDKBDREP, &r, "KDKBDREP -1, 0 (read)");
	if (r.delay != want_delay || r.period != want_period)
		atf_tc_fail("KDKBDREP read %d, %d after setting %d, %d", r.delay,
			    r.period, want_delay, want_period);
}

/* ---------------------------------------------------------------- keyboard signal */

TP_CASE_ROOT(sigaccept_rejects_bad_signals, TP_LINUX,
	"KDSIGACCEPT takes a signal number 1..64 but SIGKILL: 0, SIGKILL and "
	"65 fail with EINVAL, SIGUSR1 is accepted")
{
	struct tp_vt vt;

	tp_vt_open(tc, &vt);
	TP_VT_EXPECT_ERRNO(ioctl(vt.fd, KDSIGACCEPT, 0), EINVAL, "KDSIGACCEPT 0");
	TP_VT_EXPECT_ERRNO(ioctl(vt.fd, KDSIGACCEPT, SIGKILL), EINVAL, "KDSIGACCEPT SIGKILL");
	TP_VT_EXPECT_ERRNO(ioctl(vt.fd, KDSIGACCEPT, 65), EINVAL, "KDSIGACCEPT 65");
	TP_VT_EXPECT_ERRNO(ioctl(vt.fd, KDSIGACCEPT, SIGUSR1), 0, "KDSIGACCEPT SIGUSR1");
}

/* KEY_F12 in the plain table, and QEMU's name of the key. */
#define SPAWN_KEY 88
#define SPAWN_KEY_NAME "f12"

/* A handler, not a blocked signal: the signal goes to the process, and
 * any of its threads that does not block it may take it. */
static volatile sig_atomic_t got_usr1;

static void
on_usr1(int sig)
{
	(void)sig;
	got_usr1 = 1;
}

TP_CASE_ROOT(sigaccept_spawn_key_signals, TP_LINUX,
	"After KDSIGACCEPT SIGUSR1, a key mapped to K_SPAWNCONSOLE "
	"(KDSKBENT) sends SIGUSR1 to the process that asked, when typed on "
	"the foreground VT")
{
	struct tp_vt vt;

	open_vt(tc, &vt);
	tp_vt_require_keyboard(tc);
	struct sigaction sa = {.sa_handler = on_usr1};
	sigemptyset(&sa.sa_mask);
	if (sigaction(SIGUSR1, &sa, NULL) != 0)
		atf_tc_fail("sigaction SIGUSR1: %s", strerror(errno));
	saved.ent_old = (struct kbentry){.kb_table = K_NORMTAB, .kb_index = SPAWN_KEY,
					 .kb_value = kbent(vt.fd, K_NORMTAB, SPAWN_KEY)};
	saved.ent = true;
	struct kbentry e = saved.ent_old;
	e.kb_value = K_SPAWNCONSOLE;
	TP_VT_IOCTL(vt.fd, KDSKBENT, &e, "KDSKBENT F12 = K_SPAWNCONSOLE");
	TP_VT_IOCTL(vt.fd, KDSIGACCEPT, SIGUSR1, "KDSIGACCEPT SIGUSR1");
	if (got_usr1)
		atf_tc_fail("SIGUSR1 before the key was typed");
	tp_vt_key(SPAWN_KEY_NAME);
	long long end = tp_now_ms() + TP_WAIT_MS;
	int step = 0;
	tp_waiting_for("SIGUSR1 from the K_SPAWNCONSOLE key");
	while (!got_usr1) {
		if (tp_now_ms() > end)
			atf_tc_fail("no SIGUSR1 within %d ms of typing the key mapped "
				    "to K_SPAWNCONSOLE", TP_WAIT_MS);
		tp_backoff(&step);
	}
	tp_waiting_for("");
}

ATF_TP_ADD_TCS(tp)
{
	ATF_TP_ADD_TC(tp, kbent_tables_read_back);
	ATF_TP_ADD_TC(tp, kbsent_strings_read_back);
	ATF_TP_ADD_TC(tp, diacr_tables_read_back);
	ATF_TP_ADD_TC(tp, kbmeta_set_and_read_back);
	ATF_TP_ADD_TC(tp, keycode_table_read_back);
	ATF_TP_ADD_TC(tp, kbdrep_sets_and_reports_rate);
	ATF_TP_ADD_TC(tp, sigaccept_rejects_bad_signals);
	ATF_TP_ADD_TC(tp, sigaccept_spawn_key_signals);
	return atf_no_error();
}
