// SPDX-License-Identifier: GPL-2.0-only
/* t_serinfo.c: TIOCGSERIAL/TIOCSSERIAL on an 8250 port: what the serial
 * core reports about the UART behind a ttyS, what uart_set_info
 * (drivers/tty/serial/serial_core.c) accepts, refuses and changes, and what
 * some of its flags then do. */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <unistd.h>

#include "tp_serial.h"

/* An unprivileged uid that needs no /etc/passwd entry (minimal guests). */
#define NOBODY_UID 65534

/* The pair, skipping (saying why it matters: unknown) when the ports the
 * configuration names are not QEMU's pci-serial, whose values are known. */
static void
qemu_pair(const atf_tc_t *tc, struct tp_serial_pair *p, const char *unknown)
{
	tp_serial_find(tc, p);
	if (p->from_config) {
		char why[256];
		struct tp_serial_pair sys;
		if (!tp_serial_find_sysfs(&sys, why, sizeof(why)))
			atf_tc_skip("the pair is not QEMU's pci-serial (%s): %s", why,
				    unknown);
	}
}

TP_CASE(gserial_describes_16550a, TP_LINUX,
	"TIOCGSERIAL describes each port of the pair as a 16550A (PORT_16550A, "
	"or the type the Kyua variable serial_uart_type set; 16-byte FIFO, "
	"baud_base 115200 from the 1.8432 MHz clock), with the line number of "
	"its ttyS name")
{
	struct tp_serial_pair p;
	struct serial_struct ss;

	qemu_pair(tc, &p, "its UART type is unknown");
	const struct tp_uart_type *want = tp_serial_want_type(tc);
	const char *paths[2] = {p.a, p.b};
	for (int i = 0; i < 2; i++) {
		int fd = tp_uart_open(paths[i], 0);
		tp_uart_gserial(fd, &ss);
		ATF_CHECK_EQ_MSG(ss.type, want->type, "%s: type %d, want %d (%s)",
				 paths[i], ss.type, want->type, want->name);
		ATF_CHECK_EQ_MSG(ss.xmit_fifo_size, 16, "%s: xmit_fifo_size %d",
				 paths[i], ss.xmit_fifo_size);
		ATF_CHECK_EQ_MSG(ss.baud_base, 115200, "%s: baud_base %d", paths[i],
				 ss.baud_base);
		long line = strtol(paths[i] + strcspn(paths[i], "0123456789"), NULL, 10);
		ATF_CHECK_EQ_MSG(ss.line, line, "%s: line %d", paths[i], ss.line);
	}
}

TP_CASE(gserial_default_close_times, TP_LINUX,
	"A port nobody has set up with TIOCSSERIAL reports the tty port "
	"defaults that setserial documents: close_delay 50 and closing_wait "
	"3000 (centiseconds: DTR drops for half a second on close, and close "
	"waits up to 30 s for output to drain)")
{
	struct tp_serial_pair p;
	struct serial_struct ss;

	/* A lab's own port may have been set up at boot. */
	qemu_pair(tc, &p, "its close times may be the lab's");
	const char *paths[2] = {p.a, p.b};
	for (int i = 0; i < 2; i++) {
		int fd = tp_uart_open(paths[i], 0);
		tp_uart_gserial(fd, &ss);
		ATF_CHECK_EQ_MSG(ss.close_delay, 50, "%s: close_delay %d", paths[i],
				 ss.close_delay);
		ATF_CHECK_EQ_MSG(ss.closing_wait, 3000, "%s: closing_wait %d",
				 paths[i], ss.closing_wait);
	}
}

