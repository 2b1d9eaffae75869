/* cp.h: what callprof's files share.

   Copyright (C) 2026 The heapsnap/callprof developers.
   SPDX-License-Identifier: GPL-2.0-or-later

   callprof is split by job:
     cp_main.c   options, start and exit, the core's callbacks;
     cp_events.c the events of the run (the output's columns) and the
                 layout of a block's counters: the one place that knows
                 which counter holds what;
     cp_bb.c     functions and blocks as Callgrind sees them, the
                 instrumentation: one counter per run, the context check
                 at block entry, and the helper calls at the exits that
                 may change function;
     cp_calls.c  the shadow call stack of each thread: Callgrind's
                 call/return/jump decisions applied, arcs with their call
                 counts and inclusive costs, threads and signal handlers;
     cp_classify.h  those decisions themselves, pure functions (also
                 built on the host for their unit tests);
     cp_dump.c   writing the profile in Callgrind's format: dumps
                 (at exit, on client requests, --dump-before/after,
                 --dump-every-bb), zeroing, and folded stacks;
     cp_monitor.c  vgdb's monitor commands (dump, zero, status,
                 instrumentation), Callgrind's.
     cp_sim.c    --cache-sim: the caches' geometry, and the helpers
                 that run each fetch and data access through
     cp_cachesim.c  the cache model (Callgrind's; plain C, also built on
                 the host for its unit tests), and
     cp_cacheuse.c  its cache-use statistics (--cacheuse).

   The model is Callgrind's (callgrind/bbcc.c, setup_bbcc), moved from
   the start of every block to the few exits where it can matter:

     - Ir is counted per instruction, one counter increment per run of a
       block (a run ends at a side exit), plus an instruction clock for
       inclusive costs (CP_(ir), below), written before each exit.
     - Every thread has a context: the function Callgrind would charge
       the code it runs to, i.e. the function last entered by a call,
       not the function the code belongs to.  They differ after a jump
       into another function's code (mempcpy jumping into memmove's
       body, foo into foo.cold) and inside skipped PLT code.  Each block
       compares the context with its own function on entry (a load and a
       compare); only when they differ does a helper hand out the
       block's counters for that context.
     - Calls, returns, indirect jumps and jumps Callgrind would take as
       calls (into another object or section, or to a function's first
       instruction) call a transition helper on the exit itself, with
       the target and the stack pointer: CP_(transition_call), _ret or
       _jump, by the exit's kind.

   Collection off (--collect-atstart=no, --toggle-collect, the client
   request TOGGLE_COLLECT) and --separate-threads=yes keep this hot path:
   the instrumentation compares CP_(inline_ctx), not CP_(cur_ctx), with
   the block's function.  CP_(set_ctx) keeps the two equal while the
   running thread counts into the shared counters
   (CP_(shared_counting)), and otherwise points CP_(inline_ctx) at
   CP_(unshared_mark), a context no block ever runs in, so that every
   block asks CP_(ctx_counters) for its counters: a scratch array when
   collection is off, the thread's own counters when threads are kept
   apart.

   Every name shared between these files is CP_(name), which expands to
   vgCallprof_name (all tool objects are linked with the core). */

#ifndef CP_H
#define CP_H

#include "pub_tool_basics.h"
#include "pub_tool_debuginfo.h"
#include "pub_tool_tooliface.h"
#include "tool_platform.h"

#define CP_(str) VGAPPEND(vgCallprof_, str)

/*------------------------------------------------------------*/
/*--- Options (cp_main.c)                                  ---*/
/*------------------------------------------------------------*/

extern const HChar *CP_(clo_out_file);
extern Bool CP_(clo_dump_instr);
extern Bool CP_(clo_dump_line);
extern Bool CP_(clo_compress_strings);
extern Bool CP_(clo_compress_pos);
extern Bool CP_(clo_skip_plt);
extern Bool CP_(clo_fold_plt);     /* --fold-plt (debug): cp_calls.c, Folding */
extern Bool CP_(clo_collect_jumps);
extern Bool CP_(clo_chain_guess);  /* --chain-guess (debug): ir_chain.h */
extern Bool CP_(clo_collect_atstart);
extern Bool CP_(clo_instr_atstart);
extern Bool CP_(clo_separate_threads);
extern Bool CP_(clo_collect_bus);
extern Bool CP_(clo_skip_direct_rec);
extern Bool CP_(clo_combine_dumps);
extern Int  CP_(clo_collect_systime);   /* CP_SYS_* */
extern ULong CP_(clo_dump_every_bb);    /* 0: never */
extern UInt  CP_(clo_dump_every);       /* seconds; 0: never */
extern const HChar *CP_(clo_folded_out_file); /* NULL: none */
/* --folded-event: the event the folded stacks carry (an index of
   CP_(ev_name)); 0, Ir, by default. */
