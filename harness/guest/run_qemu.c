// SPDX-License-Identifier: GPL-2.0-only
/* run_qemu.c: boot a kernel under QEMU with the suite's initramfs, two
 * cross-connected PCI UARTs for the loopback cases, a PCI UART (a file on
 * the host) as the results channel and one more for the guest's requests
 * to the host side (hostside.c), which acts through QEMU's monitor; x86_64
 * guests also get an hvc and a USB serial port joined to each other. */
#include "watch.h"
#include "guest_root.h"
#include "hostside.h"
#include "initramfs.h"
#include "qarch.h"
#include "kutil.h"
#include "proc.h"

#include <arpa/inet.h>
#include <dirent.h>
#include <signal.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <netinet/in.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/utsname.h>
#include <unistd.h>

/* tty modules distributions build as modules, packed when the kernel has
 * them and loaded in this order (each after what it depends on: Debian
 * 6.1's modinfo depends=): the ldiscs, then the drivers of the hvc and
 * usbserial areas with their buses.  The virtio bus modules are also on
 * the Debian root's list (guest_root.c); loading one twice is harmless. */
static const char *const tty_modules[] = {
	"kernel/drivers/tty/n_hdlc.ko",
	"kernel/drivers/tty/n_gsm.ko",
	"kernel/drivers/tty/n_null.ko",
	"kernel/drivers/tty/ttynull.ko",
	"kernel/drivers/virtio/virtio_ring.ko",
	"kernel/drivers/virtio/virtio.ko",
	"kernel/drivers/virtio/virtio_pci_modern_dev.ko",
	"kernel/drivers/virtio/virtio_pci_legacy_dev.ko",
	"kernel/drivers/virtio/virtio_pci.ko",
	"kernel/drivers/char/virtio_console.ko",
	"kernel/drivers/usb/common/usb-common.ko",
	"kernel/drivers/usb/core/usbcore.ko",
	"kernel/drivers/usb/host/xhci-hcd.ko",
	"kernel/drivers/usb/host/xhci-pci.ko",
	"kernel/drivers/usb/serial/usbserial.ko",
	"kernel/drivers/usb/serial/ftdi_sio.ko",
};

/* n (at most 4) distinct free UDP ports on 127.0.0.1 (held until all are
 * known). */
static int
free_udp_ports(int *ports, int n)
{
	int fds[4] = {-1, -1, -1, -1}, rc = 0;
	for (int i = 0; i < n && i < 4 && rc == 0; i++) {
		struct sockaddr_in a = {.sin_family = AF_INET};
		socklen_t al = sizeof a;
		a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
		fds[i] = socket(AF_INET, SOCK_DGRAM | SOCK_CLOEXEC, 0);
		if (fds[i] < 0 || bind(fds[i], (void *)&a, sizeof a) < 0 ||
		    getsockname(fds[i], (void *)&a, &al) < 0)
			rc = -1;
		else
			ports[i] = ntohs(a.sin_port);
	}
	for (int i = 0; i < 4; i++)
		if (fds[i] >= 0)
			close(fds[i]);
	return rc;
}

/* Single-quote s for /bin/sh. */
static void
shell_quote(const char *s, char *out, size_t outlen)
{
	size_t n = 0;
	out[n++] = '\'';
	for (; s && *s && n + 6 < outlen; s++) {
		if (*s == '\'') {
			memcpy(out + n, "'\\''", 4);
			n += 4;
		} else {
			out[n++] = *s;
		}
	}
	out[n++] = '\'';
	out[n] = '\0';
}

/* The per-kernel segment: run.conf, the kernel's tty modules and, with a
 * Debian root attached (disk), the modules that mount it.  libdir:
 * where /lib really is in the initramfs.  A cross root has /lib -> usr/lib,
 * and a "lib" directory in a later cpio member would replace that symlink
 * (the kernel's unpacker removes an entry of another type), taking the
 * loader /lib/ld-linux.so.2 with it. */
