/* hs_stacks.c: --stacks=yes: the stack bytes of every thread, and each
   thread's high-water mark with the call stack there.

   Copyright (C) 2026 The heapsnap/callprof developers.
   SPDX-License-Identifier: GPL-2.0-or-later

   What is counted is Massif's: the core tells the tool of every move of
   a thread's stack pointer (new_mem_stack when it goes down, die_mem_stack
   when it comes back up, and the same for signal frames), and the stack
   bytes of a thread are the sum of those moves since it started: the
   bytes between where its stack pointer was when it first ran and where
   it is now.  The total of all threads is HS_(stacks_B), which every
   snapshot records as mem_stacks_B.  Massif keeps the bytes of a thread
   that has exited (the little left between its start and its stack
   pointer at exit); heapsnap drops them at the thread's exit, so
   mem_stacks_B is the stacks of the live threads.

   Speed.  A program moves its stack pointer on nearly every call and
   return, so these callbacks are the hottest code of the tool.  Three
   things keep them cheap:
   - the core's fast paths: for the usual sizes (4, 8, 12, 16, 32, 112,
     128, 144, 160 bytes) the core calls a callback of that size with one
     register argument, instead of its generic helper that then calls the
     tool's generic callback (what Massif registers);
   - the running thread's record is found through a pointer set when a
     thread starts running client code, not looked up per move;
   - the snapshot functions are called only when they would do something:
     the regular snapshot when its time has come (HS_(snap_due)(), a
     compare), the peak check before a move up only when the total is
     above the peak threshold (a compare with HS_(snap_peak_above)).
   So a move costs a few adds and two or three compares.

   High-water marks, beyond Massif.  Each thread's deepest stack bytes
   are exact, and so is the call stack there, for little cost: a move
   below the thread's mark only notes the new mark (pending); the call
   stack is unwound (VG_(get_StackTrace)) at the first move back up,
   while the stack pointer is still at the mark.  So a descent to a new
   mark costs one unwind, not one per call on the way down, and a thread
   that stays above its mark costs none.

   The unwind starts from the registers the core keeps in the thread's
   state in the middle of a translated block, where only the stack
   pointer is exact (VexRegUpdSpAtMemAccess, Massif's setting and
   heapsnap's).  The program counter there is wherever the block last
   left it, and the unwinder needs it to find the frame's layout (the
   call frame information of the instruction).  So with --stacks=yes
   heapsnap's instrumentation (HS_(stacks_instrument)) writes the
   program counter before every move of the stack pointer that may go
   up (the unwinding is done at those only): a store of a constant,
   next to the core's helper call there.  The top frame of a
   mark's stack is then the instruction that leaves the mark (the
   return, the pop, the add), at its line, and its callers are unwound
   from there: the same stack as with every register exact at every
   instruction (tests/heapsnap/stacks_exact).  Asking the core to keep
   the program counter and frame pointer exact at every memory access
   instead (as Memcheck does: VexRegUpdUnwindregsAtMemAccess) costs
   most loads and stores a store of their own, and made --stacks=yes 2
   to 6% slower (docs/benchmarks.md).  What that kept and this does
   not: the frame pointer.  A function that keeps its frame in %rbp (one
   with a variable-size or over-aligned frame) and leaves its deepest
   point in the same superblock as it set %rbp, with no branch between,
   can have %rbp stale at the move, and the callers above it wrong.

   The companion file.  HS_(stacks_write_peaks)() writes, beside the main
   file and named like it plus ".stacks", one detailed snapshot per thread
   that ran, in Massif's format: mem_heap_B is the thread's mark, the tree
   is its call stack at the mark, time is when the mark was reached.  The
   snapshots are in time order, so ms_print and massif-visualizer read it
   as any Massif file. */

