/* pd_calls.c: two call profiles compared.

   Copyright (C) 2026 The heapsnap/callprof developers.
   SPDX-License-Identifier: GPL-2.0-or-later

   Functions of both files matched by folded name and object (pd_fold),
   their self and inclusive costs in the common events, the lists of the
   largest changes, new and vanished functions, the gate per function,
   the JSON summary of a call profile (profdiff.c says what and why). */

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "pd.h"

/*------------------------------------------------------------*/
/*--- Matching functions                                   ---*/
/*------------------------------------------------------------*/

/* NAME without a recursion level's or a clone's suffix, into BUF; *LEVEL
   set if it was a deeper recursion level (fn'2). */
const char *pd_fold(const char *name, char *buf, size_t size, int *level)
{
   static const char *const clones[] = { ".isra", ".constprop", ".part",
      ".cold", ".lto_priv", ".localalias", ".llvm" };
   size_t n, k, changed = 1;
   char *c;
   snprintf(buf, size, "%s", name);
   *level = 0;
   if (!pd_opt.fold)
      return buf;
   n = strlen(buf);
   /* fn'2 */
   k = n;
   while (k > 0 && buf[k - 1] >= '0' && buf[k - 1] <= '9')
      k--;
   if (k < n && k > 1 && buf[k - 1] == '\'') {
      buf[k - 1] = '\0';
      *level = 1;
   }
   /* " [clone .isra.0]", anywhere (C++ names) */
   while ((c = strstr(buf, " [clone ")) != NULL) {
      char *e = strchr(c, ']');
      if (e == NULL)
         break;
      memmove(c, e + 1, strlen(e + 1) + 1);
   }
   /* foo.isra.0.constprop.1: from the end */
   while (changed) {
      changed = 0;
      n = strlen(buf);
      k = n;
      while (k > 0 && buf[k - 1] >= '0' && buf[k - 1] <= '9')
         k--;
      if (k < n && k > 0 && buf[k - 1] == '.')
         k--;                               /* ".0" */
      else
         k = n;
      for (size_t j = 0; j < sizeof clones / sizeof clones[0]; j++) {
         size_t m = strlen(clones[j]);
         if (k > m && strncmp(buf + k - m, clones[j], m) == 0) {
            buf[k - m] = '\0';
            changed = 1;
            break;
         }
      }
   }
   return buf;
}

static const char *strip(const char *path)
{
   const char *s;
   if (pd_opt.strip && strncmp(path, pd_opt.strip, strlen(pd_opt.strip)) == 0)
      path += strlen(pd_opt.strip);
   s = strrchr(path, '/');
   return s ? s + 1 : path;
}

/* A function of both sides: its folded name and where, and each side's
   self and inclusive costs in the common events. */
typedef struct {
   char   *name, *where;
   pr_u64 *self[2], *incl[2];
   int     seen[2];
} DFn;

typedef struct {
   int      n_ev;
   char   **ev;              /* the common events */
   int     *col[2];          /* each side's column of each */
   pr_u64  *total[2];
   DFn     *fns;  size_t n_fns, cap;
   PF_Index index;
} Diff;

typedef struct { const Diff *d; const char *name, *where; } DKey;

static int same_dfn(const void *ctx, size_t i)
{
   const DKey *k = ctx;
   return !strcmp(k->d->fns[i].name, k->name) &&
          !strcmp(k->d->fns[i].where, k->where);
}

static DFn *dfn_of(Diff *d, const char *name, const char *where)
{
   DKey k = { d, name, where };
   size_t h = pf_hash(name, strlen(name) + 1, 0), i;
   h = pf_hash(where, strlen(where), h);
   i = pf_index_find(&d->index, h, same_dfn, &k, d->n_fns);
   if (i == d->n_fns) {
      DFn *f;
      int s;
      if (d->n_fns == d->cap) {
         d->cap = d->cap ? 2 * d->cap : 256;
         d->fns = realloc(d->fns, d->cap * sizeof *d->fns);
         if (d->fns == NULL)
            pd_usage_error("out of memory", "");
      }
      f = &d->fns[d->n_fns++];
      f->name = pf_xstrdup(name);
      f->where = pf_xstrdup(where);
      for (s = 0; s < 2; s++) {
         f->self[s] = pf_xcalloc((size_t)d->n_ev, sizeof (pr_u64));
         f->incl[s] = pf_xcalloc((size_t)d->n_ev, sizeof (pr_u64));
         f->seen[s] = 0;
      }
   }
   return &d->fns[i];
}

