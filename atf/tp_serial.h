/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * tp_serial.h: the serial area's helpers (cases/serial), on top of ttypot.h.
 *
 * The cases need two 8250 UARTs whose lines are cross-connected: in ttypot
 * guests, QEMU pci-serial functions at 0000:00:10.0 and 0000:00:11.0 joined
 * by a pair of UDP chardevs; on a board, any two ports joined by a null-modem
 * cable, named with the Kyua variables serial_a and serial_b.  Where there is
 * no pair (the host), every case skips naming what is missing.
 *
 * Every port a case opens is put in a known state (raw, CLOCAL, CREAD, CS8,
 * 115200 baud, internal loopback off, both queues flushed) and everything the
 * case may change (termios, modem lines, the loop bit, exclusivity) is
 * restored when the case ends, even when it fails.
 */
#ifndef TP_SERIAL_H
#define TP_SERIAL_H

#include <stdbool.h>
#include <fcntl.h>
#include <sys/ioctl.h>
#include <linux/serial.h>

#include "ttypot.h"

/* The 16550 MCR loop bit as a modem line (include/uapi/asm-generic/termios.h;
 * glibc's headers lack it). */
#ifndef TIOCM_LOOP
#define TIOCM_LOOP 0x8000
#endif
#ifndef TIOCM_OUT1
#define TIOCM_OUT1 0x2000
#endif
#ifndef TIOCM_OUT2
#define TIOCM_OUT2 0x4000
#endif

/* The PCI functions the ttypot harness attaches (harness/run_qemu.c). */
#define TP_SERIAL_PCI_A "0000:00:10.0"
#define TP_SERIAL_PCI_B "0000:00:11.0"
/* QEMU's pci-serial: Red Hat, Inc. QEMU PCI 16550A adapter. */
#define TP_SERIAL_PCI_VENDOR 0x1b36
#define TP_SERIAL_PCI_DEVICE 0x0002

/* The speed cases use unless they test speeds: the fastest a pci-serial's
 * 1.8432 MHz clock allows; QEMU models character timing (~87 us a byte). */
#define TP_SERIAL_SPEED B115200

/* The least a wait the kernel holds for N ms (msleep_interruptible:
 * jiffies) may measure in CLOCK_MONOTONIC milliseconds: both ends are
 * truncated to the ms, and under TCG the guest's jiffies and clocksource
 * drift apart, the more the busier the host (a 300 ms TCSBRKP measured 299
 * ms once in 20 runs on 6.1 at an ordinary load, and 291 ms on 6.12 in a
 * guest that took 139 s to boot beside two others).  A tenth of N below
 * it; a wrong unit or a skipped sleep is still off by far more. */
#define TP_SLEEP_MIN_MS(n) ((n) - (n) / 10)

struct tp_serial_pair {
	char a[64]; /* e.g. /dev/ttyS1 */
	char b[64];
	bool from_config; /* named by serial_a/serial_b, not found in sysfs */
};

/* Find the pair: serial_a/serial_b when set, else sysfs.  Skips the case,
 * naming what is missing, when there is none.  Takes an exclusive lock on
 * the pair for the rest of the case (fails if another case holds it).
 * With the Kyua variable serial_uart_type (a name of tp_uart_types), both
 * ports are set to that type first (TIOCSSERIAL, root) and stay so: the
 * serial area then runs on the driver's paths for that type. */
void tp_serial_find(const atf_tc_t *tc, struct tp_serial_pair *p);

/* The 8250 port types QEMU's 16550A can be told it is (TIOCSSERIAL): the
 * driver takes the type's name, trigger levels and set-up paths while the
 * chip goes on working (measured: data crosses both ways and loops back
 * under every one). */
struct tp_uart_type {
	const char *id;   /* the serial_uart_type value: "16450" */
	int type;         /* PORT_16450 */
	const char *name; /* as the driver names it (/proc): "16450" */
};
extern const struct tp_uart_type tp_uart_types[];
extern const int tp_uart_ntypes;
/* The type the pair should have: serial_uart_type's, else the chip's own
 * (QEMU's pci-serial is a 16550A). */
