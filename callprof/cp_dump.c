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
   request, --dump-before/after, --dump-every-bb), nothing for the final
   dump at exit, then "-TT" (the thread id, two digits) with
   --separate-threads=yes.  "part:" is N, counting the final dump.  So a
   program that dumps twice leaves callprof.out.PID.1,
   callprof.out.PID.2 and callprof.out.PID (part: 3).  Each file is
   complete in itself: one part, its own name ids (a fresh pw_cg_begin
   per file), totals equal to the sum of its cost lines. */

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

typedef struct {
   CP_Fn *fn;
   Addr   addr;
   ULong  ev[CP_MAX_EV];
} Cost;

static Int cmp_cost(const void *a, const void *b)
{
   const Cost *x = a, *y = b;
   if (x->fn->n != y->fn->n)
      return x->fn->n < y->fn->n ? -1 : 1;
   return x->addr < y->addr ? -1 : x->addr > y->addr ? 1 : 0;
}

static void add_costs(Cost *v, UInt *n, CP_Block *b, CP_Fn *fn, Addr site,
                      const ULong *count)
{
   UInt i;
   Int k;
   for (i = 0; i < b->n_instrs; i++) {
      ULong c = count[b->run_of[i]];
      if (c == 0)
         continue;
      v[*n].fn = fn;
      v[*n].addr = site ? site : b->instr_addr[i];
      for (k = 0; k < CP_MAX_EV; k++)
         v[*n].ev[k] = 0;
      v[*n].ev[0] = c;
      if (b->sim && CP_(ev_bc) >= 0) {
         const ULong *bc = count + b->sim[i].off + CP_(sim_branch_off);
         for (k = 0; k < 4; k++)
            v[*n].ev[CP_(ev_bc) + k] = bc[k];
      }
      if (b->sim && CP_(ev_use) >= 0 && CP_(clo_cache_sim)) {
         const ULong *u = count + b->sim[i].off + CP_(sim_use_off);
         for (k = 0; k < 4; k++)
            v[*n].ev[CP_(ev_use) + k] = u[k];
      }
      if (b->sim && CP_(clo_cache_sim)) {
         /* cp_sim.c's counters per instruction, into the events */
         const ULong *sc = count + b->sim[i].off;
         UInt per = CP_(sim_branch_off) / 3, cl;  /* per class */
         for (cl = 0; cl < 3; cl++) {         /* fetch, read, write */
            const ULong *x = sc + cl * per;
            if (cl > 0)
               v[*n].ev[CP_EV_DR + cl - 1] = x[0];
            v[*n].ev[CP_EV_I1MR + cl] = x[1];
            v[*n].ev[CP_EV_ILMR + cl] = x[2];
            if (per == 4)
               v[*n].ev[CP_EV_ILDMR + cl] = x[3];
         }
      }
      if (b->bus && CP_(ev_ge) >= 0)
         v[*n].ev[CP_(ev_ge)] = c * b->bus[i];
      (*n)++;
   }
}

/* Every instruction of thread TID's costs once, by function and
   address; TOTAL gets their sum. */
static Cost *gather(UInt tid, UInt *n_out, ULong *total)
{
   UInt n = 0, i, j, n_sys;
   CP_Block *b;
   CP_Foreign *f;
   CP_SysCost **sys = CP_(sys_costs)(&n_sys);
   Cost *v;
   Int k;

   for (b = CP_(all_blocks); b; b = b->all_next) {
      n += b->n_instrs;
      for (f = b->foreign; f; f = f->next)
         n += b->n_instrs;
   }
   n += n_sys;
   v = VG_(malloc)("cp.dump.gather.1", (n ? n : 1) * sizeof(Cost));
   n = 0;
   for (b = CP_(all_blocks); b; b = b->all_next) {
      if (tid == 1)
         add_costs(v, &n, b, b->loc->fn, 0, b->count);
      for (f = b->foreign; f; f = f->next)
         if (f->tid == tid)
            add_costs(v, &n, b, f->ctx, f->site, f->count);
   }
   for (i = 0; i < n_sys; i++) {
      if (sys[i]->tid != tid)
         continue;
      v[n].fn = sys[i]->ctx;
      v[n].addr = sys[i]->instr;
      for (k = 0; k < CP_MAX_EV; k++)
         v[n].ev[k] = sys[i]->ev[k];
      n++;
   }
   VG_(free)(sys);
   VG_(ssort)(v, n, sizeof(Cost), cmp_cost);
   for (k = 0; k < CP_MAX_EV; k++)
      total[k] = 0;
   for (i = 0, j = 0; i < n; i++) {
      for (k = 0; k < CP_MAX_EV; k++)
         total[k] += v[i].ev[k];
      if (j > 0 && v[j - 1].fn == v[i].fn && v[j - 1].addr == v[i].addr)
         for (k = 0; k < CP_MAX_EV; k++)
            v[j - 1].ev[k] += v[i].ev[k];
      else
         v[j++] = v[i];
   }
   *n_out = j;
   return v;
}

