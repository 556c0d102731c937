// SPDX-License-Identifier: GPL-2.0-only
/* kvm.c: does KVM really work here?  Boot SeaBIOS under -accel kvm -cpu host
 * and wait (briefly) for it to finish POST; then, before the first guest,
 * the guest's own kernel must print on its console.  Anything else means
 * TCG.  Nested KVM that is broken can pass the first check and then hang a
 * kernel without a byte of output (seen: a 600 s make check guest).
 *
 * That second verdict outlives the process: a kernel that stalled under KVM
 * leaves a note in the cache (accel/kvm-stalled-BOOT_ID) and every later
 * ttypot of the same boot of this machine takes TCG at once, instead of
 * each spending KVM_KERNEL_DEADLINE_S to learn it again (make check's
 * guest tests, each mutant's boot).  A reboot gives a new boot id, so a
 * repaired KVM is tried again; TTYPOT_ACCEL=kvm still forces it. */
#include "guest.h"
#include "kutil.h"
#include "proc.h"

#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#define KVM_PROBE_DEADLINE_S 5.0

static int kvm_state = -1;   /* -1 unknown, 0 no, 1 yes */
static bool kernel_seen;     /* a kernel printed under KVM */

/* The note of a stalled KVM kernel for this boot of the machine; false
 * when there is no boot id to key it by. */
static bool
stall_note_path(char *out, size_t outlen)
{
	char *id = ku_read_file("/proc/sys/kernel/random/boot_id", NULL);
	if (!id)
		return false;
	id[strcspn(id, "\n")] = '\0';
	char cache[PATH_MAX];
	ku_default_cache(cache, sizeof cache);
	int n = snprintf(out, outlen, "%s/accel/kvm-stalled-%s", cache, id);
	free(id);
	return n > 0 && (size_t)n < outlen;
}

/* Written whole under a unique name, then renamed: a reader sees all of
 * it or nothing. */
static void
note_stall(const char *why)
{
	char path[PATH_MAX], tmp[PATH_MAX + 32], dir[PATH_MAX];
	if (!stall_note_path(path, sizeof path))
		return;
	snprintf(dir, sizeof dir, "%s", path);
	*strrchr(dir, '/') = '\0';
	snprintf(tmp, sizeof tmp, "%s.%ld.tmp", path, (long)getpid());
	char text[600];
	int n = snprintf(text, sizeof text, "%s\n", why);
	if (ku_mkdir_p(dir, 0755) < 0 || ku_write_file(tmp, text, (size_t)n) < 0 ||
	    rename(tmp, path) < 0)
		unlink(tmp);
}

/* The reason an earlier ttypot of this boot gave, or NULL (malloc'd). */
static char *
stall_noted(void)
{
	char path[PATH_MAX];
	if (!stall_note_path(path, sizeof path))
		return NULL;
	char *why = ku_read_file(path, NULL);
	if (why)
		why[strcspn(why, "\n")] = '\0';
	return why;
}

/* Run argv (QEMU writing into log) until log holds one of the words, the
 * process exits or deadline_s passes; true when a word was seen. */
static bool
run_until(const char *const argv[], const char *log,
	  const char *const words[], double deadline_s)
{
	char err[256];
	pid_t pid = proc_spawn(argv, NULL, err, sizeof err);
	bool ok = false;
	if (pid > 0) {
		double t0 = proc_now();
		int st;
		bool exited = false;
		while (proc_now() - t0 < deadline_s) {
			char *s = ku_read_file(log, NULL);
			for (size_t i = 0; s && words[i] && !ok; i++)
				ok = strstr(s, words[i]) != NULL;
			free(s);
			if (ok)
				break;
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
	return ok;
}

/* QEMU under KVM with a chardev named id writing into a fresh log, then
 * the arguments of tail: true when the log shows one of words within
 * deadline_s. */
static bool
probe_qemu(const char *id, const char *const tail[],
	   const char *const words[], double deadline_s)
{
	char dir[] = "/tmp/ttypot-kvm.XXXXXX";
	if (!mkdtemp(dir))
		return false;
	char log[64], chardev[128];
	snprintf(log, sizeof log, "%s/%s.log", dir, id);
	snprintf(chardev, sizeof chardev, "file,id=%s,path=%s", id, log);
	const char *argv[32] = {"qemu-system-x86_64", "-nodefaults",
				"-no-user-config", "-display", "none",
				"-accel", "kvm", "-cpu", "host", "-no-reboot",
				"-chardev", chardev};
	size_t n = 12;
	for (size_t i = 0; tail[i] && n < 31; i++)
		argv[n++] = tail[i];
	argv[n] = NULL;
	bool ok = run_until(argv, log, words, deadline_s);
	unlink(log);
	rmdir(dir);
	return ok;
}

static bool
probe(void)
{
	if (access("/dev/kvm", R_OK | W_OK) != 0)
		return false;
	const char *const tail[] = {"-m", "64", "-device",
				    "isa-debugcon,iobase=0x402,chardev=dbg", NULL};
	/* The end of POST: SeaBIOS looks for a boot device. */
	const char *const words[] = {"No bootable device", "Booting from", NULL};
	return probe_qemu("dbg", tail, words, KVM_PROBE_DEADLINE_S);
}

/* The kernel image itself under KVM, without an initramfs: its banner on
 * the console shows the CPU runs the kernel proper (a working KVM prints it
 * within a second; TCG on a loaded 2-core machine took 18 s). */
static bool
probe_kernel(const char *image)
{
	const char *const tail[] = {"-m", "256", "-kernel", image, "-append",
				    "console=ttyS0 earlyprintk=ttyS0 panic=-1",
				    "-serial", "chardev:con", NULL};
	/* Not any byte: the real-mode setup prints "Probing EDD" even where
	 * the kernel proper then hangs under KVM (seen here). */
	const char *const banner[] = {"Linux version", NULL};
	return probe_qemu("con", tail, banner, KVM_KERNEL_DEADLINE_S);
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
		else {
			char *why = stall_noted();
			if (why) {
				ku_progress("accelerator: tcg (earlier on this boot: %s; "
					    "TTYPOT_ACCEL=kvm tries it anyway)", why);
				free(why);
				kvm_state = 0;
				return false;
			}
			kvm_state = probe();
		}
		ku_progress("accelerator: %s%s", kvm_state ? "kvm" : "tcg",
			    force && *force ? " (TTYPOT_ACCEL)" : "");
	}
	return kvm_state == 1;
}

void
kvm_give_up(const char *why)
{
	if (kvm_state != 0)
		ku_progress("accelerator: tcg from now on (%s)", why);
	kvm_state = 0;
	note_stall(why);
}

bool
kvm_usable_for(const char *image)
{
	if (!kvm_usable())
		return false;
	const char *force = getenv("TTYPOT_ACCEL");
	if (kernel_seen || (force && !strcmp(force, "kvm")))
		return true;
	if (probe_kernel(image)) {
		kernel_seen = true;
		return true;
	}
	char why[PATH_MAX + 100];
	snprintf(why, sizeof why, "KVM passed its probe, but %s printed nothing under it "
		 "in %.0f s", image, KVM_KERNEL_DEADLINE_S);
	ku_progress("accelerator: tcg (%s)", why);
	kvm_state = 0;
	note_stall(why);
	return false;
}