TP_CASE_ROOT(sserial_round_trip_unchanged, TP_LINUX,
	     "TIOCSSERIAL of what TIOCGSERIAL returned succeeds and changes "
	     "nothing: a second TIOCGSERIAL reads the same fields")
{
	struct tp_serial_pair p;
	struct serial_struct s0, s1;

	tp_serial_find(tc, &p);
	int fd = tp_uart_open(p.a, 0);
	tp_uart_gserial(fd, &s0);
	ATF_REQUIRE_EQ_MSG(ioctl(fd, TIOCSSERIAL, &s0), 0, "TIOCSSERIAL: %s",
			   strerror(errno));
	tp_uart_gserial(fd, &s1);
	ATF_CHECK_EQ(s1.type, s0.type);
	ATF_CHECK_EQ(s1.line, s0.line);
	ATF_CHECK_EQ(s1.port, s0.port);
	ATF_CHECK_EQ(s1.irq, s0.irq);
	ATF_CHECK_EQ(s1.flags, s0.flags);
	ATF_CHECK_EQ(s1.baud_base, s0.baud_base);
	ATF_CHECK_EQ(s1.close_delay, s0.close_delay);
	ATF_CHECK_EQ(s1.closing_wait, s0.closing_wait);
	ATF_CHECK_EQ(s1.custom_divisor, s0.custom_divisor);
}

/* ---------------------------------------------------------------- changing it */

/* Every field TIOCGSERIAL reports; a refused TIOCSSERIAL leaves all equal. */
static void
check_same(const struct serial_struct *want, const struct serial_struct *got,
	   const char *what)
{
#define SAME(f)                                                                \
	ATF_CHECK_MSG(got->f == want->f, "%s: " #f " is %lld, was %lld", what, \
		      (long long)got->f, (long long)want->f)
	SAME(type);
	SAME(line);
	SAME(port);
	SAME(port_high);
	SAME(irq);
	SAME(flags);
	SAME(xmit_fifo_size);
	SAME(baud_base);
	SAME(close_delay);
	SAME(closing_wait);
	SAME(custom_divisor);
	SAME(hub6);
	SAME(io_type);
	SAME(iomem_reg_shift);
#undef SAME
	ATF_CHECK_MSG(got->iomem_base == want->iomem_base,
		      "%s: iomem_base is %p, was %p", what,
		      (void *)got->iomem_base, (void *)want->iomem_base);
}

/* Kernel lockdown (integrity or confidentiality) refuses a TIOCSSERIAL
 * that changes the port or irq with EPERM before the driver is asked
 * (security_locked_down(LOCKDOWN_TIOCSSERIAL)). */
static bool
locked_down(void)
{
	char buf[128] = "";
	FILE *f = fopen("/sys/kernel/security/lockdown", "r");
	if (f == NULL)
		return false;
	bool got = fgets(buf, sizeof(buf), f) != NULL;
	fclose(f);
	return got && strstr(buf, "[none]") == NULL;
}

/* TIOCSSERIAL of req must fail with EINVAL; true when it succeeded (the
 * caller then checks what changed and restores). */
static bool
expect_einval(int fd, const struct serial_struct *req, bool port_or_irq,
	      const char *what)
{
	struct serial_struct r = *req;
	errno = 0;
	int rc = ioctl(fd, TIOCSSERIAL, &r);
	if (rc != 0 && errno == EPERM && port_or_irq && locked_down())
		atf_tc_skip("kernel lockdown refuses %s with EPERM before the "
			    "driver checks it", what);
	ATF_CHECK_MSG(rc == -1 && errno == EINVAL,
		      "TIOCSSERIAL %s: %s, expected EINVAL", what,
		      rc == 0 ? "success" : strerror(errno));
	return rc == 0;
}

/* One request that must be refused: EINVAL, and TIOCGSERIAL reads s0. */
static void
refused(int fd, const struct serial_struct *s0, const struct serial_struct *req,
	bool port_or_irq, const char *what)
{
	struct serial_struct s1;

	bool accepted = expect_einval(fd, req, port_or_irq, what);
	tp_uart_gserial(fd, &s1);
	check_same(s0, &s1, what);
	if (accepted)
		tp_serial_put_back(); /* the next request starts from s0 */
}

/* The port still works: 64 bytes each way across the pair. */
static void
carries_data_both_ways(int a, int b)
{
	char data[64];

	tp_pattern(data, sizeof(data), 19);
	tp_serial_transfer(a, b, data, sizeof(data), TP_WAIT_MS,
			   "64 bytes A to B after the refused TIOCSSERIAL");
	tp_serial_transfer(b, a, data, sizeof(data), TP_WAIT_MS,
			   "64 bytes B to A after the refused TIOCSSERIAL");
}

