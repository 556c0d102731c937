// SPDX-License-Identifier: GPL-2.0-only
/* mutant.c: the names of mutation operators and statuses (mutant.h), as
 * the reports, the resume state and the command line spell them. */
#include "mutant.h"

#include <string.h>

static const char *const op_names[OP__N] = {
	[OP_ROR] = "ror", [OP_NEG] = "neg", [OP_CALL] = "call", [OP_ERRNO] = "errno",
	[OP_OBO] = "obo", [OP_FLAG] = "flag", [OP_RET] = "ret",
};

static const char *const status_names[MS__N] = {
	[MS_PENDING] = "pending", [MS_EQUIVALENT] = "equivalent",
	[MS_NOT_COVERED] = "not-covered", [MS_UNCOMPILABLE] = "uncompilable",
	[MS_KILLED] = "killed", [MS_KILLED_TIMEOUT] = "timeout",
	[MS_KILLED_WARNING] = "warning", [MS_SURVIVED] = "survived", [MS_ERROR] = "error",
};

static int lookup(const char *const *names, int n, const char *name)
{
	for (int i = 0; name && i < n; i++)
		if (strcmp(names[i], name) == 0)
			return i;
	return -1;
}

const char *mut_op_name(enum mut_op op)
{
	return (unsigned)op < OP__N ? op_names[op] : "?";
}

int mut_op_parse(const char *name)
{
	return lookup(op_names, OP__N, name);
}

const char *mut_status_name(enum mut_status s)
{
	return (unsigned)s < MS__N ? status_names[s] : "?";
}

int mut_status_parse(const char *name)
{
	return lookup(status_names, MS__N, name);
}

bool mut_status_killed(enum mut_status s)
{
	return s == MS_KILLED || s == MS_KILLED_TIMEOUT || s == MS_KILLED_WARNING;
}
