/* ir_chain.h: the instrumentation both tools share: an indirect exit
   chained to the target it had when its superblock was translated.

   Copyright (C) 2026 The heapsnap/callprof developers.
   SPDX-License-Identifier: GPL-2.0-or-later

   A superblock that ends in a return, an indirect call or an indirect
   jump leaves through the core's dispatcher, which looks the target up
   in its fast cache and jumps there through one indirect jump shared by
   every such exit of the program.  A direct exit is chained instead: the
   core patches it into a jump straight to the target's translation.
   Most indirect exits go to one target most of the time (a function
   called from one place returns there; a PLT stub jumps where its GOT
   slot points), and the core translates a superblock when the thread is
   about to run it, so the thread's registers and memory at that moment
   say where this run of it will go.  ir_chain_guess(out, in, tid)
   works that target G out from IN, the superblock as the core gave it,
   and appends to OUT, just before its end, a direct exit to G taken
   when the target is G:

      t = (next == G)
      if (t) goto G                     chained by the core
      goto next                         as before: the dispatcher

   So a run that goes to G as the one that was translated did goes there
   by a compare and a direct jump; one that goes elsewhere pays the
   compare.  The exit is the superblock's own end taken early, after
   everything the tool appended for that end, so nothing else changes.

   Which ends get one, by what their guesses were worth (runs of the
   exit that went to G, under callprof): returns (sqlite3 57%, perl 56%,
   C++ 31%, python3 28%) and indirect calls (sqlite3 93%, C++ 33%, perl
   23%) all; indirect jumps only through a slot at a fixed address, a
   PLT stub's GOT slot (sqlite3's, bound at start-up: all of 22 million),
   since a jump through a register or a table (a switch, computed
   gotos) seldom goes where it went before (python3 4%, C++ 0%); and no
   G in a PLT section, where a stub's slot points until the dynamic
   linker binds it, after the guess was made (C++'s 46 million jumps
   through lazily bound stubs, none to G).

   G is worked out by evaluating the superblock's statements in order,
   with what the IR needs for a return or a jump through memory or a
   register: GET (a register as the thread has it, or as a PUT earlier
   in the superblock set it), a 64-bit little-endian load, Add64, Sub64
   and constants.  A load is read from client memory the client can
   read, under a fault catcher (ir_chain_read).  A GET after a dirty
   helper or a PutI (either may write any register) is not known, nor is
   any other expression; an end whose target is not known gets no exit.
   A wrong G costs a compare each run, never a wrong target: the exit is
   taken only when the target is G.

   What changes beside the time is the core's count of superblocks run,
   which decides when it switches threads (every 100,000) and when
   callprof's --dump-every-bb looks at its own count.  The count is kept
   by each translation's first instructions (the event check), which
   every exit through the dispatcher enters by, as do chained exits to a
   lower address, but a chained exit to a greater address than any of
   its superblock's instructions enters past them (VEX's fast entry
   point, ir_opt.c's max_ga).  So where an indirect exit is chained
   forwards, a thread's time slice runs more superblocks, and a program
   with threads changes threads at other points than under Callgrind or
   Massif: its work is the same, but where threads wait for each other
   (libc's futex loops, spinning) the counts can differ, as they can
   from run to run.  (Keeping the count costs most of what the chaining
   gives: with a test and a decrement of the count in each such exit,
   callprof took 1.003 of its time without the exits on sqlite3, where
   the exits alone gave 0.980; with the exit moved to the checked entry,
   0.986: docs/benchmarks.md, "Indirect exits chained at translation".)
   callprof leaves the exits out under --dump-every-bb, whose dumps are
   then where Callgrind's are.  A superblock that gdbserver instruments
   for a debugger loses its exit again (ir_chain_tidy, the tools' final
   pass), so that a debugger stepping sees what it sees without them.

   heapsnap appends it under --fast-paths (heapsnap/hs_fast.c, trick 4),
   callprof unless --chain-guess=no (callprof/cp_bb.c); --stats=yes
   counts the superblocks given one (ir_chain_stats) and the core's
   "indir transfers" fall (sqlite3 under callprof: 66.5 to 24.0
   million). */

#ifndef IR_CHAIN_H
#define IR_CHAIN_H

#include "pub_tool_basics.h"
#include "pub_tool_aspacemgr.h"
#include "pub_tool_debuginfo.h"
#include "pub_tool_libcbase.h"
#include "pub_tool_libcprint.h"
#include "pub_tool_libcsetjmp.h"
#include "pub_tool_libcsignal.h"
#include "pub_tool_machine.h"
#include "pub_tool_mallocfree.h"
#include "pub_tool_signals.h"
#include "pub_tool_tooliface.h"
#include "pub_tool_vki.h"
#include "tool_platform.h"

/* Superblocks that end in an indirect exit, and those given a guess
   (--stats=yes). */
static ULong ir_chain_ends, ir_chain_guessed;

#define IR_CHAIN_PUTS 16

