/* cp_plt.c: calls through PLT stubs, for callprof's folding of a call
   into a stub with the stub's jump (cp_calls.c, Folding).

   Usage: cp_plt [N [signals]]
   main calls rand_r N times (default 200000) through its PLT stub: the
   first call goes through the dynamic linker's lazy binding (the
   program is linked with -z lazy), the others straight to libc.  Every
   tenth call is made from tail(), which jumps to the stub instead of
   calling it.  With "signals", a timer interrupts the loop about every
   100 microseconds, wherever it is (between a call into the stub and
   the stub's jump too), and the handler calls rand_r three times
   itself.  The turns of the loop differ in length with what rand_r
   returns.  The program prints how many calls of rand_r it made, which
   the profile must show whatever the signals interrupted. */
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/time.h>

static unsigned seed = 1;
static volatile unsigned long sink;
static volatile sig_atomic_t handled;

/* A tail call: gcc -O2 makes it a jump into the stub. */
__attribute__((noinline)) static int tail(unsigned *s)
{
   return rand_r(s);
}

static void on_timer(int sig)
{
   unsigned s = (unsigned)sig;
   int i;
   for (i = 0; i < 3; i++)
      sink += (unsigned long)rand_r(&s);
   handled++;
}

int main(int argc, char **argv)
{
   long n = argc > 1 ? atol(argv[1]) : 200000, i;
   int signals = argc > 2 && strcmp(argv[2], "signals") == 0;

   if (signals) {
      struct itimerval it = { { 0, 100 }, { 0, 100 } };
      signal(SIGALRM, on_timer);
      setitimer(ITIMER_REAL, &it, NULL);
   }
   for (i = 0; i < n; i++) {
      int r = i % 10 == 0 ? tail(&seed) : rand_r(&seed);
      /* Turns of different lengths: a thread's time slice (100,000
         blocks) ends at every place in the turn sooner or later. */
      if (r & 1)
         sink += (unsigned long)r;
      else
         sink ^= (unsigned long)r;
   }
   if (signals) {
      /* A signal still pending stays so: every handler counted has
         finished, and no other runs. */
      sigset_t alrm;
      sigemptyset(&alrm);
      sigaddset(&alrm, SIGALRM);
      sigprocmask(SIG_BLOCK, &alrm, NULL);
   }
   printf("rand_r calls: %ld\n", n + 3L * handled);
   return 0;
}
