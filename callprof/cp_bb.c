/* cp_bb.c: functions, blocks and the instrumentation.

   Copyright (C) 2026 The heapsnap/callprof developers.
   SPDX-License-Identifier: GPL-2.0-or-later

   Blocks are Callgrind's: the core translates without chasing branches
   and without unrolling (set in cp_main.c), so a superblock is a basic
   block ending at the first branch, and one starts at every address
   Callgrind's start at.  Callgrind names a block's function, object and
   section after its first instruction; so do we (CP_Loc).

   What a block executes:

      if (CP_(inline_ctx) != b->last_ctx)
                           CP_(ctx_counters)(b, clock)
      (in skipped code: ... || CP_(skip_site) != site of b->last_count)
      base = b->last_count
      per run r:           base[r]++
      per exit, and at the end:
                           <clock slot> = <slot at entry> + <instrs so far>
      per exit that may change function (a call, a return, an indirect
      jump, a jump Callgrind takes as a call), the helper of its kind:
                           CP_(transition_<kind>)(exit, target, SP, clock)
         (an indirect jump only when its target leaves its function's
         symbol: see "Indirect jumps inside their function")
      per system call or client request:
                           CP_(sys_block) = b ; CP_(sys_count) = base
      in a PLT stub's block (is_stub), first:
                           done = CP_(stub_pending) == b's address
                           CP_(stub_pending) = 0
         and when done (the call into it did its work, cp_calls.c,
         Folding) no helper, and the run counters are scratch ones
      with --cache-sim, first in a block making a client request:
                           CP_(creq_snapshot)(b, base)

   In the first lines each block remembers the last context it ran in
   with shared counters (its own function, a recursion level fn'2, a
   caller context) and those counters: two loads and a compare, the
   helper only when the context changed since the block last ran.  The
   helper returns nothing: it leaves the counters to use in
   b->last_count (remembering the context only when it decides alone),
   so the code after it is the same load either way.  A block runs again and again in one context (in a
   deep recursion, every level from the second on is fn'2), so that is
   rare.  The run lines are inline (no call).  The transitions are where
   Callgrind's per-block helper does its real work; everything else it
   does per block is left out.  All of it is written for size as much as
   for speed: the translations are a good part of the tool's memory.

   Options add to this only when given: --collect-bus calls a helper at
   each atomic instruction.  --collect-jumps adds a counter per side
   exit: the counts of direct jumps follow from those and the run
   counters (CP_BlockExit); indirect jumps are counted by the transition
   helper.  With --instr-atstart=no, or after STOP_INSTRUMENTATION,
   blocks are left as they are. */

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
#include "cp_classify.h"
#include "ir_chain.h"
#include "ir_counter.h"
#include "tool_platform.h"

ULong     CP_(ir);
ULong     CP_(ir_stopped);

CP_Ctx   *CP_(cur_ctx);
CP_Ctx   *CP_(inline_ctx);
Bool      CP_(fn_actions) = False;
CP_Ctx    CP_(unshared_mark);
Bool      CP_(shared_counting) = True;
Bool      CP_(instrumenting) = True;
CP_Block *CP_(sys_block);
ULong    *CP_(sys_count);

/* The core stopped running thread TID's client code: its clock slot
   goes into the global count (cp.h). */
void CP_(clock_fold)(ThreadId tid)
{
   CP_(ir_stopped) += ir_clock_take(tid, CP_CLOCK_SLOT);
   CP_(ir) = CP_(ir_stopped);
}

/*------------------------------------------------------------*/
/*--- Functions                                            ---*/
/*------------------------------------------------------------*/


static VgHashTable *fns;
static UInt         n_fns;
/* Every context, in creation order (ids 0 .. n_ctxs - 1). */
static CP_Ctx     **ctxs;
static UInt         n_ctxs, ctxs_size;

/* What callprof keeps for the whole run (functions, contexts, locations,
   blocks and their counters, arcs) is never freed: it comes zeroed from
   the core's permanent allocator, which adds no header to a block.
   With tens of thousands of blocks of seven small arrays each, the
   headers alone were megabytes. */
void *CP_(perm)(SizeT n)
{
   void *p = VG_(perm_malloc)(n ? n : 1, sizeof(ULong));
   VG_(memset)(p, 0, n ? n : 1);
   return p;
}

static HChar *perm_str(const HChar *s)
{
   HChar *p = CP_(perm)(VG_(strlen)(s) + 1);
   VG_(strcpy)(p, s);
   return p;
}

static UWord hash_str(UWord h, const HChar *s)
{
   while (*s)
      h = h * 31 + (UChar)*s++;
   return h;
}

/* Object and file names, one copy each: every function names both, and
   a program has few of them and many functions (python3: 40,574
   functions, whose copies took 1.9 MB). */
typedef struct StrNode {
   struct StrNode *next;   /* VgHashNode */
   UWord           key;
   HChar           s[];
} StrNode;
static VgHashTable *shared_strs;

static const HChar *shared_str(const HChar *s)
{
   UWord key = hash_str(0, s);
   StrNode *n;
   for (n = VG_(HT_lookup)(shared_strs, key); n; n = n->next)
      if (n->key == key && VG_STREQ(n->s, s))
         return n->s;
   n = CP_(perm)(sizeof *n + VG_(strlen)(s) + 1);
   n->key = key;
   VG_(strcpy)(n->s, s);
   VG_(HT_add_node)(shared_strs, n);
   return n->s;
}

/* A new context of FN under NAME at LEVEL, with callers CALLERS[0 ..
   N) (copied), BASE its level 1 (NULL: itself). */
static CP_Ctx *new_ctx(CP_Fn *fn, const HChar *name, UInt level,
                       CP_Ctx *base, CP_Fn *const *callers, UInt n)
{
   CP_Ctx *c = CP_(perm)(sizeof *c);
   UInt i;
   c->func = fn;
   c->name = name;
   c->level = level;
   c->base = base ? base : c;
   c->n_callers = n;
   if (n > 0) {
      c->callers = CP_(perm)(n * sizeof(CP_Fn *));
      for (i = 0; i < n; i++)
         c->callers[i] = callers[i];
   }
   if (n_ctxs == ctxs_size) {
      ctxs_size = ctxs_size ? 2 * ctxs_size : 1024;
      ctxs = VG_(realloc)("cp.bb.new_ctx.3", ctxs,
                          ctxs_size * sizeof(CP_Ctx *));
   }
   c->id = n_ctxs;
   ctxs[n_ctxs++] = c;
   return c;
}

