/* cp_main.c: callprof, a profiler that writes Callgrind's format.

   Copyright (C) 2026 The heapsnap/callprof developers.
   SPDX-License-Identifier: GPL-2.0-or-later

   What it does.  callprof counts executed guest instructions (the event
   Ir) per instruction, and at exit writes them per object, file,
   function and line (or per instruction with --dump-instr=yes) in
   Callgrind's format through profwriter's pw_cg_* emitters, so
   callgrind_annotate and KCachegrind read them unchanged.

   Design: counting runs, not instructions.  A superblock is cut into
   runs at its side exits: once the first instruction of a run executes,
   all of its instructions do.  The instrumentation adds one counter
   increment at the start of each run (one load, add and store, inline,
   no helper call), and remembers which run each instruction belongs to.
   An instruction's Ir is its run's count.  The table of runs per
   superblock (Block below) is what the cache and branch simulation of
   later issues will hang their per-instruction data on.

   At exit, the per-instruction counts of all blocks are gathered, sorted
   by address (a superblock may overlap another), merged, resolved to
   object, function, file and line with the core's debug info, and
   written.

   This file is the skeleton of the full tool: the call graph, dumps,
   client requests and the simulators come in later issues. */

#include "pub_tool_basics.h"
#include "pub_tool_clientstate.h"
#include "pub_tool_debuginfo.h"
#include "pub_tool_hashtable.h"
#include "pub_tool_libcassert.h"
#include "pub_tool_libcbase.h"
#include "pub_tool_libcprint.h"
#include "pub_tool_libcproc.h"
#include "pub_tool_machine.h"
#include "pub_tool_mallocfree.h"
#include "pub_tool_options.h"
#include "pub_tool_tooliface.h"
#include "pub_tool_xarray.h"

#include "clo.h"
#include "profwriter.h"

/*------------------------------------------------------------*/
/*--- Options                                              ---*/
/*------------------------------------------------------------*/

static const HChar *clo_out_file         = "callprof.out.%p";
static Bool         clo_dump_instr       = False;
static Bool         clo_dump_line        = True;
static Bool         clo_compress_strings = True;
static Bool         clo_compress_pos     = True;

static Bool cp_process_cmd_line_option(const HChar *arg)
{
   const HChar *v;

   if (clo_match(arg, "--callprof-out-file", &v) ||
       clo_match(arg, "--callgrind-out-file", &v)) {
      const HChar *err = pw_template_check(v);
      if (err)
         clo_reject(arg, err);
      clo_out_file = v;
   }
   else if (clo_match(arg, "--dump-instr", &v))
      clo_dump_instr = clo_bool(arg, v);
   else if (clo_match(arg, "--dump-line", &v))
      clo_dump_line = clo_bool(arg, v);
   else if (clo_match(arg, "--compress-strings", &v))
      clo_compress_strings = clo_bool(arg, v);
   else if (clo_match(arg, "--compress-pos", &v))
      clo_compress_pos = clo_bool(arg, v);
   else
      return clo_unknown(arg);
   return True;
}

static void cp_print_usage(void)
{
   VG_(printf)(
"    --callprof-out-file=<file>  output file name [callprof.out.%%p]\n"
"                                (%%p pid, %%n sequence, %%q{VAR} env var);\n"
"                                --callgrind-out-file is accepted too\n"
"    --dump-instr=no|yes         costs per instruction [no]\n"
"    --dump-line=no|yes          costs per source line [yes]\n"
"    --compress-strings=no|yes   name compression with (id) [yes]\n"
"    --compress-pos=no|yes       relative positions [yes]\n");
}

static void cp_print_debug_usage(void)
{
   VG_(printf)("    (none)\n");
}

/*------------------------------------------------------------*/
/*--- Blocks and runs                                      ---*/
/*------------------------------------------------------------*/

/* One instrumented superblock.  run_count[r] is incremented each time
   run r starts; instruction i belongs to run run_of[i]. */
