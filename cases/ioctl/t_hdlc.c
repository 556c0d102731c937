// SPDX-License-Identifier: GPL-2.0-only
/* t_hdlc.c: the frame rules of the N_HDLC line discipline (n_hdlc.c's
 * header states them): a write() is one frame, sent raw and whole, one
 * longer than maxframe (4096) cut into frames; a read() returns one whole
 * frame; FIONREAD gives the size of the next frame, not the sum of all;
 * TCIFLUSH drops the frames not read; poll says POLLIN for a frame and
 * POLLHUP once the other side closed (a master's too, where only the
 * slave's close says so).  Frames written while the output is
 * stopped (TCOOFF) wait in n_hdlc's few transmit buffers: a writer finding
 * none free gets EAGAIN or sleeps, TIOCOUTQ is the next frame's size,
 * TCOFLUSH drops them and TCOON sends them in order.  On a pty: N_HDLC on the slave, the master an unframed byte
 * stream.  A frame is one receive call, so the master writes one frame and
 * the case waits for it before the next.  Needs the n_hdlc ldisc: skipped,
 * naming it, where TIOCSETD cannot load it. */
#include <errno.h>
#include <poll.h>
#include <signal.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/syscall.h>
#include <termios.h>
#include <unistd.h>

#include "ttypot.h"

#ifndef N_HDLC
#define N_HDLC 13
#endif
/* n_hdlc's maxframe module parameter, 4096 unless set at load. */
#define MAXFRAME 4096

static void
open_hdlc(struct tp_pty *p)
{
	tp_pty_open_ldisc(p, TP_RAW, N_HDLC, "N_HDLC",
			  "the n_hdlc line discipline (module n_hdlc)");
}

static void
close_hdlc(struct tp_pty *p)
{
	int ld = N_TTY;
	ioctl(p->slave, TIOCSETD, &ld);
	tp_pty_close(p);
}

/* A frame of len pattern bytes from the master, received by the slave (its
 * first frame queued: POLLIN). */
static void
send_frame(struct tp_pty *p, size_t len, unsigned seed)
{
	char f[MAXFRAME];

	tp_pattern(f, len, seed);
	tp_write_all(p->master, f, len, "a frame from the master");
	tp_wait_poll(p->slave, POLLIN, TP_WAIT_MS, "the frame on the slave");
}

static int
fionread(int fd)
{
	int n = -1;
	ATF_REQUIRE_MSG(ioctl(fd, FIONREAD, &n) == 0, "FIONREAD: %s", strerror(errno));
	return n;
}

TP_CASE(write_goes_out_raw_and_whole, TP_LINUX,
	"Each write() on an N_HDLC tty is one frame the driver gets whole and "
	"raw: frames of 2, 100 and 4096 (maxframe) bytes written on the slave, "
	"with OPOST and ONLCR set there, reach the master unchanged and in order "
	"(a newline stays one byte), each write() returning its count")
{
	static char want[2 + 100 + MAXFRAME], got[sizeof want];
	struct tp_pty p;
	struct termios t;
	const size_t len[] = { 2, 100, MAXFRAME };
	size_t at = 0;

	open_hdlc(&p);
	tp_tc_get(p.slave, &t);
	t.c_oflag |= OPOST | ONLCR;
	tp_tc_set(p.slave, &t);
	for (size_t i = 0; i < 3; i++) {
		tp_pattern(want + at, len[i], 11 + (unsigned)i);
		want[at + len[i] / 2] = '\n';
		ssize_t n = write(p.slave, want + at, len[i]);
		ATF_CHECK_MSG(n == (ssize_t)len[i], "write of a %zu-byte frame: %zd (%s)",
			      len[i], n, n < 0 ? strerror(errno) : "short");
		at += len[i];
	}
	tp_read_exact(p.master, got, at, 512, "the three frames on the master");
	ATF_CHECK_MSG(memcmp(got, want, at) == 0, "the master read other bytes than "
		      "the frames written");
	close_hdlc(&p);
}

