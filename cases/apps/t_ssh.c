// SPDX-License-Identifier: GPL-2.0-only
/*
 * t_ssh.c: OpenSSH over the loopback.  The case starts its own sshd (in
 * the foreground, on a free port of 127.0.0.1, a config and a client key
 * in its work directory) and runs `ssh -tt` on a pty: the remote command
 * gets a pty of its own from sshd, so output crosses two ptys and a TCP
 * connection.  The remote command's output must arrive whole, its exit
 * status must be ssh's, and closing the connection (the ~. escape typed on
 * ssh's terminal) must hang up the remote session: its shell gets SIGHUP.
 *
 * The program is is_exclusive (cases/apps/Kyuafile): sshd needs /run/sshd,
 * which a case makes when missing and removes again, so two cases at once
 * would pull it from under each other's sshd.
 */
#include "app_run.h"

#include <arpa/inet.h>
#include <netinet/in.h>
#include <sys/socket.h>

#define SSH "/usr/bin/ssh"
#define SSHD "/usr/sbin/sshd"
#define KEYGEN "/usr/bin/ssh-keygen"
#define ROUNDS 2

static struct app sshd;
static int port;
static bool made_privsep;
static char key[PATH_MAX];

/* Where a path of the root is from here. */
static const char *
in_root(const atf_tc_t *tc, const char *path)
{
	static char p[PATH_MAX * 2];
	snprintf(p, sizeof p, "%s%s", app_chrooted(tc) ? app_root(tc) : "", path);
	return p;
}

static int
free_tcp_port(void)
{
	struct sockaddr_in a = {.sin_family = AF_INET};
	socklen_t al = sizeof a;
	a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
	int fd = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
	if (fd < 0)
		atf_tc_skip("no TCP/IP in this kernel (socket: %s)", strerror(errno));
	if (bind(fd, (void *)&a, sizeof a) < 0 ||
	    getsockname(fd, (void *)&a, &al) < 0)
		atf_tc_fail("no free TCP port on 127.0.0.1: %s", strerror(errno));
	close(fd);
	return ntohs(a.sin_port);
}

static bool
port_open(int p)
{
	struct sockaddr_in a = {.sin_family = AF_INET, .sin_port = htons((uint16_t)p)};
	a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
	int fd = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
	if (fd < 0)
		return false;
	bool ok = connect(fd, (void *)&a, sizeof a) == 0;
	close(fd);
	return ok;
}

/* sshd -D on 127.0.0.1:port accepting the case's key for root. */
static void
start_sshd(const atf_tc_t *tc)
{
	app_require(tc, SSH);
	app_require(tc, SSHD);
	app_require(tc, KEYGEN);
	const char *wd = app_workdir(tc);
	char cfg[PATH_MAX], text[PATH_MAX * 2 + 600];
	snprintf(key, sizeof key, "%s/id", wd);
	const char *kg[] = {KEYGEN, "-q", "-t", "ed25519", "-N", "", "-f", key, NULL};
	struct app_buf out = {0};
	int st = app_run(tc, kg, NULL, &out, "ssh-keygen");
	if (!WIFEXITED(st) || WEXITSTATUS(st) != 0)
		atf_tc_fail("ssh-keygen: %s: \"%s\"", app_status(st), tp_esc(out.p, out.len));
	app_buf_free(&out);
	char pub[PATH_MAX + 8];
	snprintf(pub, sizeof pub, "%s.pub", key);
	if (!app_read_file(pub, &out))
		atf_tc_fail("ssh-keygen wrote no %s", pub);
	snprintf(cfg, sizeof cfg, "%s/authorized_keys", wd);
	app_write_file(cfg, out.p, 0600);
	app_buf_free(&out);
	port = free_tcp_port();
	/* The case's files live in a world-writable /tmp: StrictModes off. */
	snprintf(text, sizeof text,
		 "Port %d\nListenAddress 127.0.0.1\n"
		 "HostKey /etc/ssh/ssh_host_ed25519_key\n"
		 "AuthorizedKeysFile %s/authorized_keys\n"
		 "PermitRootLogin prohibit-password\nStrictModes no\nUsePAM no\n"
		 "PidFile none\nPrintMotd no\nPrintLastLog no\nLogLevel INFO\n",
		 port, wd);
	snprintf(cfg, sizeof cfg, "%s/sshd_config", wd);
	app_write_file(cfg, text, 0644);
	/* sshd's privilege separation directory; removed again if made here. */
	const char *privsep = in_root(tc, "/run/sshd");
	if (mkdir(privsep, 0755) == 0)
		made_privsep = true;
	else if (errno != EEXIST)
		atf_tc_fail("cannot create %s: %s", privsep, strerror(errno));
	const char *argv[] = {SSHD, "-D", "-e", "-f", cfg, NULL};
	app_spawn(&sshd, tc, argv, NULL, false, 0, 0);
	long long deadline = tp_now_ms() + APP_WAIT_MS;
	int step = 0;
	tp_waiting_for("sshd listening on the loopback");
	while (!port_open(port)) {
		if (tp_has_exited(sshd.pid) || tp_now_ms() > deadline) {
			struct app_buf log = {0};
			app_read(sshd.fd, &log, NULL, 1000, "sshd's log");
			atf_tc_fail("sshd is not listening on 127.0.0.1:%d: \"%s\"",
				    port, tp_esc(log.p, log.len));
		}
		tp_backoff(&step);
	}
}