/* The position of A: address relative to its object, source line, and
   the source file as Callgrind names it (DIR/FILE, or "???"). */
static PW_CgPos pos_of(Addr a, HChar *file, Int size)
{
   DiEpoch ep = VG_(current_DiEpoch)();
   DebugInfo *di = VG_(find_DebugInfo)(ep, a);
   const HChar *fl, *dir;
   PW_CgPos p;
   UInt line;

   p.instr = a - (di ? (Addr)VG_(DebugInfo_get_text_bias)(di) : 0);
   if (!VG_(get_filename_linenum)(ep, a, &fl, &dir, &line)) {
      line = 0;
      VG_(strcpy)(file, "???");
   } else if (dir && dir[0])
      VG_(snprintf)(file, size, "%s/%s", dir, fl);
   else
      VG_(snprintf)(file, size, "%s", fl);
   p.line = line;
   return p;
}

static Int cmp_arc(const void *a, const void *b)
{
   const CP_Arc *x = *(const CP_Arc *const *)a, *y = *(const CP_Arc *const *)b;
   if (x->site != y->site)
      return x->site < y->site ? -1 : 1;
   return x->callee->n < y->callee->n ? -1 : x->callee->n > y->callee->n;
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

/* FN's calls, by call site. */
static void write_calls(PW_Cg *w, CP_Fn *fn, UInt tid)
{
   HChar file[4096];
   CP_Arc *a, **v;
   UInt n = 0, i;

   for (a = fn->arcs; a; a = a->next)
      n++;
   if (n == 0)
      return;
   v = VG_(malloc)("cp.dump.write_calls.1", n * sizeof *v);
   /* As Callgrind, an arc that cost nothing is left out (a signal
      handler's call of its sigreturn stub, never completed). */
   for (a = fn->arcs, n = 0; a; a = a->next)
      if (arc_shown(a, tid))
         v[n++] = a;
   VG_(ssort)(v, n, sizeof *v, cmp_arc);
   for (i = 0; i < n; i++) {
      PW_CgPos to = pos_of(v[i]->target, file, sizeof file);
      PW_CgPos from = pos_of(v[i]->site, file, sizeof file);
      pw_cg_call(w, v[i]->callee->obj, v[i]->callee->file,
                 v[i]->callee->name, v[i]->count > 0 ? v[i]->count : 1,
                 to, from, v[i]->inclusive);
   }
   VG_(free)(v);
}

/*------------------------------------------------------------*/
/*--- Jumps (--collect-jumps)                              ---*/
/*------------------------------------------------------------*/

typedef struct {
   CP_Fn *fn;
   Addr   instr, target;
   Bool   cond;
   ULong  followed, executed;
} Jump;

static Int cmp_jump(const void *a, const void *b)
{
   const Jump *x = a, *y = b;
   if (x->fn->n != y->fn->n)
      return x->fn->n < y->fn->n ? -1 : 1;
   if (x->instr != y->instr)
      return x->instr < y->instr ? -1 : 1;
   return x->target < y->target ? -1 : x->target > y->target;
}

/* The jumps of thread TID's blocks, by function of the block, from
   their run counters summed over the contexts the block ran in. */
static Jump *gather_jumps(UInt tid, UInt *n_out)
{
   UInt n = 0, i, j, r;
   CP_Block *b;
   Jump *v;

   for (b = CP_(all_blocks); b; b = b->all_next)
      n += b->n_jumps;
   v = VG_(malloc)("cp.dump.gather_jumps.1", (n ? n : 1) * sizeof(Jump));
   n = 0;
   for (b = CP_(all_blocks); b; b = b->all_next) {
      ULong runs[b->n_slots];
      CP_Foreign *f;
      if (b->n_jumps == 0)
         continue;
      for (r = 0; r < b->n_slots; r++)
         runs[r] = tid == 1 ? b->count[r] : 0;
      for (f = b->foreign; f; f = f->next)
         if (f->tid == tid)
            for (r = 0; r < b->n_slots; r++)
               runs[r] += f->count[r];
      for (i = 0; i < b->n_jumps; i++) {
         const CP_JumpExit *jp = &b->jumps[i];
         ULong reach = runs[jp->run], taken;
         if (jp->cond)
            taken = runs[b->n_runs + i];
         else
            taken = reach - (jp->minus >= 0 ? runs[b->n_runs + jp->minus] : 0);
         if (taken == 0 || taken > reach)
            continue;
         v[n].fn = b->loc->fn;
         v[n].instr = jp->instr;
         v[n].target = jp->target;
         v[n].cond = jp->cond;
         v[n].followed = taken;
         v[n].executed = reach;
         n++;
      }
   }
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

/* FN's jumps from V[*I] on.  Only jumps inside the function are written
   (gprof2dot fails on jfn=); FILE is the current file (fi=/fe=). */
static void write_jumps(PW_Cg *w, CP_Fn *fn, Jump *v, UInt n, UInt *i,
                        const HChar *cur_file)
{
   HChar tf[4096], ff[4096];
   for (; *i < n && v[*i].fn->n < fn->n; (*i)++)
      ;
   for (; *i < n && v[*i].fn == fn; (*i)++) {
      CP_Loc *to = CP_(loc_of)(v[*i].target);
      PW_CgPos pt, pf;
      if (to->fn != fn)
         continue;
      pt = pos_of(v[*i].target, tf, sizeof tf);
      pf = pos_of(v[*i].instr, ff, sizeof ff);
      /* As Callgrind: without instruction positions, a jump to no line
         says nothing. */
      if (!CP_(clo_dump_instr) && pt.line == 0)
         continue;
      if (!VG_STREQ(ff, cur_file))
         continue;
      pw_cg_jump(w, v[*i].cond, v[*i].followed, v[*i].executed,
                 VG_STREQ(tf, cur_file) ? NULL : tf, NULL, pt, pf);
   }
}

/*------------------------------------------------------------*/
/*--- Writing one file                                     ---*/
/*------------------------------------------------------------*/

static Int cmp_fn(const void *a, const void *b)
{
   const CP_Fn *x = *(const CP_Fn *const *)a, *y = *(const CP_Fn *const *)b;
   return x->n < y->n ? -1 : x->n > y->n;
}

static const char *vg_getenv(const char *name)
{
   return VG_(getenv)(name);
}

static Int out_counter;     /* dumps of this process so far */
static Int out_pid;         /* the process they were counted in */
static ULong bbs_done;      /* --dump-every-bb: blocks at the last dump */

/* Thread TID's costs since the last dump, into one file. */
static void write_file(const HChar *trigger, UInt tid)
{
   HChar path[4096], cmd[4096], file[4096], file2[4096], cur[4096];
   HChar trig[4096];
   const char *desc[4];
   const char *err;
   PW_CgHeader h;
   PW_File *f;
   PW_Cg *w;
   Cost *v;
   Jump *jv = NULL;
   CP_Fn **fns;
   UInt n, n_fns, n_jumps = 0, i, k, ji = 0, len;
   ULong total[CP_MAX_EV];

   err = pw_template_expand(CP_(clo_out_file), VG_(getpid)(), vg_getenv,
                            VG_(get_startup_wd)(), path, sizeof path - 40);
   if (err) {
      VG_(umsg)("callprof: cannot write %s: %s\n", CP_(clo_out_file), err);
      return;
   }
   len = VG_(strlen)(path);
   if (trigger)
      len += VG_(sprintf)(path + len, ".%d", out_counter);
   if (CP_(clo_separate_threads))
      VG_(sprintf)(path + len, "-%02u", tid);
   f = pw_file_open(path, "callprof");
   if (f == NULL)
      return;

   v = gather(tid, &n, total);
   if (CP_(clo_collect_jumps))
      jv = gather_jumps(tid, &n_jumps);
   fns = CP_(all_fns)(&n_fns);
   VG_(ssort)(fns, n_fns, sizeof *fns, cmp_fn);
   pw_vg_client_cmd(cmd, sizeof cmd);
   VG_(snprintf)(trig, sizeof trig, "Trigger: %s",
                 trigger ? trigger : "Program termination");
   VG_(memset)(&h, 0, sizeof h);
   h.n_desc = 0;
   if (CP_(clo_cache_sim))
      for (k = 0; k < 3; k++)
         desc[h.n_desc++] = CP_(sim_desc)(k);
   desc[h.n_desc++] = trig;
   h.creator = "callprof-" PACKAGE_VERSION;
   h.pid = VG_(getpid)();
   h.cmd = cmd;
   h.part = out_counter;
   h.desc = desc;
   h.pos_instr = CP_(clo_dump_instr);
   h.pos_line = CP_(clo_dump_line) || !CP_(clo_dump_instr);
   h.events = CP_(ev_name);
   h.n_events = CP_(n_ev);
   h.summary = total;
   h.compress_strings = CP_(clo_compress_strings);
   h.compress_pos = CP_(clo_compress_pos);
   w = pw_cg_begin(pw_file_sink(f), &h);
   if (w == NULL) {
      pw_file_abandon(f);
      VG_(free)(v);
      VG_(free)(fns);
      if (jv)
         VG_(free)(jv);
      return;
   }

   /* Functions in creation order; v is sorted the same way. */
   for (k = 0, i = 0; k < n_fns; k++) {
      CP_Fn *fn = fns[k];
      Bool has_arcs = False;
      CP_Arc *a;
      for (a = fn->arcs; a; a = a->next)
         has_arcs |= arc_shown(a, tid);
      if ((i >= n || v[i].fn != fn) && !has_arcs)
         continue;
      pw_cg_function(w, fn->obj, fn->file, fn->name);
      VG_(strcpy)(cur, fn->file);
      while (i < n && v[i].fn == fn) {
         PW_CgPos pos = pos_of(v[i].addr, file, sizeof file);
         ULong ev[CP_MAX_EV];
         Int e;
         for (e = 0; e < CP_MAX_EV; e++)
            ev[e] = v[i].ev[e];
         i++;
         /* Without per-instruction positions, consecutive instructions
            of one line make one cost line. */
         while (!CP_(clo_dump_instr) && i < n && v[i].fn == fn) {
            PW_CgPos p2 = pos_of(v[i].addr, file2, sizeof file2);
            if (p2.line != pos.line || !VG_STREQ(file, file2))
               break;
            for (e = 0; e < CP_MAX_EV; e++)
               ev[e] += v[i].ev[e];
            i++;
         }
         pw_cg_file(w, file);
         VG_(strcpy)(cur, file);
         pw_cg_cost(w, pos, ev);
      }
      if (jv)
         write_jumps(w, fn, jv, n_jumps, &ji, cur);
      write_calls(w, fn, tid);
   }
   VG_(free)(v);
   VG_(free)(fns);
   if (jv)
      VG_(free)(jv);
   pw_cg_end(w);
   if (pw_file_commit(f) == 0 && VG_(clo_verbosity) > 0)
      VG_(umsg)("callprof: profile written to %s\n", path);
}

/*------------------------------------------------------------*/
/*--- Folded stacks (--folded-out-file)                    ---*/
/*------------------------------------------------------------*/

/* One line per call path with self Ir, root first:

      _start;__libc_start_main;main;work;leaf 500000

   A path's self Ir is its inclusive Ir less its children's (see
   cp_calls.c); paths with no self Ir are left out.  A signal handler's
   path starts at its thread's root with "[signal handler]". */
static void write_path(PW_Sink *s, CP_Path *p, const char **frames,
                       UInt depth)
{
   ULong children = 0;
   CP_Path *c;

   if (depth == 256)
      return;              /* deeper paths are cut */
   frames[depth] = p->label ? p->label : p->fn ? p->fn->name : "[unknown]";
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
   const char *frames[257];
   PW_File *f;
   CP_Path *r;

   f = pw_vg_open_output(CP_(clo_folded_out_file), "callprof", path,
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

void CP_(add_sys_cost)(CP_Fn *ctx, UInt tid, Addr instr, const ULong *ev)
{
   UWord key = ((UWord)ctx * 31 + instr) * 31 + tid;
   CP_SysCost *c;
   Int k;

   if (sys_table == NULL)
      sys_table = VG_(HT_construct)("callprof syscalls");
   for (c = VG_(HT_lookup)(sys_table, key); c; c = c->next)
      if (c->key == key && c->ctx == ctx && c->instr == instr && c->tid == tid)
         break;
   if (c == NULL) {
      c = VG_(calloc)("cp.dump.add_sys_cost.1", 1, sizeof *c);
      c->key = key;
      c->ctx = ctx;
      c->tid = tid;
      c->instr = instr;
      VG_(HT_add_node)(sys_table, c);
   }
   for (k = 0; k < CP_MAX_EV; k++)
      c->ev[k] += ev[k];
}

CP_SysCost **CP_(sys_costs)(UInt *n)
{
   if (sys_table == NULL) {
      *n = 0;
      return VG_(malloc)("cp.dump.sys_costs.1", sizeof(CP_SysCost *));
   }
   return (CP_SysCost **)VG_(HT_to_array)(sys_table, n);
}

/* Zero thread TID's costs; KEEP_UNSHOWN: leave the call counts of arcs
   that cost nothing (after a dump, for the next one). */
static void zero_costs(UInt tid, Bool keep_unshown)
{
   CP_Block *b;
   CP_Foreign *f;
   CP_Fn **fns;
   CP_SysCost **sys;
   UInt n, i;
   Int k;

   for (b = CP_(all_blocks); b; b = b->all_next) {
      if (tid == 1)
         VG_(memset)(b->count, 0, b->n_slots * sizeof(ULong));
      for (f = b->foreign; f; f = f->next)
         if (f->tid == tid)
            VG_(memset)(f->count, 0, b->n_slots * sizeof(ULong));
   }
   fns = CP_(all_fns)(&n);
   for (i = 0; i < n; i++) {
      CP_Arc *a;
      for (a = fns[i]->arcs; a; a = a->next) {
         if (a->tid != tid)
            continue;
         if (!keep_unshown || arc_shown(a, tid))
            a->count = 0;
         for (k = 0; k < CP_MAX_EV; k++)
            a->inclusive[k] = 0;
      }
   }
   VG_(free)(fns);
   sys = CP_(sys_costs)(&n);
   for (i = 0; i < n; i++)
      if (sys[i]->tid == tid)
         for (k = 0; k < CP_MAX_EV; k++)
            sys[i]->ev[k] = 0;
   VG_(free)(sys);
   if (tid == 1 || !CP_(clo_separate_threads))
      zero_paths(CP_(path_roots)());
}

/* Restart the numbering in a forked child, as Callgrind's init_dumps. */
static void check_pid(void)
{
   if (out_pid != VG_(getpid)()) {
      out_pid = VG_(getpid)();
      out_counter = 0;
   }
}

void CP_(dump)(const HChar *trigger, Bool only_current)
{
   UInt tid;

   check_pid();
   out_counter++;
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
   for (tid = 1; tid < VG_N_THREADS; tid++)
      if (CP_(thread_exists)(tid)) {
         write_file(trigger, tid);
         zero_costs(tid, True);
      }
   if (trigger == NULL && CP_(clo_folded_out_file))
      write_folded();
}

void CP_(zero)(void)
{
   UInt tid = CP_(cost_tid)();
   CP_(flush_open_calls)(CP_(clo_separate_threads) ? tid : 0);
   zero_costs(tid, False);
}

void CP_(bb_dump_check)(ULong blocks_done)
{
   HChar buf[64];
   if (CP_(clo_dump_every_bb) == 0 ||
       blocks_done - bbs_done <= CP_(clo_dump_every_bb))
      return;
   VG_(sprintf)(buf, "--dump-every-bb=%llu", CP_(clo_dump_every_bb));
   CP_(dump)(buf, False);
   bbs_done = blocks_done;
}

/*------------------------------------------------------------*/
/*--- Client requests                                      ---*/
/*------------------------------------------------------------*/

/* include/callprof.h's requests, with callgrind.h's codes: a program
   built against either works unchanged.  Others are not ours. */
Bool CP_(client_request)(ThreadId tid, UWord *args, UWord *ret)
{
   if (!VG_IS_TOOL_USERREQ('C', 'T', args[0]))
      return False;
   switch (args[0]) {
   case CALLPROF_USERREQ_DUMP_STATS:
      CP_(dump)("Client Request", True);
      break;
   case CALLPROF_USERREQ_DUMP_STATS_AT: {
      const HChar *arg = (const HChar *)args[1];
      HChar buf[30 + (arg ? VG_(strlen)(arg) : 0)];
      VG_(sprintf)(buf, "Client Request: %s", arg ? arg : "(null)");
      CP_(dump)(buf, True);
      break;
   }
   case CALLPROF_USERREQ_ZERO_STATS:
      CP_(zero)();
      break;
   case CALLPROF_USERREQ_TOGGLE_COLLECT:
      CP_(set_collect)(!CP_(collecting)());
      break;
   case CALLPROF_USERREQ_START_INSTRUMENTATION:
      CP_(set_instrument)(True);
      break;
   case CALLPROF_USERREQ_STOP_INSTRUMENTATION:
      CP_(set_instrument)(False);
      break;
   default:
      return False;
   }
   *ret = 0;
   return True;
}