TP_CASE(write_above_maxframe_goes_out_in_frames, TP_LINUX,
	"A write() longer than maxframe (4096 bytes) on an N_HDLC tty is not "
	"refused: n_hdlc takes its first 4096 bytes as a frame and the tty "
	"layer hands it the rest as the next, so write() returns all 4097 and "
	"the master reads the 4097 bytes in order")
{
	static char big[MAXFRAME + 1], got[MAXFRAME + 1];
	struct tp_pty p;

	open_hdlc(&p);
	tp_pattern(big, sizeof big, 12);
	ssize_t n = write(p.slave, big, sizeof big);
	ATF_CHECK_MSG(n == (ssize_t)sizeof big, "write of %zu bytes: %zd (%s)",
		      sizeof big, n, n < 0 ? strerror(errno) : "short");
	tp_read_exact(p.master, got, sizeof got, 512, "the 4097 bytes on the master");
	ATF_CHECK_MSG(tp_pattern_check(got, sizeof got, 12) < 0, "the master read "
		      "other bytes than were written");
	close_hdlc(&p);
}

TP_CASE(read_returns_one_frame, TP_LINUX,
	"A read() on an N_HDLC tty with room for more returns one frame whole: "
	"with a 100-byte and a 50-byte frame received, a read of 4096 returns "
	"the 100 bytes of the first, the next read the 50 of the second")
{
	char buf[MAXFRAME];
	struct tp_pty p;

	open_hdlc(&p);
	send_frame(&p, 100, 21);
	send_frame(&p, 50, 22);
	ssize_t n = read(p.slave, buf, sizeof buf);
	ATF_CHECK_MSG(n == 100 && tp_pattern_check(buf, 100, 21) < 0, "first read: "
		      "%zd (%s), want the 100-byte frame", n,
		      n < 0 ? strerror(errno) : "bytes");
	tp_wait_poll(p.slave, POLLIN, TP_WAIT_MS, "the second frame");
	n = read(p.slave, buf, sizeof buf);
	ATF_CHECK_MSG(n == 50 && tp_pattern_check(buf, 50, 22) < 0, "second read: "
		      "%zd (%s), want the 50-byte frame", n,
		      n < 0 ? strerror(errno) : "bytes");
	close_hdlc(&p);
}

TP_CASE(fionread_is_the_next_frame, TP_LINUX,
	"FIONREAD on an N_HDLC tty gives the size of the next frame: 0 with "
	"none, 100 with a 100-byte frame queued, and 0 again once it is read; "
	"TIOCOUTQ is 0 with nothing to send")
{
	char buf[MAXFRAME];
	struct tp_pty p;

	open_hdlc(&p);
	ATF_CHECK_EQ_MSG(fionread(p.slave), 0, "FIONREAD with no frame");
	send_frame(&p, 100, 31);
	ATF_CHECK_EQ_MSG(fionread(p.slave), 100, "FIONREAD with a 100-byte frame");
	ATF_CHECK_EQ(read(p.slave, buf, sizeof buf), 100);
	ATF_CHECK_EQ_MSG(fionread(p.slave), 0, "FIONREAD after the frame was read");
	int outq = -1;
	ATF_CHECK_MSG(ioctl(p.slave, TIOCOUTQ, &outq) == 0 && outq == 0,
		      "TIOCOUTQ: %d (%s), want 0", outq, strerror(errno));
	close_hdlc(&p);
}

