# SPDX-License-Identifier: GPL-2.0-only
# ttypot: build the support library, case programs, fixtures and the harness.
# `make check` runs the suite on the running kernel; `make matrix` runs it on
# the default kernel set.  Both install their Debian dependencies first.

CC      ?= gcc
CFLAGS  ?= -O2 -g
WARN    := -std=c11 -Wall -Wextra -Werror -D_GNU_SOURCE
ATF_CFLAGS := $(shell pkg-config --cflags atf-c 2>/dev/null)
ATF_LIBS   := $(shell pkg-config --libs atf-c 2>/dev/null || echo -latf-c)
EXPECT_CFLAGS := $(shell pkg-config --cflags tcl 2>/dev/null)
EXPECT_LIBS   := -lexpect -ltcl8.6
# The harness reads and writes JSON with jansson and checks the results
# channel's CRC-32 with zlib.
HARNESS_LIBS := $(shell pkg-config --libs jansson zlib 2>/dev/null || echo -ljansson -lz) -lm
PREFIX  ?= /usr/local
MANDIR  ?= $(PREFIX)/share/man
# The installed suite, one root as FreeBSD's /usr/tests: its Kyuafile, cases/
# and fixtures/ (ttypot finds it from EXE/../lib/ttypot/tests).
TESTSDIR ?= $(PREFIX)/lib/ttypot/tests
VERSION ?= 1.0
KYUA    ?= kyua
RESULTS ?= reports/check.db
# Cases Kyua runs at once: most cases wait on state, so 4 fits 2 cores.
JOBS    ?= 4
# Compilers at once when make check builds the tree.
NPROC   := $(shell nproc 2>/dev/null || echo 2)

