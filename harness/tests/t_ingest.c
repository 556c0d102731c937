// SPDX-License-Identifier: GPL-2.0-only
/* t_ingest: results-channel ingestion (harness/PROTOCOL.md). */
#include <atf-c.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "ingest.h"
#include "kutil.h"
#include "proto.h"
#include "rbuf.h"

static struct column *ingest_text(const char *text)
{
	struct column *c = col_new("k");
	ingest_buf(c, text, strlen(text), true);
	return c;
}

static void good_stream(struct rbuf *b)
{
	proto_line(b, "begin uname=6.1.0-27-amd64 arch=x86_64 cases=3 probe.tiocsti=1");
	proto_line(b, "case pty/t_echo:on pass 0.25 -");
	proto_line(b, "case pty/t_echo:off fail 1.5 echo%20came%20back%3a%20%22x%22");
	proto_line(b, "case close/t_eio:read skip 0 needs%20root");
	proto_line(b, "end rc=1 suite_s=12.5");
}

ATF_TC(crc32_vector);
ATF_TC_HEAD(crc32_vector, tc)
{
	atf_tc_set_md_var(tc, "descr", "CRC-32 matches zlib's on the standard check string");
}
ATF_TC_BODY(crc32_vector, tc)
{
	ATF_CHECK_EQ(ku_crc32("123456789", 9), 0xcbf43926u);
	ATF_CHECK_EQ(ku_crc32("", 0), 0u);
}

ATF_TC(good_stream);
ATF_TC_HEAD(good_stream, tc)
{
	atf_tc_set_md_var(tc, "descr", "A complete stream: begin fields, cases, end fields");
}
ATF_TC_BODY(good_stream, tc)
{
	struct rbuf b = {0};
	good_stream(&b);
	struct column *c = ingest_text(b.s);
	ATF_CHECK_STREQ(c->uname, "6.1.0-27-amd64");
	ATF_CHECK_STREQ(c->arch, "x86_64");
	ATF_CHECK_EQ(c->begin_cases, 3);
	ATF_CHECK_STREQ(col_feature(c, "probe.tiocsti"), "1");
	ATF_REQUIRE_EQ(c->ncases, 3);
	struct case_result *r = col_find(c, "pty/t_echo:off");
	ATF_REQUIRE(r != NULL);
	ATF_CHECK_EQ(r->st, ST_FAIL);
	ATF_CHECK(r->secs > 1.49 && r->secs < 1.51);
	ATF_CHECK_STREQ(r->reason, "echo came back: \"x\"");
	ATF_CHECK_STREQ(col_find(c, "pty/t_echo:on")->reason, "");
	ATF_CHECK_EQ(col_find(c, "close/t_eio:read")->st, ST_SKIP);
	ATF_CHECK_EQ(c->end_seen, 1);
	ATF_CHECK_EQ(c->kyua_rc, 1);
	ATF_CHECK(c->suite_s > 12.4 && c->suite_s < 12.6);
	ATF_CHECK_EQ(c->garbage, 0);
	ATF_CHECK_EQ(c->truncated, 0);
	ingest_finish(c, NULL, NULL);
	ATF_CHECK_EQ(c->end, END_DONE);
	col_free(c);
	rbuf_free(&b);
}

ATF_TC(truncated_last_line);
ATF_TC_HEAD(truncated_last_line, tc)
{
	atf_tc_set_md_var(tc, "descr", "A last line without a newline is ignored and counted");
}
ATF_TC_BODY(truncated_last_line, tc)
{
	struct rbuf b = {0};
	proto_line(&b, "case pty/t_a:x pass 0.1 -");
	proto_line(&b, "case pty/t_a:y pass 0.1 -");
	b.len--; /* drop the last newline: the writer died mid-line */
	b.s[b.len] = '\0';
	struct column *c = ingest_text(b.s);
	ATF_CHECK_EQ(c->ncases, 1);
	ATF_CHECK(col_find(c, "pty/t_a:y") == NULL);
	ATF_CHECK_EQ(c->truncated, 1);
	ATF_CHECK_EQ(c->garbage, 0);
	/* the streaming form consumes only complete lines */
	struct column *s = col_new("s");
	size_t used = ingest_buf(s, b.s, b.len, false);
	ATF_CHECK(used < b.len && b.s[used - 1] == '\n');
	ATF_CHECK_EQ(s->truncated, 0);
	col_free(s);
	col_free(c);
	rbuf_free(&b);
}

