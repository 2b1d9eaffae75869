/* hs_main.c: heapsnap, a heap profiler that writes Massif's format.

   Copyright (C) 2026 The heapsnap/callprof developers.
   SPDX-License-Identifier: GPL-2.0-or-later

   What it does.  heapsnap replaces the client's allocator (through the
   core's malloc replacement and vgpreload_heapsnap-PLATFORM.so), records
   for every live block its size and the allocation site, and takes
   snapshots of the heap over time.  At exit it writes the snapshots in
   Massif's format (profwriter's pw_ms_* emitters), so ms_print and
   massif-visualizer read them unchanged.

   Design.
   - Sites.  An allocation site is the stack at the allocation with the
     allocation functions removed from the top, everything below main cut
     off, and at most --depth frames kept.  Sites are interned in a hash
     table; each keeps its live bytes.  A block points to its site, so a
     free is a hash lookup and a subtraction.
   - Time.  --time-unit=i counts guest instructions: the instrumentation
     adds the number of instructions of each straight-line run of a
     superblock to one counter, before each exit and at the end, so the
     count is exact and costs one add per run.  B counts bytes allocated
     plus freed; ms is wall-clock time.
   - Snapshots.  At each allocation or free, a snapshot is taken if at
     least min_interval time has passed since the last one.  When the
     table is full, every other snapshot is dropped and the interval
     doubled, so the kept ones cover the whole run evenly.  Every
     --detailed-freq'th snapshot is detailed: it keeps a copy of the live
     bytes per site.  A detailed snapshot is always taken at exit.

   This file is the skeleton of the full tool (see the issues): it proves
   the pipeline from the allocator to a file the readers open.  Stacks,
   pages-as-heap, the exact peak and on-demand snapshots come later. */

#include "pub_tool_basics.h"
#include "pub_tool_clientstate.h"
#include "pub_tool_debuginfo.h"
#include "pub_tool_execontext.h"
#include "pub_tool_hashtable.h"
#include "pub_tool_libcassert.h"
#include "pub_tool_libcbase.h"
#include "pub_tool_libcprint.h"
#include "pub_tool_libcproc.h"
#include "pub_tool_machine.h"
#include "pub_tool_mallocfree.h"
#include "pub_tool_options.h"
#include "pub_tool_replacemalloc.h"
#include "pub_tool_stacktrace.h"
#include "pub_tool_threadstate.h"
#include "pub_tool_tooliface.h"
#include "pub_tool_xarray.h"
#include "pub_tool_xtree.h"

#include "clo.h"
#include "profwriter.h"

/*------------------------------------------------------------*/
/*--- Options                                              ---*/
/*------------------------------------------------------------*/

#define HS_MAX_DEPTH 200

typedef enum { TimeI, TimeMS, TimeB } TimeUnit;

static const HChar *clo_out_file      = "heapsnap.out.%p";
static Int          clo_depth         = 30;
static double       clo_threshold     = 1.0;
static Int          clo_detailed_freq = 10;
static Int          clo_max_snapshots = 100;
static TimeUnit     clo_time_unit     = TimeI;

/* The options as given, for the "desc:" line. */
static XArray *given_args;

static Bool hs_process_cmd_line_option(const HChar *arg)
{
   const HChar *v;

   if (clo_match(arg, "--heapsnap-out-file", &v) ||
       clo_match(arg, "--massif-out-file", &v)) {
      const HChar *err = pw_template_check(v);
      if (err)
         clo_reject(arg, err);
      clo_out_file = v;
   }
   else if (clo_match(arg, "--depth", &v))
      clo_depth = (Int)clo_long(arg, v, 1, HS_MAX_DEPTH);
   else if (clo_match(arg, "--threshold", &v))
      clo_threshold = clo_double(arg, v, 0, 100);
   else if (clo_match(arg, "--detailed-freq", &v))
      clo_detailed_freq = (Int)clo_long(arg, v, 1, 1000000);
   else if (clo_match(arg, "--max-snapshots", &v))
      clo_max_snapshots = (Int)clo_long(arg, v, 10, 1000);
   else if (clo_match(arg, "--time-unit", &v)) {
      if      (VG_STREQ(v, "i"))  clo_time_unit = TimeI;
      else if (VG_STREQ(v, "ms")) clo_time_unit = TimeMS;
      else if (VG_STREQ(v, "B"))  clo_time_unit = TimeB;
      else clo_reject(arg, "expected i, ms or B");
   }
   else if (VG_(replacement_malloc_process_cmd_line_option)(arg))
      return True;
   else
      return clo_unknown(arg);

   VG_(addToXA)(given_args, &arg);
   return True;
}