static void
stop_sshd(const atf_tc_t *tc)
{
	kill(sshd.pid, SIGTERM);
	struct app_buf log = {0};
	app_read(sshd.fd, &log, NULL, APP_WAIT_MS, "sshd ending");
	close(sshd.fd);
	app_wait(&sshd, APP_WAIT_MS, "sshd's exit");
	app_buf_free(&log);
	if (made_privsep)
		rmdir(in_root(tc, "/run/sshd"));
}

/* What sshd logged so far (its stderr, -e), for a failure message. */
static const char *
sshd_log(void)
{
	static struct app_buf log;
	char tmp[4096];
	ssize_t n;
	while (tp_poll1(sshd.fd, POLLIN, 0) & POLLIN &&
	       (n = read(sshd.fd, tmp, sizeof tmp)) > 0)
		app_buf_add(&log, tmp, (size_t)n);
	if (!log.p)
		return "";
	return tp_esc(log.p + (log.len > 400 ? log.len - 400 : 0),
		      log.len > 400 ? 400 : log.len);
}

/* ssh -tt root@127.0.0.1 CMD on a new pty. */
static void
spawn_ssh(struct app *a, const atf_tc_t *tc, const char *cmd)
{
	char p[16];
	snprintf(p, sizeof p, "%d", port);
	const char *argv[] = {SSH, "-tt", "-F", "/dev/null", "-i", key, "-p", p,
			      "-o", "StrictHostKeyChecking=no",
			      "-o", "UserKnownHostsFile=/dev/null",
			      "-o", "GlobalKnownHostsFile=/dev/null",
			      "-o", "BatchMode=yes", "-o", "LogLevel=ERROR",
			      "root@127.0.0.1", cmd, NULL};
	const char *env[] = {"TERM=xterm", NULL};
	app_spawn(a, tc, argv, env, true, 24, 80);
}

TP_CASE_TIMEOUT(output_and_status, TP_LINUX, APP_TIMEOUT_S,
		"ssh -tt to sshd on the loopback running a command that prints "
		"N lines (1, 20000) and exits 42: every line reaches ssh's "
		"terminal and ssh exits 42; apps_rounds times")
{
	static const long sizes[] = {1, 20000};
	start_sshd(tc);
	long rounds = tp_config_long(tc, "apps_rounds", ROUNDS);
	for (long r = 1; r <= rounds; r++)
		for (size_t i = 0; i < 2; i++) {
			char cmd[64], what[160];
			snprintf(cmd, sizeof cmd, "seq 1 %ld; exit 42", sizes[i]);
			snprintf(what, sizeof what, "round %ld, ssh -tt '%s'", r, cmd);
			struct app a;
			struct app_buf term = {0};
			spawn_ssh(&a, tc, cmd);
			app_read(a.fd, &term, NULL, APP_WAIT_MS, what);
			close(a.fd);
			int st = app_wait(&a, APP_WAIT_MS, what);
			if (!WIFEXITED(st) || WEXITSTATUS(st) != 42)
				atf_tc_fail("%s: ssh %s, want exit 42; its terminal: "
					    "\"%s\"; sshd's log: \"%s\"", what,
					    app_status(st),
					    tp_esc(term.p, term.len > 300 ? 300 : term.len),
					    sshd_log());
			app_buf_strip_cr(&term);
			size_t end = app_check_seq(term.p, sizes[i], what);
			if (end != term.len)
				atf_tc_fail("%s: after line %ld came \"%s\"", what,
					    sizes[i], tp_esc(term.p + end, term.len - end));
			app_buf_free(&term);
		}
	stop_sshd(tc);
}

