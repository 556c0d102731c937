// SPDX-License-Identifier: GPL-2.0-only
/* run.c: run_suite(): the host runner or QEMU, by the kernel's kind. */
#include "run_int.h"
#include "kutil.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

int
run_suite(const struct kernel_info *k, const struct run_opts *o,
	  const char *results_path, const char *console_path,
	  struct run_outcome *out)
{
	memset(out, 0, sizeof *out);
	out->end = RUN_ERROR;
	snprintf(out->console_path, sizeof out->console_path, "%s",
		 console_path);
	/* The console starts empty; results are appended to. */
	if (ku_write_file(console_path, "", 0) < 0) {
		snprintf(out->err, sizeof out->err, "console file %.400s: %s",
			 console_path, strerror(errno));
		return -1;
	}
	int fd = open(results_path, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC,
		      0644);
	if (fd < 0) {
		snprintf(out->err, sizeof out->err, "results file %.400s: %s",
			 results_path, strerror(errno));
		return -1;
	}
	close(fd);
	if (!k->image[0])
		return run_host(k, o, results_path, out);
	return run_qemu(k, o, results_path, out);
}