TP_CASE(tciflush_drops_received_frames, TP_LINUX,
	"tcflush(TCIFLUSH) on an N_HDLC tty discards the frames received and "
	"not read: FIONREAD is 0, poll reports no POLLIN, and the next read "
	"returns the frame received after the flush")
{
	char buf[MAXFRAME];
	struct tp_pty p;

	open_hdlc(&p);
	send_frame(&p, 100, 41);
	ATF_REQUIRE_MSG(tcflush(p.slave, TCIFLUSH) == 0, "tcflush: %s", strerror(errno));
	ATF_CHECK_EQ_MSG(fionread(p.slave), 0, "FIONREAD after TCIFLUSH");
	ATF_CHECK_MSG(!(tp_poll1(p.slave, POLLIN, 0) & POLLIN), "POLLIN after TCIFLUSH");
	send_frame(&p, 30, 42);
	ssize_t n = read(p.slave, buf, sizeof buf);
	ATF_CHECK_MSG(n == 30 && tp_pattern_check(buf, 30, 42) < 0, "read after the "
		      "flush: %zd (%s), want the 30-byte frame sent after it", n,
		      n < 0 ? strerror(errno) : "bytes");
	close_hdlc(&p);
}

static int
read_a_frame(void *arg)
{
	int fd = *(int *)arg;
	char buf[MAXFRAME];
	ssize_t n = read(fd, buf, sizeof buf);
	if (n != 64 || tp_pattern_check(buf, 64, 51) >= 0)
		return tp_child_fail("blocking read: %zd (%s), want the 64-byte frame",
				     n, n < 0 ? strerror(errno) : "bytes");
	return 0;
}

TP_CASE(read_waits_for_a_frame, TP_LINUX,
	"On an N_HDLC tty with no frame a non-blocking read() fails with "
	"EAGAIN, and a blocking read() sleeps until a frame arrives and returns "
	"it whole")
{
	char buf[16];
	struct tp_pty p;
	struct tp_child c;

	open_hdlc(&p);
	tp_set_nonblock(p.slave, true);
	errno = 0;
	ssize_t n = read(p.slave, buf, sizeof buf);
	ATF_CHECK_MSG(n == -1 && errno == EAGAIN, "non-blocking read with no frame: "
		      "%zd (%s), want EAGAIN", n, n < 0 ? strerror(errno) : "bytes");
	tp_set_nonblock(p.slave, false);
	tp_child_start(&c, read_a_frame, &p.slave);
	tp_wait_blocked(c.pid, SYS_read, "the reader asleep in read(2), no frame yet");
	char f[64];
	tp_pattern(f, sizeof f, 51);
	tp_write_all(p.master, f, sizeof f, "the frame for the sleeping reader");
	tp_child_join(&c, TP_WAIT_MS, "the reader to return the frame");
	close_hdlc(&p);
}

TP_CASE(poll_reports_hangup_of_the_other_side, TP_LINUX,
	"poll() on an N_HDLC pty slave reports POLLOUT while it can take a "
	"frame, POLLIN once a frame is queued, and POLLHUP once the master is "
	"closed")
{
	struct tp_pty p;

	open_hdlc(&p);
	short ev = tp_poll1(p.slave, POLLIN | POLLOUT, 0);
	ATF_CHECK_MSG(ev == POLLOUT, "poll with nothing queued: %#x, want POLLOUT", ev);
	send_frame(&p, 10, 61);
	tp_close_master(&p);
	ev = tp_wait_poll(p.slave, POLLHUP, TP_WAIT_MS, "POLLHUP after the master's close");
	ATF_CHECK_MSG(ev & POLLHUP, "poll after the master closed: %#x", ev);
	int ld = N_TTY;
	ioctl(p.slave, TIOCSETD, &ld);
	tp_pty_close(&p);
}