static void hs_print_usage(void)
{
   VG_(printf)(
"    --heapsnap-out-file=<file>  output file name [heapsnap.out.%%p]\n"
"                                (%%p pid, %%n sequence, %%q{VAR} env var);\n"
"                                --massif-out-file is accepted too\n"
"    --depth=<number>            depth of allocation trees, 1..%d [30]\n"
"    --threshold=<m.n>           significance threshold, in percent [1.0]\n"
"    --detailed-freq=<N>         every Nth snapshot is detailed [10]\n"
"    --max-snapshots=<N>         snapshots kept, 10..1000 [100]\n"
"    --time-unit=i|ms|B          time as instructions, milliseconds\n"
"                                or bytes allocated/freed [i]\n",
      HS_MAX_DEPTH);
}

static void hs_print_debug_usage(void)
{
   VG_(printf)("    (none)\n");
}

/*------------------------------------------------------------*/
/*--- Time                                                 ---*/
/*------------------------------------------------------------*/

static ULong guest_instrs_executed = 0;
static ULong total_bytes_churned   = 0;   /* for --time-unit=B */

static ULong now(void)
{
   switch (clo_time_unit) {
   case TimeI:  return guest_instrs_executed;
   case TimeMS: return VG_(read_millisecond_timer)();
   case TimeB:  return total_bytes_churned;
   }
   tl_assert(0);
}

/*------------------------------------------------------------*/
/*--- Allocation sites                                     ---*/
/*------------------------------------------------------------*/

/* Allocation functions: frames with these names are removed from the top
   of a stack.  Massif's default list. */
static const HChar *const alloc_fns[] = {
   "malloc", "__builtin_new", "operator new(unsigned)",
   "operator new(unsigned long)", "__builtin_vec_new",
   "operator new[](unsigned)", "operator new[](unsigned long)",
   "calloc", "realloc", "memalign", "posix_memalign", "valloc",
   "operator new(unsigned, std::nothrow_t const&)",
   "operator new[](unsigned, std::nothrow_t const&)",
   "operator new(unsigned long, std::nothrow_t const&)",
   "operator new[](unsigned long, std::nothrow_t const&)",
};

static Bool is_alloc_fn(Addr ip)
{
   const HChar *name;
   UInt i;
   if (!VG_(get_fnname)(VG_(current_DiEpoch)(), ip, &name))
      return False;
   for (i = 0; i < sizeof alloc_fns / sizeof alloc_fns[0]; i++)
      if (VG_STREQ(name, alloc_fns[i]))
         return True;
   return False;
}

typedef struct Site {
   struct Site *next;     /* VgHashNode */
   UWord        key;      /* hash of the ips */
   UInt         n_ips;
   SizeT        live;     /* bytes of live blocks from here */
   Addr         ips[0];
} Site;

static VgHashTable *sites;
static UInt         n_sites;

static UWord hash_ips(const Addr *ips, UInt n)
{
   UWord h = 0x9e3779b97f4a7c15UL ^ n;
   UInt i;
   for (i = 0; i < n; i++)
      h = (h ^ ips[i]) * 0x100000001b3UL;
   return h;
}

static Word cmp_site(const void *key_node, const void *node)
{
   const Site *a = key_node, *b = node;
   UInt i;
   if (a->n_ips != b->n_ips)
      return 1;
   for (i = 0; i < a->n_ips; i++)
      if (a->ips[i] != b->ips[i])
         return 1;
   return 0;
}

/* The site of the allocation being made by thread TID. */
static Site *current_site(ThreadId tid)
{
   static Addr ips[HS_MAX_DEPTH + 50];
   static union { Site s; Addr space[sizeof(Site) / sizeof(Addr) + HS_MAX_DEPTH + 50]; } probe;
   Int n = VG_(get_StackTrace)(tid, ips, clo_depth + 50, NULL, NULL, 0);
   Int top = 1, sel;   /* ips[0] is the replacement function itself */
   Site *s;

   while (top < n && is_alloc_fn(ips[top]))
      top++;
   sel = n - top;
   if (sel > 0 && !VG_(clo_show_below_main)) {
      Int mbm = VG_(XT_offset_main_or_below_main)(VG_(current_DiEpoch)(),
                                                  ips, n);
      sel = mbm < top ? 1 : mbm + 1 - top;
   }
   if (sel > clo_depth)
      sel = clo_depth;
   if (sel < 0)
      sel = 0;

   probe.s.n_ips = sel;
   VG_(memcpy)(probe.s.ips, ips + top, sel * sizeof(Addr));
   probe.s.key = hash_ips(probe.s.ips, sel);
   s = VG_(HT_gen_lookup)(sites, &probe.s, cmp_site);
   if (s == NULL) {
      s = VG_(malloc)("hs.site", sizeof(Site) + sel * sizeof(Addr));
      s->key = probe.s.key;
      s->n_ips = sel;
      s->live = 0;
      VG_(memcpy)(s->ips, probe.s.ips, sel * sizeof(Addr));
      VG_(HT_add_node)(sites, s);
      n_sites++;
   }
   return s;
}

