/* cp_classify.h: Callgrind's call, return and jump decisions, in plain C.

   Copyright (C) 2026 The heapsnap/callprof developers.
   SPDX-License-Identifier: GPL-2.0-or-later

   What an exit of a block is, as Callgrind 3.19 decides it
   (callgrind/bbcc.c, setup_bbcc, and callstack.c, unwind_call_stack),
   given only what the decisions read: the exit's kind as VEX says it,
   the target's place, the stack pointer, and of each shadow-stack frame
   its stack pointer and return address.  cp_calls.c applies the
   decisions (pushes, pops, contexts, arcs); here they are pure functions
   that include no header and allocate nothing, so that the same code is
   compiled into the tool and on the host, where tests/unit/test_classify
   checks each rule.

   The rules:
   - A return is real only if it leaves the top frame: its stack pointer
     is the top frame's and its target the return address of that frame
     or of one of the frames below with the same stack pointer (calls
     that pushed nothing, jumps taken as calls); it pops up to that one.
     A stack pointer below the top frame's, or no such return address:
     the return is a jump (Callgrind's ret_without_call).  With no frame
     at all it is a return to nothing (an underflow), one pop.
   - A jump is taken as a call when its target is a function's first
     instruction, or lies in another object or another section kind;
     otherwise it is a jump within the function.
   - Before any exit is followed, the frames the stack pointer has left
     (a frame's stack pointer below it: longjmp, exceptions) are popped. */

#ifndef CP_CLASSIFY_H
#define CP_CLASSIFY_H

/* What the decisions read of a frame. */
typedef struct {
   unsigned long sp;        /* the stack pointer at the call */
   unsigned long ret_addr;  /* 0 unless a real call instruction */
} CPX_Frame;

/* Frame K (0: the bottom) of an array of frames STRIDE bytes apart,
   each starting with a CPX_Frame. */
static inline const CPX_Frame *cpx_frame(const void *frames,
                                         unsigned long stride, unsigned k)
{
   return (const CPX_Frame *)((const char *)frames + k * stride);
}

/* A return to TARGET with stack pointer SP, N frames on the stack: how
   many frames it pops (0: not a return, a jump). */
static inline unsigned cpx_return_pops(const void *frames,
                                       unsigned long stride, unsigned n,
                                       unsigned long sp, unsigned long target)
{
   unsigned up, pops = 1;
   const CPX_Frame *top;

   if (n == 0)
      return 1;                 /* an underflow */
   up = n - 1;
   top = cpx_frame(frames, stride, up);
   if (sp < top->sp)
      return 0;
   if (top->sp != sp)
      return 1;                 /* above it: the frames left go first */
   for (;;) {
      if (top->ret_addr == target)
         return pops;
      if (up == 0)
         return 0;
      top = cpx_frame(frames, stride, --up);
      if (top->sp != sp)
         return 0;
      pops++;
   }
}

/* Whether a jump to a target that is a function's first instruction
   (TO_ENTRY), in the same section kind (SAME_SECT) and object
   (SAME_OBJ) as the jump, is taken as a call. */
static inline int cpx_jump_is_call(int to_entry, int same_sect, int same_obj)
{
   return to_entry || !same_sect || !same_obj;
}

/* How many of the N frames a stack pointer SP has left, and MINPOPS
   more whose stack pointer is SP: the pops before an exit is
   followed. */
static inline unsigned cpx_left_frames(const void *frames,
                                       unsigned long stride, unsigned n,
                                       unsigned long sp, unsigned minpops)
{
   unsigned pops = 0;
   while (pops < n) {
      const CPX_Frame *top = cpx_frame(frames, stride, n - 1 - pops);
      if (top->sp < sp || (top->sp == sp && pops < minpops))
         pops++;
      else
         break;
   }
   return pops;
}

#endif /* CP_CLASSIFY_H */
