// SPDX-License-Identifier: GPL-2.0-only
/* built.c: what the files the config builds create and handle
 * (inv_private.h).  The files read are those of drivers/tty, fs/devpts
 * (the ptys' file system) and fs/proc/proc_tty.c that the config builds,
 * each with its #if CONFIG_ blocks resolved:
 *   - line disciplines: a structure initialiser with .num = N_X; for the
 *     ones no built file of drivers/tty registers, one walk of the whole
 *     source says which file does and whether the config builds it (which
 *     symbol it lacks);
 *   - tty drivers: X = tty_alloc_driver(...) with X->name and
 *     X->driver_name, and struct uart_driver initialisers (.dev_name,
 *     .driver_name); device nodes: device_create*(&tty_class, ..., "NAME");
 *   - attributes of /sys/class/tty/DEV/: DEVICE_ATTR*() in the attribute
 *     tables of a device_create_with_groups(&tty_class, ...) and, in
 *     drivers/tty/serial/, of the UART drivers (the serial core's for
 *     every UART driver, a subdirectory's for that subdirectory's);
 *   - /proc: proc_mkdir/proc_create*("tty/...") of proc_tty.c, the other
 *     proc_create*() of the built files, /proc/tty/driver/NAME of the
 *     drivers whose operations have .proc_show, the "key:" lines a
 *     *show_fdinfo function prints;
 *   - sysctls: register_sysctl*("PATH", TABLE) and TABLE's .procname;
 *   - the VT's ioctls (linux/kd.h, linux/vt.h): built with
 *     drivers/tty/vt/vt_ioctl.c (CONFIG_VT);
 *   - handlers: the built files of drivers/tty that name an item (a termios
 *     flag also by its test macro, I_IGNBRK for IGNBRK). */
#include "ctok.h"
#include "inv_private.h"
#include "kutil.h"
#include "rbuf.h"

#include <dirent.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

/* Paths are bounded by PATH_MAX; a truncated message is only shorter. */
#pragma GCC diagnostic ignored "-Wformat-truncation"

struct bfile {
	char *rel;
	struct ctoks t;
	char **ids; /* sorted, unique identifiers */
	size_t nids;
};

struct uart {
	char *driver, *dev_name, *dir;
};

struct ctx {
	struct inventory *inv;
	const char *src;
	struct kconf *c;
	struct bfile *f;
	size_t nf;
	struct uart *u;
	size_t nu;
};

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* Every .c file under src/dir, relative to src, in sorted order. */
static void c_files(const char *src, const char *dir, char ***out, size_t *n)
{
	char path[PATH_MAX];
	snprintf(path, sizeof path, "%s/%s", src, dir);
	DIR *d = opendir(path);
	if (!d)
		return;
	struct dirent *e;
	while ((e = readdir(d))) {
		if (e->d_name[0] == '.')
			continue;
		char rel[PATH_MAX];
		snprintf(rel, sizeof rel, "%s/%s", dir, e->d_name);
		snprintf(path, sizeof path, "%s/%s", src, rel);
		struct stat st;
		if (lstat(path, &st) < 0)
			continue;
		size_t l = strlen(e->d_name);
		if (S_ISDIR(st.st_mode)) {
			c_files(src, rel, out, n);
		} else if (S_ISREG(st.st_mode) && l > 2 && !strcmp(e->d_name + l - 2, ".c")) {
			*out = xrealloc(*out, (*n + 1) * sizeof **out);
			(*out)[(*n)++] = xstrdup(rel);
		}
	}
	closedir(d);
}

