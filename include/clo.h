/* clo.h: command-line option parsing shared by heapsnap and callprof.

   Copyright (C) 2026 The heapsnap/callprof developers.
   SPDX-License-Identifier: GPL-2.0-or-later

   Valgrind's VG_BOOL_CLO / VG_BINT_CLO report a bad value in three lines
   and an unknown option in two.  Our promise is one line that names the
   option and says what is allowed, before the program runs:

      valgrind: --depth=0: expected an integer from 1 to 200

   Usage, inside a tool's process_cmd_line_option(arg):

      const HChar *v;
      if      (clo_match(arg, "--depth", &v))
         clo_depth = clo_long(arg, v, 1, 200);
      else if (clo_match(arg, "--stacks", &v))
         clo_stacks = clo_bool(arg, v);
      ...
      else
         return clo_unknown(arg);

   clo_match also lets the core list options for --help-dyn-options, as
   VG_STR_CLO does.  Everything here is static inline: each tool includes
   it once, in the file that parses its options. */

#ifndef CLO_H
#define CLO_H

#include "pub_tool_basics.h"
#include "pub_tool_libcbase.h"
#include "pub_tool_libcassert.h"
#include "pub_tool_libcprint.h"
#include "pub_tool_options.h"

/* Stop with one line, unless the option came from gdbserver at run time
   (then warn and keep going, as the core does). */
static inline void clo_reject(const HChar *arg, const HChar *allowed)
{
   if (VG_(Clo_Mode)() & cloD) {
      VG_(umsg)("%s: %s\n", arg, allowed);
      return;
   }
   VG_(fmsg)("%s: %s\n", arg, allowed);
   VG_(exit)(1);
}

/* True if ARG is "NAME=VALUE" (NAME a string literal); *VALUE then
   points after the '='. */
#define clo_match(arg, name, value) VG_STR_CLO((arg), name, *(value))

static inline Bool clo_bool(const HChar *arg, const HChar *v)
{
   if (VG_STREQ(v, "yes")) return True;
   if (VG_STREQ(v, "no"))  return False;
   clo_reject(arg, "expected yes or no");
   return False;
}

static inline Long clo_long(const HChar *arg, const HChar *v,
                            Long min, Long max)
{
   HChar *end;
   Long n = VG_(strtoll10)(v, &end);
   if (*v == '\0' || *end != '\0' || n < min || n > max) {
      HChar msg[100];
      VG_(snprintf)(msg, sizeof msg, "expected an integer from %lld to %lld",
                    min, max);
      clo_reject(arg, msg);
      return min;
   }
   return n;
}

static inline double clo_double(const HChar *arg, const HChar *v,
                                double min, double max)
{
   HChar *end;
   double d = VG_(strtod)(v, &end);
   if (*v == '\0' || *end != '\0' || d < min || d > max) {
      HChar msg[100];
      VG_(snprintf)(msg, sizeof msg, "expected a number from %d to %d",
                    (Int)min, (Int)max);
      clo_reject(arg, msg);
      return min;
   }
   return d;
}

/* An option neither the core nor the tool knows. */
static inline Bool clo_unknown(const HChar *arg)
{
   clo_reject(arg, "unknown option (--help lists the options)");
   return False;
}

#endif /* CLO_H */
