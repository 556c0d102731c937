/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * cli.h: the ttypot command line, parsed with getopt_long(3) for every
 * command from one table of options per command (cli_getopt).
 *   ttypot matrix [options] [KERNEL...]   (no kernels: the default set)
 *   ttypot run    [options]               (the host kernel only)
 *   ttypot report -o DIR RESULTS...       (re-render matrix.json or results files)
 *   ttypot report --format FMT RESULTS... (one format on stdout, e.g. ktap)
 *   ttypot merge  -o DIR RUN.json...      (combine matrix.json files)
 *   ttypot ci | bisect-run | mutants      (ci.h, bisect.h, mutants.h)
 *   ttypot cover [--map FILE] WHERE...    (cmd_cover.h)
 *   ttypot help [COMMAND], ttypot COMMAND --help, ttypot --version
 */
#ifndef TTYPOT_CLI_H
#define TTYPOT_CLI_H

#include <stdbool.h>
#include <stdio.h>

#ifndef TTYPOT_VERSION
#define TTYPOT_VERSION "unknown"
#endif

enum cli_cmd { CMD_MATRIX, CMD_RUN, CMD_REPORT, CMD_MERGE, CMD_HELP };

#define CLI_DEFAULT_DEADLINE_S 1800
#define CLI_DEFAULT_OUTDIR "reports"

/* ---- one option table per command ---- */

enum cli_kind { OPT_STR, OPT_INT, OPT_FLAG };

struct cli_opt {
	const char *name;   /* long name, without "--" */
	char key;           /* short option letter, or 0 */
	enum cli_kind kind;
	void *dst;          /* const char **, int * or bool * */
	int min;            /* OPT_INT: the smallest value accepted */
	const char *arg;    /* the value's name in the help ("DIR") */
	const char *help;   /* one line */
};

#define CLI_OPT_END { NULL, 0, 0, NULL, 0, NULL, NULL }

/* The options several commands share: the same name, letter and help. */
struct cli_opt cli_opt_output(const char **dst, const char *help);
struct cli_opt cli_opt_jobs(int *dst, const char *help);
struct cli_opt cli_opt_cases(const char **dst);
struct cli_opt cli_opt_deadline(int *dst);
struct cli_opt cli_opt_suite(const char **dst);
struct cli_opt cli_opt_cache(const char **dst);
struct cli_opt cli_opt_expect(const char **dst);
/* --flavour FLAVOUR of the kernels a command builds (debug); */
struct cli_opt cli_opt_flavour(const char **dst);
/* ... as the spec suffix "+debug" ("" for none); -1 with err naming an
 * unknown flavour. */
int cli_flavour_suffix(const char *flavour, char *out, size_t outlen,
		       char *err, size_t errlen);

/* What cli_getopt found besides the options. */
enum cli_verdict { CLI_OK, CLI_HELP, CLI_VERSION, CLI_ERROR };

/* Parse argv[2..] (argv[1] is the command) with getopt_long against opts
 * (terminated by a NULL name).  --help/-h and --version/-V are always
 * known.  Operands keep their order in rest[0..*nrest-1] (malloc'd, NULL
 * terminated, pointing into argv).  CLI_ERROR leaves a message naming the
 * option in err. */
enum cli_verdict cli_getopt(int argc, char **argv, const struct cli_opt *opts,
			    char ***rest, int *nrest, char *err, size_t errlen);

/* cli_getopt for a command (argv[1]), answering for it: --help (its usage
 * and more on stdout), --version, and usage errors (the message and its
 * usage on stderr).  rest NULL: the command takes no operands.  CLI_OK: go
 * on; CLI_HELP/CLI_VERSION: exit 0; CLI_ERROR: exit with its usage code. */
enum cli_verdict cli_command(int argc, char **argv, const struct cli_opt *opts,
			     const char *synopsis, const char *more, char ***rest,
			     int *nrest);

/* "usage: ttypot CMD SYNOPSIS", the options of the table, then more. */
void cli_help(FILE *f, const char *cmd, const char *synopsis,
	      const struct cli_opt *opts, const char *more);
/* The option lines of a table alone (a help of several tables). */
void cli_help_options(FILE *f, const struct cli_opt *opts);
void cli_version(FILE *f);

/* ---- matrix, run, report and merge ---- */

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
	const char *arch;      /* --arch ARCH (matrix): of kernel image paths */
	bool reuse;            /* --reuse (matrix): columns from the result cache */
	const char *vars;      /* --vars NAME=VALUE,... (matrix, run): as given */
	char *kyua_vars;       /* the same as Kyua's "-v test_suites.ttypot.NAME=VALUE"
				  words (malloc'd), or NULL */
	const char *run_fresh; /* a spec never read from the cache (ci: the tree) */
	const char *split_spec;  /* ci --base: this column boots twice, first with */
	const char *split_first; /* the cases reaching the change, then the rest */
	const char *split_rest;
	double start;            /* when the command started (progress_now), or 0 */
	const char *format;    /* --format FMT (report): that one on stdout */
	char **args;           /* kernels, or files */
	int nargs;
	bool version;          /* --version (with cmd CMD_HELP) */
};

/* 0, or -1 with a usage message in err.  args points into argv.  --help
 * and --version give cmd CMD_HELP (version set for --version). */
int cli_parse(int argc, char **argv, struct cli *o, char *err, size_t errlen);
/* The help of matrix, run, report or merge (name), or of them all (NULL). */
void cli_usage(FILE *f, const char *name);

/* --vars "a=1,b=x" as Kyua words "-v test_suites.ttypot.a=1 -v ..."
 * (malloc'd in *out, NULL for none); 0, or -1 naming the bad pair. */
int cli_kyua_vars(const char *vars, char **out, char *err, size_t errlen);

#endif
