/* hs.h: what heapsnap's files share.

   Copyright (C) 2026 The heapsnap/callprof developers.
   SPDX-License-Identifier: GPL-2.0-or-later

   heapsnap is split by job:
     hs_main.c    options, the clock's units, client requests and
                  gdbserver monitor commands, start and exit;
     hs_fast.c    the instrumentation (the instruction clock, malloc
                  calls made from generated code) and heapsnap's speed
                  tricks, each measured and each switched off by
                  --fast-paths=no;
     hs_heap.c    allocation sites and heap blocks: the malloc-replacement
                  callbacks, custom allocators and memory pools, and the
                  unwind memo (one more speed trick of --fast-paths);
     hs_snap.c    snapshots: taking them, keeping them, and writing them
                  in Massif's format;
     hs_blocktab.h, hs_filter.h, hs_series.h
                  the rules that decide the numbers, in plain C built on
                  the host too for their unit tests: the table of live
                  blocks, the frames of a site, and which snapshots are
                  taken and kept (culling, the peak);
     hs_stacks.c  --stacks=yes: stack bytes of every thread, and each
                  thread's high-water mark with its call stack;
     hs_sppass.c  --stacks=yes: where generated code reports the moves of
                  the stack pointer;
     hs_pages.c   --pages-as-heap=yes: mmap, mremap and brk at page level;
     hs_xtree.c   --xtree-memory: the allocation tree files, as Massif
                  writes them;
     hs_corealign.c
                  no code of heapsnap's: where the core's code starts in
                  the executable, pinned for steady speed.

   Every name shared between these files is HS_(name), which expands to
   vgHeapsnap_name: all tool objects are linked into one executable with
   the Valgrind core, so shared names need a prefix of their own. */

#ifndef HS_H
#define HS_H

#include "pub_tool_basics.h"
#include "pub_tool_tooliface.h"
#include "pub_tool_xarray.h"
#include "tool_platform.h"

#define HS_(str) VGAPPEND(vgHeapsnap_, str)

/*------------------------------------------------------------*/
/*--- Options (hs_main.c)                                  ---*/
/*------------------------------------------------------------*/

#define HS_MAX_DEPTH        200
#define HS_MAX_ALLOC_FRAMES 50   /* alloc-fn frames above a site, at most */

typedef enum { HS_TimeI, HS_TimeMS, HS_TimeB } HS_TimeUnit;

extern Bool        HS_(clo_heap);
extern SizeT       HS_(clo_heap_admin);
extern Bool        HS_(clo_stacks);
extern Bool        HS_(clo_pages_as_heap);
extern Int         HS_(clo_depth);
extern double      HS_(clo_threshold);
extern double      HS_(clo_peak_inaccuracy);
extern HS_TimeUnit HS_(clo_time_unit);
extern Int         HS_(clo_detailed_freq);
extern Int         HS_(clo_max_snapshots);
extern UInt        HS_(clo_dump_every);     /* seconds; 0: never */
extern const HChar *HS_(clo_out_file);
extern XArray     *HS_(clo_alloc_fns);     /* of const HChar* */
extern XArray     *HS_(clo_ignore_fns);    /* of const HChar* */
extern XArray     *HS_(given_args);        /* the tool options, for desc: */
extern Bool        HS_(clo_fast_paths);     /* hs_fast.c's tricks */
extern Bool        HS_(clo_memo_check);     /* hs_heap.c, for tests */
/* The value given to a core option, the last time: PREFIX with its '='
   ("--max-stackframe="); NULL if not given. */
const HChar *HS_(core_arg)(const HChar *prefix);

/*------------------------------------------------------------*/
/*--- The clock (hs_main.c) and the instrumentation (hs_fast.c) ---*/
/*------------------------------------------------------------*/

/* --time-unit=i: exact whenever heapsnap runs outside generated code
   and in its malloc calls from it (hs_fast.c, "The clock"). */
extern ULong HS_(guest_instrs_executed);
extern ULong HS_(churn_B);                 /* --time-unit=B: bytes
                                              allocated + freed */
/* Now, in the chosen time unit. */
ULong HS_(now)(void);
/* The instruction clock's parts (hs_fast.c, "The clock").  SPLIT
   (--fast-paths=yes, --time-unit=i): the clock is counted + on_entry +
   the running thread's count, in its shadow state 1 at HS_COUNT_SLOT,
   and HS_(guest_instrs_executed) is made from them where heapsnap reads
   it.  Else HS_(guest_instrs_executed) is the clock. */
typedef struct {
   Bool  split;
   ULong counted;        /* the threads' counts, taken at each stop */
   ULong on_entry;       /* superblocks with an early exit (CLOCK_SLOT) */
} HS_Clock;
extern HS_Clock HS_(clock);
#define HS_COUNT_SLOT 8          /* offset in shadow state 1 */
/* The running thread's count, given its guest state GS: shadow state 1
   follows the guest state (asserted in hs_fast.c's clock_on_entry). */