static void add_side(Diff *d, const PD_Side *s, int side)
{
   size_t i;
   int e, m, level;
   char name[4096], where[2048];
   for (i = 0; i < s->fns.n_fns; i++) {
      const PF_Fn *f = &s->fns.fns[i];
      DFn *g;
      pd_fold(f->name, name, sizeof name, &level);
      for (m = 0; side == 0 && m < pd_opt.n_maps; m++)
         if (!strcmp(name, pd_opt.map_old[m]))
            snprintf(name, sizeof name, "%s", pd_opt.map_new[m]);
      snprintf(where, sizeof where, "%s", f->obj[0] ? strip(f->obj)
                                                    : strip(f->file));
      g = dfn_of(d, name, where);
      g->seen[side] = 1;
      for (e = 0; e < d->n_ev; e++) {
         g->self[side][e] += f->self[d->col[side][e]];
         if (!level)
            g->incl[side][e] += f->incl[d->col[side][e]];
      }
   }
   for (e = 0; e < d->n_ev; e++)
      d->total[side][e] = s->fns.total[d->col[side][e]];
}

/* The common events, in BASE's order; the others named on stdout. */
static void common_events(Diff *d, const PD_Side *b, const PD_Side *n)
{
   int e, k;
   d->ev = pf_xcalloc((size_t)b->fns.n_events, sizeof *d->ev);
   d->col[0] = pf_xcalloc((size_t)b->fns.n_events, sizeof (int));
   d->col[1] = pf_xcalloc((size_t)b->fns.n_events, sizeof (int));
   for (e = 0; e < b->fns.n_events; e++)
      for (k = 0; k < n->fns.n_events; k++)
         if (!strcmp(b->fns.cols[e], n->fns.cols[k])) {
            d->ev[d->n_ev] = b->fns.cols[e];
            d->col[0][d->n_ev] = e;
            d->col[1][d->n_ev++] = k;
         }
   if (d->n_ev == 0)
      pd_bad("%s and %s have no event in common", b->path, n->path);
   for (e = 0; e < 2; e++) {
      const PD_Side *s = e ? n : b, *o = e ? b : n;
      int first = 1;
      for (k = 0; k < s->fns.n_events; k++) {
         int j, found = 0;
         for (j = 0; j < o->fns.n_events; j++)
            found |= !strcmp(s->fns.cols[k], o->fns.cols[j]);
         if (!found) {
            printf("%s %s", first ? (e ? "left out, only in NEW:" :
                                     "left out, only in BASE:") : "",
                   s->fns.cols[k]);
            first = 0;
         }
      }
      if (!first)
         printf("\n");
   }
   d->total[0] = pf_xcalloc((size_t)d->n_ev, sizeof (pr_u64));
   d->total[1] = pf_xcalloc((size_t)d->n_ev, sizeof (pr_u64));
}

/*------------------------------------------------------------*/
/*--- The lists of changes                                 ---*/
/*------------------------------------------------------------*/

static const Diff *sort_d;
static int sort_ev, sort_incl, sort_rel;

static double change_of(const DFn *f)
{
   const pr_u64 *b = sort_incl ? f->incl[0] : f->self[0];
   const pr_u64 *n = sort_incl ? f->incl[1] : f->self[1];
   double c = (double)n[sort_ev] - (double)b[sort_ev];
   if (sort_rel)
      return b[sort_ev] ? c / (double)b[sort_ev] : HUGE_VAL;
   return c;
}

static int cmp_change(const void *a, const void *b)
{
   const DFn *x = &sort_d->fns[*(const size_t *)a];
   const DFn *y = &sort_d->fns[*(const size_t *)b];
   double u = fabs(change_of(x)), v = fabs(change_of(y));
   int c;
   if (u != v)
      return u > v ? -1 : 1;
   if ((c = strcmp(x->name, y->name)) != 0)
      return c;
   return strcmp(x->where, y->where);
}

/* Whether F's self (or inclusive) cost of event E is above the noise
   floor on either side. */
