/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * tp_hvc.h: the helpers of the hvc and usbserial areas (cases/hvc,
 * cases/usbserial), on top of ttypot.h and tp_serial.h.
 *
 * ttypot's x86_64 QEMU guests have an hvc (a virtconsole on a virtio-serial
 * controller: /dev/hvc0, virtio_console) and a USB serial port (QEMU's FTDI
 * FT232 model on qemu-xhci: /dev/ttyUSB0, ftdi_sio), their chardevs joined
 * by a pair of UDP chardevs, so bytes written to one are read from the
 * other.  The guest init names them in the Kyua variables hvc_port and
 * usb_port; without them (the host column, a kernel without the driver) a
 * case skips naming the missing driver or device.
 *
 * The link has no flow control: QEMU drops what the receiving device cannot
 * take (a virtio receive queue or the FTDI model's 384-byte buffer full), so
 * transfers keep at most TP_VLINK_WINDOW bytes written but not yet read
 * (tp_serial_transfer_window) and a loss is the kernel's.
 */
#ifndef TP_HVC_H
#define TP_HVC_H

#include <stddef.h>

#include "tp_serial.h"

/* Bytes in flight on the link (measured: no loss at 64 in 6.1 guests). */
#define TP_VLINK_WINDOW 64

/* The hvc (hvc_port), or a skip naming what is missing. */
void tp_hvc_find(const atf_tc_t *tc, char *path, size_t len);
/* The USB serial port (usb_port), or a skip naming what is missing. */
void tp_usb_find(const atf_tc_t *tc, char *path, size_t len);

/* Open an hvc O_RDWR|O_NOCTTY (plus extra), save its termios for
 * restoration at case end and put it in tp_uart_known_state (an hvc keeps
 * its own speed and framing: raw, VMIN 1, flushed); blocking unless extra
 * has O_NONBLOCK: tp_tty_open_restored (tp_serial.h), as tp_uart_open
 * for a UART, without the modem lines an hvc does not have. */
int tp_hvc_open(const char *path, int extra);

/* Restore what tp_hvc_open saved for fd (where the port still answers)
 * and close it: tp_uart_close. */
void tp_hvc_close(int fd);

/* Both ends of the link, raw and drained of bytes an earlier case left:
 * the hvc by tp_hvc_open, the USB port by tp_uart_open.  Skips where
 * either is missing.  paths may be NULL; else it gets both names. */
struct tp_vlink {
	char hvc[64];
	char usb[64];
};
void tp_vlink_open(const atf_tc_t *tc, struct tp_vlink *paths, int *hvc,
		   int *usb, int extra);

/* TCSETS without glibc's check: glibc's tcsetattr reads the termios back
 * and fails with EINVAL when the driver did not take PARENB or CSIZE,
 * while the kernel's TCSETS succeeded.  Cases about what a driver keeps
 * check the kernel's answer and the read-back, not glibc's.  (glibc's
 * struct termios starts with the kernel's: TCSETS reads that prefix.) */
int tp_tcsets(int fd, const struct termios *t);

/* Read fd until the link stays quiet for TP_QUIET_WINDOW_MS (bounded). */
void tp_vlink_drain(int a, int b);

/* Send data from tx to rx, windowed; fail naming the first lost byte. */
void tp_vlink_transfer(int tx, int rx, const void *data, size_t len,
		       const char *what);

/* The checks both ports answer alike, rx being the port checked and tx
 * the other end (both opened O_NONBLOCK):
 * an idle rx's non-blocking read fails with EAGAIN, and once tx sent a
 * byte, poll says POLLIN and the read returns it; */
void tp_vlink_check_eagain(int rx, int tx, const char *rxname);
/* an idle rx polls POLLOUT and not POLLIN; POLLIN comes with two bytes
 * from tx and goes once they are read. */
void tp_vlink_check_poll(int rx, int tx, const char *rxname);

/* A reader blocked in read(fd) when the host side unplugs dev ("hvc",
 * "usb") returns 0 or EIO; then a write on fd fails with EIO (or alt_err,
 * unless 0) and poll reports POLLHUP.  round names the repetition in
 * messages.  After tp_host_require(tc, "unplug"). */
void tp_vlink_unplug_blocked(int fd, const char *dev, int alt_err, int round);

#endif
