/* ir_counter.h: the instrumentation both tools share: counters.

   Copyright (C) 2026 The heapsnap/callprof developers.
   SPDX-License-Identifier: GPL-2.0-or-later

   ir_add_u64(sb, addr, delta) appends to superblock SB the IR of

      *(ULong *)ADDR += DELTA

   inline: a load, an add of a constant and a store, no helper call.
   heapsnap counts guest instructions with it under --fast-paths=no
   (once per run of a superblock, as Massif: heapsnap/hs_fast.c),
   callprof its per-run counters.
   ir_add_u64_by(sb, addr, delta) is the same with DELTA an Ity_I64
   atom computed by the block (callprof: a side exit's guard, widened,
   to count the exits taken).

   IRClock counts guest instructions in a slot of each thread's shadow
   guest state instead (callprof's instruction clock), in less code:
   however a superblock is left, the count is then the count it was
   entered with plus the instructions passed on the way out, so the slot
   is read once and written before each exit, never read back:

      t0 = GET:I64(slot)                  ir_clock_begin, at the first IMark
      ...                                 ir_clock_tick, at each IMark
      PUT(slot) = t0 + n1                 ir_clock_write, before Exit(g)
      if (g) goto ...
      ...
      PUT(slot) = t0 + n                  ir_clock_write, at the end

   A write before an exit not taken is overwritten by a later one.  The
   slot is addressed off the guest state pointer, so a write is an lea
   and a short store, where an add to a global is two 64-bit address
   constants, a load, an add and a store.  The tool folds each thread's
   slot into its global count when the thread stops running client code
   (the core's stop_client_code; ir_clock_take), so the global count is
   exact whenever the tool runs outside generated code; its helpers
   called from generated code are given the slot's value (ir_clock_now)
   instead. */

#ifndef IR_COUNTER_H
#define IR_COUNTER_H

#include "pub_tool_basics.h"
#include "pub_tool_machine.h"
#include "pub_tool_tooliface.h"
#include "tool_platform.h"

static inline void ir_add_u64_by(IRSB *sb, IRExpr *addr, IRExpr *delta)
{
   IRTemp old = newIRTemp(sb->tyenv, Ity_I64);
   IRTemp upd = newIRTemp(sb->tyenv, Ity_I64);
   addStmtToIRSB(sb, IRStmt_WrTmp(old, IRExpr_Load(TP_END, Ity_I64, addr)));
   addStmtToIRSB(sb, IRStmt_WrTmp(upd, IRExpr_Binop(Iop_Add64,
                                       IRExpr_RdTmp(old), delta)));
   addStmtToIRSB(sb, IRStmt_Store(TP_END, addr, IRExpr_RdTmp(upd)));
}

static inline void ir_add_u64(IRSB *sb, IRExpr *addr, ULong delta)
{
   ir_add_u64_by(sb, addr, IRExpr_Const(IRConst_U64(delta)));
}

typedef struct {
   Int    slot;    /* guest state offset of the count */
   IRTemp base;    /* the count when the superblock was entered */
   ULong  n;       /* instructions passed since then */
   ULong  written; /* N as of the last write */
} IRClock;

/* Nothing yet: ir_clock_begin comes at the first IMark. */
static inline void ir_clock_init(IRClock *c)
{
   c->slot = -1;
   c->base = IRTemp_INVALID;
   c->n = c->written = 0;
}

static inline void ir_clock_begin(IRSB *sb, IRClock *c, Int slot)
{
   c->slot = slot;
   c->base = newIRTemp(sb->tyenv, Ity_I64);
   c->n = c->written = 0;
   addStmtToIRSB(sb, IRStmt_WrTmp(c->base, IRExpr_Get(slot, Ity_I64)));
}

static inline void ir_clock_tick(IRClock *c)
{
   c->n++;
}

/* The count as of here (an atom). */
static inline IRExpr *ir_clock_now(IRSB *sb, const IRClock *c)
{
   IRTemp now;
   if (c->n == 0)
      return IRExpr_RdTmp(c->base);
   now = newIRTemp(sb->tyenv, Ity_I64);
   addStmtToIRSB(sb, IRStmt_WrTmp(now, IRExpr_Binop(Iop_Add64,
                    IRExpr_RdTmp(c->base), IRExpr_Const(IRConst_U64(c->n)))));
   return IRExpr_RdTmp(now);
}

/* Before an exit, and at the end.  NOW: ir_clock_now's value here, or
   NULL.  Nothing to write when no instruction has passed since the last
   write: an exit right before the end leaves the slot as the end would
   have it. */
static inline void ir_clock_write(IRSB *sb, IRClock *c, IRExpr *now)
{
   if (c->n == c->written)
      return;
   addStmtToIRSB(sb, IRStmt_Put(c->slot, now ? now : ir_clock_now(sb, c)));
   c->written = c->n;
}

/* The count in thread TID's slot (an offset in its shadow state 1),
   left there. */
static inline ULong ir_clock_peek(ThreadId tid, Int slot)
{
   ULong n;
   VG_(get_shadow_regs_area)(tid, (UChar *)&n, 1, slot, sizeof n);
   return n;
}

/* The same, taken out: the slot starts again from 0.  For the tool's
   stop_client_code, which adds it to the global count (callprof's
   clock, and heapsnap's count of superblocks with no early exit:
   heapsnap/hs_fast.c). */
static inline ULong ir_clock_take(ThreadId tid, Int slot)
{
   static const ULong zero = 0;
   ULong n = ir_clock_peek(tid, slot);
   VG_(set_shadow_regs_area)(tid, 1, slot, sizeof zero, (const UChar *)&zero);
   return n;
}

/* For the tool's post_deliver_signal: a signal handler of thread TID
   returned, and the core has put back the shadow state saved in the
   signal frame, the slot with it.  The slot held then what the thread
   had counted since it last stopped, which a stop has taken since: a
   frame is pushed either while the thread is stopped (the slot 0), or,
   for a fault in the middle of a block, before the thread stops, and
   then the stop right after takes the count.  Either way the count put
   back was taken already, and the slot starts again from 0 (else each
   fault whose handler returns would count again the thread's
   instructions from its last stop to the fault). */
static inline void ir_clock_signal_return(ThreadId tid, Int slot)
{
   (void)ir_clock_take(tid, slot);
}

#endif /* IR_COUNTER_H */
