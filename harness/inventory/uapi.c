// SPDX-License-Identifier: GPL-2.0-only
/* uapi.c: the items the uapi headers define: the tty ioctls and the values
 * they take, termios flags and control characters, line disciplines, the
 * flags of TIOCSSERIAL (inv_private.h).  Read line by line: #define NAME
 * VALUE, with the comment lines of termbits.h naming the field each block
 * belongs to. */
#include "inv_private.h"
#include "kutil.h"
#include "rbuf.h"

#include <ctype.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Paths are bounded by PATH_MAX; a truncated message is only shorter. */
#pragma GCC diagnostic ignored "-Wformat-truncation"

struct define {
	char name[64], value[160], section[160];
	int line;
};

/* The object-like #defines of a header, each with the comment lines
 * between it and the define before it (a section's title), "" when none. */
static size_t read_defines(const char *path, struct define **out, char *err, size_t errlen)
{
	*out = NULL;
	char *text = inv_read(path, err, errlen);
	if (!text)
		return (size_t)-1;
	size_t n = 0;
	int lineno = 0;
	char section[160] = "";
	char *cursor = text, *line;
	while ((line = inv_next_line(&cursor))) {
		lineno++;
		const char *p = line;
		while (isspace((unsigned char)*p))
			p++;
		if (!strncmp(p, "/*", 2)) { /* the comment lines since the last define */
			const char *e = strstr(p, "*/");
			size_t l = strlen(section);
			snprintf(section + l, sizeof section - l, "%s%.*s", l ? " | " : "",
				 e ? (int)(e - p - 2) : 100, p + 2);
			continue;
		}
		if (*p != '#')
			continue;
		p++;
		while (*p == ' ' || *p == '\t')
			p++;
		if (strncmp(p, "define", 6) || !isspace((unsigned char)p[6]))
			continue;
		p += 6;
		while (isspace((unsigned char)*p))
			p++;
		struct define d = { .line = lineno };
		size_t k = 0;
		while ((isalnum((unsigned char)*p) || *p == '_') && k + 1 < sizeof d.name)
			d.name[k++] = *p++;
		if (!k || *p == '(')
			continue;
		while (isspace((unsigned char)*p))
			p++;
		size_t v = strcspn(p, "/"); /* up to a trailing comment */
		while (v && isspace((unsigned char)p[v - 1]))
			v--;
		if (!v)
			continue; /* an include guard */
		snprintf(d.value, sizeof d.value, "%.*s", (int)v, p);
		snprintf(d.section, sizeof d.section, "%s", section);
		section[0] = '\0';
		*out = xrealloc(*out, (n + 1) * sizeof **out);
		(*out)[n++] = d;
	}
	free(text);
	return n;
}

static bool is_number(const char *v)
{
	char *end;
	strtoul(v, &end, 0);
	return end != v && !*end;
}

/* The header arch/x86 uses: its own when it has one, else asm-generic's. */
static void arch_header(const char *src, const char *name, char *out, size_t outlen,
			char *rel, size_t rellen)
{
	snprintf(rel, rellen, "arch/x86/include/uapi/asm/%s", name);
	snprintf(out, outlen, "%s/%s", src, rel);
	if (ku_is_file(out))
		return;
	snprintf(rel, rellen, "include/uapi/asm-generic/%s", name);
	snprintf(out, outlen, "%s/%s", src, rel);
}

/* An item whose value names another item is that item's alias. */
static bool alias_of(struct inventory *inv, const struct define *d)
{
	struct inv_item *it = inv_lookup(inv, d->value);
	if (!it || it->alias)
		return it != NULL;
	it->alias = xstrdup(d->name);
	return true;
}

static void src_of(char *out, size_t outlen, const char *rel, int line)
{
	snprintf(out, outlen, "%s:%d", rel, line);
}

