/* cp_calls.c: the shadow call stacks.

   Copyright (C) 2026 The heapsnap/callprof developers.
   SPDX-License-Identifier: GPL-2.0-or-later

   Each thread has a stack of frames, one per call Callgrind would see
   open, and a context (CP_(cur_ctx) while it runs; see cp.h).  The
   decisions are Callgrind's (callgrind/bbcc.c setup_bbcc, callstack.c),
   taken when a block leaves by an exit that may change function
   (transition, through one helper per kind of exit):

   - A return is real when SP left the top frame (SP above the frame's
     SP), or SP equals the frame's and the target is the return address
     of that frame or of frames below with the same SP.  Else it is a
     jump ("return without call").
   - A jump (not a call, not a real return) is taken as a call when it
     goes into another object or section kind, to a function's first
     instruction (tail calls, PLT stubs) or is a return without call.
     Such an emulated call gets the SP of the frame it is made in, so
     it ends with that frame.  Leaving _dl_runtime_resolve by its jump
     ends its frame first, and the call is made from its caller's site.
   - Every transition first pops the frames whose SP is below the
     current SP: returns, and also longjmp and C++ exceptions, which
     leave frames by resetting SP.  A jump or call that leaves frames so
     is a return, not a call (longjmp's jump back into main).  So does
     the end of every system call (CP_(post_syscall)): Callgrind pops
     at every block, and glibc's vfork leaves its frame by popping its
     return address before its system call.
   - Calling a skipped function (PLT code, --skip-plt=yes) pushes a
     frame without an arc and keeps the context, so the stub's
     instructions count for the caller; a call from skipped code is
     made from the last non-skipped call site.
   - A return with no frame to return to (in a signal handler) is an
     "underflow": a call is assumed from the instruction before the
     return address, and the context becomes the function returned to.

   Inclusive cost of an arc: the thread's instructions between the push
   and the pop of its frame.  A thread's instruction count is CP_(ir)
   minus the instructions of other threads (and of signal handlers,
   which Callgrind counts apart): "others_ir" below, adjusted at every
   thread switch.  A signal handler runs on a state of its own, pushed
   at delivery and popped at its return, as in Callgrind.

   Callgrind credits a block's instructions when the thread runs its next
   block; a thread's last block (its exit system call, a handler's
   sigreturn) is therefore never counted.  We count at run start, so we
   take those blocks back out (uncount_sys).

   Events other than Ir (Ge, sysCount, sysTime, sysCpuTime) are counted
   per thread by helpers (Thread.ev), and inclusive costs of arcs take
   them as they take Ir.  While a thread does not collect, its
   instruction count stands still (its others_ir grows by what it runs), so
   its open calls gain nothing.

   With --folded-out-file, each thread also walks a trie of call paths
   (CP_Path, keyed by parent path and callee): a frame pushed enters the
   child path, and the path gets the frame's inclusive cost when it is
   popped (or flushed by a dump), so a path's self cost is its inclusive
   cost less its children's.  The cost is Ir, or the event given with
   --folded-event (path_cost).

   Speed.  On call-heavy code (an interpreter, C++) the transitions are
   most of the tool's own time.  A call and its return cost 33 ns on a
   loop that only calls a small function, where all they touch is in
   the cache: most of it was the calls between the small functions
   below.  So what a call or a return runs is inlined into
   transition (HOT), with only the misses of its caches out of line
   (arc_find, grow_active, CP_(fn_miss), CP_(loc_miss)): 20 ns.  Each
   kind of exit has a helper of its own (CP_(transition_call), _ret,
   _jump), compiled with its own paths only.  With the helper's body
   empty that loop runs at --tool=none's speed: the call into the
   helper costs next to nothing, its work is all of it.
   On larger programs each object a call touches is also a cache miss, so a
   call touches as few as it can.  A real return pops its frames without
   looking its target up; a call looks up only the target's function, first
   in what its exit remembers of its last target (exit_fn; a jump its
   location, exit_loc), then through a direct-mapped cache (CP_(fn_at)),
   and its arc in what the exit remembers of its last call (its caller's
   and callee's contexts, in the exit, which the call reads anyway, so that
   no decision waits on the arc, which the call still counts), then through
   another direct-mapped cache (arc_get); thread 1's count of open calls of
   a function is in the function (CP_Fn.main_open), beside what else a call
   reads of it; a frame holds the run's events only (frame_size) and where
   the callee's open calls are counted, so that its return reads nothing
   else of the callee; a return restores the caller's context from its
   frame, its recursion level recomputed only when open-call counts changed
   other than by pushes and their pops since the call (levels_gen); the
   call site of skipped code is mirrored in CP_(skip_site) for the blocks'
   inline check (cp.h, CP_Foreign); and the count of open calls per
   function (for the entry and exit actions) is kept only when some
   function has an action; a call through a PLT stub and the stub's jump
   are one transition, and the stub's block does nothing more unless it
   is simulated (see Folding).
   docs/benchmarks.md has the profiles and what each step gained. */

#include "pub_tool_basics.h"
#include "pub_tool_aspacemgr.h"
#include "pub_tool_hashtable.h"
#include "pub_tool_libcassert.h"
#include "pub_tool_libcbase.h"
#include "pub_tool_libcprint.h"
#include "pub_tool_libcproc.h"
#include "pub_tool_options.h"
#include "pub_tool_machine.h"
#include "pub_tool_mallocfree.h"
#include "pub_tool_threadstate.h"
#include "pub_tool_transtab.h"
#include "pub_tool_vki.h"
#include "pub_tool_vkiscnums.h"

#include "cp.h"
#include "cp_classify.h"
#include "ir_counter.h"

/* What a call or a return runs, inlined into transition: there a
   function call costs as much as the work it does. */
#define HOT static inline __attribute__((always_inline))

/*------------------------------------------------------------*/
/*--- Types                                                ---*/
/*------------------------------------------------------------*/

/* Where a call is made from: the caller's context and the exit. */
typedef struct {
   CP_Ctx *ctx;        /* NULL: none */
   Addr   instr;
   Addr   ret_addr;    /* 0 unless a real call instruction */
} Site;

/* A frame of a thread's call stack.  Frames are frame_size bytes apart:
   ENTER has the run's events only (one with plain Ir), so a frame is
   112 bytes, where one with room for every event took five cache lines
   of every call and return. */
typedef struct {
   CPX_Frame at;       /* first: what cp_classify.h reads (the stack
                          pointer, site.ret_addr) */
   CP_Arc *arc;        /* NULL: a skipped function */
   CP_Path *path;      /* NULL unless --folded-out-file */
   Site    site;
   CP_Ctx *saved_ctx;
   Site    nonskipped;
   UInt    fn_sp;      /* height of the function stack at the call */
   UInt    gen;        /* the thread's levels_gen at the call */
   UInt   *deeper;     /* the callee's open calls, when the call raised
                          them (a return needs no more of the callee
                          than that); else NULL */
   ULong   enter[];    /* the thread's costs at the call, CP_(n_ev) */
} Frame;

static SizeT frame_size;   /* calls_init */
#define FRAME(t, i) ((Frame *)((HChar *)(t)->stack + (SizeT)(i) * frame_size))

/* What a signal handler's delivery saved of the interrupted state. */
typedef struct {
   CP_Ctx   *ctx;
   Site      nonskipped;
   UInt      bottom;
   ULong     others_ir, ir_at;
   CP_Block *sys_block;
   ULong    *sys_count;
   UInt      sys_no;
   CP_Path  *path;
   ULong     path_enter;
   UInt      fn_sp;
   ULong     ev[CP_MAX_EV];  /* the thread's events other than Ir */
} SigSave;

#define MAX_SIG_DEPTH 64

