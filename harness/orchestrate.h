/*
 * orchestrate.h: the ttypot subcommands on top of guest.h (resolve, boot,
 * run) and the report side (ingest, expectations, matrix, writers).
 * Each returns the process exit status: 0 no regression against the
 * baseline, 1 regressions, 2 usage or input errors.
 */
#ifndef TTYPOT_ORCHESTRATE_H
#define TTYPOT_ORCHESTRATE_H

#include "cli.h"

int cmd_matrix(const struct cli *o, const char *argv0);
int cmd_report(const struct cli *o, const char *argv0);
int cmd_merge(const struct cli *o);

/* The built suite: --suite, else the tree this ttypot was built in
 * (EXE/../ when it holds cases/Kyuafile), else EXE/../lib/ttypot, else ".". */
void find_suite_dir(const char *opt, const char *argv0, char *out, size_t outlen);

#endif