static CP_Fn *fn_get(const HChar *obj, const HChar *file, const HChar *name)
{
   UWord key = hash_str(hash_str(hash_str(7, obj), file), name);
   CP_Fn *f;

   for (f = VG_(HT_lookup)(fns, key); f; f = f->next)
      if (f->key == key && VG_STREQ(f->name, name) &&
          VG_STREQ(f->file, file) && VG_STREQ(f->obj, obj))
         return f;
   f = CP_(perm)(sizeof *f);
   f->key = key;
   f->obj = shared_str(obj);
   f->file = shared_str(file);
   f->name = perm_str(name);
   f->id = n_fns++;
   f->pop_on_jump = VG_(strncmp)(name, "_dl_runtime_resolve", 19) == 0;
   f->skip = CP_(fn_matches)(CP_PAT_SKIP, name);
   f->dump_before = CP_(fn_matches)(CP_PAT_DUMP_BEFORE, name);
   f->dump_after = CP_(fn_matches)(CP_PAT_DUMP_AFTER, name);
   f->zero_before = CP_(fn_matches)(CP_PAT_ZERO_BEFORE, name);
   f->toggle = CP_(fn_matches)(CP_PAT_TOGGLE, name);
   if (f->dump_before || f->dump_after || f->zero_before || f->toggle)
      CP_(fn_actions) = True;
   f->max_rec = CP_(separate_recs_of)(name);
   f->max_callers = CP_(separate_callers_of)(name);
   f->ctx = new_ctx(f, f->name, 1, NULL, NULL, 0);
   VG_(HT_add_node)(fns, f);
   return f;
}

/* A deeper recursion level: a context of its own under the name
   Callgrind writes, "fn'<level>", or "fn'<level>'caller1'caller2". */
CP_Ctx *CP_(ctx_level)(CP_Ctx *base, UInt level)
{
   CP_Ctx *c;
   HChar *name;

   if (level <= 1)
      return base;
   if (base->levels == NULL)
      base->levels = CP_(perm)((base->func->max_rec + 1)
                                          * sizeof(CP_Ctx *));
   if (base->levels[level])
      return base->levels[level];
   name = CP_(perm)(VG_(strlen)(base->name) + 12);
   VG_(sprintf)(name, "%s'%u%s", base->func->name, level,
                base->name + VG_(strlen)(base->func->name));
   c = new_ctx(base->func, name, level, base, base->callers,
               base->n_callers);
   base->levels[level] = c;
   return c;
}

/* Contexts with callers, keyed by function and callers (Callgrind's
   context.c). */
typedef struct CtxNode {
   struct CtxNode *next;     /* VgHashNode */
   UWord           key;
   CP_Ctx         *ctx;
} CtxNode;

static VgHashTable *callers_table;

static Bool same_callers(const CP_Ctx *c, CP_Fn *const *callers, UInt n)
{
   UInt i;
   if (c->n_callers != n)
      return False;
   for (i = 0; i < n; i++)
      if (c->callers[i] != callers[i])
         return False;
   return True;
}

CP_Ctx *CP_(callers_ctx)(CP_Fn *fn, CP_Fn *const *callers, UInt n)
{
   UWord key = (UWord)fn;
   CtxNode *node;
   HChar *name;
   SizeT len;
   UInt i;

   if (n == 0)
      return fn->ctx;
   if (fn->last_callers && same_callers(fn->last_callers, callers, n))
      return fn->last_callers;
   for (i = 0; i < n; i++)
      key = (key << 7) + (key >> 25) + (UWord)callers[i];
   if (callers_table == NULL)
      callers_table = VG_(HT_construct)("callprof contexts");
   for (node = VG_(HT_lookup)(callers_table, key); node; node = node->next)
      if (node->key == key && node->ctx->func == fn &&
          same_callers(node->ctx, callers, n))
         break;
   if (node == NULL) {
      len = VG_(strlen)(fn->name) + 1;
      for (i = 0; i < n; i++)
         len += VG_(strlen)(callers[i]->name) + 1;
      name = CP_(perm)(len);
      len = VG_(sprintf)(name, "%s", fn->name);
      for (i = 0; i < n; i++)
         len += VG_(sprintf)(name + len, "'%s", callers[i]->name);
      node = CP_(perm)(sizeof *node);
      node->key = key;
      node->ctx = new_ctx(fn, name, 1, NULL, callers, n);
      VG_(HT_add_node)(callers_table, node);
   }
   fn->last_callers = node->ctx;
   return node->ctx;
}

CP_Ctx *const *CP_(all_ctxs)(UInt *n)
{
   *n = n_ctxs;
   return ctxs;
}

/*------------------------------------------------------------*/
/*--- Locations                                            ---*/
/*------------------------------------------------------------*/

static VgHashTable *locs;

/* The transition helper asks for the location of every call's, every
   return's and every indirect jump's target: on an interpreter (perl)
   the table's lookup (a division, a chain walk and two cache misses)
   took 16% of the run.  A direct-mapped cache of the last location seen
   per slot answers most of them with one load and one compare;
   locations are never removed, so an entry never goes stale. */
CP_Loc *CP_(loc_cache)[1 << CP_LOC_CACHE_BITS];

static CP_Loc *new_loc(Addr a);

/* A call needs only its target's function: a second direct-mapped
   cache, of the function itself (CP_(fn_at), cp.h), spares it the
   location's cache line too (a location's function never changes). */
CP_FnSlot CP_(fn_cache)[1 << CP_LOC_CACHE_BITS];

CP_Fn *CP_(fn_miss)(Addr a)
{
   CP_FnSlot *s = &CP_(fn_cache)[CP_(loc_slot)(a)];
   s->fn = CP_(loc_of)(a)->fn;
   s->a = a;
   return s->fn;
}

/* CP_(loc_of)'s miss (cp.h).  Callgrind's get_fn_node: the function of
   the block at A.  Its file is the one of A (DIR/FILE), so code inlined
   at a block's start makes a function of its own, as in Callgrind. */
CP_Loc *CP_(loc_miss)(Addr a)
{
   CP_Loc **slot = &CP_(loc_cache)[CP_(loc_slot)(a)];
   CP_Loc *l = VG_(HT_lookup)(locs, a);
   if (l == NULL)
      l = new_loc(a);
   *slot = l;
   return l;
}

static CP_Loc *new_loc(Addr a)
{
   CP_Loc *l;
   DiEpoch ep;
   const HChar *file, *dir, *name, *obj;
   HChar file_buf[4096], name_buf[64];
   UInt line;
   Bool plt = False;

   ep = VG_(current_DiEpoch)();
   l = CP_(perm)(sizeof *l);
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
      /* The name is the demangler's buffer, freed by its next call:
         asking whether A is an entry demangles again, so at an entry the
         name is the one that call gives, as in Callgrind's get_fn_node.
         (Elsewhere it does not demangle: fn_get copies NAME first.) */
      const HChar *entry;
      l->is_entry = VG_(get_fnname_if_entry)(ep, a, &entry);
      if (l->is_entry)
         name = entry;
   }
   plt = l->sect == Vg_SectPLT;
   l->fn = fn_get(obj, file, name);
   l->pop_on_jump = l->fn->pop_on_jump;
   if (plt && CP_(clo_skip_plt))
      l->fn->skip = True;
   VG_(HT_add_node)(locs, l);
   return l;
}

/*------------------------------------------------------------*/
/*--- Blocks                                               ---*/
/*------------------------------------------------------------*/

static VgHashTable *blocks_by_addr;

/* A data access of a statement, as the cache simulation counts it:
   a read or a write of SIZE bytes (before sim_size) at ADDR; GUARD: made
   only if it holds (LoadG, StoreG); FLUSH: a read that no later write
   of the instruction may take the place of (a load-linked). */
