/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * inventory.h: the tty layer's user interface, held against the suite
 * (stage "inventory": base -> kernel -> mutation -> inventory -> guest ->
 * ... -> commands).  It answers the coverage map's question from the other
 * side: not which lines the suite runs, but which items of the interface
 * no case touches.
 *
 * The items come from the kernel source ttypot builds, never from a list
 * kept by hand:
 *   - ioctls: include/uapi/asm-generic/ioctls.h (the arch's own when it has
 *     one) and the uapi headers of the line disciplines the config builds
 *     (linux/gsmmux.h for n_gsm), the VT's (linux/kd.h, linux/vt.h: built
 *     with drivers/tty/vt); the values they take or give (TIOCPKT_*,
 *     TIOCSER_TEMT, TIOCM_* of asm-generic/termios.h);
 *   - termios: every flag, field and value of c_iflag, c_oflag, c_cflag and
 *     c_lflag, every c_cc index, the tcsetattr/tcflow/tcflush arguments
 *     (asm-generic/termbits.h and termbits-common.h, by their section
 *     comments);
 *   - line disciplines: N_* of include/uapi/linux/tty.h; built when a file
 *     the config builds registers it (.num = N_X);
 *   - what the built files of drivers/tty create: tty drivers and device
 *     nodes, the attributes of /sys/class/tty/DEV/, the files of /proc/tty, the
 *     sysctls they register, the keys of /proc/PID/fdinfo.
 * "Built" is read from the config (tinyconfig + fixtures/kernel/ttypot.config,
 * olddefconfig) and the Makefiles of the source, as kbuild reads them.
 *
 * The uses come from the cases themselves: each case body of cases/AREA/
 * t_*.c, with the helpers it calls (its file's functions, macros and
 * tables, and atf/'s), is scanned for the names it says (ioctl and flag
 * names, string literals naming device, sysfs and proc paths) and the C
 * library calls that stand for ioctls (fixtures/inventory/libc).  A case in
 * cases/serial/ uses an item on the 8250, one in cases/vt/, cases/hvc/ or
 * cases/usbserial/ on a VT, an hvc or a USB serial port, any other on a pty.
 *
 * Two small files beside it give reasons, one item a line:
 * fixtures/inventory/unreachable (items no case can reach in a guest) and
 * fixtures/inventory/uart (items whose behaviour needs a UART: only a
 * serial case counts for them).
 */
#ifndef TTYPOT_INVENTORY_H
#define TTYPOT_INVENTORY_H

#include <stdbool.h>
#include <stddef.h>

enum inv_kind {
	INV_IOCTL,   /* an ioctl request */
	INV_ARG,     /* a value an ioctl takes or gives */
	INV_TERMIOS, /* a c_iflag/c_oflag/c_cflag/c_lflag flag, field or value */
	INV_CC,      /* a c_cc index */
	INV_LDISC,   /* a line discipline */
	INV_DRIVER,  /* a tty driver or device node */
	INV_SYSFS,   /* an attribute of /sys/class/tty/DEV/ */
	INV_PROC,    /* a file of /proc the tty layer makes, an fdinfo key */
	INV_SYSCTL,  /* a sysctl the tty layer registers */
	INV_NKINDS
};

const char *inv_kind_name(enum inv_kind k); /* "ioctl", "termios" ... */

struct inv_use {
	char *cas;          /* area/t_program:case */
	const char *driver; /* "8250" (cases/serial/), "vt", "hvc", "usb-serial" or "pty" */
};

enum inv_status {
	INV_USED,
	INV_NOT_BUILT,   /* the config does not build it */
	INV_UNREACHABLE, /* fixtures/inventory/unreachable says why */
	INV_NEEDS_UART,  /* no serial case yet (fixtures/inventory/uart) */
	INV_NO_CASE,     /* reachable, and no case uses it */
};

struct inv_item {
	char *name;        /* as a case names it: TIOCGSERIAL, IUTF8, /proc/tty/drivers */
	char *alias;       /* another name of the same thing (TIOCINQ), or NULL */
	enum inv_kind kind;
	char *group;       /* c_iflag, ioctls.h, TIOCPKT_*, /dev/ttyS<N> ... */
	char *src;         /* where the source defines it: FILE:LINE */
	char *handlers;    /* built files of drivers/tty naming it ("" none) */
	char *not_built;   /* why the config does not build it, or NULL */
	char *unreachable; /* reason from fixtures/inventory/unreachable, or NULL */
	char *uart;        /* reason from fixtures/inventory/uart, or NULL */
	struct inv_use *uses;
	size_t nuses;
	enum inv_status status;
	/* how a case names it, besides name and alias (inv_private.h) */
	int match;
	char *pattern;
};

struct inventory {
	char source[4096];  /* the kernel source read */
	char config[4096];  /* the .config that says what is built */
	char arch_dir[64];  /* arch/x86 */
	struct inv_item *items;
	size_t nitems;
	char **cases;       /* every case scanned: area/t_program:case */
	size_t ncases;
	char **notes;       /* data-file lines that are stale (an item used
			     * though listed unreachable, ...), for the report */
	size_t nnotes;
};

struct inv_opts {
	const char *source; /* kernel source dir (NULL: unpack linux-source-6.12) */
	const char *config; /* .config (NULL: make the ttypot config for it) */
	const char *suite;  /* the tree holding cases/ and atf/ sources */
	const char *data;   /* fixtures/inventory (NULL: SUITE/fixtures/inventory) */
	const char *cache;  /* ttypot cache (NULL: the default) */
	const char *trace;  /* a case (area/t_program:case) whose scan is told on stderr */
};

/* Build the inventory.  0, or -1 with err naming the input at fault (a
 * header without the expected definitions, a data file naming an item the
 * source does not have, a suite without case sources). */
int inv_build(const struct inv_opts *o, struct inventory *inv, char *err, size_t errlen);
void inv_free(struct inventory *inv);

/* The item named name (or aliased so), or NULL. */
const struct inv_item *inv_find(const struct inventory *inv, const char *name);

/* Counts for the summary. */
struct inv_counts {
	size_t items, used, not_built, unreachable, needs_uart, no_case;
	size_t by_kind[INV_NKINDS], used_by_kind[INV_NKINDS];
};
void inv_count(const struct inventory *inv, struct inv_counts *c);

#endif
