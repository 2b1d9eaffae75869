/* cp_main.c: callprof, a profiler that writes Callgrind's format.

   Copyright (C) 2026 The heapsnap/callprof developers.
   SPDX-License-Identifier: GPL-2.0-or-later

   What it does.  callprof counts executed guest instructions (the event
   Ir) per instruction and the calls between functions, and at exit
   writes them per object, file, function and line (or per instruction
   with --dump-instr=yes), with call arcs, their call counts and
   inclusive costs, in Callgrind's format through profwriter's pw_cg_*
   emitters, so callgrind_annotate and KCachegrind read them unchanged.
   On the same program, its numbers are Callgrind's: the same total, the
   same self cost per function, the same calls per arc.

   This file holds the options and the setup: which core events callprof
   follows and what it asks of the core's translation (as Callgrind: no
   chasing of branches, no unrolling, so blocks are Callgrind's).  The
   design is described in cp.h; cp_bb.c, cp_calls.c and cp_dump.c do the
   work. */

#include "pub_tool_basics.h"
#include "pub_tool_libcassert.h"
#include "pub_tool_libcbase.h"
#include "pub_tool_libcprint.h"
#include "pub_tool_options.h"
#include "pub_tool_tooliface.h"

#include "clo.h"
#include "cp.h"
#include "profwriter.h"

/*------------------------------------------------------------*/
/*--- Options                                              ---*/
/*------------------------------------------------------------*/

const HChar *CP_(clo_out_file)         = "callprof.out.%p";
Bool         CP_(clo_dump_instr)       = False;
Bool         CP_(clo_dump_line)        = True;
Bool         CP_(clo_compress_strings) = True;
Bool         CP_(clo_compress_pos)     = True;
Bool         CP_(clo_skip_plt)         = True;

static Bool cp_process_cmd_line_option(const HChar *arg)
{
   const HChar *v;

   if (clo_match(arg, "--callprof-out-file", &v) ||
       clo_match(arg, "--callgrind-out-file", &v)) {
      const HChar *err = pw_template_check(v);
      if (err)
         clo_reject(arg, err);
      CP_(clo_out_file) = v;
   }
   else if (clo_match(arg, "--dump-instr", &v))
      CP_(clo_dump_instr) = clo_bool(arg, v);
   else if (clo_match(arg, "--dump-line", &v))
      CP_(clo_dump_line) = clo_bool(arg, v);
   else if (clo_match(arg, "--compress-strings", &v))
      CP_(clo_compress_strings) = clo_bool(arg, v);
   else if (clo_match(arg, "--compress-pos", &v))
      CP_(clo_compress_pos) = clo_bool(arg, v);
   else if (clo_match(arg, "--skip-plt", &v))
      CP_(clo_skip_plt) = clo_bool(arg, v);
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
"    --compress-pos=no|yes       relative positions [yes]\n"
"    --skip-plt=no|yes           count PLT code in its caller [yes]\n");
}

static void cp_print_debug_usage(void)
{
   VG_(printf)("    (none)\n");
}

/*------------------------------------------------------------*/
/*--- Setup                                                ---*/
/*------------------------------------------------------------*/

/* Callgrind's blocks: a superblock ends at the first branch (no
   chasing) and loops are not unrolled, so blocks start where
   Callgrind's do, and its decisions at block boundaries are ours.  The
   stack pointer is up to date at memory accesses, as in Callgrind. */
static void set_translation(void)
{
   VG_(clo_vex_control).iropt_unroll_thresh = 0;
   VG_(clo_vex_control).guest_chase = False;
}

static void cp_post_clo_init(void)
{
   set_translation();
   CP_(calls_init)();
   CP_(thread_start)(1);
}

static void cp_fini(Int exitcode)
{
   CP_(calls_fini)();
   CP_(write_profile)();
}

static void cp_start_client_code(ThreadId tid, ULong blocks_done)
{
   CP_(thread_start)(tid);
}

static void cp_stop_client_code(ThreadId tid, ULong blocks_done)
{
   CP_(thread_stop)(tid);
}

static void cp_thread_created(ThreadId parent, ThreadId child)
{
   CP_(thread_created)(child);
}

static void cp_pre_syscall(ThreadId tid, UInt sysno, UWord *args, UInt n)
{
   CP_(pre_syscall)(tid, sysno);
}

static void cp_post_syscall(ThreadId tid, UInt sysno, UWord *args, UInt n,
                            SysRes res)
{
   CP_(post_syscall)(tid, sysno);
}

static void cp_pre_clo_init(void)
{
   VG_(details_name)            ("callprof");
   VG_(details_version)         (PACKAGE_VERSION);
   VG_(details_description)     ("call profiles in Callgrind's format");
   VG_(details_copyright_author)(
      "Copyright (C) 2026, and GNU GPL'd, by the heapsnap/callprof developers");
   VG_(details_bug_reports_to)  ("the heapsnap/callprof issue tracker");
   VG_(details_avg_translation_sizeB)(300);

   VG_(clo_vex_control).iropt_register_updates_default
      = VG_(clo_px_file_backed) = VexRegUpdSpAtMemAccess;
   set_translation();

   VG_(basic_tool_funcs)(cp_post_clo_init, CP_(instrument), cp_fini);
   VG_(needs_command_line_options)(cp_process_cmd_line_option,
                                   cp_print_usage, cp_print_debug_usage);
   VG_(needs_syscall_wrapper)(cp_pre_syscall, cp_post_syscall);
   VG_(track_pre_thread_ll_create)(cp_thread_created);
   VG_(track_start_client_code)(cp_start_client_code);
   VG_(track_stop_client_code)(cp_stop_client_code);
   VG_(track_pre_deliver_signal)(CP_(pre_signal));
   VG_(track_post_deliver_signal)(CP_(post_signal));

   CP_(bb_init)();
}

VG_DETERMINE_INTERFACE_VERSION(cp_pre_clo_init)