extern Int CP_(folded_ev);
/* --separate-recs and --separate-recs<n>=<f>: the recursion levels kept
   apart for the function NAME (<= 1: none). */
UInt CP_(separate_recs_of)(const HChar *name);
/* --separate-callers and --separate-callers<n>=<f>: the callers kept
   apart for the function NAME (0: none); CP_(separate_callers_on) if
   any function may have some. */
UInt CP_(separate_callers_of)(const HChar *name);
extern Bool CP_(separate_callers_on);

enum { CP_SYS_NO, CP_SYS_MSEC, CP_SYS_USEC, CP_SYS_NSEC };

/* Function patterns of --fn-skip, --dump-before ... (Callgrind's: '*'
   any string, '?' any character, matched against the whole name). */
enum { CP_PAT_SKIP, CP_PAT_DUMP_BEFORE, CP_PAT_DUMP_AFTER,
       CP_PAT_ZERO_BEFORE, CP_PAT_TOGGLE, CP_N_PAT };
Bool CP_(fn_matches)(Int kind, const HChar *name);

/*------------------------------------------------------------*/
/*--- Events and counters (cp_events.c)                    ---*/
/*------------------------------------------------------------*/

/* Ir always first; then, by option and in Callgrind's order, the cache
   events Dr Dw I1mr D1mr D1mw ILmr DLmr DLmw (--cache-sim, at the
   indices CP_EV_DR ... below; --simulate-wb adds ILdmr DLdmr DLdmw),
   Bc Bcm Bi Bim (--branch-sim, from CP_(ev_bc)), AcCost1 SpLoss1 AcCost2
   SpLoss2 (--cacheuse, from CP_(ev_use)), Ge (--collect-bus) and
   sysCount sysTime [sysCpuTime] (--collect-systime).  CP_(ev_bc),
   CP_(ev_use), CP_(ev_ge), CP_(ev_sys) are their indices, -1 when off.
   A cost vector holds CP_(n_ev) events; CP_MAX_EV bounds the few kept
   on the stack or per thread. */
#define CP_MAX_EV 24     /* all of them at once (cp_events.c's table) */
extern Int CP_(n_ev), CP_(ev_bc), CP_(ev_use), CP_(ev_ge), CP_(ev_sys);
extern const HChar *CP_(ev_name)[CP_MAX_EV];
enum { CP_EV_DR = 1, CP_EV_DW, CP_EV_I1MR, CP_EV_D1MR, CP_EV_D1MW,
       CP_EV_ILMR, CP_EV_DLMR, CP_EV_DLMW,
       CP_EV_ILDMR, CP_EV_DLDMR, CP_EV_DLDMW };    /* --simulate-wb */
/* The events of this run, and the counter layout (after the options,
   once cp_sim.c has settled which simulation options hold). */
void CP_(events_init)(void);
/* --folded-event=NAME: NULL, or why NAME cannot be given. */
const HChar *CP_(folded_event_check)(const HChar *name);

/* The simulations' counters of an instruction: CLASS_WIDTH for a data
   access class it has (read, write; 0 without --cache-sim), one less
   for its fetch when the fetch can miss (its accesses are the Ir of
   its run), BRANCHES (4 with --branch-sim) if it branches and USE (4
   with --cacheuse) if it can load a line; ANY: some at all.  Where an
   instruction's are: CP_SimInstr's off, fe, rd, wr, br, us (cp_events.c
   has the layout). */
typedef struct {
   UInt class_width, branches, use;
   Bool any;
} CP_InstrSlots;
extern CP_InstrSlots CP_(islots);
struct CP_Block;
/* Lay out block B's counters (its runs, exits and instructions known,
   and in each CP_SimInstr rd, wr and br 1 if it reads, writes or ends
   in a branch, else 0): sets B's sim_off and its instructions' offsets;
   the number of counters. */
UInt CP_(block_slots)(struct CP_Block *b);
/* Instruction I of block B, run with counters COUNT: its cost in the
   output's events, EV[0 .. CP_(n_ev)). */
void CP_(instr_cost)(const struct CP_Block *b, UInt i, const ULong *count,
                     ULong *ev);
/* Side exit K of block B: the times it was taken. */
#define CP_EXIT_TAKEN(b, count, k) ((count)[(b)->n_runs + (k)])

static inline void CP_(ev_clear)(ULong *ev)
{
   Int k;
   for (k = 0; k < CP_(n_ev); k++)
      ev[k] = 0;
}
static inline void CP_(ev_add)(ULong *to, const ULong *from)
{
   Int k;
   for (k = 0; k < CP_(n_ev); k++)
      to[k] += from[k];
}

