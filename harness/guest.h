/*
 * guest.h: turning a kernel spec into results (the interface between the
 * kernel/QEMU side of the harness and the matrix/report side).
 *
 * The report side calls kspec_parse() on each command-line kernel, then
 * kernel_resolve() (downloads, builds, caches) and run_suite(), which streams
 * results-channel lines (harness/PROTOCOL.md) into a file as the suite runs.
 * The report side ingests that file, so a kernel that dies mid-run still
 * yields the cases it finished.
 */
#ifndef TTYPOT_GUEST_H
#define TTYPOT_GUEST_H

#include <stdbool.h>
#include <stddef.h>

enum kspec_kind {
	KSPEC_HOST,   /* "host": the running kernel, kyua directly */
	KSPEC_IMAGE,  /* a path to a bzImage/vmlinuz */
	KSPEC_DEB,    /* "deb:PACKAGE[=VERSION]" or a path to a .deb */
	KSPEC_SRC,    /* "src:linux-source-6.12" (Debian source package) */
	KSPEC_TREE,   /* "tree:DIR" (a kernel source tree, built out of tree) */
};

struct kspec {
	enum kspec_kind kind;
	char text[512];    /* the spec as the user wrote it */
	char arg[512];     /* path, package name, source package or tree dir */
	char version[128]; /* deb:PACKAGE=VERSION, else "" */
	bool deb_is_file;  /* KSPEC_DEB given as a path to a .deb */
};

/* Parse one kernel spec.  Returns 0, or -1 with a message naming the input
 * in err (syntax only: no file system or network access). */
int kspec_parse(const char *text, struct kspec *out, char *err, size_t errlen);

/* What exactly will run, for the matrix column header. */
struct kernel_info {
	char label[128];       /* short column label, unique in a run */
	char image[1024];      /* bzImage path ("" for host) */
	char modules_dir[1024];/* lib/modules/<rel> to pack, "" if none */
	char release[128];     /* uname -r, when known before boot */
	char version[256];     /* .deb version, git sha (+dirty), or "" */
	char config_hash[20];  /* first 16 hex of sha256 of the .config */
	char arch[16];         /* x86_64 */
};

/* Resolve a parsed spec to a bootable kernel, downloading/building into the
 * cache dir (default ~/.cache/ttypot or $TTYPOT_CACHE).  Progress goes to
 * stderr.  Returns 0, or -1 with a message naming the input in err: missing
 * file, not a kernel image, broken .deb, unknown package, build failure. */
int kernel_resolve(const struct kspec *spec, const char *cache_dir,
		   struct kernel_info *out, char *err, size_t errlen);

struct run_opts {
	const char *suite_dir;    /* the built tree: Kyuafile, cases/, fixtures/ */
	const char *initramfs;    /* built by initramfs_build(), for guests */
	const char *cases_filter; /* kyua test filter (program[:case]), or NULL */
	int deadline_s;           /* whole-kernel deadline */
	const char *kyua_vars;    /* extra "-v name=value" words, or NULL */
};

enum run_end {
	RUN_DONE,    /* the suite reported its end line */
	RUN_PANIC,   /* the console shows a kernel panic/oops before the end */
	RUN_TIMEOUT, /* deadline passed */
	RUN_SILENT,  /* the guest exited without an end line and no panic */
	RUN_ERROR,   /* could not start (err says why) */
};

struct run_outcome {
	enum run_end end;
	char accel[8];         /* "kvm", "tcg" or "host" */
	double boot_s;         /* start to the begin line */
	double suite_s;        /* begin line to end line (or to the stop) */
	char console_path[1024];
	char err[512];
};

/* Build the guest initramfs once per run from the built suite. */
int initramfs_build(const char *suite_dir, const char *out_path, char *err,
		    size_t errlen);

/* Run the suite on a resolved kernel.  Protocol lines are appended to
 * results_path as they arrive; the console goes to out->console_path. */
int run_suite(const struct kernel_info *k, const struct run_opts *o,
	      const char *results_path, const char *console_path,
	      struct run_outcome *out);

/* Probe once whether KVM works here (short deadline); cached per process. */
bool kvm_usable(void);

#endif
