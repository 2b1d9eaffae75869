/* samedepth.c: allocations that heapsnap's unwind memo (heapsnap/
   hs_heap.c) must tell apart.  The memo gives an allocation the site of
   the last one made with the same program counter, stack pointer and
   frame pointer, while every return address it remembers is still in
   its place.  Here one malloc call is reached with the same stack
   pointer from different callers:

     - via_a and via_b: frames of one size, so only a return address
       differs;
     - recursion: rec at depth 3 from work, and at depth 2 under a frame
       of rec's size;
     - VLAs: two outer functions hold buffers of different sizes and
       the inner one's buffer makes up the difference, so the stack
       pointer at malloc is the same and the return addresses are
       elsewhere (over bytes of the buffers);
     - a longjmp out of an allocating function, then the others again;
     - on stacks that are not the thread's own, which the memo leaves
       alone: a coroutine's (swapcontext) and a signal handler's on a
       sigaltstack.

   Every caller allocates its own size, so a wrong site shows in the
   tree.  Blocks of each round but the last are freed.

   usage: samedepth [THREADS]: with THREADS > 0, that many threads do the
   same at once (tests/heapsnap/unwind_memo_threads: threads interleave
   differently from run to run, so that run checks the memo with
   --unwind-memo-check=yes instead of comparing files); without, the
   allocations on other stacks follow (tests/heapsnap/fast_paths_unwind). */

#include <pthread.h>
#include <setjmp.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <ucontext.h>

#define NOINLINE __attribute__((noinline))
#define ROUNDS   50
#define PER_ROUND 8

NOINLINE static void *leaf(size_t n)
{
   void *p = malloc(n);
   __asm__ volatile("" : : "r"(p) : "memory");
   return p;
}

NOINLINE static void *via_a(size_t n)
{
   void *p = leaf(n);
   __asm__ volatile("" : : "r"(p) : "memory");
   return p;
}

NOINLINE static void *via_b(size_t n)
{
   void *p = leaf(n);
   __asm__ volatile("" : : "r"(p) : "memory");
   return p;
}

NOINLINE static void *rec(int depth, size_t n)
{
   void *p = depth == 0 ? leaf(n) : rec(depth - 1, n);
   __asm__ volatile("" : : "r"(p) : "memory");
   return p;
}

/* A frame like rec's, above rec at depth 2. */
NOINLINE static void *rec_under(int depth, size_t n)
{
   void *p = rec(depth - 1, n);
   __asm__ volatile("" : : "r"(p) : "memory");
   return p;
}

NOINLINE static void *vla_inner(int k, size_t n)
{
   char buf[k];
   memset(buf, 'i', (size_t)k);
   __asm__ volatile("" : : "r"(buf) : "memory");
   return leaf(n);
}

/* Two functions of one shape (their return addresses differ), each
   holding K bytes on its frame under vla_inner's 160 - K. */
#define VLA_OUTER(name, fill)                                          \
   NOINLINE static void *name(int k, size_t n)                         \
   {                                                                   \
      char buf[k];                                                     \
      void *p;                                                         \
      memset(buf, fill, (size_t)k);                                    \
      __asm__ volatile("" : : "r"(buf) : "memory");                    \
      p = vla_inner(160 - k, n);                                       \
      __asm__ volatile("" : : "r"(p) : "memory");                      \
      return p;                                                        \
   }
VLA_OUTER(vla_outer_a, 'a')
VLA_OUTER(vla_outer_b, 'b')

NOINLINE static void jump_out(jmp_buf *jb, void *volatile *keep)
{
   *keep = via_a(7000);
   longjmp(*jb, 1);
}

/* Another stack: a coroutine's, and a signal stack. */
static ucontext_t main_uc, co_uc;
static void *co_keep[ROUNDS], *sig_keep[ROUNDS];
static volatile int co_round, sig_round;

static void co_body(void)
{
   for (;;) {
      co_keep[co_round] = via_a(9000);
      swapcontext(&co_uc, &main_uc);
   }
}

static void on_signal(int sig)
{
   (void)sig;
   sig_keep[sig_round] = via_b(10000);
}

static void other_stacks(void)
{
   static char co_stack[1 << 16], sig_stack[1 << 16];
   stack_t ss;
   struct sigaction sa;
   int round;

   ss.ss_sp = sig_stack;
   ss.ss_size = sizeof sig_stack;
   ss.ss_flags = 0;
   sigaltstack(&ss, NULL);
   memset(&sa, 0, sizeof sa);
   sa.sa_handler = on_signal;
   sa.sa_flags = SA_ONSTACK;
   sigaction(SIGUSR1, &sa, NULL);
   getcontext(&co_uc);
   co_uc.uc_stack.ss_sp = co_stack;
   co_uc.uc_stack.ss_size = sizeof co_stack;
   co_uc.uc_link = &main_uc;
   makecontext(&co_uc, co_body, 0);
   for (round = 0; round < ROUNDS; round++) {
      co_round = sig_round = round;
      swapcontext(&main_uc, &co_uc);
      raise(SIGUSR1);
      if (round < ROUNDS - 1) {
         free(co_keep[round]);
         free(sig_keep[round]);
      }
   }
}

static void *work(void *arg)
{
   /* volatile: written between setjmp and longjmp */
   void *volatile keep[PER_ROUND];
   int round, i;
   (void)arg;
   for (round = 0; round < ROUNDS; round++) {
      jmp_buf jb;
      keep[0] = via_a(1000);
      keep[1] = via_b(2000);
      keep[2] = rec(3, 3000);
      keep[3] = rec_under(3, 4000);
      keep[4] = vla_outer_a(round % 2 ? 32 : 96, 5000);
      keep[5] = vla_outer_b(round % 2 ? 96 : 32, 6000);
      if (!setjmp(jb))
         jump_out(&jb, &keep[6]);
      keep[7] = via_b(8000);
      if (round < ROUNDS - 1)
         for (i = 0; i < PER_ROUND; i++)
            free(keep[i]);
   }
   return NULL;
}

int main(int argc, char **argv)
{
   int n = argc > 1 ? atoi(argv[1]) : 0, i;
   pthread_t t[8];
   if (n > 8)
      n = 8;
   for (i = 0; i < n; i++)
      pthread_create(&t[i], NULL, work, NULL);
   work(NULL);
   if (n == 0)
      other_stacks();
   for (i = 0; i < n; i++)
      pthread_join(t[i], NULL);
   return 0;
}