#include "pub_tool_basics.h"
#include "pub_tool_debuginfo.h"
#include "pub_tool_libcassert.h"
#include "pub_tool_libcbase.h"
#include "pub_tool_libcprint.h"
#include "pub_tool_machine.h"
#include "pub_tool_mallocfree.h"
#include "pub_tool_options.h"
#include "pub_tool_stacktrace.h"
#include "pub_tool_threadstate.h"
#include "pub_tool_tooliface.h"
#include "pub_tool_xarray.h"

#include "hs.h"
#include "profwriter.h"

SizeT HS_(stacks_B) = 0;

#define INLINE inline __attribute__((always_inline))

typedef struct {
   ThreadId tid;
   SSizeT depth;        /* stack bytes now (may dip below 0 at start) */
   SSizeT mark;         /* the deepest depth so far */
   Bool   pending;      /* a new mark, not captured yet */
   ULong  mark_time;    /* when the captured stack was taken */
   Bool   ran;          /* has run client code */
   UInt   n_ips;
   Addr  *ips;          /* --depth frames, allocated at the first capture */
} ThreadStack;

static ThreadStack *threads;     /* [VG_N_THREADS], the live ones */
static ThreadStack *running;     /* the thread running client code */
static ThreadId     running_tid;
static XArray      *exited;      /* of ThreadStack: the marks of threads
                                    that have exited */

/*------------------------------------------------------------*/
/*--- The mark                                             ---*/
/*------------------------------------------------------------*/

static void __attribute__((noinline)) capture(ThreadStack *t, ThreadId tid)
{
   static Addr ips[HS_MAX_DEPTH];
   Int n, i;

   t->pending = False;
   t->mark_time = HS_(now)();
   n = VG_(get_StackTrace)(tid, ips, HS_(clo_depth), NULL, NULL, 0);
   /* Nothing below main, as in the heap trees. */
   if (!VG_(clo_show_below_main)) {
      DiEpoch ep = VG_(current_DiEpoch)();
      for (i = 0; i < n; i++) {
         Vg_FnNameKind k = VG_(get_fnname_kind_from_IP)(ep, ips[i]);
         if (k == Vg_FnNameMain || k == Vg_FnNameBelowMain) {
            n = i + 1;
            break;
         }
      }
   }
   if (t->ips == NULL)
      t->ips = VG_(malloc)("hs.stacks.ips", HS_MAX_DEPTH * sizeof(Addr));
   VG_(memcpy)(t->ips, ips, n * sizeof(Addr));
   t->n_ips = n;
}


/*------------------------------------------------------------*/
/*--- Moves of the stack pointer                           ---*/
/*------------------------------------------------------------*/

static INLINE void grow_by(ThreadStack *t, ThreadId tid, SizeT len)
{
   if (UNLIKELY(t == NULL))
      return;                          /* before the client runs */
   t->depth += len;
   HS_(stacks_B) += len;
   HS_(churn_B) += len;
   if (UNLIKELY(t->depth > t->mark)) {
      t->mark = t->depth;
      t->pending = True;
   }
   if (UNLIKELY(HS_(snap_due)()))
      HS_(snap_maybe)();
}

static INLINE void shrink_by(ThreadStack *t, ThreadId tid, SizeT len)
{
   if (UNLIKELY(t == NULL))
      return;
   if (UNLIKELY(t->pending))
      capture(t, tid);                 /* leaving the mark: exact */
   if (UNLIKELY(HS_(heap_B) + HS_(extra_B) + HS_(stacks_B)
                > HS_(snap_peak_above)))
      HS_(snap_peak_check)();
   t->depth -= len;
   HS_(stacks_B) -= len;
   HS_(churn_B) += len;
   if (UNLIKELY(HS_(snap_due)()))
      HS_(snap_maybe)();
}

#define SIZED(n) \
   static VG_REGPARM(1) void new_stack_##n(Addr new_SP) \
   { grow_by(running, running_tid, n); } \
   static VG_REGPARM(1) void die_stack_##n(Addr new_SP) \
   { shrink_by(running, running_tid, n); }
