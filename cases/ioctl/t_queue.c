/* t_queue.c: the ioctls that count or discard queued bytes on a pty:
 * FIONREAD / TIOCINQ, TIOCOUTQ, TCFLSH, tcdrain, tcsetattr(TCSAFLUSH). */
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
	ATF_TP_ADD_TC(tp, tcdrain_returns_with_unread_output);
	ATF_TP_ADD_TC(tp, tcsaflush_discards_pending_input);
	return atf_no_error();
}
