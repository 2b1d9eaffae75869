/* test_series.c: heapsnap's rules for the snapshot series (heapsnap/
   hs_series.h) on the host.

   Copyright (C) 2026 The heapsnap/callprof developers.
   SPDX-License-Identifier: GPL-2.0-or-later

   Series are written out as times (a 'P' marks the peak); each case says
   which snapshot Massif's rules cull next, the interval left, when a
   total is a new peak and which snapshots are detailed.  A last case
   runs the whole take-and-cull loop as hs_snap.c does and checks the
   series it leaves.

   Build from the top of the tree and run:
      cc -Iinclude -Iheapsnap -Itests/unit tests/unit/check.c \
         tests/unit/test_series.c -o test_series
      ./test_series */

#include <stdio.h>
#include <string.h>

#include "check.h"
#include "hs_series.h"

#define N(a) (int)(sizeof (a) / sizeof (a)[0])

/* The tool's snapshots are bigger than an HS_Moment: test through a
   stride of their shape. */
typedef struct {
   HS_Moment at;
   unsigned long heap, extra, stacks;
   void *tree;
   unsigned n_tree;
} Snap;

static int series(Snap *s, const unsigned long long *times, int n, int peak)
{
   int i;
   memset(s, 0, n * sizeof *s);
   for (i = 0; i < n; i++) {
      s[i].at.time = times[i];
      s[i].at.peak = i == peak;
   }
   return n;
}

static void test_victim(void)
{
   Snap s[8];
   /* spans around 1..4: 20, 15, 15, 30; snapshot 2 (neighbours 10 and
      25) goes, the first of the two at 15 */
   static const unsigned long long t1[] = { 0, 10, 20, 25, 35, 55 };
   int n = series(s, t1, N(t1), -1);
   CHECK_LONG(hs_ser_victim(s, sizeof *s, n), 2);
   /* the peak is never culled: the next best, 3 (span 15) */
   n = series(s, t1, N(t1), 2);
   CHECK_LONG(hs_ser_victim(s, sizeof *s, n), 3);
   /* a tie: the first */
   {
      static const unsigned long long t2[] = { 0, 10, 20, 30, 40 };
      n = series(s, t2, N(t2), -1);
      CHECK_LONG(hs_ser_victim(s, sizeof *s, n), 1);
   }
   /* never the first or the last; with two, or three whose middle is the
      peak, none */
   {
      static const unsigned long long t3[] = { 0, 100 };
      static const unsigned long long t4[] = { 0, 1, 100 };
      n = series(s, t3, N(t3), -1);
      CHECK_LONG(hs_ser_victim(s, sizeof *s, n), -1);
      n = series(s, t4, N(t4), 1);
      CHECK_LONG(hs_ser_victim(s, sizeof *s, n), -1);
      n = series(s, t4, N(t4), -1);
      CHECK_LONG(hs_ser_victim(s, sizeof *s, n), 1);
   }
}

static void test_min_gap(void)
{
   Snap s[8];
   static const unsigned long long t[] = { 0, 3, 50, 60, 90, 91 };
   int n = series(s, t, N(t), -1);
   /* 0-3 counts (3 can be culled), 90-91 too */
   CHECK_LONG(hs_ser_min_gap(s, sizeof *s, n), 1);
   /* with the peak at 4 (90), the gap 90-91 is between two that are
      never culled: left out; 0-3 (3) is the smallest */
   n = series(s, t, N(t), 4);
   CHECK_LONG(hs_ser_min_gap(s, sizeof *s, n), 3);
   /* first and peak side by side at the start */
   n = series(s, t, N(t), 1);
   CHECK_LONG(hs_ser_min_gap(s, sizeof *s, n), 1);
   /* nothing but uncullable neighbours */
   {
      static const unsigned long long u[] = { 0, 7 };
      n = series(s, u, N(u), -1);
      CHECK(hs_ser_min_gap(s, sizeof *s, n) == ~0ULL);
   }
}

static void test_peak(void)
{
   /* 1%: 1000 -> more than 1010 */
   CHECK(!hs_ser_new_peak(1010, 1000, 1.0));
   CHECK(hs_ser_new_peak(1011, 1000, 1.0));
   /* the excess is truncated to bytes: 1% of 150 is 1 */
   CHECK(!hs_ser_new_peak(151, 150, 1.0));
   CHECK(hs_ser_new_peak(152, 150, 1.0));
   /* 0%: any increase; equal is not one */
   CHECK(!hs_ser_new_peak(1000, 1000, 0.0));
   CHECK(hs_ser_new_peak(1001, 1000, 0.0));
   /* the first peak, from 0 */
   CHECK(hs_ser_new_peak(1, 0, 1.0));
   CHECK(!hs_ser_new_peak(0, 0, 1.0));
   /* a big one: 10% of 4 GiB */
   CHECK(!hs_ser_new_peak(4724464025UL, 4294967296UL, 10.0));
   CHECK(hs_ser_new_peak(4724464026UL, 4294967296UL, 10.0));
}

static void test_detailed(void)
{
   /* --detailed-freq=10: the 10th of each run of ten */
   CHECK(!hs_ser_detailed(0, 10));
   CHECK(!hs_ser_detailed(8, 10));
   CHECK(hs_ser_detailed(9, 10));
   /* --detailed-freq=1: every one */
   CHECK(hs_ser_detailed(0, 1));
}

/* hs_snap.c's loop: a snapshot at every change once the interval has
   passed, half culled when the table is full.  A steady series of 1000
   changes one time unit apart with max 10 keeps an evenly spread
   series, first and last kept, and the interval doubles as it goes. */
static void test_loop(void)
{
   enum { MAX = 10 };
   Snap s[MAX];
   int n = 0, i, j, culls = 0;
   unsigned long long next = 0, interval = 0, t;
   for (t = 0; t < 1000; t++) {
      if (t < next)
         continue;
      memset(&s[n], 0, sizeof s[n]);
      s[n].at.time = t;
      n++;
      if (n == MAX) {
         for (i = 0; i < MAX / 2; i++) {
            int v = hs_ser_victim(s, sizeof *s, n);
            CHECK(v > 0 && v < n - 1);
            for (j = v; j + 1 < n; j++)
               s[j] = s[j + 1];
            n--;
         }
         interval = hs_ser_min_gap(s, sizeof *s, n);
         culls++;
      }
      next = t + interval;
   }
   CHECK_LONG(s[0].at.time, 0);
   CHECK(n >= MAX / 2 && n < MAX);
   CHECK(culls >= 5);
   /* evenly spread: no gap more than twice another (but the last) */
   for (i = 2; i + 1 < n; i++) {
      unsigned long long a = s[i].at.time - s[i - 1].at.time,
                         b = s[i - 1].at.time - (i >= 2 ? s[i - 2].at.time : 0);
      CHECK(a <= 2 * b && b <= 2 * a);
   }
   CHECK(interval >= 64);
}

int main(void)
{
   test_victim();
   test_min_gap();
   test_peak();
   test_detailed();
   test_loop();
   printf("unit: %u checks, %u failed\n", check_count, check_failed);
   return check_failed ? 1 : 0;
}
