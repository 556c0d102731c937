// SPDX-License-Identifier: GPL-2.0-only
/* uses.c: which items each case of the suite uses (inv_private.h).
 *
 * A case is what its program registers (ATF_TP_ADD_TC); its body is the
 * TP_CASE*()/ATF_TC_BODY() that follows the declaration, or, for a case a
 * macro of the file declares whole (RACE_CASE(name, ...)), that macro and
 * the arguments it is given.  From the body the scan follows every name
 * that is a definition of the program's file (or a header of its area
 * directory it includes) or of atf/ (functions, macros, initialised
 * tables), transitively, and collects the identifiers and string literals
 * met.  An item is used when one of them names it (inv_private.h's match
 * kinds), or when the case calls a C library function that stands for it
 * (fixtures/inventory/libc). */
#include "ctok.h"
#include "inv_private.h"
#include "rbuf.h"

#include <ctype.h>
#include <dirent.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* Paths are bounded by PATH_MAX; a truncated message is only shorter. */
#pragma GCC diagnostic ignored "-Wformat-truncation"

struct src {
	char *path;
	struct ctoks t;
	struct cdef *d;
	size_t nd;
};

/* A namespace: definitions sorted by name. */
struct ref {
	const char *name;
	struct src *s;
	size_t def;
};

struct ns {
	struct ref *r;
	size_t n;
};

struct alias {
	char *token, *with; /* with: NULL or a token that must appear too */
	char **items;
	size_t nitems;
};

struct key {
	const char *name;
	size_t item;
};

struct scan {
	struct inventory *inv;
	const char *trace; /* the case whose scan is told */
	struct ns lib;
	struct alias *al;
	size_t nal;
	struct key *keys; /* item names and aliases, sorted */
	size_t nkeys;
	size_t *strmatch; /* the items matched by string literals */
	size_t nstrmatch;
};

static int cmp_ref(const void *a, const void *b)
{
	return strcmp(((const struct ref *)a)->name, ((const struct ref *)b)->name);
}

static int cmp_key(const void *a, const void *b)
{
	return strcmp(((const struct key *)a)->name, ((const struct key *)b)->name);
}

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

static struct src *load_src(const char *path, char *err, size_t errlen)
{
	char *text = inv_read(path, err, errlen);
	if (!text)
		return NULL;
	struct src *s = calloc(1, sizeof *s);
	if (!s)
		abort();
	s->path = xstrdup(path);
	ctok_lex(text, &s->t);
	free(text);
	s->nd = ctok_defs(&s->t, &s->d);
	return s;
}

static void free_src(struct src *s)
{
	if (!s)
		return;
	ctok_defs_free(s->d, s->nd);
	ctok_free(&s->t);
	free(s->path);
	free(s);
}

static void ns_add(struct ns *ns, struct src *s)
{
	for (size_t i = 0; i < s->nd; i++) {
		ns->r = xrealloc(ns->r, (ns->n + 1) * sizeof *ns->r);
		ns->r[ns->n++] = (struct ref){ s->d[i].name, s, i };
	}
}

static void ns_sort(struct ns *ns)
{
	if (ns->n)
		qsort(ns->r, ns->n, sizeof *ns->r, cmp_ref);
}

/* The definitions called name: [*first, *first + count). */
static size_t ns_find(const struct ns *ns, const char *name, size_t *first)
{
	struct ref k = { .name = name };
	struct ref *hit = ns->n ? bsearch(&k, ns->r, ns->n, sizeof *ns->r, cmp_ref) : NULL;
	if (!hit)
		return 0;
	size_t lo = (size_t)(hit - ns->r), hi = lo + 1;
	while (lo > 0 && !strcmp(ns->r[lo - 1].name, name))
		lo--;
	while (hi < ns->n && !strcmp(ns->r[hi].name, name))
		hi++;
	*first = lo;
	return hi - lo;
}

/* A static definition, or a macro of a .c file: seen only in its file. */
static bool file_local(const struct src *s, size_t def)
{
	size_t l = strlen(s->path);
	return s->d[def].is_static || (s->d[def].is_macro && l > 2 && !strcmp(s->path + l - 2, ".c"));
}

/* ---- one case's closure ---- */

struct closure {
	const struct src **seen_s; /* definitions visited */
	size_t *seen_d, nseen;
	struct { const struct src *s; size_t first, last; } *q; /* ranges to read */
	size_t nq;
	char **ids, **strs;
	size_t nids, nstrs;
};

