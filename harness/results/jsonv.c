/* jsonv.c: a strict recursive-descent JSON reader. */
#include "jsonv.h"
#include "rbuf.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define JV_MAX_DEPTH 64

struct jp {
	const char *s, *end, *p;
	char *err;
	size_t errlen;
	bool failed;
};

static void fail(struct jp *j, const char *what)
{
	if (j->failed)
		return;
	j->failed = true;
	int line = 1, col = 1;
	for (const char *q = j->s; q < j->p && q < j->end; q++) {
		if (*q == '\n') {
			line++;
			col = 1;
		} else {
			col++;
		}
	}
	snprintf(j->err, j->errlen, "line %d col %d: %s", line, col, what);
}

static void ws(struct jp *j)
{
	while (j->p < j->end && (*j->p == ' ' || *j->p == '\t' || *j->p == '\n' || *j->p == '\r'))
		j->p++;
}

static bool lit(struct jp *j, const char *w)
{
	size_t n = strlen(w);
	if ((size_t)(j->end - j->p) >= n && memcmp(j->p, w, n) == 0) {
		j->p += n;
		return true;
	}
	return false;
}

static int hex4(struct jp *j)
{
	if (j->end - j->p < 4)
		return -1;
	int v = 0;
	for (int i = 0; i < 4; i++) {
		char c = j->p[i];
		v <<= 4;
		if (c >= '0' && c <= '9') v |= c - '0';
		else if (c >= 'a' && c <= 'f') v |= c - 'a' + 10;
		else if (c >= 'A' && c <= 'F') v |= c - 'A' + 10;
		else return -1;
	}
	j->p += 4;
	return v;
}

static void put_utf8(struct rbuf *b, unsigned cp)
{
	char o[4];
	if (cp < 0x80) { o[0] = (char)cp; rbuf_addn(b, o, 1); }
	else if (cp < 0x800) { o[0] = (char)(0xc0 | cp >> 6); o[1] = (char)(0x80 | (cp & 0x3f)); rbuf_addn(b, o, 2); }
	else if (cp < 0x10000) { o[0] = (char)(0xe0 | cp >> 12); o[1] = (char)(0x80 | ((cp >> 6) & 0x3f)); o[2] = (char)(0x80 | (cp & 0x3f)); rbuf_addn(b, o, 3); }
	else { o[0] = (char)(0xf0 | cp >> 18); o[1] = (char)(0x80 | ((cp >> 12) & 0x3f)); o[2] = (char)(0x80 | ((cp >> 6) & 0x3f)); o[3] = (char)(0x80 | (cp & 0x3f)); rbuf_addn(b, o, 4); }
}

static char *string(struct jp *j)
{
	struct rbuf b = {0};
	rbuf_add(&b, "");
	j->p++; /* opening quote */
	while (j->p < j->end && *j->p != '"') {
		unsigned char c = (unsigned char)*j->p;
		if (c < 0x20) {
			fail(j, "control character in a string");
			break;
		}
		if (c != '\\') {
			rbuf_addc(&b, (char)c);
			j->p++;
			continue;
		}
		j->p++;
		if (j->p >= j->end)
			break;
		char e = *j->p++;
		switch (e) {
		case '"': rbuf_addc(&b, '"'); break;
		case '\\': rbuf_addc(&b, '\\'); break;
		case '/': rbuf_addc(&b, '/'); break;
		case 'b': rbuf_addc(&b, '\b'); break;
		case 'f': rbuf_addc(&b, '\f'); break;
		case 'n': rbuf_addc(&b, '\n'); break;
		case 'r': rbuf_addc(&b, '\r'); break;
		case 't': rbuf_addc(&b, '\t'); break;
		case 'u': {
			int v = hex4(j);
			if (v < 0) {
				fail(j, "bad \\u escape");
				break;
			}
			unsigned cp = (unsigned)v;
			if (cp >= 0xd800 && cp < 0xdc00 && lit(j, "\\u")) {
				int lo = hex4(j);
				if (lo >= 0xdc00 && lo < 0xe000)
					cp = 0x10000 + ((cp - 0xd800) << 10) + ((unsigned)lo - 0xdc00);
				else
					cp = 0xfffd;
			} else if (cp >= 0xd800 && cp < 0xe000) {
				cp = 0xfffd;
			}
			put_utf8(&b, cp);
			break;
		}
		default:
			fail(j, "bad escape");
		}
		if (j->failed)
			break;
	}
	if (!j->failed && j->p >= j->end)
		fail(j, "unterminated string");
	if (j->failed) {
		rbuf_free(&b);
		return NULL;
	}
	j->p++; /* closing quote */
	char *clean = utf8_clean(b.s, b.len);
	rbuf_free(&b);
	return clean;
}

static bool value(struct jp *j, struct jv *v, int depth);

