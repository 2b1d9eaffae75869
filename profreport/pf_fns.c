/* pf_fns.c: a call profile's functions, as KCachegrind lists them.

   Copyright (C) 2026 The heapsnap/callprof developers.
   SPDX-License-Identifier: GPL-2.0-or-later

   The flame graph shows paths; a reviewer also wants the list KCachegrind
   opens on: every function with its self and inclusive cost in every
   event, the events KCachegrind derives, and who calls whom how often.
   This file builds that list from Callgrind-format files and writes it
   into the page.

   Functions are matched across files by name, source file and object
   (as KCachegrind names them), so the dumps of one run, its threads or
   its processes add up; a later file's events are matched by name.
   Call arcs are summed per caller and callee over their call sites.  A
   function's inclusive cost is its self cost plus the inclusive cost of
   its calls to other functions: callgrind_annotate --inclusive=yes's
   figure, which counts a cycle of mutually recursive functions more than
   once, as that does.

   Derived events, where the file has their terms, with KCachegrind's
   names and formulas:

      L1m  = I1mr + D1mr + D1mw          L2m = I2mr + D2mr + D2mw
      LLm  = ILmr + DLmr + DLmw          Bm  = Bim + Bcm
      CEst = Ir + 10 Bm + 10 L1m + 20 Ge + 100 L2m + 100 LLm

   and the miss rates of the totals (I1, D1, LL misses per access, and
   mispredicted conditional and indirect branches per branch).

   The page gets (pf_write_fns):

      <h2>Totals</h2> a table: every column's total; the miss rates
      <h2>Top functions by inclusive cost (EV)</h2> a table of 30 rows,
          every column's inclusive cost
      <h2>Top functions by self cost (EV)</h2> the same, self cost
      (an xtree memory file instead: most allocations (totBk), most
       bytes allocated (totB), still allocated at exit (curB))
      <h2>Callers and callees</h2> for each function named in those
          tables (each table row links here, id="fn-N"): its callers
          and callees with the calls and the calls' inclusive cost,
          each linked to its own entry where it has one. */

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "pf.h"

#define TOP_FNS   30
#define TOP_ARCS  20
#define MAX_DERIVED 8

/* A derived column: "3*Bm" terms, a coefficient and an event. */
static const struct { const char *name, *terms; } derived[] = {
   { "L1m",  "I1mr D1mr D1mw" },
   { "L2m",  "I2mr D2mr D2mw" },
   { "LLm",  "ILmr DLmr DLmw" },
   { "Bm",   "Bim Bcm" },
   { "CEst", "Ir 10*Bm 10*L1m 20*Ge 100*L2m 100*LLm" },
};

/* A miss rate: the misses' sum over the accesses' sum. */
static const struct { const char *name, *misses, *accesses; } rates[] = {
   { "I1 miss rate",            "I1mr",           "Ir" },
   { "D1 miss rate",            "D1mr D1mw",      "Dr Dw" },
   { "LL miss rate",            "ILmr DLmr DLmw", "Ir Dr Dw" },
   { "conditional mispredicted", "Bcm",           "Bc" },
   { "indirect mispredicted",   "Bim",            "Bi" },
};




static int column(const PF_Fns *f, const char *name, size_t len)
{
   int c;
   for (c = 0; c < f->n_cols; c++)
      if (strlen(f->cols[c]) == len && strncmp(f->cols[c], name, len) == 0)
         return c;
   return -1;
}

/*------------------------------------------------------------*/
/*--- Adding files                                         ---*/
/*------------------------------------------------------------*/

static const char *or_empty(const char *s)
{
   return s ? s : "";
}

typedef struct { const PF_Fns *f; const PR_Fn *fn; } FnKey;

static int same_fn(const void *ctx, size_t i)
{
   const FnKey *k = ctx;
   const PF_Fn *g = &k->f->fns[i];
   return strcmp(g->name, or_empty(k->fn->name)) == 0 &&
          strcmp(g->file, or_empty(k->fn->file)) == 0 &&
          strcmp(g->obj, or_empty(k->fn->obj)) == 0;
}