typedef struct {
   Bool    write, flush;
   IRExpr *addr, *guard;
   UInt    size;
} Access;

/* The data accesses of statement ST of IN, in program order, into A;
   how many (0 to 2).  The one decoder of accesses: the instrumentation
   (sim_stmt) calls a helper for each, and a block's counter layout
   (instr_classes) has counters for each class found here. */
static UInt stmt_accesses(const IRSB *in, const IRStmt *st, Access *a)
{
   UInt n = 0;
#  define ACCESS(w, ad, sz, g, fl) \
      (a[n].write = (w), a[n].addr = (ad), a[n].size = (sz), \
       a[n].guard = (g), a[n].flush = (fl), n++)
   switch (st->tag) {
   case Ist_WrTmp:
      if (st->Ist.WrTmp.data->tag == Iex_Load)
         ACCESS(False, st->Ist.WrTmp.data->Iex.Load.addr,
                sizeofIRType(st->Ist.WrTmp.data->Iex.Load.ty), NULL, False);
      break;
   case Ist_Store:
      ACCESS(True, st->Ist.Store.addr,
             sizeofIRType(typeOfIRExpr(in->tyenv, st->Ist.Store.data)),
             NULL, False);
      break;
   case Ist_StoreG: {
      const IRStoreG *sg = st->Ist.StoreG.details;
      ACCESS(True, sg->addr,
             sizeofIRType(typeOfIRExpr(in->tyenv, sg->data)), sg->guard,
             False);
      break;
   }
   case Ist_LoadG: {
      const IRLoadG *lg = st->Ist.LoadG.details;
      IRType ty = Ity_INVALID, wide = Ity_INVALID;
      typeOfIRLoadGOp(lg->cvt, &wide, &ty);
      ACCESS(False, lg->addr, sizeofIRType(ty), lg->guard, False);
      break;
   }
   case Ist_Dirty: {
      const IRDirty *d = st->Ist.Dirty.details;
      if (d->mFx == Ifx_Read || d->mFx == Ifx_Modify)
         ACCESS(False, d->mAddr, d->mSize, NULL, False);
      if (d->mFx == Ifx_Write || d->mFx == Ifx_Modify)
         ACCESS(True, d->mAddr, d->mSize, NULL, False);
      break;
   }
   case Ist_CAS: {
      const IRCAS *cas = st->Ist.CAS.details;
      UInt size = sizeofIRType(typeOfIRExpr(in->tyenv, cas->dataLo));
      if (cas->dataHi != NULL)
         size *= 2;
      ACCESS(False, cas->addr, size, NULL, False);
      ACCESS(True, cas->addr, size, NULL, False);
      break;
   }
   case Ist_LLSC:
      if (st->Ist.LLSC.storedata == NULL)
         ACCESS(False, st->Ist.LLSC.addr,
                sizeofIRType(typeOfIRTemp(in->tyenv, st->Ist.LLSC.result)),
                NULL, True);
      else
         ACCESS(True, st->Ist.LLSC.addr,
                sizeofIRType(typeOfIRExpr(in->tyenv,
                                          st->Ist.LLSC.storedata)),
                NULL, False);
      break;
   default:
      break;
   }
#  undef ACCESS
   return n;
}

/* Whether each instruction of IN (N of them, from its first IMark)
   reads (RD[k]) and writes (WR[k]) memory, and ends in a branch the
   branch simulation sees (BR[k]: a side exit that is a jump, call or
   return, or a final indirect jump or call; as CP_(instrument) calls
   sim_branch). */
static void instr_classes(const IRSB *in, UInt n, UChar *rd, UChar *wr,
                          UChar *br)
{
   Int s, k = -1;
   for (s = 0; s < in->stmts_used; s++) {
      const IRStmt *st = in->stmts[s];
      Access a[2];
      UInt i, m;
      if (st->tag == Ist_IMark) {
         k++;
         tl_assert(k < (Int)n);
         rd[k] = wr[k] = br[k] = 0;
         continue;
      }
      if (k < 0)
         continue;         /* VEX's own checks before the first IMark */
      if (st->tag == Ist_Exit) {
         IRJumpKind jk = st->Ist.Exit.jk;
         if (jk == Ijk_Boring || jk == Ijk_Call || jk == Ijk_Ret)
            br[k] = 1;
         continue;
      }
      m = stmt_accesses(in, st, a);
      for (i = 0; i < m; i++) {
         if (a[i].write)
            wr[k] = 1;
         else
            rd[k] = 1;
      }
   }
   if (k >= 0 && (in->jumpkind == Ijk_Boring || in->jumpkind == Ijk_Call)
       && in->next->tag == Iex_RdTmp)
      br[k] = 1;
}

/* Whether block B's counters were laid out for the classes of IN's
   instructions (the same addresses can hold other code). */
static Bool same_accesses(const CP_Block *b, const IRSB *in)
{
   UChar rd[b->n_instrs + 1], wr[b->n_instrs + 1], br[b->n_instrs + 1];
   Bool data = CP_(islots).class_width > 0, branch = CP_(islots).branches > 0;
   UInt k;
   if (b->sim == NULL)
      return True;
   instr_classes(in, b->n_instrs, rd, wr, br);
   for (k = 0; k < b->n_instrs; k++)
      if ((data && rd[k] != (b->sim[k].rd != CP_SIM_NONE))
          || (data && wr[k] != (b->sim[k].wr != CP_SIM_NONE))
          || (branch && br[k] != (b->sim[k].br != CP_SIM_NONE)))
         return False;
   return True;
}

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
                CP_(instr_addr)(b, i) != (Addr)in->stmts[s]->Ist.IMark.addr)
               same = False;
            i++;
         }
      if (same && i == b->n_instrs && same_accesses(b, in))
         return b;
   }
   return NULL;
}

static Bool jump_is_call(const CP_Block *b, Addr target);

/* --collect-jumps: exit K of block B (K == b->n_exits: the final one)
   from INSTR (END: the address after it), of kind JK, to DST, ending
   or following run R: whether Callgrind records it as a jump (cp.h). */
static void set_exit(CP_Block *b, UInt k, Addr instr, Addr end, IRJumpKind jk,
                     const IRExpr *dst, UInt r)
{
   CP_BlockExit *x = &b->exits[k];
   x->instr = instr;
   x->run = r;
   x->target = dst->tag == Iex_Const ? (Addr)dst->Iex.Const.con->Ico.U64 : 0;
   x->jump = jk != Ijk_Call && jk != Ijk_Ret && x->target != 0 &&
             x->target != end && !jump_is_call(b, x->target);
}

/* The bytes of one counter array of B: its slots, and for a skipped
   function's block the call site after them (see CP_Foreign). */
static SizeT counter_bytes(const CP_Block *b)
{
   return (b->n_slots + (b->loc->fn->skip ? 1 : 0)) * sizeof(ULong);
}

/* No context is ever this one: a block that remembers it (a new one,
   or one whose counters the context alone does not decide) asks
   CP_(ctx_counters) each time it runs. */
