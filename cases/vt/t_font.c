// SPDX-License-Identifier: GPL-2.0-only
/* t_font.c: the console's font and character maps: KDFONTOP, the user
 * screen map (GIO_SCRNMAP/PIO_SCRNMAP, GIO_UNISCRNMAP/PIO_UNISCRNMAP), a
 * VT's Unicode to font map (GIO_UNIMAP/PIO_UNIMAP/PIO_UNIMAPCLR), the
 * colour palette (GIO_CMAP/PIO_CMAP) and VT_GETHIFONTMASK.  The font,
 * screen map and palette are global to every VT: the program is exclusive,
 * and each case puts back what it changed at exit, also when it fails. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <unistd.h>

#include "tp_vt.h"

/* A font of the console: at most 32 pixels wide and high, 512 glyphs,
 * each glyph's rows at a pitch of 32 (KD_FONT_OP_GET/SET). */
#define FONT_MAX_BYTES (4 * 32 * 512)
/* More than a Unicode map has pairs (the default has some 600). */
#define UNIMAP_MAX 65535

/* ---------------------------------------------------------------- putting back */

static struct {
	int fd;
	bool scrnmap, unimap, cmap;
	unsigned short scrnmap_old[E_TABSZ];
	struct unipair unimap_old[UNIMAP_MAX];
	unsigned short unimap_old_ct;
	unsigned char cmap_old[48];
} saved = {.fd = -1};

/* In atexit: no ATF calls, complaints on stderr. */
static void
restore_maps(void)
{
	int fd = saved.fd;
	if (saved.scrnmap && ioctl(fd, PIO_UNISCRNMAP, saved.scrnmap_old) != 0)
		fprintf(stderr, "restore the user screen map: %s\n", strerror(errno));
	if (saved.unimap) {
		struct unimapinit init = {0};
		struct unimapdesc d = {saved.unimap_old_ct, saved.unimap_old};
		if (ioctl(fd, PIO_UNIMAPCLR, &init) != 0 || ioctl(fd, PIO_UNIMAP, &d) != 0)
			fprintf(stderr, "restore the VT's Unicode map: %s\n", strerror(errno));
	}
	if (saved.cmap && ioctl(fd, PIO_CMAP, saved.cmap_old) != 0)
		fprintf(stderr, "restore the palette: %s\n", strerror(errno));
}

static void
open_vt(const atf_tc_t *tc, struct tp_vt *vt)
{
	saved.fd = tp_vt_open_restoring(tc, vt, restore_maps);
}

/* ---------------------------------------------------------------- the font */

/* KD_FONT_OP_GET into data (FONT_MAX_BYTES): 0 or the errno. */
static int
font_get(int fd, struct console_font_op *op, unsigned char *data)
{
	*op = (struct console_font_op){.op = KD_FONT_OP_GET, .width = 32,
				       .height = 32, .charcount = 512, .data = data};
	return tp_vt_errno_of(ioctl(fd, KDFONTOP, op));
}

TP_CASE_ROOT(fontop_refuses_bad_requests, TP_LINUX,
	"KDFONTOP fails with EINVAL for KD_FONT_OP_COPY (obsolete), with "
	"ENOSYS for an unknown op, and KD_FONT_OP_GET fails with EINVAL on a "
	"VT in KD_GRAPHICS")
{
	struct tp_vt vt;
	struct console_font_op op = {.op = KD_FONT_OP_COPY};
	static unsigned char data[FONT_MAX_BYTES];

	tp_vt_open(tc, &vt);
	TP_VT_EXPECT_ERRNO(ioctl(vt.fd, KDFONTOP, &op), EINVAL, "KDFONTOP KD_FONT_OP_COPY");
	op = (struct console_font_op){.op = 99};
	TP_VT_EXPECT_ERRNO(ioctl(vt.fd, KDFONTOP, &op), ENOSYS, "KDFONTOP op 99");
	tp_vt_save_modes(&vt);
	TP_VT_IOCTL(vt.fd, KDSETMODE, KD_GRAPHICS, "KDSETMODE KD_GRAPHICS");
	int e = font_get(vt.fd, &op, data);
	if (e != EINVAL)
		atf_tc_fail("KD_FONT_OP_GET in KD_GRAPHICS: %s, want EINVAL",
			    e ? strerror(e) : "success");
}