static int above_noise(const Diff *d, const DFn *f, int e, int incl)
{
   double floor = pd_opt.noise / 100.0 * (double)d->total[0][e];
   const pr_u64 *x = incl ? f->incl[0] : f->self[0];
   const pr_u64 *y = incl ? f->incl[1] : f->self[1];
   return (double)x[e] > floor || (double)y[e] > floor;
}

static void print_changes(const Diff *d, int e, int incl, int rel,
                          size_t *order)
{
   size_t i, n = 0;
   char a[40], b[40], c[40], p[40];
   for (i = 0; i < d->n_fns; i++) {
      const DFn *f = &d->fns[i];
      const pr_u64 *x = incl ? f->incl[0] : f->self[0];
      const pr_u64 *y = incl ? f->incl[1] : f->self[1];
      if (x[e] == y[e] || !f->seen[0] || !f->seen[1])
         continue;
      if (rel && !above_noise(d, f, e, incl))
         continue;
      order[n++] = i;
   }
   sort_d = d;
   sort_ev = e;
   sort_incl = incl;
   sort_rel = rel;
   qsort(order, n, sizeof *order, cmp_change);
   printf("\n%s %s, the largest %s changes%s:\n", incl ? "Inclusive" : "Self",
          d->ev[e], rel ? "relative" : "absolute", rel ?
          " (functions above the noise floor)" : "");
   if (n == 0) {
      printf("  none\n");
      return;
   }
   printf("  %15s %15s %15s %9s  %s\n", "BASE", "NEW", "change", "%",
          "function (object)");
   for (i = 0; i < n && i < PD_TOP_N; i++) {
      const DFn *f = &d->fns[order[i]];
      const pr_u64 *x = incl ? f->incl[0] : f->self[0];
      const pr_u64 *y = incl ? f->incl[1] : f->self[1];
      printf("  %15s %15s %15s %9s  %s (%s)\n", pd_commas(x[e], a, sizeof a),
             pd_commas(y[e], b, sizeof b),
             pd_signed_commas((double)y[e] - (double)x[e], c, sizeof c),
             pd_percent(x[e], y[e], p, sizeof p), f->name, f->where);
   }
}

static void print_only(const Diff *d, int e, int side, size_t *order)
{
   size_t i, n = 0;
   char a[40];
   for (i = 0; i < d->n_fns; i++)
      if (d->fns[i].seen[side] && !d->fns[i].seen[!side])
         order[n++] = i;
   sort_d = d;
   sort_ev = e;
   sort_incl = 0;
   sort_rel = 0;
   qsort(order, n, sizeof *order, cmp_change);
   printf("\n%s (%zu), by self %s:\n", side ? "New functions, only in NEW"
          : "Vanished functions, only in BASE", n, d->ev[e]);
   if (n == 0)
      printf("  none\n");
   for (i = 0; i < n && i < PD_TOP_N; i++)
      printf("  %15s  %s (%s)\n", pd_commas(d->fns[order[i]].self[side][e], a,
             sizeof a), d->fns[order[i]].name, d->fns[order[i]].where);
   if (n > PD_TOP_N)
      printf("  and %zu more\n", n - PD_TOP_N);
}

/*------------------------------------------------------------*/
/*--- Call profiles                                        ---*/
/*------------------------------------------------------------*/

