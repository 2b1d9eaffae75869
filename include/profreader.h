/* profreader.h: reading profiles as their readers read them.

   Copyright (C) 2026 The heapsnap/callprof developers.
   SPDX-License-Identifier: GPL-2.0-or-later

   A host-side library (libc only) that reads the three formats our
   tools and their references write, into a model of what a reader
   shows, so that two files can be compared by what people see rather
   than by their bytes:

   - Callgrind's format (callprof, Callgrind, xtree memory files),
     interpreted as KCachegrind's loader does: a function is its name,
     its fl= file and its object; compressed ids are bound when defined
     and live until the next part; fi=/fe= move the source file of what
     follows; positions are absolute, relative to the previous position
     line, or "*"; a calls= line's next line is the call site and the
     call's inclusive cost; a jump's target is relative to the current
     position but does not move it.  See pr_callgrind.c.
   - Massif's format (heapsnap, Massif): every snapshot and every node of
     each detailed tree.  See pr_massif.c.
   - Folded stacks ("a;b;c 123", flame graph input).  See pr_folded.c.

   The readers never crash and never read out of bounds, whatever the
   input: a file that is not what it claims gives an error naming the
   file and line (PR_Error), which is how the fuzz harness and the
   command-line tools see it.

   Names shared between the files of the library start with pr_/PR_. */

#ifndef PROFREADER_H
#define PROFREADER_H

#include <stddef.h>

typedef unsigned long long pr_u64;

typedef enum { PR_UNKNOWN, PR_CALLGRIND, PR_MASSIF, PR_FOLDED } PR_Format;

/* The first error: "FILE:LINE: what" (or "FILE: what"). */
typedef struct { int set; char text[512]; } PR_Error;

/*------------------------------------------------------------------*/
/* Callgrind format                                                  */
/*------------------------------------------------------------------*/

#define PR_MAX_POS 2          /* position columns: line, instr */

typedef struct {
   const char *name, *file, *obj;   /* interned: equal names, equal pointers */
   pr_u64     *self;                /* n_events */
} PR_Fn;

/* A position is up to two numbers, in the order of the positions: line
   (e.g. "instr line"); absent columns are 0. */
typedef struct { pr_u64 v[PR_MAX_POS]; } PR_Pos;

typedef struct {                    /* self cost at one source position */
   PR_Fn      *fn;
   const char *file;
   PR_Pos      pos;
   pr_u64     *cost;
} PR_Line;

typedef struct {                    /* a call arc at one call site */
   PR_Fn      *caller;
   const char *file;                /* the call site's file and position */
   PR_Pos      pos;
   PR_Fn      *callee;
   pr_u64      calls;
   pr_u64     *incl;                /* inclusive cost of these calls */
} PR_Call;

typedef struct {                    /* a jump (jump=) or branch (jcnd=) */
   PR_Fn      *fn;
   const char *file;                /* source position */
   PR_Pos      pos;
   const char *to_file;             /* target position */
   PR_Pos      to;
   int         cond;
   pr_u64      followed, executed;  /* jump=: both the count */
} PR_Jump;

typedef struct {
   char     *cmd, *creator, *desc;  /* first of each; desc: lines joined */
   int       n_parts;
   int       n_pos;
   char     *pos_names[PR_MAX_POS]; /* "line", "instr" */
   int       n_events;
   char    **events;
   pr_u64   *sum;                   /* sum of all self costs, per event */
   int       has_summary, has_totals;
   pr_u64   *summary, *totals;      /* as the header/footer say */
   PR_Fn   **fns;     size_t n_fns;
   PR_Line  *lines;   size_t n_lines;
   PR_Call  *calls;   size_t n_calls;
   PR_Jump  *jumps;   size_t n_jumps;
   char    **conflicts; size_t n_conflicts;  /* ids naming two functions */
   struct PR_CgIndex *index;        /* private */
} PR_Callgrind;

