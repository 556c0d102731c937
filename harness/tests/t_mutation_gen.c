// SPDX-License-Identifier: GPL-2.0-only
/*
 * t_mutation_gen.c: the mutant generator and the schemata rewrite
 * (harness/mutation/), on fixtures/mutation/tests/tiny_tty.c: the real
 * Coccinelle rules find exactly its known sites, and every mutant's arm of
 * the schemata, chosen at run time, behaves exactly as the mutant's own
 * patch compiled alone; with the guard folded to a constant the objects
 * are those of the original and of the mutant; on const_tty.c the
 * mutants in constant contexts are marked, as the compiler has it.
 */
#include <atf-c.h>

#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "generate.h"
#include "kutil.h"
#include "mtree.h"
#include "proc.h"
#include "rbuf.h"
#include "sample.h"
#include "schemata.h"
#include "sites.h"

/* Paths are bounded by PATH_MAX; a truncated message is only shorter. */
#pragma GCC diagnostic ignored "-Wformat-truncation"

#define TINY "tiny_tty.c"

/* The mutants the rules must find in tiny_tty.c: key, then the mutated text. */
static const char *const expected[][2] = {
	{ TINY ":22:ror:1", "t->count <= want" },
	{ TINY ":22:ror:2", "t->count > want" },
	{ TINY ":22:neg:1", "!(t->count < want)" },
	{ TINY ":23:errno:1", "EAGAIN" },
	{ TINY ":25:call:1", ";" },
	{ TINY ":26:ret:1", "0" },
	{ TINY ":31:flag:1", "ECHO" },
	{ TINY ":32:flag:1", ";" },
	{ TINY ":33:neg:1", "!(L_ICANON(t))" },
	{ TINY ":33:flag:1", "0" },
	{ TINY ":34:obo:1", "(7 + 1)" },
	{ TINY ":34:obo:2", "(7 - 1)" },
	{ TINY ":34:ret:1", "0" },
	{ TINY ":35:flag:1", "0" },
	{ TINY ":35:ret:1", "0" },
};
#define NEXPECTED (sizeof expected / sizeof *expected)

/* A driver that runs both functions on a few states and prints the results. */
static const char driver[] =
	"#include <stdio.h>\n#include <stdlib.h>\n"
	"struct tiny { int lflag; int count; int woken; };\n"
	"int tiny_read(struct tiny *t, int want);\nint tiny_mode(struct tiny *t);\n"
	"int ttypot_mutant;\n"
	"int main(int argc, char **argv)\n{\n"
	"\tttypot_mutant = argc > 1 ? atoi(argv[1]) : 0;\n"
	"\tfor (int lf = 0; lf < 16; lf++)\n\t\tfor (int c = 0; c < 4; c++)\n"
	"\t\t\tfor (int w = 0; w < 4; w++) {\n"
	"\t\t\t\tstruct tiny t = { lf, c, 0 };\n"
	"\t\t\t\tint r = tiny_read(&t, w);\n\t\t\t\tint m = tiny_mode(&t);\n"
	"\t\t\t\tprintf(\"%d %d %d %d %d %d\\n\", r, m, t.lflag, t.count, t.woken, lf);\n"
	"\t\t\t}\n\treturn 0;\n}\n";

static void srcdir_file(const atf_tc_t *tc, const char *rel, char *out, size_t outlen)
{
	snprintf(out, outlen, "%s/../../%s", atf_tc_get_config_var(tc, "srcdir"), rel);
}

/* The generated mutants of fixtures/mutation/tests/NAME, copied into the
 * current directory. */
static size_t generate_file(const atf_tc_t *tc, const char *name, struct gmut **v,
			    char **text)
{
	char src[PATH_MAX], rules[PATH_MAX], cwd[PATH_MAX], err[600], rel[128];
	snprintf(rel, sizeof rel, "fixtures/mutation/tests/%s", name);
	srcdir_file(tc, rel, src, sizeof src);
	srcdir_file(tc, "fixtures/mutation", rules, sizeof rules);
	ATF_REQUIRE(getcwd(cwd, sizeof cwd));
	ATF_REQUIRE_MSG(ku_copy_file(src, name) == 0, "copy %s", src);
	*text = ku_read_file(name, NULL);
	ATF_REQUIRE(*text);
	struct site *sv = NULL;
	size_t sn = 0, n = 0, skipped = 0, dropped = 0;
	int rc = sites_scan(cwd, rules, name, &sv, &sn, err, sizeof err);
	ATF_REQUIRE_MSG(rc == 0, "sites_scan: %s", err);
	*v = NULL;
	ATF_REQUIRE(gen_expand(*text, sv, sn, v, &n, &skipped, err, sizeof err) == 0);
	free(sv);
	return gen_finish(*v, n, &dropped);
}

