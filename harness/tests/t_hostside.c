// SPDX-License-Identifier: GPL-2.0-only
/* t_hostside.c: the QEMU runner's side of the request channel
 * (harness/guest/hostside.c) against a stand-in QEMU: a child process
 * that speaks QMP on the monitor socket and logs every command it gets,
 * while the test writes request lines on the channel's socket as a guest
 * case would and reads the answers. */
#include <atf-c.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdbool.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <sys/wait.h>
#include <unistd.h>

#include "hostside.h"
#include "kutil.h"
#include "proc.h"

struct rig {
	char dir[64];
	char socks[PATH_MAX]; /* the directory the sockets were made in */
	struct hostside hs;
	int guest;      /* the channel, from the guest's end */
	pid_t qemu;     /* the stand-in monitor */
	int log;        /* what the monitor was asked, one command a line */
};

static int
connect_unix(const char *path)
{
	struct sockaddr_un a = {.sun_family = AF_UNIX};
	snprintf(a.sun_path, sizeof a.sun_path, "%s", path);
	int fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
	if (fd < 0 || connect(fd, (void *)&a, sizeof a) < 0)
		atf_tc_fail("connect %s: %s", path, strerror(errno));
	return fd;
}

/* The stand-in QEMU monitor: a greeting, then one answer per command.
 * query-status says "running" twice, then "suspended"; the chardev
 * "refuse" does not exist.  Every command goes to the log as
 * "NAME [ID]". */
static void
fake_qmp(const char *path, int logfd)
{
	int fd = connect_unix(path);
	FILE *in = fdopen(fd, "r");
	dprintf(fd, "{\"QMP\": {\"version\": {}, \"capabilities\": []}}\r\n");
	char line[1024];
	int status_asked = 0;
	while (fgets(line, sizeof line, in)) {
		char cmd[64] = "", id[64] = "";
		char *p = strstr(line, "\"execute\":\"");
		if (p)
			sscanf(p + 11, "%63[^\"]", cmd);
		p = strstr(line, "\"id\":\"");
		if (p)
			sscanf(p + 6, "%63[^\"]", id);
		/* send-key: its key names, joined by '-', as the id. */
		for (char *d = strstr(line, "\"data\":\""); d && !strcmp(cmd, "send-key");
		     d = strstr(d + 8, "\"data\":\"")) {
			char k[32] = "";
			sscanf(d + 8, "%31[^\"]", k);
			size_t l = strlen(id);
			snprintf(id + l, sizeof id - l, "%s%s", l ? "-" : "", k);
		}
		/* chardev-change: the backend's type and ports after the id. */
		p = strstr(line, "\"backend\":{\"type\":\"");
		if (p && !strcmp(cmd, "chardev-change")) {
			char t[32] = "";
			sscanf(p + 19, "%31[^\"]", t);
			size_t l = strlen(id);
			snprintf(id + l, sizeof id - l, " %s", t);
			for (char *q = strstr(p, "\"port\":\""); q;
			     q = strstr(q + 8, "\"port\":\"")) {
				sscanf(q + 8, "%31[^\"]", t);
				l = strlen(id);
				snprintf(id + l, sizeof id - l, " %s", t);
			}
		}
		dprintf(logfd, "%s%s%s\n", cmd, id[0] ? " " : "", id);
		/* An event first: the runner must skip it. */
		dprintf(fd, "{\"event\": \"NOISE\", \"data\": {}}\r\n");
		/* device_del: DEVICE_DELETED before the return (usbser) or
		 * after it (hvcport), as QEMU sends it either way. */
		bool del = !strcmp(cmd, "device_del");
		if (del && !strcmp(id, "usbser"))
			dprintf(fd, "{\"event\": \"DEVICE_DELETED\", \"data\": "
				"{\"device\": \"usbser\"}}\r\n");
		if (!strncmp(cmd, "chardev-", 8) && !strncmp(id, "refuse", 6))
			dprintf(fd, "{\"error\": {\"class\": \"DeviceNotFound\", "
				"\"desc\": \"Chardev 'refuse' not found\"}}\r\n");
		else if (!strcmp(cmd, "query-status"))
			dprintf(fd, "{\"return\": {\"status\": \"%s\"}}\r\n",
				++status_asked > 2 ? "suspended" : "running");
		else
			dprintf(fd, "{\"return\": {}}\r\n");
		if (del && !strcmp(id, "hvcport"))
			dprintf(fd, "{\"event\": \"DEVICE_DELETED\", \"data\": "
				"{\"device\": \"hvcport\"}}\r\n");
	}
	_exit(0);
}

