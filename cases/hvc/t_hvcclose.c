// SPDX-License-Identifier: GPL-2.0-only
/* t_hvcclose.c: the host end of the hvc closed under its users (a terminal
 * emulator or `virsh console` going away: the host side changes the
 * virtconsole's chardev to a null backend, QMP chardev-change; the port
 * stays plugged, and QEMU gives a virtconsole no port-closed event, so the
 * guest sees no hangup).  What the guest writes then must be taken and
 * dropped, never queued for ever; a reader blocked meanwhile stays
 * interruptible and gets none of the bytes sent while the host end was
 * closed; once the host end is back, bytes pass both ways again.  The
 * case reopens the host end at its end whatever happened (atexit). */
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

/* Enough for 20 rounds under TCG on a loaded host (a round: ~2-5 s). */
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

/* Bytes from the USB end while the host end of the hvc is closed: they
 * reach nobody.  Two datagrams: QEMU's udp chardev is a connected socket,
 * and the ICMP "port unreachable" the first one draws is reported to (and
 * cleared by) the second send, not to the first one after the reopen. */
static void
send_stale(int u)
{
	tp_write_str(u, "stale1", "bytes from the USB end, host end closed");
	if (tcdrain(u) != 0)
		atf_tc_fail("tcdrain on the USB port: %s", strerror(errno));
	tp_write_str(u, "stale2", "more of them");
	if (tcdrain(u) != 0)
		atf_tc_fail("tcdrain on the USB port: %s", strerror(errno));
}

static void
one_round(const atf_tc_t *tc, int round)
{
	struct tp_vlink p;
	struct tp_reader r;
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
	send_stale(u);
	ATF_CHECK_MSG(!(tp_poll1(r.pipe[0], POLLIN, TP_QUIET_WINDOW_MS) &
			POLLIN), "round %d: the blocked reader returned with "
		      "the host end closed", round);
	kill(r.child.pid, SIGUSR1);
	tp_reader_result(&r, &res, "the blocked reader to return on a signal");
	ATF_CHECK_MSG(res.n < 0 && res.err == EINTR, "round %d: the read "
		      "interrupted by a signal returned %zd (%s), not EINTR",
		      round, res.n, res.n < 0 ? strerror(res.err) :
		      tp_esc(res.data, (size_t)res.n));

	host_end(true);
	/* Exactly the new bytes each way: none of the writer's 8 KiB came
	 * out late, none of the stale bytes came in. */
	tp_write_str(h, "back", "bytes on the hvc after the reopen");
	TP_EXPECT_BYTES(u, "back", "them on the USB port");
	tp_write_str(u, "again", "bytes from the USB port");
	TP_EXPECT_BYTES(h, "again", "them on the hvc");
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
	"in read() stays blocked, gets none of the bytes sent meanwhile and "
	"returns EINTR on a signal; once the host end is back, exactly the "
	"new bytes pass both ways.  "
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
