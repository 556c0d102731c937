// SPDX-License-Identifier: GPL-2.0-only
/* t_gsm_mux.c: the GSM 07.10 multiplexer line discipline (N_GSM0710,
 * n_gsm.c) and its ioctls (linux/gsmmux.h), on a pty whose master plays
 * the other end of the link.  Attaching it needs CAP_NET_ADMIN: the cases
 * are root's and skip where the kernel has no n_gsm.
 *   - GSMIOC_GETCONF/SETCONF: the mux's parameters (the specification's
 *     defaults: T1 10, T2 34, N2 3, MRU and MTU 64, advanced option);
 *     SETCONF checks them and configures (activates) the mux;
 *   - GSMIOC_GETCONF_EXT/SETCONF_EXT: keep-alive and wait-for-config;
 *   - GSMIOC_GETCONF_DLCI/SETCONF_DLCI: one channel's parameters (1-63);
 *   - GSMIOC_GETFIRST: the first of the mux's /dev/gsmtty nodes, which
 *     exist from its activation until the discipline goes;
 *   - a gsmtty opens once the other end opened the control channel
 *     (a SABM for DLCI 0, answered UA); on it GSMIOC_ENABLE_NET makes a
 *     network interface of the channel and GSMIOC_DISABLE_NET removes it;
 *   - an initiator's command left unanswered (the control channel's SABM,
 *     a channel's parameter negotiation) is sent again each T1, N2 times,
 *     before the mux gives the channel up with DISC. */
#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <net/if.h>
#include <poll.h>
#include <stdio.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <linux/gsmmux.h>
#include <linux/if_ether.h>

#include "ttypot.h"

#ifndef N_GSM0710
#define N_GSM0710 21
#endif
#ifndef N_TTY
#define N_TTY 0
#endif

/* linux/gsmmux.h of 6.4 and later; older C library headers lack them. */
#ifndef GSMIOC_GETCONF_EXT
struct gsm_config_ext {
	__u32 keep_alive;
	__u32 wait_config;
	__u32 flags;
	__u32 reserved[5];
};
#define GSMIOC_GETCONF_EXT _IOR('G', 5, struct gsm_config_ext)
#define GSMIOC_SETCONF_EXT _IOW('G', 6, struct gsm_config_ext)
#endif
#ifndef GSMIOC_GETCONF_DLCI
struct gsm_dlci_config {
	__u32 channel;
	__u32 adaption;
	__u32 mtu;
	__u32 priority;
	__u32 i;
	__u32 k;
	__u32 flags;
	__u32 reserved[7];
};
#define GSMIOC_GETCONF_DLCI _IOWR('G', 7, struct gsm_dlci_config)
#define GSMIOC_SETCONF_DLCI _IOW('G', 8, struct gsm_dlci_config)
#endif

/* The other end opening the control channel in basic option: SABM, P/F
 * set, on DLCI 0 (address 0x03: EA and C/R), length 0, and its FCS; the
 * mux, a responder, answers UA (control 0x73). */
static const unsigned char SABM_DLCI0[] = { 0xf9, 0x03, 0x3f, 0x01, 0x1c, 0xf9 };
static const unsigned char UA_DLCI0[] = { 0xf9, 0x03, 0x73, 0x01, 0xd7, 0xf9 };

/* A pty whose slave carries the mux; skips where the kernel has none. */
static void
attach(struct tp_pty *p)
{
	tp_pty_open_ldisc(p, TP_RAW, N_GSM0710, "N_GSM0710",
			  "the n_gsm line discipline (CONFIG_N_GSM), as root");
}

static void
getconf(int fd, struct gsm_config *c)
{
	memset(c, 0xa5, sizeof *c);
	ATF_REQUIRE_MSG(ioctl(fd, GSMIOC_GETCONF, c) == 0, "GSMIOC_GETCONF: %s",
			strerror(errno));
}

/* SETCONF with c: 0 or the errno. */
static int
setconf(int fd, const struct gsm_config *c)
{
	return ioctl(fd, GSMIOC_SETCONF, c) == 0 ? 0 : errno;
}