/* deep: a run directory too long for a socket path (ttypot mutants makes
 * them), so that the host side makes a directory of its own. */
static void
rig_up_in(struct rig *r, bool deep)
{
	static const struct hostside_uart uarts[] = {
		{"0000:00:10.0", "la"}, {"0000:00:11.0", "lb"},
		{"0000:00:12.0", "refuse"}};
	char err[256];
	snprintf(r->dir, sizeof r->dir, "/tmp/t_hostside.XXXXXX");
	ATF_REQUIRE(mkdtemp(r->dir) != NULL);
	char run[PATH_MAX];
	snprintf(run, sizeof run, "%s%s%0120d", r->dir, deep ? "/" : "", 0);
	if (deep)
		ATF_REQUIRE(ku_mkdir_p(run, 0755) == 0);
	else
		snprintf(run, sizeof run, "%s", r->dir);
	ATF_REQUIRE_MSG(hostside_listen(&r->hs, run, uarts, 3, "test", err,
					sizeof err) == 0, "%s", err);
	snprintf(r->socks, sizeof r->socks, "%s", r->hs.ctl_path);
	*strrchr(r->socks, '/') = '\0';
	int pipefd[2];
	ATF_REQUIRE(pipe2(pipefd, O_CLOEXEC) == 0);
	r->qemu = fork();
	ATF_REQUIRE(r->qemu >= 0);
	if (r->qemu == 0) {
		close(pipefd[0]);
		fake_qmp(r->hs.qmp_path, pipefd[1]);
	}
	close(pipefd[1]);
	r->log = pipefd[0];
	fcntl(r->log, F_SETFL, O_NONBLOCK);
	r->guest = connect_unix(r->hs.ctl_path);
	fcntl(r->guest, F_SETFL, O_NONBLOCK);
	/* QEMU connects both before its guest runs: so does the stand-in. */
	double deadline = proc_now() + 10;
	while ((r->hs.ctl < 0 || r->hs.qmp < 0) && proc_now() < deadline)
		hostside_service(&r->hs, 50);
	ATF_REQUIRE_MSG(r->hs.ctl >= 0 && r->hs.qmp >= 0, "the stand-in QEMU "
			"did not connect (channel %d, monitor %d)", r->hs.ctl,
			r->hs.qmp);
}

static void
rig_up(struct rig *r)
{
	rig_up_in(r, false);
}

static void
rig_down(struct rig *r)
{
	hostside_close(&r->hs);
	close(r->guest);
	kill(r->qemu, SIGTERM);
	waitpid(r->qemu, NULL, 0);
	close(r->log);
	ku_rm_rf(r->dir);
}

/* Send a request line; serve until the answer line for id arrives (or 10 s
 * pass, then ""): what follows "ttypot-ans ID ". */
static const char *
ask(struct rig *r, const char *id, const char *req)
{
	static char ans[512];
	char line[600], want[64];
	int n = snprintf(line, sizeof line, "ttypot-req %s %s\n", id, req);
	ATF_REQUIRE(write(r->guest, line, (size_t)n) == n);
	snprintf(want, sizeof want, "ttypot-ans %s ", id);
	size_t len = 0;
	double deadline = proc_now() + 10;
	while (proc_now() < deadline) {
		hostside_service(&r->hs, 50);
		char c;
		while (read(r->guest, &c, 1) == 1) {
			if (c != '\n') {
				if (len < sizeof line - 1)
					line[len++] = c;
				continue;
			}
			line[len] = '\0';
			len = 0;
			if (!strncmp(line, want, strlen(want))) {
				snprintf(ans, sizeof ans, "%s", line + strlen(want));
				return ans;
			}
		}
	}
	return "";
}

/* The monitor commands logged so far, one per line. */
static const char *
qmp_log(struct rig *r)
{
	static char buf[4096];
	static size_t len;
	ssize_t n;
	while ((n = read(r->log, buf + len, sizeof buf - 1 - len)) > 0)
		len += (size_t)n;
	buf[len] = '\0';
	return buf;
}

