// SPDX-License-Identifier: GPL-2.0-only
/* t_hvclink.c: bytes written to the hvc arrive on the USB serial port
 * joined to it, and bytes sent from there arrive on the hvc: every byte
 * value, in order, nothing lost, within the link's window (tp_hvc.h). */
#include <string.h>
#include <unistd.h>

#include "tp_hvc.h"

TP_CASE(hvc_to_usb_bytes, TP_POSIX,
	"Bytes written to the hvc (virtio_console) arrive, in order, on the "
	"USB serial port joined to it, and nothing more")
{
	int h, u;
	char got[16];

	tp_vlink_open(tc, NULL, &h, &u, 0);
	tp_write_str(h, "hello, USB\n", "write on the hvc");
	tp_uart_read_exact(u, got, 11, TP_WAIT_MS, "the bytes on the USB port");
	ATF_CHECK_MSG(memcmp(got, "hello, USB\n", 11) == 0, "USB read \"%s\"",
		      tp_esc(got, 11));
	tp_expect_quiet(u, "nothing more on the USB port");
}

TP_CASE(usb_to_hvc_bytes, TP_POSIX,
	"Bytes the USB serial port sends arrive, in order, on the hvc, and "
	"nothing more")
{
	int h, u;
	char got[16];

	tp_vlink_open(tc, NULL, &h, &u, 0);
	tp_write_str(u, "hello, hvc\n", "write on the USB port");
	tp_uart_read_exact(h, got, 11, TP_WAIT_MS, "the bytes on the hvc");
	ATF_CHECK_MSG(memcmp(got, "hello, hvc\n", 11) == 0, "hvc read \"%s\"",
		      tp_esc(got, 11));
	tp_expect_quiet(h, "nothing more on the hvc");
}

TP_CASE(hvc_sends_all_byte_values, TP_POSIX,
	"In raw mode the hvc passes all 256 byte values unchanged: no byte "
	"is a special character, none is translated or dropped")
{
	int h, u;
	unsigned char all[256];

	for (int i = 0; i < 256; i++)
		all[i] = (unsigned char)i;
	tp_vlink_open(tc, NULL, &h, &u, 0);
	tp_vlink_transfer(h, u, all, sizeof(all), "256 byte values hvc -> USB");
}

TP_CASE(hvc_receives_all_byte_values, TP_POSIX,
	"In raw mode the hvc receives all 256 byte values unchanged")
{
	int h, u;
	unsigned char all[256];

	for (int i = 0; i < 256; i++)
		all[i] = (unsigned char)(255 - i);
	tp_vlink_open(tc, NULL, &h, &u, 0);
	tp_vlink_transfer(u, h, all, sizeof(all), "256 byte values USB -> hvc");
}

TP_CASE(hvc_sends_4k, TP_POSIX,
	"4 KiB written to the hvc arrive complete and in order (more than one "
	"virtio buffer and the FTDI model's receive buffer)")
{
	int h, u;
	char buf[4096];

	tp_pattern(buf, sizeof(buf), 31);
	tp_vlink_open(tc, NULL, &h, &u, 0);
	tp_vlink_transfer(h, u, buf, sizeof(buf), "4 KiB hvc -> USB");
}

ATF_TP_ADD_TCS(tp)
{
	ATF_TP_ADD_TC(tp, hvc_to_usb_bytes);
	ATF_TP_ADD_TC(tp, usb_to_hvc_bytes);
	ATF_TP_ADD_TC(tp, hvc_sends_all_byte_values);
	ATF_TP_ADD_TC(tp, hvc_receives_all_byte_values);
	ATF_TP_ADD_TC(tp, hvc_sends_4k);
	return atf_no_error();
}
