/* SPDX-License-Identifier: GPL-2.0-only */
/* run_int.h: the two runners run.c chooses between. */
#ifndef TTYPOT_RUN_INT_H
#define TTYPOT_RUN_INT_H

#include <stdbool.h>
#include <sys/types.h>

#include "guest.h"

int run_host(const struct kernel_info *k, const struct run_opts *o,
	     const char *results_path, struct run_outcome *out);
int run_qemu(const struct kernel_info *k, const struct run_opts *o,
	     const char *results_path, struct run_outcome *out);

#endif
