# shellcheck shell=sh
# SPDX-License-Identifier: GPL-2.0-or-later
#
# gui-reader.sh: code shared by the checks that load a profile file in a GUI
# reader under Xvfb (check-massif-visualizer, check-kcachegrind).  Sourced,
# not run:
#
#	gui_reader=kcachegrind
#	. "$(dirname "$0")/gui-reader.sh"
#
# Design.  A check script is run twice: once by the test (the "outer" run,
# which checks its arguments and the tools, prepares a private environment,
# starts Xvfb and reports), and once inside xvfb-run as "/bin/sh SCRIPT
# --inner WORK FILE" (the "inner" run, which starts the reader, polls it for
# its signals and kills it).  What tells "loaded" from "rejected" differs per
# reader, so each script keeps its poll loop, its result messages and
# anything else specific to its reader; this file holds only the plumbing
# that is the same for all of them:
#
#   outer run:
#     gui_need_tools PKGS TOOL...  install TOOLs with apt-get (CI only) or
#                                  skip (exit 77) when some are missing
#     gui_check_file FILE          fail (exit 1) unless FILE is readable;
#                                  sets gui_abs (its absolute name)
#     gui_setup RULES              private work dir (gui_work, removed on
#                                  exit), HOME and XDG dirs in it, C locale,
#                                  xcb platform, QT_LOGGING_RULES=RULES
#     gui_run CMD...               run "xvfb-run -a CMD..." with a deadline,
#                                  retrying a lost display race; exit 99 when
#                                  it cannot run; sets gui_result
#     gui_relevant                 the reader's log without Qt/dbus noise
#   inner run:
#     gui_inner_start FILE         start the reader on FILE (gui_pid)
#     gui_inner_exited             true (and gui_result="exited N") once the
#                                  reader has exited by itself
#     gui_inner_stop               kill the reader, hand gui_result to the
#                                  outer run, exit 0
#
# Interface.  The script sets gui_reader (the reader's command name) before
# sourcing; this file sets gui_timeout from CHECK_READER_TIMEOUT (seconds to
# wait for the load, default 10).  All names defined here start with gui_.
# Files in the work dir: reader.log (the reader's stdout+stderr), result (one
# word from the inner run), run.out and xvfb.err (harness output).
#
# Exit codes, as for the check scripts: 0 loaded, 1 rejected, 77 skipped
# (reader or Xvfb not installed), 99 usage error or harness failure.
#
# Installing (CI set, running as root, apt-get present): several checks may
# run at once (make -j), and parallel apt-get runs fail on the dpkg lock, so
# installs are serialized with flock on one lock file, and once the lock is
# held the tools are looked up again (another check may have installed them
# meanwhile).

if [ -z "${gui_reader-}" ]; then
	echo "$0: gui_reader must be set before sourcing gui-reader.sh" >&2
	exit 99
fi
gui_timeout=${CHECK_READER_TIMEOUT:-10}
gui_lock=/var/lock/heapsnap-gui-readers.lock
[ -d /var/lock ] || gui_lock=/tmp/heapsnap-gui-readers.lock

# ---------------------------------------------------------------------------
# Inner run (inside xvfb-run)

# gui_inner_start FILE: start the reader on FILE in the background, its output
# in $gui_work/reader.log; gui_pid = its pid, gui_result = timeout.
gui_inner_start() {
	"$gui_reader" "$1" >"$gui_work/reader.log" 2>&1 &
	gui_pid=$!
	gui_result=timeout
}

# gui_inner_exited: if the reader has already exited, reap it, set
# gui_result to "exited STATUS" and return 0; else return 1.
gui_inner_exited() {
	kill -0 "$gui_pid" 2>/dev/null && return 1
	wait "$gui_pid"
	gui_result="exited $?"
	return 0
}

# gui_inner_stop: kill the reader, write gui_result for the outer run, exit 0.
gui_inner_stop() {
	kill "$gui_pid" 2>/dev/null
	# give it a second to die, then make sure
	gui_j=0
	while kill -0 "$gui_pid" 2>/dev/null && [ "$gui_j" -lt 10 ]; do
		sleep 0.1
		gui_j=$((gui_j + 1))
	done
	kill -9 "$gui_pid" 2>/dev/null
	wait "$gui_pid" 2>/dev/null
	echo "$gui_result" >"$gui_work/result"
	exit 0
}

# ---------------------------------------------------------------------------
# Outer run

# gui_missing_tools TOOL...: print the TOOLs not on PATH, one a line.
gui_missing_tools() {
	for gui_t in "$@"; do
		command -v "$gui_t" >/dev/null 2>&1 || echo "$gui_t"
	done
}

# gui_install PKGS TOOL...: apt-get install PKGS (a space-separated list)
# unless, once the install lock is held, all TOOLs are there.
gui_install() {
	gui_pkgs=$1
	shift
	# (an unwritable lock file would stop the install: lock nothing then)
	{ : >>"$gui_lock"; } 2>/dev/null || gui_lock=/dev/null
	(
		if command -v flock >/dev/null 2>&1; then
			flock -w 900 9 ||
				echo "$0: could not lock $gui_lock, installing anyway" >&2
		fi
		# another check may have installed them while we waited
		[ -n "$(gui_missing_tools "$@")" ] || exit 0
		gui_log=$(mktemp "${TMPDIR:-/tmp}/check-$gui_reader-apt.XXXXXX")
		echo "$0: installing $gui_pkgs (log: $gui_log)" >&2
		export DEBIAN_FRONTEND=noninteractive
		# 9>&-: whatever apt-get starts must not keep holding the lock
		# shellcheck disable=SC2086
		if ! apt-get install -y -q --no-install-recommends $gui_pkgs \
			>"$gui_log" 2>&1 9>&-; then
			apt-get update >>"$gui_log" 2>&1 9>&-
			apt-get install -y -q --no-install-recommends $gui_pkgs \
				>>"$gui_log" 2>&1 9>&- ||
				echo "$0: apt-get install failed, see $gui_log" >&2
		fi
		[ -z "$(gui_missing_tools "$@")" ] && rm -f "$gui_log"
		exit 0
	) 9>>"$gui_lock"
}

