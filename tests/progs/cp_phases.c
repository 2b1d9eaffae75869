/* cp_phases.c: a program that controls its profiler from inside.

   Usage: cp_phases [MODE]
   Built twice: cp_phases_cg with <valgrind/callgrind.h>'s CALLGRIND_*
   macros, cp_phases_cp with include/callprof.h's CALLPROF_* (-DUSE_CALLPROF).
   Phases: phase1() calls leaf() 1000 times, phase2() 2000 times,
   phase3() 3000 times, each ~10 Ir per leaf call.
   MODE (default "dump"):
     dump     DUMP_STATS after phase1, DUMP_STATS_AT("phase two") after
              phase2: three files (.1 phase1, .2 phase2, final phase3);
     zero     ZERO_STATS after phase2: the final file has phase3 only;
     toggle   TOGGLE_COLLECT around phase2: phase2 is not counted;
     instr    STOP_INSTRUMENTATION before phase2, START after;
     unknown  an unknown 'C','T' request: ignored (returns the default).
   Also used with --dump-before/--dump-after/--toggle-collect/... on
   phase*, and to check --collect-jumps (the loops' branches). */
#include <stdio.h>
#include <string.h>

#ifdef USE_CALLPROF
#include "callprof.h"
#define DUMP_STATS        CALLPROF_DUMP_STATS
#define DUMP_STATS_AT(s)  CALLPROF_DUMP_STATS_AT(s)
#define ZERO_STATS        CALLPROF_ZERO_STATS
#define TOGGLE_COLLECT    CALLPROF_TOGGLE_COLLECT
#define START_INSTR       CALLPROF_START_INSTRUMENTATION
#define STOP_INSTR        CALLPROF_STOP_INSTRUMENTATION
#else
#include <valgrind/callgrind.h>
#define DUMP_STATS        CALLGRIND_DUMP_STATS
#define DUMP_STATS_AT(s)  CALLGRIND_DUMP_STATS_AT(s)
#define ZERO_STATS        CALLGRIND_ZERO_STATS
#define TOGGLE_COLLECT    CALLGRIND_TOGGLE_COLLECT
#define START_INSTR       CALLGRIND_START_INSTRUMENTATION
#define STOP_INSTR        CALLGRIND_STOP_INSTRUMENTATION
#endif

static volatile unsigned long sink;

__attribute__((noinline)) static void leaf(unsigned long x)
{
   sink += x * 3;
}

__attribute__((noinline)) static void phase1(void)
{
   for (unsigned long i = 0; i < 1000; i++)
      leaf(i);
}

__attribute__((noinline)) static void phase2(void)
{
   for (unsigned long i = 0; i < 2000; i++)
      leaf(i);
}

__attribute__((noinline)) static void phase3(void)
{
   for (unsigned long i = 0; i < 3000; i++)
      leaf(i);
}

int main(int argc, char **argv)
{
   const char *mode = argc > 1 ? argv[1] : "dump";
   int dump = !strcmp(mode, "dump"), zero = !strcmp(mode, "zero");
   int toggle = !strcmp(mode, "toggle"), instr = !strcmp(mode, "instr");

   if (!strcmp(mode, "unknown")) {
      unsigned long r = VALGRIND_DO_CLIENT_REQUEST_EXPR(
         42, VG_USERREQ_TOOL_BASE('C', 'T') + 99, 0, 0, 0, 0, 0);
      printf("unknown request: %lu\n", r);
   }
   phase1();
   if (dump)
      DUMP_STATS;
   if (toggle)
      TOGGLE_COLLECT;
   if (instr)
      STOP_INSTR;
   phase2();
   if (instr)
      START_INSTR;
   if (toggle)
      TOGGLE_COLLECT;
   if (dump)
      DUMP_STATS_AT("phase two");
   if (zero)
      ZERO_STATS;
   phase3();
   printf("%lu\n", sink);
   return 0;
}