static CP_Ctx no_ctx;

static CP_Block *new_block(Addr addr, const IRSB *in)
{
   CP_Block *b = CP_(perm)(sizeof *b);
   UInt n = 0, runs = 1, r = 0, i = 0, n_exits = 0;
   Addr end = 0;
   Bool run_open = False, has_bus = False, to_next = False;
   Int s, first;

   b->last_ctx = &no_ctx;

   /* Exits before the first instruction are VEX's own checks (self-
      modifying code), no guest branches: neither Callgrind nor the
      instrumentation counts them. */
   for (first = 0; first < in->stmts_used &&
                   in->stmts[first]->tag != Ist_IMark; first++)
      ;
   for (s = first; s < in->stmts_used; s++) {
      if (in->stmts[s]->tag == Ist_IMark)
         n++;
      else if (in->stmts[s]->tag == Ist_Exit)
         runs++, n_exits++;
      else if (in->stmts[s]->tag == Ist_CAS ||
               (in->stmts[s]->tag == Ist_LLSC &&
                in->stmts[s]->Ist.LLSC.storedata != NULL))
         has_bus = True;
   }
   b->key = addr;
   b->loc = CP_(loc_of)(addr);
   b->n_instrs = n;
   b->n_exits = n_exits;
   {
      /* The small arrays in one piece: the permanent allocator rounds
         each piece up to 8 bytes. */
      SizeT exits = CP_(clo_collect_jumps)
                    ? (n_exits + 1) * sizeof(CP_BlockExit) : 0;
      UChar *p = CP_(perm)(exits + (2 * n + runs) * sizeof(UShort)
                           + (has_bus && CP_(clo_collect_bus) ? n : 0));
      if (exits)
         b->exits = (CP_BlockExit *)p;
      p += exits;
      b->instr_off = (UShort *)p;
      b->run_of = b->instr_off + n;
      b->run_len = b->run_of + n;
      if (has_bus && CP_(clo_collect_bus))
         b->bus = (UChar *)(b->run_len + runs);
   }

   /* Number the runs as the instrumentation does: a run opens at the
      first instruction after an exit. */
   n_exits = 0;
   for (s = first; s < in->stmts_used; s++) {
      const IRStmt *st = in->stmts[s];
      if (st->tag == Ist_IMark) {
         run_open = True;
         to_next = False;
         end = (Addr)st->Ist.IMark.addr + st->Ist.IMark.len;
         if (i == 0)
            b->first_instr = (Addr)st->Ist.IMark.addr;
         /* Without chasing, a block's instructions follow each other. */
         tl_assert(st->Ist.IMark.addr >= b->first_instr &&
                   st->Ist.IMark.addr - b->first_instr <= 0xffff);
         b->instr_off[i] = (UShort)(st->Ist.IMark.addr - b->first_instr);
         b->run_len[r]++;
         b->run_of[i++] = r;
      } else if (st->tag == Ist_Exit) {
         UInt run = run_open ? r : r - 1;
         to_next = (Addr)st->Ist.Exit.dst->Ico.U64 == end;
         if (b->exits)
            set_exit(b, n_exits, CP_(instr_addr)(b, i - 1), end, st->Ist.Exit.jk,
                     IRExpr_Const(st->Ist.Exit.dst), run);
         n_exits++;
         if (run_open)
            r++;
         run_open = False;
      } else if ((st->tag == Ist_CAS ||
                  (st->tag == Ist_LLSC && st->Ist.LLSC.storedata)) && b->bus)
         b->bus[i - 1]++;
   }
   b->n_runs = run_open || r == 0 ? r + 1 : r;
   if (b->exits && n > 0)
      set_exit(b, n_exits, CP_(instr_addr)(b, n - 1), end, in->jumpkind, in->next,
               run_open ? r : r - 1);
   /* Callgrind's guess that VEX inverted the block's last conditional
      branch (collectBlockInfo): the last exit, in the last instruction,
      goes to the next one. */
   b->inverted = to_next && n_exits > 0;
   if (CP_(islots).any) {
      UChar rd[n + 1], wr[n + 1], br[n + 1];
      UInt k = 0;
      b->sim = CP_(perm)(n * sizeof(CP_SimInstr));
      instr_classes(in, n, rd, wr, br);
      for (s = first; s < in->stmts_used; s++) {
         const IRStmt *st = in->stmts[s];
         if (st->tag != Ist_IMark)
            continue;
         b->sim[k].addr = (Addr)st->Ist.IMark.addr;
         /* An instruction VEX could not decode has length 0: Callgrind
            takes it as 1. */
         b->sim[k].len = st->Ist.IMark.len ? st->Ist.IMark.len : 1;
         b->sim[k].rd = rd[k];     /* flags until CP_(block_slots) */
         b->sim[k].wr = wr[k];
         b->sim[k].br = br[k];
         k++;
      }
   }
   b->n_slots = CP_(block_slots)(b);
   if (b->sim && CP_(clo_cacheuse) && CP_(clo_cache_sim)) {
      b->use = CP_(perm)(n * sizeof(CP_SimUse));
      CP_(sim_use_more)(b);
   }
   b->count = CP_(perm)(counter_bytes(b));
   b->last_count = b->count;     /* read by a skipped block's check */

   VG_(HT_add_node)(blocks_by_addr, b);
   b->fn_next = b->loc->fn->own_blocks;
   b->loc->fn->own_blocks = b;
   return b;
}

/* Where blocks count while collection is off: never read, but for its
   first counter, every block's first run: the blocks run while off.  A
   block has at most one run per instruction, and VEX makes blocks of at
   most a few hundred instructions. */
static ULong discard[4096];

ULong CP_(blocks_uncollected)(void)
{
   return discard[0];
}

/* The foreign counters of block B in context CTX at skipped call site
   SITE for thread TID, found or made. */
static CP_Foreign *foreign_of(CP_Block *b, CP_Ctx *ctx, Addr site, UInt tid)
{
   CP_Foreign *f, *prev;
   for (prev = NULL, f = b->foreign; f; prev = f, f = f->next)
      if (f->ctx == ctx && f->site == site && f->tid == tid)
         break;
   if (f != NULL && prev != NULL) {
      /* To the front: a PLT stub runs in the context of every call site
         that goes through it (skipped code), so its list can be long,
         and the next run is most often from the same site. */
      prev->next = f->next;
      f->next = b->foreign;
      b->foreign = f;
   } else if (f == NULL) {
      f = CP_(perm)(sizeof *f);
      f->ctx = ctx;
      f->tid = tid;
      f->site = site;
      f->count = CP_(perm)(counter_bytes(b));
      if (b->loc->fn->skip)
         f->count[b->n_slots] = site;      /* see CP_Foreign */
      f->next = b->foreign;
      b->foreign = f;
      f->block = b;
      f->ctx_next = ctx->foreign;
      ctx->foreign = f;
   }
   return f;
}

