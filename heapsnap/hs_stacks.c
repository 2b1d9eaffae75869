/* hs_stacks.c: --stacks=yes: the stack bytes of every thread, and each
   thread's high-water mark with the call stack there.

   Copyright (C) 2026 The heapsnap/callprof developers.
   SPDX-License-Identifier: GPL-2.0-or-later

   What is counted is Massif's: every move of a thread's stack pointer
   (down as it grows, up as it shrinks, and the same for signal frames)
   but those the core takes for a switch of stacks (see "The registered
   stacks" below), and the stack bytes of a thread are the sum of those
   moves since it started: the bytes between where its stack pointer was
   when it first ran and where it is now.  The total of all threads is
   HS_(stacks_B), which every snapshot records as mem_stacks_B.  A thread
   that exits leaves counted the little between its start and its stack
   pointer at exit (no move takes it back), in heapsnap as in Massif: on
   tests/progs/cxxwork, whose three threads exit before the peak, 288
   bytes in all.

   Massif has the core report the moves, a call for each; heapsnap's own
   pass (hs_sppass.c) reports them from generated code, a call for each
   group of moves in one direction (a function's pushes and its frame).
   Signal frames the core reports (new_mem_stack_signal and
   die_mem_stack_signal).  A program moves its stack pointer on nearly
   every call and return, so these reports are the hottest code of the
   tool, and they stay cheap:
   - the running thread's record is found through a pointer set when a
     thread starts running client code, not looked up per move;
   - the snapshot functions are called only when they would do something:
     the regular snapshot when its time has come (HS_(snap_due)(), a
     compare), the peak check before a move up only when the total is
     above the peak threshold (a compare with HS_(snap_peak_above));
   - a move that the core would check costs two compares more while the
     stack pointer stays in the current stack.
   So a report costs a few adds and two or three compares.

   High-water marks, beyond Massif.  Each thread's deepest stack bytes
   are exact, and so is the call stack there, for little cost: a move
   below the thread's mark only notes the new mark (pending); the call
   stack is unwound (VG_(get_StackTrace)) at the first move back up,
   while the stack pointer is still at the mark.  So a descent to a new
   mark costs one unwind, not one per call on the way down, and a thread
   that stays above its mark costs none.

   The unwind starts from the registers the core keeps in the thread's
   state in the middle of a translated block, where only the stack
   pointer is exact (VexRegUpdSpAtMemAccess, Massif's setting and
   heapsnap's).  The program counter there is wherever the block last
   left it, and the unwinder needs it to find the frame's layout (the
   call frame information of the instruction).  So heapsnap's pass
   writes the program counter before each report of a move that may go
   up (the unwinding is done at those only): a store of a constant.
   The top frame of a mark's stack is then the instruction that leaves
   the mark (the return, the pop, the add), at its line, and its callers
   are unwound from there: the same stack as with every register exact
   at every instruction (tests/heapsnap/stacks_exact).  Asking the core
   to keep the program counter and frame pointer exact at every memory
   access instead (as Memcheck does: VexRegUpdUnwindregsAtMemAccess)
   costs most loads and stores a store of their own, and made
   --stacks=yes 2 to 6% slower (docs/benchmarks.md).  What that kept and
   this does not: the frame pointer.  A function that keeps its frame in
   %rbp (one with a variable-size or over-aligned frame) and leaves its
   deepest point in the same superblock as it set %rbp, with no branch
   between, can have %rbp stale at the move, and the callers above it
   wrong.

   The companion file.  HS_(stacks_write_peaks)() writes, beside the main
   file and named like it plus ".stacks", one detailed snapshot per thread
   that ran, in Massif's format: mem_heap_B is the thread's mark, the tree
   is its call stack at the mark, time is when the mark was reached.  The
   snapshots are in time order, so ms_print and massif-visualizer read it
   as any Massif file. */

#include "pub_tool_basics.h"
#include "pub_tool_aspacemgr.h"
#include "pub_tool_debuginfo.h"
#include "pub_tool_libcassert.h"
#include "pub_tool_libcbase.h"
#include "pub_tool_libcprint.h"
#include "pub_tool_machine.h"
#include "pub_tool_mallocfree.h"
#include "pub_tool_options.h"
#include "pub_tool_stacktrace.h"
#include "pub_tool_threadstate.h"
#include "pub_tool_tooliface.h"
#include "pub_tool_xarray.h"

#include "hs.h"
#include "profwriter.h"

