// SPDX-License-Identifier: GPL-2.0-only
/* t_html_render: matrix.html as a person sees it, rendered by headless Chromium. */
#include <atf-c.h>

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "proc.h"
#include "matrix.h"
#include "rbuf.h"
#include "report.h"

#define CHROMIUM "/usr/bin/chromium"
/* Chromium's first start under TCG-free hosts takes ~2 s; allow for load. */
#define BROWSER_DEADLINE_S 60
#define NROWS 40
/* Rows whose two kernels disagree: every 8th (see sample). */
#define NDIFF (NROWS / 8)

static void sample(struct matrix *m)
{
	matrix_init(m);
	struct column *a = col_new("6.1-base"), *b = col_new("6.12-cand");
	snprintf(a->uname, sizeof a->uname, "6.1.0-47-amd64");
	snprintf(b->uname, sizeof b->uname, "6.12.118");
	col_set_arch(a, "x86_64", "compat32");
	col_set_arch(b, "arm64", NULL);
	for (int i = 0; i < NROWS; i++) {
		char id[64];
		snprintf(id, sizeof id, "%s/t_x:case_%02d", i < NROWS / 2 ? "pty" : "close", i);
		col_put(a, id, ST_PASS, 0.1, "");
		col_put(b, id, i % 8 == 0 ? ST_FAIL : ST_PASS, 0.1, i % 8 == 0 ? "lost data" : "");
	}
	matrix_add(m, a);
	matrix_add(m, b);
	matrix_build(m);
	metalist_put(&m->meta, "pty/t_x:case_08", "Data written just before close is read",
		     "broke 1a2b3c4d fixed 5e6f7a8b");
}

/* Run Chromium headless on url; its stdout (--dump-dom) goes to out_path.
 * Fails the case when it cannot start, is killed or overruns its deadline;
 * returns the exit status otherwise. */
static int chromium(const char *dir, const char *extra, const char *url,
		    const char *out_path)
{
	char udd[1100], err[512];
	snprintf(udd, sizeof udd, "--user-data-dir=%s/profile", dir);
	/* No background networking: this machine has no network, and
	 * Chromium's own update/sync connections would only be refused. */
	char *argv[] = {CHROMIUM, "--headless", "--no-sandbox", "--disable-gpu",
			"--disable-quic", "--no-first-run", "--disable-background-networking",
			"--disable-component-update", "--disable-sync", udd,
			"--window-size=1200,1600", (char *)extra, (char *)url, NULL};
	struct rbuf out = {0};
	int st = capture_run(argv, NULL, BROWSER_DEADLINE_S, &out, NULL, err, sizeof err);
	if (st < 0)
		atf_tc_fail("chromium %s %s: %s", extra, url, err);
	FILE *f = fopen(out_path, "w");
	ATF_REQUIRE_MSG(f != NULL, "%s: %s", out_path, strerror(errno));
	fwrite(rbuf_str(&out), 1, out.len, f);
	fclose(f);
	rbuf_free(&out);
	return st;
}

static char *slurp(const char *path, size_t *len)
{
	FILE *f = fopen(path, "rb");
	ATF_REQUIRE_MSG(f != NULL, "open %s: %s", path, strerror(errno));
	struct rbuf b = {0};
	char chunk[4096];
	size_t n;
	while ((n = fread(chunk, 1, sizeof chunk, f)) > 0)
		rbuf_addn(&b, chunk, n);
	fclose(f);
	*len = b.len;
	rbuf_addc(&b, '\0'); /* text searches stop here; binary users use len */
	return b.s;
}

static size_t count(const char *hay, const char *needle)
{
	size_t n = 0;
	for (const char *p = hay; (p = strstr(p, needle)) != NULL; p += strlen(needle))
		n++;
	return n;
}

static void write_matrix(char *dir, size_t dirlen)
{
	snprintf(dir, dirlen, "/tmp/ttypot-html.XXXXXX");
	ATF_REQUIRE(mkdtemp(dir) != NULL);
	struct matrix m;
	sample(&m);
	struct rbuf b = {0};
	report_html(&m, &b);
	char path[512];
	snprintf(path, sizeof path, "%s/matrix.html", dir);
	FILE *f = fopen(path, "w");
	ATF_REQUIRE(f != NULL);
	fwrite(b.s, 1, b.len, f);
	fclose(f);
	rbuf_free(&b);
	matrix_free(&m);
}

static void remove_tree(const char *dir)
{
	char *argv[] = {"rm", "-rf", (char *)dir, NULL}, err[256];
	capture_run(argv, NULL, 60, NULL, NULL, err, sizeof err);
}

static void require_chromium(void)
{
	if (access(CHROMIUM, X_OK) != 0)
		atf_tc_skip("needs Debian's chromium (%s): make deps installs it", CHROMIUM);
}

