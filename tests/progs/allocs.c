/* allocs.c: a heap that grows and shrinks in a known way.

   Usage: allocs [crash|fork]
   - f() allocates 1000 blocks of 100 bytes, g() 1000 of 400 (through
     h()), and 10 blocks of 4 bytes come from main: below 1% of the heap;
   - half of f()'s blocks are freed before exit.
   With "crash" it dies of SIGSEGV before freeing; with "fork" a child
   allocates 5000 more bytes and both exit. */
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#define N 1000

/* volatile: the compiler may not drop allocations whose results go unread. */
static void *volatile fblocks[N], *volatile gblocks[N], *volatile small[10];

static void f(void)
{
   for (int i = 0; i < N; i++)
      fblocks[i] = malloc(100);
}

static void *h(size_t n)
{
   return calloc(1, n);
}

static void g(void)
{
   for (int i = 0; i < N; i++)
      gblocks[i] = h(400);
}

int main(int argc, char **argv)
{
   const char *mode = argc > 1 ? argv[1] : "";

   f();
   g();
   for (int i = 0; i < 10; i++)
      small[i] = malloc(4);
   if (strcmp(mode, "crash") == 0)
      raise(SIGSEGV);
   if (strcmp(mode, "fork") == 0) {
      pid_t pid = fork();
      if (pid == 0) {
         small[0] = malloc(5000);
         _exit(0);
      }
      waitpid(pid, NULL, 0);
   }
   for (int i = 0; i < N; i += 2)
      free(fblocks[i]);
   return 0;
}
