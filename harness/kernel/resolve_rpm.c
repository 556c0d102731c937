// SPDX-License-Identifier: GPL-2.0-only
/* resolve_rpm.c: rpm:KERNEL.rpm[,MODULES.rpm...] and PATH.rpm kernels
 * (Fedora, RHEL, SUSE), unpacked with rpm2cpio and cpio as deb: unpacks
 * with dpkg-deb.
 *
 * Where the image is: lib/modules/REL/vmlinuz in Fedora's and RHEL's
 * kernel-core (their boot/vmlinuz-REL is a %ghost, not in the payload),
 * boot/vmlinuz-REL (boot/Image-REL on arm64) in SUSE's kernel-default.
 * The tty line disciplines that distributions build as modules are in
 * kernel-modules-core / kernel-modules (Fedora, RHEL 9) or in
 * kernel-default itself (SUSE), compressed (.ko.xz, .ko.zst, .ko.gz):
 * they are decompressed to the .ko the guest's busybox insmod loads.
 * Without modules RPMs named after the kernel RPM, the siblings of the
 * same version, release and arch are taken from its directory. */
#include "kresolve.h"
#include "kutil.h"
#include "proc.h"
#include "rbuf.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define RPM_DEADLINE_MS (10 * 60 * 1000)
#define MAX_RPMS 8

/* What the header of one RPM says. */
struct rpm_pkg {
	char path[PATH_MAX];
	char name[128], evr[320], version[128], release[128], arch[32];
};

/* Modules packages named after a kernel package, by its name:
 * "kernel-core" -> kernel-modules-core, kernel-modules, kernel-modules-extra
 * (Fedora, RHEL); "kernel-default" -> kernel-default-extra, -optional (SUSE). */
static const char *const core_siblings[] = {"-modules-core", "-modules", "-modules-extra"};
static const char *const suse_siblings[] = {"-extra", "-optional"};

/* Only these parts of a payload are unpacked (cpio patterns match '/'). */
static const char *const wanted[] = {
	"*/vmlinuz*", "*/boot/Image-*", "*/boot/vmlinux-*",
	"./boot/config-*", "*/modules/*/config", "*/kernel/drivers/tty/*",
};

/* First line of a command's output, for error messages. */
static const char *
first_line(const struct proc_result *r, char *buf, size_t len)
{
	return proc_first_line(r->err[0] ? r->err : r->out, buf, len);
}

/* An RPM starts with its lead: the magic ed ab ee db, then the major
 * version, then the type (0 binary, 1 source). */
static int
read_lead(const char *path, unsigned char lead[8])
{
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -1;
	ssize_t n = read(fd, lead, 8);
	close(fd);
	return n == 8 ? 0 : -1;
}

/* Check that path is a binary RPM and read its header into p. */
static int
query(const char *what, const char *path, struct proc_result *r,
      struct rpm_pkg *p, char *err, size_t errlen)
{
	unsigned char lead[8];
	memset(p, 0, sizeof *p);
	if (!realpath(path, p->path) || !ku_is_file(p->path)) {
		snprintf(err, errlen, "%s: %s: %s", what, path,
			 errno ? strerror(errno) : "not a regular file");
		return -1;
	}
	if (read_lead(p->path, lead) < 0 || lead[0] != 0xed || lead[1] != 0xab ||
	    lead[2] != 0xee || lead[3] != 0xdb) {
		snprintf(err, errlen, "%s: %s is not an RPM package (no RPM "
			 "lead)", what, path);
		return -1;
	}
	if (lead[7] == 1) {
		snprintf(err, errlen, "%s: %s is a source RPM, not a kernel "
			 "binary package", what, path);
		return -1;
	}
	const char *argv[] = {"rpm", "-qp", "--nosignature", "--nodigest",
			      "--qf", "%{NAME}\\n%{EPOCHNUM}\\n%{VERSION}\\n"
			      "%{RELEASE}\\n%{ARCH}\\n", p->path, NULL};
	struct proc_opts o = {.deadline_ms = RPM_DEADLINE_MS,
			      .stderr_path = "/dev/null"};
	char l[200];
	if (proc_run(argv, &o, r) != 0) {
		snprintf(err, errlen, "%s: broken RPM %s: rpm -qp: %s", what,
			 path, first_line(r, l, sizeof l));
		return -1;
	}
	char epoch[32] = "";
	if (sscanf(r->out, "%127[^\n]\n%31[^\n]\n%127[^\n]\n%127[^\n]\n%31[^\n]",
		   p->name, epoch, p->version, p->release, p->arch) != 5) {
		snprintf(err, errlen, "%s: broken RPM %s: its header has no "
			 "name, version, release and arch", what, path);
		return -1;
	}
	snprintf(p->evr, sizeof p->evr, "%s%s%s-%s", strcmp(epoch, "0") ? epoch : "",
		 strcmp(epoch, "0") ? ":" : "", p->version, p->release);
	return 0;
}

