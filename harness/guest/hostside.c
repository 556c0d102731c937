// SPDX-License-Identifier: GPL-2.0-only
/* hostside.c: the QEMU runner's side of the request channel: request lines
 * from a guest case in, actions through QEMU's monitor (QMP), answer lines
 * out (harness/PROTOCOL.md, "The request channel"). */
#include "hostside.h"
#include "kutil.h"
#include "proc.h"

#include <errno.h>
#include <fcntl.h>
#include <jansson.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>

/* How long one monitor command may take (QEMU answers in milliseconds). */
#define QMP_DEADLINE_MS 10000
/* At most this many breaks in one burst (a 16550's FIFO holds 16). */
#define BREAKS_MAX 64
/* How often an armed wake asks QEMU whether the guest is suspended. */
#define WAKE_POLL_S 0.1
/* The longest a wake stays armed. */
#define WAKE_MAX_S 600

static int
listen_unix(const char *path, char *err, size_t errlen)
{
	struct sockaddr_un a = {.sun_family = AF_UNIX};
	if (strlen(path) >= sizeof a.sun_path) {
		snprintf(err, errlen, "socket path too long: %.200s", path);
		return -1;
	}
	strcpy(a.sun_path, path);
	unlink(path);
	int fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
	if (fd < 0 || bind(fd, (void *)&a, sizeof a) < 0 || listen(fd, 1) < 0) {
		snprintf(err, errlen, "cannot listen on %.200s: %s", path,
			 strerror(errno));
		if (fd >= 0)
			close(fd);
		return -1;
	}
	return fd;
}

int
hostside_listen(struct hostside *h, const char *dir,
		const struct hostside_uart *uarts, int n_uarts,
		const char *who, char *err, size_t errlen)
{
	memset(h, 0, sizeof *h);
	h->ctl_listen = h->qmp_listen = h->ctl = h->qmp = -1;
	snprintf(h->who, sizeof h->who, "%s", who);
	if (n_uarts > HOSTSIDE_MAX_UARTS)
		n_uarts = HOSTSIDE_MAX_UARTS;
	memcpy(h->uarts, uarts, (size_t)n_uarts * sizeof *uarts);
	h->n_uarts = n_uarts;
	if (ku_fmt(h->ctl_path, sizeof h->ctl_path, "%s/ctl.sock", dir) < 0 ||
	    ku_fmt(h->qmp_path, sizeof h->qmp_path, "%s/qmp.sock", dir) < 0) {
		/* A run's TMPDIR can be deep (ttypot mutants puts one in
		 * its report directory): a short one of our own. */
		snprintf(h->own_dir, sizeof h->own_dir, "/tmp/ttypot-hs.XXXXXX");
		if (!mkdtemp(h->own_dir)) {
			snprintf(err, errlen, "socket directory path too long "
				 "(%.200s) and mkdtemp %s: %s", dir, h->own_dir,
				 strerror(errno));
			h->own_dir[0] = '\0';
			return -1;
		}
		snprintf(h->ctl_path, sizeof h->ctl_path, "%s/ctl.sock", h->own_dir);
		snprintf(h->qmp_path, sizeof h->qmp_path, "%s/qmp.sock", h->own_dir);
	}
	h->ctl_listen = listen_unix(h->ctl_path, err, errlen);
	if (h->ctl_listen < 0) {
		hostside_close(h);
		return -1;
	}
	h->qmp_listen = listen_unix(h->qmp_path, err, errlen);
	if (h->qmp_listen < 0) {
		hostside_close(h);
		return -1;
	}
	return 0;
}

void
hostside_devices(struct hostside *h, const struct hostside_dev *devs,
		 int n_devs)
{
	if (n_devs > HOSTSIDE_MAX_DEVS)
		n_devs = HOSTSIDE_MAX_DEVS;
	memcpy(h->devs, devs, (size_t)n_devs * sizeof *devs);
	h->n_devs = n_devs;
}

