// SPDX-License-Identifier: GPL-2.0-only
/* expectations.c: feature-keyed expected failures. */
#include "expectations.h"
#include "kernel.h"
#include "rbuf.h"

#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Compare the leading numeric components of a release ("6.1.0-27-amd64")
 * with a version ("6.2"), over the version's number of components. */
static int release_cmp(const char *rel, const char *ver)
{
	while (*ver) {
		char *e1, *e2;
		long a = strtol(rel, &e1, 10);
		long b = strtol(ver, &e2, 10);
		if (e1 == rel)
			a = 0;
		if (a != b)
			return a < b ? -1 : 1;
		rel = *e1 == '.' ? e1 + 1 : e1;
		if (*e2 != '.')
			break;
		ver = e2 + 1;
	}
	return 0;
}

static bool version_ok(const char *v)
{
	if (!*v)
		return false;
	for (const char *p = v; *p; p++)
		if (!((*p >= '0' && *p <= '9') || (*p == '.' && p[1] && p != v && p[-1] != '.')))
			return false;
	return true;
}

enum op { OP_LT, OP_LE, OP_GT, OP_GE, OP_EQ, OP_NE, OP_BAD };

/* Split "key<op>value" (term has length n).  Returns the operator. */
static enum op split_term(const char *t, size_t n, char *key, size_t klen,
			  char *val, size_t vlen)
{
	size_t k = 0;
	while (k < n && !strchr("<>=!", t[k]))
		k++;
	if (k == 0 || k == n || k >= klen)
		return OP_BAD;
	memcpy(key, t, k);
	key[k] = '\0';
	enum op op;
	size_t ol = 1;
	if (t[k] == '<' && k + 1 < n && t[k + 1] == '=') { op = OP_LE; ol = 2; }
	else if (t[k] == '>' && k + 1 < n && t[k + 1] == '=') { op = OP_GE; ol = 2; }
	else if (t[k] == '!' && k + 1 < n && t[k + 1] == '=') { op = OP_NE; ol = 2; }
	else if (t[k] == '=' && k + 1 < n && t[k + 1] == '=') { op = OP_EQ; ol = 2; }
	else if (t[k] == '<') op = OP_LT;
	else if (t[k] == '>') op = OP_GT;
	else if (t[k] == '=') op = OP_EQ;
	else return OP_BAD;
	size_t vl = n - k - ol;
	if (vl == 0 || vl >= vlen)
		return OP_BAD;
	memcpy(val, t + k + ol, vl);
	val[vl] = '\0';
	return op;
}

static const char *flavour(const char *uname)
{
	if (strstr(uname, "-rt"))
		return "rt";
	if (strstr(uname, "-cloud"))
		return "cloud";
	return "generic";
}

static const char *key_value(const char *key, const struct column *c)
{
	if (strcmp(key, "arch") == 0) return c->arch;
	if (strcmp(key, "abi") == 0) return c->abi[0] ? c->abi : "native";
	if (strcmp(key, "accel") == 0) return c->accel;
	if (strcmp(key, "label") == 0) return c->label;
	if (strcmp(key, "uname") == 0) return c->uname;
	if (strcmp(key, "flavour") == 0) return flavour(c->uname);
	return col_feature(c, key);
}

int expect_pred_check(const char *pred, char *err, size_t errlen)
{
	if (strcmp(pred, "always") == 0)
		return 0;
	for (const char *p = pred; *p;) {
		size_t n = strcspn(p, ",");
		char key[64], val[128];
		enum op op = split_term(p, n, key, sizeof key, val, sizeof val);
		if (op == OP_BAD) {
			snprintf(err, errlen, "bad predicate term '%.*s' (want KEY=VALUE, "
				 "KEY!=VALUE or release<OP>X.Y)", (int)n, p);
			return -1;
		}
		if (strcmp(key, "release") == 0) {
			if (!version_ok(val)) {
				snprintf(err, errlen, "bad version '%s' in '%.*s'", val, (int)n, p);
				return -1;
			}
		} else if (op != OP_EQ && op != OP_NE) {
			snprintf(err, errlen, "'%s' only takes = or != in '%.*s'", key, (int)n, p);
			return -1;
		} else if (strcmp(key, "arch") == 0 && !karch_canon(val)) {
			snprintf(err, errlen, "unknown architecture '%s' in '%.*s' (x86_64, arm64, "
				 "ppc64le; or Debian's amd64, ppc64el)", val, (int)n, p);
			return -1;
		} else if (strcmp(key, "abi") == 0 && strcmp(val, "native") != 0 &&
			   strcmp(val, "compat32") != 0) {
			snprintf(err, errlen, "unknown ABI '%s' in '%.*s' (native or compat32)", val,
				 (int)n, p);
			return -1;
		}
		p += n;
		if (*p)
			p++;
	}
	return 0;
}

bool expect_pred_holds(const char *pred, const struct column *c)
{
	if (strcmp(pred, "always") == 0)
		return true;
	for (const char *p = pred; *p;) {
		size_t n = strcspn(p, ",");
		char key[64], val[128];
		enum op op = split_term(p, n, key, sizeof key, val, sizeof val);
		bool ok = false;
		if (op == OP_BAD)
			return false;
		if (strcmp(key, "release") == 0) {
			if (c->uname[0]) {
				int r = release_cmp(c->uname, val);
				ok = op == OP_LT ? r < 0 : op == OP_LE ? r <= 0 :
				     op == OP_GT ? r > 0 : op == OP_GE ? r >= 0 :
				     op == OP_EQ ? r == 0 : r != 0;
			}
		} else {
			const char *have = key_value(key, c);
			/* arch=ppc64el is arch=ppc64le */
			if (strcmp(key, "arch") == 0 && karch_canon(val))
				snprintf(val, sizeof val, "%s", karch_canon(val));
			if (have && *have)
				ok = (strcmp(have, val) == 0) == (op == OP_EQ);
			else
				ok = op == OP_NE; /* unknown feature: not equal */
		}
		if (!ok)
			return false;
		p += n;
		if (*p)
			p++;
	}
	return true;
}