/* Modules RPMs beside the kernel RPM: "<stem><suffix>-V-R.ARCH.rpm". */
static int
find_siblings(const char *what, const struct rpm_pkg *k, struct proc_result *r,
	      struct rpm_pkg *out, int max, char *err, size_t errlen)
{
	char dir[PATH_MAX], stem[128];
	snprintf(dir, sizeof dir, "%s", k->path);
	*strrchr(dir, '/') = '\0';
	size_t nl = strlen(k->name);
	bool core = nl > 5 && !strcmp(k->name + nl - 5, "-core");
	snprintf(stem, sizeof stem, "%.*s", (int)(core ? nl - 5 : nl), k->name);
	const char *const *sfx = core ? core_siblings : suse_siblings;
	size_t ns = core ? sizeof core_siblings / sizeof *core_siblings
			 : sizeof suse_siblings / sizeof *suse_siblings;
	int n = 0;
	for (size_t i = 0; i < ns && n < max; i++) {
		char name[300], path[PATH_MAX + 700];
		snprintf(name, sizeof name, "%s%s", stem, sfx[i]);
		ku_fmt(path, sizeof path, "%s/%s-%s-%s.%s.rpm", dir, name,
		       k->version, k->release, k->arch);
		if (!ku_is_file(path))
			continue;
		if (query(what, path, r, &out[n], err, errlen) < 0)
			return -1;
		if (strcmp(out[n].name, name)) {
			snprintf(err, errlen, "%s: %s is named %s but its header "
				 "says %s", what, path, name, out[n].name);
			return -1;
		}
		n++;
	}
	return n;
}

/* Unpack the wanted parts of one RPM into dir: rpm2cpio (which
 * decompresses gzip, xz or zstd payloads) into a file, then cpio. */
static int
unpack_one(const char *what, const struct rpm_pkg *p, const char *dir,
	   struct proc_result *r, char *err, size_t errlen)
{
	char payload[PATH_MAX + 16], l[200];
	ku_fmt(payload, sizeof payload, "%s/.payload.cpio", dir);
	const char *pargv[] = {"rpm2cpio", p->path, NULL};
	struct proc_opts po = {.deadline_ms = RPM_DEADLINE_MS,
			       .stdout_path = payload,
			       .stderr_path = "/dev/null"};
	if (proc_run(pargv, &po, r) != 0) {
		snprintf(err, errlen, "%s: broken RPM %s: rpm2cpio exit %d",
			 what, p->path, r->status);
		unlink(payload);
		return -1;
	}
	const char *argv[5 + sizeof wanted / sizeof *wanted] = {
		"cpio", "-idm", "--quiet", "--no-absolute-filenames"};
	for (size_t i = 0; i < sizeof wanted / sizeof *wanted; i++)
		argv[4 + i] = wanted[i];
	struct proc_opts co = {.deadline_ms = RPM_DEADLINE_MS, .cwd = dir,
			       .stdin_path = payload};
	int st = proc_run(argv, &co, r);
	unlink(payload);
	if (st != 0) {
		snprintf(err, errlen, "%s: broken RPM %s: cpio: %s", what,
			 p->path, first_line(r, l, sizeof l));
		return -1;
	}
	return 0;
}