/*------------------------------------------------------------*/
/*--- Cache simulation (cp_sim.c)                          ---*/
/*------------------------------------------------------------*/

extern Bool CP_(clo_cache_sim);
extern Bool CP_(clo_simulate_wb);
extern Bool CP_(clo_simulate_hwpref);
extern Bool CP_(clo_cacheuse);
extern Bool CP_(clo_branch_sim);
/* --cache-sim, --simulate-cache, --branch-sim, --I1, --D1, --LL. */
Bool CP_(sim_option)(const HChar *arg);
void CP_(sim_post_clo_init)(void);
/* "I1 cache: ...", K 0..2 for I1, D1, LL. */
const HChar *CP_(sim_desc)(Int k);
/* Data accesses are cut to this size, as Callgrind cuts them. */
UInt CP_(sim_min_line)(void);
/* The caches back to their start. */
void CP_(sim_clear)(void);
/* At exit, before the last dump: --cacheuse charges the lines still in
   the caches. */
void CP_(sim_finish)(void);
/* An instruction as the helpers see it.  Its counters are in its
   block's counter array (CP_(islots)), each class's at OFF plus the
   class's offset: FE its fetch's (L1 and LL misses; only when the fetch
   can miss, CP_(sim_fetch_needed)), RD its reads', WR its writes', BR
   its branches', US its cache use's; CP_SIM_NONE where it has none. */
#define CP_SIM_NONE 0xff
typedef struct {
   Addr   addr;
   UShort off;
   UChar  len;
   UChar  fe, rd, wr, br, us;
} CP_SimInstr;
/* Whether instruction K of block B fetches from a line its predecessor
   did not end in (else its fetch is a hit that changes nothing, but for
   the use it counts with --cacheuse: see CP_(sim_use_more)). */
Bool CP_(sim_fetch_needed)(const struct CP_Block *b, UInt k);
/* --cacheuse, per instruction: the fetches after it that call no
   helper (in the line it ends in, in the same run), and the parts of
   that line they use; its fetch's helper counts their uses with its
   own. */
typedef struct {
   UInt   mask;
   UShort more;
} CP_SimUse;
/* --cacheuse: fill B's use (its runs known). */
void CP_(sim_use_more)(struct CP_Block *b);
/* The helpers of the model the options chose: FETCH (regparm 2:
   instruction, counters; with --cacheuse regparm 3, and the
   instruction's CP_SimUse third) and READ, WRITE (regparm 3:
   instruction, counters, address, size), with their names.

   fetch_mru: a fetch that finds its line in the first way of its I1
   set changes nothing in the model (cp_cachesim.h: cs_set_ref) and
   counts nothing (a fetch's counters are its misses), so generated code
   tests that itself (cp_bb.c, from CP_(sim_i1)) and calls FETCH only
   when the test fails.  Not with --cacheuse, where a hit counts a use.
   Reads and writes call their helpers every time: they count every
   access, and an inline test with the counting cost more than the
   call (docs/benchmarks.md). */
typedef struct {
   const HChar *fetch_name, *read_name, *write_name;
   void        *fetch, *read, *write;
   Bool         fetch_mru;
} CP_SimHelpers;
extern const CP_SimHelpers *CP_(sim_helpers);
/* I1: its tags (ASSOC words per set, most recently used first, set
   after set), log2 of its line size and its number of sets less one. */
typedef struct {
   const ULong *tags;
   UInt         line_bits, assoc;
   ULong        set_mask;
} CP_SimI1;
void CP_(sim_i1)(CP_SimI1 *i1);
/* --branch-sim: a conditional branch, TAKEN (1) or not (0); an
   indirect one to DST.  C: the instruction's branch counters (at
   its CP_SimInstr.br), LOW: the low 7 (conditional)
   or 9 (indirect) bits of its address. */
VG_REGPARM(3) void CP_(sim_cond)(ULong *c, UWord low, UWord taken);
VG_REGPARM(3) void CP_(sim_ind)(ULong *c, UWord low, Addr dst);
/* The running thread's events to add to, NULL while it does not
   collect (kept by cp_calls.c). */
extern ULong *CP_(sim_ev);

/*------------------------------------------------------------*/
/*--- Functions and blocks (cp_bb.c)                       ---*/
/*------------------------------------------------------------*/

/* A function as Callgrind's fn_node: object, file and name of a block's
   first instruction.  Code without a symbol is named after its address
   in the object, "0x0000000000401000", with " [PLT]" for PLT code.
   What the options say of it (skipped, actions on entry and exit,
   levels and callers kept apart), its open calls, and its blocks. */
