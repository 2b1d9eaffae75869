/* stack_heavy: a benchmark workload whose stack grows and shrinks a lot.
 *
 *     stack_heavy [ROUNDS]
 *
 * Deterministic.  Deep recursion of varying depth, with frames of varying
 * size (local arrays that are really used, so the compiler keeps them),
 * and a recursive quicksort: what --stacks=yes has to follow, one stack
 * pointer change at a time.  A few heap blocks too, so heap profiling has
 * something to record.  Prints one checksum line.
 *
 * Copyright (C) 2026 The heapsnap/callprof developers.
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#define NOINLINE __attribute__((noinline))

static uint64_t rng = 0x2545f4914f6cdd1dull;
static uint32_t rnd(void)
{
   rng = rng * 6364136223846793005ull + 1442695040888963407ull;
   return (uint32_t)(rng >> 33);
}

static NOINLINE uint32_t small_frame(int depth);
static NOINLINE uint32_t big_frame(int depth);

/* A frame of 64 bytes of locals. */
static NOINLINE uint32_t small_frame(int depth)
{
   volatile uint32_t loc[16];
   for (int i = 0; i < 16; i++)
      loc[i] = (uint32_t)(depth * 31 + i);
   if (depth <= 0)
      return loc[depth & 15];
   uint32_t s = (rnd() & 3) ? small_frame(depth - 1) : big_frame(depth - 1);
   return s + loc[(depth * 7) & 15];
}

/* A frame of 1 KiB of locals. */
static NOINLINE uint32_t big_frame(int depth)
{
   volatile uint32_t loc[256];
   for (int i = 0; i < 256; i += 8)
      loc[i] = (uint32_t)(depth + i);
   if (depth <= 0)
      return loc[0];
   uint32_t s = small_frame(depth - 1);
   return s ^ loc[(depth * 8) & 255];
}

static NOINLINE void quicksort(uint32_t *v, long lo, long hi)
{
   while (lo < hi) {
      uint32_t p = v[lo + (hi - lo) / 2];
      long i = lo, j = hi;
      while (i <= j) {
         while (v[i] < p) i++;
         while (v[j] > p) j--;
         if (i <= j) {
            uint32_t t = v[i]; v[i] = v[j]; v[j] = t;
            i++; j--;
         }
      }
      /* recurse on both sides: keeps the recursion deep and varied */
      quicksort(v, lo, j);
      lo = i;
   }
}

static NOINLINE uint32_t ackermannish(uint32_t m, uint32_t n)
{
   if (m == 0)
      return n + 1;
   if (n == 0)
      return ackermannish(m - 1, 1);
   return ackermannish(m - 1, ackermannish(m, n - 1));
}

int main(int argc, char **argv)
{
   int rounds = argc > 1 ? atoi(argv[1]) : 25;
   uint64_t sum = 0;
   long n = 200000;
   for (int r = 0; r < rounds; r++) {
      for (int k = 0; k < 4000; k++)
         sum += small_frame(50 + (int)(rnd() % 400));
      uint32_t *v = malloc(sizeof *v * (size_t)n);
      if (!v) {
         perror("malloc");
         return 1;
      }
      for (long i = 0; i < n; i++)
         v[i] = rnd();
      quicksort(v, 0, n - 1);
      sum += v[n / 2] + v[n / 3];
      free(v);
      sum += ackermannish(2, 2000 + (uint32_t)r);
   }
   printf("stack_heavy: %d rounds, checksum %llu\n", rounds,
          (unsigned long long)sum);
   return 0;
}
