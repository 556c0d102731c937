// SPDX-License-Identifier: GPL-2.0-only
/* inventory.c: builds the inventory (inventory.h): the kernel source and
 * its config, the items, the reasons, the cases' uses, each item's status. */
#include "inv_private.h"
#include "kernel.h"
#include "kutil.h"
#include "rbuf.h"

#include <ctype.h>
#include <errno.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Paths are bounded by PATH_MAX; a truncated message is only shorter. */
#pragma GCC diagnostic ignored "-Wformat-truncation"

/* The kernel source ttypot builds (README: src:linux-source-6.12). */
#define INV_SOURCE "linux-source-6.12"
/* Making a config runs make tinyconfig: bounded as kbuild.c bounds it. */
#define INV_CONFIG_WAIT_S (40 * 60)

static const char *const kind_names[INV_NKINDS] = {
	[INV_IOCTL] = "ioctl", [INV_ARG] = "ioctl value", [INV_TERMIOS] = "termios",
	[INV_CC] = "c_cc", [INV_LDISC] = "ldisc", [INV_DRIVER] = "driver",
	[INV_SYSFS] = "sysfs", [INV_PROC] = "proc", [INV_SYSCTL] = "sysctl",
};

const char *inv_kind_name(enum inv_kind k)
{
	return k < INV_NKINDS ? kind_names[k] : "?";
}

char *inv_read(const char *path, char *err, size_t errlen)
{
	char *s = ku_read_file(path, NULL);
	if (!s)
		snprintf(err, errlen, "%s: %s", path, strerror(errno ? errno : ENOENT));
	return s;
}

char *inv_next_line(char **cursor)
{
	char *line = *cursor;
	if (!line || !*line)
		return NULL;
	char *nl = strchr(line, '\n');
	if (nl)
		*nl++ = '\0';
	*cursor = nl;
	return line;
}

char *inv_data_line(char **cursor, int *lineno)
{
	char *line;
	while ((line = inv_next_line(cursor))) {
		++*lineno;
		line[strcspn(line, "#")] = '\0';
		while (isspace((unsigned char)*line))
			line++;
		if (*line)
			return line;
	}
	return NULL;
}

void inv_note(struct inventory *inv, const char *fmt, ...)
{
	char tmp[1024];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(tmp, sizeof tmp, fmt, ap);
	va_end(ap);
	inv->notes = xrealloc(inv->notes, (inv->nnotes + 1) * sizeof *inv->notes);
	inv->notes[inv->nnotes++] = xstrdup(tmp);
}

struct inv_item *inv_add(struct inventory *inv, const char *name, enum inv_kind kind,
			 const char *group, const char *src)
{
	inv->items = xrealloc(inv->items, (inv->nitems + 1) * sizeof *inv->items);
	struct inv_item *it = &inv->items[inv->nitems++];
	*it = (struct inv_item){ .name = xstrdup(name), .kind = kind, .group = xstrdup(group),
				 .src = xstrdup(src), .match = MATCH_IDENT };
	return it;
}

struct inv_item *inv_lookup(struct inventory *inv, const char *name)
{
	for (size_t i = 0; name && i < inv->nitems; i++)
		if (!strcmp(inv->items[i].name, name) ||
		    (inv->items[i].alias && !strcmp(inv->items[i].alias, name)))
			return &inv->items[i];
	return NULL;
}

const struct inv_item *inv_find(const struct inventory *inv, const char *name)
{
	return inv_lookup((struct inventory *)inv, name);
}

struct config_job {
	const char *src;
};

static int fill_config(const char *tmpdir, void *arg, char *err, size_t errlen)
{
	const struct config_job *j = arg;
	return kconfig_make("inventory: the ttypot config", j->src, tmpdir, err, errlen);
}

/* The .config ttypot builds src with, made once per source and fragment
 * in CACHE/inventory/config-HASH/. */
static int make_config(const char *cache, const char *src, const char *ident, char *out,
		       size_t outlen, char *err, size_t errlen)
{
	char frag[PATH_MAX], fraghex[65], key[65];
	if (kfragment_path(frag, sizeof frag) < 0 || ku_sha256_file(frag, fraghex) < 0) {
		snprintf(err, errlen, "config fragment fixtures/kernel/ttypot.config not found "
			 "(set TTYPOT_FRAGMENT, or give --config FILE)");
		return -1;
	}
	struct rbuf b = {0};
	rbuf_addf(&b, "%s\n%s\n", ident, fraghex);
	ku_sha256_hex(b.s, b.len, key);
	rbuf_free(&b);
	char dir[PATH_MAX];
	snprintf(dir, sizeof dir, "%s/inventory/config-%.16s", cache, key);
	snprintf(out, outlen, "%s/.config", dir);
	if (ku_is_file(out))
		return 0;
	ku_progress("inventory: making the config of %s (tinyconfig + ttypot.config) in %s",
		    src, dir);
	struct config_job j = { src };
	if (ku_once(dir, false, "inventory: the ttypot config", INV_CONFIG_WAIT_S, fill_config,
		    &j, err, errlen) < 0)
		return -1;
	return ku_is_file(out) ? 0 : -1;
}

