/* pw_vg.c: what the tools need of the writer that only makes sense
   inside Valgrind: naming the output file from its template at write
   time, the client's command line for the files' "cmd:" lines, and the
   text of a code address in Massif's trees.

   Copyright (C) 2026 The heapsnap/callprof developers.
   SPDX-License-Identifier: GPL-2.0-or-later

   Compiled into libprofwriter-tool.a only.  The file name is expanded
   when the file is written, not at start-up, so a forked child (whose
   pid differs) writes a file of its own, as Valgrind's --log-file does. */

#include "pw_platform.h"

#ifndef PW_HOST

#include "pub_tool_clientstate.h"
#include "pub_tool_libcassert.h"
#include "pub_tool_mallocfree.h"
#include "pub_tool_options.h"
#include "pub_tool_debuginfo.h"
#include "pub_tool_xarray.h"

static const char *vg_getenv(const char *name)
{
   return VG_(getenv)(name);
}

PW_File *pw_vg_open_output(const char *tmpl, const char *tool, int mode,
                           char *path, size_t size)
{
   const char *err = pw_template_expand(tmpl, VG_(getpid)(), vg_getenv,
                                        VG_(get_startup_wd)(), path, size);
   if (err) {
      VG_(umsg)("%s: cannot write %s: %s\n", tool, tmpl, err);
      return NULL;
   }
   return pw_file_open(path, tool, mode);
}

/* A bad template (an unset %q{VAR}) gets the core's own "Bad option"
   lines and exit status 1, as Callgrind's and Massif's do; a file that
   cannot be created gets the writer's one line and exit 1, as
   Callgrind's does (Massif's finds out only at the end).  The probe is
   the writer's own temporary name, removed again: no empty file is left
   behind if the program then crashes. */
void pw_vg_check_output(const char *option, const char *tmpl,
                        const char *tool, int mode)
{
   HChar *path = VG_(expand_file_name)(option, tmpl);
   PW_File *f = pw_file_open(path, tool, mode);
   if (f == NULL)
      VG_(exit)(1);
   pw_file_abandon(f);
   VG_(free)(path);
}

void pw_vg_client_cmd(char *buf, size_t size)
{
   const XArray *args = VG_(args_for_client);
   size_t used;
   Word i;

   used = VG_(snprintf)(buf, size, "%s", VG_(args_the_exename));
   for (i = 0; i < VG_(sizeXA)(args) && used < size; i++)
      used += VG_(snprintf)(buf + used, size - used, " %s",
                            *(HChar **)VG_(indexXA)(args, i));
}

/* Frame text as Valgrind's describe_IP ("0x4005BD: main (prog.c:10)"),
   one inlined frame at a time: a PW_DescribeFn for pw_ms_tree. */
const char *pw_vg_describe_ip(void *ctx, pw_addr ip, unsigned k, int *more)
{
   static InlIPCursor *cursor;
   DiEpoch ep = VG_(current_DiEpoch)();
   const HChar *text;
   if (k == 0) {
      if (cursor != NULL)
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

#endif /* !PW_HOST */