typedef struct Block {
   struct Block *next;      /* VgHashNode */
   UWord         key;       /* guest address of the superblock */
   struct Block *all_next;  /* every block ever made, for the dump */
   UInt          n_instrs;
   UInt          n_runs;
   Addr         *instr_addr;
   UShort       *run_of;
   ULong        *run_count;
} Block;

static VgHashTable *blocks_by_addr;
static Block       *all_blocks;

/* The block for SB at ADDR, if one exists with the same instructions
   (code retranslated after a discard keeps its counts). */
static Block *find_block(Addr addr, const IRSB *sb)
{
   Block *b = VG_(HT_lookup)(blocks_by_addr, addr);
   UInt i = 0;
   Int s;
   if (b == NULL)
      return NULL;
   for (s = 0; s < sb->stmts_used; s++)
      if (sb->stmts[s]->tag == Ist_IMark) {
         if (i >= b->n_instrs ||
             b->instr_addr[i] != (Addr)sb->stmts[s]->Ist.IMark.addr)
            return NULL;
         i++;
      }
   return i == b->n_instrs ? b : NULL;
}

static Block *new_block(Addr addr, const IRSB *sb)
{
   Block *b = VG_(malloc)("cp.block", sizeof(Block));
   UInt n = 0, runs = 1, r = 0, i = 0;
   Bool run_open = False;
   Int s;

   for (s = 0; s < sb->stmts_used; s++) {
      if (sb->stmts[s]->tag == Ist_IMark)
         n++;
      else if (sb->stmts[s]->tag == Ist_Exit)
         runs++;
   }
   b->key = addr;
   b->n_instrs = n;
   b->instr_addr = VG_(malloc)("cp.block.addr", (n ? n : 1) * sizeof(Addr));
   b->run_of = VG_(malloc)("cp.block.run", (n ? n : 1) * sizeof(UShort));
   b->run_count = VG_(calloc)("cp.block.count", runs, sizeof(ULong));

   /* Number the runs the same way the instrumentation does. */
   for (s = 0; s < sb->stmts_used; s++) {
      const IRStmt *st = sb->stmts[s];
      if (st->tag == Ist_IMark) {
         run_open = True;
         b->instr_addr[i] = (Addr)st->Ist.IMark.addr;
         b->run_of[i++] = r;
      } else if (st->tag == Ist_Exit && run_open) {
         r++;
         run_open = False;
      }
   }
   b->n_runs = r + 1;

   VG_(HT_add_node)(blocks_by_addr, b);
   b->all_next = all_blocks;
   all_blocks = b;
   return b;
}

/*------------------------------------------------------------*/
/*--- Instrumentation                                      ---*/
/*------------------------------------------------------------*/

static void add_increment(IRSB *out, ULong *counter)
{
   IRExpr *addr = mkIRExpr_HWord((HWord)counter);
   IRTemp old = newIRTemp(out->tyenv, Ity_I64);
   IRTemp upd = newIRTemp(out->tyenv, Ity_I64);
   addStmtToIRSB(out, IRStmt_WrTmp(old, IRExpr_Load(Iend_LE, Ity_I64, addr)));
   addStmtToIRSB(out, IRStmt_WrTmp(upd, IRExpr_Binop(Iop_Add64,
                                       IRExpr_RdTmp(old),
                                       IRExpr_Const(IRConst_U64(1)))));
   addStmtToIRSB(out, IRStmt_Store(Iend_LE, addr, IRExpr_RdTmp(upd)));
}

static IRSB *cp_instrument(VgCallbackClosure *closure, IRSB *in,
                           const VexGuestLayout *layout,
                           const VexGuestExtents *vge,
                           const VexArchInfo *archinfo_host,
                           IRType gWordTy, IRType hWordTy)
{
   Block *b = find_block(closure->nraddr, in);
   IRSB *out = deepCopyIRSBExceptStmts(in);
   Bool run_open = False;
   UInt r = 0;
   Int s;

   if (b == NULL)
      b = new_block(closure->nraddr, in);

   for (s = 0; s < in->stmts_used; s++) {
      IRStmt *st = in->stmts[s];
      if (st->tag == Ist_IMark && !run_open) {
         add_increment(out, &b->run_count[r]);
         run_open = True;
      } else if (st->tag == Ist_Exit && run_open) {
         r++;
         run_open = False;
      }
      addStmtToIRSB(out, st);
   }
   return out;
}

