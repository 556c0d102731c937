/*
 * deflist.h: the default kernel list of `ttypot matrix` with no kernels:
 * host, deb:linux-image-6.1.0-<newest ABI>-amd64, the oldest ABI the apt
 * lists still have, the cloud-amd64 and rt-amd64 flavours of the newest ABI
 * that has them, src:linux-source-6.12.  ABIs come from apt-cache search.
 */
#ifndef TTYPOT_DEFLIST_H
#define TTYPOT_DEFLIST_H

#include <stddef.h>

#include "result.h"

/* From `apt-cache search` output (package names before " - "). */
int deflist_from_names(const char *apt_output, struct idlist *out, char *err,
		       size_t errlen);
/* Runs apt-cache.  -1 with a message (e.g. apt lists missing). */
int deflist_kernels(struct idlist *out, char *err, size_t errlen);

#endif
