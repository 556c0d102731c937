// SPDX-License-Identifier: GPL-2.0-only
/* report_mutation_json.c: mutation-report.json in the
 * mutation-testing-report-schema (schemaVersion 2, the schema of the npm
 * package's 3.x releases), with each mutated file's source so that the
 * web component can show the mutants in place. */
#include "report_mutation.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "report.h"

/* The thresholds (percent) the web component colours scores by: the
 * targets of the survivor work, 90 % overall and 85 % in every file. */
#define THRESHOLD_HIGH 90
#define THRESHOLD_LOW 85

static const char *schema_status(enum mut_status s)
{
	switch (s) {
	case MS_EQUIVALENT: return "Ignored";
	case MS_NOT_COVERED: return "NoCoverage";
	case MS_UNCOMPILABLE: return "CompileError";
	case MS_KILLED: case MS_KILLED_WARNING: return "Killed";
	case MS_KILLED_TIMEOUT: return "Timeout";
	case MS_SURVIVED: return "Survived";
	case MS_ERROR: return "RuntimeError";
	default: return "Pending";
	}
}

/* A word naming a case or program: area/t_prog or area/t_prog:case. */
static bool case_word(const char *w, size_t n)
{
	const char *slash = memchr(w, '/', n);
	if (!slash || slash == w || (size_t)(slash - w) + 3 > n || strncmp(slash + 1, "t_", 2))
		return false;
	for (size_t i = 0; i < n; i++)
		if (!isalnum((unsigned char)w[i]) && !strchr("_-/:*.", w[i]))
			return false;
	return true;
}

/* Words of s (split at spaces and commas; outer punctuation trimmed) as a
 * JSON array; only case-like words when cases_only. */
static json_t *words(const char *s, bool cases_only)
{
	json_t *a = json_array();
	while (*s) {
		s += strspn(s, " \t\n,;()");
		size_t n = strcspn(s, " \t\n,;()");
		size_t k = n;
		while (k && strchr(":.", s[k - 1]))
			k--;
		if (k && (!cases_only || case_word(s, k))) {
			char w[160];
			snprintf(w, sizeof w, "%.*s", (int)k, s);
			json_array_append_new(a, report_jstr(w));
		}
		s += n;
	}
	return a;
}

/* A mutated file's text, its lines' starts and count. */
struct source {
	char *text;
	size_t len;
	size_t *starts;
	size_t nlines;
};

static int source_load(struct source *s, const char *root, const char *file, char *err,
		       size_t errlen)
{
	char path[4096], why[512];
	snprintf(path, sizeof path, "%s/%s", root, file);
	memset(s, 0, sizeof *s);
	s->text = read_file(path, &s->len, why, sizeof why);
	if (!s->text) {
		snprintf(err, errlen, "mutated file not readable: %s", why);
		return -1;
	}
	size_t cap = 64;
	s->starts = xrealloc(NULL, cap * sizeof *s->starts);
	s->starts[s->nlines++] = 0;
	for (size_t i = 0; i < s->len; i++)
		if (s->text[i] == '\n' && i + 1 < s->len) {
			if (s->nlines == cap)
				s->starts = xrealloc(s->starts, (cap *= 2) * sizeof *s->starts);
			s->starts[s->nlines++] = i + 1;
		}
	return 0;
}

static size_t line_len(const struct source *s, int line)
{
	size_t a = s->starts[line - 1];
	size_t e = a;
	while (e < s->len && s->text[e] != '\n')
		e++;
	return e - a;
}

/* A byte column (0-based) of a line as the 1-based UTF-16 column JavaScript
 * (and so the component) counts: non-ASCII text before it takes fewer. */
static int js_column(const struct source *s, int line, int col)
{
	const unsigned char *p = (const unsigned char *)s->text + s->starts[line - 1];
	int units = 0;
	for (int i = 0; i < col; i++) {
		if ((p[i] & 0xc0) != 0x80)
			units++;
		if (p[i] >= 0xf0)
			units++; /* a surrogate pair */
	}
	return units + 1;
}

