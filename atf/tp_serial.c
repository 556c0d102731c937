// SPDX-License-Identifier: GPL-2.0-only
/* tp_serial.c: finding the cross-connected UART pair, opening ports in a
 * known state and restoring them, bounded UART I/O, modem lines, counters. */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/ioctl.h>
#include <termios.h>
#include <unistd.h>

#include "tp_serial.h"
#include "tp_private.h"

/* ---------------------------------------------------------------- finding the pair */

static bool
read_hex_file(const char *path, long *v)
{
	FILE *f = fopen(path, "r");
	if (f == NULL)
		return false;
	bool ok = fscanf(f, "%li", v) == 1;
	fclose(f);
	return ok;
}

bool
tp_serial_pci_of(const char *ttyname, char *pci, size_t len)
{
	char link[PATH_MAX], dev[PATH_MAX];

	snprintf(link, sizeof(link), "/sys/class/tty/%s/device", ttyname);
	if (realpath(link, dev) == NULL)
		return false;
	/* Walk up: on 6.8+ the tty's device is a serial-base port device
	 * (0000:00:10.0:0.0) below the PCI function. */
	for (;;) {
		char *slash = strrchr(dev, '/');
		if (slash == NULL || slash == dev)
			return false;
		const char *base = slash + 1;
		unsigned dom, bus, slot, fn;
		char tail;
		if (sscanf(base, "%x:%x:%x.%x%c", &dom, &bus, &slot, &fn, &tail) == 4) {
			char p[PATH_MAX + 16];
			long vendor, device;
			snprintf(p, sizeof(p), "%s/vendor", dev);
			if (!read_hex_file(p, &vendor))
				return false;
			snprintf(p, sizeof(p), "%s/device", dev);
			if (!read_hex_file(p, &device))
				return false;
			if (vendor != TP_SERIAL_PCI_VENDOR ||
			    device != TP_SERIAL_PCI_DEVICE)
				return false;
			snprintf(pci, len, "%s", base);
			return true;
		}
		*slash = '\0';
	}
}

bool
tp_serial_find_sysfs(struct tp_serial_pair *p, char *why, size_t whylen)
{
	DIR *d = opendir("/sys/class/tty");
	struct dirent *e;

	memset(p, 0, sizeof(*p));
	if (d == NULL) {
		snprintf(why, whylen, "no /sys/class/tty: %s", strerror(errno));
		return false;
	}
	while ((e = readdir(d)) != NULL) {
		char pci[64];
		if (strncmp(e->d_name, "ttyS", 4) != 0 ||
		    !tp_serial_pci_of(e->d_name, pci, sizeof(pci)))
			continue;
		if (strcmp(pci, TP_SERIAL_PCI_A) == 0)
			snprintf(p->a, sizeof(p->a), "/dev/%.50s", e->d_name);
		else if (strcmp(pci, TP_SERIAL_PCI_B) == 0)
			snprintf(p->b, sizeof(p->b), "/dev/%.50s", e->d_name);
	}
	closedir(d);
	if (p->a[0] != '\0' && p->b[0] != '\0')
		return true;
	snprintf(why, whylen,
		 "no cross-connected UART pair: no QEMU pci-serial (%04x:%04x) "
		 "tty at %s%s and %s%s (ttypot guests have one; set "
		 "serial_a/serial_b for a board)",
		 TP_SERIAL_PCI_VENDOR, TP_SERIAL_PCI_DEVICE, TP_SERIAL_PCI_A,
		 p->a[0] ? " (found)" : "", TP_SERIAL_PCI_B,
		 p->b[0] ? " (found)" : "");
	return false;
}

/* A port that is a console must never be used: its output is the guest's
 * log and the harness reads it. */
static bool
is_console(const char *path)
{
	const char *name = strrchr(path, '/') ? strrchr(path, '/') + 1 : path;
	char buf[512];
	FILE *f = fopen("/sys/class/tty/console/active", "r");
	if (f == NULL)
		return false;
	size_t n = fread(buf, 1, sizeof(buf) - 1, f);
	fclose(f);
	buf[n] = '\0';
	for (char *tok = strtok(buf, " \n"); tok; tok = strtok(NULL, " \n"))
		if (strcmp(tok, name) == 0)
			return true;
	return false;
}

