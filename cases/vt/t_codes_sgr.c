// SPDX-License-Identifier: GPL-2.0-only
/* t_codes_sgr.c: console_codes(4) SGR (ESC [ ... m) on a colour VT, read
 * back as the attribute bytes of /dev/vcsaN: background in the high
 * nibble, foreground in the low one (VGA colour order: ANSI red 1 is 4,
 * blue 4 is 1), 0x08 intensity, 0x80 blink. */
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "tp_vt.h"

/* Write each sequence followed by one character on row 1 from column 0 and
 * check the attribute each character was drawn with. */
struct sgr_step {
	const char *seq;
	unsigned char attr;
	const char *what;
};

static void
expect_attrs(struct tp_vt *vt, const struct sgr_step *st, int n)
{
	struct tp_screen s;
	char text[64];
	for (int i = 0; i < n; i++) {
		char one[48];
		snprintf(one, sizeof one, "%s%c", st[i].seq, 'a' + i);
		tp_vt_write(vt, one, st[i].what);
		text[i] = (char)('a' + i);
	}
	text[n] = '\0';
	tp_vt_wait_text(vt, 0, 0, text, &s, "every marked character drawn");
	for (int i = 0; i < n; i++)
		if (s.attr[0][i] != st[i].attr)
			atf_tc_fail("%s: attribute 0x%02x, want 0x%02x", st[i].what,
				    s.attr[0][i], st[i].attr);
}

TP_CASE_ROOT(sgr_reverse_swaps_colours, TP_LINUX,
	"SGR 7 (reverse) draws with foreground and background swapped and SGR "
	"27 ends it; reverse applies to the current colours")
{
	struct tp_vt vt;
	static const struct sgr_step st[] = {
		{"", 0x07, "default attribute"},
		{"\033[7m", 0x70, "SGR 7: grey on black reversed"},
		{"\033[27m", 0x07, "SGR 27: reverse off"},
		{"\033[31;7m", 0x40, "SGR 31;7: red reversed is black on red"},
		{"\033[0m", 0x07, "SGR 0"},
	};
	tp_vt_open(tc, &vt);
	expect_attrs(&vt, st, 5);
}

TP_CASE_ROOT(sgr_colours_set_fg_and_bg, TP_LINUX,
	"SGR 30-37 set the foreground and 40-47 the background (in VGA order "
	"in the attribute byte), 39 and 49 restore the defaults, 90-97 are "
	"the bright foregrounds")
{
	struct tp_vt vt;
	static const struct sgr_step st[] = {
		{"\033[31;42m", 0x24, "SGR 31;42: red on green"},
		{"\033[34;43m", 0x61, "SGR 34;43: blue on yellow"},
		{"\033[39m", 0x67, "SGR 39: default foreground, background kept"},
		{"\033[49m", 0x07, "SGR 49: default background"},
		{"\033[37;44m", 0x17, "SGR 37;44: grey on blue"},
		{"\033[0m\033[91m", 0x0c, "SGR 91: bright red"},
		{"\033[0m", 0x07, "SGR 0"},
	};
	tp_vt_open(tc, &vt);
	expect_attrs(&vt, st, 7);
}

TP_CASE_ROOT(sgr_bold_blink_and_resets, TP_LINUX,
	"SGR 1 (bold) sets the intensity bit and 22 clears it, SGR 5 (blink) "
	"sets the blink bit and 25 clears it; SGR 0 and an empty SGR reset "
	"every attribute")
{
	struct tp_vt vt;
	static const struct sgr_step st[] = {
		{"\033[1m", 0x0f, "SGR 1: bold"},
		{"\033[5m", 0x8f, "SGR 5 with bold: blink and bold"},
		{"\033[22m", 0x87, "SGR 22: normal intensity, blink kept"},
		{"\033[25m", 0x07, "SGR 25: blink off"},
		{"\033[1;5;7;31;44m", 0xc9, "SGR 1;5;7;31;44: red on blue 0x14 reversed 0x41, blink, bold"},
		{"\033[m", 0x07, "SGR with no parameter"},
		{"\033[1;32m\033[0m", 0x07, "SGR 0 after bold green"},
	};
	tp_vt_open(tc, &vt);
	expect_attrs(&vt, st, 7);
}

TP_CASE_ROOT(sgr_256_and_rgb_colours_nearest_of_16, TP_LINUX,
	"SGR 38;5;n and 48;5;n (the 256-colour palette) and 38;2;r;g;b and "
	"48;2;r;g;b (24-bit) set the colours to the console's nearest of its "
	"16: a foreground takes each of red, green and blue brighter than "
	"half its brightest, bold when that is above 0xaa (dark grey for a "
	"grey of 0x55 or less); a background takes each component of 0x80 or "
	"more")
{
	struct tp_vt vt;
	static const struct sgr_step st[] = {
		{"\033[0m\033[38;5;1m", 0x04, "38;5;1: palette red (0xaa) is red"},
		{"\033[0m\033[38;5;9m", 0x0c, "38;5;9: bright red (0xff,0x55,0x55) is bold red"},
		{"\033[0m\033[38;5;196m", 0x0c, "38;5;196: cube red (212,0,0) is bold red"},
		{"\033[0m\033[38;5;244m", 0x07, "38;5;244: grey 128 is light grey"},
		{"\033[0m\033[38;5;232m", 0x08, "38;5;232: grey 8 is dark grey"},
		{"\033[0m\033[38;2;0;128;0m", 0x02, "38;2;0;128;0 is green"},
		{"\033[0m\033[48;5;4m", 0x17, "48;5;4: palette blue background"},
		{"\033[0m\033[48;2;255;255;0m", 0x67, "48;2;255;255;0: brown background"},
		{"\033[0m", 0x07, "SGR 0"},
	};
	tp_vt_open(tc, &vt);
	expect_attrs(&vt, st, 9);
}