TP_CASE(poll_reports_the_normal_band_bits, TP_LINUX,
	"poll() on an N_HDLC tty asked for every read and write bit reports "
	"POLLWRNORM with POLLOUT while it can take a frame, and POLLRDNORM "
	"with POLLIN once a frame is queued (no priority band: never POLLPRI "
	"or POLLRDBAND)")
{
	const short all = POLLIN | POLLRDNORM | POLLRDBAND | POLLPRI | POLLOUT |
			  POLLWRNORM;
	struct tp_pty p;

	open_hdlc(&p);
	short ev = tp_poll1(p.slave, all, 0);
	ATF_CHECK_MSG(ev == (POLLOUT | POLLWRNORM), "poll with nothing queued: "
		      "%#x, want POLLOUT|POLLWRNORM (%#x)", ev, POLLOUT | POLLWRNORM);
	send_frame(&p, 10, 62);
	ev = tp_poll1(p.slave, all, 0);
	ATF_CHECK_MSG(ev == (POLLIN | POLLRDNORM | POLLOUT | POLLWRNORM), "poll with "
		      "a frame queued: %#x, want POLLIN|POLLRDNORM|POLLOUT|POLLWRNORM "
		      "(%#x)", ev, POLLIN | POLLRDNORM | POLLOUT | POLLWRNORM);
	close_hdlc(&p);
}

TP_CASE(poll_on_a_master_reports_its_slave_closed, TP_LINUX,
	"poll() on an N_HDLC pty master reports POLLOUT while its slave is "
	"open and POLLHUP once the slave is closed (the other side closed; "
	"nothing hangs the master up)")
{
	struct tp_pty p;

	tp_pty_open(&p, TP_RAW);
	int ld = N_HDLC;
	if (ioctl(p.master, TIOCSETD, &ld) != 0)
		atf_tc_skip("TIOCSETD N_HDLC (%d) on a master failed: %s: needs the "
			    "n_hdlc line discipline (module n_hdlc)", N_HDLC,
			    strerror(errno));
	short ev = tp_poll1(p.master, POLLIN | POLLOUT, 0);
	ATF_CHECK_MSG(ev == POLLOUT, "poll on the master, slave open: %#x, want "
		      "POLLOUT", ev);
	tp_close_slave(&p);
	ev = tp_wait_poll(p.master, POLLHUP, TP_WAIT_MS,
			  "POLLHUP on the master after the slave's close");
	ATF_CHECK_MSG(ev & POLLHUP, "poll on the master after the slave closed: "
		      "%#x", ev);
	ld = N_TTY;
	ioctl(p.master, TIOCSETD, &ld);
	tp_pty_close(&p);
}

/* ---------------------------------------------------------------- frames waiting to go out */

/* With the slave's output stopped (TCOOFF: pty_write takes nothing), write
 * 100-byte frames (seeds 70, 71, ...) on the non-blocking slave until
 * n_hdlc has no free transmit buffer and fails EAGAIN; returns how many it
 * took.  The slave is left blocking. */
static int
fill_tx_queue(struct tp_pty *p)
{
	char f[100];
	int taken = 0;

	ATF_REQUIRE_EQ_MSG(tcflow(p->slave, TCOOFF), 0, "TCOOFF: %s", strerror(errno));
	tp_set_nonblock(p->slave, true);
	for (;;) {
		tp_pattern(f, sizeof f, 70 + (unsigned)taken);
		errno = 0;
		ssize_t n = write(p->slave, f, sizeof f);
		if (n == -1 && errno == EAGAIN)
			break;
		ATF_REQUIRE_MSG(n == (ssize_t)sizeof f, "write of frame %d with output "
				"stopped: %zd (%s)", taken, n,
				n < 0 ? strerror(errno) : "short");
		/* n_hdlc keeps a few transmit buffers (3 in 6.x) */
		ATF_REQUIRE_MSG(++taken <= 16, "16 frames taken with output stopped "
				"and no EAGAIN");
	}
	tp_set_nonblock(p->slave, false);
	return taken;
}

/* The master must read frames first .. first+n-1 (100 bytes each). */
static void
expect_frames(struct tp_pty *p, int first, int n, const char *what)
{
	char got[16 * 100];

	tp_read_exact(p->master, got, (size_t)n * 100, 512, what);
	for (int i = 0; i < n; i++)
		ATF_CHECK_MSG(tp_pattern_check(got + i * 100, 100,
					       70 + (unsigned)(first + i)) < 0,
			      "%s: bytes %d-%d are not frame %d", what, i * 100,
			      i * 100 + 99, first + i);
	tp_expect_quiet(p->master, "no more bytes on the master");
}

