/* check.c: the checks of every unit test program (check.h).

   Copyright (C) 2026 The heapsnap/callprof developers.
   SPDX-License-Identifier: GPL-2.0-or-later */

#include <stdio.h>
#include <string.h>

#include "check.h"

unsigned check_count, check_failed;

void check_true(int ok, const char *what, const char *file, int line)
{
   check_count++;
   if (!ok) {
      check_failed++;
      printf("%s:%d: check failed: %s\n", file, line, what);
   }
}

/* On a mismatch, say where the texts part and show both in full. */
void check_str(const char *got, const char *want, const char *what,
               const char *file, int line)
{
   size_t i = 0;

   check_count++;
   if (got != NULL && want != NULL && strcmp(got, want) == 0)
      return;
   if (got == NULL && want == NULL)
      return;
   check_failed++;
   if (got != NULL && want != NULL)
      while (got[i] == want[i])
         i++;
   printf("%s:%d: check failed: %s differs at byte %zu\n"
          "--- got:\n%s\n--- want:\n%s\n---\n", file, line, what, i,
          got ? got : "(null)", want ? want : "(null)");
}

void check_long(long got, long want, const char *what, const char *file,
                int line)
{
   check_count++;
   if (got != want) {
      check_failed++;
      printf("%s:%d: check failed: %s is %ld (%#lx), want %ld (%#lx)\n",
             file, line, what, got, (unsigned long)got, want,
             (unsigned long)want);
   }
}
