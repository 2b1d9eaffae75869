/* custom.c: a custom allocator that announces its blocks with
   VALGRIND_MALLOCLIKE_BLOCK, VALGRIND_RESIZEINPLACE_BLOCK and
   VALGRIND_FREELIKE_BLOCK, as Massif counts them.

   The arena is static, so malloc counts nothing of it: only the
   announced blocks are heap.  make_small() takes 50 blocks of 100 bytes,
   make_big() 4 of 5,000; resize() grows the last big block in place to
   8,000 bytes.  Then all are released, small ones first: the peak is
   50 * 100 + 3 * 5,000 + 8,000 = 28,000 bytes, just before the first
   release. */
#include <stddef.h>
#include <valgrind/valgrind.h>

static char arena[1 << 20];
static size_t used;

static void *my_alloc(size_t n)
{
   void *p = arena + used;
   used += (n + 15) & ~(size_t)15;
   VALGRIND_MALLOCLIKE_BLOCK(p, n, 0, 0);
   return p;
}

static void my_free(void *p)
{
   VALGRIND_FREELIKE_BLOCK(p, 0);
}

static void my_resize(void *p, size_t old, size_t n)
{
   VALGRIND_RESIZEINPLACE_BLOCK(p, old, n, 0);
}

static void *small[50], *big[4];

static void make_small(void)
{
   for (int i = 0; i < 50; i++)
      small[i] = my_alloc(100);
}

static void make_big(void)
{
   for (int i = 0; i < 4; i++)
      big[i] = my_alloc(5000);
}

static void resize(void)
{
   /* 5,000 -> 8,000 in place: the next block starts 16,384 bytes on. */
   used += 16384;
   my_resize(big[3], 5000, 8000);
}

int main(void)
{
   make_small();
   make_big();
   resize();
   for (int i = 0; i < 50; i++)
      my_free(small[i]);
   for (int i = 0; i < 4; i++)
      my_free(big[i]);
   return 0;
}
