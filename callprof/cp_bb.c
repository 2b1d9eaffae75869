/* cp_bb.c: functions, blocks and the instrumentation.

   Copyright (C) 2026 The heapsnap/callprof developers.
   SPDX-License-Identifier: GPL-2.0-or-later

   Blocks are Callgrind's: the core translates without chasing branches
   and without unrolling (set in cp_main.c), so a superblock is a basic
   block ending at the first branch, and one starts at every address
   Callgrind's start at.  Callgrind names a block's function, object and
   section after its first instruction; so do we (CP_Loc).

   What a block executes:

      base = CP_(cur_ctx) == <block's function> ? <block's counters>
                                                : CP_(foreign_count)(b)
      per run r:           base[r]++ ; CP_(ir) += <run length>
      per exit that may change function (a call, a return, an indirect
      jump, a jump Callgrind takes as a call):
                           CP_(transition)(exit, target, SP)
      per system call:     CP_(sys_block) = b ; CP_(sys_count) = base

   The first line is a load, a compare and a conditional move; the
   helper runs only in the rare foreign contexts.  The run lines are
   inline (no call).  The transitions are where Callgrind's per-block
   helper does its real work; everything else it does per block is left
   out. */

#include "pub_tool_basics.h"
#include "pub_tool_debuginfo.h"
#include "pub_tool_hashtable.h"
#include "pub_tool_libcassert.h"
#include "pub_tool_libcbase.h"
#include "pub_tool_libcprint.h"
#include "pub_tool_machine.h"
#include "pub_tool_mallocfree.h"
#include "pub_tool_tooliface.h"

#include "cp.h"

CP_Block *CP_(all_blocks);
ULong     CP_(ir);
CP_Fn    *CP_(cur_ctx);
CP_Block *CP_(sys_block);
ULong    *CP_(sys_count);

/*------------------------------------------------------------*/
/*--- Functions                                            ---*/
/*------------------------------------------------------------*/

static VgHashTable *fns;
static UInt         n_fns;

static UWord hash_str(UWord h, const HChar *s)
{
   while (*s)
      h = h * 31 + (UChar)*s++;
   return h;
}

static CP_Fn *fn_get(const HChar *obj, const HChar *file, const HChar *name)
{
   UWord key = hash_str(hash_str(hash_str(7, obj), file), name);
   CP_Fn *f;

   for (f = VG_(HT_lookup)(fns, key); f; f = f->next)
      if (f->key == key && VG_STREQ(f->name, name) &&
          VG_STREQ(f->file, file) && VG_STREQ(f->obj, obj))
         return f;
   f = VG_(calloc)("cp.bb.fn_get.1", 1, sizeof *f);
   f->key = key;
   f->obj = VG_(strdup)("cp.bb.fn_get.2", obj);
   f->file = VG_(strdup)("cp.bb.fn_get.3", file);
   f->name = VG_(strdup)("cp.bb.fn_get.4", name);
   f->n = n_fns++;
   f->pop_on_jump = VG_(strncmp)(name, "_dl_runtime_resolve", 19) == 0;
   VG_(HT_add_node)(fns, f);
   return f;
}

CP_Fn **CP_(all_fns)(UInt *n)
{
   return (CP_Fn **)VG_(HT_to_array)(fns, n);
}

/*------------------------------------------------------------*/
/*--- Locations                                            ---*/
/*------------------------------------------------------------*/

static VgHashTable *locs;

/* Callgrind's get_fn_node: the function of the block at A.  Its file
   is the one of A (DIR/FILE), so code inlined at a block's start makes
   a function of its own, as in Callgrind. */
