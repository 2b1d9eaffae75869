/* hs_fast.c: heapsnap's instrumentation, and what makes it fast.

   Copyright (C) 2026 The heapsnap/callprof developers.
   SPDX-License-Identifier: GPL-2.0-or-later

   What generated code does for heapsnap: it keeps the instruction clock
   (--time-unit=i, the default), and the malloc replacement's client
   requests reach hs_heap.c's callbacks; with --stacks=yes, first of
   all, the program counter is written where the stack pointer moves
   (hs_sppass.c, HS_(sp_pass)), for the marks' unwinding.
   Massif does the first two the plain way, and so does heapsnap with
   --fast-paths=no:

     - the clock: before each exit of a superblock and at its end, an
       add of the instructions of the run since the previous one
       (clock_per_run: a load, an add and a store each);
     - every client request returns to the scheduler, which calls the
       callback and enters generated code again;
     - Valgrind's own translation settings.

   With --fast-paths=yes (the default) four tricks replace those.  Each
   changes only speed: tests/heapsnap/fast_paths_*.vgtest run programs
   both ways and require the same file, snapshot for snapshot and time
   for time (tests/same-profile).  (Single-threaded ones: Valgrind
   switches threads after a count of superblocks, which unrolling
   changes, so a threaded program interleaves differently.)  What each gained when it was added,
   on malloc-heavy (docs/benchmarks.md, "How heapsnap got from 1.0x to
   0.8x Massif"; all of them against --fast-paths=no: "heapsnap's fast
   paths" there), and what each assumes:

   1. The clock added once per superblock, on entry, in one of two
      places by its shape.  A superblock that can leave early (an exit
      before its last instruction, as each copy of an unrolled loop
      has) adds its whole count to a global, and an early exit taken
      sets it back with a guarded store, its guard rewritten
      (guard_swapped) so that VEX does not keep it in a register
      (clock_on_entry): 3.42 s -> 3.23 s, and the guard 2.87 s -> 2.75
      s.  Any other superblock adds its count to a slot of the running
      thread's shadow state, addressed off the guest state register
      (also clock_on_entry): C++ 0.96 of the time with the global
      everywhere, perl, sqlite3 and python3 0.99, xz 0.97 and 1.01 in
      two series, Rust 1.015 (docs/benchmarks.md, "heapsnap's clock in
      the thread's state", with the forms tried that were slower).
      Assumes nothing reads the clock from inside a superblock but
      --stacks=yes's reports of stack-pointer moves, which are told
      where in it they are ("The clock", below).
   2. Loops unrolled up to 8 times (iropt_unroll_thresh 260, where the
      core's default is 120): the clock is paid once per 8 turns of a
      tight loop: 3.15 s -> 2.87 s (with 400, the first setting).
      A user's --vex-iropt-unroll-thresh still wins (unroll_given).  It
      costs memory: the unrolled copies are translated too, and VEX's
      working memory for a translation grows with the largest
      superblock.  With 400, xz's largest was an unrolled loop, and its
      peak 150 KB above Massif's; with 260 VEX's working memory on xz is
      what it is with 120, and malloc-heavy runs at 0.80x of Massif,
      against 0.78x with 400 (docs/benchmarks.md, "heapsnap's unrolling
      and memory" and "heapsnap's unrolling at 260").
   3. Malloc calls from generated code (add_fast_call, below): the
      scheduler's round trip saved on every allocation and free:
      3.23 s -> 3.15 s.  Assumes amd64's guest state (include/
      tool_platform.h).
   4. Indirect exits chained to the target they had when their
      superblock was translated, compared with it first
      (include/ir_chain.h, shared with callprof): on perl 79 million
      exits through the dispatcher become 45 million.  Against the
      build before (paired, docs/benchmarks.md, "Indirect exits chained
      at translation"): C++ 0.973, Rust 0.976, sqlite3 0.979, perl
      1.000, python3 1.006, xz within its spread.  Threads then
      switch at other points (the core counts the superblocks entered
      through it or through a chained jump to a lower address only), as
      they do with trick 2.
   --fast-paths=no also turns off the unwind memo of hs_heap.c (the
   site of an allocation whose stack is unchanged, without unwinding;
   its comment there), so the same tests check it.
   Another trick, placing the main thread's guest state 16 bytes past a
   multiple of 32 bytes at a distance measured for Valgrind 3.19, was
   taken out: measured with and without it on perl, sqlite3, python3, xz
   and malloc-heavy, four layouts each, it gave nothing (ratios 0.95 to
   1.07, docs/benchmarks.md), and it could apply to one Valgrind build
   only. */