TP_CASE_ROOT(sserial_refused_type_einval, TP_LINUX,
	     "TIOCSSERIAL (root) asking an 8250 port for a type the 8250 "
	     "driver refuses (PORT_CIRRUS, PORT_STARTECH: it has no support "
	     "for them) fails with EINVAL and leaves the port as it was: "
	     "TIOCGSERIAL reads the same fields, data still crosses both ways")
{
	struct serial_struct s0, req;
	int a, b;

	tp_serial_open_pair(tc, &a, &b, 0);
	tp_serial_save(a, &s0);
	static const struct {
		int type;
		const char *name;
	} types[] = {{PORT_CIRRUS, "type PORT_CIRRUS"},
		     {PORT_STARTECH, "type PORT_STARTECH"}};
	for (size_t i = 0; i < sizeof(types) / sizeof(types[0]); i++) {
		req = s0;
		req.type = types[i].type;
		refused(a, &s0, &req, true, types[i].name);
	}
	carries_data_both_ways(a, b);
	tp_serial_put_back();
}

/* No port type has this number: serial_core.h's highest (6.12) is 123. */
#define TYPE_OUT_OF_RANGE 1000

TP_CASE_ROOT(sserial_type_out_of_range_einval, TP_LINUX,
	     "TIOCSSERIAL (root) asking an 8250 port for a type number no "
	     "port type has (1000) fails with EINVAL and leaves the port as "
	     "it was: TIOCGSERIAL reads the same fields, data still crosses "
	     "both ways")
{
	struct serial_struct s0, req;
	int a, b;

	tp_serial_open_pair(tc, &a, &b, 0);
	tp_serial_save(a, &s0);
	req = s0;
	req.type = TYPE_OUT_OF_RANGE;
	refused(a, &s0, &req, true, "type 1000");
	carries_data_both_ways(a, b);
	tp_serial_put_back();
}

TP_CASE_ROOT(sserial_bad_irq_einval, TP_LINUX,
	     "TIOCSSERIAL (root) asking for an irq that cannot exist (-1, or "
	     "INT_MAX, beyond nr_irqs) fails with EINVAL and leaves the port "
	     "as it was: TIOCGSERIAL reads the same fields, data still "
	     "crosses both ways")
{
	struct serial_struct s0, req;
	int a, b;

	tp_serial_open_pair(tc, &a, &b, 0);
	tp_serial_save(a, &s0);
	static const struct {
		int irq;
		const char *name;
	} bad[] = {{-1, "irq -1"}, {INT_MAX, "irq INT_MAX"}};
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		req = s0;
		req.irq = bad[i].irq;
		refused(a, &s0, &req, true, bad[i].name);
	}
	carries_data_both_ways(a, b);
	tp_serial_put_back();
}

TP_CASE_ROOT(sserial_low_baud_base_einval, TP_LINUX,
	     "TIOCSSERIAL (root) with a baud_base below 9600 (0, 4800, 9599) "
	     "fails with EINVAL and leaves the port as it was: TIOCGSERIAL "
	     "reads the same fields, data still crosses both ways")
{
	struct serial_struct s0, req;
	int a, b;

	tp_serial_open_pair(tc, &a, &b, 0);
	tp_serial_save(a, &s0);
	static const struct {
		int baud_base;
		const char *name;
	} low[] = {{0, "baud_base 0"}, {4800, "baud_base 4800"},
		   {9599, "baud_base 9599"}};
	for (size_t i = 0; i < sizeof(low) / sizeof(low[0]); i++) {
		req = s0;
		req.baud_base = low[i].baud_base;
		refused(a, &s0, &req, false, low[i].name);
	}
	carries_data_both_ways(a, b);
	tp_serial_put_back();
}

