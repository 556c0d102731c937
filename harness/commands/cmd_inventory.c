// SPDX-License-Identifier: GPL-2.0-only
/* cmd_inventory.c: `ttypot inventory [OPTIONS] [ITEM...]`: the tty layer's
 * user interface, read from the kernel source ttypot builds, with the
 * cases that use each item and the items no case uses
 * (harness/inventory/inventory.h). */
#include "cmd_inventory.h"
#include "cli.h"
#include "inventory.h"
#include "suite_dir.h"

#include <limits.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char *const inventory_more =
	"Reads the kernel source ttypot builds (default linux-source-6.12, unpacked\n"
	"into the cache) and the config it builds it with (tinyconfig +\n"
	"fixtures/kernel/ttypot.config, made once in the cache): the tty ioctls and\n"
	"the values they take, termios flags and c_cc indexes, line disciplines, the\n"
	"tty drivers and device nodes, /sys/class/tty attributes, /proc and sysctl\n"
	"files the built tty files create.  Then scans every case of SUITE/cases\n"
	"(its body and the helpers it calls) for the items it names.  Prints each\n"
	"item with its status and cases (--all: every case), the unused ones, and a\n"
	"summary; ITEM... prints those items in full.  Reasons kept beside the tool:\n"
	"fixtures/inventory/unreachable (no case can reach the item in a guest) and\n"
	"fixtures/inventory/uart (only a UART shows it: only cases/serial counts).\n"
	"Exit: 0 every reachable item has a case, 1 some have none, 2 usage or input\n"
	"errors (a header without its definitions, a reason naming no item).\n";

static const char *status_word(enum inv_status s)
{
	switch (s) {
	case INV_USED: return "used";
	case INV_NOT_BUILT: return "not built";
	case INV_UNREACHABLE: return "unreachable";
	case INV_NEEDS_UART: return "needs UART";
	case INV_NO_CASE: return "NO CASE";
	}
	return "?";
}

static size_t on_driver(const struct inv_item *it, const char *drv)
{
	size_t n = 0;
	for (size_t i = 0; i < it->nuses; i++)
		n += !strcmp(it->uses[i].driver, drv);
	return n;
}

/* The reason or the cases, after the name and the status. */
static void details(const struct inv_item *it, bool all)
{
	const char *why = it->status == INV_NOT_BUILT ? it->not_built :
			  it->status == INV_UNREACHABLE ? it->unreachable :
			  it->status == INV_NEEDS_UART ? it->uart : NULL;
	if (why) {
		printf("  %s", why);
	} else if (it->status == INV_NO_CASE) {
		printf("  %s", it->handlers && *it->handlers ? it->handlers : it->src);
	}
	if (!it->nuses) {
		printf("\n");
		return;
	}
	printf("%s%zu case%s (pty %zu, 8250 %zu", why ? "; used by " : "  ", it->nuses,
	       it->nuses == 1 ? "" : "s", on_driver(it, "pty"), on_driver(it, "8250"));
	static const char *const more[] = { "vt", "hvc", "usb-serial" };
	for (size_t d = 0; d < sizeof more / sizeof *more; d++)
		if (on_driver(it, more[d]))
			printf(", %s %zu", more[d], on_driver(it, more[d]));
	printf(")");
	size_t shown = all ? it->nuses : it->nuses < 3 ? it->nuses : 3;
	for (size_t i = 0; i < shown; i++)
		printf("%s%s", all ? "\n      " : i ? ", " : ": ", it->uses[i].cas);
	if (shown < it->nuses)
		printf(", ... +%zu", it->nuses - shown);
	printf("\n");
}

static void full(const struct inv_item *it)
{
	printf("%s%s%s%s\n", it->name, it->alias ? " (also " : "", it->alias ? it->alias : "",
	       it->alias ? ")" : "");
	printf("  kind:      %s, %s\n", inv_kind_name(it->kind), it->group);
	printf("  defined:   %s\n", it->src);
	if (it->handlers)
		printf("  named by:  %s\n", *it->handlers ? it->handlers :
		       "no built file of drivers/tty");
	printf("  status:    %s", status_word(it->status));
	if (it->not_built)
		printf(": %s", it->not_built);
	if (it->unreachable)
		printf(": %s", it->unreachable);
	if (it->uart)
		printf(" (only a serial case counts: %s)", it->uart);
	printf("\n");
	for (size_t i = 0; i < it->nuses; i++)
		printf("  %-10s %s\n", it->uses[i].driver, it->uses[i].cas);
}

