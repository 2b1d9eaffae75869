/* hs_sppass.c: heapsnap's stack-pointer pass (--stacks=yes): where
   generated code reports the moves of the stack pointer to hs_stacks.c.

   Copyright (C) 2026 The heapsnap/callprof developers.
   SPDX-License-Identifier: GPL-2.0-or-later

   Massif has the core report every move: for a tool that registers the
   new_mem_stack and die_mem_stack callbacks, the core's own pass
   (m_translate.c) puts a helper call before every write of the stack
   pointer.  A program moves its stack pointer on nearly every call and
   return, several times (a push for each register a function saves,
   then its frame), so those calls were most of what --stacks=yes cost.
   heapsnap registers none of those callbacks and makes the calls
   itself, fewer of them, with the same stack bytes as a result:

   - A write whose value is the stack pointer as read in the superblock
     plus or minus a constant moves it by a known size (IR as VEX
     flattens it: t1 = GET(SP), t2 = Sub64(t1, 8), PUT(SP) = t2).  Moves
     of known size in one direction, with nothing between them but
     loads, stores and arithmetic (no exit, no helper call, no other
     write of the pointer), are a group, reported by one call at the
     group's first move with the group's total (HS_(sp_grow) and
     HS_(sp_shrink)): a function's pushes and its frame are one call, and
     so are its pops and its return.
   - Any other write is reported by itself, with the pointer before and
     after (HS_(sp_unknown)).
   - Some moves the core checks for a switch of stacks before it counts
     them (hs_stacks.c, "The registered stacks"): those it cannot tell
     the size of, and those of a size it has no callback for (any but 4,
     8, 12, 16, 32, 112, 128, 144 and 160 bytes).  Which ones those are
     depends on what the core's pass can tell, so this pass keeps a copy
     of the core's tracking (CoreAliases) beside its own (SpOff), and
     tells a group's report which of its moves the core would check (a
     group holds one at most): HS_(sp_grow_checked), HS_(sp_shrink_checked).
   - Before a report of a move up or of unknown size, the program counter
     is written, for the unwinding of a thread's mark (hs_stacks.c):
     only there is a stack unwound, so pushes, calls and frames made need
     no store.
   - Each report is given the thread's guest state and BEHIND, the
     superblock's instructions after the last exit before the report:
     a report may take a snapshot, at Massif's time, and heapsnap's
     clock has the superblock counted whole on entry (hs_fast.c, "The
     clock").

   What a group changes: its moves are counted together, at its first
   move.  The peak is the same: the peak check is made before a group of
   moves up, where the total is highest, and a mark is noted after a
   group of moves down and unwound at the next move up.  A regular
   snapshot sees a group's total, never a part of it; with the
   instruction clock all the moves between two exits happen at the same
   time anyway.  So the series is as Massif's would be but for where
   each snapshot falls within a group (docs/heapsnap.md).  With each
   move reported alone, this pass gave the files of the core's pass byte
   for byte (the test programs, and perl, sqlite3, python3, xz, C++ and
   Rust); with groups, the peak and the marks are the same
   (tests/heapsnap/stacks_massif, stacks_switch, stacks_threads and
   stacks_exact).

   One thing a group changes beyond the schedule: a group's later moves
   are counted at its first, before they run.  If an instruction between
   them faults and the program does not carry on from there (it dies, or
   its signal handler jumps elsewhere), the thread's stack bytes are off
   by those moves from then on; the core's pass, a call at each move, has
   none counted early. */

#include "pub_tool_basics.h"
#include "pub_tool_libcassert.h"
#include "pub_tool_libcbase.h"
#include "pub_tool_machine.h"
#include "pub_tool_mallocfree.h"
#include "pub_tool_tooliface.h"

#include "hs.h"

enum { R_NONE, R_GROW, R_SHRINK, R_UNKNOWN, R_PARTIAL };
typedef struct {
   UChar kind;
   UWord total;          /* R_GROW, R_SHRINK: the group's bytes */
   UWord plan;           /* ... and its checked move, 0 for none */
} Report;

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