static int load_file(struct ctx *x, const char *rel, char *err, size_t errlen)
{
	char path[PATH_MAX];
	snprintf(path, sizeof path, "%s/%s", x->src, rel);
	char *text = inv_read(path, err, errlen);
	if (!text)
		return -1;
	cpp_filter(text, kconf_enabled, x->c);
	x->f = xrealloc(x->f, (x->nf + 1) * sizeof *x->f);
	struct bfile *f = &x->f[x->nf++];
	*f = (struct bfile){ .rel = xstrdup(rel) };
	ctok_lex(text, &f->t);
	free(text);
	for (size_t i = 0; i < f->t.n; i++) {
		if (f->t.v[i].kind != CT_IDENT)
			continue;
		f->ids = xrealloc(f->ids, (f->nids + 1) * sizeof *f->ids);
		f->ids[f->nids++] = f->t.v[i].text;
	}
	qsort(f->ids, f->nids, sizeof *f->ids, cmp_str);
	size_t u = 0;
	for (size_t i = 0; i < f->nids; i++)
		if (!u || strcmp(f->ids[u - 1], f->ids[i]))
			f->ids[u++] = f->ids[i];
	f->nids = u;
	return 0;
}

static bool names(const struct bfile *f, const char *id)
{
	return id && bsearch(&id, f->ids, f->nids, sizeof *f->ids, cmp_str);
}

/* The built files: drivers/tty and fs/devpts that the config builds, and
 * fs/proc/proc_tty.c. */
static int load_built(struct ctx *x, char *err, size_t errlen)
{
	char **files = NULL;
	size_t n = 0;
	c_files(x->src, "drivers/tty", &files, &n);
	c_files(x->src, "fs/devpts", &files, &n);
	files = xrealloc(files, (n + 1) * sizeof *files);
	files[n++] = xstrdup("fs/proc/proc_tty.c");
	qsort(files, n, sizeof *files, cmp_str);
	int rc = 0;
	for (size_t i = 0; i < n && !rc; i++) {
		char why[600];
		if (kbuild_built(x->src, x->c, files[i], why, sizeof why))
			rc = load_file(x, files[i], err, errlen);
	}
	for (size_t i = 0; i < n; i++)
		free(files[i]);
	free(files);
	if (!rc && x->nf < 10) {
		snprintf(err, errlen, "%s: only %zu built files of drivers/tty under %s: a config "
			 "without CONFIG_TTY?", x->src, x->nf, x->inv->config);
		rc = -1;
	}
	return rc;
}

static const char *base(const char *rel)
{
	const char *s = strrchr(rel, '/');
	return s ? s + 1 : rel;
}

static void where(char *out, size_t outlen, const struct bfile *f, size_t i)
{
	snprintf(out, outlen, "%s:%d", f->rel, f->t.v[i].line);
}

/* The string literal argument of the call whose '(' is at open that comes
 * last (the node name of device_create), or NULL. */
static const char *last_string_arg(const struct ctoks *t, size_t open)
{
	size_t close = ctok_close(t, open);
	const char *s = NULL;
	for (size_t i = open + 1; i < close; i++)
		if (t->v[i].kind == CT_STRING)
			s = t->v[i].text;
	return s;
}

/* ---- line disciplines ---- */

/* .num = N_X in f: the index of N_X, else f->t.n. */
static size_t ldisc_reg(const struct ctoks *t, size_t from)
{
	for (size_t i = from; i + 3 < t->n; i++)
		if (ctok_is(t, i, '.') && ctok_ident(t, i + 1, "num") && ctok_is(t, i + 2, '=') &&
		    t->v[i + 3].kind == CT_IDENT && !strncmp(t->v[i + 3].text, "N_", 2))
			return i + 3;
	return t->n;
}

/* The registrations (.num = N_X) of the whole source, outside the built
 * files too: one walk, reading only the files that say ".num" and "N_". */
struct reg {
	char *ldisc, *file;
};

