/* inlined.c: allocations made from inlined code, so each tree entry of
   the allocating site has inlined frames (with --read-inline-info=yes):
   make_buf() is inlined into fill(), which is inlined into main().
   Half the buffers are freed at the end: the peak is before that. */
#include <stdlib.h>

static void *volatile bufs[100];

static inline __attribute__((always_inline)) void *make_buf(int i)
{
   return malloc(1000 + i);
}

static inline __attribute__((always_inline)) void fill(void)
{
   for (int i = 0; i < 100; i++)
      bufs[i] = make_buf(i);
}

int main(void)
{
   fill();
   for (int i = 0; i < 100; i += 2)
      free(bufs[i]);
   return 0;
}