SizeT HS_(stacks_B) = 0;

#define INLINE inline __attribute__((always_inline))

#define SIGNAL_NEST 8     /* signal frames remembered per thread */
typedef struct {
   Addr   sp;           /* the stack pointer the signal interrupted */
   SSizeT depth;        /* the thread's stack bytes then */
} SignalFrame;

typedef struct {
   ThreadId tid;
   SSizeT depth;        /* stack bytes now (may dip below 0 at start) */
   SSizeT mark;         /* the deepest depth so far */
   Bool   pending;      /* a new mark, not captured yet */
   ULong  mark_time;    /* when the captured stack was taken */
   Bool   ran;          /* has run client code */
   UInt   n_ips;
   Addr  *ips;          /* --depth frames, allocated at the first capture */
   UInt   n_signals;    /* signal frames on its stack, the newest last */
   SignalFrame signals[SIGNAL_NEST];
} ThreadStack;

static ThreadStack *threads;     /* [VG_N_THREADS], the live ones */
static ThreadStack *running;     /* the thread running client code */
static ThreadId     running_tid;
static XArray      *exited;      /* of ThreadStack: the marks of threads
                                    that have exited */

/*------------------------------------------------------------*/
/*--- The mark                                             ---*/
/*------------------------------------------------------------*/

static void __attribute__((noinline)) capture(ThreadStack *t, ThreadId tid)
{
   static Addr ips[HS_MAX_DEPTH];
   Int n, i;

   t->pending = False;
   t->mark_time = HS_(now)();
   n = VG_(get_StackTrace)(tid, ips, HS_(clo_depth), NULL, NULL, 0);
   /* Nothing below main, as in the heap trees. */
   if (!VG_(clo_show_below_main)) {
      DiEpoch ep = VG_(current_DiEpoch)();
      for (i = 0; i < n; i++) {
         Vg_FnNameKind k = VG_(get_fnname_kind_from_IP)(ep, ips[i]);
         if (k == Vg_FnNameMain || k == Vg_FnNameBelowMain) {
            n = i + 1;
            break;
         }
      }
   }
   if (t->ips == NULL)
      t->ips = VG_(malloc)("hs.stacks.ips", HS_MAX_DEPTH * sizeof(Addr));
   VG_(memcpy)(t->ips, ips, n * sizeof(Addr));
   t->n_ips = n;
}


/*------------------------------------------------------------*/
/*--- The registered stacks                                ---*/
/*------------------------------------------------------------*/

/* Massif's stack bytes are the moves the core reports (m_stacks.c), and
   the core leaves some out.  It checks the moves of unknown size, and
   those of a size it has no callback of its own for (any but 4, 8, 12,
   16, 32, 112, 128, 144 and 160 bytes; which moves these are,
   hs_sppass.c works out as the core does):
   - it keeps a list of stacks (the main stack, from its lowest mapped
     byte to its top; each thread's, from its creation to its exit; those
     the program registers with VALGRIND_STACK_REGISTER) and one current
     stack for the whole process, at first the main one;
   - a checked move to a stack pointer outside the current stack and
     inside another one of the list is a switch: that one becomes the
     current stack, and the move is not counted;
   - a checked move of more than --max-stackframe bytes (2000000 unless
     given) is not counted either, with a warning;
   - as a thread takes the lock to run, its stack pointer is checked as
     for a move of none, so the current stack is then the thread's.
   heapsnap keeps a copy of the list and applies the same rules, so that
   its stack bytes stay Massif's.  What it cannot see: a stack the
   program deregisters or changes (VALGRIND_STACK_DEREGISTER,
   VALGRIND_STACK_CHANGE) stays in the copy as it was registered. */
typedef struct {
   Addr     start, end;      /* lowest and highest byte */
   ThreadId tid;             /* whose: 1 the main stack, 0 the program's */
} Registered;

static XArray *registered;   /* of Registered, oldest first */
static Word    current = -1; /* its index, -1 for none */
static Addr    cur_lo = 1, cur_hi = 0;   /* its bytes (none: empty) */
Word           HS_(sp_max_frame) = 2000000;   /* --max-stackframe */

static Registered *reg_at(Word i)
{
   return VG_(indexXA)(registered, i);
}

static void set_current(Word i)
{
   current = i;
   cur_lo = i < 0 ? 1 : reg_at(i)->start;
   cur_hi = i < 0 ? 0 : reg_at(i)->end;
}