/* Decompress every .ko.xz/.ko.zst/.ko.gz under dir (recursively) to .ko. */
static int
decompress_modules(const char *what, const char *dir, struct proc_result *r,
		   char *err, size_t errlen)
{
	static const struct { const char *ext; const char *tool[4]; } z[] = {
		{".ko.xz", {"xz", "-d", "-q", NULL}},
		{".ko.zst", {"zstd", "-d", "-q", "--rm"}},
		{".ko.gz", {"gzip", "-d", "-q", NULL}},
	};
	DIR *d = opendir(dir);
	if (!d)
		return 0;
	struct dirent *e;
	int rc = 0;
	while (rc == 0 && (e = readdir(d))) {
		char p[PATH_MAX];
		if (e->d_name[0] == '.' ||
		    ku_fmt(p, sizeof p, "%s/%s", dir, e->d_name) < 0)
			continue;
		if (ku_is_dir(p)) {
			rc = decompress_modules(what, p, r, err, errlen);
			continue;
		}
		size_t n = strlen(e->d_name);
		for (size_t i = 0; i < sizeof z / sizeof *z; i++) {
			size_t el = strlen(z[i].ext);
			if (n <= el || strcmp(e->d_name + n - el, z[i].ext))
				continue;
			const char *argv[6] = {0};
			int k = 0;
			for (; k < 4 && z[i].tool[k]; k++)
				argv[k] = z[i].tool[k];
			argv[k] = p;
			struct proc_opts o = {.deadline_ms = RPM_DEADLINE_MS};
			char l[200];
			if (proc_run(argv, &o, r) != 0) {
				snprintf(err, errlen, "%s: cannot decompress %s: "
					 "%s", what, p, first_line(r, l, sizeof l));
				rc = -1;
			}
		}
	}
	closedir(d);
	return rc;
}

/* The kernel image in an unpacked tree: fills img and rel. */
static bool
find_image(const char *xdir, char *img, size_t imglen, char *rel, size_t rellen)
{
	/* Fedora/RHEL: (usr/)lib/modules/REL/vmlinuz */
	for (int i = 0; i < 2; i++) {
		char m[PATH_MAX];
		ku_fmt(m, sizeof m, "%s/%s", xdir, kpkg_module_dirs[i]);
		DIR *d = opendir(m);
		struct dirent *e;
		while (d && (e = readdir(d))) {
			if (e->d_name[0] == '.' || strlen(e->d_name) >= rellen)
				continue;
			if (ku_fmt(img, imglen, "%s/%s/vmlinuz", m, e->d_name) >= 0 &&
			    ku_is_file(img)) {
				strcpy(rel, e->d_name);
				closedir(d);
				return true;
			}
		}
		if (d)
			closedir(d);
	}
	/* SUSE: boot/vmlinuz-REL, boot/Image-REL (arm64), boot/vmlinux-REL */
	const char *prefixes[] = {"vmlinuz-", "Image-", "vmlinux-"};
	for (int i = 0; i < 3; i++)
		if (kpkg_boot_image(xdir, prefixes[i], img, imglen, rel, rellen))
			return true;
	return false;
}

/* Split "a.rpm,b.rpm" into the kernel RPM and the modules RPMs given. */
static int
split_list(const struct kspec *s, char paths[][PATH_MAX], char *err, size_t errlen)
{
	int n = 0;
	for (const char *p = s->arg; *p;) {
		size_t len = strcspn(p, ",");
		if (len == 0 || len >= PATH_MAX || n == MAX_RPMS) {
			snprintf(err, errlen, "kernel spec '%s': expected "
				 "rpm:KERNEL.rpm[,MODULES.rpm...] (at most %d)",
				 s->text, MAX_RPMS);
			return -1;
		}
		memcpy(paths[n], p, len);
		paths[n++][len] = '\0';
		p += len + (p[len] == ',');
	}
	return n;
}

struct unpack_job {
	const char *what;
	const struct rpm_pkg *pk;
	int npk;
	struct proc_result *r;
};

/* ku_once's fill: every package's wanted files into tmpdir, modules
 * decompressed. */
static int
unpack_into(const char *tmpdir, void *arg, char *err, size_t errlen)
{
	const struct unpack_job *j = arg;
	double t0 = proc_now();
	for (int i = 0; i < j->npk; i++) {
		ku_progress("unpacking %s", j->pk[i].path);
		if (unpack_one(j->what, &j->pk[i], tmpdir, j->r, err, errlen) < 0)
			return -1;
	}
	if (decompress_modules(j->what, tmpdir, j->r, err, errlen) < 0)
		return -1;
	ku_progress("unpacked %d RPM%s in %.1f s", j->npk, j->npk > 1 ? "s" : "",
		    proc_now() - t0);
	return 0;
}

