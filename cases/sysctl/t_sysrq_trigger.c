// SPDX-License-Identifier: GPL-2.0-only
/* t_sysrq_trigger.c: /proc/sysrq-trigger (drivers/tty/sysrq.c,
 * CONFIG_MAGIC_SYSRQ), the SysRq keys without a keyboard.  A write runs the
 * handler of its first character whatever kernel.sysrq allows (the mask
 * only gates keys typed on a console or sent as a serial break); only root
 * may write it (mode 0200).  'h' is the harmless key: it prints the help
 * line ("sysrq: HELP : ...") to the kernel log, read back from /dev/kmsg. */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "ttypot.h"

#define TRIGGER "/proc/sysrq-trigger"

static void
trigger(char key)
{
	int fd = open(TRIGGER, O_WRONLY | O_CLOEXEC);
	if (fd < 0 && errno == ENOENT)
		atf_tc_skip("%s is missing: the kernel has no CONFIG_MAGIC_SYSRQ", TRIGGER);
	ATF_REQUIRE_MSG(fd >= 0, "%s: %s", TRIGGER, strerror(errno));
	ATF_CHECK_EQ_MSG(write(fd, &key, 1), 1, "write '%c' to %s: %s", key, TRIGGER,
			 strerror(errno));
	close(fd);
}

TP_CASE_ROOT(help_key_logs_even_with_sysrq_disabled, TP_LINUX,
	"(root) Writing 'h' to /proc/sysrq-trigger logs the SysRq help line, "
	"also with kernel.sysrq 0: the mask does not apply to this file")
{
	int kmsg = tp_kmsg_at_end();
	trigger('h');
	tp_kmsg_expect(kmsg, "sysrq: HELP", "SysRq : HELP", "the help after 'h'");
	if (!tp_sysctl_set("/proc/sys/kernel/sysrq", 0))
		atf_tc_fail("no kernel.sysrq sysctl although %s exists", TRIGGER);
	trigger('h');
	tp_kmsg_expect(kmsg, "sysrq: HELP", "SysRq : HELP",
		       "the help after 'h' with kernel.sysrq 0");
	close(kmsg);
}

static int
unprivileged_write(void *arg)
{
	(void)arg;
	if (tp_child_drop_to_nobody())
		return 1;
	errno = 0;
	int fd = open(TRIGGER, O_WRONLY | O_CLOEXEC);
	if (fd >= 0 || errno != EACCES)
		return tp_child_fail("open %s for writing as nobody: %s, want EACCES",
				     TRIGGER, fd >= 0 ? "opened" : strerror(errno));
	return 0;
}

TP_CASE_ROOT(trigger_is_root_only, TP_LINUX,
	"(root) /proc/sysrq-trigger is a root-only write file (mode 0200): "
	"nobody's open for writing fails EACCES")
{
	if (access(TRIGGER, F_OK) != 0)
		atf_tc_skip("%s is missing: the kernel has no CONFIG_MAGIC_SYSRQ", TRIGGER);
	struct tp_child c;
	tp_child_start(&c, unprivileged_write, NULL);
	tp_child_join(&c, TP_WAIT_MS, "nobody opening the trigger");
}

ATF_TP_ADD_TCS(tp)
{
	ATF_TP_ADD_TC(tp, help_key_logs_even_with_sysrq_disabled);
	ATF_TP_ADD_TC(tp, trigger_is_root_only);
	return atf_no_error();
}
