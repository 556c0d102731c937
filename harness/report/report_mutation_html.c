// SPDX-License-Identifier: GPL-2.0-only
/* report_mutation_html.c: mutation.html: the report JSON shown by the
 * mutation-testing-elements web component.  Both are inlined, so the page
 * works opened from disk (file://) with no server and no network: the
 * component is given the report as a property, never fetches it. */
#include "report_mutation.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

static bool has_script_tag(const char *s)
{
	for (const char *p = strchr(s, '<'); p; p = strchr(p + 1, '<'))
		if (strncasecmp(p + 1, "script", 6) == 0 || strncasecmp(p + 1, "/script", 7) == 0)
			return true;
	return false;
}

int mutation_report_html(const char *json_text, const struct mutation_report_info *info,
			 const char *npm_dir, struct rbuf *b, char *err, size_t errlen)
{
	char path[4096], why[512];
	snprintf(path, sizeof path, "%s/%s", npm_dir, MUTATION_BUNDLE);
	size_t len;
	char *bundle = read_file(path, &len, why, sizeof why);
	if (!bundle) {
		snprintf(err, errlen, "the mutation-testing-elements bundle is missing (%s); "
			 "install it with `harness/deps.sh report` (npm ci of fixtures/report-npm "
			 "into %s)", why, npm_dir);
		return -1;
	}
	/* Inside <script> the HTML parser ends the element at "</script" and
	 * changes state at "<script"; a bundle carrying either cannot be
	 * inlined as it is. */
	if (strlen(bundle) != len || has_script_tag(bundle)) {
		snprintf(err, errlen, "%s holds a NUL byte or a script tag and cannot be inlined "
			 "into a page", path);
		free(bundle);
		return -1;
	}
	const char *title = info && info->title ? info->title : "ttypot generated mutants";
	rbuf_add(b, "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
		 "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n"
		 "<title>");
	rbuf_html(b, title);
	rbuf_add(b, "</title>\n<style>body{margin:0;font-family:sans-serif}</style>\n"
		 "</head>\n<body>\n");
	/* The patch's verdict first: what its author reads before the mutants. */
	if (info && info->verdict) {
		rbuf_add(b, "<section id=\"patch-verdict\" style=\"margin:1em\">\n"
			 "<h2>Verdict of the patch</h2>\n<pre>");
		rbuf_html(b, info->verdict);
		rbuf_add(b, "</pre>\n</section>\n");
	}
	rbuf_add(b, "<mutation-test-report-app title-postfix=\"");
	rbuf_html(b, title);
	rbuf_add(b, "\"></mutation-test-report-app>\n"
		 "<noscript>This page shows mutation-report.json with a web component and "
		 "needs JavaScript; mutation.md has the same figures as text.</noscript>\n"
		 "<script type=\"application/json\" id=\"mutation-report\">\n");
	/* '<' only occurs inside JSON strings, where \u003c means the same */
	for (const char *p = json_text; *p; p++)
		if (*p == '<')
			rbuf_add(b, "\\u003c");
		else
			rbuf_addc(b, *p);
	rbuf_add(b, "</script>\n<script>\n/* mutation-testing-elements ");
	rbuf_html(b, MUTATION_BUNDLE);
	rbuf_add(b, " (Apache-2.0) */\n");
	rbuf_addn(b, bundle, len);
	free(bundle);
	rbuf_add(b, "\n</script>\n<script>\n"
		 "(function () {\n"
		 "  var app = document.querySelector('mutation-test-report-app');\n"
		 "  app.report = JSON.parse(document.getElementById('mutation-report').textContent);\n"
		 "  function theme() { document.body.style.backgroundColor = app.themeBackgroundColor; }\n"
		 "  app.addEventListener('theme-changed', theme);\n"
		 "  theme();\n"
		 "})();\n</script>\n</body>\n</html>\n");
	return 0;
}