typedef struct {
   Bool      exists;
   Bool      reused_slot;  /* a new thread in a dead one's slot */
   Frame    *stack;
   UInt      sp, size;
   UInt      bottom;       /* frames below belong to interrupted code */
   CP_Ctx   *ctx;          /* while not running */
   Site      nonskipped;
   ULong     others_ir;    /* of CP_(ir): other threads' and handlers' */
   ULong     stopped;      /* CP_(ir) when it last stopped running */
   CP_Block *sys_block;    /* in a system call from this block */
   ULong    *sys_count;
   UInt      sys_no;
   SigSave  *sig;          /* MAX_SIG_DEPTH, from the first signal on */
   UInt      n_sig;
   Bool      collect;      /* --collect-atstart, toggled */
   ULong     off_ir;       /* thread_ir() when collection stopped */
   ULong     ev[CP_MAX_EV];/* events but Ir, while collecting */
   UInt     *active;       /* CP_Fn.id -> its open calls (thread 1's
                              are CP_Fn.main_open) */
   UInt      n_active;
   UInt      levels_gen;   /* raised when active changes other than by a
                              push and the pop of the same frame */
   /* A call into a PLT stub folded with the stub's jump (see Folding):
      the jump's target, 0 when none is pending; the stub's function;
      the context the jump enters. */
   Addr      fold_target;
   CP_Fn    *fold_stub;
   CP_Ctx   *fold_ctx;
   ULong    *stub_count;   /* folded at the call: the stub's counters */
   CP_Fn   **fns;          /* --separate-callers: function stack */
   UInt      fn_sp, fn_size;
   CP_Path  *path, *root;  /* --folded-out-file */
   ULong     root_enter;   /* thread_ir() at the last flush of root */
   struct vki_timespec sys_start, sys_cpu_start;
} Thread;

static Thread *threads;    /* VG_N_THREADS, indexed by ThreadId */
ULong CP_(blocks_out);     /* cp.h */
/* By thread, when its call stack last started afresh (set_instrument):
   thread_ir(), then the other events; NULL until a restart.  Kept apart
   from Thread, whose size places what every call and every simulated
   access touches in the cache lines: these 200 bytes in Thread made
   --cache-sim=yes 4.6% slower on perl and 2.6% on C++ (paired, pinned
   runs); here, 1.00x and 0.98x.  (Thread aligned to 64 bytes instead
   gained nothing: perl 0.98x, C++ 1.01x, sqlite3 1.01x.) */
static ULong *restarts;
#define RESTART(t) (restarts + ((t) - threads) * (1 + CP_MAX_EV))
static CP_Fn   sig_mark;   /* the path of a signal handler */
static Thread *running;
CP_Ctx         CP_(reused_slot_mark);   /* cp.h */

/*------------------------------------------------------------*/
/*--- Arcs                                                 ---*/
/*------------------------------------------------------------*/

typedef struct ArcNode {
   struct ArcNode *next;   /* VgHashNode */
   UWord           key;
   CP_Ctx         *caller;
   CP_Arc          arc;    /* last: its inclusive costs follow */
} ArcNode;

static VgHashTable *arcs;

/* Every call looks its arc up: as for locations (cp_bb.c), a
   direct-mapped cache of the last arc per slot spares most calls the
   table's lookup.  Arcs are never removed. */
#define ARC_CACHE_BITS 12
static ArcNode *arc_cache[1 << ARC_CACHE_BITS];

#define ARC_IS(n) ((n)->key == key && (n)->caller == caller && \
                   (n)->arc.site == site && (n)->arc.callee == callee && \
                   (n)->arc.tid == tid)

static CP_Arc *arc_find(CP_Ctx *caller, Addr site, CP_Ctx *callee,
                        Addr target, UInt tid, UWord key, ArcNode **slot);

HOT CP_Arc *arc_get(CP_Ctx *caller, Addr site, CP_Ctx *callee, Addr target)
{
   UInt tid = CP_(cost_tid)();
   UWord key = (((UWord)caller * 31 + site) * 31 + (UWord)callee) * 31 + tid;
   ArcNode **slot = &arc_cache[tp_cache_slot(key, ARC_CACHE_BITS)];
   ArcNode *n = *slot;
   if (LIKELY(n != NULL && ARC_IS(n)))
      return &n->arc;
   return arc_find(caller, site, callee, target, tid, key, slot);
}

/* Not in the cache: the table, or a new arc. */
static __attribute__((noinline))
CP_Arc *arc_find(CP_Ctx *caller, Addr site, CP_Ctx *callee, Addr target,
                 UInt tid, UWord key, ArcNode **slot)
{
   ArcNode *n;
   for (n = VG_(HT_lookup)(arcs, key); n; n = n->next)
      if (ARC_IS(n)) {
         *slot = n;
         return &n->arc;
      }
   n = CP_(perm)(sizeof *n + CP_(n_ev) * sizeof(ULong));
   n->key = key;
   n->caller = caller;
   n->arc.site = site;
   n->arc.callee = callee;
   n->arc.target = target;
   n->arc.tid = tid;
   n->arc.next = caller->arcs;
   caller->arcs = &n->arc;
   VG_(HT_add_node)(arcs, n);
   *slot = n;
   return &n->arc;
}
#undef ARC_IS

/*------------------------------------------------------------*/
/*--- Call paths (--folded-out-file)                       ---*/
/*------------------------------------------------------------*/

typedef struct PathNode {
   struct PathNode *next;  /* VgHashNode */
   UWord            key;
   CP_Path          path;
} PathNode;

static VgHashTable *paths;
static CP_Path     *roots;   /* linked by sibling */

/* The child of PARENT (NULL: a new root) for FN or LABEL. */
static CP_Path *path_get(CP_Path *parent, CP_Fn *fn, const HChar *label)
{
   UWord key = (UWord)parent * 31 + (UWord)fn;
   PathNode *n;

   if (parent)
      for (n = VG_(HT_lookup)(paths, key); n; n = n->next)
         if (n->key == key && n->path.parent == parent && n->path.fn == fn)
            return &n->path;
   n = CP_(perm)(sizeof *n);
   n->key = key;
   n->path.parent = parent;
   n->path.fn = fn;
   n->path.label = label;
   if (parent) {
      n->path.sibling = parent->child;
      parent->child = &n->path;
      VG_(HT_add_node)(paths, n);
   } else {
      n->path.sibling = roots;
      roots = &n->path;
   }
   return &n->path;
}

CP_Path *CP_(path_roots)(void)
{
   return roots;
}

/*------------------------------------------------------------*/
/*--- Threads                                              ---*/
/*------------------------------------------------------------*/

static Thread *thread_get(ThreadId tid)
{
   Thread *t = &threads[tid];
   if (!t->exists) {
      t->exists = True;
      t->size = 64;
      t->stack = VG_(malloc)("cp.calls.thread.1", t->size * frame_size);
      t->others_ir = t->stopped = CP_(ir);
      t->collect = CP_(clo_collect_atstart);
      t->off_ir = 0;
      if (paths)
         t->path = t->root = path_get(NULL, NULL, NULL);
   }
   return t;
}

static Thread *current(void);
HOT Int unwind(Thread *t, Addr sp, Int minpops);
static void unfold(Thread *t);

Addr CP_(skip_site);
Bool CP_(running_collects);
UInt CP_(running_cost_tid) = 1;

/* T's call site for skipped code (a ctx of NULL: none), mirrored in
   CP_(skip_site) for the running thread (cp.h). */
static void set_nonskipped(Thread *t, Site s)
{
   t->nonskipped = s;
   if (t == running)
      CP_(skip_site) = s.ctx ? s.instr : 0;
}

/* Recursion levels, as in Callgrind (fn.c's per-thread active counts,
   bbcc.c setup_bbcc): a call of FN raises FN's count of open calls in
   the thread, its return lowers it, and the context is FN at that
   level (at most FN->max_rec).  Only calls and returns change it, so
   it is chosen here, never in the blocks. */
static void grow_active(Thread *t, CP_Fn *fn);

HOT UInt *active_of(Thread *t, CP_Fn *fn)
{
   if (t == &threads[1])
      return &fn->main_open;
   if (UNLIKELY(fn->id >= t->n_active))
      grow_active(t, fn);
   return &t->active[fn->id];
}

static __attribute__((noinline)) void grow_active(Thread *t, CP_Fn *fn)
{
   UInt n = t->n_active ? t->n_active : 256, i;
   UWord old = (UWord)t->active;
   while (n <= fn->id)
      n *= 2;
   t->active = VG_(realloc)("cp.calls.active.1", t->active,
                            n * sizeof(UInt));
   VG_(memset)(t->active + t->n_active, 0,
               (n - t->n_active) * sizeof(UInt));
   for (i = 0; i < t->sp; i++) {   /* its frames point into it */
      Frame *f = FRAME(t, i);
      if (f->deeper)
         f->deeper = t->active + ((UWord)f->deeper - old) / sizeof(UInt);
   }
   t->n_active = n;
}

/* The context C (any level, or NULL, or a mark) at the level of its
   function's open calls in T; a function with none counts as one open
   call from then on (Callgrind's "level == 0"). */
static CP_Ctx *ctx_at_level(Thread *t, CP_Ctx *c)
{
   UInt *a, max;
   if (c == NULL || c->func == NULL || c->func->max_rec <= 1)
      return c;
   max = c->func->max_rec;
   a = active_of(t, c->func);
   if (*a == 0) {
      *a = 1;
      t->levels_gen++;
   }
   return CP_(ctx_level)(c->base, *a < max ? *a : max);
}

