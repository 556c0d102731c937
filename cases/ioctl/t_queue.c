// SPDX-License-Identifier: GPL-2.0-only
/* t_queue.c: the ioctls that count or discard queued bytes on a pty:
 * FIONREAD / TIOCINQ, TIOCOUTQ, TCFLSH, tcdrain, tcsetattr(TCSAFLUSH).
 * Bytes written to one side wait in two places on the other: the line
 * discipline's input queue (what FIONREAD counts, 4095 bytes at most in
 * non-canonical mode) and, once that is full, the tty's flip buffer behind
 * it.  The flushes differ in which of the two they discard. */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/ioctl.h>
#include <termios.h>
#include <unistd.h>

#include "ttypot.h"

#define BIG_WRITE 3000

static int
queued(int fd, unsigned long req)
{
	int n = -1;
	if (ioctl(fd, req, &n) != 0)
		atf_tc_fail("ioctl 0x%lx on fd %d: %s", req, fd,
			    strerror(errno));
	return n;
}

TP_CASE(fionread_tiocinq_count_raw_bytes, TP_LINUX,
	"On a raw slave FIONREAD and TIOCINQ both count the bytes the master "
	"wrote, and drop to 0 once they are read")
{
	struct tp_pty p;
	char buf[5];

	tp_pty_open(&p, TP_RAW);
	ATF_CHECK_EQ(queued(p.slave, FIONREAD), 0);
	tp_write_str(p.master, "12345", "five bytes");
	tp_wait_fionread(p.slave, 5, TP_WAIT_MS, "five bytes on the slave");
	ATF_CHECK_EQ(queued(p.slave, FIONREAD), 5);
	ATF_CHECK_EQ(queued(p.slave, TIOCINQ), 5);
	tp_read_exact(p.slave, buf, 5, 5, "the five bytes");
	ATF_CHECK_EQ(queued(p.slave, FIONREAD), 0);
	/* The other direction: the master counts what the slave wrote. */
	tp_write_str(p.slave, "abc", "slave write");
	tp_wait_fionread(p.master, 3, TP_WAIT_MS, "three bytes on the master");
	ATF_CHECK_EQ(queued(p.master, TIOCINQ), 3);
	tp_pty_close(&p);
}

TP_CASE(fionread_canonical_counts_complete_lines, TP_LINUX,
	"On a canonical slave FIONREAD counts only complete lines: \"ab\\ncd\" "
	"reads as 3 until the second line ends")
{
	struct tp_pty p;
	char echo[7];

	tp_pty_open(&p, TP_COOKED);
	tp_lflag(p.slave, ICANON | ECHO, 0);
	tp_oflag(p.slave, OPOST | ONLCR, 0);
	tp_write_str(p.master, "ab\ncd", "one line and a partial one");
	/* The echo of "cd" proves the ldisc has taken in every byte. */
	tp_read_exact(p.master, echo, 6, sizeof(echo), "echo ab\\r\\ncd");
	ATF_CHECK_EQ_MSG(queued(p.slave, FIONREAD), 3,
			 "FIONREAD with a partial line pending");
	tp_write_str(p.master, "\n", "end of the second line");
	tp_read_exact(p.master, echo, 2, sizeof(echo), "echo \\r\\n");
	ATF_CHECK_EQ(queued(p.slave, FIONREAD), 6);
	tp_pty_close(&p);
}

TP_CASE(tiocoutq_is_zero_on_pty, TP_LINUX,
	"TIOCOUTQ on both sides of a pty is 0 even with unread output: a pty "
	"has no driver output queue (writes go straight to the peer's input)")
{
	struct tp_pty p;
	char buf[BIG_WRITE];

	tp_pty_open(&p, TP_RAW);
	tp_pattern(buf, sizeof(buf), 1);
	tp_write_all(p.slave, buf, sizeof(buf), "slave output never read");
	tp_write_str(p.master, "xyz", "master output never read");
	tp_wait_fionread(p.master, BIG_WRITE, TP_WAIT_MS, "slave output queued");
	tp_wait_fionread(p.slave, 3, TP_WAIT_MS, "master output queued");
	ATF_CHECK_EQ(queued(p.slave, TIOCOUTQ), 0);
	ATF_CHECK_EQ(queued(p.master, TIOCOUTQ), 0);
	tp_pty_close(&p);
}