static void summary(const struct inventory *inv, FILE *f)
{
	struct inv_counts c;
	inv_count(inv, &c);
	fprintf(f, "ttypot inventory: %zu items: %zu used by a case, %zu not built by the config, "
		"%zu unreachable in a guest (a reason each), %zu need a UART and have no serial "
		"case, %zu reachable with no case\n", c.items, c.used, c.not_built,
		c.unreachable, c.needs_uart, c.no_case);
	for (int k = 0; k < INV_NKINDS; k++)
		fprintf(f, "%s%s %zu/%zu", k ? ", " : "ttypot inventory: used by kind: ",
			inv_kind_name(k), c.used_by_kind[k], c.by_kind[k]);
	fprintf(f, "\n");
}

int cmd_inventory(int argc, char **argv)
{
	struct inv_opts io = {0};
	const char *suiteopt = NULL;
	bool unused = false, all = false;
	char **rest = NULL;
	int nrest = 0;
	const struct cli_opt opts[] = {
		{ "source", 0, OPT_STR, &io.source, 0, "DIR",
		  "a kernel source tree (default linux-source-6.12 in the cache)" },
		{ "config", 0, OPT_STR, &io.config, 0, "FILE",
		  "its .config (default: tinyconfig + fixtures/kernel/ttypot.config)" },
		{ "data", 0, OPT_STR, &io.data, 0, "DIR",
		  "the reasons and libc files (default SUITE/fixtures/inventory)" },
		{ "unused", 0, OPT_FLAG, &unused, 0, NULL, "print only the items no case uses" },
		{ "all", 0, OPT_FLAG, &all, 0, NULL, "print every case of each item" },
		{ "trace", 0, OPT_STR, &io.trace, 0, "CASE",
		  "tell which definitions the scan of CASE (area/t_prog:case) followed" },
		{ "suite", 0, OPT_STR, &suiteopt, 0, "DIR",
		  "the ttypot source tree whose cases are read" },
		cli_opt_cache(&io.cache),
		CLI_OPT_END,
	};
	enum cli_verdict v = cli_command(argc, argv, opts, "[OPTIONS] [ITEM...]",
					 inventory_more, &rest, &nrest);
	if (v != CLI_OK) {
		free(rest);
		return v == CLI_ERROR ? 2 : 0;
	}
	char found[PATH_MAX], suite[PATH_MAX], err[2048];
	find_suite_dir(suiteopt, argv[0], found, sizeof found);
	if (!realpath(found, suite))
		snprintf(suite, sizeof suite, "%s", found);
	io.suite = suite;
	struct inventory inv;
	if (inv_build(&io, &inv, err, sizeof err) < 0) {
		fprintf(stderr, "ttypot: inventory: %s\n", err);
		inv_free(&inv);
		free(rest);
		return 2;
	}
	int rc = 0;
	if (nrest) {
		for (int i = 0; i < nrest; i++) {
			const struct inv_item *it = inv_find(&inv, rest[i]);
			if (!it) {
				fprintf(stderr, "ttypot: inventory: no item '%s' (names as the "
					"kernel spells them: TIOCGSERIAL, IUTF8, N_GSM0710, "
					"/proc/tty/drivers)\n", rest[i]);
				rc = 2;
				continue;
			}
			full(it);
		}
		inv_free(&inv);
		free(rest);
		return rc;
	}
	printf("ttypot inventory of %s\n  config %s\n  %zu cases of %s/cases\n", inv.source,
	       inv.config, inv.ncases, suite);
	for (int k = 0; k < INV_NKINDS; k++) {
		bool head = false;
		for (size_t i = 0; i < inv.nitems; i++) {
			const struct inv_item *it = &inv.items[i];
			if ((int)it->kind != k || (unused && it->status == INV_USED))
				continue;
			if (!head)
				printf("\n== %s ==\n", inv_kind_name(k));
			head = true;
			printf("%-30s %-11s", it->name, status_word(it->status));
			details(it, all);
		}
	}
	printf("\n");
	for (size_t i = 0; i < inv.nnotes; i++)
		printf("note: %s\n", inv.notes[i]);
	struct inv_counts c;
	inv_count(&inv, &c);
	for (int s = INV_NEEDS_UART; s <= INV_NO_CASE; s++) {
		bool head = false;
		for (size_t i = 0; i < inv.nitems; i++) {
			if ((int)inv.items[i].status != s)
				continue;
			printf("%s %s", head ? "" : s == INV_NO_CASE ?
			       "reachable, no case:" : "need a UART, no serial case:",
			       inv.items[i].name);
			head = true;
		}
		if (head)
			printf("\n");
	}
	summary(&inv, stdout);
	rc = c.no_case || c.needs_uart ? 1 : 0;
	inv_free(&inv);
	free(rest);
	return rc;
}