static void visit(struct closure *c, const struct src *s, size_t def)
{
	for (size_t i = 0; i < c->nseen; i++)
		if (c->seen_s[i] == s && c->seen_d[i] == def)
			return;
	c->seen_s = xrealloc(c->seen_s, (c->nseen + 1) * sizeof *c->seen_s);
	c->seen_d = xrealloc(c->seen_d, (c->nseen + 1) * sizeof *c->seen_d);
	c->seen_s[c->nseen] = s;
	c->seen_d[c->nseen++] = def;
	c->q = xrealloc(c->q, (c->nq + 1) * sizeof *c->q);
	c->q[c->nq].s = s;
	c->q[c->nq].first = s->d[def].first;
	c->q[c->nq++].last = s->d[def].last;
}

static void follow(struct closure *c, const struct ns *prog, const struct ns *lib)
{
	for (size_t k = 0; k < c->nq; k++) {
		const struct src *s = c->q[k].s;
		for (size_t i = c->q[k].first; i < c->q[k].last && i < s->t.n; i++) {
			const struct ctok *t = &s->t.v[i];
			if (t->kind == CT_STRING) {
				c->strs = xrealloc(c->strs, (c->nstrs + 1) * sizeof *c->strs);
				c->strs[c->nstrs++] = t->text;
				continue;
			}
			if (t->kind != CT_IDENT)
				continue;
			c->ids = xrealloc(c->ids, (c->nids + 1) * sizeof *c->ids);
			c->ids[c->nids++] = t->text;
			/* its own file's definition first; another file's only
			 * when that file exports it */
			bool own = false;
			for (size_t d = 0; d < s->nd; d++)
				if (!strcmp(s->d[d].name, t->text)) {
					visit(c, s, d);
					own = true;
				}
			if (own)
				continue;
			const struct ns *spaces[2] = { prog, lib };
			for (int k2 = 0; k2 < 2 && !own; k2++) {
				size_t first, n = ns_find(spaces[k2], t->text, &first);
				for (size_t j = 0; j < n; j++) {
					const struct ref *r = &spaces[k2]->r[first + j];
					if (file_local(r->s, r->def))
						continue;
					visit(c, r->s, r->def);
					own = true;
				}
			}
		}
	}
	qsort(c->ids, c->nids, sizeof *c->ids, cmp_str);
	size_t u = 0;
	for (size_t i = 0; i < c->nids; i++)
		if (!u || strcmp(c->ids[u - 1], c->ids[i]))
			c->ids[u++] = c->ids[i];
	c->nids = u;
}

static void closure_free(struct closure *c)
{
	free(c->seen_s);
	free(c->seen_d);
	free(c->q);
	free(c->ids);
	free(c->strs);
}

static bool has_id(const struct closure *c, const char *id)
{
	return bsearch(&id, c->ids, c->nids, sizeof *c->ids, cmp_str) != NULL;
}

/* ---- matching ---- */

static bool boundary(char c)
{
	return !c || c == '/' || c == '%' || c == ':' || c == '\n' || c == ' ';
}

static bool path_in(const char *lit, const char *pat)
{
	size_t pl = strlen(pat);
	for (const char *p = strstr(lit, pat); p; p = strstr(p + 1, pat))
		if (boundary(p[pl]))
			return true;
	return false;
}

static bool matches(const struct inv_item *it, const char *lit)
{
	const char *pat = it->pattern;
	size_t pl = pat ? strlen(pat) : 0, ll = strlen(lit);
	switch (it->match) {
	case MATCH_EXACT:
		return !strcmp(lit, pat);
	case MATCH_DEVNUM:
		return !strncmp(lit, pat, pl) && (isdigit((unsigned char)lit[pl]) || lit[pl] == '%');
	case MATCH_PATH: {
		if (path_in(lit, pat))
			return true;
		if (it->kind != INV_SYSCTL || !strchr(lit, '.'))
			return false;
		char dotted[512]; /* dev.tty.ldisc_autoload */
		snprintf(dotted, sizeof dotted, "%s", lit);
		for (char *p = dotted; *p; p++)
			if (*p == '.')
				*p = '/';
		return path_in(dotted, pat);
	}
	case MATCH_SYSFS:
		return strstr(lit, "/sys/class/tty/") && ll > pl && lit[ll - pl - 1] == '/' &&
		       !strcmp(lit + ll - pl, pat);
	default:
		return false;
	}
}

static void use(struct inv_item *it, const char *cas, const char *driver)
{
	for (size_t i = 0; i < it->nuses; i++)
		if (!strcmp(it->uses[i].cas, cas) && !strcmp(it->uses[i].driver, driver))
			return;
	it->uses = xrealloc(it->uses, (it->nuses + 1) * sizeof *it->uses);
	it->uses[it->nuses++] = (struct inv_use){ xstrdup(cas), driver };
}

