/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * hostside.h: the host side of a guest's request channel
 * (harness/PROTOCOL.md, "The request channel").  A guest case asks, on a
 * PCI UART of its own, for something only the host can do (a break on one
 * of its UARTs, waking it from suspend); the QEMU runner answers while it
 * watches the guest, doing the action through QEMU's monitor (QMP).
 *
 * Both QEMU ends connect to sockets this side listens on before QEMU
 * starts: the channel's chardev and the monitor.  Nothing here blocks for
 * long: hostside_service() waits up to its timeout for something to do.
 */
#ifndef TTYPOT_HOSTSIDE_H
#define TTYPOT_HOSTSIDE_H

#include <stdbool.h>
#include <stddef.h>

/* A guest UART the host may act on: its PCI function as the guest's sysfs
 * names it, and the id of its QEMU chardev. */
struct hostside_uart {
	const char *pci;     /* "0000:00:10.0" */
	const char *chardev; /* "la" */
};

/* A guest device the host may unplug and plug back (QMP device_del,
 * device_add), and whose chardev's host end it may close and open again
 * (QMP chardev-change to a null backend and back to its UDP one): the
 * name a request gives and how QEMU knows it. */
struct hostside_dev {
	const char *name;    /* "usb" */
	const char *id;      /* "usbser" (device_del's id) */
	const char *driver;  /* "usb-serial" */
	const char *chardev; /* "us" */
	const char *bus;     /* "xhci.0" */
	bool always_plugged; /* usb-serial's always-plugged=on */
	int udp_port;        /* the chardev's UDP peer port on 127.0.0.1 */
	int udp_localport;   /* and its own; 0: no close or open */
};

#define HOSTSIDE_MAX_UARTS 4
#define HOSTSIDE_MAX_DEVS 4
#define HOSTSIDE_LINE_MAX 256

struct hostside {
	char ctl_path[108];  /* the channel's socket (QEMU connects) */
	char qmp_path[108];  /* the monitor's socket (QEMU connects) */
	char own_dir[32];    /* a short directory made for them, or "" */
	int ctl_listen, qmp_listen;
	int ctl, qmp;        /* accepted connections, or -1 */
	struct hostside_uart uarts[HOSTSIDE_MAX_UARTS];
	int n_uarts;
	struct hostside_dev devs[HOSTSIDE_MAX_DEVS];
	int n_devs;
	char deleted[64];            /* the id of the last DEVICE_DELETED */
	char in[HOSTSIDE_LINE_MAX]; /* a request line being read */
	size_t in_len;
	bool in_overlong;            /* the line so far was too long */
	char qin[8192];              /* monitor input not yet parsed */
	size_t qin_len;
	/* "wake" armed: wake the guest once QEMU says it is suspended. */
	bool wake_armed;
	double wake_deadline;
	double wake_next_poll;
	int requests, answered;      /* for the run's progress line */
	char who[128];
};

/* Listen on DIR/ctl.sock and DIR/qmp.sock, or, where DIR is too long for a
 * socket's path (108 bytes), in a directory of its own under /tmp.
 * uarts: the UARTs a break may name.  0, or -1 with err. */
int hostside_listen(struct hostside *h, const char *dir,
		    const struct hostside_uart *uarts, int n_uarts,
		    const char *who, char *err, size_t errlen);

/* The devices "unplug" and "plug" may name (none: the actions are not
 * offered); "close" and "open" name those with a udp_localport. */
void hostside_devices(struct hostside *h, const struct hostside_dev *devs,
		      int n_devs);

/* The QEMU arguments of both ends: "-chardev" CHR "-device" DEV for the
 * channel's UART at PCI slot addr, "-chardev" MON "-mon" MONOPT for the
 * monitor.  Buffers of at least 256 bytes. */
void hostside_qemu_args(const struct hostside *h, const char *addr,
			char *chr, char *dev, char *mon, char *monopt,
			size_t len);

/* Do what is due: accept QEMU's connections, answer complete request
 * lines, wake a suspended guest when armed.  Waits up to timeout_ms for
 * something to happen. */
void hostside_service(struct hostside *h, int timeout_ms);

/* Close everything and remove the sockets. */
void hostside_close(struct hostside *h);

#endif