ATF_TC(garbage_counted);
ATF_TC_HEAD(garbage_counted, tc)
{
	atf_tc_set_md_var(tc, "descr", "Noise is counted as garbage and never discards good lines");
}
ATF_TC_BODY(garbage_counted, tc)
{
	struct rbuf b = {0};
	rbuf_add(&b, "random noise\n\n\xff\xfe\x01 binary\n");
	proto_line(&b, "case pty/t_a:x pass 0.1 -");
	rbuf_add(&b, "\x1b[0m");                /* noise before a good line */
	proto_line(&b, "case pty/t_a:y fail 0.2 boom");
	proto_line(&b, "bogus kind");            /* good CRC, unknown kind */
	proto_line(&b, "case pty/t_a:z weird 0.1 -"); /* unknown status */
	proto_line(&b, "case pty/t_a:w pass notanumber -");
	proto_line(&b, "case nocolon pass 0.1 -");
	proto_line(&b, "case pty/t_a:v pass\r");   /* too few fields */
	rbuf_add(&b, "line\r\n");
	struct column *c = ingest_text(b.s);
	ATF_CHECK_EQ(c->ncases, 2);
	ATF_CHECK_EQ(col_find(c, "pty/t_a:y")->st, ST_FAIL);
	/* noise, binary, prefix, bogus, weird, notanumber, nocolon, short, line */
	ATF_CHECK_EQ_MSG(c->garbage, 9, "garbage=%ld", c->garbage);
	col_free(c);
	rbuf_free(&b);
}

ATF_TC(bad_crc);
ATF_TC_HEAD(bad_crc, tc)
{
	atf_tc_set_md_var(tc, "descr", "A line whose CRC does not match is garbage");
}
ATF_TC_BODY(bad_crc, tc)
{
	struct rbuf b = {0};
	proto_line(&b, "case pty/t_a:x pass 0.1 -");
	char *flip = strstr(b.s, "pass");
	flip[0] = 'f'; /* "fass": one byte changed, CRC now wrong */
	proto_line(&b, "case pty/t_a:y pass 0.1 -");
	/* uppercase hex is not the protocol's form */
	char *star = strrchr(b.s, '*');
	for (char *p = star + 1; *p && *p != '\n'; p++)
		if (*p >= 'a' && *p <= 'f')
			*p = (char)(*p - 32);
	bool upper = strpbrk(star + 1, "ABCDEF") != NULL;
	proto_line(&b, "case pty/t_a:z pass 0.1 -");
	struct column *c = ingest_text(b.s);
	ATF_CHECK(col_find(c, "pty/t_a:x") == NULL);
	ATF_CHECK(col_find(c, "pty/t_a:z") != NULL);
	if (upper) {
		ATF_CHECK(col_find(c, "pty/t_a:y") == NULL);
		ATF_CHECK_EQ(c->garbage, 2);
	} else {
		ATF_CHECK_EQ(c->garbage, 1);
	}
	ATF_CHECK_EQ(proto_check("@TTYPOT1 x *zzzzzzzz", 20), -1);
	col_free(c);
	rbuf_free(&b);
}

