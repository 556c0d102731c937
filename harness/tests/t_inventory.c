// SPDX-License-Identifier: GPL-2.0-only
/* t_inventory: `ttypot inventory` (harness/inventory/) reads the real
 * kernel source ttypot builds (linux-source-6.12 under the ttypot config),
 * finds the items where the headers and drivers define them, takes the
 * uses from the cases themselves, and lists an item no case uses. */
#include <atf-c.h>

#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "e2e.h"
#include "inventory.h"
#include "kutil.h"
#include "proc.h"
#include "rbuf.h"

/* Unpacking the source and making its config (make tinyconfig) on a cold
 * cache, niced beside other work on 2 cores. */
#define INV_TIMEOUT "1800"
#define INV_DEADLINE_S 1500
#define SOURCE_TAR "/usr/src/linux-source-6.12.tar.xz"

static void root_of(const atf_tc_t *tc, char *out, size_t len)
{
	snprintf(out, len, "%s/../..", atf_tc_get_config_var(tc, "srcdir"));
}

/* The user's ttypot cache (Kyua gives the case a fresh HOME). */
static void cache_of(char *out, size_t len)
{
	char env[PATH_MAX + 32];
	e2e_cache_env(env, sizeof env);
	snprintf(out, len, "%s", strchr(env, '=') + 1);
}

static void need_source(void)
{
	char cache[PATH_MAX], unpacked[PATH_MAX + 64];
	cache_of(cache, sizeof cache);
	snprintf(unpacked, sizeof unpacked, "%s/src/linux-source-6.12/Makefile", cache);
	if (!ku_is_file(SOURCE_TAR) && !ku_is_file(unpacked))
		atf_tc_skip("needs the kernel source ttypot builds: %s (apt-get install "
			    "linux-source-6.12)", SOURCE_TAR);
}

/* The inventory of the real source and suite (or those given). */
static void build(const atf_tc_t *tc, struct inventory *inv, const char *config,
		  const char *suite, const char *data)
{
	char root[PATH_MAX], cache[PATH_MAX], err[2048];
	root_of(tc, root, sizeof root);
	cache_of(cache, sizeof cache);
	struct inv_opts o = { .suite = suite ? suite : root, .cache = cache, .config = config,
			      .data = data };
	ATF_REQUIRE_MSG(inv_build(&o, inv, err, sizeof err) == 0, "inventory: %s", err);
}

static const struct inv_item *item(const struct inventory *inv, const char *name)
{
	const struct inv_item *it = inv_find(inv, name);
	ATF_REQUIRE_MSG(it, "no item %s in the inventory of %s", name, inv->source);
	return it;
}

static bool used_by(const struct inv_item *it, const char *prefix)
{
	for (size_t i = 0; i < it->nuses; i++)
		if (!strncmp(it->uses[i].cas, prefix, strlen(prefix)))
			return true;
	return false;
}

