/* kimage.c: checks on a kernel image (bzImage header, release string) and
 * the config hash every resolver reports. */
#include "kresolve.h"
#include "kutil.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

int
kimage_check(const char *path, char *release, size_t rellen, char *err,
	     size_t errlen)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0) {
		snprintf(err, errlen, "kernel image %s: %s", path,
			 strerror(errno));
		return -1;
	}
	unsigned char hdr[0x240];
	ssize_t n = pread(fd, hdr, sizeof hdr, 0);
	if (n < (ssize_t)sizeof hdr || memcmp(hdr + 0x202, "HdrS", 4)) {
		close(fd);
		snprintf(err, errlen, "not a kernel image: %s (no bzImage "
			 "\"HdrS\" header)", path);
		return -1;
	}
	if (release && rellen) {
		/* kernel_version: offset of the version string - 0x200. */
		unsigned off = hdr[0x20e] | hdr[0x20f] << 8;
		char ver[256] = "";
		release[0] = '\0';
		if (off && pread(fd, ver, sizeof ver - 1, off + 0x200) > 0) {
			ver[sizeof ver - 1] = '\0';
			size_t k = strcspn(ver, " ");
			if (k < rellen) {
				memcpy(release, ver, k);
				release[k] = '\0';
			}
		}
	}
	close(fd);
	return 0;
}

void
kimage_config_hash(const char *config_path, struct kernel_info *out)
{
	char hex[65];
	out->config_hash[0] = '\0';
	if (ku_sha256_file(config_path, hex) == 0)
		snprintf(out->config_hash, sizeof out->config_hash, "%.16s",
			 hex);
}
