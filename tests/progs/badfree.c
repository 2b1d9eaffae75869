/* badfree.c: frees and reallocs of what is not a live block, which a
   heap profiler must survive without changing its counts.

   main allocates and frees one block of 100 bytes, then:
   - frees it again (a double free);
   - frees, 100 times from one line, an address that was never allocated
     (a static array): reported once;
   - reallocs that unknown address (the result is printed);
   - asks calloc for SIZE_MAX/2 elements of 4 bytes, which overflows:
     calloc returns NULL, and the program says so.
   Then keep() allocates 10 blocks of 1,000 bytes and main frees them:
   the peak, 10,000 bytes, is just before that first free. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

static char never_allocated[64];
static void *volatile blocks[10];

static void keep(void)
{
   for (int i = 0; i < 10; i++)
      blocks[i] = malloc(1000);
}

int main(void)
{
   char *volatile p = malloc(100);
   void *volatile unknown = never_allocated;

   free(p);
   free(p);                               /* double free */
   for (int i = 0; i < 100; i++)
      free(unknown);                      /* never allocated */
   void *r = realloc(unknown, 50);        /* realloc of an unknown block */
   volatile size_t half = SIZE_MAX / 2;   /* volatile: no compile-time warning */
   void *c = calloc(half, 4);

   keep();
   for (int i = 0; i < 10; i++)
      free(blocks[i]);
   /* Printed last: stdout's buffer is heap too, and not part of the peak. */
   printf("realloc of an unknown block: %s\n", r ? "not NULL" : "NULL");
   printf("calloc(SIZE_MAX / 2, 4): %s\n", c ? "not NULL" : "NULL");
   return 0;
}