TP_CASE_TIMEOUT(close_hangs_up_session, TP_LINUX, APP_TIMEOUT_S,
		"ssh -tt to sshd on the loopback: a line typed reaches the "
		"remote shell, and closing the connection (~. typed on ssh's "
		"terminal) hangs up the remote session: its shell gets SIGHUP")
{
	start_sshd(tc);
	const char *wd = app_workdir(tc);
	char cmd[PATH_MAX * 3 + 200], hup[PATH_MAX + 8];
	snprintf(hup, sizeof hup, "%s/hup", wd);
	/* The hangup wakes the shell's read with EOF first and signals the
	 * session leader after (__tty_hangup's order): a shell that exited
	 * on that EOF could miss its SIGHUP, so this one never exits by
	 * itself; the case kills it (its pid file) if no SIGHUP comes. */
	snprintf(cmd, sizeof cmd,
		 "echo $$ > %s/pid; trap 'echo hup > %s/hup; exit 0' HUP; "
		 "echo READY; read x; echo \"GOT:$x\"; "
		 "while :; do read x || sleep 1; done", wd, wd);
	struct app a;
	struct app_buf term = {0};
	spawn_ssh(&a, tc, cmd);
	app_read(a.fd, &term, "READY", APP_WAIT_MS, "the remote shell's READY");
	tp_write_str(a.fd, "hello\r", "a line for the remote shell");
	app_read(a.fd, &term, "GOT:hello", APP_WAIT_MS, "the remote shell's GOT:hello");
	/* ssh's escape: ~ at the start of a line, then '.'. */
	tp_write_str(a.fd, "~.", "ssh's ~. escape");
	app_read(a.fd, &term, NULL, APP_WAIT_MS, "ssh closing after ~.");
	close(a.fd);
	int st = app_wait(&a, APP_WAIT_MS, "ssh's exit after ~.");
	if (!WIFEXITED(st) || WEXITSTATUS(st) != 255)
		atf_tc_fail("ssh %s after ~., want exit 255 (connection closed); "
			    "its terminal: \"%s\"; sshd's log: \"%s\"", app_status(st),
			    tp_esc(term.p, term.len > 300 ? 300 : term.len), sshd_log());
	/* The remote shell writes hup from its SIGHUP trap (bounded wait). */
	long long deadline = tp_now_ms() + APP_WAIT_MS;
	int step = 0;
	struct app_buf got = {0};
	tp_waiting_for("the remote shell's SIGHUP trap writing hup");
	while (!app_read_file(in_root(tc, hup), &got)) {
		if (tp_now_ms() > deadline) {
			struct app_buf pid = {0};
			char pf[PATH_MAX + 8];
			snprintf(pf, sizeof pf, "%s/pid", wd);
			if (app_read_file(in_root(tc, pf), &pid) && atoi(pid.p) > 1)
				kill(atoi(pid.p), SIGKILL);
			atf_tc_fail("the remote shell got no SIGHUP within %d ms of "
				    "the connection closing", APP_WAIT_MS);
		}
		tp_backoff(&step);
	}
	app_buf_free(&got);
	app_buf_free(&term);
	stop_sshd(tc);
}

ATF_TP_ADD_TCS(tp)
{
	ATF_TP_ADD_TC(tp, output_and_status);
	ATF_TP_ADD_TC(tp, close_hangs_up_session);
	return atf_no_error();
}