/*------------------------------------------------------------*/
/*--- Blocks                                               ---*/
/*------------------------------------------------------------*/

typedef struct Block {
   struct Block *next;    /* VgHashNode */
   UWord         key;     /* the block's address */
   SizeT         req;     /* requested bytes */
   SizeT         slop;    /* usable - requested */
   Site         *site;
} Block;

#define HEAP_ADMIN_B 8    /* Massif's --heap-admin default */

static VgHashTable *blocks;
static ULong heap_B  = 0;      /* requested bytes of live blocks */
static ULong extra_B = 0;      /* admin + slop of live blocks */

static void maybe_snapshot(void);

static void *new_block(ThreadId tid, SizeT req, SizeT align, Bool zero)
{
   void *p;
   Block *b;

   if ((Long)req < 0)
      return NULL;
   p = VG_(cli_malloc)(align, req);
   if (p == NULL)
      return NULL;
   if (zero)
      VG_(memset)(p, 0, req);

   b = VG_(malloc)("hs.block", sizeof(Block));
   b->key  = (UWord)p;
   b->req  = req;
   b->slop = VG_(cli_malloc_usable_size)(p) - req;
   b->site = current_site(tid);
   VG_(HT_add_node)(blocks, b);

   b->site->live += req;
   heap_B  += req;
   extra_B += HEAP_ADMIN_B + b->slop;
   total_bytes_churned += req;
   maybe_snapshot();
   return p;
}

static void free_block(void *p)
{
   Block *b = VG_(HT_remove)(blocks, (UWord)p);
   if (b == NULL)
      return;                 /* not ours (or NULL): nothing to count */
   b->site->live -= b->req;
   heap_B  -= b->req;
   extra_B -= HEAP_ADMIN_B + b->slop;
   total_bytes_churned += b->req;
   VG_(free)(b);
   VG_(cli_free)(p);
   maybe_snapshot();
}

static void *hs_malloc(ThreadId tid, SizeT n)
{ return new_block(tid, n, VG_(clo_alignment), False); }
static void *hs_new(ThreadId tid, SizeT n)
{ return new_block(tid, n, VG_(clo_alignment), False); }
static void *hs_new_aligned(ThreadId tid, SizeT n, SizeT align)
{ return new_block(tid, n, align, False); }
static void *hs_memalign(ThreadId tid, SizeT align, SizeT n)
{ return new_block(tid, n, align, False); }

static void *hs_calloc(ThreadId tid, SizeT nmemb, SizeT size1)
{
   ULong total = (ULong)nmemb * size1;
   if (size1 != 0 && total / size1 != nmemb)
      return NULL;            /* overflow */
   return new_block(tid, (SizeT)total, VG_(clo_alignment), True);
}

static void hs_free(ThreadId tid, void *p)                   { free_block(p); }
static void hs_delete_aligned(ThreadId tid, void *p, SizeT a) { free_block(p); }

static void *hs_realloc(ThreadId tid, void *old, SizeT n)
{
   Block *b;
   void *p;
   if (old == NULL)
      return hs_malloc(tid, n);
   b = VG_(HT_lookup)(blocks, (UWord)old);
   if (b == NULL)
      return NULL;            /* unknown pointer */
   p = new_block(tid, n, VG_(clo_alignment), False);
   if (p == NULL)
      return NULL;
   VG_(memcpy)(p, old, b->req < n ? b->req : n);
   free_block(old);
   return p;
}

static SizeT hs_usable_size(ThreadId tid, void *p)
{
   Block *b = VG_(HT_lookup)(blocks, (UWord)p);
   return b ? b->req + b->slop : 0;
}

/*------------------------------------------------------------*/
/*--- Snapshots                                            ---*/
/*------------------------------------------------------------*/

/* A detailed snapshot's copy of the heap: live bytes per site. */
typedef struct {
   Site  *site;
   SizeT  bytes;
} SiteBytes;