/* NAME_PREFIX_* of a value's name: TIOCPKT_DATA -> TIOCPKT_*. */
static void prefix_group(const char *name, const char *what, char *out, size_t outlen)
{
	const char *u = strrchr(name, '_');
	snprintf(out, outlen, "%.*s_* (%s)", u ? (int)(u - name) : (int)strlen(name), name, what);
}

/* ioctls.h: requests are 0x54NN or _IO*(), a name of another is an alias,
 * a plain number is a value an ioctl takes or gives. */
static int ioctls(struct inventory *inv, const char *src, char *err, size_t errlen)
{
	char path[PATH_MAX], rel[256], where[300];
	arch_header(src, "ioctls.h", path, sizeof path, rel, sizeof rel);
	struct define *d;
	size_t n = read_defines(path, &d, err, errlen);
	if (n == (size_t)-1)
		return -1;
	size_t requests = 0;
	for (size_t i = 0; i < n; i++) {
		src_of(where, sizeof where, rel, d[i].line);
		const char *v = d[i].value;
		bool req = !strncmp(v, "_IO", 3) ||
			   (!strncasecmp(v, "0x54", 4) && strlen(v) == 6 && is_number(v));
		if (alias_of(inv, &d[i]))
			continue;
		if (req) {
			inv_add(inv, d[i].name, INV_IOCTL, "ioctls.h", where);
			requests++;
		} else if (is_number(v)) {
			char g[160];
			prefix_group(d[i].name, "an ioctl's value", g, sizeof g);
			inv_add(inv, d[i].name, INV_ARG, g, where);
		}
	}
	free(d);
	if (requests < 40) {
		snprintf(err, errlen, "%s: %zu tty ioctl requests (0x54NN or _IO): not the "
			 "tty ioctl header", path, requests);
		return -1;
	}
	return 0;
}

/* termios.h: the modem lines of TIOCMGET/TIOCMSET (TIOCM_*). */
static int modem_bits(struct inventory *inv, const char *src, char *err, size_t errlen)
{
	char path[PATH_MAX], rel[256], where[300];
	arch_header(src, "termios.h", path, sizeof path, rel, sizeof rel);
	struct define *d;
	size_t n = read_defines(path, &d, err, errlen), found = 0;
	if (n == (size_t)-1)
		return -1;
	for (size_t i = 0; i < n; i++) {
		if (strncmp(d[i].name, "TIOCM_", 6) || alias_of(inv, &d[i]))
			continue;
		src_of(where, sizeof where, rel, d[i].line);
		inv_add(inv, d[i].name, INV_ARG, "TIOCM_* (TIOCMGET, TIOCMSET, TIOCMBIS, TIOCMBIC)",
			where);
		found++;
	}
	free(d);
	if (!found) {
		snprintf(err, errlen, "%s: no TIOCM_ modem line", path);
		return -1;
	}
	return 0;
}

/* termbits.h and termbits-common.h, by their section comments. */
static const struct {
	const char *key, *group;
	enum inv_kind kind;
} sections[] = {
	{ "c_iflag", "c_iflag", INV_TERMIOS },
	{ "c_oflag", "c_oflag", INV_TERMIOS },
	{ "c_cflag", "c_cflag", INV_TERMIOS },
	{ "c_lflag", "c_lflag", INV_TERMIOS },
	{ "c_cc", "c_cc", INV_CC },
	{ "tcflow", "tcflow/TCXONC action", INV_ARG },
	{ "tcflush", "tcflush/TCFLSH queue", INV_ARG },
	{ "tcsetattr", "tcsetattr action", INV_ARG },
};
#define NSECTIONS (sizeof sections / sizeof *sections)

