/* tool_platform.h: what heapsnap and callprof assume of the platform,
   in one place.

   Copyright (C) 2026 The heapsnap/callprof developers.
   SPDX-License-Identifier: GPL-2.0-or-later

   Both tools are written for Valgrind's amd64-linux platform, and
   configure refuses any other (configure.ac, "platform").  What that
   buys, and where it is used:

   - 64-bit words.  Guest addresses, counters and the clocks are 64-bit
     in the IR the tools generate (Ity_I64, Iop_Add64, Iop_CmpNE64:
     callprof/cp_bb.c, heapsnap/hs_fast.c, include/ir_counter.h), and
     heapsnap's block table packs a size and a flag into one word
     (heapsnap/hs_blocktab.h).
   - Little-endian memory: every load and store the tools generate is
     TP_END.
   - amd64's guest state: heapsnap's malloc calls from generated code
     (hs_fast.c) read a client request's arguments and write its result
     where the amd64 guest keeps them (TP_GUEST_*), and its unwind memo
     (hs_heap.c) keys on the frame pointer the core's unwinder starts
     from (TP_GUEST_FP).

   A port starts here: the #error below, then every use of these
   names. */

#ifndef TOOL_PLATFORM_H
#define TOOL_PLATFORM_H

#include "pub_tool_basics.h"
#include "libvex_ir.h"
#include "valgrind.h"

#if !defined(VGA_amd64) || !defined(VGO_linux)
#error "heapsnap and callprof are written for amd64-linux only"
#endif

STATIC_ASSERT(sizeof(Addr) == 8 && sizeof(UWord) == 8);

/* The slot of KEY in a direct-mapped cache of 2^BITS entries: the top
   BITS bits of a 64-bit multiplicative (Fibonacci) hash.  heapsnap's
   caches of frame facts and stacks (hs_heap.c), callprof's of locations,
   functions and arcs (cp_bb.c, cp_calls.c). */
static inline UWord tp_cache_slot(UWord key, UInt bits)
{
   return (key * 0x9E3779B97F4A7C15UL) >> (64 - bits);
}

/* The byte order of the loads and stores the tools generate. */
#define TP_END Iend_LE

/* The amd64 guest state, as heapsnap's fast calls read it. */
#include "libvex_guest_amd64.h"
typedef VexGuestAMD64State TP_GuestState;
#define TP_GUEST_IP       guest_RIP
#define TP_GUEST_REQ_ARGS guest_RAX   /* a client request's argument block */
#define TP_GUEST_REQ_RET  guest_RDX   /* and its result */
#define TP_GUEST_FP       guest_RBP


#endif /* TOOL_PLATFORM_H */