void
hostside_qemu_args(const struct hostside *h, const char *addr, char *chr,
		   char *dev, char *mon, char *monopt, size_t len)
{
	snprintf(chr, len, "socket,id=hostctl,path=%s,server=off", h->ctl_path);
	snprintf(dev, len, "pci-serial,chardev=hostctl,addr=%s", addr);
	snprintf(mon, len, "socket,id=hostqmp,path=%s,server=off", h->qmp_path);
	snprintf(monopt, len, "chardev=hostqmp,mode=control");
}

/* ---------------------------------------------------------------- the monitor */

/* The next complete line from the monitor within the deadline (absolute,
 * proc_now() seconds; a deadline already passed takes only what has
 * arrived), NUL-terminated in line; false on EOF, error or the deadline. */
static bool
qmp_line(struct hostside *h, char *line, size_t len, double deadline)
{
	for (;;) {
		char *nl = memchr(h->qin, '\n', h->qin_len);
		if (nl) {
			size_t n = (size_t)(nl - h->qin);
			size_t c = n < len - 1 ? n : len - 1;
			memcpy(line, h->qin, c);
			line[c] = '\0';
			memmove(h->qin, nl + 1, h->qin_len - n - 1);
			h->qin_len -= n + 1;
			return true;
		}
		if (h->qin_len == sizeof h->qin) /* a line longer than all */
			h->qin_len = 0;
		int left = (int)((deadline - proc_now()) * 1000);
		if (left < 0)
			left = 0; /* still take what has arrived */
		struct pollfd p = {.fd = h->qmp, .events = POLLIN};
		if (poll(&p, 1, left) <= 0)
			return false;
		ssize_t r = read(h->qmp, h->qin + h->qin_len,
				 sizeof h->qin - h->qin_len);
		if (r <= 0) { /* QEMU went away */
			close(h->qmp);
			h->qmp = -1;
			return false;
		}
		h->qin_len += (size_t)r;
	}
}

/* Remember the device a DEVICE_DELETED event names (unplug waits for it). */
static void
note_event(struct hostside *h, json_t *r)
{
	const char *ev = json_string_value(json_object_get(r, "event"));
	if (!ev || strcmp(ev, "DEVICE_DELETED"))
		return;
	const char *id = json_string_value(
		json_object_get(json_object_get(r, "data"), "device"));
	if (id)
		snprintf(h->deleted, sizeof h->deleted, "%s", id);
}

/* Run one monitor command: the reply's "return" (a new reference, NULL on
 * failure with err saying why: an "error" reply, no reply, a broken line).
 * Events that arrive first are skipped. */
static json_t *
qmp_call(struct hostside *h, const char *cmd, json_t *args, char *err,
	 size_t errlen)
{
	if (h->qmp < 0) {
		snprintf(err, errlen, "QEMU's monitor is not connected");
		json_decref(args);
		return NULL;
	}
	json_t *req = json_pack("{s:s}", "execute", cmd);
	if (args)
		json_object_set_new(req, "arguments", args);
	char *text = json_dumps(req, JSON_COMPACT);
	json_decref(req);
	bool sent = false;
	if (text) {
		size_t n = strlen(text);
		text[n] = '\n';
		sent = write(h->qmp, text, n + 1) == (ssize_t)(n + 1);
	}
	free(text);
	if (!sent) {
		snprintf(err, errlen, "cannot write to QEMU's monitor: %s",
			 strerror(errno));
		return NULL;
	}
	double deadline = proc_now() + QMP_DEADLINE_MS / 1000.0;
	char line[4096];
	while (qmp_line(h, line, sizeof line, deadline)) {
		json_t *r = json_loads(line, 0, NULL);
		if (!r)
			continue;
		json_t *ret = json_object_get(r, "return");
		json_t *e = json_object_get(r, "error");
		if (ret) {
			json_incref(ret);
			json_decref(r);
			return ret;
		}
		if (e) {
			const char *d = json_string_value(json_object_get(e, "desc"));
			snprintf(err, errlen, "QEMU refused %s: %.200s", cmd,
				 d ? d : "(no description)");
			json_decref(r);
			return NULL;
		}
		note_event(h, r);
		json_decref(r); /* an event, or the greeting */
	}
	snprintf(err, errlen, "no answer from QEMU's monitor to %s within "
		 "%d ms", cmd, QMP_DEADLINE_MS);
	return NULL;
}