ULong *CP_(counters_of)(CP_Block *b, CP_Ctx *ctx, Addr site, UInt tid)
{
   if (ctx == b->loc->fn->ctx && tid == 1)
      return b->count;
   return foreign_of(b, ctx, site, tid)->count;
}

CP_Block *CP_(stub_block)(Addr a)
{
   CP_Block *b, *found = NULL;
   for (b = VG_(HT_lookup)(blocks_by_addr, a); b; b = b->next)
      if (b->key == a) {
         if (found != NULL)
            return NULL;
         found = b;
      }
   return found && found->stub ? found : NULL;
}

VG_REGPARM(2) void CP_(ctx_counters)(CP_Block *b, ULong clock)
{
   CP_Ctx *ctx;
   CP_Foreign *f;
   UInt tid;
   Addr site;

   CP_(clock_at)(clock);
   ctx = CP_(cur_ctx);
   if (UNLIKELY(ctx == &CP_(reused_slot_mark)))
      ctx = CP_(first_block_ctx)();

   if (ctx == NULL) {
      /* A thread's (or a signal handler's) first block: Callgrind makes
         its function the context. */
      ctx = CP_(level_ctx)(b->loc->fn);
      CP_(set_ctx)(ctx);
   }
   b->last_ctx = &no_ctx;
   if (!CP_(running_collects)) {
      tl_assert(b->n_slots < sizeof discard / sizeof discard[0]);
      b->last_count = discard;
      return;
   }
   tid = CP_(running_cost_tid);
   if (ctx == b->loc->fn->ctx && tid == 1) {
      if (CP_(inline_ctx) == ctx)
         b->last_ctx = ctx;
      b->last_count = b->count;
      return;
   }
   site = b->loc->fn->skip && ctx != b->loc->fn->ctx ? CP_(skip_site) : 0;
   f = foreign_of(b, ctx, site, tid);
   /* The context remembered for the inline check when it decides: the
      shared counters (CP_(inline_ctx) is the context), and no skipped
      call site or a skipped function's block, whose check compares the
      site too (see CP_Foreign). */
   if (CP_(inline_ctx) == ctx && (site == 0 || b->loc->fn->skip))
      b->last_ctx = ctx;
   b->last_count = f->count;
}

/*------------------------------------------------------------*/
/*--- Instrumentation                                      ---*/
/*------------------------------------------------------------*/

static IRExpr *mkU64(ULong v)
{
   return IRExpr_Const(IRConst_U64(v));
}

static IRExpr *tmp_of(IRSB *out, IRType ty, IRExpr *e)
{
   IRTemp t = newIRTemp(out->tyenv, ty);
   addStmtToIRSB(out, IRStmt_WrTmp(t, e));
   return IRExpr_RdTmp(t);
}

/* A stub's block after a call folded at the call counts into scratch
   counters instead (DONE), so that it touches no counter of its own:
   those of the last call site it ran for are most often out of the
   cache.  Its block's slots are fewer than STUB_SLOTS (is_stub); what
   they hold is never read. */
#define STUB_SLOTS 8
static ULong stub_scratch[STUB_SLOTS];

static IRExpr *scratch_if_done(IRSB *out, IRExpr *done, IRExpr *counters)
{
   return tmp_of(out, Ity_I64, IRExpr_ITE(done,
                    mkIRExpr_HWord((HWord)stub_scratch), counters));
}

/* if (CP_(inline_ctx) != b->last_ctx) CP_(ctx_counters)(b, CLOCK);
   base = b->last_count
   and for a skipped function's block (see CP_Foreign)
   if (CP_(inline_ctx) != b->last_ctx ||
       CP_(skip_site) != b->last_count[b->n_slots]) ...
   and for a stub's, not when DONE (see instrument). */
static IRTemp add_base(IRSB *out, CP_Block *b, IRExpr *clock, IRExpr *done)
{
   IRExpr *ctx = tmp_of(out, Ity_I64,
                        IRExpr_Load(TP_END, Ity_I64,
                                    mkIRExpr_HWord((HWord)&CP_(inline_ctx))));
   IRExpr *last = tmp_of(out, Ity_I64,
                         IRExpr_Load(TP_END, Ity_I64,
                                     mkIRExpr_HWord((HWord)&b->last_ctx)));
   IRExpr *miss = tmp_of(out, Ity_I1, IRExpr_Binop(Iop_CmpNE64, ctx, last));
   if (b->loc->fn->skip) {
      IRExpr *count = tmp_of(out, Ity_I64,
         IRExpr_Load(TP_END, Ity_I64,
                     mkIRExpr_HWord((HWord)&b->last_count)));
      if (done != NULL)
         count = scratch_if_done(out, done, count);
      IRExpr *site = tmp_of(out, Ity_I64,
         IRExpr_Load(TP_END, Ity_I64,
            tmp_of(out, Ity_I64, IRExpr_Binop(Iop_Add64, count,
               mkU64(8 * (ULong)b->n_slots)))));
      IRExpr *now = tmp_of(out, Ity_I64,
         IRExpr_Load(TP_END, Ity_I64,
                     mkIRExpr_HWord((HWord)&CP_(skip_site))));
      miss = tmp_of(out, Ity_I1, IRExpr_Binop(Iop_Or1, miss,
                tmp_of(out, Ity_I1, IRExpr_Binop(Iop_CmpNE64, site, now))));
   }
   if (done != NULL)
      miss = tmp_of(out, Ity_I1, IRExpr_Binop(Iop_And1, miss,
                tmp_of(out, Ity_I1, IRExpr_Unop(Iop_Not1, done))));
   IRTemp base = newIRTemp(out->tyenv, Ity_I64);
   IRDirty *d = unsafeIRDirty_0_N(2, "cp_ctx_counters",
                                  VG_(fnptr_to_fnentry)(&CP_(ctx_counters)),
                                  mkIRExprVec_2(mkIRExpr_HWord((HWord)b),
                                                clock));
   d->guard = miss;
   addStmtToIRSB(out, IRStmt_Dirty(d));
   addStmtToIRSB(out, IRStmt_WrTmp(base,
                    IRExpr_Load(TP_END, Ity_I64,
                                mkIRExpr_HWord((HWord)&b->last_count))));
   return base;
}

/* --cache-sim: the simulation's helpers, one per instruction fetch and
   per data access, in program order (cp_sim.c).  A read is held back
   until the next event, so that a write of the same size to the same
   address by the same instruction can take its place: Callgrind counts
   such a read-modify-write as one write. */
typedef struct {
   CP_Block *b;
   IRTemp    base;
   Int       instr;        /* the current instruction's index */
   Bool      pending;      /* a read held back: */
   Int       p_instr;
   IRExpr   *p_addr;
   UInt      p_size;
} SimEmit;

/* --cache-sim: whether the fetch of instruction SI misses the most
   recently used way of its I1 set (cp.h), where a hit changes nothing:
      tags[(b & set_mask) * assoc] != b,  b = SI's line
   a load of a constant address and a compare.  NULL when the fetch
   spans two lines (the helper must run). */
