// SPDX-License-Identifier: GPL-2.0-only
/* t_selection.c: the console's copy and paste (drivers/tty/vt/selection.c),
 * as gpm drives it: TIOCLINUX TIOCL_SETSEL selects cells of the foreground
 * VT by character, word or line and shows them in reverse video,
 * TIOCL_PASTESEL types the selected text into a VT's input, TIOCL_SELPOINTER
 * shows the mouse pointer by XORing the VT's complement mask (ESC [ ? a ; b
 * m) into one cell, and under mouse reporting TIOCL_SELMOUSEREPORT reports
 * a button instead of selecting.  The oracle is the screen (/dev/vcsaN) and
 * the bytes a paste or report puts in the VT's input.  The program is
 * exclusive: the selection acts on the foreground VT, one per machine. */
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tp_vt.h"

/* What the argument of TIOCL_SETSEL is: the subcode byte, then the
 * selection (unaligned, as the kernel reads it from p + 1). */
static int
setsel(int fd, int xs, int ys, int xe, int ye, int mode)
{
	struct tiocl_selection sel = {
		.xs = (unsigned short)xs, .ys = (unsigned short)ys,
		.xe = (unsigned short)xe, .ye = (unsigned short)ye,
		.sel_mode = (unsigned short)mode,
	};
	unsigned char arg[1 + sizeof sel];
	arg[0] = TIOCL_SETSEL;
	memcpy(arg + 1, &sel, sizeof sel);
	return ioctl(fd, TIOCLINUX, arg) == 0 ? 0 : errno;
}

static void
must_setsel(int fd, int xs, int ys, int xe, int ye, int mode, const char *what)
{
	int e = setsel(fd, xs, ys, xe, ye, mode);
	if (e != 0)
		atf_tc_fail("TIOCL_SETSEL %s (%d,%d)-(%d,%d) mode %d: %s", what,
			    xs, ys, xe, ye, mode, strerror(e));
}

/* The case's VT, for the exit handler: a highlight or pointer left on
 * the foreground VT would show in the next case's screen. */
static int sel_fd = -1;

static void
clear_at_exit(void)
{
	if (sel_fd >= 0)
		setsel(sel_fd, 1, 1, 1, 1, TIOCL_SELCLEAR);
}

/* Take a VT, make it the foreground one and draw rows of text from the
 * top-left corner (raw VT: "\r\n" between rows). */
static void
open_foreground(const atf_tc_t *tc, struct tp_vt *vt, const char *const *rows,
		int n)
{
	struct tp_screen s;
	tp_vt_open(tc, vt);
	tp_vt_activate(vt->num, "VT_ACTIVATE to the case's VT");
	sel_fd = vt->fd;
	atexit(clear_at_exit);
	for (int y = 0; y < n; y++) {
		if (y > 0)
			tp_vt_write(vt, "\r\n", "CR LF");
		tp_vt_write(vt, rows[y], "a row of text");
	}
	for (int y = 0; y < n; y++)
		tp_vt_wait_text(vt, y, 0, rows[y], &s, "the rows drawn");
}

static void
expect_attr_run(const struct tp_screen *s, int y, int x0, int x1,
		unsigned char want, const char *what)
{
	for (int x = x0; x <= x1; x++)
		if (s->attr[y][x] != want)
			atf_tc_fail("%s: row %d col %d attribute 0x%02x, want 0x%02x",
				    what, y + 1, x + 1, s->attr[y][x], want);
}

static void
paste_expect(struct tp_vt *vt, const char *want, const char *what)
{
	int r = tp_tioclinux(vt->fd, TIOCL_PASTESEL, NULL);
	if (r != 0)
		atf_tc_fail("TIOCL_PASTESEL (%s): %s", what, strerror(-r));
	tp_vt_expect_reply(vt, want, strlen(want), what);
}