static size_t generate_tiny(const atf_tc_t *tc, struct gmut **v, char **text)
{
	return generate_file(tc, TINY, v, text);
}

static int run_sh(const char *cmd, struct proc_result *pr)
{
	const char *argv[] = { "sh", "-c", cmd, NULL };
	struct proc_opts o = { .deadline_ms = 120000 };
	return proc_run(argv, &o, pr);
}

ATF_TC(known_sites);
ATF_TC_HEAD(known_sites, tc)
{
	atf_tc_set_md_var(tc, "descr", "The Coccinelle rules find every known site of "
			  "tiny_tty.c, one mutant per expected key with the expected text, and "
			  "nothing else");
	atf_tc_set_md_var(tc, "require.progs", "spatch");
	atf_tc_set_md_var(tc, "timeout", "300");
}
ATF_TC_BODY(known_sites, tc)
{
	struct gmut *v;
	char *text;
	size_t n = generate_tiny(tc, &v, &text);
	for (size_t i = 0; i < NEXPECTED; i++) {
		size_t k = 0;
		while (k < n && strcmp(v[k].m.key, expected[i][0]))
			k++;
		if (k == n)
			atf_tc_fail_nonfatal("no mutant %s", expected[i][0]);
		else if (strcmp(v[k].m.repl, expected[i][1]))
			atf_tc_fail_nonfatal("%s: mutated text '%s', want '%s'", expected[i][0],
					     v[k].m.repl, expected[i][1]);
	}
	for (size_t k = 0; k < n; k++) {
		bool known = false;
		for (size_t i = 0; i < NEXPECTED; i++)
			known |= !strcmp(v[k].m.key, expected[i][0]);
		if (!known)
			atf_tc_fail_nonfatal("unexpected mutant %s (%s -> %s)", v[k].m.key,
					     v[k].m.orig, v[k].m.repl);
		ATF_CHECK_EQ(v[k].m.id, k + 1);
	}
	ATF_CHECK_EQ(n, NEXPECTED);
	free(v);
	free(text);
}

ATF_TC(schemata_arms_equal_patches);
ATF_TC_HEAD(schemata_arms_equal_patches, tc)
{
	atf_tc_set_md_var(tc, "descr", "One schemata build chosen at run time behaves as "
			  "each mutant's patch compiled alone (and as the original for id 0), "
			  "and keeps every line number");
	atf_tc_set_md_var(tc, "require.progs", "spatch gcc");
	atf_tc_set_md_var(tc, "timeout", "600");
}
ATF_TC_BODY(schemata_arms_equal_patches, tc)
{
	struct gmut *v;
	char *text;
	size_t n = generate_tiny(tc, &v, &text);
	ATF_REQUIRE(n > 0);
	const struct gmut **sel = calloc(n, sizeof *sel);
	for (size_t i = 0; i < n; i++)
		sel[i] = &v[i];
	char *sch = schemata_rewrite(text, sel, n);
	size_t lines_o = 0, lines_s = 0;
	for (const char *p = text; *p; p++)
		lines_o += *p == '\n';
	for (const char *p = sch; *p; p++)
		lines_s += *p == '\n';
	ATF_CHECK_EQ_MSG(lines_s, lines_o, "schemata has %zu lines, the original %zu",
			 lines_s, lines_o);
	ATF_REQUIRE(ku_write_file("driver.c", driver, strlen(driver)) == 0);
	ATF_REQUIRE(ku_write_file("sch.c", sch, strlen(sch)) == 0);
	ATF_REQUIRE(ku_write_file("tm.h", schemata_header, strlen(schemata_header)) == 0);
	struct proc_result *pr = malloc(sizeof *pr);
	ATF_REQUIRE_MSG(run_sh("gcc -std=c11 -O1 -include tm.h -o sch sch.c driver.c", pr) == 0,
			"the schemata does not compile: %s", pr->out);
	ATF_REQUIRE(run_sh("gcc -std=c11 -O1 -o orig " TINY " driver.c", pr) == 0);
	ATF_REQUIRE(run_sh("./orig", pr) == 0);
	char *want0 = xstrdup(pr->out);
	ATF_REQUIRE(run_sh("./sch 0", pr) == 0);
	ATF_CHECK_STREQ_MSG(pr->out, want0, "id 0 differs from the original");
	for (size_t i = 0; i < n; i++) {
		char *mut = schemata_apply_one(text, &v[i]);
		ATF_REQUIRE(ku_write_file("mut.c", mut, strlen(mut)) == 0);
		free(mut);
		ATF_REQUIRE_MSG(run_sh("gcc -std=c11 -O1 -o mut mut.c driver.c", pr) == 0,
				"%s: its patch does not compile: %s", v[i].m.key, pr->out);
		ATF_REQUIRE(run_sh("./mut", pr) == 0);
		char *want = xstrdup(pr->out);
		char cmd[64];
		snprintf(cmd, sizeof cmd, "./sch %u", v[i].m.id);
		ATF_REQUIRE(run_sh(cmd, pr) == 0);
		if (strcmp(pr->out, want))
			atf_tc_fail_nonfatal("%s (id %u): its schemata arm behaves unlike its patch",
					     v[i].m.key, v[i].m.id);
		/* Every tiny mutant changes what the driver sees. */
		if (!strcmp(want, want0))
			atf_tc_fail_nonfatal("%s: the driver cannot tell it from the original",
					     v[i].m.key);
		free(want);
	}
	free(want0);
	free(pr);
	free(sel);
	free(sch);
	free(v);
	free(text);
}