#include "pub_tool_basics.h"
#include "pub_tool_libcassert.h"
#include "pub_tool_libcbase.h"
#include "pub_tool_libcprint.h"
#include "pub_tool_machine.h"
#include "pub_tool_mallocfree.h"
#include "pub_tool_options.h"
#include "pub_tool_threadstate.h"
#include "pub_tool_tooliface.h"
#include "pub_tool_xarray.h"
#include "valgrind.h"

#include "hs.h"
#include "ir_chain.h"
#include "ir_counter.h"
#include "tool_platform.h"

Bool HS_(clo_fast_paths) = True;

/*------------------------------------------------------------*/
/*--- The clock                                            ---*/
/*------------------------------------------------------------*/

/* --time-unit=i counts guest instructions.  The count has to be exact
   only where the tool reads it: in the callbacks of client requests and
   system calls, at thread switches and at exit, all of which happen
   where a superblock is left.  Massif adds each run's count before
   every exit of a superblock, a load, an add and a store each time.
   heapsnap adds a superblock's whole count once, on entry, to one of
   two places.

   A superblock with no exit before its last instruction adds it to a
   slot of the running thread's shadow state (HS_COUNT_SLOT):

      t0 = GET:I64(slot)               at the first IMark
      PUT(slot) = t0 + n               n: the superblock's instructions

   The slot is addressed off the guest state register: a load, an add
   and a store, with no address to load first.  A superblock that can
   leave early adds its count to a global, on_entry, and an exit that
   leaves early sets it back with a guarded store, which costs a compare
   and a branch while the exit is not taken (both in clock_on_entry):

      t0 = LD:I64(&on_entry)           at the first IMark; the address
                                       from the thread's state
      ST(&on_entry) = t0 + n
      ...
      if (g') ST(&on_entry) = t0 + k   k: instructions up to exit 1;
                                       g': g written differently
                                       (guard_swapped)
      if (g) goto ...                  exit 1
      ...                              the end: nothing more to add

   (A guarded store needs an address, and generated code reaches the
   slot only through the guest state register.  Set back in the slot,
   an early exit would need a store before it whether taken or not, one
   per copy of an unrolled loop: malloc-heavy took 1.09 of the time.)

   The clock is then counted + on_entry + the running thread's slot,
   where counted holds the slots' counts so far: when a thread stops
   running client code (the core's stop_client_code: before every
   client request, system call and thread switch that goes through the
   scheduler, and at exit) its slot goes into counted and starts again
   from 0 (HS_(fast_stop_client_code)), and a malloc call from
   generated code adds the slot itself (fast_call).  So
   HS_(guest_instrs_executed) is exact wherever the tool reads it, and
   the rest of heapsnap reads only that.

   Helpers called from inside a superblock see neither the slot's count
   since the thread's last stop nor Massif's count at the point they are
   called from.  Only --stacks=yes has such helpers (the reports of
   stack-pointer moves, hs_sppass.c), and a report may take a snapshot,
   so it makes Massif's clock there itself (hs_stacks.c, clock_at):
   counted + on_entry + the slot, read through the guest state pointer
   it is given, less BEHIND, also given: the superblock's instructions
   after the last exit before the report, which the add on entry has
   counted and Massif's has not yet.  (Given the slot's value instead,
   read in generated code, the reports lost what this clock saves;
   docs/benchmarks.md, "The fast clock with --stacks=yes".)  A signal
   frame for a fault in the middle of a superblock is pushed before the
   thread stops running client code, with its count still in the slot
   (HS_(fast_clock_at_signal)).

   With --fast-paths=no, heapsnap counts as Massif does, into
   HS_(guest_instrs_executed) itself (clock_per_run). */
static IRExpr *clock_addr(void)
{
   return mkIRExpr_HWord((HWord)&HS_(guest_instrs_executed));
}

/* on_entry's address, read from the thread's state.  VEX loads a
   64-bit address constant with a 10-byte movabsq at each use (only
   constants under 2^20 get the short form), so the address is kept
   instead in a slot of each thread's first shadow state, which heapsnap
   uses only for these two slots (the shadow states follow the guest
   state, at total_sizeB).  It is written whenever the core gives a
   thread the CPU (HS_(fast_start_client_code)), so a new thread has it
   before its first block, and the core keeps shadow states across a
   signal handler, as Memcheck needs.  Generated code reads it from the
   guest-state register once per superblock, a 7-byte load, and uses it
   for the load, the store and the guarded stores.  HS_COUNT_SLOT, next to
   it, is the running thread's count. */
