/* steps.c: a function called from two places in a loop, for a debugger
   that stops in it and steps over its return (tests/gdb-steps): the
   return goes to one place and then the other.  Prints 85. */
#include <stdio.h>

__attribute__((noinline)) static int f(int x)
{
   return x * 3 + 1;
}

__attribute__((noinline)) static int g(int x)
{
   return f(x) + f(x + 1);
}

int main(void)
{
   int s = 0;
   for (int i = 0; i < 5; i++)
      s += g(i);
   printf("%d\n", s);
   return 0;
}
