/* hs_main.c: heapsnap, a heap profiler that writes Massif's format.

   Copyright (C) 2026 The heapsnap/callprof developers.
   SPDX-License-Identifier: GPL-2.0-or-later

   heapsnap answers what Massif answers (how much heap, stack or mapped
   memory a program uses over time, and which call stacks hold it), with
   Massif's options and Massif's file format, so ms_print and
   massif-visualizer read its files unchanged and a user's command line
   keeps working.  It also counts what Massif leaves out (memory pools),
   keeps the exact peak, and records each thread's stack high-water mark.

   This file holds the parts that tie the others together (see hs.h for
   the map): the options, the instrumentation (the instruction clock, and
   the malloc calls made from generated code), client requests and
   gdbserver monitor commands, and the tool's start and exit. */

#include "pub_tool_basics.h"
#include "pub_tool_clientstate.h"
#include "pub_tool_gdbserver.h"
#include "pub_tool_libcassert.h"
#include "pub_tool_libcbase.h"
#include "pub_tool_libcprint.h"
#include "pub_tool_libcproc.h"
#include "pub_tool_machine.h"
#include "pub_tool_mallocfree.h"
#include "pub_tool_options.h"
#include "pub_tool_replacemalloc.h"
#include "pub_tool_threadstate.h"
#include "pub_tool_tooliface.h"
#include "pub_tool_xarray.h"
#include "valgrind.h"

#include "clo.h"
#include "heapsnap.h"
#include "hs.h"
#include "ir_counter.h"
#include "profwriter.h"

/*------------------------------------------------------------*/
/*--- Options                                              ---*/
/*------------------------------------------------------------*/

Bool         HS_(clo_heap)            = True;
SizeT        HS_(clo_heap_admin)      = 8;
Bool         HS_(clo_stacks)          = False;
Bool         HS_(clo_pages_as_heap)   = False;
Int          HS_(clo_depth)           = 30;
double       HS_(clo_threshold)       = 1.0;
double       HS_(clo_peak_inaccuracy) = 1.0;
HS_TimeUnit  HS_(clo_time_unit)       = HS_TimeI;
Int          HS_(clo_detailed_freq)   = 10;
Int          HS_(clo_max_snapshots)   = 100;
UInt         HS_(clo_dump_every)      = 0;
const HChar *HS_(clo_out_file)        = "heapsnap.out.%p";
static const HChar *out_option        = "--heapsnap-out-file"; /* as given */
XArray      *HS_(clo_alloc_fns);
XArray      *HS_(clo_ignore_fns);
XArray      *HS_(given_args);

/* Massif's allocation functions: removed from the top of every stack. */
static const HChar *const default_alloc_fns[] = {
   "malloc", "__builtin_new", "operator new(unsigned)",
   "operator new(unsigned long)", "__builtin_vec_new",
   "operator new[](unsigned)", "operator new[](unsigned long)",
   "calloc", "realloc", "memalign", "posix_memalign", "valloc",
   "operator new(unsigned, std::nothrow_t const&)",
   "operator new[](unsigned, std::nothrow_t const&)",
   "operator new(unsigned long, std::nothrow_t const&)",
   "operator new[](unsigned long, std::nothrow_t const&)",
};

