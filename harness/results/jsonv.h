/*
 * jsonv.h: a small strict JSON reader (RFC 8259), enough to load
 * matrix.json files back (merge, report) and to check what we wrote.
 */
#ifndef TTYPOT_JSONV_H
#define TTYPOT_JSONV_H

#include <stdbool.h>
#include <stddef.h>

enum jv_type { JV_NULL, JV_BOOL, JV_NUM, JV_STR, JV_ARR, JV_OBJ };

struct jv {
	enum jv_type t;
	bool b;
	double num;
	char *str;         /* JV_STR (decoded, NUL-terminated) */
	size_t n;          /* items in JV_ARR / JV_OBJ */
	struct jv *items;  /* values */
	char **keys;       /* JV_OBJ keys, parallel to items */
};

/* Parse a whole document.  NULL with "line L col C: what" in err. */
struct jv *jv_parse(const char *text, size_t len, char *err, size_t errlen);
void jv_free(struct jv *v);

const struct jv *jv_get(const struct jv *obj, const char *key); /* NULL if absent */
const char *jv_str(const struct jv *obj, const char *key, const char *dflt);
double jv_num(const struct jv *obj, const char *key, double dflt);

#endif