/* The case's VT, to put back the colours ESC [ n ] changed: RIS does not
 * reset them, and a later case gets the VT. */
static int colours_fd = -1;

static void
restore_vt_colours(void)
{
	/* vc_init's: underline cyan (ANSI 6), half-bright dark grey (8),
	 * the default light grey on black made default again. */
	static const char s[] = "\033[1;6]\033[2;8]\033[0;37;40m\033[8]\033[0m";
	if (colours_fd >= 0 && write(colours_fd, s, sizeof s - 1) < 0)
		colours_fd = -1;
}

TP_CASE_ROOT(private_csi_sets_underline_dim_and_default_colours, TP_LINUX,
	"The console's private CSI sequences set colours: ESC [ 1 ; n ] the "
	"colour underlined text is shown in, ESC [ 2 ; n ] the colour of "
	"half-bright (SGR 2) text, ESC [ 8 ] makes the current colours the "
	"default that SGR 0 gives back")
{
	struct tp_vt vt;
	static const struct sgr_step st[] = {
		{"\033[1;1]\033[4m", 0x04, "ESC [ 1 ; 1 ], SGR 4: underline shown red"},
		{"\033[0m\033[2;2]\033[2m", 0x02, "ESC [ 2 ; 2 ], SGR 2: half-bright shown green"},
		{"\033[0m\033[31;44m\033[8]\033[0m", 0x14, "ESC [ 8 ] after red on blue, SGR 0"},
	};
	colours_fd = tp_vt_open_restoring(tc, &vt, restore_vt_colours);
	expect_attrs(&vt, st, 3);
}

TP_CASE_ROOT(erase_after_ris_uses_default_attribute, TP_LINUX,
	"ESC c (RIS) resets the attributes: text drawn and cells erased after "
	"it have the default attribute, whatever SGR was in force")
{
	struct tp_vt vt;
	struct tp_screen s;

	tp_vt_open(tc, &vt);
	tp_vt_write(&vt, "\033[1;5;7;33;41m\033c", "SGR 1;5;7;33;41, RIS");
	tp_vt_write(&vt, "after\033[2;1H\033[K", "text, CUP 2;1, EL");
	tp_vt_wait_text(&vt, 0, 0, "after", &s, "text after RIS");
	for (int x = 0; x < 5; x++)
		if (s.attr[0][x] != TP_VT_ATTR_DEFAULT)
			atf_tc_fail("col %d drawn with 0x%02x after RIS", x,
				    s.attr[0][x]);
	for (int x = 0; x < s.cols; x++)
		if (s.attr[1][x] != TP_VT_ATTR_DEFAULT)
			atf_tc_fail("erased col %d of row 2 has 0x%02x after RIS",
				    x, s.attr[1][x]);
}

/* Fail unless row 0's first cells have the attributes want[0..n). */
static void
expect_row_attrs(const struct tp_screen *s, const unsigned char *want, int n,
		 const char *what)
{
	for (int x = 0; x < n; x++)
		if (s->attr[0][x] != want[x])
			atf_tc_fail("%s: column %d attribute 0x%02x, want 0x%02x", what,
				    x + 1, s->attr[0][x], want[x]);
}

TP_CASE_ROOT(decscnm_reverses_the_whole_screen, TP_LINUX,
	"ESC [ ? 5 h (DECSCNM) shows the whole screen in reverse video: every "
	"cell's colours swap, drawn or blank (red 0x04 becomes 0x40, grey "
	"0x07 0x70), text written after it is reversed too and SGR 7 then "
	"draws it normal; ESC [ ? 5 l swaps every cell back; the glyphs stay")
{
	struct tp_vt vt;
	struct tp_screen s;

	tp_vt_open(tc, &vt);
	tp_vt_write(&vt, "\033[31ma\033[0mb", "red a, grey b");
	tp_vt_wait_text(&vt, 0, 0, "ab", &s, "a and b drawn");
	static const unsigned char before[] = {0x04, 0x07, 0x07};
	expect_row_attrs(&s, before, 3, "before DECSCNM");
	tp_vt_write(&vt, "\033[?5hc\033[7md\033[0m", "DECSCNM on, c, reversed d");
	tp_vt_wait_text(&vt, 0, 0, "abcd", &s, "c and d drawn");
	static const unsigned char on[] = {0x40, 0x70, 0x70, 0x07, 0x70};
	expect_row_attrs(&s, on, 5, "under DECSCNM");
	tp_vt_write(&vt, "\033[?5l", "DECSCNM off");
	tp_vt_screen(vt.num, &s);
	tp_vt_expect_text(&s, 0, 0, "abcd", "the glyphs after DECSCNM off");
	static const unsigned char off[] = {0x04, 0x07, 0x07, 0x70, 0x07};
	expect_row_attrs(&s, off, 5, "after DECSCNM off");
}

ATF_TP_ADD_TCS(tp)
{
	ATF_TP_ADD_TC(tp, sgr_reverse_swaps_colours);
	ATF_TP_ADD_TC(tp, sgr_colours_set_fg_and_bg);
	ATF_TP_ADD_TC(tp, sgr_bold_blink_and_resets);
	ATF_TP_ADD_TC(tp, sgr_256_and_rgb_colours_nearest_of_16);
	ATF_TP_ADD_TC(tp, private_csi_sets_underline_dim_and_default_colours);
	ATF_TP_ADD_TC(tp, erase_after_ris_uses_default_attribute);
	ATF_TP_ADD_TC(tp, decscnm_reverses_the_whole_screen);
	return atf_no_error();
}
