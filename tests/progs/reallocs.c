/* reallocs.c: blocks grown and shrunk by realloc.

   grow() starts a buffer with malloc(16) and grows it 200 times by 100
   bytes with realloc (to 20,016 bytes); grow_small() grows a second
   buffer 64 times by 1 byte (often in place, inside the block's slop).
   shrink() then cuts the first buffer to 1,000 bytes (a decrease: the
   peak is just before it) and to 10, and both are freed. */
#include <stdlib.h>

static char *volatile big, *volatile small;

static void grow(void)
{
   big = malloc(16);
   for (int i = 1; i <= 200; i++)
      big = realloc(big, 16 + 100 * i);
}

static void grow_small(void)
{
   small = malloc(1);
   for (int i = 2; i <= 64; i++)
      small = realloc(small, i);
}

static void shrink(void)
{
   big = realloc(big, 1000);
   big = realloc(big, 10);
}

int main(void)
{
   grow();
   grow_small();
   shrink();
   free(big);
   free(small);
   return 0;
}