/* The serial programs share two UARTs and are marked is_exclusive in their
 * Kyuafile; this lock proves it: a second case using the pair at the same
 * time fails instead of corrupting the first one's bytes.  An absolute path,
 * not $TMPDIR, which Kyua makes per case. */
#define PAIR_LOCK "/tmp/ttypot-serial-pair.lock"

static void
lock_pair(void)
{
	static bool locked;
	if (locked)
		return;
	int fd = open(PAIR_LOCK, O_RDWR | O_CREAT | O_CLOEXEC, 0666);
	if (fd < 0)
		atf_tc_fail("open %s: %s", PAIR_LOCK, strerror(errno));
	if (flock(fd, LOCK_EX | LOCK_NB) != 0)
		atf_tc_fail("another case holds the UART pair (%s: %s): serial "
			    "programs must be is_exclusive=true in their Kyuafile",
			    PAIR_LOCK, strerror(errno));
	locked = true; /* held until the case process exits */
}

const struct tp_uart_type tp_uart_types[] = {
	{"8250", PORT_8250, "8250"},
	{"16450", PORT_16450, "16450"},
	{"16550", PORT_16550, "16550"},
	{"16550A", PORT_16550A, "16550A"},
	{"16650", PORT_16650, "ST16650"},
	{"16650V2", PORT_16650V2, "ST16650V2"},
	{"16750", PORT_16750, "TI16750"},
	{"16654", PORT_16654, "ST16654"},
	{"16850", PORT_16850, "XR16850"},
	{"16C950", PORT_16C950, "16C950/954"},
};
const int tp_uart_ntypes = sizeof(tp_uart_types) / sizeof(tp_uart_types[0]);

const struct tp_uart_type *
tp_serial_want_type(const atf_tc_t *tc)
{
	const char *id = atf_tc_has_config_var(tc, "serial_uart_type")
				 ? atf_tc_get_config_var(tc, "serial_uart_type")
				 : "16550A";
	for (int i = 0; i < tp_uart_ntypes; i++)
		if (strcmp(tp_uart_types[i].id, id) == 0)
			return &tp_uart_types[i];
	char ids[256] = "";
	for (int i = 0; i < tp_uart_ntypes; i++)
		snprintf(ids + strlen(ids), sizeof(ids) - strlen(ids), " %s",
			 tp_uart_types[i].id);
	atf_tc_fail("serial_uart_type=%s is not one of:%s", id, ids);
}

/* serial_uart_type: make the port that type (it must have no other user;
 * the new type takes effect for the opens after this one's close). */
static void
set_uart_type(const char *path, const struct tp_uart_type *t)
{
	struct serial_struct ss;
	int fd = open(path, O_RDWR | O_NOCTTY | O_NONBLOCK | O_CLOEXEC);
	if (fd < 0)
		atf_tc_fail("open %s: %s", path, strerror(errno));
	memset(&ss, 0, sizeof(ss));
	if (ioctl(fd, TIOCGSERIAL, &ss) != 0)
		atf_tc_fail("TIOCGSERIAL %s: %s", path, strerror(errno));
	if (ss.type != t->type) {
		ss.type = t->type;
		if (ioctl(fd, TIOCSSERIAL, &ss) != 0)
			atf_tc_fail("serial_uart_type=%s: TIOCSSERIAL of %s "
				    "(needs root and no other user): %s", t->id,
				    path, strerror(errno));
	}
	close(fd);
}

void
tp_serial_find(const atf_tc_t *tc, struct tp_serial_pair *p)
{
	char why[512];

	if (atf_tc_has_config_var(tc, "serial_a") &&
	    atf_tc_has_config_var(tc, "serial_b")) {
		memset(p, 0, sizeof(*p));
		snprintf(p->a, sizeof(p->a), "%s", atf_tc_get_config_var(tc, "serial_a"));
		snprintf(p->b, sizeof(p->b), "%s", atf_tc_get_config_var(tc, "serial_b"));
		p->from_config = true;
		if (strcmp(p->a, p->b) == 0)
			atf_tc_fail("serial_a and serial_b are both %s", p->a);
	} else if (!tp_serial_find_sysfs(p, why, sizeof(why))) {
		atf_tc_skip("%s", why);
	}
	if (access(p->a, F_OK) != 0 || access(p->b, F_OK) != 0)
		atf_tc_skip("no cross-connected UART pair: %s or %s does not exist",
			    p->a, p->b);
	if (is_console(p->a) || is_console(p->b))
		atf_tc_fail("the UART pair %s %s includes the console", p->a, p->b);
	lock_pair();
	if (atf_tc_has_config_var(tc, "serial_uart_type")) {
		const struct tp_uart_type *t = tp_serial_want_type(tc);
		set_uart_type(p->a, t);
		set_uart_type(p->b, t);
	}
}