static bool span_inside(const struct source *s, const struct mutant *m)
{
	if (m->line < 1 || (size_t)m->line > s->nlines || m->end_line < m->line ||
	    (size_t)m->end_line > s->nlines || m->col < 0 || m->end_col < 0)
		return false;
	if (m->end_line == m->line && m->end_col < m->col)
		return false;
	return (size_t)m->col <= line_len(s, m->line) &&
	       (size_t)m->end_col <= line_len(s, m->end_line);
}

static json_t *position(const struct source *s, int line, int col)
{
	return json_pack("{s:i, s:i}", "line", line, "column", js_column(s, line, col));
}

/* testFiles: one entry per program, holding the programs (coveredBy) and
 * cases (killedBy) the mutants name, so that the web component lists them
 * with each mutant and in its tests view. */
static const char *jget_id(const json_t *test)
{
	return json_string_value(json_object_get(test, "id"));
}

static void add_tests(json_t *testfiles, const json_t *ids)
{
	for (size_t i = 0; i < json_array_size(ids); i++) {
		const char *id = json_string_value(json_array_get(ids, i));
		char prog[160];
		snprintf(prog, sizeof prog, "%.*s", (int)strcspn(id, ":"), id);
		json_t *f = json_object_get(testfiles, prog);
		if (!f) {
			f = json_pack("{s:[]}", "tests");
			json_object_set_new(testfiles, prog, f);
		}
		json_t *tests = json_object_get(f, "tests");
		bool known = false;
		for (size_t j = 0; j < json_array_size(tests) && !known; j++)
			known = !strcmp(jget_id(json_array_get(tests, j)), id);
		if (known)
			continue;
		const char *colon = strchr(id, ':');
		char name[200];
		snprintf(name, sizeof name, colon ? "%s" : "%s (program)", colon ? colon + 1 : id);
		json_array_append_new(tests, json_pack("{s:o, s:o}", "id", report_jstr(id),
							 "name", report_jstr(name)));
	}
}

static json_t *mutant_json(const struct mutant *m, const struct source *src,
			   json_t *testfiles)
{
	char id[40], desc[700];
	if (m->id)
		snprintf(id, sizeof id, "%u", m->id);
	snprintf(desc, sizeof desc, "%s%s%s: %s -> %s (%s)", mutation_op_text(m->op),
		 m->func[0] ? " in " : "", m->func, m->orig, m->repl, m->key);
	json_t *j = json_pack("{s:o, s:s, s:o, s:{s:o, s:o}, s:s}",
			      "id", report_jstr(m->id ? id : m->key),
			      "mutatorName", mut_op_name(m->op),
			      "replacement", report_jstr(m->repl),
			      "location", "start", position(src, m->line, m->col),
			      "end", position(src, m->end_line, m->end_col),
			      "status", schema_status(m->status));
	const char *reason = m->status == MS_EQUIVALENT ? "equivalent: identical object code"
							: m->reason;
	if (reason[0])
		json_object_set_new(j, "statusReason", report_jstr(reason));
	if (m->status == MS_KILLED || m->status == MS_KILLED_WARNING) {
		json_t *k = words(m->reason, true);
		add_tests(testfiles, k);
		if (json_array_size(k))
			json_object_set_new(j, "killedBy", k);
		else
			json_decref(k);
	}
	if (m->covered_by[0]) {
		json_t *c = words(m->covered_by, false);
		add_tests(testfiles, c);
		json_object_set_new(j, "coveredBy", c);
	}
	json_object_set_new(j, "description", report_jstr(desc));
	if (m->secs > 0)
		json_object_set_new(j, "duration", report_jnum(m->secs * 1000));
	return j;
}

static int by_file(const void *a, const void *b)
{
	const struct mutant *x = *(const struct mutant *const *)a,
			    *y = *(const struct mutant *const *)b;
	int c = strcmp(x->file, y->file);
	if (c == 0)
		c = (x->line > y->line) - (x->line < y->line);
	if (c == 0)
		c = (x->col > y->col) - (x->col < y->col);
	return c ? c : strcmp(x->key, y->key);
}