SIZED(4) SIZED(8) SIZED(12) SIZED(16) SIZED(32)
SIZED(112) SIZED(128) SIZED(144) SIZED(160)
#undef SIZED

static void new_stack(Addr a, SizeT len)
{
   grow_by(running, running_tid, len);
}

static void die_stack(Addr a, SizeT len)
{
   shrink_by(running, running_tid, len);
}

/* A signal frame is pushed for thread TID, which may not be the one
   that ran last. */
static void new_stack_signal(Addr a, SizeT len, ThreadId tid)
{
   grow_by(running ? &threads[tid] : NULL, tid, len);
}

static void die_stack_signal(Addr a, SizeT len)
{
   ThreadId tid = VG_(get_running_tid)();
   shrink_by(running ? &threads[tid] : NULL, tid, len);
}

/* The program counter written before each write of the stack pointer
   that may move it up (see the top of the file): the mark's call stack
   is unwound only at a move up (shrink_by), so a move down (a push, a
   call, a frame made) needs none.  A write is known to move it down (or
   not at all) when its value is the stack pointer as read in the
   superblock plus or minus constants, at or below the value last
   written (IR as VEX flattens it: t1 = GET(SP), t2 = Sub64(t1, 8),
   PUT(SP) = t2); anything else gets the store.  The
   core's stack-pointer pass runs after this and puts its helper call
   just before the write, so the helper sees the counter of the
   instruction that moves the pointer.  VEX's removal of redundant
   writes runs before the tools, so these stay. */
#define SP_UNKNOWN 0xffffffffu
typedef struct {
   UInt epoch;       /* SP_UNKNOWN: not the stack pointer plus a constant */
   Long off;         /* from the stack pointer at the epoch's start */
} SpOff;

static SpOff sp_off_of(const SpOff *offs, const IRExpr *e)
{
   SpOff none = { SP_UNKNOWN, 0 };
   return e->tag == Iex_RdTmp ? offs[e->Iex.RdTmp.tmp] : none;
}

IRSB *HS_(stacks_instrument)(IRSB *in, const VexGuestLayout *layout)
{
   IRSB *out = deepCopyIRSBExceptStmts(in);
   SpOff *offs = VG_(malloc)("hs.stacks.offs",
                             (in->tyenv->types_used + 1) * sizeof *offs);
   UInt epoch = 0;          /* the stack pointer's value as last written */
   Bool known = True;       /* ... is the epoch's start plus OFF */
   Long off = 0;
   Addr ip = 0;
   Int i;
   for (i = 0; i < in->tyenv->types_used; i++)
      offs[i].epoch = SP_UNKNOWN;
   for (i = 0; i < in->stmts_used; i++) {
      IRStmt *st = in->stmts[i];
      if (st->tag == Ist_IMark)
         ip = st->Ist.IMark.addr + st->Ist.IMark.delta;
      else if (st->tag == Ist_WrTmp) {
         IRExpr *e = st->Ist.WrTmp.data;
         SpOff *t = &offs[st->Ist.WrTmp.tmp];
         if (e->tag == Iex_Get && e->Iex.Get.offset == layout->offset_SP
             && e->Iex.Get.ty == Ity_I64) {
            if (!known) {
               epoch++;
               off = 0;
               known = True;
            }
            t->epoch = epoch;
            t->off = off;
         } else if (e->tag == Iex_Binop
                    && (e->Iex.Binop.op == Iop_Add64
                        || e->Iex.Binop.op == Iop_Sub64)
                    && e->Iex.Binop.arg2->tag == Iex_Const
                    && e->Iex.Binop.arg2->Iex.Const.con->tag == Ico_U64) {
            SpOff a = sp_off_of(offs, e->Iex.Binop.arg1);
            Long c = (Long)e->Iex.Binop.arg2->Iex.Const.con->Ico.U64;
            if (a.epoch != SP_UNKNOWN) {
               t->epoch = a.epoch;
               t->off = e->Iex.Binop.op == Iop_Add64 ? a.off + c : a.off - c;
            }
         }
      } else if (st->tag == Ist_Dirty && st->Ist.Dirty.details->nFxState > 0) {
         known = False;           /* a helper that may write the pointer */
      } else if (st->tag == Ist_Put && st->Ist.Put.offset == layout->offset_SP) {
         SpOff v = sp_off_of(offs, st->Ist.Put.data);
         Bool down = known && v.epoch == epoch && v.off <= off;
         if (!down && ip != 0)
            addStmtToIRSB(out, IRStmt_Put(layout->offset_IP,
                                          mkIRExpr_HWord(ip)));
         known = v.epoch == epoch;     /* the written value's offset */
         off = v.off;
      }
      addStmtToIRSB(out, st);
   }
   VG_(free)(offs);
   return out;
}