static Bool hs_process_cmd_line_option(const HChar *arg)
{
   const HChar *v;

   if (clo_match(arg, "--heap", &v))
      HS_(clo_heap) = clo_bool(arg, v);
   else if (clo_match(arg, "--heap-admin", &v))
      HS_(clo_heap_admin) = (SizeT)clo_long(arg, v, 0, 1024);
   else if (clo_match(arg, "--stacks", &v))
      HS_(clo_stacks) = clo_bool(arg, v);
   else if (clo_match(arg, "--pages-as-heap", &v))
      HS_(clo_pages_as_heap) = clo_bool(arg, v);
   else if (clo_match(arg, "--depth", &v))
      HS_(clo_depth) = (Int)clo_long(arg, v, 1, HS_MAX_DEPTH);
   else if (clo_match(arg, "--alloc-fn", &v))
      VG_(addToXA)(HS_(clo_alloc_fns), &v);
   else if (clo_match(arg, "--ignore-fn", &v))
      VG_(addToXA)(HS_(clo_ignore_fns), &v);
   else if (clo_match(arg, "--threshold", &v))
      HS_(clo_threshold) = clo_double(arg, v, 0, 100);
   else if (clo_match(arg, "--peak-inaccuracy", &v))
      HS_(clo_peak_inaccuracy) = clo_double(arg, v, 0, 100);
   else if (clo_match(arg, "--fast-paths", &v))
      HS_(clo_fast_paths) = clo_bool(arg, v);
   else if (clo_match(arg, "--unwind-memo-check", &v))
      HS_(clo_memo_check) = clo_bool(arg, v);
   else if (clo_match(arg, "--time-unit", &v)) {
      if      (VG_STREQ(v, "i"))  HS_(clo_time_unit) = HS_TimeI;
      else if (VG_STREQ(v, "ms")) HS_(clo_time_unit) = HS_TimeMS;
      else if (VG_STREQ(v, "B"))  HS_(clo_time_unit) = HS_TimeB;
      else clo_reject(arg, "expected i, ms or B");
   }
   else if (clo_match(arg, "--detailed-freq", &v))
      HS_(clo_detailed_freq) = (Int)clo_long(arg, v, 1, 1000000);
   else if (clo_match(arg, "--max-snapshots", &v))
      HS_(clo_max_snapshots) = (Int)clo_long(arg, v, 10, 1000);
   else if (clo_match(arg, "--dump-every", &v))
      HS_(clo_dump_every) = (UInt)clo_long(arg, v, 0, 1000000);
   else if (clo_match(arg, "--heapsnap-out-file", &v) ||
            clo_match(arg, "--massif-out-file", &v)) {
      const HChar *err = pw_template_check(v);
      if (err != NULL)
         clo_reject(arg, err);
      HS_(clo_out_file) = v;
      out_option = VG_(strncmp)(arg, "--massif", 8) == 0 ?
                   "--massif-out-file" : "--heapsnap-out-file";
   }
   else if (!VG_(replacement_malloc_process_cmd_line_option)(arg))
      return clo_unknown(arg);

   VG_(addToXA)(HS_(given_args), &arg);
   return True;
}

/* The value of the last core option that starts with PREFIX (say
   "--max-stackframe="), or NULL: from the command line, $VALGRIND_OPTS or
   a .valgrindrc, all of which are in the core's arguments.  The core
   handles these options; heapsnap only reads what was given. */
const HChar *HS_(core_arg)(const HChar *prefix)
{
   const HChar *value = NULL;
   SizeT len = VG_(strlen)(prefix);
   Word i, n = VG_(sizeXA)(VG_(args_for_valgrind));
   for (i = 0; i < n; i++) {
      const HChar *arg = *(HChar **)VG_(indexXA)(VG_(args_for_valgrind), i);
      if (VG_(strncmp)(arg, prefix, len) == 0)
         value = arg + len;
   }
   return value;
}

static void hs_print_usage(void)
{
   VG_(printf)(
"    --heap=no|yes             profile heap blocks [yes]\n"
"    --heap-admin=<size>       average admin bytes per heap block;\n"
"                               ignored if --heap=no [8]\n"
"    --stacks=no|yes           profile stack(s) [no]\n"
"    --pages-as-heap=no|yes    profile memory at the page level [no]\n"
"    --depth=<number>          depth of contexts, 1..%d [30]\n"
"    --alloc-fn=<name>         specify <name> as an alloc function [empty]\n"
"    --ignore-fn=<name>        ignore heap allocations within <name> [empty]\n"
"    --threshold=<m.n>         significance threshold, as a percentage [1.0]\n"
"    --peak-inaccuracy=<m.n>   maximum peak inaccuracy, as a percentage [1.0]\n"
"    --time-unit=i|ms|B        time unit: instructions executed, milliseconds\n"
"                              or heap bytes alloc'd/dealloc'd [i]\n"
"    --detailed-freq=<N>       every Nth snapshot should be detailed [10]\n"
"    --max-snapshots=<N>       maximum number of snapshots recorded [100]\n"
"    --dump-every=<seconds>    also write the file every <seconds> of run\n"
"                              time, whole each time [0=never]\n"
"    --heapsnap-out-file=<file> output file name [heapsnap.out.%%p]\n"
"                              (%%p pid, %%n sequence, %%q{VAR} env var);\n"
"                              --massif-out-file is the same option\n",
      HS_MAX_DEPTH);
}

