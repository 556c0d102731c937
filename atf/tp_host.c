// SPDX-License-Identifier: GPL-2.0-only
/* tp_host.c: the guest side of the request channel: request lines out on
 * the host_port tty, answer lines back, each within a deadline. */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <sys/file.h>
#include <termios.h>
#include <unistd.h>

#include "tp_host.h"
#include "tp_serial.h"

static struct {
	int fd;          /* the channel, open for the rest of the case */
	char path[128];
	char actions[256];
	unsigned seq;
	char detail[512]; /* the last answer after "ok " */
} host = {.fd = -1};

/* The channel is shared by every case that asks (in parallel areas too):
 * one at a time, waiting for the holder's case to end. */
static void
lock_channel(int fd)
{
	long long deadline = tp_now_ms() + TP_WAIT_MS;
	int step = 0;

	tp_waiting_for("the request channel's lock (another case holds it)");
	while (flock(fd, LOCK_EX | LOCK_NB) != 0) {
		if (errno != EWOULDBLOCK)
			atf_tc_fail("flock %s: %s", host.path, strerror(errno));
		if (tp_now_ms() > deadline)
			atf_tc_fail("the request channel %s stayed locked by "
				    "another case for %d ms", host.path,
				    TP_WAIT_MS);
		tp_backoff(&step);
	}
}

/* Raw, no echo, no flow control: the bytes are the protocol's. */
static void
channel_raw(int fd)
{
	struct termios t;
	if (tcgetattr(fd, &t) != 0)
		atf_tc_fail("tcgetattr %s: %s", host.path, strerror(errno));
	cfmakeraw(&t);
	t.c_cflag |= CLOCAL | CREAD;
	t.c_cflag &= ~CRTSCTS;
	t.c_iflag &= ~(IXON | IXOFF);
	cfsetispeed(&t, B115200);
	cfsetospeed(&t, B115200);
	if (tcsetattr(fd, TCSANOW, &t) != 0)
		atf_tc_fail("tcsetattr %s: %s", host.path, strerror(errno));
	tcflush(fd, TCIOFLUSH);
}

/* Write a request line without failing the case (at its end, from
 * atexit); false when it could not be written within timeout_ms. */
static bool
send_soft(const char *line, size_t n, int timeout_ms)
{
	long long deadline = tp_now_ms() + timeout_ms;
	while (n > 0) {
		ssize_t w = write(host.fd, line, n);
		if (w > 0) {
			line += w;
			n -= (size_t)w;
			continue;
		}
		int left = (int)(deadline - tp_now_ms());
		if ((w < 0 && errno != EAGAIN && errno != EINTR) || left <= 0)
			return false;
		tp_poll1(host.fd, POLLOUT, left);
	}
	return true;
}

/* Send one request; wait for its answer line.  false on no answer within
 * timeout_ms; else the answer after the id in ans.  soft: a broken
 * channel is a false too, never a failure. */
static bool
exchange(int timeout_ms, const char *req, char *ans, size_t anslen,
	 bool soft)
{
	char id[32], line[512];
	int n;

	snprintf(id, sizeof(id), "%ld.%u", (long)getpid(), ++host.seq);
	n = snprintf(line, sizeof(line), "ttypot-req %s %s\n", id, req);
	if (n <= 0 || (size_t)n >= sizeof(line)) {
		if (soft)
			return false;
		atf_tc_fail("request too long: %s", req);
	}
	if (soft) {
		if (!send_soft(line, (size_t)n, timeout_ms))
			return false;
	} else {
		tp_write_all(host.fd, line, (size_t)n, "a request to the host "
			     "side");
	}

	char want[48];
	size_t wl = (size_t)snprintf(want, sizeof(want), "ttypot-ans %s ", id);
	size_t len = 0;
	long long deadline = tp_now_ms() + timeout_ms;
	tp_waiting_for(req);
	for (;;) {
		int left = (int)(deadline - tp_now_ms());
		if (left <= 0 || !(tp_poll1(host.fd, POLLIN, left) & POLLIN))
			return false;
		char c;
		ssize_t r = read(host.fd, &c, 1);
		if (r < 0 && (errno == EAGAIN || errno == EINTR))
			continue;
		if (r <= 0 && soft)
			return false;
		if (r <= 0)
			atf_tc_fail("reading the host side's answer on %s: %s",
				    host.path, r == 0 ? "EOF" : strerror(errno));
		if (c != '\n') {
			if (len < sizeof(line) - 1)
				line[len++] = c;
			continue;
		}
		line[len] = '\0';
		len = 0;
		/* Answers to requests of an earlier case are not ours. */
		if (strncmp(line, want, wl) == 0) {
			snprintf(ans, anslen, "%s", line + wl);
			return true;
		}
	}
}