TP_CASE_ROOT(font_get_and_set_back, TP_LINUX,
	"KD_FONT_OP_GET gives the console's font (width 1..32, height 1..32, "
	"256 or 512 glyphs); a "
	"buffer for fewer glyphs fails with ENOSPC; KD_FONT_OP_SET of the "
	"same font succeeds and the font reads back equal")
{
	struct tp_vt vt;
	struct console_font_op op, again;
	static unsigned char font[FONT_MAX_BYTES], back[FONT_MAX_BYTES];

	tp_vt_open(tc, &vt);
	int e = font_get(vt.fd, &op, font);
	if (e == EINVAL || e == ENOSYS)
		atf_tc_skip("the console has no font to read (KD_FONT_OP_GET: %s): "
			    "vgacon on a CGA text window (QEMU without a VGA "
			    "device) or a console without font operations",
			    strerror(e));
	if (e)
		atf_tc_fail("KD_FONT_OP_GET: %s", strerror(e));
	if (op.width < 1 || op.width > 32 || op.height < 1 || op.height > 32 ||
	    (op.charcount != 256 && op.charcount != 512))
		atf_tc_fail("KD_FONT_OP_GET: %ux%u, %u glyphs", op.width, op.height,
			    op.charcount);
	again = (struct console_font_op){.op = KD_FONT_OP_GET, .width = 32,
					 .height = 32, .charcount = 128, .data = back};
	TP_VT_EXPECT_ERRNO(ioctl(vt.fd, KDFONTOP, &again), ENOSPC,
		     "KD_FONT_OP_GET into a buffer of 128 glyphs");

	struct console_font_op set = op;
	set.op = KD_FONT_OP_SET;
	set.flags = 0;
	set.data = font;
	TP_VT_IOCTL(vt.fd, KDFONTOP, &set, "KD_FONT_OP_SET of the same font");
	e = font_get(vt.fd, &again, back);
	if (e)
		atf_tc_fail("KD_FONT_OP_GET after the set: %s", strerror(e));
	size_t len = (op.width + 7) / 8 * 32 * op.charcount;
	if (again.width != op.width || again.height != op.height ||
	    again.charcount != op.charcount || memcmp(font, back, len) != 0)
		atf_tc_fail("the font read back differs: %ux%u %u glyphs, was "
			    "%ux%u %u", again.width, again.height, again.charcount,
			    op.width, op.height, op.charcount);
}

TP_CASE_ROOT(hifontmask_of_a_256_glyph_font, TP_LINUX,
	"VT_GETHIFONTMASK gives 0 on a console whose font has 256 glyphs or "
	"that cannot load a font (the glyph byte is the whole font index), "
	"0x100 with 512 glyphs")
{
	struct tp_vt vt;
	struct console_font_op op;
	static unsigned char font[FONT_MAX_BYTES];

	tp_vt_open(tc, &vt);
	int e = font_get(vt.fd, &op, font);
	unsigned short want = e == 0 && op.charcount == 512 ? 0x100 : 0;
	unsigned short mask = 0xffff;
	TP_VT_IOCTL(vt.fd, VT_GETHIFONTMASK, &mask, "VT_GETHIFONTMASK");
	if (mask != want)
		atf_tc_fail("VT_GETHIFONTMASK 0x%x, want 0x%x (KD_FONT_OP_GET: %s, "
			    "%u glyphs)", mask, want, e ? strerror(e) : "ok",
			    e ? 0 : op.charcount);
}

