// SPDX-License-Identifier: GPL-2.0-only
/* mutants_gen.c: `ttypot mutants --generate` (mutants_gen.h). */
#include "mutants_gen.h"
#include "cli.h"
#include "blocks.h"
#include "cover.h"
#include "generate.h"
#include "ingest.h"
#include "kutil.h"
#include "mseed.h"
#include "mstate.h"
#include "mtree.h"
#include "mjobs.h"
#include "mutants_verdict.h"
#include "patchsel.h"
#include "proc.h"
#include "rbuf.h"
#include "report_mutation.h"
#include "run_one_kernel.h"
#include "sample.h"
#include "schemata.h"
#include "sites.h"

#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* Paths are bounded by PATH_MAX; a truncated message is only shorter. */
#pragma GCC diagnostic ignored "-Wformat-truncation"

#define GEN_SOURCE "linux-source-6.12"
/* The files of the tty layer mutated by default (the list). */
#define GEN_FILES "drivers/tty/n_tty.c,drivers/tty/tty_io.c,drivers/tty/tty_ioctl.c," \
	"drivers/tty/tty_jobctrl.c,drivers/tty/pty.c,drivers/tty/tty_buffer.c," \
	"drivers/tty/tty_port.c,drivers/tty/tty_ldisc.c,drivers/tty/serial/serial_core.c," \
	"drivers/tty/serial/8250/8250_port.c"
/* The file that defines ttypot_mutant (always built in). */
#define GEN_DEFINER "drivers/tty/tty_io.c"
/* Bumped when the generator's output for the same sites changes: the
 * mutants, their keys and ids, and so the draw of a sample.  Leaving out
 * the mutants in constant contexts (generate.h) did not bump it: they keep
 * their keys, ids and places in the draw and are dropped after it, so a
 * run's state made before (sample-400-seed-1) still resumes and a new
 * sample with the same seed is that one without them. */
#define GEN_VERSION "1"
/* A mutant's run may take this many times its programs' baseline time. */
#define GEN_DEADLINE_FACTOR 3
/* ... plus this much for the boot and Kyua's start. */
#define GEN_DEADLINE_SLACK_S 60
/* A mutant's kernel must start the suite within this many times id 0's
 * boot, plus the slack: one that hangs the boot (a console or a port that
 * never answers) is cut there rather than at the whole run's deadline. */
#define GEN_BOOT_FACTOR 5
/* Rounds of dropping mutants the schemata cannot hold (constant contexts). */
#define GEN_SCHEMATA_ROUNDS 8
/* The reason of a pending mutant whose object code was compared. */
#define GEN_CHECKED "object code differs from id 0"

struct gopts {
	const char *outdir, *cache, *suite, *map, *files, *patch, *resume, *keys, *cases, *rerun;
	const char *diff, *tree;
	int sample, seed, deadline_s, jobs;
	bool generate, list, rerun_survivors;
};

static const char *const gen_more =
	"--generate: first-order mutants of the tty layer of linux-source-6.12\n"
	"(Coccinelle rules in fixtures/mutation/; none in constant contexts such as\n"
	"static tables and case labels), run as one schemata kernel, one boot per\n"
	"mutant, each with only the programs that execute its line (--map, default\n"
	"reports/cover.map from make coverage; a program whose cases differ from the\n"
	"map's runs for every mutant).  A mutant whose kernel Oopses and then goes\n"
	"silent is stopped there, and one whose cases stop reporting for 3 x id 0's\n"
	"longest case + 60 s is stopped as hung (the programs it left half done\n"
	"confirm it alone first); kills and timeouts are confirmed on a second boot.\n"
	"--list prints every generated mutant; --patch KEY writes one as a patch for\n"
	"`ttypot mutants PATCH`.  Writes DIR/mutation.md, mutation-report.json,\n"
	"mutation.html and mutation-state.json after every mutant; --resume DIR\n"
	"continues a run, --rerun-survivors (or --rerun KEYS) runs its survivors\n"
	"(those mutants) again with the suite as it is now (the report keeps both\n"
	"verdicts).  --diff REV[..REV] --tree DIR: every mutant of the lines a git\n"
	"change of DIR's C files under drivers/tty adds or replaces, none on arid lines\n"
	"(comments, declarations, log calls, assertions, tracepoints), no sample unless\n"
	"--sample; then each survivor as FILE:LINE: ORIGINAL -> MUTATED survived, the\n"
	"changed lines no program executes and the patch's score.  Exit: 0 every\n"
	"evaluated mutant killed (or nothing to mutate), 1 survivors, 2 errors.\n";

#define GEN_SYNOPSIS "--generate [OPTIONS]"
#define GEN_NOPTS 20

/* The options of --generate into t (GEN_NOPTS entries, the last the end;
 * the first is --generate itself). */
static void gen_opts(struct gopts *o, struct cli_opt *t)
{
	const struct cli_opt opts[GEN_NOPTS] = {
		{ "generate", 0, OPT_FLAG, &o->generate, 0, NULL, "generated mutants (this mode)" },
		cli_opt_output(&o->outdir, "where the reports and state go (default reports/mutation)"),
		{ "sample", 0, OPT_INT, &o->sample, 1, "N", "a stratified sample of N (default all)" },
		{ "seed", 0, OPT_INT, &o->seed, 0, "S", "the sample's seed (default 1)" },
		{ "resume", 0, OPT_STR, &o->resume, 0, "DIR", "continue the run whose state is in DIR" },
		{ "rerun-survivors", 0, OPT_FLAG, &o->rerun_survivors, 0, NULL,
		  "with --resume: run its survivors again (after cases were added)" },
		{ "rerun", 0, OPT_STR, &o->rerun, 0, "KEYS",
		  "with --resume: run these evaluated mutants again (comma-separated keys)" },
		{ "map", 0, OPT_STR, &o->map, 0, "FILE", "the coverage map (default reports/cover.map; none: no triage)" },
		{ "files", 0, OPT_STR, &o->files, 0, "LIST", "comma-separated source files to mutate" },
		{ "diff", 0, OPT_STR, &o->diff, 0, "REV[..REV]",
		  "only the lines this git change adds or replaces (the working files against REV, or A..B)" },
		{ "tree", 0, OPT_STR, &o->tree, 0, "DIR", "with --diff: the kernel git tree to mutate and build" },
		{ "list", 0, OPT_FLAG, &o->list, 0, NULL, "print the generated mutants and stop" },
		{ "keys", 0, OPT_STR, &o->keys, 0, "LIST", "these mutants (comma-separated keys), no sample" },
		cli_opt_cases(&o->cases),
		{ "patch", 0, OPT_STR, &o->patch, 0, "KEY", "write mutant KEY as DIR/KEY.patch and stop" },
		cli_opt_cache(&o->cache),
		cli_opt_suite(&o->suite),
		cli_opt_deadline(&o->deadline_s),
		cli_opt_jobs(&o->jobs, "mutants booted at once, each a guest of its own (default 1)"),
		CLI_OPT_END,
	};
	memcpy(t, opts, sizeof opts);
}

void mutants_gen_help(FILE *f)
{
	struct gopts o = {0};
	struct cli_opt t[GEN_NOPTS];
	gen_opts(&o, t);
	fputs(gen_more, f);
	fprintf(f, "options of --generate:\n");
	cli_help_options(f, t + 1);
}

static int parse(int argc, char **argv, struct gopts *o)
{
	*o = (struct gopts){ .outdir = "reports/mutation", .seed = 1, .jobs = 1,
			     .deadline_s = KR_DEFAULT_DEADLINE_S };
	struct cli_opt opts[GEN_NOPTS];
	gen_opts(o, opts);
	enum cli_verdict v = cli_command(argc, argv, opts, GEN_SYNOPSIS, gen_more, NULL, NULL);
	if (v == CLI_OK && o->resume)
		o->outdir = o->resume;
	if (v == CLI_OK && (!o->diff != !o->tree || (o->diff && o->keys))) {
		fprintf(stderr, "ttypot: mutants: %s\n", o->keys ? "--diff and --keys exclude "
			"each other" : o->diff ? "--diff needs --tree DIR" :
			"--tree needs --diff REV[..REV]");
		return -1;
	}
	if (v == CLI_OK && (o->rerun_survivors || o->rerun) && !o->resume) {
		fprintf(stderr, "ttypot: mutants: --rerun%s needs --resume DIR\n",
			o->rerun ? "" : "-survivors");
		return -1;
	}
	return v == CLI_OK ? 0 : v == CLI_ERROR ? -1 : 1;
}

#define SPDX_LINE "// SPDX-License-Identifier: GPL-2.0-only\n"

/* sha256 of the rule files and the generator version: the sites cache key. */
static void rules_hash(const char *rules_dir, char out[65])
{
	struct rbuf b = {0};
	rbuf_add(&b, "ttypot-generator-" GEN_VERSION "\n");
	const char *names[] = { "call", "errno", "flag", "neg", "obo", "ret", "ror" };
	for (size_t i = 0; i < sizeof names / sizeof *names; i++) {
		char p[PATH_MAX], h[65] = "missing";
		snprintf(p, sizeof p, "%s/%s.cocci", rules_dir, names[i]);
		/* The licence line is not part of the rule: a rule file
		 * that only gained it keeps its hash (and a run its resume). */
		size_t len = 0;
		char *text = ku_read_file(p, &len);
		if (text) {
			const char *body = text;
			if (!strncmp(body, SPDX_LINE, strlen(SPDX_LINE)))
				body += strlen(SPDX_LINE);
			ku_sha256_hex(body, len - (size_t)(body - text), h);
			free(text);
		}
		rbuf_addf(&b, "%s %s\n", names[i], h);
	}
	ku_sha256_hex(b.s, b.len, out);
	rbuf_free(&b);
}