/* The driver a case of cases/AREA/ uses an item on (inventory.h). */
static const char *area_driver(const char *area)
{
	static const char *const by_area[][2] = {
		{ "serial", "8250" }, { "vt", "vt" }, { "hvc", "hvc" },
		{ "usbserial", "usb-serial" },
	};
	for (size_t i = 0; i < sizeof by_area / sizeof *by_area; i++)
		if (!strcmp(area, by_area[i][0]))
			return by_area[i][1];
	return "pty";
}

static void match_case(struct scan *sc, const struct closure *c, const char *cas,
		       const char *area)
{
	struct inventory *inv = sc->inv;
	const char *drv = area_driver(area);
	for (size_t i = 0; i < c->nids; i++) {
		/* K_NAME: the suite's spelling of a kernel definition its C
		 * library hides (atf/tp_termios2.h: K_TCGETS2) */
		const char *id = c->ids[i];
		struct key k = { .name = strncmp(id, "K_", 2) ? id : id + 2 };
		struct key *hit = bsearch(&k, sc->keys, sc->nkeys, sizeof *sc->keys, cmp_key);
		if (hit)
			use(&inv->items[hit->item], cas, drv);
	}
	for (size_t a = 0; a < sc->nal; a++) {
		const struct alias *al = &sc->al[a];
		if (!has_id(c, al->token) || (al->with && !has_id(c, al->with)))
			continue;
		for (size_t j = 0; j < al->nitems; j++)
			use(inv_lookup(inv, al->items[j]), cas, drv);
	}
	/* A case that builds its attribute paths from a format
	 * ("/sys/class/tty/%s/%s", then "uartclk") names the attribute alone. */
	bool sysfs_fmt = false;
	for (size_t s = 0; s < c->nstrs; s++) {
		size_t l = strlen(c->strs[s]);
		sysfs_fmt |= !strncmp(c->strs[s], "/sys/class/tty/", 15) && l > 18 &&
			     !strcmp(c->strs[s] + l - 3, "/%s");
	}
	for (size_t m = 0; m < sc->nstrmatch; m++) {
		struct inv_item *it = &inv->items[sc->strmatch[m]];
		for (size_t s = 0; s < c->nstrs; s++)
			if (matches(it, c->strs[s]) ||
			    (sysfs_fmt && it->match == MATCH_SYSFS &&
			     !strcmp(c->strs[s], it->pattern))) {
				use(it, cas, drv);
				break;
			}
	}
	if (!strcmp(area, "serial")) /* the UART drivers serve every serial case */
		for (size_t i = 0; i < inv->nitems; i++)
			if (inv->items[i].kind == INV_DRIVER &&
			    !strncmp(inv->items[i].group, "UART driver", 11))
				use(&inv->items[i], cas, drv);
	/* every hvc case opens the hvc the virtio console port names in sysfs
	 * (atf/tp_hvc.c), a path no string of the case spells */
	if (!strcmp(area, "hvc"))
		for (size_t i = 0; i < inv->nitems; i++)
			if (inv->items[i].kind == INV_DRIVER && !strcmp(inv->items[i].name, "hvc"))
				use(&inv->items[i], cas, drv);
}

/* ---- the libc file ---- */

static int load_aliases(struct scan *sc, const char *path, char *err, size_t errlen)
{
	char *text = inv_read(path, err, errlen);
	if (!text)
		return -1;
	int lineno = 0, rc = 0;
	char *cursor = text, *line;
	while (!rc && (line = inv_data_line(&cursor, &lineno))) {
		char *save;
		char *tok = strtok_r(line, " \t", &save);
		struct alias a = {0};
		char *plus = strchr(tok, '+');
		if (plus)
			*plus = '\0';
		a.token = xstrdup(tok);
		a.with = plus ? xstrdup(plus + 1) : NULL;
		for (char *w = strtok_r(NULL, " \t", &save); w; w = strtok_r(NULL, " \t", &save)) {
			if (!inv_lookup(sc->inv, w)) {
				snprintf(err, errlen, "%s:%d: %s is not an item of the inventory "
					 "(the kernel source has no such name)", path, lineno, w);
				rc = -1;
				break;
			}
			a.items = xrealloc(a.items, (a.nitems + 1) * sizeof *a.items);
			a.items[a.nitems++] = xstrdup(w);
		}
		if (!rc && !a.nitems) {
			snprintf(err, errlen, "%s:%d: %s stands for no item", path, lineno, a.token);
			rc = -1;
		}
		sc->al = xrealloc(sc->al, (sc->nal + 1) * sizeof *sc->al);
		sc->al[sc->nal++] = a;
	}
	free(text);
	return rc;
}

