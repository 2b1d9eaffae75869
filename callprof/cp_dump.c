/* cp_dump.c: dumps, zeroing, client requests and folded stacks.

   Copyright (C) 2026 The heapsnap/callprof developers.
   SPDX-License-Identifier: GPL-2.0-or-later

   A dump writes the costs gathered since the previous dump (or zeroing)
   and zeroes them, as Callgrind's dump_profile does.  The run counters
   of every block (in its own function and in foreign contexts) become
   per-instruction costs of a function; they are sorted by function and
   address, merged, and written through profwriter's pw_cg_* emitters
   with each function's jumps and calls.  The calls still open get the
   inclusive cost they have so far first (CP_(flush_open_calls)).

   Files are named as Callgrind names them (callgrind/dump.c,
   new_dumpfile): the expanded --callprof-out-file template, then ".N"
   for the N-th dump of the process if the dump was triggered (client
   request, --dump-before/after, --dump-every-bb, --dump-every, a vgdb
   monitor command), nothing for the final
   dump at exit, then "-TT" (the thread id, two digits) with
   --separate-threads=yes.  "part:" is N, counting the final dump.  So a
   program that dumps twice leaves callprof.out.PID.1,
   callprof.out.PID.2 and callprof.out.PID (part: 3).  Each file is
   complete in itself: one part, its own name ids (a fresh pw_cg_begin
   per file), totals equal to the sum of its cost lines.

   With --combine-dumps=yes every dump (and every thread's) is a part of
   the one file named by the template, in the order written.  Unlike
   Callgrind's, each part defines its name ids anew, as KCachegrind
   reads ids per part; and as with every file, the parts so far are
   copied into a temporary file and the whole renamed, so that no reader
   sees a part half written. */

#include "pub_tool_basics.h"
#include "pub_tool_clientstate.h"
#include "pub_tool_debuginfo.h"
#include "pub_tool_hashtable.h"
#include "pub_tool_libcassert.h"
#include "pub_tool_libcbase.h"
#include "pub_tool_libcfile.h"
#include "pub_tool_libcprint.h"
#include "pub_tool_libcproc.h"
#include "pub_tool_mallocfree.h"
#include "pub_tool_options.h"
#include "pub_tool_threadstate.h"
#include "valgrind.h"

#include "callprof.h"
#include "cp.h"
#include "profwriter.h"

/* Output format: Callgrind's (see include/profwriter.h), one part.
   Per function, its cost lines, its jumps (--collect-jumps), then its
   calls:

      # callgrind format
      version: 1
      creator: callprof-0.1.0
      pid: 4242
      cmd: ./prog

      part: 2                         (the N-th dump of the process)

      desc: Trigger: Client Request: phase one

      positions: line                 (instr line with --dump-instr=yes)
      events: Ir                      (Ir Ge sysCount sysTime ... by option)
      summary: 1527966


      ob=(1) /tmp/prog
      fl=(1) /src/prog.c
      fn=(1) work
      21 3
      +1 400002
      fi=(2) /src/inline.h            (code of another file, inlined)
      3 100000
      fe=(1)
      jcnd=99999/100000 -3            (--collect-jumps: followed/executed)
      +4
      cfn=(2) leaf                    (a call arc)
      calls=100000 16
      22 500000                       (call site, inclusive Ir)
      ...
      totals: 1527966

   A function is (object, file, name) as in Callgrind; its cost lines
   carry the source position of each instruction.  An arc is written in
   a dump when it cost something since the last one, with the calls made
   since (at least 1: a call open across a dump counts again where it
   adds cost, as "calls=0" misleads callgrind_annotate); an arc that
   cost nothing keeps its count for the next dump. */

/* A cost line to write: an address and its CP_(n_ev) events (records
   of cost_size bytes: the events of this run and no more).  A dump
   gathers them one context at a time, from the counters charged to it
   (CP_Fn.own_blocks, CP_Ctx.foreign) and its system calls, into one
   buffer that grows to the largest context: never the whole
   program's. */
typedef struct {
   Addr   addr;
   ULong  ev[];
} Cost;

static SizeT cost_size;
#define COST(v, i) ((Cost *)((HChar *)(v) + (SizeT)(i) * cost_size))

static Cost *cost_buf;
static UInt  cost_cap;     /* records cost_buf holds */

static Int cmp_cost(const void *a, const void *b)
{
   const Cost *x = a, *y = b;
   return x->addr < y->addr ? -1 : x->addr > y->addr ? 1 : 0;
}

static Int cmp_sys(const void *a, const void *b)
{
   const CP_SysCost *x = *(const CP_SysCost *const *)a,
                    *y = *(const CP_SysCost *const *)b;
   if (x->ctx->id != y->ctx->id)
      return x->ctx->id < y->ctx->id ? -1 : 1;
   return x->instr < y->instr ? -1 : x->instr > y->instr ? 1 : 0;
}