static void registrars(const char *src, const char *dir, struct reg **out, size_t *n,
		       int depth)
{
	char path[PATH_MAX];
	snprintf(path, sizeof path, "%s%s%s", src, *dir ? "/" : "", dir);
	DIR *d = opendir(path);
	if (!d || depth > 12) {
		if (d)
			closedir(d);
		return;
	}
	struct dirent *e;
	char **subs = NULL;
	size_t nsub = 0;
	while ((e = readdir(d))) {
		if (e->d_name[0] == '.' || (!depth && (!strcmp(e->d_name, "Documentation") ||
						      !strcmp(e->d_name, "tools"))))
			continue;
		char rel[PATH_MAX];
		snprintf(rel, sizeof rel, "%s%s%s", dir, *dir ? "/" : "", e->d_name);
		size_t l = strlen(e->d_name);
		if (e->d_type == DT_DIR) {
			subs = xrealloc(subs, (nsub + 1) * sizeof *subs);
			subs[nsub++] = xstrdup(rel);
			continue;
		}
		if (l < 3 || strcmp(e->d_name + l - 2, ".c"))
			continue;
		snprintf(path, sizeof path, "%s/%s", src, rel);
		char ebuf[64];
		char *text = inv_read(path, ebuf, sizeof ebuf);
		if (text && strstr(text, ".num") && strstr(text, "N_")) {
			struct ctoks t;
			ctok_lex(text, &t);
			for (size_t i = ldisc_reg(&t, 0); i < t.n; i = ldisc_reg(&t, i + 1)) {
				*out = xrealloc(*out, (*n + 1) * sizeof **out);
				(*out)[(*n)++] = (struct reg){ xstrdup(t.v[i].text), xstrdup(rel) };
			}
			ctok_free(&t);
		}
		free(text);
	}
	closedir(d);
	qsort(subs, nsub, sizeof *subs, cmp_str);
	for (size_t i = 0; i < nsub; i++) {
		registrars(src, subs[i], out, n, depth + 1);
		free(subs[i]);
	}
	free(subs);
}

/* The uapi headers (include/uapi/linux/X.h) f includes that declare ioctls. */
static int ldisc_headers(struct ctx *x, const struct bfile *f, const char *ldisc, char *err,
			 size_t errlen)
{
	const struct ctoks *t = &f->t;
	for (size_t i = 0; i + 5 < t->n; i++) {
		if (t->v[i].kind != CT_PP || strcmp(t->v[i].text, "include") ||
		    !ctok_is(t, i + 1, '<') || !ctok_ident(t, i + 2, "linux") || !ctok_is(t, i + 3, '/'))
			continue;
		char header[128];
		snprintf(header, sizeof header, "%s.h", t->v[i + 4].text);
		char path[PATH_MAX];
		snprintf(path, sizeof path, "%s/include/uapi/linux/%s", x->src, header);
		char e[64];
		char *text = ku_is_file(path) ? inv_read(path, e, sizeof e) : NULL;
		bool has = text && strstr(text, "_IO");
		free(text);
		if (has && inv_ldisc_ioctls(x->inv, x->src, header, ldisc, err, errlen) < 0)
			return -1;
	}
	return 0;
}

static int ldiscs(struct ctx *x, char *err, size_t errlen)
{
	char **reg = NULL; /* the disciplines a built file registers */
	size_t nreg = 0;
	int rc = 0;
	for (size_t k = 0; k < x->nf && !rc; k++) {
		const struct bfile *f = &x->f[k];
		for (size_t i = ldisc_reg(&f->t, 0); i < f->t.n && !rc;
		     i = ldisc_reg(&f->t, i + 1)) {
			struct inv_item *it = inv_lookup(x->inv, f->t.v[i].text);
			if (!it || it->kind != INV_LDISC)
				continue;
			free(it->handlers);
			it->handlers = xstrdup(base(f->rel));
			reg = xrealloc(reg, (nreg + 1) * sizeof *reg);
			reg[nreg++] = xstrdup(it->name);
			/* its own ioctls (adds items: it is not used after) */
			rc = ldisc_headers(x, f, f->t.v[i].text, err, errlen);
		}
	}
	struct reg *all = NULL; /* read only when a discipline is not built here */
	size_t nall = 0;
	bool walked = false;
	for (size_t k = 0; k < x->inv->nitems && !rc; k++) {
		struct inv_item *it = &x->inv->items[k];
		bool built = false;
		for (size_t r = 0; r < nreg && !built; r++)
			built = !strcmp(reg[r], it->name);
		if (it->kind != INV_LDISC || built)
			continue;
		if (!walked)
			registrars(x->src, "", &all, &nall, 0);
		walked = true;
		const char *file = NULL;
		for (size_t r = 0; r < nall && !file; r++)
			if (!strcmp(all[r].ldisc, it->name))
				file = all[r].file;
		char why[700];
		if (!file) {
			it->not_built = xstrdup("no file of the source registers it");
		} else if (!kbuild_built(x->src, x->c, file, why, sizeof why)) {
			struct rbuf b = {0};
			rbuf_addf(&b, "%s registers it: %s", file, why);
			it->not_built = b.s;
		} else { /* a built file outside drivers/tty registers it */
			free(it->handlers);
			it->handlers = xstrdup(file);
		}
	}
	for (size_t r = 0; r < nall; r++) {
		free(all[r].ldisc);
		free(all[r].file);
	}
	free(all);
	for (size_t r = 0; r < nreg; r++)
		free(reg[r]);
	free(reg);
	return rc;
}