/* ---- programs ---- */

static void list_dir(const char *dir, const char *prefix, const char *suffix, char ***out,
		     size_t *n)
{
	DIR *d = opendir(dir);
	if (!d)
		return;
	struct dirent *e;
	while ((e = readdir(d))) {
		size_t l = strlen(e->d_name), sl = strlen(suffix);
		if (e->d_name[0] == '.' || strncmp(e->d_name, prefix, strlen(prefix)) || l <= sl ||
		    strcmp(e->d_name + l - sl, suffix))
			continue;
		char p[PATH_MAX];
		snprintf(p, sizeof p, "%s/%s", dir, e->d_name);
		*out = xrealloc(*out, (*n + 1) * sizeof **out);
		(*out)[(*n)++] = xstrdup(p);
	}
	closedir(d);
	if (*n)
		qsort(*out, *n, sizeof **out, cmp_str);
}

/* The registered cases of a program: ATF_TP_ADD_TC(tp, NAME). */
static size_t registered(const struct src *s, char ***out)
{
	*out = NULL;
	size_t n = 0;
	for (size_t i = 0; i + 4 < s->t.n; i++)
		if (ctok_ident(&s->t, i, "ATF_TP_ADD_TC") && ctok_is(&s->t, i + 1, '(') &&
		    s->t.v[i + 4].kind == CT_IDENT) {
			*out = xrealloc(*out, (n + 1) * sizeof **out);
			(*out)[n++] = s->t.v[i + 4].text;
		}
	return n;
}

static int program(struct scan *sc, const char *path, const char *area, const char *prog,
		   char *err, size_t errlen)
{
	struct src *files[16] = { load_src(path, err, errlen) };
	size_t nfiles = 1;
	if (!files[0])
		return -1;
	struct ns ns = {0};
	ns_add(&ns, files[0]);
	/* headers of its own directory it includes ("app_run.h") */
	char dir[PATH_MAX];
	snprintf(dir, sizeof dir, "%.*s", (int)(strrchr(path, '/') - path), path);
	const struct ctoks *t = &files[0]->t;
	for (size_t i = 0; i + 1 < t->n && nfiles < 16; i++) {
		if (t->v[i].kind != CT_PP || strcmp(t->v[i].text, "include") ||
		    t->v[i + 1].kind != CT_STRING)
			continue;
		char h[PATH_MAX];
		snprintf(h, sizeof h, "%s/%s", dir, t->v[i + 1].text);
		char e[64];
		struct src *hs = access(h, R_OK) == 0 ? load_src(h, e, sizeof e) : NULL;
		if (hs) {
			files[nfiles++] = hs;
			ns_add(&ns, hs);
		}
	}
	ns_sort(&ns);
	char **cases;
	size_t ncases = registered(files[0], &cases);
	for (size_t k = 0; k < ncases; k++) {
		char cas[600];
		snprintf(cas, sizeof cas, "%s:%s", prog, cases[k]);
		sc->inv->cases = xrealloc(sc->inv->cases, (sc->inv->ncases + 1) *
					  sizeof *sc->inv->cases);
		sc->inv->cases[sc->inv->ncases++] = xstrdup(cas);
		struct closure c = {0};
		const struct src *s = files[0];
		for (size_t d = 0; d < s->nd; d++)
			if (s->d[d].is_case && !strcmp(s->d[d].name, cases[k]))
				visit(&c, s, d);
		if (!c.nq) { /* a macro of the file declares it whole: MACRO(name, ...) */
			for (size_t i = 2; i + 1 < s->t.n; i++) {
				size_t first;
				if (!ctok_ident(&s->t, i, cases[k]) || !ctok_is(&s->t, i - 1, '(') ||
				    s->t.v[i - 2].kind != CT_IDENT ||
				    !ns_find(&ns, s->t.v[i - 2].text, &first))
					continue;
				visit(&c, ns.r[first].s, ns.r[first].def);
				c.q = xrealloc(c.q, (c.nq + 1) * sizeof *c.q);
				c.q[c.nq].s = s;
				c.q[c.nq].first = i;
				c.q[c.nq++].last = ctok_close(&s->t, i - 1);
				break;
			}
		}
		if (!c.nq)
			inv_note(sc->inv, "%s: registered, but its body was not found: no item "
				 "counted for it", cas);
		follow(&c, &ns, &sc->lib);
		if (sc->trace && !strcmp(sc->trace, cas))
			for (size_t i = 0; i < c.nseen; i++)
				fprintf(stderr, "ttypot: inventory: %s reads %s of %s:%d\n", cas,
					c.seen_s[i]->d[c.seen_d[i]].name, c.seen_s[i]->path,
					c.seen_s[i]->d[c.seen_d[i]].line);
		match_case(sc, &c, cas, area);
		closure_free(&c);
	}
	free(cases);
	free(ns.r);
	for (size_t i = 0; i < nfiles; i++)
		free_src(files[i]);
	return 0;
}