static void reserve(UInt n)
{
   if (n <= cost_cap)
      return;
   cost_cap = n > 2 * cost_cap ? n : 2 * cost_cap;
   cost_buf = VG_(realloc)("cp.dump.costs.1", cost_buf, cost_cap * cost_size);
}

/* Block B's instructions that ran with counters COUNT, appended to
   cost_buf[*n] as costs at their own addresses or, for skipped code,
   at SITE. */
static void add_costs(UInt *n, const CP_Block *b, Addr site,
                      const ULong *count)
{
   UInt i;
   reserve(*n + b->n_instrs);
   for (i = 0; i < b->n_instrs; i++) {
      Cost *c;
      if (count[b->run_of[i]] == 0)
         continue;
      c = COST(cost_buf, *n);
      c->addr = site ? site : CP_(instr_addr)(b, i);
      CP_(instr_cost)(b, i, count, c->ev);
      (*n)++;
   }
}

/* Context CTX's costs in thread TID into cost_buf, by address, each
   address once; their number.  SYS[*SI ..] are the system calls'
   costs, sorted by context (cmp_sys): CTX's are taken. */
static UInt ctx_costs(CP_Ctx *ctx, UInt tid, CP_SysCost **sys, UInt n_sys,
                     UInt *si)
{
   UInt n = 0, i, j;
   CP_Block *b;
   CP_Foreign *f;

   if (tid == 1 && ctx->func && ctx->func->ctx == ctx)
      /* the shared counters of its blocks, thread 1's */
      for (b = ctx->func->own_blocks; b; b = b->fn_next)
         add_costs(&n, b, 0, b->count);
   for (f = ctx->foreign; f; f = f->ctx_next)
      if (f->tid == tid)
         add_costs(&n, f->block, f->site, f->count);
   for (; *si < n_sys && sys[*si]->ctx->id <= ctx->id; (*si)++) {
      if (sys[*si]->ctx != ctx || sys[*si]->tid != tid)
         continue;
      reserve(n + 1);
      COST(cost_buf, n)->addr = sys[*si]->instr;
      VG_(memcpy)(COST(cost_buf, n)->ev, sys[*si]->ev,
                  CP_(n_ev) * sizeof(ULong));
      n++;
   }
   VG_(ssort)(cost_buf, n, cost_size, cmp_cost);
   for (i = 0, j = 0; i < n; i++) {
      Cost *c = COST(cost_buf, i);
      if (j > 0 && COST(cost_buf, j - 1)->addr == c->addr)
         CP_(ev_add)(COST(cost_buf, j - 1)->ev, c->ev);
      else {
         if (i != j)
            VG_(memcpy)(COST(cost_buf, j), c, cost_size);
         j++;
      }
   }
   return j;
}

/* The sum of block B's costs with counters COUNT, added to TOTAL. */
static void add_total(const CP_Block *b, const ULong *count, ULong *total)
{
   ULong ev[CP_MAX_EV];
   UInt i;
   for (i = 0; i < b->n_instrs; i++)
      if (count[b->run_of[i]] > 0) {
         CP_(instr_cost)(b, i, count, ev);
         CP_(ev_add)(total, ev);
      }
}

/* Thread TID's total (the header's summary: line, before any cost is
   written). */
static void file_total(UInt tid, CP_SysCost **sys, UInt n_sys, ULong *total)
{
   CP_Block *b;
   CP_Foreign *f;
   UInt i;

   CP_(ev_clear)(total);
   for (b = CP_(first_block)(); b; b = CP_(next_block)()) {
      if (tid == 1)
         add_total(b, b->count, total);
      for (f = b->foreign; f; f = f->next)
         if (f->tid == tid)
            add_total(b, f->count, total);
   }
   for (i = 0; i < n_sys; i++)
      if (sys[i]->tid == tid)
         CP_(ev_add)(total, sys[i]->ev);
}

/* The position of A: address relative to its object, source line, and
   the source file as Callgrind names it (DIR/FILE); FILE is "???" and
   the line 0 where A has no line information, and then the result is
   False. */
static Bool pos_of(Addr a, PW_CgPos *p, HChar *file, Int size)
{
   DiEpoch ep = VG_(current_DiEpoch)();
   DebugInfo *di = VG_(find_DebugInfo)(ep, a);
   const HChar *fl, *dir;
   UInt line;

   p->instr = a - (di ? (Addr)VG_(DebugInfo_get_text_bias)(di) : 0);
   p->line = 0;
   if (!VG_(get_filename_linenum)(ep, a, &fl, &dir, &line)) {
      VG_(strcpy)(file, "???");
      return False;
   }
   if (dir && dir[0])
      VG_(snprintf)(file, size, "%s/%s", dir, fl);
   else
      VG_(snprintf)(file, size, "%s", fl);
   p->line = line;
   return True;
}