static size_t hash_fn(const PR_Fn *fn)
{
   size_t h = pf_hash(or_empty(fn->name), strlen(or_empty(fn->name)), 0);
   h = pf_hash(or_empty(fn->file), strlen(or_empty(fn->file)) + 1, h);
   return pf_hash(or_empty(fn->obj), strlen(or_empty(fn->obj)) + 1, h);
}

static size_t fn_of(PF_Fns *f, const PR_Fn *fn)
{
   FnKey k = { f, fn };
   size_t i = pf_index_find(&f->fn_index, hash_fn(fn), same_fn, &k, f->n_fns);
   PF_Fn *g;
   if (i < f->n_fns)
      return i;
   if (f->n_fns == f->cap_fns) {
      f->cap_fns = f->cap_fns ? 2 * f->cap_fns : 256;
      f->fns = pf_xrealloc(f->fns, f->cap_fns * sizeof *f->fns);
   }
   g = &f->fns[f->n_fns];
   g->name = pf_xstrdup(fn->name);
   g->file = pf_xstrdup(fn->file);
   g->obj = pf_xstrdup(fn->obj);
   g->self = pf_xcalloc((size_t)f->n_cols + MAX_DERIVED, sizeof *g->self);
   g->incl = pf_xcalloc((size_t)f->n_cols + MAX_DERIVED, sizeof *g->incl);
   g->section = 0;
   return f->n_fns++;
}

typedef struct { const PF_Fns *f; size_t caller, callee; } ArcKey;

static int same_arc(const void *ctx, size_t i)
{
   const ArcKey *k = ctx;
   return k->f->arcs[i].caller == k->caller && k->f->arcs[i].callee == k->callee;
}

static PF_Arc *arc_of(PF_Fns *f, size_t caller, size_t callee)
{
   ArcKey k = { f, caller, callee };
   size_t pair[2] = { caller, callee };
   size_t i = pf_index_find(&f->arc_index, pf_hash(pair, sizeof pair, 0),
                            same_arc, &k, f->n_arcs);
   if (i == f->n_arcs) {
      if (f->n_arcs == f->cap_arcs) {
         f->cap_arcs = f->cap_arcs ? 2 * f->cap_arcs : 256;
         f->arcs = pf_xrealloc(f->arcs, f->cap_arcs * sizeof *f->arcs);
      }
      f->arcs[i].caller = caller;
      f->arcs[i].callee = callee;
      f->arcs[i].calls = 0;
      f->arcs[i].incl = pf_xcalloc((size_t)f->n_events, sizeof (pr_u64));
      f->n_arcs++;
   }
   return &f->arcs[i];
}


void pf_fns_add(PF_Fns *f, const PR_Callgrind *p)
{
   int *map = pf_xcalloc((size_t)p->n_events, sizeof *map), e;
   PF_FnAt *at = pf_xcalloc(p->n_fns, sizeof *at);
   size_t i, k;

   if (f->cols == NULL) {                /* the first file: its events */
      f->cols = pf_xcalloc((size_t)p->n_events + MAX_DERIVED, sizeof *f->cols);
      for (e = 0; e < p->n_events; e++)
         f->cols[e] = pf_xstrdup(p->events[e]);
      f->n_cols = f->n_events = p->n_events;
      f->xtree = column(f, "curB", 4) >= 0 && column(f, "totB", 4) >= 0;
   }
   for (e = 0; e < p->n_events; e++)
      map[e] = column(f, p->events[e], strlen(p->events[e]));
   for (i = 0; i < p->n_fns; i++) {
      size_t g = fn_of(f, p->fns[i]);
      for (e = 0; e < p->n_events; e++)
         if (map[e] >= 0)
            f->fns[g].self[map[e]] += p->fns[i]->self[e];
      at[i].fn = p->fns[i];
      at[i].at = g;
   }
   pf_fn_at_sort(at, p->n_fns);
   for (k = 0; k < p->n_calls; k++) {
      const PR_Call *c = &p->calls[k];
      size_t from = pf_fn_at(at, p->n_fns, c->caller);
      size_t to = pf_fn_at(at, p->n_fns, c->callee);
      PF_Arc *a;
      if (from == (size_t)-1 || to == (size_t)-1)
         continue;
      a = arc_of(f, from, to);
      a->calls += c->calls;
      for (e = 0; e < p->n_events; e++)
         if (map[e] >= 0)
            a->incl[map[e]] += c->incl[e];
      f->has_calls = 1;
   }
   free(at);
   free(map);
}

