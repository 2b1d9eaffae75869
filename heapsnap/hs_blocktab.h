/* hs_blocktab.h: heapsnap's table of live heap blocks, in plain C.

   Copyright (C) 2026 The heapsnap/callprof developers.
   SPDX-License-Identifier: GPL-2.0-or-later

   Every malloc adds a block here and every free looks one up and
   removes it, so the table is on the hottest path heapsnap has.  It is
   an open-addressing hash table keyed by address: linear probing, a
   power-of-two number of slots, at most 5/8 full (it doubles before an
   insertion would pass that); a deletion shifts the entries after it
   back, so there are no tombstones and a lookup stops at the first
   empty slot.  The entries are the blocks themselves, 32 bytes each: a
   free or a realloc reads one cache line, not a chain of nodes, and
   nothing is allocated per block.  A pointer to an entry is good until
   the next insertion or deletion.

   The header includes nothing and calls only the two functions it is
   given (zeroed memory, and its release, told the size), so the same
   code is compiled into the tool and on the host, where
   tests/unit/test_blocktab checks it against a plain list (growth,
   deletion in clusters and across the end of the table, blocks over
   4 GiB). */

#ifndef HS_BLOCKTAB_H
#define HS_BLOCKTAB_H

struct HS_Site;

typedef struct {
   unsigned long   addr;      /* the block's address; 0: an empty slot */
   unsigned long   req;       /* requested bytes */
   struct HS_Site *site;
   /* usable - requested: a size, since an in-place realloc that shrinks
      a block adds what it gives up (over 4 GiB for a huge block) */
   unsigned long   slop : 8 * sizeof(unsigned long) - 1;
   unsigned long   in_pool : 1;  /* a memory-pool chunk */
} HS_Block;

typedef struct {
   HS_Block     *slots;
   unsigned long mask;        /* slots - 1 */
   unsigned long count;       /* live blocks */
   void *(*zalloc)(unsigned long bytes);   /* zeroed; never NULL */
   void  (*release)(void *p, unsigned long bytes);
} HS_BlockTab;

/* The home slot of address A. */
static inline unsigned long hs_bt_home(const HS_BlockTab *t, unsigned long a)
{
   unsigned long h = (a >> 3) * 0x9E3779B97F4A7C15UL;
   return (h ^ (h >> 31)) & t->mask;
}

/* SLOTS: a power of two. */
static inline void hs_bt_init(HS_BlockTab *t, unsigned long slots,
                              void *(*zalloc)(unsigned long),
                              void (*release)(void *, unsigned long))
{
   t->zalloc = zalloc;
   t->release = release;
   t->slots = (HS_Block *)zalloc(slots * sizeof(HS_Block));
   t->mask = slots - 1;
   t->count = 0;
}

/* The block at A, or 0. */
static inline HS_Block *hs_bt_find(const HS_BlockTab *t, unsigned long a)
{
   unsigned long i = hs_bt_home(t, a);
   while (t->slots[i].addr != 0) {
      if (t->slots[i].addr == a)
         return &t->slots[i];
      i = (i + 1) & t->mask;
   }
   return 0;
}

/* A new entry for A (not 0, not in the table), its other fields 0. */
static inline HS_Block *hs_bt_add(HS_BlockTab *t, unsigned long a)
{
   unsigned long i;
   if ((t->count + 1) * 8 > (t->mask + 1) * 5) {
      HS_Block *old = t->slots;
      unsigned long n = t->mask + 1, j;
      t->slots = (HS_Block *)t->zalloc(2 * n * sizeof(HS_Block));
      t->mask = 2 * n - 1;
      for (j = 0; j < n; j++)
         if (old[j].addr != 0) {
            for (i = hs_bt_home(t, old[j].addr); t->slots[i].addr != 0;
                 i = (i + 1) & t->mask)
               ;
            t->slots[i] = old[j];
         }
      t->release(old, n * sizeof(HS_Block));
   }
   for (i = hs_bt_home(t, a); t->slots[i].addr != 0; i = (i + 1) & t->mask)
      ;
   t->slots[i].addr = a;
   t->slots[i].req = 0;
   t->slots[i].site = 0;
   t->slots[i].slop = 0;
   t->slots[i].in_pool = 0;
   t->count++;
   return &t->slots[i];
}

/* Remove entry E: the entries after it in its cluster that may move back
   (whose home is not cyclically in (hole, their slot]) fill the hole. */
static inline void hs_bt_delete(HS_BlockTab *t, HS_Block *e)
{
   unsigned long i = (unsigned long)(e - t->slots), j = i, k;
   for (;;) {
      j = (j + 1) & t->mask;
      if (t->slots[j].addr == 0)
         break;
      k = hs_bt_home(t, t->slots[j].addr);
      if (i <= j ? (i < k && k <= j) : (i < k || k <= j))
         continue;
      t->slots[i] = t->slots[j];
      i = j;
   }
   t->slots[i].addr = 0;
   t->count--;
}

#endif /* HS_BLOCKTAB_H */