static IRExpr *mru_fetch_miss(IRSB *out, const CP_SimInstr *si)
{
   CP_SimI1 i1;
   ULong b, e;
   CP_(sim_i1)(&i1);
   b = si->addr >> i1.line_bits;
   e = (si->addr + si->len - 1) >> i1.line_bits;
   if (b != e)
      return NULL;
   return tmp_of(out, Ity_I1, IRExpr_Binop(Iop_CmpNE64,
      tmp_of(out, Ity_I64, IRExpr_Load(TP_END, Ity_I64,
         mkU64((HWord)(i1.tags + (b & i1.set_mask) * i1.assoc)))),
      mkU64(b)));
}

static void sim_call(IRSB *out, const SimEmit *se, Int instr, Bool write,
                     IRExpr *addr, UInt size, IRExpr *guard)
{
   const CP_SimHelpers *h = CP_(sim_helpers);
   const CP_SimInstr *si = &se->b->sim[instr];
   IRExpr *ii = mkIRExpr_HWord((HWord)si);
   IRDirty *d;
   /* The block's counters have this access class (same_accesses). */
   tl_assert((addr == NULL ? si->fe : write ? si->wr : si->rd)
             != CP_SIM_NONE);
   if (addr == NULL && h->fetch_mru)
      guard = mru_fetch_miss(out, si);   /* a hit needs no call (cp.h) */
   if (addr == NULL && se->b->use)
      d = unsafeIRDirty_0_N(3, h->fetch_name,
                            VG_(fnptr_to_fnentry)(h->fetch),
                            mkIRExprVec_3(ii, IRExpr_RdTmp(se->base),
                               mkIRExpr_HWord((HWord)&se->b->use[instr])));
   else if (addr == NULL)
      d = unsafeIRDirty_0_N(2, h->fetch_name,
                            VG_(fnptr_to_fnentry)(h->fetch),
                            mkIRExprVec_2(ii, IRExpr_RdTmp(se->base)));
   else
      d = unsafeIRDirty_0_N(3, write ? h->write_name : h->read_name,
                            VG_(fnptr_to_fnentry)(write ? h->write
                                                        : h->read),
                            mkIRExprVec_4(ii, IRExpr_RdTmp(se->base), addr,
                                          mkIRExpr_HWord(size)));
   if (guard)
      d->guard = guard;
   addStmtToIRSB(out, IRStmt_Dirty(d));
}

/* --branch-sim: a conditional branch taken when ARG is 1, or an
   indirect one to ARG (both host words). */
static void sim_branch(IRSB *out, const SimEmit *se, Bool cond, IRExpr *arg)
{
   const CP_SimInstr *ii = &se->b->sim[se->instr];
   IRExpr *c;
   tl_assert(ii->br != CP_SIM_NONE);     /* instr_classes */
   c = tmp_of(out, Ity_I64, IRExpr_Binop(Iop_Add64,
      IRExpr_RdTmp(se->base),
      mkU64(8 * (ULong)(ii->off + ii->br))));
   IRExpr *low = mkIRExpr_HWord(ii->addr & (cond ? 0x7f : 0x1ff));
   IRDirty *d = unsafeIRDirty_0_N(3, cond ? "cp_sim_cond" : "cp_sim_ind",
                                  VG_(fnptr_to_fnentry)(cond ? &CP_(sim_cond)
                                                             : &CP_(sim_ind)),
                                  mkIRExprVec_3(c, low, arg));
   addStmtToIRSB(out, IRStmt_Dirty(d));
}

static void sim_flush(IRSB *out, SimEmit *se)
{
   if (se->pending)
      sim_call(out, se, se->p_instr, False, se->p_addr, se->p_size, NULL);
   se->pending = False;
}

/* Accesses wider than the smallest line are cut to it, as Callgrind
   cuts them, so that none straddles more than two lines. */
static UInt sim_size(UInt size)
{
   UInt max = CP_(sim_min_line)();
   return size > max ? max : size;
}

static void sim_read(IRSB *out, SimEmit *se, IRExpr *addr, UInt size)
{
   sim_flush(out, se);
   se->pending = True;
   se->p_instr = se->instr;
   se->p_addr = addr;
   se->p_size = sim_size(size);
}

static void sim_write(IRSB *out, SimEmit *se, IRExpr *addr, UInt size)
{
   size = sim_size(size);
   if (se->pending && se->p_instr == se->instr && se->p_size == size
       && eqIRAtom(se->p_addr, addr))
      se->pending = False;
   else
      sim_flush(out, se);
   sim_call(out, se, se->instr, True, addr, size, NULL);
}

/* The data accesses of statement ST, if any (stmt_accesses): a guarded
   one at once, the others through sim_read and sim_write. */
static void sim_stmt(IRSB *out, SimEmit *se, const IRSB *in, const IRStmt *st)
{
   Access a[2];
   UInt i, n = stmt_accesses(in, st, a);
   for (i = 0; i < n; i++) {
      if (a[i].guard != NULL) {
         sim_flush(out, se);
         sim_call(out, se, se->instr, a[i].write, a[i].addr,
                  sim_size(a[i].size), a[i].guard);
      } else if (a[i].write)
         sim_write(out, se, a[i].addr, a[i].size);
      else {
         sim_read(out, se, a[i].addr, a[i].size);
         if (a[i].flush)
            sim_flush(out, se);
      }
   }
}

/* Whether Callgrind would take a jump from block B to TARGET as a call
   (bbcc.c: into another object or section kind, or to a function's
   first instruction). */
static Bool jump_is_call(const CP_Block *b, Addr target)
{
   CP_Loc *to = CP_(loc_of)(target);
   return cpx_jump_is_call(to->is_entry, to->sect == b->loc->sect,
                           to->di == b->loc->di);
}

/* The transition helper before an exit: GUARD NULL for the final exit;
   CLOCK the instruction clock's slot there. */
static void add_transition(IRSB *out, const VexGuestLayout *layout,
                           CP_Block *b, CP_Kind kind, Addr instr,
                           Addr next_instr, IRExpr *target, IRExpr *guard,
                           IRExpr *clock)
{
   CP_Exit *e = CP_(perm)(sizeof *e);
   IRExpr *sp = tmp_of(out, Ity_I64, IRExpr_Get(layout->offset_SP, Ity_I64));
   IRDirty *d;

   e->block = b;
   e->kind = kind;
   e->instr = instr;
   e->len = (UChar)(next_instr - instr);
   d = unsafeIRDirty_0_N(3, kind == CP_Call ? "cp_transition_call" :
                            kind == CP_Ret ? "cp_transition_ret" :
                                             "cp_transition_jump",
                         VG_(fnptr_to_fnentry)(
                            kind == CP_Call ? &CP_(transition_call) :
                            kind == CP_Ret ? &CP_(transition_ret) :
                                             &CP_(transition_jump)),
                         mkIRExprVec_4(mkIRExpr_HWord((HWord)e), target, sp,
                                       clock));
   if (guard)
      d->guard = guard;
   addStmtToIRSB(out, IRStmt_Dirty(d));
}

/*------------------------------------------------------------*/
/*--- Indirect jumps inside their function                 ---*/
/*------------------------------------------------------------*/

