/*
 * merge.h: load matrix.json files (schema ttypot-matrix/1) back into
 * columns, e.g. to merge runs made on different machines.  A label already
 * in the matrix gets a "-2", "-3"... suffix (with a warning on stderr).
 */
#ifndef TTYPOT_MERGE_H
#define TTYPOT_MERGE_H

#include <jansson.h>
#include <stddef.h>

#include "matrix.h"

/* Parse a matrix.json text (jansson, strict: an object, no duplicate keys,
 * nothing after it).  NULL with je filled. */
json_t *merge_parse(const char *text, size_t len, json_error_t *je);

/* Append the columns of one matrix.json to m.  baseline (may be NULL) gets
 * the file's baseline label.  0, or -1 with a message naming the file (the
 * matrix is left unchanged then). */
int merge_load_json(struct matrix *m, const char *path, char *baseline,
		    size_t baselen, char *err, size_t errlen);

#endif
