// SPDX-License-Identifier: GPL-2.0-only
/* cli.c: option parsing for every command (getopt_long over a table), and
 * the options of matrix, run, report and merge. */
#include "cli.h"
#include "kernel.h"
#include "rbuf.h"

#include <getopt.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>

#define MAX_OPTS 32
/* getopt_long's value for a long option without a letter: 256 + index. */
#define LONG_ONLY 256

struct cli_opt cli_opt_output(const char **dst, const char *help)
{
	return (struct cli_opt){ "output", 'o', OPT_STR, dst, 0, "DIR", help };
}

struct cli_opt cli_opt_jobs(int *dst, const char *help)
{
	return (struct cli_opt){ "jobs", 'j', OPT_INT, dst, 1, "N", help };
}

struct cli_opt cli_opt_cases(const char **dst)
{
	return (struct cli_opt){ "cases", 0, OPT_STR, dst, 0, "FILTER",
				 "only these programs, cases or areas (default: all)" };
}

struct cli_opt cli_opt_deadline(int *dst)
{
	return (struct cli_opt){ "deadline", 0, OPT_INT, dst, 1, "S",
				 "seconds per kernel boot (default 1800)" };
}

struct cli_opt cli_opt_suite(const char **dst)
{
	return (struct cli_opt){ "suite", 0, OPT_STR, dst, 0, "DIR", "the built ttypot tree to run" };
}

struct cli_opt cli_opt_cache(const char **dst)
{
	return (struct cli_opt){ "cache", 0, OPT_STR, dst, 0, "DIR",
				 "kernel cache (default ~/.cache/ttypot)" };
}

struct cli_opt cli_opt_flavour(const char **dst)
{
	return (struct cli_opt){ "flavour", 0, OPT_STR, dst, 0, "FLAVOUR",
				 "build the kernel as FLAVOUR too (debug: KASAN, UBSAN, "
				 "lockdep; fixtures/kernel/debug.config)" };
}

int cli_flavour_suffix(const char *flavour, char *out, size_t outlen, char *err,
		       size_t errlen)
{
	out[0] = '\0';
	if (!flavour || !*flavour)
		return 0;
	if (strcmp(flavour, "debug")) {
		snprintf(err, errlen, "--flavour %s: unknown flavour (there is: debug)",
			 flavour);
		return -1;
	}
	snprintf(out, outlen, "+%s", flavour);
	return 0;
}

struct cli_opt cli_opt_expect(const char **dst)
{
	return (struct cli_opt){ "expect", 0, OPT_STR, dst, 0, "DIR",
				 "expectations (default SUITE/fixtures/expect)" };
}

static const struct cli_opt *by_val(const struct cli_opt *opts, int val)
{
	for (int i = 0; opts[i].name; i++)
		if ((opts[i].key && opts[i].key == val) || val == LONG_ONLY + i)
			return &opts[i];
	return NULL;
}

static void opt_name(const struct cli_opt *o, char *out, size_t outlen)
{
	if (o->key)
		snprintf(out, outlen, "-%c", o->key);
	else
		snprintf(out, outlen, "--%s", o->name);
}

static int store(const struct cli_opt *o, const char *val, char *err, size_t errlen)
{
	char name[64];
	opt_name(o, name, sizeof name);
	if (o->kind == OPT_FLAG) {
		*(bool *)o->dst = true;
		return 0;
	}
	if (!val || !*val) {
		snprintf(err, errlen, "%s needs a non-empty value", name);
		return -1;
	}
	if (o->kind == OPT_STR) {
		*(const char **)o->dst = val;
		return 0;
	}
	char *end;
	long n = strtol(val, &end, 10);
	if (*end || n < o->min || n > 1000000) {
		snprintf(err, errlen, "%s: '%s' is not a number >= %d", name, val, o->min);
		return -1;
	}
	*(int *)o->dst = (int)n;
	return 0;
}

