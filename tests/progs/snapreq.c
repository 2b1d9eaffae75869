/* snapreq.c: a program that asks heapsnap for snapshots at points of its
   own, with include/heapsnap.h:
   - before.PID: HEAPSNAP_SNAPSHOT before anything is allocated;
   - loaded.PID: HEAPSNAP_DETAILED_SNAPSHOT after load() has allocated 20
     blocks of 500 bytes (10,000 bytes at load());
   - all.PID: HEAPSNAP_ALL_SNAPSHOTS after half of them are freed.
   Outside Valgrind the requests do nothing. */
#include <stdlib.h>
#include "heapsnap.h"

static void *volatile blocks[20];

static void load(void)
{
   for (int i = 0; i < 20; i++)
      blocks[i] = malloc(500);
}

int main(void)
{
   HEAPSNAP_SNAPSHOT("before.%p");
   load();
   HEAPSNAP_DETAILED_SNAPSHOT("loaded.%p");
   for (int i = 0; i < 20; i += 2)
      free(blocks[i]);
   HEAPSNAP_ALL_SNAPSHOTS("all.%p");
   for (int i = 1; i < 20; i += 2)
      free(blocks[i]);
   return 0;
}
