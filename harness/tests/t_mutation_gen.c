// SPDX-License-Identifier: GPL-2.0-only
/*
 * t_mutation_gen.c: the mutant generator and the schemata rewrite
 * (harness/mutation/), on fixtures/mutation/tests/tiny_tty.c: the real
 * Coccinelle rules find exactly its known sites, and every mutant's arm of
 * the schemata, chosen at run time, behaves exactly as the mutant's own
 * patch compiled alone; with the guard folded to a constant the objects
 * are those of the original and of the mutant; on const_tty.c the
 * mutants in constant contexts are marked, as the compiler has it.  On a
 * stand-in git tree the test makes (tiny.c: a change adding a declaration,
 * a comment, a printk, a WARN_ON and real logic), --diff keeps exactly the
 * mutants of the changed logic lines (patchsel.h, arid.h), and the command
 * names bad input and exits 2.
 */
#include <atf-c.h>

#include <limits.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "arid.h"
#include "generate.h"
#include "kutil.h"
#include "mtree.h"
#include "mutants_verdict.h"
#include "patchsel.h"
#include "proc.h"
#include "rbuf.h"
#include "report_mutation.h"
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

ATF_TC(tree_header_in_every_mutated_dir);
ATF_TC_HEAD(tree_header_in_every_mutated_dir, tc)
{
	atf_tc_set_md_var(tc, "descr", "The schemata tree forces the mutant's header into "
			  "drivers/tty's objects and, asked for it, into another directory's "
			  "(drivers/usb/serial): its Makefile is the pristine one plus the "
			  "-include line, and the pristine file, hard-linked into the tree, "
			  "is left as it was");
}
ATF_TC_BODY(tree_header_in_every_mutated_dir, tc)
{
	(void)tc;
	char err[512] = "";
	ATF_REQUIRE(ku_mkdir_p("src/drivers/tty", 0755) == 0);
	ATF_REQUIRE(ku_mkdir_p("src/drivers/usb/serial", 0755) == 0);
	ATF_REQUIRE(ku_mkdir_p("src/include/linux", 0755) == 0);
	ATF_REQUIRE(ku_write_file("src/.ttypot-unpacked", "x\n", 2) == 0);
	ATF_REQUIRE(ku_write_file("src/drivers/tty/Makefile", "obj-y += tty_io.o\n", 18) == 0);
	ATF_REQUIRE(ku_write_file("src/drivers/usb/serial/Makefile", "obj-y += generic.o\n",
				  19) == 0);
	ATF_REQUIRE_MSG(mtree_prepare("src", "tree", err, sizeof err) == 0, "%s", err);
	ATF_REQUIRE_MSG(mtree_include_in("src", "tree", "drivers/usb/serial", err,
					 sizeof err) == 0, "%s", err);
	static const char *const dirs[] = { "drivers/tty", "drivers/usb/serial" };
	for (size_t i = 0; i < 2; i++) {
		char p[200];
		snprintf(p, sizeof p, "tree/%s/Makefile", dirs[i]);
		char *t = ku_read_file(p, NULL);
		ATF_CHECK_MSG(t && strstr(t, "obj-y += ") == t &&
			      strstr(t, "subdir-ccflags-y += -include "
				     "$(srctree)/include/linux/ttypot_mutant.h\n"),
			      "%s: %s", p, t ? t : "missing");
		free(t);
		snprintf(p, sizeof p, "src/%s/Makefile", dirs[i]);
		t = ku_read_file(p, NULL);
		ATF_CHECK_MSG(t && !strstr(t, "ttypot"), "the pristine %s was written: %s", p,
			      t ? t : "missing");
		free(t);
	}
	char *h = ku_read_file("tree/include/linux/ttypot_mutant.h", NULL);
	ATF_CHECK_MSG(h && strstr(h, "extern int ttypot_mutant;"), "the header: %s",
		      h ? h : "missing");
	free(h);
}

