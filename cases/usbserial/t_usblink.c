// SPDX-License-Identifier: GPL-2.0-only
/* t_usblink.c: bytes the USB serial port (ftdi_sio, usb-serial core)
 * sends arrive on the hvc joined to it: every byte value, large transfers
 * through the usb-serial write fifo and several bulk URBs, and both ways
 * at once (tp_hvc.h). */
#include <string.h>
#include <unistd.h>

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

ATF_TP_ADD_TCS(tp)
{
	ATF_TP_ADD_TC(tp, usb_sends_all_byte_values);
	ATF_TP_ADD_TC(tp, usb_receives_all_byte_values);
	ATF_TP_ADD_TC(tp, usb_sends_4k);
	return atf_no_error();
}
