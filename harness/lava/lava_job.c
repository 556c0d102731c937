// SPDX-License-Identifier: GPL-2.0-only
/* lava_job.c: the LAVA job of one kernel on a QEMU device type: the kernel
 * and the ttypot initramfs (LAVA adds its overlay to the cpio), the same
 * three PCI UARTs the local runner gives a guest, and an inline test
 * definition that runs fixtures/guest/lava-suite.sh (lava.h). */
/* Paths are bounded by PATH_MAX; a truncated message is only shorter. */
#pragma GCC diagnostic ignored "-Wformat-truncation"
#include "lava.h"

#include <jansson.h>
#include <stdlib.h>
#include <string.h>

/* The kernel command line of the local runner (run_qemu.c): LAVA adds no
 * -append of its own for a tmpfs kernel+ramdisk boot. */
#define LAVA_CMDLINE "console=ttyS0,115200o8 panic=-1 8250.nr_uarts=8 rdinit=/init"

bool lava_filter_ok(const char *filter)
{
	for (const char *p = filter ? filter : ""; *p; p++)
		if (!strchr("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"
			    "0123456789_-./:, ", *p))
			return false;
	return true;
}

/* A YAML double-quoted scalar: JSON's string syntax is valid YAML. */
static void yq(struct rbuf *b, const char *s)
{
	json_t *j = json_string(s ? s : "");
	char *t = j ? json_dumps(j, JSON_ENCODE_ANY) : NULL;
	rbuf_add(b, t ? t : "\"\"");
	free(t);
	json_decref(j);
}

/* A comment value stays on its line. */
static void meta(struct rbuf *b, const char *key, const char *v)
{
	rbuf_addf(b, "# ttypot-%s: ", key);
	for (const char *p = v ? v : ""; *p; p++)
		rbuf_addc(b, *p == '\n' || *p == '\r' ? ' ' : *p);
	rbuf_addc(b, '\n');
}

void lava_job_yaml(const struct lava_job_params *p, struct rbuf *b)
{
	char words[2048];
	snprintf(words, sizeof words, "%s", p->cases ? p->cases : "");
	for (char *c = words; *c; c++)
		if (*c == ',')
			*c = ' ';
	char name[300];
	snprintf(name, sizeof name, "ttypot %.250s", p->label);

	rbuf_add(b, "# A ttypot job (ttypot lava submit); collect reads these lines.\n");
	meta(b, "label", p->label);
	meta(b, "spec", p->spec);
	meta(b, "cases", p->cases);
	meta(b, "version", p->version);
	meta(b, "config", p->config_hash);
	rbuf_add(b, "job_name: ");
	yq(b, name);
	rbuf_add(b, "\ndevice_type: ");
	yq(b, p->device_type);
	if (p->tag && *p->tag) {
		rbuf_add(b, "\ntags: [");
		yq(b, p->tag);
		rbuf_addc(b, ']');
	}
	rbuf_addf(b, "\nvisibility: public\npriority: medium\n"
		  "timeouts:\n  job: {minutes: %d}\n  action: {minutes: %d}\n"
		  "  connection: {minutes: 2}\n",
		  p->job_minutes, p->test_minutes);
	/* The loop pair (00:10.0, 00:11.0) crossed over UDP and a third
	 * UART at 00:12.0 where the local runner has the results port: the
	 * guest sees the layout it sees locally; results go to the log. */
	rbuf_addf(b, "context:\n  arch: amd64\n  no_kvm: true\n  memory: 1024\n"
		  "  extra_options:\n  - -smp 2\n"
		  "  - -chardev udp,id=la,host=127.0.0.1,port=%d,localaddr=127.0.0.1,localport=%d\n"
		  "  - -device pci-serial,chardev=la,addr=0x10\n"
		  "  - -chardev udp,id=lb,host=127.0.0.1,port=%d,localaddr=127.0.0.1,localport=%d\n"
		  "  - -device pci-serial,chardev=lb,addr=0x11\n"
		  "  - -chardev null,id=res\n"
		  "  - -device pci-serial,chardev=res,addr=0x12\n",
		  p->udp_b, p->udp_a, p->udp_a, p->udp_b);
	rbuf_add(b, "actions:\n- deploy:\n    to: tmpfs\n    timeout: {minutes: 10}\n"
		 "    images:\n      kernel:\n        image_arg: ");
	yq(b, "-kernel {kernel} -append \"" LAVA_CMDLINE "\"");
	rbuf_add(b, "\n        url: ");
	yq(b, p->kernel_url);
	rbuf_add(b, "\n      ramdisk:\n        image_arg: -initrd {ramdisk}\n        url: ");
	yq(b, p->ramdisk_url);
	rbuf_add(b, "\n        compression: gz\n        format: cpio.newc\n"
		 "        overlays:\n          lava: true\n");
	rbuf_add(b, "- boot:\n    method: qemu\n    media: tmpfs\n    timeout: {minutes: 10}\n"
		 "    prompts: [");
	yq(b, LAVA_PROMPT);
	rbuf_add(b, "]\n");
	rbuf_addf(b, "- test:\n    timeout: {minutes: %d}\n    definitions:\n"
		  "    - from: inline\n      name: ttypot\n      path: inline/ttypot.yaml\n"
		  "      repository:\n        metadata:\n          format: Lava-Test Test Definition 1.0\n"
		  "          name: ttypot\n          description: ttypot TTY/PTY cases\n"
		  "        run:\n          steps:\n          - ",
		  p->test_minutes);
	char step[2300];
	snprintf(step, sizeof step, "sh " LAVA_SUITE_IN_GUEST "/fixtures/guest/lava-suite.sh%s%s",
		 words[0] ? " " : "", words);
	yq(b, step);
	rbuf_addc(b, '\n');
}

char *lava_def_meta(const char *def, const char *key)
{
	char pat[80];
	snprintf(pat, sizeof pat, "# ttypot-%s: ", key);
	size_t pl = strlen(pat);
	for (const char *l = def; l && *l;) {
		const char *nl = strchr(l, '\n');
		size_t n = nl ? (size_t)(nl - l) : strlen(l);
		if (n >= pl && !strncmp(l, pat, pl)) {
			char *v = utf8_clean(l + pl, n - pl);
			size_t k = strlen(v);
			while (k && (v[k - 1] == ' ' || v[k - 1] == '\r'))
				v[--k] = '\0';
			return v;
		}
		l = nl ? nl + 1 : NULL;
	}
	return NULL;
}