/* Which moves the core would check: those it cannot tell the size of,
   and those of a size without a callback.  It tells sizes by temporaries
   it knows to be the stack pointer plus a constant (m_translate.c): a
   GET of it, a constant added to or subtracted from one it knows, a copy
   of one it knows, 32 of them at most, the oldest forgotten first; a
   move by a size with a callback shifts them all by that size, and any
   other write forgets them all but the value written.  heapsnap's own
   tracking (SpOff) knows more (it forgets nothing), so it is not the
   test of which moves the core checks: this copy of the core's is. */
#define CORE_ALIASES 32
typedef struct {
   IRTemp tmp[CORE_ALIASES];
   Long   delta[CORE_ALIASES];
   Int    next;
} CoreAliases;

static void core_clear(CoreAliases *c)
{
   Int k;
   for (k = 0; k < CORE_ALIASES; k++)
      c->tmp[k] = IRTemp_INVALID;
   c->next = 0;
}

static void core_add(CoreAliases *c, IRTemp t, Long delta)
{
   c->tmp[c->next] = t;
   c->delta[c->next] = delta;
   c->next = (c->next + 1) % CORE_ALIASES;
}

static Bool core_get(const CoreAliases *c, const IRExpr *e, Long *delta)
{
   Int k, j;
   if (e->tag != Iex_RdTmp)
      return False;
   for (j = 1; j <= CORE_ALIASES; j++) {    /* the newest first */
      k = (c->next - j + CORE_ALIASES) % CORE_ALIASES;
      if (c->tmp[k] == e->Iex.RdTmp.tmp) {
         *delta = c->delta[k];
         return True;
      }
   }
   return False;
}

static void core_shift(CoreAliases *c, Long by)
{
   Int k;
   for (k = 0; k < CORE_ALIASES && c->tmp[k] != IRTemp_INVALID; k++)
      c->delta[k] += by;
}

/* The sizes the core reports without a check: it has a callback for each. */
static Bool unchecked_size(ULong len)
{
   return len == 4 || len == 8 || len == 12 || len == 16 || len == 32
          || len == 112 || len == 128 || len == 144 || len == 160;
}

/* A move at statement I of D bytes down (up if D < 0), which the core
   would check if CHECKED, into the open group G (-1: none). */
static void add_move(Report *rep, Int *g, Int i, Long d, Bool checked)
{
   UChar kind = d > 0 ? R_GROW : R_SHRINK;
   ULong len = d > 0 ? d : -d;
   if (checked && (len > (ULong)HS_(sp_max_frame) || len > 0xffffffffULL)) {
      *g = -1;                        /* the core's warning, and none */
      rep[i].kind = R_UNKNOWN;
      return;
   }
   if (*g >= 0) {
      Report *r = &rep[*g];
      if ((r->kind == kind || len == 0) && !(checked && r->plan != 0)
          && r->total + len <= 0x7fffffffULL) {
         if (checked)
            r->plan = HS_SP_PLAN(r->total, len);
         r->total += len;
         return;
      }
   }
   if (len == 0) {                    /* a check alone */
      *g = -1;
      rep[i].kind = R_UNKNOWN;
      return;
   }
   *g = i;
   rep[i].kind = kind;
   rep[i].total = len;
   rep[i].plan = checked ? HS_SP_PLAN(0, len) : 0;
}

/* Where the moves of superblock IN are reported, into REP (one per
   statement: at a group's first move, and at each other write). */
