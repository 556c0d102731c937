// SPDX-License-Identifier: GPL-2.0-only
/* t_suspend.c: a UART through suspend to RAM and resume.  The serial core
 * shuts the ports down (uart_suspend_port) and sets them up again
 * (uart_resume_port) from what the tty layer kept: termios, the modem
 * lines, the queues.  Under QEMU the machine's S3 resets the 16550s, so
 * whatever works after resume was programmed again by the driver.
 *
 * The guest is woken by the host side (atf/tp_host.h "wake": QEMU's
 * system_wakeup once it reports the guest suspended), else by an RTC
 * alarm.  Only "deep" (S3) is used: under QEMU an RTC alarm does not end
 * s2idle, and a guest that never wakes would end the whole run. */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "tp_host.h"
#include "tp_serial.h"

/* Seconds an RTC alarm leaves for the suspend to complete (boards without
 * a host side); the host side's wake needs no margin. */
#define RTC_MARGIN_S 10

static bool
file_has_word(const char *path, const char *word, char *buf, size_t len)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return false;
	ssize_t n = read(fd, buf, len - 1);
	close(fd);
	if (n <= 0)
		return false;
	buf[n] = '\0';
	for (char *w = strtok(buf, " []\n"); w; w = strtok(NULL, " []\n"))
		if (strcmp(w, word) == 0)
			return true;
	return false;
}

