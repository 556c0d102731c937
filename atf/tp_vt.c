// SPDX-License-Identifier: GPL-2.0-only
/* tp_vt.c: taking a VT for a case, reading its screen from /dev/vcsaN and
 * /dev/vcsuN, bounded waits on the screen and on VT switches, and putting
 * back what a case changed (termios, keyboard/display/VT mode, the active
 * VT) when it ends. */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <termios.h>
#include <unistd.h>

#include "tp_host.h"
#include "tp_vt.h"

/* ---------------------------------------------------------------- where cases run */

void
tp_vt_require(const atf_tc_t *tc)
{
	if (!atf_tc_has_config_var(tc, "vt_ok") ||
	    strcmp(atf_tc_get_config_var(tc, "vt_ok"), "yes") != 0)
		atf_tc_skip("VT cases change a console's screen, keyboard mode "
			    "and the active VT: they run only where the Kyua "
			    "variable vt_ok=yes says no one uses the VTs "
			    "(ttypot's guests set it)");
	struct stat st;
	if (stat("/sys/class/tty/tty1", &st) != 0)
		atf_tc_skip("no virtual console: CONFIG_VT not built (no "
			    "/sys/class/tty/tty1)");
	if (stat("/dev/vcsa1", &st) != 0 && errno == ENOENT)
		atf_tc_skip("no /dev/vcsa1: the VT screen devices (vc_screen) "
			    "are missing");
}

/* ---------------------------------------------------------------- restoring at exit */

#define MAX_SAVED 4
static struct saved_vt {
	int num;
	bool termios_saved, modes_saved;
	struct termios tio;
	int kbmode, kdmode;
	char kbled;
	struct vt_mode vtmode;
} saved[MAX_SAVED];
static int nsaved;
static int active_before; /* 0: no switch made */
static bool restore_registered;

static int
open_quiet(int num)
{
	char p[32];
	snprintf(p, sizeof p, "/dev/tty%d", num);
	return open(p, O_RDWR | O_NOCTTY | O_NONBLOCK | O_CLOEXEC);
}

static int
active_now(int fd)
{
	struct vt_stat st;
	return ioctl(fd, VT_GETSTATE, &st) == 0 ? st.v_active : -1;
}

/* In atexit: no ATF calls, a bounded wait, complaints on stderr. */
static void
restore_all(void)
{
	for (int i = 0; i < nsaved; i++) {
		struct saved_vt *s = &saved[i];
		int fd = open_quiet(s->num);
		if (fd < 0) {
			fprintf(stderr, "tp_vt: reopen tty%d to restore: %s\n",
				s->num, strerror(errno));
			continue;
		}
		if (s->modes_saved) {
			if (ioctl(fd, KDSKBMODE, s->kbmode) != 0 ||
			    ioctl(fd, KDSETMODE, s->kdmode) != 0 ||
			    ioctl(fd, VT_SETMODE, &s->vtmode) != 0 ||
			    ioctl(fd, KDSKBLED, (unsigned char)s->kbled) != 0)
				fprintf(stderr, "tp_vt: restore modes of tty%d: "
					"%s\n", s->num, strerror(errno));
		}
		if (s->termios_saved)
			tcsetattr(fd, TCSANOW, &s->tio);
		close(fd);
	}
	if (active_before > 0) {
		int fd = open_quiet(active_before);
		if (fd < 0 || ioctl(fd, VT_ACTIVATE, active_before) != 0) {
			fprintf(stderr, "tp_vt: switch back to tty%d: %s\n",
				active_before, strerror(errno));
		} else {
			long long end = tp_now_ms() + TP_WAIT_MS;
			int step = 0;
			while (active_now(fd) != active_before &&
			       tp_now_ms() < end)
				tp_backoff(&step);
			if (active_now(fd) != active_before)
				fprintf(stderr, "tp_vt: tty%d not active again "
					"after %d ms\n", active_before, TP_WAIT_MS);
		}
		if (fd >= 0)
			close(fd);
	}
}

static void
register_restore(void)
{
	if (!restore_registered) {
		atexit(restore_all);
		restore_registered = true;
	}
}