static bool
qmp_ok(struct hostside *h, const char *cmd, json_t *args, char *err,
       size_t errlen)
{
	json_t *r = qmp_call(h, cmd, args, err, errlen);
	json_decref(r);
	return r != NULL;
}

/* The greeting, then capabilities negotiation: commands work after it. */
static void
qmp_start(struct hostside *h)
{
	char err[300];
	if (!qmp_ok(h, "qmp_capabilities", NULL, err, sizeof err)) {
		ku_progress("%s: host side: %s", h->who, err);
		close(h->qmp);
		h->qmp = -1;
	}
}

/* ---------------------------------------------------------------- actions */

static const char *
chardev_of(const struct hostside *h, const char *pci)
{
	for (int i = 0; i < h->n_uarts; i++)
		if (!strcmp(h->uarts[i].pci, pci))
			return h->uarts[i].chardev;
	return NULL;
}

/* break PCI [N]: N breaks into that UART.  More than one arrive with the
 * guest stopped, so the UART takes them back to back, none read between. */
static void
act_break(struct hostside *h, char *args, char *ans, size_t len)
{
	char err[300];
	char *pci = strtok(args, " ");
	char *count = strtok(NULL, " ");
	long n = count ? strtol(count, NULL, 10) : 1;
	const char *dev = pci ? chardev_of(h, pci) : NULL;
	if (!dev) {
		snprintf(ans, len, "fail no-such-uart %.60s", pci ? pci : "-");
		return;
	}
	if (n < 1 || n > BREAKS_MAX) {
		snprintf(ans, len, "fail count-out-of-range %.20s (1..%d)",
			 count, BREAKS_MAX);
		return;
	}
	bool stopped = n > 1;
	if (stopped && !qmp_ok(h, "stop", NULL, err, sizeof err)) {
		snprintf(ans, len, "fail %.150s", err);
		return;
	}
	long sent = 0;
	while (sent < n && qmp_ok(h, "chardev-send-break",
				   json_pack("{s:s}", "id", dev), err,
				   sizeof err))
		sent++;
	char cerr[300] = "";
	if (stopped && !qmp_ok(h, "cont", NULL, cerr, sizeof cerr))
		ku_progress("%s: host side: cannot resume the guest: %s",
			    h->who, cerr);
	if (sent < n)
		snprintf(ans, len, "fail after %ld of %ld breaks: %.120s", sent, n,
			 err);
	else if (cerr[0])
		snprintf(ans, len, "fail %.150s", cerr);
	else
		snprintf(ans, len, "ok %ld", n);
}

static const struct hostside_dev *
dev_of(const struct hostside *h, const char *name)
{
	for (int i = 0; name && i < h->n_devs; i++)
		if (!strcmp(h->devs[i].name, name))
			return &h->devs[i];
	return NULL;
}

/* unplug DEV: device_del, answered once QEMU says the device is gone
 * (DEVICE_DELETED, which may come before or after device_del's return). */
static void
act_unplug(struct hostside *h, char *args, char *ans, size_t len)
{
	char err[300];
	const struct hostside_dev *d = dev_of(h, strtok(args, " "));
	if (!d) {
		snprintf(ans, len, "fail no-such-device %.60s", args);
		return;
	}
	h->deleted[0] = '\0';
	if (!qmp_ok(h, "device_del", json_pack("{s:s}", "id", d->id), err,
		    sizeof err)) {
		snprintf(ans, len, "fail %.150s", err);
		return;
	}
	double deadline = proc_now() + QMP_DEADLINE_MS / 1000.0;
	char line[4096];
	while (strcmp(h->deleted, d->id) &&
	       qmp_line(h, line, sizeof line, deadline)) {
		json_t *r = json_loads(line, 0, NULL);
		if (r)
			note_event(h, r);
		json_decref(r);
	}
	if (strcmp(h->deleted, d->id))
		snprintf(ans, len, "fail no DEVICE_DELETED for %.40s within "
			 "%d ms", d->id, QMP_DEADLINE_MS);
	else
		snprintf(ans, len, "ok %.60s", d->name);
}