/* ---- drivers ---- */

static struct inv_item *driver(struct ctx *x, const char *name, const char *group,
			       const char *w, enum inv_match m, const char *pattern)
{
	struct inv_item *it = inv_lookup(x->inv, name);
	if (it)
		return it;
	it = inv_add(x->inv, name, INV_DRIVER, group, w);
	it->match = m;
	it->pattern = xstrdup(pattern);
	return it;
}

/* X->field = "value" in t: the value, or NULL. */
static const char *field_of(const struct ctoks *t, const char *var, const char *field)
{
	for (size_t i = 0; i + 5 < t->n; i++)
		if (ctok_ident(t, i, var) && ctok_is(t, i + 1, '-') && ctok_is(t, i + 2, '>') &&
		    ctok_ident(t, i + 3, field) && ctok_is(t, i + 4, '=') &&
		    t->v[i + 5].kind == CT_STRING)
			return t->v[i + 5].text;
	return NULL;
}

/* .field = "value" inside the brace group open..close, or NULL. */
static const char *init_field(const struct ctoks *t, size_t open, size_t close,
			      const char *field)
{
	for (size_t i = open; i + 3 <= close; i++)
		if (ctok_is(t, i, '.') && ctok_ident(t, i + 1, field) && ctok_is(t, i + 2, '=') &&
		    t->v[i + 3].kind == CT_STRING)
			return t->v[i + 3].text;
	return NULL;
}