static Int cmp_arc(const void *a, const void *b)
{
   const CP_Arc *x = *(const CP_Arc *const *)a, *y = *(const CP_Arc *const *)b;
   if (x->site != y->site)
      return x->site < y->site ? -1 : 1;
   return x->callee->id < y->callee->id ? -1 : x->callee->id > y->callee->id;
}

/* An arc is written when it cost something since the last dump. */
static Bool arc_shown(const CP_Arc *a, UInt tid)
{
   Int k;
   if (a->tid != tid)
      return False;
   for (k = 0; k < CP_(n_ev); k++)
      if (a->inclusive[k] > 0)
         return True;
   return False;
}

/* CTX's arcs written in this dump (thread TID), by call site; *N of
   them. */
static CP_Arc **arcs_of(CP_Ctx *ctx, UInt tid, UInt *n_out)
{
   CP_Arc *a, **v;
   UInt n = 0;

   for (a = ctx->arcs; a; a = a->next)
      n++;
   v = VG_(malloc)("cp.dump.arcs_of.1", (n ? n : 1) * sizeof *v);
   /* As Callgrind, an arc that cost nothing is left out (a signal
      handler's call of its sigreturn stub, never completed). */
   for (a = ctx->arcs, n = 0; a; a = a->next)
      if (arc_shown(a, tid))
         v[n++] = a;
   VG_(ssort)(v, n, sizeof *v, cmp_arc);
   *n_out = n;
   return v;
}

/*------------------------------------------------------------*/
/*--- Jumps (--collect-jumps)                              ---*/
/*------------------------------------------------------------*/

/* An indirect jump taken in a context (CP_(add_jump)), kept apart from
   the block counters as system call costs are. */
typedef struct CP_IndJump {
   struct CP_IndJump *next;   /* VgHashNode */
   UWord              key;
   CP_Ctx            *ctx;
   UInt               tid;
   Addr               instr, target;
   ULong              count;
} CP_IndJump;

static VgHashTable *ind_table;

void CP_(add_jump)(CP_Ctx *ctx, UInt tid, Addr instr, Addr target)
{
   UWord key = (((UWord)ctx * 31 + instr) * 31 + target) * 31 + tid;
   CP_IndJump *j;

   if (ind_table == NULL)
      ind_table = VG_(HT_construct)("callprof indirect jumps");
   for (j = VG_(HT_lookup)(ind_table, key); j; j = j->next)
      if (j->key == key && j->ctx == ctx && j->instr == instr &&
          j->target == target && j->tid == tid)
         break;
   if (j == NULL) {
      j = VG_(calloc)("cp.dump.add_jump.1", 1, sizeof *j);
      j->key = key;
      j->ctx = ctx;
      j->tid = tid;
      j->instr = instr;
      j->target = target;
      VG_(HT_add_node)(ind_table, j);
   }
   j->count++;
}

static CP_IndJump **ind_jumps(UInt *n)
{
   if (ind_table == NULL) {
      *n = 0;
      return VG_(malloc)("cp.dump.ind_jumps.1", sizeof(CP_IndJump *));
   }
   return (CP_IndJump **)VG_(HT_to_array)(ind_table, n);
}

typedef struct {
   CP_Ctx *ctx;
   Addr   instr, target;
   Bool   cond;
   ULong  followed, executed;
} Jump;

static Int cmp_jump(const void *a, const void *b)
{
   const Jump *x = a, *y = b;
   if (x->ctx->id != y->ctx->id)
      return x->ctx->id < y->ctx->id ? -1 : 1;
   if (x->instr != y->instr)
      return x->instr < y->instr ? -1 : 1;
   if (x->target != y->target)
      return x->target < y->target ? -1 : 1;
   return (Int)x->cond - (Int)y->cond;
}

/* The jumps of block B run with counters C in context CTX, as Callgrind
   counts them (cp.h, CP_BlockExit), appended to V[*N].  An exit's
   executions are the count of its run less the side exits of that run
   taken before it. */
static void block_jumps(const CP_Block *b, const ULong *c, CP_Ctx *ctx,
                        Jump *v, UInt *n)
{
   const CP_BlockExit *x = b->exits;
   UInt e, k, last = b->n_exits;
   ULong reach[last + 1];

   for (e = 0; e <= last; e++) {
      reach[e] = c[x[e].run];
      for (k = 0; k < e && k < last; k++)
         if (x[k].run == x[e].run)
            reach[e] -= reach[e] >= CP_EXIT_TAKEN(b, c, k)
                        ? CP_EXIT_TAKEN(b, c, k) : reach[e];
   }
   for (e = 0; e <= last; e++) {
      Jump *j = &v[*n];
      Bool final = e == last;
      /* Inverted: the last side exit is the fall-through, the final
         exit the conditional jump. */
      if (!x[e].jump || (b->inverted && e == last - 1))
         continue;
      j->ctx = ctx;
      j->instr = x[e].instr;
      j->target = x[e].target;
      j->cond = !final || b->inverted;
      j->followed = final ? reach[e] : CP_EXIT_TAKEN(b, c, e);
      j->executed = !final ? reach[e] : b->inverted ? reach[last - 1]
                                                    : reach[e];
      if (j->followed > 0)
         (*n)++;
   }
}