/* plug DEV: device_add with the id, chardev and bus it was started with. */
static void
act_plug(struct hostside *h, char *args, char *ans, size_t len)
{
	char err[300];
	const struct hostside_dev *d = dev_of(h, strtok(args, " "));
	if (!d) {
		snprintf(ans, len, "fail no-such-device %.60s", args);
		return;
	}
	json_t *a = json_pack("{s:s,s:s,s:s,s:s}", "driver", d->driver, "id",
			      d->id, "chardev", d->chardev, "bus", d->bus);
	if (d->always_plugged)
		json_object_set_new(a, "always-plugged", json_true());
	if (!qmp_ok(h, "device_add", a, err, sizeof err))
		snprintf(ans, len, "fail %.150s", err);
	else
		snprintf(ans, len, "ok %.60s", d->name);
}

/* The backend "open" gives a closed chardev back: its UDP ends. */
static json_t *
udp_backend(const struct hostside_dev *d)
{
	char port[16], local[16];
	snprintf(port, sizeof port, "%d", d->udp_port);
	snprintf(local, sizeof local, "%d", d->udp_localport);
	return json_pack("{s:s,s:{s:{s:s,s:{s:s,s:s}},s:{s:s,s:{s:s,s:s}}}}",
			 "type", "udp", "data",
			 "remote", "type", "inet", "data", "host", "127.0.0.1",
			 "port", port,
			 "local", "type", "inet", "data", "host", "127.0.0.1",
			 "port", local);
}

/* close DEV / open DEV: the host end of the device's chardev goes away
 * (chardev-change to a null backend: what the guest writes is dropped,
 * nothing comes in) and comes back (chardev-change to the UDP backend it
 * was started with).  The device stays plugged: a console whose terminal
 * closed. */
static void
act_chardev(struct hostside *h, bool open, char *args, char *ans, size_t len)
{
	char err[300];
	const struct hostside_dev *d = dev_of(h, strtok(args, " "));
	if (!d || !d->udp_localport) {
		snprintf(ans, len, "fail no-such-device %.60s", args);
		return;
	}
	json_t *be = open ? udp_backend(d)
			  : json_pack("{s:s,s:{}}", "type", "null", "data");
	if (!qmp_ok(h, "chardev-change", json_pack("{s:s,s:o}", "id",
		    d->chardev, "backend", be), err, sizeof err))
		snprintf(ans, len, "fail %.150s", err);
	else
		snprintf(ans, len, "ok %.60s", d->name);
}

static bool
can_close(const struct hostside *h)
{
	for (int i = 0; i < h->n_devs; i++)
		if (h->devs[i].udp_localport)
			return true;
	return false;
}

/* wake SECONDS: wake the guest (system_wakeup) once it is suspended, if
 * that happens within SECONDS. */
static void
act_wake(struct hostside *h, char *args, char *ans, size_t len)
{
	long s = strtol(args, NULL, 10);
	if (s < 1 || s > WAKE_MAX_S) {
		snprintf(ans, len, "fail seconds-out-of-range %.20s (1..%d)",
			 args, WAKE_MAX_S);
		return;
	}
	h->wake_armed = true;
	h->wake_deadline = proc_now() + (double)s;
	h->wake_next_poll = 0;
	snprintf(ans, len, "ok armed %ld", s);
}

static void
wake_if_suspended(struct hostside *h)
{
	double now = proc_now();
	if (!h->wake_armed || now < h->wake_next_poll)
		return;
	h->wake_next_poll = now + WAKE_POLL_S;
	char err[300];
	json_t *st = qmp_call(h, "query-status", NULL, err, sizeof err);
	const char *s = json_string_value(json_object_get(st, "status"));
	if (s && !strcmp(s, "suspended")) {
		h->wake_armed = false;
		if (!qmp_ok(h, "system_wakeup", NULL, err, sizeof err))
			ku_progress("%s: host side: cannot wake the guest: %s",
				    h->who, err);
	} else if (now > h->wake_deadline) {
		h->wake_armed = false;
		ku_progress("%s: host side: the guest did not suspend within "
			    "the time its wake request gave", h->who);
	}
	json_decref(st);
}