enum cli_verdict cli_getopt(int argc, char **argv, const struct cli_opt *opts,
			    char ***rest, int *nrest, char *err, size_t errlen)
{
	struct option lo[MAX_OPTS + 3];
	/* '-': operands come back in order (as value 1) whatever
	 * POSIXLY_CORRECT says; ':': a missing value is reported as ':'. */
	char shorts[2 * MAX_OPTS + 8] = "-:hV";
	size_t n = 0, sl = strlen(shorts);
	for (; opts[n].name && n < MAX_OPTS; n++) {
		bool arg = opts[n].kind != OPT_FLAG;
		lo[n] = (struct option){ opts[n].name, arg ? required_argument : no_argument,
					 NULL, opts[n].key ? opts[n].key : LONG_ONLY + (int)n };
		if (opts[n].key) {
			shorts[sl++] = opts[n].key;
			if (arg)
				shorts[sl++] = ':';
		}
	}
	shorts[sl] = '\0';
	lo[n++] = (struct option){ "help", no_argument, NULL, 'h' };
	lo[n++] = (struct option){ "version", no_argument, NULL, 'V' };
	lo[n] = (struct option){ NULL, 0, NULL, 0 };
	*rest = xrealloc(NULL, (size_t)(argc + 1) * sizeof **rest);
	*nrest = 0;
	(*rest)[0] = NULL;
	/* argv[1] is the command: getopt starts after it. */
	int sub_argc = argc - 1;
	char **sub_argv = argv + 1;
	optind = 0; /* a full reset: cli_getopt may run more than once */
	opterr = 0;
	int c;
	while ((c = getopt_long(sub_argc, sub_argv, shorts, lo, NULL)) != -1) {
		const struct cli_opt *o;
		char name[64];
		switch (c) {
		case 1:
			(*rest)[(*nrest)++] = optarg;
			(*rest)[*nrest] = NULL;
			break;
		case 'h':
			return CLI_HELP;
		case 'V':
			return CLI_VERSION;
		case ':':
			o = by_val(opts, optopt);
			if (o)
				opt_name(o, name, sizeof name);
			else
				snprintf(name, sizeof name, "%s", sub_argv[optind - 1]);
			snprintf(err, errlen, "%s needs a value", name);
			return CLI_ERROR;
		case '?':
			if (optopt && optopt < LONG_ONLY && !by_val(opts, optopt))
				snprintf(err, errlen, "unknown option '-%c'", optopt);
			else
				snprintf(err, errlen, "unknown option '%s'", sub_argv[optind - 1]);
			return CLI_ERROR;
		default:
			o = by_val(opts, c);
			if (!o || store(o, optarg, err, errlen) < 0) {
				if (!o)
					snprintf(err, errlen, "unknown option");
				return CLI_ERROR;
			}
		}
	}
	for (int i = optind; i < sub_argc; i++) {
		(*rest)[(*nrest)++] = sub_argv[i];
		(*rest)[*nrest] = NULL;
	}
	return CLI_OK;
}

enum cli_verdict cli_command(int argc, char **argv, const struct cli_opt *opts,
			     const char *synopsis, const char *more, char ***rest,
			     int *nrest)
{
	char **r, err[512];
	int nr;
	enum cli_verdict v = cli_getopt(argc, argv, opts, &r, &nr, err, sizeof err);
	if (v == CLI_OK && nr && !rest) {
		snprintf(err, sizeof err, "unexpected argument '%s'", r[0]);
		v = CLI_ERROR;
	}
	if (rest && v == CLI_OK) {
		*rest = r;
		*nrest = nr;
	} else {
		free(r);
	}
	if (v == CLI_HELP)
		cli_help(stdout, argv[1], synopsis, opts, more);
	else if (v == CLI_VERSION)
		cli_version(stdout);
	else if (v == CLI_ERROR) {
		fprintf(stderr, "ttypot: %s: %s\n", argv[1], err);
		cli_help(stderr, argv[1], synopsis, opts, NULL);
	}
	return v;
}

void cli_help_options(FILE *f, const struct cli_opt *opts)
{
	for (int i = 0; opts[i].name; i++) {
		char left[64];
		if (opts[i].key)
			snprintf(left, sizeof left, "-%c, --%s%s%s", opts[i].key, opts[i].name,
				 opts[i].arg ? " " : "", opts[i].arg ? opts[i].arg : "");
		else
			snprintf(left, sizeof left, "    --%s%s%s", opts[i].name,
				 opts[i].arg ? " " : "", opts[i].arg ? opts[i].arg : "");
		fprintf(f, "  %-24s %s\n", left, opts[i].help);
	}
}

void cli_help(FILE *f, const char *cmd, const char *synopsis,
	      const struct cli_opt *opts, const char *more)
{
	fprintf(f, "usage: ttypot %s %s\n", cmd, synopsis);
	if (opts[0].name)
		fprintf(f, "options:\n");
	cli_help_options(f, opts);
	fprintf(f, "  %-24s %s\n  %-24s %s\n", "-h, --help", "this help",
		"-V, --version", "the version of ttypot");
	if (more)
		fputs(more, f);
}

void cli_version(FILE *f)
{
	fprintf(f, "ttypot %s\n", TTYPOT_VERSION);
}