static void drivers(struct ctx *x)
{
	for (size_t k = 0; k < x->nf; k++) {
		const struct bfile *f = &x->f[k];
		const struct ctoks *t = &f->t;
		char w[400], stem[128], node[200], group[300];
		snprintf(stem, sizeof stem, "%.*s", (int)strcspn(base(f->rel), "."), base(f->rel));
		for (size_t i = 0; i + 2 < t->n; i++) {
			/* device nodes of the tty class */
			if ((ctok_ident(t, i, "device_create") ||
			     ctok_ident(t, i, "device_create_with_groups")) && ctok_is(t, i + 1, '(') &&
			    ctok_is(t, i + 2, '&') && ctok_ident(t, i + 3, "tty_class")) {
				const char *name = last_string_arg(t, i + 1);
				if (!name)
					continue;
				where(w, sizeof w, f, i);
				snprintf(node, sizeof node, "/dev/%s", name);
				snprintf(group, sizeof group, "device node (%s)", base(f->rel));
				driver(x, node, group, w, MATCH_EXACT, node);
			}
			/* X = tty_alloc_driver(lines, flags) */
			if (t->v[i].kind == CT_IDENT && ctok_is(t, i + 1, '=') &&
			    ctok_ident(t, i + 2, "tty_alloc_driver")) {
				const char *var = t->v[i].text, *name = field_of(t, var, "name");
				const char *dn = field_of(t, var, "driver_name");
				if (!name)
					continue;
				size_t close = ctok_close(t, i + 3);
				bool devpts = false, unnumbered = false;
				for (size_t j = i + 3; j < close; j++) {
					devpts |= ctok_ident(t, j, "TTY_DRIVER_DEVPTS_MEM");
					unnumbered |= ctok_ident(t, j, "TTY_DRIVER_UNNUMBERED_NODE");
				}
				where(w, sizeof w, f, i);
				snprintf(node, sizeof node, "/dev/%s%s", name, devpts ? "/" : "");
				snprintf(group, sizeof group, "tty driver %s: /dev/%s%s (%s)", name, name,
					 devpts ? "/<N> (devpts)" : unnumbered ? "" : "<N>", base(f->rel));
				driver(x, dn ? dn : stem, group, w,
				       devpts ? MATCH_PATH : unnumbered ? MATCH_EXACT : MATCH_DEVNUM,
				       node);
			}
			/* struct uart_driver X = { .driver_name = "Y", .dev_name = "Z" } */
			if (ctok_is(t, i, '{')) {
				size_t close = ctok_close(t, i);
				const char *dev = init_field(t, i, close, "dev_name");
				const char *dn = init_field(t, i, close, "driver_name");
				if (!dev || !dn)
					continue;
				where(w, sizeof w, f, i);
				snprintf(node, sizeof node, "/dev/%s", dev);
				snprintf(group, sizeof group, "UART driver %s: /dev/%s<N> (%s)", dev, dev,
					 base(f->rel));
				driver(x, dn, group, w, MATCH_DEVNUM, node);
				bool known = false;
				for (size_t u = 0; u < x->nu && !known; u++)
					known = !strcmp(x->u[u].driver, dn);
				if (known)
					continue;
				x->u = xrealloc(x->u, (x->nu + 1) * sizeof *x->u);
				char dir[PATH_MAX];
				snprintf(dir, sizeof dir, "%.*s", (int)(base(f->rel) - f->rel - 1), f->rel);
				x->u[x->nu++] = (struct uart){ xstrdup(dn), xstrdup(dev), xstrdup(dir) };
			}
		}
	}
}

/* ---- sysfs ---- */

/* The table of attributes named name in f (an array initialiser holding
 * &dev_attr_X.attr), its X in out.  Groups resolve to their tables:
 * ATTRIBUTE_GROUPS(P) makes P_groups of P_attrs; an attribute_group's
 * .attrs; an array of &group. */
static void attrs_of(const struct bfile *f, const char *name, char ***out, size_t *n,
		     int depth)
{
	const struct ctoks *t = &f->t;
	if (depth > 4)
		return;
	size_t l = strlen(name);
	if (l > 7 && !strcmp(name + l - 7, "_groups")) { /* ATTRIBUTE_GROUPS(P)? */
		char stem[200];
		snprintf(stem, sizeof stem, "%.*s", (int)(l - 7), name);
		for (size_t i = 0; i + 2 < t->n; i++)
			if (ctok_ident(t, i, "ATTRIBUTE_GROUPS") && ctok_ident(t, i + 2, stem)) {
				char attrs[220];
				snprintf(attrs, sizeof attrs, "%s_attrs", stem);
				attrs_of(f, attrs, out, n, depth + 1);
				return;
			}
	}
	struct cdef *d;
	size_t nd = ctok_defs(t, &d);
	for (size_t k = 0; k < nd; k++) {
		if (strcmp(d[k].name, name))
			continue;
		for (size_t i = d[k].first; i + 1 < d[k].last; i++) {
			if (t->v[i].kind != CT_IDENT)
				continue;
			if (!strncmp(t->v[i].text, "dev_attr_", 9) && ctok_is(t, i + 1, '.')) {
				*out = xrealloc(*out, (*n + 1) * sizeof **out);
				(*out)[(*n)++] = xstrdup(t->v[i].text + 9);
			} else if (ctok_is(t, i - 1, '&') || (ctok_is(t, i - 1, '=') &&
							     ctok_ident(t, i - 2, "attrs"))) {
				attrs_of(f, t->v[i].text, out, n, depth + 1);
			}
		}
	}
	ctok_defs_free(d, nd);
}