ATF_TC(const_guard_folds);
ATF_TC_HEAD(const_guard_folds, tc)
{
	atf_tc_set_md_var(tc, "descr", "Compiled with the guard folded to 0 the schemata "
			  "object equals the original's (so equivalence by object code is "
			  "sound), and folded to a mutant's id it differs");
	atf_tc_set_md_var(tc, "require.progs", "spatch gcc objcopy");
	atf_tc_set_md_var(tc, "timeout", "300");
}
ATF_TC_BODY(const_guard_folds, tc)
{
	struct gmut *v;
	char *text, err[600];
	size_t n = generate_tiny(tc, &v, &text);
	ATF_REQUIRE(n > 0);
	const struct gmut **sel = calloc(n, sizeof *sel);
	for (size_t i = 0; i < n; i++)
		sel[i] = &v[i];
	char *sch = schemata_rewrite(text, sel, n);
	struct rbuf hdr = {0};
	rbuf_add(&hdr, schemata_header);
	rbuf_add(&hdr, sch);
	ATF_REQUIRE(ku_write_file("sch.c", hdr.s, hdr.len) == 0);
	struct proc_result *pr = malloc(sizeof *pr);
	ATF_REQUIRE(run_sh("gcc -O2 -c -o orig.o " TINY, pr) == 0);
	ATF_REQUIRE_MSG(run_sh("gcc -O2 -DTTYPOT_MUTANT_CONST=0 -c -o s0.o sch.c", pr) == 0,
			"%s", pr->out);
	ATF_CHECK_EQ_MSG(mtree_same_code("orig.o", "s0.o", err, sizeof err), 1,
			 "id 0 folded differs from the original %s", err);
	char cmd[128];
	snprintf(cmd, sizeof cmd, "gcc -O2 -DTTYPOT_MUTANT_CONST=%u -c -o s1.o sch.c", v[0].m.id);
	ATF_REQUIRE(run_sh(cmd, pr) == 0);
	ATF_CHECK_EQ_MSG(mtree_same_code("orig.o", "s1.o", err, sizeof err), 0,
			 "mutant %s folded equals the original", v[0].m.key);
	rbuf_free(&hdr);
	free(pr);
	free(sel);
	free(sch);
	free(v);
	free(text);
}

