// SPDX-License-Identifier: GPL-2.0-only
/* t_codes_cursor.c: console_codes(4) cursor motion on a VT, read back from
 * /dev/vcsaN: CUP/HVP, CUU/CUD/CUF/CUB, CR, LF, BS, HT and tab stops
 * (HTS, TBC), autowrap, scrolling at the bottom and in a DECSTBM region,
 * DECSC/DECRC. */
#include <stdio.h>
#include <string.h>

#include "tp_vt.h"

TP_CASE_ROOT(cup_moves_to_row_and_column, TP_LINUX,
	"ESC [ row ; col H (CUP) and ESC [ row ; col f (HVP) put the cursor at "
	"the 1-based row and column; missing parameters are 1; positions past "
	"the screen are clamped to its last row and column")
{
	struct tp_vt vt;
	struct tp_screen s;

	tp_vt_open(tc, &vt);
	tp_vt_write(&vt, "\033[5;10H", "CUP 5;10");
	tp_vt_wait_cursor(&vt, 9, 4, &s, "cursor after CUP 5;10");
	tp_vt_write(&vt, "X", "a mark at the cursor");
	tp_vt_wait_text(&vt, 4, 9, "X", &s, "X drawn at row 5 col 10");
	tp_vt_write(&vt, "\033[H", "CUP without parameters");
	tp_vt_wait_cursor(&vt, 0, 0, &s, "cursor after CUP with no parameters");
	tp_vt_write(&vt, "\033[3H", "CUP 3");
	tp_vt_wait_cursor(&vt, 0, 2, &s, "cursor after CUP 3 (column defaults to 1)");
	tp_vt_write(&vt, "\033[7;2f", "HVP 7;2");
	tp_vt_wait_cursor(&vt, 1, 6, &s, "cursor after HVP 7;2");
	tp_vt_write(&vt, "\033[999;999H", "CUP past the screen");
	tp_vt_wait_cursor(&vt, s.cols - 1, s.rows - 1, &s,
			  "cursor clamped to the bottom right corner");
}

TP_CASE_ROOT(relative_moves_count_and_clamp, TP_LINUX,
	"CUU/CUD/CUF/CUB (ESC [ n A/B/C/D) move the cursor n rows up/down or "
	"columns right/left, a missing or 0 count moving 1, and stop at the "
	"screen's edges")
{
	struct tp_vt vt;
	struct tp_screen s;

	tp_vt_open(tc, &vt);
	tp_vt_write(&vt, "\033[10;10H\033[3A", "CUP 10;10, CUU 3");
	tp_vt_wait_cursor(&vt, 9, 6, &s, "cursor after CUU 3");
	tp_vt_write(&vt, "\033[B", "CUD without a count");
	tp_vt_wait_cursor(&vt, 9, 7, &s, "cursor after CUD (1)");
	tp_vt_write(&vt, "\033[5C", "CUF 5");
	tp_vt_wait_cursor(&vt, 14, 7, &s, "cursor after CUF 5");
	tp_vt_write(&vt, "\033[0D", "CUB 0");
	tp_vt_wait_cursor(&vt, 13, 7, &s, "cursor after CUB 0 (moves 1)");
	tp_vt_write(&vt, "\033[99D\033[99A", "CUB 99, CUU 99");
	tp_vt_wait_cursor(&vt, 0, 0, &s, "cursor stopped at the top left");
	tp_vt_write(&vt, "\033[999C\033[999B", "CUF 999, CUD 999");
	tp_vt_wait_cursor(&vt, s.cols - 1, s.rows - 1, &s,
			  "cursor stopped at the bottom right");
}

TP_CASE_ROOT(cr_lf_bs_control_characters, TP_LINUX,
	"CR returns to column 0; LF, VT and FF move one row down keeping the "
	"column (no newline mode); BS moves one column left and not past "
	"column 0, and the next character overwrites")
{
	struct tp_vt vt;
	struct tp_screen s;

	tp_vt_open(tc, &vt);
	tp_vt_write(&vt, "abc\bX", "abc, BS, X");
	tp_vt_wait_text(&vt, 0, 0, "abX ", &s, "X overwrote c");
	tp_vt_write(&vt, "\r", "CR");
	tp_vt_wait_cursor(&vt, 0, 0, &s, "cursor after CR");
	tp_vt_write(&vt, "\b\bY", "BS BS at column 0, Y");
	tp_vt_wait_text(&vt, 0, 0, "YbX", &s, "BS stopped at column 0");
	tp_vt_write(&vt, "\n", "LF at column 1");
	tp_vt_wait_cursor(&vt, 1, 1, &s, "cursor after LF (column kept)");
	tp_vt_write(&vt, "\v\f", "VT, FF");
	tp_vt_wait_cursor(&vt, 1, 3, &s, "cursor after VT and FF (one row each)");
}