static void status(struct inventory *inv)
{
	for (size_t i = 0; i < inv->nitems; i++) {
		struct inv_item *it = &inv->items[i];
		bool on_uart = false;
		for (size_t u = 0; u < it->nuses; u++)
			on_uart |= !strcmp(it->uses[u].driver, "8250");
		if (it->not_built)
			it->status = INV_NOT_BUILT;
		else if (it->unreachable)
			it->status = INV_UNREACHABLE;
		else if (it->uart)
			it->status = on_uart ? INV_USED : INV_NEEDS_UART;
		else
			it->status = it->nuses ? INV_USED : INV_NO_CASE;
		if (it->unreachable && it->nuses)
			inv_note(inv, "%s is listed unreachable, yet %zu case%s use%s it (%s ...): "
				 "is the reason still right?", it->name, it->nuses,
				 it->nuses == 1 ? "" : "s", it->nuses == 1 ? "s" : "",
				 it->uses[0].cas);
	}
}

int inv_build(const struct inv_opts *o, struct inventory *inv, char *err, size_t errlen)
{
	*inv = (struct inventory){0};
	char cache[PATH_MAX], ident[PATH_MAX + 100] = "";
	if (o->cache)
		snprintf(cache, sizeof cache, "%s", o->cache);
	else
		ku_default_cache(cache, sizeof cache);
	if (o->source) {
		snprintf(inv->source, sizeof inv->source, "%s", o->source);
		snprintf(ident, sizeof ident, "tree:%s", o->source);
		char mk[PATH_MAX + 16];
		snprintf(mk, sizeof mk, "%s/Makefile", o->source);
		if (!ku_is_file(mk)) {
			snprintf(err, errlen, "--source %s: not a kernel source tree (no Makefile)",
				 o->source);
			return -1;
		}
	} else if (ksource_unpack("src:" INV_SOURCE, INV_SOURCE, cache, inv->source,
				  sizeof inv->source, ident, sizeof ident, err, errlen) < 0) {
		return -1;
	}
	if (o->config)
		snprintf(inv->config, sizeof inv->config, "%s", o->config);
	else if (make_config(cache, inv->source, ident, inv->config, sizeof inv->config, err,
			     errlen) < 0)
		return -1;
	char data[PATH_MAX], p[PATH_MAX + 32];
	if (o->data)
		snprintf(data, sizeof data, "%s", o->data);
	else
		snprintf(data, sizeof data, "%s/fixtures/inventory", o->suite);
	struct kconf *c = kconf_load(inv->config, err, errlen);
	if (!c)
		return -1;
	int rc = inv_uapi(inv, inv->source, err, errlen);
	if (!rc)
		rc = inv_built(inv, inv->source, c, err, errlen);
	kconf_free(c);
	if (!rc) {
		snprintf(p, sizeof p, "%s/unreachable", data);
		rc = inv_notes(inv, p, false, !o->config, err, errlen);
	}
	if (!rc) {
		snprintf(p, sizeof p, "%s/uart", data);
		rc = inv_notes(inv, p, true, !o->config, err, errlen);
	}
	if (!rc) {
		snprintf(p, sizeof p, "%s/libc", data);
		rc = inv_uses(inv, o->suite, p, o->trace, err, errlen);
	}
	if (!rc)
		status(inv);
	return rc;
}

void inv_free(struct inventory *inv)
{
	for (size_t i = 0; i < inv->nitems; i++) {
		struct inv_item *it = &inv->items[i];
		free(it->name);
		free(it->alias);
		free(it->group);
		free(it->src);
		free(it->handlers);
		free(it->not_built);
		free(it->unreachable);
		free(it->uart);
		free(it->pattern);
		for (size_t u = 0; u < it->nuses; u++)
			free(it->uses[u].cas);
		free(it->uses);
	}
	free(inv->items);
	for (size_t i = 0; i < inv->ncases; i++)
		free(inv->cases[i]);
	free(inv->cases);
	for (size_t i = 0; i < inv->nnotes; i++)
		free(inv->notes[i]);
	free(inv->notes);
	*inv = (struct inventory){0};
}

void inv_count(const struct inventory *inv, struct inv_counts *c)
{
	*c = (struct inv_counts){0};
	for (size_t i = 0; i < inv->nitems; i++) {
		const struct inv_item *it = &inv->items[i];
		c->items++;
		c->by_kind[it->kind]++;
		switch (it->status) {
		case INV_USED: c->used++; c->used_by_kind[it->kind]++; break;
		case INV_NOT_BUILT: c->not_built++; break;
		case INV_UNREACHABLE: c->unreachable++; break;
		case INV_NEEDS_UART: c->needs_uart++; break;
		case INV_NO_CASE: c->no_case++; break;
		}
	}
}
