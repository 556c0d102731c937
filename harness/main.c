/* main.c: the ttypot command (see cli.h for the command line). */
#include "bisect.h"
#include "ci.h"
#include "cli.h"
#include "mutants.h"
#include "commands.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int main(int argc, char **argv)
{
	/* Subcommands with their own options (bisect.h, ci.h, mutants.h). */
	if (argc >= 2 && !strcmp(argv[1], "bisect-run"))
		return cmd_bisect_run(argc, argv);
	if (argc >= 2 && !strcmp(argv[1], "ci"))
		return cmd_ci(argc, argv);
	if (argc >= 2 && !strcmp(argv[1], "mutants"))
		return cmd_mutants(argc, argv);
	struct cli o;
	char err[512];
	int rc = 2;
	if (cli_parse(argc, argv, &o, err, sizeof err) < 0) {
		fprintf(stderr, "ttypot: %s\n", err);
		cli_usage(stderr);
	} else if (o.cmd == CMD_HELP) {
		cli_usage(stdout);
		rc = 0;
	} else if (o.cmd == CMD_MATRIX || o.cmd == CMD_RUN) {
		rc = cmd_matrix(&o, argv[0]);
	} else if (o.cmd == CMD_REPORT) {
		rc = cmd_report(&o, argv[0]);
	} else if (o.cmd == CMD_MERGE) {
		rc = cmd_merge(&o);
	}
	free(o.args);
	return rc;
}
