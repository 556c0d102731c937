// SPDX-License-Identifier: GPL-2.0-only
/*
 * t_python.c: Python programs that run a command on a pty and read it to
 * the end, the three ways Python code does it: pty.spawn (the command's
 * output copied to python's own terminal), os.openpty + fork/exec, and
 * subprocess.Popen on a pty's slave.  The command prints N numbered lines
 * and exits at once with a known status: the reader must get every line
 * before EOF (EIO on the master) and the right exit status.
 */
#include "app_run.h"

#define PYTHON "/usr/bin/python3"
#define ROUNDS 3

static const long sizes[] = {1, 1000, 20000};
#define NSIZES (sizeof sizes / sizeof *sizes)

/* Reads master until EOF/EIO into DIR/data-I, writes the command's exit
 * code to DIR/code-I, for every size and round (argv: dir, rounds, sizes).
 * START(cmd) starts the command on slave s and returns a wait function. */
static const char reader_py[] =
	"import errno, os, subprocess, sys\n"
	"def read_all(m):\n"
	"    data = bytearray()\n"
	"    while True:\n"
	"        try:\n"
	"            b = os.read(m, 65536)\n"
	"        except OSError as e:\n"
	"            if e.errno != errno.EIO:\n"
	"                raise\n"
	"            break\n"
	"        if not b:\n"
	"            break\n"
	"        data += b\n"
	"    return bytes(data)\n"
	"def start_fork(cmd, m, s):\n"
	"    pid = os.fork()\n"
	"    if pid == 0:\n"
	"        os.close(m)\n"
	"        os.setsid()\n"
	"        for fd in (0, 1, 2):\n"
	"            os.dup2(s, fd)\n"
	"        os.execv('/bin/sh', ['sh', '-c', cmd])\n"
	"    return lambda: os.waitstatus_to_exitcode(os.waitpid(pid, 0)[1])\n"
	"def start_popen(cmd, m, s):\n"
	"    p = subprocess.Popen(['/bin/sh', '-c', cmd], stdin=s, stdout=s,\n"
	"                         stderr=s, start_new_session=True)\n"
	"    return p.wait\n"
	"start = start_fork if sys.argv[1] == 'openpty' else start_popen\n"
	"d, rounds = sys.argv[2], int(sys.argv[3])\n"
	"i = 0\n"
	"for r in range(rounds):\n"
	"    for n in sys.argv[4:]:\n"
	"        m, s = os.openpty()\n"
	"        wait = start('seq 1 %s; exit 6' % n, m, s)\n"
	"        os.close(s)\n"
	"        data = read_all(m)\n"
	"        os.close(m)\n"
	"        code = wait()\n"
	"        open('%s/data-%d' % (d, i), 'wb').write(data)\n"
	"        open('%s/code-%d' % (d, i), 'w').write('%d' % code)\n"
	"        i += 1\n";

/* data holds exactly seq 1 n as written through a pty ("\r\n" lines). */
static void
check_data(struct app_buf *data, long n, const char *what)
{
	app_buf_strip_cr(data);
	size_t end = app_check_seq(data->p, n, what);
	if (end != data->len)
		atf_tc_fail("%s: after line %ld came \"%s\"", what, n,
			    tp_esc(data->p + end, data->len - end > 80 ? 80 :
				   data->len - end));
}

