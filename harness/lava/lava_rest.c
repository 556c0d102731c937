// SPDX-License-Identifier: GPL-2.0-only
/* lava_rest.c: LAVA's REST API through curl (proc.h runs it).  The token
 * lives only in a mode-600 header file in a private directory (curl -H
 * @FILE), so it never shows on a command line (ps), and no message here
 * ever quotes it or the header file's contents. */
/* Paths are bounded by PATH_MAX; a truncated message is only shorter. */
#pragma GCC diagnostic ignored "-Wformat-truncation"
#include "lava.h"
#include "kutil.h"
#include "proc.h"

#include <errno.h>
#include <fcntl.h>
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#define CURL_DEADLINE_MS 120000

/* The first line of a token file, without spaces; -1 when unreadable or
 * empty (the message names the file, never its contents). */
static int token_from_file(const char *path, char *tok, size_t len, char *err,
			   size_t errlen)
{
	FILE *f = fopen(path, "r");
	if (!f) {
		snprintf(err, errlen, "token file %s: %s", path, strerror(errno));
		return -1;
	}
	if (!fgets(tok, (int)len, f))
		tok[0] = '\0';
	fclose(f);
	tok[strcspn(tok, " \t\r\n")] = '\0';
	if (!tok[0]) {
		snprintf(err, errlen, "token file %s holds no token", path);
		return -1;
	}
	return 0;
}

int lava_open(struct lava_server *s, const char *url, const char *token_file,
	      char *err, size_t errlen)
{
	memset(s, 0, sizeof *s);
	if (!url || !*url)
		url = getenv("TTYPOT_LAVA_URL");
	if (!url || !*url) {
		snprintf(err, errlen, "no LAVA server: give --server URL or set TTYPOT_LAVA_URL");
		return -1;
	}
	snprintf(s->url, sizeof s->url, "%s", url);
	for (size_t n = strlen(s->url); n && s->url[n - 1] == '/'; n--)
		s->url[n - 1] = '\0';
	char tok[512];
	if (!token_file || !*token_file)
		token_file = getenv("TTYPOT_LAVA_TOKEN_FILE");
	if (token_file && *token_file) {
		if (token_from_file(token_file, tok, sizeof tok, err, errlen) < 0)
			return -1;
	} else if (getenv("TTYPOT_LAVA_TOKEN") && *getenv("TTYPOT_LAVA_TOKEN")) {
		snprintf(tok, sizeof tok, "%s", getenv("TTYPOT_LAVA_TOKEN"));
		tok[strcspn(tok, " \t\r\n")] = '\0';
	} else {
		snprintf(err, errlen, "no LAVA token: give --token-file FILE or set "
			 "TTYPOT_LAVA_TOKEN_FILE or TTYPOT_LAVA_TOKEN");
		return -1;
	}
	const char *tmp = getenv("TMPDIR");
	snprintf(s->dir, sizeof s->dir, "%s/ttypot-lava.XXXXXX", tmp && *tmp ? tmp : "/tmp");
	if (!mkdtemp(s->dir)) {
		snprintf(err, errlen, "cannot create a private directory: %s", strerror(errno));
		memset(tok, 0, sizeof tok);
		return -1;
	}
	snprintf(s->header, sizeof s->header, "%s/auth", s->dir);
	int fd = open(s->header, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0600);
	char line[600];
	int n = snprintf(line, sizeof line, "Authorization: Token %s\n", tok);
	bool ok = fd >= 0 && write(fd, line, (size_t)n) == n;
	memset(tok, 0, sizeof tok);
	memset(line, 0, sizeof line);
	if (fd >= 0)
		close(fd);
	if (!ok) {
		snprintf(err, errlen, "cannot write the request header into %s", s->dir);
		lava_close(s);
		return -1;
	}
	return 0;
}

void lava_close(struct lava_server *s)
{
	if (s->dir[0])
		ku_rm_rf(s->dir);
	s->dir[0] = s->header[0] = '\0';
}

/* curl with the header file; the body into out, the HTTP code returned
 * (0 when curl failed: err says why). */
