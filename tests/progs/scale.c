/* scale.c: ten million allocations, a 200-deep stack and a hundred
   threads, with few blocks live at any time.

   Usage: scale [MILLIONS]   (default 10)
   A hundred threads each allocate and free MILLIONS*100000 blocks of
   varied sizes from three call sites, keeping at most 64 live, and one
   thread also allocates at the bottom of a 200-deep recursion.  The
   process's peak resident size (VmHWM: under Valgrind, the tool's memory
   plus the program's) is printed after the first tenth of the work and
   at the end, as "hwm_kB FIRST LAST": a tool whose memory follows the
   live blocks has LAST close to FIRST. */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define THREADS 100
#define LIVE    64

static long per_thread;
static pthread_barrier_t barrier;

static long hwm_kB(void)
{
   char line[256];
   long kb = -1;
   FILE *f = fopen("/proc/self/status", "r");
   if (f == NULL)
      return -1;
   while (fgets(line, sizeof line, f))
      if (strncmp(line, "VmHWM:", 6) == 0)
         kb = atol(line + 6);
   fclose(f);
   return kb;
}

static __attribute__((noinline)) void *site_a(size_t n) { return malloc(n); }
static __attribute__((noinline)) void *site_b(size_t n) { return calloc(1, n); }
static __attribute__((noinline)) void *site_c(size_t n) { return malloc(n + 100); }

static void churn(long from, long to, void **live)
{
   for (long i = from; i < to; i++) {
      int slot = (int)(i % LIVE);
      free(live[slot]);
      switch (i % 3) {
      case 0:  live[slot] = site_a(16 + i % 200); break;
      case 1:  live[slot] = site_b(32 + i % 50);  break;
      default: live[slot] = site_c(8 + i % 20);   break;
      }
   }
}

static __attribute__((noinline)) void deep(int d, void **live)
{
   if (d > 0) {
      deep(d - 1, live);
      __asm__ volatile("");   /* not a tail call: every frame stays */
      return;
   }
   for (int i = 0; i < 100; i++) {
      free(live[i % LIVE]);
      live[i % LIVE] = malloc(64);
   }
}

static long first_hwm;

static void *worker(void *arg)
{
   void *live[LIVE] = { 0 };
   long id = (long)arg;
   if (id == 0)
      deep(200, live);
   churn(0, per_thread / 10, live);
   pthread_barrier_wait(&barrier);
   if (id == 0)
      first_hwm = hwm_kB();
   pthread_barrier_wait(&barrier);
   churn(per_thread / 10, per_thread, live);
   for (int i = 0; i < LIVE; i++)
      free(live[i]);
   return NULL;
}

int main(int argc, char **argv)
{
   pthread_t t[THREADS];
   long millions = argc > 1 ? atol(argv[1]) : 10;

   per_thread = millions * 1000000 / THREADS;
   pthread_barrier_init(&barrier, NULL, THREADS);
   for (long i = 0; i < THREADS; i++)
      pthread_create(&t[i], NULL, worker, (void *)i);
   for (int i = 0; i < THREADS; i++)
      pthread_join(t[i], NULL);
   printf("hwm_kB %ld %ld\n", first_hwm, hwm_kB());
   return 0;
}
