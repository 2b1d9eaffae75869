/* profwriter.h: the output writer shared by heapsnap and callprof.

   Copyright (C) 2026 The heapsnap/callprof developers.
   SPDX-License-Identifier: GPL-2.0-or-later

   The same sources compile into two worlds:
     - inside a Valgrind tool (no libc; everything goes through VG_()),
     - on the host, against libc, for unit tests and host-side programs
       (build with -DPW_HOST).
   profwriter/pw_platform.h maps the few system services we need onto one
   or the other; nothing in this header depends on which.

   Layers, bottom up:
     PW_Sink      a buffered byte stream over a write callback, with a sticky
                  first error: emitters never check errors, the owner checks
                  once at the end (as nanopb's pb_ostream_t and Lua's ldump).
     templates    --log-file style file-name templates: %p %n %q{VAR} %%.
     PW_File      a sink onto a file that is written under a hidden temporary
                  name and renamed into place only when complete.
     emitters     the Massif format, the Callgrind format (with name and
                  position compression) and folded stacks, as plain
                  functions over a sink.

   Every name this library exports starts with pw_ / PW_. */

#ifndef PROFWRITER_H
#define PROFWRITER_H

#include <stdarg.h>
#include <stddef.h>

typedef unsigned long long pw_u64;
typedef unsigned long      pw_addr;

/* ------------------------------------------------------------------ */
/* Sink                                                                */
/* ------------------------------------------------------------------ */

/* Write LEN bytes from BUF.  Returns the number of bytes written (short
   writes are retried by the sink) or a negative errno value. */
typedef long (*PW_WriteFn)(void *state, const char *buf, size_t len);

typedef struct PW_Sink {
   PW_WriteFn write;   /* NULL: count bytes only, write nothing */
   void      *state;
   char      *buf;     /* caller-owned buffer */
   size_t     size;
   size_t     used;
   pw_u64     bytes;   /* bytes accepted (buffered or written) */
   int        error;   /* first error as a positive errno; 0 = none */
} PW_Sink;

void pw_sink_init(PW_Sink *s, PW_WriteFn write, void *state,
                  char *buf, size_t size);
void pw_putn(PW_Sink *s, const char *p, size_t n);
void pw_put(PW_Sink *s, const char *str);
void pw_putc(PW_Sink *s, char c);
void pw_put_u64(PW_Sink *s, pw_u64 v);       /* decimal */
void pw_put_hex(PW_Sink *s, pw_u64 v);       /* 0x1a2b, lowercase */
/* printf-style; only %s %c %d %u %ld %lu %lld %llu %lx %llx %% and %.Nf
   are used by this project (both worlds support them). */
void pw_printf(PW_Sink *s, const char *fmt, ...)
   __attribute__((format(printf, 2, 3)));
/* Write out the buffer; returns s->error. */
int  pw_flush(PW_Sink *s);

/* A short description of a positive errno value ("No such file or
   directory"); the same text inside a tool and on the host. */
const char *pw_errstr(int err);

/* ------------------------------------------------------------------ */
/* File-name templates                                                 */
/* ------------------------------------------------------------------ */

/* Semantics of Valgrind's --log-file:
     %p      the process id at the time the file is written,
     %n      a sequence number, 1, 2, ... per process (reset in a child),
     %q{VAR} the value of environment variable VAR (an error if unset),
     %%      a single %.
   Anything else after % is an error, as is an empty name or one starting
   with '~'.  A relative result is taken relative to BASE_DIR (the
   directory Valgrind started in).

   pw_template_check returns NULL when TMPL is well formed, else a one-line
   message (no trailing newline) saying what is wrong; it does not look up
   environment variables.  Use it when parsing options. */
const char *pw_template_check(const char *tmpl);

/* Expand TMPL into OUT (OUTSZ bytes).  Returns NULL on success, else a
   one-line message.  GETENV returns NULL for unset variables. */
const char *pw_template_expand(const char *tmpl, int pid,
                               const char *(*getenv_fn)(const char *name),
                               const char *base_dir,
                               char *out, size_t outsz);

/* ------------------------------------------------------------------ */
/* Files written whole or not at all                                   */
/* ------------------------------------------------------------------ */

typedef struct PW_File PW_File;

