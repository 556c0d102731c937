// SPDX-License-Identifier: GPL-2.0-only
/* t_splice.c: regressions.md #9: 5.10 (36e2c7421f02) dropped splice and
 * sendfile support for ttys (EINVAL) until dd78b0c483e3/9bb48c82aced.
 * ioctl/t_sendfile.c checks each call; this is the catalogue recipe as one
 * chain: file -> sendfile -> slave -> master -> splice -> pipe. */
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/sendfile.h>
#include <unistd.h>

#include "ttypot.h"

#define NBYTES 100

TP_CASE_COMMITS(sendfile_slave_splice_master_chain, TP_LINUX, "36e2c7421f02",
		"dd78b0c483e3 9bb48c82aced",
		"#9: sendfile(slave, file, 100) = 100 on a raw slave, then "
		"splice(master -> pipe) = 100 and the pipe holds the file's "
		"bytes; lseek on the slave fails ESPIPE")
{
	char name[] = "/tmp/ttypot-spliceXXXXXX", in[NBYTES], out[NBYTES];
	struct tp_pty p;
	int pfd[2];

	int fd = mkstemp(name);
	ATF_REQUIRE_MSG(fd >= 0, "mkstemp: %s", strerror(errno));
	unlink(name);
	tp_pattern(in, NBYTES, 9);
	tp_write_all(fd, in, NBYTES, "file contents");
	ATF_REQUIRE(lseek(fd, 0, SEEK_SET) == 0);
	tp_pty_open(&p, TP_RAW);
	ssize_t n = sendfile(p.slave, fd, NULL, NBYTES);
	ATF_REQUIRE_MSG(n == NBYTES, "sendfile to the slave: %zd (%s)", n,
			n < 0 ? strerror(errno) : "short");
	tp_wait_fionread(p.master, NBYTES, TP_WAIT_MS, "100 bytes on master");
	ATF_REQUIRE(pipe2(pfd, O_CLOEXEC) == 0);
	n = splice(p.master, NULL, pfd[1], NULL, NBYTES, 0);
	ATF_CHECK_MSG(n == NBYTES, "splice master -> pipe: %zd (%s)", n,
		      n < 0 ? strerror(errno) : "short");
	if (n > 0) {
		tp_read_exact(pfd[0], out, (size_t)n, NBYTES, "pipe");
		ATF_CHECK_MSG(tp_pattern_check(out, (size_t)n, 9) < 0,
			      "spliced bytes differ from the file");
	}
	errno = 0;
	ATF_CHECK_MSG(lseek(p.slave, 0, SEEK_CUR) < 0 && errno == ESPIPE,
		      "lseek on the slave: %s", strerror(errno));
	close(pfd[0]);
	close(pfd[1]);
	close(fd);
	tp_pty_close(&p);
}

ATF_TP_ADD_TCS(tp)
{
	ATF_TP_ADD_TC(tp, sendfile_slave_splice_master_chain);
	return atf_no_error();
}
