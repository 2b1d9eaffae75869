#!/bin/sh
# screenshots.sh BUILDDIR SRCDIR: the pictures of docs/profreport.md, one
# of each kind of report, taken in headless Chromium by the same checker
# the tests use (tests/check-report), so a picture is also a check that
# the report works.  Called by `make screenshots`; writes
# SRCDIR/docs/images/{flamegraph,callprof-report,heap-report}.png
# (1200x800 at most: what a 1200x800 window shows).
#
# The profiles are of tests/progs/cwork, run as ./cwork in a scratch
# directory (BUILDDIR/screenshots-out) so that the pages name no build
# path.  Exit 77 when check-report cannot run here (node, npm or
# Chromium missing).
#
# Copyright (C) 2026 The heapsnap/callprof developers.
# SPDX-License-Identifier: GPL-2.0-or-later
set -e
b=$(cd "$1" && pwd)
s=$(cd "$2" && pwd)
out=$b/screenshots-out
img=$s/docs/images
rm -rf "$out" && mkdir -p "$out" "$img" && cd "$out"
cp "$b/tests/progs/cwork" .
export TOP_BUILDDIR="$b"
report=$b/profreport/profreport
check=$s/tests/check-report

"$b/vg-in-place" -q --tool=callprof --callprof-out-file=callprof.out \
	--folded-out-file=callprof.folded ./cwork >/dev/null
"$b/vg-in-place" -q --tool=heapsnap --heapsnap-out-file=heapsnap.out \
	./cwork >/dev/null

# The flame graph alone (1200 pixels wide: the window's width), with
# the recursive sum_range searched and the mouse on main.
"$report" callprof.folded -o flame.svg
set +e
"$check" flame.svg --search sum_range --hover main \
	--screenshot "$img/flamegraph.png"
rc=$?
set -e
[ $rc = 77 ] && exit 77
[ $rc = 0 ]

# The pages, narrower than the window by their margins.
"$report" --width=1100 callprof.out -o callprof.html
"$check" callprof.html --hover branchy.constprop.0 \
	--screenshot "$img/callprof-report.png"
"$report" --width=1100 heapsnap.out -o heap.html
"$check" heap.html --hover-snapshot peak --hover main \
	--screenshot "$img/heap-report.png"
ls -l "$img"/*.png
