/* cli.c: parsing the ttypot command line. */
#include "cli.h"
#include "rbuf.h"

#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

void cli_usage(FILE *f)
{
	fputs("usage: ttypot matrix [-o DIR] [-j N] [--baseline LABEL] [--cases FILTER]\n"
	      "                     [--deadline S] [--suite DIR] [--cache DIR] [--expect DIR] [KERNEL...]\n"
	      "       ttypot run [-o DIR] [--cases FILTER] [--deadline S] [--suite DIR]\n"
	      "       ttypot report [-o DIR] [--baseline LABEL] RESULTS...\n"
	      "       ttypot merge [-o DIR] [--baseline LABEL] RUN.json...\n"
	      "       ttypot ci --tree DIR --baseline KERNEL [-o DIR] [--cases FILTER]\n"
	      "       ttypot bisect-run [--cases FILTER] [--tree DIR] [--baseline KERNEL] [--reruns N]\n"
	      "       ttypot mutants [-o DIR] [--runs N] [--race-runs N] [PATCH...]\n"
	      "KERNEL: host | PATH-to-bzImage | deb:PACKAGE[=VERSION] | PATH.deb | src:linux-source-6.12\n"
	      "        | tree:DIR.  No kernels: host, two Debian 6.1 ABIs, the cloud and rt\n"
	      "        flavours, and src:linux-source-6.12 (from the apt lists).\n"
	      "FILTER: comma-separated program[:case] or area ids, e.g. pty/t_echo,close\n"
	      "RESULTS: matrix.json files or results-channel files (harness/PROTOCOL.md).\n"
	      "Writes matrix.{md,html,csv,json}, junit-LABEL.xml, kcidb.json into DIR\n"
	      "(default ./" CLI_DEFAULT_OUTDIR ").  Exit: 0 no regression against the baseline,\n"
	      "1 regressions, 2 usage or input errors.  ci: 3 when the tree does not build.\n"
	      "bisect-run: 0 good, 1 bad, 125 skip (no build, no boot, usage).\n", f);
}

static int parse_int(const char *opt, const char *v, int min, int *out, char *err,
		     size_t errlen)
{
	char *end;
	long n = strtol(v, &end, 10);
	if (!*v || *end || n < min || n > 1000000) {
		snprintf(err, errlen, "%s: '%s' is not a number >= %d", opt, v, min);
		return -1;
	}
	*out = (int)n;
	return 0;
}

int cli_parse(int argc, char **argv, struct cli *o, char *err, size_t errlen)
{
	memset(o, 0, sizeof *o);
	o->deadline_s = CLI_DEFAULT_DEADLINE_S;
	o->outdir = CLI_DEFAULT_OUTDIR;
	o->args = xrealloc(NULL, (size_t)(argc + 1) * sizeof *o->args);
	if (argc < 2) {
		snprintf(err, errlen, "a command is needed: matrix, run, report or merge");
		return -1;
	}
	const char *cmd = argv[1];
	if (!strcmp(cmd, "matrix")) o->cmd = CMD_MATRIX;
	else if (!strcmp(cmd, "run")) o->cmd = CMD_RUN;
	else if (!strcmp(cmd, "report")) o->cmd = CMD_REPORT;
	else if (!strcmp(cmd, "merge")) o->cmd = CMD_MERGE;
	else if (!strcmp(cmd, "help") || !strcmp(cmd, "-h") || !strcmp(cmd, "--help")) {
		o->cmd = CMD_HELP;
		return 0;
	} else {
		snprintf(err, errlen, "unknown command '%s'", cmd);
		return -1;
	}
	bool opts_done = false;
	for (int i = 2; i < argc; i++) {
		const char *a = argv[i];
		if (opts_done || a[0] != '-' || !a[1]) {
			o->args[o->nargs++] = argv[i];
			continue;
		}
		if (!strcmp(a, "--")) {
			opts_done = true;
			continue;
		}
		if (!strcmp(a, "-h") || !strcmp(a, "--help")) {
			o->cmd = CMD_HELP;
			return 0;
		}
		/* "--name=value" or "--name value" / "-o value" */
		char name[64];
		const char *val = NULL;
		const char *eq = strncmp(a, "--", 2) == 0 ? strchr(a, '=') : NULL;
		if (eq) {
			snprintf(name, sizeof name, "%.*s", (int)(eq - a), a);
			val = eq + 1;
		} else {
			snprintf(name, sizeof name, "%s", a);
		}
		static const char *const known[] = { "-o", "-j", "--baseline", "--cases",
			"--deadline", "--suite", "--cache", "--expect", NULL };
		bool ok = false;
		for (int k = 0; known[k]; k++)
			ok |= !strcmp(name, known[k]);
		if (!ok) {
			snprintf(err, errlen, "unknown option '%s'", a);
			return -1;
		}
		if (!val) {
			if (i + 1 >= argc) {
				snprintf(err, errlen, "%s needs a value", name);
				return -1;
			}
			val = argv[++i];
		}
		if (!*val) {
			snprintf(err, errlen, "%s needs a non-empty value", name);
			return -1;
		}
		if (!strcmp(name, "-o")) o->outdir = val;
		else if (!strcmp(name, "-j")) {
			if (parse_int(name, val, 1, &o->jobs, err, errlen) < 0)
				return -1;
		} else if (!strcmp(name, "--deadline")) {
			if (parse_int(name, val, 1, &o->deadline_s, err, errlen) < 0)
				return -1;
		}
		else if (!strcmp(name, "--baseline")) o->baseline = val;
		else if (!strcmp(name, "--cases")) o->cases = val;
		else if (!strcmp(name, "--suite")) o->suite_dir = val;
		else if (!strcmp(name, "--cache")) o->cache_dir = val;
		else if (!strcmp(name, "--expect")) o->expect_dir = val;
	}
	o->args[o->nargs] = NULL;
	if (o->cmd == CMD_RUN && o->nargs) {
		snprintf(err, errlen, "run takes no kernels (it runs on the host): '%s'", o->args[0]);
		return -1;
	}
	if ((o->cmd == CMD_REPORT || o->cmd == CMD_MERGE) && !o->nargs) {
		snprintf(err, errlen, "%s needs at least one input file", cmd);
		return -1;
	}
	return 0;
}
