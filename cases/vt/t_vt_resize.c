// SPDX-License-Identifier: GPL-2.0-only
/* t_vt_resize.c: VT_RESIZE and VT_RESIZEX, which set the size of every
 * allocated VT, and TIOCSWINSZ, which sets one VT's.  The program is exclusive (the other cases read their
 * screens' sizes) and puts the size back at exit. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <unistd.h>

#include "tp_vt.h"

static int restore_fd = -1;
static struct vt_sizes size_before;

/* In atexit: no ATF calls, complaints on stderr. */
static void
restore_size(void)
{
	if (restore_fd >= 0 && ioctl(restore_fd, VT_RESIZE, &size_before) != 0)
		fprintf(stderr, "VT_RESIZE back to %ux%u: %s\n", size_before.v_cols,
			size_before.v_rows, strerror(errno));
}

/* Open a VT and note the size to put back. */
static void
open_vt(const atf_tc_t *tc, struct tp_vt *vt, struct tp_screen *s)
{
	int fd = tp_vt_open_restoring(tc, vt, restore_size);
	tp_vt_screen(vt->num, s);
	if (s->rows < 3 || s->cols < 3)
		atf_tc_fail("tty%d is %dx%d", vt->num, s->cols, s->rows);
	size_before = (struct vt_sizes){.v_rows = s->rows, .v_cols = s->cols};
	restore_fd = fd; /* the size to put back is known from here on */
}

/* Fail unless VT num's screen (/dev/vcsaN) is cols x rows. */
static void
expect_size(int num, int cols, int rows, const char *what)
{
	struct tp_screen s;
	tp_vt_screen(num, &s);
	if (s.cols != cols || s.rows != rows)
		atf_tc_fail("%s: tty%d is %dx%d, want %dx%d", what, num, s.cols, s.rows,
			    cols, rows);
}

TP_CASE_ROOT(resize_sets_every_vt, TP_LINUX,
	"VT_RESIZE sets the rows and columns of every allocated VT, the "
	"case's and tty1, as /dev/vcsaN reports them; a size above the "
	"console's limit (40000x40000 > VC_MAXROW/VC_MAXCOL) is made for no "
	"VT (EINVAL, or 0 where the ioctl does not report it)")
{
	struct tp_vt vt;
	struct tp_screen s;

	open_vt(tc, &vt, &s);
	struct vt_sizes small = {.v_rows = s.rows - 1, .v_cols = s.cols};
	if (ioctl(vt.fd, VT_RESIZE, &small) != 0)
		atf_tc_fail("VT_RESIZE to %dx%d: %s", s.cols, s.rows - 1, strerror(errno));
	expect_size(vt.num, s.cols, s.rows - 1, "after VT_RESIZE");
	expect_size(1, s.cols, s.rows - 1, "after VT_RESIZE");
	/* 6.12 says EINVAL; 6.1.0-57 returned 0 (2026-12-06) and resized
	 * nothing either: the size kept is the rule both keep */
	struct vt_sizes huge = {.v_rows = 40000, .v_cols = 40000};
	int e = tp_vt_errno_of(ioctl(vt.fd, VT_RESIZE, &huge));
	if (e != 0 && e != EINVAL)
		atf_tc_fail("VT_RESIZE to 40000x40000: %s, want EINVAL (or 0)",
			    strerror(e));
	expect_size(vt.num, s.cols, s.rows - 1, "after VT_RESIZE to 40000x40000");
	expect_size(1, s.cols, s.rows - 1, "after VT_RESIZE to 40000x40000");
	if (ioctl(vt.fd, VT_RESIZE, &size_before) != 0)
		atf_tc_fail("VT_RESIZE back to %dx%d: %s", s.cols, s.rows, strerror(errno));
	expect_size(vt.num, s.cols, s.rows, "after VT_RESIZE back");
}

TP_CASE_ROOT(resizex_checks_its_geometry, TP_LINUX,
	"VT_RESIZEX sets every VT's rows and columns like VT_RESIZE when no "
	"pixel geometry is given; rows that do not match v_vlin / v_clin, or "
	"a character cell higher than 32 (v_clin 33), fail with EINVAL and "
	"change nothing")
{
	struct tp_vt vt;
	struct tp_screen s;

	open_vt(tc, &vt, &s);
	struct vt_consize c = {.v_rows = s.rows - 1, .v_cols = s.cols};
	if (ioctl(vt.fd, VT_RESIZEX, &c) != 0)
		atf_tc_fail("VT_RESIZEX to %dx%d: %s", s.cols, s.rows - 1,
			    strerror(errno));
	expect_size(vt.num, s.cols, s.rows - 1, "after VT_RESIZEX");
	expect_size(1, s.cols, s.rows - 1, "after VT_RESIZEX");
	c = (struct vt_consize){.v_rows = 10, .v_cols = s.cols, .v_vlin = 400, .v_clin = 16};
	TP_VT_EXPECT_ERRNO(ioctl(vt.fd, VT_RESIZEX, &c), EINVAL,
		     "VT_RESIZEX of 10 rows with 400 / 16 pixel rows");
	c = (struct vt_consize){.v_rows = s.rows, .v_cols = s.cols, .v_vlin = 33 * s.rows,
				.v_clin = 33};
	TP_VT_EXPECT_ERRNO(ioctl(vt.fd, VT_RESIZEX, &c), EINVAL, "VT_RESIZEX with v_clin 33");
	expect_size(vt.num, s.cols, s.rows - 1, "after refused VT_RESIZEXs");
}

TP_CASE_ROOT(tiocswinsz_resizes_only_that_vt, TP_LINUX,
	"TIOCSWINSZ on a VT resizes that VT's screen (its /dev/vcsaN rows and "
	"columns, and TIOCGWINSZ) and no other VT's")
{
	struct tp_vt vt;
	struct tp_screen s;
	struct winsize ws;

	open_vt(tc, &vt, &s);
	struct winsize want = {.ws_row = (unsigned short)(s.rows - 2),
			       .ws_col = (unsigned short)(s.cols - 2)};
	if (ioctl(vt.fd, TIOCSWINSZ, &want) != 0)
		atf_tc_fail("TIOCSWINSZ %ux%u: %s", want.ws_col, want.ws_row,
			    strerror(errno));
	expect_size(vt.num, s.cols - 2, s.rows - 2, "after TIOCSWINSZ");
	if (ioctl(vt.fd, TIOCGWINSZ, &ws) != 0 || ws.ws_row != want.ws_row ||
	    ws.ws_col != want.ws_col)
		atf_tc_fail("TIOCGWINSZ %ux%u after TIOCSWINSZ %ux%u", ws.ws_col,
			    ws.ws_row, want.ws_col, want.ws_row);
	expect_size(1, s.cols, s.rows, "tty1 after the case's VT was resized");
}

ATF_TP_ADD_TCS(tp)
{
	ATF_TP_ADD_TC(tp, tiocswinsz_resizes_only_that_vt);
	ATF_TP_ADD_TC(tp, resize_sets_every_vt);
	ATF_TP_ADD_TC(tp, resizex_checks_its_geometry);
	return atf_no_error();
}
