/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * expectations.h: known, explained failures keyed on kernel features
 * (fixtures/expect/NAME.conf; the format is described in
 * fixtures/expect/README.md).  A case whose status matches an expectation
 * that holds for its column becomes xfail with the expectation's reason;
 * an entry STATUS~TEXT holds only for a result whose own reason contains
 * TEXT (one known failure of a case, not any failure of it).
 */
#ifndef TTYPOT_EXPECTATIONS_H
#define TTYPOT_EXPECTATIONS_H

#include <stdbool.h>
#include <stddef.h>

#include "result.h"

struct expectation {
	char *pred;     /* "release<6.2,arch=x86_64" or "always" */
	char *id;       /* case id, or a prefix ending in '*' */
	enum status st; /* the status that is expected */
	char *match;    /* text the case's own reason must contain (STATUS~TEXT), or NULL */
	char *reason;
	char *where;    /* "file:line" */
};

struct expectations {
	struct expectation *v;
	size_t n;
};

/* Load one file / every *.conf of a directory (in name order; a missing
 * directory is no error).  -1 with "file:line: what" in err. */
int expect_load_file(struct expectations *e, const char *path, char *err,
		     size_t errlen);
int expect_load_dir(struct expectations *e, const char *dir, char *err,
		    size_t errlen);
void expect_free(struct expectations *e);

/* Check a predicate's syntax (0 ok, -1 with a message). */
int expect_pred_check(const char *pred, char *err, size_t errlen);
/* Does the predicate hold for the column? */
bool expect_pred_holds(const char *pred, const struct column *c);
/* Apply to every case of the column (first matching entry wins). */
void expect_apply(const struct expectations *e, struct column *c);

#endif