TP_CASE_ROOT(conf_defaults_and_round_trip, TP_LINUX,
	"(root; n_gsm) A new mux reports the specification's defaults "
	"(adaption 1, advanced option, responder, T1 10, T2 34, N2 3, UIH, MRU "
	"and MTU 64); GSMIOC_SETCONF of basic option, MRU/MTU 128, T1 20, N2 5 "
	"reads back; MRU 1501 and encapsulation 2 are EINVAL, adaption 3 "
	"EOPNOTSUPP, and leave the configuration as it was")
{
	struct tp_pty p;
	struct gsm_config c, g;
	attach(&p);
	getconf(p.slave, &c);
	ATF_CHECK_EQ(c.adaption, 1);
	ATF_CHECK_EQ_MSG(c.encapsulation, 1, "encapsulation %u, want 1 (advanced)",
			 c.encapsulation);
	ATF_CHECK_EQ(c.initiator, 0);
	ATF_CHECK_EQ(c.t1, 10);
	ATF_CHECK_EQ(c.t2, 34);
	ATF_CHECK_EQ(c.n2, 3);
	ATF_CHECK_EQ_MSG(c.i, 1, "i %u, want 1 (UIH frames)", c.i);
	ATF_CHECK_EQ(c.mru, 64);
	ATF_CHECK_EQ(c.mtu, 64);
	c.encapsulation = 0;
	c.mru = c.mtu = 128;
	c.t1 = 20;
	c.n2 = 5;
	ATF_REQUIRE_EQ_MSG(setconf(p.slave, &c), 0, "GSMIOC_SETCONF: %s",
			   strerror(setconf(p.slave, &c)));
	getconf(p.slave, &g);
	ATF_CHECK_MSG(g.encapsulation == 0 && g.mru == 128 && g.mtu == 128 &&
		      g.t1 == 20 && g.n2 == 5, "read back encapsulation %u mru %u mtu %u "
		      "t1 %u n2 %u", g.encapsulation, g.mru, g.mtu, g.t1, g.n2);
	struct gsm_config bad = g;
	bad.mru = 1501;
	ATF_CHECK_EQ_MSG(setconf(p.slave, &bad), EINVAL, "MRU 1501: %s",
			 strerror(setconf(p.slave, &bad)));
	bad = g;
	bad.encapsulation = 2;
	ATF_CHECK_EQ_MSG(setconf(p.slave, &bad), EINVAL, "encapsulation 2: %s",
			 strerror(setconf(p.slave, &bad)));
	bad = g;
	bad.adaption = 3;
	ATF_CHECK_EQ_MSG(setconf(p.slave, &bad), EOPNOTSUPP, "adaption 3: %s",
			 strerror(setconf(p.slave, &bad)));
	getconf(p.slave, &c);
	ATF_CHECK_MSG(c.mru == 128 && c.adaption == 1 && c.encapsulation == 0,
		      "a refused SETCONF changed the mux: mru %u adaption %u "
		      "encapsulation %u", c.mru, c.adaption, c.encapsulation);
	tp_pty_close(&p);
}