TP_CASE(stopped_output_queues_frames_until_restarted, TP_LINUX,
	"While an N_HDLC pty slave's output is stopped (TCOOFF) its frames "
	"wait: each write() of a 100-byte frame returns 100 until n_hdlc's "
	"transmit buffers are all taken, then a non-blocking write() fails "
	"EAGAIN; TIOCOUTQ is the next frame's 100 bytes, the master reads "
	"nothing; TCOON sends every waiting frame, whole and in order, and "
	"TIOCOUTQ reads 0 again")
{
	struct tp_pty p;
	int q = -1;

	open_hdlc(&p);
	int n = fill_tx_queue(&p);
	ATF_CHECK_MSG(n >= 1, "no frame taken before EAGAIN");
	ATF_CHECK_MSG(ioctl(p.slave, TIOCOUTQ, &q) == 0 && q == 100,
		      "TIOCOUTQ %d with frames waiting, want the next frame's 100", q);
	tp_expect_quiet(p.master, "nothing on the master while output is stopped");
	ATF_REQUIRE_EQ_MSG(tcflow(p.slave, TCOON), 0, "TCOON: %s", strerror(errno));
	expect_frames(&p, 0, n, "the waiting frames on the master after TCOON");
	ATF_CHECK_MSG(ioctl(p.slave, TIOCOUTQ, &q) == 0 && q == 0,
		      "TIOCOUTQ %d once the frames went out", q);
	close_hdlc(&p);
}

TP_CASE(tcoflush_discards_waiting_frames, TP_LINUX,
	"tcflush(TCOFLUSH) on an N_HDLC pty slave discards the frames waiting "
	"behind stopped output: TIOCOUTQ reads 0, TCOON sends none of them, "
	"and a frame written after the flush reaches the master alone")
{
	struct tp_pty p;
	char f[100];
	int q = -1;

	open_hdlc(&p);
	int n = fill_tx_queue(&p);
	ATF_REQUIRE_EQ_MSG(tcflush(p.slave, TCOFLUSH), 0, "TCOFLUSH: %s",
			   strerror(errno));
	ATF_CHECK_MSG(ioctl(p.slave, TIOCOUTQ, &q) == 0 && q == 0,
		      "TIOCOUTQ %d after TCOFLUSH", q);
	ATF_REQUIRE_EQ_MSG(tcflow(p.slave, TCOON), 0, "TCOON: %s", strerror(errno));
	tp_expect_quiet(p.master, "none of the flushed frames on the master");
	tp_pattern(f, sizeof f, 70 + (unsigned)n);
	tp_write_all(p.slave, f, sizeof f, "a frame after the flush");
	expect_frames(&p, n, 1, "the frame written after the flush");
	close_hdlc(&p);
}

/* A writer's descriptor, its frame's number (seed 70 + seed) and whether
 * its write must end with EINTR rather than return 100. */
struct waiting_writer {
	int fd, seed;
	bool want_eintr;
};

/* In a child: one blocking write of the frame, a SIGUSR1 handler without
 * SA_RESTART installed first. */
static int
write_a_frame(void *arg)
{
	const struct waiting_writer *w = arg;
	char f[100];
	int rc = tp_child_interruptible(SIGUSR1);

	if (rc != 0)
		return rc;
	tp_pattern(f, sizeof f, 70 + (unsigned)w->seed);
	errno = 0;
	ssize_t n = write(w->fd, f, sizeof f);
	if (w->want_eintr)
		return n == -1 && errno == EINTR ? 0
		       : tp_child_fail("the waiting write returned %zd (%s), want "
				       "EINTR", n, n < 0 ? strerror(errno) : "bytes");
	return n == (ssize_t)sizeof f ? 0
	       : tp_child_fail("the waiting write returned %zd (%s), want 100",
			       n, n < 0 ? strerror(errno) : "short");
}