/* Create "DIR/.BASE.part" next to PATH and return a sink onto it.
   On failure returns NULL after printing one line
      TOOL: cannot write PATH: REASON
   (through the platform's message channel).  Never aborts.  MODE is the
   new file's permissions (before the umask), as the reference tool's:
   PW_MODE_MASSIF for heapsnap's files, PW_MODE_CALLGRIND for callprof's. */
#define PW_MODE_MASSIF    0644
#define PW_MODE_CALLGRIND 0600
PW_File *pw_file_open(const char *path, const char *tool, int mode);
PW_Sink *pw_file_sink(PW_File *f);
const char *pw_file_path(const PW_File *f);
/* Flush, close, and rename the temporary file to PATH.  On any error
   (including an earlier write error held by the sink) the temporary file
   is removed, one line is printed as above, and the errno is returned;
   0 on success.  F is freed either way. */
int pw_file_commit(PW_File *f);
/* Close and remove the temporary file without publishing it. */
void pw_file_abandon(PW_File *f);

/* ------------------------------------------------------------------ */
/* Massif format                                                       */
/* ------------------------------------------------------------------ */

/* Header: "desc: ARGS" (or "desc: (none)"), "cmd: CMD", "time_unit: U". */
void pw_ms_header(PW_Sink *s, const char *desc_args, const char *cmd,
                  const char *time_unit);

/* One snapshot's header lines, from the "#-----------" separator down to
   "heap_tree=KIND" (KIND: "empty", "detailed" or "peak").  For a detailed
   or peak snapshot, follow with pw_ms_tree. */
void pw_ms_snapshot(PW_Sink *s, unsigned n, pw_u64 time,
                    pw_u64 heap_B, pw_u64 extra_B, pw_u64 stacks_B,
                    const char *kind);

/* One allocation stack with its live bytes.  IPS[0] is the allocation
   site (the caller of the allocation function), IPS[N_IPS-1] the
   outermost frame kept. */
typedef struct PW_MsStack {
   const pw_addr *ips;
   unsigned       n_ips;
   pw_u64         bytes;
} PW_MsStack;

/* Text of the frames at IP, as Valgrind's describe_IP: called with
   K = 0, 1, ... ; sets *MORE to 1 while further (inlined) frames at the
   same IP follow.  The returned text must stay valid until the next
   call. */
typedef const char *(*PW_DescribeFn)(void *ctx, pw_addr ip, unsigned k,
                                     int *more);

/* The allocation tree of a detailed snapshot.  STACKS is sorted by
   address arrays, element by element (left alone if already so).
   The root line is "nK: HEAP_B ROOT_LABEL".  A group of stacks is shown
   when its bytes reach THRESHOLD percent of heap+extra+stacks; the rest at
   one level are merged into one "in N places, all below massif's
   threshold (T%)" line ("in 1 place, below ..." for one).  Children are
   sorted by bytes, largest first, ties by address. */
void pw_ms_tree(PW_Sink *s, PW_MsStack *stacks, unsigned n_stacks,
                pw_u64 heap_B, pw_u64 extra_B, pw_u64 stacks_B,
                double threshold, const char *root_label,
                PW_DescribeFn describe, void *ctx);

/* pw_ms_tree for STACKS the caller has sorted already: a caller writing
   many trees over the same stacks sorts them once, and is spared even
   the check (a compare of each neighbour pair, long for deep stacks). */
void pw_ms_tree_sorted(PW_Sink *s, PW_MsStack *stacks, unsigned n_stacks,
                       pw_u64 heap_B, pw_u64 extra_B, pw_u64 stacks_B,
                       double threshold, const char *root_label,
                       PW_DescribeFn describe, void *ctx);

/* ------------------------------------------------------------------ */
/* Callgrind format                                                    */
/* ------------------------------------------------------------------ */