/* ---------------------------------------------------------------- opening and restoring */

#define TP_MAX_UARTS 8
static struct saved_uart {
	int fd;             /* -1: free slot; CLOSED_AS_IS: reopen to restore */
	bool managed;       /* state saved by tp_uart_open */
	bool termios_only;  /* tp_tty_open_restored: no modem lines to restore */
	char path[64];
	struct termios tio;
	int mctrl;
} saved[TP_MAX_UARTS];
static bool restore_registered;

/* The lines a case may change and the end restores. */
#define MCTRL_OUTPUTS (TIOCM_RTS | TIOCM_DTR | TIOCM_OUT1 | TIOCM_OUT2 | TIOCM_LOOP)

#define CLOSED_AS_IS (-2)

static void
restore_one(struct saved_uart *s)
{
	if (s->fd == CLOSED_AS_IS)
		s->fd = open(s->path, O_RDWR | O_NOCTTY | O_NONBLOCK);
	if (s->fd < 0)
		return;
	if (s->managed && s->termios_only) {
		tcflush(s->fd, TCIOFLUSH);
		tcsetattr(s->fd, TCSANOW, &s->tio);
	} else if (s->managed) {
		int loop = TIOCM_LOOP;
		ioctl(s->fd, TIOCMBIC, &loop);
		int set = s->mctrl & MCTRL_OUTPUTS & ~TIOCM_LOOP;
		int clear = MCTRL_OUTPUTS & ~set;
		ioctl(s->fd, TIOCMBIC, &clear);
		ioctl(s->fd, TIOCMBIS, &set);
		ioctl(s->fd, TIOCNXCL);
		ioctl(s->fd, TIOCCBRK);
		/* Don't wait for output a failed case left queued; then undo
		 * a TCOOFF it left (flushed first, so nothing is released). */
		tcflush(s->fd, TCIOFLUSH);
		tcflow(s->fd, TCOON);
		tcsetattr(s->fd, TCSANOW, &s->tio);
	}
	close(s->fd);
	s->fd = -1;
}

static void
restore_all(void)
{
	/* Children inherit the table through fork but must not restore. */
	if (getpid() != tp_case_pid)
		return;
	for (int i = TP_MAX_UARTS - 1; i >= 0; i--)
		restore_one(&saved[i]);
}

static struct saved_uart *
track(int fd)
{
	if (!restore_registered) {
		for (int i = 0; i < TP_MAX_UARTS; i++)
			saved[i].fd = -1;
		atexit(restore_all);
		restore_registered = true;
	}
	for (int i = 0; i < TP_MAX_UARTS; i++)
		if (saved[i].fd < 0) {
			memset(&saved[i], 0, sizeof(saved[i]));
			saved[i].fd = fd;
			return &saved[i];
		}
	atf_tc_fail("more than %d UART descriptors open in one case", TP_MAX_UARTS);
}

int
tp_uart_try_open(const char *path, int flags)
{
	int fd = open(path, flags);
	if (fd < 0)
		return -errno;
	track(fd);
	return fd;
}

/* Open path non-blocking as a case's tty and note its termios to put back
 * when the case ends. */
static struct saved_uart *
open_saved(const char *path, int extra, int *fdp)
{
	int fd = open(path, O_RDWR | O_NOCTTY | O_NONBLOCK | extra);
	if (fd < 0)
		atf_tc_fail("open %s: %s", path, strerror(errno));
	struct saved_uart *s = track(fd);
	snprintf(s->path, sizeof(s->path), "%s", path);
	if (tcgetattr(fd, &s->tio) != 0)
		atf_tc_fail("tcgetattr %s: %s", path, strerror(errno));
	*fdp = fd;
	return s;
}

