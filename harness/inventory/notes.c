// SPDX-License-Identifier: GPL-2.0-only
/* notes.c: the reasons kept beside the tool, one item a line:
 * fixtures/inventory/unreachable (why no case can reach the item in a
 * guest) and fixtures/inventory/uart (why only a UART shows what the item
 * does).  A line naming no item of the inventory is an error: the kernel
 * source moved on, or the line is wrong (inv_private.h).  So is a line for
 * an item ttypot's own config does not build; under a config of the
 * user's (--config) such a line is only not shown. */
#include "inv_private.h"
#include "rbuf.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int inv_notes(struct inventory *inv, const char *path, bool uart, bool own_config, char *err,
	      size_t errlen)
{
	char *text = inv_read(path, err, errlen);
	if (!text)
		return -1;
	int lineno = 0, rc = 0;
	char *cursor = text, *line;
	while (!rc && (line = inv_data_line(&cursor, &lineno))) {
		size_t nl = strcspn(line, " \t");
		char *reason = line + nl;
		while (isspace((unsigned char)*reason))
			reason++;
		line[nl] = '\0';
		struct inv_item *it = inv_lookup(inv, line);
		char **slot = it ? (uart ? &it->uart : &it->unreachable) : NULL;
		rc = -1;
		if (!it)
			snprintf(err, errlen, "%s:%d: %s is not an item of the inventory (the "
				 "kernel source has no such name)", path, lineno, line);
		else if (!*reason)
			snprintf(err, errlen, "%s:%d: %s: a reason is needed after the item",
				 path, lineno, line);
		else if (*slot)
			snprintf(err, errlen, "%s:%d: %s is listed twice", path, lineno, line);
		else if (it->not_built && !own_config)
			rc = 0, slot = NULL;
		else if (it->not_built)
			snprintf(err, errlen, "%s:%d: %s is not built by this config (%s): it "
				 "needs no reason here", path, lineno, line, it->not_built);
		else if (uart ? it->unreachable : it->uart)
			snprintf(err, errlen, "%s:%d: %s is in both unreachable and uart", path,
				 lineno, line);
		else
			rc = 0;
		if (!rc && slot)
			*slot = xstrdup(reason);
	}
	free(text);
	return rc;
}