CP_Loc *CP_(loc_of)(Addr a)
{
   CP_Loc *l = VG_(HT_lookup)(locs, a);
   DiEpoch ep;
   const HChar *file, *dir, *name, *obj;
   HChar file_buf[4096], name_buf[64];
   UInt line;
   Bool plt = False;

   if (l)
      return l;
   ep = VG_(current_DiEpoch)();
   l = VG_(calloc)("cp.bb.loc_of.1", 1, sizeof *l);
   l->key = a;
   l->di = VG_(find_DebugInfo)(ep, a);
   l->sect = VG_(DebugInfo_sect_kind)(NULL, a);
   obj = l->di ? VG_(DebugInfo_get_filename)(l->di) : "???";

   if (VG_(get_filename_linenum)(ep, a, &file, &dir, &line)) {
      if (dir && dir[0]) {
         VG_(snprintf)(file_buf, sizeof file_buf, "%s/%s", dir, file);
         file = file_buf;
      }
   } else {
      file = "???";
   }
   if (!VG_(get_fnname)(ep, a, &name)) {
      Addr off = a - (l->di ? VG_(DebugInfo_get_text_bias)(l->di) : 0);
      Int p = VG_(sprintf)(name_buf, "%#016lx", off);
      VG_(sprintf)(name_buf + p, "%s",
                   l->sect == Vg_SectData ? " [Data]" :
                   l->sect == Vg_SectBSS  ? " [BSS]"  :
                   l->sect == Vg_SectGOT  ? " [GOT]"  :
                   l->sect == Vg_SectPLT  ? " [PLT]"  : "");
      name = name_buf;
   } else {
      const HChar *entry;
      l->is_entry = VG_(get_fnname_if_entry)(ep, a, &entry);
   }
   plt = l->sect == Vg_SectPLT;
   l->fn = fn_get(obj, file, name);
   if (plt && CP_(clo_skip_plt))
      l->fn->skip = True;
   VG_(HT_add_node)(locs, l);
   return l;
}

/*------------------------------------------------------------*/
/*--- Blocks                                               ---*/
/*------------------------------------------------------------*/

static VgHashTable *blocks_by_addr;

/* The block for IN at ADDR, if one exists with the same instructions
   (code retranslated after a discard keeps its counts). */
static CP_Block *find_block(Addr addr, const IRSB *in)
{
   CP_Block *b;
   for (b = VG_(HT_lookup)(blocks_by_addr, addr); b; b = b->next) {
      UInt i = 0;
      Int s;
      Bool same = b->key == addr;
      for (s = 0; same && s < in->stmts_used; s++)
         if (in->stmts[s]->tag == Ist_IMark) {
            if (i >= b->n_instrs ||
                b->instr_addr[i] != (Addr)in->stmts[s]->Ist.IMark.addr)
               same = False;
            i++;
         }
      if (same && i == b->n_instrs)
         return b;
   }
   return NULL;
}

static CP_Block *new_block(Addr addr, const IRSB *in)
{
   CP_Block *b = VG_(calloc)("cp.bb.new_block.1", 1, sizeof *b);
   UInt n = 0, runs = 1, r = 0, i = 0;
   Bool run_open = False;
   Int s;

   for (s = 0; s < in->stmts_used; s++) {
      if (in->stmts[s]->tag == Ist_IMark)
         n++;
      else if (in->stmts[s]->tag == Ist_Exit)
         runs++;
   }
   b->key = addr;
   b->loc = CP_(loc_of)(addr);
   b->n_instrs = n;
   b->instr_addr = VG_(malloc)("cp.bb.new_block.2", (n ? n : 1) * sizeof(Addr));
   b->run_of = VG_(malloc)("cp.bb.new_block.3", (n ? n : 1) * sizeof(UShort));
   b->run_len = VG_(calloc)("cp.bb.new_block.4", runs, sizeof(UShort));
   b->count = VG_(calloc)("cp.bb.new_block.5", runs, sizeof(ULong));

   /* Number the runs as the instrumentation does. */
   for (s = 0; s < in->stmts_used; s++) {
      const IRStmt *st = in->stmts[s];
      if (st->tag == Ist_IMark) {
         run_open = True;
         b->instr_addr[i] = (Addr)st->Ist.IMark.addr;
         b->run_len[r]++;
         b->run_of[i++] = r;
      } else if (st->tag == Ist_Exit && run_open) {
         r++;
         run_open = False;
      }
   }
   b->n_runs = run_open || r == 0 ? r + 1 : r;

   VG_(HT_add_node)(blocks_by_addr, b);
   b->all_next = CP_(all_blocks);
   CP_(all_blocks) = b;
   return b;
}