int
tp_uart_open(const char *path, int extra)
{
	int fd;
	struct saved_uart *s = open_saved(path, extra, &fd);
	if (ioctl(fd, TIOCMGET, &s->mctrl) != 0)
		atf_tc_fail("TIOCMGET %s: %s", path, strerror(errno));
	s->managed = true;
	/* A case that died in loop mode must not leave the next one there. */
	tp_uart_mbic(fd, TIOCM_LOOP);
	tp_uart_known_state(fd, path, &s->tio, extra);
	return fd;
}

int
tp_tty_open_restored(const char *path, int extra)
{
	int fd;
	struct saved_uart *s = open_saved(path, extra, &fd);
	s->managed = s->termios_only = true;
	tp_uart_known_state(fd, path, &s->tio, extra);
	return fd;
}

void
tp_uart_known_state(int fd, const char *path, const struct termios *from,
		    int extra)
{
	struct termios t = *from;
	cfmakeraw(&t);
	t.c_cflag &= ~(CSIZE | PARENB | CSTOPB | CRTSCTS);
	t.c_cflag |= CS8 | CREAD | CLOCAL;
	t.c_iflag &= ~(IXON | IXOFF | IXANY);
	t.c_cc[VMIN] = 1;
	t.c_cc[VTIME] = 0;
	cfsetispeed(&t, TP_SERIAL_SPEED);
	cfsetospeed(&t, TP_SERIAL_SPEED);
	if (tcsetattr(fd, TCSANOW, &t) != 0)
		atf_tc_fail("tcsetattr %s: %s", path, strerror(errno));
	if (tcflush(fd, TCIOFLUSH) != 0)
		atf_tc_fail("tcflush %s: %s", path, strerror(errno));
	if (!(extra & O_NONBLOCK))
		tp_set_nonblock(fd, false);
}

void
tp_uart_close(int fd)
{
	for (int i = 0; i < TP_MAX_UARTS; i++)
		if (restore_registered && saved[i].fd == fd) {
			restore_one(&saved[i]);
			return;
		}
	close(fd);
}

void
tp_uart_close_as_is(int fd)
{
	for (int i = 0; i < TP_MAX_UARTS; i++)
		if (restore_registered && saved[i].fd == fd && saved[i].managed) {
			if (close(fd) != 0)
				atf_tc_fail("close: %s", strerror(errno));
			saved[i].fd = CLOSED_AS_IS;
			return;
		}
	atf_tc_fail("tp_uart_close_as_is: fd %d was not opened by tp_uart_open", fd);
}

/* Bytes a failed case left in flight (the link, the peer's FIFO) must not
 * reach the next case: read both ports until both stay quiet for a window. */
static void
drain_stale(int a, int b)
{
	char junk[256];
	long long quiet_since = tp_now_ms(), deadline = quiet_since + TP_WAIT_MS;

	tp_waiting_for("stale bytes on the pair to stop");
	while (tp_now_ms() - quiet_since < TP_QUIET_WINDOW_MS) {
		if (tp_now_ms() > deadline)
			atf_tc_fail("the UART pair never went quiet: bytes keep "
				    "arriving for %d ms", TP_WAIT_MS);
		struct pollfd pf[2] = {{.fd = a, .events = POLLIN}, {.fd = b, .events = POLLIN}};
		if (poll(pf, 2, TP_QUIET_WINDOW_MS) > 0) {
			for (int i = 0; i < 2; i++)
				if ((pf[i].revents & POLLIN) && tp_fionread(pf[i].fd) > 0 &&
				    read(pf[i].fd, junk, sizeof(junk)) > 0)
					quiet_since = tp_now_ms();
		}
	}
}

void
tp_serial_open_pair_at(const atf_tc_t *tc, struct tp_serial_pair *p, int *a,
		       int *b, int extra)
{
	tp_serial_find(tc, p);
	*a = tp_uart_open(p->a, extra);
	*b = tp_uart_open(p->b, extra);
	drain_stale(*a, *b);
}

void
tp_serial_open_pair(const atf_tc_t *tc, int *a, int *b, int extra)
{
	struct tp_serial_pair p;

	tp_serial_open_pair_at(tc, &p, a, b, extra);
}

/* ---------------------------------------------------------------- termios */