ATF_TC(reads_real_headers);
ATF_TC_HEAD(reads_real_headers, tc)
{
	atf_tc_set_md_var(tc, "descr", "The inventory of linux-source-6.12 has every tty "
			  "ioctl of its ioctls.h (TIOCGPTPEER, TIOCSSERIAL ...) where the header "
			  "defines it, N_GSM0710 registered by n_gsm.c with its GSMIOC ioctls, "
			  "IUTF8 in c_iflag, ASYNC_SAK of tty_flags.h used by serial/t_rxbreak, "
			  "N_SLIP not built for want of CONFIG_SLIP, the 8250's rx_trig_bytes, "
			  "/proc/tty/drivers, the tty sysctls and pty.c's fdinfo key, the VT's "
			  "KDGKBENT (linux/kd.h) and VT_WAITEVENT (linux/vt.h) built with "
			  "drivers/tty/vt; the suite's pty/t_peer uses TIOCGPTPEER");
	atf_tc_set_md_var(tc, "timeout", INV_TIMEOUT);
}
ATF_TC_BODY(reads_real_headers, tc)
{
	need_source();
	struct inventory inv;
	build(tc, &inv, NULL, NULL, NULL);
	/* Every request ioctls.h defines is an item, read here independently. */
	char path[PATH_MAX + 64];
	snprintf(path, sizeof path, "%s/include/uapi/asm-generic/ioctls.h", inv.source);
	FILE *f = fopen(path, "r");
	ATF_REQUIRE_MSG(f, "%s: %s", path, strerror(errno));
	char line[512], name[64], value[128];
	int requests = 0;
	while (fgets(line, sizeof line, f))
		if (sscanf(line, "#define %63s %127s", name, value) == 2 &&
		    (!strncmp(value, "0x54", 4) || !strncmp(value, "_IO", 3))) {
			const struct inv_item *it = item(&inv, name);
			ATF_CHECK_EQ_MSG(it->kind, INV_IOCTL, "%s: kind %s", name,
					 inv_kind_name(it->kind));
			ATF_CHECK_MATCH("^include/uapi/asm-generic/ioctls.h:[0-9]+$", it->src);
			requests++;
		}
	fclose(f);
	ATF_CHECK_MSG(requests >= 60, "only %d requests read from %s", requests, path);

	const struct inv_item *it = item(&inv, "TIOCGPTPEER");
	ATF_CHECK(strstr(it->handlers, "tty_io.c"));
	ATF_CHECK_MSG(used_by(it, "pty/t_peer:"), "TIOCGPTPEER: pty/t_peer not among its "
		      "%zu cases", it->nuses);
	it = item(&inv, "TIOCSSERIAL");
	ATF_CHECK_STREQ(it->group, "ioctls.h");
	ATF_CHECK(inv_find(&inv, "TIOCINQ") == inv_find(&inv, "FIONREAD"));
	ATF_CHECK_STREQ(item(&inv, "FIONREAD")->alias, "TIOCINQ");

	it = item(&inv, "N_GSM0710");
	ATF_CHECK_EQ(it->kind, INV_LDISC);
	ATF_CHECK_MATCH("^include/uapi/linux/tty.h:", it->src);
	ATF_CHECK_MSG(!it->not_built, "N_GSM0710 not built: %s", it->not_built);
	ATF_CHECK_STREQ(it->handlers, "n_gsm.c");
	ATF_CHECK_MATCH("^include/uapi/linux/gsmmux.h:", item(&inv, "GSMIOC_SETCONF")->src);
	ATF_CHECK_STREQ(item(&inv, "GSMIOC_SETCONF")->group, "linux/gsmmux.h (N_GSM0710)");
	/* The VT's requests, read from linux/kd.h and linux/vt.h, built with
	 * drivers/tty/vt; kd.h's mode values are not requests. */
	it = item(&inv, "KDGKBENT");
	ATF_CHECK_EQ(it->kind, INV_IOCTL);
	ATF_CHECK_MATCH("^include/uapi/linux/kd.h:[0-9]+$", it->src);
	ATF_CHECK_STREQ(it->group, "linux/kd.h (vt)");
	ATF_CHECK_MSG(!it->not_built, "KDGKBENT not built: %s", it->not_built);
	ATF_CHECK(strstr(it->handlers, "vt_ioctl.c"));
	ATF_CHECK_MATCH("^include/uapi/linux/vt.h:[0-9]+$", item(&inv, "VT_WAITEVENT")->src);
	ATF_CHECK_MSG(used_by(item(&inv, "VT_GETSTATE"), "vt/t_vt_ioctl:"),
		      "VT_GETSTATE: vt/t_vt_ioctl not among its cases");
	ATF_CHECK(!inv_find(&inv, "K_MEDIUMRAW"));
	ATF_CHECK(!inv_find(&inv, "UNI_DIRECT_BASE"));
	it = item(&inv, "N_SLIP");
	ATF_CHECK_MSG(it->not_built && strstr(it->not_built, "CONFIG_SLIP is not set"),
		      "N_SLIP: %s", it->not_built ? it->not_built : "built");
	ATF_CHECK_EQ(item(&inv, "N_NULL")->not_built, NULL);

	it = item(&inv, "IUTF8");
	ATF_CHECK_EQ(it->kind, INV_TERMIOS);
	ATF_CHECK_STREQ(it->group, "c_iflag");
	ATF_CHECK_MATCH("^include/uapi/asm-generic/termbits.h:", it->src);
	ATF_CHECK_STREQ(item(&inv, "CRTSCTS")->group, "c_cflag");
	ATF_CHECK_STREQ(item(&inv, "VEOL2")->group, "c_cc");
	ATF_CHECK_STREQ(item(&inv, "B19200")->alias, "EXTA");

	/* TIOCSSERIAL's flags: the user bits of tty_flags.h and the speeds
	 * made of two of them, not its masks nor the kernel's own bits. */
	it = item(&inv, "ASYNC_SAK");
	ATF_CHECK_EQ(it->kind, INV_ARG);
	ATF_CHECK_STREQ(it->group, "ASYNC_* (TIOCSSERIAL flags)");
	ATF_CHECK_MATCH("^include/uapi/linux/tty_flags.h:[0-9]+$", it->src);
	ATF_CHECK_MSG(used_by(it, "serial/t_rxbreak:"), "ASYNC_SAK: serial/t_rxbreak not "
		      "among its cases");
	ATF_CHECK_STREQ(item(&inv, "ASYNC_MAGIC_MULTIPLIER")->group,
			"ASYNC_* (TIOCSSERIAL flags)");
	ATF_CHECK_STREQ(item(&inv, "ASYNC_SPD_WARP")->group, "ASYNC_* (TIOCSSERIAL flags)");
	ATF_CHECK(!inv_find(&inv, "ASYNC_SPD_MASK"));
	ATF_CHECK(!inv_find(&inv, "ASYNC_INITIALIZED"));

	ATF_CHECK_MATCH("8250_port.c", item(&inv, "/sys/class/tty/ttyS*/rx_trig_bytes")->src);
	ATF_CHECK_MATCH("tty_io.c", item(&inv, "/sys/class/tty/console/active")->src);
	ATF_CHECK_MATCH("^fs/proc/proc_tty.c:", item(&inv, "/proc/tty/drivers")->src);
	ATF_CHECK_MATCH("^drivers/tty/tty_io.c:",
			item(&inv, "/proc/sys/dev/tty/ldisc_autoload")->src);
	ATF_CHECK_MATCH("^fs/devpts/inode.c:", item(&inv, "/proc/sys/kernel/pty/max")->src);
	ATF_CHECK_MATCH("^drivers/tty/pty.c:", item(&inv, "fdinfo:tty-index")->src);
	ATF_CHECK_MATCH("^drivers/tty/ttynull.c:", item(&inv, "ttynull")->src);
	ATF_CHECK_MATCH("^drivers/tty/pty.c:", item(&inv, "/dev/ptmx")->src);
	/* Legacy ptys are off in the ttypot config: pty.c's #ifdef is read. */
	ATF_CHECK(!inv_find(&inv, "/dev/ptyp"));
	ATF_CHECK_MSG(inv.ncases > 500, "only %zu cases scanned", inv.ncases);
	inv_free(&inv);
}

