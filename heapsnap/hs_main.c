/* hs_main.c: heapsnap, a heap profiler that writes Massif's format.

   Copyright (C) 2026 The heapsnap/callprof developers.
   SPDX-License-Identifier: GPL-2.0-or-later

   heapsnap answers what Massif answers (how much heap, stack or mapped
   memory a program uses over time, and which call stacks hold it), with
   Massif's options and Massif's file format, so ms_print and
   massif-visualizer read its files unchanged and a user's command line
   keeps working.  It also counts what Massif leaves out (memory pools),
   keeps the exact peak, and records each thread's stack high-water mark.

   This file holds the parts that tie the others together (see hs.h for
   the map): the options, the instrumentation (the instruction clock, and
   the malloc calls made from generated code), client requests and
   gdbserver monitor commands, and the tool's start and exit. */

#include "pub_tool_basics.h"
#include "pub_tool_gdbserver.h"
#include "pub_tool_libcassert.h"
#include "pub_tool_libcbase.h"
#include "pub_tool_libcprint.h"
#include "pub_tool_libcproc.h"
#include "pub_tool_machine.h"
#include "pub_tool_mallocfree.h"
#include "pub_tool_options.h"
#include "pub_tool_replacemalloc.h"
#include "pub_tool_threadstate.h"
#include "pub_tool_tooliface.h"
#include "pub_tool_xarray.h"
#include "valgrind.h"

#include "clo.h"
#include "heapsnap.h"
#include "hs.h"
#include "ir_counter.h"
#include "profwriter.h"

/*------------------------------------------------------------*/
/*--- Options                                              ---*/
/*------------------------------------------------------------*/

Bool         HS_(clo_heap)            = True;
SizeT        HS_(clo_heap_admin)      = 8;
Bool         HS_(clo_stacks)          = False;
Bool         HS_(clo_pages_as_heap)   = False;
Int          HS_(clo_depth)           = 30;
double       HS_(clo_threshold)       = 1.0;
double       HS_(clo_peak_inaccuracy) = 1.0;
HS_TimeUnit  HS_(clo_time_unit)       = HS_TimeI;
Int          HS_(clo_detailed_freq)   = 10;
Int          HS_(clo_max_snapshots)   = 100;
const HChar *HS_(clo_out_file)        = "heapsnap.out.%p";
static const HChar *out_option        = "--heapsnap-out-file"; /* as given */
XArray      *HS_(clo_alloc_fns);
XArray      *HS_(clo_ignore_fns);
XArray      *HS_(given_args);

/* Massif's allocation functions: removed from the top of every stack. */
static const HChar *const default_alloc_fns[] = {
   "malloc", "__builtin_new", "operator new(unsigned)",
   "operator new(unsigned long)", "__builtin_vec_new",
   "operator new[](unsigned)", "operator new[](unsigned long)",
   "calloc", "realloc", "memalign", "posix_memalign", "valloc",
   "operator new(unsigned, std::nothrow_t const&)",
   "operator new[](unsigned, std::nothrow_t const&)",
   "operator new(unsigned long, std::nothrow_t const&)",
   "operator new[](unsigned long, std::nothrow_t const&)",
};