TP_CASE_ROOT(conf_ext_round_trip, TP_LINUX,
	"(root; n_gsm) GSMIOC_GETCONF_EXT of a new mux reads keep_alive 0 and "
	"wait_config 0; SETCONF_EXT of 100 and 1 reads back; a non-zero "
	"reserved word or an unknown flag is EINVAL")
{
	struct tp_pty p;
	struct gsm_config_ext e;
	attach(&p);
	memset(&e, 0xa5, sizeof e);
	if (ioctl(p.slave, GSMIOC_GETCONF_EXT, &e) != 0)
		atf_tc_skip("GSMIOC_GETCONF_EXT: %s: the kernel predates it (6.4)",
			    strerror(errno));
	ATF_CHECK_MSG(e.keep_alive == 0 && e.wait_config == 0, "keep_alive %u "
		      "wait_config %u, want 0 0", e.keep_alive, e.wait_config);
	memset(&e, 0, sizeof e);
	e.keep_alive = 100;
	e.wait_config = 1;
	ATF_REQUIRE_MSG(ioctl(p.slave, GSMIOC_SETCONF_EXT, &e) == 0,
			"GSMIOC_SETCONF_EXT: %s", strerror(errno));
	memset(&e, 0xa5, sizeof e);
	ATF_REQUIRE(ioctl(p.slave, GSMIOC_GETCONF_EXT, &e) == 0);
	ATF_CHECK_MSG(e.keep_alive == 100 && e.wait_config == 1, "read back keep_alive "
		      "%u wait_config %u", e.keep_alive, e.wait_config);
	memset(&e, 0, sizeof e);
	e.reserved[0] = 1;
	errno = 0;
	ATF_CHECK_MSG(ioctl(p.slave, GSMIOC_SETCONF_EXT, &e) < 0 && errno == EINVAL,
		      "a reserved word set: %s", strerror(errno));
	memset(&e, 0, sizeof e);
	e.flags = 2;
	errno = 0;
	ATF_CHECK_MSG(ioctl(p.slave, GSMIOC_SETCONF_EXT, &e) < 0 && errno == EINVAL,
		      "flags 2: %s", strerror(errno));
	tp_pty_close(&p);
}

static int
dlci_get(int fd, unsigned channel, struct gsm_dlci_config *d)
{
	memset(d, 0, sizeof *d);
	d->channel = channel;
	return ioctl(fd, GSMIOC_GETCONF_DLCI, d) == 0 ? 0 : errno;
}

/* dlci_get that must succeed, skipping on a kernel without the ioctl. */
static void
dlci_get_or_skip(int fd, unsigned channel, struct gsm_dlci_config *d)
{
	int e = dlci_get(fd, channel, d);
	if (e == ENOTTY)
		atf_tc_skip("GSMIOC_GETCONF_DLCI: %s: the kernel predates it (6.4)",
			    strerror(e));
	ATF_REQUIRE_EQ_MSG(e, 0, "GETCONF_DLCI %u: %s", channel, strerror(e));
}

TP_CASE_ROOT(dlci_conf_round_trip, TP_LINUX,
	"(root; n_gsm) GSMIOC_GETCONF_DLCI of channel 0 or 64 is EINVAL; "
	"channel 5 reads its defaults (adaption 1, the mux's MTU, priority 7, "
	"UIH, k 2); SETCONF_DLCI of MTU 32, priority 20, k 3 reads back, and "
	"MTU 2000 is EINVAL")
{
	struct tp_pty p;
	struct gsm_dlci_config d;
	attach(&p);
	dlci_get_or_skip(p.slave, 5, &d);
	ATF_CHECK_MSG(d.channel == 5 && d.adaption == 1 && d.mtu == 64 &&
		      d.priority == 7 && d.i == 1 && d.k == 2, "channel %u adaption %u "
		      "mtu %u priority %u i %u k %u", d.channel, d.adaption, d.mtu,
		      d.priority, d.i, d.k);
	ATF_CHECK_EQ_MSG(dlci_get(p.slave, 0, &d), EINVAL, "channel 0");
	ATF_CHECK_EQ_MSG(dlci_get(p.slave, 64, &d), EINVAL, "channel 64");
	dlci_get(p.slave, 5, &d);
	d.mtu = 32;
	d.priority = 20;
	d.k = 3;
	ATF_REQUIRE_MSG(ioctl(p.slave, GSMIOC_SETCONF_DLCI, &d) == 0,
			"GSMIOC_SETCONF_DLCI: %s", strerror(errno));
	ATF_REQUIRE_EQ(dlci_get(p.slave, 5, &d), 0);
	ATF_CHECK_MSG(d.mtu == 32 && d.priority == 20 && d.k == 3, "read back mtu %u "
		      "priority %u k %u", d.mtu, d.priority, d.k);
	d.mtu = 2000;
	errno = 0;
	ATF_CHECK_MSG(ioctl(p.slave, GSMIOC_SETCONF_DLCI, &d) < 0 && errno == EINVAL,
		      "MTU 2000: %s", strerror(errno));
	tp_pty_close(&p);
}

