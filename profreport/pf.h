/* pf.h: what profreport's files share.

   Copyright (C) 2026 The heapsnap/callprof developers.
   SPDX-License-Identifier: GPL-2.0-or-later

   profreport is split by job:
     profreport.c  the command line: read the files (include/profreader.h),
                   build one frame tree, write the report whole or not at
                   all;
     pf_read.c     one input file, a chunk at a time: a big Callgrind
                   file is never held whole;
     pf_tree.c     the frame tree (a flame graph's model) and how each
                   kind of input becomes one: folded stacks exactly, a
                   call graph by estimate, a heap tree at its peak;
     pf_svg.c      the flame graph, an interactive SVG, written with
                   libxml2's xmlTextWriter (alone, or inside the page);
     pf_html.c     the page: title, totals, the flame graph, the table of
                   the top frames;
     pf_chart.c    a heap profile's memory over time, a stacked area
                   chart;
     pf_fns.c      a call profile's functions: self and inclusive cost of
                   every event and the derived ones, callers and callees,
                   and their tables in the page;
     pf_stacks.c   each thread's stack high-water mark (heapsnap's
                   FILE.stacks), on a heap profile's page;
     pf_out.c      a report written under a temporary name, renamed
                   when whole;
     pf_util.c     memory or exit, finding an element of a growing array
                   by its key, a parsed file's function by its pointer.

   Names shared between the files start with pf_/PF_. */

#ifndef PF_H
#define PF_H

#include <libxml/xmlwriter.h>

#include "profreader.h"

/* Memory, or a message and exit(pf_fail_status) (pf_util.c). */
extern const char *pf_program;      /* "profreport", "profdiff" */
extern int         pf_fail_status;
void *pf_xcalloc(size_t n, size_t size);
void *pf_xrealloc(void *p, size_t n);
char *pf_xstrdup(const char *s);

/* A parsed Callgrind file's functions by their pointers: fill FN and AT
   (what the caller numbers it), sort, then find. */
typedef struct { const PR_Fn *fn; size_t at; } PF_FnAt;
void   pf_fn_at_sort(PF_FnAt *v, size_t n);
size_t pf_fn_at(const PF_FnAt *v, size_t n, const PR_Fn *fn);  /* or -1 */

/* One input file (pf_read.c): its kind and, for a Callgrind-format
   file, its call graph, read a chunk at a time (PR_CG_CALL_GRAPH), or
   for any other kind its whole text (DATA, NUL-terminated), to be freed
   by the caller; for every kind its length, its number of lines (a last
   line without its end counted) and its last byte (0 if empty), so that
   a file cut short is seen without its text.  0, or -1 with ERR set:
   the file cannot be read, or is a bad Callgrind-format file.  A read
   that takes over a second shows its progress on stderr. */
typedef struct {
   PR_Format     kind;
   PR_Callgrind *cg;
   char         *data;
   size_t        len, lines;
   int           last;
} PF_Input;

int pf_read(const char *path, PF_Input *in, PR_Error *err);

/* An index from keys to positions in an array (pf_util.c). */
typedef struct { size_t hash, pos; } PF_Slot;   /* pos: index + 1; 0 free */
typedef struct { PF_Slot *slot; size_t n_slots, n; } PF_Index;

/* A hash of LEN bytes at KEY, continuing H (0 to start). */
size_t pf_hash(const void *key, size_t len, size_t h);
/* The position of the element whose key hashes to H and for which
   SAME(CTX, position) is true; if there is none, NEW_INDEX is recorded
   as that key's position and returned (the caller then puts the element
   there). */
size_t pf_index_find(PF_Index *x, size_t h,
                     int (*same)(const void *ctx, size_t i),
                     const void *ctx, size_t new_index);
void   pf_index_free(PF_Index *x);

/* A frame of the flame graph: a name on one path from the root.  TOTAL
   is the cost of the path (the frame's width), SELF the part not in any
   child. */