/* text into path, its folder made first. */
static void put_file(const char *path, const char *text)
{
	char dir[PATH_MAX];
	snprintf(dir, sizeof dir, "%s", path);
	*strrchr(dir, '/') = '\0';
	ATF_REQUIRE_EQ_MSG(ku_mkdir_p(dir, 0755), 0, "%s: %s", dir, strerror(errno));
	e2e_put_file(path, text);
}

static const char *const small_case =
	"// SPDX-License-Identifier: GPL-2.0-only\n"
	"#include \"ttypot.h\"\n"
	"static int peer(int m) { return ioctl(m, TIOCGPTPEER, O_RDWR); }\n"
	"TP_CASE(uses_peer, TP_LINUX, \"a peer\")\n"
	"{\n\tstruct termios t;\n\ttcgetattr(peer(3), &t);\n"
	"\tread_file(\"/proc/tty/drivers\");\n}\n"
	"ATF_TP_ADD_TCS(tp)\n{\n\tATF_TP_ADD_TC(tp, uses_peer);\n"
	"\treturn atf_no_error();\n}\n";

static const char *const serial_case =
	"// SPDX-License-Identifier: GPL-2.0-only\n"
	"static void attr(const char *a)\n{\n\tchar p[64];\n"
	"\tsnprintf(p, sizeof p, \"/sys/class/tty/%s/%s\", \"ttyS0\", a);\n}\n"
	"TP_CASE(reads_lines, TP_LINUX, \"modem lines\")\n"
	"{\n\tint v;\n\tioctl(3, TIOCMGET, &v);\n\tattr(\"uartclk\");\n}\n"
	"ATF_TP_ADD_TCS(tp)\n{\n\tATF_TP_ADD_TC(tp, reads_lines);\n"
	"\treturn atf_no_error();\n}\n";

/* ttypot inventory --suite SUITE --data DATA ARGS: exit status and output. */
static int run_inventory(const atf_tc_t *tc, const char *suite, const char *data,
			 struct rbuf *out, const char *a)
{
	char exe[PATH_MAX], cache[PATH_MAX], err[512];
	e2e_ttypot(tc, exe, sizeof exe);
	cache_of(cache, sizeof cache);
	char *argv[] = { exe, "inventory", "--cache", cache, "--suite", (char *)suite, "--data",
			 (char *)data, (char *)a, NULL };
	struct rbuf errout = { 0 };
	int st = capture_run(argv, NULL, INV_DEADLINE_S, out, &errout, err, sizeof err);
	ATF_REQUIRE_MSG(st >= 0, "ttypot inventory: %s", err);
	rbuf_add(out, rbuf_str(&errout));
	rbuf_free(&errout);
	return st;
}

