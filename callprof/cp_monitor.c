/* cp_monitor.c: vgdb monitor commands, Callgrind's.

   Copyright (C) 2026 The heapsnap/callprof developers.
   SPDX-License-Identifier: GPL-2.0-or-later

   `vgdb --pid=N COMMAND` (or `monitor COMMAND` in gdb) reaches the tool
   as a client request from the core.  callprof answers Callgrind's
   commands, with Callgrind's words and answers, so that what a user
   types at a Callgrind run works at a callprof run:

      dump [HINT]                write the costs so far and zero them:
                                 a numbered file (callprof.out.PID.N),
                                 "desc: Trigger: dump HINT"; with
                                 --separate-threads=yes one per thread
      zero                       zero the costs so far (every thread's)
      status                     "N thread(s) running."
      status internal            the state, for callprof_control (below)
      instrumentation [on|off]   "instrumentation: on" (or off); with an
                                 argument, switch it, as the client
                                 requests START/STOP_INSTRUMENTATION do

   A command reaches the tool between two blocks, or while every thread
   waits in a system call (vgdb then makes the process listen): in both
   cases no block is half counted, so unlike a client request's dump
   nothing is held back.

   "status internal" writes one "key: value" per line, Callgrind's keys
   (callgrind_control reads them), of which callprof_control reads the
   same ones:

      instrumentation: on            or off, and then nothing more
      executed-bbs: 31374            blocks run so far (while collecting)
      executed-calls: 1267           calls made since then
      distinct-bbs: 2554             blocks seen
      distinct-calls: 403            call arcs
      distinct-functions: 332
      distinct-contexts: 332         functions with their recursion
                                     levels and callers
      events: Ir Dr Dw               the columns of the events below
      part: 2                        dumps so far
      threads: 1 2                   the live threads
      current-tid: 1
   then per live thread T:
      events-T: 135707 29400 13363   its costs so far
      frames-T: 8                    the depth of its call stack
   and per frame I of it, outermost first (I from 0), a call along an
   arc (a skipped PLT function's frame is left out, as Callgrind leaves
   it out):
      function-T-I: main             the caller
      calls-T-I: 50                  the times the arc was taken
      events-T-I: 2137 400 120       the arc's inclusive cost (since the
                                     last dump or zero), this call's so
                                     far included
   and after the innermost frame, if it is a call along an arc:
      function-T-N: usleep           the function running now (N: the
                                     depth) */

#include "pub_tool_basics.h"
#include "pub_tool_gdbserver.h"
#include "pub_tool_libcassert.h"
#include "pub_tool_libcbase.h"
#include "pub_tool_libcprint.h"
#include "pub_tool_threadstate.h"

#include "cp.h"

static void print_help(void)
{
   VG_(gdb_printf)(
"\n"
"callprof monitor commands:\n"
"  dump [<dump_hint>]\n"
"        dump counters\n"
"  zero\n"
"        zero counters\n"
"  status\n"
"        print status\n"
"  instrumentation [on|off]\n"
"        get/set (if on/off given) instrumentation state\n"
"\n");
}

/* " 12 0 3": EV's CP_(n_ev) events, after the key already printed. */
static void print_events(const ULong *ev)
{
   Int k;
   for (k = 0; k < CP_(n_ev); k++)
      VG_(gdb_printf)(" %llu", ev[k]);
   VG_(gdb_printf)("\n");
}

