// SPDX-License-Identifier: GPL-2.0-only
/* deflist.c: the kernel presets (default, abi), from the apt lists. */
#include "deflist.h"
#include "proc.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define APT_DEADLINE_S 60

/* "linux-image-6.1.0-57-rt-amd64" -> abi 57, flavour "rt-amd64" */
static int parse_image(const char *name, size_t n, int *abi, char *flav, size_t flen)
{
	const char *pre = "linux-image-6.1.0-";
	size_t pl = strlen(pre);
	if (n <= pl || strncmp(name, pre, pl) != 0)
		return -1;
	char *end;
	long a = strtol(name + pl, &end, 10);
	if (end == name + pl || *end != '-' || a <= 0)
		return -1;
	size_t fl = n - (size_t)(end + 1 - name);
	if (fl == 0 || fl >= flen)
		return -1;
	memcpy(flav, end + 1, fl);
	flav[fl] = '\0';
	*abi = (int)a;
	return 0;
}

int deflist_from_names(const char *apt, struct idlist *out, char *err,
		       size_t errlen)
{
	int newest = -1, oldest = -1, cloud = -1, rt = -1;
	bool src612 = false;
	for (const char *p = apt; *p;) {
		size_t n = strcspn(p, "\n");
		size_t name = strcspn(p, " \n");
		int abi;
		char flav[32];
		if (name == strlen("linux-source-6.12") && strncmp(p, "linux-source-6.12", name) == 0)
			src612 = true;
		else if (parse_image(p, name, &abi, flav, sizeof flav) == 0) {
			if (strcmp(flav, "amd64") == 0) {
				if (abi > newest) newest = abi;
				if (oldest < 0 || abi < oldest) oldest = abi;
			} else if (strcmp(flav, "cloud-amd64") == 0 && abi > cloud) {
				cloud = abi;
			} else if (strcmp(flav, "rt-amd64") == 0 && abi > rt) {
				rt = abi;
			}
		}
		p += n;
		if (*p)
			p++;
	}
	if (newest < 0) {
		snprintf(err, errlen, "the apt lists have no linux-image-6.1.0-N-amd64 package: "
			 "run 'apt-get update' (as root) first, or name the kernels on the "
			 "command line");
		return -1;
	}
	char spec[128];
	idlist_add(out, "host");
	snprintf(spec, sizeof spec, "deb:linux-image-6.1.0-%d-amd64", newest);
	idlist_add(out, spec);
	if (oldest != newest) {
		snprintf(spec, sizeof spec, "deb:linux-image-6.1.0-%d-amd64", oldest);
		idlist_add(out, spec);
	}
	if (cloud > 0) {
		snprintf(spec, sizeof spec, "deb:linux-image-6.1.0-%d-cloud-amd64", cloud);
		idlist_add(out, spec);
	}
	if (rt > 0) {
		snprintf(spec, sizeof spec, "deb:linux-image-6.1.0-%d-rt-amd64", rt);
		idlist_add(out, spec);
	}
	if (src612)
		idlist_add(out, "src:linux-source-6.12");
	else
		fprintf(stderr, "ttypot: linux-source-6.12 is not in the apt lists: "
			"the default set goes without it\n");
	return 0;
}

/* The newest ABI N with linux-image-6.1.0-N-amd64 in the output, -1 none. */
static int newest_amd64(const char *apt)
{
	int newest = -1;
	for (const char *p = apt; *p;) {
		size_t n = strcspn(p, "\n"), name = strcspn(p, " \n");
		int abi;
		char flav[32];
		if (parse_image(p, name, &abi, flav, sizeof flav) == 0 &&
		    strcmp(flav, "amd64") == 0 && abi > newest)
			newest = abi;
		p += n;
		if (*p)
			p++;
	}
	return newest;
}

int deflist_abi_from_names(const char *apt, const struct apt_src *src,
			   struct idlist *out, char *err, size_t errlen)
{
	/* the package's flavour, its Debian arch, the spec's suffix */
	static const char *const cols[][3] = {
		{ "amd64", "amd64", "" },
		{ "amd64", "amd64", "+compat32" },
		{ "arm64", "arm64", ":arm64" },
		{ "powerpc64le", "ppc64el", ":ppc64el" },
	};
	enum { NCOLS = sizeof cols / sizeof *cols };
	int n = newest_amd64(apt);
	if (n < 0) {
		snprintf(err, errlen, "kernel preset abi: the apt lists have no "
			 "linux-image-6.1.0-N-amd64 package: run 'apt-get update' (as root) first");
		return -1;
	}
	char pkg[NCOLS][96], msg[512];
	const char *pkgs[NCOLS], *archs[NCOLS];
	bool found[NCOLS] = {0};
	for (size_t i = 0; i < NCOLS; i++) {
		snprintf(pkg[i], sizeof pkg[i], "linux-image-6.1.0-%d-%s", n, cols[i][0]);
		pkgs[i] = pkg[i];
		archs[i] = cols[i][1];
	}
	if (src->has(src->ctx, pkgs, archs, NCOLS, found, msg, sizeof msg) < 0) {
		snprintf(err, errlen, "kernel preset abi: looking up its packages: %s", msg);
		return -1;
	}
	for (size_t i = 0; i < NCOLS; i++)
		if (!found[i]) {
			snprintf(err, errlen, "kernel preset abi: %s:%s is not in the apt lists "
				 "(the %s column of ABI 6.1.0-%d); add dpkg's %s architecture and "
				 "run 'apt-get update' as root (harness/deps.sh cross does both)",
				 pkg[i], archs[i], archs[i], n, archs[i]);
			return -1;
		}
	for (size_t i = 0; i < NCOLS; i++) {
		char spec[128];
		snprintf(spec, sizeof spec, "deb:%.95s%s", pkg[i], cols[i][2]);
		idlist_add(out, spec);
	}
	return 0;
}