ATF_TC(duplicates_last_wins);
ATF_TC_HEAD(duplicates_last_wins, tc)
{
	atf_tc_set_md_var(tc, "descr", "A case reported twice keeps the last line and counts it");
}
ATF_TC_BODY(duplicates_last_wins, tc)
{
	struct rbuf b = {0};
	proto_line(&b, "case pty/t_a:x fail 0.1 first");
	proto_line(&b, "case cases/pty/t_a:x pass 0.3 -");
	struct column *c = ingest_text(b.s);
	ATF_REQUIRE_EQ(c->ncases, 1);
	ATF_CHECK_EQ(c->cases[0].st, ST_PASS);
	ATF_CHECK_STREQ(c->cases[0].id, "pty/t_a:x"); /* cases/ dropped */
	ATF_CHECK_EQ(c->duplicates, 1);
	col_free(c);
	rbuf_free(&b);
}

static void expect3(struct idlist *l)
{
	idlist_add(l, "pty/t_a:x");
	idlist_add(l, "pty/t_a:y");
	idlist_add(l, "close/t_b:z");
}

static struct column *partial(enum col_end end, bool with_end_line)
{
	struct rbuf b = {0};
	proto_line(&b, "begin uname=6.12.0 arch=x86_64 cases=3");
	proto_line(&b, "case pty/t_a:x pass 0.1 -");
	if (with_end_line)
		proto_line(&b, "end rc=0 suite_s=1");
	struct column *c = col_new("k");
	c->end = end;
	ingest_buf(c, b.s, b.len, true);
	rbuf_free(&b);
	struct idlist l = {0};
	expect3(&l);
	ingest_finish(c, &l, NULL);
	idlist_free(&l);
	return c;
}

ATF_TC(missing_cases);
ATF_TC_HEAD(missing_cases, tc)
{
	atf_tc_set_md_var(tc, "descr", "Expected cases the stream lacks become missing/panic/timeout per the run end, "
			  "and ingest_filled tells them from the reported ones");
}
ATF_TC_BODY(missing_cases, tc)
{
	struct column *c = partial(END_DONE, true);
	ATF_CHECK_EQ(c->end, END_DONE);
	ATF_CHECK_EQ(c->ncases, 3);
	ATF_CHECK_EQ(col_find(c, "pty/t_a:x")->st, ST_PASS);
	ATF_CHECK_EQ(col_find(c, "pty/t_a:y")->st, ST_MISSING);
	ATF_CHECK_EQ(col_find(c, "close/t_b:z")->st, ST_MISSING);
	col_free(c);

	c = partial(END_PANIC, false);
	ATF_CHECK_EQ(c->end, END_PANIC);
	ATF_CHECK_EQ(col_find(c, "pty/t_a:x")->st, ST_PASS);
	ATF_CHECK_EQ(col_find(c, "pty/t_a:y")->st, ST_PANIC);
	ATF_CHECK(strstr(col_find(c, "pty/t_a:y")->reason, "panic") != NULL);
	col_free(c);

	c = partial(END_TIMEOUT, false);
	ATF_CHECK_EQ(col_find(c, "close/t_b:z")->st, ST_TIMEOUT);
	/* ingest_filled tells the filled cells from the reported ones */
	ATF_CHECK(ingest_filled(col_find(c, "close/t_b:z")));
	ATF_CHECK(ingest_filled(col_find(c, "pty/t_a:y")));
	ATF_CHECK(!ingest_filled(col_find(c, "pty/t_a:x")));
	col_free(c);

	/* the runner said done but no end line came: silent */
	c = partial(END_DONE, false);
	ATF_CHECK_EQ(c->end, END_SILENT);
	ATF_CHECK_EQ(col_find(c, "pty/t_a:y")->st, ST_MISSING);
	col_free(c);
}

