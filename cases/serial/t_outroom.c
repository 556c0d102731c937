// SPDX-License-Identifier: GPL-2.0-only
/* t_outroom.c: the output room a UART leaves, byte for byte.  OPOST output
 * and echo take exactly the room they need; what does not fit waits.  A
 * pty counts its room in buffer chunks, so this is only exact on a serial
 * port: the 8250's transmit buffer is a byte FIFO (a page), and with
 * transmission suspended by tcflow(TCOOFF) nothing drains, so TIOCOUTQ and
 * O_NONBLOCK writes show the room exactly whatever the machine's load. */
#include <errno.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "tp_serial.h"

/* A's output fill is written with OPOST off, so that the bytes that fill
 * the buffer never go through the processing under test. */
static void
write_raw(int a, size_t len, const char *what)
{
	static char fill[1024];
	struct termios t;
	size_t done = 0;

	memset(fill, 'f', sizeof(fill));
	tp_tc_get(a, &t);
	tp_oflag(a, 0, OPOST);
	while (done < len) {
		size_t chunk = len - done < sizeof(fill) ? len - done : sizeof(fill);
		ssize_t n = write(a, fill, chunk);
		if (n != (ssize_t)chunk)
			atf_tc_fail("%s: write of %zu bytes after %zu returned "
				    "%zd (%s)", what, chunk, done, n,
				    n < 0 ? strerror(errno) : "short");
		done += chunk;
	}
	tp_tc_set(a, &t);
}

/* Suspend A's output and measure its transmit buffer: O_NONBLOCK writes
 * with OPOST off until EAGAIN.  Returns the capacity, the buffer emptied
 * again by tcflush(TCOFLUSH). */
static int
suspend_and_measure(const atf_tc_t *tc, int *a, int *b)
{
	static char buf[1024];
	struct termios t;
	/* The serial core's buffer is one page (UART_XMIT_SIZE); two pages
	 * accepted would be a runaway. */
	long limit = 2 * sysconf(_SC_PAGESIZE);
	int cap = 0;

	tp_serial_open_pair(tc, a, b, O_NONBLOCK);
	tp_tcflow(*a, TCOOFF, "TCOOFF on A");
	tp_tc_get(*a, &t);
	tp_oflag(*a, 0, OPOST);
	memset(buf, 'p', sizeof(buf));
	for (;;) {
		ATF_REQUIRE_MSG(cap <= limit, "%d bytes accepted by a port "
				"whose output is suspended", cap);
		ssize_t n = write(*a, buf, sizeof(buf));
		if (n < 0) {
			ATF_REQUIRE_EQ_MSG(errno, EAGAIN, "probe write: %s",
					   strerror(errno));
			break;
		}
		cap += (int)n;
	}
	tp_tc_set(*a, &t);
	ATF_REQUIRE_MSG(cap > 0, "a suspended port accepted nothing");
	ATF_REQUIRE_EQ_MSG(tp_uart_outq(*a), cap, "TIOCOUTQ %d after %d bytes "
			   "filled the buffer", tp_uart_outq(*a), cap);
	ATF_REQUIRE_EQ(tcflush(*a, TCOFLUSH), 0);
	return cap;
}

/* Fill A's buffer (with OPOST off) until it holds exactly `queued` bytes. */
static void
fill_to(int a, int queued)
{
	int now = tp_uart_outq(a);

	ATF_REQUIRE_MSG(now <= queued, "TIOCOUTQ %d, above the %d to fill to",
			now, queued);
	write_raw(a, (size_t)(queued - now), "the fill");
	ATF_REQUIRE_EQ_MSG(tp_uart_outq(a), queued, "TIOCOUTQ %d after filling "
			   "to %d", tp_uart_outq(a), queued);
}

/* An O_NONBLOCK write of the one byte c with `room` bytes left, when it
 * needs `need`: it takes all `need` bytes when they fit, else it fails
 * with EAGAIN and stores nothing. */