static void data_dir(const atf_tc_t *tc, const char *dir, const char *unreachable,
		     const char *uart)
{
	char root[PATH_MAX], from[PATH_MAX + 64], to[PATH_MAX + 32];
	root_of(tc, root, sizeof root);
	snprintf(from, sizeof from, "%s/fixtures/inventory/libc", root);
	snprintf(to, sizeof to, "%s/libc", dir);
	char *libc = ku_read_file(from, NULL);
	ATF_REQUIRE_MSG(libc, "%s: %s", from, strerror(errno));
	put_file(to, libc);
	free(libc);
	snprintf(to, sizeof to, "%s/unreachable", dir);
	put_file(to, unreachable);
	snprintf(to, sizeof to, "%s/uart", dir);
	put_file(to, uart);
}

ATF_TC(unused_item_listed);
ATF_TC_HEAD(unused_item_listed, tc)
{
	atf_tc_set_md_var(tc, "descr", "Against a suite of one pty case naming TIOCGPTPEER, "
			  "tcgetattr and /proc/tty/drivers, the inventory lists those used (TCGETS "
			  "through tcgetattr) and TIOCCONS, which no case names, as reachable with "
			  "no case (exit 1); a reason in unreachable or uart changes its status, "
			  "a serial case counts for a UART item and a pty case does not, a sysfs "
			  "attribute named beside a /sys/class/tty/%s/%s path format counts, and a "
			  "reason naming no item is exit 2 naming its line");
	atf_tc_set_md_var(tc, "timeout", INV_TIMEOUT);
}
ATF_TC_BODY(unused_item_listed, tc)
{
	need_source();
	char cwd[PATH_MAX], suite[PATH_MAX + 16], data[PATH_MAX + 16], p[PATH_MAX + 64];
	ATF_REQUIRE(getcwd(cwd, sizeof cwd));
	snprintf(suite, sizeof suite, "%s/suite", cwd);
	snprintf(data, sizeof data, "%s/data", cwd);
	snprintf(p, sizeof p, "%s/cases/pty/t_small.c", suite);
	put_file(p, small_case);
	data_dir(tc, data, "", "");

	struct rbuf out = { 0 };
	ATF_CHECK_EQ(run_inventory(tc, suite, data, &out, NULL), 1);
	const char *o = rbuf_str(&out);
	ATF_CHECK_MATCH("\nTIOCGPTPEER +used +1 case \\(pty 1, 8250 0\\): pty/t_small:uses_peer", o);
	ATF_CHECK_MATCH("\nTCGETS +used +1 case", o);
	ATF_CHECK_MATCH("\n/proc/tty/drivers +used +1 case", o);
	ATF_CHECK_MATCH("\nTIOCCONS +NO CASE +tty_io.c", o);
	ATF_CHECK_MATCH("\nreachable, no case:.* TIOCCONS ", o);
	ATF_CHECK_MATCH("ttypot inventory: [0-9]+ items: 4 used by a case", o);
	rbuf_free(&out);

	/* The full view of an unused item. */
	ATF_CHECK_EQ(run_inventory(tc, suite, data, &out, "TIOCCONS"), 0);
	ATF_CHECK_MATCH("status: +NO CASE", rbuf_str(&out));
	rbuf_free(&out);

	/* A reason each: unreachable, and a UART item a pty case names. */
	data_dir(tc, data, "# why\nTIOCCONS\tno console here, for this test\n",
		 "TIOCGPTPEER only a UART, for this test\n");
	ATF_CHECK_EQ(run_inventory(tc, suite, data, &out, NULL), 1);
	o = rbuf_str(&out);
	ATF_CHECK_MATCH("\nTIOCCONS +unreachable +no console here, for this test", o);
	ATF_CHECK_MATCH("\nTIOCGPTPEER +needs UART +only a UART, for this test; used by 1 case "
			"\\(pty 1, 8250 0\\)", o);
	ATF_CHECK_MATCH("need a UART, no serial case: TIOCGPTPEER", o);
	rbuf_free(&out);
	snprintf(p, sizeof p, "%s/cases/serial/t_lines.c", suite);
	put_file(p, serial_case);
	data_dir(tc, data, "", "TIOCMGET needs modem lines\n");
	ATF_CHECK_EQ(run_inventory(tc, suite, data, &out, NULL), 1);
	ATF_CHECK_MATCH("\nTIOCMGET +used +1 case \\(pty 0, 8250 1\\): serial/t_lines:reads_lines",
			rbuf_str(&out));
	/* An attribute named beside a /sys/class/tty/%s/%s format is used;
	 * one the case never names is not. */
	ATF_CHECK_MATCH("\n/sys/class/tty/ttyS\\*/uartclk +used +1 case", rbuf_str(&out));
	ATF_CHECK_MATCH("\n/sys/class/tty/ttyS\\*/xmit_fifo_size +NO CASE", rbuf_str(&out));
	rbuf_free(&out);

	data_dir(tc, data, "TIOCCONS a reason\nTIOCNOSUCH not a kernel name\n", "");
	ATF_CHECK_EQ(run_inventory(tc, suite, data, &out, NULL), 2);
	ATF_CHECK_MATCH("data/unreachable:2: TIOCNOSUCH is not an item", rbuf_str(&out));
	rbuf_free(&out);
}

