// SPDX-License-Identifier: GPL-2.0-only
/* cmd_lava.c: `ttypot lava submit|collect|definition` (lava.h, ttypot(1)):
 * the options of each subcommand, and the generic board definition.
 * lava_submit.c and lava_collect.c do the work. */
/* Paths are bounded by PATH_MAX; a truncated message is only shorter. */
#pragma GCC diagnostic ignored "-Wformat-truncation"
#include "lava.h"
#include "lava_cmd.h"
#include "cli.h"
#include "rbuf.h"

#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define LAVA_DEFAULT_OUTDIR "reports/lava"
#define LAVA_DEFAULT_WAIT_S 3600
#define LAVA_DEFAULT_JOB_MIN 60
#define MAX_JOBS 256

volatile sig_atomic_t lava_interrupted;

static void on_signal(int sig)
{
	(void)sig;
	lava_interrupted = 1;
}

void lava_catch_signals(void)
{
	struct sigaction sa;
	memset(&sa, 0, sizeof sa);
	sa.sa_handler = on_signal;
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
}

/* The generic test definition for a board that boots its own kernel and a
 * root file system with the suite installed (make install). */
static void board_definition(const char *cases, const char *suite_path)
{
	char words[2048];
	snprintf(words, sizeof words, "%s", cases ? cases : "");
	for (char *c = words; *c; c++)
		if (*c == ',')
			*c = ' ';
	printf("# ttypot on a board: a LAVA test action's inline definition.  The board's\n"
	       "# root file system needs the suite installed (make install: SUITE below),\n"
	       "# kyua, atf and busybox or coreutils.  SERIAL_A/SERIAL_B: two UARTs wired\n"
	       "# to each other (null modem) for the serial cases, else they skip.\n"
	       "- test:\n"
	       "    timeout: {minutes: 60}\n"
	       "    definitions:\n"
	       "    - from: inline\n"
	       "      name: ttypot\n"
	       "      path: inline/ttypot.yaml\n"
	       "      # Shell variables of the steps (LAVA's test parameters).\n"
	       "      parameters: {SUITE: \"%s\", FILTER: \"%s\", SERIAL_A: \"\", SERIAL_B: \"\"}\n"
	       "      repository:\n"
	       "        metadata:\n"
	       "          format: Lava-Test Test Definition 1.0\n"
	       "          name: ttypot\n"
	       "          description: ttypot TTY/PTY cases\n"
	       "        run:\n"
	       "          steps:\n"
	       "          - 'if [ -n \"$SERIAL_A\" ] && [ -n \"$SERIAL_B\" ]; then export "
	       "TTYPOT_KYUA_VARS=\"-v test_suites.ttypot.serial_a=$SERIAL_A -v "
	       "test_suites.ttypot.serial_b=$SERIAL_B\"; fi'\n"
	       "          - 'TTYPOT_SUITE=\"$SUITE\" sh \"$SUITE/fixtures/guest/lava-suite.sh\" $FILTER'\n",
	       suite_path, words);
}

static const char *const submit_more =
	"Resolves each KERNEL as `ttypot matrix` does and submits one LAVA job per\n"
	"kernel: the kernel and the ttypot initramfs booted on a QEMU device type,\n"
	"each case a LAVA test case, the results channel in the job log.  Images are\n"
	"file:// URLs (a worker on this machine) unless --image-url-base maps\n"
	"DIR/jobs/images.  The token: --token-file, $TTYPOT_LAVA_TOKEN_FILE or\n"
	"$TTYPOT_LAVA_TOKEN; the server: --server or $TTYPOT_LAVA_URL.\n";
static const char *const collect_more =
	"Waits (--deadline, default 3600 s) for the jobs, reads each job's log through\n"
	"the REST API and writes the matrix (columns LABEL@lava) into DIR.  `ttypot\n"
	"merge` puts them beside local columns.\n";

static int lava_usage(FILE *f)
{
	fprintf(f, "usage: ttypot lava submit [OPTIONS] KERNEL...\n"
		   "       ttypot lava collect [OPTIONS] JOB...\n"
		   "       ttypot lava definition [--cases FILTER] [--suite-path DIR]\n"
		   "`ttypot lava submit --help` and `ttypot lava collect --help` list the options.\n");
	return f == stdout ? 0 : 2;
}

