/* cwork_leaf.c: the second file of cwork (see cwork_main.c).

   leaf() is called from helper(), which cwork.h inlines into
   cwork_main.c; scale() is static here and in cwork_main.c, two
   functions of one name in two files; the mix_*() functions are called
   through a table of function pointers; leaf_scaled() ends in a tail
   call (a jump, not a call) to leaf(). */
#include "cwork.h"

__attribute__((noinline)) static unsigned scale(unsigned x)
{
   return x * 3 + (x >> 5);
}

__attribute__((noinline)) unsigned leaf(unsigned x)
{
   x ^= x >> 16;
   x *= 0x45d9f3bu;
   return x ^ (x >> 16);
}

unsigned mix_add(unsigned a, unsigned b)
{
   return a + scale(b);
}

unsigned mix_xor(unsigned a, unsigned b)
{
   return a ^ (b * 31);
}

unsigned mix_rot(unsigned a, unsigned b)
{
   unsigned r = b & 31;
   return (a << r) | (a >> ((32 - r) & 31));
}

/* A tail call: -O2 makes the call to leaf() a jump. */
unsigned leaf_scaled(unsigned x)
{
   return leaf(scale(x));
}

/* Tail-recursive: -O2 turns the self call into a loop, with a branch
   taken both ways. */
unsigned count_down(unsigned n, unsigned acc)
{
   if (n == 0)
      return acc;
   return count_down(n - 1, acc * 33 + n);
}