ATF_TC(dom_after_scripts);
ATF_TC_HEAD(dom_after_scripts, tc)
{
	atf_tc_set_md_var(tc, "descr", "Chromium loads matrix.html from a file: URL (no server), "
			  "the table has every case row and coloured fail cells, the inline "
			  "script ran, and matrix.html#diff shows only the differing rows");
	atf_tc_set_md_var(tc, "timeout", "180");
}
ATF_TC_BODY(dom_after_scripts, tc)
{
	(void)tc;
	require_chromium();
	char dir[64], url[600], out[512];
	write_matrix(dir, sizeof dir);
	snprintf(out, sizeof out, "%s/dom.html", dir);

	snprintf(url, sizeof url, "file://%s/matrix.html", dir);
	int st = chromium(dir, "--dump-dom", url, out);
	ATF_REQUIRE_MSG(st == 0, "chromium --dump-dom: exit %d", st);
	size_t len;
	char *dom = slurp(out, &len);
	ATF_CHECK_MSG(strstr(dom, "<table id=\"m\">") != NULL, "no matrix table in the rendered DOM");
	ATF_CHECK_EQ(count(dom, "<tr class=\"case"), NROWS);
	ATF_CHECK_EQ(count(dom, "class=\"st-fail"), NDIFF);
	char shown[64];
	snprintf(shown, sizeof shown, "%d of %d cases shown", NROWS, NROWS);
	ATF_CHECK_MSG(strstr(dom, shown) != NULL, "script did not run: no \"%s\"", shown);
	free(dom);

	snprintf(url, sizeof url, "file://%s/matrix.html#diff", dir);
	st = chromium(dir, "--dump-dom", url, out);
	ATF_REQUIRE_MSG(st == 0, "chromium --dump-dom #diff: exit %d", st);
	dom = slurp(out, &len);
	snprintf(shown, sizeof shown, "%d of %d cases shown", NDIFF, NROWS);
	ATF_CHECK_MSG(strstr(dom, shown) != NULL, "differences filter: no \"%s\"", shown);
	free(dom);
	remove_tree(dir);
}

/* Width and height from a PNG's IHDR chunk; false if not a PNG. */
static bool png_size(const unsigned char *p, size_t len, unsigned *w, unsigned *h)
{
	static const unsigned char sig[8] = {0x89, 'P', 'N', 'G', '\r', '\n', 0x1a, '\n'};
	if (len < 24 || memcmp(p, sig, 8) != 0 || memcmp(p + 12, "IHDR", 4) != 0)
		return false;
	*w = (unsigned)p[16] << 24 | p[17] << 16 | p[18] << 8 | p[19];
	*h = (unsigned)p[20] << 24 | p[21] << 16 | p[22] << 8 | p[23];
	return true;
}

static size_t screenshot(const char *dir, const char *url, const char *name)
{
	char arg[600], out[512];
	snprintf(arg, sizeof arg, "--screenshot=%s/%s", dir, name);
	snprintf(out, sizeof out, "%s/stdout.txt", dir);
	int st = chromium(dir, arg, url, out);
	ATF_REQUIRE_MSG(st == 0, "chromium %s: exit %d", arg, st);
	char path[512];
	snprintf(path, sizeof path, "%s/%s", dir, name);
	size_t len;
	unsigned char *png = (unsigned char *)slurp(path, &len);
	unsigned w = 0, h = 0;
	ATF_REQUIRE_MSG(png_size(png, len, &w, &h), "%s is not a PNG", name);
	ATF_CHECK_MSG(w == 1200 && h == 1600, "%s is %ux%u, not 1200x1600", name, w, h);
	free(png);
	return len;
}

ATF_TC(screenshot_shows_table);
ATF_TC_HEAD(screenshot_shows_table, tc)
{
	atf_tc_set_md_var(tc, "descr", "A headless Chromium screenshot of matrix.html is a "
			  "1200x1600 PNG carrying far more picture than one of a blank page "
			  "(the coloured table is drawn), and the differences-only view less");
	atf_tc_set_md_var(tc, "timeout", "180");
}
ATF_TC_BODY(screenshot_shows_table, tc)
{
	(void)tc;
	require_chromium();
	char dir[64], url[600];
	write_matrix(dir, sizeof dir);
	char blank[512];
	snprintf(blank, sizeof blank, "%s/blank.html", dir);
	FILE *f = fopen(blank, "w");
	ATF_REQUIRE(f != NULL);
	fputs("<!DOCTYPE html><html><body></body></html>\n", f);
	fclose(f);

	snprintf(url, sizeof url, "file://%s", blank);
	size_t empty = screenshot(dir, url, "blank.png");
	snprintf(url, sizeof url, "file://%s/matrix.html", dir);
	size_t full = screenshot(dir, url, "matrix.png");
	snprintf(url, sizeof url, "file://%s/matrix.html#diff", dir);
	size_t diff = screenshot(dir, url, "diff.png");
	/* A flat white page compresses to a few KiB; 40 rows of text and
	 * coloured cells do not. */
	ATF_CHECK_MSG(full > 8 * empty, "matrix.png %zu bytes vs blank %zu", full, empty);
	ATF_CHECK_MSG(diff < full && diff > 2 * empty, "diff.png %zu bytes (full %zu, blank %zu)",
		      diff, full, empty);
	if (getenv("TTYPOT_KEEP_SCREENSHOT") == NULL)
		remove_tree(dir);
}