#define CLOCK_SLOT 0          /* offset in shadow state 1 */

static IRExpr *clock_addr_from_state(IRSB *out, const VexGuestLayout *layout)
{
   IRTemp a = newIRTemp(out->tyenv, Ity_I64);
   addStmtToIRSB(out, IRStmt_WrTmp(a, IRExpr_Get(layout->total_sizeB
                                                 + CLOCK_SLOT, Ity_I64)));
   return IRExpr_RdTmp(a);
}

/* With --fast-paths=yes and --time-unit=i (HS_(clock).split), the clock
   is counted + on_entry + the running thread's HS_COUNT_SLOT. */
HS_Clock HS_(clock);

void HS_(fast_start_client_code)(ThreadId tid)
{
   Addr a = (Addr)&HS_(clock).on_entry;
   if (HS_(clock).split)
      VG_(set_shadow_regs_area)(tid, 1, CLOCK_SLOT, sizeof a,
                                (const UChar *)&a);
}

static Int count_imarks(const IRSB *in)
{
   Int i, n = 0;
   for (i = 0; i < in->stmts_used; i++)
      n += in->stmts[i]->tag == Ist_IMark;
   return n;
}

/* Whether IN, of N instructions, has an exit before its last one (a
   loop unrolled has one in each copy but the last). */
static Bool early_exit(const IRSB *in, Int n)
{
   Int i, k = 0;
   for (i = 0; i < in->stmts_used; i++) {
      const IRStmt *st = in->stmts[i];
      if (st->tag == Ist_IMark)
         k++;
      else if (st->tag == Ist_Exit && k > 0 && k < n)
         return True;
   }
   return False;
}

/* The guard of an exit, written differently.  Given to the guarded
   store as it is, a guard would be used twice, so VEX keeps it in a
   register as 0 or 1 and tests it twice (setcc, test, test).  A guard
   that is a comparison is rewritten with its operands swapped
   (a < b is !(b <= a)): each use then has a comparison of its own,
   which becomes a compare and a conditional jump, and VEX does not merge
   the two because they differ.  Anything else is returned unchanged. */
static const IRExpr *defining(const IRSB *in, Int before, const IRExpr *e)
{
   Int j;
   if (e->tag != Iex_RdTmp)
      return NULL;
   for (j = before - 1; j >= 0; j--) {
      const IRStmt *st = in->stmts[j];
      if (st->tag == Ist_WrTmp && st->Ist.WrTmp.tmp == e->Iex.RdTmp.tmp)
         return st->Ist.WrTmp.data;
   }
   return NULL;
}

static IRExpr *guard_swapped(IRSB *out, const IRSB *in, Int i)
{
   IRExpr *guard = in->stmts[i]->Ist.Exit.guard;
   const IRExpr *e = defining(in, i, guard);
   Bool negated = False;
   IROp op, swapped;
   IRExpr *a, *b;
   IRTemp t, not;

   /* Through Not1, and the 1-bit widenings and narrowings. */
   while (e != NULL) {
      if (e->tag == Iex_Unop && e->Iex.Unop.op == Iop_Not1)
         negated = !negated;
      else if (!(e->tag == Iex_Unop
                 && (e->Iex.Unop.op == Iop_64to1 || e->Iex.Unop.op == Iop_32to1
                     || e->Iex.Unop.op == Iop_1Uto64
                     || e->Iex.Unop.op == Iop_1Uto32)))
         break;
      e = defining(in, i, e->Iex.Unop.arg);
   }
   if (e == NULL || e->tag != Iex_Binop)
      return guard;
   op = e->Iex.Binop.op;
   a = e->Iex.Binop.arg1;
   b = e->Iex.Binop.arg2;
   /* op(a, b) == swapped(b, a), or == !swapped(b, a) for the orders. */
   switch (op) {
   case Iop_CmpEQ64: case Iop_CmpEQ32: case Iop_CmpNE64: case Iop_CmpNE32:
      swapped = op;
      break;
   case Iop_CmpLT64U: swapped = Iop_CmpLE64U; negated = !negated; break;
   case Iop_CmpLE64U: swapped = Iop_CmpLT64U; negated = !negated; break;
   case Iop_CmpLT64S: swapped = Iop_CmpLE64S; negated = !negated; break;
   case Iop_CmpLE64S: swapped = Iop_CmpLT64S; negated = !negated; break;
   case Iop_CmpLT32U: swapped = Iop_CmpLE32U; negated = !negated; break;
   case Iop_CmpLE32U: swapped = Iop_CmpLT32U; negated = !negated; break;
   case Iop_CmpLT32S: swapped = Iop_CmpLE32S; negated = !negated; break;
   case Iop_CmpLE32S: swapped = Iop_CmpLT32S; negated = !negated; break;
   default:
      return guard;
   }
   if (negated) {
      switch (swapped) {
      case Iop_CmpEQ64: swapped = Iop_CmpNE64; negated = False; break;
      case Iop_CmpNE64: swapped = Iop_CmpEQ64; negated = False; break;
      case Iop_CmpEQ32: swapped = Iop_CmpNE32; negated = False; break;
      case Iop_CmpNE32: swapped = Iop_CmpEQ32; negated = False; break;
      default: break;
      }
   }
   /* Flat IR: the comparison in a temp of its own. */
   t = newIRTemp(out->tyenv, Ity_I1);
   addStmtToIRSB(out, IRStmt_WrTmp(t, IRExpr_Binop(swapped, deepCopyIRExpr(b),
                                                   deepCopyIRExpr(a))));
   if (!negated)
      return IRExpr_RdTmp(t);
   not = newIRTemp(out->tyenv, Ity_I1);
   addStmtToIRSB(out, IRStmt_WrTmp(not, IRExpr_Unop(Iop_Not1, IRExpr_RdTmp(t))));
   return IRExpr_RdTmp(not);
}