static void add_registered(Addr start, Addr end, ThreadId tid)
{
   Registered r;
   r.start = start;
   r.end = end;
   r.tid = tid;
   VG_(addToXA)(registered, &r);
}

/* The main stack grows down into its reservation as it faults there,
   one mapping below the other. */
static void main_extended(void)
{
   Word i;
   for (i = 0; i < VG_(sizeXA)(registered); i++) {
      Registered *r = reg_at(i);
      NSegment const *seg = VG_(am_find_nsegment)(r->end);
      if (r->tid != 1)
         continue;
      while (seg != NULL && seg->kind == SkAnonC) {
         r->start = seg->start;
         seg = VG_(am_find_nsegment)(seg->start - 1);
      }
      if (i == current)
         set_current(i);
   }
}

/* The program registers a stack (the core has, just before). */
static void program_stack(Addr start, Addr end)
{
   if (start > end) {          /* the core takes either order */
      Addr t = start;
      start = end;
      end = t;
   }
   add_registered(start, end, 0);
}

static void __attribute__((noinline)) complain_switch(Addr from, Addr to)
{
   static Int left = 3;
   if (VG_(clo_verbosity) < 1 || left == 0)
      return;
   left--;
   VG_(umsg)("Warning: the stack pointer moved from %#lx to %#lx, more "
             "than --max-stackframe=%ld bytes: taken as a switch to another "
             "stack, and not counted%s\n", from, to, HS_(sp_max_frame),
             left == 0 ? " (not said again)" : "");
}

static __attribute__((noinline)) Bool moved_away_slow(Addr sp)
{
   Word i;
   main_extended();
   if (sp >= cur_lo && sp <= cur_hi)
      return False;
   for (i = VG_(sizeXA)(registered) - 1; i >= 0; i--)   /* newest first */
      if (sp >= reg_at(i)->start && sp <= reg_at(i)->end)
         break;
   if (i < 0 || i == current)
      return False;
   set_current(i);
   return True;
}

/* Whether a checked move to SP switches stacks (then not counted), as
   the core decides. */
static INLINE Bool moved_away(Addr sp)
{
   if (LIKELY(sp >= cur_lo && sp <= cur_hi))
      return False;
   return moved_away_slow(sp);
}

/*------------------------------------------------------------*/
/*--- Moves of the stack pointer                           ---*/
/*------------------------------------------------------------*/

/* The clock at a report from generated code (GS: the thread's guest
   state; NULL for a report from the core, outside generated code, where
   HS_(guest_instrs_executed) is exact): Massif's, which counts before
   each exit, where heapsnap's clock has the whole superblock counted on
   entry, BEHIND instructions ahead. */
static INLINE ULong clock_at(const void *gs, UWord behind)
{
   return HS_(clock_with)(*HS_(count_slot)(gs)) - behind;
}

/* Before the clock is read: HS_(guest_instrs_executed) made exact. */
static INLINE void clock_exact(const void *gs, UWord behind)
{
   if (gs != NULL && HS_(clock).split)
      HS_(guest_instrs_executed) = clock_at(gs, behind);
}

/* Whether a regular snapshot is due (HS_(snap_due)), the clock made
   exact if it is. */
static INLINE Bool snap_due(const void *gs, UWord behind)
{
   ULong now;
   if (gs == NULL || !HS_(clock).split)
      return HS_(snap_due)();
   now = clock_at(gs, behind);
   if (LIKELY(now < HS_(snap_next_time)))
      return False;
   HS_(guest_instrs_executed) = now;
   return True;
}

static INLINE void grow_by(ThreadStack *t, ThreadId tid, SizeT len,
                           const void *gs, UWord behind)
{
   if (UNLIKELY(t == NULL))
      return;                          /* before the client runs */
   t->depth += len;
   HS_(stacks_B) += len;
   HS_(churn_B) += len;
   if (UNLIKELY(t->depth > t->mark)) {
      t->mark = t->depth;
      t->pending = True;
   }
   if (UNLIKELY(snap_due(gs, behind)))
      HS_(snap_maybe)();
}

static INLINE void shrink_by(ThreadStack *t, ThreadId tid, SizeT len,
                             const void *gs, UWord behind)
{
   if (UNLIKELY(t == NULL))
      return;
   if (UNLIKELY(t->pending)) {
      clock_exact(gs, behind);
      capture(t, tid);                 /* leaving the mark: exact */
   }
   if (UNLIKELY(HS_(heap_B) + HS_(extra_B) + HS_(stacks_B)
                > HS_(snap_peak_above))) {
      clock_exact(gs, behind);
      HS_(snap_peak_check)();
   }
   t->depth -= len;
   HS_(stacks_B) -= len;
   HS_(churn_B) += len;
   if (UNLIKELY(snap_due(gs, behind)))
      HS_(snap_maybe)();
}

