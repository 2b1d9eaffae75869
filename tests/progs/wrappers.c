/* wrappers.c: allocation through a wrapper, for --alloc-fn and
   --ignore-fn.

   xmalloc() wraps malloc (it checks the result, so it stays a frame of
   its own).  f() allocates 100 blocks of 100 bytes through it, g() 100
   of 400; main frees them all, f's first: the peak, 50,000 bytes, is
   just before that.  With --alloc-fn=xmalloc the blocks belong to f and
   g, and with --ignore-fn=g too, g's are not counted. */
#include <stdlib.h>

static void *volatile fb[100], *volatile gb[100];

static void *xmalloc(size_t n)
{
   void *p = malloc(n);
   if (p == NULL)
      abort();
   return p;
}

static void f(void)
{
   for (int i = 0; i < 100; i++)
      fb[i] = xmalloc(100);
}

static void g(void)
{
   for (int i = 0; i < 100; i++)
      gb[i] = xmalloc(400);
}

int main(void)
{
   f();
   g();
   for (int i = 0; i < 100; i++)
      free(fb[i]);
   for (int i = 0; i < 100; i++)
      free(gb[i]);
   return 0;
}
