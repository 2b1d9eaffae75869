/* pf_index.c: finding an element of a growing array by its key.

   Copyright (C) 2026 The heapsnap/callprof developers.
   SPDX-License-Identifier: GPL-2.0-or-later

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
      x->slot = calloc(n, sizeof *x->slot);
      if (x->slot == NULL) {
         perror("profreport");
         exit(1);
      }
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