/* DEVICE_ATTR*(name, ...) in f: "RO", "RW", "WO" (or the mode as written). */
static const char *attr_mode(const struct bfile *f, const char *attr, size_t *at)
{
	const struct ctoks *t = &f->t;
	for (size_t i = 0; i + 2 < t->n; i++) {
		if (t->v[i].kind != CT_IDENT || strncmp(t->v[i].text, "DEVICE_ATTR", 11) ||
		    !ctok_is(t, i + 1, '(') || !ctok_ident(t, i + 2, attr))
			continue;
		*at = i;
		const char *m = t->v[i].text + 11;
		if (!strcmp(m, "_RO") || !strcmp(m, "_ADMIN_RO"))
			return "RO";
		if (!strcmp(m, "_RW") || !strcmp(m, "_ADMIN_RW"))
			return "RW";
		if (!strcmp(m, "_WO"))
			return "WO";
		return ctok_ident(t, i + 6, "NULL") ? "RO" : "RW";
	}
	*at = 0;
	return "";
}

static void sysfs_item(struct ctx *x, const struct bfile *f, const char *dev, const char *attr,
		       bool per_port)
{
	char name[300], group[300], w[400];
	size_t at;
	const char *mode = attr_mode(f, attr, &at);
	snprintf(name, sizeof name, "/sys/class/tty/%s%s/%s", dev, per_port ? "*" : "", attr);
	if (inv_lookup(x->inv, name))
		return;
	snprintf(group, sizeof group, "%s attribute of %s%s (%s)", mode, dev,
		 per_port ? "<N>" : "", base(f->rel));
	where(w, sizeof w, f, at);
	struct inv_item *it = inv_add(x->inv, name, INV_SYSFS, group, w);
	if (per_port) {
		it->match = MATCH_SYSFS;
		it->pattern = xstrdup(attr);
	} else {
		it->match = MATCH_PATH;
		char p[300];
		snprintf(p, sizeof p, "/sys/class/tty/%s/%s", dev, attr);
		it->pattern = xstrdup(p);
	}
}

static void sysfs(struct ctx *x)
{
	for (size_t k = 0; k < x->nf; k++) {
		const struct bfile *f = &x->f[k];
		const struct ctoks *t = &f->t;
		bool serial = !strncmp(f->rel, "drivers/tty/serial/", 19);
		char **a = NULL;
		size_t na = 0;
		if (serial) { /* every attribute table of the file */
			struct cdef *d;
			size_t nd = ctok_defs(t, &d);
			for (size_t i = 0; i < nd; i++)
				for (size_t j = d[i].first; j < d[i].last; j++)
					if (t->v[j].kind == CT_IDENT &&
					    !strncmp(t->v[j].text, "dev_attr_", 9)) {
						attrs_of(f, d[i].name, &a, &na, 0);
						break;
					}
			ctok_defs_free(d, nd);
			/* the serial core's for all UART drivers, a subdirectory's for its own */
			char dir[PATH_MAX];
			snprintf(dir, sizeof dir, "%.*s", (int)(base(f->rel) - f->rel - 1), f->rel);
			bool core = !strcmp(dir, "drivers/tty/serial");
			for (size_t u = 0; u < x->nu; u++)
				if (core || !strcmp(x->u[u].dir, dir))
					for (size_t i = 0; i < na; i++)
						sysfs_item(x, f, x->u[u].dev_name, a[i], true);
		} else {
			for (size_t i = 0; i + 3 < t->n; i++) {
				if (!ctok_ident(t, i, "device_create_with_groups") ||
				    !ctok_ident(t, i + 3, "tty_class"))
					continue;
				const char *dev = last_string_arg(t, i + 1);
				size_t close = ctok_close(t, i + 1);
				for (size_t j = i + 4; j < close && dev; j++)
					if (t->v[j].kind == CT_IDENT &&
					    strstr(t->v[j].text, "groups")) {
						size_t before = na;
						attrs_of(f, t->v[j].text, &a, &na, 0);
						for (size_t m = before; m < na; m++)
							sysfs_item(x, f, dev, a[m], false);
					}
			}
		}
		for (size_t i = 0; i < na; i++)
			free(a[i]);
		free(a);
	}
}