static void
expect_write_in_room(int a, int cap, char c, int room, int need,
		     const char *what)
{
	fill_to(a, cap - room);
	errno = 0;
	ssize_t n = write(a, &c, 1);
	int err = errno, queued = tp_uart_outq(a);
	if (room >= need) {
		ATF_CHECK_EQ_MSG(n, 1, "%s, %d bytes of room: write returned "
				 "%zd (%s)", what, room, n, strerror(err));
		ATF_CHECK_EQ_MSG(queued, cap - room + need, "%s, %d bytes of "
				 "room: TIOCOUTQ grew by %d, want %d", what,
				 room, queued - (cap - room), need);
	} else {
		ATF_CHECK_MSG(n == -1 && err == EAGAIN, "%s, %d bytes of room: "
			      "write returned %zd (%s), want -1 EAGAIN", what,
			      room, n, strerror(err));
		ATF_CHECK_EQ_MSG(queued, cap - room, "%s, %d bytes of room: "
				 "TIOCOUTQ grew by %d, want 0 (nothing "
				 "partial)", what, room, queued - (cap - room));
	}
	ATF_REQUIRE_EQ(tcflush(a, TCOFLUSH), 0);
}

/* Discard what A still holds and resume its output: nothing reaches B. */
static void
flush_and_resume(int a, int b)
{
	ATF_REQUIRE_EQ(tcflush(a, TCOFLUSH), 0);
	tp_tcflow(a, TCOON, "TCOON on A");
	tp_expect_quiet(b, "nothing reaches B (A's output was flushed)");
}

TP_CASE(onlcr_nl_takes_two_bytes_of_room, TP_LINUX,
	"With OPOST|ONLCR an O_NONBLOCK write of NL stores CR NL when exactly "
	"2 bytes of output room remain; with 1 it fails with EAGAIN and "
	"stores nothing (no lone CR)")
{
	int a, b;
	int cap = suspend_and_measure(tc, &a, &b);

	tp_oflag(a, OPOST | ONLCR, 0);
	expect_write_in_room(a, cap, '\n', 1, 2, "NL");
	expect_write_in_room(a, cap, '\n', 2, 2, "NL");
	flush_and_resume(a, b);
}

TP_CASE(xtabs_tab_takes_its_spaces_of_room, TP_LINUX,
	"With OPOST|TAB3 (XTABS) at column 3 an O_NONBLOCK write of TAB stores "
	"its 5 spaces when exactly 5 bytes of output room remain; with 4 it "
	"fails with EAGAIN and stores nothing (no partial run of spaces)")
{
	int a, b;
	int cap = suspend_and_measure(tc, &a, &b);

	tp_oflag(a, OPOST | TAB3, 0); /* TAB3 is all of TABDLY */
	/* The column moves with OPOST output only: the raw fill leaves it. */
	tp_write_str(a, "\rabc", "CR abc: column 3");
	ATF_REQUIRE_EQ(tcflush(a, TCOFLUSH), 0);
	expect_write_in_room(a, cap, '\t', 4, 5, "TAB at column 3");
	expect_write_in_room(a, cap, '\t', 5, 5, "TAB at column 3");
	flush_and_resume(a, b);
}

/* B sends `sent`; A, whose output holds `queued` bytes, reads `line`
 * (what is left of it after editing; n_tty processes the echo before a
 * reader can see the bytes), and then its output holds `want`. */
static void
echo_received(int a, int b, const char *sent, const char *line, int queued,
	      int want, const char *what)
{
	size_t len = strlen(line);
	char got[16];

	fill_to(a, queued);
	tp_write_str(b, sent, what);
	tp_uart_read_exact(a, got, len, TP_WAIT_MS, what);
	ATF_CHECK_MSG(memcmp(got, line, len) == 0, "%s: A read \"%s\", want "
		      "\"%s\"", what, tp_esc(got, len), tp_esc(line, len));
	ATF_CHECK_EQ_MSG(tp_uart_outq(a), want, "%s: TIOCOUTQ grew by %d, "
			 "want %d", what, tp_uart_outq(a) - queued, want - queued);
}