static void make_keys(struct scan *sc)
{
	struct inventory *inv = sc->inv;
	for (size_t i = 0; i < inv->nitems; i++) {
		const struct inv_item *it = &inv->items[i];
		const char *names[2] = { it->name, it->alias };
		for (int j = 0; j < 2; j++) {
			if (!names[j] || it->kind == INV_DRIVER || it->kind == INV_SYSFS ||
			    it->kind == INV_PROC || it->kind == INV_SYSCTL)
				continue;
			sc->keys = xrealloc(sc->keys, (sc->nkeys + 1) * sizeof *sc->keys);
			sc->keys[sc->nkeys++] = (struct key){ names[j], i };
		}
		if (it->match != MATCH_IDENT && it->pattern) {
			sc->strmatch = xrealloc(sc->strmatch, (sc->nstrmatch + 1) *
						sizeof *sc->strmatch);
			sc->strmatch[sc->nstrmatch++] = i;
		}
	}
	qsort(sc->keys, sc->nkeys, sizeof *sc->keys, cmp_key);
}

int inv_uses(struct inventory *inv, const char *suite, const char *libc_file,
	     const char *trace, char *err, size_t errlen)
{
	struct scan sc = { .inv = inv, .trace = trace };
	int rc = load_aliases(&sc, libc_file, err, errlen);
	/* atf/: the helpers every case may call */
	char p[PATH_MAX], **lib = NULL;
	size_t nlib = 0;
	snprintf(p, sizeof p, "%s/atf", suite);
	list_dir(p, "", ".c", &lib, &nlib);
	list_dir(p, "", ".h", &lib, &nlib);
	struct src **libsrc = calloc(nlib + 1, sizeof *libsrc);
	for (size_t i = 0; i < nlib && !rc; i++) {
		if (!(libsrc[i] = load_src(lib[i], err, errlen)))
			rc = -1;
		else
			ns_add(&sc.lib, libsrc[i]);
	}
	ns_sort(&sc.lib);
	make_keys(&sc);
	/* cases/AREA/t_*.c */
	char **areas = NULL;
	size_t nareas = 0;
	snprintf(p, sizeof p, "%s/cases", suite);
	list_dir(p, "", "", &areas, &nareas);
	size_t nprogs = 0;
	for (size_t a = 0; a < nareas && !rc; a++) {
		char **progs = NULL;
		size_t np = 0;
		list_dir(areas[a], "t_", ".c", &progs, &np);
		const char *area = strrchr(areas[a], '/') + 1;
		for (size_t i = 0; i < np && !rc; i++) {
			char name[PATH_MAX];
			const char *b = strrchr(progs[i], '/') + 1;
			snprintf(name, sizeof name, "%s/%.*s", area, (int)(strlen(b) - 2), b);
			rc = program(&sc, progs[i], area, name, err, errlen);
			nprogs++;
		}
		for (size_t i = 0; i < np; i++)
			free(progs[i]);
		free(progs);
	}
	if (!rc && !nprogs) {
		snprintf(err, errlen, "%s/cases: no case sources (cases/AREA/t_*.c): the inventory "
			 "reads the suite's source tree (--suite DIR)", suite);
		rc = -1;
	}
	for (size_t a = 0; a < nareas; a++)
		free(areas[a]);
	free(areas);
	for (size_t i = 0; i < nlib; i++) {
		free_src(libsrc[i]);
		free(lib[i]);
	}
	free(libsrc);
	free(lib);
	free(sc.lib.r);
	for (size_t i = 0; i < sc.nal; i++) {
		free(sc.al[i].token);
		free(sc.al[i].with);
		for (size_t j = 0; j < sc.al[i].nitems; j++)
			free(sc.al[i].items[j]);
		free(sc.al[i].items);
	}
	free(sc.al);
	free(sc.keys);
	free(sc.strmatch);
	return rc;
}
