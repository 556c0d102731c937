// SPDX-License-Identifier: GPL-2.0-only
/*
 * t_mutation_kernel.c: the schemata kernel end to end.  `ttypot mutants
 * --generate` builds linux-source-6.12 with two n_tty.c mutants behind
 * their ids and boots it: as id 0 every case of a few programs gives what
 * the plain src: build gives, cell for cell, and a mutant that breaks a rule
 * those programs check (a non-blocking read with nothing to read returns
 * EIO instead of EAGAIN) is killed by them.  Builds two kernels the first
 * time (ccache makes later runs cheap).  `--diff` on a git tree of that
 * source: a change of n_tty_read's EAGAIN line alone is all killed (exit
 * 0); with a change of a packet-mode line too, its mutants survive
 * noncanon/t_nonblock and are named (exit 1); no mutant off those lines.
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

/* The lines the patch test changes in n_tty.c of linux-source-6.12: a
 * non-blocking read's EAGAIN (noncanon/t_nonblock reads it) and the test
 * of a packet-mode status byte (t_nonblock never sets packet mode). */
#define KILL_LINE 2269
#define KILL_TEXT "retval = -EAGAIN;"
#define SURVIVE_LINE 2238
#define SURVIVE_TEXT "if (kb != kbuf)"
#define PATCH_CASES "noncanon/t_nonblock"
/* Two schemata builds (ccache: about a minute each), two baselines and at
 * most six boots of a few seconds each. */
#define PATCH_DEADLINE_S 3600

static void sh_ok(const char *cmd, const char *log)
{
	char *argv[] = { "sh", "-c", (char *)cmd, NULL };
	int rc = e2e_run(argv, 600, log, cmd);
	ATF_REQUIRE_MSG(rc == 0, "%s: exit %d (%s)", cmd, rc, log);
}

/* A comment appended to line `line` of the tree's n_tty.c, which must read
 * `want` there, then committed. */
static void change_line(int line, const char *want, const char *comment, const char *msg)
{
	const char *path = "linux-source-6.12/drivers/tty/n_tty.c";
	char *t = ku_read_file(path, NULL);
	ATF_REQUIRE(t);
	char *l = t;
	for (int i = 1; i < line && l; i++) {
		l = strchr(l, '\n');
		l = l ? l + 1 : NULL;
	}
	ATF_REQUIRE_MSG(l, "n_tty.c has no line %d", line);
	size_t ll = strcspn(l, "\n");
	char have[200];
	snprintf(have, sizeof have, "%.*s", (int)ll, l);
	ATF_REQUIRE_MSG(strstr(have, want), "n_tty.c:%d is '%s', not '%s': another source?",
			line, have, want);
	struct rbuf b = {0};
	rbuf_addn(&b, t, (size_t)(l - t) + ll);
	rbuf_addf(&b, "\t/* %s */", comment);
	rbuf_add(&b, l + ll);
	/* the tree's n_tty.c is its own file (sh_ok below), never the source's */
	ATF_REQUIRE(ku_write_file(path, b.s, b.len) == 0);
	rbuf_free(&b);
	free(t);
	char cmd[300];
	snprintf(cmd, sizeof cmd, "cd linux-source-6.12 && git -c user.name=ttypot -c "
		 "user.email=t@ttypot commit -q -a -m '%s'", msg);
	sh_ok(cmd, "git.log");
}

/* Every key of a mutation state is on one of the two changed lines. */
static void keys_on_changed_lines(const char *state)
{
	char *st = ku_read_file(state, NULL);
	ATF_REQUIRE_MSG(st, "no %s", state);
	size_t n = 0;
	for (const char *p = st; (p = strstr(p, "\"key\": \"drivers/tty/n_tty.c:")); n++) {
		p += strlen("\"key\": \"drivers/tty/n_tty.c:");
		int line = atoi(p);
		if (line != KILL_LINE && line != SURVIVE_LINE)
			atf_tc_fail_nonfatal("%s: a mutant on line %d, not a changed line", state,
					     line);
	}
	ATF_CHECK_MSG(n > 0, "%s: no mutant", state);
	free(st);
}