/*------------------------------------------------------------*/
/*--- Inclusive and derived costs                          ---*/
/*------------------------------------------------------------*/

/* A list of terms ("Ir 10*Bm 10*L1m": derived[], rates[]), one term at
   a time: term(f, &t) reads the term at T.s and moves T.s past it,
   setting T.coef (1 without one), T.name and T.len (the event's name)
   and T.col (its column in F, -1 if the file has no such event); it
   returns 0 at the end of the list. */
typedef struct {
   const char   *s;
   unsigned long coef;
   const char   *name;
   size_t        len;
   int           col;
} Term;

static int term(const PF_Fns *f, Term *t)
{
   const char *e, *star;
   if (*t->s == '\0')
      return 0;
   e = strchr(t->s, ' ');
   if (e == NULL)
      e = t->s + strlen(t->s);
   star = memchr(t->s, '*', (size_t)(e - t->s));
   t->coef = star ? strtoul(t->s, NULL, 10) : 1;
   t->name = star ? star + 1 : t->s;
   t->len = (size_t)(e - t->name);
   t->col = column(f, t->name, t->len);
   t->s = *e ? e + 1 : e;
   return 1;
}

/* Column D of V from TERMS (columns before D only). */
static void derive(const PF_Fns *f, pr_u64 *v, int d, const char *terms)
{
   Term t = { terms, 0, NULL, 0, 0 };
   pr_u64 sum = 0;
   while (term(f, &t))
      if (t.col >= 0 && t.col < d)
         sum += t.coef * v[t.col];
   v[d] = sum;
}

/* Whether the terms of a derived column are there: one of them, and Ir
   too where it is a term (the cycle estimate is no estimate without). */
static int derivable(const PF_Fns *f, const char *terms)
{
   Term t = { terms, 0, NULL, 0, 0 };
   int other = 0;
   while (term(f, &t)) {
      if (t.len == 2 && strncmp(t.name, "Ir", 2) == 0) {
         if (t.col < 0)
            return 0;
      } else if (t.col >= 0)
         other = 1;
   }
   return other;
}

void pf_fns_finish(PF_Fns *f)
{
   size_t i, k;
   int e, d, first;
   f->total = pf_xcalloc((size_t)f->n_cols + MAX_DERIVED, sizeof *f->total);
   for (i = 0; i < f->n_fns; i++) {
      memcpy(f->fns[i].incl, f->fns[i].self,
             (size_t)f->n_events * sizeof *f->fns[i].incl);
      for (e = 0; e < f->n_events; e++)
         f->total[e] += f->fns[i].self[e];
   }
   for (k = 0; k < f->n_arcs; k++) {
      const PF_Arc *a = &f->arcs[k];
      if (a->caller == a->callee)       /* already in the caller's self */
         continue;
      for (e = 0; e < f->n_events; e++)
         f->fns[a->caller].incl[e] += a->incl[e];
   }
   first = f->n_cols;
   for (k = 0; k < sizeof derived / sizeof derived[0]; k++)
      if (column(f, derived[k].name, strlen(derived[k].name)) < 0 &&
          derivable(f, derived[k].terms))
         f->cols[f->n_cols++] = pf_xstrdup(derived[k].name);
   for (d = first; d < f->n_cols; d++) {
      const char *terms = NULL;
      for (k = 0; k < sizeof derived / sizeof derived[0]; k++)
         if (strcmp(derived[k].name, f->cols[d]) == 0)
            terms = derived[k].terms;
      derive(f, f->total, d, terms);
      for (i = 0; i < f->n_fns; i++) {
         derive(f, f->fns[i].self, d, terms);
         derive(f, f->fns[i].incl, d, terms);
      }
   }
}

void pf_fns_free(PF_Fns *f)
{
   size_t i;
   int c;
   for (i = 0; i < f->n_fns; i++) {
      free(f->fns[i].name);
      free(f->fns[i].file);
      free(f->fns[i].obj);
      free(f->fns[i].self);
      free(f->fns[i].incl);
   }
   for (i = 0; i < f->n_arcs; i++)
      free(f->arcs[i].incl);
   for (c = 0; c < f->n_cols; c++)
      free(f->cols[c]);
   free(f->cols);
   free(f->fns);
   free(f->arcs);
   free(f->total);
   pf_index_free(&f->fn_index);
   pf_index_free(&f->arc_index);
}