# gui_need_tools PKGS TOOL...: make sure all TOOLs (the reader first) are on
# PATH.  When some are missing and CI is set, running as root with apt-get,
# install the Debian packages PKGS; if some are still missing, print a SKIP
# line and exit 77.
gui_need_tools() {
	gui_pkgs=$1
	shift
	if [ -n "$(gui_missing_tools "$@")" ] && [ -n "${CI-}" ] &&
		[ "$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then
		gui_install "$gui_pkgs" "$@"
	fi
	gui_miss=$(gui_missing_tools "$@")
	if [ -n "$gui_miss" ]; then
		if command -v "$gui_reader" >/dev/null 2>&1; then
			echo "SKIP: $(echo "$gui_miss" | tr '\n' ' ')not installed (needed to run $gui_reader)"
		else
			echo "SKIP: $gui_reader not installed"
		fi
		exit 77
	fi
}

# gui_check_file FILE: fail unless FILE is a readable file (the readers do
# not say so on stderr); gui_abs = FILE made absolute.
gui_check_file() {
	if [ ! -f "$1" ] || [ ! -r "$1" ]; then
		echo "FAIL: $gui_reader: $1: no such readable file"
		exit 1
	fi
	# shellcheck disable=SC2034 # used by the check scripts
	case $1 in
	/*) gui_abs=$1 ;;
	*) gui_abs=$PWD/$1 ;;
	esac
}

# gui_setup RULES: create the work dir gui_work (removed on exit) and point
# HOME and the XDG dirs into it: works as root and with an unset or
# unwritable HOME, and never touches the user's config.  The reader gets
# the C locale, the xcb platform, QT_LOGGING_RULES=RULES and no session
# bus or session manager.
gui_setup() {
	gui_work=$(mktemp -d "${TMPDIR:-/tmp}/check-$gui_reader.XXXXXX") || exit 99
	trap 'rm -rf "$gui_work"' EXIT
	trap 'exit 1' HUP INT TERM
	mkdir -p "$gui_work/home" "$gui_work/runtime" "$gui_work/config" \
		"$gui_work/cache" "$gui_work/data"
	chmod 700 "$gui_work/runtime"
	HOME=$gui_work/home
	XDG_RUNTIME_DIR=$gui_work/runtime
	XDG_CONFIG_HOME=$gui_work/config
	XDG_CACHE_HOME=$gui_work/cache
	XDG_DATA_HOME=$gui_work/data
	QT_QPA_PLATFORM=xcb
	LC_ALL=C.UTF-8
	LANGUAGE=
	QT_LOGGING_RULES=$1
	export HOME XDG_RUNTIME_DIR XDG_CONFIG_HOME XDG_CACHE_HOME XDG_DATA_HOME \
		QT_QPA_PLATFORM LC_ALL LANGUAGE QT_LOGGING_RULES
	unset DBUS_SESSION_BUS_ADDRESS QT_MESSAGE_PATTERN SESSION_MANAGER
}

# gui_run CMD...: run "xvfb-run -a CMD..." (CMD runs the script's inner mode)
# with a deadline and set gui_result from what the inner run wrote.
# xvfb-run -a can race with a parallel instance for the same display number;
# Xvfb then fails to start quickly, so that is retried a couple of times.
# When it cannot be run, print FAIL and the harness output and exit 99.
gui_run() {
	gui_attempt=1
	while :; do
		rm -f "$gui_work/result" "$gui_work/reader.log"
		timeout -k 2 $((gui_timeout + 8)) \
			xvfb-run -a -e "$gui_work/xvfb.err" "$@" \
			>"$gui_work/run.out" 2>&1
		gui_rc=$?
		# no X server: xvfb-run gave up, or (Debian's xvfb-run after 10
		# tries) started the reader on a display that does not exist
		gui_noserver=
		if grep -q 'Xvfb failed to start' "$gui_work/run.out" ||
			grep -q 'could not connect to display' \
				"$gui_work/reader.log" 2>/dev/null; then
			gui_noserver=1
		fi
		[ -s "$gui_work/result" ] && [ -z "$gui_noserver" ] && break
		if [ "$gui_attempt" -ge 3 ] || [ -z "$gui_noserver" ]; then
			echo "FAIL: $gui_reader: harness failed (rc=$gui_rc${gui_noserver:+, no X server})"
			cat "$gui_work/run.out" "$gui_work/xvfb.err" \
				"$gui_work/reader.log" 2>/dev/null |
				grep -v -e '^dbus-daemon\[' -e '^QStandardPaths:' |
				awk 'NF && !seen[$0]++' | head -n 20
			exit 99
		fi
		gui_attempt=$((gui_attempt + 1))
		echo "$gui_reader: no X server (display race?), retrying" >&2
		sleep 0.$(($$ % 9 + 1))
	done
	gui_result=$(cat "$gui_work/result")
}

# gui_relevant: the first 20 lines of the reader's log without the noise
# (Qt's about paths and options, a private session bus's).
gui_relevant() {
	grep -v -e '^QStandardPaths:' -e '^QCommandLineParser:' \
		-e '^dbus-daemon\[' "$gui_work/reader.log" | head -n 20
}