/* Callers (--separate-callers), as Callgrind's context.c: each thread
   has a stack of the functions called (a function calling itself is not
   pushed again, skipped functions are not pushed, a signal handler
   starts above a NULL), and a call's context is its function with the
   functions below it, up to its max_callers or the NULL.  A call
   pushes, its return restores the height. */
static void fn_push(Thread *t, CP_Fn *fn)
{
   if (t->fn_sp > 0 && fn && t->fns[t->fn_sp - 1] == fn)
      return;
   if (t->fn_sp == t->fn_size) {
      t->fn_size = t->fn_size ? 2 * t->fn_size : 64;
      t->fns = VG_(realloc)("cp.calls.fns.1", t->fns,
                            t->fn_size * sizeof(CP_Fn *));
   }
   t->fns[t->fn_sp++] = fn;
}

/* The context (level 1) of the function on top of T's stack. */
static CP_Ctx *top_ctx(Thread *t)
{
   CP_Fn *fn = t->fns[t->fn_sp - 1];
   UInt n = 0;
   while (n < fn->max_callers && n + 1 < t->fn_sp &&
          t->fns[t->fn_sp - 2 - n] != NULL)
      n++;
   if (n == 0)
      return fn->ctx;
   {
      CP_Fn *callers[n];
      UInt i;
      for (i = 0; i < n; i++)
         callers[i] = t->fns[t->fn_sp - 2 - i];
      return CP_(callers_ctx)(fn, callers, n);
   }
}

CP_Ctx *CP_(level_ctx)(CP_Fn *fn)
{
   Thread *t = current();
   if (CP_(separate_callers_on)) {
      fn_push(t, fn);
      return ctx_at_level(t, top_ctx(t));
   }
   return ctx_at_level(t, fn->ctx);
}

/* The thread's instructions so far, counting or not. */
HOT ULong raw_ir(const Thread *t)
{
   return (t == running ? CP_(ir) : t->stopped) - t->others_ir;
}

/* The thread's instructions so far (as Callgrind's per-thread cost):
   standing still while it does not collect. */
HOT ULong thread_ir(const Thread *t)
{
   return t->collect ? raw_ir(t) : t->off_ir;
}

/* The thread's cost so far in the event of the folded stacks. */
static ULong path_cost(const Thread *t)
{
   return CP_(folded_ev) == 0 ? thread_ir(t) : t->ev[CP_(folded_ev)];
}

/* The events past Ir of a call's frame: copied at every call, charged
   at every return.  With --cache-sim=yes alone there are eight, and
   these loops were 6% of a --cache-sim=yes run on sqlite3 (the bound:
   the run without them, paired and pinned, 0.94x).  Over CP_(n_ev)
   they reloaded the count and the thread's events at every event
   (with -fno-strict-aliasing a store to a cost may change either).
   With the count a constant (SIM_EV) they are straight-line scalar
   code: sqlite3 0.97x, C++ 0.95x, no change without simulation.  Not
   restrict: then gcc makes vector moves of them, which gained only
   0.994x (the 16-byte loads of the thread's events probably cannot
   take them from the simulation helpers' 8-byte stores just made).
   Charging an event only when it changed, to touch less of the arc,
   was slower (1.014x).  But the misses are charged only when an L1
   miss count changed since the call (charge): an LL event is counted
   only with an L1 miss (cp_sim.c, count), so unchanged L1 misses mean
   unchanged LL ones, and most calls miss nothing.  One test instead of
   six charges: perl, sqlite3 and C++ 0.989 to 0.992 with simulation. */
#define SIM_EV (CP_EV_DLMW + 1)

HOT void ev_copy(ULong *to, const ULong *from, Int n)
{
   Int k;
#pragma GCC unroll 8
   for (k = 1; k < n; k++)
      to[k] = from[k];
}

/* Events FROM to TO - 1 since ENTER go to INCLUSIVE, and ENTER
   becomes NOW. */
HOT void ev_charge(ULong *inclusive, ULong *enter, const ULong *now,
                   Int from, Int to)
{
   Int k;
#pragma GCC unroll 8
   for (k = from; k < to; k++) {
      inclusive[k] += now[k] - enter[k];
      enter[k] = now[k];
   }
}

/* The thread's costs so far, all events. */
HOT void thread_cost(const Thread *t, ULong *ev)
{
   ev[0] = thread_ir(t);
   if (CP_(n_ev) == SIM_EV)
      ev_copy(ev, t->ev, SIM_EV);
   else
      ev_copy(ev, t->ev, CP_(n_ev));
}

/* The thread T's costs go to (CP_(cost_tid)). */
static UInt cost_tid_of(const Thread *t)
{
   return CP_(clo_separate_threads) ? (UInt)(t - threads) : 1;
}

/* Whether blocks of the running thread T may use the shared counters
   without asking (see cp.h). */
static void update_hot(Thread *t)
{
   CP_(shared_counting) = t->collect &&
                 (!CP_(clo_separate_threads) || t - threads == 1);
   CP_(sim_ev) = t->collect ? t->ev : NULL;
   CP_(running_collects) = t->collect;
   CP_(running_cost_tid) = cost_tid_of(t);
   set_nonskipped(t, t->nonskipped);     /* its CP_(skip_site) */
   CP_(set_ctx)(CP_(cur_ctx));
}

void CP_(thread_start)(ThreadId tid)
{
   Thread *t = thread_get(tid);
   if (running == t)
      return;
   if (running)
      CP_(thread_stop)(running - threads);
   t->others_ir += CP_(ir) - t->stopped;
   running = t;
   CP_(cur_ctx) = t->reused_slot ? &CP_(reused_slot_mark) : t->ctx;
   update_hot(t);
}

/* Callgrind keeps a thread's state when the thread dies, and a new
   thread given the same ThreadId continues it: the dead thread's last
   block is counted after all, and the new thread's first block starts
   by unwinding the dead one's frames its stack pointer has left (the
   same stack, reused by glibc).  So do we. */
void CP_(thread_created)(ThreadId child)
{
   Thread *t = &threads[child];
   if (!t->exists)
      return;
   t->sys_block = NULL;
   t->reused_slot = True;
}

CP_Ctx *CP_(first_block_ctx)(void)
{
   Thread *t = current();
   if (t->reused_slot && CP_(cur_ctx) == &CP_(reused_slot_mark)) {
      t->reused_slot = False;
      CP_(set_ctx)(t->ctx);
      unfold(t);
      unwind(t, VG_(get_SP)(t - threads), 0);
   }
   return CP_(cur_ctx);
}

void CP_(thread_stop)(ThreadId tid)
{
   Thread *t = thread_get(tid);
   if (running != t)
      return;
   if (CP_(stub_pending) != 0)
      unfold(t);                /* between a call and its stub's block */
   t->stopped = CP_(ir);
   t->ctx = CP_(cur_ctx);
   running = NULL;
}

static Thread *current(void)
{
   ThreadId tid = VG_(get_running_tid)();
   if (LIKELY(running == &threads[tid]))
      return running;               /* every call but at a switch */
   CP_(thread_start)(tid);
   return running;
}

/*------------------------------------------------------------*/
/*--- Push and pop                                         ---*/
/*------------------------------------------------------------*/

static void leave_signal(Thread *t);

/* Callgrind's function_entered/function_left: at the outermost call of
   a function, the --dump-before, --zero-before, --toggle-collect and
   --dump-after actions. */
static void entered(CP_Fn *fn)
{
   if (fn->dump_before) {
      HChar trigger[VG_(strlen)(fn->name) + 20];
      VG_(sprintf)(trigger, "--dump-before=%s", fn->name);
      CP_(dump)(trigger, True);
   } else if (fn->zero_before)
      CP_(zero)(False);
   if (fn->toggle)
      CP_(set_collect)(!CP_(collecting)());
}

static void left(CP_Fn *fn)
{
   if (fn->dump_after) {
      HChar trigger[VG_(strlen)(fn->name) + 20];
      VG_(sprintf)(trigger, "--dump-after=%s", fn->name);
      CP_(dump)(trigger, True);
   }
   if (fn->toggle)
      CP_(set_collect)(!CP_(collecting)());
}

/* A call to TO from SRC, made by exit E.  FOLD: a call into a PLT stub
   that jumps to TO (see Folding): the context stays the caller's, the
   callee's kept in fold_ctx, for transition to finish the fold at the
   call or leave it to the stub's jump. */
