#!/bin/sh
# demo.sh BUILDDIR: both tools on the bundled example programs, through
# the uninstalled build (./vg-in-place).  Called by `make demo`.
#
# Copyright (C) 2026 The heapsnap/callprof developers.
# SPDX-License-Identifier: GPL-2.0-or-later
set -e
b=$1
out=$b/demo-out
rm -rf "$out" && mkdir -p "$out" && cd "$out"

echo "=== heapsnap: valgrind --tool=heapsnap tests/progs/allocs"
"$b/vg-in-place" -q --tool=heapsnap --heapsnap-out-file=heapsnap.out "$b/tests/progs/allocs"
ms_print heapsnap.out | sed -n '1,/^Number of snapshots/p'
ms_print heapsnap.out | grep -A6 '^[0-9.]*% (.*B) (heap allocation functions)' | tail -7

echo
echo "=== callprof: valgrind --tool=callprof tests/progs/calls"
"$b/vg-in-place" -q --tool=callprof --callprof-out-file=callprof.out "$b/tests/progs/calls" > /dev/null
callgrind_annotate callprof.out | sed -n '/^Ir/,$p' | head -12

echo
echo "The files: $out/heapsnap.out (ms_print, massif-visualizer)"
echo "           $out/callprof.out (callgrind_annotate, kcachegrind)"