typedef struct CP_Fn {
   struct CP_Fn *next;       /* VgHashNode */
   UWord         key;        /* hash of the three names */
   /* What a call of it reads, together (one cache line, mostly): */
   struct CP_Ctx *ctx;       /* the function itself: level 1, no callers */
   UInt          id;         /* from 0 in creation order: the index of
                                per-thread tables (Thread.active) */
   UInt          max_rec;    /* --separate-recs: levels kept apart */
   Bool          skip;       /* PLT code with --skip-plt=yes */
   Bool          pop_on_jump;/* _dl_runtime_resolve*: its jump ends it */
   UInt          main_open;  /* open calls in thread 1 (other threads
                                count theirs in Thread.active): a call
                                reads this beside the fields above, not
                                in a table of its own */
   Bool          dump_before, dump_after, zero_before, toggle;
   UInt          active;     /* open calls (all threads), counted
                                only while CP_(fn_actions) */
   UInt          max_callers;/* --separate-callers: callers kept apart */
   const HChar  *obj, *file, *name;
   struct CP_Ctx *last_callers; /* the caller context CP_(callers_ctx)
                                   found last */
   struct CP_Block *own_blocks; /* blocks that start in it (by
                                   CP_Block.fn_next) */
} CP_Fn;

/* A context: what costs and calls are charged to, and what a file
   writes as a function.  Callgrind's cxt with its recursion level: a
   function (level 1, no callers: FN->ctx), a deeper recursion level
   (--separate-recs, named "fn'2", "fn'3" ...), a function with the
   callers it was called from (--separate-callers, "fn'caller1'caller2",
   innermost first), or both ("fn'2'caller1").  A context with FUNC NULL
   is a stand-in that no block runs in (the marks of cp_bb.c and
   cp_calls.c): comparing with it always fails. */
typedef struct CP_Ctx {
   CP_Fn         *func;      /* NULL: a mark */
   const HChar   *name;      /* as written */
   UInt           id;        /* from 0 in creation order: the output's */
   UInt           level;     /* 1 .. func->max_rec */
   struct CP_Ctx *base;      /* the same callers at level 1 */
   struct CP_Ctx **levels;   /* of a base: [level], made when needed
                                ([0] and [1] unused) */
   UInt           n_callers;
   CP_Fn        **callers;
   struct CP_Arc *arcs;      /* calls made in this context */
   struct CP_Foreign *foreign; /* other blocks' counters for it (by
                                  CP_Foreign.ctx_next); its function's
                                  own blocks count for FUNC->ctx */
} CP_Ctx;

/* What Callgrind knows of the block starting at an address: its
   function, whether that address is the function's first instruction,
   its object and section kind. */
typedef struct CP_Loc {
   struct CP_Loc *next;      /* VgHashNode */
   UWord          key;       /* the address */
   CP_Fn         *fn;
   DebugInfo     *di;        /* NULL: no object ("???") */
   VgSectKind     sect;
   Bool           is_entry;
   Bool           pop_on_jump;  /* fn's, copied: the transition of a jump
                                   from here needs no more of fn */
} CP_Loc;

/* The location of A, through a direct-mapped cache: every indirect
   jump asks, so the hit is inline (a compare, where a function call
   took as long); the same for CP_(fn_at) below. */
#define CP_LOC_CACHE_BITS 12
/* The slot of A in both caches, for their hits here and their misses
   in cp_bb.c. */
static inline UWord CP_(loc_slot)(Addr a)
{
   return tp_cache_slot(a, CP_LOC_CACHE_BITS);
}
extern CP_Loc *CP_(loc_cache)[1 << CP_LOC_CACHE_BITS];
CP_Loc *CP_(loc_miss)(Addr a);
static inline CP_Loc *CP_(loc_of)(Addr a)
{
   CP_Loc *l = CP_(loc_cache)[CP_(loc_slot)(a)];
   if (LIKELY(l != NULL && l->key == a))
      return l;
   return CP_(loc_miss)(a);
}
/* CP_(loc_of)(A)->fn, through a direct-mapped cache of its own: every
   call asks. */
typedef struct { Addr a; CP_Fn *fn; } CP_FnSlot;
extern CP_FnSlot CP_(fn_cache)[1 << CP_LOC_CACHE_BITS];
CP_Fn *CP_(fn_miss)(Addr a);
static inline CP_Fn *CP_(fn_at)(Addr a)
{
   const CP_FnSlot *s = &CP_(fn_cache)[CP_(loc_slot)(a)];
   if (LIKELY(s->a == a && s->fn != NULL))
      return s->fn;
   return CP_(fn_miss)(a);
}
/* N zeroed bytes that are never freed (cp_bb.c says why). */
void *CP_(perm)(SizeT n);
/* The context BASE (level 1) at recursion LEVEL (1 .. its function's
   max_rec; 1: BASE itself). */
CP_Ctx *CP_(ctx_level)(CP_Ctx *base, UInt level);
/* The context of function FN (level 1) called from CALLERS[0], called
   from CALLERS[1] ... (N of them, at most FN->max_callers; 0: FN). */