LIB      := atf/libttypot.a
LIB_SRCS := $(wildcard atf/*.c)
LIB_OBJS := $(LIB_SRCS:.c=.o)

CASE_SRCS := $(wildcard cases/*/t_*.c)
CASES     := $(CASE_SRCS:.c=)
FIXTURE_SRCS := $(wildcard fixtures/*.c)
FIXTURES     := $(FIXTURE_SRCS:.c=)

# harness/ is laid out as the data flows, one folder per stage (each .h
# says what its folder holds): base (buffers, files, the process runner),
# kernel (specs, resolution), guest (initramfs, QEMU, host runner, results
# channel), rcache (the result cache: a column whose key matches is read,
# not run), results (ingestion, expectations, matrix, merge), report (every
# output format), commands (the subcommands).  inventory (the tty user
# interface read from the kernel source, held against the cases) sits
# beside mutation's coverage map.  main.c is the ttypot command.
HARNESS_STAGES   := base kernel mutation inventory guest rcache results report commands lava
HARNESS_INC      := $(addprefix -Iharness/,$(HARNESS_STAGES))
HARNESS_HDRS     := $(wildcard $(addsuffix /*.h,$(addprefix harness/,$(HARNESS_STAGES))))
HARNESS_LIB_SRCS := $(wildcard $(addsuffix /*.c,$(addprefix harness/,$(HARNESS_STAGES))))
HARNESS_LIB_OBJS := $(HARNESS_LIB_SRCS:.c=.o)
HARNESS_LIB      := harness/libharness.a
HARNESS          := harness/ttypot
HARNESS_TEST_SRCS := $(wildcard harness/tests/t_*.c)
HARNESS_TESTS     := $(HARNESS_TEST_SRCS:.c=)
# Programs harness tests boot in guests (never part of the suite).
GUEST_TEST_SRCS   := $(wildcard harness/tests/guest/t_*.c)
GUEST_TESTS       := $(GUEST_TEST_SRCS:.c=)

.PHONY: all programs check check-man check-spdx check-fuzz matrix guest-root bench mutants mutants-sample findings coverage bisect-demo deps clean install deb check-deb cross cross-all
all: $(LIB) $(CASES) $(FIXTURES) $(if $(wildcard harness/main.c),$(HARNESS)) $(HARNESS_TESTS) $(GUEST_TESTS)

# Area headers (atf/tp_serial.h, atf/tp_expect.h) extend ttypot.h for one area.
ATF_HDRS := $(wildcard atf/*.h)
atf/%.o: atf/%.c $(ATF_HDRS)
	$(CC) $(WARN) $(CPPFLAGS) $(CFLAGS) $(ATF_CFLAGS) $(EXPECT_CFLAGS) -c -o $@ $<

$(LIB): $(LIB_OBJS)
	rm -f $@
	$(AR) rcs $@ $^

# Programs in cases/interactive/ drive sessions through libexpect.
uses_expect = $(filter interactive/%,$*)
# cases/apps/app_run.h, cases/peers/peer_run.h: how the apps and peers
# rows run real programs.
cases/%: cases/%.c $(LIB) $(ATF_HDRS) $(wildcard cases/apps/*.h cases/peers/*.h)
	$(CC) $(WARN) $(CPPFLAGS) $(CFLAGS) $(ATF_CFLAGS) $(if $(uses_expect),$(EXPECT_CFLAGS)) -Iatf $(LDFLAGS) -o $@ $< $(LIB) $(ATF_LIBS) $(if $(uses_expect),$(EXPECT_LIBS)) -lpthread

fixtures/%: fixtures/%.c
	$(CC) $(WARN) $(CPPFLAGS) $(CFLAGS) $(LDFLAGS) -o $@ $<

harness/%.o: harness/%.c $(HARNESS_HDRS)
	$(CC) $(WARN) $(CPPFLAGS) $(CFLAGS) $(HARNESS_INC) -DTTYPOT_VERSION='"$(VERSION)"' -c -o $@ $<

# Rebuilt whole: a member whose source moved or went away must not linger.
$(HARNESS_LIB): $(HARNESS_LIB_OBJS)
	rm -f $@
	$(AR) rcs $@ $^

$(HARNESS): harness/main.c $(HARNESS_LIB)
	$(CC) $(WARN) $(CPPFLAGS) $(CFLAGS) $(HARNESS_INC) -DTTYPOT_VERSION='"$(VERSION)"' $(LDFLAGS) -o $@ $< $(HARNESS_LIB) $(HARNESS_LIBS)

harness/tests/guest/%: harness/tests/guest/%.c
	$(CC) $(WARN) $(CFLAGS) $(ATF_CFLAGS) -o $@ $< $(ATF_LIBS)

# e2e.o: what the end-to-end tests share (harness/tests/e2e.h).
HARNESS_TEST_OBJ := harness/tests/e2e.o
$(HARNESS_TEST_OBJ): harness/tests/e2e.c harness/tests/e2e.h $(HARNESS_HDRS)
	$(CC) $(WARN) $(CFLAGS) $(ATF_CFLAGS) $(HARNESS_INC) -c -o $@ $<

harness/tests/%: harness/tests/%.c $(HARNESS_TEST_OBJ) $(HARNESS_LIB)
	$(CC) $(WARN) $(CFLAGS) $(ATF_CFLAGS) $(HARNESS_INC) -o $@ $< $(HARNESS_TEST_OBJ) $(HARNESS_LIB) $(ATF_LIBS) $(HARNESS_LIBS)

# The fuzz target for the results-channel and matrix.json readers
# (harness/fuzz/), built with clang's libFuzzer and the sanitizers; make
# check runs it for FUZZ_SECONDS on the corpus in fixtures/fuzz/readers
# (new inputs go to a scratch directory, never into the corpus).
FUZZ_CC      ?= clang-14
FUZZ_SECONDS ?= 20
FUZZ         := harness/fuzz/fuzz_readers
$(FUZZ): harness/fuzz/fuzz_readers.c $(HARNESS_LIB_SRCS) $(HARNESS_HDRS)
	$(FUZZ_CC) -std=c11 -D_GNU_SOURCE -DTTYPOT_VERSION='"$(VERSION)"' -g -O1 -fsanitize=fuzzer,address,undefined \
		-fno-sanitize-recover=undefined -Wno-unknown-warning-option $(HARNESS_INC) -o $@ $< $(HARNESS_LIB_SRCS) \
		$(HARNESS_LIBS)

check-fuzz: $(FUZZ)
	@scratch=$$(mktemp -d /tmp/ttypot-fuzz.XXXXXX); mkdir $$scratch/corpus; \
	echo "ttypot fuzz: $(FUZZ) for $(FUZZ_SECONDS) s on fixtures/fuzz/readers"; \
	$(FUZZ) -max_total_time=$(FUZZ_SECONDS) -timeout=10 -rss_limit_mb=2048 \
		-artifact_prefix=$$scratch/ -print_final_stats=1 \
		$$scratch/corpus fixtures/fuzz/readers > $$scratch/log 2>&1; \
	rc=$$?; grep -E '^(stat::number_of_executed_units|stat::peak_rss_mb|#[0-9]+ *DONE)' $$scratch/log; \
	if [ $$rc -ne 0 ]; then tail -40 $$scratch/log; echo "ttypot fuzz: FAILED (inputs kept in $$scratch)"; exit 1; fi; \
	rm -rf $$scratch

DEPS_FOR ?= check
deps:
	@harness/deps.sh $(DEPS_FOR)

# The README's test command: every case on the running kernel, after the
# man page renders without a warning.
check: deps
	@$(MAKE) --no-print-directory -j$(NPROC) all
	@$(MAKE) --no-print-directory check-man
	@$(MAKE) --no-print-directory check-spdx
	@$(MAKE) --no-print-directory check-fuzz
	@harness/run-check.sh $(KYUA) $(RESULTS) $(JOBS)

check-man: harness/ttypot.1
	@out=$$(LC_ALL=C.UTF-8 MANWIDTH=80 man --warnings=all -l $< 2>&1 >/dev/null); \
	if [ -n "$$out" ]; then echo "$$out"; echo "ttypot.1: man -l warns"; exit 1; fi; \
	LC_ALL=C.UTF-8 MANWIDTH=80 man -l $< | grep -q 'bisect-run' || \
		{ echo "ttypot.1: man -l does not render"; exit 1; }

# Every source file carries its SPDX licence line (LICENSE: GPL-2.0-only).
check-spdx:
	@harness/check-spdx.sh

matrix: DEPS_FOR = matrix
matrix: deps
	@$(MAKE) --no-print-directory all
	@$(MAKE) --no-print-directory guest-root
	$(HARNESS) matrix $(KERNELS)

# The Debian root of x86_64 guests' apps and peers rows, built when its
# package list changed (harness/guest-root/build.sh; root, mmdebstrap).
# Without it those rows skip, naming why: not an error here.
guest-root:
	@harness/guest-root/build.sh >/dev/null || \
		echo "ttypot: no Debian root for the guests: the apps and peers rows will skip"

# Timing of the matrix (not a test): BENCH=both|cold|warm (both: a cold run,
# then a warm one), BENCH=ci TREE=DIR (ci with cached baselines against the
# tree's column alone), BENCH=order (first regression, patch-aware against
# plain order, on mutant trees; harness/bench.sh says more).
# JOBS=N guests at once; the previous figures are kept.
BENCH ?= both
bench: DEPS_FOR = matrix
bench: deps
	@$(MAKE) --no-print-directory all
	harness/bench.sh $(BENCH) $(KERNELS)

# Kernel mutation testing and the git bisect run demonstration
# (fixtures/mutants/README.md).  Add --stop-on-kill to MUTANTS_ARGS for a
# faster run (first killer only).
MUTANTS_ARGS ?= --race-runs 20
mutants: DEPS_FOR = matrix
mutants: deps
	@$(MAKE) --no-print-directory all
	$(HARNESS) mutants $(MUTANTS_ARGS)

# Generated mutants of the whole tty layer (fixtures/mutants/README.md,
# "Generated mutants"): a seeded sample run on one schemata kernel, each
# mutant with the programs the coverage map says reach it.  Resumable: a
# state left in MUTATION_DIR is continued, never overwritten.
SAMPLE       ?= 400
SEED         ?= 1
MUTATION_DIR ?= reports/mutation
mutants-sample: DEPS_FOR = matrix
mutants-sample: deps
	@$(MAKE) --no-print-directory all
	@if [ -f $(MUTATION_DIR)/mutation-state.json ]; then \
		echo "ttypot: continuing the run in $(MUTATION_DIR)"; \
		$(HARNESS) mutants --generate --resume $(MUTATION_DIR); \
	else \
		$(HARNESS) mutants --generate --sample $(SAMPLE) --seed $(SEED) -o $(MUTATION_DIR); \
	fi

# The proof of the kernel findings (fixtures/findings/*/README.md): the
# widened 6.12 with and without the fix, the race's own rate, the race on the
# default kernels, the echoprt case, the whole suite on the fixed 6.12
# (fixtures/findings/proof.sh; FINDINGS_ARGS=race, rate, kernels, echoprt or
# suite for some steps; N, BOOTS, DELAY, RATE_N, HOGS as it says).  Also builds
# the plain C reproducer for maintainers.
FINDINGS_REPRO := fixtures/findings/n_tty-eio-race/eio_race
$(FINDINGS_REPRO): $(FINDINGS_REPRO).c
	$(CC) $(WARN) $(CPPFLAGS) $(CFLAGS) $(LDFLAGS) -o $@ $<