typedef struct PF_Node {
   char           *name;
   char           *where;          /* "file, object" of a call graph's
                                      function, or NULL */
   pr_u64          total, self;
   struct PF_Node *child, *next;   /* first child; next sibling */
   unsigned        n_children;
   unsigned        id;             /* pre-order number, from the writer */
   pr_u64          other, other_self;   /* a differential graph: the same
                                      path's total and self cost in the
                                      other profile */
} PF_Node;

/* A heap profile's snapshot, for the memory-over-time chart. */
typedef struct {
   pr_u64 time, heap, extra, stacks;
} PF_Point;

/* A call profile's function, its costs summed over the files read:
   SELF and INCL have a column for every event of the table
   (PF_Fns.cols).  Inclusive is self plus the inclusive cost of the calls
   to other functions, as callgrind_annotate --inclusive=yes and
   KCachegrind count it. */
typedef struct {
   char   *name, *file, *obj;
   pr_u64 *self, *incl;
   int     section;               /* has its callers/callees on the page */
} PF_Fn;

typedef struct {                  /* the calls from one function to another */
   size_t  caller, callee;        /* into PF_Fns.fns */
   pr_u64  calls;
   pr_u64 *incl;                  /* PF_Fns.cols columns */
} PF_Arc;

typedef struct {
   /* Columns: the first file's events (cols[0..n_events-1]), then the
      derived ones KCachegrind adds where their terms are there (L1m,
      LLm, Bm, CEst...). */
   char   **cols;
   int      n_cols, n_events;
   int      sort_col;             /* the report's event */
   int      xtree;                /* an xtree memory file: curB, totB... */
   int      has_calls;            /* any call arc (not a Cachegrind file) */
   pr_u64  *total;                /* self cost summed, per column */
   PF_Fn   *fns;   size_t n_fns, cap_fns;
   PF_Arc  *arcs;  size_t n_arcs, cap_arcs;
   PF_Index fn_index, arc_index;
} PF_Fns;

/* Add the functions and arcs of P to FNS (the first file sets the
   events; later files' events are matched by name, others left out). */
void pf_fns_add(PF_Fns *fns, const PR_Callgrind *p);
/* Inclusive costs and derived columns, once every file is added. */
void pf_fns_finish(PF_Fns *fns);
void pf_fns_free(PF_Fns *fns);
/* The page's sections for FNS: the totals with the miss rates, the top
   functions by inclusive and by self cost (an xtree file's views
   instead: most allocations, most bytes, still allocated at exit), and
   each listed function's callers and callees, linked. */
int  pf_write_fns(xmlTextWriterPtr w, PF_Fns *fns);
/* An element NAME of class CLS (or none) holding TEXT. */
int  pf_el(xmlTextWriterPtr w, const char *name, const char *cls,
           const char *text);

/* The report's model: the tree and what the page says of it. */
typedef struct {
   PF_Node  *root;           /* "all" */
   char     *title;          /* the page's and the graph's title */
   char     *unit;           /* "Ir", "bytes", "samples" */
   int       estimated;      /* widths estimated from a call graph */
   char     *source;         /* "callgrind", "massif", "folded" */
   char    **cmds;           /* the profiled command lines, one a file */
   size_t    n_cmds;
   /* A heap profile (the first file's): its snapshots in time order,
      the peak's index, the time unit ("i", "ms", "B"). */
   PF_Point *series;
   size_t    n_series, peak;
   char     *time_unit;
   /* Its top allocation sites (the root's children, by their largest
      size in any detailed snapshot), and each snapshot's bytes of each:
      site_bytes[snapshot * n_sites + site]; DETAILED[snapshot] says
      whether that snapshot has a tree (else the figures are
      interpolated between the nearest snapshots that have one). */
   char    **sites;
   size_t    n_sites;
   pr_u64   *site_bytes;
   unsigned char *detailed;
   /* A differential flame graph (profdiff): 1, the new profile's tree,
      each node's OTHER the base's; 2, the base's, OTHER the new's.
      Frames are red where their self cost grew, blue where it fell, by
      the change over MAX_CHANGE (as flamegraph.pl colours a differential
      graph: by the frame's own change, not its children's). */
   int       diff;
   pr_u64    max_change;
   /* heapsnap's FILE.stacks beside the first heap profile, or NULL. */
   PR_Massif *stacks;
   /* A call profile's functions (Callgrind-format input), or NULL. */
   PF_Fns   *fns;
} PF_Report;