ATF_TC(constant_contexts_marked);
ATF_TC_HEAD(constant_contexts_marked, tc)
{
	atf_tc_set_md_var(tc, "descr", "The generator marks the mutants of const_tty.c that "
			  "sit where C needs a constant (a static table, a static local, a static "
			  "assertion, case labels, a static local table; not a comment that says case, "
			  "not a statement after a block) and no other, and "
			  "the compiler agrees: each marked mutant's schemata fails to compile, the "
			  "others' schemata compiles; tiny_tty.c has none");
	atf_tc_set_md_var(tc, "require.progs", "spatch gcc");
	atf_tc_set_md_var(tc, "timeout", "300");
}
ATF_TC_BODY(constant_contexts_marked, tc)
{
	/* Lines of const_tty.c whose sites are constant contexts, and why. */
	static const struct { int line; const char *why; } want[] = {
		{ 15, "outside every function" }, { 16, "outside every function" },
		{ 21, "static local" }, { 23, "static assertion" },
		{ 26, "case label" }, { 28, "case label" }, { 38, "static local" },
	};
	struct gmut *v;
	char *text;
	size_t n = generate_file(tc, "const_tty.c", &v, &text);
	ATF_REQUIRE(n > 10);
	ATF_REQUIRE(ku_write_file("tm.h", schemata_header, strlen(schemata_header)) == 0);
	struct proc_result *pr = malloc(sizeof *pr);
	const struct gmut **runtime = calloc(n, sizeof *runtime);
	size_t nrt = 0, nconst = 0;
	bool seen[sizeof want / sizeof *want] = { false };
	for (size_t i = 0; i < n; i++) {
		const struct gmut *g = &v[i];
		const char *why = NULL;
		for (size_t k = 0; k < sizeof want / sizeof *want; k++)
			if (want[k].line == g->m.line) {
				why = want[k].why;
				seen[k] = true;
			}
		if (!why) {
			ATF_CHECK_MSG(!g->constant, "%s (%s): marked '%s'", g->m.key, g->m.orig,
				      g->constant);
			runtime[nrt++] = g;
			continue;
		}
		nconst++;
		ATF_CHECK_MSG(g->constant && strstr(g->constant, why), "%s (%s): '%s', want '%s'",
			      g->m.key, g->m.orig, g->constant ? g->constant : "not marked", why);
		/* The compiler needs a constant there: its schemata cannot build. */
		char *sch = schemata_rewrite(text, &g, 1);
		ATF_REQUIRE(ku_write_file("one.c", sch, strlen(sch)) == 0);
		free(sch);
		ATF_CHECK_MSG(run_sh("gcc -std=c11 -include tm.h -c -o one.o one.c", pr) != 0,
			      "%s (%s): its schemata compiles", g->m.key, g->m.orig);
	}
	for (size_t k = 0; k < sizeof want / sizeof *want; k++)
		ATF_CHECK_MSG(seen[k], "no mutant on line %d (%s)", want[k].line, want[k].why);
	ATF_CHECK_MSG(nrt >= 8, "%zu runtime mutants", nrt);
	char *sch = schemata_rewrite(text, runtime, nrt);
	ATF_REQUIRE(ku_write_file("rt.c", sch, strlen(sch)) == 0);
	free(sch);
	ATF_CHECK_MSG(run_sh("gcc -std=c11 -include tm.h -c -o rt.o rt.c", pr) == 0,
		      "the schemata of the %zu unmarked mutants does not compile: %s", nrt,
		      pr->out);
	free(runtime);
	free(v);
	free(text);
	/* tiny_tty.c: every mutant is a runtime one. */
	n = generate_tiny(tc, &v, &text);
	for (size_t i = 0; i < n; i++)
		ATF_CHECK_MSG(!v[i].constant, "%s marked '%s'", v[i].m.key, v[i].constant);
	free(v);
	free(text);
	free(pr);
}

ATF_TC(sample_stratified_and_seeded);
ATF_TC_HEAD(sample_stratified_and_seeded, tc)
{
	atf_tc_set_md_var(tc, "descr", "A sample has exactly the size asked, gives every file "
			  "at least its floor and the rest in proportion, and is the same for the "
			  "same seed and different for another");
}
ATF_TC_BODY(sample_stratified_and_seeded, tc)
{
	/* Three files of 1000, 100 and 5 mutants. */
	size_t sizes[] = { 1000, 100, 5 }, n = 1105;
	struct gmut *v = calloc(n, sizeof *v);
	for (size_t f = 0, k = 0; f < 3; f++)
		for (size_t i = 0; i < sizes[f]; i++, k++)
			snprintf(v[k].m.file, sizeof v[k].m.file, "f%zu.c", f);
	unsigned char *a = calloc(n, 1), *b = calloc(n, 1), *c = calloc(n, 1);
	ATF_CHECK_EQ(sample_pick(v, n, 100, 1, a), 100);
	ATF_CHECK_EQ(sample_pick(v, n, 100, 1, b), 100);
	ATF_CHECK_EQ(sample_pick(v, n, 100, 2, c), 100);
	ATF_CHECK_MSG(!memcmp(a, b, n), "the same seed gave another sample");
	ATF_CHECK_MSG(memcmp(a, c, n), "another seed gave the same sample");
	size_t per[3] = { 0 };
	for (size_t f = 0, k = 0; f < 3; f++)
		for (size_t i = 0; i < sizes[f]; i++, k++)
			per[f] += a[k];
	ATF_CHECK_EQ_MSG(per[2], 5, "the 5-mutant file got %zu", per[2]);
	ATF_CHECK_MSG(per[1] >= SAMPLE_MIN_PER_FILE, "the 100-mutant file got %zu", per[1]);
	ATF_CHECK_MSG(per[0] > 70, "the 1000-mutant file got only %zu", per[0]);
	ATF_CHECK_EQ(sample_pick(v, n, 5000, 1, a), n);
	free(a);
	free(b);
	free(c);
	free(v);
}

ATF_TP_ADD_TCS(tp)
{
	ATF_TP_ADD_TC(tp, sample_stratified_and_seeded);
	ATF_TP_ADD_TC(tp, known_sites);
	ATF_TP_ADD_TC(tp, schemata_arms_equal_patches);
	ATF_TP_ADD_TC(tp, const_guard_folds);
	ATF_TP_ADD_TC(tp, constant_contexts_marked);
	return atf_no_error();
}
