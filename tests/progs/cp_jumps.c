/* cp_jumps.c: indirect jumps inside a function and out of it.

   run() interprets a small program with a switch, which gcc -O2 makes a
   jump through a table inside run(); threaded() does the same with
   computed gotos.  Those jumps stay in their function: Callgrind counts
   them as nothing.  dispatch() ends in a call through a pointer, which
   -O2 makes a jump to another function's first instruction, and
   countdown() in one to its own first instruction: Callgrind takes both
   as calls. */
#include <stdio.h>

static volatile unsigned long sink;

typedef unsigned long (*op_fn)(unsigned long);

__attribute__((noinline)) static unsigned long op_add(unsigned long x)
{
   sink += x;
   return x + 3;
}

__attribute__((noinline)) static unsigned long op_mul(unsigned long x)
{
   sink ^= x;
   return x * 5;
}

static op_fn volatile ops[2] = { op_add, op_mul };

__attribute__((noinline)) static unsigned long dispatch(unsigned long x,
                                                        int k)
{
   return ops[k & 1](x);
}

static unsigned long countdown(unsigned long n);
static unsigned long (*volatile self)(unsigned long) = countdown;

__attribute__((noinline)) static unsigned long countdown(unsigned long n)
{
   sink += n;
   if (n == 0)
      return 0;
   return self(n - 1);
}

__attribute__((noinline)) static unsigned long run(const unsigned char *code,
                                                   int n, unsigned long acc)
{
   int i;
   for (i = 0; i < n; i++) {
      switch (code[i]) {
      case 0: acc += 1; break;
      case 1: acc *= 3; break;
      case 2: acc ^= 0x55; break;
      case 3: acc -= 7; break;
      case 4: acc = dispatch(acc, i); break;
      case 5: acc += countdown(3); break;
      case 6: acc >>= 1; break;
      case 7: acc |= 0x100; break;
      }
   }
   return acc;
}

__attribute__((noinline)) static unsigned long threaded(const unsigned char *code)
{
   static void *const labels[] = { &&l_inc, &&l_dbl, &&l_end };
   unsigned long acc = 1;
   int pc = 0;
   goto *labels[code[pc]];
l_inc:
   acc++;
   pc++;
   goto *labels[code[pc]];
l_dbl:
   acc <<= 1;
   pc++;
   goto *labels[code[pc]];
l_end:
   return acc;
}

int main(void)
{
   static const unsigned char prog[] = { 0, 1, 2, 4, 3, 6, 5, 7, 1, 4, 0,
                                         6, 2, 5, 3, 7 };
   static const unsigned char tprog[] = { 0, 1, 1, 0, 1, 0, 0, 1, 2 };
   unsigned long acc = 0;
   int k;
   for (k = 0; k < 2000; k++) {
      acc = run(prog, (int)sizeof prog, acc);
      acc += threaded(tprog);
   }
   printf("%lu %lu\n", acc, sink);
   return 0;
}