/* ---------------------------------------------------------------- screen map */

TP_CASE_ROOT(scrnmap_old_and_unicode_agree, TP_LINUX,
	"PIO_SCRNMAP sets the user screen map (G0 after ESC ( K) from bytes, "
	"which GIO_SCRNMAP reads back and GIO_UNISCRNMAP gives as font "
	"positions 0xF000 | byte; PIO_UNISCRNMAP sets it in Unicode and "
	"GIO_UNISCRNMAP reads it back; text in the user map is drawn with it")
{
	struct tp_vt vt;
	static unsigned char map[E_TABSZ], got[E_TABSZ];
	static unsigned short umap[E_TABSZ], ugot[E_TABSZ];

	open_vt(tc, &vt);
	TP_VT_IOCTL(vt.fd, GIO_UNISCRNMAP, saved.scrnmap_old, "GIO_UNISCRNMAP");
	saved.scrnmap = true;
	for (int i = 0; i < E_TABSZ; i++)
		map[i] = (unsigned char)(i ^ 0x20); /* 'a' <-> 'A' ... */
	TP_VT_IOCTL(vt.fd, PIO_SCRNMAP, map, "PIO_SCRNMAP");
	TP_VT_IOCTL(vt.fd, GIO_SCRNMAP, got, "GIO_SCRNMAP");
	if (memcmp(map, got, sizeof map) != 0)
		atf_tc_fail("GIO_SCRNMAP differs from PIO_SCRNMAP: byte 'a' maps to "
			    "0x%02x, want 0x%02x", got['a'], map['a']);
	TP_VT_IOCTL(vt.fd, GIO_UNISCRNMAP, ugot, "GIO_UNISCRNMAP");
	for (int i = 0; i < E_TABSZ; i++)
		if (ugot[i] != (0xf000 | map[i]))
			atf_tc_fail("GIO_UNISCRNMAP[0x%02x] 0x%04x after PIO_SCRNMAP, "
				    "want 0x%04x", i, ugot[i], 0xf000 | map[i]);

	/* ESC % @: legacy bytes; ESC ( K: G0 is the user map */
	struct tp_screen s;
	tp_vt_write(&vt, "\033%@\033(Kab\033(B", "text in the user map");
	tp_vt_wait_cursor(&vt, 2, 0, &s, "two cells drawn");
	if (s.ch[0][0] != 'A' || s.ch[0][1] != 'B')
		atf_tc_fail("\"ab\" in the user map drawn as 0x%02x 0x%02x, want "
			    "'A' 'B'", s.ch[0][0], s.ch[0][1]);

	for (int i = 0; i < E_TABSZ; i++)
		umap[i] = (unsigned short)(i < 0x80 ? 0xf000 | i : 0x2500 + (i & 0x7f));
	TP_VT_IOCTL(vt.fd, PIO_UNISCRNMAP, umap, "PIO_UNISCRNMAP");
	TP_VT_IOCTL(vt.fd, GIO_UNISCRNMAP, ugot, "GIO_UNISCRNMAP");
	if (memcmp(umap, ugot, sizeof umap) != 0)
		atf_tc_fail("GIO_UNISCRNMAP differs from PIO_UNISCRNMAP: [0x80] "
			    "0x%04x, want 0x%04x", ugot[0x80], umap[0x80]);
	TP_VT_IOCTL(vt.fd, GIO_SCRNMAP, got, "GIO_SCRNMAP");
	if (got['a'] != 'a')
		atf_tc_fail("GIO_SCRNMAP['a'] 0x%02x after PIO_UNISCRNMAP mapped it "
			    "to 0xF061, want 'a'", got['a']);
}

