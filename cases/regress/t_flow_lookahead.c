// SPDX-License-Identifier: GPL-2.0-only
/* t_flow_lookahead.c: regressions.md #16: since 6.0 (6bb6fa6908eb) n_tty
 * acts on ^S/^Q still in the flip buffer while its input buffer is full
 * ("lookahead"); until b19ab7ee2c4c (6.10) the characters after the looked
 * ahead ones were taken at wrong offsets, duplicated or lost. */
#include <errno.h>
#include <string.h>
#include <termios.h>
#include <unistd.h>

#include "ttypot.h"

#define FILL 4200

static char want[FILL + 64], got[FILL + 64];

TP_CASE_COMMITS(lookahead_stream_minus_flow_chars, TP_LINUX, "6bb6fa6908eb",
		"b19ab7ee2c4c",
		"#16: raw slave with IXON; the master writes 4200 bytes (more "
		"than the 4096-byte input buffer) while nobody reads, then data "
		"with ^S/^Q in it; the slave reads exactly the input minus the "
		"flow characters, and output ends running")
{
	static const char tail[] = "ab\023cd\021ef\023gh\021ij\023kl\021mn";
	static char fill[FILL];
	struct tp_pty p;
	size_t n = 0;

	for (size_t i = 0; i < FILL; i++)
		fill[i] = (char)('A' + i % 26);
	tp_pty_open(&p, TP_RAW);
	tp_iflag(p.slave, IXON, 0);
	tp_set_nonblock(p.master, true);
	tp_write_all(p.master, fill, FILL, "4200 bytes nobody reads yet");
	tp_wait_fionread(p.slave, 4095, TP_WAIT_MS, "the input buffer full");
	tp_write_all(p.master, tail, sizeof(tail) - 1, "data with ^S/^Q");
	memcpy(want, fill, FILL);
	n = FILL;
	for (const char *c = tail; *c; c++)
		if (*c != '\023' && *c != '\021')
			want[n++] = *c;
	tp_read_exact(p.slave, got, n, 4096, "the whole stream");
	for (size_t i = 0; i < n; i++)
		if (got[i] != want[i])
			atf_tc_fail("byte %zu is 0x%02x, want 0x%02x (\"%s\" "
				    "around it)", i, (unsigned char)got[i],
				    (unsigned char)want[i],
				    tp_esc(got + (i > 8 ? i - 8 : 0), 16));
	tp_expect_quiet(p.slave, "bytes after the stream (duplicates)");
	ATF_CHECK_MSG(tp_can_write(p.slave), "output left stopped after the "
		      "last ^Q");
	tp_pty_close(&p);
}

TP_CASE_COMMITS(vstop_acts_while_input_full, TP_LINUX, "6bb6fa6908eb",
		"b19ab7ee2c4c",
		"#16: with the slave's input buffer full and unread, a ^S from "
		"the master still stops the slave's output (lookahead), and a ^Q "
		"restarts it; neither is read as data")
{
	static char fill[FILL];
	struct tp_pty p;
	int step = 0;

	memset(fill, 'f', sizeof(fill));
	tp_pty_open(&p, TP_RAW);
	tp_iflag(p.slave, IXON, 0);
	tp_set_nonblock(p.master, true);
	tp_write_all(p.master, fill, FILL, "fill the input");
	tp_wait_fionread(p.slave, 4095, TP_WAIT_MS, "the input buffer full");
	tp_write_str(p.master, "\023", "^S behind the full buffer");
	long long end = tp_now_ms() + TP_WAIT_MS;
	tp_waiting_for("output stopped by the looked-ahead ^S");
	while (tp_can_write(p.slave)) {
		if (tp_now_ms() > end)
			atf_tc_fail("^S behind a full input buffer did not stop "
				    "output within %d ms", TP_WAIT_MS);
		tp_backoff(&step);
	}
	tp_write_str(p.master, "\021z", "^Q z");
	tp_read_exact(p.slave, got, FILL + 1, 4096, "fill and z");
	ATF_CHECK_MSG(got[FILL] == 'z', "last byte 0x%02x, want z",
		      (unsigned char)got[FILL]);
	tp_expect_quiet(p.slave, "flow characters read as data");
	ATF_CHECK_MSG(tp_can_write(p.slave), "^Q did not restart output");
	tp_pty_close(&p);
}

ATF_TP_ADD_TCS(tp)
{
	ATF_TP_ADD_TC(tp, lookahead_stream_minus_flow_chars);
	ATF_TP_ADD_TC(tp, vstop_acts_while_input_full);
	return atf_no_error();
}
