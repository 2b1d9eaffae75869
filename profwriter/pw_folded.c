/* pw_folded.c: folded stacks, the input of flame graphs.

   Copyright (C) 2026 The heapsnap/callprof developers.
   SPDX-License-Identifier: GPL-2.0-or-later

   One line per call path, root first, frames joined by ';', then a space
   and the value:

      main;parse;malloc 4096

   read by flamegraph.pl, inferno and speedscope.  Those split a line at
   ';' and at line ends, so a ';' inside a frame name becomes ':' and a
   line break (\n or \r) a space.  They find the value after the last
   space, so spaces inside names ("operator new(unsigned long)") are fine.
   A path without frames has nothing to show and writes nothing. */

#include "pw_platform.h"

/* FRAME with ';' -> ':' and line breaks -> ' ', copied in runs. */
static void put_frame(PW_Sink *s, const char *f)
{
   const char *run = f;

   for (; *f != '\0'; f++) {
      char c = *f;
      if (c != ';' && c != '\n' && c != '\r')
         continue;
      pw_putn(s, run, (size_t)(f - run));
      pw_putc(s, c == ';' ? ':' : ' ');
      run = f + 1;
   }
   pw_putn(s, run, (size_t)(f - run));
}

void pw_folded(PW_Sink *s, const char *const *frames, unsigned n,
               pw_u64 value)
{
   unsigned i;

   if (n == 0)
      return;
   for (i = 0; i < n; i++) {
      if (i > 0)
         pw_putc(s, ';');
      put_frame(s, frames[i] != NULL ? frames[i] : "???");
   }
   pw_putc(s, ' ');
   pw_put_u64(s, value);
   pw_putc(s, '\n');
}