/*------------------------------------------------------------*/
/*--- The page's sections                                  ---*/
/*------------------------------------------------------------*/

/* What a view sorts by: SORT_COL's self or inclusive cost. */
static const PF_Fns *sort_fns;
static int sort_col, sort_incl;

static int cmp_by_view(const void *a, const void *b)
{
   const PF_Fn *x = &sort_fns->fns[*(const size_t *)a];
   const PF_Fn *y = &sort_fns->fns[*(const size_t *)b];
   pr_u64 u = sort_incl ? x->incl[sort_col] : x->self[sort_col];
   pr_u64 v = sort_incl ? y->incl[sort_col] : y->self[sort_col];
   int c;
   if (u != v)
      return u > v ? -1 : 1;
   if ((c = strcmp(x->name, y->name)) != 0)
      return c;
   if ((c = strcmp(x->obj, y->obj)) != 0)
      return c;
   return strcmp(x->file, y->file);
}

static int start(xmlTextWriterPtr w, const char *name, const char *cls)
{
   int rc = xmlTextWriterStartElement(w, BAD_CAST name) < 0;
   if (cls)
      rc |= xmlTextWriterWriteAttribute(w, BAD_CAST "class", BAD_CAST cls) < 0;
   return rc;
}

static int end(xmlTextWriterPtr w)
{
   return xmlTextWriterEndElement(w) < 0;
}

static int num(xmlTextWriterPtr w, pr_u64 v)
{
   char a[40];
   pf_commas(v, a, sizeof a);
   return pf_el(w, "td", "n", a);
}

/* The base name of PATH. */
static const char *base(const char *path)
{
   const char *s = strrchr(path, '/');
   return s ? s + 1 : path;
}

/* A function's name, linked to its entry if it has one, and where it
   is: "file, object". */
static int fn_cell(xmlTextWriterPtr w, const PF_Fns *f, size_t i)
{
   const PF_Fn *g = &f->fns[i];
   char buf[8192], id[40], where[8192];
   int rc = start(w, "td", "fn");
   if (g->section) {
      snprintf(id, sizeof id, "#fn-%zu", i);
      rc |= start(w, "a", NULL);
      rc |= xmlTextWriterWriteAttribute(w, BAD_CAST "href", BAD_CAST id) < 0;
   }
   rc |= xmlTextWriterWriteString(w, BAD_CAST pf_clean(g->name, buf,
                                                       sizeof buf)) < 0;
   if (g->section)
      rc |= end(w);
   snprintf(where, sizeof where, "%s%s%s", g->file[0] ? base(g->file) : "",
            g->file[0] && g->obj[0] ? ", " : "", g->obj[0] ? base(g->obj) : "");
   if (where[0])
      rc |= pf_el(w, "span", "where", pf_clean(where, buf, sizeof buf));
   return rc | end(w);
}

static int totals(xmlTextWriterPtr w, const PF_Fns *f)
{
   char buf[200];
   size_t k;
   int c, rc = pf_el(w, "h2", NULL, "Totals");
   rc |= start(w, "table", "fns");
   rc |= start(w, "tr", NULL);
   for (c = 0; c < f->n_cols; c++)
      rc |= pf_el(w, "th", c >= f->n_events ? "derived" : NULL, f->cols[c]);
   rc |= end(w) | start(w, "tr", NULL);
   for (c = 0; c < f->n_cols; c++)
      rc |= num(w, f->total[c]);
   rc |= end(w) | end(w);
   /* The miss rates, where both sides are in the file. */
   for (k = 0; k < sizeof rates / sizeof rates[0]; k++) {
      pr_u64 v[2] = { 0, 0 };
      const char *side[2] = { rates[k].misses, rates[k].accesses };
      int s, have[2] = { 0, 0 };
      for (s = 0; s < 2; s++) {
         Term t = { side[s], 0, NULL, 0, 0 };
         while (term(f, &t))
            if (t.col >= 0) {
               v[s] += f->total[t.col];
               have[s] = 1;
            }
      }
      if (!have[0] || !have[1] || v[1] == 0)
         continue;
      snprintf(buf, sizeof buf, "%s: %.2f%% (%s / %s)", rates[k].name,
               100.0 * (double)v[0] / (double)v[1], rates[k].misses,
               rates[k].accesses);
      rc |= pf_el(w, "p", "rate", buf);
   }
   return rc;
}

