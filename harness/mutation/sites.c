// SPDX-License-Identifier: GPL-2.0-only
/* sites.c: run the Coccinelle rules and read their site lines (sites.h). */
#include "sites.h"
#include "kutil.h"
#include "proc.h"
#include "rbuf.h"

#include <dirent.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* Paths are bounded by PATH_MAX; a truncated message is only shorter. */
#pragma GCC diagnostic ignored "-Wformat-truncation"

/* spatch on one file under TCG-loaded cores: seconds, not minutes. */
#define SPATCH_DEADLINE_MS (600 * 1000)

int site_parse(const char *line, const char *src_root, struct site *s,
	       char *err, size_t errlen)
{
	if (strncmp(line, "S ", 2))
		return 1;
	char op[16], file[PATH_MAX], func[128], extra[256];
	int n = sscanf(line, "S %15s %4095s %d %d %d %d %127s %255[^\n]", op, file,
		       &s->l1, &s->c1, &s->l2, &s->c2, func, extra);
	int o = n >= 1 ? mut_op_parse(op) : -1;
	if (n != 8 || o < 0 || s->l1 < 1 || s->l2 < s->l1 || s->c1 < 0 || s->c2 < 0 ||
	    (s->l1 == s->l2 && s->c2 <= s->c1)) {
		snprintf(err, errlen, "not a site line: '%.200s'", line);
		return -1;
	}
	s->op = (enum mut_op)o;
	size_t rl = strlen(src_root);
	const char *rel = file;
	if (!strncmp(file, src_root, rl) && file[rl] == '/')
		rel = file + rl + 1;
	if (snprintf(s->file, sizeof s->file, "%s", rel) >= (int)sizeof s->file ||
	    snprintf(s->func, sizeof s->func, "%s", func) >= (int)sizeof s->func ||
	    snprintf(s->extra, sizeof s->extra, "%s", extra) >= (int)sizeof s->extra) {
		snprintf(err, errlen, "site line with a field too long: '%.200s'", line);
		return -1;
	}
	return 0;
}

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* The rule files, sorted. */
static int list_rules(const char *dir, char ***names, size_t *n, char *err, size_t errlen)
{
	DIR *d = opendir(dir);
	if (!d) {
		snprintf(err, errlen, "%s: cannot open the rules folder", dir);
		return -1;
	}
	struct dirent *de;
	*n = 0;
	*names = NULL;
	while ((de = readdir(d))) {
		size_t l = strlen(de->d_name);
		if (l > 6 && !strcmp(de->d_name + l - 6, ".cocci")) {
			*names = xrealloc(*names, (*n + 1) * sizeof **names);
			(*names)[(*n)++] = xstrdup(de->d_name);
		}
	}
	closedir(d);
	if (!*n) {
		snprintf(err, errlen, "%s: no .cocci rules", dir);
		return -1;
	}
	qsort(*names, *n, sizeof **names, cmp_str);
	return 0;
}

int sites_scan(const char *src_root, const char *rules_dir, const char *file,
	       struct site **v, size_t *n, char *err, size_t errlen)
{
	char **rules;
	size_t nrules;
	if (list_rules(rules_dir, &rules, &nrules, err, errlen) < 0)
		return -1;
	char path[PATH_MAX], inc1[PATH_MAX], inc2[PATH_MAX], inc3[PATH_MAX];
	char out[] = "/tmp/ttypot-sites.XXXXXX";
	int fd = mkstemp(out);
	int rc = fd < 0 ? -1 : 0;
	if (fd < 0)
		snprintf(err, errlen, "cannot make a temporary file for spatch's output");
	else
		close(fd);
	snprintf(path, sizeof path, "%s/%s", src_root, file);
	snprintf(inc1, sizeof inc1, "%s/include", src_root);
	snprintf(inc2, sizeof inc2, "%s/arch/x86/include", src_root);
	snprintf(inc3, sizeof inc3, "%s/include/uapi", src_root);
	if (rc == 0 && !ku_is_file(path)) {
		snprintf(err, errlen, "%s: no such source file", path);
		rc = -1;
	}
	for (size_t r = 0; rc == 0 && r < nrules; r++) {
		char rule[PATH_MAX];
		snprintf(rule, sizeof rule, "%s/%s", rules_dir, rules[r]);
		const char *argv[] = { "spatch", "--very-quiet", "--sp-file", rule,
				       "-I", inc1, "-I", inc2, "-I", inc3, path, NULL };
		struct proc_opts o = { .stdout_path = out, .stderr_path = "/dev/null",
				       .deadline_ms = SPATCH_DEADLINE_MS };
		struct proc_result pr;
		int st = proc_run(argv, &o, &pr);
		if (st != 0) {
			snprintf(err, errlen, "spatch %s on %s: %s", rules[r], file,
				 st < 0 ? pr.err : pr.timed_out ? "deadline passed" :
				 "exited non-zero (is coccinelle installed and the rule valid?)");
			rc = -1;
			break;
		}
		char *text = ku_read_file(out, NULL);
		for (char *l = text; l && *l;) {
			char *nl = strchr(l, '\n');
			if (nl)
				*nl = '\0';
			struct site s;
			char perr[300];
			int pr2 = site_parse(l, src_root, &s, perr, sizeof perr);
			if (pr2 < 0) {
				snprintf(err, errlen, "%s on %s: %s", rules[r], file, perr);
				rc = -1;
				break;
			}
			if (pr2 == 0) {
				*v = xrealloc(*v, (*n + 1) * sizeof **v);
				(*v)[(*n)++] = s;
			}
			l = nl ? nl + 1 : l + strlen(l);
		}
		free(text);
	}
	if (fd >= 0)
		unlink(out);
	for (size_t r = 0; r < nrules; r++)
		free(rules[r]);
	free(rules);
	return rc;
}