/*------------------------------------------------------------*/
/*--- Threads                                              ---*/
/*------------------------------------------------------------*/

void HS_(stacks_start_client_code)(ThreadId tid)
{
   running_tid = tid;
   running = &threads[tid];
   if (!running->ran) {
      running->ran = True;
      running->tid = tid;
      if (HS_(clo_pages_as_heap))
         HS_(pages_stack_started)(tid);
   }
}

/* A thread that exits takes its stack bytes with it (see above).  Its
   mark stays in its record until a new thread gets its id: the main
   thread runs again after its exit, for the core's freeres calls. */
static void thread_exit(ThreadId tid)
{
   ThreadStack *t = &threads[tid];
   if (t->depth > 0)
      shrink_by(t, tid, t->depth);
   else
      HS_(stacks_B) -= t->depth;     /* below 0: the total comes back up */
   t->depth = 0;
}

static void thread_create(ThreadId parent, ThreadId child)
{
   ThreadStack *t = &threads[child];
   if (t->ran && t->n_ips > 0)
      VG_(addToXA)(exited, t);
   VG_(memset)(t, 0, sizeof *t);
}

void HS_(stacks_post_clo_init)(void)
{
   if (!HS_(clo_stacks))
      return;
   threads = VG_(calloc)("hs.stacks.threads", VG_N_THREADS,
                         sizeof(ThreadStack));
   exited = VG_(newXA)(VG_(malloc), "hs.stacks.exited", VG_(free),
                       sizeof(ThreadStack));
   /* Until the client runs, running is NULL: the core moves the stack
      pointer while it sets the client up, and those moves are not the
      client's (Massif ignores them too). */

   VG_(track_new_mem_stack_4)  (new_stack_4);
   VG_(track_new_mem_stack_8)  (new_stack_8);
   VG_(track_new_mem_stack_12) (new_stack_12);
   VG_(track_new_mem_stack_16) (new_stack_16);
   VG_(track_new_mem_stack_32) (new_stack_32);
   VG_(track_new_mem_stack_112)(new_stack_112);
   VG_(track_new_mem_stack_128)(new_stack_128);
   VG_(track_new_mem_stack_144)(new_stack_144);
   VG_(track_new_mem_stack_160)(new_stack_160);
   VG_(track_new_mem_stack)    (new_stack);
   VG_(track_die_mem_stack_4)  (die_stack_4);
   VG_(track_die_mem_stack_8)  (die_stack_8);
   VG_(track_die_mem_stack_12) (die_stack_12);
   VG_(track_die_mem_stack_16) (die_stack_16);
   VG_(track_die_mem_stack_32) (die_stack_32);
   VG_(track_die_mem_stack_112)(die_stack_112);
   VG_(track_die_mem_stack_128)(die_stack_128);
   VG_(track_die_mem_stack_144)(die_stack_144);
   VG_(track_die_mem_stack_160)(die_stack_160);
   VG_(track_die_mem_stack)    (die_stack);
   VG_(track_new_mem_stack_signal)(new_stack_signal);
   VG_(track_die_mem_stack_signal)(die_stack_signal);
   VG_(track_pre_thread_ll_exit)(thread_exit);
   VG_(track_pre_thread_ll_create)(thread_create);
}

