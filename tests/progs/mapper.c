/* mapper.c: memory mapped in pages, in a known way, without malloc.

   Usage: mapper
   - map_small() maps 16 pages, map_big() 256 pages (1 MB);
   - half of the big mapping is unmapped, then the rest grows with
     mremap to 512 pages (it may move);
   - grow_brk() moves the break up by 64 pages, in page-sized steps,
     then shrink_brk() moves it down by 32;
   - everything is unmapped again before exit.
   The peak is while the remapped 512 pages, the 16 small ones and the
   64 of the break are all there. */
#define _GNU_SOURCE
#include <sys/mman.h>
#include <unistd.h>

#define PAGE 4096

static void *map_small(void)
{
   return mmap(NULL, 16 * PAGE, PROT_READ | PROT_WRITE,
               MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
}

static void *map_big(void)
{
   return mmap(NULL, 256 * PAGE, PROT_READ | PROT_WRITE,
               MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
}

static void *grow_big(void *p)
{
   return mremap(p, 128 * PAGE, 512 * PAGE, MREMAP_MAYMOVE);
}

static void grow_brk(void)
{
   for (int i = 0; i < 8; i++)
      sbrk(8 * PAGE);
}

static void shrink_brk(void)
{
   sbrk(-32 * PAGE);
}

int main(void)
{
   char *small = map_small();
   char *big = map_big();
   small[0] = big[0] = 1;
   munmap(big + 128 * PAGE, 128 * PAGE);
   big = grow_big(big);
   grow_brk();
   shrink_brk();
   munmap(big, 512 * PAGE);
   munmap(small, 16 * PAGE);
   return 0;
}
