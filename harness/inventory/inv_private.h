/* SPDX-License-Identifier: GPL-2.0-only */
/* inv_private.h: what the files of harness/inventory/ share (inventory.h
 * is the interface). */
#ifndef TTYPOT_INV_PRIVATE_H
#define TTYPOT_INV_PRIVATE_H

#include "inventory.h"

#include <stdbool.h>
#include <stddef.h>

/* How a case names an item besides its name and alias (inv_item.match):
 * by a string literal of the case (and its helpers). */
enum inv_match {
	MATCH_IDENT,   /* only the name/alias as an identifier */
	MATCH_EXACT,   /* a literal equal to pattern */
	MATCH_DEVNUM,  /* a literal pattern + digits or a '%' format (a numbered node) */
	MATCH_PATH,    /* a literal holding pattern, followed by its end, '/' or '%' */
	MATCH_SYSFS,   /* a literal holding "/sys/class/tty/" and ending "/pattern" */
};

/* ---- kconf.c: the config and kbuild's Makefiles ---- */
struct kconf;
struct kconf *kconf_load(const char *path, char *err, size_t errlen);
void kconf_free(struct kconf *c);
/* Is CONFIG_sym y or m? (sym without CONFIG_) */
bool kconf_enabled(const char *sym, void *kconf);
/* Is the source file rel (drivers/tty/n_gsm.c) built under the config, as
 * the Makefiles of src say?  When not, why says which symbol is unset
 * (or which directory is not descended into). */
bool kbuild_built(const char *src, struct kconf *c, const char *rel, char *why,
		  size_t whylen);

/* ---- items: adding and finding ---- */
struct inv_item *inv_add(struct inventory *inv, const char *name, enum inv_kind kind,
			 const char *group, const char *src);
struct inv_item *inv_lookup(struct inventory *inv, const char *name);

/* ---- uapi.c: the items of the uapi headers ---- */
int inv_uapi(struct inventory *inv, const char *src, char *err, size_t errlen);

/* The ioctls (_IO*) of include/uapi/linux/HEADER, a built line
 * discipline's own, grouped under it. */
int inv_ldisc_ioctls(struct inventory *inv, const char *src, const char *header,
		     const char *ldisc, char *err, size_t errlen);

/* The VT's ioctl requests (linux/kd.h 0x4BNN, linux/vt.h 0x56NN); not_built
 * (why the config does not build drivers/tty/vt) or NULL. */
int inv_vt_ioctls(struct inventory *inv, const char *src, const char *not_built, char *err,
		  size_t errlen);

/* ---- built.c: what the built files create, which are built, handlers ---- */
int inv_built(struct inventory *inv, const char *src, struct kconf *c, char *err,
	      size_t errlen);

/* ---- uses.c: the cases' uses ---- */
int inv_uses(struct inventory *inv, const char *suite, const char *libc_file,
	     const char *trace, char *err, size_t errlen);

/* ---- notes.c: fixtures/inventory/unreachable and uart ---- */
int inv_notes(struct inventory *inv, const char *path, bool uart, bool own_config, char *err,
	      size_t errlen);

/* The line at *cursor, NUL-terminated in place; *cursor moves past it;
 * NULL at the end of the text. */
char *inv_next_line(char **cursor);
/* The next line of a data file that holds something: a '#' and what
 * follows it dropped, leading blanks skipped, empty lines passed over;
 * *lineno counts every line.  NULL at the end. */
char *inv_data_line(char **cursor, int *lineno);

/* A file read whole, NULL with err naming it. */
char *inv_read(const char *path, char *err, size_t errlen);
void inv_note(struct inventory *inv, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

#endif