/* The mux's first gsmtty number (GSMIOC_GETFIRST): 64 per mux, from 1. */
static unsigned
first_gsmtty(int fd)
{
	__u32 first = 0;
	ATF_REQUIRE_MSG(ioctl(fd, GSMIOC_GETFIRST, &first) == 0, "GSMIOC_GETFIRST: %s",
			strerror(errno));
	ATF_REQUIRE_MSG(first % 64 == 1, "GSMIOC_GETFIRST %u is not 64 * mux + 1", first);
	return first;
}

/* Configure the mux as a responder in basic option (and so activate it). */
static void
configure_basic(int fd)
{
	struct gsm_config c;
	getconf(fd, &c);
	c.encapsulation = 0;
	c.initiator = 0;
	ATF_REQUIRE_EQ_MSG(setconf(fd, &c), 0, "GSMIOC_SETCONF: %s",
			   strerror(setconf(fd, &c)));
}

TP_CASE_ROOT(gsmtty_nodes_live_with_the_mux, TP_LINUX,
	"(root; n_gsm) GSMIOC_GETFIRST names the mux's first gsmtty; that tty "
	"(/sys/class/tty/gsmttyN, /dev/gsmttyN) appears when SETCONF activates "
	"the mux and goes when the slave returns to N_TTY")
{
	struct tp_pty p;
	char sys[64], dev[64];
	struct stat st;
	attach(&p);
	unsigned first = first_gsmtty(p.slave);
	snprintf(sys, sizeof sys, "/sys/class/tty/gsmtty%u", first);
	snprintf(dev, sizeof dev, "/dev/gsmtty%u", first);
	ATF_CHECK_MSG(stat(sys, &st) != 0, "%s exists before the mux is configured", sys);
	configure_basic(p.slave);
	ATF_CHECK_MSG(stat(sys, &st) == 0, "%s: %s after SETCONF", sys, strerror(errno));
	if (stat(dev, &st) == 0)
		ATF_CHECK_MSG(S_ISCHR(st.st_mode), "%s is not a character device", dev);
	int ld = N_TTY;
	ATF_REQUIRE_MSG(ioctl(p.slave, TIOCSETD, &ld) == 0, "back to N_TTY: %s",
			strerror(errno));
	tp_wait_path_gone(sys, "the gsmtty after the mux went");
	tp_pty_close(&p);
}

static int
unprivileged_net(void *arg)
{
	int fd = *(int *)arg;
	struct gsm_netconfig nc;
	if (tp_child_drop_to_nobody())
		return 1;
	memset(&nc, 0, sizeof nc);
	nc.adaption = 3;
	nc.protocol = htons(ETH_P_IP);
	errno = 0;
	if (ioctl(fd, GSMIOC_ENABLE_NET, &nc) >= 0 || errno != EPERM)
		return tp_child_fail("GSMIOC_ENABLE_NET without CAP_NET_ADMIN: %s, want "
				     "EPERM", errno ? strerror(errno) : "accepted");
	return 0;
}