/* Thread TID's jumps, by context, source and target: those of the
   blocks, from their counters in each context they ran in, and the
   indirect ones (CP_(add_jump)). */
static Jump *gather_jumps(UInt tid, UInt *n_out)
{
   UInt n = 0, i, j, n_ind;
   CP_Block *b;
   CP_Foreign *f;
   CP_IndJump **ind = ind_jumps(&n_ind);
   Jump *v;

   for (b = CP_(first_block)(); b; b = CP_(next_block)()) {
      if (b->exits == NULL)
         continue;
      n += b->n_exits + 1;
      for (f = b->foreign; f; f = f->next)
         n += b->n_exits + 1;
   }
   v = VG_(malloc)("cp.dump.gather_jumps.1",
                   (n + n_ind ? n + n_ind : 1) * sizeof(Jump));
   n = 0;
   for (b = CP_(first_block)(); b; b = CP_(next_block)()) {
      if (b->exits == NULL)
         continue;
      if (tid == 1)
         block_jumps(b, b->count, b->loc->fn->ctx, v, &n);
      /* Skipped code (a call site given) is never written by Callgrind,
         its jumps neither. */
      for (f = b->foreign; f; f = f->next)
         if (f->tid == tid && f->site == 0)
            block_jumps(b, f->count, f->ctx, v, &n);
   }
   for (i = 0; i < n_ind; i++)
      if (ind[i]->tid == tid && ind[i]->count > 0) {
         v[n].ctx = ind[i]->ctx;
         v[n].instr = ind[i]->instr;
         v[n].target = ind[i]->target;
         v[n].cond = False;
         v[n].followed = v[n].executed = ind[i]->count;
         n++;
      }
   VG_(free)(ind);
   VG_(ssort)(v, n, sizeof(Jump), cmp_jump);
   for (i = 0, j = 0; i < n; i++) {
      if (j > 0 && cmp_jump(&v[j - 1], &v[i]) == 0) {
         v[j - 1].followed += v[i].followed;
         v[j - 1].executed += v[i].executed;
      } else
         v[j++] = v[i];
   }
   *n_out = j;
   return v;
}

/*------------------------------------------------------------*/
/*--- Writing one file                                     ---*/
/*------------------------------------------------------------*/

/* Context CTX's costs V[0 .. N), its jumps JV[*JI] on and its calls,
   in address order as Callgrind writes them (dump.c, fprint_bbcc): at
   each address its cost, then its jumps, then its calls; before each,
   fi=/fe= when its source file is not the one in force.  So a call made
   from code inlined from h.h is at h.h's line, with cfi= naming the
   callee's file.  As in Callgrind, an instruction without line
   information costs in the function's own file, and a call or jump
   from one is at line 0 of "???"; a jump to one stays in the file in
   force.  Without instruction positions, consecutive instructions of
   one line make one cost line, and a jump to no line is left out (it
   says nothing).

   A context that ran nothing in this part but has a call still open
   from an earlier one (a thread waiting in a system call across
   dumps) has call lines only; callgrind_annotate, annotating its
   source file, finds no line there and warns ("Use of uninitialized
   value ... line 1183").  Callgrind writes that call with calls=0,
   which callgrind_annotate takes for a cost line; callprof writes
   calls=1 (docs/callprof.md) and a line of zero cost at the first
   such call site. */