typedef struct PW_CgHeader {
   const char  *creator;        /* "callprof-0.1" */
   int          pid;
   const char  *cmd;            /* the command line */
   int          part;           /* 1, 2, ... */
   int          thread;         /* "thread: N" (--separate-threads); 0:
                                   none */
   const char *const *desc;     /* "I1 cache: ..." lines, without "desc: " */
   unsigned     n_desc;
   int          pos_instr;      /* positions: instr */
   int          pos_line;       /* positions: line */
   const char *const *events;   /* "Ir", "Dr", ... */
   unsigned     n_events;
   const pw_u64 *summary;       /* n_events values */
   int          compress_strings; /* (id) name compression */
   int          compress_pos;     /* +N / -N / * positions */
   int          continued;      /* a further part of the file written so
                                   far (--combine-dumps): from "part:" on,
                                   with name ids of its own */
} PW_CgHeader;

typedef struct PW_Cg PW_Cg;

/* A position: the instruction address (relative to its object file) and
   the source line; each is written only if the header asks for it. */
typedef struct PW_CgPos {
   pw_addr  instr;
   unsigned line;
} PW_CgPos;

/* Writes the header, through "summary:".  NULL only if out of memory. */
PW_Cg *pw_cg_begin(PW_Sink *s, const PW_CgHeader *h);
/* Sets the current function: writes ob=, fl=, fn= lines for what
   changed.  Names are copied. */
void pw_cg_function(PW_Cg *w, const char *ob, const char *fl,
                    const char *fn);
/* The source file of the following cost lines inside the current
   function (inlined code): fi= or, when back to the function's own
   file, fe=. */
void pw_cg_file(PW_Cg *w, const char *fi);
/* A self-cost line: COSTS has n_events values; trailing zeros are left
   off.  Costs are added to the totals. */
void pw_cg_cost(PW_Cg *w, PW_CgPos pos, const pw_u64 *costs);
/* A call arc from position FROM in the current function to the function
   (COB, CFI, CFN) -- the callee's object, file and name, as it was given
   to pw_cg_function -- at position TO, with its inclusive cost.  cob=
   and cfi= are written when they differ from the object and file in
   force.  COUNT must be non-zero (readers misread calls=0). */
void pw_cg_call(PW_Cg *w, const char *cob, const char *cfi,
                const char *cfn, pw_u64 count, PW_CgPos to, PW_CgPos from,
                const pw_u64 *inclusive);
/* A jump inside the current function (CONDITIONAL: jcnd=FOLLOWED/EXECUTED,
   else jump=FOLLOWED) from FROM to TO in the source file JFI (NULL: the
   one in force; jfi= is written when it differs). */
void pw_cg_jump(PW_Cg *w, int conditional, pw_u64 followed,
                pw_u64 executed, const char *jfi, PW_CgPos to, PW_CgPos from);
/* Writes "totals:" (the sum of every pw_cg_cost), frees W; returns the
   sink's error. */
int pw_cg_end(PW_Cg *w);
/* The running sum of the self costs written so far (n_events values). */
const pw_u64 *pw_cg_totals(const PW_Cg *w);

/* ------------------------------------------------------------------ */
/* Folded stacks                                                       */
/* ------------------------------------------------------------------ */

/* "root;child;leaf VALUE\n".  FRAMES[0] is the root.  ';' and line breaks
   inside a frame name are replaced (by ':' and ' '), so each line stays
   one stack. */
void pw_folded(PW_Sink *s, const char *const *frames, unsigned n,
               pw_u64 value);

/* ------------------------------------------------------------------ */
/* Inside a tool only (profwriter/pw_vg.c)                             */
/* ------------------------------------------------------------------ */

/* Expand the output-file template TMPL now (pid, environment, the
   directory Valgrind started in) into PATH and open it as pw_file_open
   does; on a template error print "TOOL: cannot write TMPL: REASON" and
   return NULL. */
PW_File *pw_vg_open_output(const char *tmpl, const char *tool, int mode,
                           char *path, size_t size);
/* At start-up, before the client runs: exit 1 with a message unless
   the output file of template TMPL (the value of OPTION) can be named
   and created. */
void pw_vg_check_output(const char *option, const char *tmpl,
                        const char *tool, int mode);
/* The client's command line, "prog arg1 arg2", truncated to SIZE. */
void pw_vg_client_cmd(char *buf, size_t size);
/* The PW_DescribeFn of Valgrind's own trees: describe_IP's text, one
   inlined frame at a time.  CTX is unused. */
const char *pw_vg_describe_ip(void *ctx, pw_addr ip, unsigned k, int *more);

#endif /* PROFWRITER_H */