/* ---- /proc and sysctls ---- */

static void proc_item(struct ctx *x, const char *path, const char *group, const char *w,
		      const char *pattern)
{
	if (inv_lookup(x->inv, path))
		return;
	struct inv_item *it = inv_add(x->inv, path, INV_PROC, group, w);
	it->match = MATCH_PATH;
	it->pattern = xstrdup(pattern ? pattern : path);
}

static void procfs(struct ctx *x)
{
	char w[400], p[300], g[300];
	for (size_t k = 0; k < x->nf; k++) {
		const struct bfile *f = &x->f[k];
		const struct ctoks *t = &f->t;
		bool has_proc_show = false;
		for (size_t i = 0; i + 3 < t->n; i++) {
			has_proc_show |= ctok_is(t, i, '.') && ctok_ident(t, i + 1, "proc_show") &&
					 ctok_is(t, i + 2, '=');
			if (t->v[i].kind != CT_IDENT || strncmp(t->v[i].text, "proc_", 5) ||
			    (!strstr(t->v[i].text, "mkdir") && !strstr(t->v[i].text, "create")) ||
			    !ctok_is(t, i + 1, '(') || t->v[i + 2].kind != CT_STRING)
				continue;
			const char *name = t->v[i + 2].text;
			if (!strcmp(name, "tty"))
				continue;
			where(w, sizeof w, f, i);
			snprintf(p, sizeof p, "/proc/%s", name);
			snprintf(g, sizeof g, "%s (%s)", t->v[i].text, base(f->rel));
			proc_item(x, p, g, w, NULL);
		}
		/* /proc/tty/driver/NAME: the drivers of a file with .proc_show (a
		 * file of drivers/tty/serial: the UART drivers) */
		if (!has_proc_show)
			continue;
		for (size_t u = 0; u < x->nu; u++) {
			if (strncmp(f->rel, "drivers/tty/serial/", 19))
				break;
			const struct inv_item *d = inv_lookup(x->inv, x->u[u].driver);
			snprintf(p, sizeof p, "/proc/tty/driver/%s", x->u[u].driver);
			snprintf(g, sizeof g, "proc_show of %s", base(f->rel));
			proc_item(x, p, g, d ? d->src : f->rel, NULL);
		}
	}
	/* the keys of /proc/PID/fdinfo/FD a *show_fdinfo function prints */
	for (size_t k = 0; k < x->nf; k++) {
		const struct bfile *f = &x->f[k];
		struct cdef *d;
		size_t nd = ctok_defs(&f->t, &d);
		for (size_t i = 0; i < nd; i++) {
			if (!strstr(d[i].name, "show_fdinfo"))
				continue;
			for (size_t j = d[i].first; j < d[i].last; j++) {
				const char *s = f->t.v[j].text;
				size_t key = strcspn(s, ":");
				if (f->t.v[j].kind != CT_STRING || !s[key] || s[key + 1] != '\t')
					continue;
				char keyname[120];
				snprintf(keyname, sizeof keyname, "%.*s", (int)key, s);
				snprintf(p, sizeof p, "fdinfo:%s", keyname);
				snprintf(g, sizeof g, "a line of /proc/PID/fdinfo/FD (%s)", d[i].name);
				where(w, sizeof w, f, j);
				proc_item(x, p, g, w, keyname);
			}
		}
		ctok_defs_free(d, nd);
	}
}