/* dump-dom of matrix.html with a URL fragment; the DOM text (free it). */
static char *dom_of(const char *dir, const char *frag)
{
	char url[600], out[512];
	snprintf(url, sizeof url, "file://%s/matrix.html%s", dir, frag);
	snprintf(out, sizeof out, "%s/dom.html", dir);
	int st = chromium(dir, "--dump-dom", url, out);
	ATF_REQUIRE_MSG(st == 0, "chromium --dump-dom %s: exit %d", frag, st);
	size_t len;
	return slurp(out, &len);
}

ATF_TC(overview_filters_hover);
ATF_TC_HEAD(overview_filters_hover, tc)
{
	atf_tc_set_md_var(tc, "descr", "matrix.html opens with an overview (one row per area, "
			  "each cell its worst status with counts, linking to the area), filters "
			  "by area (#area-close) and status (#status-fail), keeps the header row "
			  "and case column sticky, and carries each case's descr and commits for "
			  "the hover");
	atf_tc_set_md_var(tc, "timeout", "180");
}
ATF_TC_BODY(overview_filters_hover, tc)
{
	(void)tc;
	require_chromium();
	char dir[64];
	write_matrix(dir, sizeof dir);
	char *dom = dom_of(dir, "");
	const char *ov = strstr(dom, "<table id=\"overview\">"), *m = strstr(dom, "<table id=\"m\">");
	ATF_REQUIRE_MSG(ov && m && ov < m, "no overview table before the matrix");
	ATF_CHECK_EQ(count(dom, "<tr class=\"ov\""), 2);
	/* pty: rows 0-19, fail at 0, 8, 16; close: rows 20-39, fail at 24, 32 */
	ATF_CHECK_EQ(count(dom, "class=\"w-pass\""), 2);
	/* the candidate's fails pass on the baseline: regressions, counted */
	ATF_CHECK_EQ(count(dom, "class=\"w-fail mk-regression\""), 2);
	ATF_CHECK(strstr(dom, "fail <span class=\"n\">3</span>, pass <span class=\"n\">17</span> "
			      "<b>(3 regressions)</b>"));
	ATF_CHECK(strstr(dom, "fail <span class=\"n\">2</span>, pass <span class=\"n\">18</span> "
			      "<b>(2 regressions)</b>"));
	ATF_CHECK(strstr(dom, "href=\"#area-close\"") && strstr(dom, "id=\"area-close\""));
	ATF_CHECK_MSG(strstr(dom, "<div class=\"tip\">Data written just before close is read"
			     "<div class=\"commits\">commits: broke 1a2b3c4d fixed 5e6f7a8b</div>"),
		      "no description/commits tip on pty/t_x:case_08");
	/* both header rows name each kernel's arch and ABI */
	ATF_CHECK_EQ(count(dom, "<th>6.1-base \xc2\xb7 x86_64-compat32"), 2);
	ATF_CHECK_EQ(count(dom, "<th>6.12-cand \xc2\xb7 arm64"), 2);
	ATF_CHECK(strstr(dom, "#m thead th{position:sticky;top:0"));
	ATF_CHECK(strstr(dom, "#m td.id,#m tr.area th{position:sticky;left:0"));
	free(dom);
	char shown[64];
	dom = dom_of(dir, "#area-close");
	snprintf(shown, sizeof shown, "%d of %d cases shown", NROWS / 2, NROWS);
	ATF_CHECK_MSG(strstr(dom, shown) != NULL, "area filter: no \"%s\"", shown);
	free(dom);
	dom = dom_of(dir, "#status-fail");
	snprintf(shown, sizeof shown, "%d of %d cases shown", NDIFF, NROWS);
	ATF_CHECK_MSG(strstr(dom, shown) != NULL, "status filter: no \"%s\"", shown);
	free(dom);
	dom = dom_of(dir, "#status-skip");
	snprintf(shown, sizeof shown, "0 of %d cases shown", NROWS);
	ATF_CHECK_MSG(strstr(dom, shown) != NULL, "status filter: no \"%s\"", shown);
	free(dom);
	remove_tree(dir);
}

ATF_TP_ADD_TCS(tp)
{
	ATF_TP_ADD_TC(tp, dom_after_scripts);
	ATF_TP_ADD_TC(tp, screenshot_shows_table);
	ATF_TP_ADD_TC(tp, overview_filters_hover);
	return atf_no_error();
}
