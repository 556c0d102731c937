// SPDX-License-Identifier: GPL-2.0-only
/* kvm.c: does KVM really work here?  Boot SeaBIOS under -accel kvm -cpu host
 * and wait (briefly) for it to finish POST; anything else means TCG. */
#include "guest.h"
#include "kutil.h"
#include "proc.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#define KVM_PROBE_DEADLINE_S 5.0

static int kvm_state = -1; /* -1 unknown, 0 no, 1 yes */

static bool
probe(void)
{
	if (access("/dev/kvm", R_OK | W_OK) != 0)
		return false;
	char dir[] = "/tmp/ttypot-kvm.XXXXXX";
	if (!mkdtemp(dir))
		return false;
	char log[64], chardev[128];
	snprintf(log, sizeof log, "%s/bios.log", dir);
	snprintf(chardev, sizeof chardev, "file,id=dbg,path=%s", log);
	const char *argv[] = {"qemu-system-x86_64", "-nodefaults",
			      "-no-user-config", "-display", "none",
			      "-accel", "kvm", "-cpu", "host", "-m", "64",
			      "-no-reboot", "-chardev", chardev, "-device",
			      "isa-debugcon,iobase=0x402,chardev=dbg", NULL};
	char err[256];
	pid_t pid = proc_spawn(argv, NULL, err, sizeof err);
	bool ok = false;
	if (pid > 0) {
		double t0 = proc_now();
		int st;
		bool exited = false;
		while (proc_now() - t0 < KVM_PROBE_DEADLINE_S) {
			char *s = ku_read_file(log, NULL);
			/* The end of POST: SeaBIOS looks for a boot device. */
			bool done = s && (strstr(s, "No bootable device") ||
					  strstr(s, "Booting from"));
			free(s);
			if (done) {
				ok = true;
				break;
			}
			if (proc_poll_exit(pid, &st)) {
				exited = true;
				break;
			}
			struct timespec ts = {0, 50 * 1000 * 1000};
			nanosleep(&ts, NULL);
		}
		if (!exited)
			proc_kill(pid, 500);
	}
	unlink(log);
	rmdir(dir);
	return ok;
}

bool
kvm_usable(void)
{
	if (kvm_state < 0) {
		const char *force = getenv("TTYPOT_ACCEL");
		if (force && !strcmp(force, "tcg"))
			kvm_state = 0;
		else if (force && !strcmp(force, "kvm"))
			kvm_state = 1;
		else
			kvm_state = probe();
		ku_progress("accelerator: %s%s", kvm_state ? "kvm" : "tcg",
			    force && *force ? " (TTYPOT_ACCEL)" : "");
	}
	return kvm_state == 1;
}
