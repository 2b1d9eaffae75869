/* hs_corealign.c: where the core's code starts in heapsnap's executable.

   Copyright (C) 2026 The heapsnap/callprof developers.
   SPDX-License-Identifier: GPL-2.0-or-later

   heapsnap's executable is heapsnap's code, then the output writer's,
   then the core's (libcoregrind, then VEX), laid out by the linker one
   after another.  So every change to the size of heapsnap's code moved
   the core's code with it, and the core's code that heapsnap runs most
   (its client allocator, likely, at every malloc and free) is sensitive
   to where it falls within a 64-byte line: with the core 32 bytes later
   than it is now, the Rust workload of `make bench` took 1.06x to 1.08x
   of its time and C++ 1.01x to 1.03x, with no change in what ran
   (docs/benchmarks.md, "Where the core's code falls").  Any edit to
   heapsnap could have cost that much, or given it back, and the paired
   runs that judge a change measured where the core fell as much as the
   change.

   This file is the linker's last input before the core (Makefile.am
   names it between the output writer and libcoregrind; -u pulls it in).
   Its code section starts on a 64-byte boundary and holds 48 bytes, so
   the core's code always starts 48 bytes past a line boundary, whatever
   heapsnap's code before it weighs: where it fell when this was
   measured, and as fast as any of the four places a 16-byte-aligned
   start can take.  The 48 bytes are never executed (int3).  What it
   pins suits this Valgrind build's layout on this processor:
   docs/benchmarks.md says what it gives and where it cannot apply. */

__asm__(".text\n"
        "\t.p2align 6\n"
        "\t.globl vgHeapsnap_corealign\n"      /* HS_(corealign), hs.h */
        "vgHeapsnap_corealign:\n"
        "\t.skip 48, 0xcc\n"
        "\t.globl vgHeapsnap_corealign_end\n"  /* where the core starts */
        "vgHeapsnap_corealign_end:\n");