#define KERNELS_REGEX \
	"^linux-(image-6\\.1\\.0-[0-9]+-(amd64|cloud-amd64|rt-amd64)|source-6\\.12)$"

static int apt_search(void *ctx, const char *regex, struct rbuf *out, char *err,
		      size_t errlen)
{
	(void)ctx;
	char *argv[] = { "apt-cache", "search", "--names-only", (char *)regex, NULL };
	char msg[512];
	if (capture_run(argv, NULL, APT_DEADLINE_S, out, NULL, msg, sizeof msg) != 0) {
		snprintf(err, errlen, "%s", msg);
		return -1;
	}
	return 0;
}

/* One apt-cache show for all: it prints the stanzas it found (and exits
 * 100 when one was not); a stanza's Package and Architecture say which. */
static int apt_has(void *ctx, const char *const *pkgs, const char *const *archs,
		   size_t n, bool *found, char *err, size_t errlen)
{
	(void)ctx;
	char q[8][160];
	char *argv[8 + 4] = { "apt-cache", "show", "--no-all-versions" };
	size_t k = 3;
	for (size_t i = 0; i < n && i < 8; i++) {
		snprintf(q[i], sizeof q[i], "%s:%s", pkgs[i], archs[i]);
		argv[k++] = q[i];
	}
	argv[k] = NULL;
	struct rbuf o = {0};
	char msg[512];
	int rc = capture_run(argv, NULL, APT_DEADLINE_S, &o, NULL, msg, sizeof msg);
	if (rc < 0) {
		snprintf(err, errlen, "%s", msg);
		rbuf_free(&o);
		return -1;
	}
	char name[160] = "";
	for (const char *p = rbuf_str(&o); *p;) {
		size_t len = strcspn(p, "\n");
		if (len > 9 && strncmp(p, "Package: ", 9) == 0)
			snprintf(name, sizeof name, "%.*s", (int)(len - 9), p + 9);
		else if (len > 14 && strncmp(p, "Architecture: ", 14) == 0)
			for (size_t i = 0; i < n; i++)
				if (strcmp(name, pkgs[i]) == 0 && strlen(archs[i]) == len - 14 &&
				    strncmp(p + 14, archs[i], len - 14) == 0)
					found[i] = true;
		p += len;
		if (*p)
			p++;
	}
	rbuf_free(&o);
	return 0;
}

const struct apt_src deflist_apt = { apt_search, apt_has, NULL };

int deflist_kernels(struct idlist *out, char *err, size_t errlen)
{
	char *args[] = { "default" };
	return deflist_expand(&deflist_apt, args, 1, out, err, errlen);
}

bool deflist_preset_like(const char *arg)
{
	if (!*arg || strcmp(arg, "host") == 0 || !(*arg >= 'a' && *arg <= 'z'))
		return false;
	return strspn(arg, "abcdefghijklmnopqrstuvwxyz0123456789_-") == strlen(arg);
}

static void add_new(struct idlist *out, const struct idlist *specs)
{
	for (size_t i = 0; i < specs->n; i++) {
		bool have = false;
		for (size_t k = 0; k < out->n && !have; k++)
			have = strcmp(out->v[k], specs->v[i]) == 0;
		if (!have)
			idlist_add(out, specs->v[i]);
	}
}

int deflist_expand(const struct apt_src *apt, char *const *args, int nargs,
		   struct idlist *out, char *err, size_t errlen)
{
	char *def[] = { "default" };
	if (nargs == 0) {
		args = def;
		nargs = 1;
	}
	struct rbuf names = {0};
	bool searched = false;
	int rc = 0;
	for (int i = 0; i < nargs && rc == 0; i++) {
		const char *a = args[i];
		bool is_default = strcmp(a, "default") == 0, is_abi = strcmp(a, "abi") == 0;
		if (!is_default && !is_abi) {
			if (deflist_preset_like(a) && access(a, F_OK) != 0) {
				snprintf(err, errlen, "'%s' is neither a kernel preset (%s) nor "
					 "an existing file", a, DEFLIST_PRESETS);
				rc = -1;
			} else {
				idlist_add(out, a);
			}
			continue;
		}
		char msg[512];
		if (!searched && apt->search(apt->ctx, KERNELS_REGEX, &names, msg, sizeof msg) < 0) {
			snprintf(err, errlen, "kernel preset %s: looking up the kernels: %s", a, msg);
			rc = -1;
			break;
		}
		searched = true;
		struct idlist specs = {0};
		rc = is_abi ? deflist_abi_from_names(rbuf_str(&names), apt, &specs, err, errlen)
			    : deflist_from_names(rbuf_str(&names), &specs, err, errlen);
		if (rc == 0)
			add_new(out, &specs);
		idlist_free(&specs);
	}
	rbuf_free(&names);
	return rc;
}

int deflist_parse_specs(const struct idlist *specs, const char *arch,
			struct kspec *out, char *err, size_t errlen)
{
	size_t images = 0;
	for (size_t i = 0; i < specs->n; i++) {
		if (kspec_parse(specs->v[i], &out[i], err, errlen) < 0)
			return -1;
		/* --arch says what an image file does not */
		if (arch && out[i].kind == KSPEC_IMAGE) {
			images++;
			if (kspec_set_arch(&out[i], arch, err, errlen) < 0)
				return -1;
		}
	}
	if (arch && !images) {
		snprintf(err, errlen, "--arch %s: no kernel image path to apply it to "
			 "(a deb: spec names its arch as deb:PACKAGE:ARCH)", arch);
		return -1;
	}
	return 0;
}
