/* test_main.c: runs the profwriter unit tests.

   Copyright (C) 2026 The heapsnap/callprof developers.
   SPDX-License-Identifier: GPL-2.0-or-later

   Build from the top of the tree, with every .c file of profwriter/ and
   of tests/unit/ as SOURCES, and run:
      cc -DPW_HOST -DPW_TEST_HOOKS -Iinclude -Iprofwriter SOURCES -o unit
      ./unit
   It prints one line per failed check, then "unit: N checks, N failed",
   and exits 1 if a check failed. */

#include <stdio.h>
#include <stdlib.h>
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
      printf("%s:%d: check failed: %s is %ld, want %ld\n", file, line, what,
             got, want);
   }
}

long mem_write(void *state, const char *buf, size_t len)
{
   MemOut *m = state;

   m->calls++;
   if (m->fail_after > 0 && m->calls >= m->fail_after)
      return -m->fail_err;
   if (m->max_chunk > 0 && len > m->max_chunk)
      len = m->max_chunk;
   if (m->n + len + 1 > m->cap) {
      m->cap = (m->n + len + 1) * 2;
      m->p = realloc(m->p, m->cap);
      if (m->p == NULL)
         abort();
   }
   memcpy(m->p + m->n, buf, len);
   m->n += len;
   return (long)len;
}

void mem_init(MemOut *m, PW_Sink *s, char *buf, size_t size)
{
   memset(m, 0, sizeof *m);
   pw_sink_init(s, mem_write, m, buf, size);
}

const char *mem_str(MemOut *m, PW_Sink *s)
{
   pw_flush(s);
   if (m->p == NULL) {
      m->cap = 1;
      m->p = malloc(1);
   }
   m->p[m->n] = '\0';
   return m->p;
}

void mem_free(MemOut *m)
{
   free(m->p);
   m->p = NULL;
}

int has_trailing_space(const char *text)
{
   for (; *text != '\0'; text++)
      if (text[0] == ' ' && (text[1] == '\n' || text[1] == '\0'))
         return 1;
   return 0;
}

int main(void)
{
   test_sink();
   test_template();
   test_file();
   test_massif();
   test_callgrind();
   test_folded();
   printf("unit: %u checks, %u failed\n", check_count, check_failed);
   return check_failed ? 1 : 0;
}
