// SPDX-License-Identifier: GPL-2.0-only
/* t_kd_io.c: the legacy console ioctls of vt_ioctl.c that reach no
 * screen: the video board's I/O ports (KDADDIO, KDDELIO, KDENABIO,
 * KDDISABIO: ioperm on x86), KDMAPDISP/KDUNMAPDISP, and the speaker's
 * KIOCSOUND/KDMKTONE (their permission rule; a guest has no speaker).
 * Port permissions are the calling process's own: each check runs in a
 * child, so the case itself keeps none. */
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>
#include <linux/capability.h>
#if defined(__x86_64__) || defined(__i386__)
#include <sys/io.h>
#define HAVE_PORTS 1
#endif

#include "tp_vt.h"

TP_CASE_ROOT(mapdisp_is_not_implemented, TP_LINUX,
	"KDMAPDISP and KDUNMAPDISP fail with EINVAL, whatever the argument "
	"(vt_ioctl.c never implemented them)")
{
	struct tp_vt vt;

	tp_vt_open(tc, &vt);
	TP_VT_EXPECT_ERRNO(ioctl(vt.fd, KDMAPDISP, 0), EINVAL, "KDMAPDISP 0");
	TP_VT_EXPECT_ERRNO(ioctl(vt.fd, KDMAPDISP, 0xa0000), EINVAL, "KDMAPDISP 0xa0000");
	TP_VT_EXPECT_ERRNO(ioctl(vt.fd, KDUNMAPDISP, 0), EINVAL, "KDUNMAPDISP 0");
}

/* ---------------------------------------------------------------- I/O ports */

#ifdef HAVE_PORTS
/* The video board's ports of KDENABIO, GPFIRST..GPLAST in vt_ioctl.c. */
#define GPFIRST 0x3b4
#define GPLAST 0x3df
/* A port to read: the VGA miscellaneous output register (read only). */
#define PORT 0x3cc

struct ports_arg {
	int fd;
	unsigned long grant, revoke; /* requests before the read, 0: none */
	unsigned long port;
};

/* The exit status of a child whose read of PORT faulted. */
#define FAULTED 77

/* Handled, the expected fault leaves no "traps:" line in the kernel log
 * (the kernel prints one for an unhandled SIGSEGV). */
static void
on_segv(int sig)
{
	(void)sig;
	_exit(FAULTED);
}

/* Grant (and revoke) ports, then read PORT: exit 0, or FAULTED where the
 * process has no permission for it (SIGSEGV). */
static int
ports_child(void *arg)
{
	struct ports_arg *a = arg;
	signal(SIGSEGV, on_segv);
	if (a->grant && ioctl(a->fd, a->grant, a->port) != 0)
		return tp_child_fail("grant: %s", strerror(errno));
	if (a->revoke && ioctl(a->fd, a->revoke, a->port) != 0)
		return tp_child_fail("revoke: %s", strerror(errno));
	(void)inb(PORT);
	return 0;
}

/* Run ports_child; true when the read of PORT faulted. */
static bool
read_faults(int fd, unsigned long grant, unsigned long revoke, unsigned long port,
	    const char *what)
{
	struct ports_arg a = {fd, grant, revoke, port};
	struct tp_child c;
	tp_child_start(&c, ports_child, &a);
	int st = tp_child_reap(&c, TP_WAIT_MS, what);
	if (WIFEXITED(st) && WEXITSTATUS(st) == FAULTED)
		return true;
	if (WIFEXITED(st) && WEXITSTATUS(st) == 0)
		return false;
	atf_tc_fail("%s: the child ended with status 0x%x (a request failed?)", what, st);
}
#endif

