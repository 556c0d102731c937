/* SPDX-License-Identifier: GPL-2.0-only */
/* tp_private.h: shared between the library's own files, not for cases. */
#ifndef TP_PRIVATE_H
#define TP_PRIVATE_H
#include <sys/types.h>
/* Kill and reap every tracked child (atexit and at the end of each case). */
void tp_reap_all(void);
/* The case process itself; children never reap. */
extern pid_t tp_case_pid;
#endif