static inline const ULong *HS_(count_slot)(const void *gs)
{
   return (const ULong *)((const UChar *)gs + sizeof(TP_GuestState)
                          + HS_COUNT_SLOT);
}
/* SPLIT: the clock, given the running thread's count SLOT. */
static inline ULong HS_(clock_with)(ULong slot)
{
   return HS_(clock).counted + HS_(clock).on_entry + slot;
}
IRSB *HS_(instrument)(VgCallbackClosure *closure, IRSB *in,
                      const VexGuestLayout *layout,
                      const VexGuestExtents *vge,
                      const VexArchInfo *archinfo_host,
                      IRType gWordTy, IRType hWordTy);
IRSB *HS_(final_tidy)(IRSB *sb);       /* hs_fast.c: include/ir_chain.h */
/* hs_fast.c's settings, as the last allocation of post_clo_init. */
void HS_(fast_post_clo_init)(void);
/* A thread is given the CPU: what generated code reads of its state. */
void HS_(fast_start_client_code)(ThreadId tid);
/* It stops running client code: its count goes into the clock. */
void HS_(fast_stop_client_code)(ThreadId tid, ULong blocks_done);
/* A signal frame is pushed for it (--stacks=yes): the clock made exact. */
void HS_(fast_clock_at_signal)(ThreadId tid);
/* Its signal handler returned, the frame's copy of its state put back. */
void HS_(fast_signal_return)(ThreadId tid, Int sig);

/*------------------------------------------------------------*/
/*--- Sites and the heap (hs_heap.c)                       ---*/
/*------------------------------------------------------------*/

/* An allocation site: the stack at the allocation, without allocation
   functions at the top and without what is below main, at most
   --depth frames.  Interned: one Site per distinct stack.  n_ips == 0
   means "ignored" (--ignore-fn, or nothing left after filtering): such
   blocks are not counted. */
typedef struct HS_Site {
   struct HS_Site *next;      /* VgHashNode */
   UWord           key;       /* hash of the ips */
   SizeT           live;      /* bytes counted here now */
   UInt            id;        /* 0, 1, ... in the order sites were first
                                 counted; HS_NO_ID before.  A counted
                                 site is in every tree from then on, as
                                 an allocation context is in Massif's */
   UInt            n_ips;
   Addr            ips[0];
} HS_Site;

/* Current totals, in bytes: requested sizes of counted live blocks (or
   pages, with --pages-as-heap=yes), and their admin + slop bytes. */
extern SizeT HS_(heap_B);
extern SizeT HS_(extra_B);

void     HS_(heap_pre_clo_init)(void);  /* registers malloc replacement */
void     HS_(heap_post_clo_init)(void);
void     HS_(heap_fini)(void);          /* at exit: frees the live blocks */
/* Is F one of the malloc-replacement callbacks (hs_main.c calls them
   from generated code)? */
Bool     HS_(is_malloc_callback)(UWord f);
/* The site of what thread TID is allocating now.  SKIP_TOP: frames
   known to be the allocator itself (1 inside a malloc replacement
   callback, 0 for client requests and system calls). */
HS_Site *HS_(site_here)(ThreadId tid, UInt skip_top);
/* --stats=yes: how often the unwind memo gave the site (hs_heap.c). */
void     HS_(memo_stats)(void);
void     HS_(fast_stats)(void);        /* hs_fast.c, --stats=yes */
#define HS_NO_ID 0xFFFFFFFFu
/* The sites where bytes were ever counted are numbered 0 .. N-1 (Massif's
   trees count a context that holds 0 bytes now among the "places"). */
UInt     HS_(n_counted_sites)(void);
HS_Site *HS_(site_by_id)(UInt id);
Bool     HS_(handle_heap_request)(ThreadId tid, UWord *args, UWord *ret);

/* Change the totals for SITE by (DHEAP, DEXTRA) inside the snapshot
   logic as Massif does: first a peak check if GOING_DOWN (a free, a
   shrinking realloc, an unmap), then the change, then the chance of a
   regular snapshot.  Every module that counts bytes goes through it. */
void     HS_(count)(HS_Site *site, SSizeT dheap, SSizeT dextra,
                    Bool going_down);

/*------------------------------------------------------------*/
/*--- Stacks (hs_stacks.c)                                 ---*/
/*------------------------------------------------------------*/

extern SizeT HS_(stacks_B);            /* all threads, now */
void HS_(stacks_post_clo_init)(void);
/* The moves of the stack pointer, as heapsnap's pass reports them from
   generated code (hs_sppass.c): TOTAL bytes down (grow) or up (shrink),
   a group of moves reported at its first; with a move the core would
   check for a switch of stacks among them, described by PLAN; or a move
   from OLD_SP to NEW_SP.  SP is the stack pointer before the group.  GS
   is the thread's guest state, and BEHIND how far heapsnap's clock is
   ahead of Massif's there (hs_fast.c, "The clock"). */
