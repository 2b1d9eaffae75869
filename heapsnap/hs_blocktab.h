/* hs_blocktab.h: heapsnap's table of live heap blocks, in plain C.

   Copyright (C) 2026 The heapsnap/callprof developers.
   SPDX-License-Identifier: GPL-2.0-or-later

   Every malloc adds a block here and every free looks one up and
   removes it, so the table is on the hottest path heapsnap has.  It is
   an open-addressing hash table keyed by address: linear probing, a
   power-of-two number of slots, at most 5/8 full (it doubles before an
   insertion would pass that); a deletion shifts the entries after it
   back, so there are no tombstones and a lookup stops at the first
   empty slot.  The entries are the blocks themselves, 24 bytes each
   (address, requested size, and a word the owner packs the rest into):
   a free or a realloc reads one cache line, not a chain of nodes, and
   nothing is allocated per block.  A pointer to an entry is good until
   the next insertion or deletion.

   The header includes nothing and calls only the two functions it is
   given (zeroed memory, and its release, told the size, a piece at a
   time when the table grows: below), so the same
   code is compiled into the tool and on the host, where
   tests/unit/test_blocktab checks it against a plain list (growth, the
   old array given back in order, deletion in clusters and across the
   end of the table, blocks over 4 GiB). */

#ifndef HS_BLOCKTAB_H
#define HS_BLOCKTAB_H

typedef struct {
   unsigned long addr;        /* the block's address; 0: an empty slot */
   unsigned long req;         /* requested bytes */
   unsigned long tag;         /* the owner's (hs_heap.c: the block's site,
                                 and its kind in the low bits) */
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

/* Growing.  The new array has twice the slots, and an entry's home in it
   is its old home or that plus the old size (the same hash, one more
   bit), so moving the old entries in order fills the new array at two
   fronts, a page after another, while the old array is read a page after
   another.  The old array is given back a piece at a time behind the
   read, so the two together take little more than the new one alone,
   where giving the old one back whole at the end held 1.5 times the new
   one for a moment.  RELEASE is therefore called on consecutive pieces
   of an array, from its start, HS_BT_GROW_CHUNK entries (384 KB, whole
   pages) each but the last. */
#define HS_BT_GROW_CHUNK 16384UL

/* A new entry for A (not 0, not in the table), its other fields 0. */
static inline HS_Block *hs_bt_add(HS_BlockTab *t, unsigned long a)
{
   unsigned long i;
   if ((t->count + 1) * 8 > (t->mask + 1) * 5) {
      HS_Block *old = t->slots;
      unsigned long n = t->mask + 1, j, done = 0;
      t->slots = (HS_Block *)t->zalloc(2 * n * sizeof(HS_Block));
      t->mask = 2 * n - 1;
      for (j = 0; j < n; j++) {
         if (old[j].addr != 0) {
            for (i = hs_bt_home(t, old[j].addr); t->slots[i].addr != 0;
                 i = (i + 1) & t->mask)
               ;
            t->slots[i] = old[j];
         }
         if (j + 1 - done == HS_BT_GROW_CHUNK) {
            t->release(old + done, HS_BT_GROW_CHUNK * sizeof(HS_Block));
            done = j + 1;
         }
      }
      if (done < n)
         t->release(old + done, (n - done) * sizeof(HS_Block));
   }
   for (i = hs_bt_home(t, a); t->slots[i].addr != 0; i = (i + 1) & t->mask)
      ;
   t->slots[i].addr = a;
   t->slots[i].req = 0;
   t->slots[i].tag = 0;
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

/* Give the slots back; the table is empty and must be initialised again
   before any other use. */
static inline void hs_bt_free(HS_BlockTab *t)
{
   t->release(t->slots, (t->mask + 1) * sizeof(HS_Block));
   t->slots = 0;
   t->mask = 0;
   t->count = 0;
}

#endif /* HS_BLOCKTAB_H */