TP_CASE_ROOT(gsmtty_opens_after_control_channel_and_carries_net, TP_LINUX,
	"(root; n_gsm) A gsmtty cannot open (EL2NSYNC) until the other end "
	"opens the control channel (SABM on DLCI 0, answered UA); then it "
	"opens, GETCONF_DLCI on it takes only its own channel (EPERM for "
	"another), GSMIOC_ENABLE_NET needs CAP_NET_ADMIN and makes a network "
	"interface of the channel under the name given (its index returned; "
	"a second is EBUSY), and GSMIOC_DISABLE_NET removes it")
{
	struct tp_pty p;
	struct tp_child c;
	char dev[64], net[IFNAMSIZ + 32];
	attach(&p);
	configure_basic(p.slave);
	unsigned first = first_gsmtty(p.slave);
	snprintf(dev, sizeof dev, "/dev/gsmtty%u", first);
	errno = 0;
	int fd = open(dev, O_RDWR | O_NOCTTY | O_NONBLOCK | O_CLOEXEC);
	if (fd < 0 && errno == ENOENT)
		atf_tc_skip("%s: no node (no devtmpfs?)", dev);
	ATF_CHECK_MSG(fd < 0 && errno == EL2NSYNC, "open %s before the control "
		      "channel: %s, want EL2NSYNC", dev, fd >= 0 ? "opened" : strerror(errno));
	if (fd >= 0)
		close(fd);
	tp_write_all(p.master, SABM_DLCI0, sizeof SABM_DLCI0, "SABM on DLCI 0");
	tp_expect_bytes(p.master, (const char *)UA_DLCI0, sizeof UA_DLCI0,
			"the mux's UA for DLCI 0");
	fd = open(dev, O_RDWR | O_NOCTTY | O_NONBLOCK | O_CLOEXEC);
	ATF_REQUIRE_MSG(fd >= 0, "open %s after the control channel: %s", dev,
			strerror(errno));
	struct gsm_dlci_config d = { .channel = 1 };
	ATF_CHECK_MSG(ioctl(fd, GSMIOC_GETCONF_DLCI, &d) == 0 && d.channel == 1,
		      "GETCONF_DLCI of its own channel: %s", strerror(errno));
	d.channel = 2;
	errno = 0;
	ATF_CHECK_MSG(ioctl(fd, GSMIOC_GETCONF_DLCI, &d) < 0 && errno == EPERM,
		      "GETCONF_DLCI of another channel: %s, want EPERM", strerror(errno));
	tp_child_start(&c, unprivileged_net, &fd);
	tp_child_join(&c, TP_WAIT_MS, "GSMIOC_ENABLE_NET as nobody");
	/* A name of our own: without one the interface is gsmN, but 6.12
	 * copies the name back before register_netdev makes it (the caller
	 * reads the template "gsm%d"). */
	struct gsm_netconfig nc;
	char name[IFNAMSIZ];
	memset(&nc, 0, sizeof nc);
	nc.adaption = 3;
	nc.protocol = htons(ETH_P_IP);
	snprintf(name, sizeof name, "tpgsm%u", (unsigned)getpid() % 100000);
	snprintf(nc.if_name, sizeof nc.if_name, "%s", name);
	int index = ioctl(fd, GSMIOC_ENABLE_NET, &nc);
	ATF_REQUIRE_MSG(index > 0, "GSMIOC_ENABLE_NET: %d (%s)", index, strerror(errno));
	ATF_CHECK_STREQ_MSG(nc.if_name, name, "GSMIOC_ENABLE_NET changed the name");
	ATF_CHECK_EQ_MSG(if_nametoindex(name), (unsigned)index, "%s has index %u, "
			 "GSMIOC_ENABLE_NET returned %d", name, if_nametoindex(name), index);
	snprintf(net, sizeof net, "/sys/class/net/%s", name);
	struct gsm_netconfig again = nc;
	errno = 0;
	ATF_CHECK_MSG(ioctl(fd, GSMIOC_ENABLE_NET, &again) < 0 && errno == EBUSY,
		      "a second GSMIOC_ENABLE_NET: %s, want EBUSY", strerror(errno));
	ATF_CHECK_MSG(ioctl(fd, GSMIOC_DISABLE_NET) == 0, "GSMIOC_DISABLE_NET: %s",
		      strerror(errno));
	tp_wait_path_gone(net, "the interface after GSMIOC_DISABLE_NET");
	close(fd);
	tp_pty_close(&p);
}

/* One frame of basic option from the mux (the bytes between two flags),
 * read from the master within TP_WAIT_MS; returns its length.  Bytes read
 * past the frame are kept for the next call. */
static unsigned char frame_buf[1024];
static size_t frame_have;