/* --help-debug: heapsnap's own switches, not Massif's. */
static void hs_print_debug_usage(void)
{
   VG_(printf)(
"    --fast-paths=no|yes       heapsnap's speed tricks (heapsnap/hs_fast.c,\n"
"                              and the unwind memo in hs_heap.c);\n"
"                              no gives the same file, slower [yes]\n"
"    --unwind-memo-check=no|yes\n"
"                              for tests: unwind at every allocation too,\n"
"                              and stop if the memo's site differs [no]\n");
}

/*------------------------------------------------------------*/
/*--- The clock                                            ---*/
/*------------------------------------------------------------*/

ULong HS_(guest_instrs_executed) = 0;
ULong HS_(churn_B) = 0;

ULong HS_(now)(void)
{
   static Bool  started = False;
   static ULong start_ms;
   switch (HS_(clo_time_unit)) {
   case HS_TimeI:
      return HS_(guest_instrs_executed);
   case HS_TimeB:
      return HS_(churn_B);
   case HS_TimeMS:
      /* Time 0 is the first question, as in Massif. */
      if (!started) {
         started = True;
         start_ms = VG_(read_millisecond_timer)();
      }
      return VG_(read_millisecond_timer)() - start_ms;
   }
   tl_assert(0);
}

/*------------------------------------------------------------*/
/*--- Snapshots on demand                                  ---*/
/*------------------------------------------------------------*/

/* gdbserver monitor commands (vgdb), as Massif's:
      snapshot [FILE]            the heap now, in FILE
      detailed_snapshot [FILE]   the same, with the allocation tree
      all_snapshots [FILE]       every snapshot so far
      xtmemory [FILE]            the live blocks as an xtree memory file
                                 (hs_xtree.c), xtmemory.kcg.PID.N by default
   FILE is a template like --heapsnap-out-file; default heapsnap.vgdb.out. */
static void print_monitor_help(void)
{
   VG_(gdb_printf)(
"\n"
"heapsnap monitor commands:\n"
"  snapshot [<filename>]\n"
"  detailed_snapshot [<filename>]\n"
"      takes a snapshot (or a detailed snapshot)\n"
"      and saves it in <filename>\n"
"             default <filename> is heapsnap.vgdb.out\n"
"  all_snapshots [<filename>]\n"
"      saves all snapshot(s) taken so far in <filename>\n"
"             default <filename> is heapsnap.vgdb.out\n"
"  xtmemory [<filename>]\n"
"        dump xtree memory profile in <filename> (default xtmemory.kcg.%%p.%%n)\n"
"\n");
}

static const HChar *default_vgdb_file = "heapsnap.vgdb.out";

static void write_on_demand(const HChar *file, HS_WriteWhat what)
{
   const HChar *err;
   if (file == NULL)
      file = default_vgdb_file;
   err = pw_template_check(file);
   if (err != NULL) {
      VG_(umsg)("heapsnap: %s: %s\n", file, err);
      return;
   }
   HS_(snap_write)(file, what);
}