static struct saved_vt *
saved_of(int num)
{
	register_restore();
	for (int i = 0; i < nsaved; i++)
		if (saved[i].num == num)
			return &saved[i];
	if (nsaved == MAX_SAVED)
		atf_tc_fail("tp_vt: more than %d VTs to restore", MAX_SAVED);
	saved[nsaved].num = num;
	return &saved[nsaved++];
}

void
tp_vt_save_modes(struct tp_vt *vt)
{
	struct saved_vt *s = saved_of(vt->num);
	int fd = vt->fd >= 0 ? vt->fd : tp_vt_open_path(vt->num);
	if (ioctl(fd, KDGKBMODE, &s->kbmode) != 0)
		atf_tc_fail("KDGKBMODE on %s: %s", vt->path, strerror(errno));
	if (ioctl(fd, KDGETMODE, &s->kdmode) != 0)
		atf_tc_fail("KDGETMODE on %s: %s", vt->path, strerror(errno));
	if (ioctl(fd, VT_GETMODE, &s->vtmode) != 0)
		atf_tc_fail("VT_GETMODE on %s: %s", vt->path, strerror(errno));
	if (ioctl(fd, KDGKBLED, &s->kbled) != 0)
		atf_tc_fail("KDGKBLED on %s: %s", vt->path, strerror(errno));
	s->modes_saved = true;
	if (fd != vt->fd)
		close(fd);
}

/* ---------------------------------------------------------------- taking a VT */

int
tp_vt_open_path(int num)
{
	int fd = open_quiet(num);
	if (fd < 0)
		atf_tc_fail("open /dev/tty%d: %s", num, strerror(errno));
	return fd;
}

/* VT_GETSTATE through /dev/tty0. */
static struct vt_stat
getstate(void)
{
	struct vt_stat st;
	int fd = open("/dev/tty0", O_RDWR | O_NOCTTY | O_CLOEXEC);
	if (fd < 0)
		atf_tc_fail("open /dev/tty0: %s", strerror(errno));
	if (ioctl(fd, VT_GETSTATE, &st) != 0)
		atf_tc_fail("VT_GETSTATE: %s", strerror(errno));
	close(fd);
	return st;
}

int
tp_vt_active(void)
{
	return getstate().v_active;
}

bool
tp_vt_in_use(int num)
{
	return (getstate().v_state >> num) & 1;
}

/* A VT's last close releases it from a workqueue, after close() returned. */
void
tp_vt_wait_in_use(int num, bool want, const char *what)
{
	long long end = tp_now_ms() + TP_WAIT_MS;
	int step = 0;
	tp_waiting_for(what);
	while (tp_vt_in_use(num) != want) {
		if (tp_now_ms() > end)
			atf_tc_fail("%s: VT_GETSTATE says tty%d is %s after %d ms",
				    what, num, want ? "not open" : "still open",
				    TP_WAIT_MS);
		tp_backoff(&step);
	}
	tp_waiting_for("");
}

void
tp_vt_free(struct tp_vt *vt)
{
	if (vt->fd >= 0)
		close(vt->fd);
	vt->fd = -1;
	tp_vt_wait_in_use(vt->num, false, "the VT released after its last close");
	int t0 = open("/dev/tty0", O_RDWR | O_NOCTTY | O_CLOEXEC);
	if (t0 < 0)
		atf_tc_fail("open /dev/tty0: %s", strerror(errno));
	int e = tp_vt_errno_of(ioctl(t0, VT_DISALLOCATE, vt->num));
	close(t0);
	if (e)
		atf_tc_fail("VT_DISALLOCATE %d of the released VT: %s", vt->num, strerror(e));
}

int
tp_vt_open_restoring(const atf_tc_t *tc, struct tp_vt *vt, void (*restore)(void))
{
	tp_vt_open(tc, vt);
	int fd = fcntl(vt->fd, F_DUPFD_CLOEXEC, 0);
	if (fd < 0)
		atf_tc_fail("dup of /dev/tty%d: %s", vt->num, strerror(errno));
	atexit(restore);
	return fd;
}