void
tp_uart_speed(int fd, speed_t s)
{
	struct termios t;
	tp_tc_get(fd, &t);
	cfsetispeed(&t, s);
	cfsetospeed(&t, s);
	tp_tc_set(fd, &t);
}

void
tp_uart_cflag(int fd, tcflag_t set, tcflag_t clear)
{
	struct termios t;
	tp_tc_get(fd, &t);
	t.c_cflag = (t.c_cflag & ~clear) | set;
	tp_tc_set(fd, &t);
	struct termios r;
	tp_tc_get(fd, &r);
	if ((r.c_cflag & (set | clear)) != set)
		atf_tc_fail("c_cflag reads %#o after setting %#o and clearing %#o",
			    (unsigned)r.c_cflag, (unsigned)set, (unsigned)clear);
}

/* ---------------------------------------------------------------- queues and I/O */

int
tp_uart_outq(int fd)
{
	int n;
	if (ioctl(fd, TIOCOUTQ, &n) != 0)
		atf_tc_fail("TIOCOUTQ: %s", strerror(errno));
	return n;
}

void
tp_uart_wait_outq_empty(int fd, int timeout_ms, const char *what)
{
	long long deadline = tp_now_ms() + timeout_ms;
	int step = 0, n;

	tp_waiting_for(what);
	while ((n = tp_uart_outq(fd)) != 0) {
		if (tp_now_ms() > deadline)
			atf_tc_fail("%s: TIOCOUTQ still %d after %d ms", what, n,
				    timeout_ms);
		tp_backoff(&step);
	}
}

void
tp_uart_read_exact(int fd, void *buf, size_t len, int timeout_ms,
		   const char *what)
{
	char *p = buf;
	size_t got = 0;
	long long deadline = tp_now_ms() + timeout_ms;

	tp_waiting_for(what);
	while (got < len) {
		int left = (int)(deadline - tp_now_ms());
		short rev = left > 0 ? tp_poll1(fd, POLLIN, left) : 0;
		if (!(rev & (POLLIN | POLLHUP | POLLERR)))
			atf_tc_fail("%s: read %zu of %zu bytes in %d ms (got \"%s\")",
				    what, got, len, timeout_ms, tp_esc(p, got));
		/* FIONREAD first: a blocking descriptor must not block here;
		 * after a hangup, read to see its EOF or error. */
		int avail = tp_fionread(fd);
		if (avail <= 0 && !(rev & (POLLHUP | POLLERR)))
			continue;
		size_t want = len - got;
		if (avail > 0 && (size_t)avail < want)
			want = (size_t)avail;
		ssize_t n = read(fd, p + got, want);
		if (n < 0 && (errno == EINTR || errno == EAGAIN))
			continue;
		if (n < 0)
			atf_tc_fail("%s: read after %zu of %zu bytes: %s", what,
				    got, len, strerror(errno));
		if (n == 0)
			atf_tc_fail("%s: EOF after %zu of %zu bytes", what, got, len);
		got += (size_t)n;
	}
}

long long
tp_serial_transfer(int tx, int rx, const void *data, size_t len,
		   int timeout_ms, const char *what)
{
	return tp_serial_transfer_window(tx, rx, data, len, TP_SERIAL_WINDOW,
					 timeout_ms, what);
}