static Bool handle_monitor_command(ThreadId tid, HChar *req)
{
   HChar s[VG_(strlen)(req) + 1];
   HChar *save, *word, *file;

   VG_(strcpy)(s, req);
   word = VG_(strtok_r)(s, " ", &save);
   file = VG_(strtok_r)(NULL, " ", &save);
   switch (VG_(keyword_id)("help snapshot detailed_snapshot all_snapshots "
                           "xtmemory", word, kwd_report_duplicated_matches)) {
   case -2: return True;       /* ambiguous: the core said so */
   case -1: return False;      /* not ours */
   case 0:  print_monitor_help(); return True;
   case 1:  write_on_demand(file, HS_WriteNow); return True;
   case 2:  write_on_demand(file, HS_WriteNowDetailed); return True;
   case 3:  write_on_demand(file, HS_WriteAll); return True;
   case 4:  HS_(xt_report)(file, False); return True;
   }
   tl_assert(0);
}

/* Client requests: heapsnap's own (include/heapsnap.h), custom
   allocators and pools (hs_heap.c), and monitor commands. */
static Bool hs_handle_client_request(ThreadId tid, UWord *arg, UWord *ret)
{
   switch (arg[0]) {
   case VG_USERREQ__HEAPSNAP_SNAPSHOT:
   case VG_USERREQ__HEAPSNAP_DETAILED_SNAPSHOT: {
      const HChar *file = (const HChar *)arg[1];
      write_on_demand(file && file[0] ? file : NULL,
                      arg[0] == VG_USERREQ__HEAPSNAP_SNAPSHOT
                      ? HS_WriteNow : HS_WriteNowDetailed);
      *ret = 0;
      return True;
   }
   case VG_USERREQ__HEAPSNAP_ALL_SNAPSHOTS: {
      const HChar *file = (const HChar *)arg[1];
      write_on_demand(file && file[0] ? file : NULL, HS_WriteAll);
      *ret = 0;
      return True;
   }
   case VG_USERREQ__GDB_MONITOR_COMMAND:
      *ret = handle_monitor_command(tid, (HChar *)arg[1]);
      return *ret != 0;
   default:
      return HS_(handle_heap_request)(tid, arg, ret);
   }
}

/*------------------------------------------------------------*/
/*--- Start and exit                                       ---*/
/*------------------------------------------------------------*/

static void hs_post_clo_init(void)
{
   /* Massif drops --pages-as-heap=yes under --heap=no without a word;
      say so. */
   if (!HS_(clo_heap) && HS_(clo_pages_as_heap)) {
      VG_(umsg)("heapsnap: --pages-as-heap=yes is ignored with --heap=no "
                "(pages are counted as heap)\n");
      HS_(clo_pages_as_heap) = False;
   }
   HS_(heap_post_clo_init)();
   HS_(stacks_post_clo_init)();
   HS_(pages_post_clo_init)();
   /* A file that cannot be written: said now, not after the run. */
   pw_vg_check_output(out_option, HS_(clo_out_file), "heapsnap",
                      PW_MODE_MASSIF);
   HS_(xt_init)();
   HS_(snap_init)();
   HS_(fast_post_clo_init)();  /* the last allocation here (hs_fast.c) */
}

/* The core gives a thread the CPU: the clock's address goes into its
   state (hs_fast.c), --stacks=yes follows the running thread, and
   --dump-every writes the whole file again when its time has come (the
   file as it would be at exit, so that a service killed with SIGKILL
   leaves its last complete profile). */
static void hs_start_client_code(ThreadId tid, ULong blocks_done)
{
   static UInt last_ms;
   UInt now;
   HS_(fast_start_client_code)(tid);
   if (HS_(clo_stacks))
      HS_(stacks_start_client_code)(tid);
   if (HS_(clo_dump_every) == 0)
      return;
   now = VG_(read_millisecond_timer)();
   if (now - last_ms < HS_(clo_dump_every) * 1000)
      return;
   last_ms = now;
   HS_(snap_write)(HS_(clo_out_file), HS_WriteAll);
}

/* --stats=yes says where the core's code starts: heapsnap/hs_corealign.c
   pins it at the end of its bytes, 48 bytes past a 64-byte boundary,
   provided the link puts them after heapsnap's code and the writer's and
   before the core's, which is checked here on a function of each
   (tests/heapsnap/core_align). */