/* The superblock's count added on entry: to the thread's slot when no
   exit comes early, else to on_entry, set back at an early exit taken
   (see "The clock" above). */
static void clock_on_entry(IRSB *out, const IRSB *in,
                           const VexGuestLayout *layout)
{
   Int i, k = 0, n = count_imarks(in);
   Bool to_slot = !early_exit(in, n);
   Int slot = layout->total_sizeB + HS_COUNT_SLOT;
   IRTemp t0 = IRTemp_INVALID;
   IRExpr *addr = NULL;

   /* The slot follows the guest state (HS_(count_slot) in hs.h). */
   tl_assert(layout->total_sizeB == sizeof(TP_GuestState));
   for (i = 0; i < in->stmts_used; i++) {
      IRStmt *st = in->stmts[i];
      if (st->tag == Ist_Exit && k > 0 && k < n) {   /* never to_slot */
         IRTemp at = newIRTemp(out->tyenv, Ity_I64);
         addStmtToIRSB(out, IRStmt_WrTmp(at, IRExpr_Binop(Iop_Add64,
                          IRExpr_RdTmp(t0), IRExpr_Const(IRConst_U64(k)))));
         addStmtToIRSB(out, IRStmt_StoreG(TP_END, addr,
                                          IRExpr_RdTmp(at),
                                          guard_swapped(out, in, i)));
      }
      addStmtToIRSB(out, st);
      if (st->tag == Ist_IMark && ++k == 1) {
         IRTemp all = newIRTemp(out->tyenv, Ity_I64);
         t0 = newIRTemp(out->tyenv, Ity_I64);
         if (!to_slot)
            addr = clock_addr_from_state(out, layout);
         addStmtToIRSB(out, IRStmt_WrTmp(t0, to_slot
                          ? IRExpr_Get(slot, Ity_I64)
                          : IRExpr_Load(TP_END, Ity_I64, addr)));
         addStmtToIRSB(out, IRStmt_WrTmp(all, IRExpr_Binop(Iop_Add64,
                          IRExpr_RdTmp(t0), IRExpr_Const(IRConst_U64(n)))));
         addStmtToIRSB(out, to_slot
                          ? IRStmt_Put(slot, IRExpr_RdTmp(all))
                          : IRStmt_Store(TP_END, addr, IRExpr_RdTmp(all)));
      }
   }
}

/* Thread TID stopped running client code: its count goes into the
   global clock, and its slot starts again from 0. */
void HS_(fast_stop_client_code)(ThreadId tid, ULong blocks_done)
{
   if (!HS_(clock).split)
      return;
   HS_(clock).counted += ir_clock_take(tid, HS_COUNT_SLOT);
   HS_(guest_instrs_executed) = HS_(clock_with)(0);
}

/* A signal frame is pushed for thread TID.  After a fault in the middle
   of a superblock, the core pushes it before the thread stops running
   client code: the thread's count is still in its slot, and the clock
   then counts the superblock whole (docs/heapsnap.md, "After a fault"). */