/* One file's sites, from the cache when its text and the rules are the same. */
static int file_sites(const char *cache, const char *src, const char *rules_dir,
		      const char *rhash, const char *file, const char *text,
		      struct site **sv, size_t *sn, char *err, size_t errlen)
{
	char key[65], path[PATH_MAX], dir[PATH_MAX];
	struct rbuf k = {0};
	rbuf_addf(&k, "%s\n%s\n", rhash, file);
	rbuf_add(&k, text);
	ku_sha256_hex(k.s, k.len, key);
	rbuf_free(&k);
	snprintf(dir, sizeof dir, "%s/mutation/sites", cache);
	snprintf(path, sizeof path, "%s/%.32s.txt", dir, key);
	char *have = ku_read_file(path, NULL);
	if (have) {
		for (char *l = have; *l;) {
			char *nl = strchr(l, '\n');
			if (nl)
				*nl = '\0';
			struct site s;
			if (site_parse(l, src, &s, err, errlen) == 0) {
				*sv = xrealloc(*sv, (*sn + 1) * sizeof **sv);
				(*sv)[(*sn)++] = s;
			}
			l = nl ? nl + 1 : l + strlen(l);
		}
		free(have);
		return 0;
	}
	size_t n0 = *sn;
	double t0 = proc_now();
	if (sites_scan(src, rules_dir, file, sv, sn, err, errlen) < 0)
		return -1;
	ku_progress("mutants: %s: %zu sites (spatch, %.0f s)", file, *sn - n0, proc_now() - t0);
	struct rbuf out = {0};
	for (size_t i = n0; i < *sn; i++) {
		const struct site *s = &(*sv)[i];
		rbuf_addf(&out, "S %s %s %d %d %d %d %s %s\n", mut_op_name(s->op), s->file,
			  s->l1, s->c1, s->l2, s->c2, s->func, s->extra);
	}
	ku_mkdir_p(dir, 0755);
	char name[80];
	snprintf(name, sizeof name, "%.32s.txt", key);
	write_file(dir, name, &out, err, errlen);
	rbuf_free(&out);
	return 0;
}

struct gen {
	char src[PATH_MAX];      /* the pristine source */
	char **files;            /* relative paths */
	char **texts;            /* their pristine text */
	size_t nfiles;
	struct gmut *v;          /* every mutant, those in constant contexts too */
	size_t n;
	size_t nconst;           /* of them in constant contexts: not run */
	char rhash[65];
};

static const char *file_text(const struct gen *g, const char *file)
{
	for (size_t i = 0; i < g->nfiles; i++)
		if (!strcmp(g->files[i], file))
			return g->texts[i];
	return NULL;
}

/* file_text as patchsel.h and mutants_verdict.h take it. */
static const char *gen_text(const void *ctx, const char *file)
{
	return file_text(ctx, file);
}

/* --files given with --diff: only the patch's files among them. */
static void keep_listed(struct rbuf *files, const char *listed)
{
	struct rbuf keep = {0};
	char *list = xstrdup(rbuf_str(files)), *s1 = NULL;
	for (char *t = strtok_r(list, ",", &s1); t; t = strtok_r(NULL, ",", &s1)) {
		char *l = xstrdup(listed), *s2 = NULL;
		bool in = false;
		for (char *u = strtok_r(l, ", ", &s2); u && !in; u = strtok_r(NULL, ", ", &s2))
			in = !strcmp(t, u);
		free(l);
		if (in)
			rbuf_addf(&keep, "%s%s", keep.len ? "," : "", t);
	}
	free(list);
	rbuf_free(files);
	*files = keep;
}

/* What the schemata tree of --tree DIR is linked from: its HEAD and the
 * working files' changes, so a tree that changed is linked again. */
static void tree_ident(const struct ps_change *c, char *out, size_t outlen)
{
	const char *args[] = { "diff", "--no-color", "--no-ext-diff", "HEAD", NULL };
	char err[600], hex[65] = "unknown";
	char *d = dm_git(c->tree, args, err, sizeof err);
	if (d)
		ku_sha256_hex(d, strlen(d), hex);
	free(d);
	snprintf(out, outlen, "tree %s HEAD %s working %s\n", c->tree, c->head, hex);
}

/* The patch's mutants (those in pick) cut to a seeded sample of want,
 * without sample_pick's per-file floor (a patch has few mutants). */
static size_t sample_patch(const struct gen *g, unsigned char *pick, size_t want,
			   unsigned long long seed)
{
	size_t *at = calloc(g->n ? g->n : 1, sizeof *at), k = 0;
	for (size_t i = 0; i < g->n; i++)
		if (pick[i])
			at[k++] = i;
	unsigned char *sp = calloc(k ? k : 1, 1);
	size_t got = sample_plain(k, want, seed, sp);
	for (size_t j = 0; j < k; j++)
		pick[at[j]] = sp[j];
	free(sp);
	free(at);
	return got;
}

static int generate(struct gen *g, const char *cache, const char *suite, const char *files,
		    char *err, size_t errlen)
{
	char rules[PATH_MAX];
	snprintf(rules, sizeof rules, "%s/fixtures/mutation", suite);
	rules_hash(rules, g->rhash);
	char *list = xstrdup(files);
	struct site *sv = NULL;
	size_t sn = 0, skipped = 0, dropped = 0;
	int rc = 0;
	for (char *t = strtok(list, ", "); t && rc == 0; t = strtok(NULL, ", ")) {
		char path[PATH_MAX];
		snprintf(path, sizeof path, "%s/%s", g->src, t);
		char *text = ku_read_file(path, NULL);
		if (!text) {
			snprintf(err, errlen, "--files: %s: no such file in %s", t, g->src);
			rc = -1;
			break;
		}
		g->files = xrealloc(g->files, (g->nfiles + 1) * sizeof *g->files);
		g->texts = xrealloc(g->texts, (g->nfiles + 1) * sizeof *g->texts);
		g->files[g->nfiles] = xstrdup(t);
		g->texts[g->nfiles++] = text;
		size_t s0 = sn;
		rc = file_sites(cache, g->src, rules, g->rhash, t, text, &sv, &sn, err, errlen);
		if (rc == 0)
			gen_expand(text, sv + s0, sn - s0, &g->v, &g->n, &skipped, err, errlen);
	}
	free(list);
	free(sv);
	if (rc == 0) {
		g->n = gen_finish(g->v, g->n, &dropped);
		for (size_t i = 0; i < g->n; i++)
			g->nconst += g->v[i].constant != NULL;
		ku_progress("mutants: %zu mutants generated in %zu files (%zu sites did not fit "
			    "their operator, %zu mutants overlapped another, %zu in constant "
			    "contexts left out: static tables, case labels...)", g->n - g->nconst,
			    g->nfiles, skipped, dropped, g->nconst);
	}
	return rc;
}

/* Take the mutants in constant contexts out of a sample (pick[]), unless a
 * run already gave them a verdict (a state from before they were left
 * out: its errors stay as they were).  Returns how many went. */
static size_t drop_constants(const struct gen *g, unsigned char *pick, size_t *sample)
{
	size_t k = 0;
	for (size_t i = 0; i < g->n; i++)
		if (pick[i] && g->v[i].constant && g->v[i].m.status == MS_PENDING) {
			pick[i] = 0;
			(*sample)--;
			k++;
		}
	return k;
}

static const struct gmut *find_key(const struct gen *g, const char *key)
{
	for (size_t i = 0; i < g->n; i++)
		if (!strcmp(g->v[i].m.key, key))
			return &g->v[i];
	return NULL;
}

/* --patch KEY: the mutant alone as a patch `ttypot mutants PATCH` applies. */
static int write_patch(const struct gen *g, const char *key, const char *outdir)
{
	const struct gmut *m = find_key(g, key);
	if (!m) {
		fprintf(stderr, "ttypot: mutants: --patch %s: no such mutant (--list shows them)\n",
			key);
		return 2;
	}
	const char *text = file_text(g, m->m.file);
	char *mut = schemata_apply_one(text, m);
	char dir[] = "/tmp/ttypot-patch.XXXXXX";
	if (!mkdtemp(dir)) {
		fprintf(stderr, "ttypot: mutants: mkdtemp: %s\n", strerror(errno));
		free(mut);
		return 2;
	}
	char a[PATH_MAX], b[PATH_MAX], la[200], lb[200];
	snprintf(a, sizeof a, "%s/a", dir);
	snprintf(b, sizeof b, "%s/b", dir);
	snprintf(la, sizeof la, "a/%s", m->m.file);
	snprintf(lb, sizeof lb, "b/%s", m->m.file);
	ku_write_file(a, text, strlen(text));
	ku_write_file(b, mut, strlen(mut));
	free(mut);
	const char *argv[] = { "diff", "-u", "--label", la, "--label", lb, a, b, NULL };
	struct proc_opts po = { .deadline_ms = 60000 };
	struct proc_result *pr = malloc(sizeof *pr);
	int st = proc_run(argv, &po, pr);
	ku_rm_rf(dir);
	if (st != 1) {
		fprintf(stderr, "ttypot: mutants: diff for %s: exit %d\n", key, st);
		free(pr);
		return 2;
	}
	struct rbuf out = {0};
	rbuf_addf(&out, "ttypot mutant %s\nBug:     generated (%s) in %s: %s -> %s\n"
		  "Commits: none (generated by ttypot mutants --generate)\n"
		  "Killed by (expected): -\n\n", m->m.key, mutation_op_text(m->m.op), m->m.func,
		  m->m.orig, m->m.repl);
	rbuf_addn(&out, pr->out, pr->out_len);
	free(pr);
	char name[200], err[512];
	safe_name(m->m.key, name, sizeof name - 8);
	strcat(name, ".patch");
	mkdir_p(outdir);
	int rc = write_file(outdir, name, &out, err, sizeof err);
	rbuf_free(&out);
	if (rc < 0) {
		fprintf(stderr, "ttypot: mutants: %s\n", err);
		return 2;
	}
	printf("%s/%s\n", outdir, name);
	return 0;
}

static void list_mutants(const struct gen *g)
{
	for (size_t i = 0; i < g->n; i++) {
		const struct mutant *m = &g->v[i].m;
		if (!g->v[i].constant)
			printf("%u\t%s\t%s\t%s\t->\t%s\n", m->id, m->key, m->func, m->orig,
			       m->repl);
	}
}

/* Add the space-separated programs of add to m's selection (those it does
 * not hold yet); too many to keep is the whole suite. */