ATF_TC(filter_limits_fill);
ATF_TC_HEAD(filter_limits_fill, tc)
{
	atf_tc_set_md_var(tc, "descr", "With --cases only the selected expected cases are filled in");
}
ATF_TC_BODY(filter_limits_fill, tc)
{
	struct column *c = col_new("k");
	c->end = END_TIMEOUT;
	struct idlist l = {0};
	expect3(&l);
	ingest_finish(c, &l, "close");
	ATF_CHECK_EQ(c->ncases, 1);
	ATF_CHECK(col_find(c, "close/t_b:z") != NULL);
	ATF_CHECK(case_selected("pty/t_a:x", "pty/t_a:x"));
	ATF_CHECK(case_selected("pty/t_a", "pty/t_a:x"));
	ATF_CHECK(case_selected("cases/pty", "pty/t_a:x"));
	ATF_CHECK(!case_selected("pty/t_ab", "pty/t_a:x"));
	ATF_CHECK(!case_selected("pt", "pty/t_a:x"));
	ATF_CHECK(case_selected("close, pty/t_a:y", "pty/t_a:y"));
	idlist_free(&l);
	col_free(c);
}

ATF_TC(guest_text_sanitised);
ATF_TC_HEAD(guest_text_sanitised, tc)
{
	atf_tc_set_md_var(tc, "descr", "Invalid UTF-8 and NUL from a guest are replaced at ingestion");
}
ATF_TC_BODY(guest_text_sanitised, tc)
{
	struct rbuf b = {0};
	proto_line(&b, "case pty/t_a:x fail 0 bad%ff%00byte");
	struct column *c = ingest_text(b.s);
	ATF_REQUIRE_EQ(c->ncases, 1);
	ATF_CHECK_STREQ(c->cases[0].reason, "bad\xef\xbf\xbd\xef\xbf\xbd" "byte");
	col_free(c);
	rbuf_free(&b);
}

ATF_TC(ingest_file_errors);
ATF_TC_HEAD(ingest_file_errors, tc)
{
	atf_tc_set_md_var(tc, "descr", "A results file that cannot be read gives a message naming it");
}
ATF_TC_BODY(ingest_file_errors, tc)
{
	char err[256];
	struct column *c = col_new("k");
	ATF_CHECK_EQ(ingest_file(c, "no-such.results", err, sizeof err), -1);
	ATF_CHECK(strstr(err, "no-such.results") != NULL);
	FILE *f = fopen("ok.results", "w");
	ATF_REQUIRE(f);
	struct rbuf b = {0};
	proto_line(&b, "case pty/t_a:x pass 0 -");
	fputs(b.s, f);
	fclose(f);
	ATF_CHECK_EQ(ingest_file(c, "ok.results", err, sizeof err), 0);
	ATF_CHECK_EQ(c->ncases, 1);
	rbuf_free(&b);
	col_free(c);
}

ATF_TC(caselist_parse);
ATF_TC_HEAD(caselist_parse, tc)
{
	atf_tc_set_md_var(tc, "descr", "kyua list output becomes ids without the cases/ prefix");
}
ATF_TC_BODY(caselist_parse, tc)
{
	struct idlist l = {0};
	caselist_parse("cases/pty/t_echo:a\npty/t_echo:b\r\n\n  close/t_x:c  \nnot a case\nnocolon\n", &l);
	ATF_REQUIRE_EQ(l.n, 3);
	ATF_CHECK_STREQ(l.v[0], "pty/t_echo:a");
	ATF_CHECK_STREQ(l.v[1], "pty/t_echo:b");
	ATF_CHECK_STREQ(l.v[2], "close/t_x:c");
	idlist_free(&l);
}