/* key KEYS: QEMU's send-key, on the pc machine's PS/2 keyboard (the VT
 * keyboard of an x86 guest).  KEYS are QEMU key names (qcodes) joined by
 * '-', pressed in that order and released together: "a", "shift-a",
 * "ctrl-c".  The answer comes once QEMU took them, not once the guest
 * read them: the case waits for its input with a deadline. */
static void
act_key(struct hostside *h, char *args, char *ans, size_t len)
{
	char err[300], *save = NULL;
	char *keys = strtok_r(args, " ", &save);
	if (!keys || strspn(keys, "abcdefghijklmnopqrstuvwxyz0123456789_-") !=
	    strlen(keys) || strlen(keys) > 100) {
		snprintf(ans, len, "fail bad-keys %.60s", keys ? keys : "-");
		return;
	}
	char shown[128];
	snprintf(shown, sizeof shown, "%s", keys);
	json_t *list = json_array();
	for (char *k = strtok_r(keys, "-", &save); k; k = strtok_r(NULL, "-", &save))
		json_array_append_new(list, json_pack("{s:s,s:s}", "type",
						      "qcode", "data", k));
	if (qmp_ok(h, "send-key", json_pack("{s:o}", "keys", list), err,
		   sizeof err))
		snprintf(ans, len, "ok %s", shown);
	else
		snprintf(ans, len, "fail %.150s", err);
}

/* One request line: "ttypot-req ID ACTION [ARGS]".  Others are ignored
 * (the guest's tty may echo before a case makes it raw). */
static void
request(struct hostside *h, char *line)
{
	static const char magic[] = "ttypot-req ";
	if (strncmp(line, magic, sizeof magic - 1))
		return;
	char *id = line + sizeof magic - 1;
	char *sp = strchr(id, ' ');
	if (!sp)
		return;
	*sp = '\0';
	char *action = sp + 1;
	char *args = strchr(action, ' ');
	if (args)
		*args++ = '\0';
	else
		args = action + strlen(action);
	char ans[HOSTSIDE_LINE_MAX - 64];
	h->requests++;
	if (!strcmp(action, "hello"))
		snprintf(ans, sizeof ans, "ok ttypot-qemu actions=hello,break,"
			 "wake,key%s%s", h->n_devs ? ",unplug,plug" : "",
			 can_close(h) ? ",close,open" : "");
	else if (h->qmp < 0)
		snprintf(ans, sizeof ans, "fail QEMU's monitor is not "
			 "connected");
	else if (!strcmp(action, "break"))
		act_break(h, args, ans, sizeof ans);
	else if (!strcmp(action, "wake"))
		act_wake(h, args, ans, sizeof ans);
	else if (!strcmp(action, "key"))
		act_key(h, args, ans, sizeof ans);
	else if (!strcmp(action, "unplug") && h->n_devs)
		act_unplug(h, args, ans, sizeof ans);
	else if (!strcmp(action, "plug") && h->n_devs)
		act_plug(h, args, ans, sizeof ans);
	else if (!strcmp(action, "close") && can_close(h))
		act_chardev(h, false, args, ans, sizeof ans);
	else if (!strcmp(action, "open") && can_close(h))
		act_chardev(h, true, args, ans, sizeof ans);
	else
		snprintf(ans, sizeof ans, "unknown %.60s", action);
	char out[HOSTSIDE_LINE_MAX + 64];
	int n = snprintf(out, sizeof out, "ttypot-ans %.40s %s\n", id, ans);
	if (n > 0 && write(h->ctl, out, (size_t)n) == n)
		h->answered++;
}

