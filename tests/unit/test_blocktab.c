/* test_blocktab.c: heapsnap's table of live blocks (heapsnap/
   hs_blocktab.h) on the host.

   Copyright (C) 2026 The heapsnap/callprof developers.
   SPDX-License-Identifier: GPL-2.0-or-later

   The table against what it promises: every block added is found until
   it is deleted, and nothing else is; it doubles before it is more than
   5/8 full; a deletion leaves no hole inside a cluster, also when the
   cluster wraps round the end of the table; an entry is three words and
   keeps each whole; growing gives the old array back in consecutive
   pieces from its start, every byte of it once.  Clusters are made on
   purpose (addresses chosen by their home slot), and a long random run
   is checked against a plain list.

   Build from the top of the tree and run:
      cc -Iinclude -Iheapsnap -Itests/unit tests/unit/check.c \
         tests/unit/test_blocktab.c -o test_blocktab
      ./test_blocktab */

#include <stdio.h>
#include <stdlib.h>

#include "check.h"
#include "hs_blocktab.h"

/* The arrays given out and not yet given back whole: the table gives an
   array back in pieces (when it grows), each starting where the last
   ended; an array is freed when its last byte is back. */
static unsigned long live_allocs, bad_releases, pieces;
static struct {
   char         *base;
   unsigned long size, back;
} arrays[8];

static void *zalloc(unsigned long bytes)
{
   int i;
   for (i = 0; arrays[i].base != 0; i++)
      ;
   arrays[i].base = calloc(1, bytes);
   arrays[i].size = bytes;
   arrays[i].back = 0;
   live_allocs++;
   return arrays[i].base;
}

static void release(void *p, unsigned long bytes)
{
   int i;
   pieces++;
   for (i = 0; i < 8; i++)
      if (arrays[i].base != 0 && (char *)p >= arrays[i].base &&
          (char *)p < arrays[i].base + arrays[i].size)
         break;
   if (i == 8 || (char *)p != arrays[i].base + arrays[i].back ||
       arrays[i].back + bytes > arrays[i].size) {
      bad_releases++;
      return;
   }
   arrays[i].back += bytes;
   if (arrays[i].back == arrays[i].size) {
      free(arrays[i].base);
      arrays[i].base = 0;
      live_allocs--;
   }
}

/* The first address (a multiple of 16 from FROM on) whose home slot in
   T is SLOT. */
static unsigned long addr_at(const HS_BlockTab *t, unsigned long slot,
                             unsigned long from)
{
   unsigned long a;
   for (a = from; hs_bt_home(t, a) != slot; a += 16)
      ;
   return a;
}

/* Every entry of T is reachable from its home slot without crossing an
   empty slot (no hole inside a cluster), and COUNT is right. */
static int consistent(const HS_BlockTab *t)
{
   unsigned long i, n = 0;
   for (i = 0; i <= t->mask; i++) {
      unsigned long j;
      if (t->slots[i].addr == 0)
         continue;
      n++;
      for (j = hs_bt_home(t, t->slots[i].addr); j != i; j = (j + 1) & t->mask)
         if (t->slots[j].addr == 0)
            return 0;
   }
   return n == t->count;
}

static void test_layout(void)
{
   HS_BlockTab t;
   HS_Block *b;
   CHECK_LONG(sizeof(HS_Block), 3 * sizeof(unsigned long));
   hs_bt_init(&t, 16, zalloc, release);
   b = hs_bt_add(&t, 0x5000);
   CHECK(b->req == 0 && b->tag == 0);
   b->req = 1UL << 40;
   b->tag = ~0UL - 6;                   /* every bit but two */
   b = hs_bt_find(&t, 0x5000);
   CHECK(b != 0);
   CHECK(b->req == 1UL << 40);
   CHECK(b->tag == ~0UL - 6);
   hs_bt_free(&t);
   CHECK_LONG(live_allocs, 0);
}

static void test_cluster(void)
{
   HS_BlockTab t;
   unsigned long a[4], i;
   hs_bt_init(&t, 16, zalloc, release);
   /* three blocks with home 5, one with home 6: slots 5, 6, 7, 8 */
   a[0] = addr_at(&t, 5, 0x10000);
   a[1] = addr_at(&t, 5, a[0] + 16);
   a[2] = addr_at(&t, 6, 0x10000);
   a[3] = addr_at(&t, 5, a[1] + 16);
   for (i = 0; i < 4; i++)
      hs_bt_add(&t, a[i]);
   CHECK(t.slots[5].addr == a[0] && t.slots[6].addr == a[1] &&
         t.slots[7].addr == a[2] && t.slots[8].addr == a[3]);
   /* deleting the first moves a[1] back to 5, a[2] to its home 6 and
      a[3] (home 5) to 7 */
   hs_bt_delete(&t, hs_bt_find(&t, a[0]));
   CHECK(t.slots[5].addr == a[1]);
   CHECK(t.slots[6].addr == a[2]);
   CHECK(t.slots[7].addr == a[3]);
   CHECK(t.slots[8].addr == 0);
   CHECK(hs_bt_find(&t, a[0]) == 0);
   for (i = 1; i < 4; i++)
      CHECK(hs_bt_find(&t, a[i]) != 0);
   CHECK(consistent(&t));
   /* an entry at its home is not moved back before it */
   hs_bt_delete(&t, hs_bt_find(&t, a[1]));
   CHECK(t.slots[5].addr == a[3]);
   CHECK(t.slots[6].addr == a[2]);
   CHECK(consistent(&t));
   hs_bt_free(&t);
}

