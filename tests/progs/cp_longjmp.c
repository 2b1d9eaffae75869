/* cp_longjmp.c: longjmp out of several frames.

   jumper() longjmps back to main from 3 frames down, 50 times; those
   frames are never returned from. */
#include <setjmp.h>
#include <stdio.h>

static jmp_buf env;
static volatile unsigned long sink;

static void jumper(int depth)
{
   sink += depth;
   if (depth == 0)
      longjmp(env, 1);
   jumper(depth - 1);
}

static void start(int i)
{
   sink += i;
   jumper(2);
}

int main(void)
{
   for (volatile int i = 0; i < 50; i++)
      if (setjmp(env) == 0)
         start(i);
   printf("%lu\n", sink);
   return 0;
}
