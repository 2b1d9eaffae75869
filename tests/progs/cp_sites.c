/* cp_sites.c: N distinct call sites (default 1,000,000), each calling one
   empty function once, in code made at run time; and recursion DEPTH
   deep (default 100,000). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

static unsigned long recurse(unsigned long d)
{
   if (d == 0)
      return 0;
   return 1 + recurse(d - 1) + (d & 1);
}

int main(int argc, char **argv)
{
   long n = argc > 1 ? atol(argv[1]) : 1000000;
   unsigned long depth = argc > 2 ? strtoul(argv[2], NULL, 10) : 100000;
   size_t size = (size_t)n * 5 + 2;
   unsigned char *code = mmap(NULL, size, PROT_READ | PROT_WRITE | PROT_EXEC,
                              MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
   unsigned char *target;
   if (code == MAP_FAILED)
      return 1;
   target = code + (size_t)n * 5 + 1;     /* ret */
   for (long i = 0; i < n; i++) {
      unsigned char *p = code + (size_t)i * 5;
      int rel = (int)(target - (p + 5));
      p[0] = 0xE8;
      memcpy(p + 1, &rel, 4);
   }
   code[(size_t)n * 5] = 0xC3;            /* the caller's return */
   *target = 0xC3;
   ((void (*)(void))code)();
   printf("%ld call sites, recursion %lu\n", n, recurse(depth));
   return 0;
}