static int
resolve_pkgs(const struct kspec *s, const char *cache, struct rpm_pkg *pk,
	     int npk, struct proc_result *r, struct kernel_info *out,
	     char *err, size_t errlen)
{
	const char *what = s->text;
	/* The arch of the kernel package, checked against the one asked for. */
	const char *arch = karch_canon(pk[0].arch);
	if (!arch) {
		snprintf(err, errlen, "%s: %s is an RPM for %s, not for a kernel "
			 "arch ttypot boots (x86_64, aarch64, ppc64le)", what,
			 pk[0].path, pk[0].arch);
		return -1;
	}
	if (s->arch_given && strcmp(arch, s->arch)) {
		snprintf(err, errlen, "%s: %s is an RPM for %s, not %s", what,
			 pk[0].path, pk[0].arch, s->arch);
		return -1;
	}
	for (int i = 1; i < npk; i++)
		if (strcmp(pk[i].evr, pk[0].evr) || strcmp(pk[i].arch, pk[0].arch)) {
			snprintf(err, errlen, "%s: modules RPM %s is %s.%s, the "
				 "kernel RPM %s is %s.%s", what, pk[i].path,
				 pk[i].evr, pk[i].arch, pk[0].path, pk[0].evr,
				 pk[0].arch);
			return -1;
		}
	/* Unpack once per set of packages (by content). */
	struct rbuf ids = {0};
	for (int i = 0; i < npk; i++) {
		char hex[65];
		if (ku_sha256_file(pk[i].path, hex) < 0) {
			snprintf(err, errlen, "%s: %s: %s", what, pk[i].path,
				 strerror(errno));
			rbuf_free(&ids);
			return -1;
		}
		rbuf_add(&ids, hex);
	}
	char key[65], xdir[PATH_MAX], doing[PATH_MAX + 32];
	ku_sha256_hex(ids.s, ids.len, key);
	rbuf_free(&ids);
	ku_fmt(xdir, sizeof xdir, "%s/rpm/x/%.16s", cache, key);
	ku_fmt(doing, sizeof doing, "unpacking %s", pk[0].path);
	struct unpack_job uj = {.what = what, .pk = pk, .npk = npk, .r = r};
	if (ku_once(xdir, false, doing, RPM_DEADLINE_MS / 1000 * (npk + 1),
		    unpack_into, &uj, err, errlen) < 0)
		return -1;
	char img[PATH_MAX], rel[128];
	if (!find_image(xdir, img, sizeof img, rel, sizeof rel)) {
		snprintf(err, errlen, "%s: no kernel image in %s (neither "
			 "lib/modules/REL/vmlinuz as in Fedora's kernel-core nor "
			 "boot/vmlinuz-REL as in SUSE's kernel-default; a modules "
			 "package?)", what, pk[0].path);
		return -1;
	}
	char irel[128] = "";
	if (kimage_check_arch(img, arch, irel, sizeof irel, err, errlen) < 0)
		return -1;
	/* The guest loads modules from lib/modules/$(uname -r): the image's
	 * own release is the one that counts. */
	if (irel[0] && strcmp(irel, rel))
		ku_progress("%s: the image says release %s, its path %s", what,
			    irel, rel);
	struct kpkg kp = {.what = what, .pkg = pk[0].path, .xdir = xdir,
			  .image = img, .rel = rel, .release = irel[0] ? irel : rel,
			  .version = pk[0].evr, .arch = arch,
			  .compat32 = s->abi[0] != 0};
	return kpkg_fill(&kp, out, err, errlen);
}

int
resolve_rpm(const struct kspec *s, const char *cache, struct kernel_info *out,
	    char *err, size_t errlen)
{
	char (*paths)[PATH_MAX] = malloc(MAX_RPMS * sizeof *paths);
	struct rpm_pkg *pk = malloc(MAX_RPMS * sizeof *pk);
	struct proc_result *r = malloc(sizeof *r);
	int rc = -1;
	if (!paths || !pk || !r) {
		snprintf(err, errlen, "%s: out of memory", s->text);
		goto out;
	}
	int n = split_list(s, paths, err, errlen);
	if (n < 0)
		goto out;
	for (int i = 0; i < n; i++)
		if (query(s->text, paths[i], r, &pk[i], err, errlen) < 0)
			goto out;
	if (n == 1) {
		int more = find_siblings(s->text, &pk[0], r, pk + 1,
					 MAX_RPMS - 1, err, errlen);
		if (more < 0)
			goto out;
		for (int i = 1; i <= more; i++)
			ku_progress("modules RPM beside it: %s", pk[i].path);
		n += more;
	}
	rc = resolve_pkgs(s, cache, pk, n, r, out, err, errlen);
out:
	free(paths);
	free(pk);
	free(r);
	return rc;
}