static bool number(struct jp *j, struct jv *v)
{
	const char *q = j->p;
	if (q < j->end && *q == '-')
		q++;
	if (q >= j->end || *q < '0' || *q > '9')
		return fail(j, "bad number"), false;
	if (*q == '0')
		q++;
	else
		while (q < j->end && *q >= '0' && *q <= '9')
			q++;
	if (q < j->end && *q == '.') {
		q++;
		if (q >= j->end || *q < '0' || *q > '9')
			return fail(j, "bad number"), false;
		while (q < j->end && *q >= '0' && *q <= '9')
			q++;
	}
	if (q < j->end && (*q == 'e' || *q == 'E')) {
		q++;
		if (q < j->end && (*q == '+' || *q == '-'))
			q++;
		if (q >= j->end || *q < '0' || *q > '9')
			return fail(j, "bad number"), false;
		while (q < j->end && *q >= '0' && *q <= '9')
			q++;
	}
	char tmp[64];
	size_t n = (size_t)(q - j->p);
	if (n >= sizeof tmp)
		n = sizeof tmp - 1;
	memcpy(tmp, j->p, n);
	tmp[n] = '\0';
	v->t = JV_NUM;
	v->num = strtod(tmp, NULL);
	j->p = q;
	return true;
}

static bool container(struct jp *j, struct jv *v, int depth, bool obj)
{
	v->t = obj ? JV_OBJ : JV_ARR;
	j->p++;
	ws(j);
	char close = obj ? '}' : ']';
	if (j->p < j->end && *j->p == close) {
		j->p++;
		return true;
	}
	for (;;) {
		char *key = NULL;
		ws(j);
		if (obj) {
			if (j->p >= j->end || *j->p != '"')
				return fail(j, "expected a key"), false;
			key = string(j);
			if (!key)
				return false;
			ws(j);
			if (j->p >= j->end || *j->p != ':') {
				free(key);
				return fail(j, "expected ':'"), false;
			}
			j->p++;
		}
		v->items = xrealloc(v->items, (v->n + 1) * sizeof *v->items);
		if (obj)
			v->keys = xrealloc(v->keys, (v->n + 1) * sizeof *v->keys);
		memset(&v->items[v->n], 0, sizeof *v->items);
		if (obj)
			v->keys[v->n] = key;
		v->n++;
		if (!value(j, &v->items[v->n - 1], depth + 1))
			return false;
		ws(j);
		if (j->p < j->end && *j->p == ',') {
			j->p++;
			continue;
		}
		if (j->p < j->end && *j->p == close) {
			j->p++;
			return true;
		}
		return fail(j, obj ? "expected ',' or '}'" : "expected ',' or ']'"), false;
	}
}

static bool value(struct jp *j, struct jv *v, int depth)
{
	if (depth > JV_MAX_DEPTH)
		return fail(j, "nested too deeply"), false;
	ws(j);
	if (j->p >= j->end)
		return fail(j, "unexpected end"), false;
	switch (*j->p) {
	case '{': return container(j, v, depth, true);
	case '[': return container(j, v, depth, false);
	case '"':
		v->t = JV_STR;
		v->str = string(j);
		return v->str != NULL;
	case 't': if (lit(j, "true")) { v->t = JV_BOOL; v->b = true; return true; } break;
	case 'f': if (lit(j, "false")) { v->t = JV_BOOL; return true; } break;
	case 'n': if (lit(j, "null")) { v->t = JV_NULL; return true; } break;
	default: return number(j, v);
	}
	return fail(j, "unexpected character"), false;
}

static void jv_clear(struct jv *v)
{
	for (size_t i = 0; i < v->n; i++) {
		jv_clear(&v->items[i]);
		if (v->keys)
			free(v->keys[i]);
	}
	free(v->items);
	free(v->keys);
	free(v->str);
}

void jv_free(struct jv *v)
{
	if (!v)
		return;
	jv_clear(v);
	free(v);
}

struct jv *jv_parse(const char *text, size_t len, char *err, size_t errlen)
{
	struct jp j = { text, text + len, text, err, errlen, false };
	struct jv *v = calloc(1, sizeof *v);
	if (!v)
		abort();
	if (value(&j, v, 0)) {
		ws(&j);
		if (j.p != j.end)
			fail(&j, "trailing characters");
	}
	if (j.failed) {
		jv_free(v);
		return NULL;
	}
	return v;
}

const struct jv *jv_get(const struct jv *obj, const char *key)
{
	if (!obj || obj->t != JV_OBJ)
		return NULL;
	for (size_t i = 0; i < obj->n; i++)
		if (strcmp(obj->keys[i], key) == 0)
			return &obj->items[i];
	return NULL;
}

const char *jv_str(const struct jv *obj, const char *key, const char *dflt)
{
	const struct jv *v = jv_get(obj, key);
	return v && v->t == JV_STR ? v->str : dflt;
}

double jv_num(const struct jv *obj, const char *key, double dflt)
{
	const struct jv *v = jv_get(obj, key);
	return v && v->t == JV_NUM && isfinite(v->num) ? v->num : dflt;
}