TP_CASE_ROOT(sserial_type_change_busy_ebusy, TP_LINUX,
	     "TIOCSSERIAL (root) changing the port type to one the 8250 "
	     "supports (PORT_16450) while the port is open twice fails with "
	     "EBUSY (the port is shut down and set up again only for its sole "
	     "user) and leaves the port as it was: TIOCGSERIAL reads the same "
	     "fields")
{
	struct tp_serial_pair p;
	struct serial_struct s0, req, s1;

	tp_serial_find(tc, &p);
	int fd = tp_uart_open(p.a, 0);
	int second = tp_uart_open(p.a, 0);
	tp_serial_save(fd, &s0);
	req = s0;
	req.type = s0.type == PORT_16450 ? PORT_16550A : PORT_16450;
	struct serial_struct r = req;
	errno = 0;
	int rc = ioctl(fd, TIOCSSERIAL, &r);
	if (rc != 0 && errno == EPERM && locked_down())
		atf_tc_skip("kernel lockdown refuses a type change with EPERM");
	ATF_CHECK_MSG(rc == -1 && errno == EBUSY,
		      "TIOCSSERIAL type %d with the port open twice: %s, "
		      "expected EBUSY", req.type,
		      rc == 0 ? "success" : strerror(errno));
	tp_uart_gserial(fd, &s1);
	check_same(&s0, &s1, "after the refused type change");
	/* Restoring a type needs the port to itself. */
	tp_uart_close(second);
	tp_serial_put_back();
}

TP_CASE_ROOT(sserial_port_onto_busy_ports_ebusy, TP_LINUX,
	     "TIOCSSERIAL (root) moving a port to I/O ports another UART "
	     "holds (B's) fails with EBUSY and the port keeps its address and "
	     "type: TIOCGSERIAL reads the same fields, and opened again the "
	     "port carries data both ways")
{
	struct tp_serial_pair p;
	struct serial_struct s0, sb, req, s1;

	qemu_pair(tc, &p, "B's I/O ports must be held by the 8250 driver");
	int b = tp_uart_open(p.b, 0);
	tp_uart_gserial(b, &sb);
	int a = tp_uart_open(p.a, 0);
	tp_serial_save(a, &s0);
	ATF_REQUIRE_MSG(s0.io_type == SERIAL_IO_PORT && sb.io_type == SERIAL_IO_PORT &&
				s0.port != sb.port,
			"A and B must be two UARTs in I/O space: A io_type %d port "
			"%#x, B io_type %d port %#x", s0.io_type, s0.port, sb.io_type,
			sb.port);
	req = s0;
	req.port = sb.port;
	req.port_high = sb.port_high;
	struct serial_struct r = req;
	errno = 0;
	int rc = ioctl(a, TIOCSSERIAL, &r);
	if (rc != 0 && errno == EPERM && locked_down())
		atf_tc_skip("kernel lockdown refuses a port change with EPERM");
	ATF_CHECK_MSG(rc == -1 && errno == EBUSY, "TIOCSSERIAL moving A to "
		      "B's port %#x: %s, expected EBUSY", sb.port,
		      rc == 0 ? "success" : strerror(errno));
	tp_uart_gserial(a, &s1);
	check_same(&s0, &s1, "after the refused move");
	if (rc == 0)
		tp_serial_put_back();
	/* The attempt shut the port down for its sole user; a new open sets
	 * it up again at its old address. */
	tp_uart_close_as_is(a);
	a = tp_uart_open(p.a, 0);
	tp_serial_put_back_fd(a);
	tp_uart_gserial(a, &s1);
	check_same(&s0, &s1, "opened again after the refused move");
	carries_data_both_ways(a, b);
}

/* Values exact in jiffies at HZ 100, 250, 300 and 1000: 250 ms, 15 s. */
#define CLOSE_DELAY_CS 25
#define CLOSING_WAIT_CS 1500

TP_CASE_ROOT(sserial_close_times_round_trip, TP_LINUX,
	     "TIOCSSERIAL (root) sets close_delay and closing_wait in "
	     "hundredths of a second and TIOCGSERIAL reads them back as set "
	     "(25 and 1500), including closing_wait's two special values, "
	     "ASYNC_CLOSING_WAIT_NONE (65535) and ASYNC_CLOSING_WAIT_INF (0); "
	     "the other fields stay as they were")
{
	struct tp_serial_pair p;
	struct serial_struct s0, req, s1;

	tp_serial_find(tc, &p);
	int fd = tp_uart_open(p.a, 0);
	tp_serial_save(fd, &s0);
	static const struct {
		int close_delay, closing_wait;
	} set[] = {{CLOSE_DELAY_CS, CLOSING_WAIT_CS},
		   {CLOSE_DELAY_CS, ASYNC_CLOSING_WAIT_NONE},
		   {0, ASYNC_CLOSING_WAIT_INF}};
	for (size_t i = 0; i < sizeof(set) / sizeof(set[0]); i++) {
		char what[80];
		snprintf(what, sizeof(what), "close_delay %d closing_wait %d",
			 set[i].close_delay, set[i].closing_wait);
		req = s0;
		req.close_delay = set[i].close_delay;
		req.closing_wait = set[i].closing_wait;
		struct serial_struct r = req;
		ATF_REQUIRE_EQ_MSG(ioctl(fd, TIOCSSERIAL, &r), 0,
				   "TIOCSSERIAL %s: %s", what, strerror(errno));
		tp_uart_gserial(fd, &s1);
		check_same(&req, &s1, what);
	}
	tp_serial_put_back();
	tp_uart_gserial(fd, &s1);
	check_same(&s0, &s1, "after restoring");
}

