/* sigframes.c: many signal handlers, on the stack and off it.

   Usage: sigframes [ROUNDS]   (default 2000)
   Each round raises SIGUSR1, handled on the interrupted stack, and
   SIGUSR2, handled on an alternate signal stack (sigaltstack); every
   hundredth SIGUSR1 handler leaves by siglongjmp instead of returning.
   Each handler recurses a little, so the stack bytes move while it
   runs; between rounds they are back where they were.  Under Massif
   with --stacks=yes the stack bytes drift down by 136 bytes per signal
   handled, and Massif stops on an assertion once they would go below
   zero. */
#include <setjmp.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>

static volatile long sink;
static sigjmp_buf out;
static volatile int jump;

static long recurse(int n)
{
   volatile long pad[6];
   pad[0] = n;
   return n ? recurse(n - 1) + pad[0] : 0;
}

static void on_stack(int sig)
{
   sink += recurse(20 + sig % 3);
   if (jump)
      siglongjmp(out, 1);
}

static void off_stack(int sig)
{
   sink += recurse(30);
}

int main(int argc, char **argv)
{
   int rounds = argc > 1 ? atoi(argv[1]) : 2000;
   struct sigaction sa;
   stack_t ss;

   ss.ss_sp = malloc(1 << 16);
   ss.ss_size = 1 << 16;
   ss.ss_flags = 0;
   if (ss.ss_sp == NULL || sigaltstack(&ss, NULL) != 0)
      return 1;
   memset(&sa, 0, sizeof sa);
   sa.sa_handler = on_stack;
   sigaction(SIGUSR1, &sa, NULL);
   sa.sa_handler = off_stack;
   sa.sa_flags = SA_ONSTACK;
   sigaction(SIGUSR2, &sa, NULL);
   for (int i = 0; i < rounds; i++) {
      jump = i % 100 == 99;
      if (sigsetjmp(out, 1) == 0)
         raise(SIGUSR1);
      raise(SIGUSR2);
      sink += recurse(i % 7);
   }
   return 0;
}
