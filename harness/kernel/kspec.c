// SPDX-License-Identifier: GPL-2.0-only
/* kspec.c: parsing the kernel specs of the command line (syntax only). */
#include "kernel.h"

#include <ctype.h>
#include <stdio.h>
#include <string.h>

#define KSPEC_FORMS                                                            \
	"host, PATH (kernel image), deb:PACKAGE[=VERSION][:ARCH], PATH.deb, "  \
	"src:linux-source-X.Y, tree:DIR, rpm:KERNEL.rpm[,MODULES.rpm...], "  \
	"PATH.rpm; +compat32 after any but host, +debug after src: or tree:"

/* Kernel arch, then the other names it goes by (Debian's first). */
static const char *const arches[][3] = {
	{"x86_64", "amd64", NULL},
	{"arm64", "arm64", "aarch64"},
	{"ppc64le", "ppc64el", NULL},
};

const char *
karch_canon(const char *name)
{
	for (size_t i = 0; name && i < sizeof arches / sizeof *arches; i++)
		for (int j = 0; j < 3; j++)
			if (arches[i][j] && !strcmp(name, arches[i][j]))
				return arches[i][0];
	return NULL;
}

const char *
karch_debian(const char *arch)
{
	const char *c = karch_canon(arch);
	for (size_t i = 0; c && i < sizeof arches / sizeof *arches; i++)
		if (!strcmp(c, arches[i][0]))
			return arches[i][1];
	return NULL;
}

int
kspec_set_arch(struct kspec *s, const char *arch, char *err, size_t errlen)
{
	const char *c = karch_canon(arch);
	if (!c) {
		snprintf(err, errlen, "unknown architecture '%.40s' (expected "
			 "x86_64/amd64, arm64, ppc64le/ppc64el)", arch);
		return -1;
	}
	if (s->kind == KSPEC_HOST)
		return 0; /* the host is what it is; resolve_host says */
	if (s->arch_given && strcmp(s->arch, c)) {
		snprintf(err, errlen, "kernel spec '%.300s': says %s, --arch "
			 "says %s", s->text, s->arch, c);
		return -1;
	}
	if (s->abi[0] && strcmp(c, "x86_64")) {
		snprintf(err, errlen, "kernel spec '%.300s': +compat32 needs an "
			 "x86_64 kernel, not %s", s->text, c);
		return -1;
	}
	snprintf(s->arch, sizeof s->arch, "%s", c);
	s->arch_given = true;
	return 0;
}

static int
fail(char *err, size_t errlen, const char *text, const char *why)
{
	snprintf(err, errlen, "kernel spec '%.300s': %s", text, why);
	return -1;
}

/* Debian package names: [a-z0-9][a-z0-9+.-]+ */
static bool
valid_pkg(const char *s, size_t n)
{
	if (n < 2 || !(islower((unsigned char)s[0]) || isdigit((unsigned char)s[0])))
		return false;
	for (size_t i = 0; i < n; i++) {
		unsigned char c = (unsigned char)s[i];
		if (!(islower(c) || isdigit(c) || c == '+' || c == '.' ||
		      c == '-'))
			return false;
	}
	return true;
}

/* Debian versions: [epoch:]upstream[-revision], [A-Za-z0-9.+~:-] */
static bool
valid_version(const char *s)
{
	if (!*s || !isdigit((unsigned char)s[0]))
		return false;
	for (; *s; s++) {
		unsigned char c = (unsigned char)*s;
		if (!(isalnum(c) || strchr(".+~:-", c)))
			return false;
	}
	return true;
}

static bool
has_suffix(const char *s, const char *suf)
{
	size_t a = strlen(s), b = strlen(suf);
	return a >= b && !strcmp(s + a - b, suf);
}