CP_Ctx *CP_(callers_ctx)(CP_Fn *fn, CP_Fn *const *callers, UInt n);
/* The functions seen so far. */
UInt CP_(n_fns)(void);
/* Every context made so far, in creation order (not to be freed). */
CP_Ctx *const *CP_(all_ctxs)(UInt *n);

/* Run counters of a block executed in a context other than its own
   function (see above).  Code of a skipped function (PLT) counts at
   the call site it was called from, as Callgrind writes it.  A skipped
   function's block keeps the call site after its counters, in every
   counter array of it (count[n_slots], 0 in its own), so that its
   inline check can compare it with CP_(skip_site) as well as the
   context (cp_bb.c, add_base): a PLT stub then calls no helper when it
   runs again for the same call site in the same context. */
typedef struct CP_Foreign {
   struct CP_Foreign *next;   /* of the block */
   struct CP_Foreign *ctx_next;/* of the context */
   struct CP_Block   *block;
   CP_Ctx            *ctx;
   UInt               tid;    /* 1 unless --separate-threads=yes */
   Addr               site;   /* 0: at the block's own instructions */
   ULong             *count;  /* n_runs */
} CP_Foreign;

/* --collect-jumps: an exit of a block, as Callgrind classifies it
   (callgrind/main.c, collectBlockInfo and the exits of CLG_(instrument)).
   An exit is a jump when it goes to a known address other than the next
   instruction in memory, is no call or return, and is not taken as a
   call (cp_bb.c, jump_is_call).  A side exit is a conditional jump
   (jcnd=), the final exit an unconditional one (jump=), with one
   exception: when VEX inverted the block's last conditional branch, its
   side exit goes to the next instruction and the final exit is the
   branch, which Callgrind then writes as the conditional jump.
   Each side exit has a counter of the times it was taken (slot n_runs +
   its index); the times an exit was reached are the count of its run
   less the side exits of that run taken before it (cp_dump.c).  The
   final exit is exits[n_exits]; indirect jumps are counted by the
   transition helper (CP_(add_jump)). */
typedef struct CP_BlockExit {
   Addr   instr, target;      /* target: 0 when not known here */
   UShort run;                /* the run it ends or, back to back, follows */
   Bool   jump;
} CP_BlockExit;

typedef struct CP_Block {
   struct CP_Block *next;     /* VgHashNode */
   UWord            key;      /* guest address of the block */
   struct CP_Block *fn_next;  /* of its function (CP_Fn.own_blocks) */
   CP_Loc          *loc;      /* the block's start */
   Addr             first_instr; /* its first instruction's address: the
                                    key's, unless the core redirected it */
   /* VEX makes blocks of at most 100 instructions, so every count and
      index of a block fits 16 bits. */
   UShort           n_instrs, n_runs;
   UShort           n_exits;  /* side exits, each with a counter */
   UShort           sim_off;  /* the first of the simulation's counters */
   UInt             n_slots;  /* counters: runs, side exits taken, sim */
   Bool             inverted; /* its last branch inverted by VEX */
   Bool             stub;     /* a PLT stub's block instrumented to skip
                                 itself after a call folded at the call
                                 (cp_calls.c, Folding) */
   UShort          *instr_off;/* instruction -> address - first_instr */
   UShort          *run_of;   /* instruction -> run */
   UShort          *run_len;  /* run -> instructions */
   ULong           *count;    /* run -> executions in its own function */
   CP_Foreign      *foreign;
   /* The last context the block ran in with shared counters (its own
      function, a recursion level fn'2, a caller context), and the
      counters it ran with last: the inline check of cp_bb.c. */
   CP_Ctx          *last_ctx;
   ULong           *last_count;
   UChar           *bus;      /* instruction -> atomic ops; NULL: none */
   CP_SimInstr     *sim;      /* --cache-sim: per instruction */
   CP_SimUse       *use;      /* --cacheuse: per instruction */
   CP_BlockExit    *exits;    /* --collect-jumps: n_exits + 1 */
} CP_Block;

/* The address of instruction I of block B. */
static inline Addr CP_(instr_addr)(const CP_Block *b, UInt i)
{
   return b->first_instr + b->instr_off[i];
}

/* Every block made so far, in no particular order: CP_(first_block),
   then CP_(next_block) until NULL.  One walk at a time, and no block
   may be made during it (the dump's walks). */
CP_Block *CP_(first_block)(void);
CP_Block *CP_(next_block)(void);