static void add_programs(struct mutant *m, const char *add)
{
	if (!strcmp(m->covered_by, "*") || !add[0])
		return;
	struct rbuf b = {0};
	rbuf_add(&b, m->covered_by);
	char *list = xstrdup(add);
	for (char *t = strtok(list, " "); t; t = strtok(NULL, " ")) {
		size_t tl = strlen(t);
		const char *p = b.s;
		bool have = false;
		while (p && (p = strstr(p, t))) {
			if ((p == b.s || p[-1] == ' ') && (p[tl] == ' ' || !p[tl]))
				have = true;
			p += tl;
		}
		if (!have)
			rbuf_addf(&b, "%s%s", b.len ? " " : "", t);
	}
	free(list);
	snprintf(m->covered_by, sizeof m->covered_by, "%s", rbuf_str(&b));
	if (b.len >= sizeof m->covered_by)
		snprintf(m->covered_by, sizeof m->covered_by, "*");
	rbuf_free(&b);
}

static bool filter_holds(const char *filter, const char *prog, size_t pl);

/* A patch's mutant: its line is new to a map made of the source before the
 * patch, so the programs that execute its function run it (every program
 * when the map does not know the function). */
static void fn_triage(const struct gen *g, const struct cover_map *map, const char *unmapped,
		      struct mutant *m)
{
	(void)g;
	m->covered_by[0] = '\0';
	struct rbuf p = {0};
	int n = ps_fn_programs(map, m->file, m->func, &p);
	if (n < 0) {
		snprintf(m->covered_by, sizeof m->covered_by, "*");
	} else {
		add_programs(m, rbuf_str(&p));
		add_programs(m, unmapped);
		if (!m->covered_by[0]) {
			m->status = MS_NOT_COVERED;
			snprintf(m->reason, sizeof m->reason, "no program executes %s (%s:%d)",
				 m->func, m->file, m->line);
		}
	}
	rbuf_free(&p);
}

/* The programs that execute m's lines, from the map; programs newer than
 * the map (unmapped) may execute any line, so they run for every mutant
 * and a line no mapped program executes is covered by them.  A line gcov
 * gives no counter of its own takes its counted neighbours' programs and
 * those of the line its braces put before it (cover_programs_around).  A
 * file the map never profiled runs the whole suite: its lines are unknown,
 * not unexecuted. */
static void cover_triage(const struct gen *g, const struct cover_map *map, const char *unmapped,
			 struct mutant *m)
{
	m->covered_by[0] = '\0';
	if (!cover_knows_file(map, m->file)) {
		snprintf(m->covered_by, sizeof m->covered_by, "*");
		return;
	}
	/* The braces are read only for a line without a counter, the rare
	 * case: most mutants never need them. */
	struct blocks src = {0};
	bool read_src = false, have_src = false;
	for (int l = m->line; l <= m->end_line; l++) {
		char progs[8192];
		if (cover_programs(map, m->file, l, progs, sizeof progs)) {
			add_programs(m, progs);
			continue;
		}
		if (cover_has_counter(map, m->file, l))
			continue;
		if (!read_src) {
			const char *text = file_text(g, m->file);
			read_src = true;
			have_src = text && blocks_read(text, &src) == 0;
		}
		if (cover_programs_around(map, m->file, l, have_src ? &src : NULL, progs,
					  sizeof progs))
			add_programs(m, progs);
	}
	if (have_src)
		blocks_free(&src);
	add_programs(m, unmapped);
	if (!m->covered_by[0]) {
		m->status = MS_NOT_COVERED;
		snprintf(m->reason, sizeof m->reason, "no program executes %s:%d", m->file,
			 m->line);
	}
}

/* The programs of the baseline that the map does not know (added after
 * make coverage wrote it, or whose cases changed since: cover_check_cases),
 * space-separated into out. */
static void unmapped_programs(const struct cover_map *map, const struct column *base,
			      struct rbuf *out)
{
	for (size_t i = 0; i < base->ncases; i++) {
		const char *id = base->cases[i].id;
		size_t pl = strcspn(id, ":");
		char prog[256];
		snprintf(prog, sizeof prog, "%.*s", (int)pl, id);
		bool known = cover_knows(map, prog);
		if (!known && out->len)
			known = filter_holds(out->s, id, pl);
		if (!known)
			rbuf_addf(out, "%s%.*s", out->len ? " " : "", (int)pl, id);
	}
}

/* Does filter (space-separated programs or areas) hold the program
 * prog[0..pl): the program itself, or an area ("pty") holding it? */
static bool filter_holds(const char *filter, const char *prog, size_t pl)
{
	for (const char *p = filter; *p;) {
		size_t tl = strcspn(p, " ");
		if ((tl == pl && !strncmp(p, prog, pl)) ||
		    (tl < pl && !strncmp(p, prog, tl) && prog[tl] == '/'))
			return true;
		p += tl + (p[tl] == ' ');
	}
	return false;
}

/* --cases: only the programs of cases (space-separated programs or areas)
 * among those covering m (all of cases when the map gave "*"). */
static void restrict_to(struct mutant *m, const char *cases)
{
	if (!strcmp(m->covered_by, "*")) {
		snprintf(m->covered_by, sizeof m->covered_by, "%s", cases);
		return;
	}
	struct rbuf b = {0};
	char *list = xstrdup(m->covered_by);
	for (char *t = strtok(list, " "); t; t = strtok(NULL, " ")) {
		if (filter_holds(cases, t, strlen(t)))
			rbuf_addf(&b, "%s%s", b.len ? " " : "", t);
	}
	free(list);
	snprintf(m->covered_by, sizeof m->covered_by, "%s", rbuf_str(&b));
	if (!b.len) {
		m->status = MS_NOT_COVERED;
		snprintf(m->reason, sizeof m->reason, "none of --cases executes %s:%d", m->file,
			 m->line);
	}
	rbuf_free(&b);
}

/* unmapped_programs, said once. */
static void note_unmapped(const struct cover_map *map, const struct column *base,
			  struct rbuf *out)
{
	rbuf_free(out);
	*out = (struct rbuf){0};
	unmapped_programs(map, base, out);
	if (out->len)
		ku_progress("mutants: programs the coverage map does not know (newer than it, "
			    "or their cases changed since) run for every mutant (make coverage "
			    "maps them): %.300s", rbuf_str(out));
}

/* A map just loaded: its case lists held against the suite's cases now. */
static void map_loaded(struct cover_map *map, const struct kr_env *e)
{
	char note[1024];
	cover_check_cases(map, (const char *const *)e->expected.v, e->expected.n, note,
			  sizeof note);
	if (note[0])
		ku_progress("mutants: %s", note);
}

/* The build directory kernel/ uses for tree:DIR (resolve_tree.c). */
static void tree_build_dir(const char *cache, const char *tree, char *out, size_t outlen)
{
	char real[PATH_MAX], hex[65];
	if (!realpath(tree, real))
		snprintf(real, sizeof real, "%s", tree);
	ku_sha256_hex(real, strlen(real), hex);
	snprintf(out, outlen, "%s/build/tree-%.16s", cache, hex);
}

/* The first schemata build starts from the objects of the src: build of
 * the same source and config (kbuild_seed), so make remakes only the
 * files ttypot rewrote: the mutated ones and the definer.  A --diff tree
 * qualifies when only C files differ from the source (mseed.h); those get
 * fresh copies in the schemata tree so that make remakes them too.  Any
 * other tree, or a src: build of another config, builds through ccache. */
static void seed_build(const char *cache, const char *user_tree, const char *tree,
		       const char *bdir)
{
	char from[PATH_MAX], pristine[PATH_MAX], mark[PATH_MAX + 32], why[600] = "";
	snprintf(from, sizeof from, "%s/build/src-%s", cache, GEN_SOURCE);
	snprintf(pristine, sizeof pristine, "%s/src/%s", cache, GEN_SOURCE);
	snprintf(mark, sizeof mark, "%s/.ttypot-unpacked", pristine);
	if (ku_is_dir(bdir))
		return;
	char *ident = ku_read_file(mark, NULL);
	if (!ident) {
		ku_progress("mutants: no seed for %s: src:%s is not unpacked", bdir, GEN_SOURCE);
		return;
	}
	ident[strcspn(ident, "\n")] = '\0';
	int ok = 1;
	if (user_tree) {
		struct rbuf differ = {0};
		double t0 = proc_now();
		ok = mseed_check(pristine, user_tree, &differ, why, sizeof why);
		if (ok == 1 && mseed_refresh(tree, rbuf_str(&differ), why, sizeof why) < 0)
			ok = -1;
		if (ok == 1 && differ.len)
			ku_progress("mutants: %s differs from src:%s in C files only (%.0f s): %.300s",
				    user_tree, GEN_SOURCE, proc_now() - t0, rbuf_str(&differ));
		else if (ok == 1)
			ku_progress("mutants: %s holds the files of src:%s (%.0f s)", user_tree,
				    GEN_SOURCE, proc_now() - t0);
		rbuf_free(&differ);
	}
	if (ok == 1)
		ok = kbuild_seed(from, ident, bdir, why, sizeof why);
	free(ident);
	if (ok == 1)
		ku_progress("mutants: seeded %s with the objects of %s", bdir, from);
	else
		ku_progress("mutants: no seed from %s (%s): a full build follows", from, why);
}

/* Drop from the schemata the mutants on lines the compiler rejected (a
 * mutant in a constant context: a case label, a static initialiser), each
 * with the compiler's words as its reason.  Returns how many were dropped. */
