/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * cmd_inventory.h: `ttypot inventory [OPTIONS] [ITEM...]`: the tty layer's
 * user interface read from the kernel source, each item with the cases
 * that use it (harness/inventory/inventory.h).
 * Exit: 0 every reachable item has a case, 1 some have none, 2 usage or
 * input errors.
 */
#ifndef TTYPOT_CMD_INVENTORY_H
#define TTYPOT_CMD_INVENTORY_H

int cmd_inventory(int argc, char **argv);

#endif
