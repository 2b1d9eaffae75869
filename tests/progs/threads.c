/* threads.c: four threads allocate, main frees.

   Each worker allocates 100 blocks of 1,000 * (its number + 1) bytes
   (work()), then waits at a barrier with main, so nothing is freed until
   every thread has allocated: the peak (1,000,000 bytes of work()'s,
   plus what pthread_create allocates) is the same whatever the
   scheduling.  Main joins the threads, then frees every block. */
#include <pthread.h>
#include <stdlib.h>

#define NT 4
#define NB 100

static void *volatile blocks[NT][NB];
static pthread_barrier_t all_done;

static void work(long t)
{
   for (int i = 0; i < NB; i++)
      blocks[t][i] = malloc(1000 * (t + 1));
}

static void *worker(void *arg)
{
   work((long)arg);
   pthread_barrier_wait(&all_done);
   return NULL;
}

int main(void)
{
   pthread_t th[NT];
   pthread_barrier_init(&all_done, NULL, NT + 1);
   for (long t = 0; t < NT; t++)
      pthread_create(&th[t], NULL, worker, (void *)t);
   pthread_barrier_wait(&all_done);
   for (int t = 0; t < NT; t++)
      pthread_join(th[t], NULL);
   for (int t = 0; t < NT; t++)
      for (int i = 0; i < NB; i++)
         free(blocks[t][i]);
   return 0;
}