static int
build_segment(const struct kernel_info *k, const struct run_opts *o,
	      const char *libdir, bool disk, const char *tmpdir,
	      const char *seg, char *err, size_t errlen)
{
	char dir[PATH_MAX], p[PATH_MAX], q[PATH_MAX];
	ku_fmt(dir, sizeof dir, "%s/seg", tmpdir);
	ku_fmt(p, sizeof p, "%s/etc/ttypot", dir);
	if (ku_mkdir_p(p, 0755) < 0) {
		snprintf(err, errlen, "cannot create %.300s: %s", p,
			 strerror(errno));
		return -1;
	}
	char f[2048], v[2048], conf[4200];
	/* Filters are words for run-suite.sh: commas become spaces. */
	char words[2048];
	snprintf(words, sizeof words, "%s", o->cases_filter ? o->cases_filter : "");
	for (char *c = words; *c; c++)
		if (*c == ',')
			*c = ' ';
	shell_quote(words, f, sizeof f);
	shell_quote(o->kyua_vars ? o->kyua_vars : "", v, sizeof v);
	int n = snprintf(conf, sizeof conf,
			 "# written by ttypot for this run\n"
			 "TTYPOT_FILTER=%s\nTTYPOT_KYUA_VARS=%s\n", f, v);
	ku_fmt(p, sizeof p, "%s/etc/ttypot/run.conf", dir);
	if (ku_write_file(p, conf, (size_t)n) < 0) {
		snprintf(err, errlen, "cannot write %.300s: %s", p,
			 strerror(errno));
		return -1;
	}
	if (k->modules_dir[0] && k->release[0]) {
		ku_fmt(q, sizeof q, "%s/%s/modules/%s/ttypot", dir, libdir,
		       k->release);
		for (size_t i = 0; i < sizeof tty_modules / sizeof *tty_modules;
		     i++) {
			char from[PATH_MAX], to[PATH_MAX];
			ku_fmt(from, sizeof from, "%s/%s", k->modules_dir,
			       tty_modules[i]);
			if (!ku_is_file(from))
				continue;
			ku_fmt(to, sizeof to, "%s/%02zu-%s", q, i,
			       strrchr(tty_modules[i], '/') + 1);
			if (ku_mkdir_p(q, 0755) < 0 ||
			    ku_copy_file(from, to) < 0) {
				snprintf(err, errlen, "cannot copy %.300s: %s",
					 from, strerror(errno));
				return -1;
			}
		}
	}
	if (disk && guest_root_modules(k, dir, libdir, err, errlen) < 0)
		return -1;
	int rc = cpio_pack(dir, seg, err, errlen);
	ku_rm_rf(dir);
	return rc;
}