static size_t drop_rejected(struct gen *g, unsigned char *in, const char *log)
{
	char *text = ku_read_file(log, NULL);
	size_t dropped = 0;
	/* An error inside a macro names the header that defines it; the
	 * notes after it name the line that expanded the macro (a mutated
	 * permission of module_param_cb: "8250_platform.c:417:9: note: in
	 * expansion of macro"). */
	bool in_error = false;
	char said[120] = ""; /* the error's words, for the reason */
	for (char *l = text; l && *l;) {
		char *nl = strchr(l, '\n');
		if (nl)
			*nl = '\0';
		char *e = strstr(l, ": error:");
		if (e) {
			in_error = true;
			snprintf(said, sizeof said, "%s", e + strlen(": error: "));
		}
		else if (strstr(l, ": warning:"))
			in_error = false;
		else if (in_error)
			e = strstr(l, ": note: in expansion of macro");
		for (size_t f = 0; e && f < g->nfiles; f++) {
			/* ".../drivers/tty/n_tty.c:1234:56: error: ..." */
			char pat[200];
			snprintf(pat, sizeof pat, "%s:", g->files[f]);
			char *p = strstr(l, pat);
			if (!p || p > e)
				continue;
			int line = atoi(p + strlen(pat));
			for (size_t i = 0; i < g->n; i++) {
				struct mutant *m = &g->v[i].m;
				if (!in[i] || strcmp(m->file, g->files[f]) || line < m->line ||
				    line > m->end_line)
					continue;
				in[i] = 0;
				m->status = MS_ERROR;
				snprintf(m->reason, sizeof m->reason, "not expressible in the "
					 "schemata (the compiler at %s:%d: %s): confirm it with "
					 "--patch %s and ttypot mutants PATCH", m->file, line, said,
					 m->key);
				dropped++;
			}
		}
		l = nl ? nl + 1 : l + strlen(l);
	}
	free(text);
	return dropped;
}

/* Write the schemata tree for the mutants in[] and build it; mutants the
 * compiler cannot take in the schemata are dropped (status error) and the
 * build retried.  0, or -1 with a message. */
static int build_schemata(struct kr_env *me, struct gen *g, unsigned char *in,
			  const char *tree, struct kernel_info *ki, double *secs, char *err,
			  size_t errlen)
{
	char spec[PATH_MAX + 8], bdir[PATH_MAX], log[PATH_MAX + 32], defp[PATH_MAX];
	snprintf(spec, sizeof spec, "tree:%s", tree);
	tree_build_dir(me->cache, tree, bdir, sizeof bdir);
	snprintf(log, sizeof log, "%s/ttypot-build.log", bdir);
	snprintf(defp, sizeof defp, "%s/%s", g->src, GEN_DEFINER);
	*secs = 0;
	for (int round = 1; round <= GEN_SCHEMATA_ROUNDS; round++) {
		size_t nin = 0;
		bool wrote_definer = false;
		for (size_t f = 0; f < g->nfiles; f++) {
			const struct gmut **sel = calloc(g->n ? g->n : 1, sizeof *sel);
			size_t k = 0;
			for (size_t i = 0; i < g->n; i++)
				if (in[i] && !strcmp(g->v[i].m.file, g->files[f]))
					sel[k++] = &g->v[i];
			nin += k;
			char *text = schemata_rewrite(g->texts[f], sel, k);
			free(sel);
			if (!strcmp(g->files[f], GEN_DEFINER)) {
				struct rbuf b = {0};
				rbuf_add(&b, text);
				rbuf_add(&b, schemata_definition);
				free(text);
				text = b.s;
				wrote_definer = true;
			}
			int w = mtree_write(tree, g->files[f], text, err, errlen);
			free(text);
			if (w < 0)
				return -1;
		}
		if (!wrote_definer) {
			char *text = ku_read_file(defp, NULL);
			struct rbuf b = {0};
			rbuf_add(&b, text ? text : "");
			rbuf_add(&b, schemata_definition);
			free(text);
			int w = mtree_write(tree, GEN_DEFINER, b.s, err, errlen);
			rbuf_free(&b);
			if (w < 0)
				return -1;
		}
		if (ku_is_file(log))
			ku_write_file(log, "", 0); /* this round's errors only */
		ku_progress("mutants: building the schemata kernel with %zu mutants (round %d)",
			    nin, round);
		double s = 0;
		if (kr_resolve(me, spec, ki, &s, err, errlen) == 0) {
			*secs += s;
			return 0;
		}
		*secs += s;
		size_t d = drop_rejected(g, in, log);
		if (!d)
			return -1; /* a failure no mutant explains: err says it */
		ku_progress("mutants: %zu mutants cannot be in the schemata (constant contexts); "
			    "rebuilding without them", d);
	}
	snprintf(err, errlen, "the schemata kernel did not build in %d rounds", GEN_SCHEMATA_ROUNDS);
	return -1;
}

/* Equivalence by object code: each mutant's file compiled with the guard
 * folded to its id, against the same file folded to 0; two compiles at a
 * time (the cores), one file after another. */
#define GEN_CC_JOBS 2
static void equivalence_triage(const char *bdir, const char *work, struct gmut **order,
			       size_t n)
{
	char ref[PATH_MAX], err[600];
	size_t done = 0, equiv = 0;
	double t0 = proc_now();
	snprintf(ref, sizeof ref, "%s/ref.o", work);
	struct gmut **todo = calloc(n ? n : 1, sizeof *todo);
	unsigned *ids = calloc(n ? n : 1, sizeof *ids);
	int *res = calloc(n ? n : 1, sizeof *res);
	char **diag = calloc(n ? n : 1, sizeof *diag);
	for (size_t i = 0; i < n && !kr_interrupted;) {
		const char *file = order[i]->m.file;
		size_t k = 0;
		for (; i < n && !strcmp(order[i]->m.file, file); i++)
			if (order[i]->m.status == MS_PENDING && strcmp(order[i]->m.reason, GEN_CHECKED))
				todo[k] = order[i], ids[k++] = order[i]->m.id;
		if (!k)
			continue;
		struct rbuf d0 = {0};
		if (mtree_compile_const(bdir, file, 0, ref, &d0, err, sizeof err) != 0) {
			ku_progress("mutants: cannot compile %s for id 0 (%s%.300s): no equivalence "
				    "triage for its mutants", file, err, rbuf_str(&d0));
			rbuf_free(&d0);
			continue;
		}
		rbuf_free(&d0);
		double t1 = proc_now();
		mtree_compile_batch(bdir, file, ids, k, work, GEN_CC_JOBS, res, diag);
		for (size_t j = 0; j < k; j++) {
			struct mutant *m = &todo[j]->m;
			char obj[PATH_MAX];
			snprintf(obj, sizeof obj, "%s/mut-%u.o", work, m->id);
			if (res[j] == 1) {
				m->status = MS_UNCOMPILABLE;
				snprintf(m->reason, sizeof m->reason, "%.290s", diag[j]);
			} else if (res[j] == 0) {
				int same = mtree_same_code(ref, obj, err, sizeof err);
				if (same == 1) {
					m->status = MS_EQUIVALENT;
					snprintf(m->reason, sizeof m->reason,
						 "equivalent: identical object code");
					equiv++;
				} else if (same == 0) {
					snprintf(m->reason, sizeof m->reason, GEN_CHECKED);
				}
			} else {
				ku_progress("mutants: %s: not compiled (%s)", m->key,
					    diag[j] ? diag[j] : "?");
			}
			unlink(obj);
			free(diag[j]);
			diag[j] = NULL;
			done++;
		}
		ku_progress("mutants: equivalence: %s: %zu compiled in %.0f s (%zu equivalent "
			    "so far)", file, k, proc_now() - t1, equiv);
	}
	free(todo);
	free(ids);
	free(res);
	free(diag);
	unlink(ref);
	ku_progress("mutants: equivalence: %zu compiled, %zu equivalent in %.0f s", done,
		    equiv, proc_now() - t0);
}

/* Seconds the programs of filter (space-separated; "*" all) took on the
 * baseline, as one Kyua run with two at a time would take them. */
static double programs_secs(const struct column *base, const char *filter)
{
	double sum = 0, longest = 0;
	for (size_t i = 0; i < base->ncases; i++) {
		const char *id = base->cases[i].id;
		size_t pl = strcspn(id, ":");
		if (strcmp(filter, "*") && !filter_holds(filter, id, pl))
			continue;
		sum += base->cases[i].secs;
		if (base->cases[i].secs > longest)
			longest = base->cases[i].secs;
	}
	return sum / 2 > longest ? sum / 2 : longest;
}

/* DIR/baseline-id0.tsv: each case of the id 0 run and its status, so the
 * unmutated schemata kernel can be held against a plain build. */
static void write_baseline(const char *outdir, const struct column *c)
{
	struct rbuf b = {0};
	char err[600];
	for (size_t i = 0; i < c->ncases; i++)
		rbuf_addf(&b, "%s\t%s\n", c->cases[i].id, status_name(c->cases[i].st));
	if (write_file(outdir, "baseline-id0.tsv", &b, err, sizeof err) < 0)
		ku_progress("mutants: %s", err);
	rbuf_free(&b);
}

/* A verdict to give again: pending once more, its first verdict kept in
 * earlier (the report shows both), its programs chosen anew. */
static void reopen(struct mutant *m)
{
	if (!m->earlier[0]) /* given again twice: the first verdict stays */
		snprintf(m->earlier, sizeof m->earlier, "%s (%.300s)",
			 mut_status_name(m->status), m->reason);
	m->status = MS_PENDING;
	m->reason[0] = m->covered_by[0] = '\0';
	m->secs = 0;
}

/* --rerun-survivors (every survivor) and --rerun KEYS (these, when they
 * were run: killed, timeout, warning or survived). */
static int reopen_verdicts(struct gen *g, const unsigned char *pick, bool survivors,
			   const char *keys)
{
	size_t k = 0;
	for (size_t i = 0; survivors && i < g->n; i++)
		if (pick[i] && g->v[i].m.status == MS_SURVIVED) {
			reopen(&g->v[i].m);
			k++;
		}
	char *list = xstrdup(keys ? keys : "");
	int rc = 0;
	for (char *t = strtok(list, ", "); t; t = strtok(NULL, ", ")) {
		const struct gmut *gm = find_key(g, t);
		struct mutant *m = gm ? &g->v[gm - g->v].m : NULL;
		if (!m || !pick[gm - g->v]) {
			fprintf(stderr, "ttypot: mutants: --rerun: %s: not in this run's sample\n", t);
			rc = -1;
		} else if (!mut_status_killed(m->status) && m->status != MS_SURVIVED) {
			fprintf(stderr, "ttypot: mutants: --rerun: %s is %s, not a verdict of a run\n",
				t, mut_status_name(m->status));
			rc = -1;
		} else {
			reopen(m);
			k++;
		}
	}
	free(list);
	if (rc == 0)
		ku_progress("mutants: %zu evaluated mutants run again", k);
	return rc;
}