void
tp_vt_take(const atf_tc_t *tc, struct tp_vt *vt)
{
	tp_vt_require(tc);
	memset(vt, 0, sizeof *vt);
	vt->fd = -1;
	long long end = tp_now_ms() + TP_WAIT_MS;
	int step = 0;
	tp_waiting_for("a free VT among tty2..tty15 (lock files /tmp/ttypot-vt-N.lock)");
	for (;;) {
		int active = tp_vt_active();
		for (int n = TP_VT_FIRST; n <= TP_VT_LAST; n++) {
			char lock[64];
			if (n == active)
				continue;
			snprintf(lock, sizeof lock, "/tmp/ttypot-vt-%d.lock", n);
			/* Held until the case process exits. */
			int lfd = open(lock, O_RDWR | O_CREAT | O_CLOEXEC, 0666);
			if (lfd < 0)
				atf_tc_fail("open %s: %s", lock, strerror(errno));
			if (flock(lfd, LOCK_EX | LOCK_NB) != 0) {
				close(lfd);
				continue;
			}
			if (tp_vt_in_use(n)) { /* someone else has it open */
				close(lfd);
				continue;
			}
			vt->num = n;
			snprintf(vt->path, sizeof vt->path, "/dev/tty%d", n);
			tp_waiting_for("");
			return;
		}
		if (tp_now_ms() > end)
			atf_tc_fail("no free VT among tty%d..tty%d within %d ms",
				    TP_VT_FIRST, TP_VT_LAST, TP_WAIT_MS);
		tp_backoff(&step);
	}
}

void
tp_vt_open(const atf_tc_t *tc, struct tp_vt *vt)
{
	tp_vt_take(tc, vt);
	vt->fd = tp_vt_open_path(vt->num);
	struct saved_vt *s = saved_of(vt->num);
	struct termios t;
	if (tcgetattr(vt->fd, &s->tio) != 0)
		atf_tc_fail("tcgetattr %s: %s", vt->path, strerror(errno));
	s->termios_saved = true;
	t = s->tio;
	cfmakeraw(&t);
	t.c_cc[VMIN] = 0;
	t.c_cc[VTIME] = 0;
	if (tcsetattr(vt->fd, TCSANOW, &t) != 0)
		atf_tc_fail("tcsetattr %s: %s", vt->path, strerror(errno));
	tcflush(vt->fd, TCIFLUSH);
	/* RIS: charsets, modes, attributes, tab stops, scroll region and
	 * UTF-8 back to their defaults; the screen cleared, cursor home. */
	tp_vt_write(vt, "\033c", "reset the VT (ESC c)");
	struct tp_screen scr;
	tp_vt_wait_cursor(vt, 0, 0, &scr, "the cursor home after ESC c");
	for (int y = 0; y < scr.rows; y++)
		tp_vt_expect_blank(&scr, y, 0, "the screen after ESC c");
}

/* ---------------------------------------------------------------- the screen */

void
tp_vt_write(struct tp_vt *vt, const char *s, const char *what)
{
	tp_write_all(vt->fd, s, strlen(s), what);
}

int
tp_vt_open_screen_dev(const char *kind, int num, int flags)
{
	char p[32];
	snprintf(p, sizeof p, "/dev/%s%d", kind, num);
	int fd = open(p, flags | O_CLOEXEC);
	if (fd < 0)
		atf_tc_fail("open %s: %s", p, strerror(errno));
	return fd;
}

void
tp_vt_screen(int num, struct tp_screen *s)
{
	static uint8_t buf[4 + 2 * TP_VT_MAX_ROWS * TP_VT_MAX_COLS];
	int fd = tp_vt_open_screen_dev("vcsa", num, O_RDONLY);
	/* vcs_read returns the whole screen up to the buffer's size; loop
	 * for whatever one read leaves. */
	size_t got = 0;
	for (;;) {
		ssize_t n = read(fd, buf + got, sizeof buf - got);
		if (n < 0)
			atf_tc_fail("read /dev/vcsa%d: %s", num, strerror(errno));
		if (n == 0)
			break;
		got += (size_t)n;
	}
	close(fd);
	if (got < 4)
		atf_tc_fail("/dev/vcsa%d: %zu bytes, no header", num, got);
	s->rows = buf[0], s->cols = buf[1], s->x = buf[2], s->y = buf[3];
	if (s->rows > TP_VT_MAX_ROWS || s->cols > TP_VT_MAX_COLS ||
	    got != 4 + 2 * (size_t)s->rows * (size_t)s->cols)
		atf_tc_fail("/dev/vcsa%d: %zu bytes for %dx%d cells", num, got, s->rows,
			    s->cols);
	for (int y = 0; y < s->rows; y++)
		for (int x = 0; x < s->cols; x++) {
			size_t o = 4 + 2 * ((size_t)y * s->cols + x);
			s->ch[y][x] = buf[o];
			s->attr[y][x] = buf[o + 1];
		}
}