void HS_(fast_clock_at_signal)(ThreadId tid)
{
   if (!HS_(clock).split)
      return;
   HS_(guest_instrs_executed) =
      HS_(clock_with)(ir_clock_peek(tid, HS_COUNT_SLOT));
}

/* Thread TID's signal handler returned: the count the core put back in
   its slot, with the rest of the signal frame's copy of its state, was
   taken when the thread stopped after the frame's push
   (include/ir_counter.h, ir_clock_signal_return). */
void HS_(fast_signal_return)(ThreadId tid, Int sig)
{
   if (HS_(clock).split)
      ir_clock_signal_return(tid, HS_COUNT_SLOT);
}

/* Massif's way (--fast-paths=no): before each exit and at the end, an
   add of the instructions of the run since the previous one (a run's
   instructions all execute once its first one does). */
static void clock_per_run(IRSB *out, const IRSB *in)
{
   Int i, pending = 0;
   IRExpr *addr = clock_addr();
   for (i = 0; i < in->stmts_used; i++) {
      IRStmt *st = in->stmts[i];
      if (st->tag == Ist_Exit && pending > 0) {
         ir_add_u64(out, addr, pending);
         pending = 0;
      }
      addStmtToIRSB(out, st);
      if (st->tag == Ist_IMark)
         pending++;
   }
   if (pending > 0)
      ir_add_u64(out, addr, pending);
}

/*------------------------------------------------------------*/
/*--- Malloc calls without the scheduler                   ---*/
/*------------------------------------------------------------*/

/* The malloc replacement (the core's vg_replace_malloc.c, preloaded into
   the client) asks for every malloc, free, new or delete with a client
   request that calls one of our callbacks (VALGRIND_NON_SIMD_CALLn).  A
   client request ends a superblock: generated code returns to the
   scheduler, which reads the request, calls the callback, and enters
   generated code again.  For a program that allocates a million blocks
   that round trip costs about as much as recording the blocks.  So a
   superblock that ends in a client request makes the call itself, from
   generated code, when the request is a call of one of our callbacks:

      PUT(rip) = next                  the unwinder starts where the
                                       scheduler's call would
      t = DIRTY fast_call(GSPTR)       1: done, the result in the guest's
                                       return register; 0: not ours
      if (t == 0) goto next, as a client request (the core handles it)
      goto next                        a plain jump, chained

   Every other request goes through the scheduler as before.  The result is the
   scheduler's: the same callback, the same thread, the same registers
   (the helper declares that it reads the whole guest state, so every
   register is in memory when it runs). */
static VG_REGPARM(1) UWord fast_call(TP_GuestState *g)
{
   const UWord *arg = (const UWord *)g->TP_GUEST_REQ_ARGS;
   ThreadId tid;

   if (!HS_(is_malloc_callback)(arg[1]))
      return 0;
   if (HS_(clock).split)  /* the superblock counted itself before the call */
      HS_(guest_instrs_executed) = HS_(clock_with)(*HS_(count_slot)(g));
   tid = VG_(get_running_tid)();
   switch (arg[0]) {
   case VG_USERREQ__CLIENT_CALL1:
      g->TP_GUEST_REQ_RET = ((UWord (*)(ThreadId, UWord))arg[1])(tid, arg[2]);
      return 1;
   case VG_USERREQ__CLIENT_CALL2:
      g->TP_GUEST_REQ_RET = ((UWord (*)(ThreadId, UWord, UWord))arg[1])
                        (tid, arg[2], arg[3]);
      return 1;
   case VG_USERREQ__CLIENT_CALL3:
      g->TP_GUEST_REQ_RET = ((UWord (*)(ThreadId, UWord, UWord, UWord))arg[1])
                        (tid, arg[2], arg[3], arg[4]);
      return 1;
   }
   return 0;
}