/* The stack bytes of thread T taken to TO: a move down or up by the
   difference, or none. */
static void move_to(ThreadStack *t, ThreadId tid, SSizeT to,
                    const void *gs, UWord behind)
{
   if (t->depth > to)
      shrink_by(t, tid, t->depth - to, gs, behind);
   else if (t->depth < to)
      grow_by(t, tid, to - t->depth, gs, behind);
}

/* A jump of the stack pointer to SP, at or above where the newest
   signal handled on this thread found it (by no more than
   --max-stackframe: a handler on an alternate stack mapped above the
   thread's stack is not left by its own moves): its handler (and any
   inside it) was left without returning (a longjmp out of it, on its
   stack or off it).  The stack bytes are those at the signal, less the bytes
   from where it found the pointer up to SP.  (A jump out of a handler
   on another stack would otherwise be a switch of stacks, and the
   handler's bytes would stay counted.) */
static void __attribute__((noinline)) left_handler(ThreadStack *t, Addr sp,
                                                  const void *gs,
                                                  UWord behind)
{
   SignalFrame f;
   do
      f = t->signals[--t->n_signals];
   while (t->n_signals > 0 && sp >= t->signals[t->n_signals - 1].sp);
   move_to(t, t->tid, f.depth - (SSizeT)(sp - f.sp), gs, behind);
}

/* The moves heapsnap's pass reports (hs_sppass.c). */
VG_REGPARM(3) void HS_(sp_grow)(const void *gs, UWord total, UWord behind)
{
   grow_by(running, running_tid, total, gs, behind);
}

VG_REGPARM(3) void HS_(sp_shrink)(const void *gs, UWord total, UWord behind)
{
   shrink_by(running, running_tid, total, gs, behind);
}

VG_REGPARM(3) void HS_(sp_grow_checked)(const void *gs, Addr sp, UWord total,
                                        UWord plan, UWord behind)
{
   UWord len = HS_SP_CHECKED_LEN(plan);
   if (moved_away(sp - HS_SP_CHECKED_AFTER(plan) - len))
      total -= len;
   if (total > 0)
      grow_by(running, running_tid, total, gs, behind);
}

VG_REGPARM(3) void HS_(sp_shrink_checked)(const void *gs, Addr sp,
                                          UWord total, UWord plan,
                                          UWord behind)
{
   UWord len = HS_SP_CHECKED_LEN(plan);
   if (moved_away(sp + HS_SP_CHECKED_AFTER(plan) + len))
      total -= len;
   if (total > 0)
      shrink_by(running, running_tid, total, gs, behind);
}

VG_REGPARM(3) void HS_(sp_unknown)(const void *gs, Addr old_SP, Addr new_SP,
                                   UWord behind)
{
   Word delta = (Word)new_SP - (Word)old_SP;
   if (UNLIKELY(running != NULL && running->n_signals > 0
                && new_SP - running->signals[running->n_signals - 1].sp
                   <= (UWord)HS_(sp_max_frame))) {
      left_handler(running, new_SP, gs, behind);
      return;
   }
   if (moved_away(new_SP))
      return;
   if (delta < -HS_(sp_max_frame) || delta > HS_(sp_max_frame)) {
      complain_switch(old_SP, new_SP);
      return;
   }
   if (delta > 0)
      shrink_by(running, running_tid, delta, gs, behind);
   else if (delta < 0)
      grow_by(running, running_tid, -delta, gs, behind);
}

/* Signal frames.  The core reports a frame as it pushes it for thread
   TID (which may not be the one that ran last), and again as the
   handler's rt_sigreturn pops it, with the stack pointer the signal
   interrupted in the thread's state both times.  Its two reports do
   not agree: the pop is 128 bytes longer than the push (the red zone
   below the frame), and the handler's return into the frame's restorer
   has moved the stack pointer up 8 bytes already.  Counted as reported,
   as Massif counts them, each signal handled takes 136 bytes off the
   stack bytes for good: they drift below the program's stack, and below
   zero (Massif then stops on an assertion).  So heapsnap notes the
   stack bytes at each push, and at the pop goes back to them: the
   stack pointer is back where the signal found it.  A handler left by
   a longjmp ends at the jump (left_handler); a note left over (a jump
   of known size out of a handler) is dropped by a later pop that finds
   the stack pointer above it. */