static void write_function(PW_Cg *w, CP_Ctx *ctx, UInt tid,
                           const Cost *v, UInt n,
                           const Jump *jv, UInt nj, UInt *ji)
{
   UInt i = 0;
   const Addr none = ~(Addr)0;
   HChar file[4096], file2[4096], tfile[4096];
   PW_CgPos pos, p2, to;
   ULong ev[CP_MAX_EV];
   UInt n_arcs, ai = 0;
   CP_Arc **arcs = arcs_of(ctx, tid, &n_arcs);
   Bool line_written = n > 0;
   static const ULong zero[CP_MAX_EV];

   pw_cg_function(w, ctx->func->obj, ctx->func->file, ctx->name);
   for (;;) {
      Addr ca = i < n ? COST(v, i)->addr : none;
      Addr ja = *ji < nj && jv[*ji].ctx == ctx ? jv[*ji].instr : none;
      Addr aa = ai < n_arcs ? arcs[ai]->site : none;
      if (ca == none && ja == none && aa == none)
         break;
      if (ca <= ja && ca <= aa) {
         Addr next = ja < aa ? ja : aa;
         if (!pos_of(ca, &pos, file, sizeof file))
            VG_(strcpy)(file, ctx->func->file);
         VG_(memcpy)(ev, COST(v, i)->ev, CP_(n_ev) * sizeof(ULong));
         i++;
         while (!CP_(clo_dump_instr) && i < n && COST(v, i)->addr <= next) {
            if (!pos_of(COST(v, i)->addr, &p2, file2, sizeof file2))
               VG_(strcpy)(file2, ctx->func->file);
            if (p2.line != pos.line || !VG_STREQ(file, file2))
               break;
            CP_(ev_add)(ev, COST(v, i)->ev);
            i++;
         }
         pw_cg_file(w, file);
         pw_cg_cost(w, pos, ev);
      } else if (ja <= aa) {
         const Jump *j = &jv[(*ji)++];
         Bool known = pos_of(j->target, &to, tfile, sizeof tfile);
         if (!CP_(clo_dump_instr) && to.line == 0)
            continue;
         pos_of(j->instr, &pos, file, sizeof file);
         pw_cg_file(w, file);
         pw_cg_jump(w, j->cond, j->followed, j->executed,
                    known ? tfile : NULL, to, pos);
      } else {
         const CP_Arc *a = arcs[ai++];
         pos_of(a->target, &to, tfile, sizeof tfile);
         pos_of(a->site, &pos, file, sizeof file);
         pw_cg_file(w, file);
         if (!line_written && a->count == 0 && pos.line > 0) {
            pw_cg_cost(w, pos, zero);
            line_written = True;
         }
         pw_cg_call(w, a->callee->func->obj, a->callee->func->file,
                    a->callee->name,
                    a->count > 0 ? a->count : 1, to, pos, a->inclusive);
      }
   }
   VG_(free)(arcs);
}

static const char *vg_getenv(const char *name)
{
   return VG_(getenv)(name);
}

/* "desc: Timerange: Basic block 0 - 32438": the blocks run before the
   dump's costs began and when it was taken, counted over the whole run
   and every thread, as Callgrind counts them (zeroing does not move
   them).  A block's first run is run each time the block is, so the
   blocks run so far are the first-run counters now, plus those that
   were zeroed (by dumps and zeroing): BLOCKS_RETIRED. */
static ULong blocks_retired;
static ULong range_start, range_end;

static Int out_counter;     /* dumps of this process so far */
static Int out_pid;         /* the process they were counted in */
static ULong bbs_done;      /* --dump-every-bb: blocks_all() at its last dump */

ULong CP_(collected)[CP_MAX_EV];
static UInt parts_written;  /* files (parts) of this process written */

/* Copy the file PATH into S; False if it cannot be read (then nothing
   was copied). */
static Bool copy_file(const HChar *path, PW_Sink *s)
{
   SysRes r = VG_(open)(path, VKI_O_RDONLY, 0);
   HChar buf[8192];
   Int fd, got;

   if (sr_isError(r))
      return False;
   fd = sr_Res(r);
   while ((got = VG_(read)(fd, buf, sizeof buf)) > 0)
      pw_putn(s, buf, got);
   VG_(close)(fd);
   return True;
}