const char *
tp_vt_text(const struct tp_screen *s, int y, int x, int len)
{
	static char out[TP_VT_MAX_COLS + 1];
	int n = 0;
	for (int i = x; i < x + len && i < s->cols && n < TP_VT_MAX_COLS; i++)
		out[n++] = (char)s->ch[y][i];
	out[n] = '\0';
	return out;
}

static bool
text_at(const struct tp_screen *s, int y, int x, const char *text)
{
	int len = (int)strlen(text);
	if (y < 0 || y >= s->rows || x < 0 || x + len > s->cols)
		return false;
	return memcmp(&s->ch[y][x], text, (size_t)len) == 0;
}

void
tp_vt_expect_text(const struct tp_screen *s, int y, int x, const char *text,
		  const char *what)
{
	if (!text_at(s, y, x, text)) {
		int len = (int)strlen(text);
		const char *got = tp_vt_text(s, y, x, len);
		atf_tc_fail("%s: row %d col %d shows \"%s\", want \"%s\" "
			    "(cursor %d,%d)", what, y, x,
			    tp_esc(got, strlen(got)), text, s->x, s->y);
	}
}

void
tp_vt_expect_blank(const struct tp_screen *s, int y, int x, const char *what)
{
	for (int i = x; i < s->cols; i++)
		if (s->ch[y][i] != ' ') {
			const char *got = tp_vt_text(s, y, 0, s->cols);
			atf_tc_fail("%s: row %d not blank from col %d: \"%s\"",
				    what, y, x, tp_esc(got, strlen(got)));
		}
}

void
tp_vt_wait_text(struct tp_vt *vt, int y, int x, const char *text,
		struct tp_screen *s, const char *what)
{
	long long end = tp_now_ms() + TP_WAIT_MS;
	int step = 0;
	tp_waiting_for(what);
	for (;;) {
		tp_vt_screen(vt->num, s);
		if (text_at(s, y, x, text))
			break;
		if (tp_now_ms() > end)
			tp_vt_expect_text(s, y, x, text, what);
		tp_backoff(&step);
	}
	tp_waiting_for("");
}

void
tp_vt_wait_cursor(struct tp_vt *vt, int x, int y, struct tp_screen *s,
		  const char *what)
{
	long long end = tp_now_ms() + TP_WAIT_MS;
	int step = 0;
	tp_waiting_for(what);
	for (;;) {
		tp_vt_screen(vt->num, s);
		if (s->x == x && s->y == y)
			break;
		if (tp_now_ms() > end)
			atf_tc_fail("%s: cursor at col %d row %d, want col %d "
				    "row %d", what, s->x, s->y, x, y);
		tp_backoff(&step);
	}
	tp_waiting_for("");
}

void
tp_vt_fill(struct tp_vt *vt, struct tp_screen *s)
{
	tp_vt_screen(vt->num, s);
	int rows = s->rows, cols = s->cols;
	/* Autowrap off, so the last column of the last row does not scroll. */
	char *buf = malloc((size_t)rows * ((size_t)cols + 16) + 32);
	if (buf == NULL)
		atf_tc_fail("malloc");
	size_t n = 0;
	n += (size_t)sprintf(buf + n, "\033[?7l");
	for (int y = 0; y < rows; y++) {
		n += (size_t)sprintf(buf + n, "\033[%d;1H", y + 1);
		memset(buf + n, 'A' + y % 26, (size_t)cols);
		n += (size_t)cols;
	}
	n += (size_t)sprintf(buf + n, "\033[?7h\033[H");
	tp_write_all(vt->fd, buf, n, "fill the screen");
	free(buf);
	tp_vt_wait_cursor(vt, 0, 0, s, "the cursor home after filling");
	for (int y = 0; y < rows; y++)
		for (int x = 0; x < cols; x++)
			if (s->ch[y][x] != 'A' + y % 26)
				atf_tc_fail("fill: row %d col %d shows 0x%02x",
					    y, x, s->ch[y][x]);
}

