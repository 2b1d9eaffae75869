/* fault_return.c: faults that a signal handler survives.

   Usage: fault_return [ROUNDS]   (default 50)
   Each round runs work() (2,000 calls of step()), allocates a block,
   runs a short loop and writes to a page mapped read-only.  The write
   faults (SIGSEGV) in the middle of main's code; the handler makes the
   page writable and returns, the write is made again and succeeds, and
   main maps the page read-only again for the next round.  So every
   round pushes a signal frame for a fault, with the thread's
   instructions since its last system call not yet counted by the tool
   (the loop's since its last call), and pops it at the handler's
   return. */
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

static char *page;
static long page_size;
static volatile long sink;

static void on_fault(int sig, siginfo_t *si, void *uc)
{
   (void)sig; (void)si; (void)uc;
   mprotect(page, page_size, PROT_READ | PROT_WRITE);
}

__attribute__((noinline)) static long step(long acc, long i)
{
   return (acc >> 1) + i * 3 + sink;
}

__attribute__((noinline)) static long work(void)
{
   long acc = 0;
   for (long i = 0; i < 2000; i++)
      acc = step(acc, i);
   return acc;
}

int main(int argc, char **argv)
{
   int rounds = argc > 1 ? atoi(argv[1]) : 50;
   struct sigaction sa;
   void **blocks = malloc(rounds * sizeof *blocks);

   page_size = sysconf(_SC_PAGESIZE);
   page = mmap(NULL, page_size, PROT_READ, MAP_PRIVATE | MAP_ANONYMOUS,
               -1, 0);
   if (page == MAP_FAILED || blocks == NULL)
      return 1;
   memset(&sa, 0, sizeof sa);
   sa.sa_sigaction = on_fault;
   sa.sa_flags = SA_SIGINFO;
   sigaction(SIGSEGV, &sa, NULL);
   for (int r = 0; r < rounds; r++) {
      sink += work();
      blocks[r] = malloc(100 + r);
      for (int i = 0; i < 10; i++)
         sink += i;
      *(volatile char *)page = (char)r;      /* faults: the page is read-only */
      mprotect(page, page_size, PROT_READ);
   }
   for (int r = 0; r < rounds; r++)
      free(blocks[r]);
   free(blocks);
   printf("%d faults\n", rounds);
   return 0;
}