static void test_wrap(void)
{
   HS_BlockTab t;
   unsigned long a, b, c;
   hs_bt_init(&t, 16, zalloc, release);
   /* homes 15, 15, 0: slots 15, 0, 1, the cluster across the end */
   a = addr_at(&t, 15, 0x20000);
   b = addr_at(&t, 15, a + 16);
   c = addr_at(&t, 0, 0x20000);
   hs_bt_add(&t, a);
   hs_bt_add(&t, b);
   hs_bt_add(&t, c);
   CHECK(t.slots[15].addr == a && t.slots[0].addr == b &&
         t.slots[1].addr == c);
   hs_bt_delete(&t, hs_bt_find(&t, a));
   CHECK(t.slots[15].addr == b);
   CHECK(t.slots[0].addr == c);
   CHECK(t.slots[1].addr == 0);
   CHECK(hs_bt_find(&t, b) && hs_bt_find(&t, c) && !hs_bt_find(&t, a));
   CHECK(consistent(&t));
   hs_bt_free(&t);
}

static void test_growth(void)
{
   HS_BlockTab t;
   unsigned long i;
   hs_bt_init(&t, 16, zalloc, release);
   for (i = 1; i <= 10; i++)
      hs_bt_add(&t, i * 16);
   CHECK_LONG(t.mask + 1, 16);          /* 10 of 16: 5/8 exactly */
   hs_bt_add(&t, 11 * 16);
   CHECK_LONG(t.mask + 1, 32);          /* the 11th doubles it */
   CHECK_LONG(live_allocs, 1);          /* the old array was released */
   for (i = 1; i <= 11; i++)
      CHECK(hs_bt_find(&t, i * 16) != 0);
   CHECK(consistent(&t));
   hs_bt_free(&t);
   CHECK_LONG(live_allocs, 0);
}

/* Growing a table of more than HS_BT_GROW_CHUNK slots gives the old
   array back in pieces of that many, in order, and loses no entry. */
static void test_growth_in_pieces(void)
{
   HS_BlockTab t;
   unsigned long i, n = 4 * HS_BT_GROW_CHUNK / 8 * 5, before;
   hs_bt_init(&t, 16, zalloc, release);
   for (i = 1; i <= n; i++)             /* 5/8 of 4 chunks: full */
      hs_bt_add(&t, i * 16)->req = i;
   CHECK_LONG(t.mask + 1, 4 * HS_BT_GROW_CHUNK);
   before = pieces;
   hs_bt_add(&t, i * 16)->req = i;      /* the one that doubles it */
   CHECK_LONG(t.mask + 1, 8 * HS_BT_GROW_CHUNK);
   CHECK_LONG(pieces - before, 4);      /* 4 chunks of the old array */
   CHECK_LONG(bad_releases, 0);
   CHECK_LONG(live_allocs, 1);
   for (; i > 0; i--) {
      HS_Block *b = hs_bt_find(&t, i * 16);
      if (b == 0 || b->req != i)
         break;
   }
   CHECK_LONG(i, 0);
   CHECK(consistent(&t));
   hs_bt_free(&t);
   CHECK_LONG(live_allocs, 0);
   CHECK_LONG(bad_releases, 0);
}

/* A long run of adds and deletes against a plain list. */
static void test_random(void)
{
   enum { MAX = 5000, OPS = 200000 };
   static unsigned long ref[MAX];
   unsigned long n = 0, op, seed = 12345, maxn = 0;
   unsigned bad_find = 0, bad_miss = 0;
   HS_BlockTab t;
   hs_bt_init(&t, 16, zalloc, release);
   for (op = 0; op < OPS; op++) {
      seed = seed * 6364136223846793005UL + 1442695040888963407UL;
      if (n < MAX && (n == 0 || (seed >> 33) % 3 != 0)) {
         /* addresses 16 apart, often neighbours: clusters form */
         unsigned long a = 16 * (1 + (seed >> 40) % 50000);
         if (hs_bt_find(&t, a) == 0) {
            HS_Block *b = hs_bt_add(&t, a);
            b->req = a / 16;
            ref[n++] = a;
         }
      } else {
         unsigned long k = (seed >> 20) % n;
         HS_Block *b = hs_bt_find(&t, ref[k]);
         if (b == 0 || b->req != ref[k] / 16)
            bad_find++;
         else
            hs_bt_delete(&t, b);
         ref[k] = ref[--n];
      }
      if (n > maxn)
         maxn = n;
      if (op % 20000 == 0) {
         unsigned long i;
         for (i = 0; i < n; i++)
            if (hs_bt_find(&t, ref[i]) == 0)
               bad_miss++;
         CHECK(consistent(&t));
      }
   }
   CHECK_LONG(bad_find, 0);
   CHECK_LONG(bad_miss, 0);
   CHECK_LONG(t.count, n);
   CHECK(t.count * 8 <= (t.mask + 1) * 5);
   CHECK(maxn > 1000);
   hs_bt_free(&t);
   CHECK_LONG(live_allocs, 0);
}

int main(void)
{
   test_layout();
   test_cluster();
   test_wrap();
   test_growth();
   test_growth_in_pieces();
   test_random();
   printf("unit: %u checks, %u failed\n", check_count, check_failed);
   return check_failed ? 1 : 0;
}