typedef struct {
   ULong      time;
   ULong      heap_B;
   ULong      extra_B;
   SiteBytes *tree;       /* NULL unless detailed */
   UInt       n_tree;
} Snapshot;

static Snapshot *snapshots;
static Int       n_snapshots;
static ULong     min_interval = 0;
static ULong     n_taken = 0;   /* snapshots taken, culled or not */

static void take_tree(Snapshot *s)
{
   Site *site;
   UInt i = 0;
   s->tree = VG_(malloc)("hs.tree", (n_sites ? n_sites : 1) * sizeof(SiteBytes));
   VG_(HT_ResetIter)(sites);
   while ((site = VG_(HT_Next)(sites)))
      if (site->live > 0) {
         s->tree[i].site  = site;
         s->tree[i].bytes = site->live;
         i++;
      }
   s->n_tree = i;
}

static void free_snapshot(Snapshot *s)
{
   if (s->tree)
      VG_(free)(s->tree);
   s->tree = NULL;
}

/* Drop every other snapshot (the first and last stay), then double the
   interval: the kept snapshots stay evenly spread over the run. */
static void cull(void)
{
   Int i, j = 1;
   for (i = 1; i < n_snapshots - 1; i++) {
      if (i % 2 == 1) {
         free_snapshot(&snapshots[i]);
         continue;
      }
      snapshots[j++] = snapshots[i];
   }
   snapshots[j++] = snapshots[n_snapshots - 1];
   n_snapshots = j;
   min_interval = min_interval ? 2 * min_interval
                : (snapshots[n_snapshots - 1].time - snapshots[0].time)
                  / (ULong)n_snapshots + 1;
}

static void take_snapshot(Bool detailed)
{
   Snapshot *s;
   if (n_snapshots == clo_max_snapshots)
      cull();
   s = &snapshots[n_snapshots++];
   s->time    = now();
   s->heap_B  = heap_B;
   s->extra_B = extra_B;
   s->tree    = NULL;
   s->n_tree  = 0;
   if (detailed)
      take_tree(s);
   n_taken++;
}

static void maybe_snapshot(void)
{
   ULong t = now();
   if (n_snapshots > 0 && t - snapshots[n_snapshots - 1].time < min_interval)
      return;
   take_snapshot(n_taken % clo_detailed_freq == (ULong)clo_detailed_freq - 1);
}

/*------------------------------------------------------------*/
/*--- Instrumentation: counting instructions               ---*/
/*------------------------------------------------------------*/

static void add_instr_count(IRSB *sb, Int n)
{
   IRExpr *addr = mkIRExpr_HWord((HWord)&guest_instrs_executed);
   IRTemp old = newIRTemp(sb->tyenv, Ity_I64);
   IRTemp upd = newIRTemp(sb->tyenv, Ity_I64);
   if (n == 0)
      return;
   addStmtToIRSB(sb, IRStmt_WrTmp(old, IRExpr_Load(Iend_LE, Ity_I64, addr)));
   addStmtToIRSB(sb, IRStmt_WrTmp(upd, IRExpr_Binop(Iop_Add64,
                                       IRExpr_RdTmp(old),
                                       IRExpr_Const(IRConst_U64(n)))));
   addStmtToIRSB(sb, IRStmt_Store(Iend_LE, addr, IRExpr_RdTmp(upd)));
}

static IRSB *hs_instrument(VgCallbackClosure *closure, IRSB *in,
                           const VexGuestLayout *layout,
                           const VexGuestExtents *vge,
                           const VexArchInfo *archinfo_host,
                           IRType gWordTy, IRType hWordTy)
{
   IRSB *out;
   Int i, pending = 0;

   if (clo_time_unit != TimeI)
      return in;
   out = deepCopyIRSBExceptStmts(in);
   for (i = 0; i < in->stmts_used; i++) {
      IRStmt *st = in->stmts[i];
      if (st->tag == Ist_IMark)
         pending++;
      else if (st->tag == Ist_Exit) {
         add_instr_count(out, pending);
         pending = 0;
      }
      addStmtToIRSB(out, st);
   }
   add_instr_count(out, pending);
   return out;
}

/*------------------------------------------------------------*/
/*--- Output                                               ---*/
/*------------------------------------------------------------*/