TP_CASE_ROOT(scrnmap_entry_of_u0000_is_a_control, TP_LINUX,
	"A byte that the user screen map (G0 after ESC ( K) maps to U+0000 is "
	"handled as the control character of its byte, never drawn: \"aQb\" "
	"with Q mapped to U+0000 shows \"ab\" with the cursor at column 2 (Q "
	"is no control: it does nothing), and in display-control mode (ESC [ "
	"11 m, which draws TAB as a glyph) a TAB mapped to U+0000 still moves "
	"to the next tab stop: \"a TAB b\" puts b at column 8")
{
	struct tp_vt vt;
	static unsigned short umap[E_TABSZ];

	open_vt(tc, &vt);
	TP_VT_IOCTL(vt.fd, GIO_UNISCRNMAP, saved.scrnmap_old, "GIO_UNISCRNMAP");
	saved.scrnmap = true;
	for (int i = 0; i < E_TABSZ; i++)
		umap[i] = (unsigned short)(0xf000 | i); /* straight to the font */
	umap['Q'] = 0x0000;
	umap['\t'] = 0x0000;
	TP_VT_IOCTL(vt.fd, PIO_UNISCRNMAP, umap, "PIO_UNISCRNMAP");

	struct tp_screen s;
	tp_vt_write(&vt, "\033%@\033(KaQb", "aQb in the user map");
	tp_vt_wait_cursor(&vt, 2, 0, &s, "the cursor after a and b alone");
	if (s.ch[0][0] != 'a' || s.ch[0][1] != 'b')
		atf_tc_fail("\"aQb\" with Q mapped to U+0000 drawn as 0x%02x 0x%02x, "
			    "want 'a' 'b'", s.ch[0][0], s.ch[0][1]);
	tp_vt_expect_blank(&s, 0, 2, "row 0 after \"ab\"");

	/* ESC [ 11 m selects the IBM PC map too: ESC ( K takes the user map
	 * back while display-control mode stays. */
	tp_vt_write(&vt, "\r\n\033[11m\033(Ka\tb\033[10m\033(B",
		    "a TAB b in display-control mode");
	tp_vt_wait_cursor(&vt, 9, 1, &s, "the cursor after a, the tab stop and b");
	if (s.ch[1][0] != 'a' || s.ch[1][8] != 'b')
		atf_tc_fail("\"a TAB b\" with TAB mapped to U+0000 shows 0x%02x at "
			    "column 0 and 0x%02x at column 8, want 'a' 'b'",
			    s.ch[1][0], s.ch[1][8]);
}

/* ---------------------------------------------------------------- Unicode map */

/* GIO_UNIMAP of the VT into pairs (UNIMAP_MAX), its count in *ct. */
static void
unimap_get(int fd, struct unipair *pairs, unsigned short *ct, const char *what)
{
	struct unimapdesc d = {UNIMAP_MAX, pairs};
	if (ioctl(fd, GIO_UNIMAP, &d) != 0)
		atf_tc_fail("GIO_UNIMAP (%s): %s", what, strerror(errno));
	*ct = d.entry_ct;
}

