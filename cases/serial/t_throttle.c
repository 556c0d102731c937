// SPDX-License-Identifier: GPL-2.0-only
/* t_throttle.c: input flow control of a UART nobody reads.  When n_tty's
 * 4 KiB read buffer is nearly full it throttles the tty (tty_throttle_safe),
 * and the serial core tells the peer to stop: a STOP character with IXOFF,
 * RTS dropped with CRTSCTS (uart_throttle); once the reader empties the
 * buffer it sends START or raises RTS again.  The peer's bytes are paced
 * by A's receive counter, so the link (which drops what overflows) never
 * loses any: everything is still read, intact, in the end. */
#include <errno.h>
#include <poll.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "tp_serial.h"

/* More than n_tty's buffer (N_TTY_BUF_SIZE, 4096): throttling must happen. */
#define FILL 4608
/* Bytes B sends before waiting for A's driver to take them. */
#define CHUNK 64

/* B sends len bytes to A, never more than CHUNK ahead of A's rx counter
 * (A's driver takes them off the UART whether or not anyone reads A);
 * what B receives meanwhile is appended to got (at most cap bytes). */
static void
paced_send(int a, int b, const char *data, size_t len, char *got,
	   size_t cap, size_t *ngot)
{
	struct serial_icounter_struct c0;

	tp_uart_icount(a, &c0);
	for (size_t sent = 0; sent < len; sent += CHUNK) {
		size_t n = len - sent < CHUNK ? len - sent : CHUNK;
		tp_write_all(b, data + sent, n, "a chunk from B");
		tp_uart_wait_rx(a, c0.rx + (int)(sent + n), "A's driver to take "
				"the chunk");
		int avail = tp_fionread(b);
		if (avail > 0 && *ngot < cap) {
			ssize_t r = read(b, got + *ngot, cap - *ngot);
			if (r > 0)
				*ngot += (size_t)r;
		}
	}
}

/* Read all len bytes on A and check them against data. */
static void
read_all_intact(int a, const char *data, size_t len)
{
	char *in = malloc(len);
	ATF_REQUIRE(in != NULL);
	tp_uart_read_exact(a, in, len, TP_WAIT_MS, "everything B sent, on A");
	for (size_t i = 0; i < len; i++)
		if (in[i] != data[i]) {
			atf_tc_fail_nonfatal("byte %zu of %zu read on A is "
					     "\"%s\", sent \"%s\"", i, len,
					     tp_esc(in + i, 1),
					     tp_esc(data + i, 1));
			break;
		}
	free(in);
}

/* Pattern bytes without STOP/START, so any on B came from A's ldisc. */
static char *
fill_data(void)
{
	char *d = malloc(FILL);
	ATF_REQUIRE(d != NULL);
	tp_pattern(d, FILL, 41);
	for (size_t i = 0; i < FILL; i++)
		if (d[i] == '\021' || d[i] == '\023')
			d[i] = 'x';
	return d;
}

TP_CASE(ixoff_stop_when_full_start_when_read, TP_POSIX,
	"With IXOFF, a UART whose input nobody reads sends one STOP character "
	"to the peer once its input queue is nearly full (4.5 KiB sent, 4 KiB "
	"queue), and one START once the reader has emptied the queue; every "
	"byte sent is read, in order")
{
	int a, b;
	char got[16];
	size_t ngot = 0;
	char *data = fill_data();

	tp_serial_open_pair(tc, &a, &b, 0);
	tp_iflag(a, IXOFF, IXON | IXANY);
	paced_send(a, b, data, FILL, got, sizeof(got), &ngot);
	/* The STOP may still be on its way. */
	if (ngot == 0) {
		tp_uart_read_exact(b, got, 1, TP_WAIT_MS, "STOP from A");
		ngot = 1;
	}
	ATF_CHECK_MSG(ngot == 1 && got[0] == '\023', "B received \"%s\" while "
		      "A's input filled, want one STOP (\\x13)",
		      tp_esc(got, ngot));
	read_all_intact(a, data, FILL);
	tp_uart_read_exact(b, got, 1, TP_WAIT_MS, "START from A after A read");
	ATF_CHECK_MSG(got[0] == '\021', "B received \"%s\" after A read "
		      "everything, want START (\\x11)", tp_esc(got, 1));
	tp_expect_quiet(b, "nothing more from A");
	free(data);
}

TP_CASE(crtscts_rts_drops_when_full, TP_POSIX,
	"With CRTSCTS, a UART whose input nobody reads drops RTS once its "
	"input queue is nearly full (4.5 KiB sent, 4 KiB queue) and raises it "
	"again once the reader has emptied the queue; nothing is sent to the "
	"peer for it and every byte sent is read, in order")
{
	int a, b;
	char got[16];
	size_t ngot = 0;
	char *data = fill_data();

	tp_serial_open_pair(tc, &a, &b, 0);
	tp_uart_cflag(a, CRTSCTS, 0);
	tp_uart_mbis(a, TIOCM_RTS);
	ATF_REQUIRE_MSG(tp_uart_mget(a) & TIOCM_RTS, "RTS is not up to start "
			"with: %s", tp_tiocm_str(tp_uart_mget(a)));
	paced_send(a, b, data, FILL, got, sizeof(got), &ngot);
	ATF_CHECK_MSG(tp_uart_wait_lines(a, TIOCM_RTS, 0, TP_WAIT_MS),
		      "A's RTS still up with its input full: %s",
		      tp_tiocm_str(tp_uart_mget(a)));
	ATF_CHECK_MSG(ngot == 0, "B received \"%s\"", tp_esc(got, ngot));
	read_all_intact(a, data, FILL);
	ATF_CHECK_MSG(tp_uart_wait_lines(a, TIOCM_RTS, TIOCM_RTS, TP_WAIT_MS),
		      "A's RTS still down after its input was read: %s",
		      tp_tiocm_str(tp_uart_mget(a)));
	tp_expect_quiet(b, "nothing from A");
	free(data);
}

ATF_TP_ADD_TCS(tp)
{
	ATF_TP_ADD_TC(tp, ixoff_stop_when_full_start_when_read);
	ATF_TP_ADD_TC(tp, crtscts_rts_drops_when_full);
	return atf_no_error();
}