const struct tp_uart_type *tp_serial_want_type(const atf_tc_t *tc);
/* Find the pair in sysfs only: the ttyS* whose device (walking up from the
 * tty's device, which is a serial-base port device on 6.8+) is the QEMU
 * pci-serial function at TP_SERIAL_PCI_A / _B.  false with a reason. */
bool tp_serial_find_sysfs(struct tp_serial_pair *p, char *why, size_t whylen);
/* The PCI function (e.g. 0000:00:10.0) above a tty's sysfs device, if it is
 * QEMU's pci-serial; false otherwise. */
bool tp_serial_pci_of(const char *ttyname, char *pci, size_t len);

/* Open a port O_RDWR|O_NOCTTY|O_NONBLOCK (plus extra, e.g. O_EXCL), save its
 * state for restoration at case end, put it in the known state.  The
 * descriptor stays non-blocking when extra has O_NONBLOCK, else it is made
 * blocking.  Fails the case on error. */
int tp_uart_open(const char *path, int extra);
/* As tp_uart_open for a tty without modem lines (an hvc): only its termios
 * is saved, and restored by tp_uart_close or at the case's end. */
int tp_tty_open_restored(const char *path, int extra);
/* The known state, from the termios from: raw, CS8, CREAD, CLOCAL, no
 * flow control, VMIN 1, TP_SERIAL_SPEED; both queues flushed; blocking
 * unless extra has O_NONBLOCK.  Fails the case naming path. */
void tp_uart_known_state(int fd, const char *path, const struct termios *from,
			 int extra);
/* open(2) without failing (for checks of open's own result): the
 * descriptor or -errno.  A descriptor it returns is closed at case end. */
int tp_uart_try_open(const char *path, int flags);
/* Close fd as it is (its termios decides what the last close does, e.g.
 * HUPCL); the port is reopened and restored at case end. */
void tp_uart_close_as_is(int fd);
/* Restore what was saved for fd (when tp_uart_open opened it) and close it. */
void tp_uart_close(int fd);
/* Both ends, each by tp_uart_open(path, extra), then both read until
 * quiet for TP_QUIET_WINDOW_MS (bytes a failed case left on the link). */
void tp_serial_open_pair(const atf_tc_t *tc, int *a, int *b, int extra);
/* The same, filling p with the ports' paths. */
void tp_serial_open_pair_at(const atf_tc_t *tc, struct tp_serial_pair *p,
			    int *a, int *b, int extra);

/* termios */
void tp_uart_speed(int fd, speed_t s);
/* Set and clear c_cflag bits (tcsetattr TCSANOW), fail if not read back. */
void tp_uart_cflag(int fd, tcflag_t set, tcflag_t clear);

/* Output queue (TIOCOUTQ) and waiting for it to empty. */
int tp_uart_outq(int fd);
void tp_uart_wait_outq_empty(int fd, int timeout_ms, const char *what);
/* Read exactly len bytes within timeout_ms (poll, then read what there is). */
void tp_uart_read_exact(int fd, void *buf, size_t len, int timeout_ms,
			const char *what);
/* QEMU's UDP link has no flow control: the receiving QEMU reads a datagram
 * (one byte) only when its 16550 FIFO has room, and the host socket drops
 * what overflows.  Measured on 6.1 under TCG: with no limit, 1286 of 4096
 * bytes arrived (the sender's tx counter said 4096, the receiver's rx
 * counter 1286); with 256 bytes in flight 62 were lost; with 128, 64 and
 * 32 none.  Transfers keep at most this many bytes written but not yet
 * read, so a loss is the kernel's. */
