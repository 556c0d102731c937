// SPDX-License-Identifier: GPL-2.0-only
/*
 * t_mutation_kernel.c: the schemata kernel end to end.  `ttypot mutants
 * --generate` builds linux-source-6.12 with two n_tty.c mutants behind
 * their ids and boots it: as id 0 every case of a few programs gives what
 * the plain src: build gives, cell for cell, and a mutant that breaks a rule
 * those programs check (a non-blocking read with nothing to read returns
 * EIO instead of EAGAIN) is killed by them.  Builds two kernels the first
 * time (ccache makes later runs cheap).
 */
#include <atf-c.h>

#include "e2e.h"
#include "kutil.h"
#include "rbuf.h"

#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* Paths are bounded by PATH_MAX; a truncated message is only shorter. */
#pragma GCC diagnostic ignored "-Wformat-truncation"

/* EAGAIN -> EIO where n_tty_read gives up on an O_NONBLOCK read. */
#define KILLED_KEY "drivers/tty/n_tty.c:2269:errno:1"
/* A mutant the chosen programs never reach (a tab's echo): not killed here. */
#define OTHER_KEY "drivers/tty/n_tty.c:1046:call:1"
#define CASES "noncanon/t_nonblock,pty/t_open"
/* Two cold kernel builds under TCG-loaded cores, then three short boots. */
#define DEADLINE_S 5400

/* The schemata tree and build of this run's output directory (mutants_gen.c
 * keeps them per directory for --resume): the test's directory goes with
 * the test, so they go too. */
static void drop_run_tree(const char *cache, const char *outdir)
{
	char real[PATH_MAX], hex[65], dir[PATH_MAX + 64];
	if (!realpath(outdir, real))
		return;
	ku_sha256_hex(real, strlen(real), hex);
	snprintf(dir, sizeof dir, "%s/mutation/run-%.12s", cache, hex);
	if (ku_is_dir(dir))
		ku_rm_rf(dir);
}

/* The status cell of case id in matrix.csv text ("id,area,status ..."),
 * or NULL. */
static const char *plain_cell(const char *csv, const char *id)
{
	size_t il = strlen(id);
	for (const char *l = csv; l && *l;) {
		const char *nl = strchr(l, '\n');
		if (!strncmp(l, id, il) && l[il] == ',') {
			const char *area_end = strchr(l + il + 1, ',');
			if (area_end && (!nl || area_end < nl))
				return area_end + 1;
		}
		l = nl ? nl + 1 : NULL;
	}
	return NULL;
}

ATF_TC(schemata_kernel_id0_and_a_kill);
ATF_TC_HEAD(schemata_kernel_id0_and_a_kill, tc)
{
	atf_tc_set_md_var(tc, "descr", "The schemata kernel as id 0 gives the plain "
			  "build's cells for the same programs, and a mutant of n_tty_read's "
			  "non-blocking errno is killed by noncanon/t_nonblock");
	atf_tc_set_md_var(tc, "require.progs", "spatch qemu-system-x86_64");
	atf_tc_set_md_var(tc, "timeout", "5700");
}
ATF_TC_BODY(schemata_kernel_id0_and_a_kill, tc)
{
	char exe[PATH_MAX], cwd[PATH_MAX], out[PATH_MAX], plain[PATH_MAX];
	snprintf(exe, sizeof exe, "%s/../ttypot", atf_tc_get_config_var(tc, "srcdir"));
	ATF_REQUIRE(getcwd(cwd, sizeof cwd));
	snprintf(out, sizeof out, "%s/mut", cwd);
	snprintf(plain, sizeof plain, "%s/plain", cwd);
	char cache[PATH_MAX + 32], ccache[PATH_MAX + 32];
	/* the caches ttypot and ccache use outside the test: no cold 6.12 build */
	e2e_user_env("TTYPOT_CACHE", ".cache/ttypot", cache, sizeof cache);
	e2e_user_env("CCACHE_DIR", ".cache/ccache", ccache, sizeof ccache);
	char *gen[] = { "env", cache, ccache, exe, "mutants", "--generate", "--files", "drivers/tty/n_tty.c",
			"--keys", KILLED_KEY "," OTHER_KEY, "--cases", CASES, "--map",
			"none", "-o", out, NULL };
	int rc = e2e_run(gen, DEADLINE_S, "gen.log", "ttypot mutants --generate");
	drop_run_tree(cache + strlen("TTYPOT_CACHE="), out);
	/* 1: OTHER_KEY survives these programs (or is equivalent: then 0). */
	ATF_REQUIRE_MSG(rc == 0 || rc == 1, "ttypot mutants --generate exit %d (gen.log)", rc);
	char state[PATH_MAX + 32];
	snprintf(state, sizeof state, "%s/mutation-state.json", out);
	char *st = ku_read_file(state, NULL);
	ATF_REQUIRE_MSG(st, "no %s", state);
	const char *k = strstr(st, "\"" KILLED_KEY "\"");
	ATF_REQUIRE_MSG(k, "%s not in the state", KILLED_KEY);
	const char *end = strchr(k, '}');
	char entry[1024];
	snprintf(entry, sizeof entry, "%.*s", (int)(end ? end - k : 200), k);
	ATF_CHECK_MSG(strstr(entry, "\"status\": \"killed\""), "not killed: %s", entry);
	ATF_CHECK_MSG(strstr(entry, "noncanon/t_nonblock:"), "no killing case named: %s", entry);
	free(st);
	/* id 0 against the plain build, cell for cell. */
	char *mx[] = { "env", cache, ccache, exe, "matrix", "-o", plain, "--cases", CASES,
		       "src:linux-source-6.12", NULL };
	rc = e2e_run(mx, DEADLINE_S, "plain.log", "ttypot matrix src:linux-source-6.12");
	ATF_REQUIRE_MSG(rc == 0, "the plain column: exit %d (plain.log)", rc);
	char base[PATH_MAX + 32], csv[PATH_MAX + 32];
	snprintf(base, sizeof base, "%s/baseline-id0.tsv", out);
	snprintf(csv, sizeof csv, "%s/matrix.csv", plain);
	char *b = ku_read_file(base, NULL), *c = ku_read_file(csv, NULL);
	ATF_REQUIRE_MSG(b && c, "missing %s or %s", base, csv);
	size_t n = 0;
	for (char *l = b; *l;) {
		char *nl = strchr(l, '\n');
		if (nl)
			*nl = '\0';
		char *tab = strchr(l, '\t');
		if (tab) {
			*tab = '\0';
			const char *cell = plain_cell(c, l);
			if (!cell)
				atf_tc_fail_nonfatal("%s: in id 0, not in the plain column", l);
			else if (strncmp(cell, tab + 1, strlen(tab + 1)))
				atf_tc_fail_nonfatal("%s: id 0 %s, the plain build %.20s", l,
						     tab + 1, cell);
			n++;
		}
		l = nl ? nl + 1 : l + strlen(l);
	}
	ATF_CHECK_MSG(n >= 5, "only %zu cases compared", n);
	free(b);
	free(c);
}

ATF_TP_ADD_TCS(tp)
{
	ATF_TP_ADD_TC(tp, schemata_kernel_id0_and_a_kill);
	return atf_no_error();
}