static void new_stack_signal(Addr a, SizeT len, ThreadId tid)
{
   ThreadStack *t = running ? &threads[tid] : NULL;
   HS_(fast_clock_at_signal)(tid);
   if (t != NULL) {
      if (t->n_signals == SIGNAL_NEST) {    /* the oldest makes room */
         VG_(memmove)(&t->signals[0], &t->signals[1],
                      (SIGNAL_NEST - 1) * sizeof t->signals[0]);
         t->n_signals--;
      }
      t->signals[t->n_signals].sp = VG_(get_SP)(tid);
      t->signals[t->n_signals].depth = t->depth;
      t->n_signals++;
   }
   grow_by(t, tid, len, NULL, 0);
}

static void die_stack_signal(Addr a, SizeT len)
{
   ThreadId tid = VG_(get_running_tid)();
   ThreadStack *t = running ? &threads[tid] : NULL;
   Addr sp = VG_(get_SP)(tid);
   if (t != NULL)
      while (t->n_signals > 0 && t->signals[t->n_signals - 1].sp < sp)
         t->n_signals--;           /* notes of handlers left unpopped */
   if (t == NULL || t->n_signals == 0
       || t->signals[t->n_signals - 1].sp != sp) {
      shrink_by(t, tid, len, NULL, 0);   /* no note: as reported */
      return;
   }
   move_to(t, tid, t->signals[--t->n_signals].depth, NULL, 0);
}

/*------------------------------------------------------------*/
/*--- Threads                                              ---*/
/*------------------------------------------------------------*/

/* The stacks the core registers itself: the main one before the program
   starts, which is the current stack then; a thread's as the thread is
   made (its top, and down to the start of its mapping), which nothing
   can reach before the thread runs. */
static void thread_registered(ThreadId tid)
{
   Addr top = VG_(thread_get_stack_max)(tid);
   SizeT size = VG_(thread_get_stack_size)(tid);
   if (tid == 1) {
      add_registered(top, top, 1);
      main_extended();
      set_current(VG_(sizeXA)(registered) - 1);
   } else if (size > 0)
      add_registered(top - size + 1, top, tid);
}

void HS_(stacks_start_client_code)(ThreadId tid)
{
   running_tid = tid;
   running = &threads[tid];
   if (!running->ran) {
      running->ran = True;
      running->tid = tid;
      if (HS_(clo_pages_as_heap))
         HS_(pages_stack_started)(tid);
      thread_registered(tid);
   }
   /* The core checks a thread's stack pointer as it takes the lock to
      run, as a move of none (scheduler.c): the current stack becomes
      the thread's. */
   (void)moved_away(VG_(get_SP)(tid));
}

/* A thread that exits leaves its stack bytes counted (see above): the
   core reports no move for it, so Massif's total keeps them.  Its mark
   stays in its record until a new thread gets its id: the main thread
   runs again after its exit, for the core's freeres calls. */
static void thread_exit(ThreadId tid)
{
   Word i;
   /* The core deregisters the stack of a thread but the main one. */
   for (i = VG_(sizeXA)(registered) - 1; i >= 0 && tid != 1; i--)
      if (reg_at(i)->tid == tid) {
         VG_(removeIndexXA)(registered, i);
         set_current(current == i ? -1 : current > i ? current - 1 : current);
         break;
      }
}

static void thread_create(ThreadId parent, ThreadId child)
{
   ThreadStack *t = &threads[child];
   if (t->ran && t->n_ips > 0)
      VG_(addToXA)(exited, t);
   VG_(memset)(t, 0, sizeof *t);
}

void HS_(stacks_post_clo_init)(void)
{
   const HChar *max_frame;
   if (!HS_(clo_stacks))
      return;
   threads = VG_(calloc)("hs.stacks.threads", VG_N_THREADS,
                         sizeof(ThreadStack));
   exited = VG_(newXA)(VG_(malloc), "hs.stacks.exited", VG_(free),
                       sizeof(ThreadStack));
   /* Until the client runs, running is NULL: the core moves the stack
      pointer while it sets the client up, and those moves are not the
      client's (Massif ignores them too). */

   registered = VG_(newXA)(VG_(malloc), "hs.stacks.registered", VG_(free),
                           sizeof(Registered));
   max_frame = HS_(core_arg)("--max-stackframe=");
   if (max_frame != NULL)
      HS_(sp_max_frame) = VG_(strtoll10)(max_frame, NULL);
   /* The core reports no move of the stack pointer, as heapsnap
      registers none of its callbacks for them: heapsnap's pass does. */
   VG_(track_register_stack)(program_stack);
   VG_(track_new_mem_stack_signal)(new_stack_signal);
   VG_(track_die_mem_stack_signal)(die_stack_signal);
   VG_(track_pre_thread_ll_exit)(thread_exit);
   VG_(track_pre_thread_ll_create)(thread_create);
}

