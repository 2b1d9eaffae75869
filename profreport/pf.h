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
                   chart.

   Names shared between the files start with pf_/PF_. */

#ifndef PF_H
#define PF_H

#include <libxml/xmlwriter.h>

#include "profreader.h"

/* One input file (pf_read.c): its kind and, for a Callgrind-format
   file, its call graph, read a chunk at a time (PR_CG_CALL_GRAPH), or
   for any other kind its whole text (DATA, NUL-terminated, LEN bytes),
   to be freed by the caller.  0, or -1 with ERR set: the file cannot be
   read, or is a bad Callgrind-format file.  A read that takes over a
   second shows its progress on stderr. */
typedef struct {
   PR_Format     kind;
   PR_Callgrind *cg;
   char         *data;
   size_t        len;
} PF_Input;

int pf_read(const char *path, PF_Input *in, PR_Error *err);

/* A frame of the flame graph: a name on one path from the root.  TOTAL
   is the cost of the path (the frame's width), SELF the part not in any
   child. */
typedef struct PF_Node {
   char           *name;
   pr_u64          total, self;
   struct PF_Node *child, *next;   /* first child; next sibling */
   unsigned        n_children;
   unsigned        id;             /* pre-order number, from the writer */
} PF_Node;

/* A heap profile's snapshot, for the memory-over-time chart. */
typedef struct {
   pr_u64 time, heap, extra, stacks;
} PF_Point;

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
int pf_write_svg(xmlTextWriterPtr w, const PF_Report *r, double width,
                 double minwidth, int standalone);
/* A heap profile's memory over time, as massif-visualizer draws it:
   heap, extra (allocator overhead) and stacks stacked over time, the
   peak marked, a tooltip per snapshot; an <svg> element of the page. */
int pf_write_chart(xmlTextWriterPtr w, const PF_Report *r, double width);
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