static Bool hs_process_cmd_line_option(const HChar *arg)
{
   const HChar *v;

   if (clo_match(arg, "--heap", &v))
      HS_(clo_heap) = clo_bool(arg, v);
   else if (clo_match(arg, "--heap-admin", &v))
      HS_(clo_heap_admin) = (SizeT)clo_long(arg, v, 0, 1024);
   else if (clo_match(arg, "--stacks", &v))
      HS_(clo_stacks) = clo_bool(arg, v);
   else if (clo_match(arg, "--pages-as-heap", &v))
      HS_(clo_pages_as_heap) = clo_bool(arg, v);
   else if (clo_match(arg, "--depth", &v))
      HS_(clo_depth) = (Int)clo_long(arg, v, 1, HS_MAX_DEPTH);
   else if (clo_match(arg, "--alloc-fn", &v))
      VG_(addToXA)(HS_(clo_alloc_fns), &v);
   else if (clo_match(arg, "--ignore-fn", &v))
      VG_(addToXA)(HS_(clo_ignore_fns), &v);
   else if (clo_match(arg, "--threshold", &v))
      HS_(clo_threshold) = clo_double(arg, v, 0, 100);
   else if (clo_match(arg, "--peak-inaccuracy", &v))
      HS_(clo_peak_inaccuracy) = clo_double(arg, v, 0, 100);
   else if (clo_match(arg, "--time-unit", &v)) {
      if      (VG_STREQ(v, "i"))  HS_(clo_time_unit) = HS_TimeI;
      else if (VG_STREQ(v, "ms")) HS_(clo_time_unit) = HS_TimeMS;
      else if (VG_STREQ(v, "B"))  HS_(clo_time_unit) = HS_TimeB;
      else clo_reject(arg, "expected i, ms or B");
   }
   else if (clo_match(arg, "--detailed-freq", &v))
      HS_(clo_detailed_freq) = (Int)clo_long(arg, v, 1, 1000000);
   else if (clo_match(arg, "--max-snapshots", &v))
      HS_(clo_max_snapshots) = (Int)clo_long(arg, v, 10, 1000);
   else if (clo_match(arg, "--heapsnap-out-file", &v) ||
            clo_match(arg, "--massif-out-file", &v)) {
      const HChar *err = pw_template_check(v);
      if (err != NULL)
         clo_reject(arg, err);
      HS_(clo_out_file) = v;
      out_option = VG_(strncmp)(arg, "--massif", 8) == 0 ?
                   "--massif-out-file" : "--heapsnap-out-file";
   }
   else if (!VG_(replacement_malloc_process_cmd_line_option)(arg))
      return clo_unknown(arg);

   VG_(addToXA)(HS_(given_args), &arg);
   return True;
}

static void hs_print_usage(void)
{
   VG_(printf)(
"    --heap=no|yes             profile heap blocks [yes]\n"
"    --heap-admin=<size>       average admin bytes per heap block;\n"
"                               ignored if --heap=no [8]\n"
"    --stacks=no|yes           profile stack(s) [no]\n"
"    --pages-as-heap=no|yes    profile memory at the page level [no]\n"
"    --depth=<number>          depth of contexts, 1..%d [30]\n"
"    --alloc-fn=<name>         specify <name> as an alloc function [empty]\n"
"    --ignore-fn=<name>        ignore heap allocations within <name> [empty]\n"
"    --threshold=<m.n>         significance threshold, as a percentage [1.0]\n"
"    --peak-inaccuracy=<m.n>   maximum peak inaccuracy, as a percentage [1.0]\n"
"    --time-unit=i|ms|B        time unit: instructions executed, milliseconds\n"
"                              or heap bytes alloc'd/dealloc'd [i]\n"
"    --detailed-freq=<N>       every Nth snapshot should be detailed [10]\n"
"    --max-snapshots=<N>       maximum number of snapshots recorded [100]\n"
"    --heapsnap-out-file=<file> output file name [heapsnap.out.%%p]\n"
"                              (%%p pid, %%n sequence, %%q{VAR} env var);\n"
"                              --massif-out-file is the same option\n",
      HS_MAX_DEPTH);
}

static void hs_print_debug_usage(void)
{
   VG_(printf)("    (none)\n");
}

/*------------------------------------------------------------*/
/*--- The clock                                            ---*/
/*------------------------------------------------------------*/

ULong HS_(guest_instrs_executed) = 0;
ULong HS_(churn_B) = 0;

ULong HS_(now)(void)
{
   static Bool  started = False;
   static ULong start_ms;
   switch (HS_(clo_time_unit)) {
   case HS_TimeI:
      return HS_(guest_instrs_executed);
   case HS_TimeB:
      return HS_(churn_B);
   case HS_TimeMS:
      /* Time 0 is the first question, as in Massif. */
      if (!started) {
         started = True;
         start_ms = VG_(read_millisecond_timer)();
      }
      return VG_(read_millisecond_timer)() - start_ms;
   }
   tl_assert(0);
}

