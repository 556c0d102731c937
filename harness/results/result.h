/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * result.h: what one kernel column of a matrix holds.  Stage 3 of the
 * harness (kernel/ -> guest/ -> results/ -> report/ -> commands/): results/
 * ingests results-channel files into columns (ingest.h), applies
 * expectations (expectations.h), builds the matrix with its transitions
 * (matrix.h) and loads matrix.json files back for merging (merge.h).
 * A column is filled by ingesting a results-channel file (ingest.h) or by
 * loading a matrix.json (merge.h); the report writers only read it.
 * All strings are malloc'd, valid UTF-8 (guest text went through utf8_clean).
 */
#ifndef TTYPOT_RESULT_H
#define TTYPOT_RESULT_H

#include <stdbool.h>
#include <stddef.h>

enum status {
	ST_PASS, ST_FAIL, ST_SKIP, ST_XFAIL, ST_BROKEN,
	ST_TIMEOUT, ST_PANIC, ST_MISSING,
	ST__N
};

/* "pass", "fail", ...; status_parse returns -1 for an unknown name. */
const char *status_name(enum status s);
int status_parse(const char *name);
/* A failing status: fail, broken, timeout, panic, missing.  (skip and xfail
 * are explained outcomes, not failures.) */
bool status_bad(enum status s);

enum col_end { END_DONE, END_PANIC, END_TIMEOUT, END_SILENT, END_ERROR, END__N };
const char *end_name(enum col_end e);
int end_parse(const char *name);

/* A list of case ids (expected cases). */
struct idlist { char **v; size_t n, cap; };

struct case_result {
	char *id;        /* "pty/t_echo:echo_on_returns_input" */
	enum status st;  /* final status (after expectations) */
	enum status raw; /* as reported / as filled in */
	double secs;
	char *reason;    /* Kyua's reason, "" when none */
	char *expect;    /* the expectation's reason when one applied, else "" */
	double t_end;    /* the guest's monotonic seconds when the case was seen
			    to end (case line mono=; a span line: when it
			    ended), -1 unknown */
	double t_start;  /* when it started (span line), -1 unknown */
};

/* A kernel warning (harness/PROTOCOL.md, kmsg and taint lines): a kernel
 * log line of a WARN, BUG, Oops, lockdep report..., or taint flags that
 * newly appeared, with the cases running at that moment.  A finding of the
 * kernel, never filtered: one on an unmutated kernel is a result too. */
enum kw_kind { KW_KMSG, KW_TAINT };
struct kwarn {
	enum kw_kind kind;
	char *text;              /* the log line; for a taint, its flags ("+W (warn)") */
	double ktime;            /* kernel timestamp (s since boot), -1 unknown */
	double from, to;         /* guest monotonic s: when seen (kmsg: from == to;
				    taint: between two reads); -1 at boot */
	unsigned long taint;     /* taint flags then */
	unsigned long taint_old; /* taint: the flags before */
	struct idlist cases;     /* cases running then; "boot" before the suite */
	struct idlist running;   /* of those, the ones the guest saw running */
};
/* Attribution by time: a warning is read at most KW_READ_SLACK_S after it
 * was written, so it happened in [from - slack, to].  A case's span is
 * Kyua's own [start, end] (a span line) or, until one comes, estimated from
 * its case line: it ended before it was seen (mono=) and started seconds
 * before that, give or take KW_SEEN_SLACK_S for the time Kyua takes to
 * report it. */
#define KW_READ_SLACK_S 0.5
#define KW_SEEN_SLACK_S 1.0

struct feature { char *key, *value; };

struct column {
	char label[128];
	char spec[512];
	char uname[128];       /* uname -r (begin line, else resolver) */
	char version[256];     /* package version / git sha */
	char config_hash[20];
	char arch[16];         /* x86_64, arm64, ppc64le ("" unknown) */
	char abi[16];          /* userland ABI: "" native, "compat32" (i386 on x86_64) */
	char accel[8];         /* kvm / tcg / host */
	double resolve_s;      /* download/unpack/build of the kernel (0: none) */
	double boot_s, suite_s;
	enum col_end end;
	char cached[512];      /* read from the result cache: from when, which run
				  (rcache_hit_note); "" when it ran */
	char *error;           /* why an error column is one, else "" */
	char *console_tail;    /* last ~40 console lines (panic/timeout/...), else "" */
	long garbage;          /* lines that did not parse or failed the CRC */
	long duplicates;       /* case lines for an id already seen (last wins) */
	long truncated;        /* 1 when the file ended inside a line */
	int begin_seen, end_seen;
	long begin_cases;      /* cases= of the begin line, -1 unknown */
	long kyua_rc;          /* rc= of the end line, -1 unknown */
	struct feature *feat;  /* extra begin-line fields (probe results) */
	size_t nfeat;
	struct case_result *cases;
	size_t ncases, capcases;
	/* Kernel warnings (kwarn.c).  kmsg_mode: how the log was watched:
	 * "boot", "window" (host: from the suite's start), "off" (unreadable,
	 * kmsg_note says why), "" (not watched: an older guest). */
	struct kwarn *kw;
	size_t nkw;
	char kmsg_mode[8];
	char *kmsg_note;
	long long taint_start;   /* flags at the watch's start (window), -1 unknown */
};