/* After tcflush(TCOFLUSH) A writes "w": its held echo goes out first, so
 * once A resumes B reads exactly `want` (the echo, then w). */
static void
next_write_sends(int a, int b, const char *want)
{
	size_t len = strlen(want);
	char got[16];

	ATF_REQUIRE_EQ(tcflush(a, TCOFLUSH), 0);
	tp_write_str(a, "w", "A's next write");
	ATF_CHECK_EQ_MSG(tp_uart_outq(a), (int)len, "TIOCOUTQ %d after the "
			 "write, want %zu (\"%s\")", tp_uart_outq(a), len, want);
	tp_tcflow(a, TCOON, "TCOON on A");
	tp_uart_read_exact(b, got, len, TP_WAIT_MS, "held echo and write on B");
	ATF_CHECK_MSG(memcmp(got, want, len) == 0, "B read \"%s\", want \"%s\"",
		      tp_esc(got, len), want);
	tp_expect_quiet(b, "nothing more on B");
}

TP_CASE(echo_takes_a_byte_of_room_each, TP_LINUX,
	"Echo takes one byte of output room per printable byte: with ECHO "
	"and 5 bytes of room left, 5 printable bytes received are all echoed "
	"(TIOCOUTQ grows by exactly 5), with OPOST off and with OPOST on")
{
	int a, b;
	int cap = suspend_and_measure(tc, &a, &b);

	tp_lflag(a, ECHO, 0);
	echo_received(a, b, "hello", "hello", cap - 5, cap, "5 bytes into 5 bytes "
		      "of room, OPOST off");
	ATF_REQUIRE_EQ(tcflush(a, TCOFLUSH), 0);
	tp_oflag(a, OPOST | ONLCR, 0);
	echo_received(a, b, "world", "world", cap - 5, cap, "5 bytes into 5 bytes "
		      "of room, OPOST on");
	flush_and_resume(a, b);
}

TP_CASE(echo_without_room_waits_for_next_write, TP_LINUX,
	"With ECHO and 1 byte of output room, of 2 bytes received the first "
	"is echoed and the second held, not dropped: after tcflush(TCOFLUSH) "
	"the next write sends the held echo first, then its own byte; with "
	"OPOST off and with OPOST on")
{
	int a, b;
	int cap = suspend_and_measure(tc, &a, &b);

	tp_lflag(a, ECHO, 0);
	echo_received(a, b, "xy", "xy", cap - 1, cap, "2 bytes into 1 byte of "
		      "room, OPOST off");
	next_write_sends(a, b, "yw");
	/* The same with OPOST, whose echoes go through output processing. */
	tp_tcflow(a, TCOOFF, "TCOOFF on A again");
	tp_oflag(a, OPOST | ONLCR, 0);
	echo_received(a, b, "uv", "uv", cap - 1, cap, "2 bytes into 1 byte of "
		      "room, OPOST on");
	next_write_sends(a, b, "vw");
}

TP_CASE(echoed_nl_under_onlcr_takes_two_bytes_of_room, TP_LINUX,
	"With ECHO and OPOST|ONLCR an echoed NL takes 2 bytes of output room "
	"(CR NL), as a written one: with 3 bytes left, of NL, x and y "
	"received the NL and x are echoed and y is held for the next write, "
	"not cut; with 1 byte left the NL is held whole (no lone CR) and goes "
	"out as CR NL before the next write's bytes")
{
	int a, b;
	int cap = suspend_and_measure(tc, &a, &b);

	/* Without ECHOCTL: with it a non-canonical NL echoes as ^J. */
	tp_lflag(a, ECHO, ECHOCTL);
	tp_oflag(a, OPOST | ONLCR, 0);
	echo_received(a, b, "\nxy", "\nxy", cap - 3, cap, "NL, x, y into 3 "
		      "bytes of room");
	next_write_sends(a, b, "yw");
	tp_tcflow(a, TCOOFF, "TCOOFF on A again");
	echo_received(a, b, "\n", "\n", cap - 1, cap - 1, "NL into 1 byte of "
		      "room");
	next_write_sends(a, b, "\r\nw");
}

