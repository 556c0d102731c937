// SPDX-License-Identifier: GPL-2.0-only
/* t_hvcunplug.c: the hvc's port removed under its users (the host side
 * unplugs the virtconsole: QMP device_del; the guest's virtio_console gets
 * PORT_REMOVE and calls hvc_remove, which hangs the tty up).  A reader
 * blocked in read() returns (0 or EIO) and never hangs; a write fails with
 * EIO; poll reports POLLHUP; after the last close (and the tty's release,
 * a work item) an open fails with ENODEV.  The case plugs
 * the port back (device_add, same id and chardev) and checks that bytes
 * pass again, so later cases find the guest as it was. */
#include <errno.h>
#include <string.h>
#include <unistd.h>

#include "tp_hvc.h"
#include "tp_host.h"

/* Enough for 20 rounds under TCG on a loaded host (a round: ~2-5 s). */
#define UNPLUG_TIMEOUT_S 600

/* Wait until open(path) succeeds (the port is back); fail after ms. */
static void
wait_open_ok(const char *path, int ms, const char *what)
{
	long long deadline = tp_now_ms() + ms;
	int step = 0, err = 0;

	tp_waiting_for(what);
	while (tp_now_ms() < deadline) {
		int fd = open(path, O_RDWR | O_NOCTTY | O_NONBLOCK);
		if (fd >= 0) {
			close(fd);
			return;
		}
		err = errno;
		tp_backoff(&step);
	}
	atf_tc_fail("%s: open %s still fails after %d ms: %s", what, path, ms,
		    strerror(err));
}

/* After the last close of the removed port, open fails with ENODEV once
 * the tty's release has run; an open that succeeds fails the case. */
static void
wait_open_enodev(const char *path, int round)
{
	long long deadline = tp_now_ms() + TP_WAIT_MS;
	int step = 0, err = 0;

	tp_waiting_for("open of the removed hvc to fail with ENODEV");
	for (;;) {
		int fd = open(path, O_RDWR | O_NOCTTY | O_NONBLOCK);
		if (fd >= 0) {
			close(fd);
			atf_tc_fail("round %d: open %s succeeded with its port "
				    "removed", round, path);
		}
		err = errno;
		if (err == ENODEV)
			return;
		if (tp_now_ms() > deadline)
			atf_tc_fail("round %d: open %s with its port removed "
				    "still fails with %s, not ENODEV, after %d "
				    "ms", round, path, strerror(err), TP_WAIT_MS);
		tp_backoff(&step);
	}
}

static void
one_round(const atf_tc_t *tc, int round)
{
	struct tp_vlink p;
	int h, u;

	tp_vlink_open(tc, &p, &h, &u, 0);
	tp_vlink_unplug_blocked(h, "hvc", 0, round);
	/* The hung-up tty lives on until its last close, and the hvc it
	 * holds until the tty's release (a work item) after that. */
	tp_hvc_close(h);
	wait_open_enodev(p.hvc, round);
	tp_host_ask(TP_WAIT_MS, "plug hvc");
	wait_open_ok(p.hvc, TP_WAIT_MS, "the hvc to come back after the plug");
	int h2 = tp_hvc_open(p.hvc, 0);
	tp_vlink_drain(h2, u);
	tp_write_str(h2, "back", "bytes on the plugged-back hvc");
	TP_EXPECT_BYTES(u, "back", "them on the USB port");
	tp_write_str(u, "again", "bytes from the USB port");
	TP_EXPECT_BYTES(h2, "again", "them on the plugged-back hvc");
	tp_hvc_close(h2);
	tp_uart_close(u);
}

TP_CASE_TIMEOUT(unplug_hvc_under_blocked_reader, TP_LINUX, UNPLUG_TIMEOUT_S,
	"Removing the hvc's virtio port (the host side unplugs the "
	"virtconsole) hangs the hvc up: a reader blocked in read() returns 0 "
	"or EIO and never hangs, write fails with EIO, poll reports POLLHUP, "
	"and after the last close open fails with ENODEV; plugged back, "
	"bytes pass both ways again.  "
	"The Kyua variable unplug_rounds repeats it (default 1)")
{
	/* Skip naming the missing port before asking the host side. */
	tp_hvc_find(tc, (char[64]){0}, 64);
	tp_host_require(tc, "unplug");
	long rounds = tp_config_long(tc, "unplug_rounds", 1);
	for (long i = 1; i <= rounds; i++)
		one_round(tc, (int)i);
}

ATF_TP_ADD_TCS(tp)
{
	ATF_TP_ADD_TC(tp, unplug_hvc_under_blocked_reader);
	return atf_no_error();
}
