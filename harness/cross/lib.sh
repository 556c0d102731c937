# SPDX-License-Identifier: GPL-2.0-only
# Sourced by build.sh: messages, stamps and directory swaps.

log() { printf 'ttypot cross %s: %s\n' "$ARCH" "$*" >&2; }
die() { log "error: $*"; exit 1; }

# A stage is current when its stamp holds the key of its inputs.
stamp_ok() { [ "$(cat "$cache/stamps/$1" 2>/dev/null)" = "$2" ]; }
stamp_set() { mkdir -p "$cache/stamps" && printf '%s\n' "$2" > "$cache/stamps/$1"; }
stamp_get() { cat "$cache/stamps/$1" 2>/dev/null; }

# Hash of its arguments' text and of the files named on stdin (their
# contents and names below the source tree: another checkout of the same
# sources, a worktree say, has the same key).
key_of() {
	{ printf '%s\n' "$@"; tr '\n' '\0' | xargs -0r sha256sum |
		sed "s|  $src/|  |"; } | sha256sum | cut -c1-16
}

# Replace directory $2 by the freshly built $1 (one rename when $2 is new).
swap_dir() {
	rm -rf "$2.old"
	[ -e "$2" ] && mv "$2" "$2.old"
	mv "$1" "$2"
	rm -rf "$2.old"
}
