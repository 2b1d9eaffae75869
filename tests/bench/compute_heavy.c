/* compute_heavy: a benchmark workload that computes and hardly allocates.
 *
 *     compute_heavy [ROUNDS]
 *
 * Deterministic.  A handful of allocations at the start; then each round
 * does integer and floating-point work in loops and small function calls:
 * a dense matrix product, a sieve of Eratosthenes, an integer hash mix
 * and a recursive Fibonacci (calls, for call-graph profilers).  The
 * heap tools' cost here is their fixed per-instruction and per-call cost,
 * not per-allocation.  Prints one checksum line.
 *
 * Copyright (C) 2026 The heapsnap/callprof developers.
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define NOINLINE __attribute__((noinline))
#define N 96

static NOINLINE double matmul(const double *a, const double *b, double *c)
{
   for (int i = 0; i < N; i++)
      for (int j = 0; j < N; j++) {
         double s = 0;
         for (int k = 0; k < N; k++)
            s += a[i * N + k] * b[k * N + j];
         c[i * N + j] = s;
      }
   double t = 0;
   for (int i = 0; i < N * N; i++)
      t += c[i];
   return t;
}

static NOINLINE int sieve(unsigned char *is, int n)
{
   int count = 0;
   memset(is, 1, (size_t)n);
   is[0] = is[1] = 0;
   for (int i = 2; (long)i * i < n; i++)
      if (is[i])
         for (int j = i * i; j < n; j += i)
            is[j] = 0;
   for (int i = 0; i < n; i++)
      count += is[i];
   return count;
}

static NOINLINE uint64_t mix(uint64_t x, int n)
{
   for (int i = 0; i < n; i++) {
      x ^= x >> 31;
      x *= 0x7fb5d329728ea185ull;
      x ^= x >> 27;
      x *= 0x81dadef4bc2dd44dull;
      x ^= x >> 33;
   }
   return x;
}

static NOINLINE unsigned fib(unsigned n)
{
   return n < 2 ? n : fib(n - 1) + fib(n - 2);
}

int main(int argc, char **argv)
{
   int rounds = argc > 1 ? atoi(argv[1]) : 60;
   double *a = malloc(sizeof(double) * N * N);
   double *b = malloc(sizeof(double) * N * N);
   double *c = malloc(sizeof(double) * N * N);
   int sn = 1 << 20;
   unsigned char *is = malloc((size_t)sn);
   if (!a || !b || !c || !is) {
      perror("malloc");
      return 1;
   }
   for (int i = 0; i < N * N; i++) {
      a[i] = (double)(i % 17) / 7.0;
      b[i] = (double)(i % 13) / 5.0;
   }
   double dsum = 0;
   uint64_t isum = 0;
   for (int r = 0; r < rounds; r++) {
      for (int m = 0; m < 4; m++) {
         dsum += matmul(a, b, c);
         a[r % (N * N)] += 1.0;
      }
      isum += (uint64_t)sieve(is, sn);
      isum += mix((uint64_t)r + 1, 2000000);
      isum += fib(24);
   }
   printf("compute_heavy: %d rounds, checksum %llu %.6g\n", rounds,
          (unsigned long long)isum, dsum);
   free(a);
   free(b);
   free(c);
   free(is);
   return 0;
}