/* An indirect jump to an address inside the symbol its block is in,
   other than the symbol's first byte, is no call: no symbol starts
   there, and it is the same object and section (jump_is_call).  Nor
   does it leave frames: longjmp and exceptions jump from code of their
   own, in another function.  So the jump helper would do nothing for it
   (cp_calls.c, transition) but bring CP_(ir) up to date, which the next
   helper or the thread's stop does as well; generated code calls it only
   when the target is outside that range:

      if (target - (lo + 1) >= hi - (lo + 1)) CP_(transition_jump)(...)

   A switch's jump through its table is the common case: sqlite3's
   virtual machine makes one at every opcode.  Not with --collect-jumps,
   whose helper counts each indirect jump, nor in skipped code (a PLT
   stub's jump is a call).

   The core gives a tool no symbol's size, but it gives the offset of an
   address in the symbol containing it, and its symbol tables are
   canonical: no two symbols' ranges overlap (one is cut short where the
   next starts), and "contains" and "starts at" (is_entry) are answered
   from the same table.  So the symbol's range is where addresses count
   their offset from its start; its end is found by search from the
   block, once per symbol (kept in own_ranges until its object is
   unmapped). */
typedef struct {
   VgHashNode node;           /* key: the symbol's start */
   Addr       end;            /* first address after it; 0: no range
                                 (its start is not one) */
} OwnRange;

static VgHashTable *own_ranges;
static Addr         own_lo = ~(Addr)0, own_hi;  /* the starts kept */
static ULong        n_own_tested;  /* exits, for --stats=yes */

/* The start of the symbol containing A, or 0: its name ends in "+N"
   when A is N bytes into it. */
static Addr sym_start(Addr a)
{
   const HChar *name, *p, *q;
   Addr off = 0;
   if (!VG_(get_fnname_w_offset)(VG_(current_DiEpoch)(), a, &name))
      return 0;
   p = VG_(strrchr)(name, '+');
   if (p == NULL || p[1] == '\0')
      return a;
   for (q = p + 1; *q >= '0' && *q <= '9'; q++)
      off = off * 10 + (Addr)(*q - '0');
   return *q == '\0' ? a - off : a;  /* else a '+' of the name itself */
}

/* The first address after the symbol starting at S, which contains A:
   found by search from A, doubling the step, then halving the gap. */
static Addr sym_end(Addr s, Addr a)
{
   Addr good = a, bad, mid;     /* good is in the symbol, bad is not */
   SizeT step = 64;
   for (;;) {
      bad = good + step;
      if (bad < good || sym_start(bad) != s)
         break;
      good = bad;
      if (step < ((SizeT)1 << 24))
         step *= 2;
   }
   while (bad - good > 1) {
      mid = good + (bad - good) / 2;
      if (sym_start(mid) == s)
         good = mid;
      else
         bad = mid;
   }
   return bad;
}

/* The range (LO, HI) of jumps from block B that need no helper; False
   if there is none. */
static Bool own_range(const CP_Block *b, Addr *lo, Addr *hi)
{
   Addr a = b->key, s;
   OwnRange *r;
   DiEpoch ep = VG_(current_DiEpoch)();
   const HChar *entry;

   if (CP_(clo_collect_jumps) || b->loc->fn->skip || b->loc->di == NULL)
      return False;
   s = sym_start(a);
   if (s == 0 || s > a)
      return False;
   r = VG_(HT_lookup)(own_ranges, s);
   if (r == NULL) {
      r = VG_(malloc)("cp.bb.own_range.1", sizeof *r);
      r->node.key = s;
      r->end = sym_start(s) == s && VG_(get_fnname_if_entry)(ep, s, &entry)
                  ? sym_end(s, a) : 0;
      VG_(HT_add_node)(own_ranges, r);
      if (s < own_lo)
         own_lo = s;
      if (s >= own_hi)
         own_hi = s + 1;
   }
   if (r->end == 0 ||
       VG_(find_DebugInfo)(ep, s) != b->loc->di ||
       VG_(find_DebugInfo)(ep, r->end - 1) != b->loc->di ||
       VG_(DebugInfo_sect_kind)(NULL, s) != b->loc->sect ||
       VG_(DebugInfo_sect_kind)(NULL, r->end - 1) != b->loc->sect)
      return False;
   *lo = s;
   *hi = r->end;
   n_own_tested++;
   return True;
}

void CP_(bb_stats)(void)
{
   VG_(dmsg)("callprof: indirect jumps testing their own function's range: "
             "%llu\n", n_own_tested);
   ir_chain_stats("callprof");
}

/* The symbols of [A, A + LEN) are gone: so are their ranges (as
   CP_(plt_unmapped) forgets the stubs: found first, then removed). */