static void plan_moves(const IRSB *in, const VexGuestLayout *layout,
                       Report *rep)
{
   SpOff *offs = VG_(malloc)("hs.stacks.offs",
                             (in->tyenv->types_used + 1) * sizeof *offs);
   CoreAliases core;
   UInt epoch = 0;          /* the stack pointer's value as last written */
   Bool known = True;       /* ... is the epoch's start plus OFF */
   Long off = 0, cd;
   Int i, k, g = -1;
   core_clear(&core);
   for (i = 0; i < in->tyenv->types_used; i++)
      offs[i].epoch = SP_UNKNOWN;
   for (i = 0; i < in->stmts_used; i++) {
      const IRStmt *st = in->stmts[i];
      switch (st->tag) {
      case Ist_WrTmp: {
         const IRExpr *e = st->Ist.WrTmp.data;
         IRTemp tmp = st->Ist.WrTmp.tmp;
         SpOff *t = &offs[tmp];
         if (e->tag == Iex_Get && e->Iex.Get.offset == layout->offset_SP
             && e->Iex.Get.ty == Ity_I64) {
            if (!known) {
               epoch++;
               off = 0;
               known = True;
            }
            t->epoch = epoch;
            t->off = off;
            core_add(&core, tmp, 0);
         } else if (e->tag == Iex_Binop
                    && (e->Iex.Binop.op == Iop_Add64
                        || e->Iex.Binop.op == Iop_Sub64)
                    && e->Iex.Binop.arg2->tag == Iex_Const
                    && e->Iex.Binop.arg2->Iex.Const.con->tag == Ico_U64) {
            SpOff a = sp_off_of(offs, e->Iex.Binop.arg1);
            Long c = (Long)e->Iex.Binop.arg2->Iex.Const.con->Ico.U64;
            if (e->Iex.Binop.op == Iop_Sub64)
               c = -c;
            if (a.epoch != SP_UNKNOWN) {
               t->epoch = a.epoch;
               t->off = a.off + c;
            }
            if (core_get(&core, e->Iex.Binop.arg1, &cd))
               core_add(&core, tmp, cd + c);
         } else if (e->tag == Iex_RdTmp) {
            *t = sp_off_of(offs, e);
            if (core_get(&core, e, &cd))
               core_add(&core, tmp, cd);
         }
         break;
      }
      case Ist_Put: {
         const IRExpr *data = st->Ist.Put.data;
         Int lo = st->Ist.Put.offset;
         Int hi = lo + sizeofIRType(typeOfIRExpr(in->tyenv, data));
         Bool exact = lo == layout->offset_SP && hi == lo + 8;
         SpOff v = sp_off_of(offs, data);
         if (hi <= layout->offset_SP || lo >= layout->offset_SP + 8)
            break;
         if (exact && core_get(&core, data, &cd)) {
            /* The core knows the size: -CD bytes down. */
            Bool checked = !unchecked_size(cd < 0 ? -cd : cd);
            if (cd != 0)
               add_move(rep, &g, i, -cd, checked);
            if (!checked)
               core_shift(&core, -cd);
            else if (cd != 0) {
               core_clear(&core);
               core_add(&core, data->Iex.RdTmp.tmp, 0);
            }
         } else {
            /* The core checks it, with the pointer before and after. */
            if (exact && known && v.epoch == epoch)
               add_move(rep, &g, i, off - v.off, True);   /* 0 too */
            else {
               g = -1;
               rep[i].kind = exact ? R_UNKNOWN : R_PARTIAL;
            }
            core_clear(&core);
            if (exact && data->tag == Iex_RdTmp)
               core_add(&core, data->Iex.RdTmp.tmp, 0);
         }
         if (exact) {
            known = v.epoch == epoch;
            off = v.off;
         } else
            known = False;
         break;
      }
      case Ist_Dirty: {
         const IRDirty *d = st->Ist.Dirty.details;
         for (k = 0; k < d->nFxState; k++)
            if (d->fxState[k].fx != Ifx_Read && d->fxState[k].fx != Ifx_None)
               known = False;    /* may write the pointer (the core would
                                    stop if it did) */
         g = -1;
         break;
      }
      case Ist_PutI:
         known = False;
         g = -1;
         break;
      case Ist_Exit: case Ist_CAS: case Ist_LLSC: case Ist_MBE:
         g = -1;
         break;
      default:
         break;
      }
   }
   VG_(free)(offs);
}

static IRExpr *sp_now(IRSB *out, const VexGuestLayout *layout)
{
   IRTemp t = newIRTemp(out->tyenv, Ity_I64);
   addStmtToIRSB(out, IRStmt_WrTmp(t, IRExpr_Get(layout->offset_SP,
                                                 Ity_I64)));
   return IRExpr_RdTmp(t);
}