/* initrd = the suite initramfs + the per-kernel segment, concatenated. */
static int
concat(const char *a, const char *b, const char *to)
{
	int out = open(to, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
	if (out < 0)
		return -1;
	const char *parts[] = {a, b};
	int rc = 0;
	for (int i = 0; i < 2 && rc == 0; i++) {
		int in = open(parts[i], O_RDONLY | O_CLOEXEC);
		if (in < 0) {
			rc = -1;
			break;
		}
		char buf[65536];
		ssize_t n;
		while (rc == 0 && (n = read(in, buf, sizeof buf)) > 0)
			if (write(out, buf, (size_t)n) != n)
				rc = -1;
		close(in);
	}
	if (close(out) < 0)
		rc = -1;
	return rc;
}

/* Remove ttypot-qemu.<pid>.* dirs of runners that died (killed by a
 * watchdog before they could clean up). */
static void
sweep_stale(const char *base)
{
	DIR *d = opendir(base);
	if (!d)
		return;
	struct dirent *e;
	while ((e = readdir(d))) {
		long pid;
		char rest[32];
		if (sscanf(e->d_name, "ttypot-qemu.%ld.%31s", &pid, rest) != 2 ||
		    pid <= 0)
			continue;
		if (kill((pid_t)pid, 0) == 0 || errno != ESRCH)
			continue;
		char p[PATH_MAX];
		if (ku_fmt(p, sizeof p, "%s/%s", base, e->d_name) > 0)
			ku_rm_rf(p);
	}
	closedir(d);
}

/* KVM only runs a guest of the host's own architecture. */
static bool
same_arch(const struct qarch *qa)
{
	struct utsname u;
	return uname(&u) == 0 && !strcmp(u.machine, qa->host);
}

int
run_qemu(const struct kernel_info *k, const struct run_opts *o,
	 const char *results_path, struct run_outcome *out)
{
	const struct qarch *qa = qarch_of(k->arch[0] ? k->arch : "x86_64");
	if (!qa) {
		snprintf(out->err, sizeof out->err, "%.100s: no QEMU machine "
			 "for architecture '%.20s'", k->label, k->arch);
		return -1;
	}
	/* Another architecture or ABI: its cross-built userland. */
	const char *userland = qarch_userland(k);
	char xinitrd[PATH_MAX];
	const char *initramfs = o->initramfs;
	if (userland) {
		if (initramfs_cross(o->suite_dir, userland, xinitrd,
				    sizeof xinitrd, out->err,
				    sizeof out->err) < 0)
			return -1;
		initramfs = xinitrd;
	}
	/* x86_64 guests mount the Debian root of the apps and peers rows
	 * (harness/guest-root/build.sh) when it is built. */
	char rootimg[PATH_MAX], rootdrive[PATH_MAX + 64];
	int disk = 0;
	if (!userland && !strcmp(qa->arch, "x86_64")) {
		disk = guest_root_image(rootimg, sizeof rootimg, out->err,
					sizeof out->err);
		if (disk < 0)
			return -1;
		ku_fmt(rootdrive, sizeof rootdrive, "file=%s,format=raw,"
		       "if=none,id=droot,readonly=on", rootimg);
	}
	if (!initramfs || !ku_is_file(initramfs)) {
		snprintf(out->err, sizeof out->err, "no guest initramfs (%.400s)",
			 initramfs ? initramfs : "not built");
		return -1;
	}
	bool kvm = same_arch(qa) && kvm_usable_for(k->image);
	const char *tbase = getenv("TMPDIR");
	tbase = tbase && *tbase ? tbase : "/tmp";
	sweep_stale(tbase);
	char tmpdir[PATH_MAX];
	ku_fmt(tmpdir, sizeof tmpdir, "%s/ttypot-qemu.%ld.XXXXXX", tbase,
	       (long)getpid());
	if (!mkdtemp(tmpdir)) {
		snprintf(out->err, sizeof out->err, "mkdtemp %.400s: %s",
			 tmpdir, strerror(errno));
		return -1;
	}
	int rc = -1;
	char seg[PATH_MAX], initrd[PATH_MAX];
	ku_fmt(seg, sizeof seg, "%s/segment.cpio.gz", tmpdir);
	ku_fmt(initrd, sizeof initrd, "%s/initrd.cpio.gz", tmpdir);
	if (build_segment(k, o, userland ? "usr/lib" : "lib", disk > 0,
			  tmpdir, seg, out->err, sizeof out->err) < 0)
		goto done;
	if (concat(initramfs, seg, initrd) < 0) {
		snprintf(out->err, sizeof out->err, "cannot write %.400s: %s",
			 initrd, strerror(errno));
		goto done;
	}
	int udp[4];
	if (free_udp_ports(udp, 4) < 0) {
		snprintf(out->err, sizeof out->err, "no free UDP ports: %s",
			 strerror(errno));
		goto done;
	}
	/* Under KVM a guest that shows no kernel banner in KVM_KERNEL_DEADLINE_S
	 * is booted again under TCG: ko carries that limit. */
	struct run_opts ko = *o;
boot:
	snprintf(out->accel, sizeof out->accel, "%s", kvm ? "kvm" : "tcg");
	ko.banner_s = kvm ? (int)KVM_KERNEL_DEADLINE_S : 0;
	/* The request channel: breaks go to the pair's chardevs by the PCI
	 * function the guest sees them at. */
	static const struct hostside_uart pair[] = {
		{"0000:00:10.0", "la"}, {"0000:00:11.0", "lb"}};
	/* x86_64 guests get an hvc (a virtconsole on virtio-serial) and a USB
	 * serial port (QEMU's FTDI model on qemu-xhci), their chardevs
	 * cross-connected as the UART pair's; the host side unplugs and plugs
	 * them back on request.  always-plugged: without it QEMU 7.2 waits
	 * for the chardev to report "opened" before it attaches a usb-serial,
	 * and on a udp chardev the guest never saw the device (measured). */
	bool vports = !strcmp(qa->arch, "x86_64");
	const struct hostside_dev vdevs[] = {
		{"hvc", "hvcport", "virtconsole", "hv", "vser.0", false,
		 udp[3], udp[2]},
		{"usb", "usbser", "usb-serial", "us", "xhci.0", true, 0, 0}};
	struct hostside hs;
	char herr[256];
	/* Without it (it cannot listen) the cases that ask skip. */
	bool host = hostside_listen(&hs, tmpdir, pair, 2, k->label[0] ?
				    k->label : k->release, herr,
				    sizeof herr) == 0;
	if (host && vports)
		hostside_devices(&hs, vdevs, 2);
	if (!host)
		ku_progress("%s: no host side for requests: %s", k->label, herr);
	char hchr[256], hdev[256], hmon[256], hmonopt[256];
	if (host)
		hostside_qemu_args(&hs, "0x13", hchr, hdev, hmon, hmonopt, 256);
	char con[PATH_MAX + 64], ua[200], ub[200], res[PATH_MAX + 64],
		uh[200], uu[200];
	ku_fmt(con, sizeof con, "file,id=con,path=%s,append=on",
	       out->console_path);
	snprintf(ua, sizeof ua, "udp,id=la,host=127.0.0.1,port=%d,"
		 "localaddr=127.0.0.1,localport=%d", udp[1], udp[0]);
	snprintf(ub, sizeof ub, "udp,id=lb,host=127.0.0.1,port=%d,"
		 "localaddr=127.0.0.1,localport=%d", udp[0], udp[1]);
	snprintf(uh, sizeof uh, "udp,id=hv,host=127.0.0.1,port=%d,"
		 "localaddr=127.0.0.1,localport=%d", udp[3], udp[2]);
	snprintf(uu, sizeof uu, "udp,id=us,host=127.0.0.1,port=%d,"
		 "localaddr=127.0.0.1,localport=%d", udp[2], udp[3]);
	ku_fmt(res, sizeof res, "file,id=res,path=%s,append=on", results_path);
	/* Extra kernel parameters for debugging: $TTYPOT_KERNEL_ARGS. */
	char cmdline[1024];
	const char *extra = getenv("TTYPOT_KERNEL_ARGS");
	/* x86 under TCG on a loaded host can fail the boot-time check that the
	 * timer reaches the IO-APIC and panic ("IO-APIC + timer doesn't
	 * work!") before any case runs: no_timer_check skips that check. */
	bool tcg_x86 = !kvm && !strcmp(qa->arch, "x86_64");
	/* The debug flavour (KASAN, lockdep) under TCG runs ACPI's AML so
	 * slowly that the While loop of the pc machine's \_SB.PCI0._PRT
	 * passes ACPICA's 30 s loop limit (AE_AML_LOOP_TIMEOUT) for every PCI
	 * device.  q35's _PRT is a fixed package, no loop: those guests boot
	 * q35, ACPI's interrupt routing whole.  (acpi=noirq booted the pc
	 * machine but, 2026-12-07, its guest never came back from S3 in
	 * serial/t_suspend; pci=noacpi lost the PCI UARTs to a clash of their
	 * I/O BARs with the root bridge's window.) */
	bool debug_tcg_x86 = tcg_x86 && !strcmp(k->flavour, "debug");
	const char *machine = debug_tcg_x86 ? "q35" : qa->machine;
	snprintf(cmdline, sizeof cmdline, "console=%s panic=-1 "
		 "8250.nr_uarts=8 rdinit=/init%s%s%.800s", qa->console,
		 tcg_x86 ? " no_timer_check" : "",
		 extra && *extra ? " " : "", extra ? extra : "");
	const char *argv[80];
	int n = 0;
	argv[n++] = qa->qemu;
	if (machine) {
		argv[n++] = "-M";
		argv[n++] = machine;
	}
	const char *rest[] = {
		"-nodefaults", "-no-user-config",
		"-display", "none", "-no-reboot", "-m", "1024", "-smp", "2",
		"-accel", kvm ? "kvm" : "tcg,thread=multi",
		"-cpu", kvm ? "host" : qa->cpu,
		"-kernel", k->image, "-initrd", initrd,
		"-append", cmdline,
		"-chardev", con, "-serial", "chardev:con",
		/* Fixed PCI slots: the results port is the last one. */
		"-chardev", ua, "-device", "pci-serial,chardev=la,addr=0x10",
		"-chardev", ub, "-device", "pci-serial,chardev=lb,addr=0x11",
		"-chardev", res, "-device", "pci-serial,chardev=res,addr=0x12",
		NULL};
	for (size_t i = 0; rest[i]; i++)
		argv[n++] = rest[i];
	if (host) {
		const char *h[] = {"-chardev", hchr, "-device", hdev,
				   "-chardev", hmon, "-mon", hmonopt};
		for (size_t i = 0; i < sizeof h / sizeof *h; i++)
			argv[n++] = h[i];
	}
	if (vports) {
		/* Fixed PCI slots after the request channel's 0x13; the ids
		 * are those of vdevs (the host side's plug and unplug). */
		const char *v[] = {
			"-chardev", uh,
			"-device", "virtio-serial-pci,id=vser,addr=0x14",
			"-device", "virtconsole,chardev=hv,id=hvcport",
			"-chardev", uu,
			"-device", "qemu-xhci,id=xhci,addr=0x15",
			"-device", "usb-serial,chardev=us,id=usbser,"
				   "always-plugged=on"};
		for (size_t i = 0; i < sizeof v / sizeof *v; i++)
			argv[n++] = v[i];
	}
	if (disk > 0) {
		argv[n++] = "-drive";
		argv[n++] = rootdrive;
		argv[n++] = "-device";
		argv[n++] = "virtio-blk-pci,drive=droot";
	}
	argv[n] = NULL;
	struct proc_opts po = {.stdout_path = out->console_path,
			       .stdout_append = true,
			       .stderr_path = out->console_path};
	char who[200];
	snprintf(who, sizeof who, "%s", k->label[0] ? k->label : k->release);
	ku_progress("%s: booting %s under %s (%s)", who, k->image, qa->qemu,
		    out->accel);
	int started = watch_spawn(argv, &po, &ko, results_path, who, true,
				  host ? &hs : NULL, out);
	if (host)
		hostside_close(&hs);
	if (started < 0)
		goto done;
	if (kvm && out->stalled) {
		kvm_give_up(out->err);
		kvm = false;
		out->stalled = false;
		goto boot;
	}
	if (host && hs.requests)
		ku_progress("%s: host side answered %d of %d requests", who,
			    hs.answered, hs.requests);
	rc = 0;
	/* QEMU that could not start at all (bad option, KVM failure). */
	if (out->end == RUN_SILENT && out->boot_s < 3) {
		char *c = ku_read_file(out->console_path, NULL);
		char tag[64];
		snprintf(tag, sizeof tag, "%s:", qa->qemu);
		if (c && strstr(c, tag)) {
			const char *q = strstr(c, tag);
			snprintf(out->err, sizeof out->err, "QEMU failed: %.*s",
				 (int)strcspn(q, "\n"), q);
			out->end = RUN_ERROR;
			rc = -1;
		}
		free(c);
	}
	ku_progress("%s: %s after %.1f s boot + %.1f s suite", who,
		    out->end == RUN_DONE ? "done" :
		    out->end == RUN_PANIC ? "kernel panic" :
		    out->end == RUN_TIMEOUT ? "timeout" :
		    out->end == RUN_SILENT ? "no end line" : "error",
		    out->boot_s, out->suite_s);
done:
	ku_rm_rf(tmpdir);
	return rc;
}