int pd_diff_calls(PD_Side *b, PD_Side *n)
{
   Diff d;
   size_t *order, i;
   int e, ev = 0, l, status;
   char x[40], y[40], c[40], p[40];

   memset(&d, 0, sizeof d);
   common_events(&d, b, n);
   add_side(&d, b, 0);
   add_side(&d, n, 1);
   if (pd_opt.event) {
      for (ev = 0; ev < d.n_ev && strcmp(d.ev[ev], pd_opt.event); ev++)
         ;
      if (ev == d.n_ev)
         pd_bad("--event=%s: not an event of both files%s", pd_opt.event, "");
   }
   for (l = 0; l < pd_opt.n_limits; l++) {
      for (e = 0; e < d.n_ev && strcmp(d.ev[e], pd_opt.limits[l].event); e++)
         ;
      if (e == d.n_ev)
         pd_bad("--limit/--warn %s: not an event of both files%s",
             pd_opt.limits[l].event, "");
   }
   printf("\n%-10s %17s %17s %17s %9s\n", "totals", "BASE", "NEW", "change", "%");
   for (e = 0; e < d.n_ev; e++)
      printf("%-10s %17s %17s %17s %9s\n", d.ev[e],
             pd_commas(d.total[0][e], x, sizeof x), pd_commas(d.total[1][e], y, sizeof y),
             pd_signed_commas((double)d.total[1][e] - (double)d.total[0][e], c, sizeof c),
             pd_percent(d.total[0][e], d.total[1][e], p, sizeof p));
   order = pf_xcalloc(d.n_fns, sizeof *order);
   print_changes(&d, ev, 0, 0, order);
   print_changes(&d, ev, 0, 1, order);
   if (!b->cachegrind && !n->cachegrind) {
      print_changes(&d, ev, 1, 0, order);
      print_changes(&d, ev, 1, 1, order);
   }
   print_only(&d, ev, 1, order);
   print_only(&d, ev, 0, order);

   /* The gate: totals, then each function above the noise floor. */
   for (l = 0; l < pd_opt.n_limits; l++) {
      for (e = 0; strcmp(d.ev[e], pd_opt.limits[l].event); e++)
         ;
      pd_judge(&pd_opt.limits[l], NULL, d.total[0][e], d.total[1][e]);
      for (i = 0; pd_opt.per_function && i < d.n_fns; i++)
         if (above_noise(&d, &d.fns[i], e, 0))
            pd_judge(&pd_opt.limits[l], d.fns[i].name, d.fns[i].self[0][e],
                  d.fns[i].self[1][e]);
   }
   if (pd_n_verdicts)
      printf("\n");
   status = pd_print_verdicts();
   if (pd_opt.html) {
      int col[2] = { d.col[0][ev], d.col[1][ev] };
      pd_write_html(b, n, col, d.ev[ev]);
   }

   if (pd_opt.json) {
      char tmp[4200];
      FILE *f = pd_json_open(tmp, sizeof tmp);
      pd_json_head(f, b, n);
      fprintf(f, ",\n  \"kind\": \"%s\",\n  \"events\": [", b->cachegrind ?
              "cachegrind" : "callgrind");
      for (e = 0; e < d.n_ev; e++) {
         fprintf(f, "%s", e ? ", " : "");
         pd_json_string(f, d.ev[e]);
      }
      fprintf(f, "],\n  \"totals\": {");
      for (e = 0; e < d.n_ev; e++) {
         fprintf(f, "%s\n    ", e ? "," : "");
         pd_json_string(f, d.ev[e]);
         fprintf(f, ": ");
         pd_json_change(f, d.total[0][e], d.total[1][e]);
      }
      fprintf(f, "\n  },\n  \"functions\": [");
      /* Every function that changed in the event, the largest first. */
      {
         size_t k = 0, m = 0;
         for (i = 0; i < d.n_fns; i++)
            if (d.fns[i].self[0][ev] != d.fns[i].self[1][ev] ||
                d.fns[i].incl[0][ev] != d.fns[i].incl[1][ev])
               order[m++] = i;
         sort_d = &d;
         sort_ev = ev;
         sort_incl = 0;
         sort_rel = 0;
         qsort(order, m, sizeof *order, cmp_change);
         for (k = 0; k < m; k++) {
            const DFn *g = &d.fns[order[k]];
            fprintf(f, "%s\n    {\"name\": ", k ? "," : "");
            pd_json_string(f, g->name);
            fprintf(f, ", \"object\": ");
            pd_json_string(f, g->where);
            fprintf(f, ", \"in\": \"%s\", \"self\": ", !g->seen[0] ? "new" :
                    !g->seen[1] ? "base" : "both");
            pd_json_change(f, g->self[0][ev], g->self[1][ev]);
            fprintf(f, ", \"inclusive\": ");
            pd_json_change(f, g->incl[0][ev], g->incl[1][ev]);
            fprintf(f, "}");
         }
         fprintf(f, "%s],\n  \"event\": ", m ? "\n  " : "");
         pd_json_string(f, d.ev[ev]);
         fprintf(f, ",\n");
      }
      pd_json_verdicts(f, status);
      pd_json_close(f, tmp);
   }
   free(order);
   return status;
}

