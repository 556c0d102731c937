// SPDX-License-Identifier: GPL-2.0-only
/* t_codes_erase.c: console_codes(4) erasing, inserting and deleting on a
 * VT, read back from /dev/vcsaN: ED 0/1/2, EL 0/1/2, ECH, DCH, ICH, IL, DL. */
#include <stdio.h>
#include <string.h>

#include "tp_vt.h"

/* A filled screen (row y all 'A'+y) with the cursor at column 10 of row 5
 * (0-based 9, 4), then seq written. */
static void
fill_and(const atf_tc_t *tc, struct tp_vt *vt, struct tp_screen *s,
	 const char *seq, const char *what)
{
	tp_vt_open(tc, vt);
	tp_vt_fill(vt, s);
	tp_vt_write(vt, "\033[5;10H", "CUP 5;10");
	tp_vt_write(vt, seq, what);
}

TP_CASE_ROOT(ed0_erases_cursor_to_end, TP_LINUX,
	"ESC [ J (ED 0) erases from the cursor, inclusive, to the end of the "
	"screen; what is before the cursor and the cursor itself stay")
{
	struct tp_vt vt;
	struct tp_screen s;

	fill_and(tc, &vt, &s, "\033[J", "ED 0");
	tp_vt_wait_text(&vt, 4, 9, " ", &s, "the cursor's cell erased");
	tp_vt_expect_text(&s, 4, 0, "EEEEEEEEE", "row 5 before the cursor kept");
	tp_vt_expect_blank(&s, 4, 9, "row 5 from the cursor");
	for (int y = 5; y < s.rows; y++)
		tp_vt_expect_blank(&s, y, 0, "rows below the cursor");
	tp_vt_expect_text(&s, 3, 0, "DDDD", "row 4 kept");
	if (s.x != 9 || s.y != 4)
		atf_tc_fail("ED moved the cursor to %d,%d", s.x, s.y);
}

TP_CASE_ROOT(ed1_erases_start_to_cursor, TP_LINUX,
	"ESC [ 1 J (ED 1) erases from the start of the screen to the cursor, "
	"inclusive; the rest of the cursor's row and the rows below stay")
{
	struct tp_vt vt;
	struct tp_screen s;

	fill_and(tc, &vt, &s, "\033[1J", "ED 1");
	tp_vt_wait_text(&vt, 4, 0, "          E", &s, "row 5 erased up to the cursor");
	for (int y = 0; y < 4; y++)
		tp_vt_expect_blank(&s, y, 0, "rows above the cursor");
	tp_vt_expect_text(&s, 5, 0, "FFFF", "row 6 kept");
}

TP_CASE_ROOT(ed2_erases_whole_screen, TP_LINUX,
	"ESC [ 2 J (ED 2) erases the whole screen and leaves the cursor where "
	"it was")
{
	struct tp_vt vt;
	struct tp_screen s;

	fill_and(tc, &vt, &s, "\033[2J", "ED 2");
	tp_vt_wait_text(&vt, 0, 0, " ", &s, "row 1 erased");
	for (int y = 0; y < s.rows; y++)
		tp_vt_expect_blank(&s, y, 0, "every row");
	if (s.x != 9 || s.y != 4)
		atf_tc_fail("ED 2 moved the cursor to %d,%d", s.x, s.y);
}

TP_CASE_ROOT(el_erases_parts_of_the_line, TP_LINUX,
	"ESC [ K (EL 0) erases from the cursor to the end of the line, ESC [ 1 "
	"K from its start to the cursor, ESC [ 2 K the whole line; other rows "
	"stay, and erased cells take the current background colour")
{
	struct tp_vt vt;
	struct tp_screen s;

	fill_and(tc, &vt, &s, "\033[44m\033[K\033[0m", "blue background, EL 0");
	tp_vt_wait_text(&vt, 4, 0, "EEEEEEEEE ", &s, "row 5 erased from the cursor");
	tp_vt_expect_blank(&s, 4, 9, "row 5 after EL 0");
	tp_vt_expect_text(&s, 5, 0, "FFFFFFFFFFF", "row 6 kept");
	if (s.attr[4][9] != 0x17 || s.attr[4][s.cols - 1] != 0x17 ||
	    s.attr[4][8] != TP_VT_ATTR_DEFAULT)
		atf_tc_fail("erased cells have attribute 0x%02x (last 0x%02x), "
			    "kept ones 0x%02x: want 0x17 (grey on blue) and "
			    "0x%02x", s.attr[4][9], s.attr[4][s.cols - 1],
			    s.attr[4][8], TP_VT_ATTR_DEFAULT);
	tp_vt_write(&vt, "\033[6;10H\033[1K", "CUP 6;10, EL 1");
	tp_vt_wait_text(&vt, 5, 0, "          FFF", &s, "row 6 erased up to the cursor");
	tp_vt_write(&vt, "\033[7;10H\033[2K", "CUP 7;10, EL 2");
	tp_vt_wait_text(&vt, 6, 0, " ", &s, "row 7 erased");
	tp_vt_expect_blank(&s, 6, 0, "row 7 after EL 2");
	tp_vt_expect_text(&s, 7, 0, "HHHH", "row 8 kept");
	if (s.x != 9 || s.y != 6)
		atf_tc_fail("EL moved the cursor to %d,%d", s.x, s.y);
}

