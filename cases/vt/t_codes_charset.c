// SPDX-License-Identifier: GPL-2.0-only
/* t_codes_charset.c: console_codes(4) character sets on a VT: UTF-8 mode
 * (ESC % G) against the legacy byte mode (ESC % @), and the G0/G1 tables
 * (ESC ( 0, ESC ) 0, SO, SI) with the VT100 line-drawing set.  UTF-8 cells
 * are read back as Unicode from /dev/vcsuN; legacy cells as glyph bytes of
 * /dev/vcsaN, in the default font's CP437 order (U+2500 is glyph 0xc4,
 * U+2502 is 0xb3). */
#include <errno.h>
#include <string.h>

#include "tp_vt.h"

static void
expect_unicode(int num, int y, const uint32_t *want, int n, const char *what)
{
	uint32_t got[16];
	int err = tp_vt_unicode_row(num, y, got, n);
	if (err != 0)
		atf_tc_fail("%s: read /dev/vcsu%d: %s", what, num, strerror(err));
	for (int i = 0; i < n; i++)
		if (got[i] != want[i])
			atf_tc_fail("%s: cell %d is U+%04X, want U+%04X", what, i,
				    got[i], want[i]);
}

static void
expect_glyphs(const struct tp_screen *s, int y, const unsigned char *want,
	      int n, const char *what)
{
	for (int i = 0; i < n; i++)
		if (s->ch[y][i] != want[i])
			atf_tc_fail("%s: col %d shows glyph 0x%02x, want 0x%02x",
				    what, i, s->ch[y][i], want[i]);
}

TP_CASE_ROOT(utf8_mode_decodes_sequences, TP_LINUX,
	"In UTF-8 mode (ESC % G) a multi-byte UTF-8 sequence is one character "
	"in one cell: C3 A9 is U+00E9, E2 94 80 is U+2500, and the cursor "
	"advances one column for each")
{
	struct tp_vt vt;
	struct tp_screen s;
	static const uint32_t want[] = {0xe9, 'x', 0x2500, 'y'};

	tp_vt_open(tc, &vt);
	tp_vt_write(&vt, "\033%G\xc3\xa9x\xe2\x94\x80y", "ESC % G, e-acute x U+2500 y");
	tp_vt_wait_cursor(&vt, 4, 0, &s, "cursor after 4 characters in 8 bytes");
	expect_unicode(vt.num, 0, want, 4, "the cells in Unicode");
}

TP_CASE_ROOT(legacy_mode_is_one_cell_per_byte, TP_LINUX,
	"After ESC % @ the console leaves UTF-8 mode: every byte is a cell (C3 "
	"A9 draws two), and /dev/vcsuN refuses to read (ENODATA) until ESC % G "
	"selects UTF-8 again")
{
	struct tp_vt vt;
	struct tp_screen s;
	uint32_t row[4];

	tp_vt_open(tc, &vt);
	tp_vt_write(&vt, "\033%@\xc3\xa9", "ESC % @, bytes C3 A9");
	tp_vt_wait_cursor(&vt, 2, 0, &s, "cursor after two bytes: two cells");
	int err = tp_vt_unicode_row(vt.num, 0, row, 4);
	if (err != ENODATA)
		atf_tc_fail("read /dev/vcsu%d in legacy mode: %s, want ENODATA",
			    vt.num, err ? strerror(err) : "success");
	tp_vt_write(&vt, "\033%Gz", "ESC % G, z");
	tp_vt_wait_text(&vt, 0, 2, "z", &s, "z drawn after ESC % G");
	err = tp_vt_unicode_row(vt.num, 0, row, 4);
	if (err != 0)
		atf_tc_fail("read /dev/vcsu%d in UTF-8 mode again: %s", vt.num,
			    strerror(err));
	if (row[2] != 'z')
		atf_tc_fail("vcsu cell 2 is U+%04X, want 'z'", row[2]);
}

TP_CASE_ROOT(g0_line_drawing_in_legacy_mode, TP_LINUX,
	"In legacy mode ESC ( 0 points G0 at the VT100 graphics table: 'q' "
	"and 'x' draw the horizontal and vertical line glyphs; ESC ( B points "
	"it back at Latin-1 and 'q' is a q again")
{
	struct tp_vt vt;
	struct tp_screen s;
	static const unsigned char want[] = {0xc4, 0xb3, 'q', 'x'};

	tp_vt_open(tc, &vt);
	tp_vt_write(&vt, "\033%@\033(0qx\033(Bqx", "legacy mode, G0 graphics qx, G0 Latin-1 qx");
	tp_vt_wait_cursor(&vt, 4, 0, &s, "cursor after four characters");
	expect_glyphs(&s, 0, want, 4, "line drawing, then Latin-1");
}

TP_CASE_ROOT(so_si_switch_between_g0_and_g1, TP_LINUX,
	"SO (^N) makes G1 current and SI (^O) G0; after a reset G1 is the "
	"VT100 graphics table, and ESC ) B points G1 at Latin-1")
{
	struct tp_vt vt;
	struct tp_screen s;
	static const unsigned char want[] = {'q', 0xc4, 'q', 'q'};

	tp_vt_open(tc, &vt);
	tp_vt_write(&vt, "\033%@q\016q\017q\033)B\016q\017",
		    "legacy mode: q, SO q, SI q, ESC ) B, SO q, SI");
	tp_vt_wait_cursor(&vt, 4, 0, &s, "cursor after four characters");
	expect_glyphs(&s, 0, want, 4, "G0, G1 graphics, G0, G1 Latin-1");
}

TP_CASE_ROOT(utf8_mode_ignores_g0_table, TP_LINUX,
	"In UTF-8 mode the bytes are decoded as UTF-8 and not mapped through "
	"G0: after ESC ( 0 a 'q' is still U+0071 on the screen")
{
	struct tp_vt vt;
	struct tp_screen s;
	static const uint32_t want[] = {'q', 0x2500};

	tp_vt_open(tc, &vt);
	tp_vt_write(&vt, "\033%G\033(0q\xe2\x94\x80\033(B", "UTF-8, G0 graphics, q U+2500");
	tp_vt_wait_cursor(&vt, 2, 0, &s, "cursor after two characters");
	expect_unicode(vt.num, 0, want, 2, "q untranslated, U+2500 as sent");
}

ATF_TP_ADD_TCS(tp)
{
	ATF_TP_ADD_TC(tp, utf8_mode_decodes_sequences);
	ATF_TP_ADD_TC(tp, legacy_mode_is_one_cell_per_byte);
	ATF_TP_ADD_TC(tp, g0_line_drawing_in_legacy_mode);
	ATF_TP_ADD_TC(tp, so_si_switch_between_g0_and_g1);
	ATF_TP_ADD_TC(tp, utf8_mode_ignores_g0_table);
	return atf_no_error();
}