/* Is id one of the space-separated case ids of list? */
static bool id_listed(const char *list, const char *id)
{
	size_t il = strlen(id);
	for (const char *p = list; *p;) {
		size_t tl = strcspn(p, " ");
		if (tl == il && !strncmp(p, id, il))
			return true;
		p += tl + (p[tl] == ' ');
	}
	return false;
}

/* Boot mutant m once more (run tag KEY.suffix) with the cases of run
 * (NULL: the whole suite): 1 when a case is bad again (one of must, when
 * must is given) or the kernel hung or died, 0 when all passed, -1 when
 * the boot said nothing. */
static int boot_again(struct kr_env *e, const struct kernel_info *ki,
		      const struct kr_result *base, struct mutant *m, const char *suffix,
		      const char *run, const char *must)
{
	char tag[200], safe[180];
	safe_name(m->key, safe, sizeof safe);
	snprintf(tag, sizeof tag, "%s.%s", safe, suffix);
	struct kr_result r;
	kr_run(e, ki, tag, run, base->col, true, &r);
	m->secs += r.wall_s;
	int rc = -1;
	if (r.begun && !kr_interrupted) {
		rc = r.end == RUN_TIMEOUT || r.end == RUN_PANIC ? 1 : 0;
		for (size_t i = 0; i < r.col->ncases && rc == 0; i++)
			if (kr_kills(base->col, r.col, r.col->cases[i].id) &&
			    (!must || id_listed(must, r.col->cases[i].id)))
				rc = 1;
	}
	col_free(r.col);
	return rc;
}

/* A kill counts when it repeats: boot mutant m again, with only its
 * killing cases (killers), or, after a run that hung or whose kernel died
 * (dead_or_hung), with the same programs.  A case that failed once and
 * passes on the next boot is a flaky case or a race the mutant seldom
 * loses, and a hang once may be the emulator's on a loaded host: neither
 * may raise the score.  1 when a killer failed again (or the kernel hung
 * or died again), 0 when all passed, -1 when the second boot said nothing
 * (it did not reach the suite, or was interrupted).  The caller has set
 * m's id on the kernel command line and its deadlines. */
static int confirm_kill(struct kr_env *e, const struct kernel_info *ki,
			const struct kr_result *base, struct mutant *m, const char *killers,
			const char *filter, bool dead_or_hung)
{
	const char *run = dead_or_hung ? filter : killers;
	if (dead_or_hung)
		ku_progress("mutants: %s: %s; once more with %.300s", m->key, killers,
			    run ? run : "the whole suite");
	else
		ku_progress("mutants: %s: killed by %s; once more with those cases", m->key,
			    killers);
	int rc = boot_again(e, ki, base, m, "again", run, NULL);
	if (rc == 0)
		ku_progress("mutants: %s: %.300s passed on the second boot: not counted as a kill",
			    m->key, dead_or_hung ? run ? run : "the suite" : killers);
	return rc;
}

/* Killers that passed alone on a second boot may fail only after the
 * cases before them: a mutant that acts on state an earlier case leaves
 * (a VT freed, a device removed) shows in a later one.  Boot once more
 * with the first boot's programs, in the same order; the kill counts when
 * one of the killers fails again.  As confirm_kill's result. */
static int confirm_in_order(struct kr_env *e, const struct kernel_info *ki,
			    const struct kr_result *base, struct mutant *m, const char *killers,
			    const char *filter)
{
	ku_progress("mutants: %s: %s passed alone; once more after the cases before them "
		    "(%.200s)", m->key, killers, filter ? filter : "the whole suite");
	int rc = boot_again(e, ki, base, m, "in-order", filter, killers);
	if (rc == 0)
		ku_progress("mutants: %s: %.300s passed after the cases before them too: not "
			    "counted as a kill", m->key, killers);
	return rc;
}

/* Where a run that went silent hung: the programs it left half done
 * (some cases reported, some not: the guest's Kyua runs cases side by
 * side, a program's one after another), at most 4, space-separated into
 * prog; else the first program of filter, in the suite's order, with no
 * case reported.  false when every case was reported. */
static bool hung_programs(const struct kr_env *e, const struct column *c,
			  const char *filter, char *prog, size_t n)
{
	struct rbuf half = {0};
	char first[200] = "";
	int nhalf = 0;
	for (size_t i = 0; i < e->expected.n; i++) {
		const char *id = e->expected.v[i];
		size_t pl = strcspn(id, ":");
		const struct case_result *cr = col_find(c, id);
		if (!case_selected(filter, id) || !cr || !ingest_filled(cr) ||
		    (half.len && filter_holds(half.s, id, pl)))
			continue;
		bool done_some = false;
		for (size_t k = 0; k < c->ncases && !done_some; k++)
			done_some = !strncmp(c->cases[k].id, id, pl + 1) &&
				    !ingest_filled(&c->cases[k]);
		if (done_some) {
			rbuf_addf(&half, "%s%.*s", half.len ? " " : "", (int)pl, id);
			nhalf++;
		} else if (!first[0]) {
			snprintf(first, sizeof first, "%.*s", (int)pl, id);
		}
	}
	snprintf(prog, n, "%s", nhalf > 4 ? "" : nhalf ? rbuf_str(&half) : first);
	rbuf_free(&half);
	return prog[0] != 0;
}

/* What a kernel that died said first, from its console log: the first
 * "BUG:", "Oops", "general protection" or "Kernel panic" line (its
 * timestamp dropped) and the function in the RIP/PC line after it; ""
 * when none. */
static void panic_said(const char *console, char *out, size_t n)
{
	static const char *const marks[] = { "BUG: ", "Oops", "general protection",
					      "Kernel panic" };
	out[0] = 0;
	char *text = ku_read_file(console, NULL);
	const char *t = text ? text : "", *after = t;
	for (const char *l = t; *l && !out[0];) {
		size_t len = strcspn(l, "\n");
		for (size_t i = 0; i < sizeof marks / sizeof *marks && !out[0]; i++) {
			const char *m = memmem(l, len, marks[i], strlen(marks[i]));
			if (m) {
				size_t k = len - (size_t)(m - l);
				while (k && m[k - 1] == '\r')
					k--;
				snprintf(out, n, "%.*s", (int)k, m);
				after = l;
			}
		}
		l += len + (l[len] == '\n');
	}
	const char *rip = strstr(after, "RIP: 0010:");
	if (out[0] && rip) {
		rip += strlen("RIP: 0010:");
		size_t used = strlen(out);
		snprintf(out + used, n - used, " in %.*s", (int)strcspn(rip, " \r\n"), rip);
	}
	free(text);
}

/* Boot the schemata kernel as mutant m with its programs; record what
 * happened in m. */
