/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * ttypot.h: the support library every ttypot case links.
 *
 * Rules the helpers enforce so cases don't have to remember them:
 *  - every blocking operation has a deadline and fails naming what it waited for;
 *  - negative checks ("nothing arrives") use one named window, TP_QUIET_WINDOW_MS;
 *  - every child a case forks is tracked and reaped, even when the case fails;
 *  - a watchdog fails the case, naming the pending wait, before Kyua's timeout;
 *  - a byte stream (a pty master or slave, a UART, a pipe from a child) is
 *    read until the bytes a check expects or a deadline, since one read()
 *    returns only what has arrived so far (tp_read_exact, tp_expect_bytes,
 *    TP_ECHO, tp_drain); a check of what ONE read returns (a canonical
 *    line, VMIN/VTIME, an overread, a packet header) reads only once the
 *    data is known to be there (FIONREAD, poll, a blocked reader's VMIN),
 *    so that load cannot change the verdict (tp_expect_read).
 * Child processes never call ATF functions: they report through tp_child_fail().
 */
#ifndef TTYPOT_H
#define TTYPOT_H

#include <signal.h>
#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>
#include <termios.h>
#include <time.h>

#include <atf-c.h>

/* ---------------------------------------------------------------- deadlines */

/* A positive wait (something must happen) gets a long ceiling: it only costs
 * time when the kernel is broken.  TCG guests are ~20x slower than native. */
#define TP_WAIT_MS 10000
/* A negative check (nothing must happen) watches this long and no longer. */
#define TP_QUIET_WINDOW_MS 200
/* Kyua timeout for ordinary cases, in seconds; the watchdog fires 5 s earlier. */
#define TP_CASE_TIMEOUT_S 60

/* Standards a case can check; shown in reports as X-ttypot.standard. */
#define TP_POSIX "posix"
#define TP_LINUX "linux"

/*
 * TP_CASE(name, standard, descr) { body }
 * Declares an ATF case with descr, timeout and the standard it checks, and
 * runs the body under the ttypot watchdog and child reaper.
 */
#define TP_CASE_TIMEOUT(name, standard, timeout_s, descr)                      \
	ATF_TC(name);                                                          \
	ATF_TC_HEAD(name, tc)                                                  \
	{                                                                      \
		tp_head(tc, (standard), (timeout_s), (descr));                 \
	}                                                                      \
	static void name##_body(const atf_tc_t *tc);                           \
	ATF_TC_BODY(name, tc)                                                  \
	{                                                                      \
		tp_begin(tc, (timeout_s));                                     \
		name##_body(tc);                                               \
		tp_end();                                                      \
	}                                                                      \
	static void name##_body(const atf_tc_t *tc __attribute__((unused)))

#define TP_CASE(name, standard, descr)                                         \
	TP_CASE_TIMEOUT(name, standard, TP_CASE_TIMEOUT_S, descr)

/*
 * TP_CASE_META(name, standard, descr, extra) { body }
 * As TP_CASE, with one more statement run in the head (it sees `tc`):
 * TP_REQUIRE_ROOT(tc), TP_TAG_COMMITS(tc, broke, fixed), or both joined by
 * a comma.
 */
#define TP_CASE_META(name, standard, descr, extra)                             \
	ATF_TC(name);                                                          \
	ATF_TC_HEAD(name, tc)                                                  \
	{                                                                      \
		tp_head(tc, (standard), TP_CASE_TIMEOUT_S, (descr));           \
		extra;                                                         \
	}                                                                      \
	static void name##_body(const atf_tc_t *tc);                           \
	ATF_TC_BODY(name, tc)                                                  \
	{                                                                      \
		tp_begin(tc, TP_CASE_TIMEOUT_S);                               \
		name##_body(tc);                                               \
		tp_end();                                                      \
	}                                                                      \
	static void name##_body(const atf_tc_t *tc __attribute__((unused)))

/* A privileged case: Kyua skips it, saying why, unless run as root. */
#define TP_REQUIRE_ROOT(tc) atf_tc_set_md_var((tc), "require.user", "root")
#define TP_CASE_ROOT(name, standard, descr)                                    \
	TP_CASE_META(name, standard, descr, TP_REQUIRE_ROOT(tc))
/* A regression case, tagged with the commits that broke and fixed it. */
#define TP_CASE_COMMITS(name, standard, broke, fixed, descr)                   \
	TP_CASE_META(name, standard, descr, TP_TAG_COMMITS(tc, broke, fixed))

/* Extra metadata: the commit that broke / fixed a behaviour, a CVE. */
#define TP_TAG_COMMITS(tc, broke, fixed)                                      \
	atf_tc_set_md_var((tc), "X-ttypot.commits", "broke %s fixed %s",       \
			  (broke), (fixed))

void tp_head(atf_tc_t *tc, const char *standard, int timeout_s,
	     const char *descr);
void tp_begin(const atf_tc_t *tc, int timeout_s);
void tp_end(void);

/* Record what the case is about to wait for; the watchdog names it. */
void tp_waiting_for(const char *what);

/* Path of a helper program built in fixtures/, for exec. */
void tp_fixture_path(const atf_tc_t *tc, const char *name, char *out,
		     size_t outlen);

/* A case-level tunable from Kyua config (-v name=value), with a default. */
long tp_config_long(const atf_tc_t *tc, const char *name, long dflt);
/* The finding fixtures/findings/n_tty-eio-race: a reader of a pty master
 * gets EIO while the exited writer's last output is still queued, and a
 * further read returns it.  A case that sees exactly that fails through
 * tp_fail_eio_race, whose reason starts with TP_EIO_RACE_TAG, so that
 * fixtures/expect/ can name the finding on the kernels that have it; bytes
 * that never come, or come changed, fail the case otherwise. */
#define TP_EIO_RACE_TAG "[finding n_tty-eio-race]"
void tp_fail_eio_race(const char *fmt, ...)
	__attribute__((noreturn, format(printf, 1, 2)));

/* Milliseconds on the monotonic clock. */
long long tp_now_ms(void);
/* One polling step of a state wait (never used to order events). */
void tp_backoff(int *step_us);

/* ---------------------------------------------------------------- pty pairs */

enum tp_mode {
	TP_COOKED, /* the slave's termios as the kernel creates it */
	TP_RAW,    /* cfmakeraw() on the slave */
};

struct tp_pty {
	int master;
	int slave; /* -1 when not (or no longer) open */
	char name[64];
};

/* Open a master (O_RDWR|O_NOCTTY|extra flags), grant, unlock, open the slave
 * with O_NOCTTY, apply mode.  Fails the case on error. */
void tp_pty_open(struct tp_pty *p, enum tp_mode mode);
void tp_pty_open_flags(struct tp_pty *p, enum tp_mode mode, int master_flags);
/* tp_pty_open, then the line discipline ldisc (its N_ name) on the slave;
 * skips the case, saying what provides it (needs), where TIOCSETD refuses
 * it (not built, its module not loadable, no CAP_SYS_ADMIN where needed). */
void tp_pty_open_ldisc(struct tp_pty *p, enum tp_mode mode, int ldisc, const char *name,
		       const char *needs);
/* Close what is still open; safe to call twice. */
void tp_pty_close(struct tp_pty *p);
void tp_close_slave(struct tp_pty *p);
void tp_close_master(struct tp_pty *p);
/* Number of pty pairs the kernel allows from kernel.pty.max - nr (or -1). */
long tp_pty_free_slots(void);
/* The pty index of a master (TIOCGPTN): its slave is /dev/pts/<index>. */
unsigned tp_pty_index(int master);

/* ---------------------------------------------------------------- termios */

void tp_tc_get(int fd, struct termios *t);
void tp_tc_set(int fd, const struct termios *t);
void tp_tc_raw(int fd);
/* Set or clear lflag bits, iflag bits, oflag bits. */
void tp_lflag(int fd, tcflag_t set, tcflag_t clear);
void tp_iflag(int fd, tcflag_t set, tcflag_t clear);
void tp_oflag(int fd, tcflag_t set, tcflag_t clear);
void tp_set_nonblock(int fd, bool on);
/* Set one control character (c_cc[idx] = val), e.g. VEOF, VERASE, VSTOP. */
void tp_set_cc(int fd, int idx, cc_t val);
/* A pty pair whose slave is canonical, ECHO off unless lset sets it, and
 * non-blocking so that a read after poll can never hang; lset and lclear
 * are further lflag bits to set and clear. */
void tp_canon_open(struct tp_pty *p, tcflag_t lset, tcflag_t lclear);
/* A pty pair whose slave is non-canonical (cfmakeraw) with VMIN and VTIME. */
void tp_noncanon_open(struct tp_pty *p, int vmin, int vtime);

/* ---------------------------------------------------------------- bounded waits */

/* Wait until FIONREAD(fd) >= n. Returns the count seen. */
int tp_wait_fionread(int fd, int n, int timeout_ms, const char *what);
/* Wait until poll(fd) reports any of events; returns revents. */
short tp_wait_poll(int fd, short events, int timeout_ms, const char *what);
/* Fail if fd becomes readable (POLLIN) within TP_QUIET_WINDOW_MS. */
void tp_expect_quiet(int fd, const char *what);
/* poll() once with timeout; returns revents (0 on timeout). */
short tp_poll1(int fd, short events, int timeout_ms);
/* Fail if fd is readable right now: for states already settled (the input
 * was seen to be processed, a status is posted synchronously by the ioctl
 * that causes it), where no window is needed. */
void tp_expect_not_readable(int fd, const char *what);
/* FIONREAD(fd); fails the case when the ioctl does. */
int tp_fionread(int fd);
/* Wait (TP_WAIT_MS) until path no longer exists (stat fails with ENOENT),
 * e.g. a /dev/pts node after its pty is freed. */
void tp_wait_path_gone(const char *path, const char *what);
/* Wait for a child to exit; returns its wait status. Fails after deadline. */
int tp_wait_exit(pid_t pid, int timeout_ms, const char *what);

/* Prompt exit waits (tp_exit.c), for reading right at a child's exit. */
/* Whether pid has exited, leaving it unreaped (waitid WNOWAIT). */
bool tp_has_exited(pid_t pid);
/* Busy-wait (at most TP_WAIT_MS) until pid has exited, leaving it unreaped:
 * the caller sees the exit with no wakeup latency. */
void tp_spin_until_exited(pid_t pid, const char *what);
/* Wake the moment pid exits (a pidfd; tp_spin_until_exited before 5.3),
 * then reap it; returns its wait status. */
int tp_wait_exit_now(pid_t pid, const char *what);
/* Interrupt this thread's blocking reads every period_ms with SIGUSR2 (a
 * handler without SA_RESTART), so that a read that never returns runs into
 * its caller's deadline; tp_nudge_stop deletes the timer. */
timer_t tp_nudge_start(int period_ms);
void tp_nudge_stop(timer_t t);

/* ---------------------------------------------------------------- bounded I/O */

/* Write all of buf (handles short writes, EAGAIN via poll). */
void tp_write_all(int fd, const void *buf, size_t len, const char *what);
void tp_write_str(int fd, const char *s, const char *what);
/* Read exactly len bytes, each read of at most chunk bytes. */
void tp_read_exact(int fd, void *buf, size_t len, size_t chunk,
		   const char *what);
/* Wait (TP_WAIT_MS) for fd to be readable and for FIONREAD to reach len,
 * read once with room to spare (512 bytes) and fail unless exactly
 * want[0..len) came back.  In canonical mode one read() returns at most one
 * line: this checks a whole line.  FIONREAD still short of len after the
 * wait fails as well (the read is then no evidence either way). */
void tp_expect_read(int fd, const char *want, size_t len, const char *what);
/* tp_expect_read of a string literal (its NUL excluded). */
#define TP_EXPECT_LINE(fd, lit, what)                                          \
	tp_expect_read((fd), (lit), sizeof(lit) - 1, (what))
/* Read fd until len bytes (at most 512) came, in as many reads as they take,
 * or TP_WAIT_MS passed, and fail unless they are exactly want[0..len),
 * showing what came.  For streams whose split into reads is not the point
 * (echo or output on a master); bytes after them stay unread. */
void tp_expect_bytes(int fd, const char *want, size_t len, const char *what);
#define TP_EXPECT_BYTES(fd, lit, what)                                         \
	tp_expect_bytes((fd), (lit), sizeof(lit) - 1, (what))

/* Result of draining a descriptor until it reports an error or EOF. */
struct tp_drain {
	size_t got;      /* bytes read */
	int err;         /* errno of the terminating read, 0 if it returned 0 */
	bool eof;        /* a read returned 0 */
	int eagain;      /* EAGAIN results seen (non-blocking descriptors) */
	int max_read;    /* largest single read result */
};
/* Read fd in reads of `chunk` bytes into buf (cap bytes; more is an error)
 * until read fails or returns 0.  With O_NONBLOCK set, EAGAIN is counted and
 * the wait continues through poll().  timeout_ms bounds a stall, not the
 * whole drain: it fails once timeout_ms pass without a byte, so a slow but
 * moving kernel (a debug build under TCG, 1-byte reads) is not a stuck one;
 * the case's watchdog bounds the whole. */
void tp_drain(int fd, void *buf, size_t cap, size_t chunk, int timeout_ms,
	      struct tp_drain *d, const char *what);
/* An address no read or write of the process succeeds at (a page mapped
 * PROT_NONE, one per process), for the EFAULT cases. */
void *tp_unusable_page(void);

/* Fill buf with a recognisable, position-dependent pattern. */
void tp_pattern(void *buf, size_t len, unsigned seed);
/* Offset of the first byte that differs from the pattern, or -1. */
long tp_pattern_check(const void *buf, size_t len, unsigned seed);

/* ---------------------------------------------------------------- text (tp_text.c) */

/* Bytes as printable text for failure messages: printable ASCII as is, any
 * other byte (and '\\') as \xHH; at most ~500 characters.  The result is one
 * of 4 rotating static buffers, so up to 4 may appear in one message. */
const char *tp_esc(const void *buf, size_t len);

/* ---------------------------------------------------------------- children */

/* The function a child runs: return 0 for success; call tp_child_fail for
 * a failure with a message.  Runs with SIGALRM armed as a last-resort bound. */
typedef int (*tp_child_fn)(void *arg);

struct tp_child {
	pid_t pid;
	int report_fd; /* read end of the outcome pipe */
};

/* Fork, run fn(arg) in the child, report the outcome, _exit. */
void tp_child_start(struct tp_child *c, tp_child_fn fn, void *arg);
/* Wait for the child and fail the case if it failed; returns wait status. */
int tp_child_join(struct tp_child *c, int timeout_ms, const char *what);
/* Wait for the child to exit without checking its report; returns status. */
int tp_child_reap(struct tp_child *c, int timeout_ms, const char *what);
/* In a child: record why it failed; returns the value to return from fn. */
int tp_child_fail(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* In a child: catch sig with a handler that does nothing and no SA_RESTART,
 * so that sig ends a blocked call with EINTR.  0, or a tp_child_fail()
 * value. */
int tp_child_interruptible(int sig);
/* An unprivileged uid and gid that need no /etc/passwd entry (nobody on
 * Debian; minimal guests have none). */
#define TP_NOBODY_UID 65534
/* In a child run as root: give up every privilege for TP_NOBODY_UID (real,
 * effective and saved uid and gid, no supplementary groups).  Returns 0,
 * or a tp_child_fail() value. */
int tp_child_drop_to_nobody(void);
/* Track a pid forked by other means so it is killed and reaped at case end. */
void tp_track(pid_t pid);
void tp_untrack(pid_t pid);

/* ---------------------------------------------------------------- controlling tty, stepping a child (tp_ctty.c) */

/* In a child: setsid() and make fd (a pty slave) the controlling tty.
 * Returns 0, or a tp_child_fail() value. */
int tp_child_take_ctty(int fd);

/* A pair of pipes to step a child one byte at a time. */
struct tp_sync {
	int to_child[2];
	int to_parent[2];
	struct tp_child *child; /* joined for its report if it hangs up */
};
void tp_sync_open(struct tp_sync *s);        /* case side; fails the case */
void tp_sync_close(struct tp_sync *s);
void tp_sync_parent_side(struct tp_sync *s, struct tp_child *c); /* after fork */
void tp_child_sync_side(struct tp_sync *s);  /* after fork, in the child */
/* Case side: send c / wait (TP_WAIT_MS) for c, failing the case on error. */
void tp_sync_post(struct tp_sync *s, char c, const char *what);
void tp_sync_await(struct tp_sync *s, char c, const char *what);
/* Child side: 0 or a tp_child_fail() value. */
int tp_child_post(struct tp_sync *s, char c);
int tp_child_await(struct tp_sync *s, char c, const char *what);
/* In a child: wait for sig, which the child must have blocked. */
int tp_child_await_signal(int sig, int timeout_ms, const char *what);
/* The same, filling si (who sent it: si_code, si_pid). */
int tp_child_await_siginfo(int sig, int timeout_ms, siginfo_t *si,
			   const char *what);
/* In a child: bounded waitpid of a grandchild (killed after the deadline). */
int tp_child_wait_exit(pid_t pid, int timeout_ms, int *status,
		       const char *what);
/* In a child: fork a grandchild that dies with its parent and carries an
 * alarm; returns as fork() does. */
pid_t tp_child_fork(void);
/* Case side: wait until process pid sleeps (state S) inside system call
 * number nr (e.g. SYS_poll), read from /proc/PID/syscall and /proc/PID/stat;
 * where /proc/PID/syscall is missing, a sleeping state is enough. */
void tp_wait_blocked(pid_t pid, long nr, const char *what);
/* As tp_wait_blocked, and the syscall's first argument must be fd (a read
 * blocked on another descriptor does not count).  Needs /proc/PID/syscall:
 * the case is skipped where the kernel lacks it. */
void tp_wait_blocked_fd(pid_t pid, long nr, int fd, const char *what);
/* As tp_wait_blocked for poll() or ppoll() (libc may use either); needs
 * /proc/PID/syscall like tp_wait_blocked_fd. */
void tp_wait_blocked_poll(pid_t pid, const char *what);

/* ---------------------------------------------------------------- a reader child (tp_reader.c) */

/* One read() run in a child, so that a kernel that blocks where it must not
 * fails the case with a message instead of hanging it; the child reports
 * what read returned and how long it took. */
#define TP_RD_MAX 64
struct tp_rd_result {
	ssize_t n;       /* read's result */
	int err;         /* its errno when n < 0 */
	long long ms;    /* how long read took */
	char data[TP_RD_MAX];
};
struct tp_reader {
	struct tp_child child; /* child.pid: for tp_wait_blocked_fd */
	int fd;
	size_t len;
	int pipe[2];     /* pipe[0]: readable once the read returned */
};
/* Start a child doing one read(fd) of at most len (<= TP_RD_MAX) bytes. */
void tp_reader_start(struct tp_reader *r, int fd, size_t len);
/* Wait (TP_WAIT_MS) for the child's report and join it. */
void tp_reader_result(struct tp_reader *r, struct tp_rd_result *res,
		      const char *what);
/* Both: one read of len bytes from fd in a child; returns its result. */
void tp_timed_read(int fd, size_t len, struct tp_rd_result *res,
		   const char *what);
/* Fail unless the read succeeded with exactly want[0..len). */
void tp_rd_check(const struct tp_rd_result *res, const char *want, size_t len,
		 const char *what);

/* ---------------------------------------------------------------- packet mode (tp_pkt.c) */

/* TIOCPKT on (1) or off (0) on a master. */
void tp_pkt_set(int master, int on);
/* tp_pty_open with packet mode on; the master is non-blocking so that a read
 * after poll can never hang. */
void tp_pkt_open(struct tp_pty *p, enum tp_mode mode);
/* A status change is reported by one read returning exactly one byte, want. */
void tp_pkt_expect_status(int master, unsigned char want, const char *what);
/* Slave output read from a packet-mode master: one read returning
 * TIOCPKT_DATA (0) and then exactly want[0..len). */
void tp_pkt_expect_data(int master, const char *want, size_t len,
			const char *what);
/* A child asleep in one blocking read of a packet-mode master (blocking
 * while it reads): start it, cause the event, then tp_pkt_reader_expect,
 * which fails unless the read returns within TP_WAIT_MS exactly the status
 * byte want, and makes the master non-blocking again. */
void tp_pkt_reader_start(struct tp_reader *r, int master);
void tp_pkt_reader_expect(struct tp_reader *r, unsigned char want,
			  const char *what);

/* ---------------------------------------------------------------- flow control (tp_flow.c) */

/* Whether fd polls writable (POLLOUT) right now. */
bool tp_can_write(int fd);
/* tcflow(fd, action), failing the case on error. */
void tp_tcflow(int fd, int action, const char *what);
/* Master writes ctl and then the marker 'm'; waits until the marker is
 * readable on the (non-canonical) slave and reads it, failing unless it
 * comes alone.  Input is handled in order, so ctl has been acted on, and
 * flow characters in ctl were consumed rather than read as data. */
void tp_flow_input(struct tp_pty *p, const char *ctl, const char *what);

/* A child that sleeps in one blocking write(fd, buf, len) (which must
 * complete in full) or in poll(fd, POLLOUT) (which must report POLLOUT
 * within TP_WAIT_MS): start it, tp_wait_blocked on child.pid, restart the
 * output, tp_child_join. */
struct tp_writer {
	struct tp_child child;
	int fd;
	const void *buf;
	size_t len;
};
void tp_writer_start(struct tp_writer *w, int fd, const void *buf, size_t len);
void tp_pollout_start(struct tp_writer *w, int fd);
/* The master stays quiet for TP_QUIET_WINDOW_MS and the child has not
 * returned: the output is still held. */
void tp_expect_still_blocked(struct tp_writer *w, int master, const char *what);

/* ---------------------------------------------------------------- sysctls (tp_sysctl.c) */

/* Read a numeric sysctl (/proc/sys/...); false when it does not exist. */
bool tp_sysctl_read(const char *path, long *v);
/* Write text to a sysctl or a sysfs attribute in one write(2); 0 or the
 * errno the kernel gave. */
int tp_sysctl_write(const char *path, const char *text);
/* Read a small /proc or /sys attribute as text into buf (len bytes), its
 * trailing newline cut; false when it does not exist.  Any other error, or
 * nothing to read, fails the case naming path. */
bool tp_attr_read(const char *path, char *buf, size_t len);
/* Set a numeric sysctl for this case; the old value is written back when
 * the case ends, even when it fails.  false when the sysctl does not exist
 * (the caller decides: skip, or nothing to do); a refused write fails.  The
 * first change takes a host-wide lock held until the case ends, so that
 * suites run at once never change a sysctl under each other's cases. */
bool tp_sysctl_set(const char *path, long v);
/* Take the host-wide lock file path (an absolute path: Kyua gives each case
 * its own TMPDIR) for the rest of the case, waiting at most TP_WAIT_MS
 * while another suite's case holds it; for host state two suites run at
 * once must not change under each other (sysctls, the console redirect). */
void tp_host_lock(const char *path, const char *what);

/* ---------------------------------------------------------------- the kernel log (tp_kmsg.c) */

/* /dev/kmsg opened past the records already logged (skips the case,
 * naming it, where it cannot be opened). */
int tp_kmsg_at_end(void);
/* Read kmsg until a record holding needle (or alt, when not NULL), for at
 * most TP_WAIT_MS; fails the case naming what otherwise. */
void tp_kmsg_expect(int kmsg, const char *needle, const char *alt, const char *what);

#endif