TP_CASE_ROOT(ech_erases_n_characters, TP_LINUX,
	"ESC [ n X (ECH) blanks n characters from the cursor without moving "
	"the rest of the line or the cursor, and never past the line's end")
{
	struct tp_vt vt;
	struct tp_screen s;
	char seq[32];

	fill_and(tc, &vt, &s, "\033[5X", "ECH 5");
	tp_vt_wait_text(&vt, 4, 8, "E     E", &s, "5 cells blanked at the cursor");
	if (s.x != 9 || s.y != 4)
		atf_tc_fail("ECH moved the cursor to %d,%d", s.x, s.y);
	snprintf(seq, sizeof seq, "\033[6;%dH\033[99X", s.cols - 1);
	tp_vt_write(&vt, seq, "ECH 99 two columns before the end of row 6");
	tp_vt_wait_text(&vt, 5, s.cols - 3, "F  ", &s, "blanked to the end only");
	tp_vt_expect_text(&s, 6, 0, "G", "row 7 untouched by the long ECH");
}

TP_CASE_ROOT(dch_ich_shift_the_line, TP_LINUX,
	"ESC [ n P (DCH) deletes n characters at the cursor, pulling the rest "
	"of the line left and blanking its end; ESC [ n @ (ICH) inserts n "
	"blanks, pushing the rest right and dropping what falls off the end")
{
	struct tp_vt vt;
	struct tp_screen s;

	tp_vt_open(tc, &vt);
	tp_vt_write(&vt, "0123456789\033[1;3H\033[2P", "digits, CUP 1;3, DCH 2");
	tp_vt_wait_text(&vt, 0, 0, "01456789  ", &s, "2 deleted at column 3");
	if (s.x != 2 || s.y != 0)
		atf_tc_fail("DCH moved the cursor to %d,%d", s.x, s.y);
	tp_vt_write(&vt, "\033[3@", "ICH 3");
	tp_vt_wait_text(&vt, 0, 0, "01   456789", &s, "3 blanks inserted at column 3");
	char seq[40];
	snprintf(seq, sizeof seq, "\033[2;%dHYZ\033[2;%dH\033[1@", s.cols - 1,
		 s.cols - 1);
	tp_vt_write(&vt, seq, "YZ at the end of row 2, ICH 1 before Y");
	tp_vt_wait_text(&vt, 1, s.cols - 2, " Y", &s, "Y pushed right, Z dropped");
	tp_vt_expect_blank(&s, 2, 0, "nothing pushed into row 3");
}

TP_CASE_ROOT(il_dl_shift_the_rows, TP_LINUX,
	"ESC [ n L (IL) inserts n blank rows at the cursor's row, pushing the "
	"rows below down and off the bottom; ESC [ n M (DL) deletes n rows, "
	"pulling the rows below up and blanking the bottom")
{
	struct tp_vt vt;
	struct tp_screen s;

	fill_and(tc, &vt, &s, "\033[2L", "IL 2");
	int rows = s.rows;
	tp_vt_wait_text(&vt, 6, 0, "EEEE", &s, "row 5 pushed down two rows");
	tp_vt_expect_blank(&s, 4, 0, "first inserted row");
	tp_vt_expect_blank(&s, 5, 0, "second inserted row");
	tp_vt_expect_text(&s, 3, 0, "DDDD", "row 4 above kept");
	char want[2] = {(char)('A' + (rows - 3) % 26), 0};
	tp_vt_expect_text(&s, rows - 1, 0, want, "the old third-last row is last");
	tp_vt_write(&vt, "\033[3M", "DL 3");
	tp_vt_wait_text(&vt, 4, 0, "FFFF", &s, "rows pulled up over the deleted ones");
	tp_vt_expect_text(&s, 3, 0, "DDDD", "row 4 above kept");
	for (int y = rows - 3; y < rows; y++)
		tp_vt_expect_blank(&s, y, 0, "blank rows at the bottom after DL");
}

TP_CASE_ROOT(irm_insert_mode_shifts_the_line, TP_LINUX,
	"ESC [ 4 h (IRM, insert mode) makes each character drawn push the rest "
	"of the line one cell right, the last cell dropped; ESC [ 4 l "
	"(replace mode) overwrites again")
{
	struct tp_vt vt;
	struct tp_screen s;

	tp_vt_open(tc, &vt);
	tp_vt_write(&vt, "abcdef\033[1;3H\033[4hXY", "abcdef, CUP 1;3, IRM on, XY");
	tp_vt_wait_text(&vt, 0, 0, "abXYcdef", &s, "XY inserted before c");
	tp_vt_expect_blank(&s, 0, 8, "the row after the shifted text");
	tp_vt_write(&vt, "\033[4l\033[1;1HZ", "IRM off, CUP 1;1, Z");
	tp_vt_wait_text(&vt, 0, 0, "ZbXYcdef", &s, "Z over a, nothing shifted");
	tp_vt_write(&vt, "\033[1;79H\033[4hQ", "CUP 1;79, IRM on, Q");
	tp_vt_wait_text(&vt, 0, 0, "ZbXYcdef", &s, "the start of the row kept");
	if (s.ch[0][78] != 'Q')
		atf_tc_fail("Q not at column 79: 0x%02x", s.ch[0][78]);
	tp_vt_write(&vt, "\033[4l", "IRM off");
}

ATF_TP_ADD_TCS(tp)
{
	ATF_TP_ADD_TC(tp, irm_insert_mode_shifts_the_line);
	ATF_TP_ADD_TC(tp, ed0_erases_cursor_to_end);
	ATF_TP_ADD_TC(tp, ed1_erases_start_to_cursor);
	ATF_TP_ADD_TC(tp, ed2_erases_whole_screen);
	ATF_TP_ADD_TC(tp, el_erases_parts_of_the_line);
	ATF_TP_ADD_TC(tp, ech_erases_n_characters);
	ATF_TP_ADD_TC(tp, dch_ich_shift_the_line);
	ATF_TP_ADD_TC(tp, il_dl_shift_the_rows);
	return atf_no_error();
}