PF_Node *pf_node_new(const char *name);
/* The child of PARENT named NAME (made if missing). */
PF_Node *pf_child(PF_Node *parent, const char *name);
void     pf_node_free(PF_Node *n);
/* Children in a fixed order (by name, as flamegraph.pl sorts them), so
   that the same input always gives the same report. */
void     pf_sort(PF_Node *n);

/* Add each kind of input to the tree under ROOT, in UNIT (0: fine).
   Folded stacks are exact.  A call graph gives an estimate: from each
   function nobody calls, a function's inclusive cost is split among its
   callees as its arcs' inclusive costs are, and a call back into a
   function already on the path ends the path there (its cost stays in
   the caller's self).  A heap profile gives the tree of its peak
   snapshot (the peak, else the largest detailed one); SNAP gets its
   number, or -1 if the file has no tree. */
void pf_add_folded(PF_Node *root, const PR_Folded *f);
int  pf_add_callgrind(PF_Node *root, const PR_Callgrind *p, int event);
void pf_add_massif(PF_Node *root, const PR_Massif *m, long *snap);

/* The flame graph of R, WIDTH pixels wide, frames narrower than MINWIDTH
   pixels left out (their cost stays in their parent), into W: a whole
   SVG document when STANDALONE, else the <svg> element of a page. */
/* A <text> element at X, Y with class CLS and text-anchor ANCHOR (each
   left out when NULL); non-zero when the writer failed. */
int pf_svg_text(xmlTextWriterPtr w, const char *cls, double x, double y,
                const char *anchor, const char *s);
int pf_write_svg(xmlTextWriterPtr w, const PF_Report *r, double width,
                 double minwidth, int standalone);
/* The chart's figures from a heap profile M: its snapshots, its peak
   and its top allocation sites. */
void pf_chart_series(PF_Report *r, const PR_Massif *m);
void pf_chart_free(PF_Report *r);
/* A heap profile's memory over time, as massif-visualizer draws it:
   the top allocation sites, the rest of the heap, extra (allocator
   overhead) and stacks stacked over time, the peak marked, a tooltip
   per snapshot, a legend; an <svg> element of the page. */
int pf_write_chart(xmlTextWriterPtr w, const PF_Report *r, double width);
/* Writes OUT with WRITE(w, CTX), under a temporary name beside it,
   renamed when whole; 0, or -1 with the one-line reason in MSG. */
int pf_write_file(const char *out, int (*write)(xmlTextWriterPtr w,
                                                 const void *ctx),
                  const void *ctx, char *msg, size_t size);
/* The table of each thread's stack high-water mark and call stack,
   from heapsnap's FILE.stacks M. */
int pf_write_stacks(xmlTextWriterPtr w, const PR_Massif *m);
/* A page: its start up to the <style> (pf_page_start; the caller
   writes its style element), then the body and its <h1> TITLE
   (pf_page_body), and its end (pf_page_end).  profreport's and
   profdiff's pages. */
int pf_page_start(xmlTextWriterPtr w, const char *title);
int pf_page_body(xmlTextWriterPtr w, const char *title);
int pf_page_end(xmlTextWriterPtr w);
/* The page of R. */
int pf_write_html(xmlTextWriterPtr w, const PF_Report *r, double width,
                  double minwidth);

/* NAME as valid UTF-8 without control characters ('?' for a byte that
   is neither), into BUF: what the writers give xmlTextWriter, so that
   every report is well-formed whatever the names. */
const char *pf_clean(const char *name, char *buf, size_t size);
/* V with thousands separated by commas, "1,234,567", into BUF: every
   figure of a report. */
void pf_commas(pr_u64 v, char *buf, size_t size);
/* The colour of a frame named NAME, "rgb(r,g,b)", the same for the same
   name in every report (a hash of the name, in flamegraph.pl's warm
   range). */
void pf_colour(const char *name, char *buf, size_t size);

#endif /* PF_H */