long long
tp_serial_transfer_window(int tx, int rx, const void *data, size_t len,
			  size_t window, int timeout_ms, const char *what)
{
	const char *out = data;
	char *in = malloc(len);
	size_t sent = 0, got = 0;
	long long start = tp_now_ms(), deadline = start + timeout_ms;
	int txfl = fcntl(tx, F_GETFL), rxfl = fcntl(rx, F_GETFL);

	if (in == NULL)
		atf_tc_fail("out of memory for a %zu-byte transfer", len);
	/* Non-blocking both ways: one loop keeps the receiver reading while
	 * the transmitter writes, so the link never backs up. */
	fcntl(tx, F_SETFL, txfl | O_NONBLOCK);
	fcntl(rx, F_SETFL, rxfl | O_NONBLOCK);
	tp_waiting_for(what);
	while (got < len) {
		int left = (int)(deadline - tp_now_ms());
		if (left <= 0)
			atf_tc_fail("%s: received %zu of %zu bytes (%zu written), "
				    "then nothing for %d ms", what, got, len, sent,
				    timeout_ms);
		struct pollfd pf[2] = {
			{.fd = rx, .events = POLLIN},
			{.fd = tx, .events = sent < len && sent - got < window ? POLLOUT : 0},
		};
		if (tx == rx)
			pf[0].events |= pf[1].events;
		if (poll(pf, tx == rx ? 1 : 2, left > 100 ? 100 : left) < 0 &&
		    errno != EINTR)
			atf_tc_fail("%s: poll: %s", what, strerror(errno));
		if (sent < len && sent - got < window) {
			size_t chunk = len - sent;
			if (chunk > window - (sent - got))
				chunk = window - (sent - got);
			ssize_t n = write(tx, out + sent, chunk);
			if (n < 0 && errno != EAGAIN && errno != EINTR)
				atf_tc_fail("%s: write after %zu bytes: %s", what,
					    sent, strerror(errno));
			if (n > 0)
				sent += (size_t)n;
		}
		ssize_t n = read(rx, in + got, len - got);
		if (n < 0 && errno != EAGAIN && errno != EINTR)
			atf_tc_fail("%s: read after %zu bytes: %s", what, got,
				    strerror(errno));
		if (n == 0)
			atf_tc_fail("%s: EOF after %zu bytes", what, got);
		if (n > 0) {
			got += (size_t)n;
			/* A slow link that goes on is not a stuck one: a loaded
			 * TCG guest moved a FIFO-less type's loopback at 18
			 * bytes a second (179 of 256 in 10 s). */
			deadline = tp_now_ms() + timeout_ms;
			/* Fail at the first wrong byte: a loss shows as a
			 * shift, named with the bytes around it. */
			long bad = -1;
			for (size_t i = got - (size_t)n; i < got && bad < 0; i++)
				if (in[i] != out[i])
					bad = (long)i;
			if (bad >= 0) {
				size_t at = (size_t)bad, ctx = got - at < 8 ? got - at : 8;
				atf_tc_fail("%s: byte %ld of %zu is wrong: got \"%s\", "
					    "sent \"%s\" (lost or reordered)",
					    what, bad, len, tp_esc(in + at, ctx),
					    tp_esc(out + at, ctx));
			}
		}
	}
	fcntl(tx, F_SETFL, txfl);
	fcntl(rx, F_SETFL, rxfl);
	free(in);
	return tp_now_ms() - start;
}

void
tp_serial_stop_output(int tx, int peer)
{
	char m;

	tp_iflag(tx, IXON, IXANY);
	tp_write_str(peer, "\023m", "VSTOP and a marker from the peer");
	tp_uart_read_exact(tx, &m, 1, TP_WAIT_MS, "the marker after VSTOP");
	if (m != 'm')
		atf_tc_fail("read \"%s\" where only the marker after VSTOP was "
			    "data", tp_esc(&m, 1));
}

void
tp_serial_start_output(int peer)
{
	tp_write_str(peer, "\021", "VSTART from the peer");
}

void
tp_uart_wait_rx(int fd, int want, const char *what)
{
	struct serial_icounter_struct c;
	long long deadline = tp_now_ms() + TP_WAIT_MS;
	int step = 0;

	tp_waiting_for(what);
	for (;;) {
		tp_uart_icount(fd, &c);
		if (c.rx >= want)
			return;
		if (tp_now_ms() > deadline)
			atf_tc_fail("%s: rx counter %d, want %d after %d ms", what,
				    c.rx, want, TP_WAIT_MS);
		tp_backoff(&step);
	}
}

/* ---------------------------------------------------------------- modem lines */

int
tp_uart_mget(int fd)
{
	int v;
	if (ioctl(fd, TIOCMGET, &v) != 0)
		atf_tc_fail("TIOCMGET: %s", strerror(errno));
	return v;
}

void
tp_uart_mbis(int fd, int bits)
{
	if (ioctl(fd, TIOCMBIS, &bits) != 0)
		atf_tc_fail("TIOCMBIS %s: %s", tp_tiocm_str(bits), strerror(errno));
}