/*------------------------------------------------------------*/
/*--- The companion file                                   ---*/
/*------------------------------------------------------------*/

/* The file, in Massif's format:

      desc: --stacks=yes ... (stack high-water marks, one per thread)
      cmd: ./prog args
      time_unit: i
      #-----------
      snapshot=0                       one per thread, in time order
      #-----------
      time=123456                      when its mark was reached
      mem_heap_B=40960                 the thread's mark
      mem_heap_extra_B=0
      mem_stacks_B=0
      heap_tree=detailed               "peak" for the deepest thread
      n1: 40960 (stack high-water mark of thread 1) its call stack there
       n1: 40960 0x...: recurse (stackdeep.c:33)
        ...
*/
static Int by_time(const void *a, const void *b)
{
   const ThreadStack *x = a, *y = b;
   return x->mark_time < y->mark_time ? -1 : x->mark_time > y->mark_time;
}

void HS_(stacks_write_peaks)(const HChar *main_path)
{
   HChar tmpl[4096], path[4096], desc[4096], cmd[4096], label[100];
   XArray *all;
   PW_File *f;
   PW_Sink *out;
   Word i, n, deepest = 0, used = 0;

   if (threads == NULL)
      return;
   all = VG_(cloneXA)("hs.stacks.all", exited);
   for (i = 1; i < VG_N_THREADS; i++)
      if (threads[i].ran && threads[i].n_ips > 0)
         VG_(addToXA)(all, &threads[i]);
   VG_(setCmpFnXA)(all, by_time);
   VG_(sortXA)(all);
   n = VG_(sizeXA)(all);
   for (i = 0; i < n; i++)
      if (((ThreadStack *)VG_(indexXA)(all, i))->mark
          > ((ThreadStack *)VG_(indexXA)(all, deepest))->mark)
         deepest = i;

   VG_(snprintf)(tmpl, sizeof tmpl, "%s.stacks", main_path);
   f = pw_vg_open_output(tmpl, "heapsnap", PW_MODE_MASSIF, path,
                         sizeof path);
   if (f == NULL) {
      VG_(deleteXA)(all);
      return;
   }
   out = pw_file_sink(f);
   desc[0] = '\0';
   for (i = 0; i < VG_(sizeXA)(HS_(given_args)) && used < sizeof desc; i++)
      used += VG_(snprintf)(desc + used, sizeof desc - used, "%s%s",
                            i ? " " : "",
                            *(const HChar **)VG_(indexXA)(HS_(given_args),
                                                          i));
   if (used < sizeof desc)
      VG_(snprintf)(desc + used, sizeof desc - used,
                    " (stack high-water marks, one per thread)");
   pw_vg_client_cmd(cmd, sizeof cmd);
   pw_ms_header(out, desc, cmd,
                HS_(clo_time_unit) == HS_TimeI  ? "i"
                : HS_(clo_time_unit) == HS_TimeMS ? "ms" : "B");
   for (i = 0; i < n; i++) {
      ThreadStack *t = VG_(indexXA)(all, i);
      PW_MsStack stack;
      stack.ips = t->ips;
      stack.n_ips = t->n_ips;
      stack.bytes = t->mark;
      VG_(snprintf)(label, sizeof label,
                    "(stack high-water mark of thread %u) its call stack "
                    "there", t->tid);
      pw_ms_snapshot(out, i, t->mark_time, t->mark, 0, 0,
                     i == deepest ? "peak" : "detailed");
      pw_ms_tree(out, &stack, 1, t->mark, 0, 0, HS_(clo_threshold), label,
                 pw_vg_describe_ip, NULL);
   }
   VG_(deleteXA)(all);
   if (pw_file_commit(f) == 0 && VG_(clo_verbosity) > 0)
      VG_(umsg)("heapsnap: stack high-water marks written to %s\n", path);
}
