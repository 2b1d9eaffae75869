/* cp_recursion.c: direct, mutual and deep recursion for callprof.

   fib() recurses directly (many calls of one arc), is_even()/is_odd()
   call each other, and deep() goes 5000 frames down before returning. */
#include <stdio.h>

static volatile unsigned long sink;

static unsigned long fib(unsigned n)
{
   return n < 2 ? n : fib(n - 1) + fib(n - 2);
}

static int is_odd(unsigned n);

static int is_even(unsigned n)
{
   return n == 0 ? 1 : is_odd(n - 1);
}

static int is_odd(unsigned n)
{
   return n == 0 ? 0 : is_even(n - 1);
}

static unsigned long deep(unsigned n)
{
   volatile char pad[64];
   pad[0] = (char)n;
   return n == 0 ? 0 : 1 + deep(n - 1) + pad[0] * 0;
}

int main(void)
{
   sink += fib(20);
   sink += is_even(1001);
   sink += deep(5000);
   printf("%lu\n", sink);
   return 0;
}
