/* cp.h: what callprof's files share.

   Copyright (C) 2026 The heapsnap/callprof developers.
   SPDX-License-Identifier: GPL-2.0-or-later

   callprof is split by job:
     cp_main.c   options, start and exit, the core's callbacks;
     cp_bb.c     functions and blocks as Callgrind sees them, the
                 instrumentation: one counter per run, the context check
                 at block entry, and the helper calls at the exits that
                 may change function;
     cp_calls.c  the shadow call stack of each thread: Callgrind's
                 call/return/jump decisions, arcs with their call counts
                 and inclusive costs, threads and signal handlers;
     cp_dump.c   writing the profile in Callgrind's format.

   The model is Callgrind's (callgrind/bbcc.c, setup_bbcc), moved from
   the start of every block to the few exits where it can matter:

     - Ir is counted per instruction, one counter increment per run of a
       block (a run ends at a side exit), plus one global instruction
       count per run for inclusive costs (CP_(ir)).
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
       instruction) call CP_(transition) on the exit itself, with the
       target and the stack pointer.

   Every name shared between these files is CP_(name), which expands to
   vgCallprof_name (all tool objects are linked with the core). */

#ifndef CP_H
#define CP_H

#include "pub_tool_basics.h"
#include "pub_tool_debuginfo.h"
#include "pub_tool_tooliface.h"

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

/*------------------------------------------------------------*/
/*--- Functions and blocks (cp_bb.c)                       ---*/
/*------------------------------------------------------------*/

/* A function as Callgrind's fn_node: object, file and name of a block's
   first instruction.  Code without a symbol is named after its address
   in the object, "0x0000000000401000", with " [PLT]" for PLT code. */
typedef struct CP_Fn {
   struct CP_Fn *next;       /* VgHashNode */
   UWord         key;        /* hash of the three names */
   const HChar  *obj, *file, *name;
   Bool          skip;       /* PLT code with --skip-plt=yes */
   Bool          pop_on_jump;/* _dl_runtime_resolve*: its jump ends it */
   struct CP_Arc *arcs;      /* calls made in this context */
   UInt          n;          /* creation order */
} CP_Fn;

/* What Callgrind knows of the block starting at an address: its
   function, whether that address is the function's first instruction,
   its object and section kind. */
typedef struct CP_Loc {
   struct CP_Loc *next;      /* VgHashNode */
   UWord          key;       /* the address */
   CP_Fn         *fn;
   Bool           is_entry;
   DebugInfo     *di;        /* NULL: no object ("???") */
   VgSectKind     sect;
} CP_Loc;

CP_Loc *CP_(loc_of)(Addr a);
/* Every function made so far (an array to free; any order). */
CP_Fn **CP_(all_fns)(UInt *n);

/* Run counters of a block executed in a context other than its own
   function (see above).  Code of a skipped function (PLT) counts at
   the call site it was called from, as Callgrind writes it. */
typedef struct CP_Foreign {
   struct CP_Foreign *next;
   CP_Fn             *ctx;
   Addr               site;   /* 0: at the block's own instructions */
   ULong             *count;  /* n_runs */
} CP_Foreign;

typedef struct CP_Block {
   struct CP_Block *next;     /* VgHashNode */
   UWord            key;      /* guest address of the block */
   struct CP_Block *all_next; /* every block ever made */
   CP_Loc          *loc;      /* the block's start */
   UInt             n_instrs, n_runs;
   Addr            *instr_addr;
   UShort          *run_of;   /* instruction -> run */
   UShort          *run_len;  /* run -> instructions */
   ULong           *count;    /* run -> executions in its own function */
   CP_Foreign      *foreign;
} CP_Block;

/* Every block made so far (the dump walks them). */
extern CP_Block *CP_(all_blocks);

/* Guest instructions executed so far, all threads. */
extern ULong CP_(ir);

/* The running thread's context (see above); NULL before its first
   block. */
extern CP_Fn *CP_(cur_ctx);

/* The block and counters of the last block that ended in a system call
   (set by the instrumentation; read in the syscall wrapper). */
extern CP_Block *CP_(sys_block);
extern ULong    *CP_(sys_count);

void  CP_(bb_init)(void);
IRSB *CP_(instrument)(VgCallbackClosure *closure, IRSB *in,
                      const VexGuestLayout *layout,
                      const VexGuestExtents *vge,
                      const VexArchInfo *archinfo_host,
                      IRType gWordTy, IRType hWordTy);

/*------------------------------------------------------------*/
/*--- Call stacks (cp_calls.c)                             ---*/
/*------------------------------------------------------------*/

/* A call arc in the context of its caller: from the instruction SITE
   to the function CALLEE (first entered at TARGET). */
typedef struct CP_Arc {
   struct CP_Arc *next;       /* in the caller's list */
   Addr           site;
   CP_Fn         *callee;
   Addr           target;
   ULong          count;
   ULong          inclusive;
} CP_Arc;

/* An exit of a block that may change function: its kind as Callgrind
   classifies it, the address of its instruction and, for a call, the
   return address. */
typedef enum { CP_Jump, CP_Call, CP_Ret } CP_Kind;
typedef struct CP_Exit {
   CP_Block *block;
   CP_Kind   kind;
   Addr      instr;
   Addr      ret_addr;
} CP_Exit;

/* The helper of such an exit, taken to TARGET with stack pointer SP. */
VG_REGPARM(3) void CP_(transition)(CP_Exit *e, Addr target, Addr sp);
/* The helper at entry of block B when the context is not B's function:
   the counters to use. */
VG_REGPARM(1) ULong *CP_(foreign_count)(CP_Block *b);

/* After the options (VG_N_THREADS is known then). */
void CP_(calls_init)(void);
/* In skipped code: the call site it counts at (see CP_Foreign). */
Addr CP_(skipped_site)(void);
void CP_(thread_start)(ThreadId tid);
void CP_(thread_created)(ThreadId child);
/* The running thread's context at a block's entry, after what a thread's
   first block has to do (see cp_calls.c). */
CP_Fn *CP_(first_block_ctx)(void);
void CP_(thread_stop)(ThreadId tid);
void CP_(pre_signal)(ThreadId tid, Int sig, Bool alt_stack);
void CP_(post_signal)(ThreadId tid, Int sig);
void CP_(pre_syscall)(ThreadId tid, UInt sysno);
void CP_(post_syscall)(ThreadId tid, UInt sysno);
/* At exit: drop what Callgrind never counts (each thread's last block)
   and close the calls still open, as Callgrind does when it dumps. */
void CP_(calls_fini)(void);

/*------------------------------------------------------------*/
/*--- Output (cp_dump.c)                                   ---*/
/*------------------------------------------------------------*/

void CP_(write_profile)(void);

#endif /* CP_H */