TP_CASE_ROOT(unimap_clear_set_and_read_back, TP_LINUX,
	"GIO_UNIMAP with too small a buffer fails with ENOMEM and says how "
	"many pairs there are; PIO_UNIMAPCLR empties the VT's Unicode map, "
	"PIO_UNIMAP adds pairs that GIO_UNIMAP reads back, and UTF-8 text is "
	"drawn with the font position a pair gives")
{
	struct tp_vt vt;
	static struct unipair got[UNIMAP_MAX];
	unsigned short ct;

	open_vt(tc, &vt);
	struct unimapdesc small = {0, NULL};
	TP_VT_EXPECT_ERRNO(ioctl(vt.fd, GIO_UNIMAP, &small), ENOMEM,
		     "GIO_UNIMAP with room for 0 pairs");
	unimap_get(vt.fd, saved.unimap_old, &saved.unimap_old_ct, "the VT's map");
	if (small.entry_ct != saved.unimap_old_ct || saved.unimap_old_ct == 0)
		atf_tc_fail("GIO_UNIMAP said %u pairs with room for 0, then gave %u",
			    small.entry_ct, saved.unimap_old_ct);
	saved.unimap = true;

	struct unimapinit init = {0};
	TP_VT_IOCTL(vt.fd, PIO_UNIMAPCLR, &init, "PIO_UNIMAPCLR");
	unimap_get(vt.fd, got, &ct, "after PIO_UNIMAPCLR");
	if (ct != 0)
		atf_tc_fail("%u pairs after PIO_UNIMAPCLR, want 0", ct);
	/* 'A' drawn with the glyph of 'B', 'B' with that of 'C' */
	struct unipair pairs[] = {{'A', 'B'}, {'B', 'C'}, {0x263a, 0x01}};
	struct unimapdesc d = {3, pairs};
	TP_VT_IOCTL(vt.fd, PIO_UNIMAP, &d, "PIO_UNIMAP of 3 pairs");
	unimap_get(vt.fd, got, &ct, "after PIO_UNIMAP");
	if (ct != 3)
		atf_tc_fail("%u pairs after PIO_UNIMAP of 3", ct);
	for (int i = 0; i < 3; i++) {
		bool found = false;
		for (int j = 0; j < 3; j++)
			found |= got[j].unicode == pairs[i].unicode &&
				 got[j].fontpos == pairs[i].fontpos;
		if (!found)
			atf_tc_fail("pair U+%04X -> 0x%02x not read back", pairs[i].unicode,
				    pairs[i].fontpos);
	}
	struct tp_screen s;
	tp_vt_write(&vt, "\033%GAB\xe2\x98\xba", "UTF-8 text with mapped characters");
	tp_vt_wait_cursor(&vt, 3, 0, &s, "three cells drawn");
	if (s.ch[0][0] != 'B' || s.ch[0][1] != 'C' || s.ch[0][2] != 0x01)
		atf_tc_fail("\"AB\\u263a\" drawn as glyphs 0x%02x 0x%02x 0x%02x, want "
			    "0x42 0x43 0x01", s.ch[0][0], s.ch[0][1], s.ch[0][2]);
}

/* ---------------------------------------------------------------- palette */

TP_CASE_ROOT(cmap_set_and_read_back, TP_LINUX,
	"PIO_CMAP sets the 16 colours of the default palette (red, green, "
	"blue bytes each) as GIO_CMAP reads them back")
{
	struct tp_vt vt;
	unsigned char map[48], got[48];

	open_vt(tc, &vt);
	TP_VT_IOCTL(vt.fd, GIO_CMAP, saved.cmap_old, "GIO_CMAP");
	saved.cmap = true;
	for (int i = 0; i < 48; i++)
		map[i] = (unsigned char)(saved.cmap_old[i] ^ (0x11 * (i % 7 + 1)));
	TP_VT_IOCTL(vt.fd, PIO_CMAP, map, "PIO_CMAP");
	TP_VT_IOCTL(vt.fd, GIO_CMAP, got, "GIO_CMAP");
	for (int i = 0; i < 48; i++)
		if (got[i] != map[i])
			atf_tc_fail("GIO_CMAP colour %d byte %d: 0x%02x, want 0x%02x",
				    i / 3, i % 3, got[i], map[i]);
}

ATF_TP_ADD_TCS(tp)
{
	ATF_TP_ADD_TC(tp, fontop_refuses_bad_requests);
	ATF_TP_ADD_TC(tp, font_get_and_set_back);
	ATF_TP_ADD_TC(tp, hifontmask_of_a_256_glyph_font);
	ATF_TP_ADD_TC(tp, scrnmap_old_and_unicode_agree);
	ATF_TP_ADD_TC(tp, scrnmap_entry_of_u0000_is_a_control);
	ATF_TP_ADD_TC(tp, unimap_clear_set_and_read_back);
	ATF_TP_ADD_TC(tp, cmap_set_and_read_back);
	return atf_no_error();
}