static int
write_file(const char *path, const char *text)
{
	int fd = open(path, O_WRONLY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	ssize_t n = write(fd, text, strlen(text));
	int err = errno;
	close(fd);
	return n == (ssize_t)strlen(text) ? 0 : -err;
}

/* The current choice of /sys/power/mem_sleep ("[deep]"), put back at the
 * end. */
static char saved_mem_sleep[32];

static void
put_back_mem_sleep(void)
{
	if (saved_mem_sleep[0])
		write_file("/sys/power/mem_sleep", saved_mem_sleep);
}

static void
select_deep(void)
{
	char buf[128];
	if (!file_has_word("/sys/power/state", "mem", buf, sizeof(buf)))
		atf_tc_skip("no suspend to RAM: /sys/power/state offers no "
			    "\"mem\" (a kernel without CONFIG_SUSPEND?)");
	if (!file_has_word("/sys/power/mem_sleep", "deep", buf, sizeof(buf)))
		atf_tc_skip("no S3: /sys/power/mem_sleep offers no \"deep\" "
			    "(only s2idle, which an RTC alarm does not end "
			    "under QEMU)");
	int fd = open("/sys/power/mem_sleep", O_RDONLY | O_CLOEXEC);
	ssize_t n = fd >= 0 ? read(fd, buf, sizeof(buf) - 1) : -1;
	if (fd >= 0)
		close(fd);
	buf[n > 0 ? n : 0] = '\0';
	char *open_br = strchr(buf, '['), *close_br = open_br ? strchr(open_br, ']') : NULL;
	if (open_br && close_br) {
		snprintf(saved_mem_sleep, sizeof(saved_mem_sleep), "%.*s",
			 (int)(close_br - open_br - 1), open_br + 1);
		atexit(put_back_mem_sleep);
	}
	int rc = write_file("/sys/power/mem_sleep", "deep");
	if (rc != 0)
		atf_tc_fail("selecting deep in /sys/power/mem_sleep: %s",
			    strerror(-rc));
}

/* Arrange the wakeup: the host side's, else an RTC alarm. */
static void
arm_wakeup(const atf_tc_t *tc, bool *rtc)
{
	*rtc = false;
	if (atf_tc_has_config_var(tc, "host_port")) {
		tp_host_require(tc, "wake");
		tp_host_ask(TP_WAIT_MS, "wake %d", 120);
		return;
	}
	if (access("/sys/class/rtc/rtc0/wakealarm", W_OK) != 0)
		atf_tc_skip("nothing to wake the system: no host side "
			    "(host_port) and no RTC wakealarm (%s)",
			    strerror(errno));
	char v[16];
	snprintf(v, sizeof(v), "+%d", RTC_MARGIN_S);
	write_file("/sys/class/rtc/rtc0/wakealarm", "0");
	int rc = write_file("/sys/class/rtc/rtc0/wakealarm", v);
	if (rc != 0)
		atf_tc_fail("setting the RTC alarm: %s", strerror(-rc));
	*rtc = true;
}

static void
suspend_to_ram(const atf_tc_t *tc)
{
	bool rtc;
	arm_wakeup(tc, &rtc);
	tp_waiting_for("suspend to RAM and resume");
	long long t0 = tp_now_ms();
	int rc = write_file("/sys/power/state", "mem");
	if (rtc)
		write_file("/sys/class/rtc/rtc0/wakealarm", "0");
	if (rc != 0)
		atf_tc_fail("suspend to RAM (echo mem > /sys/power/state) "
			    "failed after %lld ms: %s", tp_now_ms() - t0,
			    strerror(-rc));
}

#define A_OUTPUTS (TIOCM_DTR | TIOCM_OUT2)
#define B_OUTPUTS (TIOCM_LOOP | TIOCM_RTS | TIOCM_OUT1 | TIOCM_OUT2)
#define INPUTS (TIOCM_CTS | TIOCM_DSR | TIOCM_RNG | TIOCM_CAR)
/* What B's outputs loop back as: RTS->CTS, OUT1->RI, OUT2->DCD. */
#define B_LOOPED (TIOCM_CTS | TIOCM_RNG | TIOCM_CAR)

TP_CASE_ROOT(suspend_resume_keeps_port, TP_LINUX,
	"As root, across suspend to RAM and resume, a UART keeps its state: termios "
	"(57600, PARENB|PARODD|CSTOPB) reads the same, its modem outputs are "
	"set again (B in loop mode shows RTS|OUT1|OUT2 looped back as "
	"CTS|RI|CD, so the chip was programmed again), 6 bytes received before and not read "
	"are read after, 6 bytes held by the peer's VSTOP are still queued "
	"and reach the peer after VSTART, and data crosses both ways")
{
	struct tp_serial_pair p;
	struct termios ta0, ta1;
	char got[8], data[64];
	int a, b;

	tp_serial_open_pair_at(tc, &p, &a, &b, 0);
	select_deep();
	tp_uart_speed(a, B57600);
	tp_uart_cflag(a, PARENB | PARODD | CSTOPB, 0);
	tp_serial_stop_output(a, b);
	tp_write_str(a, "queued", "6 bytes on A's held output");
	tp_write_str(b, "before", "6 bytes for A's input");
	tp_wait_fionread(a, 6, TP_WAIT_MS, "6 bytes queued on A");
	tp_uart_mset(a, A_OUTPUTS);
	tp_uart_mset(b, B_OUTPUTS);
	ATF_REQUIRE_MSG(tp_uart_wait_lines(b, INPUTS, B_LOOPED, TP_WAIT_MS),
			"B in loop mode shows %s", tp_tiocm_str(tp_uart_mget(b)));
	tp_tc_get(a, &ta0);

	suspend_to_ram(tc);

	tp_tc_get(a, &ta1);
	ATF_CHECK_MSG(ta1.c_cflag == ta0.c_cflag && ta1.c_iflag == ta0.c_iflag &&
		      cfgetospeed(&ta1) == B57600, "A's termios changed: "
		      "c_cflag %#o -> %#o, c_iflag %#o -> %#o",
		      (unsigned)ta0.c_cflag, (unsigned)ta1.c_cflag,
		      (unsigned)ta0.c_iflag, (unsigned)ta1.c_iflag);
	int la = tp_uart_mget(a), lb = tp_uart_mget(b);
	ATF_CHECK_MSG((la & (A_OUTPUTS | TIOCM_RTS | TIOCM_OUT1 | TIOCM_LOOP)) ==
		      A_OUTPUTS, "A's lines after resume: %s, want %s",
		      tp_tiocm_str(la), tp_tiocm_str(A_OUTPUTS));
	ATF_CHECK_MSG((lb & (B_OUTPUTS | TIOCM_DTR | INPUTS)) ==
		      (B_OUTPUTS | B_LOOPED), "B's lines after resume: %s, "
		      "want %s (its loop programmed again)", tp_tiocm_str(lb),
		      tp_tiocm_str(B_OUTPUTS | B_LOOPED));
	ATF_CHECK_EQ_MSG(tp_fionread(a), 6, "A holds %d unread bytes after "
			 "resume, want 6", tp_fionread(a));
	tp_uart_read_exact(a, got, 6, TP_WAIT_MS, "the bytes received before");
	ATF_CHECK_MSG(memcmp(got, "before", 6) == 0, "A read \"%s\"",
		      tp_esc(got, 6));
	ATF_CHECK_EQ_MSG(tp_uart_outq(a), 6, "A's held output is %d bytes "
			 "after resume, want 6", tp_uart_outq(a));
	tp_uart_loop(b, false);
	tp_serial_start_output(b);
	tp_uart_read_exact(b, got, 6, TP_WAIT_MS, "A's held bytes on B");
	ATF_CHECK_MSG(memcmp(got, "queued", 6) == 0, "B read \"%s\"",
		      tp_esc(got, 6));
	tp_uart_cflag(a, 0, PARENB | PARODD | CSTOPB);
	tp_uart_speed(a, TP_SERIAL_SPEED);
	tp_pattern(data, sizeof(data), 53);
	tp_serial_transfer(a, b, data, sizeof(data), TP_WAIT_MS,
			   "64 bytes A to B after resume");
	tp_serial_transfer(b, a, data, sizeof(data), TP_WAIT_MS,
			   "64 bytes B to A after resume");
}

ATF_TP_ADD_TCS(tp)
{
	ATF_TP_ADD_TC(tp, suspend_resume_keeps_port);
	return atf_no_error();
}