static void run_mutant(struct kr_env *e, const struct kernel_info *ki,
		       const struct kr_result *base, struct mutant *m)
{
	const char *filter = strcmp(m->covered_by, "*") ? m->covered_by : NULL;
	double expect = programs_secs(base->col, m->covered_by);
	double all = programs_secs(base->col, "*");
	if (expect <= 0) /* programs the baseline did not time: the whole suite's */
		expect = all;
	/* Case times leave out what the suite spends between them (starting
	 * programs, exclusive ones alone): scale by id 0's own ratio, so that
	 * the whole suite's expectation is its measured time. */
	if (all > 0 && base->suite_s > all)
		expect *= base->suite_s / all;
	int deadline = (int)(GEN_DEADLINE_FACTOR * (expect + base->boot_s)) + GEN_DEADLINE_SLACK_S;
	char args[64], tag[200];
	snprintf(args, sizeof args, "ttypot_mutant=%u", m->id);
	setenv("TTYPOT_KERNEL_ARGS", args, 1);
	safe_name(m->key, tag, sizeof tag);
	int saved = e->deadline_s;
	e->deadline_s = deadline;
	e->boot_deadline_s = (int)(GEN_BOOT_FACTOR * base->boot_s) + GEN_DEADLINE_SLACK_S;
	e->oops_silence_s = KR_OOPS_SILENCE_S;
	e->case_silence_s = kr_case_silence_s(base->col);
	e->ref_boot_s = base->boot_s; /* a loaded host: both stretch */
	struct kr_result r;
	for (int attempt = 1; attempt <= 2; attempt++) {
		kr_run(e, ki, tag, filter, base->col, true, &r);
		/* QEMU that did not start says nothing about the mutant, and a
		 * panic or a late boot before the suite may be the emulator's (a
		 * TCG boot on a loaded host): once more, and only a second one
		 * counts. */
		if (r.begun ||
		    (r.end != RUN_ERROR && r.end != RUN_PANIC && r.end != RUN_TIMEOUT) ||
		    kr_interrupted || attempt == 2)
			break;
		char said[240];
		panic_said(r.console, said, sizeof said);
		ku_progress("mutants: %s: %s before the suite (%s): once more", m->key,
			    r.end == RUN_PANIC ? "kernel panic"
			    : r.end == RUN_TIMEOUT ? "boot past its deadline" : "no start",
			    said[0] ? said : r.err[0] ? r.err : "nothing on the console says why");
		col_free(r.col);
	}
	m->secs = r.wall_s;
	struct rbuf killers = {0};
	size_t nk = 0;
	for (size_t i = 0; r.begun && i < r.col->ncases; i++)
		if (kr_kills(base->col, r.col, r.col->cases[i].id) && nk++ < 4)
			rbuf_addf(&killers, "%s%s", killers.len ? " " : "", r.col->cases[i].id);
	/* The kernel died (a panic, or an Oops and then silence) or hung in
	 * the suite: the cells it left unreported say nothing of their own
	 * cases, so the second boot runs the same programs. */
	char said[240] = "", what[400] = "";
	bool dead = r.begun && r.end == RUN_PANIC, hung = r.begun && r.end == RUN_TIMEOUT;
	if (dead) {
		panic_said(r.console, said, sizeof said);
		if (r.oops_silent)
			snprintf(what, sizeof what, "kernel failure, then no output for %d s: %.250s",
				 KR_OOPS_SILENCE_S, said[0] ? said : r.err);
		else
			snprintf(what, sizeof what, "kernel panic: %.250s",
				 said[0] ? said : "nothing on the console says why");
	} else if (hung && r.case_silent) {
		snprintf(what, sizeof what, "%.300s (id 0's longest case: %d s)", r.err,
			 (e->case_silence_s - KR_CASE_SILENCE_SLACK_S) / KR_CASE_SILENCE_FACTOR);
	} else if (hung) {
		snprintf(what, sizeof what, "no end within %d s (its programs take %.0f s on id 0)",
			 (int)(deadline * r.stretch), expect);
	}
	/* Say when the host was slower than on id 0: the reader of a timeout
	 * kill needs to know that the deadline allowed for it. */
	if (hung && r.stretch > 1) {
		size_t used = strlen(what);
		snprintf(what + used, sizeof what - used, " (deadlines x%.1f: booted in %.0f s, "
			 "id 0 in %.0f s)", r.stretch, r.boot_s, base->boot_s);
	}
	int again = -1; /* a second boot: 1 bad again, 0 passed, -1 said nothing */
	char stuck[200];
	if (!kr_interrupted && hung && r.case_silent && hung_programs(e, r.col, filter, stuck,
									 sizeof stuck)) {
		/* A hang in one program: the programs it left half done
		 * alone first; a hang that needs the programs before them to
		 * show is confirmed as before, with all of them. */
		ku_progress("mutants: %s: %s alone first", m->key, stuck);
		again = confirm_kill(e, ki, base, m, what, stuck, true);
		if (again == 0 && !kr_interrupted)
			again = confirm_kill(e, ki, base, m, what, filter, true);
	} else if (!kr_interrupted && (dead || hung))
		again = confirm_kill(e, ki, base, m, what, filter, true);
	else if (!kr_interrupted && nk && r.end != RUN_TIMEOUT) {
		again = confirm_kill(e, ki, base, m, rbuf_str(&killers), filter, false);
		if (again == 0 && !kr_interrupted)
			again = confirm_in_order(e, ki, base, m, rbuf_str(&killers), filter);
	}
	const char *twice = again == 1 ? ", again on a second boot"
			  : again == -1 ? " (a second boot did not reach the suite)" : "";
	e->deadline_s = saved;
	e->oops_silence_s = 0;
	e->case_silence_s = 0;
	e->ref_boot_s = 0;
	unsetenv("TTYPOT_KERNEL_ARGS");
	if (kr_interrupted) {
		/* stays pending: --resume runs it again */
	} else if (again == 0) {
		m->status = MS_SURVIVED;
		snprintf(m->reason, sizeof m->reason, "%s %.250s", MUT_NOT_REPEATED,
			 what[0] ? what : rbuf_str(&killers));
	} else if (r.end == RUN_TIMEOUT && !r.begun) {
		m->status = MS_KILLED_TIMEOUT;
		snprintf(m->reason, sizeof m->reason, "no suite within the boot deadline of %d s "
			 "(id 0 boots in %.0f s), twice", e->boot_deadline_s, base->boot_s);
	} else if (hung) {
		m->status = MS_KILLED_TIMEOUT;
		snprintf(m->reason, sizeof m->reason, "%s%s%s%.120s", what, twice,
			 nk ? ": " : "", rbuf_str(&killers));
	} else if (dead) {
		m->status = MS_KILLED;
		snprintf(m->reason, sizeof m->reason, "%.200s%s%s%.120s", what, twice,
			 nk ? ": " : "", rbuf_str(&killers));
	} else if (nk) {
		m->status = MS_KILLED;
		snprintf(m->reason, sizeof m->reason, "%s", rbuf_str(&killers));
	} else if (r.begun && (column_warning_count(r.col) > column_warning_count(base->col) ||
			       (column_taint_appeared(r.col) && !column_taint_appeared(base->col)))) {
		/* Nothing a program read differed; the kernel itself complained. */
		m->status = MS_KILLED_WARNING;
		const char *w = r.col->nkw ? r.col->kw[r.col->nkw - 1].text : "new taint";
		char progs[160] = "";
		if (r.col->nkw && r.col->kw[r.col->nkw - 1].cases.n)
			snprintf(progs, sizeof progs, " (running: %s)",
				 r.col->kw[r.col->nkw - 1].cases.v[0]);
		snprintf(m->reason, sizeof m->reason, "kernel warning: %.200s%s", w, progs);
	} else if (!r.begun && r.end == RUN_PANIC) {
		m->status = MS_KILLED;
		panic_said(r.console, said, sizeof said);
		snprintf(m->reason, sizeof m->reason, "kernel panic before the suite started, "
			 "twice%s%s", said[0] ? ": " : "", said);
	} else if (!r.begun) {
		m->status = MS_ERROR;
		snprintf(m->reason, sizeof m->reason, "no suite: %s %.250s",
			 end_name(r.col->end), r.err);
	} else {
		m->status = MS_SURVIVED;
		snprintf(m->reason, sizeof m->reason, "%zu cases of %s passed as on id 0",
			 r.col->ncases, filter ? "its programs" : "the suite");
	}
	e->boot_deadline_s = 0;
	rbuf_free(&killers);
	col_free(r.col);
}

/* run_mutant for mjobs_start. */
struct run_ctx {
	struct kr_env *e;
	const struct kernel_info *ki;
	const struct kr_result *base;
};

static void run_in_child(void *ctx, struct mutant *m)
{
	const struct run_ctx *c = ctx;
	run_mutant(c->e, c->ki, c->base, m);
}

/* What the reports say was mutated: the tty layer of GEN_SOURCE, or a
 * patch (--diff). */
static const char *gen_title = "ttypot generated mutants of the tty layer";
static char gen_source[512] = GEN_SOURCE;
/* The patch's verdict once patch_verdict made it (malloc'd), else NULL. */
static char *gen_verdict;

static void save(const char *outdir, struct mstate_params *p, const struct gen *g,
		 const unsigned char *pick, double t0, double baseline_s, double build_s)
{
	char err[600];
	struct mstate_params q = *p;
	q.wall_s += proc_now() - t0;
	/* this sitting's figures, else those of the last that had them */
	if (build_s > 0)
		q.build_s = build_s;
	if (baseline_s > 0)
		q.baseline_s = baseline_s;
	if (mstate_save(outdir, &q, g->v, g->n, pick, err, sizeof err) < 0)
		ku_progress("mutants: saving the state: %s", err);
	struct mutant *mv = calloc(p->sample ? p->sample : 1, sizeof *mv);
	size_t k = 0;
	for (size_t i = 0; i < g->n; i++)
		if (pick[i])
			mv[k++] = g->v[i].m;
	struct mutation_report_info info = {
		.title = gen_title,
		.source = gen_source, .sampled = p->sample < p->generated,
		.seed = (unsigned long)p->seed, .generated = p->generated,
		.wall_s = q.wall_s, .build_s = q.build_s, .baseline_s = q.baseline_s,
		.verdict = gen_verdict,
	};
	if (mutation_report_write(outdir, mv, k, g->src, &info, err, sizeof err) < 0)
		ku_progress("mutants: reports: %s", err);
	free(mv);
}

/* The run's last line: its sampled mutants by verdict.  Returns the exit
 * status: 2 interrupted or mutants pending, 1 survivors, else 0. */
static int print_tally(const struct mstate_params *sp, const struct gen *g,
		       const unsigned char *pick, double t0, const char *outdir)
{
	size_t tally[MS__N] = {0};
	for (size_t i = 0; i < g->n; i++)
		if (pick[i])
			tally[g->v[i].m.status]++;
	size_t killed = tally[MS_KILLED] + tally[MS_KILLED_TIMEOUT] + tally[MS_KILLED_WARNING];
	printf("ttypot: mutants: %zu sampled of %zu: %zu killed (%zu by timeout, %zu by a "
	       "warning), %zu survived, %zu equivalent, %zu not covered, %zu uncompilable, "
	       "%zu errors, %zu pending; score %.1f %% in %.0f s; reports in %s\n",
	       sp->sample, sp->generated, killed, tally[MS_KILLED_TIMEOUT],
	       tally[MS_KILLED_WARNING], tally[MS_SURVIVED], tally[MS_EQUIVALENT],
	       tally[MS_NOT_COVERED], tally[MS_UNCOMPILABLE], tally[MS_ERROR],
	       tally[MS_PENDING], killed + tally[MS_SURVIVED] ?
	       100.0 * (double)killed / (double)(killed + tally[MS_SURVIVED]) : 0.0,
	       proc_now() - t0, outdir);
	return kr_interrupted || tally[MS_PENDING] ? 2 : tally[MS_SURVIVED] ? 1 : 0;
}

/* A mutant decided (here or in a child): said and saved. */
static void decided(const struct mutant *m, const struct gopts *o, struct mstate_params *p,
		    const struct gen *g, const unsigned char *pick, double t0,
		    double baseline_s, double build_s)
{
	if (!m)
		return;
	ku_progress("mutants: %s: %s %.200s (%.0f s)", m->key, mut_status_name(m->status),
		    m->reason, m->secs);
	save(o->outdir, p, g, pick, t0, baseline_s, build_s);
}

/* The patch's verdict (mutants_verdict.h) on stdout and kept in
 * gen_verdict, which the next save() writes at the end of mutation.md, into
 * mutation-report.json and atop mutation.html.  Returns the exit status: 1
 * survivors, else 0. */
static int patch_verdict(const struct gopts *o, const struct ps_change *chg,
			 const struct gen *g, const unsigned char *pick,
			 const struct cover_map *map, const struct ps_counts *pc,
			 const char *others)
{
	struct rbuf v = {0};
	struct verdict_in in = { .change = chg, .v = g->v, .n = g->n, .pick = pick,
				 .file_text = gen_text, .ctx = g, .map = map, .counts = pc,
				 .others = others };
	verdict_write(&in, &v);
	fputs(rbuf_str(&v), stdout);
	free(gen_verdict);
	gen_verdict = strdup(rbuf_str(&v));
	char md[PATH_MAX + 16];
	int rc = 0;
	struct mutant *mv = calloc(g->n ? g->n : 1, sizeof *mv);
	size_t k = 0;
	for (size_t i = 0; i < g->n; i++)
		if (pick[i]) {
			rc |= g->v[i].m.status == MS_SURVIVED;
			mv[k++] = g->v[i].m;
		}
	/* The same mutants as KCIDB tests, beside a matrix's kcidb.json. */
	struct rbuf kj = {0};
	mutation_report_kcidb(mv, k, chg->head, gen_source, &kj);
	snprintf(md, sizeof md, "%s/kcidb.json", o->outdir);
	if (ku_write_file(md, kj.s, kj.len) < 0)
		ku_progress("mutants: cannot write %s", md);
	rbuf_free(&kj);
	free(mv);
	rbuf_free(&v);
	return rc;
}