/* ---- matrix, run, report, merge ---- */

static const char *const kernel_help =
	"KERNEL: host | PATH-to-bzImage | deb:PACKAGE[=VERSION][:ARCH] | PATH.deb\n"
	"        | src:linux-source-6.12 | tree:DIR | rpm:KERNEL.rpm[,MODULES.rpm...]\n"
	"        | PATH.rpm (Fedora/RHEL kernel-core or SUSE kernel-default; the\n"
	"        modules RPMs of its release beside it too), each but host with an\n"
	"        optional +compat32 (the i386 suite on an x86_64 kernel), or a preset:\n"
	"        default  host, two Debian 6.1 ABIs, the cloud and rt flavours and\n"
	"                 src:linux-source-6.12 (from the apt lists; also no kernels)\n"
	"        abi      the newest Debian 6.1 ABI as x86_64, x86_64+compat32, arm64\n"
	"                 and ppc64le columns\n"
	"        ARCH: amd64, arm64, ppc64el (Debian's names; x86_64, aarch64, ppc64le too).\n"
	"FILTER: comma-separated program[:case] or area ids, e.g. pty/t_echo,close\n";
static const char *const output_help =
	"Writes matrix.{md,html,csv,json}, junit-LABEL.xml, ktap-LABEL.ktap (the\n"
	"kernel's KTAP), kcidb.json into DIR\n"
	"(default ./" CLI_DEFAULT_OUTDIR ").  Exit: 0 no regression against the baseline,\n"
	"1 regressions, 2 usage or input errors.\n";

static const struct {
	const char *name;
	enum cli_cmd cmd;
	const char *synopsis;
	const char *more;
} run_cmds[] = {
	{ "matrix", CMD_MATRIX, "[OPTIONS] [KERNEL...]",
	  "--reuse: a column whose key (kernel image and modules, built suite, filter,\n"
	  "arch/ABI, QEMU version) matches a finished, complete earlier run is read\n"
	  "from CACHE/results, not run; its heading says from when and which run.\n"
	  "The host column always runs.\n" },
	{ "run", CMD_RUN, "[OPTIONS]   (the running kernel only)", NULL },
	{ "report", CMD_REPORT, "[OPTIONS] RESULTS...",
	  "RESULTS: matrix.json files or results-channel files (harness/PROTOCOL.md).\n" },
	{ "merge", CMD_MERGE, "[OPTIONS] RUN.json...",
	  "Merges matrix.json files (e.g. from several machines) into one matrix.\n" },
};

/* The guest's run-suite.sh splits the words at blanks, so names and values
 * are limited to characters that survive that. */
int cli_kyua_vars(const char *vars, char **out, char *err, size_t errlen)
{
	static const char name_ok[] = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"
				      "0123456789_";
	static const char value_ok[] = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"
				       "0123456789_./:+-";
	struct rbuf b = {0};
	for (const char *p = vars; *p;) {
		size_t len = strcspn(p, ",");
		size_t nl = strspn(p, name_ok);
		size_t vl = nl < len && p[nl] == '=' ? strspn(p + nl + 1, value_ok) : 0;
		if (nl == 0 || nl >= len || p[nl] != '=' || nl + 1 + vl != len || vl == 0) {
			snprintf(err, errlen, "--vars %s: '%.*s' is not NAME=VALUE (NAME of "
				 "letters, digits and _; VALUE of those and . / : + -)", vars,
				 (int)len, p);
			rbuf_free(&b);
			return -1;
		}
		rbuf_addf(&b, "%s-v test_suites.ttypot.%.*s", b.len ? " " : "", (int)len, p);
		p += len + (p[len] == ',');
	}
	*out = b.len ? xstrdup(rbuf_str(&b)) : NULL;
	rbuf_free(&b);
	return 0;
}

