/* busy.c: a program that keeps working for a while, for periodic dumps
   and for being killed in the middle of them.

   Usage: busy SECONDS
   Until SECONDS of wall time have passed: calls step() over and over
   (a few small functions), allocating and freeing a block now and then
   while holding 10 blocks of 1,000 bytes (hold()).  Exits 0. */
#include <stdlib.h>
#include <time.h>

static void *volatile held[10];
static volatile unsigned long sink;

static void hold(void)
{
   for (int i = 0; i < 10; i++)
      held[i] = malloc(1000);
}

static unsigned long leaf(unsigned long x)
{
   return x * 2654435761u + 1;
}

static void step(unsigned long i)
{
   for (int k = 0; k < 100; k++)
      sink += leaf(i + k);
   if (i % 64 == 0) {
      void *p = malloc(100 + i % 500);
      sink += (unsigned long)p & 1;
      free(p);
   }
}

static double now(void)
{
   struct timespec t;
   clock_gettime(CLOCK_MONOTONIC, &t);
   return t.tv_sec + t.tv_nsec / 1e9;
}

int main(int argc, char **argv)
{
   double end = now() + (argc > 1 ? atof(argv[1]) : 1.0);
   unsigned long i = 0;
   hold();
   while (now() < end)
      for (int k = 0; k < 100; k++)
         step(i++);
   for (int k = 0; k < 10; k++)
      free(held[k]);
   return 0;
}