static int termbits_file(struct inventory *inv, const char *src, const char *name,
			 bool seen[NSECTIONS], char *err, size_t errlen)
{
	char path[PATH_MAX], rel[256], where[300];
	arch_header(src, name, path, sizeof path, rel, sizeof rel);
	struct define *d;
	size_t n = read_defines(path, &d, err, errlen);
	if (n == (size_t)-1)
		return -1;
	/* the section holds until a comment naming another one */
	int cur = -1;
	for (size_t i = 0; i < n; i++) {
		if (d[i].section[0])
			for (size_t s = 0; s < NSECTIONS; s++)
				if (strstr(d[i].section, sections[s].key))
					cur = (int)s;
		if (cur < 0 || alias_of(inv, &d[i]))
			continue;
		src_of(where, sizeof where, rel, d[i].line);
		inv_add(inv, d[i].name, sections[cur].kind, sections[cur].group, where);
		seen[cur] = true;
	}
	free(d);
	return 0;
}

static int termbits(struct inventory *inv, const char *src, char *err, size_t errlen)
{
	bool seen[NSECTIONS] = { false };
	char common[PATH_MAX], rel[256];
	arch_header(src, "termbits-common.h", common, sizeof common, rel, sizeof rel);
	/* the common file first: termbits.h includes it before its own */
	if ((ku_is_file(common) && termbits_file(inv, src, "termbits-common.h", seen, err,
						errlen) < 0) ||
	    termbits_file(inv, src, "termbits.h", seen, err, errlen) < 0)
		return -1;
	for (size_t s = 0; s < NSECTIONS; s++)
		if (!seen[s]) {
			snprintf(err, errlen, "%s/include/uapi/asm-generic/termbits.h: no "
				 "definition under a comment naming %s", src, sections[s].key);
			return -1;
		}
	return 0;
}

static int ldiscs(struct inventory *inv, const char *src, char *err, size_t errlen)
{
	const char *rel = "include/uapi/linux/tty.h";
	char path[PATH_MAX], where[300];
	snprintf(path, sizeof path, "%s/%s", src, rel);
	struct define *d;
	size_t n = read_defines(path, &d, err, errlen), found = 0;
	if (n == (size_t)-1)
		return -1;
	for (size_t i = 0; i < n; i++) {
		if (strncmp(d[i].name, "N_", 2) || !is_number(d[i].value))
			continue;
		src_of(where, sizeof where, rel, d[i].line);
		char g[64];
		snprintf(g, sizeof g, "line discipline %s", d[i].value);
		inv_add(inv, d[i].name, INV_LDISC, g, where);
		found++;
	}
	free(d);
	if (found < 4) {
		snprintf(err, errlen, "%s: %zu N_ line disciplines", path, found);
		return -1;
	}
	return 0;
}

/* tty_flags.h: the flags of TIOCSSERIAL a program sets (serial_struct's
 * flags, setserial's hup_notify, sak, spd_hi ...): ASYNC_X for each bit
 * ASYNCB_X up to ASYNCB_LAST_USER, and the speed settings made of two
 * bits (ASYNC_SPD_CUST, ASYNC_SPD_WARP); the masks are not flags. */
static int serial_flags(struct inventory *inv, const char *src, char *err, size_t errlen)
{
	const char *rel = "include/uapi/linux/tty_flags.h";
	const char *group = "ASYNC_* (TIOCSSERIAL flags)";
	char path[PATH_MAX], where[300];
	snprintf(path, sizeof path, "%s/%s", src, rel);
	struct define *d;
	size_t n = read_defines(path, &d, err, errlen), found = 0;
	if (n == (size_t)-1)
		return -1;
	long last = -1;
	for (size_t i = 0; i < n; i++)
		if (!strcmp(d[i].name, "ASYNCB_LAST_USER") && is_number(d[i].value))
			last = strtol(d[i].value, NULL, 0);
	for (size_t i = 0; i < n && last >= 0; i++) {
		const char *nm = d[i].name;
		char flag[80];
		if (!strncmp(nm, "ASYNCB_", 7) && strcmp(nm, "ASYNCB_LAST_USER") &&
		    is_number(d[i].value) && strtol(d[i].value, NULL, 0) <= last)
			snprintf(flag, sizeof flag, "ASYNC_%s", nm + 7);
		else if (!strncmp(nm, "ASYNC_SPD_", 10) && !strstr(nm, "_MASK") &&
			 strstr(d[i].value, "ASYNC_SPD_"))
			snprintf(flag, sizeof flag, "%s", nm);
		else
			continue;
		src_of(where, sizeof where, rel, d[i].line);
		inv_add(inv, flag, INV_ARG, group, where);
		found++;
	}
	free(d);
	if (last < 0 || found < 8) {
		snprintf(err, errlen, "%s: %zu ASYNC_ flags up to ASYNCB_LAST_USER (%s)", path,
			 found, last < 0 ? "not defined" : "too few");
		return -1;
	}
	return 0;
}

