// SPDX-License-Identifier: GPL-2.0-only
/* mtree.c: the schemata tree and single-object compiles (mtree.h). */
#include "mtree.h"
#include "kutil.h"
#include "proc.h"
#include "schemata.h"

#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

/* Paths are bounded by PATH_MAX; a truncated message is only shorter. */
#pragma GCC diagnostic ignored "-Wformat-truncation"

#define MTREE_COPY_DEADLINE_MS (20 * 60 * 1000)
#define MTREE_CC_DEADLINE_MS (300 * 1000)

static const char makefile_line[] =
	"\n# ttypot mutant schemata: every object here sees ttypot_mutant.\n"
	"subdir-ccflags-y += -include $(srctree)/include/linux/ttypot_mutant.h\n";

int mtree_write(const char *tree, const char *rel, const char *text, char *err,
		size_t errlen)
{
	char path[PATH_MAX];
	snprintf(path, sizeof path, "%s/%s", tree, rel);
	size_t len = strlen(text);
	size_t have_len = 0;
	char *have = ku_read_file(path, &have_len);
	bool same = have && have_len == len && !memcmp(have, text, len);
	free(have);
	if (same)
		return 0;
	/* Never write through a hard link into the pristine tree. */
	if (unlink(path) < 0 && errno != ENOENT) {
		snprintf(err, errlen, "%s: %s", path, strerror(errno));
		return -1;
	}
	if (ku_write_file(path, text, len) < 0) {
		snprintf(err, errlen, "cannot write %s: %s", path, strerror(errno));
		return -1;
	}
	return 0;
}

int mtree_include_in(const char *pristine, const char *tree, const char *dir, char *err,
		     size_t errlen)
{
	char mk[PATH_MAX], rel[PATH_MAX];
	snprintf(mk, sizeof mk, "%s/%s/Makefile", pristine, dir);
	snprintf(rel, sizeof rel, "%s/Makefile", dir);
	char *orig = ku_read_file(mk, NULL);
	if (!orig) {
		snprintf(err, errlen, "%s: cannot read", mk);
		return -1;
	}
	size_t l = strlen(orig);
	char *text = malloc(l + sizeof makefile_line);
	memcpy(text, orig, l);
	memcpy(text + l, makefile_line, sizeof makefile_line);
	int rc = mtree_write(tree, rel, text, err, errlen);
	free(text);
	free(orig);
	return rc;
}

int mtree_prepare(const char *pristine, const char *tree, char *err, size_t errlen)
{
	char pmark[PATH_MAX];
	snprintf(pmark, sizeof pmark, "%s/.ttypot-unpacked", pristine);
	char *want = ku_read_file(pmark, NULL);
	if (!want) {
		snprintf(err, errlen, "%s: the pristine source is not unpacked", pristine);
		return -1;
	}
	int rc = mtree_prepare_ident(pristine, tree, want, err, errlen);
	free(want);
	return rc;
}

int mtree_prepare_ident(const char *pristine, const char *tree, const char *ident, char *err,
			size_t errlen)
{
	char tmark[PATH_MAX];
	snprintf(tmark, sizeof tmark, "%s/.ttypot-mutation-base", tree);
	char *want = xstrdup(ident);
	char *have = ku_read_file(tmark, NULL);
	bool fresh = have && !strcmp(have, want);
	free(have);
	int rc = 0;
	if (!fresh) {
		char tmp[PATH_MAX + 8], parent[PATH_MAX];
		snprintf(tmp, sizeof tmp, "%s.tmp", tree);
		snprintf(parent, sizeof parent, "%s", tree);
		char *slash = strrchr(parent, '/');
		if (slash)
			*slash = '\0';
		ku_rm_rf(tmp);
		ku_rm_rf(tree);
		ku_mkdir_p(parent, 0755);
		ku_progress("mutants: linking %s to %s", pristine, tree);
		const char *argv[] = { "cp", "-al", pristine, tmp, NULL };
		struct proc_opts o = { .deadline_ms = MTREE_COPY_DEADLINE_MS };
		if (proc_check(argv, &o, err, errlen) < 0 || rename(tmp, tree) < 0) {
			if (!err[0])
				snprintf(err, errlen, "cannot rename %s: %s", tmp, strerror(errno));
			ku_rm_rf(tmp);
			free(want);
			return -1;
		}
	}
	rc = mtree_include_in(pristine, tree, "drivers/tty", err, errlen);
	if (rc == 0)
		rc = mtree_write(tree, "include/linux/ttypot_mutant.h", schemata_header, err,
				 errlen);
	if (rc == 0 && ku_write_file(tmark, want, strlen(want)) < 0) {
		snprintf(err, errlen, "cannot write %s", tmark);
		rc = -1;
	}
	free(want);
	return rc;
}