#define TP_SERIAL_WINDOW 64
/* Send data[0..len) from tx and receive it on rx, writing and reading
 * interleaved (at most TP_SERIAL_WINDOW bytes in flight); fail naming the
 * first byte that is lost or out of order, or when no byte arrives for
 * timeout_ms.  Returns the milliseconds. */
long long tp_serial_transfer(int tx, int rx, const void *data, size_t len,
			     int timeout_ms, const char *what);
/* The same with at most window bytes in flight.  A port in loop mode needs
 * 1: QEMU moves each sent byte into the receiver at the line's rate with no
 * backpressure, so a guest slower than that (a loaded TCG host) overruns
 * the receive FIFO, or the holding register of a FIFO-less type, and the
 * driver reads the overrun as an extra NUL (seen: as_16550a, 1 in 20). */
long long tp_serial_transfer_window(int tx, int rx, const void *data, size_t len,
				    size_t window, int timeout_ms, const char *what);

/* Hold tx's output deterministically: IXON on tx, VSTOP from its peer, and
 * a marker after it that tx reads as data (so the VSTOP was taken).  The
 * output stays queued (TIOCOUTQ) until tp_serial_start_output(peer). */
void tp_serial_stop_output(int tx, int peer);
void tp_serial_start_output(int peer);
/* Wait (TP_WAIT_MS) until fd's rx counter (TIOCGICOUNT) reaches want.  The
 * counter counts since the port was registered, not since this open: want
 * is a count read before the bytes were sent, plus their number. */
void tp_uart_wait_rx(int fd, int want, const char *what);

/* Modem lines (TIOCMGET/TIOCMBIS/TIOCMBIC/TIOCMSET), failing on error. */
int tp_uart_mget(int fd);
void tp_uart_mbis(int fd, int bits);
void tp_uart_mbic(int fd, int bits);
void tp_uart_mset(int fd, int bits);
/* Wait (timeout_ms) until (TIOCMGET & mask) == want; false on timeout. */
bool tp_uart_wait_lines(int fd, int mask, int want, int timeout_ms);
/* The internal loopback: TIOCM_LOOP on, and waits until TIOCMGET shows it. */
void tp_uart_loop(int fd, bool on);
/* Names of the set bits of a TIOCM word, for messages ("RTS|DTR|CTS"). */
const char *tp_tiocm_str(int bits);

/* TIOCGICOUNT, failing on error. */
void tp_uart_icount(int fd, struct serial_icounter_struct *ic);

/* TIOCGSERIAL, failing on error. */
void tp_uart_gserial(int fd, struct serial_struct *ss);
/* TIOCGSERIAL of fd into s0, put back (TIOCSSERIAL) through fd when the
 * case ends, also when a check fails: atexit, in the case process, before
 * tp_uart_open's restore closes fd (call it after fd's tp_uart_open).  A
 * type change needs the port to itself, so fd should be its only open.
 * Through a descriptor the port's hangup took (EIO), it is put back through
 * a new open of the port. */
void tp_serial_save(int fd, struct serial_struct *s0);
/* tp_serial_save, then TIOCSSERIAL with flags (ASYNC_*) added, and
 * TIOCGSERIAL must show them; fails the case naming what is refused. */
void tp_serial_add_flags(int fd, struct serial_struct *s0, int flags,
			 const char *names);
/* Put it back now, where a refusal fails the case. */
void tp_serial_put_back(void);
/* The descriptor to put it back through, after the port was reopened; -1:
 * through a new open of the port (a case that must not hold it). */
void tp_serial_put_back_fd(int fd);

/* One port's line of /proc/tty/driver/serial. */
struct tp_serial_proc {
	long tx, rx, fe, pe, brk, oe, bo;
	int lines; /* TIOCM_* bits named after the counters (RTS|DTR|CTS|...) */
	char text[256];
};
/* The line of port ttySn (n from the path); false when the file or the
 * line is missing (the reason in why). */
bool tp_serial_proc(const char *path, struct tp_serial_proc *pr, char *why,
		    size_t whylen);

#endif