HOT void push(Thread *t, Site src, CP_Fn *to, Addr target, Addr sp,
              Bool skip, Bool fold, CP_Exit *e)
{
   Frame *f;

   if (t->sp == t->size) {
      t->size *= 2;
      t->stack = VG_(realloc)("cp.calls.push.1", t->stack,
                              t->size * frame_size);
   }
   if (!skip && t->nonskipped.ctx)
      src = t->nonskipped;         /* a call out of skipped code */
   f = FRAME(t, t->sp++);
   f->site = src;
   f->at.sp = sp;
   f->at.ret_addr = src.ret_addr;
   thread_cost(t, f->enter);
   f->saved_ctx = CP_(cur_ctx);
   f->nonskipped = t->nonskipped;
   f->fn_sp = t->fn_sp;
   f->gen = t->levels_gen;
   f->path = NULL;
   f->deeper = NULL;
   if (skip) {
      f->arc = NULL;
      if (!t->nonskipped.ctx)
         set_nonskipped(t, src);
   } else {
      UInt *a = active_of(t, to);
      CP_Ctx *ctx = to->ctx;
      /* --skip-direct-rec: a function calling itself directly stays at
         its recursion level, and its open calls are not raised (as
         Callgrind's push_call_stack counts them). */
      if (!(CP_(clo_skip_direct_rec) && src.ctx != NULL &&
            src.ctx->func == to)) {
         f->deeper = a;
         ++*a;
      }
      if (CP_(separate_callers_on)) {
         fn_push(t, to);
         ctx = top_ctx(t);
      }
      if (to->max_rec > 1 && *a > 1)     /* level 1 is CTX itself */
         ctx = CP_(ctx_level)(ctx, *a < to->max_rec ? *a : to->max_rec);
      if (LIKELY(e->arc_callee == ctx && e->arc_caller == src.ctx &&
                 src.instr == e->instr && !CP_(clo_separate_threads)))
         f->arc = e->arc;
      else {
         f->arc = arc_get(src.ctx, src.instr, ctx, target);
         e->arc_callee = ctx;
         e->arc_caller = src.ctx;
         e->arc = f->arc;
      }
      /* As Callgrind, a call counts while collection is off too: an arc
         is written only where it cost something, with all its calls. */
      f->arc->count++;
      if (t->path) {
         if (t->path == t->root && t->root->fn == NULL)
            t->root->fn = src.ctx ? src.ctx->func : NULL;
         f->path = t->path = path_get(t->path, to, NULL);
      }
      if (fold) {
         t->fold_ctx = ctx;
         return;
      }
      CP_(set_ctx)(ctx);
      set_nonskipped(t, (Site){ NULL, 0, 0 });
      if (CP_(fn_actions) && to->active++ == 0 &&
          (to->dump_before || to->zero_before || to->toggle))
         entered(to);
   }
}

/* Frame F's costs since its call (or the last flush) go to its arc and
   path. */
HOT void charge(Thread *t, Frame *f)
{
   ULong *inclusive = f->arc->inclusive, ir = thread_ir(t);
   if (f->path)
      f->path->inclusive += path_cost(t) - f->enter[CP_(folded_ev)];
   inclusive[0] += ir - f->enter[0];
   f->enter[0] = ir;
   /* Nine events are --cache-sim=yes alone: Ir, Dr, Dw, the L1
      misses, the LL misses (other options add events: nine without
      simulation are other ones). */
   if (CP_(n_ev) == SIM_EV && CP_(clo_cache_sim)) {
      const ULong *now = t->ev;
      ULong *enter = f->enter;
      ev_charge(inclusive, enter, now, CP_EV_DR, CP_EV_DW + 1);
      if (((now[CP_EV_I1MR] ^ enter[CP_EV_I1MR]) |
           (now[CP_EV_D1MR] ^ enter[CP_EV_D1MR]) |
           (now[CP_EV_D1MW] ^ enter[CP_EV_D1MW])) != 0)
         ev_charge(inclusive, enter, now, CP_EV_I1MR, SIM_EV);
   } else
      ev_charge(inclusive, f->enter, t->ev, 1, CP_(n_ev));
}

HOT void pop(Thread *t)
{
   Frame *f;

   if (t->n_sig > 0 && t->sp == t->bottom)
      leave_signal(t);        /* longjmp out of a signal handler */
   f = FRAME(t, --t->sp);
   set_nonskipped(t, f->nonskipped);
   if (f->arc) {
      charge(t, f);
      if (f->path)
         t->path = f->path->parent;
      t->fn_sp = f->fn_sp;
      if (f->deeper)
         --*f->deeper;
      /* The caller's level is the one it had at the call unless open
         calls changed other than by pushes and their pops since. */
      CP_(set_ctx)(f->gen == t->levels_gen ? f->saved_ctx
                                           : ctx_at_level(t, f->saved_ctx));
      if (CP_(fn_actions)) {
         CP_Fn *fn = f->arc->callee->func;
         if (--fn->active == 0 && (fn->dump_after || fn->toggle))
            left(fn);
      }
   }
}

/* Pop the frames SP has left, and MINPOPS more with SP equal; returns
   how many were popped. */
HOT Int unwind(Thread *t, Addr sp, Int minpops)
{
   Int n = (Int)cpx_left_frames(t->stack, frame_size, t->sp, sp,
                                minpops), k;
   for (k = 0; k < n; k++)
      pop(t);
   return n;
}

/* A return with nothing to return to. */
static void underflow(Thread *t, CP_Loc *to, Addr target)
{
   CP_Arc *a;
   if (CP_(cur_ctx) == NULL)
      return;
   a = arc_get(to->fn->ctx, target - 1, CP_(cur_ctx), target);
   if (t->collect) {
      /* Its cost: the thread's since the handler started, or since
         its call stack did. */
      static const ULong none[1 + CP_MAX_EV];
      const ULong *at = t->n_sig > 0 || restarts == NULL ? none : RESTART(t);
      const ULong *ev0 = t->n_sig > 0 ? t->sig[t->n_sig - 1].ev : at + 1;
      Int k;
      a->count++;
      a->inclusive[0] += thread_ir(t) - at[0];
      for (k = 1; k < CP_(n_ev); k++)
         a->inclusive[k] += t->ev[k] - ev0[k];
   }
   /* Callgrind's call and return emulated here leave one open call less
      of the function returning. */
   if (CP_(cur_ctx)->func) {
      --*active_of(t, CP_(cur_ctx)->func);
      t->levels_gen++;
   }
   if (CP_(separate_callers_on)) {
      /* the function returning is replaced by the one returned to */
      if (t->fn_sp > 0)
         t->fn_sp--;
      fn_push(t, to->fn);
      CP_(set_ctx)(ctx_at_level(t, top_ctx(t)));
      return;
   }
   CP_(set_ctx)(ctx_at_level(t, to->fn->ctx));
}

/*------------------------------------------------------------*/
/*--- Folding a call through a PLT stub                    ---*/
/*------------------------------------------------------------*/

/* Most calls of C++ and of programs built of shared libraries go
   through a PLT stub: a call into the stub, which is skipped code (a
   frame without an arc, its instruction counted for the caller), then
   the stub's jump through its GOT slot, taken as the real call, then
   one return that pops both frames.  Three transitions for one call.

   Folded, the call into the stub reads the GOT slot the stub is about
   to jump through and makes the real call at once: one frame, with the
   arc, as the stub's jump would have made it.  What is left of the
   stub's work is done in one of two ways.

   At the call (finish_at_call), when nothing is simulated (the default):
   the stub's block would count one run at the caller's call site and
   add its instructions to the clock, nothing else, so the call counts
   that run itself (the counters are remembered in the exit), takes the
   frame's costs as of after the stub's instructions and enters the
   callee's context.  It leaves the stub's address in
   CP_(stub_pending); the stub's block, instrumented for it (cp_bb.c,
   is_stub), then finds it there, clears it, and neither counts nor
   calls its transition helper: two helpers less per call (the stub's
   ctx_counters too, as it runs for one call site after another).
   Nothing can run between the call's helper and the stub's block but
   the core: a thread that stops there (a time slice ending, a
   translation to make) first undoes the fold.

   At the stub's jump, when the stub's instructions are simulated
   (--cache-sim, --branch-sim: their costs are known only when they
   ran), or the stub's block is not made yet: the context and the call
   site of skipped code stay the caller's, so the stub's block counts
   where it always did.  The stub's jump then finds the call pending
   (Thread.fold_target) and only takes the frame's costs at the call
   (as the unfolded jump would, after the stub's instruction) and
   enters the callee's context; the return pops one frame.

   Anything else that looks at the call stack while a call is pending
   (a signal, a dump or a zero, "status internal", the end of the
   instrumentation or of the run), or a jump that is not the stub's to
   the target read (another thread rewrote the slot), first undoes the
   fold (unfold): the frame becomes the skipped function's frame the
   call would have pushed, which differs from it only by its arc and
   the callee's count of open calls; a fold at the call also gives back
   the stub's run and the caller's context and call site.

   Not folded: a lazily bound stub's first call (its slot points back
   into the PLT), a jump into a stub (a tail call: a jump's exit
   remembers its target's location, not the stub), and everything under
   --separate-callers, --folded-out-file or an action on entry or exit,
   which read a call's frame as it is made.  One difference is left: a
   return to the stub's return address with the stack pointer the call
   left (not above it, as after a real return) would pop the stub's
   frame too, where unfolded the stub's frame stays open; no compiler
   makes such a return. */