static void fill_opts(struct cli *o, enum cli_cmd cmd, struct cli_opt *t)
{
	const struct cli_opt opts[] = {
		cli_opt_output(&o->outdir, "where the reports go (default reports)"),
		cli_opt_jobs(&o->jobs, "kernels at once (default: cores/2)"),
		{ "baseline", 0, OPT_STR, &o->baseline, 0, "LABEL", "the column others are compared with" },
		cli_opt_cases(&o->cases),
		cli_opt_deadline(&o->deadline_s),
		cli_opt_suite(&o->suite_dir),
		cli_opt_cache(&o->cache_dir),
		cli_opt_expect(&o->expect_dir),
		CLI_OPT_END,
	};
	memcpy(t, opts, sizeof opts);
	size_t n = sizeof opts / sizeof *opts - 1;
	if (cmd == CMD_MATRIX || cmd == CMD_RUN)
		t[n++] = (struct cli_opt){ "vars", 0, OPT_STR, &o->vars, 0, "NAME=VALUE,...",
			"Kyua variables for the cases, in every column (e.g. "
			"compile_iterations=100,race_iterations=5000)" };
	if (cmd == CMD_MATRIX) {
		t[n++] = (struct cli_opt){ "arch", 0, OPT_STR, &o->arch, 0, "ARCH",
			"the arch of kernel image paths (x86_64, arm64, ppc64le)" };
		t[n++] = (struct cli_opt){ "reuse", 0, OPT_FLAG, &o->reuse, 0, NULL,
			"read columns whose key matches from the result cache" };
	}
	t[n] = (struct cli_opt)CLI_OPT_END;
	if (cmd == CMD_REPORT) {
		t[n] = (struct cli_opt){ "format", 0, OPT_STR, &o->format, 0, "FMT",
			"write only FMT, to stdout: ktap, md, html, csv, json, kcidb, junit" };
		t[n + 1] = (struct cli_opt)CLI_OPT_END;
	}
}

void cli_usage(FILE *f, const char *name)
{
	struct cli o;
	struct cli_opt t[16];
	for (size_t i = 0; i < sizeof run_cmds / sizeof *run_cmds; i++) {
		if (name && strcmp(name, run_cmds[i].name))
			continue;
		fill_opts(&o, run_cmds[i].cmd, t);
		struct rbuf more = {0};
		rbuf_add(&more, run_cmds[i].more ? run_cmds[i].more : "");
		rbuf_add(&more, kernel_help);
		rbuf_add(&more, output_help);
		cli_help(f, run_cmds[i].name, run_cmds[i].synopsis, t, rbuf_str(&more));
		rbuf_free(&more);
	}
}

int cli_parse(int argc, char **argv, struct cli *o, char *err, size_t errlen)
{
	memset(o, 0, sizeof *o);
	o->deadline_s = CLI_DEFAULT_DEADLINE_S;
	o->outdir = CLI_DEFAULT_OUTDIR;
	o->args = NULL;
	if (argc < 2) {
		o->args = xrealloc(NULL, sizeof *o->args);
		snprintf(err, errlen, "a command is needed: matrix, run, report, merge, "
			 "ci, bisect-run, mutants, cover or lava (ttypot help)");
		return -1;
	}
	const char *cmd = argv[1];
	bool known = false;
	for (size_t i = 0; i < sizeof run_cmds / sizeof *run_cmds; i++)
		if (!strcmp(cmd, run_cmds[i].name)) {
			o->cmd = run_cmds[i].cmd;
			known = true;
		}
	if (!strcmp(cmd, "help") || !strcmp(cmd, "-h") || !strcmp(cmd, "--help")) {
		o->args = xrealloc(NULL, sizeof *o->args);
		o->cmd = CMD_HELP;
		return 0;
	}
	if (!known) {
		o->args = xrealloc(NULL, sizeof *o->args);
		snprintf(err, errlen, "unknown command '%s' (ttypot help lists them)", cmd);
		return -1;
	}
	struct cli_opt t[16];
	fill_opts(o, o->cmd, t);
	char msg[256];
	enum cli_verdict v = cli_getopt(argc, argv, t, &o->args, &o->nargs, msg, sizeof msg);
	if (v == CLI_HELP || v == CLI_VERSION) {
		o->cmd = CMD_HELP;
		o->version = v == CLI_VERSION;
		return 0;
	}
	if (v == CLI_ERROR) {
		snprintf(err, errlen, "%s: %s", cmd, msg);
		return -1;
	}
	if (o->cmd == CMD_RUN && o->nargs) {
		snprintf(err, errlen, "run takes no kernels (it runs on the host): '%s'", o->args[0]);
		return -1;
	}
	if (o->arch && !karch_canon(o->arch)) {
		snprintf(err, errlen, "--arch %s: unknown architecture (x86_64/amd64, "
			 "arm64/aarch64, ppc64le/ppc64el)", o->arch);
		return -1;
	}
	if (o->vars && cli_kyua_vars(o->vars, &o->kyua_vars, err, errlen) < 0)
		return -1;
	if ((o->cmd == CMD_REPORT || o->cmd == CMD_MERGE) && !o->nargs) {
		snprintf(err, errlen, "%s needs at least one input file", cmd);
		return -1;
	}
	return 0;
}