/*------------------------------------------------------------*/
/*--- Output                                               ---*/
/*------------------------------------------------------------*/

/* Output format: Callgrind's (see include/profwriter.h and
   docs/formats.md), one part, event Ir:

      # callgrind format
      version: 1
      creator: callprof-0.1.0
      pid: 4242
      cmd: ./prog
      part: 1
      desc: Trigger: Program termination
      positions: line                 (instr line with --dump-instr=yes)
      events: Ir
      summary: 123456
      ob=(1) /usr/lib/x86_64-linux-gnu/libc.so.6
      fl=(1) ./stdio-common/vfprintf-internal.c
      fn=(1) __vfprintf_internal
      1234 52
      +2 7
      ...
      totals: 123456
*/

typedef struct {
   Addr  addr;
   ULong ir;
} InstrCost;

static Int cmp_instr(const void *a, const void *b)
{
   Addr x = ((const InstrCost *)a)->addr, y = ((const InstrCost *)b)->addr;
   return x < y ? -1 : x > y ? 1 : 0;
}

/* Every executed instruction once, by address, with its Ir. */
static InstrCost *gather(UInt *n_out, ULong *total)
{
   UInt n = 0, i, j;
   Block *b;
   InstrCost *v;

   for (b = all_blocks; b; b = b->all_next)
      n += b->n_instrs;
   v = VG_(malloc)("cp.gather", (n ? n : 1) * sizeof(InstrCost));
   n = 0;
   *total = 0;
   for (b = all_blocks; b; b = b->all_next)
      for (i = 0; i < b->n_instrs; i++) {
         ULong c = b->run_count[b->run_of[i]];
         if (c == 0)
            continue;
         v[n].addr = b->instr_addr[i];
         v[n].ir = c;
         *total += c;
         n++;
      }
   VG_(ssort)(v, n, sizeof(InstrCost), cmp_instr);
   for (i = 0, j = 0; i < n; i++) {
      if (j > 0 && v[j - 1].addr == v[i].addr)
         v[j - 1].ir += v[i].ir;
      else
         v[j++] = v[i];
   }
   *n_out = j;
   return v;
}

/* Source file as Callgrind names it: DIR/FILE, or "???". */
static const HChar *source_file(Addr a, UInt *line, HChar *buf, Int size)
{
   const HChar *file, *dir;
   if (!VG_(get_filename_linenum)(VG_(current_DiEpoch)(), a, &file, &dir,
                                  line)) {
      *line = 0;
      return "???";
   }
   if (dir && dir[0])
      VG_(snprintf)(buf, size, "%s/%s", dir, file);
   else
      VG_(snprintf)(buf, size, "%s", file);
   return buf;
}

