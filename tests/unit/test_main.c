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
