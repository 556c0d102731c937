/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * commands.h: the ttypot commands (stage 5, on top of kernel/, guest/,
 * results/ and report/).  Each returns the process exit status: 0 no
 * regression against the baseline, 1 regressions, 2 usage or input errors.
 * ci, bisect-run and mutants have exit codes of their own (ci.h, bisect.h,
 * mutants.h).
 */
#ifndef TTYPOT_COMMANDS_H
#define TTYPOT_COMMANDS_H

#include "cli.h"

int cmd_matrix(const struct cli *o, const char *argv0); /* matrix and run */
int cmd_report(const struct cli *o, const char *argv0);
int cmd_merge(const struct cli *o);

#endif
