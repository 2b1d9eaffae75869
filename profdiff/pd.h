/* pd.h: what profdiff's files share.

   Copyright (C) 2026 The heapsnap/callprof developers.
   SPDX-License-Identifier: GPL-2.0-or-later

   profdiff is split by job:
     profdiff.c    the command line and reading the two files;
     pd_calls.c    call profiles: functions matched, their changes;
     pd_heap.c     heap profiles: the peaks and their sites;
     pd_report.c   figures, the gate's verdicts, the JSON summary;
     pd_html.c     the differential flame graph.
   profreport's library (profreport/pf.h) reads the files and draws the
   graph.  Names shared between the files start with pd_/PD_. */

#ifndef PD_H
#define PD_H

#include <stdio.h>

#include "pf.h"

#define PD_TOP_N 15            /* rows of each list */

typedef struct {            /* --limit / --warn EV=AMOUNT */
   char  *event;
   double amount;           /* a percentage, or a count */
   int    percent;
   int    warn;             /* --warn, not --limit */
} PD_Limit;

typedef struct {
   const char *files[2];
   const char *event, *json, *html, *strip;
   char      **map_old, **map_new;
   int         n_maps;
   PD_Limit      *limits;
   int         n_limits;
   int         per_function, fold;
   double      noise;        /* percent of the base's total */
} PD_Options;
extern PD_Options pd_opt;

typedef struct {
   const char   *path;
   PR_Format     kind;
   int           cachegrind;   /* no creator: line, no calls */
   PF_Fns        fns;
   PR_Callgrind *cg;           /* kept for --html's flame graph */
   PR_Massif    *ms;
} PD_Side;

/* One line "profdiff: ..." (FMT with A and B) and exit 2. */
void pd_bad(const char *fmt, const char *a, const char *b);
void pd_usage_error(const char *what, const char *arg);

/* NAME without a recursion level's or a clone's suffix, into BUF; *LEVEL
   set if it was a deeper recursion level (fn'2). */
const char *pd_fold(const char *name, char *buf, size_t size, int *level);

/* Figures as printed: "1,234", "+1,234", "+12.34%". */
const char *pd_commas(pr_u64 v, char *buf, size_t size);
const char *pd_signed_commas(double v, char *buf, size_t size);
const char *pd_percent(pr_u64 base, pr_u64 now, char *buf, size_t size);

/* The gate: a verdict on a growth from BASE to NOW (of the total, or of
   FUNCTION), and all of them printed; 1 if a limit was exceeded. */
void pd_judge(const PD_Limit *l, const char *function, pr_u64 base,
              pr_u64 now);
int  pd_print_verdicts(void);
extern size_t pd_n_verdicts;

/* The JSON summary (docs/profdiff.md), written under a temporary name. */
FILE *pd_json_open(char *tmp, size_t size);
void  pd_json_close(FILE *f, const char *tmp);
void  pd_json_head(FILE *f, const PD_Side *b, const PD_Side *n);
void  pd_json_string(FILE *f, const char *s);
void  pd_json_change(FILE *f, pr_u64 base, pr_u64 now);
void  pd_json_verdicts(FILE *f, int status);

/* Each kind compared, printed, judged; the exit status. */
int  pd_diff_calls(PD_Side *b, PD_Side *n);
int  pd_diff_heap(PD_Side *b, PD_Side *n);
/* --html: both graphs coloured by the change of event COL (each side's
   column; -1 for heap profiles), in UNIT. */
void pd_write_html(PD_Side *b, PD_Side *n, const int col[2], const char *unit);

#endif /* PD_H */
