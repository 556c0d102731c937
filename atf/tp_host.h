/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * tp_host.h: asking the host side for what a guest cannot do itself: a
 * break received on a UART, a wakeup from suspend (harness/PROTOCOL.md,
 * "The request channel").  The channel is the tty the Kyua variable
 * host_port names (ttypot's QEMU guests set it to their fourth PCI UART;
 * the QEMU runner answers through QEMU's monitor).  Where there is no
 * channel, or nothing answers on it (the host column, a board without a
 * host side), a case that needs it skips saying so.
 *
 * One case at a time holds the channel (a lock on it); its requests are
 * answered in order, each within the deadline the case gives.
 */
#ifndef TP_HOST_H
#define TP_HOST_H

#include <stdbool.h>
#include <stddef.h>

#include "ttypot.h"

/* How long the host side has to answer hello before a case skips. */
#define TP_HOST_HELLO_MS TP_WAIT_MS

/* Open the channel, say hello and check the host side offers action
 * ("break", "wake"); skips the case, naming what is missing, when there is
 * no channel, no answer within TP_HOST_HELLO_MS, or no such action. */
void tp_host_require(const atf_tc_t *tc, const char *action);

/* Ask for "ACTION ARGS" (printf format) and wait up to timeout_ms for the
 * answer; fails the case unless it is "ok".  Returns what follows "ok"
 * (a static buffer, until the next request).  After tp_host_require. */
const char *tp_host_ask(int timeout_ms, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

/* As tp_host_ask of a fixed request, for restoring at a case's end (an
 * atexit handler, after a failure): never fails the case; true on "ok". */
bool tp_host_try(int timeout_ms, const char *req);

/* The name the host side knows a UART by: its PCI function as sysfs names
 * it (0000:00:10.0), else its tty name (ttyS1) for a lab's own host side. */
void tp_host_uart_name(const char *path, char *out, size_t len);

/* n breaks (1..64) received by the UART at path; more than one arrive
 * back to back (the guest is held while the host sends them), so a FIFO
 * takes them without being read in between. */
void tp_host_break(const char *path, int n);

#endif
