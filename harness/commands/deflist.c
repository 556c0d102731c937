/* deflist.c: the default kernel set, from the apt lists. */
#include "deflist.h"
#include "proc.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

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

int deflist_kernels(struct idlist *out, char *err, size_t errlen)
{
	char *argv[] = { "apt-cache", "search", "--names-only",
		"^linux-(image-6\\.1\\.0-[0-9]+-(amd64|cloud-amd64|rt-amd64)|source-6\\.12)$",
		NULL };
	struct rbuf o = {0};
	char msg[512];
	int rc = capture_run(argv, NULL, APT_DEADLINE_S, &o, NULL, msg, sizeof msg);
	if (rc != 0) {
		snprintf(err, errlen, "looking up the default kernels: %s", msg);
		rbuf_free(&o);
		return -1;
	}
	rc = deflist_from_names(rbuf_str(&o), out, err, errlen);
	rbuf_free(&o);
	return rc;
}