/* A PLT stub, read once: its GOT slot (0: not a stub this folds: not
   "jmp *slot(%rip)", possibly after endbr64 and a bnd prefix), the
   target the slot held when last read, and that target's function when
   the stub's jump into it is taken as a call into code that is not
   skipped (NULL: not folded). */
typedef struct CP_Plt {
   struct CP_Plt *next;    /* VgHashNode */
   UWord          key;     /* the stub's address */
   Addr           got;
   Addr           target;
   CP_Fn         *fn;
} CP_Plt;

static VgHashTable *plts;
static ULong n_folded, n_at_call, n_unfolded;   /* --stats=yes */
Addr CP_(stub_pending);
Bool CP_(fold_at_call);
static Addr plts_lo = ~(Addr)0, plts_hi;  /* the stubs and slots read */

static Addr stub_slot(Addr a)
{
   const UChar *p = (const UChar *)a;
   Addr slot;
   if (!VG_(am_is_valid_for_client)(a, 16, VKI_PROT_READ))
      return 0;
   if (p[0] == 0xf3 && p[1] == 0x0f && p[2] == 0x1e && p[3] == 0xfa)
      p += 4;                              /* endbr64 */
   if (p[0] == 0xf2)
      p++;                                 /* bnd */
   if (p[0] != 0xff || p[1] != 0x25)
      return 0;
   slot = (Addr)(p + 6) + (Addr)(Long)*(const Int *)(p + 2);
   if (slot % sizeof(Addr) != 0 ||
       !VG_(am_is_valid_for_client)(slot, sizeof(Addr), VKI_PROT_READ))
      return 0;
   return slot;
}

static __attribute__((noinline)) CP_Plt *plt_of(Addr stub)
{
   CP_Plt *p = VG_(HT_lookup)(plts, stub);
   if (p == NULL) {
      p = CP_(perm)(sizeof *p);
      p->key = stub;
      p->got = stub_slot(stub);
      VG_(HT_add_node)(plts, p);
      if (stub < plts_lo)
         plts_lo = stub;
      if (stub + 16 > plts_hi)
         plts_hi = stub + 16;
      if (p->got != 0 && p->got < plts_lo)
         plts_lo = p->got;
      if (p->got != 0 && p->got + sizeof(Addr) > plts_hi)
         plts_hi = p->got + sizeof(Addr);
   }
   return p;
}

/* The stub's slot now holds a target not seen before. */
static __attribute__((noinline)) void plt_retarget(CP_Plt *p, Addr to)
{
   CP_Loc *stub = CP_(loc_of)(p->key), *loc = CP_(loc_of)(to);
   p->target = to;
   p->fn = NULL;
   if (cpx_jump_is_call(loc->is_entry, loc->sect == stub->sect,
                        loc->di == stub->di) &&
       !loc->fn->skip && !loc->fn->pop_on_jump)
      p->fn = loc->fn;
}

/* Memory unmapped: forget the stubs read there, or whose slots were
   there.  A record forgotten stays, unfoldable, for the exits that
   remember it. */
void CP_(plt_unmapped)(Addr a, SizeT len)
{
   CP_Plt *p, **gone;
   UInt n = 0, i;
   if (plts == NULL || a >= plts_hi || a + len <= plts_lo)
      return;
   gone = VG_(malloc)("cp.calls.plt.1",
                      VG_(HT_count_nodes)(plts) * sizeof *gone + 1);
   VG_(HT_ResetIter)(plts);
   while ((p = VG_(HT_Next)(plts)) != NULL)
      if ((p->key < a + len && p->key + 16 > a) ||
          (p->got != 0 && p->got < a + len && p->got + sizeof(Addr) > a))
         gone[n++] = p;
   for (i = 0; i < n; i++) {
      VG_(HT_remove)(plts, gone[i]->key);
      gone[i]->got = 0;
      gone[i]->fn = NULL;
   }
   VG_(free)(gone);
}

/* Whether a call from exit E into the skipped function at TARGET is
   folded: the target of the stub's jump (0: not folded) and its
   function. */
HOT Addr fold_of(Thread *t, CP_Exit *e, Addr target, CP_Fn **callee)
{
   CP_Plt *p;
   Addr to;
   if (plts == NULL || t->nonskipped.ctx != NULL || CP_(fn_actions))
      return 0;
   p = e->last_plt;
   if (UNLIKELY(p == NULL))
      p = e->last_plt = plt_of(target);
   if (p->got == 0)
      return 0;
   to = *(const Addr *)p->got;
   if (UNLIKELY(to != p->target))
      plt_retarget(p, to);
   *callee = p->fn;
   return p->fn ? to : 0;
}

/* The counters of the stub's block at STUB when called by exit E from
   context CTX, remembered in E; NULL while that block is not made (or
   is not one instrumented for it, CP_Block.stub). */
static __attribute__((noinline))
ULong *stub_counters(CP_Exit *e, Addr stub, CP_Ctx *ctx)
{
   CP_Block *b;
   if (ctx == NULL || ctx == &CP_(reused_slot_mark) ||
       (b = CP_(stub_block)(stub)) == NULL)
      return NULL;
   e->stub_ctx = ctx;
   e->stub_instrs = b->n_instrs;
   return e->stub_count = CP_(counters_of)(b, ctx, e->instr, 1);
}

/* Finish a call folded by exit E from CALLER into STUB at the call, as
   the stub's block would (see Folding): that block's run counted, the
   frame's costs as of the stub's jump (Ir only: nothing is simulated)
   and the callee's context entered; the stub's block then does nothing
   (cp_bb.c).  False: not done, the stub's block is not known yet. */
HOT Bool finish_at_call(Thread *t, CP_Exit *e, Addr stub, CP_Ctx *caller)
{
   ULong *count = e->stub_count;
   if (UNLIKELY(e->stub_ctx != caller || count == NULL)) {
      count = stub_counters(e, stub, caller);
      if (count == NULL)
         return False;
   }
   count[0]++;
   FRAME(t, t->sp - 1)->enter[0] += e->stub_instrs;
   /* The call site of skipped code stays none, as fold_of found it. */
   CP_(set_ctx)(t->fold_ctx);
   t->stub_count = count;
   CP_(stub_pending) = stub;
   n_at_call++;
   return True;
}

/* Undo a pending fold: the frame becomes the stub's, and a fold at the
   call gives back the stub's run and the caller's context. */
static void unfold(Thread *t)
{
   Frame *f;
   if (t == running && CP_(stub_pending) != 0) {
      f = FRAME(t, t->sp - 1);
      t->stub_count[0]--;
      CP_(stub_pending) = 0;
      CP_(set_ctx)(f->saved_ctx);
      set_nonskipped(t, f->site);
   } else if (t->fold_target != 0) {
      f = FRAME(t, t->sp - 1);
      t->fold_target = 0;
   } else
      return;
   f->arc->count--;
   if (f->deeper)
      --*f->deeper;
   f->arc = NULL;
   f->deeper = NULL;
   n_unfolded++;
}

static void unfold_all(void)
{
   ThreadId tid;
   for (tid = 1; tid < VG_N_THREADS; tid++)
      if (threads[tid].exists)
         unfold(&threads[tid]);
}

/*------------------------------------------------------------*/
/*--- Transitions                                          ---*/
/*------------------------------------------------------------*/

/* E's target's location (a jump) or function (a call), through E's
   own memory of its last target (cp.h). */
HOT CP_Loc *exit_loc(CP_Exit *e, Addr target)
{
   if (LIKELY(e->last_target == target && e->last_loc != NULL))
      return e->last_loc;
   e->last_target = target;
   e->last_fn = NULL;
   return e->last_loc = CP_(loc_of)(target);
}

