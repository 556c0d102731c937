/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * guest.h: the guest (stage 2: kernel/ -> guest/ -> results/ -> report/ ->
 * commands/): the initramfs, the QEMU and host runners, the results channel.
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

#include "kernel.h"

/* A boot this many times slower than run_opts.ref_boot_s stretches the
 * deadlines no further: a host that slow is not what the deadlines are
 * for, and a kernel that slows its own boot gets no unbounded time. */
#define RUN_MAX_STRETCH 4.0

struct run_opts {
	const char *suite_dir;    /* the built tree: Kyuafile, cases/, fixtures/ */
	const char *initramfs;    /* built by initramfs_build(), for guests */
	const char *cases_filter; /* kyua test filter (program[:case]), or NULL */
	int deadline_s;           /* whole-kernel deadline */
	const char *kyua_vars;    /* extra "-v name=value" words, or NULL */
	int boot_deadline_s;      /* the suite's begin line within this, or the
				     run is stopped as a timeout; 0: none */
	int oops_silence_s;       /* an Oops on the console and then nothing on
				     the console or the results channel for this
				     long: the guest is dead, the run ends as a
				     panic at once (mutation runs); 0: wait for
				     the deadline */
	int banner_s;             /* no "Linux version" on the console by then:
				     the guest is stopped (run_outcome.stalled);
				     0: no such limit (run_qemu sets it under
				     KVM, where the banner takes a second) */
	int case_silence_s;       /* after the suite's begin line, no case
				     result for this long: a case
				     hangs without a word on the console (a
				     mutant spinning in n_tty_read); the run
				     ends as RUN_TIMEOUT at once, naming the
				     last case reported; 0: wait for the
				     deadline */
	int after_last_case_s;    /* every case the begin line announced
				     reported, then no end line for this long
				     (the guest's Kyua or its report wedged):
				     the run ends as RUN_TIMEOUT, nothing
				     missing; 0: WATCH_AFTER_LAST_CASE_S */
	double ref_boot_s;        /* the boot time deadline_s and case_silence_s
				     were measured against (a mutation run's
				     id 0): a begin line later than that says
				     the host runs slower now (a loaded TCG
				     guest), and both stretch by this boot's
				     time over it, at most RUN_MAX_STRETCH;
				     0: fixed deadlines */
};

enum run_end {
	RUN_DONE,    /* the suite reported its end line */
	RUN_PANIC,   /* the console shows a kernel panic before the end, or an
			Oops and then silence (run_opts.oops_silence_s) */
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
	bool oops_silent;      /* RUN_PANIC because an Oops was followed by
				  silence (run_opts.oops_silence_s) */
	bool stalled;          /* stopped before the kernel's banner
				  (run_opts.banner_s) */
	bool case_silent;      /* RUN_TIMEOUT because no result came for
				  run_opts.case_silence_s */
	double stretch;        /* what deadline_s and case_silence_s were
				  multiplied by (run_opts.ref_boot_s); 1 none */
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
/* A kernel under working KVM prints its banner within a second or two;
 * one that has not in this long will not (nested KVM here, now and then). */
#define KVM_KERNEL_DEADLINE_S 30.0
/* kvm_usable, and the first kernel (image) asked about prints on its
 * console under KVM; false from then on in this process when it does not,
 * and in every later process of this boot of the machine (a note in the
 * cache's accel/). */
bool kvm_usable_for(const char *image);
/* KVM stopped working for a guest (why: for the progress line and the
 * cache's note): TCG for the rest of this process and this boot. */
void kvm_give_up(const char *why);

#endif
