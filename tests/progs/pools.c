/* pools.c: a memory pool described with Valgrind's mempool requests,
   which heapsnap counts and Massif ignores.

   The pool's chunks live in a static arena (malloc counts nothing):
   - fill_pool(): MEMPOOL_ALLOC of 10 chunks of 1,000 bytes, at arena +
     i * 1,024                                     heap 10,000 in 10 chunks
   - MEMPOOL_FREE of chunk 0                        9,000 in 9
   - change(): MEMPOOL_CHANGE of chunk 1 to 3,000 bytes at arena + 20,000,
     counted at change() from then on              11,000 in 9 (the peak)
   - MEMPOOL_TRIM to [arena + 2,048, arena + 6,644): chunks 2-5 stay,
     chunk 6 is cut to its first 500 bytes, the rest go     4,500 in 5
   - MOVE_MEMPOOL to a new anchor; after_move(): MEMPOOL_ALLOC of 700
     bytes on the new anchor, and one of 999 on the old one, which is no
     pool any more (ignored)                        5,200 in 6
   - DESTROY_MEMPOOL                                0
   After each step a snapshot file (pool-STEP.PID) records the heap, with
   include/heapsnap.h's requests. */
#include <valgrind/valgrind.h>
#include "heapsnap.h"

static char arena[65536];
static char anchor, new_anchor;

static void fill_pool(void)
{
   for (int i = 0; i < 10; i++)
      VALGRIND_MEMPOOL_ALLOC(&anchor, arena + i * 1024, 1000);
}

static void change(void)
{
   VALGRIND_MEMPOOL_CHANGE(&anchor, arena + 1024, arena + 20000, 3000);
}

static void after_move(void)
{
   VALGRIND_MEMPOOL_ALLOC(&new_anchor, arena + 30000, 700);
   VALGRIND_MEMPOOL_ALLOC(&anchor, arena + 40000, 999);
}

int main(void)
{
   VALGRIND_CREATE_MEMPOOL(&anchor, 0, 0);
   fill_pool();
   HEAPSNAP_DETAILED_SNAPSHOT("pool-alloc.%p");
   VALGRIND_MEMPOOL_FREE(&anchor, arena);
   HEAPSNAP_DETAILED_SNAPSHOT("pool-free.%p");
   change();
   HEAPSNAP_DETAILED_SNAPSHOT("pool-change.%p");
   VALGRIND_MEMPOOL_TRIM(&anchor, arena + 2048, 4 * 1024 + 500);
   HEAPSNAP_DETAILED_SNAPSHOT("pool-trim.%p");
   VALGRIND_MOVE_MEMPOOL(&anchor, &new_anchor);
   after_move();
   HEAPSNAP_DETAILED_SNAPSHOT("pool-move.%p");
   VALGRIND_DESTROY_MEMPOOL(&new_anchor);
   HEAPSNAP_DETAILED_SNAPSHOT("pool-destroy.%p");
   return 0;
}