HOT CP_Fn *exit_fn(CP_Exit *e, Addr target)
{
   if (LIKELY(e->last_target == target && e->last_fn != NULL))
      return e->last_fn;
   e->last_target = target;
   e->last_loc = NULL;
   e->stub_ctx = NULL;
   return e->last_fn = CP_(fn_at)(target);
}

HOT void transition(CP_Exit *e, Addr target, Addr sp, ULong clock,
                    const CP_Kind exit_kind)
{
   Thread *t;
   CP_Loc *to;
   CP_Fn *fn;
   CP_Kind kind = exit_kind;
   Bool ret_without_call = False, emulated = False;
   Site src;

   CP_(clock_at)(clock);
   /* Called from generated code only, which runs between the core's
      start_client_code and stop_client_code for its thread (cp_main.c):
      RUNNING is that thread, without asking the core. */
   t = LIKELY(running != NULL) ? running : current();
   src.ctx = CP_(cur_ctx);
   src.instr = e->instr;
   src.ret_addr = exit_kind == CP_Call ? e->instr + e->len : 0;

   /* The jump of a stub whose call was folded. */
   if (UNLIKELY(t->fold_target != 0)) {
      if (kind == CP_Jump && target == t->fold_target &&
          e->block->loc->fn == t->fold_stub) {
         thread_cost(t, FRAME(t, t->sp - 1)->enter);
         CP_(set_ctx)(t->fold_ctx);
         set_nonskipped(t, (Site){ NULL, 0, 0 });
         t->fold_target = 0;
         n_folded++;
         return;
      }
      unfold(t);
   }

   /* A return is real only if it leaves the top frame.  A real one
      needs no location of its target unless there is no frame to
      return to (returns are half the transitions, and the lookup is a
      cache miss or two). */
   if (kind == CP_Ret) {
      Int popcount = (Int)cpx_return_pops(t->stack, frame_size, t->sp, sp,
                                          target);
      if (popcount > 0) {
         if (t->sp == 0 || (t->n_sig > 0 && t->sp == t->bottom))
            underflow(t, CP_(loc_of)(target), target);
         else
            unwind(t, sp, popcount);
         return;
      }
      kind = CP_Jump;
      ret_without_call = True;
   }
   /* A call needs only the target's function (below). */
   to = kind == CP_Jump ? exit_loc(e, target) : NULL;

   /* A jump Callgrind takes as a call. */
   if (kind == CP_Jump) {
      CP_Loc *from = e->block->loc;
      if (!ret_without_call &&
          !cpx_jump_is_call(to->is_entry, to->sect == from->sect,
                            to->di == from->di)) {
         /* A jump after all (an indirect one: direct jumps that are no
            calls call no helper), unless it leaves frames (longjmp,
            exceptions): then a return. */
         if (unwind(t, sp, 0) == 0 && CP_(clo_collect_jumps) &&
             t->collect && src.ctx != NULL && t->nonskipped.ctx == NULL)
            CP_(add_jump)(src.ctx, CP_(cost_tid)(), src.instr, target);
         return;
      }
      if (from->pop_on_jump && t->sp > 0 && FRAME(t, t->sp - 1)->arc) {
         Frame *top = FRAME(t, t->sp - 1);
         src = top->site;
         sp = top->at.sp;
         pop(t);
      }
      kind = CP_Call;
      emulated = True;
   }

   if (unwind(t, sp, 0) > 0)
      return;                 /* frames were left: a return after all */
   if (emulated && t->sp > 0)
      sp = FRAME(t, t->sp - 1)->at.sp;
   fn = to ? to->fn : exit_fn(e, target);
   if (UNLIKELY(fn->skip) && kind == CP_Call && !emulated) {
      CP_Fn *callee;
      Addr to_addr = fold_of(t, e, target, &callee);
      if (to_addr != 0) {
         push(t, src, callee, to_addr, sp, False, True, e);
         if (CP_(fold_at_call) && CP_(shared_counting) &&
             finish_at_call(t, e, target, src.ctx)) {
            n_folded++;
            return;
         }
         t->fold_target = to_addr;
         t->fold_stub = fn;
         set_nonskipped(t, src);     /* the stub's block counts there */
         return;
      }
   }
   push(t, src, fn, target, sp, fn->skip, False, e);
}

/* One helper per kind of exit, each with only its own paths. */
VG_REGPARM(3) void CP_(transition_call)(CP_Exit *e, Addr target, Addr sp,
                                         ULong clock)
{
   transition(e, target, sp, clock, CP_Call);
}

VG_REGPARM(3) void CP_(transition_ret)(CP_Exit *e, Addr target, Addr sp,
                                        ULong clock)
{
   transition(e, target, sp, clock, CP_Ret);
}

VG_REGPARM(3) void CP_(transition_jump)(CP_Exit *e, Addr target, Addr sp,
                                         ULong clock)
{
   transition(e, target, sp, clock, CP_Jump);
}

/*------------------------------------------------------------*/
/*--- System calls and signals                             ---*/
/*------------------------------------------------------------*/

/* Take back the thread's last block, in a system call that does not
   come back (see the top of the file).

   With --cache-sim, Callgrind's simulation helpers count a block's
   instructions as it runs, into the block's costs and the thread's, so
   the inclusive costs of the thread's open calls have its last block;
   but Callgrind writes a block (in a context) only if it was counted at
   least once the usual way.  So at exit (at_exit), a block that some
   threads ended in keeps its count, all its runs, when it also ran
   elsewhere in that context, and is dropped when it never did. */
static UInt exits_in(ULong *counter)
{
   UInt n = 0, r;
   ThreadId tid;
   for (tid = 1; tid < VG_N_THREADS; tid++) {
      Thread *t = &threads[tid];
      if (!t->exists || t->sys_block == NULL)
         continue;
      for (r = 0; r < t->sys_block->n_runs; r++)
         if (&t->sys_count[r] == counter)
            n++;
   }
   return n;
}

static void uncount_sys(Thread *t, Bool at_exit)
{
   CP_Block *b = t->sys_block;
   UInt r, n = 0;

   if (b == NULL)
      return;
   for (r = 0; r < b->n_runs; r++) {
      if (CP_(clo_cache_sim) && at_exit &&
          t->sys_count[r] > exits_in(&t->sys_count[r]))
         continue;
      if (t->sys_count[r] > 0) {
         t->sys_count[r]--;
         if (r == 0)
            CP_(blocks_out)++;
      }
      n += b->run_len[r];
   }
   if (!CP_(clo_cache_sim))
      t->others_ir += n;
   t->sys_block = NULL;
}

/* Take a block's runs out of its counters and its thread's clock
   (OTHERS_IR), or put them back. */
static void hold_runs(CP_Block *b, ULong *count, ULong *others_ir, Bool hold)
{
   UInt r, n = 0;

   if (hold)
      CP_(blocks_out)++;
   else
      CP_(blocks_out)--;

   for (r = 0; r < b->n_runs; r++) {
      if (hold)
         count[r]--;
      else
         count[r]++;
      n += b->run_len[r];
   }
   if (hold)
      *others_ir += n;
   else
      *others_ir -= n;
}

/* --cache-sim=yes: the counters of the last block that made a client
   request as they were when it started. */
static struct {
   CP_Block *b;
   ULong    *count;
   ULong    *before, *delta;     /* b->n_slots */
   UInt      cap;
   Bool      held;
} creq;

VG_REGPARM(2) void CP_(creq_snapshot)(CP_Block *b, ULong *count)
{
   if (b->n_slots > creq.cap) {
      creq.cap = b->n_slots;
      creq.before = VG_(realloc)("cp.calls.creq.1", creq.before,
                                 creq.cap * sizeof(ULong));
      creq.delta = VG_(realloc)("cp.calls.creq.2", creq.delta,
                                creq.cap * sizeof(ULong));
   }
   creq.b = b;
   creq.count = count;
   VG_(memcpy)(creq.before, count, b->n_slots * sizeof(ULong));
}

/* The simulation's hold (cp.h): what the block's run added to its
   counters, out or back in.  Only there: Callgrind's helpers have added
   it to the thread's costs already, which the open calls take. */
static void hold_simulated(Bool hold)
{
   CP_Block *b = creq.b;
   UInt i;

   if (hold) {
      creq.held = False;
      if (b != CP_(sys_block) || creq.count != CP_(sys_count) ||
          creq.before[0] != 0)
         return;
      for (i = 0; i < b->n_slots; i++) {
         creq.delta[i] = creq.count[i] - creq.before[i];
         creq.count[i] -= creq.delta[i];
      }
      creq.held = True;
      CP_(blocks_out)++;
   } else if (creq.held) {
      for (i = 0; i < b->n_slots; i++)
         creq.count[i] += creq.delta[i];
      creq.held = False;
      CP_(blocks_out)--;
   }
}

