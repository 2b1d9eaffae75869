/* test_classify.c: callprof's call, return and jump decisions
   (callprof/cp_classify.h) on the host.

   Copyright (C) 2026 The heapsnap/callprof developers.
   SPDX-License-Identifier: GPL-2.0-or-later

   Each case is a shadow stack written out (bottom first: the stack
   pointer at each call and the return address it pushed; the stack
   grows down, so later frames have smaller stack pointers) and an exit,
   with what Callgrind 3.19 does with it.  The frames here are bare
   CPX_Frames; cp_calls.c's frames start with one, which is all the
   functions read.

   Build from the top of the tree and run:
      cc -Iinclude -Icallprof -Itests/unit tests/unit/check.c \
         tests/unit/test_classify.c -o test_classify
      ./test_classify
   It prints one line per failed check, then "unit: N checks, N failed",
   and exits 1 if a check failed. */

#include <stdio.h>

#include "check.h"
#include "cp_classify.h"

#define N(a) (unsigned)(sizeof (a) / sizeof (a)[0])

/* A frame of the tool's shape: CPX_Frame first, then its own fields. */
typedef struct {
   CPX_Frame at;
   long      payload[5];
} ToolFrame;

static unsigned pops(const CPX_Frame *f, unsigned n, unsigned long sp,
                     unsigned long target)
{
   return cpx_return_pops(f, sizeof *f, n, sp, target);
}

static void test_returns(void)
{
   /* main called work at 0x1000 (ret 0x401005), work called leaf. */
   const CPX_Frame s[] = { { 0x1000, 0x401005 }, { 0xff0, 0x402010 } };

   /* leaf returns to work: one pop */
   CHECK_LONG(pops(s, N(s), 0xff0, 0x402010), 1);
   /* a ret used as a jump (push; ret) below the top frame: no return */
   CHECK_LONG(pops(s, N(s), 0xfe8, 0x402010), 0);
   /* the right stack pointer, another address: a jump */
   CHECK_LONG(pops(s, N(s), 0xff0, 0x999999), 0);
   /* above the top frame (longjmp went first): one pop, the frames left
      are popped before it (cpx_left_frames) */
   CHECK_LONG(pops(s, N(s), 0x1000, 0x401005), 1);
   /* nothing to return to: an underflow, one pop */
   CHECK_LONG(pops(s, 0, 0x2000, 0x400000), 1);
}

static void test_returns_same_sp(void)
{
   /* work was entered by a jump taken as a call (no push: the same stack
      pointer as the call before it, no return address), then called
      leaf; a tail call leaves two frames at one stack pointer. */
   const CPX_Frame s[] = {
      { 0x1000, 0x401005 },     /* main -> f */
      { 0xff0,  0x402010 },     /* f -> g, a real call */
      { 0xff0,  0 },            /* g jumps into h: taken as a call */
   };
   /* h returns to f: it pops both frames at 0xff0 */
   CHECK_LONG(pops(s, N(s), 0xff0, 0x402010), 2);
   /* to an address no frame at that stack pointer pushed: a jump */
   CHECK_LONG(pops(s, N(s), 0xff0, 0x401005), 0);
   /* the frame below at another stack pointer is not looked at */
   {
      const CPX_Frame t[] = { { 0xff0, 0x401005 }, { 0xfe0, 0 } };
      CHECK_LONG(pops(t, N(t), 0xfe0, 0x401005), 0);
   }
   /* every frame at one stack pointer, the match at the bottom */
   {
      const CPX_Frame t[] = { { 0xf00, 0x400100 }, { 0xf00, 0 },
                              { 0xf00, 0 } };
      CHECK_LONG(pops(t, N(t), 0xf00, 0x400100), 3);
      CHECK_LONG(pops(t, N(t), 0xf00, 0x400200), 0);
   }
}

static void test_strided(void)
{
   /* The tool's frames are bigger than CPX_Frame: the stride is theirs. */
   ToolFrame s[3];
   unsigned i;
   for (i = 0; i < 3; i++) {
      s[i].at.sp = 0x1000 - 0x10 * i;
      s[i].at.ret_addr = 0x400000 + i;
      s[i].payload[0] = -1;
   }
   CHECK_LONG(cpx_return_pops(s, sizeof s[0], 3, 0xfe0, 0x400002), 1);
   CHECK_LONG(cpx_return_pops(s, sizeof s[0], 3, 0xfe0, 0x400001), 0);
   CHECK_LONG(cpx_left_frames(s, sizeof s[0], 3, 0xff8, 0), 2);
}

static void test_jumps(void)
{
   /* within the function: a jump */
   CHECK_LONG(cpx_jump_is_call(0, 1, 1), 0);
   /* to a function's first instruction: a call (a tail call) */
   CHECK_LONG(cpx_jump_is_call(1, 1, 1), 1);
   /* into another section kind (.text into .plt): a call */
   CHECK_LONG(cpx_jump_is_call(0, 0, 1), 1);
   /* into another object (a PLT stub's jump into libc): a call */
   CHECK_LONG(cpx_jump_is_call(0, 1, 0), 1);
   CHECK_LONG(cpx_jump_is_call(1, 0, 0), 1);
}

static void test_left_frames(void)
{
   const CPX_Frame s[] = { { 0x1000, 1 }, { 0xf00, 2 }, { 0xe00, 3 },
                           { 0xe00, 4 } };
   /* nothing left */
   CHECK_LONG(cpx_left_frames(s, sizeof s[0], N(s), 0xe00, 0), 0);
   CHECK_LONG(cpx_left_frames(s, sizeof s[0], N(s), 0xd00, 0), 0);
   /* longjmp back to 0xf80: the two frames at 0xe00 and the one at
      0xf00 are left */
   CHECK_LONG(cpx_left_frames(s, sizeof s[0], N(s), 0xf80, 0), 3);
   /* a return popping one frame at its stack pointer... */
   CHECK_LONG(cpx_left_frames(s, sizeof s[0], N(s), 0xe00, 1), 1);
   /* ...or two (cpx_return_pops said 2) */
   CHECK_LONG(cpx_left_frames(s, sizeof s[0], N(s), 0xe00, 2), 2);
   /* MINPOPS counts the frames left too: 0xe00's two, then not 0xf00,
      whose stack pointer is above */
   CHECK_LONG(cpx_left_frames(s, sizeof s[0], N(s), 0xe08, 1), 2);
   /* above every frame: all of them */
   CHECK_LONG(cpx_left_frames(s, sizeof s[0], N(s), 0x2000, 0), 4);
   /* an empty stack */
   CHECK_LONG(cpx_left_frames(s, sizeof s[0], 0, 0x2000, 1), 0);
}

int main(void)
{
   test_returns();
   test_returns_same_sp();
   test_strided();
   test_jumps();
   test_left_frames();
   printf("unit: %u checks, %u failed\n", check_count, check_failed);
   return check_failed ? 1 : 0;
}