TP_CASE_ROOT(tab_stops_hts_tbc3, TP_LINUX,
	"HT moves to the next tab stop (every 8 columns after a reset) or the "
	"last column; ESC H (HTS) sets a stop at the cursor; ESC [ 3 g (TBC 3) "
	"clears them all")
{
	struct tp_vt vt;
	struct tp_screen s;

	tp_vt_open(tc, &vt);
	tp_vt_write(&vt, "\tA\tB", "HT A HT B");
	tp_vt_wait_text(&vt, 0, 8, "A", &s, "A at the first default stop");
	tp_vt_expect_text(&s, 0, 16, "B", "B at the second default stop");
	tp_vt_write(&vt, "\r\033[4C\033H\r\t", "a stop at column 4 (HTS), CR, HT");
	tp_vt_wait_cursor(&vt, 4, 0, &s, "HT to the new stop at column 4");
	tp_vt_write(&vt, "\t", "HT from the new stop");
	tp_vt_wait_cursor(&vt, 8, 0, &s, "HT on to the default stop at 8");
	tp_vt_write(&vt, "\033[3g\r\t", "TBC 3, CR, HT");
	tp_vt_wait_cursor(&vt, s.cols - 1, 0, &s,
			  "HT to the last column with no stops");
}

/* The finding fixtures/findings/vt-tbc0-sets-tabstop: since the tab stops
 * became a bitmap (v5.9), CSI g sets the stop at the cursor instead of
 * clearing it.  Seeing exactly that fails with the finding's tag. */
#define TBC0_TAG "[finding vt-tbc0-sets-tabstop]"

TP_CASE_ROOT(tbc0_clears_the_stop_at_cursor, TP_LINUX,
	"ESC [ g (TBC 0) clears the tab stop at the cursor: HT then passes "
	"that column, and a column without a stop does not get one")
{
	struct tp_vt vt;
	struct tp_screen s;

	tp_vt_open(tc, &vt);
	tp_vt_write(&vt, "\033[9G\033[g\r\t", "CHA 9, TBC 0 on the stop at 8, CR, HT");
	tp_vt_screen(vt.num, &s);
	if (s.x == 8 && s.y == 0)
		atf_tc_fail(TBC0_TAG " HT stopped at column 8 after ESC [ g "
			    "cleared its stop (the stop was set, not cleared)");
	tp_vt_wait_cursor(&vt, 16, 0, &s, "HT past the cleared stop to 16");
	tp_vt_write(&vt, "\033[3G\033[g\r\t", "CHA 3, TBC 0 where no stop is, CR, HT");
	tp_vt_screen(vt.num, &s);
	if (s.x == 2 && s.y == 0)
		atf_tc_fail(TBC0_TAG " HT stopped at column 2 after ESC [ g "
			    "there (TBC 0 set a stop)");
	tp_vt_wait_cursor(&vt, 16, 0, &s, "HT to the next stop left, 16");
}

TP_CASE_ROOT(autowrap_on_and_off, TP_LINUX,
	"With autowrap (DECAWM, the default) a character written after the "
	"last column goes to the start of the next row; after ESC [ ? 7 l it "
	"overwrites the last column")
{
	struct tp_vt vt;
	struct tp_screen s;
	char cup[32];

	tp_vt_open(tc, &vt);
	tp_vt_screen(vt.num, &s);
	snprintf(cup, sizeof cup, "\033[1;%dHXY", s.cols);
	tp_vt_write(&vt, cup, "X in the last column, then Y");
	tp_vt_wait_text(&vt, 1, 0, "Y", &s, "Y wrapped to row 2");
	tp_vt_expect_text(&s, 0, s.cols - 1, "X", "X in the last column");
	tp_vt_write(&vt, "\033[?7l", "autowrap off");
	snprintf(cup, sizeof cup, "\033[4;%dHXZ", s.cols);
	tp_vt_write(&vt, cup, "X in the last column of row 4, then Z");
	tp_vt_wait_text(&vt, 3, s.cols - 1, "Z", &s, "Z over X, no wrap");
	tp_vt_expect_blank(&s, 4, 0, "row 5 untouched without autowrap");
	if (s.y != 3)
		atf_tc_fail("cursor left row 4 without autowrap: row %d", s.y);
}

