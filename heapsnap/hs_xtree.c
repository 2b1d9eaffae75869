/* hs_xtree.c: --xtree-memory=allocs|full and --xtree-memory-file, as
   Massif writes them.

   Copyright (C) 2026 The heapsnap/callprof developers.
   SPDX-License-Identifier: GPL-2.0-or-later

   The core does the work (pub_tool_xtmemory.h): it keeps the call
   stacks and writes the file, xtmemory.kcg.%p by default, in
   Callgrind's format (KCachegrind, callgrind_annotate), or in Massif's
   when the name ends in ".ms".  The tool tells it about every heap block
   with the block's execution context:

   - allocs: at the end, every live block (bytes and blocks still
     allocated per stack);
   - full: also every allocation and free as it happens, so the file has
     the total allocated and freed bytes and blocks per stack as well.

   What Massif passes, we pass: the stack as unwound (at most --depth +
   50 frames), without its first frame for the malloc replacement's own
   functions (not for a custom allocator's client requests); a realloc
   is an allocation of the new size at the realloc's stack and a free of
   the old one; RESIZEINPLACE_BLOCK a free and an allocation; memory
   pools are not heap blocks for this, as for Massif.  Stacks are then
   cut below main by the core (unless --show-below-main=yes).

   Only with the option: blocks are looked up in a table of their own
   (address -> context and size), so the hot path of heapsnap's heap is
   untouched without it.  Without it, the monitor command xtmemory (as
   Massif's) reports the live blocks of the heap's own table, each at
   the stack of its site (after --alloc-fn, cut at --depth). */

#include "pub_tool_basics.h"
#include "pub_tool_execontext.h"
#include "pub_tool_hashtable.h"
#include "pub_tool_libcassert.h"
#include "pub_tool_mallocfree.h"
#include "pub_tool_options.h"
#include "pub_tool_stacktrace.h"
#include "pub_tool_threadstate.h"
#include "pub_tool_xtree.h"
#include "pub_tool_xtmemory.h"

#include "hs.h"

typedef struct XtBlock {
   struct XtBlock *next;        /* VgHashNode */
   UWord           key;         /* the block's address */
   ExeContext     *ec;
   SizeT           req;
} XtBlock;

static VgHashTable *xt_blocks;  /* NULL: --xtree-memory=none */

void HS_(xt_init)(void)
{
   if (VG_(clo_xtree_memory) == Vg_XTMemory_None)
      return;
   xt_blocks = VG_(HT_construct)("hs.xt.blocks");
   if (VG_(clo_xtree_memory) == Vg_XTMemory_Full)
      VG_(XTMemory_Full_init)(VG_(XT_filter_maybe_below_main));
}

/* The context of an allocation or free made now by TID. */
static ExeContext *here(ThreadId tid, Bool replaced)
{
   static Addr ips[HS_MAX_DEPTH + 50 + 1];
   Int n = VG_(get_StackTrace)(tid, ips, HS_(clo_depth) + 50, NULL, NULL, 0);
   if (!replaced)
      return VG_(make_ExeContext_from_StackTrace)(ips, n);
   if (n <= 1)
      return VG_(null_ExeContext)();
   return VG_(make_ExeContext_from_StackTrace)(ips + 1, n - 1);
}

void HS_(xt_alloc)(ThreadId tid, Addr p, SizeT req, Bool replaced)
{
   XtBlock *b;
   if (xt_blocks == NULL)
      return;
   b = VG_(malloc)("hs.xt.block", sizeof *b);
   b->key = p;
   b->req = req;
   b->ec = here(tid, replaced);
   if (VG_(clo_xtree_memory) == Vg_XTMemory_Full)
      VG_(XTMemory_Full_alloc)(req, b->ec);
   VG_(HT_add_node)(xt_blocks, b);
}

void HS_(xt_free)(ThreadId tid, Addr p, Bool replaced)
{
   XtBlock *b;
   if (xt_blocks == NULL)
      return;
   b = VG_(HT_remove)(xt_blocks, p);
   if (b == NULL)
      return;
   if (VG_(clo_xtree_memory) == Vg_XTMemory_Full)
      VG_(XTMemory_Full_free)(b->req, b->ec, here(tid, replaced));
   VG_(free)(b);
}

/* Massif's order: the new block is counted before the old one goes. */
void HS_(xt_realloc)(ThreadId tid, Addr old, Addr p, SizeT new_req)
{
   XtBlock *b;
   if (xt_blocks == NULL)
      return;
   b = VG_(HT_remove)(xt_blocks, old);
   HS_(xt_alloc)(tid, p, new_req, True);
   if (b == NULL)
      return;
   if (VG_(clo_xtree_memory) == Vg_XTMemory_Full)
      VG_(XTMemory_Full_free)(b->req, b->ec, here(tid, True));
   VG_(free)(b);
}

static void next_block(XT_Allocs *xta, ExeContext **ec)
{
   XtBlock *b = VG_(HT_Next)(xt_blocks);
   if (b == NULL) {
      xta->nblocks = 0;
      return;
   }
   xta->nbytes = b->req;
   xta->nblocks = 1;
   *ec = b->ec;
}

/* Without the option, the monitor command's report (as Massif's) comes
   from the heap's own table: each live block at its site's stack. */
static UWord heap_cursor;

static void next_heap_block(XT_Allocs *xta, ExeContext **ec)
{
   SizeT req;
   HS_Site *site;
   if (!HS_(next_live_block)(&heap_cursor, &req, &site)) {
      xta->nblocks = 0;
      return;
   }
   xta->nbytes = req;
   xta->nblocks = 1;
   *ec = site ? VG_(make_ExeContext_from_StackTrace)(site->ips, site->n_ips)
              : VG_(null_ExeContext)();
}

void HS_(xt_report)(const HChar *file, Bool fini)
{
   if (xt_blocks == NULL) {
      if (fini)
         return;
      heap_cursor = 0;
      VG_(XTMemory_report)(file, False, next_heap_block,
                           VG_(XT_filter_maybe_below_main));
      return;
   }
   VG_(HT_ResetIter)(xt_blocks);
   VG_(XTMemory_report)(file, fini, next_block,
                        VG_(XT_filter_maybe_below_main));
}