ATF_TC(hello_unknown_and_noise);
ATF_TC_HEAD(hello_unknown_and_noise, tc)
{
	atf_tc_set_md_var(tc, "descr", "hello is answered with the actions "
			  "offered, an unknown action with \"unknown\", a line "
			  "that is no request with nothing; answers carry the "
			  "request's id, in order");
}
ATF_TC_BODY(hello_unknown_and_noise, tc)
{
	(void)tc;
	struct rig r;
	rig_up(&r);
	ATF_CHECK_STREQ(ask(&r, "1.1", "hello"),
			"ok ttypot-qemu actions=hello,break,wake,key");
	ATF_REQUIRE(write(r.guest, "echoed garbage\n", 15) == 15);
	ATF_CHECK_STREQ(ask(&r, "1.2", "frob 3"), "unknown frob");
	ATF_CHECK_STREQ(ask(&r, "1.3", "hello"),
			"ok ttypot-qemu actions=hello,break,wake,key");
	ATF_CHECK_EQ(r.hs.requests, 3);
	ATF_CHECK_EQ(r.hs.answered, 3);
	rig_down(&r);
}

ATF_TC(break_one_and_burst);
ATF_TC_HEAD(break_one_and_burst, tc)
{
	atf_tc_set_md_var(tc, "descr", "break PCI sends one chardev-send-break "
			  "to that UART's chardev; break PCI N sends N with "
			  "the guest stopped between stop and cont; an unknown "
			  "UART or a count outside 1..64 is refused without a "
			  "monitor command");
}
ATF_TC_BODY(break_one_and_burst, tc)
{
	(void)tc;
	struct rig r;
	rig_up(&r);
	ATF_CHECK_STREQ(ask(&r, "2.1", "break 0000:00:10.0"), "ok 1");
	ATF_CHECK_STREQ(ask(&r, "2.2", "break 0000:00:11.0 3"), "ok 3");
	ATF_CHECK_STREQ(qmp_log(&r), "qmp_capabilities\n"
			"chardev-send-break la\n"
			"stop\n"
			"chardev-send-break lb\nchardev-send-break lb\n"
			"chardev-send-break lb\n"
			"cont\n");
	char before[4096];
	snprintf(before, sizeof before, "%s", qmp_log(&r));
	ATF_CHECK_STREQ(ask(&r, "2.3", "break 0000:00:99.0"),
			"fail no-such-uart 0000:00:99.0");
	ATF_CHECK_STREQ(ask(&r, "2.4", "break 0000:00:10.0 65"),
			"fail count-out-of-range 65 (1..64)");
	ATF_CHECK_STREQ(ask(&r, "2.5", "break 0000:00:10.0 0"),
			"fail count-out-of-range 0 (1..64)");
	ATF_CHECK_STREQ_MSG(qmp_log(&r), before, "refused requests reached "
			    "the monitor");
	rig_down(&r);
}

ATF_TC(break_refused_by_qemu);
ATF_TC_HEAD(break_refused_by_qemu, tc)
{
	atf_tc_set_md_var(tc, "descr", "a monitor error is the answer: \"fail "
			  "QEMU refused chardev-send-break: DESC\"");
}
ATF_TC_BODY(break_refused_by_qemu, tc)
{
	(void)tc;
	struct rig r;
	rig_up(&r);
	ATF_CHECK_STREQ(ask(&r, "3.1", "break 0000:00:12.0"),
			"fail after 0 of 1 breaks: QEMU refused "
			"chardev-send-break: Chardev 'refuse' not found");
	rig_down(&r);
}

ATF_TC(wake_when_suspended);
ATF_TC_HEAD(wake_when_suspended, tc)
{
	atf_tc_set_md_var(tc, "descr", "wake S is answered at once (armed); the "
			  "runner then asks query-status until the guest is "
			  "suspended and sends system_wakeup once");
}
ATF_TC_BODY(wake_when_suspended, tc)
{
	(void)tc;
	struct rig r;
	rig_up(&r);
	ATF_CHECK_STREQ(ask(&r, "4.1", "wake 30"), "ok armed 30");
	ATF_CHECK_STREQ(ask(&r, "4.2", "wake 0"),
			"fail seconds-out-of-range 0 (1..600)");
	double deadline = proc_now() + 10;
	while (r.hs.wake_armed && proc_now() < deadline)
		hostside_service(&r.hs, 50);
	ATF_CHECK(!r.hs.wake_armed);
	for (int i = 0; i < 5; i++) /* no second wakeup */
		hostside_service(&r.hs, 50);
	ATF_CHECK_STREQ(qmp_log(&r), "qmp_capabilities\nquery-status\n"
			"query-status\nquery-status\nsystem_wakeup\n");
	rig_down(&r);
}