ATF_TC(constant_contexts_marked);
ATF_TC_HEAD(constant_contexts_marked, tc)
{
	atf_tc_set_md_var(tc, "descr", "The generator marks the mutants of const_tty.c that "
			  "sit where C needs a constant (a static table, a static local, a static "
			  "assertion, case labels, a static local table, a module parameter; not "
			  "a comment that says case, not a statement after a block) and no other, "
			  "and "
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
		{ 53, "module parameter" },
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
	/* Without strata (a patch's sample): exactly want, the same per seed. */
	unsigned char p1[20], p2[20];
	size_t k1 = 0;
	ATF_CHECK_EQ(sample_plain(20, 5, 7, p1), 5);
	ATF_CHECK_EQ(sample_plain(20, 5, 7, p2), 5);
	for (size_t i = 0; i < 20; i++)
		k1 += p1[i];
	ATF_CHECK_EQ(k1, 5);
	ATF_CHECK(!memcmp(p1, p2, sizeof p1));
	ATF_CHECK_EQ(sample_plain(3, 5, 7, p1), 3);
	free(a);
	free(b);
	free(c);
	free(v);
}

/* The stand-in kernel tree: tiny.c before and after a change. */
#define PT_FILE "drivers/tty/tiny.c"
static const char pt_base[] =
	"// SPDX-License-Identifier: GPL-2.0-only\n"
	"#define EIO 5\n"
	"struct tiny { int lflag; int count; int woken; };\n"
	"int printk(const char *fmt, ...);\n"
	"#define WARN_ON(c) (c)\n"
	"void wake_up(struct tiny *t);\n"
	"\n"
	"int tiny_read(struct tiny *t, int want)\n"
	"{\n"
	"\tif (t->count < want)\n"
	"\t\treturn -EIO;\n"
	"\tt->count -= want;\n"
	"\treturn want;\n"
	"}\n";
/* Lines 10-12 and 15-20 are new: a declaration, a blank, a comment, a
 * printk and a WARN_ON with operators of their own (arid), then logic. */
static const char pt_new[] =
	"// SPDX-License-Identifier: GPL-2.0-only\n"
	"#define EIO 5\n"
	"struct tiny { int lflag; int count; int woken; };\n"
	"int printk(const char *fmt, ...);\n"
	"#define WARN_ON(c) (c)\n"
	"void wake_up(struct tiny *t);\n"
	"\n"
	"int tiny_read(struct tiny *t, int want)\n"
	"{\n"
	"\tint left;\n"
	"\n"
	"\t/* a short read wakes the writer */\n"
	"\tif (t->count < want)\n"
	"\t\treturn -EIO;\n"
	"\tprintk(\"tiny: read %d, more %d\\n\", want, t->count > want);\n"
	"\tWARN_ON(t->count < 0);\n"
	"\tleft = t->count - want;\n"
	"\tif (left < 2)\n"
	"\t\twake_up(t);\n"
	"\tt->count = left;\n"
	"\treturn want;\n"
	"}\n";
/* The mutants of the changed logic lines, and only they. */
static const char *const pt_expected[] = {
	PT_FILE ":18:ror:1", PT_FILE ":18:ror:2", PT_FILE ":18:neg:1",
	PT_FILE ":18:obo:1", PT_FILE ":18:obo:2", PT_FILE ":19:call:1",
};
#define PT_NEXPECTED (sizeof pt_expected / sizeof *pt_expected)

static void git_sh(const char *cmd)
{
	char full[1024];
	snprintf(full, sizeof full, "cd tree && git -c user.name=ttypot -c user.email=t@ttypot "
		 "-c init.defaultBranch=main %s", cmd);
	struct proc_result *pr = malloc(sizeof *pr);
	int rc = run_sh(full, pr);
	ATF_REQUIRE_MSG(rc == 0, "%s: exit %d: %s", cmd, rc, pr->out);
	free(pr);
}

/* ./tree: a git tree with tiny.c's base committed, then its change. */
static void make_tree(void)
{
	ATF_REQUIRE(ku_mkdir_p("tree/drivers/tty", 0755) == 0);
	git_sh("init -q");
	ATF_REQUIRE(ku_write_file("tree/" PT_FILE, pt_base, strlen(pt_base)) == 0);
	git_sh("add -A");
	git_sh("commit -q -m base");
	ATF_REQUIRE(ku_write_file("tree/" PT_FILE, pt_new, strlen(pt_new)) == 0);
	git_sh("commit -q -a -m change");
}

struct pt_ctx {
	const char *text;
};

static const char *pt_text(const void *ctx, const char *file)
{
	return strcmp(file, PT_FILE) ? NULL : ((const struct pt_ctx *)ctx)->text;
}

/* Every mutant of the tree's tiny.c, by the real rules. */
static size_t pt_generate(const atf_tc_t *tc, const char *text, struct gmut **v)
{
	char rules[PATH_MAX], err[600];
	srcdir_file(tc, "fixtures/mutation", rules, sizeof rules);
	struct site *sv = NULL;
	size_t sn = 0, n = 0, skipped = 0, dropped = 0;
	ATF_REQUIRE_MSG(sites_scan("tree", rules, PT_FILE, &sv, &sn, err, sizeof err) == 0,
			"sites_scan: %s", err);
	*v = NULL;
	ATF_REQUIRE(gen_expand(text, sv, sn, v, &n, &skipped, err, sizeof err) == 0);
	free(sv);
	return gen_finish(*v, n, &dropped);
}

ATF_TC(arid_lines);
ATF_TC_HEAD(arid_lines, tc)
{
	atf_tc_set_md_var(tc, "descr", "Comments, blank lines, pure declarations and log, "
			  "assertion and tracepoint calls as whole statements are arid; logic, "
			  "initialised declarations and a WARN_ON whose value is used are live");
	atf_tc_set_md_var(tc, "timeout", "30");
}
ATF_TC_BODY(arid_lines, tc)
{
	static const char text[] =
		"static int x;\n"                           /* 1 decl */
		"int f(struct tty_struct *tty, int n)\n"    /* 2 live */
		"{\n"                                       /* 3 live (a brace) */
		"\tstruct n_tty_data *ldata, **pp;\n"       /* 4 decl */
		"\tint i = n + 1;\n"                        /* 5 live */
		"\n"                                        /* 6 blank */
		"\t/* a comment\n"                          /* 7 comment */
		"\t * on two lines */\n"                    /* 8 comment */
		"\tpr_err(\"bad %d\\n\",\n"                /* 9 log */
		"\t       n > 3);\n"                        /* 10 log */
		"\tif (WARN_ON(n < 0))\n"                   /* 11 live */
		"\t\treturn -EINVAL;\n"                     /* 12 live */
		"\tWARN_ON_ONCE(i == 2);\n"                 /* 13 assertion */
		"\tif (n)\n"                                /* 14 live */
		"\t\ttty_warn(tty, \"n\\n\");\n"           /* 15 log */
		"\telse\n"                                  /* 16 live */
		"\t\ttrace_tiny(n, i);\n"                   /* 17 tracepoint */
		"\tdev_dbg(tty->dev, \"x\");  // why\n"     /* 18 log */
		"\tdev_set_drvdata(tty->dev, NULL);\n"      /* 19 live */
		"\tBUG_ON(!tty);\n"                         /* 20 assertion */
		"\treturn i; /* done */\n"                  /* 21 live */
		"}\n";
	static const char *const want[] = {
		NULL, "a declaration", NULL, NULL, "a declaration", NULL, "blank", "a comment",
		"a comment", "a log call", "a log call", NULL, NULL, "an assertion", NULL,
		"a log call", NULL, "a tracepoint", "a log call", NULL, "an assertion", NULL,
	};
	struct arid a;
	arid_scan(text, &a);
	for (int l = 1; l <= 21; l++) {
		const char *w = arid_why(&a, l);
		if ((w == NULL) != (want[l] == NULL) || (w && strcmp(w, want[l])))
			atf_tc_fail_nonfatal("line %d: %s, want %s", l, w ? w : "live",
					     want[l] ? want[l] : "live");
	}
	ATF_CHECK(arid_span(&a, 7, 10));
	ATF_CHECK(!arid_span(&a, 10, 11));
	arid_free(&a);
}

ATF_TC(diff_keeps_changed_logic_lines);
ATF_TC_HEAD(diff_keeps_changed_logic_lines, tc)
{
	atf_tc_set_md_var(tc, "descr", "--diff A..B on a stand-in git tree keeps every "
			  "mutant of the changed logic lines and no other: none on the unchanged "
			  "lines, the declaration, the comment, the printk or the WARN_ON; --diff "
			  "REV takes the working files' change");
	atf_tc_set_md_var(tc, "require.progs", "spatch git");
	atf_tc_set_md_var(tc, "timeout", "300");
}
ATF_TC_BODY(diff_keeps_changed_logic_lines, tc)
{
	char err[600];
	make_tree();
	struct ps_change c;
	ATF_REQUIRE_MSG(ps_read("tree", "HEAD~1..HEAD", &c, err, sizeof err) == 0, "%s", err);
	struct rbuf files = {0}, others = {0};
	ATF_CHECK_EQ(ps_files(&c, &files, &others), 1);
	ATF_CHECK_STREQ(rbuf_str(&files), PT_FILE);
	struct gmut *v;
	size_t n = pt_generate(tc, pt_new, &v);
	unsigned char *pick = calloc(n, 1);
	struct ps_counts k = {0};
	struct pt_ctx ctx = { pt_new };
	ps_select(&c.diff, v, n, pt_text, &ctx, pick, &k);
	for (size_t i = 0; i < PT_NEXPECTED; i++) {
		size_t j = 0;
		while (j < n && strcmp(v[j].m.key, pt_expected[i]))
			j++;
		if (j == n || !pick[j])
			atf_tc_fail_nonfatal("%s not kept", pt_expected[i]);
	}
	size_t kept = 0, on_arid = 0;
	for (size_t j = 0; j < n; j++) {
		kept += pick[j];
		bool expected = false;
		for (size_t i = 0; i < PT_NEXPECTED; i++)
			expected |= !strcmp(v[j].m.key, pt_expected[i]);
		if (pick[j] && !expected)
			atf_tc_fail_nonfatal("%s kept (%s -> %s)", v[j].m.key, v[j].m.orig,
					     v[j].m.repl);
		on_arid += v[j].m.line == 15 || v[j].m.line == 16;
	}
	ATF_CHECK_EQ(kept, PT_NEXPECTED);
	ATF_CHECK_EQ(k.picked, PT_NEXPECTED);
	/* the printk's and the WARN_ON's operators were generated and left out */
	ATF_CHECK_MSG(on_arid >= 4 && k.arid == on_arid, "%zu mutants on arid lines, %zu "
		      "left out as arid", on_arid, k.arid);
	ATF_CHECK_EQ(k.lines, 9);
	ATF_CHECK_EQ(k.arid_lines, 5);
	ATF_CHECK_MSG(n > kept + k.arid, "no mutant on the unchanged lines to leave out");
	ps_free(&c);
	free(pick);
	free(v);
	/* The working files against HEAD: one new logic line. */
	static const char work[] = "\tt->woken = left > 4;\n";
	struct rbuf nt = {0};
	const char *ret = strstr(pt_new, "\treturn want;");
	rbuf_addn(&nt, pt_new, (size_t)(ret - pt_new));
	rbuf_add(&nt, work);
	rbuf_add(&nt, ret);
	ATF_REQUIRE(ku_write_file("tree/" PT_FILE, nt.s, nt.len) == 0);
	ATF_REQUIRE_MSG(ps_read("tree", "HEAD", &c, err, sizeof err) == 0, "%s", err);
	n = pt_generate(tc, nt.s, &v);
	pick = calloc(n, 1);
	memset(&k, 0, sizeof k);
	ctx.text = nt.s;
	ps_select(&c.diff, v, n, pt_text, &ctx, pick, &k);
	ATF_CHECK_MSG(k.picked > 0, "no mutant of the working change");
	for (size_t j = 0; j < n; j++)
		if (pick[j] && v[j].m.line != 21)
			atf_tc_fail_nonfatal("%s kept: not the working change", v[j].m.key);
	ATF_CHECK_EQ(k.lines, 1);
	ps_free(&c);
	rbuf_free(&nt);
	rbuf_free(&files);
	rbuf_free(&others);
	free(pick);
	free(v);
}

/* A coverage map of the base tiny.c: tiny_read known, executed by
 * pty/t_open on its line 10 when executed. */
static void pt_map(bool executed, struct cover_map *m)
{
	char err[600];
	struct rbuf t = {0};
	rbuf_add(&t, "# ttypot coverage map 2\nprogram pty/t_open 1.0\ncases pty/t_open a\n"
		 "fn " PT_FILE " 9 14 tiny_read\n");
	if (executed)
		rbuf_add(&t, "line " PT_FILE " 10 pty/t_open\n");
	ATF_REQUIRE(ku_write_file("cover.map", t.s, t.len) == 0);
	ATF_REQUIRE_MSG(cover_load("cover.map", m, err, sizeof err) == 0, "%s", err);
	rbuf_free(&t);
}

ATF_TC(diff_verdict);
ATF_TC_HEAD(diff_verdict, tc)
{
	atf_tc_set_md_var(tc, "descr", "A patch's verdict gives each survivor as FILE:LINE: "
			  "ORIGINAL -> MUTATED survived: no case checks FUNCTION, the changed live "
			  "lines of a function no program executes in the map, and the score; its "
			  "KCIDB tests PASS for kills and FAIL for the survivor");
	atf_tc_set_md_var(tc, "require.progs", "spatch git");
	atf_tc_set_md_var(tc, "timeout", "300");
}
ATF_TC_BODY(diff_verdict, tc)
{
	char err[600];
	make_tree();
	struct ps_change c;
	ATF_REQUIRE_MSG(ps_read("tree", "HEAD~1..HEAD", &c, err, sizeof err) == 0, "%s", err);
	struct gmut *v;
	size_t n = pt_generate(tc, pt_new, &v);
	unsigned char *pick = calloc(n, 1);
	struct ps_counts k = {0};
	struct pt_ctx ctx = { pt_new };
	ps_select(&c.diff, v, n, pt_text, &ctx, pick, &k);
	for (size_t i = 0; i < n; i++)
		if (pick[i])
			v[i].m.status = strcmp(v[i].m.key, PT_FILE ":18:ror:1") ? MS_KILLED
										 : MS_SURVIVED;
	struct cover_map m;
	pt_map(false, &m);
	struct verdict_in in = { .change = &c, .v = v, .n = n, .pick = pick, .file_text = pt_text,
				 .ctx = &ctx, .map = &m, .counts = &k, .others = "" };
	struct rbuf out = {0};
	verdict_write(&in, &out);
	const char *o = rbuf_str(&out);
	ATF_CHECK_MSG(strstr(o, "- " PT_FILE ":18: left < 2 -> left <= 2 survived: no case "
			     "checks tiny_read\n  `if (left < 2)` -> `if (left <= 2)`\n"), "%s", o);
	ATF_CHECK_MSG(!strstr(o, ":18: left < 2 -> left > 2"), "a killed mutant listed: %s", o);
	ATF_CHECK_MSG(strstr(o, "- " PT_FILE ":17-20: no program executes tiny_read\n"), "%s", o);
	ATF_CHECK_MSG(strstr(o, "Score of the patch: 5/6 = 83.3 %"), "%s", o);
	/* the file's row: its changed lines, arid ones, unexecuted live ones,
	 * its mutants by verdict */
	ATF_CHECK_MSG(strstr(o, "| " PT_FILE " | 9 | 5 | 4 | 6 | 5 | 1 | 0 | 0 | 0 |\n"), "%s", o);
	cover_free(&m);
	rbuf_free(&out);
	struct rbuf progs = {0};
	pt_map(true, &m);
	ATF_CHECK_EQ(ps_fn_programs(&m, PT_FILE, "tiny_read", &progs), 1);
	ATF_CHECK_STREQ(rbuf_str(&progs), "pty/t_open");
	ATF_CHECK_EQ(ps_fn_programs(&m, PT_FILE, "tiny_write", &progs), -1);
	verdict_write(&in, &out);
	o = rbuf_str(&out);
	ATF_CHECK_MSG(!strstr(o, "no program executes tiny_read"), "%s", o);
	cover_free(&m);
	rbuf_free(&out);
	/* The same mutants as KCIDB tests: the survivor FAILs, the kills PASS. */
	struct mutant mv[PT_NEXPECTED];
	size_t nm = 0;
	for (size_t i = 0; i < n && nm < PT_NEXPECTED; i++)
		if (pick[i])
			mv[nm++] = v[i].m;
	mutation_report_kcidb(mv, nm, c.head, "--diff HEAD~1..HEAD", &out);
	o = rbuf_str(&out);
	ATF_CHECK_MSG(strstr(o, "\"path\": \"ttypot.mutants.drivers.tty.tiny_c.18.ror.1\""), "%s", o);
	/* (report_jdump writes '<' as \u003c) */
	ATF_CHECK_MSG(strstr(o, "\"comment\": \"" PT_FILE ":18: left \\u003c 2 -> left \\u003c= 2 "
			     "survived: no case checks tiny_read\""), "%s", o);
	size_t pass = 0, fail = 0;
	for (const char *p = o; (p = strstr(p, "\"status\": \"")); p++) {
		pass += !strncmp(p + 11, "PASS", 4);
		fail += !strncmp(p + 11, "FAIL", 4);
	}
	ATF_CHECK_EQ_MSG(pass, 6, "%zu PASS (5 kills and the build)", pass);
	ATF_CHECK_EQ(fail, 1);
	ATF_CHECK_MSG(strstr(o, c.head), "the checkout is not HEAD %s", c.head);
	rbuf_free(&out);
	rbuf_free(&progs);
	ps_free(&c);
	free(pick);
	free(v);
}

/* ttypot mutants ARGS with the test's own cache; its exit status, its
 * output and errors into *out (malloc'd). */
static int ttypot_mutants(const atf_tc_t *tc, const char *args, char **out)
{
	char cmd[2048];
	snprintf(cmd, sizeof cmd, "%s/../ttypot mutants --cache cache %s 2>&1",
		 atf_tc_get_config_var(tc, "srcdir"), args);
	struct proc_result *pr = malloc(sizeof *pr);
	int rc = run_sh(cmd, pr);
	*out = xstrdup(pr->out);
	free(pr);
	return rc;
}

ATF_TC(diff_command);
ATF_TC_HEAD(diff_command, tc)
{
	atf_tc_set_md_var(tc, "descr", "ttypot mutants --generate --diff --list prints the "
			  "patch's mutants; a change with nothing to mutate exits 0 with its "
			  "verdict, on stdout and in mutation.md and mutation-report.json; an unknown revision, a directory that is no git tree and a "
			  "working file that is not B's exit 2 naming them");
	atf_tc_set_md_var(tc, "require.progs", "spatch git");
	atf_tc_set_md_var(tc, "timeout", "300");
}
ATF_TC_BODY(diff_command, tc)
{
	make_tree();
	char *out;
	int rc = ttypot_mutants(tc, "--generate --diff HEAD~1..HEAD --tree tree --list", &out);
	ATF_CHECK_EQ_MSG(rc, 0, "--list: exit %d: %s", rc, out);
	for (size_t i = 0; i < PT_NEXPECTED; i++)
		ATF_CHECK_MSG(strstr(out, pt_expected[i]), "%s not listed: %s", pt_expected[i], out);
	ATF_CHECK_MSG(!strstr(out, PT_FILE ":15:") && !strstr(out, PT_FILE ":13:"),
		      "a mutant off the changed logic lines listed: %s", out);
	free(out);
	rc = ttypot_mutants(tc, "--generate --diff HEAD --tree tree -o none", &out);
	ATF_CHECK_EQ_MSG(rc, 0, "nothing to mutate: exit %d: %s", rc, out);
	ATF_CHECK_MSG(strstr(out, "Score of the patch: none (nothing to mutate)"), "%s", out);
	free(out);
	/* The verdict is in the reports too, not only on stdout. */
	char *md = ku_read_file("none/mutation.md", NULL);
	ATF_CHECK_MSG(md && strstr(md, "Score of the patch: none (nothing to mutate)"),
		      "mutation.md has no verdict");
	free(md);
	char *js = ku_read_file("none/mutation-report.json", NULL);
	ATF_CHECK_MSG(js && strstr(js, "\"patchVerdict\"") &&
		      strstr(js, "Score of the patch: none (nothing to mutate)"),
		      "mutation-report.json has no patchVerdict");
	free(js);
	rc = ttypot_mutants(tc, "--generate --diff nosuchrev --tree tree --list", &out);
	ATF_CHECK_EQ(rc, 2);
	ATF_CHECK_MSG(strstr(out, "git does not know the revision nosuchrev"), "%s", out);
	free(out);
	ATF_REQUIRE(ku_mkdir_p("plain", 0755) == 0);
	rc = ttypot_mutants(tc, "--generate --diff HEAD --tree plain --list", &out);
	ATF_CHECK_EQ(rc, 2);
	ATF_CHECK_MSG(strstr(out, "--tree plain: not a git tree"), "%s", out);
	free(out);
	ATF_REQUIRE(ku_write_file("tree/" PT_FILE, pt_base, strlen(pt_base)) == 0);
	rc = ttypot_mutants(tc, "--generate --diff HEAD~1..HEAD --tree tree --list", &out);
	ATF_CHECK_EQ(rc, 2);
	ATF_CHECK_MSG(strstr(out, PT_FILE " is not HEAD's"), "%s", out);
	free(out);
	rc = ttypot_mutants(tc, "--generate --diff HEAD --list", &out);
	ATF_CHECK_EQ(rc, 2);
	ATF_CHECK_MSG(strstr(out, "--diff needs --tree DIR"), "%s", out);
	free(out);
}

/* R's state with every "pending" status turned into want (the first one
 * into first, when first is not NULL). */
static void plant_statuses(const char *first, const char *want)
{
	char *st = ku_read_file("R/mutation-state.json", NULL);
	ATF_REQUIRE_MSG(st != NULL, "no R/mutation-state.json");
	struct rbuf b = {0};
	const char *pend = "\"status\": \"pending\"";
	bool done_first = false;
	for (const char *p = st, *q; *p; p = q + strlen(pend)) {
		q = strstr(p, pend);
		if (!q) {
			rbuf_add(&b, p);
			break;
		}
		rbuf_addf(&b, "%.*s\"status\": \"%s\"", (int)(q - p), p,
			  first && !done_first ? first : want);
		done_first = true;
	}
	ATF_REQUIRE(ku_write_file("R/mutation-state.json", rbuf_str(&b), b.len) == 0);
	rbuf_free(&b);
	free(st);
}

/* A first sitting into R: it saves its state, then cannot build a tree
 * that is no kernel. */
static void first_sitting(const atf_tc_t *tc)
{
	char *out;
	int rc = ttypot_mutants(tc, "--generate --diff HEAD~1..HEAD --tree tree -o R", &out);
	ATF_CHECK_EQ_MSG(rc, 2, "a sitting on a tree that is no kernel: exit %d: %s", rc, out);
	free(out);
}

ATF_TC(resume_with_nothing_pending_only_writes_reports);
ATF_TC_HEAD(resume_with_nothing_pending_only_writes_reports, tc)
{
	atf_tc_set_md_var(tc, "descr", "--resume of a run whose every mutant is decided "
			  "builds and boots nothing: it writes the reports again and exits "
			  "with the verdict's status, 0 all killed, 1 with a survivor (the "
			  "tree is no kernel, so a build would fail)");
	atf_tc_set_md_var(tc, "require.progs", "spatch git");
	atf_tc_set_md_var(tc, "timeout", "300");
}
ATF_TC_BODY(resume_with_nothing_pending_only_writes_reports, tc)
{
	make_tree();
	char *out;
	first_sitting(tc);
	plant_statuses(NULL, "killed");
	int rc = ttypot_mutants(tc, "--generate --diff HEAD~1..HEAD --tree tree --resume R", &out);
	ATF_CHECK_EQ_MSG(rc, 0, "every mutant killed: exit %d: %s", rc, out);
	ATF_CHECK_MSG(strstr(out, "Score of the patch: 6/6 = 100.0 %"), "%s", out);
	ATF_CHECK_MSG(!strstr(out, "schemata"), "a decided run built again: %s", out);
	free(out);
	char *md = ku_read_file("R/mutation.md", NULL);
	ATF_CHECK_MSG(md && strstr(md, "Score of the patch: 6/6 = 100.0 %"),
		      "mutation.md not written again");
	free(md);

	/* A fresh first sitting, one survivor planted. */
	ATF_REQUIRE(ku_rm_rf("R") == 0);
	first_sitting(tc);
	plant_statuses("survived", "killed");
	rc = ttypot_mutants(tc, "--generate --diff HEAD~1..HEAD --tree tree --resume R", &out);
	ATF_CHECK_EQ_MSG(rc, 1, "a survivor: exit %d: %s", rc, out);
	ATF_CHECK_MSG(strstr(out, "survived") && strstr(out, "5/6 = 83.3 %"), "%s", out);
	ATF_CHECK_MSG(!strstr(out, "schemata"), "a decided run built again: %s", out);
	free(out);
}

ATF_TP_ADD_TCS(tp)
{
	ATF_TP_ADD_TC(tp, tree_header_in_every_mutated_dir);
	ATF_TP_ADD_TC(tp, arid_lines);
	ATF_TP_ADD_TC(tp, diff_keeps_changed_logic_lines);
	ATF_TP_ADD_TC(tp, diff_verdict);
	ATF_TP_ADD_TC(tp, diff_command);
	ATF_TP_ADD_TC(tp, resume_with_nothing_pending_only_writes_reports);
	ATF_TP_ADD_TC(tp, sample_stratified_and_seeded);
	ATF_TP_ADD_TC(tp, known_sites);
	ATF_TP_ADD_TC(tp, schemata_arms_equal_patches);
	ATF_TP_ADD_TC(tp, const_guard_folds);
	ATF_TP_ADD_TC(tp, constant_contexts_marked);
	return atf_no_error();
}