/* ---------------------------------------------------------------- unprivileged */

/* One TIOCSSERIAL an unprivileged process asks for, and what must come of
 * it: err 0 for success, else the errno. */
struct unpriv_req {
	int fd;
	struct serial_struct req[8];
	const char *name[8];
	int n;
	int err;
};

static int
unprivileged_sserial(void *arg)
{
	struct unpriv_req *u = arg;

	if (getuid() == 0 && setuid(NOBODY_UID) != 0)
		return tp_child_fail("setuid(%d): %s", NOBODY_UID,
				     strerror(errno));
	for (int i = 0; i < u->n; i++) {
		struct serial_struct r = u->req[i];
		errno = 0;
		int rc = ioctl(u->fd, TIOCSSERIAL, &r);
		if (u->err == 0 ? rc != 0 : rc != -1 || errno != u->err)
			return tp_child_fail("unprivileged TIOCSSERIAL %s: %s, "
					     "expected %s",
					     u->name[i],
					     rc == 0 ? "success" : strerror(errno),
					     u->err == 0 ? "success"
							 : strerror(u->err));
	}
	return 0;
}

static void
run_unprivileged(struct unpriv_req *u, const char *what)
{
	struct tp_child c;

	tp_child_start(&c, unprivileged_sserial, u);
	tp_child_join(&c, TP_WAIT_MS, what);
}

static void
add_req(struct unpriv_req *u, const struct serial_struct *r, const char *name)
{
	ATF_REQUIRE(u->n < 8);
	u->req[u->n] = *r;
	u->name[u->n] = name;
	u->n++;
}

TP_CASE_ROOT(sserial_unprivileged_privileged_field_eperm, TP_LINUX,
	     "TIOCSSERIAL from an unprivileged process (no CAP_SYS_ADMIN: uid "
	     "65534 in a child) that changes a field only root may change "
	     "(baud_base, close_delay, closing_wait, xmit_fifo_size, irq, "
	     "type, a flag outside ASYNC_USR_MASK) fails with EPERM and "
	     "changes nothing: TIOCGSERIAL reads the same fields")
{
	struct tp_serial_pair p;
	struct serial_struct s0, r, s1;
	struct unpriv_req u = {.err = EPERM};

	tp_serial_find(tc, &p);
	int fd = tp_uart_open(p.a, 0);
	tp_serial_save(fd, &s0);
	u.fd = fd;
	r = s0;
	r.baud_base = s0.baud_base / 2;
	add_req(&u, &r, "baud_base halved");
	r = s0;
	r.close_delay = s0.close_delay + 10;
	add_req(&u, &r, "close_delay + 10");
	r = s0;
	r.closing_wait = s0.closing_wait == CLOSING_WAIT_CS ? CLOSING_WAIT_CS + 100
							    : CLOSING_WAIT_CS;
	add_req(&u, &r, "closing_wait changed");
	r = s0;
	r.xmit_fifo_size = s0.xmit_fifo_size == 1 ? 2 : 1;
	add_req(&u, &r, "xmit_fifo_size changed");
	r = s0;
	r.irq = s0.irq + 1;
	add_req(&u, &r, "irq + 1");
	r = s0;
	r.type = s0.type == PORT_16450 ? PORT_16550A : PORT_16450;
	add_req(&u, &r, "type changed");
	r = s0;
	r.flags = s0.flags ^ ASYNC_SKIP_TEST;
	add_req(&u, &r, "ASYNC_SKIP_TEST toggled");
	run_unprivileged(&u, "unprivileged TIOCSSERIAL of root's fields");
	tp_uart_gserial(fd, &s1);
	check_same(&s0, &s1, "after the refused requests");
	tp_serial_put_back();
}