/* Thread TID's costs since the last dump, into one file. */
static void write_file(const HChar *trigger, UInt tid)
{
   HChar path[4096], cmd[4096], trig[4096], range[80];
   const char *desc[5];
   const char *err;
   PW_CgHeader h;
   PW_File *f;
   PW_Cg *w;
   Jump *jv = NULL;
   CP_Ctx *const *ctxs;
   CP_SysCost **sys;
   UInt n_ctxs, n_jumps = 0, n_sys, si = 0, k, ji = 0, len;
   ULong total[CP_MAX_EV];
   Bool continued;

   err = pw_template_expand(CP_(clo_out_file), VG_(getpid)(), vg_getenv,
                            VG_(get_startup_wd)(), path, sizeof path - 40);
   if (err) {
      VG_(umsg)("callprof: cannot write %s: %s\n", CP_(clo_out_file), err);
      return;
   }
   len = VG_(strlen)(path);
   if (trigger && !CP_(clo_combine_dumps))
      len += VG_(sprintf)(path + len, ".%d", out_counter);
   if (CP_(clo_separate_threads) && !CP_(clo_combine_dumps))
      VG_(sprintf)(path + len, "-%02u", tid);
   f = pw_file_open(path, "callprof", PW_MODE_CALLGRIND);
   if (f == NULL)
      return;
   /* --combine-dumps: the parts written so far first, so that the file
      is still only ever seen whole. */
   continued = CP_(clo_combine_dumps) && parts_written > 0 &&
               copy_file(path, pw_file_sink(f));

   cost_size = sizeof(Cost) + CP_(n_ev) * sizeof(ULong);
   sys = CP_(sys_costs)(&n_sys);
   VG_(ssort)(sys, n_sys, sizeof *sys, cmp_sys);
   file_total(tid, sys, n_sys, total);
   if (CP_(clo_collect_jumps))
      jv = gather_jumps(tid, &n_jumps);
   ctxs = CP_(all_ctxs)(&n_ctxs);
   pw_vg_client_cmd(cmd, sizeof cmd);
   VG_(snprintf)(trig, sizeof trig, "Trigger: %s",
                 trigger ? trigger : "Program termination");
   VG_(memset)(&h, 0, sizeof h);
   h.n_desc = 0;
   /* As Callgrind: the caches' lines even without the simulation, empty,
      so that callgrind_annotate's header is the same. */
   for (k = 0; k < 3; k++)
      desc[h.n_desc++] = CP_(clo_cache_sim) ? CP_(sim_desc)(k) :
                         k == 0 ? "I1 cache:" : k == 1 ? "D1 cache:"
                                                       : "LL cache:";
   VG_(snprintf)(range, sizeof range, "Timerange: Basic block %llu - %llu",
                 range_start, range_end);
   desc[h.n_desc++] = range;
   desc[h.n_desc++] = trig;
   h.creator = "callprof-" PACKAGE_VERSION;
   h.pid = VG_(getpid)();
   h.cmd = cmd;
   h.part = out_counter;
   h.thread = CP_(clo_separate_threads) ? (int)tid : 0;
   h.desc = desc;
   h.pos_instr = CP_(clo_dump_instr);
   h.pos_line = CP_(clo_dump_line) || !CP_(clo_dump_instr);
   h.events = CP_(ev_name);
   h.n_events = CP_(n_ev);
   h.summary = total;
   h.compress_strings = CP_(clo_compress_strings);
   h.compress_pos = CP_(clo_compress_pos);
   h.continued = continued;
   w = pw_cg_begin(pw_file_sink(f), &h);
   if (w == NULL) {
      pw_file_abandon(f);
      VG_(free)(sys);
      if (jv)
         VG_(free)(jv);
      return;
   }

   /* Contexts in creation order; sys and jv are sorted the same way. */
   for (k = 0; k < n_ctxs; k++) {
      CP_Ctx *ctx = ctxs[k];
      Bool has_arcs = False;
      CP_Arc *a;
      UInt n = ctx_costs(ctx, tid, sys, n_sys, &si);
      for (a = ctx->arcs; a; a = a->next)
         has_arcs |= arc_shown(a, tid);
      while (ji < n_jumps && jv[ji].ctx->id < ctx->id)
         ji++;          /* jumps of a function with no cost (none) */
      if (n == 0 && !has_arcs)
         continue;
      write_function(w, ctx, tid, cost_buf, n, jv, n_jumps, &ji);
   }
   VG_(free)(sys);
   VG_(free)(cost_buf);
   cost_buf = NULL;
   cost_cap = 0;
   if (jv)
      VG_(free)(jv);
   for (k = 0; k < CP_(n_ev); k++)
      CP_(collected)[k] += pw_cg_totals(w)[k];
   pw_cg_end(w);
   if (pw_file_commit(f) == 0) {
      parts_written++;
      if (VG_(clo_verbosity) > 0 &&
          (!CP_(clo_combine_dumps) || trigger == NULL))
         VG_(umsg)("callprof: profile written to %s\n", path);
   }
}

/*------------------------------------------------------------*/
/*--- Folded stacks (--folded-out-file)                    ---*/
/*------------------------------------------------------------*/

/* One line per call path with self Ir, root first:

      _start;__libc_start_main;main;work;leaf 500000

   A path's self Ir is its inclusive Ir less its children's (see
   cp_calls.c); paths with no self Ir are left out.  A signal handler's
   path starts at its thread's root with "[signal handler]".  Paths are
   cut at MAX_FOLDED frames, the last one taking the cost of all that
   is deeper, so that the lines still add up to the run. */
#define MAX_FOLDED 256

static void write_path(PW_Sink *s, CP_Path *p, const char **frames,
                       UInt depth)
{
   ULong children = 0;
   CP_Path *c;

   frames[depth] = p->label ? p->label : p->fn ? p->fn->name : "[unknown]";
   if (depth == MAX_FOLDED - 1) {
      if (p->inclusive > 0)
         pw_folded(s, frames, MAX_FOLDED, p->inclusive);
      return;
   }
   for (c = p->child; c; c = c->sibling) {
      children += c->inclusive;
      write_path(s, c, frames, depth + 1);
   }
   if (p->inclusive > children)
      pw_folded(s, frames, depth + 1, p->inclusive - children);
}

static void write_folded(void)
{
   HChar path[4096];
   const char *frames[MAX_FOLDED];
   PW_File *f;
   CP_Path *r;

   f = pw_vg_open_output(CP_(clo_folded_out_file), "callprof",
                         PW_MODE_CALLGRIND, path,
                         sizeof path);
   if (f == NULL)
      return;
   for (r = CP_(path_roots)(); r; r = r->sibling)
      write_path(pw_file_sink(f), r, frames, 0);
   if (pw_file_commit(f) == 0 && VG_(clo_verbosity) > 0)
      VG_(umsg)("callprof: folded stacks written to %s\n", path);
}