findings: DEPS_FOR = matrix
findings: deps
	@$(MAKE) --no-print-directory all $(FINDINGS_REPRO)
	fixtures/findings/proof.sh $(FINDINGS_ARGS)

# Kernel line and branch coverage of drivers/tty (harness/coverage/): builds
# the gcov kernel, runs SUITE's cases in it, writes SUITE/reports/coverage.md.
SUITE ?= .
coverage: DEPS_FOR = coverage
coverage: deps
	@$(MAKE) --no-print-directory all
	harness/coverage/coverage.sh --suite $(SUITE) $(COVERAGE_ARGS)

bisect-demo: DEPS_FOR = matrix
bisect-demo: deps
	@$(MAKE) --no-print-directory all
	fixtures/bisect-demo.sh

# The suite and a guest userland for another architecture, built with
# Debian's cross compilers against downloaded packages of it
# (harness/cross/build.sh; the tree lands in ~/.cache/ttypot/cross/ARCH/root):
# make cross ARCH=arm64|ppc64el|i386, or all three with make cross-all.
CROSS_ARCHS := arm64 ppc64el i386
cross: DEPS_FOR = cross
cross: deps
	@case " $(CROSS_ARCHS) " in *" $(ARCH) "*) ;; \
	*) echo "make cross: ARCH=$(ARCH): give one of $(CROSS_ARCHS)"; exit 2 ;; esac
	harness/cross/build.sh $(ARCH)