static size_t
read_frame(int master, unsigned char *body, size_t cap, const char *what)
{
	long long end = tp_now_ms() + TP_WAIT_MS;
	for (;;) {
		size_t i = 0;
		while (i < frame_have && frame_buf[i] == 0xf9)
			i++;
		size_t j = i;
		while (j < frame_have && frame_buf[j] != 0xf9)
			j++;
		if (j < frame_have && j > i) {
			size_t n = j - i;
			ATF_REQUIRE_MSG(n <= cap, "%s: a frame of %zu bytes", what, n);
			memcpy(body, frame_buf + i, n);
			memmove(frame_buf, frame_buf + j, frame_have - j);
			frame_have -= j;
			return n;
		}
		ATF_REQUIRE_MSG(frame_have < sizeof frame_buf, "%s: %zu bytes and no "
				"whole frame", what, frame_have);
		int left = (int)(end - tp_now_ms());
		if (left <= 0 || !(tp_poll1(master, POLLIN, left) & POLLIN))
			atf_tc_fail("%s: no whole frame from the mux within %d ms "
				    "(%zu bytes pending)", what, TP_WAIT_MS, frame_have);
		ssize_t r = read(master, frame_buf + frame_have,
				 sizeof frame_buf - frame_have);
		if (r < 0 && errno != EAGAIN && errno != EINTR)
			atf_tc_fail("%s: read of the master: %s", what, strerror(errno));
		if (r > 0)
			frame_have += (size_t)r;
	}
}

/* Address and control bytes of the frames below: DLCI d with EA and C/R
 * set (a command from the initiator); SABM, UIH, DISC with P/F. */
#define GSM_ADDR(d) ((unsigned char)((d) << 2 | 0x03))
#define GSM_SABM 0x3f
#define GSM_UIH 0xef
#define GSM_DISC 0x53
/* A control channel message's type octet: PN (0x20), a command, EA. */
#define GSM_PN_COMMAND 0x83

/* Read frames until DISC for DLCI dlci; each before it must be the bytes
 * of first (the command being repeated) or another message on the control
 * channel (opening a gsmtty raises its modem lines: MSC).  Returns how many
 * were first's. */
static int
count_until_disc(int master, const unsigned char *first, size_t first_len,
		 unsigned dlci, const char *what)
{
	unsigned char f[256];
	int copies = 0;
	for (;;) {
		size_t n = read_frame(master, f, sizeof f, what);
		if (n >= 2 && f[0] == GSM_ADDR(dlci) && f[1] == GSM_DISC)
			return copies;
		if (n == first_len && memcmp(f, first, n) == 0)
			copies++;
		else if (n < 2 || f[0] != GSM_ADDR(0) || f[1] != GSM_UIH)
			atf_tc_fail("%s: after %d copies a frame that is neither the "
				    "command again nor DISC for DLCI %u: %s", what,
				    copies, dlci, tp_esc((const char *)f, n));
	}
}

/* Configure the mux as the initiator in basic option with N2 n2 and T1 t1
 * (hundredths of a second); SETCONF activates it and it sends SABM for
 * the control channel (DLCI 0). */
static void
configure_initiator(int fd, unsigned n2, unsigned t1)
{
	struct gsm_config c;
	getconf(fd, &c);
	c.encapsulation = 0;
	c.initiator = 1;
	c.n2 = n2;
	c.t1 = t1;
	ATF_REQUIRE_EQ_MSG(setconf(fd, &c), 0, "GSMIOC_SETCONF as initiator: %s",
			   strerror(setconf(fd, &c)));
}

TP_CASE_ROOT(unanswered_sabm_is_resent_n2_times, TP_LINUX,
	"(root; n_gsm) An initiator mux opens the control channel with SABM on "
	"DLCI 0; left unanswered, the same SABM is sent again each T1, N2 "
	"times (N2 as configured, here 2), and then the mux gives the channel "
	"up: DISC on DLCI 0 (27.010 T1 and N2)")
{
	struct tp_pty p;
	unsigned char f[256];
	attach(&p);
	configure_initiator(p.slave, 2, 10);
	size_t n = read_frame(p.master, f, sizeof f, "the first SABM");
	ATF_REQUIRE_MSG(n == sizeof SABM_DLCI0 - 2 &&
			memcmp(f, SABM_DLCI0 + 1, n) == 0, "the initiator's first "
			"frame is not SABM on DLCI 0: %s", tp_esc((const char *)f, n));
	int copies = count_until_disc(p.master, f, n, 0, "the SABM resent");
	ATF_CHECK_EQ_MSG(copies, 2, "SABM resent %d times before DISC, want N2 = 2",
			 copies);
	tp_pty_close(&p);
}

