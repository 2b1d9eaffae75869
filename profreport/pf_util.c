/* pf_util.c: what every file of the report library needs.

   Copyright (C) 2026 The heapsnap/callprof developers.
   SPDX-License-Identifier: GPL-2.0-or-later

   Memory that ends the program when there is none (a report half built
   is no use): pf_xcalloc, pf_xrealloc, pf_xstrdup, which say so with the
   program's name and exit with its status for an error (pf_program,
   pf_fail_status: profreport's 1, profdiff's 2).

   A function of a parsed Callgrind file found by its PR_Fn pointer
   (call arcs name their ends so): PF_FnAt, sorted by pointer and
   searched.

   The tables of a report (the top frames, the functions of a call
   profile, their call arcs) are arrays that grow as the input is read,
   each element found again by a key: a name, a function's name, file and
   object, a pair of function numbers.  PF_Index maps a key to its
   element's position with open addressing; it keeps each element's hash
   beside its position so that growing never needs the keys again, and
   asks the caller whether element I has the key (SAME), so it holds no
   key itself. */

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "pf.h"

const char *pf_program = "profreport";
int pf_fail_status = 1;

static void out_of_memory(void)
{
   fprintf(stderr, "%s: out of memory\n", pf_program);
   exit(pf_fail_status);
}

void *pf_xcalloc(size_t n, size_t size)
{
   void *p = calloc(n ? n : 1, size ? size : 1);
   if (p == NULL)
      out_of_memory();
   return p;
}

void *pf_xrealloc(void *p, size_t n)
{
   p = realloc(p, n ? n : 1);
   if (p == NULL)
      out_of_memory();
   return p;
}

char *pf_xstrdup(const char *s)
{
   char *d = strdup(s ? s : "");
   if (d == NULL)
      out_of_memory();
   return d;
}

static int cmp_fnat(const void *a, const void *b)
{
   const PR_Fn *x = ((const PF_FnAt *)a)->fn, *y = ((const PF_FnAt *)b)->fn;
   return x < y ? -1 : x > y;
}

void pf_fn_at_sort(PF_FnAt *v, size_t n)
{
   if (n)
      qsort(v, n, sizeof *v, cmp_fnat);
}

size_t pf_fn_at(const PF_FnAt *v, size_t n, const PR_Fn *fn)
{
   PF_FnAt key = { fn, 0 };
   const PF_FnAt *hit = n ? bsearch(&key, v, n, sizeof *v, cmp_fnat) : NULL;
   return hit ? hit->at : (size_t)-1;
}

size_t pf_hash(const void *key, size_t len, size_t h)
{
   const unsigned char *p = key;
   size_t i;
   if (h == 0)
      h = 14695981039346656037UL;
   for (i = 0; i < len; i++) {
      h ^= p[i];
      h *= 1099511628211UL;
   }
   return h;
}

size_t pf_index_find(PF_Index *x, size_t h,
                     int (*same)(const void *ctx, size_t i),
                     const void *ctx, size_t new_index)
{
   size_t i, mask;
   if (2 * (x->n + 1) > x->n_slots) {            /* grow and rehash */
      size_t k, n = x->n_slots ? 2 * x->n_slots : 256;
      PF_Slot *old = x->slot;
      x->slot = pf_xcalloc(n, sizeof *x->slot);
      for (k = 0; k < x->n_slots; k++) {
         if (old[k].pos == 0)
            continue;
         for (i = old[k].hash & (n - 1); x->slot[i].pos; i = (i + 1) & (n - 1))
            ;
         x->slot[i] = old[k];
      }
      free(old);
      x->n_slots = n;
   }
   mask = x->n_slots - 1;
   for (i = h & mask; x->slot[i].pos; i = (i + 1) & mask)
      if (x->slot[i].hash == h && same(ctx, x->slot[i].pos - 1))
         return x->slot[i].pos - 1;
   x->slot[i].hash = h;
   x->slot[i].pos = new_index + 1;
   x->n++;
   return new_index;
}

void pf_index_free(PF_Index *x)
{
   free(x->slot);
   memset(x, 0, sizeof *x);
}