static void layout_stats(void)
{
   Addr pin = (Addr)HS_(corealign), core = (Addr)HS_(corealign_end);
   if (pin > (Addr)HS_(xt_report) && pin > (Addr)pw_ms_header
       && core <= (Addr)VG_(malloc))
      VG_(dmsg)("heapsnap: the core's code starts %lu bytes past a "
                "64-byte boundary, after heapsnap's\n", core % 64);
   else
      VG_(dmsg)("heapsnap: the core's code is not where hs_corealign.c "
                "puts it\n");
}

static void hs_fini(Int exitcode)
{
   /* The file ends with the last snapshot taken, as Massif's; the clock
      at exit is for -v (tests/same-clock compares it across runs). */
   if (VG_(clo_verbosity) > 1)
      VG_(umsg)("heapsnap: time at exit: %llu\n", HS_(now)());
   if (VG_(clo_stats)) {
      HS_(memo_stats)();
      HS_(fast_stats)();
      layout_stats();
   }
   HS_(heap_fini)();
   HS_(xt_report)(VG_(clo_xtree_memory_file), True);
   if (HS_(snap_write)(HS_(clo_out_file), HS_WriteAll) && HS_(clo_stacks))
      HS_(stacks_write_peaks)(HS_(clo_out_file));
}

/* The core's --read-inline-info, not in a public header: its default is
   yes for Massif (and memcheck, helgrind, drd, dhat) and no for any other
   tool, so we ask for Massif's.  The core reads the options after this,
   so a user's --read-inline-info=no still wins. */
extern Bool VG_(clo_read_inline_info);

static void hs_pre_clo_init(void)
{
   UInt i;

   VG_(details_name)            ("heapsnap");
   VG_(details_version)         (PACKAGE_VERSION);
   VG_(details_description)     ("heap snapshots in Massif's format");
   VG_(details_copyright_author)(
      "Copyright (C) 2026, and GNU GPL'd, by the heapsnap/callprof developers");
   VG_(details_bug_reports_to)  ("the heapsnap/callprof issue tracker");
   VG_(details_avg_translation_sizeB)(330);
   VG_(clo_vex_control).iropt_register_updates_default
      = VG_(clo_px_file_backed)
      = VexRegUpdSpAtMemAccess;   /* exact stacks, as Massif */
   /* Inlined frames in the trees, as Massif shows them. */
   VG_(clo_read_inline_info) = True;

   VG_(basic_tool_funcs)(hs_post_clo_init, HS_(instrument), hs_fini);
   VG_(needs_libc_freeres)();
   VG_(needs_cxx_freeres)();
   VG_(needs_command_line_options)(hs_process_cmd_line_option,
                                   hs_print_usage, hs_print_debug_usage);
   VG_(needs_client_requests)(hs_handle_client_request);
   VG_(needs_final_IR_tidy_pass)(HS_(final_tidy));
   VG_(track_start_client_code)(hs_start_client_code);
   VG_(track_stop_client_code)(HS_(fast_stop_client_code));
   VG_(track_post_deliver_signal)(HS_(fast_signal_return));

   HS_(clo_alloc_fns) = VG_(newXA)(VG_(malloc), "hs.main.alloc_fns",
                                   VG_(free), sizeof(HChar *));
   for (i = 0; i < sizeof default_alloc_fns / sizeof default_alloc_fns[0]; i++)
      VG_(addToXA)(HS_(clo_alloc_fns), &default_alloc_fns[i]);
   HS_(clo_ignore_fns) = VG_(newXA)(VG_(malloc), "hs.main.ignore_fns",
                                    VG_(free), sizeof(HChar *));
   HS_(given_args) = VG_(newXA)(VG_(malloc), "hs.main.args", VG_(free),
                                sizeof(HChar *));
   HS_(heap_pre_clo_init)();
}

VG_DETERMINE_INTERFACE_VERSION(hs_pre_clo_init)