TP_CASE_ROOT(lf_on_last_row_scrolls_up, TP_LINUX,
	"LF on the last row scrolls the screen up one row: the top row is "
	"gone, every row moves up, the new last row is blank and the cursor "
	"stays on the last row")
{
	struct tp_vt vt;
	struct tp_screen s;
	char cup[32];

	tp_vt_open(tc, &vt);
	tp_vt_fill(&vt, &s);
	int rows = s.rows;
	snprintf(cup, sizeof cup, "\033[%d;3H\n", rows);
	tp_vt_write(&vt, cup, "CUP to the last row, LF");
	tp_vt_wait_text(&vt, 0, 0, "BBB", &s, "row 2 moved to the top");
	for (int y = 0; y < rows - 1; y++) {
		char want[2] = {(char)('A' + (y + 1) % 26), 0};
		tp_vt_expect_text(&s, y, s.cols - 1, want, "rows moved up one");
	}
	tp_vt_expect_blank(&s, rows - 1, 0, "the new last row");
	if (s.x != 2 || s.y != rows - 1)
		atf_tc_fail("cursor at %d,%d after the scroll, want 2,%d", s.x,
			    s.y, rows - 1);
}

TP_CASE_ROOT(decstbm_scrolls_only_the_region, TP_LINUX,
	"ESC [ top ; bottom r (DECSTBM) sets a scrolling region and homes the "
	"cursor: LF on its bottom row scrolls only rows top..bottom, RI "
	"(ESC M) on its top row scrolls them down; rows outside stay")
{
	struct tp_vt vt;
	struct tp_screen s;

	tp_vt_open(tc, &vt);
	tp_vt_fill(&vt, &s);
	tp_vt_write(&vt, "\033[3;3H\033[5;10r", "CUP 3;3, region rows 5..10");
	tp_vt_wait_cursor(&vt, 0, 0, &s, "cursor homed by DECSTBM");
	tp_vt_write(&vt, "\033[10;1H\n", "CUP to the region's bottom, LF");
	tp_vt_wait_text(&vt, 4, 0, "FFF", &s, "region scrolled up: row 6 now row 5");
	tp_vt_expect_text(&s, 8, 0, "JJJ", "row 10 moved to row 9");
	tp_vt_expect_blank(&s, 9, 0, "the region's new bottom row");
	tp_vt_expect_text(&s, 3, 0, "DDD", "row 4, above the region, kept");
	tp_vt_expect_text(&s, 10, 0, "KKK", "row 11, below the region, kept");
	tp_vt_write(&vt, "\033[5;1H\033M", "CUP to the region's top, RI");
	tp_vt_wait_text(&vt, 5, 0, "FFF", &s, "region scrolled down: row 5 now row 6");
	tp_vt_expect_blank(&s, 4, 0, "the region's new top row");
	tp_vt_expect_text(&s, 3, 0, "DDD", "row 4 kept after RI");
	tp_vt_expect_text(&s, 9, 0, "JJJ", "row 9 moved back to the region's bottom");
	tp_vt_expect_text(&s, 10, 0, "KKK", "row 11 kept after RI");
	tp_vt_write(&vt, "\033[r", "region reset");
}

TP_CASE_ROOT(decsc_decrc_restore_cursor_and_attributes, TP_LINUX,
	"ESC 7 (DECSC) saves the cursor position and attributes and ESC 8 "
	"(DECRC) restores both; CSI s / CSI u save and restore the position")
{
	struct tp_vt vt;
	struct tp_screen s;

	tp_vt_open(tc, &vt);
	tp_vt_write(&vt, "\033[4;6H\033[7m\0337", "CUP 4;6, reverse, DECSC");
	tp_vt_write(&vt, "\033[1;1H\033[0mn", "CUP 1;1, SGR 0, n");
	tp_vt_write(&vt, "\0338R", "DECRC, R");
	tp_vt_wait_text(&vt, 3, 5, "R", &s, "R at the saved position");
	if (s.attr[3][5] == s.attr[0][0] || s.attr[0][0] != TP_VT_ATTR_DEFAULT)
		atf_tc_fail("R drawn with attribute 0x%02x, n with 0x%02x: the "
			    "reverse attribute was not restored", s.attr[3][5],
			    s.attr[0][0]);
	tp_vt_write(&vt, "\033[0m\033[10;20H\033[s\033[H\033[u", "CUP 10;20, CSI s, home, CSI u");
	tp_vt_wait_cursor(&vt, 19, 9, &s, "cursor back at 10;20 after CSI u");
}

ATF_TP_ADD_TCS(tp)
{
	ATF_TP_ADD_TC(tp, cup_moves_to_row_and_column);
	ATF_TP_ADD_TC(tp, relative_moves_count_and_clamp);
	ATF_TP_ADD_TC(tp, cr_lf_bs_control_characters);
	ATF_TP_ADD_TC(tp, tab_stops_hts_tbc3);
	ATF_TP_ADD_TC(tp, tbc0_clears_the_stop_at_cursor);
	ATF_TP_ADD_TC(tp, autowrap_on_and_off);
	ATF_TP_ADD_TC(tp, lf_on_last_row_scrolls_up);
	ATF_TP_ADD_TC(tp, decstbm_scrolls_only_the_region);
	ATF_TP_ADD_TC(tp, decsc_decrc_restore_cursor_and_attributes);
	return atf_no_error();
}