/* Fill the slave's transmit buffers (fill_tx_queue) and start w's writer
 * on it, asleep for a free buffer; returns the frames queued before it. */
static int
start_waiting_writer(struct tp_pty *p, struct tp_child *c,
		     struct waiting_writer *w, bool want_eintr)
{
	int n = fill_tx_queue(p);
	*w = (struct waiting_writer){ p->slave, n, want_eintr };
	tp_child_start(c, write_a_frame, w);
	tp_wait_blocked_fd(c->pid, SYS_write, p->slave,
			   "a writer asleep for a free frame buffer");
	return n;
}

TP_CASE(writer_waiting_for_a_buffer_goes_on_when_output_restarts, TP_LINUX,
	"A blocking write() on an N_HDLC pty slave whose transmit buffers are "
	"all taken by frames behind stopped output sleeps; TCOON sends the "
	"waiting frames, which frees a buffer: the write returns 100 and its "
	"frame follows the others in order")
{
	struct tp_pty p;
	struct tp_child c;
	struct waiting_writer w;

	open_hdlc(&p);
	int n = start_waiting_writer(&p, &c, &w, false);
	ATF_REQUIRE_EQ_MSG(tcflow(p.slave, TCOON), 0, "TCOON: %s", strerror(errno));
	tp_child_join(&c, TP_WAIT_MS, "the waiting write to return");
	expect_frames(&p, 0, n + 1, "the waiting frames and the writer's");
	close_hdlc(&p);
}

TP_CASE(writer_waiting_for_a_buffer_ends_eintr_on_a_signal, TP_LINUX,
	"A blocking write() on an N_HDLC pty slave asleep for a free transmit "
	"buffer ends with EINTR when a signal arrives, and its frame is not "
	"queued: after TCOON the master reads only the frames queued before")
{
	struct tp_pty p;
	struct tp_child c;
	struct waiting_writer w;

	open_hdlc(&p);
	int n = start_waiting_writer(&p, &c, &w, true);
	ATF_REQUIRE_EQ(kill(c.pid, SIGUSR1), 0);
	tp_child_join(&c, TP_WAIT_MS, "the interrupted write to return");
	ATF_REQUIRE_EQ_MSG(tcflow(p.slave, TCOON), 0, "TCOON: %s", strerror(errno));
	expect_frames(&p, 0, n, "the frames queued before the interrupted write");
	close_hdlc(&p);
}

ATF_TP_ADD_TCS(tp)
{
	ATF_TP_ADD_TC(tp, write_goes_out_raw_and_whole);
	ATF_TP_ADD_TC(tp, write_above_maxframe_goes_out_in_frames);
	ATF_TP_ADD_TC(tp, read_returns_one_frame);
	ATF_TP_ADD_TC(tp, fionread_is_the_next_frame);
	ATF_TP_ADD_TC(tp, tciflush_drops_received_frames);
	ATF_TP_ADD_TC(tp, read_waits_for_a_frame);
	ATF_TP_ADD_TC(tp, poll_reports_the_normal_band_bits);
	ATF_TP_ADD_TC(tp, poll_on_a_master_reports_its_slave_closed);
	ATF_TP_ADD_TC(tp, stopped_output_queues_frames_until_restarted);
	ATF_TP_ADD_TC(tp, tcoflush_discards_waiting_frames);
	ATF_TP_ADD_TC(tp, writer_waiting_for_a_buffer_goes_on_when_output_restarts);
	ATF_TP_ADD_TC(tp, writer_waiting_for_a_buffer_ends_eintr_on_a_signal);
	ATF_TP_ADD_TC(tp, poll_reports_hangup_of_the_other_side);
	return atf_no_error();
}