static void zero_paths(CP_Path *p)
{
   for (; p; p = p->sibling) {
      p->inclusive = 0;
      zero_paths(p->child);
   }
}

/*------------------------------------------------------------*/
/*--- Dumps and zeroing                                    ---*/
/*------------------------------------------------------------*/

static VgHashTable *sys_table;

void CP_(add_sys_cost)(CP_Ctx *ctx, UInt tid, Addr instr, const ULong *ev)
{
   UWord key = ((UWord)ctx * 31 + instr) * 31 + tid;
   CP_SysCost *c;

   if (sys_table == NULL)
      sys_table = VG_(HT_construct)("callprof syscalls");
   for (c = VG_(HT_lookup)(sys_table, key); c; c = c->next)
      if (c->key == key && c->ctx == ctx && c->instr == instr && c->tid == tid)
         break;
   if (c == NULL) {
      c = VG_(calloc)("cp.dump.add_sys_cost.1", 1,
                      sizeof *c + CP_(n_ev) * sizeof(ULong));
      c->key = key;
      c->ctx = ctx;
      c->tid = tid;
      c->instr = instr;
      VG_(HT_add_node)(sys_table, c);
   }
   CP_(ev_add)(c->ev, ev);
}

CP_SysCost **CP_(sys_costs)(UInt *n)
{
   if (sys_table == NULL) {
      *n = 0;
      return VG_(malloc)("cp.dump.sys_costs.1", sizeof(CP_SysCost *));
   }
   return (CP_SysCost **)VG_(HT_to_array)(sys_table, n);
}

/* The blocks run in thread TID's counters (0: every thread's). */
static ULong first_runs(UInt tid)
{
   CP_Block *b;
   CP_Foreign *f;
   ULong n = 0;
   for (b = CP_(first_block)(); b; b = CP_(next_block)()) {
      if (tid <= 1)
         n += b->count[0];
      for (f = b->foreign; f; f = f->next)
         if (tid == 0 || f->tid == tid)
            n += f->count[0];
   }
   return n;
}

ULong CP_(blocks_run)(void)
{
   return blocks_retired + first_runs(0);
}

/* Zero thread TID's costs; KEEP_UNSHOWN: leave the call counts of arcs
   that cost nothing (after a dump, for the next one). */
static void zero_costs(UInt tid, Bool keep_unshown)
{
   CP_Block *b;
   CP_Foreign *f;
   CP_Ctx *const *ctxs;
   CP_SysCost **sys;
   CP_IndJump **ind;
   UInt n, i;

   blocks_retired += first_runs(tid);
   for (b = CP_(first_block)(); b; b = CP_(next_block)()) {
      if (tid == 1)
         VG_(memset)(b->count, 0, b->n_slots * sizeof(ULong));
      for (f = b->foreign; f; f = f->next)
         if (f->tid == tid)
            VG_(memset)(f->count, 0, b->n_slots * sizeof(ULong));
   }
   ctxs = CP_(all_ctxs)(&n);
   for (i = 0; i < n; i++) {
      CP_Arc *a;
      for (a = ctxs[i]->arcs; a; a = a->next) {
         if (a->tid != tid)
            continue;
         if (!keep_unshown || arc_shown(a, tid))
            a->count = 0;
         CP_(ev_clear)(a->inclusive);
      }
   }
   sys = CP_(sys_costs)(&n);
   for (i = 0; i < n; i++)
      if (sys[i]->tid == tid)
         CP_(ev_clear)(sys[i]->ev);
   VG_(free)(sys);
   ind = ind_jumps(&n);
   for (i = 0; i < n; i++)
      if (ind[i]->tid == tid)
         ind[i]->count = 0;
   VG_(free)(ind);
   if (tid == 1 || !CP_(clo_separate_threads))
      zero_paths(CP_(path_roots)());
}

/* Restart the numbering in a forked child, as Callgrind's init_dumps. */
static void check_pid(void)
{
   if (out_pid != VG_(getpid)()) {
      out_pid = VG_(getpid)();
      out_counter = 0;
      parts_written = 0;
   }
}

static void dump_parts(const HChar *trigger, Bool only_current)
{
   UInt tid;

   if (!CP_(clo_separate_threads) || only_current) {
      tid = CP_(cost_tid)();
      CP_(flush_open_calls)(CP_(clo_separate_threads) ? tid : 0);
      write_file(trigger, tid);
      if (trigger == NULL && CP_(clo_folded_out_file))
         write_folded();
      zero_costs(tid, True);
      return;
   }
   CP_(flush_open_calls)(0);
   /* before the zeroing of thread 1, which zeroes the paths */
   if (trigger == NULL && CP_(clo_folded_out_file))
      write_folded();
   for (tid = 1; tid < VG_N_THREADS; tid++)
      if (CP_(thread_exists)(tid)) {
         write_file(trigger, tid);
         zero_costs(tid, True);
      }
}

