/* stackswitch.c: a program that runs code on stacks of its own.

   Usage: stackswitch [ROUNDS]   (default 4)
   Three coroutines (ucontext) run in turn with main, ROUNDS times, each
   on a 256 KB stack of its own:
   - "a" and "b" on two stacks 512 KB apart in one mapping, each
     registered with Valgrind (VALGRIND_STACK_REGISTER); a switches to b
     directly, a move of less than --max-stackframe into another
     registered stack, which Massif does not count;
   - "far" on a stack mapped at least 64 MB away from main's and not
     registered: switching to it and back moves the stack pointer by more
     than --max-stackframe, which Massif does not count either (and says
     "client switching stacks?").
   Each recurses to a depth that changes from round to round, and so does
   main; b goes deepest, so the peak of the program's stack bytes is in
   b, and where it is depends on the switch from a to b not counting. */
#include <stdlib.h>
#include <sys/mman.h>
#include <ucontext.h>
#include <valgrind/valgrind.h>

#define STACK_BYTES (256 * 1024)

static volatile long sink;
static ucontext_t main_ctx, a_ctx, b_ctx, far_ctx;
static int rounds = 4;

static long recurse(int n)
{
   volatile long pad[12];
   pad[0] = n;
   if (n == 0)
      return pad[0];
   return recurse(n - 1) + pad[0];
}

static void a_body(void)
{
   for (int i = 0; i < rounds; i++) {
      sink += recurse(100 + 30 * i);
      swapcontext(&a_ctx, &b_ctx);
   }
}

static void b_body(void)
{
   for (int i = 0; i < rounds; i++) {
      sink += recurse(300 + 30 * i);
      swapcontext(&b_ctx, &main_ctx);
   }
}

static void far_body(void)
{
   for (int i = 0; i < rounds; i++) {
      sink += recurse(120 - 20 * i);
      swapcontext(&far_ctx, &main_ctx);
   }
}

static void start(ucontext_t *ctx, char *stack, void (*body)(void))
{
   getcontext(ctx);
   ctx->uc_stack.ss_sp = stack;
   ctx->uc_stack.ss_size = STACK_BYTES;
   ctx->uc_link = &main_ctx;
   makecontext(ctx, body, 0);
}

static char *map(char *hint, size_t bytes)
{
   char *p = mmap(hint, bytes, PROT_READ | PROT_WRITE,
                  MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
   if (p == MAP_FAILED)
      exit(1);
   return p;
}

int main(int argc, char **argv)
{
   /* Far below the main stack: hints, 64 and 96 MB under a local's
      page. */
   char *top = (char *)((unsigned long)&argc & ~0xfffUL);
   char *ab = map(top - (96UL << 20), 3 * STACK_BYTES);
   char *far = map(top - (64UL << 20), STACK_BYTES);
   unsigned a_id, b_id;
   if (argc > 1)
      rounds = atoi(argv[1]);
   a_id = VALGRIND_STACK_REGISTER(ab, ab + STACK_BYTES);
   b_id = VALGRIND_STACK_REGISTER(ab + 2 * STACK_BYTES, ab + 3 * STACK_BYTES);
   start(&a_ctx, ab, a_body);
   start(&b_ctx, ab + 2 * STACK_BYTES, b_body);
   start(&far_ctx, far, far_body);
   for (int i = 0; i < rounds; i++) {
      sink += recurse(10 + 40 * i);
      swapcontext(&main_ctx, &a_ctx);      /* on to b, and back here */
      swapcontext(&main_ctx, &far_ctx);
   }
   VALGRIND_STACK_DEREGISTER(a_id);
   VALGRIND_STACK_DEREGISTER(b_id);
   munmap(ab, 3 * STACK_BYTES);
   munmap(far, STACK_BYTES);
   return (int)(sink & 0);
}
