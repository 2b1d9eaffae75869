# setup.sh: sourced by ./run-demo and ./run-tests.  Makes sure the build
# tools are there (installing the Debian packages when run as root,
# printing the apt-get line otherwise), then configures and builds the
# tree in place.  Quiet when everything is already done.
#
# Copyright (C) 2026 The heapsnap/callprof developers.
# SPDX-License-Identifier: GPL-2.0-or-later

set -e
cd "$(dirname "$0")"

# command -> Debian package: the build tools, then what some tests use
# when it is there: Debian's rustc for the Rust test programs (configure
# prefers it; without one their cases skip), xmllint for the report tests
# (their cases skip without it), man for the manual page's test, the
# programs of `make check-real`, gdb for the debugger's tests (they skip
# without it), and
# clang with its libFuzzer runtime for `make fuzz` (libclang-rt-dev is
# only a recommendation of clang's; `make fuzz` skips without them).
# Root gets both installed; others get the apt-get line, and only
# missing build tools stop the setup.
need_pkgs= want_pkgs=
for pair in autoconf:autoconf automake:automake pkg-config:pkg-config \
            make:make gcc:gcc g++:g++ valgrind:valgrind xml2-config:libxml2-dev; do
   cmd=${pair%%:*} pkg=${pair#*:}
   command -v "$cmd" > /dev/null 2>&1 || need_pkgs="$need_pkgs $pkg"
done
for pair in /usr/bin/rustc:rustc perl:perl sqlite3:sqlite3 python3:python3 man:man-db \
            xz:xz-utils xmllint:libxml2-utils clang:clang clang:libclang-rt-dev \
            gdb:gdb; do
   cmd=${pair%%:*} pkg=${pair#*:}
   command -v "$cmd" > /dev/null 2>&1 || want_pkgs="$want_pkgs $pkg"
done
if [ -n "$need_pkgs$want_pkgs" ] && [ "$(id -u)" = 0 ]; then
   echo "setup: installing$need_pkgs$want_pkgs"
   export DEBIAN_FRONTEND=noninteractive
   apt-get install -y -q --no-install-recommends $need_pkgs $want_pkgs > /tmp/setup-apt.log 2>&1 ||
   { apt-get update -q > /dev/null 2>&1 &&
     apt-get install -y -q --no-install-recommends $need_pkgs $want_pkgs > /tmp/setup-apt.log 2>&1; } ||
   { echo "setup: apt-get failed, see /tmp/setup-apt.log"; exit 1; }
elif [ -n "$need_pkgs" ]; then
   echo "setup: missing build tools; install them with:"
   echo "    sudo apt-get install$need_pkgs$want_pkgs"
   exit 1
elif [ -n "$want_pkgs" ]; then
   echo "setup: some tests will skip (make check) or fail (make check-real) without:"
   echo "    sudo apt-get install$want_pkgs"
fi

if [ ! -x configure ] || [ configure.ac -nt configure ] || [ Makefile.am -nt configure ]; then
   echo "setup: autoreconf"
   autoreconf -fi > /tmp/setup-autoreconf.log 2>&1 ||
      { cat /tmp/setup-autoreconf.log; exit 1; }
fi
if [ ! -f Makefile ] || [ configure -nt Makefile ]; then
   echo "setup: configure"
   ./configure -q ${CONFIGURE_FLAGS:-} || exit 1
fi
echo "setup: make"
make -s -j"$(nproc 2>/dev/null || echo 2)" 2>&1 | grep -v '^make.*: Nothing to be done' || true
test -x vg-in-place && test -f .in_place/stamp || { echo "setup: build failed"; exit 1; }