ATF_TC(key_sends_qcodes);
ATF_TC_HEAD(key_sends_qcodes, tc)
{
	atf_tc_set_md_var(tc, "descr", "key KEYS sends one send-key with the "
			  "key names KEYS joins with '-', in order; keys with "
			  "other characters are refused without a monitor "
			  "command");
}
ATF_TC_BODY(key_sends_qcodes, tc)
{
	(void)tc;
	struct rig r;
	rig_up(&r);
	ATF_CHECK_STREQ(ask(&r, "5.1", "key a"), "ok a");
	ATF_CHECK_STREQ(ask(&r, "5.2", "key shift-a"), "ok shift-a");
	ATF_CHECK_STREQ(qmp_log(&r), "qmp_capabilities\n"
			"send-key a\n"
			"send-key shift-a\n");
	char before[4096];
	snprintf(before, sizeof before, "%s", qmp_log(&r));
	ATF_CHECK_STREQ(ask(&r, "5.3", "key A;b"), "fail bad-keys A;b");
	ATF_CHECK_STREQ(ask(&r, "5.4", "key"), "fail bad-keys -");
	ATF_CHECK_STREQ_MSG(qmp_log(&r), before, "refused requests reached "
			    "the monitor");
	rig_down(&r);
}

ATF_TC(unplug_and_plug);
ATF_TC_HEAD(unplug_and_plug, tc)
{
	atf_tc_set_md_var(tc, "descr", "with devices, hello offers unplug and "
			  "plug; unplug DEV is device_del of its id, answered "
			  "once DEVICE_DELETED names it (before or after the "
			  "command's return); plug DEV is device_add of the "
			  "same id; an unknown device is refused without a "
			  "monitor command");
}
ATF_TC_BODY(unplug_and_plug, tc)
{
	(void)tc;
	static const struct hostside_dev devs[] = {
		{"hvc", "hvcport", "virtconsole", "hv", "vser.0", false, 0, 0},
		{"usb", "usbser", "usb-serial", "us", "xhci.0", true, 0, 0}};
	struct rig r;
	rig_up(&r);
	hostside_devices(&r.hs, devs, 2);
	ATF_CHECK_STREQ(ask(&r, "5.1", "hello"),
			"ok ttypot-qemu actions=hello,break,wake,key,unplug,plug");
	ATF_CHECK_STREQ(ask(&r, "5.2", "unplug usb"), "ok usb");
	ATF_CHECK_STREQ(ask(&r, "5.3", "unplug hvc"), "ok hvc");
	ATF_CHECK_STREQ(ask(&r, "5.4", "plug usb"), "ok usb");
	ATF_CHECK_STREQ(ask(&r, "5.5", "unplug disk"),
			"fail no-such-device disk");
	ATF_CHECK_STREQ(qmp_log(&r), "qmp_capabilities\n"
			"device_del usbser\ndevice_del hvcport\n"
			"device_add usbser\n");
	rig_down(&r);
}

ATF_TC(close_and_open);
ATF_TC_HEAD(close_and_open, tc)
{
	atf_tc_set_md_var(tc, "descr", "with devices that have UDP ends, hello "
			  "offers close and open; close DEV is chardev-change "
			  "of its chardev to a null backend, open DEV back to "
			  "udp with the ports it was started with; a device "
			  "without UDP ends or unknown is refused without a "
			  "monitor command, and QEMU's refusal is a fail "
			  "naming it");
}
ATF_TC_BODY(close_and_open, tc)
{
	(void)tc;
	static const struct hostside_dev devs[] = {
		{"hvc", "hvcport", "virtconsole", "hv", "vser.0", false,
		 40003, 40002},
		{"usb", "usbser", "usb-serial", "us", "xhci.0", true, 0, 0},
		{"bad", "badport", "virtconsole", "refuse", "vser.0", false,
		 1, 2}};
	struct rig r;
	rig_up(&r);
	hostside_devices(&r.hs, devs, 3);
	ATF_CHECK_STREQ(ask(&r, "6.1", "hello"), "ok ttypot-qemu actions="
			"hello,break,wake,key,unplug,plug,close,open");
	ATF_CHECK_STREQ(ask(&r, "6.2", "close hvc"), "ok hvc");
	ATF_CHECK_STREQ(ask(&r, "6.3", "open hvc"), "ok hvc");
	ATF_CHECK_STREQ(ask(&r, "6.4", "close usb"), "fail no-such-device usb");
	ATF_CHECK_STREQ(ask(&r, "6.5", "open disk"), "fail no-such-device disk");
	ATF_CHECK_STREQ(ask(&r, "6.6", "close bad"), "fail QEMU refused "
			"chardev-change: Chardev 'refuse' not found");
	ATF_CHECK_STREQ(qmp_log(&r), "qmp_capabilities\n"
			"chardev-change hv null\n"
			"chardev-change hv udp 40003 40002\n"
			"chardev-change refuse null\n");
	rig_down(&r);
}