void
tp_host_require(const atf_tc_t *tc, const char *action)
{
	char ans[512];

	if (host.fd < 0) {
		if (!atf_tc_has_config_var(tc, "host_port"))
			atf_tc_skip("no host side: the Kyua variable host_port "
				    "is not set (ttypot's QEMU guests set it; "
				    "the host column and boards have none)");
		snprintf(host.path, sizeof(host.path), "%s",
			 atf_tc_get_config_var(tc, "host_port"));
		int fd = open(host.path, O_RDWR | O_NOCTTY | O_NONBLOCK | O_CLOEXEC);
		if (fd < 0)
			atf_tc_skip("no host side: cannot open host_port %s: %s",
				    host.path, strerror(errno));
		host.fd = fd; /* closed when the case process exits */
		lock_channel(fd);
		channel_raw(fd);
		if (!exchange(TP_HOST_HELLO_MS, "hello", ans, sizeof(ans),
			      false))
			atf_tc_skip("no host side answered hello on %s within "
				    "%d ms", host.path, TP_HOST_HELLO_MS);
		if (strncmp(ans, "ok ", 3) != 0)
			atf_tc_skip("the host side on %s answered hello with "
				    "\"%s\"", host.path, ans);
		const char *a = strstr(ans, "actions=");
		snprintf(host.actions, sizeof(host.actions), ",%s,",
			 a ? a + strlen("actions=") : "");
	}
	char want[64];
	snprintf(want, sizeof(want), ",%s,", action);
	if (strstr(host.actions, want) == NULL)
		atf_tc_skip("the host side on %s offers no \"%s\" (it offers "
			    "%s)", host.path, action, host.actions);
}

const char *
tp_host_ask(int timeout_ms, const char *fmt, ...)
{
	char req[256], ans[512];
	va_list ap;

	if (host.fd < 0)
		atf_tc_fail("tp_host_ask before tp_host_require");
	va_start(ap, fmt);
	vsnprintf(req, sizeof(req), fmt, ap);
	va_end(ap);
	if (!exchange(timeout_ms, req, ans, sizeof(ans), false))
		atf_tc_fail("the host side did not answer \"%s\" within %d ms",
			    req, timeout_ms);
	if (strcmp(ans, "ok") != 0 && strncmp(ans, "ok ", 3) != 0)
		atf_tc_fail("the host side answered \"%s\" with \"%s\"", req,
			    ans);
	snprintf(host.detail, sizeof(host.detail), "%s",
		 ans[2] == ' ' ? ans + 3 : "");
	return host.detail;
}

bool
tp_host_try(int timeout_ms, const char *req)
{
	char ans[512];

	return host.fd >= 0 && exchange(timeout_ms, req, ans, sizeof(ans),
					true) &&
	       (strcmp(ans, "ok") == 0 || strncmp(ans, "ok ", 3) == 0);
}

void
tp_host_uart_name(const char *path, char *out, size_t len)
{
	const char *name = strrchr(path, '/') ? strrchr(path, '/') + 1 : path;
	if (!tp_serial_pci_of(name, out, len))
		snprintf(out, len, "%s", name);
}

void
tp_host_break(const char *path, int n)
{
	char uart[64];

	tp_host_uart_name(path, uart, sizeof(uart));
	tp_host_ask(TP_WAIT_MS, "break %s %d", uart, n);
}
