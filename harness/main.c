// SPDX-License-Identifier: GPL-2.0-only
/* main.c: the ttypot command: one line per subcommand, each in commands/
 * (`ttypot help` lists them, `ttypot COMMAND --help` shows its options,
 * man ttypot says it all). */
#include "bisect.h"
#include "ci.h"
#include "cmd_cover.h"
#include "cmd_inventory.h"
#include "cli.h"
#include "commands.h"
#include "lava.h"
#include "mutants.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* matrix, run, report and merge share their options (cli.h). */
static int cmd_run_kind(int argc, char **argv)
{
	struct cli o;
	char err[512];
	int rc = 2;
	if (cli_parse(argc, argv, &o, err, sizeof err) < 0) {
		fprintf(stderr, "ttypot: %s\n", err);
		fprintf(stderr, "ttypot: '%s --help' shows the options\n", argv[1]);
	} else if (o.cmd == CMD_HELP && o.version) {
		cli_version(stdout);
		rc = 0;
	} else if (o.cmd == CMD_HELP) {
		cli_usage(stdout, argv[1]);
		rc = 0;
	} else if (o.cmd == CMD_MATRIX || o.cmd == CMD_RUN) {
		rc = cmd_matrix(&o, argv[0]);
	} else if (o.cmd == CMD_REPORT) {
		rc = cmd_report(&o, argv[0]);
	} else if (o.cmd == CMD_MERGE) {
		rc = cmd_merge(&o);
	}
	free(o.args);
	free(o.kyua_vars);
	return rc;
}

static const struct command {
	const char *name;
	const char *summary;
	int (*run)(int argc, char **argv);
} commands[] = {
	{ "matrix", "run the suite on kernels (default: a Debian set), write the matrix", cmd_run_kind },
	{ "run", "run the suite on the running kernel only", cmd_run_kind },
	{ "report", "re-render matrix.json or results-channel files", cmd_run_kind },
	{ "merge", "combine matrix.json files (e.g. from several machines)", cmd_run_kind },
	{ "ci", "build a kernel tree, compare it with a baseline kernel", cmd_ci },
	{ "bisect-run", "one step of `git bisect run` on a kernel tree", cmd_bisect_run },
	{ "mutants", "kernel mutation testing: does the suite catch known bugs?", cmd_mutants },
	{ "cover", "which test programs execute a line or function of drivers/tty", cmd_cover },
	{ "inventory", "the tty user interface from the kernel source, and the cases using each item", cmd_inventory },
	{ "lava", "submit kernels to a LAVA lab, collect its jobs as matrix columns", cmd_lava },
};
#define NCOMMANDS (sizeof commands / sizeof *commands)

static void overview(FILE *f)
{
	fprintf(f, "usage: ttypot COMMAND [OPTIONS] [ARGS]\n"
		   "       ttypot help [COMMAND] | ttypot COMMAND --help | ttypot --version\n"
		   "commands:\n");
	for (size_t i = 0; i < NCOMMANDS; i++)
		fprintf(f, "  %-11s %s\n", commands[i].name, commands[i].summary);
	fprintf(f, "`ttypot COMMAND --help` lists a command's options; man ttypot says more.\n");
}

static const struct command *find(const char *name)
{
	for (size_t i = 0; i < NCOMMANDS; i++)
		if (!strcmp(name, commands[i].name))
			return &commands[i];
	return NULL;
}

int main(int argc, char **argv)
{
	if (argc < 2) {
		fprintf(stderr, "ttypot: a command is needed\n");
		overview(stderr);
		return 2;
	}
	const char *a = argv[1];
	if (!strcmp(a, "--version") || !strcmp(a, "-V") || !strcmp(a, "version")) {
		cli_version(stdout);
		return 0;
	}
	if (!strcmp(a, "help") || !strcmp(a, "--help") || !strcmp(a, "-h")) {
		if (argc < 3) {
			overview(stdout);
			return 0;
		}
		const struct command *c = find(argv[2]);
		if (!c) {
			fprintf(stderr, "ttypot: help: unknown command '%s'\n", argv[2]);
			overview(stderr);
			return 2;
		}
		char *hargv[] = { argv[0], argv[2], "--help", NULL };
		return c->run(3, hargv);
	}
	const struct command *c = find(a);
	if (!c) {
		fprintf(stderr, "ttypot: unknown command '%s'\n", a);
		overview(stderr);
		return 2;
	}
	return c->run(argc, argv);
}
