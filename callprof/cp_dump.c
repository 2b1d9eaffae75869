/* cp_dump.c: writing the profile.

   Copyright (C) 2026 The heapsnap/callprof developers.
   SPDX-License-Identifier: GPL-2.0-or-later

   At exit the run counters of every block (in its own function and in
   foreign contexts) become per-instruction costs of a function; they
   are sorted by function and address, merged, and written through
   profwriter's pw_cg_* emitters with each function's calls. */

#include "pub_tool_basics.h"
#include "pub_tool_debuginfo.h"
#include "pub_tool_libcbase.h"
#include "pub_tool_libcprint.h"
#include "pub_tool_libcproc.h"
#include "pub_tool_mallocfree.h"
#include "pub_tool_options.h"

#include "cp.h"
#include "profwriter.h"

/* Output format: Callgrind's (see include/profwriter.h), one part,
   event Ir.  Per function, its cost lines, then its calls:

      # callgrind format
      version: 1
      creator: callprof-0.1.0
      pid: 4242
      cmd: ./prog

      part: 1

      desc: Trigger: Program termination

      positions: line                 (instr line with --dump-instr=yes)
      events: Ir
      summary: 1527966


      ob=(1) /tmp/prog
      fl=(1) /src/prog.c
      fn=(1) work
      21 3
      +1 400002
      fi=(2) /src/inline.h            (code of another file, inlined)
      3 100000
      fe=(1)
      cfn=(2) leaf                    (a call arc)
      calls=100000 16
      22 500000                       (call site, inclusive Ir)
      ...
      totals: 1527966

   A function is (object, file, name) as in Callgrind; its cost lines
   carry the source position of each instruction. */

typedef struct {
   CP_Fn *fn;
   Addr   addr;
   ULong  ir;
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
   for (i = 0; i < b->n_instrs; i++) {
      ULong c = count[b->run_of[i]];
      if (c == 0)
         continue;
      v[*n].fn = fn;
      v[*n].addr = site ? site : b->instr_addr[i];
      v[*n].ir = c;
      (*n)++;
   }
}

/* Every executed instruction of every function once, by function and
   address. */
static Cost *gather(UInt *n_out, ULong *total)
{
   UInt n = 0, i, j;
   CP_Block *b;
   CP_Foreign *f;
   Cost *v;

   for (b = CP_(all_blocks); b; b = b->all_next) {
      n += b->n_instrs;
      for (f = b->foreign; f; f = f->next)
         n += b->n_instrs;
   }
   v = VG_(malloc)("cp.dump.gather.1", (n ? n : 1) * sizeof(Cost));
   n = 0;
   for (b = CP_(all_blocks); b; b = b->all_next) {
      add_costs(v, &n, b, b->loc->fn, 0, b->count);
      for (f = b->foreign; f; f = f->next)
         add_costs(v, &n, b, f->ctx, f->site, f->count);
   }
   VG_(ssort)(v, n, sizeof(Cost), cmp_cost);
   *total = 0;
   for (i = 0, j = 0; i < n; i++) {
      *total += v[i].ir;
      if (j > 0 && v[j - 1].fn == v[i].fn && v[j - 1].addr == v[i].addr)
         v[j - 1].ir += v[i].ir;
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

/* FN's calls, by call site. */
static void write_calls(PW_Cg *w, CP_Fn *fn)
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
      if (a->count > 0 && a->inclusive > 0)
         v[n++] = a;
   VG_(ssort)(v, n, sizeof *v, cmp_arc);
   for (i = 0; i < n; i++) {
      PW_CgPos to = pos_of(v[i]->target, file, sizeof file);
      PW_CgPos from = pos_of(v[i]->site, file, sizeof file);
      pw_cg_call(w, v[i]->callee->obj, v[i]->callee->file,
                 v[i]->callee->name, v[i]->count, to, from,
                 &v[i]->inclusive);
   }
   VG_(free)(v);
}

static Int cmp_fn(const void *a, const void *b)
{
   const CP_Fn *x = *(const CP_Fn *const *)a, *y = *(const CP_Fn *const *)b;
   return x->n < y->n ? -1 : x->n > y->n;
}

void CP_(write_profile)(void)
{
   static const char *const events[] = { "Ir" };
   static const char *const desc[] = { "Trigger: Program termination" };
   HChar path[4096], cmd[4096], file[4096], file2[4096];
   PW_CgHeader h;
   PW_File *f;
   PW_Cg *w;
   Cost *v;
   CP_Fn **fns;
   UInt n, n_fns, i, k;
   ULong total;

   f = pw_vg_open_output(CP_(clo_out_file), "callprof", path, sizeof path);
   if (f == NULL)
      return;

   v = gather(&n, &total);
   fns = CP_(all_fns)(&n_fns);
   VG_(ssort)(fns, n_fns, sizeof *fns, cmp_fn);
   pw_vg_client_cmd(cmd, sizeof cmd);
   VG_(memset)(&h, 0, sizeof h);
   h.creator = "callprof-" PACKAGE_VERSION;
   h.pid = VG_(getpid)();
   h.cmd = cmd;
   h.part = 1;
   h.desc = desc;
   h.n_desc = 1;
   h.pos_instr = CP_(clo_dump_instr);
   h.pos_line = CP_(clo_dump_line) || !CP_(clo_dump_instr);
   h.events = events;
   h.n_events = 1;
   h.summary = &total;
   h.compress_strings = CP_(clo_compress_strings);
   h.compress_pos = CP_(clo_compress_pos);
   w = pw_cg_begin(pw_file_sink(f), &h);
   if (w == NULL) {
      pw_file_abandon(f);
      VG_(free)(v);
      VG_(free)(fns);
      return;
   }

   /* Functions in creation order; v is sorted the same way. */
   for (k = 0, i = 0; k < n_fns; k++) {
      CP_Fn *fn = fns[k];
      Bool has_arcs = False;
      CP_Arc *a;
      for (a = fn->arcs; a; a = a->next)
         has_arcs |= a->count > 0 && a->inclusive > 0;
      if ((i >= n || v[i].fn != fn) && !has_arcs)
         continue;
      pw_cg_function(w, fn->obj, fn->file, fn->name);
      while (i < n && v[i].fn == fn) {
         PW_CgPos pos = pos_of(v[i].addr, file, sizeof file);
         ULong ir = v[i].ir;
         i++;
         /* Without per-instruction positions, consecutive instructions
            of one line make one cost line. */
         while (!CP_(clo_dump_instr) && i < n && v[i].fn == fn) {
            PW_CgPos p2 = pos_of(v[i].addr, file2, sizeof file2);
            if (p2.line != pos.line || !VG_STREQ(file, file2))
               break;
            ir += v[i].ir;
            i++;
         }
         pw_cg_file(w, file);
         pw_cg_cost(w, pos, &ir);
      }
      write_calls(w, fn);
   }
   VG_(free)(v);
   VG_(free)(fns);
   pw_cg_end(w);
   if (pw_file_commit(f) == 0 && VG_(clo_verbosity) > 0)
      VG_(umsg)("callprof: profile written to %s\n", path);
}