int cmd_lava(int argc, char **argv)
{
	if (argc < 3)
		return lava_usage(stderr);
	const char *sub = argv[2];
	if (!strcmp(sub, "--help") || !strcmp(sub, "-h") || !strcmp(sub, "help"))
		return lava_usage(stdout);
	if (!strcmp(sub, "--version") || !strcmp(sub, "-V")) {
		cli_version(stdout);
		return 0;
	}
	struct lava_opts o = {
		.device_type = "qemu", .outdir = LAVA_DEFAULT_OUTDIR,
		.deadline_s = LAVA_DEFAULT_WAIT_S, .job_minutes = LAVA_DEFAULT_JOB_MIN,
	};
	const char *suite_path = "/usr/local/lib/ttypot/tests";
	char name[32];
	snprintf(name, sizeof name, "lava %.20s", sub);
	char **sargv = xrealloc(NULL, (size_t)argc * sizeof *sargv);
	sargv[0] = argv[0];
	sargv[1] = name;
	for (int i = 3; i < argc; i++)
		sargv[i - 1] = argv[i];
	sargv[argc - 1] = NULL;
	int sargc = argc - 1;
	char **rest = NULL;
	int nrest = 0, rc = 2;
	struct cli_opt srv = { "server", 0, OPT_STR, &o.server, 0, "URL",
			       "the LAVA server (default $TTYPOT_LAVA_URL)" };
	struct cli_opt tok = { "token-file", 0, OPT_STR, &o.token_file, 0, "FILE",
			       "the API token's file (never printed)" };
	if (!strcmp(sub, "submit")) {
		const struct cli_opt opts[] = {
			srv, tok,
			{ "device-type", 0, OPT_STR, &o.device_type, 0, "TYPE", "the lab's QEMU device type (default qemu)" },
			{ "tag", 0, OPT_STR, &o.tag, 0, "TAG", "only devices with this tag run the jobs" },
			cli_opt_cases(&o.cases),
			cli_opt_output(&o.outdir, "job files, images and (--wait) reports (default reports/lava)"),
			{ "dry-run", 'n', OPT_FLAG, &o.dry_run, 0, NULL, "write the job YAML, submit nothing" },
			{ "wait", 'w', OPT_FLAG, &o.wait, 0, NULL, "then collect the jobs (as lava collect)" },
			{ "deadline", 0, OPT_INT, &o.deadline_s, 1, "S", "--wait: seconds to wait for the jobs (default 3600)" },
			{ "job-timeout", 0, OPT_INT, &o.job_minutes, 30, "MIN", "each job's LAVA timeout (default 60)" },
			{ "image-url-base", 0, OPT_STR, &o.image_url_base, 0, "URL", "where the lab downloads DIR/jobs/images/ (default file://)" },
			{ "kernel-url", 0, OPT_STR, &o.kernel_url, 0, "URL", "boot this kernel URL instead of the resolved image" },
			cli_opt_cache(&o.cache),
			cli_opt_suite(&o.suite),
			cli_opt_expect(&o.expect),
			{ "baseline", 0, OPT_STR, &o.baseline, 0, "LABEL", "--wait: the column others are compared with" },
			CLI_OPT_END,
		};
		enum cli_verdict v = cli_command(sargc, sargv, opts, "[OPTIONS] KERNEL...",
						 submit_more, &rest, &nrest);
		if (v == CLI_HELP || v == CLI_VERSION)
			rc = 0;
		else if (v == CLI_OK && nrest == 0)
			fprintf(stderr, "ttypot: lava submit: a KERNEL is needed\n");
		else if (v == CLI_OK && !lava_filter_ok(o.cases))
			fprintf(stderr, "ttypot: lava submit: --cases: only letters, digits and "
				"_ - . / : , go into a job definition\n");
		else if (v == CLI_OK)
			rc = lava_cmd_submit(&o, argv[0], rest, nrest);
	} else if (!strcmp(sub, "collect")) {
		const struct cli_opt opts[] = {
			srv, tok,
			cli_opt_output(&o.outdir, "where the reports go (default reports/lava)"),
			{ "deadline", 0, OPT_INT, &o.deadline_s, 1, "S", "seconds to wait for the jobs (default 3600)" },
			{ "cases", 0, OPT_STR, &o.cases, 0, "FILTER", "the cases the jobs ran (default: as submitted)" },
			cli_opt_suite(&o.suite),
			cli_opt_expect(&o.expect),
			{ "baseline", 0, OPT_STR, &o.baseline, 0, "LABEL", "the column others are compared with" },
			CLI_OPT_END,
		};
		enum cli_verdict v = cli_command(sargc, sargv, opts, "[OPTIONS] JOB...",
						 collect_more, &rest, &nrest);
		if (v == CLI_HELP || v == CLI_VERSION) {
			rc = 0;
		} else if (v == CLI_OK && nrest == 0) {
			fprintf(stderr, "ttypot: lava collect: a JOB id is needed\n");
		} else if (v == CLI_OK && nrest > MAX_JOBS) {
			fprintf(stderr, "ttypot: lava collect: at most %d jobs at once\n", MAX_JOBS);
		} else if (v == CLI_OK) {
			long ids[MAX_JOBS];
			bool ok = true;
			for (int i = 0; i < nrest; i++) {
				char *end;
				ids[i] = strtol(rest[i], &end, 10);
				if (*end || ids[i] <= 0) {
					fprintf(stderr, "ttypot: lava collect: '%s' is not a job id\n",
						rest[i]);
					ok = false;
				}
			}
			if (ok)
				rc = lava_cmd_collect(&o, argv[0], ids, (size_t)nrest);
		}
	} else if (!strcmp(sub, "definition")) {
		const struct cli_opt opts[] = {
			cli_opt_cases(&o.cases),
			{ "suite-path", 0, OPT_STR, &suite_path, 0, "DIR", "the suite on the board (default /usr/local/lib/ttypot/tests)" },
			CLI_OPT_END,
		};
		enum cli_verdict v = cli_command(sargc, sargv, opts, "[OPTIONS]",
						 "Prints the generic test definition a board lab puts in its jobs.\n",
						 NULL, NULL);
		if (v == CLI_HELP || v == CLI_VERSION)
			rc = 0;
		else if (v == CLI_OK && (!lava_filter_ok(o.cases) || !lava_filter_ok(suite_path)))
			fprintf(stderr, "ttypot: lava definition: only letters, digits and "
				"_ - . / : , in --cases and --suite-path\n");
		else if (v == CLI_OK) {
			board_definition(o.cases, suite_path);
			rc = 0;
		}
	} else {
		fprintf(stderr, "ttypot: lava: unknown subcommand '%s'\n", sub);
		lava_usage(stderr);
	}
	free(rest);
	free(sargv);
	return rc;
}
