/* ir_counter.h: the one piece of instrumentation both tools share.

   Copyright (C) 2026 The heapsnap/callprof developers.
   SPDX-License-Identifier: GPL-2.0-or-later

   ir_add_u64(sb, addr, delta) appends to superblock SB the IR of

      *(ULong *)ADDR += DELTA

   inline: a load, an add of a constant and a store, no helper call.
   heapsnap counts guest instructions with it (once per run of a
   superblock), callprof its per-run counters and its instruction
   clock. */

#ifndef IR_COUNTER_H
#define IR_COUNTER_H

#include "pub_tool_basics.h"
#include "pub_tool_tooliface.h"

static inline void ir_add_u64(IRSB *sb, IRExpr *addr, ULong delta)
{
   IRTemp old = newIRTemp(sb->tyenv, Ity_I64);
   IRTemp upd = newIRTemp(sb->tyenv, Ity_I64);
   addStmtToIRSB(sb, IRStmt_WrTmp(old, IRExpr_Load(Iend_LE, Ity_I64, addr)));
   addStmtToIRSB(sb, IRStmt_WrTmp(upd, IRExpr_Binop(Iop_Add64,
                                       IRExpr_RdTmp(old),
                                       IRExpr_Const(IRConst_U64(delta)))));
   addStmtToIRSB(sb, IRStmt_Store(Iend_LE, addr, IRExpr_RdTmp(upd)));
}

#endif /* IR_COUNTER_H */