/* The shell command compiling rel as build_dir's .cmd file says, with
 * -DTTYPOT_MUTANT_CONST=id, into out_obj.  0, or -1 with a message. */
static int const_command(const char *build_dir, const char *rel, unsigned id,
			 const char *out_obj, struct rbuf *sh, char *err, size_t errlen)
{
	/* drivers/tty/n_tty.c -> drivers/tty/.n_tty.o.cmd */
	char cmdf[PATH_MAX], obj[PATH_MAX];
	const char *base = strrchr(rel, '/');
	int dl = base ? (int)(base - rel) : 0;
	base = base ? base + 1 : rel;
	int bl = (int)strlen(base) - 2;
	if (bl <= 0 || strcmp(base + bl, ".c")) {
		snprintf(err, errlen, "%s: not a C file", rel);
		return -1;
	}
	snprintf(cmdf, sizeof cmdf, "%s/%.*s/.%.*s.o.cmd", build_dir, dl, rel, bl, base);
	snprintf(obj, sizeof obj, "%.*s/%.*s.o", dl, rel, bl, base);
	char *text = ku_read_file(cmdf, NULL);
	if (!text) {
		snprintf(err, errlen, "%s: no compile command (was the tree built?)", cmdf);
		return -1;
	}
	/* "savedcmd_drivers/tty/n_tty.o := gcc ... -c -o drivers/tty/n_tty.o SRC ; objtool ..." */
	char *cmd = strstr(text, ":= ");
	char *nl = cmd ? strchr(cmd, '\n') : NULL;
	if (nl)
		*nl = '\0';
	char *semi = cmd ? strstr(cmd, " ; ") : NULL;
	if (semi)
		*semi = '\0';
	char want[PATH_MAX + 8];
	snprintf(want, sizeof want, "-o %s ", obj);
	char *o = cmd ? strstr(cmd, want) : NULL;
	if (!o) {
		snprintf(err, errlen, "%s: no '-o %s' in its command", cmdf, obj);
		free(text);
		return -1;
	}
	*o = '\0';
	/* Without the dependency file option: it would overwrite the build's. */
	char *md = strstr(cmd + 3, "-Wp,-MMD,");
	if (md)
		memset(md, ' ', strcspn(md, " "));
	rbuf_addf(sh, "%s -DTTYPOT_MUTANT_CONST=%u -o %s %s", cmd + 3, id, out_obj,
		  o + strlen(want));
	free(text);
	return 0;
}

int mtree_compile_const(const char *build_dir, const char *rel, unsigned id,
			const char *out_obj, struct rbuf *diag, char *err, size_t errlen)
{
	struct rbuf sh = {0};
	if (const_command(build_dir, rel, id, out_obj, &sh, err, errlen) < 0)
		return -1;
	const char *argv[] = { "sh", "-c", rbuf_str(&sh), NULL };
	struct proc_opts po = { .cwd = build_dir, .deadline_ms = MTREE_CC_DEADLINE_MS };
	struct proc_result *pr = malloc(sizeof *pr);
	int st = proc_run(argv, &po, pr);
	int rc = 0;
	if (st < 0 || pr->timed_out) {
		snprintf(err, errlen, "compiling %s for mutant %u: %s", rel, id,
			 st < 0 ? pr->err : "deadline passed");
		rc = -1;
	} else if (st != 0) {
		if (diag)
			rbuf_addn(diag, pr->out, pr->out_len);
		rc = 1;
	}
	free(pr);
	rbuf_free(&sh);
	return rc;
}

