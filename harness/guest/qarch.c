// SPDX-License-Identifier: GPL-2.0-only
/* qarch.c: the per-architecture facts of the QEMU runner, in one table.
 * The PCI UARTs (loopback pair, results port) are the same everywhere:
 * pci-serial works on pc, virt and pseries alike. */
#include "qarch.h"

#include <string.h>

static const struct qarch rows[] = {
	/* The console's options: odd parity, which nothing on the way to the
	 * console log minds, so that serial/t_sercons tells options taken
	 * from the port's defaults. */
	{"x86_64", "x86_64", "qemu-system-x86_64", NULL, "max", "ttyS0,115200o8",
	 "bzImage"},
	/* pauth-impdef: QEMU's own pointer-auth hash; the architected QARMA
	 * is slow to emulate under TCG and the tty layer does not care. */
	{"arm64", "aarch64", "qemu-system-aarch64", "virt", "max,pauth-impdef=on",
	 "ttyAMA0", "arm64 Image (Debian's vmlinuz, uncompressed)"},
	{"ppc64le", "ppc64le", "qemu-system-ppc64", "pseries", "power9", "hvc0",
	 "vmlinux (ELF)"},
};

const struct qarch *
qarch_of(const char *arch)
{
	for (size_t i = 0; i < sizeof rows / sizeof *rows; i++)
		if (arch && !strcmp(arch, rows[i].arch))
			return &rows[i];
	return NULL;
}

const char *
qarch_userland(const struct kernel_info *k)
{
	if (!strcmp(k->arch, "arm64"))
		return "arm64";
	if (!strcmp(k->arch, "ppc64le"))
		return "ppc64el";
	if (!strcmp(k->abi, "compat32"))
		return "i386";
	return NULL;
}