TP_CASE_ROOT(kdaddio_kdenabio_grant_ports, TP_LINUX,
	"On x86, KDADDIO grants the caller one port of the video board "
	"(0x3b4..0x3df) and KDDELIO takes it back, KDENABIO grants them all "
	"and KDDISABIO takes them back, as ioperm: a read of the port then "
	"works or faults (SIGSEGV); KDADDIO of a port outside the range "
	"fails with EINVAL")
{
#ifndef HAVE_PORTS
	atf_tc_skip("the video board's I/O ports (KDADDIO ...) exist only on x86");
#else
	struct tp_vt vt;

	tp_vt_open(tc, &vt);
	TP_VT_EXPECT_ERRNO(ioctl(vt.fd, KDADDIO, GPFIRST - 1), EINVAL, "KDADDIO 0x3b3");
	TP_VT_EXPECT_ERRNO(ioctl(vt.fd, KDADDIO, GPLAST + 1), EINVAL, "KDADDIO 0x3e0");
	if (ioctl(vt.fd, KDDELIO, PORT) != 0 && errno == ENXIO)
		atf_tc_skip("KDDELIO: ENXIO: no ioperm in this kernel "
			    "(CONFIG_X86_IOPL_IOPERM)");
	if (!read_faults(vt.fd, 0, 0, PORT, "a read of 0x3cc without a grant"))
		atf_tc_fail("a read of port 0x3cc without KDADDIO did not fault");
	if (read_faults(vt.fd, KDADDIO, 0, PORT, "a read of 0x3cc after KDADDIO"))
		atf_tc_fail("a read of port 0x3cc after KDADDIO 0x3cc faulted");
	if (!read_faults(vt.fd, KDADDIO, KDDELIO, PORT, "after KDADDIO, KDDELIO"))
		atf_tc_fail("a read of port 0x3cc after KDADDIO, KDDELIO did not fault");
	if (read_faults(vt.fd, KDENABIO, 0, 0, "a read of 0x3cc after KDENABIO"))
		atf_tc_fail("a read of port 0x3cc after KDENABIO faulted");
	if (!read_faults(vt.fd, KDENABIO, KDDISABIO, 0, "after KDENABIO, KDDISABIO"))
		atf_tc_fail("a read of port 0x3cc after KDENABIO, KDDISABIO did not fault");
#endif
}

/* ---------------------------------------------------------------- speaker */

/* Drop CAP_SYS_TTY_CONFIG from the effective set: 0 or -errno. */
static int
drop_tty_config(void)
{
	struct __user_cap_header_struct h = {_LINUX_CAPABILITY_VERSION_3, 0};
	struct __user_cap_data_struct d[2];
	if (syscall(SYS_capget, &h, d) != 0)
		return -errno;
	d[CAP_SYS_TTY_CONFIG / 32].effective &= ~(1u << (CAP_SYS_TTY_CONFIG % 32));
	return syscall(SYS_capset, &h, d) == 0 ? 0 : -errno;
}

static int
sound_child(void *arg)
{
	int fd = *(int *)arg;
	int r = drop_tty_config();
	if (r < 0)
		return tp_child_fail("capset: %s", strerror(-r));
	if (ioctl(fd, KIOCSOUND, 0) == 0 || errno != EPERM)
		return tp_child_fail("KIOCSOUND 0 without CAP_SYS_TTY_CONFIG on a VT "
				     "that is not the controlling tty: %s, want EPERM",
				     errno ? strerror(errno) : "success");
	errno = 0;
	if (ioctl(fd, KDMKTONE, 0) == 0 || errno != EPERM)
		return tp_child_fail("KDMKTONE 0 without CAP_SYS_TTY_CONFIG on a VT "
				     "that is not the controlling tty: %s, want EPERM",
				     errno ? strerror(errno) : "success");
	return 0;
}

TP_CASE_ROOT(sound_needs_permission, TP_LINUX,
	"KIOCSOUND and KDMKTONE (0: sound off) succeed with "
	"CAP_SYS_TTY_CONFIG and fail with EPERM without it on a VT that is "
	"not the caller's controlling tty")
{
	struct tp_vt vt;
	struct tp_child c;

	tp_vt_open(tc, &vt);
	TP_VT_EXPECT_ERRNO(ioctl(vt.fd, KIOCSOUND, 0), 0, "KIOCSOUND 0");
	TP_VT_EXPECT_ERRNO(ioctl(vt.fd, KDMKTONE, 0), 0, "KDMKTONE 0");
	tp_child_start(&c, sound_child, &vt.fd);
	tp_child_join(&c, TP_WAIT_MS, "KIOCSOUND, KDMKTONE without the capability");
}

ATF_TP_ADD_TCS(tp)
{
	ATF_TP_ADD_TC(tp, mapdisp_is_not_implemented);
	ATF_TP_ADD_TC(tp, kdaddio_kdenabio_grant_ports);
	ATF_TP_ADD_TC(tp, sound_needs_permission);
	return atf_no_error();
}