int inv_uapi(struct inventory *inv, const char *src, char *err, size_t errlen)
{
	snprintf(inv->arch_dir, sizeof inv->arch_dir, "arch/x86");
	if (ioctls(inv, src, err, errlen) < 0 || modem_bits(inv, src, err, errlen) < 0 ||
	    termbits(inv, src, err, errlen) < 0 || ldiscs(inv, src, err, errlen) < 0 ||
	    serial_flags(inv, src, err, errlen) < 0)
		return -1;
	return 0;
}

/* The VT's requests: the plain numbers 0x4BNN of linux/kd.h and 0x56NN of
 * linux/vt.h (their structures' fields and mode values are not requests). */
int inv_vt_ioctls(struct inventory *inv, const char *src, const char *not_built, char *err,
		  size_t errlen)
{
	static const struct {
		const char *header, *prefix;
	} h[] = { { "kd.h", "0x4B" }, { "vt.h", "0x56" } };
	for (size_t k = 0; k < sizeof h / sizeof *h; k++) {
		char path[PATH_MAX], rel[300], where[400], group[200];
		snprintf(rel, sizeof rel, "include/uapi/linux/%s", h[k].header);
		snprintf(path, sizeof path, "%s/%s", src, rel);
		struct define *d;
		size_t n = read_defines(path, &d, err, errlen), requests = 0;
		if (n == (size_t)-1)
			return -1;
		snprintf(group, sizeof group, "linux/%s (vt)", h[k].header);
		for (size_t i = 0; i < n; i++) {
			const char *v = d[i].value;
			if (strlen(v) != 6 || strncasecmp(v, h[k].prefix, 4) || !is_number(v) ||
			    inv_lookup(inv, d[i].name))
				continue;
			src_of(where, sizeof where, rel, d[i].line);
			struct inv_item *it = inv_add(inv, d[i].name, INV_IOCTL, group, where);
			it->not_built = not_built ? xstrdup(not_built) : NULL;
			requests++;
		}
		free(d);
		if (requests < 10) {
			snprintf(err, errlen, "%s: %zu requests %sNN: not the VT's ioctl header",
				 path, requests, h[k].prefix);
			return -1;
		}
	}
	return 0;
}

/* The _IO ioctls of a uapi header a built line discipline includes. */
int inv_ldisc_ioctls(struct inventory *inv, const char *src, const char *header,
		     const char *ldisc, char *err, size_t errlen)
{
	char path[PATH_MAX], rel[300], where[400], group[200];
	snprintf(rel, sizeof rel, "include/uapi/linux/%s", header);
	snprintf(path, sizeof path, "%s/%s", src, rel);
	struct define *d;
	size_t n = read_defines(path, &d, err, errlen);
	if (n == (size_t)-1)
		return -1;
	snprintf(group, sizeof group, "linux/%s (%s)", header, ldisc);
	for (size_t i = 0; i < n; i++) {
		if (strncmp(d[i].value, "_IO", 3) || inv_lookup(inv, d[i].name))
			continue;
		src_of(where, sizeof where, rel, d[i].line);
		inv_add(inv, d[i].name, INV_IOCTL, group, where);
	}
	free(d);
	return 0;
}