TP_CASE(tciflush_empties_slave_input, TP_POSIX,
	"tcflush(TCIFLUSH) on the slave discards its unread input: FIONREAD "
	"0 after, and the next bytes read are the ones written later")
{
	struct tp_pty p;
	char c;

	tp_pty_open(&p, TP_RAW);
	tp_write_str(p.master, "abc", "input to discard");
	tp_wait_fionread(p.slave, 3, TP_WAIT_MS, "input queued on the slave");
	ATF_REQUIRE(tcflush(p.slave, TCIFLUSH) == 0);
	ATF_CHECK_EQ(queued(p.slave, FIONREAD), 0);
	tp_write_str(p.master, "z", "input after the flush");
	tp_read_exact(p.slave, &c, 1, 1, "first byte after the flush");
	ATF_CHECK_MSG(c == 'z', "read '%c' after TCIFLUSH", c);
	tp_pty_close(&p);
}

TP_CASE(tcoflush_slave_keeps_delivered_output, TP_LINUX,
	"tcflush(TCOFLUSH) on the slave succeeds but does not discard output "
	"the master's line discipline already took in (Linux flushes only "
	"the master's flip buffer): the master still reads it, then new data")
{
	struct tp_pty p;
	char got[4];

	tp_pty_open(&p, TP_RAW);
	tp_write_str(p.slave, "abc", "slave output");
	tp_wait_fionread(p.master, 3, TP_WAIT_MS, "slave output on the master");
	ATF_REQUIRE(tcflush(p.slave, TCOFLUSH) == 0);
	ATF_CHECK_EQ(queued(p.master, FIONREAD), 3);
	tp_write_str(p.slave, "z", "slave output after the flush");
	tp_read_exact(p.master, got, 4, sizeof(got), "abc then z on the master");
	ATF_CHECK_MSG(memcmp(got, "abcz", 4) == 0, "master read \"%.4s\"", got);
	tp_pty_close(&p);
}

/* A non-canonical input queue holds N_TTY_BUF_SIZE - 1 bytes. */
#define INQ_MAX 4095
/* Enough to fill the queue and leave 2 KiB behind it: less than the
 * pty's flip buffer takes (8 KiB and more), so writes reach it or EAGAIN. */
#define FILL_CAP (INQ_MAX + 2048)
/* Not a pattern byte (those are '0'..'z'). */
#define MARKER '~'

static char fill_buf[FILL_CAP];

/* Write FILL_CAP pattern bytes (seed 3) to `from`, fewer if its writes
 * fail EAGAIN first, then wait until `to`'s input queue is full: the rest
 * waits in `to`'s flip buffer.  `to` must be non-canonical and both sides
 * must pass bytes unchanged.  Returns the bytes written. */
static size_t
fill_behind_full_queue(int from, int to)
{
	size_t total = 0;

	tp_pattern(fill_buf, sizeof(fill_buf), 3);
	tp_set_nonblock(from, true);
	while (total < sizeof(fill_buf)) {
		ssize_t n = write(from, fill_buf + total, sizeof(fill_buf) - total);
		if (n < 0 && errno == EAGAIN)
			break;
		ATF_REQUIRE_MSG(n > 0, "filling write: %s", strerror(errno));
		total += (size_t)n;
	}
	tp_set_nonblock(from, false);
	ATF_REQUIRE_MSG(total > INQ_MAX, "EAGAIN after %zu bytes: no more "
			"than one input queue", total);
	tp_wait_fionread(to, INQ_MAX, TP_WAIT_MS, "input queue full");
	return total;
}

/* fd's input queue holds exactly the first `n` pattern bytes, and nothing
 * follows them: a marker written after them by `from` is the next byte. */