VG_REGPARM(1) ULong *CP_(foreign_count)(CP_Block *b)
{
   CP_Fn *ctx = CP_(first_block_ctx)();
   CP_Foreign *f;
   Addr site;

   if (ctx == b->loc->fn)
      return b->count;
   if (ctx == NULL) {
      /* A thread's (or a signal handler's) first block: Callgrind makes
         its function the context. */
      CP_(cur_ctx) = b->loc->fn;
      return b->count;
   }
   site = b->loc->fn->skip ? CP_(skipped_site)() : 0;
   for (f = b->foreign; f; f = f->next)
      if (f->ctx == ctx && f->site == site)
         return f->count;
   f = VG_(malloc)("cp.bb.foreign.1", sizeof *f);
   f->ctx = ctx;
   f->site = site;
   f->count = VG_(calloc)("cp.bb.foreign.2", b->n_runs, sizeof(ULong));
   f->next = b->foreign;
   b->foreign = f;
   return f->count;
}

/*------------------------------------------------------------*/
/*--- Instrumentation                                      ---*/
/*------------------------------------------------------------*/

/* *addr += delta, inline. */
static void add_to(IRSB *out, IRExpr *addr, ULong delta)
{
   IRTemp old = newIRTemp(out->tyenv, Ity_I64);
   IRTemp upd = newIRTemp(out->tyenv, Ity_I64);
   addStmtToIRSB(out, IRStmt_WrTmp(old, IRExpr_Load(Iend_LE, Ity_I64, addr)));
   addStmtToIRSB(out, IRStmt_WrTmp(upd, IRExpr_Binop(Iop_Add64,
                                       IRExpr_RdTmp(old),
                                       IRExpr_Const(IRConst_U64(delta)))));
   addStmtToIRSB(out, IRStmt_Store(Iend_LE, addr, IRExpr_RdTmp(upd)));
}

static IRExpr *tmp_of(IRSB *out, IRType ty, IRExpr *e)
{
   IRTemp t = newIRTemp(out->tyenv, ty);
   addStmtToIRSB(out, IRStmt_WrTmp(t, e));
   return IRExpr_RdTmp(t);
}

/* base = CP_(cur_ctx) == fn ? b->count : CP_(foreign_count)(b) */
static IRTemp add_base(IRSB *out, CP_Block *b)
{
   IRExpr *ctx = tmp_of(out, Ity_I64,
                        IRExpr_Load(Iend_LE, Ity_I64,
                                    mkIRExpr_HWord((HWord)&CP_(cur_ctx))));
   IRExpr *other = tmp_of(out, Ity_I1,
                          IRExpr_Binop(Iop_CmpNE64, ctx,
                                       mkIRExpr_HWord((HWord)b->loc->fn)));
   IRTemp got = newIRTemp(out->tyenv, Ity_I64);
   IRTemp base = newIRTemp(out->tyenv, Ity_I64);
   IRDirty *d = unsafeIRDirty_1_N(got, 1, "cp_foreign_count",
                                  VG_(fnptr_to_fnentry)(&CP_(foreign_count)),
                                  mkIRExprVec_1(mkIRExpr_HWord((HWord)b)));
   d->guard = other;
   addStmtToIRSB(out, IRStmt_Dirty(d));
   addStmtToIRSB(out, IRStmt_WrTmp(base,
                    IRExpr_ITE(other, IRExpr_RdTmp(got),
                               mkIRExpr_HWord((HWord)b->count))));
   return base;
}

/* Whether Callgrind would take a jump from block B to TARGET as a call
   (bbcc.c: into another object or section kind, or to a function's
   first instruction). */
static Bool jump_is_call(const CP_Block *b, Addr target)
{
   CP_Loc *to = CP_(loc_of)(target);
   return to->is_entry || to->sect != b->loc->sect || to->di != b->loc->di;
}

/* The transition helper before an exit: GUARD NULL for the final exit. */
static void add_transition(IRSB *out, const VexGuestLayout *layout,
                           CP_Block *b, CP_Kind kind, Addr instr,
                           Addr next_instr, IRExpr *target, IRExpr *guard)
{
   CP_Exit *e = VG_(malloc)("cp.bb.exit.1", sizeof *e);
   IRExpr *sp = tmp_of(out, Ity_I64, IRExpr_Get(layout->offset_SP, Ity_I64));
   IRDirty *d;

   e->block = b;
   e->kind = kind;
   e->instr = instr;
   e->ret_addr = kind == CP_Call ? next_instr : 0;
   d = unsafeIRDirty_0_N(3, "cp_transition",
                         VG_(fnptr_to_fnentry)(&CP_(transition)),
                         mkIRExprVec_3(mkIRExpr_HWord((HWord)e), target, sp));
   if (guard)
      d->guard = guard;
   addStmtToIRSB(out, IRStmt_Dirty(d));
}