static int curl(struct lava_server *s, const char *method, const char *path,
		const char *data_file, struct rbuf *out, char *err, size_t errlen)
{
	char url[1200], body[PATH_MAX + 16], errf[PATH_MAX + 16], hdr[PATH_MAX + 2],
		data[PATH_MAX + 2];
	snprintf(url, sizeof url, "%s%s", s->url, path);
	snprintf(body, sizeof body, "%s/body", s->dir);
	snprintf(errf, sizeof errf, "%s/curl.err", s->dir);
	snprintf(hdr, sizeof hdr, "@%s", s->header);
	snprintf(data, sizeof data, "@%s", data_file ? data_file : "");
	const char *argv[20];
	int a = 0;
	argv[a++] = "curl";
	argv[a++] = "-sS";
	argv[a++] = "--max-time";
	argv[a++] = "100";
	argv[a++] = "-o";
	argv[a++] = body;
	argv[a++] = "-w";
	argv[a++] = "%{http_code}";
	argv[a++] = "-H";
	argv[a++] = hdr;
	if (data_file) {
		argv[a++] = "-X";
		argv[a++] = method;
		argv[a++] = "-H";
		argv[a++] = "Content-Type: application/json";
		argv[a++] = "--data-binary";
		argv[a++] = data;
	}
	argv[a++] = url;
	argv[a] = NULL;
	struct proc_opts po = { .stderr_path = errf, .deadline_ms = CURL_DEADLINE_MS };
	struct proc_result r;
	int st = proc_run(argv, &po, &r);
	int code = st == 0 ? atoi(r.out) : 0;
	char *b = ku_read_file(body, NULL);
	unlink(body);
	if (code == 0) {
		char *e = ku_read_file(errf, NULL);
		if (e)
			e[strcspn(e, "\n")] = '\0';
		snprintf(err, errlen, "%s %s: curl %s", method, url,
			 r.timed_out ? "timed out" : e && *e ? e : r.err[0] ? r.err : "failed");
		free(e);
	} else if (code < 200 || code > 299) {
		/* LAVA's error bodies are short JSON ("detail"); keep a line. */
		char first[300];
		snprintf(first, sizeof first, "%s", b ? b : "");
		first[strcspn(first, "\n")] = '\0';
		snprintf(err, errlen, "%s %s: HTTP %d %s", method, url, code, first);
	}
	unlink(errf);
	if (out && b)
		rbuf_add(out, b);
	free(b);
	return code;
}

int lava_get(struct lava_server *s, const char *path, struct rbuf *out,
	     char *err, size_t errlen)
{
	int code = curl(s, "GET", path, NULL, out, err, errlen);
	return code >= 200 && code <= 299 ? 0 : -1;
}

int lava_submit(struct lava_server *s, const char *yaml, long *id, char *err,
		size_t errlen)
{
	char req[PATH_MAX + 16];
	snprintf(req, sizeof req, "%s/request.json", s->dir);
	json_t *j = json_pack("{s:s}", "definition", yaml);
	int rc = j ? json_dump_file(j, req, JSON_COMPACT) : -1;
	json_decref(j);
	if (rc < 0) {
		snprintf(err, errlen, "cannot write the request in %s", s->dir);
		return -1;
	}
	struct rbuf out = {0};
	int code = curl(s, "POST", "/api/v0.2/jobs/", req, &out, err, errlen);
	unlink(req);
	rc = -1;
	if (code >= 200 && code <= 299) {
		json_error_t je;
		json_t *r = json_loads(rbuf_str(&out), 0, &je);
		json_t *ids = r ? json_object_get(r, "job_ids") : NULL;
		json_t *first = ids ? json_array_get(ids, 0) : NULL;
		if (json_is_integer(first)) {
			*id = (long)json_integer_value(first);
			rc = 0;
		} else {
			snprintf(err, errlen, "POST %s/api/v0.2/jobs/: no job_ids in the answer",
				 s->url);
		}
		json_decref(r);
	}
	rbuf_free(&out);
	return rc;
}
