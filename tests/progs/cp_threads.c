/* cp_threads.c: threads doing different, deterministic work.

   Three threads, each its own function with its own amount of work,
   run beside main, which works longer than all of them together and
   joins them last, when they have exited.  Under Valgrind one thread
   runs at a time; with --fair-sched=yes the order is deterministic, but
   how often libc's futex waits loop (thread start and exit) still
   depends on the kernel: compare-callgrind -x leaves those out. */
#include <pthread.h>
#include <stdio.h>

static volatile unsigned long sink[3], sink_main;

static unsigned long step(unsigned long x)
{
   return x * 2654435761UL ^ (x >> 7);
}

static void *adder(void *arg)
{
   for (unsigned long i = 0; i < 20000; i++)
      sink[0] += step(i);
   return arg;
}

static void *multiplier(void *arg)
{
   for (unsigned long i = 0; i < 30000; i++)
      sink[1] = sink[1] * 3 + step(i);
   return arg;
}

static void *xorer(void *arg)
{
   for (unsigned long i = 0; i < 10000; i++)
      sink[2] ^= step(i) + step(i + 1);
   return arg;
}

int main(void)
{
   pthread_t t[3];
   void *(*fns[3])(void *) = { adder, multiplier, xorer };
   for (int i = 0; i < 3; i++)
      pthread_create(&t[i], NULL, fns[i], NULL);
   /* Main works longer than all three together, so they have all
      exited when it joins them: no join waits. */
   for (unsigned long i = 0; i < 400000; i++)
      sink_main += step(i);
   for (int i = 0; i < 3; i++)
      pthread_join(t[i], NULL);
   printf("%lu %lu %lu\n", sink[0], sink[1], sink[2]);
   return 0;
}