TP_CASE(echoctl_control_takes_two_bytes_of_room, TP_LINUX,
	"With ECHO|ECHOCTL a control byte received is echoed as ^X when "
	"exactly 2 bytes of output room remain; with 1 it is held whole (no "
	"lone ^) and goes out as ^X before the next write's bytes")
{
	int a, b;
	int cap = suspend_and_measure(tc, &a, &b);

	tp_lflag(a, ECHO | ECHOCTL, 0);
	echo_received(a, b, "\002", "\002", cap - 2, cap, "^B into 2 bytes of room");
	ATF_REQUIRE_EQ(tcflush(a, TCOFLUSH), 0);
	echo_received(a, b, "\001", "\001", cap - 1, cap - 1, "^A into 1 byte of room");
	next_write_sends(a, b, "^Aw");
}

TP_CASE(echoe_tab_erase_takes_all_its_backspaces, TP_LINUX,
	"With ICANON|ECHO|ECHOE, erasing a TAB at column 0 echoes its 8 "
	"backspaces when exactly 8 bytes of output room remain; with 7 none "
	"is echoed (nor the NL after it) until the next write sends them all")
{
	int a, b;
	int cap = suspend_and_measure(tc, &a, &b);

	tp_set_cc(a, VERASE, 0177);
	tp_lflag(a, ICANON | ECHO | ECHOE, ECHOPRT);
	/* TAB (1), its erase (8), NL (1): 10 bytes echoed into 10. */
	echo_received(a, b, "\t\177\n", "\n", cap - 10, cap,
		      "TAB, erase, NL into 10 bytes of room");
	ATF_REQUIRE_EQ(tcflush(a, TCOFLUSH), 0);
	/* TAB (1), then 7 bytes for the erase's 8: it waits, NL behind it. */
	echo_received(a, b, "\t\177\n", "\n", cap - 8, cap - 7,
		      "TAB, erase, NL into 8 bytes of room");
	next_write_sends(a, b, "\b\b\b\b\b\b\b\b\nw");
}

TP_CASE(held_echoes_take_exactly_their_room_in_order, TP_LINUX,
	"Echoes held for want of room go out in order when room comes, each "
	"taking exactly its own: with OPOST|TAB3 and ECHO|ECHOCTL, held "
	"echoes of TABs (spaces to the next stop), letters, a control byte "
	"(the ^X pair) and two more letters, given room for all but the "
	"last letter, fill it exactly; the last is held for the next write, "
	"not lost")
{
	int a, b;
	int cap = suspend_and_measure(tc, &a, &b);
	static char sent[1024];

	/* The echoes' room, cap, is spent as 8 per TAB from column 0, 1 per
	 * letter, 2 for ^A and 1 for y: z finds none left. */
	int tabs = (cap - 3) / 8, letters = (cap - 3) % 8;
	int n = tabs + letters + 3;
	ATF_REQUIRE_MSG(n <= (int)sizeof sent, "a %d-byte buffer", cap);
	memset(sent, '\t', (size_t)tabs);
	memset(sent + tabs, 'p', (size_t)letters);
	memcpy(sent + tabs + letters, "\001yz", 3);

	tp_oflag(a, OPOST | TAB3, 0);
	tp_write_str(a, "\r", "CR: column 0");
	ATF_REQUIRE_EQ(tcflush(a, TCOFLUSH), 0);
	fill_to(a, cap);
	tp_lflag(a, ECHO | ECHOCTL, 0);
	/* With no room every echo is held, whatever reads B's bytes come in. */
	tp_serial_transfer(b, a, sent, (size_t)n, TP_WAIT_MS,
			   "TABs, letters, ^A, y, z from B, read on A");
	ATF_CHECK_EQ_MSG(tp_uart_outq(a), cap, "TIOCOUTQ %d with the echoes "
			 "held, want %d", tp_uart_outq(a), cap);

	/* A write with the room emptied sends the held echoes first: they
	 * fill it, and the write itself finds none. */
	ATF_REQUIRE_EQ(tcflush(a, TCOFLUSH), 0);
	errno = 0;
	ssize_t w = write(a, "w", 1);
	ATF_CHECK_MSG(w == -1 && errno == EAGAIN, "the write after the held "
		      "echoes: %zd (%s), want -1 EAGAIN (no room left)", w,
		      strerror(errno));
	ATF_CHECK_EQ_MSG(tp_uart_outq(a), cap, "TIOCOUTQ %d after the held "
			 "echoes went out, want %d", tp_uart_outq(a), cap);
	/* The link cannot carry a whole buffer (TP_SERIAL_WINDOW): what is
	 * left held is seen after a flush. */
	next_write_sends(a, b, "zw");
}