TP_CASE_ROOT(sserial_unprivileged_usr_flags_change, TP_LINUX,
	     "TIOCSSERIAL from an unprivileged process (uid 65534 in a child) "
	     "may change the flags in ASYNC_USR_MASK (here ASYNC_LOW_LATENCY) "
	     "and custom_divisor: it succeeds, TIOCGSERIAL reads the new "
	     "values and every other field as it was")
{
	struct tp_serial_pair p;
	struct serial_struct s0, r, s1;
	struct unpriv_req u = {.err = 0};

	tp_serial_find(tc, &p);
	int fd = tp_uart_open(p.a, 0);
	tp_serial_save(fd, &s0);
	u.fd = fd;
	r = s0;
	r.flags = s0.flags ^ ASYNC_LOW_LATENCY;
	r.custom_divisor = s0.custom_divisor + 7;
	add_req(&u, &r, "ASYNC_LOW_LATENCY toggled, custom_divisor + 7");
	run_unprivileged(&u, "unprivileged TIOCSSERIAL of user flags");
	tp_uart_gserial(fd, &s1);
	check_same(&r, &s1, "after the unprivileged change");
	tp_serial_put_back();
	tp_uart_gserial(fd, &s1);
	check_same(&s0, &s1, "after restoring");
}

/* ---------------------------------------------------------------- what flags do */

/* The flags tty_flags.h marks defunct ("[x]"), its ASYNC_DEPRECATED;
 * the serial core keeps those of its UPF_CHANGE_MASK (not autoprobe, a
 * bit only the kernel set). */
#define DEFUNCT_KEPT                                                           \
	(ASYNC_SPLIT_TERMIOS | ASYNC_SESSION_LOCKOUT | ASYNC_PGRP_LOCKOUT |    \
	 ASYNC_CALLOUT_NOHUP)
#define DEFUNCT_FLAGS (DEFUNCT_KEPT | ASYNC_AUTOPROBE)

TP_CASE_ROOT(sserial_defunct_flags_warned_and_kept, TP_LINUX,
	     "TIOCSSERIAL by root with the flags tty_flags.h marks defunct "
	     "(split_termios, session_lockout, pgrp_lockout, callout_nohup, "
	     "autoprobe) succeeds and warns in the kernel log, naming the "
	     "program and those flags (\"'PROG' is using deprecated serial "
	     "flags (with no effect): 00008708\"); TIOCGSERIAL reads back all "
	     "but autoprobe, which user space cannot set, and the port carries "
	     "bytes both ways as before")
{
	struct tp_serial_pair p;
	struct serial_struct s0, r, s1;
	char comm[32], want[160], data[64];
	int a, b;

	int kmsg = tp_kmsg_at_end();
	tp_serial_open_pair_at(tc, &p, &a, &b, 0);
	tp_serial_save(a, &s0);
	ATF_REQUIRE_EQ_MSG(s0.flags & DEFUNCT_FLAGS, 0, "defunct flags already "
			   "set: %#x", s0.flags);
	r = s0;
	r.flags |= DEFUNCT_FLAGS;
	if (ioctl(a, TIOCSSERIAL, &r) != 0)
		atf_tc_fail("TIOCSSERIAL with the defunct flags: %s", strerror(errno));
	ATF_REQUIRE(tp_attr_read("/proc/self/comm", comm, sizeof comm));
	snprintf(want, sizeof want, "'%s' is using deprecated serial flags (with no "
		 "effect): %.8x", comm, DEFUNCT_FLAGS);
	tp_kmsg_expect(kmsg, want, NULL, "the kernel's warning about the defunct flags");
	close(kmsg);
	tp_uart_gserial(a, &s1);
	ATF_CHECK_EQ_MSG(s1.flags & DEFUNCT_FLAGS, DEFUNCT_KEPT, "TIOCGSERIAL "
			 "flags %#x, want %#x of the defunct ones", s1.flags,
			 DEFUNCT_KEPT);
	tp_pattern(data, sizeof data, 41);
	tp_serial_transfer(a, b, data, sizeof data, TP_WAIT_MS,
			   "64 bytes A to B with the defunct flags set");
	tp_serial_transfer(b, a, data, sizeof data, TP_WAIT_MS,
			   "64 bytes B to A with the defunct flags set");
	tp_serial_put_back();
}