static void write_profile(void)
{
   static const char *const events[] = { "Ir" };
   static const char *const desc[] = { "Trigger: Program termination" };
   HChar path[4096], cmd[4096];
   HChar fn_buf[4096], fl_buf[4096], file_buf[4096], ob_buf[4096];
   DiEpoch ep = VG_(current_DiEpoch)();
   PW_CgHeader h;
   PW_File *f;
   PW_Cg *w;
   InstrCost *v;
   UInt n, i;
   ULong total;

   f = pw_vg_open_output(clo_out_file, "callprof", path, sizeof path);
   if (f == NULL)
      return;

   v = gather(&n, &total);
   pw_vg_client_cmd(cmd, sizeof cmd);
   VG_(memset)(&h, 0, sizeof h);
   h.creator = "callprof-" PACKAGE_VERSION;
   h.pid = VG_(getpid)();
   h.cmd = cmd;
   h.part = 1;
   h.desc = desc;
   h.n_desc = 1;
   h.pos_instr = clo_dump_instr;
   h.pos_line = clo_dump_line || !clo_dump_instr;
   h.events = events;
   h.n_events = 1;
   h.summary = &total;
   h.compress_strings = clo_compress_strings;
   h.compress_pos = clo_compress_pos;
   w = pw_cg_begin(pw_file_sink(f), &h);
   if (w == NULL) {
      pw_file_abandon(f);
      VG_(free)(v);
      return;
   }

   fn_buf[0] = '\0';
   for (i = 0; i < n; ) {
      const HChar *fn, *ob, *file;
      DebugInfo *di = VG_(find_DebugInfo)(ep, v[i].addr);
      Addr bias = di ? (Addr)VG_(DebugInfo_get_text_bias)(di) : 0;
      UInt line;
      ULong ir = v[i].ir;
      PW_CgPos pos;

      ob = di ? VG_(DebugInfo_get_filename)(di) : "???";
      if (!VG_(get_fnname)(ep, v[i].addr, &fn))
         fn = "???";
      file = source_file(v[i].addr, &line, file_buf, sizeof file_buf);

      /* A new function (by name, within an object): fl= is the file of
         its first instruction, as Callgrind's is the file of its first
         block. */
      if (!VG_STREQ(fn, fn_buf) || !VG_STREQ(ob, ob_buf)) {
         VG_(strncpy)(fn_buf, fn, sizeof fn_buf - 1);
         fn_buf[sizeof fn_buf - 1] = '\0';
         VG_(strncpy)(ob_buf, ob, sizeof ob_buf - 1);
         ob_buf[sizeof ob_buf - 1] = '\0';
         VG_(strncpy)(fl_buf, file, sizeof fl_buf - 1);
         fl_buf[sizeof fl_buf - 1] = '\0';
         pw_cg_function(w, ob_buf, fl_buf, fn_buf);
      }
      pw_cg_file(w, file);

      pos.instr = v[i].addr - bias;
      pos.line = line;
      i++;
      /* Without per-instruction positions, consecutive instructions of
         one line make one cost line. */
      if (!clo_dump_instr)
         while (i < n) {
            const HChar *fn2, *file2;
            UInt line2;
            HChar buf2[4096];
            if (!VG_(get_fnname)(ep, v[i].addr, &fn2))
               fn2 = "???";
            if (!VG_STREQ(fn2, fn_buf))
               break;
            file2 = source_file(v[i].addr, &line2, buf2, sizeof buf2);
            if (line2 != line || !VG_STREQ(file2, file_buf))
               break;
            if (VG_(find_DebugInfo)(ep, v[i].addr) != di)
               break;
            ir += v[i].ir;
            i++;
         }
      pw_cg_cost(w, pos, &ir);
   }
   VG_(free)(v);
   pw_cg_end(w);
   if (pw_file_commit(f) == 0 && VG_(clo_verbosity) > 0)
      VG_(umsg)("callprof: profile written to %s\n", path);
}

/*------------------------------------------------------------*/
/*--- Setup                                                ---*/
/*------------------------------------------------------------*/

static void cp_post_clo_init(void)
{
}

static void cp_fini(Int exitcode)
{
   write_profile();
}

static void cp_pre_clo_init(void)
{
   VG_(details_name)            ("callprof");
   VG_(details_version)         (PACKAGE_VERSION);
   VG_(details_description)     ("call profiles in Callgrind's format");
   VG_(details_copyright_author)(
      "Copyright (C) 2026, and GNU GPL'd, by the heapsnap/callprof developers");
   VG_(details_bug_reports_to)  ("the heapsnap/callprof issue tracker");
   VG_(details_avg_translation_sizeB)(200);

   VG_(basic_tool_funcs)(cp_post_clo_init, cp_instrument, cp_fini);
   VG_(needs_command_line_options)(cp_process_cmd_line_option,
                                   cp_print_usage, cp_print_debug_usage);

   blocks_by_addr = VG_(HT_construct)("callprof blocks");
}

VG_DETERMINE_INTERFACE_VERSION(cp_pre_clo_init)
