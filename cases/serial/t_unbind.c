// SPDX-License-Identifier: GPL-2.0-only
/* t_unbind.c: a UART taken away under its users.  Unbinding the PCI
 * function's driver (what removing a serial card does) takes the port out
 * of the serial core while a program has it open: its tty is hung up, so a
 * reader blocked in read() returns (0, or EIO), a write fails EIO and poll
 * reports POLLHUP.  Binding the driver again brings a working port back at
 * that PCI address.  The case binds it again at exit, also when a check
 * fails, so the cases after it find the pair. */
#include <errno.h>
#include <limits.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "tp_serial.h"

/* 8250_pci's driver: the one QEMU's pci-serial functions bind to. */
#define PCI_DRIVER "/sys/bus/pci/drivers/serial"

/* The function this case unbound and has not bound again, or "". */
static char unbound[32];
static pid_t case_pid;

/* In atexit: children inherit it and must not bind. */
static void
bind_again_at_exit(void)
{
	if (getpid() != case_pid || !unbound[0])
		return;
	int rc = tp_sysctl_write(PCI_DRIVER "/bind", unbound);
	if (rc != 0)
		fprintf(stderr, "binding %s again at exit: %s\n", unbound,
			strerror(rc));
}

static void
unbind(const char *pci)
{
	case_pid = getpid();
	atexit(bind_again_at_exit);
	snprintf(unbound, sizeof(unbound), "%s", pci);
	int rc = tp_sysctl_write(PCI_DRIVER "/unbind", pci);
	if (rc != 0) {
		unbound[0] = '\0';
		atf_tc_fail("unbinding %s from %s: %s", pci, PCI_DRIVER,
			    strerror(rc));
	}
}

static void
bind(const char *pci)
{
	int rc = tp_sysctl_write(PCI_DRIVER "/bind", pci);
	ATF_REQUIRE_MSG(rc == 0, "binding %s to %s again: %s", pci, PCI_DRIVER,
			strerror(rc));
	unbound[0] = '\0';
}

/* Skip unless A's PCI function is bound to 8250_pci's driver. */
static void
need_pci_driver(void)
{
	char link[96], target[PATH_MAX];
	snprintf(link, sizeof(link), "/sys/bus/pci/devices/%s/driver",
		 TP_SERIAL_PCI_A);
	ssize_t n = readlink(link, target, sizeof(target) - 1);
	if (n <= 0)
		atf_tc_skip("%s has no driver: %s", link, strerror(errno));
	target[n] = '\0';
	const char *name = strrchr(target, '/');
	if (strcmp(name ? name + 1 : target, "serial") != 0)
		atf_tc_skip("%s is %s, not 8250_pci's serial", link, target);
}

/* Wait until a tty of A's PCI function is back and its node opens. */
static void
wait_pair_back(struct tp_serial_pair *p)
{
	long long deadline = tp_now_ms() + TP_WAIT_MS;
	char why[512];
	int step = 0;

	tp_waiting_for("the UART at " TP_SERIAL_PCI_A " to come back");
	while (!tp_serial_find_sysfs(p, why, sizeof(why)) ||
	       access(p->a, R_OK | W_OK) != 0) {
		if (tp_now_ms() > deadline)
			atf_tc_fail("no UART at %s %d ms after the bind: %s",
				    TP_SERIAL_PCI_A, TP_WAIT_MS, why);
		tp_backoff(&step);
	}
}

TP_CASE_ROOT(unbind_hangs_up_users_and_bind_restores, TP_LINUX,
	     "Unbinding a UART's PCI driver while a program has the port "
	     "open hangs its tty up: a reader blocked in read() returns 0 or "
	     "EIO, a write fails EIO, poll reports POLLHUP; binding the "
	     "driver again brings a port back at that PCI address, and bytes "
	     "cross the pair both ways")
{
	struct tp_serial_pair p;
	struct tp_reader r;
	struct tp_rd_result res;
	char c = 'w';

	tp_serial_find(tc, &p);
	need_pci_driver();
	int a = tp_uart_open(p.a, 0);
	tp_reader_start(&r, a, 8);
	tp_wait_blocked_fd(r.child.pid, SYS_read, a,
			   "a reader blocked in read() on A");
	unbind(TP_SERIAL_PCI_A);
	tp_reader_result(&r, &res, "the blocked reader to return after the unbind");
	ATF_CHECK_MSG(res.n == 0 || (res.n < 0 && res.err == EIO),
		      "the blocked read returned %zd (%s), not 0 or EIO", res.n,
		      res.n < 0 ? strerror(res.err) : "data");
	errno = 0;
	ATF_CHECK_MSG(write(a, &c, 1) == -1 && errno == EIO,
		      "write after the unbind: %s, want EIO",
		      errno ? strerror(errno) : "it wrote");
	short ev = tp_poll1(a, POLLIN | POLLOUT, 0);
	ATF_CHECK_MSG(ev & POLLHUP, "poll after the unbind reports %#x, no "
		      "POLLHUP", (unsigned)ev);
	tp_uart_close_as_is(a);

	bind(TP_SERIAL_PCI_A);
	wait_pair_back(&p);
	int b;
	tp_serial_open_pair_at(tc, &p, &a, &b, 0);
	tp_write_str(a, "back", "bytes from A after the bind");
	TP_EXPECT_BYTES(b, "back", "them on B");
	tp_write_str(b, "again", "bytes from B");
	TP_EXPECT_BYTES(a, "again", "them on A after the bind");
}

ATF_TP_ADD_TCS(tp)
{
	ATF_TP_ADD_TC(tp, unbind_hangs_up_users_and_bind_restores);
	return atf_no_error();
}