/* Guest instructions executed so far, all threads.  The running thread
   counts its own in a slot of its shadow guest state (CP_CLOCK_SLOT, the
   IRClock of include/ir_counter.h); CP_(ir_stopped) is the count as of
   the last time a thread stopped running client code, when the core
   calls CP_(clock_fold).  So CP_(ir) is exact whenever the tool runs
   outside generated code, and the helpers called from generated code,
   which are given the slot's value, set it with CP_(clock_at). */
extern ULong CP_(ir);
extern ULong CP_(ir_stopped);
#define CP_CLOCK_SLOT 0
static inline void CP_(clock_at)(ULong slot)
{
   CP_(ir) = CP_(ir_stopped) + slot;
}
void CP_(clock_fold)(ThreadId tid);

/* The running thread's context (see above); NULL before its first
   block. */
extern CP_Ctx *CP_(cur_ctx);
/* What the instrumentation compares (see the top of the file). */
extern CP_Ctx *CP_(inline_ctx);
/* Whether some function has an action on entry or exit (--dump-before,
   --dump-after, --zero-before, --toggle-collect): only then are calls
   counted in CP_Fn.active.  Set when such a function is made, before
   any call of it. */
extern Bool    CP_(fn_actions);
extern CP_Ctx  CP_(unshared_mark);
/* True while the running thread collects into the shared counters. */
extern Bool   CP_(shared_counting);
/* Of the running thread, for the helpers called from generated code
   (kept by cp_calls.c at every thread switch and collection toggle):
   whether it collects, and the thread its costs go to
   (CP_(cost_tid)). */
extern Bool   CP_(running_collects);
extern UInt   CP_(running_cost_tid);
/* CP_(cur_ctx) of a thread in a dead thread's slot before its first
   block (CP_(first_block_ctx)). */
extern CP_Ctx CP_(reused_slot_mark);
static inline void CP_(set_ctx)(CP_Ctx *c)
{
   CP_(cur_ctx) = c;
   CP_(inline_ctx) = CP_(shared_counting) ? c : &CP_(unshared_mark);
}
/* False after --instr-atstart=no or STOP_INSTRUMENTATION. */
extern Bool CP_(instrumenting);

/* The block and counters of the last block that ended in a system call
   or a client request (set by the instrumentation; read in the syscall
   wrapper and by the requests, CP_(hold_block)). */
extern CP_Block *CP_(sys_block);
extern ULong    *CP_(sys_count);

void  CP_(bb_init)(void);
IRSB *CP_(instrument)(VgCallbackClosure *closure, IRSB *in,
                      const VexGuestLayout *layout,
                      const VexGuestExtents *vge,
                      const VexArchInfo *archinfo_host,
                      IRType gWordTy, IRType hWordTy);
IRSB *CP_(final_tidy)(IRSB *sb);                  /* cp_bb.c */

/*------------------------------------------------------------*/
/*--- Call stacks (cp_calls.c)                             ---*/
/*------------------------------------------------------------*/

/* A call arc in the context of its caller: from the instruction SITE
   to the function CALLEE (first entered at TARGET). */
typedef struct CP_Arc {
   struct CP_Arc *next;       /* in the caller's list */
   Addr           site;
   CP_Ctx        *callee;
   Addr           target;
   UInt           tid;        /* 1 unless --separate-threads=yes */
   ULong          count;
   ULong          inclusive[];/* CP_(n_ev) events */
} CP_Arc;

/* An exit of a block that may change function: its kind as Callgrind
   classifies it, the address of its instruction and, for a call, the
   return address. */
typedef enum { CP_Jump, CP_Call, CP_Ret } CP_Kind;
typedef struct CP_Exit {
   CP_Block *block;
   Addr      instr;
   UChar     kind;            /* a CP_Kind */
   UChar     len;             /* the instruction's: a call returns to
                                 instr + len */
   UInt      stub_instrs;     /* see stub_count below */
   /* Where it went last (cp_calls.c, exit_loc and exit_fn): a jump's
      location, a call's function.  Most exits go where they went
      last, and the exit is in the cache already, where the caches of
      all targets are not. */
   Addr            last_target;
   union {
      struct CP_Loc *last_loc;   /* a jump's (and a return's) */
      struct CP_Plt *last_plt;   /* a call's: its PLT stub, if it is
                                    one (cp_calls.c, folding) */
   };
   struct CP_Fn   *last_fn;
   /* A call folded at the call (cp_calls.c, Folding): the counters of
      the stub's block at this call site in context stub_ctx, and the
      stub's instructions. */
   CP_Ctx         *stub_ctx;
   ULong          *stub_count;
   /* Its last call's arc, from caller to callee (cp_calls.c, push) */
   CP_Ctx         *arc_caller, *arc_callee;
   struct CP_Arc  *arc;
} CP_Exit;

/* The helper of such an exit, taken to TARGET with stack pointer SP. */
VG_REGPARM(3) void CP_(transition_call)(CP_Exit *e, Addr target, Addr sp,
                                         ULong clock);
