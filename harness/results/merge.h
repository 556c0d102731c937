/* SPDX-License-Identifier: GPL-2.0-only */
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

/* A member of a JSON object: a string (dflt when absent or not a string),
 * a number (integer or real, else dflt). */
const char *merge_str(const json_t *o, const char *key, const char *dflt);
double merge_num(const json_t *o, const char *key, double dflt);

/* Append the columns of one matrix.json to m.  baseline (may be NULL) gets
 * the file's baseline label.  0, or -1 with a message naming the file (the
 * matrix is left unchanged then). */
int merge_load_json(struct matrix *m, const char *path, char *baseline,
		    size_t baselen, char *err, size_t errlen);

/* The same for a matrix.json text already in memory; path names it in
 * messages. */
int merge_load_text(struct matrix *m, const char *text, size_t len, const char *path,
		    char *baseline, size_t baselen, char *err, size_t errlen);

#endif