struct column *col_new(const char *label);
void col_free(struct column *c);
void col_set_error(struct column *c, const char *msg);
void col_set_console(struct column *c, const char *tail);
/* Set (insert or replace: last wins) the result of a case. */
struct case_result *col_put(struct column *c, const char *id, enum status st,
			    double secs, const char *reason);
struct case_result *col_find(const struct column *c, const char *id);
/* Set arch (by any name karch_canon knows: aarch64 -> arm64, ppc64el ->
 * ppc64le, amd64 -> x86_64; another name is kept as given) and abi; NULL
 * leaves that field as it is. */
void col_set_arch(struct column *c, const char *arch, const char *abi);
/* "x86_64", "x86_64-compat32", "arm64"; "" when the arch is unknown. */
void col_arch_abi(const struct column *c, char *out, size_t outlen);
/* The label of a column (arch and abi set) from a resolver's label:
 * headings name the arch and ABI, so a trailing " [ARCH-ABI]" goes, and a
 * column of another ABI than the kernel's own gets "+ABI" unless the label
 * says it ("6.1.0-57-amd64 [x86_64-compat32]" -> "6.1.0-57-amd64+compat32"). */
void col_label_for(const struct column *c, const char *resolved, char *out,
		   size_t outlen);
const char *col_feature(const struct column *c, const char *key);
void col_set_feature(struct column *c, const char *key, const char *value);

/* Kernel warnings (kwarn.c).  Add one (text copied and cleaned; running:
 * comma-separated case ids the guest saw running, NULL or "" none) and
 * attribute it to the cases whose span it falls in; returns it. */
struct kwarn *col_add_kwarn(struct column *c, enum kw_kind kind, const char *text,
			    double ktime, double from, double to, unsigned long taint,
			    unsigned long taint_old, const char *running);
/* Attribute a warning to one more case (once). */
void kwarn_attribute(struct kwarn *w, const char *id);
/* A case's span is known or better known (t_end, t_start): attribute the
 * warnings it covers, and take it off those it no longer does. */
void col_kwarn_case_seen(struct column *c, const struct case_result *r);
/* How many kernel warnings a column holds (log lines and taint changes). */
size_t column_warning_count(const struct column *c);
/* The taint flags that newly appeared during the column's run (a guest's
 * flags at boot count: its kernel boots untainted); 0 when none. */
unsigned long column_new_taint(const struct column *c);
bool column_taint_appeared(const struct column *c);
/* The warnings attributed to case id. */
size_t column_case_warnings(const struct column *c, const char *id);
/* Taint flags as the kernel's letters with names: "W (warn), U (user)". */
void taint_describe(unsigned long flags, char *out, size_t outlen);

/* What the suite says about a case (kyua list -v): its description and
 * the X-ttypot.commits of a regression case, for the reports. */
struct case_meta { char *id, *descr, *commits; };
struct metalist { struct case_meta *v; size_t n, cap; };
/* Set (insert or replace) the metadata of id; NULL fields stay as they are. */
void metalist_put(struct metalist *l, const char *id, const char *descr,
		  const char *commits);
const struct case_meta *metalist_find(const struct metalist *l, const char *id);
void metalist_free(struct metalist *l);

void idlist_add(struct idlist *l, const char *id);
void idlist_free(struct idlist *l);
/* The area of a case id: its first path component ("pty" of
 * "pty/t_echo:x"), or the program when there is no '/'.  Writes into out. */
void case_area(const char *id, char *out, size_t outlen);
/* Does a --cases filter (comma/space separated "program[:case]" or area
 * prefixes) select id?  A NULL or empty filter selects everything. */
bool case_selected(const char *filter, const char *id);

#endif