VG_REGPARM(3) void CP_(transition_ret)(CP_Exit *e, Addr target, Addr sp,
                                        ULong clock);
VG_REGPARM(3) void CP_(transition_jump)(CP_Exit *e, Addr target, Addr sp,
                                         ULong clock);
/* The helper at entry of block B when the context is not the one B
   remembers: leaves the counters to use in B->last_count. */
VG_REGPARM(2) void CP_(ctx_counters)(CP_Block *b, ULong clock);

/* --collect-bus: an atomic instruction ran (Ge). */
VG_REGPARM(0) void CP_(bus_event)(void);

/* After the options (VG_N_THREADS is known then). */
void CP_(calls_init)(void);
/* Memory unmapped: the PLT stubs read there are forgotten (cp_calls.c,
   Folding). */
void CP_(plt_unmapped)(Addr a, SizeT len);
/* The same for the symbol ranges of indirect jumps (cp_bb.c). */
void CP_(own_ranges_unmapped)(Addr a, SizeT len);
/* --stats=yes: the indirect jumps that call their helper only when they
   leave their function (cp_bb.c). */
void CP_(bb_stats)(void);
/* In skipped code: the call site the running thread counts at (see
   CP_Foreign), kept by cp_calls.c at every change (0: not in skipped
   code), for generated code and CP_(ctx_counters). */
extern Addr CP_(skip_site);
/* A call into a PLT stub folded at the call (cp_calls.c, Folding): the
   stub's address until its block runs, which then counts nothing and
   calls no helper (cp_bb.c); 0 otherwise.  Of the running thread.
   CP_(fold_at_call): whether calls may be folded so (calls_init). */
extern Addr CP_(stub_pending);
extern Bool CP_(fold_at_call);
/* The counters of block B run in context CTX at call site SITE (0: not
   skipped code) for thread TID, made if new (cp_bb.c). */
ULong *CP_(counters_of)(CP_Block *b, CP_Ctx *ctx, Addr site, UInt tid);
/* The one block made at A, if it is a stub's (CP_Block.stub); else
   NULL. */
CP_Block *CP_(stub_block)(Addr a);
void CP_(thread_start)(ThreadId tid);
void CP_(thread_created)(ThreadId child);
/* The running thread's context at a block's entry, after what a thread's
   first block has to do (see cp_calls.c). */
CP_Ctx *CP_(first_block_ctx)(void);
/* The context of the running thread in function FN, entered without a
   call (a thread's or signal handler's first block): FN at the level of
   its open calls, as Callgrind's setup_bbcc chooses it. */
CP_Ctx *CP_(level_ctx)(CP_Fn *fn);
void CP_(thread_stop)(ThreadId tid);
void CP_(pre_signal)(ThreadId tid, Int sig, Bool alt_stack);
void CP_(post_signal)(ThreadId tid, Int sig);
void CP_(pre_syscall)(ThreadId tid, UInt sysno);
void CP_(post_syscall)(ThreadId tid, UInt sysno);
/* At exit: drop what Callgrind never counts (each thread's last block)
   and close the calls still open, as Callgrind does when it dumps. */
void CP_(calls_fini)(void);

/* Callgrind counts a block's instructions when the next block starts,
   so the block that made a client request is not counted yet when the
   request dumps or zeroes.  HOLD True takes that block back out of its
   counters (and the thread's clock), False puts it back.  With
   --cache-sim, Callgrind's helpers count at once, but a dump writes a
   block (in a context) only once a run of it was counted the usual way:
   the request's block is held only when it had not run before in this
   part, from its counters as CP_(creq_snapshot) kept them, and its
   thread's costs keep it (the open calls take it at once). */
void CP_(hold_block)(Bool hold);
VG_REGPARM(2) void CP_(creq_snapshot)(CP_Block *b, ULong *count);
/* The request's block held for good: STOP_INSTRUMENTATION, whose next
   block runs uninstrumented. */
void CP_(drop_block)(void);
/* TOGGLE_COLLECT: the request's block goes with the collection state
   after the toggle, as Callgrind counts it at the next block: dropped
   when collection stops, counted when it starts (not with --cache-sim,
   whose helpers ran while collection was off). */
void CP_(toggle_collect)(void);
/* The same for the last block of every thread in a system call (one that
   does not come back included), around a dump or a zeroing: Callgrind
   counts it in the part where its thread runs again, or never. */
void CP_(hold_syscall_blocks)(Bool hold);
/* Thread TID runs client code again: the block it made a system call
   from is counted from now on (see CP_(post_syscall)). */
void CP_(resume)(ThreadId tid);
/* Runs of blocks held or taken out of their counters (above, and a
   thread's last block, never counted): Callgrind's count of blocks run
   has them (its "Timerange"). */