/* Which exits get a transition: calls and returns always; other jumps
   when the target is unknown, or known and taken as a call. */
static Bool wants_transition(const CP_Block *b, IRJumpKind jk, IRExpr *dst,
                             CP_Kind *kind)
{
   *kind = jk == Ijk_Call ? CP_Call : jk == Ijk_Ret ? CP_Ret : CP_Jump;
   if (*kind != CP_Jump)
      return True;
   if (dst->tag != Iex_Const)
      return True;
   return jump_is_call(b, (Addr)dst->Iex.Const.con->Ico.U64);
}

IRSB *CP_(instrument)(VgCallbackClosure *closure, IRSB *in,
                      const VexGuestLayout *layout,
                      const VexGuestExtents *vge,
                      const VexArchInfo *archinfo_host,
                      IRType gWordTy, IRType hWordTy)
{
   IRSB *out = deepCopyIRSBExceptStmts(in);
   CP_Block *b;
   IRTemp base = IRTemp_INVALID;
   Bool run_open = False;
   UInt r = 0;
   Addr instr = 0, next_instr = 0;
   CP_Kind kind;
   Int s;

   if (gWordTy != Ity_I64 || hWordTy != Ity_I64)
      VG_(tool_panic)("callprof: 64-bit platforms only");
   for (s = 0; s < in->stmts_used && in->stmts[s]->tag != Ist_IMark; s++)
      addStmtToIRSB(out, in->stmts[s]);
   if (s == in->stmts_used)
      return out;
   b = find_block(closure->nraddr, in);
   if (b == NULL)
      b = new_block(closure->nraddr, in);

   for (; s < in->stmts_used; s++) {
      IRStmt *st = in->stmts[s];
      if (st->tag == Ist_IMark) {
         instr = (Addr)st->Ist.IMark.addr;
         next_instr = instr + st->Ist.IMark.len;
         if (!run_open) {
            IRExpr *addr;
            if (base == IRTemp_INVALID)
               base = add_base(out, b);
            addr = tmp_of(out, Ity_I64,
                          IRExpr_Binop(Iop_Add64, IRExpr_RdTmp(base),
                                       IRExpr_Const(IRConst_U64(8 * r))));
            add_to(out, addr, 1);
            add_to(out, mkIRExpr_HWord((HWord)&CP_(ir)), b->run_len[r]);
            run_open = True;
         }
      } else if (st->tag == Ist_Exit) {
         IRExpr *dst = IRExpr_Const(st->Ist.Exit.dst);
         if (wants_transition(b, st->Ist.Exit.jk, dst, &kind))
            add_transition(out, layout, b, kind, instr, next_instr, dst,
                           st->Ist.Exit.guard);
         if (run_open) {
            r++;
            run_open = False;
         }
      }
      addStmtToIRSB(out, st);
   }

   if (wants_transition(b, in->jumpkind, in->next, &kind))
      add_transition(out, layout, b, kind, instr, next_instr, in->next, NULL);
   if (in->jumpkind == Ijk_Sys_syscall && base != IRTemp_INVALID) {
      addStmtToIRSB(out, IRStmt_Store(Iend_LE,
                       mkIRExpr_HWord((HWord)&CP_(sys_block)),
                       mkIRExpr_HWord((HWord)b)));
      addStmtToIRSB(out, IRStmt_Store(Iend_LE,
                       mkIRExpr_HWord((HWord)&CP_(sys_count)),
                       IRExpr_RdTmp(base)));
   }
   return out;
}

void CP_(bb_init)(void)
{
   fns = VG_(HT_construct)("callprof fns");
   locs = VG_(HT_construct)("callprof locs");
   blocks_by_addr = VG_(HT_construct)("callprof blocks");
}