TP_CASE_ROOT(selchar_highlights_and_pastes, TP_LINUX,
	"TIOCL_SETSEL TIOCL_SELCHAR selects the foreground VT's cells from "
	"(xs,ys) to (xe,ye), 1-based, shows them in reverse video (attribute "
	"0x07 becomes 0x70) and TIOCL_PASTESEL types their text into the VT's "
	"input; TIOCL_SELCLEAR takes the highlight off and keeps the text for "
	"a later paste")
{
	static const char *const rows[] = {"hello world"};
	struct tp_vt vt;
	struct tp_screen s;

	open_foreground(tc, &vt, rows, 1);
	must_setsel(vt.fd, 1, 1, 5, 1, TIOCL_SELCHAR, "\"hello\"");
	tp_vt_screen(vt.num, &s);
	expect_attr_run(&s, 0, 0, 4, 0x70, "selected");
	expect_attr_run(&s, 0, 5, 10, TP_VT_ATTR_DEFAULT, "not selected");
	tp_vt_expect_text(&s, 0, 0, "hello world", "the text under the highlight");
	paste_expect(&vt, "hello", "the selection pasted");

	must_setsel(vt.fd, 1, 1, 1, 1, TIOCL_SELCLEAR, "clear");
	tp_vt_screen(vt.num, &s);
	expect_attr_run(&s, 0, 0, 10, TP_VT_ATTR_DEFAULT, "after TIOCL_SELCLEAR");
	paste_expect(&vt, "hello", "the selection pasted after the clear");
}

TP_CASE_ROOT(selection_across_rows_ends_them_with_cr, TP_LINUX,
	"A selection that crosses the end of a row drops that row's trailing "
	"blanks and puts CR in their place; one that ends in a row's trailing "
	"blanks is taken to the end of the row, so it ends with CR; the "
	"corners may be given in either order")
{
	static const char *const rows[] = {"hello world", "second row"};
	struct tp_vt vt;

	open_foreground(tc, &vt, rows, 2);
	must_setsel(vt.fd, 7, 1, 3, 2, TIOCL_SELCHAR, "\"world\" to \"sec\"");
	paste_expect(&vt, "world\rsec", "two rows' selection");
	must_setsel(vt.fd, 20, 1, 7, 1, TIOCL_SELCHAR, "into the blanks, reversed");
	paste_expect(&vt, "world\r", "a selection ending in trailing blanks");
}

TP_CASE_ROOT(selword_and_selline_extend_the_selection, TP_LINUX,
	"TIOCL_SELWORD widens the selection to whole words, whose characters "
	"are by default letters, digits, '_', '-', '.' and '/'; TIOCL_SELLINE "
	"widens it to whole rows, pasted without trailing blanks and ending "
	"with CR")
{
	static const char *const rows[] = {"ls /usr/lib-x.so_1 now", "second row"};
	struct tp_vt vt;
	struct tp_screen s;

	open_foreground(tc, &vt, rows, 2);
	must_setsel(vt.fd, 9, 1, 9, 1, TIOCL_SELWORD, "a word from its middle");
	paste_expect(&vt, "/usr/lib-x.so_1", "the word around column 9");
	tp_vt_screen(vt.num, &s);
	expect_attr_run(&s, 0, 3, 17, 0x70, "the word selected");
	expect_attr_run(&s, 0, 18, 21, TP_VT_ATTR_DEFAULT, "after the word");
	must_setsel(vt.fd, 4, 2, 4, 2, TIOCL_SELLINE, "a line");
	paste_expect(&vt, "second row\r", "the row around column 4");
	tp_vt_screen(vt.num, &s);
	expect_attr_run(&s, 0, 0, 21, TP_VT_ATTR_DEFAULT, "the word's highlight gone");
	expect_attr_run(&s, 1, 0, s.cols - 1, 0x70, "the whole row selected");
}

/* The cell at column x (1-based) of row 1 must read as glyph ch, attr a. */
static void
expect_cell(struct tp_vt *vt, int x, unsigned char ch, unsigned char a,
	    const char *what)
{
	struct tp_screen s;
	tp_vt_screen(vt->num, &s);
	if (s.ch[0][x - 1] != ch || s.attr[0][x - 1] != a)
		atf_tc_fail("%s: cell (%d,1) glyph 0x%02x attribute 0x%02x, want "
			    "0x%02x 0x%02x", what, x, s.ch[0][x - 1],
			    s.attr[0][x - 1], ch, a);
}