/*------------------------------------------------------------*/
/*--- The companion file                                   ---*/
/*------------------------------------------------------------*/

/* The file, in Massif's format:

      desc: --stacks=yes ... (stack high-water marks, one per thread)
      cmd: ./prog args
      time_unit: i
      #-----------
      snapshot=0                       one per thread, in time order
      #-----------
      time=123456                      when its mark was reached
      mem_heap_B=40960                 the thread's mark
      mem_heap_extra_B=0
      mem_stacks_B=0
      heap_tree=detailed               "peak" for the deepest thread
      n1: 40960 (stack high-water mark of thread 1) its call stack there
       n1: 40960 0x...: recurse (stackdeep.c:33)
        ...
*/
static Int by_time(const void *a, const void *b)
{
   const ThreadStack *x = a, *y = b;
   return x->mark_time < y->mark_time ? -1 : x->mark_time > y->mark_time;
}

void HS_(stacks_write_peaks)(const HChar *main_path)
{
   HChar tmpl[4096], path[4096], desc[4096], cmd[4096], label[100];
   XArray *all;
   PW_File *f;
   PW_Sink *out;
   Word i, n, deepest = 0, used = 0;

   if (threads == NULL)
      return;
   all = VG_(cloneXA)("hs.stacks.all", exited);
   for (i = 1; i < VG_N_THREADS; i++)
      if (threads[i].ran && threads[i].n_ips > 0)
         VG_(addToXA)(all, &threads[i]);
   VG_(setCmpFnXA)(all, by_time);
   VG_(sortXA)(all);
   n = VG_(sizeXA)(all);
   for (i = 0; i < n; i++)
      if (((ThreadStack *)VG_(indexXA)(all, i))->mark
          > ((ThreadStack *)VG_(indexXA)(all, deepest))->mark)
         deepest = i;

   VG_(snprintf)(tmpl, sizeof tmpl, "%s.stacks", main_path);
   f = pw_vg_open_output(tmpl, "heapsnap", PW_MODE_MASSIF, path,
                         sizeof path);
   if (f == NULL) {
      VG_(deleteXA)(all);
      return;
   }
   out = pw_file_sink(f);
   desc[0] = '\0';
   for (i = 0; i < VG_(sizeXA)(HS_(given_args)) && used < sizeof desc; i++)
      used += VG_(snprintf)(desc + used, sizeof desc - used, "%s%s",
                            i ? " " : "",
                            *(const HChar **)VG_(indexXA)(HS_(given_args),
                                                          i));
   if (used < sizeof desc)
      VG_(snprintf)(desc + used, sizeof desc - used,
                    " (stack high-water marks, one per thread)");
   pw_vg_client_cmd(cmd, sizeof cmd);
   pw_ms_header(out, desc, cmd,
                HS_(clo_time_unit) == HS_TimeI  ? "i"
                : HS_(clo_time_unit) == HS_TimeMS ? "ms" : "B");
   for (i = 0; i < n; i++) {
      ThreadStack *t = VG_(indexXA)(all, i);
      PW_MsStack stack;
      stack.ips = t->ips;
      stack.n_ips = t->n_ips;
      stack.bytes = t->mark;
      VG_(snprintf)(label, sizeof label,
                    "(stack high-water mark of thread %u) its call stack "
                    "there", t->tid);
      pw_ms_snapshot(out, i, t->mark_time, t->mark, 0, 0,
                     i == deepest ? "peak" : "detailed");
      pw_ms_tree(out, &stack, 1, t->mark, 0, 0, HS_(clo_threshold), label,
                 pw_vg_describe_ip, NULL);
   }
   VG_(deleteXA)(all);
   if (pw_file_commit(f) == 0 && VG_(clo_verbosity) > 0)
      VG_(umsg)("heapsnap: stack high-water marks written to %s\n", path);
}