int cmd_mutants_generate(int argc, char **argv)
{
	struct gopts o;
	char err[1024];
	double t0 = proc_now();
	int pr = parse(argc, argv, &o);
	if (pr)
		return pr > 0 ? 0 : 2;
	kr_install_signals();
	struct kr_env e;
	char workdir[PATH_MAX];
	snprintf(workdir, sizeof workdir, "%s/mutation-raw", o.outdir);
	if (kr_env_init(&e, o.suite, argv[0], o.cache, workdir, o.deadline_s, err,
			sizeof err) < 0) {
		fprintf(stderr, "ttypot: mutants: %s\n", err);
		kr_env_free(&e);
		return 2;
	}
	int rc = 2;
	struct gen g = {0};
	unsigned char *pick = NULL, *ppick = NULL;
	struct ps_change chg = {0};
	bool have_chg = false;
	struct rbuf pfiles = {0}, pothers = {0};
	struct ps_counts pc = {0};
	struct cover_map map = {0};
	bool have_map = false;
	if (o.map && strcmp(o.map, "none") && !ku_is_file(o.map)) {
		fprintf(stderr, "ttypot: mutants: --map %s: no such file (make coverage writes "
			"reports/cover.map)\n", o.map);
		goto out;
	}
	if (!o.files && !o.diff)
		o.files = GEN_FILES;
	snprintf(g.src, sizeof g.src, "%s/src/%s", e.cache, GEN_SOURCE);
	char mark[PATH_MAX + 32];
	snprintf(mark, sizeof mark, "%s/.ttypot-unpacked", g.src);
	if (o.diff) {
		if (ps_read(o.tree, o.diff, &chg, err, sizeof err) < 0) {
			fprintf(stderr, "ttypot: mutants: %s\n", err);
			goto out;
		}
		have_chg = true;
		ps_files(&chg, &pfiles, &pothers);
		if (o.files)
			keep_listed(&pfiles, o.files);
		o.files = rbuf_str(&pfiles);
		snprintf(g.src, sizeof g.src, "%s", chg.tree);
		gen_title = "ttypot mutants of a patch's lines";
		snprintf(gen_source, sizeof gen_source, "--diff %s in %s (HEAD %.12s)", chg.spec,
			 chg.tree, chg.head);
		ku_progress("mutants: --diff %s: files changed: %zu; C files under drivers/tty: %s",
			    chg.spec, chg.diff.n, o.files[0] ? o.files : "none");
	} else if (!ku_is_file(mark)) {
		ku_progress("mutants: unpacking (and building) src:%s first", GEN_SOURCE);
		struct kernel_info ki;
		if (kr_resolve(&e, "src:" GEN_SOURCE, &ki, NULL, err, sizeof err) < 0) {
			fprintf(stderr, "ttypot: mutants: src:%s: %s\n", GEN_SOURCE, err);
			goto out;
		}
	}
	if (generate(&g, e.cache, e.suite, o.files, err, sizeof err) < 0) {
		fprintf(stderr, "ttypot: mutants: generating: %s\n", err);
		goto out;
	}
	if (have_chg) {
		ppick = calloc(g.n ? g.n : 1, 1);
		ps_select(&chg.diff, g.v, g.n, gen_text, &g, ppick, &pc);
		ku_progress("mutants: --diff %s: %zu changed lines (%zu arid), %zu mutants on them: "
			    "%zu on arid lines and %zu in constant contexts left out, %zu to run",
			    chg.spec, pc.lines, pc.arid_lines, pc.touched, pc.arid, pc.constant,
			    pc.picked);
	}
	if (o.list) {
		for (size_t i = 0; have_chg && i < g.n; i++)
			if (!ppick[i])
				g.v[i].constant = "not in the patch"; /* list_mutants skips it */
		list_mutants(&g);
		rc = 0;
		goto out;
	}
	if (o.patch) {
		rc = write_patch(&g, o.patch, o.outdir);
		goto out;
	}
	pick = calloc(g.n ? g.n : 1, 1);
	struct mstate_params sp = { .seed = (unsigned long long)o.seed, .generated = g.n };
	char *src_mark = have_chg ? xstrdup(gen_source) : ku_read_file(mark, NULL);
	snprintf(sp.source, sizeof sp.source, "%.*s", (int)strcspn(src_mark ? src_mark : "", "\n"),
		 src_mark ? src_mark : "");
	free(src_mark);
	snprintf(sp.rules, sizeof sp.rules, "%s", g.rhash);
	char statef[PATH_MAX + 32];
	snprintf(statef, sizeof statef, "%s/mutation-state.json", o.outdir);
	if (o.resume) {
		struct mstate_params have = {0};
		if (mstate_load(o.outdir, &have, g.v, g.n, pick, err, sizeof err) < 0) {
			fprintf(stderr, "ttypot: mutants: --resume %s: %s\n", o.resume, err);
			goto out;
		}
		if (strcmp(have.source, sp.source) || strcmp(have.rules, sp.rules)) {
			fprintf(stderr, "ttypot: mutants: --resume %s: that run used another source "
				"or other rules (%s)\n", o.resume, statef);
			goto out;
		}
		sp = have;
		/* a pending mutant's programs are chosen again, with the map as
		 * it is now */
		for (size_t i = 0; i < g.n; i++)
			if (pick[i] && g.v[i].m.status == MS_PENDING)
				g.v[i].m.covered_by[0] = '\0';
		size_t k = drop_constants(&g, pick, &sp.sample);
		if (k)
			ku_progress("mutants: %zu pending mutants in constant contexts left out", k);
		ku_progress("mutants: resuming %s: %zu mutants of %zu, seed %llu", o.outdir,
			    sp.sample, sp.generated, sp.seed);
		if ((o.rerun_survivors || o.rerun) &&
		    reopen_verdicts(&g, pick, o.rerun_survivors, o.rerun) < 0)
			goto out;
	} else {
		if (ku_is_file(statef)) {
			fprintf(stderr, "ttypot: mutants: %s holds a run (%s): --resume %s continues "
				"it, or give another -o\n", o.outdir, statef, o.outdir);
			goto out;
		}
		if (have_chg) {
			memcpy(pick, ppick, g.n);
			sp.sample = pc.picked;
			if (o.sample && (size_t)o.sample < pc.picked)
				sp.sample = sample_patch(&g, pick, (size_t)o.sample, sp.seed);
		} else if (o.keys) {
			char *list = xstrdup(o.keys);
			bool bad = false;
			for (char *t = strtok(list, ", "); t; t = strtok(NULL, ", ")) {
				const struct gmut *m = find_key(&g, t);
				if (!m) {
					fprintf(stderr, "ttypot: mutants: --keys: %s: no such mutant "
						"(--list shows them)\n", t);
					bad = true;
				} else if (m->constant) {
					fprintf(stderr, "ttypot: mutants: --keys: %s is in %s, where no "
						"runtime guard can go: --patch %s writes it for "
						"ttypot mutants PATCH\n", t, m->constant, t);
					bad = true;
				} else if (!pick[m - g.v]) {
					pick[m - g.v] = 1;
					sp.sample++;
				}
			}
			free(list);
			if (bad)
				goto out;
		} else {
			/* Drawn over every mutant, then the constant ones dropped:
			 * the draw of a seed is the same as before they were. */
			sp.sample = sample_pick(g.v, g.n, o.sample ? (size_t)o.sample : g.n,
						sp.seed, pick);
			size_t k = drop_constants(&g, pick, &sp.sample);
			if (k)
				ku_progress("mutants: %zu of the draw in constant contexts left out",
					    k);
		}
		sp.generated = have_chg ? pc.picked : g.n - g.nconst;
		ku_progress("mutants: sample of %zu of %zu mutants (seed %llu)", sp.sample,
			    sp.generated, sp.seed);
	}
	if (mkdir_p(o.outdir) < 0 || mkdir_p(workdir) < 0) {
		fprintf(stderr, "ttypot: mutants: %s: %s\n", o.outdir, strerror(errno));
		goto out;
	}
	save(o.outdir, &sp, &g, pick, t0, 0, 0);
	size_t npending = 0;
	for (size_t i = 0; i < g.n; i++)
		npending += pick[i] && g.v[i].m.status == MS_PENDING;
	if (!npending && !have_chg) {
		/* Every mutant decided (--resume of a finished run): the reports
		 * are written again, nothing is built or booted. */
		ku_progress("mutants: nothing pending in %s: reports written again", o.outdir);
		rc = print_tally(&sp, &g, pick, t0, o.outdir);
		goto out;
	}
	if (have_chg && !npending) {
		/* Nothing to run (a patch with nothing to mutate, or every mutant
		 * decided); the map still tells the lines no program executes. */
		char mapf[PATH_MAX + 32];
		snprintf(mapf, sizeof mapf, "%s", o.map ? o.map : "");
		if (!o.map)
			snprintf(mapf, sizeof mapf, "%s/reports/cover.map", e.suite);
		have_map = strcmp(mapf, "none") && ku_is_file(mapf) &&
			   cover_load(mapf, &map, err, sizeof err) == 0;
		rc = patch_verdict(&o, &chg, &g, pick, have_map ? &map : NULL, &pc,
				   rbuf_str(&pothers));
		save(o.outdir, &sp, &g, pick, t0, 0, 0);
		goto out;
	}
	char cases[2048] = "";
	if (o.cases) {
		snprintf(cases, sizeof cases, "%s", o.cases);
		for (char *p = cases; *p; p++)
			if (*p == ',')
				*p = ' ';
	}
	/* The schemata kernel: the sampled mutants still pending. */
	unsigned char *in = calloc(g.n ? g.n : 1, 1);
	for (size_t i = 0; i < g.n; i++)
		in[i] = pick[i] && g.v[i].m.status == MS_PENDING;
	struct kr_env me = e;
	char mroot[PATH_MAX + 48], tree[PATH_MAX + 96], bdir[PATH_MAX];
	/* A tree and build of its own per output directory: two runs (a
	 * sample, make check's test) never rebuild each other's kernel. */
	char outreal[PATH_MAX], ohex[65];
	if (!realpath(o.outdir, outreal))
		snprintf(outreal, sizeof outreal, "%s", o.outdir);
	ku_sha256_hex(outreal, strlen(outreal), ohex);
	snprintf(mroot, sizeof mroot, "%s/mutation/run-%.12s", e.cache, ohex);
	ku_mkdir_p(mroot, 0755);
	char lockp[PATH_MAX + 32];
	snprintf(lockp, sizeof lockp, "%s/run.lock", mroot);
	int run_lock = ku_lock(lockp, 0, "mutants");
	if (run_lock < 0) {
		fprintf(stderr, "ttypot: mutants: another ttypot mutants runs on %s\n", o.outdir);
		goto out;
	}
	/* --tree DIR's copy keeps DIR's name: a DIR named as the src: source
	 * gives the src: build's relative paths, which ccache (CCACHE_BASEDIR)
	 * needs to reuse its objects. */
	const char *tname = have_chg ? strrchr(chg.tree, '/') : NULL;
	snprintf(tree, sizeof tree, "%s/src/%s", mroot, tname && tname[1] ? tname + 1 :
		 have_chg ? "tree" : GEN_SOURCE);
	snprintf(me.cache, sizeof me.cache, "%s", mroot);
	char ident[PATH_MAX + 200];
	if (have_chg)
		tree_ident(&chg, ident, sizeof ident);
	if ((have_chg ? mtree_prepare_ident(g.src, tree, ident, err, sizeof err)
		      : mtree_prepare(g.src, tree, err, sizeof err)) < 0) {
		fprintf(stderr, "ttypot: mutants: the schemata tree: %s\n", err);
		free(in);
		goto out;
	}
	/* Mutated files outside drivers/tty: the header in their directories. */
	for (size_t f = 0; f < g.nfiles; f++) {
		char dir[PATH_MAX];
		snprintf(dir, sizeof dir, "%s", g.files[f]);
		char *slash = strrchr(dir, '/');
		if (slash)
			*slash = '\0';
		if (!slash || !strncmp(dir, "drivers/tty", 11))
			continue;
		if (mtree_include_in(g.src, tree, dir, err, sizeof err) < 0) {
			fprintf(stderr, "ttypot: mutants: the schemata tree: %s\n", err);
			free(in);
			goto out;
		}
	}
	kr_ccache_basedir(tree, e.cache);
	tree_build_dir(mroot, tree, bdir, sizeof bdir);
	seed_build(e.cache, have_chg ? g.src : NULL, tree, bdir);
	struct kernel_info ki;
	double build_s = 0;
	if (build_schemata(&me, &g, in, tree, &ki, &build_s, err, sizeof err) < 0) {
		fprintf(stderr, "ttypot: mutants: the schemata kernel: %s\n", err);
		save(o.outdir, &sp, &g, pick, t0, 0, build_s);
		free(in);
		goto out;
	}
	ku_progress("mutants: schemata kernel built in %.0f s", build_s);
	struct gmut **order = calloc(g.n ? g.n : 1, sizeof *order);
	size_t norder = 0;
	for (size_t i = 0; i < g.n; i++)
		if (in[i])
			order[norder++] = &g.v[i];
	free(in);
	equivalence_triage(bdir, workdir, order, norder);
	save(o.outdir, &sp, &g, pick, t0, 0, build_s);
	/* The baseline: the same image as mutant 0, the whole suite. */
	ku_progress("mutants: baseline: the schemata kernel as id 0, whole suite");
	unsetenv("TTYPOT_KERNEL_ARGS");
	struct kr_result base;
	kr_run(&me, &ki, "baseline-id0", cases[0] ? cases : NULL, NULL, false, &base);
	if (!base.begun || base.col->end != END_DONE) {
		fprintf(stderr, "ttypot: mutants: id 0 did not complete the suite (%s%s%s): "
			"nothing to compare against\n", end_name(base.col->end),
			base.err[0] ? ": " : "", base.err);
		col_free(base.col);
		free(order);
		goto out;
	}
	long bpass = 0, bbad = 0;
	for (size_t i = 0; i < base.col->ncases; i++) {
		bpass += base.col->cases[i].st == ST_PASS;
		bbad += status_bad(base.col->cases[i].st);
	}
	ku_progress("mutants: id 0: %zu cases, %ld pass, %ld bad (boot %.1f s, suite %.1f s)",
		    base.col->ncases, bpass, bbad, base.boot_s, base.suite_s);
	double baseline_s = base.wall_s;
	write_baseline(o.outdir, base.col);
	/* Coverage triage, when the runs start (the map may be made while the
	 * kernel builds and the objects are compared). */
	char mapdef[PATH_MAX + 32];
	snprintf(mapdef, sizeof mapdef, "%s/reports/cover.map", e.suite);
	const char *mapf = o.map ? o.map : mapdef;
	bool map_none = o.map && !strcmp(o.map, "none");
	if (map_none) {
		ku_progress("mutants: --map none: every mutant runs %s",
			    o.cases ? "the --cases programs" : "the whole suite");
	} else if (cover_load(mapf, &map, err, sizeof err) == 0) {
		have_map = true;
		map_loaded(&map, &e);
	} else if (o.map) {
		fprintf(stderr, "ttypot: mutants: --map: %s\n", err);
		{ col_free(base.col); free(order); goto out; }
	} else {
		ku_progress("mutants: no coverage map yet (%s): a mutant runs the whole suite "
			    "unless make coverage writes the map before its turn", err);
	}
	struct rbuf unmapped = {0};
	if (have_map)
		note_unmapped(&map, base.col, &unmapped);
	size_t uncovered = 0;
	for (size_t i = 0; i < g.n; i++) {
		struct mutant *m = &g.v[i].m;
		if (!pick[i] || m->status != MS_PENDING || m->covered_by[0])
			continue;
		if (!have_map)
			continue; /* decided when it runs: the map may come by then */
		(have_chg ? fn_triage : cover_triage)(&g, &map, rbuf_str(&unmapped), m);
		if (cases[0] && m->status == MS_PENDING)
			restrict_to(m, cases);
		uncovered += m->status == MS_NOT_COVERED;
	}
	ku_progress("mutants: coverage: %zu sampled mutants on lines no program executes",
		    uncovered);
	save(o.outdir, &sp, &g, pick, t0, baseline_s, build_s);
	size_t todo = 0, done = 0;
	for (size_t i = 0; i < norder; i++)
		todo += order[i]->m.status == MS_PENDING;
	struct mjobs jobs;
	mjobs_init(&jobs, o.jobs);
	struct run_ctx rc_ctx = { &me, &ki, &base };
	for (size_t i = 0; i < norder && !kr_interrupted; i++) {
		struct mutant *m = &order[i]->m;
		if (m->status != MS_PENDING)
			continue;
		/* A map written while this run built and compared (make coverage
		 * beside it) is used from the next mutant on. */
		if (!have_map && !map_none && ku_is_file(mapf) &&
		    cover_load(mapf, &map, err, sizeof err) == 0) {
			have_map = true;
			ku_progress("mutants: coverage map %s: used from here on", mapf);
			map_loaded(&map, &e);
			note_unmapped(&map, base.col, &unmapped);
		}
		if (!m->covered_by[0]) {
			if (have_map)
				(have_chg ? fn_triage : cover_triage)(&g, &map, rbuf_str(&unmapped), m);
			else
				snprintf(m->covered_by, sizeof m->covered_by, "*");
			if (cases[0] && m->status == MS_PENDING)
				restrict_to(m, cases);
			if (m->status != MS_PENDING) {
				save(o.outdir, &sp, &g, pick, t0, baseline_s, build_s);
				continue;
			}
		} else if (unmapped.len) {
			/* chosen in an earlier sitting, before these programs were */
			add_programs(m, rbuf_str(&unmapped));
			if (cases[0])
				restrict_to(m, cases);
		}
		done++;
		ku_progress("mutants: [%zu/%zu] %s (%s: %s -> %s), programs: %.120s", done, todo,
			    m->key, m->func, m->orig, m->repl, m->covered_by);
		if (o.jobs > 1) {
			/* every slot taken: the first to end frees one */
			if (jobs.n == jobs.max)
				decided(mjobs_wait(&jobs, &kr_interrupted), &o, &sp, &g, pick, t0,
					baseline_s, build_s);
			if (mjobs_start(&jobs, run_in_child, &rc_ctx, m) == 0)
				continue;
			ku_progress("mutants: %s: no child process (%s): run here", m->key,
				    strerror(errno));
		}
		run_mutant(&me, &ki, &base, m);
		decided(m, &o, &sp, &g, pick, t0, baseline_s, build_s);
	}
	for (struct mutant *m; (m = mjobs_wait(&jobs, &kr_interrupted));)
		decided(m, &o, &sp, &g, pick, t0, baseline_s, build_s);
	mjobs_free(&jobs);
	col_free(base.col);
	free(order);
	rbuf_free(&unmapped);
	save(o.outdir, &sp, &g, pick, t0, baseline_s, build_s);
	rc = print_tally(&sp, &g, pick, t0, o.outdir);
	if (have_chg) {
		int v = patch_verdict(&o, &chg, &g, pick, have_map ? &map : NULL, &pc,
				      rbuf_str(&pothers));
		save(o.outdir, &sp, &g, pick, t0, baseline_s, build_s);
		rc = rc == 2 ? 2 : v;
	}
out:
	free(gen_verdict);
	gen_verdict = NULL;
	if (have_map)
		cover_free(&map);
	for (size_t i = 0; i < g.nfiles; i++) {
		free(g.files[i]);
		free(g.texts[i]);
	}
	free(g.files);
	free(g.texts);
	free(g.v);
	free(pick);
	free(ppick);
	ps_free(&chg);
	rbuf_free(&pfiles);
	rbuf_free(&pothers);
	kr_env_free(&e);
	return rc;
}