cross-all: DEPS_FOR = cross
cross-all: deps
	@for a in $(CROSS_ARCHS); do harness/cross/build.sh $$a || exit 1; done

# What make install installs: the command, the cases and their fixtures.
programs: $(LIB) $(CASES) $(FIXTURES) $(HARNESS)

# The ttypot command and its man page, and under TESTSDIR the suite ttypot
# runs: the built cases with their Kyuafiles, the programs they exec, the
# guest init and scripts, kernel config fragments, expectations, mutants and
# the mutation rules.
# The installed Kyuafile is cases/ only: the harness's own tests need this
# source tree.  `kyua test -k TESTSDIR/Kyuafile` runs it with no source tree.
INSTALL_DATA := cases/Kyuafile $(wildcard cases/*/Kyuafile) $(wildcard fixtures/expect/*) \
	$(wildcard fixtures/kernel/*.config) $(wildcard fixtures/mutants/*) $(wildcard fixtures/mutation/*.cocci)
INSTALL_PROGS := $(CASES) $(FIXTURES) $(wildcard fixtures/guest/*)
install: programs
	install -D -m 755 $(HARNESS) $(DESTDIR)$(PREFIX)/bin/ttypot
	install -D -m 644 harness/ttypot.1 $(DESTDIR)$(MANDIR)/man1/ttypot.1
	install -d $(DESTDIR)$(TESTSDIR)
	printf '%s\n' '-- ttypot, installed: the tty/pty cases.' 'syntax(2)' \
		'test_suite("ttypot")' 'include("cases/Kyuafile")' > $(DESTDIR)$(TESTSDIR)/Kyuafile
	@for f in $(INSTALL_DATA); do install -D -m 644 $$f $(DESTDIR)$(TESTSDIR)/$$f || exit 1; done
	@for f in $(INSTALL_PROGS); do install -D -m 755 $$f $(DESTDIR)$(TESTSDIR)/$$f || exit 1; done
	@echo "ttypot: installed $(DESTDIR)$(PREFIX)/bin/ttypot and the suite in $(DESTDIR)$(TESTSDIR)"

# The Debian packages ttypot and ttypot-tests (debian/), built with
# dpkg-buildpackage in a copy of this tree (the tree's own build is left
# alone); the .debs, .changes and .buildinfo land in DEB_DIR.
DEB_DIR ?= reports/deb
deb: DEPS_FOR = deb
deb: deps
	harness/deb/build.sh $(DEB_DIR)

# The packages' autopkgtests (debian/tests/control) that need no network or
# VM, run with the null runner: the packages are installed on this machine
# for the run and purged after it (harness/deb/check.sh).
check-deb: deb
	harness/deb/check.sh $(DEB_DIR)

clean:
	rm -f $(LIB) $(LIB_OBJS) $(CASES) $(FIXTURES) $(FINDINGS_REPRO) $(HARNESS) $(HARNESS_LIB) $(HARNESS_LIB_OBJS) $(HARNESS_TESTS) $(HARNESS_TEST_OBJ) $(GUEST_TESTS) $(FUZZ)
