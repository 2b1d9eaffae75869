/* huge_realloc.c: a 5 GiB block (never touched) shrunk in place by
   realloc, then freed: the slop it gives up is over 4 GiB while the
   block lives, and must all come off again when it is freed.
   Prints "no memory" when the system will not give 5 GiB of address
   space (the test then skips). */
#include <stdio.h>
#include <stdlib.h>

int main(void)
{
   size_t big = (size_t)5 << 30;
   char *p = malloc(big), *q;
   if (p == NULL) {
      puts("no memory");
      return 0;
   }
   q = realloc(p, 100);
   puts(q == p ? "in place" : "moved");
   free(q);
   return 0;
}