int
kspec_parse(const char *text, struct kspec *out, char *err, size_t errlen)
{
	memset(out, 0, sizeof *out);
	if (!text || !*text)
		return fail(err, errlen, text ? text : "",
			    "empty kernel spec; expected one of: " KSPEC_FORMS);
	if (strlen(text) >= sizeof out->text)
		return fail(err, errlen, text, "too long");
	for (const char *p = text; *p; p++)
		if ((unsigned char)*p < 0x20 || *p == 0x7f)
			return fail(err, errlen, text,
				    "contains a control character");
	strcpy(out->text, text);
	strcpy(out->arch, "x86_64");

	/* "+compat32": the same kernel, the i386 userland; "+debug": the
	 * same source built with fixtures/kernel/debug.config too.  Either
	 * order, each once. */
	char body[512];
	strcpy(body, text);
	for (int i = 0; i < 2; i++) {
		if (!out->abi[0] && has_suffix(body, "+compat32")) {
			body[strlen(body) - strlen("+compat32")] = '\0';
			strcpy(out->abi, "compat32");
		} else if (!out->flavour[0] && has_suffix(body, "+debug")) {
			body[strlen(body) - strlen("+debug")] = '\0';
			strcpy(out->flavour, "debug");
		}
	}
	if (out->abi[0] && !strcmp(body, "host"))
		return fail(err, errlen, text, "+compat32 runs the i386 suite "
			    "in a guest; the host cannot take it");
	if (out->flavour[0] && strncmp(body, "src:", 4) &&
	    strncmp(body, "tree:", 5))
		return fail(err, errlen, text, "+debug builds a kernel from "
			    "source with the debug fragment: it follows a src: "
			    "or tree: spec");
	/* deb:PACKAGE[=VERSION]:ARCH (a version's epoch colon is followed by
	 * a digit, an arch by a letter). */
	if (!strncmp(body, "deb:", 4)) {
		char *c = strrchr(body + 4, ':');
		if (c && isalpha((unsigned char)c[1])) {
			const char *a = karch_canon(c + 1);
			if (!a)
				return fail(err, errlen, text,
					    "unknown architecture after ':' "
					    "(expected amd64, arm64 or "
					    "ppc64el)");
			strcpy(out->arch, a);
			out->arch_given = true;
			*c = '\0';
		}
	}
	if (out->abi[0] && strcmp(out->arch, "x86_64"))
		return fail(err, errlen, text,
			    "+compat32 needs an x86_64 (amd64) kernel");
	text = body;

	if (!strcmp(text, "host")) {
		out->kind = KSPEC_HOST;
		return 0;
	}
	if (!strncmp(text, "deb:", 4)) {
		const char *p = text + 4, *eq = strchr(p, '=');
		size_t n = eq ? (size_t)(eq - p) : strlen(p);
		if (n == 0)
			return fail(err, errlen, out->text,
				    "deb: needs a package name, e.g. "
				    "deb:linux-image-6.1.0-41-amd64");
		if (!valid_pkg(p, n))
			return fail(err, errlen, out->text,
				    "not a valid Debian package name");
		if (eq && !valid_version(eq + 1))
			return fail(err, errlen, out->text,
				    "not a valid Debian version after '='");
		out->kind = KSPEC_DEB;
		memcpy(out->arg, p, n);
		out->arg[n] = '\0';
		if (eq) {
			if (strlen(eq + 1) >= sizeof out->version)
				return fail(err, errlen, out->text,
					    "version too long");
			strcpy(out->version, eq + 1);
		}
		return 0;
	}
	if (!strncmp(text, "src:", 4)) {
		const char *p = text + 4;
		const char *v = p + strlen("linux-source-");
		unsigned maj, min;
		char extra;
		if (strncmp(p, "linux-source-", strlen("linux-source-")) ||
		    sscanf(v, "%u.%u%c", &maj, &min, &extra) != 2 ||
		    !isdigit((unsigned char)*v) ||
		    strspn(v, "0123456789.") != strlen(v))
			return fail(err, errlen, out->text,
				    "src: expects a Debian kernel source "
				    "package, e.g. src:linux-source-6.12");
		out->kind = KSPEC_SRC;
		strcpy(out->arg, p);
		return 0;
	}
	if (!strncmp(text, "tree:", 5)) {
		if (!text[5])
			return fail(err, errlen, out->text,
				    "tree: needs a kernel source directory");
		out->kind = KSPEC_TREE;
		strcpy(out->arg, text + 5);
		return 0;
	}
	/* rpm:KERNEL.rpm[,MODULES.rpm...]: the modules RPMs are found
	 * beside the kernel RPM when not given. */
	if (!strncmp(text, "rpm:", 4)) {
		if (!text[4] || text[4] == ',')
			return fail(err, errlen, out->text,
				    "rpm: needs a kernel RPM, e.g. "
				    "rpm:/srv/kernel-core-6.12.0-1.fc41.x86_64.rpm");
		out->kind = KSPEC_RPM;
		strcpy(out->arg, text + 4);
		return 0;
	}
	/* "word:..." with an unknown word is a typo, not a path. */
	const char *colon = strchr(text, ':'), *slash = strchr(text, '/');
	if (colon && (!slash || colon < slash)) {
		bool word = colon > text;
		for (const char *q = text; q < colon; q++)
			if (!islower((unsigned char)*q))
				word = false;
		if (word)
			return fail(err, errlen, out->text,
				    "unknown kind before ':'; expected one "
				    "of: " KSPEC_FORMS);
	}
	if (has_suffix(text, ".deb")) {
		out->kind = KSPEC_DEB;
		out->deb_is_file = true;
		strcpy(out->arg, text);
		return 0;
	}
	if (has_suffix(text, ".rpm")) {
		out->kind = KSPEC_RPM;
		strcpy(out->arg, text);
		return 0;
	}
	if (has_suffix(text, "/"))
		return fail(err, errlen, out->text,
			    "a directory is not a kernel image (use tree:DIR "
			    "for a source tree)");
	out->kind = KSPEC_IMAGE;
	strcpy(out->arg, text);
	return 0;
}