void CP_(hold_block)(Bool hold)
{
   if (CP_(sys_block) == NULL)
      return;
   if (CP_(clo_cache_sim))
      hold_simulated(hold);
   else
      hold_runs(CP_(sys_block), CP_(sys_count), &current()->others_ir,
                hold);
}

void CP_(drop_block)(void)
{
   CP_(hold_block)(True);
   creq.held = False;
}

void CP_(toggle_collect)(void)
{
   Thread *t = current();
   CP_Block *b = CP_(sys_block);

   if (t->collect) {
      CP_(drop_block)();
      CP_(set_collect)(False);
      return;
   }
   CP_(set_collect)(True);
   if (b == NULL || CP_(clo_cache_sim))
      return;
   /* Counted now, in the counters of the context it ran in (the clock
      is folded while a request is served: its slot is 0), as a held
      block put back: its run is in the discarded counters' count of
      blocks already (CP_(blocks_out) comes down by one). */
   CP_(ctx_counters)(b, 0);
   hold_runs(b, b->last_count, &t->others_ir, False);
}

void CP_(hold_syscall_blocks)(Bool hold)
{
   ThreadId tid;
   UInt j;

   if (CP_(clo_cache_sim))
      return;
   for (tid = 1; tid < VG_N_THREADS; tid++) {
      Thread *t = &threads[tid];
      if (!t->exists)
         continue;
      if (t->sys_block != NULL)
         hold_runs(t->sys_block, t->sys_count, &t->others_ir, hold);
      for (j = 0; j < t->n_sig; j++) {   /* a handler ran on return */
         SigSave *s = &t->sig[j];
         if (s->sys_block != NULL)
            hold_runs(s->sys_block, s->sys_count, &s->others_ir, hold);
      }
   }
}

/* --collect-systime: Callgrind's clocks (monotonic time, and the
   thread's CPU time with nsec). */
static ULong ts_diff(const struct vki_timespec *a, const struct vki_timespec *b)
{
   return (ULong)(a->tv_sec - b->tv_sec) * 1000000000ULL
          + a->tv_nsec - b->tv_nsec;
}

void CP_(pre_syscall)(ThreadId tid, UInt sysno)
{
   Thread *t = current();
   t->sys_block = CP_(sys_block);
   t->sys_count = CP_(sys_count);
   t->sys_no = sysno;
   if (CP_(ev_sys) >= 0) {
      VG_(clock_gettime)(&t->sys_start, VKI_CLOCK_MONOTONIC);
      if (CP_(clo_collect_systime) == CP_SYS_NSEC)
         VG_(clock_gettime)(&t->sys_cpu_start, VKI_CLOCK_THREAD_CPUTIME_ID);
   }
}

/* The system call's count and time, into the thread's events and, with
   SELF, at its instruction in the current context. */
static void sys_time(Thread *t, Bool self)
{
   struct vki_timespec now;
   ULong ev[CP_MAX_EV], ns;
   Int k, s = CP_(ev_sys);
   CP_Block *b = t->sys_block;

   if (s < 0 || b == NULL || !t->collect || CP_(cur_ctx) == NULL)
      return;
   VG_(clock_gettime)(&now, VKI_CLOCK_MONOTONIC);
   ns = ts_diff(&now, &t->sys_start);
   CP_(ev_clear)(ev);
   ev[s] = 1;
   ev[s + 1] = CP_(clo_collect_systime) == CP_SYS_MSEC ? ns / 1000000 :
               CP_(clo_collect_systime) == CP_SYS_USEC ? ns / 1000 : ns;
   if (CP_(clo_collect_systime) == CP_SYS_NSEC) {
      VG_(clock_gettime)(&now, VKI_CLOCK_THREAD_CPUTIME_ID);
      ev[s + 2] = ts_diff(&now, &t->sys_cpu_start);
   }
   for (k = s; k < CP_(n_ev); k++)
      t->ev[k] += ev[k];
   if (self)
      CP_(add_sys_cost)(CP_(cur_ctx), CP_(cost_tid)(),
                        CP_(instr_addr)(b, b->n_instrs - 1), ev);
}

VG_REGPARM(0) void CP_(bus_event)(void)
{
   Thread *t = current();
   if (t->collect)
      t->ev[CP_(ev_ge)]++;
}

/* The block stays the thread's last until it runs client code again
   (CP_(resume)): Callgrind counts it then, and a dump before leaves it
   for the next part.  exit and exit_group do not come back, though the
   core calls this for them: their block is never counted, nor is their
   system call in it (as in Callgrind, which writes a block's costs only
   once it has counted a run of it), but the thread's events, and so the
   open calls, get the call as Callgrind's do.

   Callgrind pops the frames the stack pointer has left at the start of
   every block; callprof at calls, returns and jumps, where they are left
   but for a function that pops its own return address before a system
   call and pushes it back after (glibc's vfork).  So the pops are made
   here too, after the call's own costs, as at Callgrind's next block. */
void CP_(post_syscall)(ThreadId tid, UInt sysno)
{
   Thread *t = current();
   Bool last = sysno == __NR_exit || sysno == __NR_exit_group;
   /* A handler's rt_sigreturn has put back the state the signal
      interrupted, in a system call or not: Callgrind then counts the
      call at the block it is in (callprof knows it only in a system
      call). */
   if (t->sys_no == sysno ||
       (sysno == __NR_rt_sigreturn && t->sys_block != NULL))
      sys_time(t, !last);
   if (!last)
      unwind(t, VG_(get_SP)(tid), 0);
}

void CP_(resume)(ThreadId tid)
{
   Thread *t = &threads[tid];
   if (t->sys_block != NULL && t->sys_no != __NR_exit &&
       t->sys_no != __NR_exit_group)
      t->sys_block = NULL;
}

void CP_(pre_signal)(ThreadId tid, Int sig, Bool alt_stack)
{
   Thread *t = current();
   SigSave *s;

   /* A fault in the middle of a block: the frame is pushed before the
      thread stops, with its count still in its slot (0 otherwise). */
   CP_(clock_at)(ir_clock_peek(tid, CP_CLOCK_SLOT));
   if (t->n_sig == MAX_SIG_DEPTH)
      VG_(tool_panic)("callprof: signal handlers nested too deeply");
   if (t->sig == NULL)
      t->sig = VG_(malloc)("cp.calls.sig", MAX_SIG_DEPTH * sizeof(SigSave));
   unfold(t);
   s = &t->sig[t->n_sig++];
   s->ctx = CP_(cur_ctx);
   s->nonskipped = t->nonskipped;
   s->bottom = t->bottom;
   s->others_ir = t->others_ir;
   s->ir_at = CP_(ir);
   s->sys_block = t->sys_block;
   s->sys_count = t->sys_count;
   s->sys_no = t->sys_no;
   s->path = t->path;
   s->fn_sp = t->fn_sp;
   VG_(memcpy)(s->ev, t->ev, sizeof s->ev);
   if (CP_(separate_callers_on))
      fn_push(t, NULL);

   t->bottom = t->sp;
   t->others_ir = CP_(ir);
   set_nonskipped(t, (Site){ NULL, 0, 0 });
   t->sys_block = NULL;
   if (t->path)
      t->path = path_get(t->root, &sig_mark, "[signal handler]");
   s->path_enter = path_cost(t);
   CP_(set_ctx)(NULL);       /* the handler's first block sets it */
}

/* End the innermost handler: its open calls, its last block, and back
   to the interrupted state. */
static void leave_signal(Thread *t)
{
   SigSave *s = &t->sig[t->n_sig - 1];

   uncount_sys(t, False);
   while (t->sp > t->bottom) {
      Frame *f = FRAME(t, --t->sp);
      set_nonskipped(t, f->nonskipped);
      if (f->arc) {
         charge(t, f);
         if (f->deeper)
            --*f->deeper;
      }
   }
   if (t->path) {
      /* the handler's root: its instructions, outside the thread's */
      CP_Path *p = path_get(t->root, &sig_mark, "[signal handler]");
      p->inclusive += path_cost(t) - s->path_enter;
      t->path = s->path;
   }
   t->n_sig--;
   t->fn_sp = s->fn_sp;
   CP_(set_ctx)(ctx_at_level(t, s->ctx));
   set_nonskipped(t, s->nonskipped);
   t->bottom = s->bottom;
   t->others_ir = s->others_ir + (CP_(ir) - s->ir_at);
   /* A handler's costs are its own, as its instructions are (others_ir):
      the calls it interrupted do not include them, as in Callgrind. */
   VG_(memcpy)(t->ev, s->ev, sizeof s->ev);
   t->sys_block = s->sys_block;
   t->sys_count = s->sys_count;
   t->sys_no = s->sys_no;
}

