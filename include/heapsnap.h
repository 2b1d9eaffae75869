/* heapsnap.h: client requests a program can make of heapsnap.

   Copyright (C) 2026 The heapsnap/callprof developers.
   SPDX-License-Identifier: GPL-2.0-or-later (this header alone may also
   be used under the BSD-style terms of Valgrind's valgrind.h, so that
   any program can include it)

   Include it in the program, and at a point of interest write

      HEAPSNAP_SNAPSHOT("before-load.%p");          the heap now
      HEAPSNAP_DETAILED_SNAPSHOT("after-load.%p");  with the allocation tree
      HEAPSNAP_ALL_SNAPSHOTS(NULL);                 all snapshots so far

   Each writes a Massif-format file (ms_print, massif-visualizer) named
   by the template (%p pid, %n sequence number, %q{VAR}, %%), or
   heapsnap.vgdb.out for NULL, as the monitor commands of the same names
   do through vgdb.  Outside Valgrind, or under another tool, they do
   nothing and cost a few instructions. */

#ifndef HEAPSNAP_H
#define HEAPSNAP_H

#include "valgrind.h"

typedef enum {
   VG_USERREQ__HEAPSNAP_SNAPSHOT = VG_USERREQ_TOOL_BASE('H', 'S'),
   VG_USERREQ__HEAPSNAP_DETAILED_SNAPSHOT,
   VG_USERREQ__HEAPSNAP_ALL_SNAPSHOTS
} Vg_HeapsnapClientRequest;

#define HEAPSNAP_SNAPSHOT(file)                                         \
   VALGRIND_DO_CLIENT_REQUEST_STMT(VG_USERREQ__HEAPSNAP_SNAPSHOT,       \
                                   (file), 0, 0, 0, 0)
#define HEAPSNAP_DETAILED_SNAPSHOT(file)                                \
   VALGRIND_DO_CLIENT_REQUEST_STMT(VG_USERREQ__HEAPSNAP_DETAILED_SNAPSHOT, \
                                   (file), 0, 0, 0, 0)
#define HEAPSNAP_ALL_SNAPSHOTS(file)                                    \
   VALGRIND_DO_CLIENT_REQUEST_STMT(VG_USERREQ__HEAPSNAP_ALL_SNAPSHOTS,  \
                                   (file), 0, 0, 0, 0)

#endif /* HEAPSNAP_H */
