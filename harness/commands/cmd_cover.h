/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * cmd_cover.h: `ttypot cover [--map FILE] WHERE...`: which test programs
 * execute a line or function of drivers/tty (the per-program coverage map
 * of `make coverage`, harness/mutation/cover.h).
 * Exit: 0 some program reaches a WHERE, 1 none does, 2 usage or input errors.
 */
#ifndef TTYPOT_CMD_COVER_H
#define TTYPOT_CMD_COVER_H

int cmd_cover(int argc, char **argv);

#endif