/* A table of the top functions: by SORT (self or inclusive) of COL, the
   same kind of cost of every column, rows with no cost left out. */
static int view(xmlTextWriterPtr w, PF_Fns *f, const char *title,
                const char *none, int col, int incl, size_t *order, int mark)
{
   char buf[400];
   size_t i;
   int c, rc = 0;
   sort_fns = f;
   sort_col = col;
   sort_incl = incl;
   for (i = 0; i < f->n_fns; i++)
      order[i] = i;
   qsort(order, f->n_fns, sizeof *order, cmp_by_view);
   if (mark) {                  /* first pass: who gets an entry */
      for (i = 0; i < f->n_fns && i < TOP_FNS; i++) {
         const PF_Fn *g = &f->fns[order[i]];
         if ((incl ? g->incl[col] : g->self[col]) == 0)
            break;
         f->fns[order[i]].section = 1;
      }
      return 0;
   }
   rc |= pf_el(w, "h2", NULL, title);
   if (f->n_fns == 0 || (incl ? f->fns[order[0]].incl[col]
                              : f->fns[order[0]].self[col]) == 0)
      return rc | pf_el(w, "p", "none", none);
   rc |= start(w, "table", "fns");
   rc |= start(w, "tr", NULL);
   rc |= pf_el(w, "th", NULL, "function");
   for (c = 0; c < f->n_cols; c++) {
      snprintf(buf, sizeof buf, "%s%s", f->cols[c], c == col ? " \xe2\x96\xbe" : "");
      rc |= pf_el(w, "th", c >= f->n_events ? "derived" : NULL, buf);
   }
   rc |= pf_el(w, "th", NULL, "%");
   rc |= end(w);
   for (i = 0; i < f->n_fns && i < TOP_FNS; i++) {
      const PF_Fn *g = &f->fns[order[i]];
      const pr_u64 *v = incl ? g->incl : g->self;
      if (v[col] == 0)
         break;
      rc |= start(w, "tr", NULL);
      rc |= fn_cell(w, f, order[i]);
      for (c = 0; c < f->n_cols; c++)
         rc |= num(w, v[c]);
      snprintf(buf, sizeof buf, "%.2f", f->total[col] ?
               100.0 * (double)v[col] / (double)f->total[col] : 0.0);
      rc |= pf_el(w, "td", "n", buf);
      rc |= end(w);
   }
   return rc | end(w);
}

static const PF_Arc *sort_arcs_of;

static int cmp_arc(const void *a, const void *b)
{
   const PF_Arc *x = &sort_arcs_of[*(const size_t *)a];
   const PF_Arc *y = &sort_arcs_of[*(const size_t *)b];
   if (x->incl[sort_col] != y->incl[sort_col])
      return x->incl[sort_col] > y->incl[sort_col] ? -1 : 1;
   if (x->calls != y->calls)
      return x->calls > y->calls ? -1 : 1;
   return x->caller != y->caller ? (x->caller < y->caller ? -1 : 1)
                                 : (x->callee < y->callee ? -1 : 1);
}

/* The callers (WHO 0) or callees (WHO 1) of function I. */
static int arcs(xmlTextWriterPtr w, const PF_Fns *f, size_t i, int who,
                size_t *order)
{
   size_t k, n = 0;
   char buf[200];
   int rc = 0;
   for (k = 0; k < f->n_arcs; k++)
      if ((who ? f->arcs[k].caller : f->arcs[k].callee) == i)
         order[n++] = k;
   snprintf(buf, sizeof buf, "%s: %zu", who ? "Calls" : "Called by", n);
   rc |= pf_el(w, "h4", NULL, n ? buf : who ? "Calls nothing"
               : "Called by nothing in the file");
   if (n == 0)
      return rc;
   sort_arcs_of = f->arcs;
   qsort(order, n, sizeof *order, cmp_arc);
   rc |= start(w, "table", "arcs");
   rc |= start(w, "tr", NULL);
   rc |= pf_el(w, "th", NULL, who ? "callee" : "caller");
   rc |= pf_el(w, "th", NULL, "calls");
   snprintf(buf, sizeof buf, "%s of the calls", f->cols[sort_col]);
   rc |= pf_el(w, "th", NULL, buf);
   rc |= end(w);
   for (k = 0; k < n && k < TOP_ARCS; k++) {
      const PF_Arc *a = &f->arcs[order[k]];
      rc |= start(w, "tr", NULL);
      rc |= fn_cell(w, f, who ? a->callee : a->caller);
      rc |= num(w, a->calls);
      rc |= num(w, a->incl[sort_col]);
      rc |= end(w);
   }
   if (n > TOP_ARCS) {
      snprintf(buf, sizeof buf, "and %zu more", n - TOP_ARCS);
      rc |= start(w, "tr", NULL) | pf_el(w, "td", "more", buf) | end(w);
   }
   return rc | end(w);
}