void
tp_uart_mbic(int fd, int bits)
{
	if (ioctl(fd, TIOCMBIC, &bits) != 0)
		atf_tc_fail("TIOCMBIC %s: %s", tp_tiocm_str(bits), strerror(errno));
}

void
tp_uart_mset(int fd, int bits)
{
	if (ioctl(fd, TIOCMSET, &bits) != 0)
		atf_tc_fail("TIOCMSET %s: %s", tp_tiocm_str(bits), strerror(errno));
}

bool
tp_uart_wait_lines(int fd, int mask, int want, int timeout_ms)
{
	long long deadline = tp_now_ms() + timeout_ms;
	int step = 0;

	while ((tp_uart_mget(fd) & mask) != want) {
		if (tp_now_ms() > deadline)
			return false;
		tp_backoff(&step);
	}
	return true;
}

void
tp_uart_loop(int fd, bool on)
{
	if (on)
		tp_uart_mbis(fd, TIOCM_LOOP);
	else
		tp_uart_mbic(fd, TIOCM_LOOP);
	/* The MCR is written synchronously: TIOCMGET shows the bit at once. */
	int now = tp_uart_mget(fd);
	if (!!(now & TIOCM_LOOP) != on)
		atf_tc_fail("TIOCMGET reads %s after turning TIOCM_LOOP %s",
			    tp_tiocm_str(now), on ? "on" : "off");
}

const char *
tp_tiocm_str(int bits)
{
	static const struct {
		int bit;
		const char *name;
	} names[] = {
		{TIOCM_LE, "LE"},     {TIOCM_DTR, "DTR"},   {TIOCM_RTS, "RTS"},
		{TIOCM_ST, "ST"},     {TIOCM_SR, "SR"},     {TIOCM_CTS, "CTS"},
		{TIOCM_CAR, "CD"},    {TIOCM_RNG, "RI"},    {TIOCM_DSR, "DSR"},
		{TIOCM_OUT1, "OUT1"}, {TIOCM_OUT2, "OUT2"}, {TIOCM_LOOP, "LOOP"},
	};
	static char buf[4][96];
	static int next;
	char *out = buf[next++ % 4];

	out[0] = '\0';
	for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++)
		if (bits & names[i].bit) {
			if (out[0])
				strcat(out, "|");
			strcat(out, names[i].name);
			bits &= ~names[i].bit;
		}
	if (bits)
		snprintf(out + strlen(out), 24, "%s%#x", out[0] ? "|" : "", bits);
	if (out[0] == '\0')
		strcpy(out, "none");
	return out;
}

void
tp_uart_icount(int fd, struct serial_icounter_struct *ic)
{
	memset(ic, 0, sizeof(*ic));
	if (ioctl(fd, TIOCGICOUNT, ic) != 0)
		atf_tc_fail("TIOCGICOUNT: %s", strerror(errno));
}

void
tp_uart_gserial(int fd, struct serial_struct *ss)
{
	memset(ss, 0, sizeof(*ss));
	if (ioctl(fd, TIOCGSERIAL, ss) != 0)
		atf_tc_fail("TIOCGSERIAL: %s", strerror(errno));
}

static struct {
	bool armed;
	int fd;
	pid_t pid;
	struct serial_struct ss;
	char path[PATH_MAX]; /* the port's node, for a hung-up fd */
} serial_saved;

static int
serial_put_back(void)
{
	if (!serial_saved.armed || getpid() != serial_saved.pid)
		return 0;
	struct serial_struct ss = serial_saved.ss;
	int err = EBADF;
	if (serial_saved.fd >= 0) {
		if (ioctl(serial_saved.fd, TIOCSSERIAL, &ss) == 0)
			return 0;
		err = errno;
	}
	/* No descriptor, or one a hangup of the port took (EIO): put the
	 * settings back through a new open of the port. */
	if ((serial_saved.fd >= 0 && err != EIO) || !serial_saved.path[0])
		return err;
	int fd = open(serial_saved.path, O_RDWR | O_NONBLOCK | O_NOCTTY | O_CLOEXEC);
	if (fd < 0)
		return errno;
	ss = serial_saved.ss;
	err = ioctl(fd, TIOCSSERIAL, &ss) == 0 ? 0 : errno;
	close(fd);
	return err;
}

static void
serial_put_back_at_exit(void)
{
	serial_put_back();
	serial_saved.armed = false;
}

