/* stackdeep.c: stacks that grow and shrink in a known way, in threads.

   Usage: stackdeep [ROUNDS]   (default 20)
   - main recurses through recurse() ROUNDS times, to a depth that varies
     from round to round (at most 400 calls of about 100 bytes each): its
     high-water mark is in recurse(), about 40 KB down;
   - thread "wide" calls wide(), whose frame holds a 64 KB buffer: its
     mark is in wide(), the one deep frame;
   - thread "mixed" recurses ROUNDS times to at most 200 calls, then at
     the bottom calls wide_leaf() with a 16 KB buffer: its mark is in
     wide_leaf() below recurse().
   The threads run one after the other, so the total of all stacks has
   one peak per thread.  A large ROUNDS makes it a stack-heavy benchmark:
   nearly all it does is calls and returns. */
#include <pthread.h>
#include <stdlib.h>

/* volatile: the compiler may not drop the frames' contents. */
static volatile long sink;

static long wide_leaf(int n)
{
   volatile char buf[16 * 1024];
   for (unsigned i = 0; i < sizeof buf; i += 64)   /* no call: no PLT */
      buf[i] = n;
   return buf[n];
}

static long recurse(int n, int leaf)
{
   volatile long pad[8];
   pad[0] = n;
   if (n == 0)
      return leaf ? wide_leaf(leaf) : pad[0];
   return recurse(n - 1, leaf) + pad[0];
}

static long wide(int n)
{
   volatile char buf[64 * 1024];
   for (unsigned i = 0; i < sizeof buf; i += 64)
      buf[i] = n;
   return buf[n];
}

static int rounds = 20;

static void *wide_thread(void *arg)
{
   sink = wide(7);
   return NULL;
}

static void *mixed_thread(void *arg)
{
   for (int i = 0; i < rounds; i++)
      sink += recurse(i == rounds / 2 ? 200 : (i * 37) % 150, 3);
   return NULL;
}

int main(int argc, char **argv)
{
   pthread_t t;

   if (argc > 1)
      rounds = atoi(argv[1]);
   for (int i = 0; i < rounds; i++)
      sink += recurse(i == rounds / 2 ? 400 : (i * 61) % 300, 0);

   pthread_create(&t, NULL, wide_thread, NULL);
   pthread_join(t, NULL);
   pthread_create(&t, NULL, mixed_thread, NULL);
   pthread_join(t, NULL);
   return 0;
}