static void sysctls(struct ctx *x)
{
	for (size_t k = 0; k < x->nf; k++) {
		const struct bfile *f = &x->f[k];
		const struct ctoks *t = &f->t;
		for (size_t i = 0; i + 4 < t->n; i++) {
			if (t->v[i].kind != CT_IDENT || strncmp(t->v[i].text, "register_sysctl", 15) ||
			    !ctok_is(t, i + 1, '(') || t->v[i + 2].kind != CT_STRING ||
			    !ctok_is(t, i + 3, ',') || t->v[i + 4].kind != CT_IDENT)
				continue;
			const char *dir = t->v[i + 2].text, *table = t->v[i + 4].text;
			struct cdef *d;
			size_t nd = ctok_defs(t, &d);
			for (size_t m = 0; m < nd; m++) {
				if (strcmp(d[m].name, table))
					continue;
				for (size_t j = d[m].first; j + 3 < d[m].last; j++) {
					if (!ctok_is(t, j, '.') || !ctok_ident(t, j + 1, "procname") ||
					    t->v[j + 3].kind != CT_STRING)
						continue;
					char name[300], pat[300], g[300], w[400];
					snprintf(pat, sizeof pat, "%s/%s", dir, t->v[j + 3].text);
					snprintf(name, sizeof name, "/proc/sys/%s", pat);
					snprintf(g, sizeof g, "sysctl %s (%s)", table, base(f->rel));
					where(w, sizeof w, f, j);
					if (inv_lookup(x->inv, name))
						continue;
					struct inv_item *it = inv_add(x->inv, name, INV_SYSCTL, g, w);
					it->match = MATCH_PATH;
					it->pattern = xstrdup(pat);
				}
			}
			ctok_defs_free(d, nd);
		}
	}
}

/* ---- handlers ---- */

static void handlers(struct ctx *x)
{
	for (size_t k = 0; k < x->inv->nitems; k++) {
		struct inv_item *it = &x->inv->items[k];
		if (it->handlers || it->kind == INV_DRIVER || it->kind == INV_SYSFS ||
		    it->kind == INV_PROC || it->kind == INV_SYSCTL)
			continue;
		struct rbuf b = {0};
		rbuf_add(&b, "");
		/* a termios flag is also named by its test macro: I_IGNBRK(tty) */
		char macro[80] = "";
		if (it->kind == INV_TERMIOS && !strncmp(it->group, "c_", 2))
			snprintf(macro, sizeof macro, "%c_%s", it->group[2] - 'a' + 'A', it->name);
		for (size_t i = 0; i < x->nf; i++) {
			const struct bfile *f = &x->f[i];
			if (strncmp(f->rel, "drivers/tty/", 12) ||
			    (!names(f, it->name) && !names(f, it->alias) && !names(f, macro)))
				continue;
			rbuf_addf(&b, "%s%s", b.len ? " " : "", base(f->rel));
		}
		it->handlers = b.s;
	}
}

/* The VT's ioctls: built with drivers/tty/vt/vt_ioctl.c, which handles them
 * (keyboard.c the keyboard's). */
static int vt_ioctls(struct ctx *x, char *err, size_t errlen)
{
	char why[600];
	bool built = kbuild_built(x->src, x->c, "drivers/tty/vt/vt_ioctl.c", why, sizeof why);
	return inv_vt_ioctls(x->inv, x->src, built ? NULL : why, err, errlen);
}

int inv_built(struct inventory *inv, const char *src, struct kconf *c, char *err, size_t errlen)
{
	struct ctx x = { .inv = inv, .src = src, .c = c };
	int rc = load_built(&x, err, errlen);
	if (!rc)
		rc = ldiscs(&x, err, errlen);
	if (!rc)
		rc = vt_ioctls(&x, err, errlen);
	if (!rc) {
		drivers(&x);
		sysfs(&x);
		procfs(&x);
		sysctls(&x);
		handlers(&x);
	}
	for (size_t i = 0; i < x.nf; i++) {
		free(x.f[i].rel);
		free(x.f[i].ids);
		ctok_free(&x.f[i].t);
	}
	free(x.f);
	for (size_t i = 0; i < x.nu; i++) {
		free(x.u[i].driver);
		free(x.u[i].dev_name);
		free(x.u[i].dir);
	}
	free(x.u);
	return rc;
}