/* Callgrind's count of blocks run ("Timerange", --dump-every-bb): all
   of them, held ones too (CP_(blocks_out)), and while collection is
   off. */
static ULong blocks_all(void)
{
   return CP_(blocks_run)() + CP_(blocks_out) + CP_(blocks_uncollected)();
}

/* A dump leaves out the blocks threads are in system calls from
   (CP_(hold_syscall_blocks)): they go to the next part.  The
   "Timerange" has one block more after each dump, as Callgrind's. */
void CP_(dump)(const HChar *trigger, Bool only_current)
{
   static ULong dumps;

   check_pid();
   out_counter++;
   range_start = range_end;
   range_end = blocks_all() + dumps;
   CP_(hold_syscall_blocks)(True);
   dump_parts(trigger, only_current);
   CP_(hold_syscall_blocks)(False);
   dumps++;
}

static void zero_parts(Bool all)
{
   UInt tid = CP_(cost_tid)();
   if (all && CP_(clo_separate_threads)) {
      CP_(flush_open_calls)(0);
      for (tid = 1; tid < VG_N_THREADS; tid++)
         if (CP_(thread_exists)(tid))
            zero_costs(tid, False);
      return;
   }
   CP_(flush_open_calls)(CP_(clo_separate_threads) ? tid : 0);
   zero_costs(tid, False);
}

void CP_(zero)(Bool all)
{
   CP_(hold_syscall_blocks)(True);
   zero_parts(all);
   CP_(hold_syscall_blocks)(False);
}

UInt CP_(dumps_done)(void)
{
   return out_counter;
}

void CP_(bb_dump_check)(ULong core_blocks)
{
   static ULong last_core;
   HChar buf[64];
   ULong now;
   if (CP_(clo_dump_every_bb) == 0)
      return;
   /* Callgrind's throttle (clg_start_client_code_callback): at most once
      per 5000 of the core's blocks.  The core's count leaves out the
      blocks entered through chained jumps, so the blocks that decide
      are the tool's own count, as Callgrind's are. */
   if (core_blocks - last_core < 5000)
      return;
   last_core = core_blocks;
   now = blocks_all();
   if (now - bbs_done <= CP_(clo_dump_every_bb))
      return;
   VG_(sprintf)(buf, "--dump-every-bb=%llu", CP_(clo_dump_every_bb));
   CP_(dump)(buf, False);
   bbs_done = now;
}

void CP_(time_dump_check)(void)
{
   static UInt last_ms;
   HChar buf[40];
   UInt now;
   if (CP_(clo_dump_every) == 0)
      return;
   now = VG_(read_millisecond_timer)();
   if (now - last_ms < CP_(clo_dump_every) * 1000)
      return;
   last_ms = now;
   VG_(sprintf)(buf, "--dump-every=%u", CP_(clo_dump_every));
   CP_(dump)(buf, False);
}

/*------------------------------------------------------------*/
/*--- Client requests                                      ---*/
/*------------------------------------------------------------*/

/* include/callprof.h's requests, with callgrind.h's codes: a program
   built against either works unchanged.  Others are not ours. */
Bool CP_(client_request)(ThreadId tid, UWord *args, UWord *ret)
{
   if (args[0] == VG_USERREQ__GDB_MONITOR_COMMAND) {
      *ret = CP_(monitor_command)((const HChar *)args[1]);
      return *ret != 0;
   }
   if (!VG_IS_TOOL_USERREQ('C', 'T', args[0]))
      return False;
   switch (args[0]) {
   case CALLPROF_USERREQ_DUMP_STATS:
      CP_(hold_block)(True);
      CP_(dump)("Client Request", True);
      CP_(hold_block)(False);
      break;
   case CALLPROF_USERREQ_DUMP_STATS_AT: {
      const HChar *arg = (const HChar *)args[1];
      HChar buf[30 + (arg ? VG_(strlen)(arg) : 0)];
      VG_(sprintf)(buf, "Client Request: %s", arg ? arg : "(null)");
      CP_(hold_block)(True);
      CP_(dump)(buf, True);
      CP_(hold_block)(False);
      break;
   }
   case CALLPROF_USERREQ_ZERO_STATS:
      CP_(hold_block)(True);
      CP_(zero)(False);
      CP_(hold_block)(False);
      break;
   case CALLPROF_USERREQ_TOGGLE_COLLECT:
      CP_(toggle_collect)();
      break;
   case CALLPROF_USERREQ_START_INSTRUMENTATION:
      CP_(set_instrument)(True);
      break;
   case CALLPROF_USERREQ_STOP_INSTRUMENTATION:
      /* its block would be counted at the next one, uninstrumented */
      if (CP_(instrumenting))
         CP_(drop_block)();
      CP_(set_instrument)(False);
      break;
   default:
      return False;
   }
   *ret = 0;
   return True;
}