static void
read_requests(struct hostside *h)
{
	char buf[512];
	ssize_t r = read(h->ctl, buf, sizeof buf);
	if (r <= 0) {
		if (r == 0 || (errno != EAGAIN && errno != EINTR)) {
			close(h->ctl); /* QEMU went away */
			h->ctl = -1;
		}
		return;
	}
	for (ssize_t i = 0; i < r; i++) {
		char c = buf[i];
		if (c == '\n' || c == '\r') {
			h->in[h->in_len] = '\0';
			if (h->in_len && !h->in_overlong)
				request(h, h->in);
			h->in_len = 0;
			h->in_overlong = false;
		} else if (h->in_len < sizeof h->in - 1) {
			h->in[h->in_len++] = c;
		} else {
			h->in_overlong = true;
		}
	}
}

/* One QEMU, one connection: once it is made, the listening socket and
 * its path go at once, and the directory made for them with the second,
 * so that a run killed later (a deadline's SIGKILL) leaves nothing in /tmp. */
static int
accept_one(struct hostside *h, int *listen_fd, char *path)
{
	int fd = accept4(*listen_fd, NULL, NULL, SOCK_CLOEXEC);
	if (fd < 0)
		return fd;
	close(*listen_fd);
	*listen_fd = -1;
	unlink(path);
	path[0] = '\0';
	if (h->own_dir[0] && !h->ctl_path[0] && !h->qmp_path[0]) {
		rmdir(h->own_dir);
		h->own_dir[0] = '\0';
	}
	return fd;
}

void
hostside_service(struct hostside *h, int timeout_ms)
{
	struct pollfd p[3];
	int n = 0, i_ctl_l = -1, i_qmp_l = -1, i_ctl = -1;
	if (h->ctl_listen >= 0)
		i_ctl_l = n, p[n++] = (struct pollfd){h->ctl_listen, POLLIN, 0};
	if (h->qmp_listen >= 0)
		i_qmp_l = n, p[n++] = (struct pollfd){h->qmp_listen, POLLIN, 0};
	if (h->ctl >= 0)
		i_ctl = n, p[n++] = (struct pollfd){h->ctl, POLLIN, 0};
	if (h->wake_armed && timeout_ms > (int)(WAKE_POLL_S * 1000))
		timeout_ms = (int)(WAKE_POLL_S * 1000);
	if (poll(p, (nfds_t)n, timeout_ms) > 0) {
		if (i_qmp_l >= 0 && (p[i_qmp_l].revents & POLLIN)) {
			h->qmp = accept_one(h, &h->qmp_listen, h->qmp_path);
			if (h->qmp >= 0)
				qmp_start(h);
		}
		if (i_ctl_l >= 0 && (p[i_ctl_l].revents & POLLIN)) {
			h->ctl = accept_one(h, &h->ctl_listen, h->ctl_path);
			if (h->ctl >= 0)
				fcntl(h->ctl, F_SETFL,
				      fcntl(h->ctl, F_GETFL) | O_NONBLOCK);
		}
		if (i_ctl >= 0 && (p[i_ctl].revents & (POLLIN | POLLHUP)))
			read_requests(h);
	}
	/* Monitor events nobody waits for (SUSPEND, STOP ...) pile up in the
	 * socket: drop what is there. */
	while (h->qmp >= 0) {
		char line[4096];
		if (!qmp_line(h, line, sizeof line, proc_now()))
			break;
	}
	if (h->qmp >= 0)
		wake_if_suspended(h);
}

void
hostside_close(struct hostside *h)
{
	int *fds[] = {&h->ctl_listen, &h->qmp_listen, &h->ctl, &h->qmp};
	for (size_t i = 0; i < sizeof fds / sizeof *fds; i++)
		if (*fds[i] >= 0) {
			close(*fds[i]);
			*fds[i] = -1;
		}
	if (h->ctl_path[0])
		unlink(h->ctl_path);
	if (h->qmp_path[0])
		unlink(h->qmp_path);
	if (h->own_dir[0])
		rmdir(h->own_dir);
	h->own_dir[0] = '\0';
}