extern ULong CP_(blocks_out);
/* Blocks run while collection was off, which Callgrind counts too. */
ULong CP_(blocks_uncollected)(void);
/* Collection of the running thread: on, off, toggled. */
Bool CP_(collecting)(void);
void CP_(set_collect)(Bool on);
/* STOP/START_INSTRUMENTATION, --instr-atstart. */
void CP_(set_instrument)(Bool on);
/* The thread whose costs a dump writes: 1 unless threads are kept
   apart, else the running thread. */
UInt CP_(cost_tid)(void);
Bool CP_(thread_exists)(ThreadId tid);
/* Before a dump: the calls still open (of thread TID, 0: all) get the
   inclusive cost they have so far, and count from now on. */
void CP_(flush_open_calls)(UInt tid);
/* The thread that ran last (the running one while one runs). */
ThreadId CP_(last_tid)(void);
/* For "status internal": the arcs and the calls made along them (since
   the last dump or zero); thread TID's costs so far (CP_(n_ev)
   events); the depth of its call stack, and frame I of it (0: the
   outermost), if it is a call along an arc (not a skipped function):
   the caller's and the callee's names, the arc's calls and its
   inclusive cost (since the last dump or zero, this call's so far
   included). */
void CP_(arc_counts)(UInt *arcs, ULong *calls);
void CP_(thread_costs)(ThreadId tid, ULong *ev);
UInt CP_(thread_frames)(ThreadId tid);
Bool CP_(thread_frame)(ThreadId tid, UInt i, const HChar **caller,
                       const HChar **callee, ULong *calls, ULong *ev);
/* A system call's costs for --collect-systime, at the call site. */
void CP_(add_sys_cost)(CP_Ctx *ctx, UInt tid, Addr instr, const ULong *ev);
/* Folded stacks: a node of the call-path trie. */
typedef struct CP_Path {
   struct CP_Path *parent, *child, *sibling;
   CP_Fn          *fn;        /* NULL: a thread's root */
   const HChar    *label;     /* instead of fn: "[signal handler]" */
   ULong           inclusive;
} CP_Path;
/* Every root (threads, signal handlers), and the inclusive Ir so far of
   open paths (added at dump time, as with arcs). */
CP_Path *CP_(path_roots)(void);

/*------------------------------------------------------------*/
/*--- Output (cp_dump.c)                                   ---*/
/*------------------------------------------------------------*/

/* Write the costs since the last dump and zero them.  TRIGGER NULL at
   exit (file named by --callprof-out-file; else .N appended, N = 1, 2
   ...).  With --separate-threads=yes, ONLY_CURRENT writes the running
   thread's file only. */
void CP_(dump)(const HChar *trigger, Bool only_current);
/* The totals of every file written so far (the end-of-run summary). */
extern ULong CP_(collected)[CP_MAX_EV];
/* Zero the costs: when threads are kept apart, of the running thread,
   or with ALL of every thread. */
void CP_(zero)(Bool all);
/* The dumps written so far (the last one's "part:"). */
UInt CP_(dumps_done)(void);
/* Blocks run so far, all threads, while collecting (the dumps'
   "Timerange"). */
ULong CP_(blocks_run)(void);
/* The client requests of include/callprof.h (= callgrind.h's). */
Bool CP_(client_request)(ThreadId tid, UWord *args, UWord *ret);
/*------------------------------------------------------------*/
/*--- Monitor commands (cp_monitor.c)                      ---*/
/*------------------------------------------------------------*/

/* A vgdb monitor command: whether it was callprof's. */
Bool CP_(monitor_command)(const HChar *req);

/* --dump-every-bb: checked, as by Callgrind, when a thread is given
   the CPU (CORE_BLOCKS: the core's count of blocks run, which throttles
   the check), against the blocks run (CP_(blocks_run)). */
void CP_(bb_dump_check)(ULong core_blocks);
/* --dump-every: checked at the same times, against the run's clock. */
void CP_(time_dump_check)(void);
/* Self costs kept apart from the block counters (system calls):
   iterate with CP_(sys_costs). */
typedef struct CP_SysCost {
   struct CP_SysCost *next;   /* VgHashNode */
   UWord              key;
   CP_Ctx            *ctx;
   UInt               tid;
   Addr               instr;
   ULong              ev[];   /* CP_(n_ev) events */
} CP_SysCost;
CP_SysCost **CP_(sys_costs)(UInt *n);
/* --collect-jumps: an indirect jump that stays in the function (a
   switch), taken from INSTR to TARGET in context CTX of thread TID (the
   direct ones follow from the block counters, CP_BlockExit). */
void CP_(add_jump)(CP_Ctx *ctx, UInt tid, Addr instr, Addr target);

#endif /* CP_H */