/* The last close of fd (the port's only open) and an open of the port
 * again, which starts it up; the flags go back through the new one. */
static int
restart(int fd, const char *path)
{
	tp_uart_close_as_is(fd);
	fd = tp_uart_open(path, 0);
	tp_serial_put_back_fd(fd);
	return fd;
}

TP_CASE_ROOT(fourport_leaves_out2_to_the_board, TP_LINUX,
	     "With setserial's fourport (ASYNC_FOURPORT: an AST FourPort board, "
	     "which enables its interrupts through a register of its own), an "
	     "open of a port that has an interrupt leaves OUT2 low, and the "
	     "last close raises OUT1 (the board's reset): TIOCMGET after the "
	     "next open shows OUT1 and no OUT2; without the flag the next open "
	     "raises OUT2 again")
{
	struct tp_serial_pair p;
	struct serial_struct s0;

	/* The driver writes the board's register, I/O port (iobase & 0xfe0) |
	 * 0x1f, at every open and close: nothing on QEMU's PC, anything on
	 * a real machine. */
	qemu_pair(tc, &p, "the flag writes an I/O port of the board it names");
	int a = tp_uart_open(p.a, 0);
	tp_uart_gserial(a, &s0);
	if (s0.irq == 0)
		atf_tc_skip("port A is polled (no interrupt): the driver raises "
			    "OUT2 only for a port with one");
	if (s0.io_type != SERIAL_IO_PORT)
		atf_tc_skip("port A is not in I/O space (io_type %d): a FourPort "
			    "board's register is an I/O port", s0.io_type);
	tp_serial_add_flags(a, &s0, ASYNC_FOURPORT, "ASYNC_FOURPORT");
	/* OUT2 from the open before the flag: the next open decides it. */
	tp_uart_mbic(a, TIOCM_OUT1 | TIOCM_OUT2);
	a = restart(a, p.a);
	int m = tp_uart_mget(a);
	ATF_CHECK_MSG(!(m & TIOCM_OUT2), "with fourport, the open raised OUT2: "
		      "TIOCMGET %s", tp_tiocm_str(m));
	ATF_CHECK_MSG(m & TIOCM_OUT1, "with fourport, the last close left OUT1 "
		      "low: TIOCMGET %s", tp_tiocm_str(m));
	tp_serial_put_back();
	tp_uart_mbic(a, TIOCM_OUT1 | TIOCM_OUT2);
	a = restart(a, p.a);
	m = tp_uart_mget(a);
	ATF_CHECK_MSG(m & TIOCM_OUT2, "without fourport again, the open left OUT2 "
		      "low: TIOCMGET %s", tp_tiocm_str(m));
}

ATF_TP_ADD_TCS(tp)
{
	ATF_TP_ADD_TC(tp, gserial_describes_16550a);
	ATF_TP_ADD_TC(tp, gserial_default_close_times);
	ATF_TP_ADD_TC(tp, sserial_round_trip_unchanged);
	ATF_TP_ADD_TC(tp, sserial_refused_type_einval);
	ATF_TP_ADD_TC(tp, sserial_type_out_of_range_einval);
	ATF_TP_ADD_TC(tp, sserial_bad_irq_einval);
	ATF_TP_ADD_TC(tp, sserial_low_baud_base_einval);
	ATF_TP_ADD_TC(tp, sserial_type_change_busy_ebusy);
	ATF_TP_ADD_TC(tp, sserial_port_onto_busy_ports_ebusy);
	ATF_TP_ADD_TC(tp, sserial_close_times_round_trip);
	ATF_TP_ADD_TC(tp, sserial_unprivileged_privileged_field_eperm);
	ATF_TP_ADD_TC(tp, sserial_unprivileged_usr_flags_change);
	ATF_TP_ADD_TC(tp, sserial_defunct_flags_warned_and_kept);
	ATF_TP_ADD_TC(tp, fourport_leaves_out2_to_the_board);
	return atf_no_error();
}
