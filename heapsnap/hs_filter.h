/* hs_filter.h: which frames of an allocation's stack make its site:
   Massif's filter, in plain C.

   Copyright (C) 2026 The heapsnap/callprof developers.
   SPDX-License-Identifier: GPL-2.0-or-later

   A site is a run of the unwound stack (innermost frame first).  Massif
   3.19's rules (ms_main.c, filter_IPs; m_xtree.c for main):

   - Allocation functions at the top (malloc, operator new ..., and
     every --alloc-fn) are left out; the site starts below them.
   - With --ignore-fn, the top frame left decides, or if it has no name
     the first frame below it with one: when that is an ignored function
     the whole allocation is ignored (a site of no frames).
   - Unless --show-below-main=yes, the frames below main (or below the
     outermost "below main" function, __libc_start_main and the like,
     when there is no main) are cut off; a stack whose top frame left is
     below that still keeps one frame.
   - At most --depth frames are kept.

   What a frame is (named, an allocation function, ignored, main or
   below main) is asked through a callback, since looking names up is
   the costly part and most frames are never asked about.  The header
   includes nothing, so the same code is compiled into the tool
   (hs_heap.c) and on the host (tests/unit/test_filter). */

#ifndef HS_FILTER_H
#define HS_FILTER_H

enum { HS_FN_NORMAL, HS_FN_MAIN, HS_FN_BELOW_MAIN };

typedef struct {
   unsigned char has_name, is_alloc_fn, is_ignore_fn;
   unsigned char kind;                    /* HS_FN_* */
} HS_FrameFacts;

typedef const HS_FrameFacts *(*HS_FactsOf)(void *cl, int frame);

typedef struct {
   int depth;              /* --depth */
   int show_below_main;    /* --show-below-main=yes */
   int any_ignore_fns;     /* an --ignore-fn was given */
} HS_FilterOpts;

/* Massif's search for main or below main over frames [0, N): the index
   of the frame to stop at, or N - 1 when there is none.  *DEEPEST_MAIN
   (kept by the caller between calls, 0 at first) is how far from the
   bottom main has been seen: the search starts there. */
static inline int hs_main_frame(int n, HS_FactsOf facts, void *cl,
                                int *deepest_main)
{
   int kind = HS_FN_NORMAL, i, mbm = n - 1;

   for (i = n - 1 - *deepest_main; i < n; i++) {
      if (i < 0)
         continue;
      kind = facts(cl, i)->kind;
      if (kind != HS_FN_NORMAL) {
         mbm = i;
         break;
      }
   }
   for (i = mbm - 1; i >= 0 && kind != HS_FN_MAIN; i--) {
      int k = facts(cl, i)->kind;
      if (k != HS_FN_NORMAL) {
         mbm = i;
         kind = k;
      }
   }
   if (kind == HS_FN_MAIN || kind == HS_FN_BELOW_MAIN) {
      if (kind == HS_FN_MAIN && n - 1 - mbm > *deepest_main)
         *deepest_main = n - 1 - mbm;
      return mbm;
   }
   return n - 1;
}

/* The allocation functions at the top of a stack of N frames: how many
   (the site starts below them). */
static inline int hs_alloc_frames(int n, HS_FactsOf facts, void *cl)
{
   int top = 0;
   while (top < n && facts(cl, top)->is_alloc_fn)
      top++;
   return top;
}

/* The frame whose name --ignore-fn is matched against: the first named
   one from TOP on; N if none of the N is named. */
static inline int hs_ignore_frame(int n, int top, HS_FactsOf facts, void *cl)
{
   int i;
   for (i = top; i < n && !facts(cl, i)->has_name; i++)
      ;
   return i;
}

/* The site of a stack of N frames: its frames are [*TOP, *TOP + the
   result); 0 frames: ignored. */
static inline int hs_filter_frames(int n, const HS_FilterOpts *o,
                                   HS_FactsOf facts, void *cl,
                                   int *deepest_main, int *top_out)
{
   int top = hs_alloc_frames(n, facts, cl), sel = n - top;

   if (sel > 0 && o->any_ignore_fns) {
      int i = hs_ignore_frame(n, top, facts, cl);
      if (i < n && facts(cl, i)->is_ignore_fn)
         sel = 0;
   }
   if (sel > 0 && !o->show_below_main) {
      int mbm = hs_main_frame(n, facts, cl, deepest_main);
      sel = mbm < top ? 1 : mbm + 1 - top;
   }
   if (sel > o->depth)
      sel = o->depth;
   *top_out = top;
   return sel;
}

#endif /* HS_FILTER_H */