typedef struct {
   ThreadId tid;
   ULong   *val;            /* per temporary: its value, if known */
   UChar   *known;
   Bool     any_put;        /* a dirty helper or PutI ran: no GET known */
   Int      n_puts;         /* the PUTs so far, last one last */
   Int      put_off[IR_CHAIN_PUTS], put_size[IR_CHAIN_PUTS];
   Bool     put_known[IR_CHAIN_PUTS];
   ULong    put_val[IR_CHAIN_PUTS];
} IRChainEval;

static inline Bool ir_chain_atom(const IRChainEval *ev, const IRExpr *e,
                                 ULong *v)
{
   if (e->tag == Iex_RdTmp && ev->known[e->Iex.RdTmp.tmp]) {
      *v = ev->val[e->Iex.RdTmp.tmp];
      return True;
   }
   if (e->tag == Iex_Const && e->Iex.Const.con->tag == Ico_U64) {
      *v = e->Iex.Const.con->Ico.U64;
      return True;
   }
   return False;
}

/* 8 bytes of client memory at A, if they can be read: the client may
   have them mapped readable and still fault (a file mapping past the
   file's end), so the read is made under a fault catcher, as Memcheck's
   leak check reads.  The catcher leaves the core's signal handler by a
   long jump, with the signal still blocked: the mask is put back, or
   the client's own fault of that kind would kill the process. */
static VG_MINIMAL_JMP_BUF(ir_chain_jmpbuf);

static inline void ir_chain_fault(Int sig, Addr addr)
{
   if (sig == VKI_SIGSEGV || sig == VKI_SIGBUS)
      VG_MINIMAL_LONGJMP(ir_chain_jmpbuf);
}

static inline Bool ir_chain_read(Addr a, ULong *v)
{
   fault_catcher_t prev;
   vki_sigset_t mask;
   volatile Bool ok = False;

   if (!VG_(am_is_valid_for_client)(a, 8, VKI_PROT_READ))
      return False;
   VG_(sigprocmask)(VKI_SIG_SETMASK, NULL, &mask);
   prev = VG_(set_fault_catcher)(ir_chain_fault);
   if (VG_MINIMAL_SETJMP(ir_chain_jmpbuf) == 0) {
      *v = *(volatile const ULong *)a;
      ok = True;
   } else
      VG_(sigprocmask)(VKI_SIG_SETMASK, &mask, NULL);
   VG_(set_fault_catcher)(prev);
   return ok;
}

static inline Bool ir_chain_get(const IRChainEval *ev, Int off, ULong *v)
{
   Int i;
   if (ev->any_put)
      return False;
   for (i = ev->n_puts - 1; i >= 0; i--) {
      Int o = ev->put_off[i], n = ev->put_size[i];
      if (o < off + 8 && off < o + n) {
         if (o != off || n != 8 || !ev->put_known[i])
            return False;
         *v = ev->put_val[i];
         return True;
      }
   }
   VG_(get_shadow_regs_area)(ev->tid, (UChar *)v, 0, off, 8);
   return True;
}

static inline Bool ir_chain_expr(const IRChainEval *ev, const IRExpr *e,
                                 ULong *v)
{
   ULong a, b;
   switch (e->tag) {
   case Iex_RdTmp:
   case Iex_Const:
      return ir_chain_atom(ev, e, v);
   case Iex_Get:
      return e->Iex.Get.ty == Ity_I64 && ir_chain_get(ev, e->Iex.Get.offset, v);
   case Iex_Load:
      return e->Iex.Load.ty == Ity_I64 && e->Iex.Load.end == TP_END
             && ir_chain_atom(ev, e->Iex.Load.addr, &a) && ir_chain_read(a, v);
   case Iex_Binop:
      if ((e->Iex.Binop.op != Iop_Add64 && e->Iex.Binop.op != Iop_Sub64)
          || !ir_chain_atom(ev, e->Iex.Binop.arg1, &a)
          || !ir_chain_atom(ev, e->Iex.Binop.arg2, &b))
         return False;
      *v = e->Iex.Binop.op == Iop_Add64 ? a + b : a - b;
      return True;
   default:
      return False;
   }
}

/* The target of IN's end if the thread TID ran IN now, the superblock's
   statements evaluated in order. */
static inline Bool ir_chain_target(const IRSB *in, ThreadId tid, ULong *g)
{
   IRChainEval ev;
   Int i, n_tmps = in->tyenv->types_used;
   Bool ok;

   ev.tid = tid;
   ev.any_put = False;
   ev.n_puts = 0;
   ev.val = VG_(malloc)("ir_chain", n_tmps * (sizeof(ULong) + 1));
   ev.known = (UChar *)(ev.val + n_tmps);
   VG_(memset)(ev.known, 0, n_tmps);
   for (i = 0; i < in->stmts_used; i++) {
      const IRStmt *st = in->stmts[i];
      switch (st->tag) {
      case Ist_WrTmp:
         ev.known[st->Ist.WrTmp.tmp] =
            ir_chain_expr(&ev, st->Ist.WrTmp.data, &ev.val[st->Ist.WrTmp.tmp]);
         break;
      case Ist_Put:
         if (ev.n_puts == IR_CHAIN_PUTS) {
            ev.any_put = True;
            break;
         }
         ev.put_off[ev.n_puts] = st->Ist.Put.offset;
         ev.put_size[ev.n_puts] =
            sizeofIRType(typeOfIRExpr(in->tyenv, st->Ist.Put.data));
         ev.put_known[ev.n_puts] = ev.put_size[ev.n_puts] == 8
            && ir_chain_atom(&ev, st->Ist.Put.data, &ev.put_val[ev.n_puts]);
         ev.n_puts++;
         break;
      case Ist_PutI:
      case Ist_Dirty:
         ev.any_put = True;
         break;
      default:                    /* LoadG, CAS, LLSC: their temporaries */
         break;                   /* stay unknown */
      }
   }
   ok = ir_chain_atom(&ev, in->next, g);
   VG_(free)(ev.val);
   return ok;
}

