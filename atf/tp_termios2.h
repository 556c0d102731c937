/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * tp_termios2.h: the kernel's struct termios2 and TCGETS2/TCSETS2 (and
 * TCSETSW2/TCSETSF2), for
 * reading and setting speeds that glibc's termios cannot express (an input
 * speed apart from the output speed, the speed fields themselves).
 */
#ifndef TP_TERMIOS2_H
#define TP_TERMIOS2_H

#include <sys/ioctl.h>
#include <termios.h>

/* include/uapi/asm-generic/termbits.h.  powerpc has no termios2: its own
 * struct termios (arch/powerpc/include/uapi/asm/termbits.h) carries the
 * speeds, with c_cc before c_line, and plain TCGETS/TCSETS take it. */
#ifdef __powerpc__
struct k_termios2 {
	tcflag_t c_iflag, c_oflag, c_cflag, c_lflag;
	cc_t c_cc[19];
	cc_t c_line;
	speed_t c_ispeed, c_ospeed;
};
#define K_TCGETS2 _IOR('t', 19, struct k_termios2)
#define K_TCSETS2 _IOW('t', 20, struct k_termios2)
#define K_TCSETSW2 _IOW('t', 21, struct k_termios2)
#define K_TCSETSF2 _IOW('t', 22, struct k_termios2)
#else
struct k_termios2 {
	tcflag_t c_iflag, c_oflag, c_cflag, c_lflag;
	cc_t c_line;
	cc_t c_cc[19];
	speed_t c_ispeed, c_ospeed;
};
#define K_TCGETS2 _IOR('T', 0x2A, struct k_termios2)
#define K_TCSETS2 _IOW('T', 0x2B, struct k_termios2)
#define K_TCSETSW2 _IOW('T', 0x2C, struct k_termios2)
#define K_TCSETSF2 _IOW('T', 0x2D, struct k_termios2)
#endif
/* The input speed's CBAUD bits sit this far up in c_cflag (CIBAUD). */
#define K_IBSHIFT 16
/* The CBAUD code that takes the rate from c_ospeed/c_ispeed
 * (asm-generic/termbits.h; powerpc: its own); glibc's termios.h lacks it. */
#ifndef BOTHER
#ifdef __powerpc__
#define BOTHER 0x1f
#else
#define BOTHER 0010000
#endif
#endif

#endif
