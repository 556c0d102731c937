// SPDX-License-Identifier: GPL-2.0-only
/* t_usblink.c: bytes the USB serial port (ftdi_sio, usb-serial core)
 * sends arrive on the hvc joined to it: every byte value, large transfers
 * through the usb-serial write fifo and several bulk URBs, and the byte
 * counts TIOCGICOUNT keeps (tp_hvc.h). */
#include <string.h>
#include <unistd.h>
#include <linux/serial.h>

#include "tp_hvc.h"

TP_CASE(usb_sends_all_byte_values, TP_POSIX,
	"In raw mode the USB serial port sends all 256 byte values "
	"unchanged: none is a special character, translated or dropped")
{
	int h, u;
	unsigned char all[256];

	for (int i = 0; i < 256; i++)
		all[i] = (unsigned char)i;
	tp_vlink_open(tc, NULL, &h, &u, 0);
	tp_vlink_transfer(u, h, all, sizeof(all), "256 byte values USB -> hvc");
}

TP_CASE(usb_receives_all_byte_values, TP_POSIX,
	"In raw mode the USB serial port receives all 256 byte values "
	"unchanged (ftdi_sio strips the model's two status bytes from every "
	"bulk-in packet and passes the rest)")
{
	int h, u;
	unsigned char all[256];

	for (int i = 0; i < 256; i++)
		all[i] = (unsigned char)(i ^ 0x5a);
	tp_vlink_open(tc, NULL, &h, &u, 0);
	tp_vlink_transfer(h, u, all, sizeof(all), "256 byte values hvc -> USB");
}

TP_CASE(usb_sends_4k, TP_POSIX,
	"4 KiB written to the USB serial port arrive complete and in order "
	"(more than the usb-serial write fifo holds at once)")
{
	int h, u;
	char buf[4096];

	tp_pattern(buf, sizeof(buf), 57);
	tp_vlink_open(tc, NULL, &h, &u, 0);
	tp_vlink_transfer(u, h, buf, sizeof(buf), "4 KiB USB -> hvc");
}

TP_CASE(usb_icount_counts_bytes_both_ways, TP_LINUX,
	"TIOCGICOUNT of the USB serial port counts every byte it sent and "
	"received: 300 more in tx after 300 bytes reached the hvc, 200 more "
	"in rx after 200 came back; no frame, parity, overrun or break error")
{
	int h, u;
	char out[300], in[200];
	struct serial_icounter_struct c0, c1;

	tp_vlink_open(tc, NULL, &h, &u, 0);
	tp_uart_icount(u, &c0);
	tp_pattern(out, sizeof(out), 11);
	tp_vlink_transfer(u, h, out, sizeof(out), "300 bytes USB -> hvc");
	tp_pattern(in, sizeof(in), 12);
	tp_vlink_transfer(h, u, in, sizeof(in), "200 bytes hvc -> USB");
	tp_uart_icount(u, &c1);
	ATF_CHECK_EQ_MSG(c1.tx - c0.tx, 300, "tx moved by %d", c1.tx - c0.tx);
	ATF_CHECK_EQ_MSG(c1.rx - c0.rx, 200, "rx moved by %d", c1.rx - c0.rx);
	ATF_CHECK_MSG(c1.frame == c0.frame && c1.parity == c0.parity &&
		      c1.overrun == c0.overrun && c1.brk == c0.brk,
		      "error counts moved: frame %d parity %d overrun %d brk %d",
		      c1.frame - c0.frame, c1.parity - c0.parity,
		      c1.overrun - c0.overrun, c1.brk - c0.brk);
}

ATF_TP_ADD_TCS(tp)
{
	ATF_TP_ADD_TC(tp, usb_sends_all_byte_values);
	ATF_TP_ADD_TC(tp, usb_receives_all_byte_values);
	ATF_TP_ADD_TC(tp, usb_sends_4k);
	ATF_TP_ADD_TC(tp, usb_icount_counts_bytes_both_ways);
	return atf_no_error();
}