int
tp_vt_unicode_row(int num, int y, uint32_t *out, int n)
{
	struct tp_screen s;
	tp_vt_screen(num, &s);
	int fd = tp_vt_open_screen_dev("vcsu", num, O_RDONLY);
	if (n > s.cols)
		n = s.cols;
	off_t off = (off_t)y * s.cols * 4;
	size_t want = (size_t)n * 4, got = 0;
	int err = 0;
	while (got < want) {
		ssize_t r = pread(fd, (char *)out + got, want - got,
				  off + (off_t)got);
		if (r < 0) {
			err = errno;
			break;
		}
		if (r == 0) {
			close(fd);
			atf_tc_fail("/dev/vcsu%d: end of file after %zu of %zu "
				    "bytes of row %d", num, got, want, y);
		}
		got += (size_t)r;
	}
	close(fd);
	return err;
}

/* ---------------------------------------------------------------- replies */

void
tp_vt_expect_reply(struct tp_vt *vt, const char *want, size_t len,
		   const char *what)
{
	tp_expect_bytes(vt->fd, want, len, what);
	tp_expect_quiet(vt->fd, what);
}

/* ---------------------------------------------------------------- switching */

void
tp_vt_activate(int num, const char *what)
{
	if (active_before == 0) {
		active_before = tp_vt_active();
		register_restore();
	}
	int fd = tp_vt_open_path(num);
	if (ioctl(fd, VT_ACTIVATE, num) != 0)
		atf_tc_fail("%s: VT_ACTIVATE %d: %s", what, num, strerror(errno));
	long long end = tp_now_ms() + TP_WAIT_MS;
	int step = 0;
	tp_waiting_for(what);
	while (active_now(fd) != num) {
		if (tp_now_ms() > end)
			atf_tc_fail("%s: VT_GETSTATE says tty%d is active %d ms "
				    "after VT_ACTIVATE %d", what, active_now(fd),
				    TP_WAIT_MS, num);
		tp_backoff(&step);
	}
	tp_waiting_for("");
	close(fd);
}

struct waitactive_arg {
	int fd, num;
};

static int
waitactive_child(void *arg)
{
	struct waitactive_arg *a = arg;
	if (ioctl(a->fd, VT_WAITACTIVE, a->num) != 0)
		return tp_child_fail("VT_WAITACTIVE %d: %s", a->num,
				     strerror(errno));
	return 0;
}

void
tp_vt_waitactive_start(struct tp_child *c, int fd, int num)
{
	static struct waitactive_arg a;
	a.fd = fd, a.num = num;
	tp_child_start(c, waitactive_child, &a);
}

int
tp_tioclinux(int fd, char sub, char *byte)
{
	char arg[8] = {sub, 0};
	int r = ioctl(fd, TIOCLINUX, arg);
	if (byte)
		*byte = arg[0];
	return r < 0 ? -errno : r;
}

/* ---------------------------------------------------------------- the keyboard */

bool
tp_vt_has_keyboard(void)
{
	/* An input device with key events that the VT's keyboard handler
	 * takes (its handlers list kbd): atkbd on the pc machine's i8042. */
	FILE *f = fopen("/proc/bus/input/devices", "r");
	char line[512];
	bool kbd = false;
	while (f != NULL && fgets(line, sizeof line, f))
		if (strncmp(line, "H: Handlers=", 12) == 0 &&
		    strstr(line, "kbd") != NULL)
			kbd = true;
	if (f != NULL)
		fclose(f);
	return kbd;
}

void
tp_vt_require_keyboard(const atf_tc_t *tc)
{
	if (!tp_vt_has_keyboard())
		atf_tc_skip("no keyboard: no input device with the VT's kbd "
			    "handler in /proc/bus/input/devices");
	tp_host_require(tc, "key");
}

void
tp_vt_key(const char *keys)
{
	tp_host_ask(TP_WAIT_MS, "key %s", keys);
}
