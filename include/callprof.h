/* callprof.h: client requests for programs run under callprof.

   Copyright (C) 2026 The heapsnap/callprof developers.
   SPDX-License-Identifier: BSD-3-Clause OR GPL-2.0-or-later

   Include it in a program to control callprof from inside, as
   <valgrind/callgrind.h> controls Callgrind.  The requests have
   Callgrind's codes (VG_USERREQ_TOOL_BASE('C','T') + 0 ... 5), so a
   program built with the CALLGRIND_* macros works under callprof
   unchanged, and one built with these works under Callgrind.  Outside
   Valgrind every macro costs a few instructions and does nothing.

     CALLPROF_DUMP_STATS          write a dump now (callprof.out.PID.N),
                                  then zero the costs;
     CALLPROF_DUMP_STATS_AT(str)  the same, "desc: Trigger: Client
                                  Request: STR" in the file;
     CALLPROF_ZERO_STATS          zero the costs gathered so far;
     CALLPROF_TOGGLE_COLLECT      stop / restart counting (the calling
                                  thread), as --toggle-collect;
     CALLPROF_START_INSTRUMENTATION / CALLPROF_STOP_INSTRUMENTATION
                                  instrument code, or run it at full
                                  speed counting nothing (as
                                  --instr-atstart=no); the call stacks
                                  start afresh at each switch. */

#ifndef CALLPROF_H
#define CALLPROF_H

#include "valgrind.h"

typedef enum {
   CALLPROF_USERREQ_DUMP_STATS = VG_USERREQ_TOOL_BASE('C', 'T'),
   CALLPROF_USERREQ_ZERO_STATS,
   CALLPROF_USERREQ_TOGGLE_COLLECT,
   CALLPROF_USERREQ_DUMP_STATS_AT,
   CALLPROF_USERREQ_START_INSTRUMENTATION,
   CALLPROF_USERREQ_STOP_INSTRUMENTATION
} CallprofClientRequest;

#define CALLPROF_DUMP_STATS                                           \
   VALGRIND_DO_CLIENT_REQUEST_STMT(CALLPROF_USERREQ_DUMP_STATS,       \
                                   0, 0, 0, 0, 0)

#define CALLPROF_DUMP_STATS_AT(pos_str)                               \
   VALGRIND_DO_CLIENT_REQUEST_STMT(CALLPROF_USERREQ_DUMP_STATS_AT,    \
                                   pos_str, 0, 0, 0, 0)

#define CALLPROF_ZERO_STATS                                           \
   VALGRIND_DO_CLIENT_REQUEST_STMT(CALLPROF_USERREQ_ZERO_STATS,       \
                                   0, 0, 0, 0, 0)

#define CALLPROF_TOGGLE_COLLECT                                       \
   VALGRIND_DO_CLIENT_REQUEST_STMT(CALLPROF_USERREQ_TOGGLE_COLLECT,   \
                                   0, 0, 0, 0, 0)

#define CALLPROF_START_INSTRUMENTATION                                \
   VALGRIND_DO_CLIENT_REQUEST_STMT(                                   \
      CALLPROF_USERREQ_START_INSTRUMENTATION, 0, 0, 0, 0, 0)

#define CALLPROF_STOP_INSTRUMENTATION                                 \
   VALGRIND_DO_CLIENT_REQUEST_STMT(                                   \
      CALLPROF_USERREQ_STOP_INSTRUMENTATION, 0, 0, 0, 0, 0)

#endif /* CALLPROF_H */