TP_CASE_ROOT(unanswered_parameter_negotiation_is_resent_n2_times, TP_LINUX,
	"(root; n_gsm 6.4+) A channel whose parameters differ from the mux's "
	"(here its priority) is negotiated before it opens: the initiator "
	"sends PN on the control channel, and left unanswered the same PN is "
	"sent again each T1, N2 times (here 3), before DISC gives the channel "
	"up (27.010 T1 and N2)")
{
	struct tp_pty p;
	struct gsm_dlci_config d;
	unsigned char f[256];
	char dev[64];
	attach(&p);
	dlci_get_or_skip(p.slave, 1, &d);
	/* T1 1 s: the UA below must come before N2 SABMs have run out. */
	configure_initiator(p.slave, 3, 100);
	size_t n = read_frame(p.master, f, sizeof f, "the control channel's SABM");
	ATF_REQUIRE_MSG(n >= 2 && f[0] == GSM_ADDR(0) && f[1] == GSM_SABM,
			"not SABM on DLCI 0: %s", tp_esc((const char *)f, n));
	tp_write_all(p.master, UA_DLCI0, sizeof UA_DLCI0, "UA for DLCI 0");
	/* The channel's settings after SETCONF: activating the mux makes its
	 * channels anew. */
	ATF_REQUIRE_EQ(dlci_get(p.slave, 1, &d), 0);
	d.priority = 20;
	ATF_REQUIRE_MSG(ioctl(p.slave, GSMIOC_SETCONF_DLCI, &d) == 0,
			"GSMIOC_SETCONF_DLCI priority 20: %s", strerror(errno));

	unsigned first = first_gsmtty(p.slave);
	snprintf(dev, sizeof dev, "/dev/gsmtty%u", first);
	long long end = tp_now_ms() + TP_WAIT_MS;
	int step = 0, fd;
	tp_waiting_for("the gsmtty to open once DLCI 0 is up");
	while ((fd = open(dev, O_RDWR | O_NOCTTY | O_NONBLOCK | O_CLOEXEC)) < 0) {
		if (errno == ENOENT)
			atf_tc_skip("%s: no node (no devtmpfs?)", dev);
		if (errno != EL2NSYNC || tp_now_ms() > end)
			atf_tc_fail("open %s after UA for DLCI 0: %s", dev,
				    strerror(errno));
		tp_backoff(&step);
	}
	tp_waiting_for("");
	/* Frames before the open (SABMs resent before the UA was taken) are
	 * not the channel's: its first is a message on the control channel. */
	do
		n = read_frame(p.master, f, sizeof f, "the parameter negotiation");
	while (n >= 2 && f[0] == GSM_ADDR(0) && f[1] == GSM_SABM);
	ATF_REQUIRE_MSG(n >= 4 && f[0] == GSM_ADDR(0) && f[1] == GSM_UIH &&
			f[3] == GSM_PN_COMMAND, "the channel's first frame is not "
			"PN on the control channel: %s", tp_esc((const char *)f, n));
	int copies = count_until_disc(p.master, f, n, 1, "the PN resent");
	ATF_CHECK_EQ_MSG(copies, 3, "PN resent %d times before DISC, want N2 = 3",
			 copies);
	close(fd);
	tp_pty_close(&p);
}

ATF_TP_ADD_TCS(tp)
{
	ATF_TP_ADD_TC(tp, conf_defaults_and_round_trip);
	ATF_TP_ADD_TC(tp, conf_ext_round_trip);
	ATF_TP_ADD_TC(tp, dlci_conf_round_trip);
	ATF_TP_ADD_TC(tp, gsmtty_nodes_live_with_the_mux);
	ATF_TP_ADD_TC(tp, gsmtty_opens_after_control_channel_and_carries_net);
	ATF_TP_ADD_TC(tp, unanswered_sabm_is_resent_n2_times);
	ATF_TP_ADD_TC(tp, unanswered_parameter_negotiation_is_resent_n2_times);
	return atf_no_error();
}