void CP_(own_ranges_unmapped)(Addr a, SizeT len)
{
   VgHashNode **all;
   UInt n, i;
   if (a >= own_hi || a + len <= own_lo)
      return;
   all = VG_(HT_to_array)(own_ranges, &n);
   for (i = 0; i < n; i++)
      if (all[i]->key >= a && all[i]->key - a < len)
         VG_(free)(VG_(HT_remove)(own_ranges, all[i]->key));
   VG_(free)(all);
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

/* Whether B, at IN, is a PLT stub's block that a call folded at the call
   skips (cp_calls.c, Folding): skipped code, one run (no side exit)
   ending in an indirect jump, and nothing simulated that the stub's
   instructions would change. */
static Bool is_stub(const CP_Block *b, const IRSB *in)
{
   Int s;
   if (!CP_(fold_at_call) || !b->loc->fn->skip || b->sim != NULL ||
       b->n_slots >= STUB_SLOTS ||
       in->jumpkind != Ijk_Boring || in->next->tag == Iex_Const)
      return False;
   for (s = 0; s < in->stmts_used; s++)
      if (in->stmts[s]->tag == Ist_Exit)
         return False;
   return True;
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
   SimEmit se;
   IRClock clock;
   IRExpr *now;
   UInt r = 0;
   Addr instr = 0, next_instr = 0;
   CP_Kind kind;
   Int s, exit_no = 0;
   IRExpr *done = NULL, *not_done = NULL;

   if (gWordTy != Ity_I64 || hWordTy != Ity_I64)
      VG_(tool_panic)("callprof: 64-bit platforms only");
   for (s = 0; s < in->stmts_used && in->stmts[s]->tag != Ist_IMark; s++)
      addStmtToIRSB(out, in->stmts[s]);
   if (s == in->stmts_used)
      return out;
   if (!CP_(instrumenting)) {
      for (; s < in->stmts_used; s++)
         addStmtToIRSB(out, in->stmts[s]);
      return out;
   }
   ir_clock_init(&clock);
   b = find_block(closure->nraddr, in);
   if (b == NULL)
      b = new_block(closure->nraddr, in);
   se.b = b;
   se.instr = -1;
   se.pending = False;
   b->stub = is_stub(b, in);

   for (; s < in->stmts_used; s++) {
      IRStmt *st = in->stmts[s];
      if (b->bus && (st->tag == Ist_CAS ||
                     (st->tag == Ist_LLSC && st->Ist.LLSC.storedata))) {
         IRDirty *d = unsafeIRDirty_0_N(0, "cp_bus_event",
                              VG_(fnptr_to_fnentry)(&CP_(bus_event)),
                              mkIRExprVec_0());
         addStmtToIRSB(out, IRStmt_Dirty(d));
      }
      if (st->tag == Ist_IMark) {
         instr = (Addr)st->Ist.IMark.addr;
         next_instr = instr + st->Ist.IMark.len;
         if (base == IRTemp_INVALID) {
            ir_clock_begin(out, &clock, layout->total_sizeB + CP_CLOCK_SLOT);
            if (b->stub) {
               IRExpr *at = mkIRExpr_HWord((HWord)&CP_(stub_pending));
               done = tmp_of(out, Ity_I1, IRExpr_Binop(Iop_CmpEQ64,
                         tmp_of(out, Ity_I64, IRExpr_Load(TP_END, Ity_I64, at)),
                         mkU64(b->key)));
               not_done = tmp_of(out, Ity_I1, IRExpr_Unop(Iop_Not1, done));
               addStmtToIRSB(out, IRStmt_Store(TP_END, at, mkU64(0)));
            }
            base = add_base(out, b, IRExpr_RdTmp(clock.base), done);
            if (CP_(clo_cache_sim) && in->jumpkind == Ijk_ClientReq) {
               IRDirty *d = unsafeIRDirty_0_N(2, "cp_creq_snapshot",
                  VG_(fnptr_to_fnentry)(&CP_(creq_snapshot)),
                  mkIRExprVec_2(mkIRExpr_HWord((HWord)b),
                                IRExpr_RdTmp(base)));
               addStmtToIRSB(out, IRStmt_Dirty(d));
            }
         }
         ir_clock_tick(&clock);
         if (!run_open) {
            IRExpr *addr = tmp_of(out, Ity_I64,
                          IRExpr_Binop(Iop_Add64, IRExpr_RdTmp(base),
                                       mkU64(8 * r)));
            ir_add_u64(out, done ? scratch_if_done(out, done, addr) : addr, 1);
            run_open = True;
         }
         if (b->sim) {
            sim_flush(out, &se);
            se.base = base;
            se.instr++;
            if (CP_(clo_cache_sim) && CP_(sim_fetch_needed)(b, se.instr))
               sim_call(out, &se, se.instr, False, NULL, 0, NULL);
         }
      } else if (st->tag == Ist_Exit) {
         IRExpr *dst = IRExpr_Const(st->Ist.Exit.dst);
         IRJumpKind jk = st->Ist.Exit.jk;
         if (b->sim)
            sim_flush(out, &se);
         if (CP_(clo_branch_sim) && se.instr >= 0
             && (jk == Ijk_Boring || jk == Ijk_Call || jk == Ijk_Ret)) {
            /* Taken: the guard, or (VEX having inverted the block's last
               branch) its negation, as Callgrind takes it. */
            IRExpr *taken = tmp_of(out, Ity_I64,
                                   IRExpr_Unop(Iop_1Uto64, st->Ist.Exit.guard));
            if (b->inverted && exit_no == (Int)b->n_exits - 1)
               taken = tmp_of(out, Ity_I64, IRExpr_Binop(Iop_Xor64, taken,
                                 mkU64(1)));
            sim_branch(out, &se, True, taken);
         }
         if (b->exits && base != IRTemp_INVALID) {
            /* --collect-jumps: the side exit's counter += guard */
            IRExpr *addr = tmp_of(out, Ity_I64,
               IRExpr_Binop(Iop_Add64, IRExpr_RdTmp(base),
                  mkU64(8 * (b->n_runs + exit_no))));
            ir_add_u64_by(out, addr, tmp_of(out, Ity_I64,
                             IRExpr_Unop(Iop_1Uto64, st->Ist.Exit.guard)));
         }
         exit_no++;
         now = ir_clock_now(out, &clock);
         ir_clock_write(out, &clock, now);
         if (wants_transition(b, st->Ist.Exit.jk, dst, &kind))
            add_transition(out, layout, b, kind, instr, next_instr, dst,
                           st->Ist.Exit.guard, now);
         if (run_open) {
            r++;
            run_open = False;
         }
      } else if (CP_(clo_cache_sim) && se.instr >= 0)
         sim_stmt(out, &se, in, st);
      addStmtToIRSB(out, st);
   }

   if (b->sim)
      sim_flush(out, &se);
   /* An indirect jump or call (returns are taken as always predicted). */
   if (CP_(clo_branch_sim) && se.instr >= 0
       && (in->jumpkind == Ijk_Boring || in->jumpkind == Ijk_Call)
       && in->next->tag == Iex_RdTmp)
      sim_branch(out, &se, False, in->next);
   now = ir_clock_now(out, &clock);
   ir_clock_write(out, &clock, now);
   if (wants_transition(b, in->jumpkind, in->next, &kind)) {
      IRExpr *guard = not_done;
      Addr lo, hi;
      if (kind == CP_Jump && in->next->tag != Iex_Const && guard == NULL
          && own_range(b, &lo, &hi))
         guard = tmp_of(out, Ity_I1, IRExpr_Binop(Iop_CmpLE64U,
                    mkU64(hi - (lo + 1)),
                    tmp_of(out, Ity_I64, IRExpr_Binop(Iop_Sub64, in->next,
                                                      mkU64(lo + 1)))));
      add_transition(out, layout, b, kind, instr, next_instr, in->next,
                     guard, now);
   }
   if ((in->jumpkind == Ijk_Sys_syscall || in->jumpkind == Ijk_ClientReq)
       && base != IRTemp_INVALID) {
      addStmtToIRSB(out, IRStmt_Store(TP_END,
                       mkIRExpr_HWord((HWord)&CP_(sys_block)),
                       mkIRExpr_HWord((HWord)b)));
      addStmtToIRSB(out, IRStmt_Store(TP_END,
                       mkIRExpr_HWord((HWord)&CP_(sys_count)),
                       IRExpr_RdTmp(base)));
   }
   if (CP_(clo_chain_guess))
      ir_chain_guess(out, in, closure->tid);
   return out;
}

/* After every instrumentation, gdbserver's too: include/ir_chain.h. */
IRSB *CP_(final_tidy)(IRSB *sb)
{
   return ir_chain_tidy(sb);
}

UInt CP_(n_fns)(void)
{
   return VG_(HT_count_nodes)(fns);
}

CP_Block *CP_(first_block)(void)
{
   VG_(HT_ResetIter)(blocks_by_addr);
   return VG_(HT_Next)(blocks_by_addr);
}

CP_Block *CP_(next_block)(void)
{
   return VG_(HT_Next)(blocks_by_addr);
}

void CP_(bb_init)(void)
{
   fns = VG_(HT_construct)("callprof fns");
   shared_strs = VG_(HT_construct)("callprof names");
   locs = VG_(HT_construct)("callprof locs");
   blocks_by_addr = VG_(HT_construct)("callprof blocks");
   own_ranges = VG_(HT_construct)("callprof own ranges");
}