static void print_status_internal(void)
{
   ULong ev[CP_MAX_EV], calls = 0;
   UInt blocks = 0, arcs, contexts;
   CP_Block *b;
   ThreadId tid;
   UInt i, n;
   Int k;

   VG_(gdb_printf)("instrumentation: %s\n", CP_(instrumenting) ? "on"
                                                                : "off");
   if (!CP_(instrumenting))
      return;
   for (b = CP_(first_block)(); b; b = CP_(next_block)())
      blocks++;
   CP_(arc_counts)(&arcs, &calls);
   (void)CP_(all_ctxs)(&contexts);
   VG_(gdb_printf)("executed-bbs: %llu\n", CP_(blocks_run)());
   VG_(gdb_printf)("executed-calls: %llu\n", calls);
   VG_(gdb_printf)("distinct-bbs: %u\n", blocks);
   VG_(gdb_printf)("distinct-calls: %u\n", arcs);
   VG_(gdb_printf)("distinct-functions: %u\n", CP_(n_fns)());
   VG_(gdb_printf)("distinct-contexts: %u\n", contexts);
   VG_(gdb_printf)("events:");
   for (k = 0; k < CP_(n_ev); k++)
      VG_(gdb_printf)(" %s", CP_(ev_name)[k]);
   VG_(gdb_printf)("\n");
   VG_(gdb_printf)("part: %u\n", CP_(dumps_done)());
   VG_(gdb_printf)("threads:");
   for (tid = 1; tid < VG_N_THREADS; tid++)
      if (CP_(thread_exists)(tid))
         VG_(gdb_printf)(" %u", tid);
   VG_(gdb_printf)("\n");
   VG_(gdb_printf)("current-tid: %u\n", CP_(last_tid)());
   for (tid = 1; tid < VG_N_THREADS; tid++) {
      if (!CP_(thread_exists)(tid))
         continue;
      CP_(thread_costs)(tid, ev);
      VG_(gdb_printf)("events-%u:", tid);
      print_events(ev);
      n = CP_(thread_frames)(tid);
      VG_(gdb_printf)("frames-%u: %u\n", tid, n);
      for (i = 0; i < n; i++) {
         const HChar *caller, *callee;
         ULong arc_calls;
         if (!CP_(thread_frame)(tid, i, &caller, &callee, &arc_calls, ev))
            continue;
         VG_(gdb_printf)("function-%u-%u: %s\n", tid, i, caller);
         VG_(gdb_printf)("calls-%u-%u: %llu\n", tid, i, arc_calls);
         VG_(gdb_printf)("events-%u-%u:", tid, i);
         print_events(ev);
         if (i == n - 1)
            VG_(gdb_printf)("function-%u-%u: %s\n", tid, n, callee);
      }
   }
}

static void print_status(void)
{
   ThreadId tid;
   UInt n = 0;
   if (!CP_(instrumenting)) {
      VG_(gdb_printf)("No status available as instrumentation is switched "
                      "off\n");
      return;
   }
   for (tid = 1; tid < VG_N_THREADS; tid++)
      if (CP_(thread_exists)(tid))
         n++;
   VG_(gdb_printf)("%u thread(s) running.\n", n);
}

static void instrumentation(const HChar *arg)
{
   if (arg == NULL)
      VG_(gdb_printf)("instrumentation: %s\n",
                      CP_(instrumenting) ? "on" : "off");
   else if (VG_STREQ(arg, "on") || VG_STREQ(arg, "off"))
      CP_(set_instrument)(VG_STREQ(arg, "on"));
   else
      VG_(gdb_printf)("instrumentation: expected on or off, not '%s'\n",
                      arg);
}

Bool CP_(monitor_command)(const HChar *req)
{
   HChar s[VG_(strlen)(req) + 1];
   HChar *save, *word, *arg;

   VG_(strcpy)(s, req);
   word = VG_(strtok_r)(s, " ", &save);
   arg = VG_(strtok_r)(NULL, " ", &save);
   switch (VG_(keyword_id)("help dump zero status instrumentation", word,
                           kwd_report_duplicated_matches)) {
   case -2:                    /* ambiguous: the core said so */
      return True;
   case -1:                    /* not ours */
      return False;
   case 0:
      print_help();
      return True;
   case 1:
      /* Callgrind names the dump after the whole command. */
      CP_(dump)(req, False);
      return True;
   case 2:
      CP_(zero)(True);
      return True;
   case 3:
      if (arg && VG_STREQ(arg, "internal"))
         print_status_internal();
      else
         print_status();
      return True;
   case 4:
      instrumentation(arg);
      return True;
   }
   tl_assert(0);
}