static void add_fast_call(IRSB *out, const VexGuestLayout *layout)
{
   IRTemp done = newIRTemp(out->tyenv, Ity_I64);
   IRTemp not_ours = newIRTemp(out->tyenv, Ity_I1);
   IRTemp args = newIRTemp(out->tyenv, Ity_I64);
   IRDirty *d;

   addStmtToIRSB(out, IRStmt_Put(offsetof(TP_GuestState, TP_GUEST_IP), out->next));
   addStmtToIRSB(out, IRStmt_WrTmp(args, IRExpr_Get(
                    offsetof(TP_GuestState, TP_GUEST_REQ_ARGS), Ity_I64)));
   d = unsafeIRDirty_1_N(done, 1, "hs_fast_call",
                         VG_(fnptr_to_fnentry)(fast_call),
                         mkIRExprVec_1(IRExpr_GSPTR()));
   /* It reads every register (the unwinder), writes only the result,
      never the stack pointer: heapsnap's stack-pointer pass
      (--stacks=yes, hs_sppass.c) reports no move made by a helper. */
   d->nFxState = 2;
   VG_(memset)(&d->fxState, 0, sizeof d->fxState);
   d->fxState[0].fx     = Ifx_Read;
   d->fxState[0].offset = 0;
   d->fxState[0].size   = layout->total_sizeB;
   d->fxState[1].fx     = Ifx_Write;
   d->fxState[1].offset = offsetof(TP_GuestState, TP_GUEST_REQ_RET);
   d->fxState[1].size   = sizeof(UWord);
   /* The callbacks read and write client memory (calloc, realloc). */
   d->mFx   = Ifx_Modify;
   d->mAddr = IRExpr_RdTmp(args);
   d->mSize = 5 * sizeof(UWord);
   addStmtToIRSB(out, IRStmt_Dirty(d));
   addStmtToIRSB(out, IRStmt_WrTmp(not_ours, IRExpr_Binop(Iop_CmpEQ64,
                    IRExpr_RdTmp(done), IRExpr_Const(IRConst_U64(0)))));
   addStmtToIRSB(out, IRStmt_Exit(IRExpr_RdTmp(not_ours), Ijk_ClientReq,
                                  out->next->Iex.Const.con,
                                  offsetof(TP_GuestState, TP_GUEST_IP)));
   out->jumpkind = Ijk_Boring;
}



/*------------------------------------------------------------*/
/*--- The instrumentation                                  ---*/
/*------------------------------------------------------------*/

IRSB *HS_(instrument)(VgCallbackClosure *closure, IRSB *in,
                      const VexGuestLayout *layout,
                      const VexGuestExtents *vge,
                      const VexArchInfo *archinfo_host,
                      IRType gWordTy, IRType hWordTy)
{
   IRSB *out;
   Bool fast = HS_(clo_fast_paths) && in->jumpkind == Ijk_ClientReq
               && in->next->tag == Iex_Const;

   if (HS_(clo_stacks))
      in = HS_(sp_pass)(in, layout);                /* hs_sppass.c */
   if (HS_(clo_time_unit) != HS_TimeI && !HS_(clo_fast_paths))
      return in;
   out = deepCopyIRSBExceptStmts(in);
   if (HS_(clo_time_unit) != HS_TimeI) {
      Int i;
      for (i = 0; i < in->stmts_used; i++)
         addStmtToIRSB(out, in->stmts[i]);
   } else if (!HS_(clo_fast_paths))
      clock_per_run(out, in);
   else
      clock_on_entry(out, in, layout);
   if (fast)
      add_fast_call(out, layout);
   else if (HS_(clo_fast_paths))
      ir_chain_guess(out, in, closure->tid);      /* trick 4 */
   return out;
}

/* After every instrumentation, gdbserver's too: include/ir_chain.h. */
IRSB *HS_(final_tidy)(IRSB *sb)
{
   return ir_chain_tidy(sb);
}

/* --stats=yes */
void HS_(fast_stats)(void)
{
   ir_chain_stats("heapsnap");
}

/* Trick 2's threshold, where the core's default is 120. */
#define FAST_UNROLL 260

/* Whether the user gave --vex-iropt-unroll-thresh (on the command line,
   in $VALGRIND_OPTS or in a .valgrindrc). */
static Bool unroll_given(void)
{
   return HS_(core_arg)("--vex-iropt-unroll-thresh=") != NULL;
}

/* After the options. */
void HS_(fast_post_clo_init)(void)
{
   HS_(clock).split = HS_(clo_time_unit) == HS_TimeI && HS_(clo_fast_paths);
   /* A threshold the user gave stands; --fast-paths=no leaves the
      core's. */
   if (HS_(clo_fast_paths) && !unroll_given())
      VG_(clo_vex_control).iropt_unroll_thresh = FAST_UNROLL;
   if (VG_(clo_verbosity) > 1)
      VG_(umsg)("heapsnap: fast paths %s, loops unrolled up to VEX's "
                "threshold %d\n", HS_(clo_fast_paths) ? "on" : "off",
                VG_(clo_vex_control).iropt_unroll_thresh);
}