/* A report: FN called with ARGS, the guest state pointer first. */
static void call(IRSB *out, const VexGuestLayout *layout, const HChar *name,
                 void *fn, IRExpr **args)
{
   Int n = 0;
   IRDirty *d;
   while (args[n] != NULL)
      n++;
   /* VEX takes 0 to 3 register arguments; on amd64 all six go in
      registers anyway. */
   d = unsafeIRDirty_0_N(n < 3 ? n : 3, name, VG_(fnptr_to_fnentry)(fn),
                         args);
   /* It reads the thread's count (clock_at in hs_stacks.c). */
   d->nFxState = 1;
   VG_(memset)(&d->fxState, 0, sizeof d->fxState);
   d->fxState[0].fx     = Ifx_Read;
   d->fxState[0].offset = layout->total_sizeB + HS_COUNT_SLOT;
   d->fxState[0].size   = sizeof(ULong);
   addStmtToIRSB(out, IRStmt_Dirty(d));
}

IRSB *HS_(sp_pass)(IRSB *in, const VexGuestLayout *layout)
{
   IRSB *out = deepCopyIRSBExceptStmts(in);
   Report *rep = VG_(calloc)("hs.stacks.rep", in->stmts_used + 1,
                             sizeof *rep);
   IRExpr *old = NULL;
   Addr ip = 0;
   Int i, n = 0, k = 0, k_exit = 0;   /* instructions: all, so far, and
                                         before the last exit */
   ULong behind;
   plan_moves(in, layout, rep);
   for (i = 0; i < in->stmts_used; i++)
      n += in->stmts[i]->tag == Ist_IMark;
   for (i = 0; i < in->stmts_used; i++) {
      IRStmt *st = in->stmts[i];
      const Report *r = &rep[i];
      if (st->tag == Ist_IMark) {
         ip = st->Ist.IMark.addr + st->Ist.IMark.delta;
         k++;
      } else if (st->tag == Ist_Exit)
         k_exit = k;
      behind = n - k_exit;
      if (r->kind != R_NONE && r->kind != R_GROW && ip != 0)
         addStmtToIRSB(out, IRStmt_Put(layout->offset_IP,
                                       mkIRExpr_HWord(ip)));
      switch (r->kind) {
      case R_GROW: case R_SHRINK:
         if (r->plan == 0)
            call(out, layout, r->kind == R_GROW ? "hs_sp_grow"
                                        : "hs_sp_shrink",
                 r->kind == R_GROW ? (void *)HS_(sp_grow)
                                   : (void *)HS_(sp_shrink),
                 mkIRExprVec_3(IRExpr_GSPTR(), mkIRExpr_HWord(r->total),
                               mkIRExpr_HWord(behind)));
         else
            call(out, layout, r->kind == R_GROW ? "hs_sp_grow_checked"
                                        : "hs_sp_shrink_checked",
                 r->kind == R_GROW ? (void *)HS_(sp_grow_checked)
                                   : (void *)HS_(sp_shrink_checked),
                 mkIRExprVec_5(IRExpr_GSPTR(), sp_now(out, layout),
                               mkIRExpr_HWord(r->total),
                               mkIRExpr_HWord(r->plan),
                               mkIRExpr_HWord(behind)));
         break;
      case R_UNKNOWN:
         call(out, layout, "hs_sp_unknown", (void *)HS_(sp_unknown),
              mkIRExprVec_4(IRExpr_GSPTR(), sp_now(out, layout),
                            st->Ist.Put.data, mkIRExpr_HWord(behind)));
         break;
      case R_PARTIAL:
         old = sp_now(out, layout);
         break;
      default:
         break;
      }
      addStmtToIRSB(out, st);
      if (r->kind == R_PARTIAL)
         call(out, layout, "hs_sp_unknown", (void *)HS_(sp_unknown),
              mkIRExprVec_4(IRExpr_GSPTR(), old, sp_now(out, layout),
                            mkIRExpr_HWord(behind)));
   }
   VG_(free)(rep);
   return out;
}