ATF_TC(deep_directory);
ATF_TC_HEAD(deep_directory, tc)
{
	atf_tc_set_md_var(tc, "descr", "a run directory too deep for a socket "
			  "path (over 108 bytes, as ttypot mutants makes) still "
			  "gets a host side: its sockets go to a directory of "
			  "its own under /tmp, removed when it closes");
}
ATF_TC_BODY(deep_directory, tc)
{
	(void)tc;
	static const struct hostside_uart uarts[] = {{"0000:00:10.0", "la"}};
	char base[64], deep[400], err[256];
	struct hostside hs;
	snprintf(base, sizeof base, "/tmp/t_hostside.XXXXXX");
	ATF_REQUIRE(mkdtemp(base) != NULL);
	snprintf(deep, sizeof deep, "%s/%0120d", base, 0);
	ATF_REQUIRE(ku_mkdir_p(deep, 0755) == 0);
	ATF_REQUIRE_MSG(hostside_listen(&hs, deep, uarts, 1, "test", err,
					sizeof err) == 0, "%s", err);
	ATF_CHECK_MSG(strncmp(hs.ctl_path, "/tmp/ttypot-hs.", 15) == 0,
		      "channel socket at %s", hs.ctl_path);
	int fd = connect_unix(hs.ctl_path);
	close(fd);
	char own[32];
	snprintf(own, sizeof own, "%s", hs.own_dir);
	hostside_close(&hs);
	ATF_CHECK_MSG(access(own, F_OK) != 0, "%s still exists", own);
	ku_rm_rf(base);
}

ATF_TC(sockets_gone_once_connected);
ATF_TC_HEAD(sockets_gone_once_connected, tc)
{
	atf_tc_set_md_var(tc, "descr", "once QEMU has connected to the channel "
			  "and the monitor, their socket paths and the directory "
			  "made for them are gone while the channel still answers: "
			  "a run killed later (a deadline's SIGKILL, no close) "
			  "leaves nothing in /tmp");
}
ATF_TC_BODY(sockets_gone_once_connected, tc)
{
	(void)tc;
	for (int deep = 0; deep <= 1; deep++) {
		struct rig r;
		rig_up_in(&r, deep);
		char p[PATH_MAX + 16];
		const char *names[] = {"ctl.sock", "qmp.sock"};
		for (size_t i = 0; i < 2; i++) {
			snprintf(p, sizeof p, "%s/%s", r.socks, names[i]);
			ATF_CHECK_MSG(access(p, F_OK) != 0, "%s still exists", p);
		}
		if (deep)
			ATF_CHECK_MSG(access(r.socks, F_OK) != 0, "%s still exists",
				      r.socks);
		ATF_CHECK_STREQ(ask(&r, "1.1", "hello"),
				"ok ttypot-qemu actions=hello,break,wake,key");
		rig_down(&r);
	}
}

ATF_TP_ADD_TCS(tp)
{
	ATF_TP_ADD_TC(tp, sockets_gone_once_connected);
	ATF_TP_ADD_TC(tp, hello_unknown_and_noise);
	ATF_TP_ADD_TC(tp, break_one_and_burst);
	ATF_TP_ADD_TC(tp, break_refused_by_qemu);
	ATF_TP_ADD_TC(tp, wake_when_suspended);
	ATF_TP_ADD_TC(tp, key_sends_qcodes);
	ATF_TP_ADD_TC(tp, unplug_and_plug);
	ATF_TP_ADD_TC(tp, close_and_open);
	ATF_TP_ADD_TC(tp, deep_directory);
	return atf_no_error();
}