static void
expect_queue_then_marker(int fd, int from, int n, const char *what)
{
	static char got[INQ_MAX];
	char c = 0, m = MARKER;

	ATF_CHECK_EQ_MSG(tp_fionread(fd), n, "%s: input queue length", what);
	tp_read_exact(fd, got, (size_t)n, sizeof(got), what);
	long bad = tp_pattern_check(got, (size_t)n, 3);
	ATF_CHECK_MSG(bad < 0, "%s: byte %ld differs from what was written",
		      what, bad);
	tp_write_all(from, &m, 1, "marker");
	tp_read_exact(fd, &c, 1, 1, "next byte");
	ATF_CHECK_MSG(c == MARKER, "%s: next byte read is '%s', not the marker:"
		      " bytes that waited behind the queue survived the flush",
		      what, tp_esc(&c, 1));
}

/* Fill `to` from `from` behind a full input queue, tcflush(flush_fd,
 * queue), and expect `to` to read the first `keep` bytes, then the marker. */
static void
flush_behind_full_queue(int from, int to, int flush_fd, int queue, int keep,
			const char *what)
{
	fill_behind_full_queue(from, to);
	ATF_REQUIRE_MSG(tcflush(flush_fd, queue) == 0, "%s: tcflush: %s", what,
			strerror(errno));
	expect_queue_then_marker(to, from, keep, what);
}

TP_CASE(master_tcoflush_discards_unreceived_input, TP_LINUX,
	"tcflush(master, TCOFLUSH) discards what the master wrote that the "
	"slave's line discipline has not yet received (its flip buffer, "
	"behind a full non-canonical input queue) and keeps the 4095 bytes "
	"already queued: the slave reads those, then the next byte written")
{
	struct tp_pty p;

	tp_pty_open(&p, TP_RAW);
	flush_behind_full_queue(p.master, p.slave, p.master, TCOFLUSH, INQ_MAX,
				"slave input after TCOFLUSH");
	tp_pty_close(&p);
}

TP_CASE(slave_tcoflush_discards_unreceived_output, TP_LINUX,
	"tcflush(slave, TCOFLUSH) discards what the slave wrote that the "
	"master's line discipline has not yet received and keeps the 4095 "
	"bytes already queued there: the master reads those, then the next "
	"byte written")
{
	struct tp_pty p;

	tp_pty_open(&p, TP_RAW);
	flush_behind_full_queue(p.slave, p.master, p.slave, TCOFLUSH, INQ_MAX,
				"master input after TCOFLUSH");
	tp_pty_close(&p);
}

TP_CASE(master_tcioflush_flushes_own_input_and_peer_flip, TP_LINUX,
	"tcflush(master, TCIOFLUSH) discards the master's own unread input "
	"and what it wrote that the slave has not received, but not the "
	"slave's input queue: the slave reads its 4095 bytes, then the next "
	"byte written")
{
	struct tp_pty p;

	tp_pty_open(&p, TP_RAW);
	tp_write_str(p.slave, "abc", "slave output");
	tp_wait_fionread(p.master, 3, TP_WAIT_MS, "slave output on the master");
	fill_behind_full_queue(p.master, p.slave);
	ATF_REQUIRE(tcflush(p.master, TCIOFLUSH) == 0);
	ATF_CHECK_EQ_MSG(tp_fionread(p.master), 0, "master input after "
			 "TCIOFLUSH");
	expect_queue_then_marker(p.slave, p.master, INQ_MAX,
				 "slave input after TCIOFLUSH");
	tp_pty_close(&p);
}

TP_CASE(slave_tciflush_discards_input_behind_full_queue, TP_POSIX,
	"tcflush(slave, TCIFLUSH) discards all input received and not read, "
	"the bytes waiting behind a full input queue too: the next byte the "
	"slave reads is one the master writes after the flush")
{
	struct tp_pty p;

	tp_pty_open(&p, TP_RAW);
	flush_behind_full_queue(p.master, p.slave, p.slave, TCIFLUSH, 0,
				"slave input after TCIFLUSH");
	tp_pty_close(&p);
}

TP_CASE(master_tciflush_keeps_slave_input, TP_LINUX,
	"tcflush(master, TCIFLUSH) discards only the master's own input: "
	"what the master wrote, queued or waiting behind the slave's full "
	"input queue, still reaches the slave in order")
{
	struct tp_pty p;
	static char got[FILL_CAP];

	tp_pty_open(&p, TP_RAW);
	size_t total = fill_behind_full_queue(p.master, p.slave);
	ATF_REQUIRE(tcflush(p.master, TCIFLUSH) == 0);
	tp_read_exact(p.slave, got, total, INQ_MAX, "all that was written");
	long bad = tp_pattern_check(got, total, 3);
	ATF_CHECK_MSG(bad < 0, "byte %ld of %zu differs from what was written",
		      bad, total);
	tp_pty_close(&p);
}