ATF_TC(caselist_kyua);
ATF_TC_HEAD(caselist_kyua, tc)
{
	atf_tc_set_md_var(tc, "descr", "caselist_kyua runs kyua list on a Kyuafile with a deadline");
	atf_tc_set_md_var(tc, "timeout", "120");
}
ATF_TC_BODY(caselist_kyua, tc)
{
	if (access("/usr/bin/atf-sh", X_OK) != 0 || access("/usr/bin/kyua", X_OK) != 0)
		atf_tc_skip("needs kyua and atf-sh");
	ATF_REQUIRE_EQ(mkdir("suite", 0755), 0);
	ATF_REQUIRE_EQ(mkdir("suite/pty", 0755), 0);
	FILE *f = fopen("suite/Kyuafile", "w");
	fputs("syntax(2)\ntest_suite(\"x\")\ninclude(\"pty/Kyuafile\")\n", f);
	fclose(f);
	f = fopen("suite/pty/Kyuafile", "w");
	fputs("syntax(2)\ntest_suite(\"x\")\natf_test_program{name=\"t_sh\"}\n", f);
	fclose(f);
	f = fopen("suite/pty/t_sh", "w");
	fputs("#!/usr/bin/atf-sh\natf_test_case one\none_body() { :; }\n"
	      "atf_test_case two\ntwo_body() { :; }\n"
	      "atf_init_test_cases() { atf_add_test_case one; atf_add_test_case two; }\n", f);
	fclose(f);
	ATF_REQUIRE_EQ(chmod("suite/pty/t_sh", 0755), 0);
	struct idlist l = {0};
	char err[512] = "";
	ATF_REQUIRE_MSG(caselist_kyua("suite/Kyuafile", 60, &l, err, sizeof err) == 0, "%s", err);
	ATF_REQUIRE_EQ(l.n, 2);
	ATF_CHECK_STREQ(l.v[0], "pty/t_sh:one");
	ATF_CHECK_STREQ(l.v[1], "pty/t_sh:two");
	idlist_free(&l);
	ATF_CHECK_EQ(caselist_kyua("suite/none/Kyuafile", 60, &l, err, sizeof err), -1);
	ATF_CHECK(strstr(err, "suite/none/Kyuafile") != NULL);
}

ATF_TC(begin_arch_abi);
ATF_TC_HEAD(begin_arch_abi, tc)
{
	atf_tc_set_md_var(tc, "descr", "The begin line's arch (uname -m) is the kernel's name for it; abi= sets the ABI");
}
ATF_TC_BODY(begin_arch_abi, tc)
{
	struct rbuf b = {0};
	proto_line(&b, "begin uname=6.1.0-57-arm64 arch=aarch64 cases=1");
	proto_line(&b, "end rc=0");
	struct column *c = ingest_text(b.s);
	ATF_CHECK_STREQ(c->arch, "arm64");
	ATF_CHECK_STREQ(c->abi, "");
	ATF_CHECK(col_feature(c, "arch") == NULL);
	col_free(c);
	rbuf_free(&b);
	proto_line(&b, "begin uname=6.1.0-57-amd64 arch=x86_64 abi=compat32 cases=1");
	c = ingest_text(b.s);
	ATF_CHECK_STREQ(c->arch, "x86_64");
	ATF_CHECK_STREQ(c->abi, "compat32");
	ATF_CHECK(col_feature(c, "abi") == NULL);
	col_free(c);
	rbuf_free(&b);
	proto_line(&b, "begin uname=6.1.0-57-powerpc64le arch=ppc64le cases=1");
	c = ingest_text(b.s);
	ATF_CHECK_STREQ(c->arch, "ppc64le");
	col_free(c);
	rbuf_free(&b);
}

ATF_TP_ADD_TCS(tp)
{
	ATF_TP_ADD_TC(tp, begin_arch_abi);
	ATF_TP_ADD_TC(tp, crc32_vector);
	ATF_TP_ADD_TC(tp, good_stream);
	ATF_TP_ADD_TC(tp, truncated_last_line);
	ATF_TP_ADD_TC(tp, garbage_counted);
	ATF_TP_ADD_TC(tp, bad_crc);
	ATF_TP_ADD_TC(tp, duplicates_last_wins);
	ATF_TP_ADD_TC(tp, missing_cases);
	ATF_TP_ADD_TC(tp, filter_limits_fill);
	ATF_TP_ADD_TC(tp, guest_text_sanitised);
	ATF_TP_ADD_TC(tp, ingest_file_errors);
	ATF_TP_ADD_TC(tp, caselist_parse);
	ATF_TP_ADD_TC(tp, caselist_kyua);
	return atf_no_error();
}