static json_t *config_json(const struct mutation_report_info *info, size_t n)
{
	json_t *c = json_object();
	json_object_set_new(c, "title", report_jstr(info->title ? info->title
							     : "ttypot generated mutants"));
	if (info->source)
		json_object_set_new(c, "kernelSource", report_jstr(info->source));
	if (info->suite)
		json_object_set_new(c, "suite", report_jstr(info->suite));
	if (info->date)
		json_object_set_new(c, "date", report_jstr(info->date));
	json_object_set_new(c, "mutants", json_integer((json_int_t)n));
	if (info->sampled) {
		json_object_set_new(c, "generated",
				    json_integer((json_int_t)(info->generated ? info->generated : n)));
		json_object_set_new(c, "seed", json_integer((json_int_t)info->seed));
	}
	if (info->wall_s > 0)
		json_object_set_new(c, "wallSeconds", report_jnum(info->wall_s));
	if (info->verdict) {
		/* The patch's verdict as mutation.md ends with it, a line a string
		 * (blank lines left out): readers of the JSON alone see it too. */
		json_t *lines = json_array();
		for (const char *l = info->verdict; *l;) {
			size_t len = strcspn(l, "\n");
			if (len) {
				char *one = xrealloc(NULL, len + 1);
				memcpy(one, l, len);
				one[len] = '\0';
				json_array_append_new(lines, report_jstr(one));
				free(one);
			}
			l += len + (l[len] == '\n');
		}
		json_object_set_new(c, "patchVerdict", lines);
	}
	return c;
}

int mutation_report_json(const struct mutant *m, size_t n, const char *src_root,
			 const struct mutation_report_info *info, struct rbuf *out,
			 char *err, size_t errlen)
{
	struct mutation_report_info none = {0};
	if (!info)
		info = &none;
	const struct mutant **v = xrealloc(NULL, (n ? n : 1) * sizeof *v);
	for (size_t i = 0; i < n; i++)
		v[i] = &m[i];
	qsort(v, n, sizeof *v, by_file);

	json_t *files = json_object(), *testfiles = json_object();
	int rc = 0;
	double run_s = 0;
	for (size_t i = 0; i < n && rc == 0;) {
		struct source src;
		if (source_load(&src, src_root, v[i]->file, err, errlen) < 0) {
			rc = -1;
			break;
		}
		json_t *mutants = json_array();
		size_t j = i;
		for (; j < n && strcmp(v[j]->file, v[i]->file) == 0; j++) {
			if (!span_inside(&src, v[j])) {
				snprintf(err, errlen, "mutant %s: span %d:%d-%d:%d lies outside "
					 "%s/%s (%zu lines): not the source it was generated from?",
					 v[j]->key, v[j]->line, v[j]->col, v[j]->end_line,
					 v[j]->end_col, src_root, v[j]->file, src.nlines);
				rc = -1;
				break;
			}
			json_array_append_new(mutants, mutant_json(v[j], &src, testfiles));
			if (v[j]->secs > 0)
				run_s += v[j]->secs;
		}
		json_object_set_new(files, v[i]->file,
				    json_pack("{s:s, s:o, s:o}", "language", "c", "source",
					      report_jstr(src.text), "mutants", mutants));
		free(src.text);
		free(src.starts);
		i = j;
	}
	free(v);
	if (rc < 0) {
		json_decref(files);
		json_decref(testfiles);
		return -1;
	}
	json_t *doc = json_pack("{s:s, s:{s:i, s:i}, s:o, s:o, s:{s:s, s:s}}",
				"schemaVersion", "2",
				"thresholds", "high", THRESHOLD_HIGH, "low", THRESHOLD_LOW,
				"files", files,
				"config", config_json(info, n),
				"framework", "name", "ttypot", "version", TTYPOT_VERSION);
	if (json_object_size(testfiles))
		json_object_set_new(doc, "testFiles", testfiles);
	else
		json_decref(testfiles);
	if (info->build_s > 0 && info->baseline_s > 0)
		json_object_set_new(doc, "performance",
				    json_pack("{s:o, s:o, s:o}", "setup", report_jnum(info->build_s * 1000),
					      "initialRun", report_jnum(info->baseline_s * 1000),
					      "mutation", report_jnum(run_s * 1000)));
	report_jdump(doc, out);
	return 0;
}