struct drain {
	int fd;
	bool flush_attr; /* tcsetattr(TCSAFLUSH) instead of tcdrain */
};

static int
drain_child(void *arg)
{
	struct drain *d = arg;
	struct termios t;
	if (d->flush_attr) {
		if (tcgetattr(d->fd, &t) != 0 ||
		    tcsetattr(d->fd, TCSAFLUSH, &t) != 0)
			return tp_child_fail("tcsetattr(TCSAFLUSH): %s",
					     strerror(errno));
	} else if (tcdrain(d->fd) != 0) {
		return tp_child_fail("tcdrain: %s", strerror(errno));
	}
	return 0;
}

/* Both calls wait for output to drain; run them in a child so that a
 * kernel where they block is a bounded failure, not a hung case. */
static void
run_drain(struct drain *d, const char *what)
{
	struct tp_child c;
	tp_child_start(&c, drain_child, d);
	tp_child_join(&c, TP_WAIT_MS, what);
}

TP_CASE(tcdrain_returns_with_unread_output, TP_LINUX,
	"tcdrain on the slave returns at once although the master never read "
	"its 3000 bytes: the pty has nothing of its own to drain")
{
	struct tp_pty p;
	char buf[BIG_WRITE];

	tp_pty_open(&p, TP_RAW);
	tp_pattern(buf, sizeof(buf), 2);
	tp_write_all(p.slave, buf, sizeof(buf), "slave output never read");
	struct drain d = {.fd = p.slave};
	run_drain(&d, "tcdrain on the slave");
	/* Draining consumed nothing: the bytes are still for the master. */
	tp_wait_fionread(p.master, BIG_WRITE, TP_WAIT_MS, "unread output kept");
	tp_pty_close(&p);
}

TP_CASE(tcsaflush_discards_pending_input, TP_POSIX,
	"tcsetattr(TCSAFLUSH) on the slave discards input received but not "
	"read, and later input is read normally")
{
	struct tp_pty p;
	char line[8];

	tp_pty_open(&p, TP_COOKED);
	tp_lflag(p.slave, ICANON, ECHO);
	tp_write_str(p.master, "pending\n", "line to discard");
	tp_wait_fionread(p.slave, 8, TP_WAIT_MS, "line queued on the slave");
	struct drain d = {.fd = p.slave, .flush_attr = true};
	run_drain(&d, "tcsetattr(TCSAFLUSH) on the slave");
	ATF_CHECK_EQ(queued(p.slave, FIONREAD), 0);
	tp_write_str(p.master, "new\n", "line after the flush");
	tp_read_exact(p.slave, line, 4, sizeof(line), "line after the flush");
	ATF_CHECK(memcmp(line, "new\n", 4) == 0);
	tp_pty_close(&p);
}

ATF_TP_ADD_TCS(tp)
{
	ATF_TP_ADD_TC(tp, fionread_tiocinq_count_raw_bytes);
	ATF_TP_ADD_TC(tp, fionread_canonical_counts_complete_lines);
	ATF_TP_ADD_TC(tp, tiocoutq_is_zero_on_pty);
	ATF_TP_ADD_TC(tp, tciflush_empties_slave_input);
	ATF_TP_ADD_TC(tp, tcoflush_slave_keeps_delivered_output);
	ATF_TP_ADD_TC(tp, master_tcoflush_discards_unreceived_input);
	ATF_TP_ADD_TC(tp, slave_tcoflush_discards_unreceived_output);
	ATF_TP_ADD_TC(tp, master_tcioflush_flushes_own_input_and_peer_flip);
	ATF_TP_ADD_TC(tp, slave_tciflush_discards_input_behind_full_queue);
	ATF_TP_ADD_TC(tp, master_tciflush_keeps_slave_input);
	ATF_TP_ADD_TC(tp, tcdrain_returns_with_unread_output);
	ATF_TP_ADD_TC(tp, tcsaflush_discards_pending_input);
	return atf_no_error();
}
