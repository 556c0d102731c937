// SPDX-License-Identifier: GPL-2.0-only
/* t_sendfile.c: sendfile and splice with a tty on one end, and lseek on a
 * tty.  Regression #9: 36e2c7421f02 (5.10) dropped splice support from tty
 * files so sendfile to a tty failed EINVAL; dd78b0c483e3 and 9bb48c82aced
 * (5.11) restored it. */
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/sendfile.h>
#include <unistd.h>

#include "ttypot.h"

#define NBYTES 100

/* An anonymous file holding the pattern (unlinked at once: nothing to
 * clean up; the case runs in its own work directory). */
static int
pattern_file(unsigned seed)
{
	char name[] = "sendfileXXXXXX", buf[NBYTES];
	int fd = mkstemp(name);
	if (fd < 0)
		atf_tc_fail("mkstemp: %s", strerror(errno));
	unlink(name);
	tp_pattern(buf, sizeof(buf), seed);
	tp_write_all(fd, buf, sizeof(buf), "pattern file");
	return fd;
}

static void
check_pattern_on(int fd, unsigned seed, const char *what)
{
	char got[NBYTES];
	tp_read_exact(fd, got, sizeof(got), sizeof(got), what);
	long bad = tp_pattern_check(got, sizeof(got), seed);
	ATF_CHECK_MSG(bad < 0, "%s: byte %ld differs", what, bad);
}

TP_CASE_COMMITS(sendfile_to_slave, TP_LINUX, "36e2c7421f02",
		"dd78b0c483e3 9bb48c82aced",
		"sendfile from a regular file to a raw slave copies all 100 "
		"bytes, which the master reads unchanged")
{
	struct tp_pty p;
	off_t off = 0;

	tp_pty_open(&p, TP_RAW);
	int fd = pattern_file(3);
	ssize_t n = sendfile(p.slave, fd, &off, NBYTES);
	ATF_REQUIRE_MSG(n == NBYTES, "sendfile returned %zd (%s)", n,
			n < 0 ? strerror(errno) : "short");
	check_pattern_on(p.master, 3, "sendfile bytes on the master");
	close(fd);
	tp_pty_close(&p);
}

TP_CASE_COMMITS(splice_from_master_and_to_slave, TP_LINUX, "36e2c7421f02",
		"dd78b0c483e3 9bb48c82aced",
		"splice moves 100 bytes from a pipe into the slave and from the "
		"master into a pipe")
{
	struct tp_pty p;
	int pp[2];
	char buf[NBYTES];

	tp_pty_open(&p, TP_RAW);
	ATF_REQUIRE(pipe(pp) == 0);
	tp_pattern(buf, sizeof(buf), 4);
	tp_write_all(pp[1], buf, sizeof(buf), "pattern into the pipe");
	ssize_t n = splice(pp[0], NULL, p.slave, NULL, NBYTES, 0);
	ATF_REQUIRE_MSG(n == NBYTES, "splice pipe->slave returned %zd (%s)", n,
			n < 0 ? strerror(errno) : "short");
	/* All of it has reached the master before it is spliced out. */
	tp_wait_fionread(p.master, NBYTES, TP_WAIT_MS, "spliced bytes queued");
	n = splice(p.master, NULL, pp[1], NULL, NBYTES, 0);
	ATF_REQUIRE_MSG(n == NBYTES, "splice master->pipe returned %zd (%s)",
			n, n < 0 ? strerror(errno) : "short");
	check_pattern_on(pp[0], 4, "bytes spliced out of the master");
	close(pp[0]);
	close(pp[1]);
	tp_pty_close(&p);
}

TP_CASE(lseek_on_tty_espipe, TP_POSIX,
	"A tty is not seekable: lseek on the slave and on the master fails "
	"ESPIPE")
{
	struct tp_pty p;

	tp_pty_open(&p, TP_RAW);
	errno = 0;
	ATF_CHECK_MSG(lseek(p.slave, 0, SEEK_CUR) < 0 && errno == ESPIPE,
		      "lseek slave: %s", strerror(errno));
	errno = 0;
	ATF_CHECK_MSG(lseek(p.master, 0, SEEK_SET) < 0 && errno == ESPIPE,
		      "lseek master: %s", strerror(errno));
	tp_pty_close(&p);
}

ATF_TP_ADD_TCS(tp)
{
	ATF_TP_ADD_TC(tp, sendfile_to_slave);
	ATF_TP_ADD_TC(tp, splice_from_master_and_to_slave);
	ATF_TP_ADD_TC(tp, lseek_on_tty_espipe);
	return atf_no_error();
}
