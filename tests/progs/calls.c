/* calls.c: a call-heavy program with known hot spots.

   Usage: calls [crash|fork]
   work() calls leaf() 100000 times; main calls work() and a cheap
   once() function.  With "crash" it dies of SIGSEGV after work(); with
   "fork" the work happens in a forked child too. */
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

static volatile unsigned long sink;

static unsigned long leaf(unsigned long x)
{
   return x * 2654435761UL ^ (x >> 7);
}

static void work(void)
{
   for (unsigned long i = 0; i < 100000; i++)
      sink += leaf(i);
}

static void once(void)
{
   sink += 1;
}

int main(int argc, char **argv)
{
   const char *mode = argc > 1 ? argv[1] : "";
   if (strcmp(mode, "fork") == 0) {
      pid_t pid = fork();
      if (pid == 0) {
         work();
         _exit(0);
      }
      waitpid(pid, NULL, 0);
   }
   work();
   once();
   if (strcmp(mode, "crash") == 0)
      raise(SIGSEGV);
   printf("%lu\n", sink);
   return 0;
}