/* The compiler's first error line in a log, malloc'd. */
static char *first_error(const char *log)
{
	char *text = ku_read_file(log, NULL);
	const char *e = text ? strstr(text, "error:") : NULL;
	char line[300];
	snprintf(line, sizeof line, "%.*s", e ? (int)strcspn(e, "\n") : 0, e ? e : "");
	free(text);
	return xstrdup(line[0] ? line : "the compiler failed");
}

void mtree_compile_batch(const char *build_dir, const char *rel, const unsigned *ids,
			 size_t n, const char *workdir, int jobs, int *res, char **diag)
{
	pid_t *pid = calloc(n ? n : 1, sizeof *pid);
	double *start = calloc(n ? n : 1, sizeof *start);
	size_t next = 0, running = 0, finished = 0;
	while (finished < n) {
		while (running < (size_t)jobs && next < n) {
			size_t i = next++;
			char obj[PATH_MAX], log[PATH_MAX], err[600];
			snprintf(obj, sizeof obj, "%s/mut-%u.o", workdir, ids[i]);
			snprintf(log, sizeof log, "%s/mut-%u.log", workdir, ids[i]);
			struct rbuf sh = {0};
			res[i] = -1;
			diag[i] = NULL;
			if (const_command(build_dir, rel, ids[i], obj, &sh, err, sizeof err) < 0) {
				diag[i] = xstrdup(err);
				finished++;
				continue;
			}
			const char *argv[] = { "sh", "-c", rbuf_str(&sh), NULL };
			struct proc_opts po = { .cwd = build_dir, .stdout_path = log,
						.stderr_path = log };
			pid[i] = proc_spawn(argv, &po, err, sizeof err);
			rbuf_free(&sh);
			if (pid[i] < 0) {
				diag[i] = xstrdup(err);
				finished++;
				continue;
			}
			start[i] = proc_now();
			running++;
		}
		for (size_t i = 0; i < next; i++) {
			int st;
			if (pid[i] <= 0)
				continue;
			if (proc_now() - start[i] > MTREE_CC_DEADLINE_MS / 1000) {
				proc_kill(pid[i], 1000);
				diag[i] = xstrdup("the compile passed its deadline");
			} else if (proc_poll_exit(pid[i], &st)) {
				char log[PATH_MAX];
				snprintf(log, sizeof log, "%s/mut-%u.log", workdir, ids[i]);
				res[i] = st == 0 ? 0 : 1;
				if (st != 0)
					diag[i] = first_error(log);
				unlink(log);
			} else {
				continue;
			}
			pid[i] = 0;
			running--;
			finished++;
		}
		struct timespec ts = { 0, 50 * 1000000L };
		nanosleep(&ts, NULL);
	}
	free(pid);
	free(start);
}

/* The object without debug information, notes and the compiler's comment. */
static int stripped(const char *in, const char *out, char *err, size_t errlen)
{
	const char *argv[] = { "objcopy", "--strip-debug", "-R", ".comment", "-R",
			       ".note.GNU-stack", "-R", ".note.gnu.property", in, out, NULL };
	struct proc_opts o = { .deadline_ms = 60000 };
	return proc_check(argv, &o, err, errlen);
}

int mtree_same_code(const char *a, const char *b, char *err, size_t errlen)
{
	char sa[PATH_MAX], sb[PATH_MAX];
	snprintf(sa, sizeof sa, "%s.strip", a);
	snprintf(sb, sizeof sb, "%s.strip", b);
	int rc = -1;
	if (stripped(a, sa, err, errlen) == 0 && stripped(b, sb, err, errlen) == 0) {
		size_t la, lb;
		char *ta = ku_read_file(sa, &la), *tb = ku_read_file(sb, &lb);
		if (!ta || !tb)
			snprintf(err, errlen, "cannot read %s or %s", sa, sb);
		else
			rc = la == lb && !memcmp(ta, tb, la);
		free(ta);
		free(tb);
	}
	unlink(sa);
	unlink(sb);
	return rc;
}