/* --time-unit=i counts guest instructions.  The count has to be exact
   only where the tool reads it: in the callbacks of client requests and
   system calls, at thread switches and at exit, all of which happen
   where a superblock is left.  Massif adds each run's count before
   every exit of a superblock, a load, an add and a store each time.
   heapsnap adds the whole superblock's count once, on entry, and an
   exit that leaves early sets the count back with a guarded store, which
   costs a compare and a branch while the exit is not taken:

      t0 = LD:I64(&count)              at the first IMark
      ST(&count) = t0 + n              n: the superblock's instructions
      ...
      if (g') ST(&count) = t0 + k      k: instructions up to exit 1;
                                       g': g written differently
                                       (guard_swapped)
      if (g) goto ...                  exit 1
      ...                              the end: nothing more to add

   Helpers called from inside a superblock would see the count of its
   end, and a count that goes back when an early exit is taken.  Only
   --stacks=yes has such helpers (the core's stack-pointer tracking), and
   its snapshots need a clock that never goes back, so there heapsnap
   counts as Massif does (clock_per_run). */
static IRExpr *clock_addr(void)
{
   return mkIRExpr_HWord((HWord)&HS_(guest_instrs_executed));
}

static Int count_imarks(const IRSB *in)
{
   Int i, n = 0;
   for (i = 0; i < in->stmts_used; i++)
      n += in->stmts[i]->tag == Ist_IMark;
   return n;
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

static void clock_on_entry(IRSB *out, const IRSB *in)
{
   Int i, k = 0, n = count_imarks(in);
   IRTemp t0 = IRTemp_INVALID;

   for (i = 0; i < in->stmts_used; i++) {
      IRStmt *st = in->stmts[i];
      if (st->tag == Ist_Exit && k > 0 && k < n) {
         IRTemp at = newIRTemp(out->tyenv, Ity_I64);
         addStmtToIRSB(out, IRStmt_WrTmp(at, IRExpr_Binop(Iop_Add64,
                          IRExpr_RdTmp(t0), IRExpr_Const(IRConst_U64(k)))));
         addStmtToIRSB(out, IRStmt_StoreG(Iend_LE, clock_addr(),
                                          IRExpr_RdTmp(at),
                                          guard_swapped(out, in, i)));
      }
      addStmtToIRSB(out, st);
      if (st->tag == Ist_IMark && ++k == 1) {
         IRTemp all = newIRTemp(out->tyenv, Ity_I64);
         t0 = newIRTemp(out->tyenv, Ity_I64);
         addStmtToIRSB(out, IRStmt_WrTmp(t0, IRExpr_Load(Iend_LE, Ity_I64,
                                                         clock_addr())));
         addStmtToIRSB(out, IRStmt_WrTmp(all, IRExpr_Binop(Iop_Add64,
                          IRExpr_RdTmp(t0), IRExpr_Const(IRConst_U64(n)))));
         addStmtToIRSB(out, IRStmt_Store(Iend_LE, clock_addr(),
                                         IRExpr_RdTmp(all)));
      }
   }
}

/* Massif's way: before each exit and at the end, an add of the
   instructions of the run since the previous one (a run's instructions
   all execute once its first one does). */
static void clock_per_run(IRSB *out, const IRSB *in)
{
   Int i, pending = 0;
   for (i = 0; i < in->stmts_used; i++) {
      IRStmt *st = in->stmts[i];
      if (st->tag == Ist_IMark)
         pending++;
      else if (st->tag == Ist_Exit && pending > 0) {
         ir_add_u64(out, clock_addr(), pending);
         pending = 0;
      }
      addStmtToIRSB(out, st);
   }
   if (pending > 0)
      ir_add_u64(out, clock_addr(), pending);
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

   Every other request, and every request on a platform where this is
   not written, goes through the scheduler as before.  The result is the
   scheduler's: the same callback, the same thread, the same registers
   (the helper declares that it reads the whole guest state, so every
   register is in memory when it runs). */
#if defined(VGA_amd64)
#include "libvex_guest_amd64.h"
#define FAST_CALLS 1
typedef VexGuestAMD64State GuestState;
#define GUEST_IP    guest_RIP
#define GUEST_ARGS  guest_RAX      /* a client request's argument block */
#define GUEST_RET   guest_RDX      /* and its result */
#else
#define FAST_CALLS 0
#endif

#if FAST_CALLS
static VG_REGPARM(1) UWord fast_call(GuestState *g)
{
   const UWord *arg = (const UWord *)g->GUEST_ARGS;
   ThreadId tid;
   static Bool placed_said = False;

   if (UNLIKELY(!placed_said)) {          /* see place_guest_state */
      placed_said = True;
      if (VG_(clo_verbosity) > 2)
         VG_(dmsg)("heapsnap: guest state at %p (%lu past a multiple of "
                   "32)\n", g, (Addr)g % 32);
   }

   if (!HS_(is_malloc_callback)(arg[1]))
      return 0;
   tid = VG_(get_running_tid)();
   switch (arg[0]) {
   case VG_USERREQ__CLIENT_CALL1:
      g->GUEST_RET = ((UWord (*)(ThreadId, UWord))arg[1])(tid, arg[2]);
      return 1;
   case VG_USERREQ__CLIENT_CALL2:
      g->GUEST_RET = ((UWord (*)(ThreadId, UWord, UWord))arg[1])
                        (tid, arg[2], arg[3]);
      return 1;
   case VG_USERREQ__CLIENT_CALL3:
      g->GUEST_RET = ((UWord (*)(ThreadId, UWord, UWord, UWord))arg[1])
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

   addStmtToIRSB(out, IRStmt_Put(offsetof(GuestState, GUEST_IP), out->next));
   addStmtToIRSB(out, IRStmt_WrTmp(args, IRExpr_Get(
                    offsetof(GuestState, GUEST_ARGS), Ity_I64)));
   d = unsafeIRDirty_1_N(done, 1, "hs_fast_call",
                         VG_(fnptr_to_fnentry)(fast_call),
                         mkIRExprVec_1(IRExpr_GSPTR()));
   /* It reads every register (the unwinder), writes only the result;
      the core's stack-pointer tracking (--stacks=yes) refuses a helper
      that would write the stack pointer. */
   d->nFxState = 2;
   VG_(memset)(&d->fxState, 0, sizeof d->fxState);
   d->fxState[0].fx     = Ifx_Read;
   d->fxState[0].offset = 0;
   d->fxState[0].size   = layout->total_sizeB;
   d->fxState[1].fx     = Ifx_Write;
   d->fxState[1].offset = offsetof(GuestState, GUEST_RET);
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
                                  offsetof(GuestState, GUEST_IP)));
   out->jumpkind = Ijk_Boring;
}
#endif

static IRSB *hs_instrument(VgCallbackClosure *closure, IRSB *in,
                           const VexGuestLayout *layout,
                           const VexGuestExtents *vge,
                           const VexArchInfo *archinfo_host,
                           IRType gWordTy, IRType hWordTy)
{
   IRSB *out;
   Bool fast = FAST_CALLS && in->jumpkind == Ijk_ClientReq
               && in->next->tag == Iex_Const;

   if (HS_(clo_time_unit) != HS_TimeI && !fast)
      return in;
   out = deepCopyIRSBExceptStmts(in);
   if (HS_(clo_time_unit) != HS_TimeI) {
      Int i;
      for (i = 0; i < in->stmts_used; i++)
         addStmtToIRSB(out, in->stmts[i]);
   } else if (HS_(clo_stacks))
      clock_per_run(out, in);
   else
      clock_on_entry(out, in);
#if FAST_CALLS
   if (fast)
      add_fast_call(out, layout);
#endif
   return out;
}

/*------------------------------------------------------------*/
/*--- Snapshots on demand                                  ---*/
/*------------------------------------------------------------*/

/* gdbserver monitor commands (vgdb), as Massif's:
      snapshot [FILE]            the heap now, in FILE
      detailed_snapshot [FILE]   the same, with the allocation tree
      all_snapshots [FILE]       every snapshot so far
   FILE is a template like --heapsnap-out-file; default heapsnap.vgdb.out. */
static void print_monitor_help(void)
{
   VG_(gdb_printf)(
"\n"
"heapsnap monitor commands:\n"
"  snapshot [<filename>]\n"
"  detailed_snapshot [<filename>]\n"
"      takes a snapshot (or a detailed snapshot)\n"
"      and saves it in <filename>\n"
"             default <filename> is heapsnap.vgdb.out\n"
"  all_snapshots [<filename>]\n"
"      saves all snapshot(s) taken so far in <filename>\n"
"             default <filename> is heapsnap.vgdb.out\n"
"\n");
}

static const HChar *default_vgdb_file = "heapsnap.vgdb.out";

static void write_on_demand(const HChar *file, HS_WriteWhat what)
{
   const HChar *err;
   if (file == NULL)
      file = default_vgdb_file;
   err = pw_template_check(file);
   if (err != NULL) {
      VG_(umsg)("heapsnap: %s: %s\n", file, err);
      return;
   }
   HS_(snap_write)(file, what);
}

static Bool handle_monitor_command(ThreadId tid, HChar *req)
{
   HChar s[VG_(strlen)(req) + 1];
   HChar *save, *word, *file;

   VG_(strcpy)(s, req);
   word = VG_(strtok_r)(s, " ", &save);
   file = VG_(strtok_r)(NULL, " ", &save);
   switch (VG_(keyword_id)("help snapshot detailed_snapshot all_snapshots",
                           word, kwd_report_duplicated_matches)) {
   case -2: return True;       /* ambiguous: the core said so */
   case -1: return False;      /* not ours */
   case 0:  print_monitor_help(); return True;
   case 1:  write_on_demand(file, HS_WriteNow); return True;
   case 2:  write_on_demand(file, HS_WriteNowDetailed); return True;
   case 3:  write_on_demand(file, HS_WriteAll); return True;
   }
   tl_assert(0);
}

/* Client requests: heapsnap's own (include/heapsnap.h), custom
   allocators and pools (hs_heap.c), and monitor commands. */
static Bool hs_handle_client_request(ThreadId tid, UWord *arg, UWord *ret)
{
   switch (arg[0]) {
   case VG_USERREQ__HEAPSNAP_SNAPSHOT:
   case VG_USERREQ__HEAPSNAP_DETAILED_SNAPSHOT: {
      const HChar *file = (const HChar *)arg[1];
      write_on_demand(file && file[0] ? file : NULL,
                      arg[0] == VG_USERREQ__HEAPSNAP_SNAPSHOT
                      ? HS_WriteNow : HS_WriteNowDetailed);
      *ret = 0;
      return True;
   }
   case VG_USERREQ__HEAPSNAP_ALL_SNAPSHOTS: {
      const HChar *file = (const HChar *)arg[1];
      write_on_demand(file && file[0] ? file : NULL, HS_WriteAll);
      *ret = 0;
      return True;
   }
   case VG_USERREQ__GDB_MONITOR_COMMAND:
      *ret = handle_monitor_command(tid, (HChar *)arg[1]);
      return *ret != 0;
   default:
      return HS_(handle_heap_request)(tid, arg, ret);
   }
}

/*------------------------------------------------------------*/
/*--- Where the guest state lands                          ---*/
/*------------------------------------------------------------*/

/* Generated code keeps the guest registers in the thread's guest state
   and decrements an event counter 8 bytes into it on entry to every
   superblock.  On the AMD EPYC machines we measure on, a tight loop runs
   about 11% slower when the guest state starts at a multiple of 32 bytes
   (the counter then shares a 32-byte block with RAX and RCX, 16 and 24
   bytes in) than when it starts 16 bytes past one: malloc-heavy takes
   3.1 s or 2.75 s by that alone.  The core allocates the threads' states
   (16-byte aligned) soon after the tool's post_clo_init, from the arena
   the tool's VG_(malloc) uses, so where they land moves with everything
   allocated before: the client's environment, and each tool's own
   allocations (Massif's states land elsewhere than heapsnap's, in the
   other phase).  So heapsnap's last allocation before that is a 16-byte
   marker, and when the main thread's state would then start at a
   multiple of 32, a second marker moves it on by 48 bytes.  The
   distance from the marker to that state is the core's:
   GS_AFTER_MARKER, measured for Valgrind 3.19 on amd64 (the same for
   every program and option tried); elsewhere nothing is done.  Nothing
   but speed depends on it; with -v -v the first malloc call says where
   the state landed. */
#if FAST_CALLS && __VALGRIND_MAJOR__ == 3 && __VALGRIND_MINOR__ == 19
#define GS_AFTER_MARKER 0x1E30
#endif

static void place_guest_state(void)
{
#ifdef GS_AFTER_MARKER
   Addr marker = (Addr)VG_(malloc)("hs.main.gs_marker", 16);
   if ((marker + GS_AFTER_MARKER) % 32 == 0)
      (void)VG_(malloc)("hs.main.gs_marker", 16);
#endif
}

/*------------------------------------------------------------*/
/*--- Start and exit                                       ---*/
/*------------------------------------------------------------*/

static void hs_post_clo_init(void)
{
   /* Massif drops --pages-as-heap=yes under --heap=no without a word;
      say so. */
   if (!HS_(clo_heap) && HS_(clo_pages_as_heap)) {
      VG_(umsg)("heapsnap: --pages-as-heap=yes is ignored with --heap=no "
                "(pages are counted as heap)\n");
      HS_(clo_pages_as_heap) = False;
   }
   HS_(heap_post_clo_init)();
   HS_(stacks_post_clo_init)();
   HS_(pages_post_clo_init)();
   /* A file that cannot be written: said now, not after the run. */
   pw_vg_check_output(out_option, HS_(clo_out_file), "heapsnap",
                      PW_MODE_MASSIF);
   HS_(xt_init)();
   HS_(snap_init)();
   place_guest_state();      /* the last allocation here (see there) */
}

static void hs_fini(Int exitcode)
{
   /* The file ends with the last snapshot taken, as Massif's; the clock
      at exit is for -v (tests/same-clock compares it across runs). */
   if (VG_(clo_verbosity) > 1)
      VG_(umsg)("heapsnap: time at exit: %llu\n", HS_(now)());
   HS_(xt_report)(VG_(clo_xtree_memory_file), True);
   if (HS_(snap_write)(HS_(clo_out_file), HS_WriteAll) && HS_(clo_stacks))
      HS_(stacks_write_peaks)(HS_(clo_out_file));
}

/* The core's --read-inline-info, not in a public header: its default is
   yes for Massif (and memcheck, helgrind, drd, dhat) and no for any other
   tool, so we ask for Massif's.  The core reads the options after this,
   so a user's --read-inline-info=no still wins. */
extern Bool VG_(clo_read_inline_info);

static void hs_pre_clo_init(void)
{
   UInt i;

   VG_(details_name)            ("heapsnap");
   VG_(details_version)         (PACKAGE_VERSION);
   VG_(details_description)     ("heap snapshots in Massif's format");
   VG_(details_copyright_author)(
      "Copyright (C) 2026, and GNU GPL'd, by the heapsnap/callprof developers");
   VG_(details_bug_reports_to)  ("the heapsnap/callprof issue tracker");
   VG_(details_avg_translation_sizeB)(330);
   VG_(clo_vex_control).iropt_register_updates_default
      = VG_(clo_px_file_backed)
      = VexRegUpdSpAtMemAccess;   /* exact stacks, as Massif */
   /* Unroll small loops up to 8 times (the core's default allows 2 for
      most): the clock's add on entry to a superblock is then paid once
      per 8 turns of a tight loop.  --vex-iropt-unroll-thresh still
      overrides it.  docs/benchmarks.md has the figures. */
   VG_(clo_vex_control).iropt_unroll_thresh = 400;
   /* Inlined frames in the trees, as Massif shows them. */
   VG_(clo_read_inline_info) = True;

   VG_(basic_tool_funcs)(hs_post_clo_init, hs_instrument, hs_fini);
   VG_(needs_libc_freeres)();
   VG_(needs_cxx_freeres)();
   VG_(needs_command_line_options)(hs_process_cmd_line_option,
                                   hs_print_usage, hs_print_debug_usage);
   VG_(needs_client_requests)(hs_handle_client_request);

   HS_(clo_alloc_fns) = VG_(newXA)(VG_(malloc), "hs.main.alloc_fns",
                                   VG_(free), sizeof(HChar *));
   for (i = 0; i < sizeof default_alloc_fns / sizeof default_alloc_fns[0]; i++)
      VG_(addToXA)(HS_(clo_alloc_fns), &default_alloc_fns[i]);
   HS_(clo_ignore_fns) = VG_(newXA)(VG_(malloc), "hs.main.ignore_fns",
                                    VG_(free), sizeof(HChar *));
   HS_(given_args) = VG_(newXA)(VG_(malloc), "hs.main.args", VG_(free),
                                sizeof(HChar *));
   HS_(heap_pre_clo_init)();
}

VG_DETERMINE_INTERFACE_VERSION(hs_pre_clo_init)