static bool id_matches(const char *pat, const char *id)
{
	size_t n = strlen(pat);
	if (n && pat[n - 1] == '*')
		return strncmp(pat, id, n - 1) == 0;
	return strcmp(pat, id) == 0;
}

void expect_apply(const struct expectations *e, struct column *c)
{
	for (size_t i = 0; i < c->ncases; i++) {
		struct case_result *r = &c->cases[i];
		for (size_t k = 0; k < e->n; k++) {
			const struct expectation *x = &e->v[k];
			if (x->st != r->raw || !id_matches(x->id, r->id) ||
			    (x->match && !strstr(r->reason ? r->reason : "", x->match)) ||
			    !expect_pred_holds(x->pred, c))
				continue;
			free(r->expect);
			r->expect = xstrdup(x->reason);
			r->st = r->raw == ST_SKIP ? ST_SKIP : ST_XFAIL;
			break;
		}
	}
}

int expect_load_file(struct expectations *e, const char *path, char *err,
		     size_t errlen)
{
	char msg[512];
	char *text = read_file(path, NULL, msg, sizeof msg);
	if (!text) {
		snprintf(err, errlen, "%s", msg);
		return -1;
	}
	int lineno = 0, rc = 0;
	for (char *line = text; line && *line;) {
		char *nl = strchr(line, '\n');
		if (nl)
			*nl = '\0';
		lineno++;
		char *s = line + strspn(line, " \t");
		line = nl ? nl + 1 : NULL;
		if (!*s || *s == '#')
			continue;
		char pred[256], id[512], st[160];
		int used = 0;
		if (sscanf(s, "%255s %511s %159s %n", pred, id, st, &used) < 3 || !used) {
			snprintf(err, errlen, "%s:%d: want 'PREDICATE CASE-ID STATUS REASON'",
				 path, lineno);
			rc = -1;
			break;
		}
		/* STATUS~TEXT: only a result whose reason contains TEXT */
		char *match = strchr(st, '~');
		if (match) {
			*match++ = '\0';
			if (!*match) {
				snprintf(err, errlen, "%s:%d: '%s~' needs the text the "
					 "case's reason must contain after '~'", path,
					 lineno, st);
				rc = -1;
				break;
			}
		}
		int status = status_parse(st);
		if (status != ST_FAIL && status != ST_BROKEN && status != ST_TIMEOUT &&
		    status != ST_PANIC && status != ST_SKIP) {
			snprintf(err, errlen, "%s:%d: status '%s': want fail, broken, "
				 "timeout, panic or skip", path, lineno, st);
			rc = -1;
			break;
		}
		if (expect_pred_check(pred, msg, sizeof msg) < 0) {
			snprintf(err, errlen, "%s:%d: %s", path, lineno, msg);
			rc = -1;
			break;
		}
		char *reason = s + used;
		size_t rl = strlen(reason);
		while (rl && (reason[rl - 1] == ' ' || reason[rl - 1] == '\t' || reason[rl - 1] == '\r'))
			reason[--rl] = '\0';
		if (!rl) {
			snprintf(err, errlen, "%s:%d: the reason is missing", path, lineno);
			rc = -1;
			break;
		}
		e->v = xrealloc(e->v, (e->n + 1) * sizeof *e->v);
		struct expectation *x = &e->v[e->n++];
		char where[600];
		snprintf(where, sizeof where, "%s:%d", path, lineno);
		x->pred = xstrdup(pred);
		x->id = xstrdup(strncmp(id, "cases/", 6) == 0 ? id + 6 : id);
		x->st = (enum status)status;
		x->match = match ? xstrdup(match) : NULL;
		x->reason = xstrdup(reason);
		x->where = xstrdup(where);
	}
	free(text);
	return rc;
}

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

int expect_load_dir(struct expectations *e, const char *dir, char *err,
		    size_t errlen)
{
	DIR *d = opendir(dir);
	if (!d) {
		if (errno == ENOENT)
			return 0;
		snprintf(err, errlen, "%s: %s", dir, strerror(errno));
		return -1;
	}
	struct idlist names = {0};
	struct dirent *de;
	while ((de = readdir(d))) {
		size_t n = strlen(de->d_name);
		if (n > 5 && strcmp(de->d_name + n - 5, ".conf") == 0 && de->d_name[0] != '.')
			idlist_add(&names, de->d_name);
	}
	closedir(d);
	if (names.n)
		qsort(names.v, names.n, sizeof *names.v, cmp_str);
	int rc = 0;
	for (size_t i = 0; i < names.n && rc == 0; i++) {
		char path[4096];
		snprintf(path, sizeof path, "%s/%s", dir, names.v[i]);
		rc = expect_load_file(e, path, err, errlen);
	}
	idlist_free(&names);
	return rc;
}

void expect_free(struct expectations *e)
{
	for (size_t i = 0; i < e->n; i++) {
		free(e->v[i].pred);
		free(e->v[i].id);
		free(e->v[i].match);
		free(e->v[i].reason);
		free(e->v[i].where);
	}
	free(e->v);
	e->v = NULL;
	e->n = 0;
}