static void
reader(const atf_tc_t *tc, const char *how)
{
	app_require(tc, PYTHON);
	const char *wd = app_workdir(tc);
	long rounds = tp_config_long(tc, "apps_rounds", ROUNDS);
	char py[PATH_MAX], r[24], n[NSIZES][24];
	snprintf(py, sizeof py, "%s/reader.py", wd);
	app_write_file(py, reader_py, 0644);
	snprintf(r, sizeof r, "%ld", rounds);
	const char *argv[5 + NSIZES + 1] = {PYTHON, py, how, wd, r};
	for (size_t i = 0; i < NSIZES; i++) {
		snprintf(n[i], sizeof n[i], "%ld", sizes[i]);
		argv[5 + i] = n[i];
	}
	struct app_buf out = {0};
	char what[160];
	snprintf(what, sizeof what, "python3 reading commands on ptys (%s)", how);
	int st = app_run(tc, argv, NULL, &out, what);
	if (!WIFEXITED(st) || WEXITSTATUS(st) != 0)
		atf_tc_fail("%s: %s; its output: \"%s\"", what, app_status(st),
			    tp_esc(out.p, out.len > 600 ? 600 : out.len));
	for (long i = 0; i < rounds * (long)NSIZES; i++) {
		char p[PATH_MAX + 16], w[200];
		struct app_buf data = {0}, code = {0};
		long sz = sizes[i % (long)NSIZES];
		snprintf(w, sizeof w, "round %ld, %s of `seq 1 %ld; exit 6`",
			 i / (long)NSIZES + 1, how, sz);
		snprintf(p, sizeof p, "%s/code-%ld", wd, i);
		if (!app_read_file(p, &code))
			atf_tc_fail("%s: python wrote no %s", w, p);
		if (strcmp(code.p, "6") != 0)
			atf_tc_fail("%s: exit status %s, want 6", w, code.p);
		snprintf(p, sizeof p, "%s/data-%ld", wd, i);
		if (!app_read_file(p, &data))
			atf_tc_fail("%s: python wrote no %s", w, p);
		check_data(&data, sz, w);
		app_buf_free(&data);
		app_buf_free(&code);
	}
	app_buf_free(&out);
}

TP_CASE_TIMEOUT(openpty_read_to_eof, TP_LINUX, APP_TIMEOUT_S,
		"python3: os.openpty, fork and exec a command that prints N "
		"lines (1, 1000, 20000) and exits 6 at once, read the master "
		"until EIO: every line arrives before EIO, waitpid gives 6")
{
	reader(tc, "openpty");
}

TP_CASE_TIMEOUT(subprocess_read_to_eof, TP_LINUX, APP_TIMEOUT_S,
		"python3: subprocess.Popen with a pty's slave as stdin, stdout "
		"and stderr, a command printing N lines and exiting 6, the "
		"master read until EIO: every line, then returncode 6")
{
	reader(tc, "subprocess");
}

TP_CASE_TIMEOUT(pty_spawn, TP_LINUX, APP_TIMEOUT_S,
		"python3 pty.spawn of a command printing N lines (1, 20000) "
		"and exiting 5, on python's own terminal (a pty): every line "
		"reaches that terminal and python returns the command's 5")
{
	static const long spawn_sizes[] = {1, 20000};
	app_require(tc, PYTHON);
	long rounds = tp_config_long(tc, "apps_rounds", ROUNDS);
	for (long r = 1; r <= rounds; r++)
		for (size_t i = 0; i < 2; i++) {
			char code[200], what[200];
			snprintf(code, sizeof code,
				 "import os, pty, sys\n"
				 "st = pty.spawn(['/bin/sh', '-c', "
				 "'seq 1 %ld; exit 5'])\n"
				 "sys.exit(os.waitstatus_to_exitcode(st))\n",
				 spawn_sizes[i]);
			snprintf(what, sizeof what, "round %ld, pty.spawn of `seq "
				 "1 %ld; exit 5`", r, spawn_sizes[i]);
			const char *argv[] = {PYTHON, "-c", code, NULL};
			struct app a;
			struct app_buf term = {0};
			app_spawn(&a, tc, argv, NULL, true, 24, 80);
			app_read(a.fd, &term, NULL, APP_WAIT_MS, what);
			close(a.fd);
			int st = app_wait(&a, APP_WAIT_MS, what);
			if (!WIFEXITED(st) || WEXITSTATUS(st) != 5)
				atf_tc_fail("%s: python3 %s, want exit 5; its "
					    "terminal: \"%s\"", what, app_status(st),
					    tp_esc(term.p, term.len > 300 ? 300 : term.len));
			check_data(&term, spawn_sizes[i], what);
			app_buf_free(&term);
		}
}

ATF_TP_ADD_TCS(tp)
{
	ATF_TP_ADD_TC(tp, openpty_read_to_eof);
	ATF_TP_ADD_TC(tp, subprocess_read_to_eof);
	ATF_TP_ADD_TC(tp, pty_spawn);
	return atf_no_error();
}