int pf_write_fns(xmlTextWriterPtr w, PF_Fns *f)
{
   struct { const char *title, *event, *none; int incl; } views[3];
   size_t *order = pf_xcalloc(f->n_fns > f->n_arcs ? f->n_fns : f->n_arcs,
                           sizeof *order);
   size_t i;
   char titles[3][300];
   int v, n_views = 0, pass, rc = 0, col[3];
   const char *ev = f->cols[f->sort_col];

   if (f->xtree) {
      views[0].title = "Most allocations (totBk: blocks allocated)";
      views[0].event = "totBk";
      views[1].title = "Most bytes allocated (totB)";
      views[1].event = "totB";
      views[2].title = "Still allocated at exit (curB)";
      views[2].event = "curB";
      for (v = 0; v < 3; v++) {
         views[v].incl = 0;
         views[v].none = "None.";
      }
      views[2].none = "Nothing: every block allocated was freed.";
      n_views = 3;
   } else {
      snprintf(titles[0], sizeof titles[0],
               "Top functions by inclusive cost (%s)", ev);
      snprintf(titles[1], sizeof titles[1],
               "Top functions by self cost (%s)", ev);
      views[0].title = titles[0];
      views[1].title = titles[1];
      views[0].event = views[1].event = ev;
      views[0].incl = f->has_calls;
      views[1].incl = 0;
      views[0].none = views[1].none = "None: no function has this cost.";
      /* Without calls (a Cachegrind file) self is inclusive: one table. */
      n_views = f->has_calls ? 2 : 1;
      if (!f->has_calls)
         views[0].title = titles[1];
   }
   for (v = 0; v < n_views; v++)
      col[v] = column(f, views[v].event, strlen(views[v].event));

   rc |= totals(w, f);
   for (pass = 0; pass < 2; pass++)
      for (v = 0; v < n_views; v++)
         if (col[v] >= 0)
            rc |= view(w, f, views[v].title, views[v].none, col[v],
                       views[v].incl, order, pass == 0);
   if (!f->has_calls) {
      free(order);
      return rc;
   }
   rc |= pf_el(w, "h2", NULL, "Callers and callees");
   sort_col = f->sort_col;             /* arcs by the report's event */
   for (i = 0; i < f->n_fns; i++) {
      const PF_Fn *g = &f->fns[i];
      char buf[8192], id[40], a[40], b[40], line[8192];
      if (!g->section)
         continue;
      snprintf(id, sizeof id, "fn-%zu", i);
      rc |= start(w, "div", "fn");
      rc |= xmlTextWriterWriteAttribute(w, BAD_CAST "id", BAD_CAST id) < 0;
      rc |= pf_el(w, "h3", NULL, pf_clean(g->name, buf, sizeof buf));
      pf_commas(g->self[f->sort_col], a, sizeof a);
      pf_commas(g->incl[f->sort_col], b, sizeof b);
      snprintf(line, sizeof line, "%s%s%s%s%s: %s self, %s inclusive",
               g->file, g->file[0] && g->obj[0] ? " in " : "", g->obj,
               g->file[0] || g->obj[0] ? "; " : "", ev, a, b);
      rc |= pf_el(w, "p", "where", pf_clean(line, buf, sizeof buf));
      rc |= arcs(w, f, i, 0, order);
      rc |= arcs(w, f, i, 1, order);
      rc |= end(w);
   }
   free(order);
   return rc;
}
