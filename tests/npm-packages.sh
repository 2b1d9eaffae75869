# shellcheck shell=sh
# SPDX-License-Identifier: GPL-2.0-or-later
#
# npm-packages.sh: the npm packages of the browser checks (check-speedscope,
# check-report), installed once for both.  Sourced, not run:
#
#	. "$here/npm-packages.sh"
#	npm_install || exit 77       # sets npm_mods
#	node "$here/report/check.mjs" "$npm_mods" ...
#
# One package set for all of them: "npm ci" of speedscope/package-lock.json
# (speedscope and playwright-core; check-report uses only the latter) into
# $CHECK_SPEEDSCOPE_DIR, else $TOP_BUILDDIR/tests/speedscope-npm (set when
# run from a .vgtest), else ${TMPDIR:-/tmp}/check-speedscope-UID.  It is
# redone only when the lock file changed, and serialized with flock, since
# the checks of one `make -j check` share it.  No install scripts are run:
# both packages are plain JavaScript.
#
# npm_install: install when needed; sets npm_mods (the directory holding
# node_modules/).  Returns 1 after printing a SKIP line with the end of
# npm's log when the install failed (no network, no registry), so the
# caller exits 77.  Names defined here start with npm_.

npm_here=$(cd "$(dirname "$0")" && pwd)

npm_install() {
	if [ -n "${CHECK_SPEEDSCOPE_DIR-}" ]; then
		npm_mods=$CHECK_SPEEDSCOPE_DIR
	elif [ -n "${TOP_BUILDDIR-}" ] && [ -d "$TOP_BUILDDIR/tests" ]; then
		npm_mods=$TOP_BUILDDIR/tests/speedscope-npm
	else
		npm_mods=${TMPDIR:-/tmp}/check-speedscope-$(id -u)
	fi
	mkdir -p "$npm_mods" || return 1
	if ! (
		if command -v flock >/dev/null 2>&1; then
			flock -w 600 9 || echo "$0: could not lock $npm_mods/.lock" >&2
		fi
		npm_lock=$npm_here/speedscope/package-lock.json
		if cmp -s "$npm_lock" "$npm_mods/installed-lock.json" &&
			[ -f "$npm_mods/node_modules/speedscope/package.json" ] &&
			[ -f "$npm_mods/node_modules/playwright-core/package.json" ]; then
			exit 0
		fi
		rm -f "$npm_mods/installed-lock.json"
		cp "$npm_here/speedscope/package.json" "$npm_lock" "$npm_mods/" ||
			exit 1
		if ! (cd "$npm_mods" && timeout -k 5 600 npm ci --no-audit \
			--no-fund --ignore-scripts --loglevel=error) \
			>"$npm_mods/npm.log" 2>&1; then
			exit 1
		fi
		cp "$npm_lock" "$npm_mods/installed-lock.json"
	) 9>>"$npm_mods/.lock"; then
		echo "SKIP: npm ci of speedscope and playwright-core failed, see $npm_mods/npm.log:"
		grep -v 'Unknown user config' "$npm_mods/npm.log" | tail -n 5 |
			sed 's/^/  /'
		return 1
	fi
	return 0
}