void
tp_serial_save(int fd, struct serial_struct *s0)
{
	static bool registered;

	tp_uart_gserial(fd, s0);
	if (!registered) {
		atexit(serial_put_back_at_exit);
		registered = true;
	}
	serial_saved.fd = fd;
	serial_saved.pid = getpid();
	serial_saved.ss = *s0;
	char link[64];
	snprintf(link, sizeof link, "/proc/self/fd/%d", fd);
	ssize_t n = readlink(link, serial_saved.path, sizeof serial_saved.path - 1);
	serial_saved.path[n > 0 ? n : 0] = '\0';
	serial_saved.armed = true;
}

void
tp_serial_add_flags(int fd, struct serial_struct *s0, int flags, const char *names)
{
	struct serial_struct ss;

	tp_serial_save(fd, s0);
	ss = *s0;
	ss.flags |= flags;
	if (ioctl(fd, TIOCSSERIAL, &ss) != 0)
		atf_tc_fail("TIOCSSERIAL adding %s: %s", names, strerror(errno));
	tp_uart_gserial(fd, &ss);
	if ((ss.flags & flags) != flags)
		atf_tc_fail("TIOCGSERIAL after adding %s: flags %#x", names, ss.flags);
}

void
tp_serial_put_back(void)
{
	int err = serial_put_back();
	if (err != 0)
		atf_tc_fail("TIOCSSERIAL back to the original settings: %s",
			    strerror(err));
}

void
tp_serial_put_back_fd(int fd)
{
	serial_saved.fd = fd;
}

/* ---------------------------------------------------------------- /proc/tty/driver/serial */

bool
tp_serial_proc(const char *path, struct tp_serial_proc *pr, char *why,
	       size_t whylen)
{
	const char *digits = path + strcspn(path, "0123456789");
	long line = strtol(digits, NULL, 10);
	char buf[512];
	FILE *f = fopen("/proc/tty/driver/serial", "r");

	memset(pr, 0, sizeof(*pr));
	if (f == NULL) {
		snprintf(why, whylen, "no /proc/tty/driver/serial: %s", strerror(errno));
		return false;
	}
	bool found = false;
	while (fgets(buf, sizeof(buf), f) != NULL) {
		char *end;
		if (strtol(buf, &end, 10) != line || *end != ':' || !*digits)
			continue;
		found = true;
		buf[strcspn(buf, "\n")] = '\0';
		snprintf(pr->text, sizeof(pr->text), "%.250s", buf);
		break;
	}
	fclose(f);
	if (!found) {
		snprintf(why, whylen, "no line %ld in /proc/tty/driver/serial", line);
		return false;
	}
	char *save = NULL;
	for (char *tok = strtok_r(buf, " ", &save); tok; tok = strtok_r(NULL, " ", &save)) {
		long v;
		char key[16];
		if (sscanf(tok, "%15[a-z]:%ld", key, &v) == 2) {
			if (!strcmp(key, "tx")) pr->tx = v;
			else if (!strcmp(key, "rx")) pr->rx = v;
			else if (!strcmp(key, "fe")) pr->fe = v;
			else if (!strcmp(key, "pe")) pr->pe = v;
			else if (!strcmp(key, "brk")) pr->brk = v;
			else if (!strcmp(key, "oe")) pr->oe = v;
			else if (!strcmp(key, "bo")) pr->bo = v;
			continue;
		}
		if (strchr(tok, ':') != NULL)
			continue;
		/* The modem lines: RTS|CTS|DTR|DSR|CD|RI */
		char *s2 = NULL;
		for (char *l = strtok_r(tok, "|", &s2); l; l = strtok_r(NULL, "|", &s2)) {
			if (!strcmp(l, "RTS")) pr->lines |= TIOCM_RTS;
			else if (!strcmp(l, "CTS")) pr->lines |= TIOCM_CTS;
			else if (!strcmp(l, "DTR")) pr->lines |= TIOCM_DTR;
			else if (!strcmp(l, "DSR")) pr->lines |= TIOCM_DSR;
			else if (!strcmp(l, "CD")) pr->lines |= TIOCM_CAR;
			else if (!strcmp(l, "RI")) pr->lines |= TIOCM_RNG;
		}
	}
	return true;
}