/* Whether IN's end jumps through a slot at a fixed address (a PLT
   stub's GOT slot), not through a register or a table. */
static inline Bool ir_chain_through_slot(const IRSB *in)
{
   IRTemp t = in->next->Iex.RdTmp.tmp;
   Int i;
   for (i = in->stmts_used - 1; i >= 0; i--) {
      const IRStmt *st = in->stmts[i];
      if (st->tag == Ist_WrTmp && st->Ist.WrTmp.tmp == t)
         return st->Ist.WrTmp.data->tag == Iex_Load
                && st->Ist.WrTmp.data->Iex.Load.addr->tag == Iex_Const;
   }
   return False;
}

static inline IRExpr *ir_chain_tmp(IRSB *sb, IRType ty, IRExpr *e)
{
   IRTemp t = newIRTemp(sb->tyenv, ty);
   addStmtToIRSB(sb, IRStmt_WrTmp(t, e));
   return IRExpr_RdTmp(t);
}

static inline void ir_chain_guess(IRSB *out, const IRSB *in, ThreadId tid)
{
   ULong g;

   if (in->next->tag != Iex_RdTmp
       || (in->jumpkind != Ijk_Ret && in->jumpkind != Ijk_Boring
           && in->jumpkind != Ijk_Call))
      return;
   ir_chain_ends++;
   if (in->jumpkind == Ijk_Boring && !ir_chain_through_slot(in))
      return;
   if (!ir_chain_target(in, tid, &g)
       || VG_(DebugInfo_sect_kind)(NULL, g) == Vg_SectPLT)
      return;
   ir_chain_guessed++;
   addStmtToIRSB(out, IRStmt_Exit(
      ir_chain_tmp(out, Ity_I1, IRExpr_Binop(Iop_CmpEQ64, out->next,
                                             IRExpr_Const(IRConst_U64(g)))),
      Ijk_Boring, IRConst_U64(g), out->offsIP));
}

/* The final pass (VG_(needs_final_IR_tidy_pass)), for a debugger.
   When gdbserver instruments a superblock (a breakpoint in it, or the
   debugger single-stepping), it appends after the superblock's
   statements a call that first makes sure the end's target is
   instrumented too: taken before it, the chained exit would run on in
   the target's translation made without (a debugger's stepi over a
   return ran on to the next breakpoint).  So an exit of ours followed
   by a call goes.  An exit is taken for ours by its shape: the
   superblock's last, direct, taken when the end's target (a
   temporary) is the exit's own target, and followed only by calls and
   temporaries; dropping such an exit changes nothing but the way
   there. */
static inline IRSB *ir_chain_tidy(IRSB *sb)
{
   Int i;
   IRStmt *st;
   const IRExpr *g;
   Bool call = False;

   for (i = sb->stmts_used - 1; i >= 0; i--) {
      IRStmtTag t = sb->stmts[i]->tag;
      if (t == Ist_Dirty)
         call = True;
      else if (t != Ist_WrTmp && t != Ist_NoOp)
         break;
   }
   if (i < 0 || !call || sb->stmts[i]->tag != Ist_Exit
       || sb->next->tag != Iex_RdTmp)
      return sb;
   st = sb->stmts[i];
   g = st->Ist.Exit.guard;
   if (st->Ist.Exit.jk == Ijk_Boring && g->tag == Iex_Binop
       && g->Iex.Binop.op == Iop_CmpEQ64
       && g->Iex.Binop.arg1->tag == Iex_RdTmp
       && g->Iex.Binop.arg1->Iex.RdTmp.tmp == sb->next->Iex.RdTmp.tmp
       && g->Iex.Binop.arg2->tag == Iex_Const
       && g->Iex.Binop.arg2->Iex.Const.con->tag == Ico_U64
       && g->Iex.Binop.arg2->Iex.Const.con->Ico.U64
          == st->Ist.Exit.dst->Ico.U64)
      sb->stmts[i] = IRStmt_NoOp();
   return sb;
}

/* --stats=yes */
static inline void ir_chain_stats(const HChar *tool)
{
   VG_(dmsg)("%s: superblocks ending in an indirect exit: %llu, "
             "chained to the target at translation: %llu\n",
             tool, ir_chain_ends, ir_chain_guessed);
}

#endif /* IR_CHAIN_H */