ATF_TC(config_decides_built);
ATF_TC_HEAD(config_decides_built, tc)
{
	atf_tc_set_md_var(tc, "descr", "The config decides what is built: with CONFIG_N_GSM "
			  "unset, N_GSM0710 is not built (naming the symbol and the Makefile), "
			  "its GSMIOC ioctls and gsmtty driver are gone, N_HDLC stays; with CONFIG_VT "
			  "unset, the VT's requests (KDGKBENT) are not built, naming it, and the "
			  "reasons kept for VT items (GIO_FONT) are not shown, not an error");
	atf_tc_set_md_var(tc, "timeout", INV_TIMEOUT);
}
ATF_TC_BODY(config_decides_built, tc)
{
	need_source();
	struct inventory inv;
	build(tc, &inv, NULL, NULL, NULL);
	ATF_REQUIRE(inv_find(&inv, "gsmtty"));
	char *conf = ku_read_file(inv.config, NULL);
	ATF_REQUIRE_MSG(conf, "%s: %s", inv.config, strerror(errno));
	struct rbuf b = { 0 };
	/* N_GSM and VT off, each line replaced where it stands */
	static const char *const off[] = { "N_GSM", "VT" };
	for (size_t i = 0; i < sizeof off / sizeof *off; i++) {
		char set[64], unset[64];
		snprintf(set, sizeof set, "\nCONFIG_%s=y\n", off[i]);
		snprintf(unset, sizeof unset, "\n# CONFIG_%s is not set\n", off[i]);
		char *on = strstr(conf, set);
		ATF_REQUIRE_MSG(on, "%s has no %s", inv.config, set + 1);
		rbuf_free(&b);
		rbuf_addn(&b, conf, (size_t)(on - conf));
		rbuf_add(&b, unset);
		rbuf_add(&b, on + strlen(set));
		free(conf);
		conf = xstrdup(rbuf_str(&b));
	}
	free(conf);
	inv_free(&inv);
	put_file("./no-gsm.config", rbuf_str(&b));
	rbuf_free(&b);
	/* the real reasons name VT items, which this config does not build:
	 * a config of the user's, so they are only not shown */
	build(tc, &inv, "./no-gsm.config", NULL, NULL);
	const struct inv_item *it = item(&inv, "N_GSM0710");
	ATF_CHECK_MSG(it->not_built && strstr(it->not_built, "CONFIG_N_GSM is not set") &&
		      strstr(it->not_built, "drivers/tty/Makefile"), "N_GSM0710: %s",
		      it->not_built ? it->not_built : "built");
	ATF_CHECK(!inv_find(&inv, "GSMIOC_SETCONF"));
	ATF_CHECK(!inv_find(&inv, "gsmtty"));
	ATF_CHECK_EQ(item(&inv, "N_HDLC")->not_built, NULL);
	it = item(&inv, "KDGKBENT");
	ATF_CHECK_MSG(it->not_built && strstr(it->not_built, "CONFIG_VT is not set"),
		      "KDGKBENT: %s", it->not_built ? it->not_built : "built");
	it = item(&inv, "GIO_FONT");
	ATF_CHECK_MSG(it->not_built && !it->unreachable, "GIO_FONT: not built %s, reason %s",
		      it->not_built ? "yes" : "no", it->unreachable ? it->unreachable : "none");
	inv_free(&inv);
}

ATF_TP_ADD_TCS(tp)
{
	ATF_TP_ADD_TC(tp, reads_real_headers);
	ATF_TP_ADD_TC(tp, unused_item_listed);
	ATF_TP_ADD_TC(tp, config_decides_built);
	return atf_no_error();
}