TP_CASE_ROOT(pointer_xors_the_complement_mask, TP_LINUX,
	"TIOCL_SELPOINTER shows the pointer by XORing the VT's complement "
	"mask into one cell: by default 0x7700 on a colour VT (the colours "
	"complemented, the glyph kept); ESC [ ? a ; b m sets the mask to "
	"a << 8 | b (attribute and glyph bits), ESC [ ? 0 m gives the default "
	"back; a new pointer puts the old cell back, and so does "
	"TIOCL_SELCLEAR")
{
	static const char *const rows[] = {"hello"};
	struct tp_vt vt;

	open_foreground(tc, &vt, rows, 1);
	must_setsel(vt.fd, 1, 1, 1, 1, TIOCL_SELPOINTER, "pointer at 1,1");
	expect_cell(&vt, 1, 'h', 0x70, "pointer, default mask");
	must_setsel(vt.fd, 2, 1, 2, 1, TIOCL_SELPOINTER, "pointer at 2,1");
	expect_cell(&vt, 1, 'h', 0x07, "the cell the pointer left");
	expect_cell(&vt, 2, 'e', 0x70, "pointer moved, default mask");
	must_setsel(vt.fd, 1, 1, 1, 1, TIOCL_SELCLEAR, "clear");
	expect_cell(&vt, 2, 'e', 0x07, "after TIOCL_SELCLEAR");

	tp_vt_write(&vt, "\033[?112;1m", "ESC [ ? 112 ; 1 m");
	must_setsel(vt.fd, 3, 1, 3, 1, TIOCL_SELPOINTER, "pointer at 3,1");
	expect_cell(&vt, 3, 'l' ^ 1, 0x07 ^ 112, "pointer, mask 0x7001");
	tp_vt_write(&vt, "\033[?0m", "ESC [ ? 0 m");
	expect_cell(&vt, 3, 'l', 0x07, "the mask change took the pointer off");
	must_setsel(vt.fd, 3, 1, 3, 1, TIOCL_SELPOINTER, "pointer at 3,1 again");
	expect_cell(&vt, 3, 'l', 0x70, "pointer, default mask again");
}

TP_CASE_ROOT(mouse_reporting_turns_setsel_into_a_report, TP_LINUX,
	"With mouse reporting on (ESC [ ? 1000 h), TIOCL_SETSEL with "
	"TIOCL_SELMOUSEREPORT | button reports the button to the VT's reader "
	"as ESC [ M, 32 + button, 33 + column, 33 + row (0-based) and "
	"selects nothing; with reporting off it is no selection mode: EINVAL")
{
	static const char *const rows[] = {"hello"};
	struct tp_vt vt;
	struct tp_screen s;

	open_foreground(tc, &vt, rows, 1);
	tp_vt_write(&vt, "\033[?1000h", "ESC [ ? 1000 h");
	must_setsel(vt.fd, 3, 2, 3, 2, TIOCL_SELMOUSEREPORT | 1, "button 1 at 3,2");
	tp_vt_expect_reply(&vt, "\033[M!#\"", 6, "the mouse report");
	tp_vt_screen(vt.num, &s);
	expect_attr_run(&s, 0, 0, 4, TP_VT_ATTR_DEFAULT, "nothing selected");
	tp_vt_write(&vt, "\033[?1000l", "ESC [ ? 1000 l");
	int e = setsel(vt.fd, 3, 2, 3, 2, TIOCL_SELMOUSEREPORT | 1);
	if (e != EINVAL)
		atf_tc_fail("TIOCL_SELMOUSEREPORT without mouse reporting: %s, "
			    "want EINVAL", e ? strerror(e) : "success");
}

/* c as UTF-8 into p (Unicode's encoding, written out here as the oracle
 * for the kernel's); the number of bytes. */
static size_t
utf8_of(uint32_t c, char *p)
{
	if (c < 0x80) {
		p[0] = (char)c;
		return 1;
	}
	if (c < 0x800) {
		p[0] = (char)(0xc0 | c >> 6);
		p[1] = (char)(0x80 | (c & 0x3f));
		return 2;
	}
	if (c < 0x10000) {
		p[0] = (char)(0xe0 | c >> 12);
		p[1] = (char)(0x80 | (c >> 6 & 0x3f));
		p[2] = (char)(0x80 | (c & 0x3f));
		return 3;
	}
	p[0] = (char)(0xf0 | c >> 18);
	p[1] = (char)(0x80 | (c >> 12 & 0x3f));
	p[2] = (char)(0x80 | (c >> 6 & 0x3f));
	p[3] = (char)(0x80 | (c & 0x3f));
	return 4;
}