ATF_TC(patch_diff_kill_and_survivor);
ATF_TC_HEAD(patch_diff_kill_and_survivor, tc)
{
	atf_tc_set_md_var(tc, "descr", "mutants --generate --diff on a git tree of "
			  "linux-source-6.12: the mutants land only on the changed lines; a "
			  "change whose mutants noncanon/t_nonblock kills exits 0, one with a "
			  "packet-mode line it never runs exits 1 naming the survivors");
	atf_tc_set_md_var(tc, "require.progs", "spatch git qemu-system-x86_64");
	atf_tc_set_md_var(tc, "timeout", "7500");
}
ATF_TC_BODY(patch_diff_kill_and_survivor, tc)
{
	char exe[PATH_MAX], cwd[PATH_MAX], cache[PATH_MAX + 32], ccache[PATH_MAX + 32];
	snprintf(exe, sizeof exe, "%s/../ttypot", atf_tc_get_config_var(tc, "srcdir"));
	ATF_REQUIRE(getcwd(cwd, sizeof cwd));
	e2e_user_env("TTYPOT_CACHE", ".cache/ttypot", cache, sizeof cache);
	e2e_user_env("CCACHE_DIR", ".cache/ccache", ccache, sizeof ccache);
	const char *cdir = cache + strlen("TTYPOT_CACHE=");
	char src[PATH_MAX + 64], mark[PATH_MAX + 96];
	snprintf(src, sizeof src, "%s/src/linux-source-6.12", cdir);
	snprintf(mark, sizeof mark, "%s/.ttypot-unpacked", src);
	if (!ku_is_file(mark)) { /* unpacked (and built) as the sample mode does */
		char *unpack[] = { "env", cache, ccache, exe, "mutants", "--generate", "--files",
				   "drivers/tty/n_tty.c", "--list", NULL };
		int rc = e2e_run(unpack, DEADLINE_S, "unpack.log", "ttypot mutants --list");
		ATF_REQUIRE_MSG(rc == 0 && ku_is_file(mark), "unpacking: exit %d (unpack.log)", rc);
	}
	/* A git tree named as the source (ccache hits on its objects): hard
	 * links to it, n_tty.c a copy of its own, drivers/tty committed. */
	char cmd[PATH_MAX * 2 + 400];
	snprintf(cmd, sizeof cmd, "cp -al %s linux-source-6.12 && cd linux-source-6.12 && "
		 "cp drivers/tty/n_tty.c n_tty.c.own && rm drivers/tty/n_tty.c && "
		 "mv n_tty.c.own drivers/tty/n_tty.c && git init -q && git add -f drivers/tty && "
		 "git -c user.name=ttypot -c user.email=t@ttypot commit -q -m base", src);
	sh_ok(cmd, "tree.log");
	char tree[PATH_MAX + 32], out1[PATH_MAX + 16], out2[PATH_MAX + 16];
	snprintf(tree, sizeof tree, "%s/linux-source-6.12", cwd);
	snprintf(out1, sizeof out1, "%s/kill", cwd);
	snprintf(out2, sizeof out2, "%s/survive", cwd);
	change_line(KILL_LINE, KILL_TEXT, "O_NONBLOCK: nothing to read yet", "n_tty: EAGAIN");
	char *kill[] = { "env", cache, ccache, exe, "mutants", "--generate", "--diff",
			 "HEAD~1..HEAD", "--tree", tree, "--map", "none", "--cases", PATCH_CASES,
			 "-o", out1, NULL };
	int rc = e2e_run(kill, PATCH_DEADLINE_S, "kill.log", "ttypot mutants --diff (killed)");
	drop_run_tree(cdir, out1);
	char *log = ku_read_file("kill.log", NULL);
	ATF_CHECK_EQ_MSG(rc, 0, "every mutant killed: exit %d (kill.log)", rc);
	ATF_CHECK_MSG(log && strstr(log, "Score of the patch: 1/1 = 100.0 %"),
		      "no score 1/1 in kill.log");
	free(log);
	char state[PATH_MAX + 32];
	snprintf(state, sizeof state, "%s/mutation-state.json", out1);
	keys_on_changed_lines(state);
	change_line(SURVIVE_LINE, SURVIVE_TEXT, "a status byte is read alone", "n_tty: status");
	char *surv[] = { "env", cache, ccache, exe, "mutants", "--generate", "--diff",
			 "HEAD~2..HEAD", "--tree", tree, "--map", "none", "--cases", PATCH_CASES,
			 "-o", out2, NULL };
	rc = e2e_run(surv, PATCH_DEADLINE_S, "survive.log", "ttypot mutants --diff (survivor)");
	drop_run_tree(cdir, out2);
	log = ku_read_file("survive.log", NULL);
	ATF_CHECK_EQ_MSG(rc, 1, "a survivor: exit %d (survive.log)", rc);
	ATF_CHECK_MSG(log && strstr(log, "- drivers/tty/n_tty.c:2238: kb != kbuf -> kb == kbuf "
				    "survived: no case checks n_tty_read"),
		      "the survivor is not named in survive.log");
	free(log);
	snprintf(state, sizeof state, "%s/mutation-state.json", out2);
	keys_on_changed_lines(state);
}

ATF_TP_ADD_TCS(tp)
{
	ATF_TP_ADD_TC(tp, schemata_kernel_id0_and_a_kill);
	ATF_TP_ADD_TC(tp, patch_diff_kill_and_survivor);
	return atf_no_error();
}
