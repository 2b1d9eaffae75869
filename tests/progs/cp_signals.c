/* cp_signals.c: signal handlers, delivered synchronously by raise().

   handler() (and the function it calls) runs 10 times on top of the
   interrupted call stack of main -> work -> raise. */
#include <signal.h>
#include <stdio.h>

static volatile unsigned long sink;

static void in_handler(int sig)
{
   for (int i = 0; i < 100; i++)
      sink += (unsigned long)sig * i;
}

static void handler(int sig)
{
   in_handler(sig);
}

static void work(int i)
{
   sink += i;
   raise(SIGUSR1);
   sink += i;
}

int main(void)
{
   signal(SIGUSR1, handler);
   for (int i = 0; i < 10; i++)
      work(i);
   printf("%lu\n", sink);
   return 0;
}