TP_CASE_ROOT(unicode_keyboard_pastes_utf8, TP_LINUX,
	"With the foreground VT's keyboard in K_UNICODE, a selection pastes "
	"the selected cells' characters in UTF-8, one to four bytes each "
	"(a, U+00E9, U+07FF, U+0800, U+2500, U+20AC, U+11041: every length "
	"and the boundaries between them), as /dev/vcsuN shows the cells; in "
	"K_XLATE it pastes one byte a cell, the VT's own 8-bit character "
	"(U+00E9 as Latin-1 0xE9)")
{
	static const char text[] = "a\xc3\xa9\xdf\xbf\xe0\xa0\x80\xe2\x94\x80"
				   "\xe2\x82\xac\xf0\x91\x81\x81z";
	static const uint32_t cells[] = {'a', 0xe9, 0x7ff, 0x800, 0x2500, 0x20ac,
					 0x11041, 'z'};
	enum { CELLS = sizeof cells / sizeof *cells };
	struct tp_vt vt;
	uint32_t u[CELLS];
	char want[4 * CELLS + 1];

	open_foreground(tc, &vt, NULL, 0);
	tp_vt_save_modes(&vt);
	TP_VT_IOCTL(vt.fd, KDSKBMODE, K_UNICODE, "KDSKBMODE K_UNICODE");
	/* A read of /dev/vcsuN in UTF-8 mode makes the VT keep every
	 * character as written, the ones its font cannot draw too. */
	tp_vt_write(&vt, "\033%G", "UTF-8 mode");
	tp_vt_unicode_row(vt.num, 0, u, CELLS);
	tp_vt_write(&vt, text, "a row of UTF-8");
	long long end = tp_now_ms() + TP_WAIT_MS;
	int step = 0, e;
	tp_waiting_for("the row drawn, as /dev/vcsu shows it");
	while ((e = tp_vt_unicode_row(vt.num, 0, u, CELLS)) != 0 || u[CELLS - 1] != 'z') {
		if (tp_now_ms() > end)
			atf_tc_fail("the UTF-8 row not on the screen: /dev/vcsu%d %s, last "
				    "cell U+%04X", vt.num, e ? strerror(e) : "read",
				    (unsigned)u[CELLS - 1]);
		tp_backoff(&step);
	}
	tp_waiting_for("");
	size_t len = 0;
	for (int i = 0; i < CELLS; i++) {
		if (u[i] != cells[i])
			atf_tc_fail("/dev/vcsu%d cell %d is U+%04X, U+%04X was written",
				    vt.num, i + 1, (unsigned)u[i], (unsigned)cells[i]);
		len += utf8_of(u[i], want + len);
	}
	want[len] = '\0';
	must_setsel(vt.fd, 1, 1, CELLS, 1, TIOCL_SELCHAR, "the UTF-8 row");
	paste_expect(&vt, want, "the selection in UTF-8 (K_UNICODE)");

	TP_VT_IOCTL(vt.fd, KDSKBMODE, K_XLATE, "KDSKBMODE K_XLATE");
	must_setsel(vt.fd, 1, 1, 2, 1, TIOCL_SELCHAR, "a and U+00E9");
	paste_expect(&vt, "a\xe9", "the selection in 8 bits (K_XLATE)");
}

ATF_TP_ADD_TCS(tp)
{
	ATF_TP_ADD_TC(tp, selchar_highlights_and_pastes);
	ATF_TP_ADD_TC(tp, selection_across_rows_ends_them_with_cr);
	ATF_TP_ADD_TC(tp, selword_and_selline_extend_the_selection);
	ATF_TP_ADD_TC(tp, pointer_xors_the_complement_mask);
	ATF_TP_ADD_TC(tp, mouse_reporting_turns_setsel_into_a_report);
	ATF_TP_ADD_TC(tp, unicode_keyboard_pastes_utf8);
	return atf_no_error();
}
