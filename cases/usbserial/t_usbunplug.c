// SPDX-License-Identifier: GPL-2.0-only
/* t_usbunplug.c: the USB serial adapter pulled out under its users (the
 * host side unplugs QEMU's usb-serial: QMP device_del; usb-serial core
 * disconnects the port and hangs its tty up).  A reader blocked in read()
 * returns (0 or EIO) and never hangs, a write fails (EIO or ENODEV), poll
 * reports POLLHUP and the device node goes away.  The case plugs the
 * adapter back (device_add, same id and chardev), waits for ftdi_sio to
 * bind it again under the same name and checks bytes pass, so later cases
 * find the guest as it was. */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "tp_hvc.h"
#include "tp_host.h"

/* Enough for 20 rounds under TCG on a loaded host (a round: ~2-5 s). */
#define UNPLUG_TIMEOUT_S 600
/* USB enumeration after the plug, under TCG. */
#define ENUM_MS (3 * TP_WAIT_MS)

/* Wait until the port is back: its node opens and sysfs binds it to
 * ftdi_sio. */
static void
wait_port_back(const char *path)
{
	char link[128], target[PATH_MAX];
	long long deadline = tp_now_ms() + ENUM_MS;
	int step = 0;

	snprintf(link, sizeof(link), "/sys/class/tty/%s/device/driver",
		 strrchr(path, '/') + 1);
	tp_waiting_for("the USB serial port to come back after the plug");
	for (;;) {
		ssize_t n = readlink(link, target, sizeof(target) - 1);
		if (n > 0) {
			target[n] = '\0';
			int fd = open(path, O_RDWR | O_NOCTTY | O_NONBLOCK);
			if (fd >= 0) {
				close(fd);
				ATF_CHECK_MSG(strstr(target, "/ftdi_sio"), "%s "
					      "-> %s after the plug", link,
					      target);
				return;
			}
		}
		if (tp_now_ms() > deadline)
			atf_tc_fail("%s did not come back within %d ms of the "
				    "plug (the adapter enumerates under "
				    "another name?)", path, ENUM_MS);
		tp_backoff(&step);
	}
}

static void
one_round(const atf_tc_t *tc, int round)
{
	struct tp_vlink p;
	int h, u;

	tp_vlink_open(tc, &p, &h, &u, 0);
	tp_vlink_unplug_blocked(u, "usb", ENODEV, round);
	tp_uart_close(u);
	tp_wait_path_gone(p.usb, "the USB serial node to go away");
	tp_host_ask(TP_WAIT_MS, "plug usb");
	wait_port_back(p.usb);
	int u2 = tp_uart_open(p.usb, 0);
	tp_vlink_drain(h, u2);
	tp_write_str(u2, "back", "bytes on the plugged-back USB port");
	TP_EXPECT_BYTES(h, "back", "them on the hvc");
	tp_write_str(h, "again", "bytes from the hvc");
	TP_EXPECT_BYTES(u2, "again", "them on the plugged-back USB port");
	tp_uart_close(u2);
	tp_hvc_close(h);
}

TP_CASE_TIMEOUT(unplug_usb_under_blocked_reader, TP_LINUX, UNPLUG_TIMEOUT_S,
	"Unplugging the USB serial adapter hangs its tty up: a reader blocked "
	"in read() returns 0 or EIO and never hangs, a write fails with EIO "
	"or ENODEV, poll reports POLLHUP and the device node goes away; "
	"plugged back, the port comes back under its name, bound to ftdi_sio, "
	"and bytes pass both ways.  The Kyua variable unplug_rounds repeats "
	"it (default 1)")
{
	/* Skip naming the missing port before asking the host side. */
	tp_usb_find(tc, (char[64]){0}, 64);
	tp_host_require(tc, "unplug");
	long rounds = tp_config_long(tc, "unplug_rounds", 1);
	for (long i = 1; i <= rounds; i++)
		one_round(tc, (int)i);
}

ATF_TP_ADD_TCS(tp)
{
	ATF_TP_ADD_TC(tp, unplug_usb_under_blocked_reader);
	return atf_no_error();
}
