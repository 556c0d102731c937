/* mutant.c: the names of operators and statuses (mutant.h). */
#include "mutant.h"

#include <string.h>

static const char *const op_names[OP__N] = {
	"ror", "neg", "call", "errno", "obo", "flag", "ret",
};

static const char *const status_names[MS__N] = {
	"pending", "equivalent", "not-covered", "uncompilable", "killed",
	"timeout", "warning", "survived", "error",
};

const char *mut_op_name(enum mut_op op)
{
	return (unsigned)op < OP__N ? op_names[op] : "?";
}

int mut_op_parse(const char *name)
{
	for (int i = 0; i < OP__N; i++)
		if (!strcmp(name, op_names[i]))
			return i;
	return -1;
}

const char *mut_status_name(enum mut_status s)
{
	return (unsigned)s < MS__N ? status_names[s] : "?";
}

int mut_status_parse(const char *name)
{
	for (int i = 0; i < MS__N; i++)
		if (!strcmp(name, status_names[i]))
			return i;
	return -1;
}

bool mut_status_killed(enum mut_status s)
{
	return s == MS_KILLED || s == MS_KILLED_TIMEOUT || s == MS_KILLED_WARNING;
}