/* Reads DATA (LEN bytes, need not be NUL-terminated); NAME is for
   messages.  NULL with ERR set on a bad file. */
PR_Callgrind *pr_cg_parse(const char *data, size_t len, const char *name,
                          PR_Error *err);
void pr_cg_free(PR_Callgrind *p);

/* The same reading, of a file given in pieces (read a chunk at a time,
   or as it arrives): the pieces may end anywhere, even inside a line,
   and give the model pr_cg_parse gives of them joined.  NAME and ERR
   must live until pr_cg_stream_end.  FLAGS:
     0                 everything, as pr_cg_parse keeps it;
     PR_CG_CALL_GRAPH  only the call graph, for a file too big to keep
                       whole: functions with their self costs, the sum,
                       and calls merged per (caller, callee), their
                       file NULL and position 0; no lines, no jumps.
   pr_cg_stream_feed returns 0 once the file is found bad (more pieces
   are then ignored); pr_cg_stream_end frees the stream and returns the
   model, or NULL with ERR set, as pr_cg_parse does. */
typedef struct PR_CgStream PR_CgStream;
#define PR_CG_CALL_GRAPH 1u
PR_CgStream  *pr_cg_stream_new(const char *name, unsigned flags,
                               PR_Error *err);
int           pr_cg_stream_feed(PR_CgStream *s, const char *data,
                                size_t len);
PR_Callgrind *pr_cg_stream_end(PR_CgStream *s);
/* The event's column, or -1. */
int pr_cg_event(const PR_Callgrind *p, const char *event);
/* "FILE:NAME [OBJECT]", the way callgrind_annotate names a function
   (with the object); into BUF of SIZE. */
const char *pr_fn_label(const PR_Fn *f, char *buf, size_t size);

/*------------------------------------------------------------------*/
/* Massif format                                                     */
/*------------------------------------------------------------------*/

typedef struct {
   int         depth;               /* 0: the root line */
   unsigned    n_children;
   pr_u64      bytes;
   char       *text;                /* "0x4005F2: main (a.c:12)" ... */
} PR_MsNode;

typedef enum { PR_TREE_EMPTY, PR_TREE_DETAILED, PR_TREE_PEAK } PR_TreeKind;

typedef struct {
   long        num;                 /* snapshot=N */
   pr_u64      time, heap, extra, stacks;
   PR_TreeKind kind;
   PR_MsNode  *nodes;  size_t n_nodes;  /* pre-order */
} PR_MsSnapshot;

typedef struct {
   char          *desc, *cmd, *time_unit;
   PR_MsSnapshot *snaps;  size_t n_snaps;
} PR_Massif;

PR_Massif *pr_ms_parse(const char *data, size_t len, const char *name,
                       PR_Error *err);
void pr_ms_free(PR_Massif *m);
/* TEXT without a leading code address ("0x4005F2: "). */
const char *pr_ms_strip_addr(const char *text);

/*------------------------------------------------------------------*/
/* Folded stacks                                                     */
/*------------------------------------------------------------------*/

typedef struct { char *stack; pr_u64 count; } PR_Stack;
typedef struct { PR_Stack *stacks; size_t n_stacks; } PR_Folded;

/* Equal stacks are summed; order is first appearance. */
PR_Folded *pr_fold_parse(const char *data, size_t len, const char *name,
                         PR_Error *err);
void pr_fold_free(PR_Folded *f);

/*------------------------------------------------------------------*/
/* Files                                                             */
/*------------------------------------------------------------------*/

/* The format of DATA, from its first lines. */
PR_Format pr_detect(const char *data, size_t len);

/* The whole file into memory (NUL-terminated, *LEN its length); NULL
   with ERR set if it cannot be read. */
char *pr_slurp(const char *path, size_t *len, PR_Error *err);

void pr_error(PR_Error *err, const char *name, size_t line,
              const char *fmt, ...)
#ifdef __GNUC__
   __attribute__((format(printf, 4, 5)))
#endif
   ;

#endif /* PROFREADER_H */
