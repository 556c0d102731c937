#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# check-spdx.sh: every source file of the tree names its licence in an SPDX
# line within its first three lines (the tree is GPL-2.0-only, LICENSE), as
# the kernel's own checkpatch asks.  Source: C and headers, shell and other
# scripts (a #! line), Makefiles, Kyuafiles, Coccinelle rules, the kernel
# config fragments and the man page.  Data (patches, JSON, maps, Markdown)
# is not source.  Prints the files without one and exits 1; make check runs it.
set -eu
cd "$(dirname "$0")/.."
[ -f LICENSE ] || { echo "check-spdx: LICENSE is missing"; exit 1; }
if git rev-parse --git-dir >/dev/null 2>&1; then
	list() { git ls-files --cached --others --exclude-standard; }
else
	list() { find . -path ./.git -prune -o -type f -print | sed 's|^\./||'; }
fi
bad=$(list | while IFS= read -r f; do
	case $f in
	*.c | *.h | *.sh | *.cocci | *Makefile | *Kyuafile | *.1 | fixtures/kernel/*.config) ;;
	*.patch | *.json | *.map | *.md | *.txt | *.png | *.deb) continue ;;
	*) head -c 2 "$f" 2>/dev/null | grep -q '^#!' || continue ;;
	esac
	head -n 3 "$f" | grep -q 'SPDX-License-Identifier: GPL-2.0-only' || echo "$f"
done)
if [ -n "$bad" ]; then
	echo "check-spdx: no 'SPDX-License-Identifier: GPL-2.0-only' in the first 3 lines of:"
	printf '  %s\n' $bad
	exit 1
fi
