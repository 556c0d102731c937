/*
 * cli.h: the ttypot command line.
 *   ttypot matrix [options] [KERNEL...]   (no kernels: the default set)
 *   ttypot run    [options]               (the host kernel only)
 *   ttypot report -o DIR RESULTS...       (re-render matrix.json or results files)
 *   ttypot merge  -o DIR RUN.json...      (combine matrix.json files)
 */
#ifndef TTYPOT_CLI_H
#define TTYPOT_CLI_H

#include <stdio.h>

enum cli_cmd { CMD_MATRIX, CMD_RUN, CMD_REPORT, CMD_MERGE, CMD_HELP };

#define CLI_DEFAULT_DEADLINE_S 1800
#define CLI_DEFAULT_OUTDIR "reports"

struct cli {
	enum cli_cmd cmd;
	const char *outdir;    /* -o DIR */
	int jobs;              /* -j N (0: choose) */
	const char *baseline;  /* --baseline LABEL */
	const char *cases;     /* --cases FILTER */
	int deadline_s;        /* --deadline S, per kernel */
	const char *suite_dir; /* --suite DIR (the built tree) */
	const char *cache_dir; /* --cache DIR */
	const char *expect_dir;/* --expect DIR (default SUITE/fixtures/expect) */
	char **args;           /* kernels, or files */
	int nargs;
};

/* 0, or -1 with a usage message in err.  args points into argv. */
int cli_parse(int argc, char **argv, struct cli *o, char *err, size_t errlen);
void cli_usage(FILE *f);

#endif