VG_REGPARM(3) void HS_(sp_grow)(const void *gs, UWord total, UWord behind);
VG_REGPARM(3) void HS_(sp_shrink)(const void *gs, UWord total, UWord behind);
VG_REGPARM(3) void HS_(sp_grow_checked)(const void *gs, Addr sp, UWord total,
                                        UWord plan, UWord behind);
VG_REGPARM(3) void HS_(sp_shrink_checked)(const void *gs, Addr sp,
                                          UWord total, UWord plan,
                                          UWord behind);
VG_REGPARM(3) void HS_(sp_unknown)(const void *gs, Addr old_SP, Addr new_SP,
                                   UWord behind);
/* A PLAN: the checked move's bytes, and the group's bytes before it. */
#define HS_SP_CHECKED           (1ULL << 63)
#define HS_SP_PLAN(after, len)  (HS_SP_CHECKED | (ULong)(after) << 32 | (len))
#define HS_SP_CHECKED_LEN(plan)   ((plan) & 0xffffffffULL)
#define HS_SP_CHECKED_AFTER(plan) (((plan) >> 32) & 0x7fffffffULL)
/* --max-stackframe (a core option): a checked move of more bytes is a
   switch of stacks. */
extern Word HS_(sp_max_frame);

/*------------------------------------------------------------*/
/*--- The stack-pointer pass (hs_sppass.c)                 ---*/
/*------------------------------------------------------------*/

/* With --stacks=yes: the instrumentation's first pass, which reports the
   moves of the stack pointer (and writes the program counter where a
   mark may be unwound). */
IRSB *HS_(sp_pass)(IRSB *in, const VexGuestLayout *layout);
/* With --stacks=yes: thread TID is about to run client code. */
void HS_(stacks_start_client_code)(ThreadId tid);
/* Writes the companion file: each thread's high-water mark and the
   call stack there, one detailed snapshot per thread. */
void HS_(stacks_write_peaks)(const HChar *main_path);

/*------------------------------------------------------------*/
/*--- Pages (hs_pages.c)                                   ---*/
/*------------------------------------------------------------*/

void HS_(pages_post_clo_init)(void);
/* With --stacks=yes too: thread TID starts running; its stack's pages
   are counted as stack from now on, no longer as pages. */
void HS_(pages_stack_started)(ThreadId tid);

/*------------------------------------------------------------*/
/*--- Snapshots (hs_snap.c)                                ---*/
/*------------------------------------------------------------*/

void HS_(snap_init)(void);
/* A regular snapshot, if enough time has passed since the last one. */
void HS_(snap_maybe)(void);
/* For callers too hot to call the two functions on every change (stack
   pointer moves, in hs_stacks.c): the earliest time of the next regular
   snapshot, and the total (heap + extra + stacks) above which a peak
   check takes a peak snapshot.  HS_(snap_due)() is True when
   HS_(snap_maybe)() would take one now. */
extern ULong HS_(snap_next_time);
extern SizeT HS_(snap_peak_above);
static inline Bool HS_(snap_due)(void)
{
   return (HS_(clo_time_unit) == HS_TimeI ? HS_(guest_instrs_executed)
                                          : HS_(now)())
          >= HS_(snap_next_time);
}
/* Called just before the total goes down: if the total now is a new
   peak (beyond --peak-inaccuracy), take a detailed peak snapshot. */
void HS_(snap_peak_check)(void);
/* Write the snapshots taken so far (ALL) or one taken now (detailed or
   not) to the file named by template TMPL; False if it failed (the
   reason was printed). */
typedef enum { HS_WriteAll, HS_WriteNow, HS_WriteNowDetailed } HS_WriteWhat;
Bool HS_(snap_write)(const HChar *tmpl, HS_WriteWhat what);

/*------------------------------------------------------------*/
/*--- --xtree-memory (hs_xtree.c)                          ---*/
/*------------------------------------------------------------*/

/* Each does nothing with --xtree-memory=none.  REPLACED: the block comes
   through the malloc replacement (whose own frame is left out), not a
   custom allocator's client request. */
void HS_(xt_init)(void);
void HS_(xt_alloc)(ThreadId tid, Addr p, SizeT req, Bool replaced);
void HS_(xt_free)(ThreadId tid, Addr p, Bool replaced);
void HS_(xt_realloc)(ThreadId tid, Addr old, Addr p, SizeT new_req);
/* Write the file (FILE: a template, NULL for --xtree-memory-file). */
void HS_(xt_report)(const HChar *file, Bool fini);
/* Every live heap block (not memory-pool chunks) in turn: its requested
   size and site; *CURSOR 0 to start; False after the last one.  No
   block may come or go during the walk. */
Bool HS_(next_live_block)(UWord *cursor, SizeT *req, HS_Site **site);

/* hs_corealign.c's bytes, which the link puts just before the core's
   code, and their end, where the core's code starts (hs_main.c reads
   them for --stats=yes). */
extern const char HS_(corealign)[], HS_(corealign_end)[];

#endif /* HS_H */