void CP_(post_signal)(ThreadId tid, Int sig)
{
   Thread *t = current();
   ir_clock_signal_return(tid, CP_CLOCK_SLOT);
   if (t->n_sig > 0)
      leave_signal(t);
}

/*------------------------------------------------------------*/
/*--- Collection, instrumentation, dumps                   ---*/
/*------------------------------------------------------------*/

Bool CP_(collecting)(void)
{
   return current()->collect;
}

void CP_(set_collect)(Bool on)
{
   Thread *t = current();
   if (t->collect == on)
      return;
   if (on)
      t->others_ir += raw_ir(t) - t->off_ir;
   else
      t->off_ir = raw_ir(t);
   t->collect = on;
   update_hot(t);
}

UInt CP_(cost_tid)(void)
{
   return running ? cost_tid_of(running) : 1;
}

Bool CP_(thread_exists)(ThreadId tid)
{
   return tid > 0 && tid < VG_N_THREADS && threads[tid].exists;
}

ThreadId CP_(last_tid)(void)
{
   return running ? (ThreadId)(running - threads) : 1;
}

void CP_(arc_counts)(UInt *n, ULong *calls)
{
   ArcNode *a;
   *n = 0;
   *calls = 0;
   VG_(HT_ResetIter)(arcs);
   while ((a = VG_(HT_Next)(arcs)) != NULL) {
      (*n)++;
      *calls += a->arc.count;
   }
}

void CP_(thread_costs)(ThreadId tid, ULong *ev)
{
   tl_assert(CP_(thread_exists)(tid));
   thread_cost(&threads[tid], ev);
}

UInt CP_(thread_frames)(ThreadId tid)
{
   tl_assert(CP_(thread_exists)(tid));
   return threads[tid].sp;
}

/* The costs so far of the code frame I of T belongs to: the running
   code's, or, for a frame of code a signal handler interrupted, that
   code's at the delivery, where they stand while handlers run. */
static void frame_now(const Thread *t, UInt i, ULong *now)
{
   const SigSave *s;
   Int j;

   if (i >= t->bottom) {
      thread_cost(t, now);
      return;
   }
   for (j = t->n_sig - 1; j > 0 && i < t->sig[j].bottom; j--)
      ;
   s = &t->sig[j];
   now[0] = t->collect ? s->ir_at - s->others_ir : t->off_ir;
   ev_copy(now, s->ev, CP_(n_ev));
}

Bool CP_(thread_frame)(ThreadId tid, UInt i, const HChar **caller,
                       const HChar **callee, ULong *calls, ULong *ev)
{
   const Thread *t = &threads[tid];
   const Frame *f;
   ULong now[CP_MAX_EV];
   Int k;
   tl_assert(CP_(thread_exists)(tid) && i < t->sp);
   unfold(&threads[tid]);
   f = FRAME(t, i);
   /* A skipped function (PLT code) has no arc of its own. */
   if (f->arc == NULL || f->site.ctx == NULL)
      return False;
   frame_now(t, i, now);
   for (k = 0; k < CP_(n_ev); k++)
      ev[k] = f->arc->inclusive[k] + now[k] - f->enter[k];
   *caller = f->site.ctx->name;
   *callee = f->arc->callee->name;
   *calls = f->arc->count;
   return True;
}

/* charge() for frame I of code a signal handler interrupted. */
static void charge_interrupted(Thread *t, UInt i)
{
   Frame *f = FRAME(t, i);
   ULong now[CP_MAX_EV];
   Int k;

   frame_now(t, i, now);
   if (f->path)
      f->path->inclusive += now[CP_(folded_ev)] - f->enter[CP_(folded_ev)];
   for (k = 0; k < CP_(n_ev); k++) {
      f->arc->inclusive[k] += now[k] - f->enter[k];
      f->enter[k] = now[k];
   }
}

void CP_(flush_open_calls)(UInt tid)
{
   ThreadId i;
   UInt k;
   unfold_all();
   for (i = 1; i < VG_N_THREADS; i++) {
      Thread *t = &threads[i];
      if (!t->exists || (tid != 0 && tid != i))
         continue;
      for (k = t->bottom; k < t->sp; k++)
         if (FRAME(t, k)->arc)
            charge(t, FRAME(t, k));
      for (k = 0; k < t->bottom; k++)
         if (FRAME(t, k)->arc)
            charge_interrupted(t, k);
      if (t->root && t->n_sig == 0) {
         t->root->inclusive += path_cost(t) - t->root_enter;
         t->root_enter = path_cost(t);
      }
   }
}

/* Callgrind's set_instrument_state: translations are redone, the
   call stacks start afresh (their open calls are closed), and the
   simulated caches start empty. */
void CP_(set_instrument)(Bool on)
{
   ThreadId tid;
   Thread *was = running;
   if (CP_(instrumenting) == on)
      return;
   CP_(instrumenting) = on;
   unfold_all();
   if (restarts == NULL)
      restarts = VG_(calloc)("cp.calls.restarts", VG_N_THREADS,
                             (1 + CP_MAX_EV) * sizeof(ULong));
   CP_(sim_clear)();
   VG_(discard_translations_safely)((Addr)0x1000, ~(SizeT)0xfff, "callprof");
   for (tid = 1; tid < VG_N_THREADS; tid++) {
      Thread *t = &threads[tid];
      if (!t->exists)
         continue;
      CP_(thread_start)(tid);
      while (t->n_sig > 0)
         leave_signal(t);
      while (t->sp > 0)
         pop(t);
      t->fn_sp = 0;
      t->sys_block = NULL;
      RESTART(t)[0] = thread_ir(t);
      VG_(memcpy)(RESTART(t) + 1, t->ev, sizeof t->ev);
      CP_(set_ctx)(NULL);
      CP_(thread_stop)(tid);
   }
   if (was)
      CP_(thread_start)(was - threads);
   if (VG_(clo_verbosity) > 1)
      VG_(umsg)("callprof: instrumentation switched %s\n", on ? "ON" : "OFF");
}

/*------------------------------------------------------------*/
/*--- Setup and exit                                       ---*/
/*------------------------------------------------------------*/

void CP_(calls_fini)(void)
{
   ThreadId tid;

   if (running)
      CP_(thread_stop)(running - threads);
   unfold_all();
   for (tid = 1; tid < VG_N_THREADS; tid++) {
      Thread *t = &threads[tid];
      if (!t->exists)
         continue;
      /* Work on the stopped thread as if it ran, so thread_ir() and
         CP_(cur_ctx) are its own. */
      CP_(thread_start)(tid);
      uncount_sys(t, True);
      while (t->n_sig > 0)
         leave_signal(t);
      while (t->sp > 0)
         pop(t);
      CP_(thread_stop)(tid);
   }
   if (VG_(clo_stats) && plts != NULL)
      VG_(dmsg)("callprof: calls folded with their PLT stub's jump: %llu, "
                "undone: %llu; at the call: %llu\n", n_folded, n_unfolded,
                n_at_call);
}

void CP_(calls_init)(void)
{
   frame_size = VG_ROUNDUP(sizeof(Frame) + CP_(n_ev) * sizeof(ULong), 8);
   arcs = VG_(HT_construct)("callprof arcs");
   /* Folding keeps a call's frame apart from what --separate-callers,
      --folded-out-file and the actions on entry read at a call. */
   if (CP_(clo_skip_plt) && !CP_(separate_callers_on) &&
       !CP_(clo_folded_out_file) && CP_(clo_fold_plt))
      plts = VG_(HT_construct)("callprof plts");
   CP_(fold_at_call) = plts != NULL && !CP_(clo_cache_sim) &&
                       !CP_(clo_branch_sim);
   if (CP_(clo_folded_out_file))
      paths = VG_(HT_construct)("callprof paths");
   /* Fresh anonymous pages are zero (no thread exists) and cost nothing
      until touched: a program with a few threads uses a page or two of
      this, where a calloc would make every run pay for VG_N_THREADS
      threads (128 KB). */
   threads = VG_(am_shadow_alloc)(VG_N_THREADS * sizeof(Thread));
   if (threads == NULL)
      VG_(out_of_memory_NORETURN)("cp.calls.init.1",
                                  VG_N_THREADS * sizeof(Thread));
}