/* Frame text as Valgrind's describe_IP, one inlined frame at a time. */
static const HChar *describe_frame(void *ctx, pw_addr ip, unsigned k,
                                   int *more)
{
   static InlIPCursor *cursor;
   const HChar *text;
   DiEpoch ep = VG_(current_DiEpoch)();
   if (k == 0) {
      if (cursor)
         VG_(delete_IIPC)(cursor);
      cursor = VG_(new_IIPC)(ep, ip);
   }
   text = VG_(describe_IP)(ep, ip, cursor);
   *more = VG_(next_IIPC)(cursor);
   if (!*more) {
      VG_(delete_IIPC)(cursor);
      cursor = NULL;
   }
   return text;
}

static void write_tree(PW_Sink *out, const Snapshot *s)
{
   PW_MsStack *stacks = VG_(malloc)("hs.write", (s->n_tree ? s->n_tree : 1)
                                                * sizeof(PW_MsStack));
   UInt i;
   for (i = 0; i < s->n_tree; i++) {
      stacks[i].ips   = s->tree[i].site->ips;
      stacks[i].n_ips = s->tree[i].site->n_ips;
      stacks[i].bytes = s->tree[i].bytes;
   }
   pw_ms_tree(out, stacks, s->n_tree, s->heap_B, s->extra_B, 0,
              clo_threshold,
              "(heap allocation functions) malloc/new/new[], --alloc-fns, etc.",
              describe_frame, NULL);
   VG_(free)(stacks);
}

static void write_profile(void)
{
   HChar path[4096], desc[4096], cmd[4096];
   PW_File *f;
   PW_Sink *out;
   Int i, used = 0;

   f = pw_vg_open_output(clo_out_file, "heapsnap", path, sizeof path);
   if (f == NULL)
      return;
   out = pw_file_sink(f);

   desc[0] = '\0';
   for (i = 0; i < VG_(sizeXA)(given_args) && used < (Int)sizeof desc; i++)
      used += VG_(snprintf)(desc + used, sizeof desc - used, "%s%s",
                            i ? " " : "",
                            *(HChar **)VG_(indexXA)(given_args, i));
   pw_vg_client_cmd(cmd, sizeof cmd);
   pw_ms_header(out, desc, cmd,
                clo_time_unit == TimeI ? "i" : clo_time_unit == TimeMS
                                       ? "ms" : "B");
   for (i = 0; i < n_snapshots; i++) {
      const Snapshot *s = &snapshots[i];
      pw_ms_snapshot(out, i, s->time, s->heap_B, s->extra_B, 0,
                     s->tree ? "detailed" : "empty");
      if (s->tree)
         write_tree(out, s);
   }
   if (pw_file_commit(f) == 0 && VG_(clo_verbosity) > 0)
      VG_(umsg)("heapsnap: profile written to %s\n", path);
}

/*------------------------------------------------------------*/
/*--- Setup                                                ---*/
/*------------------------------------------------------------*/

static void hs_post_clo_init(void)
{
   snapshots = VG_(malloc)("hs.snapshots",
                           clo_max_snapshots * sizeof(Snapshot));
   take_snapshot(False);      /* time 0, empty heap */
}

static void hs_fini(Int exitcode)
{
   /* The last word: a detailed snapshot of the heap at exit. */
   if (n_snapshots == clo_max_snapshots)
      cull();
   take_snapshot(True);
   write_profile();
}

static void hs_pre_clo_init(void)
{
   VG_(details_name)            ("heapsnap");
   VG_(details_version)         (PACKAGE_VERSION);
   VG_(details_description)     ("heap snapshots in Massif's format");
   VG_(details_copyright_author)(
      "Copyright (C) 2026, and GNU GPL'd, by the heapsnap/callprof developers");
   VG_(details_bug_reports_to)  ("the heapsnap/callprof issue tracker");
   VG_(details_avg_translation_sizeB)(330);

   VG_(basic_tool_funcs)(hs_post_clo_init, hs_instrument, hs_fini);
   VG_(needs_libc_freeres)();
   VG_(needs_cxx_freeres)();
   VG_(needs_command_line_options)(hs_process_cmd_line_option,
                                   hs_print_usage, hs_print_debug_usage);
   VG_(needs_malloc_replacement)(hs_malloc, hs_new, hs_new_aligned,
                                 hs_new, hs_new_aligned, hs_memalign,
                                 hs_calloc, hs_free, hs_free,
                                 hs_delete_aligned, hs_free,
                                 hs_delete_aligned, hs_realloc,
                                 hs_usable_size, 0);

   sites  = VG_(HT_construct)("heapsnap sites");
   blocks = VG_(HT_construct)("heapsnap blocks");
   given_args = VG_(newXA)(VG_(malloc), "hs.args", VG_(free),
                           sizeof(HChar *));
}

VG_DETERMINE_INTERFACE_VERSION(hs_pre_clo_init)