TP_CASE(tcflush_wakes_writer_asleep_for_room, TP_POSIX,
	"A blocking write of 8 bytes with 3 bytes of room stores 3 and "
	"sleeps; tcflush(TCOFLUSH) discards the buffer and wakes it, it "
	"stores the other 5 and returns 8, and only those 5 are sent")
{
	int a, b;
	int cap = suspend_and_measure(tc, &a, &b);
	struct tp_writer w;
	char got[5];

	fill_to(a, cap - 3);
	tp_set_nonblock(a, false);
	tp_writer_start(&w, a, "12345678", 8);
	tp_wait_blocked(w.child.pid, SYS_write, "writer asleep on a full A");
	ATF_CHECK_EQ_MSG(tp_uart_outq(a), cap, "TIOCOUTQ %d with the writer "
			 "asleep, want %d", tp_uart_outq(a), cap);
	ATF_REQUIRE_EQ(tcflush(a, TCOFLUSH), 0);
	tp_child_join(&w.child, TP_WAIT_MS, "the writer to finish after TCOFLUSH");
	ATF_CHECK_EQ_MSG(tp_uart_outq(a), 5, "TIOCOUTQ %d after the write "
			 "finished, want 5", tp_uart_outq(a));
	tp_tcflow(a, TCOON, "TCOON on A");
	tp_uart_read_exact(b, got, 5, TP_WAIT_MS, "the last 5 bytes on B");
	ATF_CHECK_MSG(memcmp(got, "45678", 5) == 0, "B read \"%s\", want "
		      "\"45678\"", tp_esc(got, 5));
	tp_expect_quiet(b, "nothing more on B");
}

ATF_TP_ADD_TCS(tp)
{
	ATF_TP_ADD_TC(tp, onlcr_nl_takes_two_bytes_of_room);
	ATF_TP_ADD_TC(tp, xtabs_tab_takes_its_spaces_of_room);
	ATF_TP_ADD_TC(tp, echo_takes_a_byte_of_room_each);
	ATF_TP_ADD_TC(tp, echo_without_room_waits_for_next_write);
	ATF_TP_ADD_TC(tp, echoed_nl_under_onlcr_takes_two_bytes_of_room);
	ATF_TP_ADD_TC(tp, echoctl_control_takes_two_bytes_of_room);
	ATF_TP_ADD_TC(tp, echoe_tab_erase_takes_all_its_backspaces);
	ATF_TP_ADD_TC(tp, held_echoes_take_exactly_their_room_in_order);
	ATF_TP_ADD_TC(tp, tcflush_wakes_writer_asleep_for_room);
	return atf_no_error();
}
