// SPDX-License-Identifier: GPL-2.0-only
/* t_hvcclose.c: the host end of the hvc closed under its users (a terminal
 * emulator or `virsh console` going away: the host side changes the
 * virtconsole's chardev to a null backend, QMP chardev-change; the port
 * stays plugged, and QEMU gives a virtconsole no port-closed event, so the
 * guest sees no hangup).  What the guest writes then must be taken and
 * dropped, never queued for ever; a reader blocked meanwhile stays
 * blocked and interruptible; once the host end is back, a reader blocked
 * across the reopen gets the new bytes, and none of the dropped ones ever
 * comes out.  The case reopens the host end at its end whatever happened
 * (atexit).
 *
 * The USB end sends nothing while the hvc's host end is closed: its
 * datagram to the closed end's port draws an ICMP port-unreachable, and
 * the link stayed dead both ways after the reopen (measured, QEMU 7.2,
 * 6.1.0-57 guest). */
#include <errno.h>
#include <poll.h>
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <termios.h>
#include <unistd.h>

#include "tp_hvc.h"
#include "tp_host.h"

/* Enough for 20 rounds under TCG on a loaded host (a round: ~1 s, 19 s for
 * 20 measured on 6.1.0-57 and 6.12). */
#define CLOSE_TIMEOUT_S 600
/* What a writer writes with the host end closed: twice the hvc's output
 * buffer (a page, virtio_console's hvc_alloc). */
#define CLOSED_WRITE 8192

/* The host end is (or may be) closed: reopen it when the case ends. */
static bool host_closed;

static void
reopen_at_exit(void)
{
	if (host_closed && !tp_host_try(TP_WAIT_MS, "open hvc"))
		fprintf(stderr, "t_hvcclose: the host side did not reopen the "
			"hvc's host end; later hvc cases may fail\n");
}

static void
host_end(bool open)
{
	if (!open)
		host_closed = true; /* before asking: the answer may be lost */
	tp_host_ask(TP_WAIT_MS, open ? "open hvc" : "close hvc");
	if (open)
		host_closed = false;
}

static void
on_signal(int sig)
{
	(void)sig;
}

/* A child writes CLOSED_WRITE bytes and waits for them to leave (tcdrain):
 * both must return with nobody on the host end. */
static int
writer_main(void *arg)
{
	int fd = *(int *)arg;
	char buf[CLOSED_WRITE];
	size_t off = 0;

	memset(buf, 'z', sizeof(buf));
	while (off < sizeof(buf)) {
		ssize_t w = write(fd, buf + off, sizeof(buf) - off);
		if (w < 0 && errno == EINTR)
			continue;
		if (w <= 0)
			return tp_child_fail("write after %zu of %d bytes: %s",
					     off, CLOSED_WRITE, strerror(errno));
		off += (size_t)w;
	}
	if (tcdrain(fd) != 0)
		return tp_child_fail("tcdrain: %s", strerror(errno));
	return 0;
}

static void
one_round(const atf_tc_t *tc, int round)
{
	struct tp_vlink p;
	struct tp_reader r, r2;
	struct tp_rd_result res;
	struct tp_child w;
	int h, u;

	tp_vlink_open(tc, &p, &h, &u, 0);
	tp_reader_start(&r, h, 8);
	tp_wait_blocked_fd(r.child.pid, SYS_read, h, "a reader blocked in "
			   "read() on the hvc");
	host_end(false);

	tp_child_start(&w, writer_main, &h);
	tp_child_join(&w, TP_WAIT_MS, "an 8 KiB write and tcdrain on the hvc "
		      "with its host end closed");
	short ev = tp_poll1(h, POLLIN | POLLOUT, 0);
	ATF_CHECK_MSG(ev == POLLOUT, "round %d: poll on the hvc with its host "
		      "end closed reports %#x, not POLLOUT alone", round,
		      (unsigned)ev);
	ATF_CHECK_MSG(!(tp_poll1(r.pipe[0], POLLIN, TP_QUIET_WINDOW_MS) &
			POLLIN), "round %d: the blocked reader returned with "
		      "the host end closed", round);
	kill(r.child.pid, SIGUSR1);
	tp_reader_result(&r, &res, "the blocked reader to return on a signal");
	ATF_CHECK_MSG(res.n < 0 && res.err == EINTR, "round %d: the read "
		      "interrupted by a signal returned %zd (%s), not EINTR",
		      round, res.n, res.n < 0 ? strerror(res.err) :
		      tp_esc(res.data, (size_t)res.n));

	/* A reader blocked across the reopen gets the new bytes alone. */
	tp_reader_start(&r2, h, 8);
	tp_wait_blocked_fd(r2.child.pid, SYS_read, h, "a second reader "
			   "blocked in read() on the hvc");
	host_end(true);
	tp_write_str(u, "again", "bytes from the USB port after the reopen");
	tp_reader_result(&r2, &res, "the reader blocked across the reopen");
	tp_rd_check(&res, "again", 5, "the reader blocked across the reopen");
	/* None of the writer's 8 KiB comes out late: the next bytes out of
	 * the hvc are the new ones. */
	tp_write_str(h, "back", "bytes on the hvc after the reopen");
	TP_EXPECT_BYTES(u, "back", "them on the USB port");
	tp_expect_quiet(u, "the USB port after the new bytes");
	tp_expect_quiet(h, "the hvc after the new bytes");
	tp_hvc_close(h);
	tp_uart_close(u);
}

TP_CASE_TIMEOUT(host_end_closed_under_reader_and_writer, TP_LINUX,
	CLOSE_TIMEOUT_S,
	"With the host end of the hvc closed (QEMU's virtconsole chardev "
	"changed to a null backend, the port still plugged), an 8 KiB write "
	"and tcdrain on /dev/hvc0 complete (the bytes are dropped, not queued "
	"for ever), poll reports POLLOUT and no hangup, and a reader blocked "
	"in read() stays blocked and returns EINTR on a signal; once the host "
	"end is back, a reader blocked across the reopen gets exactly the new "
	"bytes and the hvc's next output is the new bytes alone.  "
	"The Kyua variable close_rounds repeats it (default 1)")
{
	/* Skip naming the missing port before asking the host side. */
	tp_hvc_find(tc, (char[64]){0}, 64);
	tp_usb_find(tc, (char[64]){0}, 64);
	tp_host_require(tc, "close");
	atexit(reopen_at_exit);
	/* Inherited by the reader: its read ends with EINTR, not death. */
	struct sigaction sa = {.sa_handler = on_signal};
	sigemptyset(&sa.sa_mask);
	sigaction(SIGUSR1, &sa, NULL);
	long rounds = tp_config_long(tc, "close_rounds", 1);
	for (long i = 1; i <= rounds; i++)
		one_round(tc, (int)i);
}

ATF_TP_ADD_TCS(tp)
{
	ATF_TP_ADD_TC(tp, host_end_closed_under_reader_and_writer);
	return atf_no_error();
}
