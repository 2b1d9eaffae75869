/* pf_tree.c: the frame tree of a flame graph, from each kind of input.

   Copyright (C) 2026 The heapsnap/callprof developers.
   SPDX-License-Identifier: GPL-2.0-or-later

   A flame graph draws a tree of call paths: each frame is a function on
   one path from the root, as wide as the cost of that path.  Where the
   input has the paths, the tree is exact:

   - folded stacks ("main;parse;strlen 120", callprof's
     --folded-out-file, FlameGraph's stackcollapse-* scripts): each line
     adds its count along its path, and to the last frame's self cost;
   - a heap profile (Massif's format): the allocation tree of one
     snapshot is already such a tree, bytes for cost; the peak snapshot
     is taken (Massif's peak, else the largest detailed snapshot).

   A Callgrind-format file has only the call graph: each function's self
   cost and, per call arc, the calls' inclusive cost.  The paths are
   then estimated as gprof2dot and KCachegrind's call graphs do: from
   each function no one calls, a function reached with a share S of its
   inclusive cost I keeps S/I of its self cost as its frame's self, and
   passes S/I of each outgoing arc's inclusive cost to the callee.  A
   call back into a function already on the path (recursion that the
   file does not keep apart as fn'2) ends the path: that share stays in
   the caller's self, so every frame's width is still its self plus its
   children's.  Shares below a millionth of the total stop too.  The
   report says that the widths are an estimate. */

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "pf.h"

static void *xcalloc(size_t n, size_t size)
{
   void *p = calloc(n ? n : 1, size);
   if (p == NULL) {
      perror("profreport");
      exit(1);
   }
   return p;
}

PF_Node *pf_node_new(const char *name)
{
   PF_Node *n = xcalloc(1, sizeof *n);
   n->name = strdup(name);
   if (n->name == NULL) {
      perror("profreport");
      exit(1);
   }
   return n;
}

PF_Node *pf_child(PF_Node *parent, const char *name)
{
   PF_Node *c, *last = NULL;
   for (c = parent->child; c; c = c->next) {
      if (strcmp(c->name, name) == 0)
         return c;
      last = c;
   }
   c = pf_node_new(name);
   if (last)
      last->next = c;
   else
      parent->child = c;
   parent->n_children++;
   return c;
}

void pf_node_free(PF_Node *n)
{
   while (n) {
      PF_Node *next = n->next;
      pf_node_free(n->child);
      free(n->name);
      free(n->where);
      free(n);
      n = next;
   }
}

static int cmp_node(const void *a, const void *b)
{
   return strcmp((*(PF_Node *const *)a)->name, (*(PF_Node *const *)b)->name);
}

void pf_sort(PF_Node *n)
{
   PF_Node **v, *c;
   unsigned i = 0;
   if (n->n_children > 1) {
      v = xcalloc(n->n_children, sizeof *v);
      for (c = n->child; c; c = c->next)
         v[i++] = c;
      qsort(v, i, sizeof *v, cmp_node);
      for (i = 0; i + 1 < n->n_children; i++)
         v[i]->next = v[i + 1];
      v[i]->next = NULL;
      n->child = v[0];
      free(v);
   }
   for (c = n->child; c; c = c->next)
      pf_sort(c);
}

/*------------------------------------------------------------*/
/*--- Folded stacks                                        ---*/
/*------------------------------------------------------------*/

void pf_add_folded(PF_Node *root, const PR_Folded *f)
{
   size_t i;
   for (i = 0; i < f->n_stacks; i++) {
      const char *s = f->stacks[i].stack, *e;
      pr_u64 count = f->stacks[i].count;
      PF_Node *n = root;
      root->total += count;
      while (*s) {
         char name[4096];
         size_t len;
         e = strchr(s, ';');
         len = e ? (size_t)(e - s) : strlen(s);
         if (len >= sizeof name)
            len = sizeof name - 1;
         memcpy(name, s, len);
         name[len] = '\0';
         n = pf_child(n, name);
         n->total += count;
         s = e ? e + 1 : s + strlen(s);
      }
      n->self += count;
   }
}

/*------------------------------------------------------------*/
/*--- A call graph, estimated                              ---*/
/*------------------------------------------------------------*/

/* A function with its outgoing arcs merged per callee. */
typedef struct {
   const PR_Fn *fn;
   double       self, incl;
   size_t       first_arc, n_arcs;  /* into Graph.arcs */
   int          called, on_path;
} GFn;

typedef struct {
   size_t callee;      /* index into Graph.fns */
   double incl;
} GArc;

typedef struct {
   GFn    *fns;   size_t n_fns;
   GArc   *arcs;  size_t n_arcs;
   double  floor;      /* shares below this end the path */
} Graph;

/* A function's index: the file's functions sorted by address, searched. */
typedef struct { const PR_Fn *fn; size_t i; } FnAt;

static int cmp_fnat(const void *a, const void *b)
{
   const PR_Fn *x = ((const FnAt *)a)->fn, *y = ((const FnAt *)b)->fn;
   return x < y ? -1 : x > y;
}

static size_t fn_index(const FnAt *v, size_t n, const PR_Fn *f)
{
   FnAt key = { f, 0 };
   const FnAt *hit = bsearch(&key, v, n, sizeof *v, cmp_fnat);
   return hit ? hit->i : (size_t)-1;
}

static int cmp_call(const void *a, const void *b)
{
   const size_t *x = a, *y = b;
   return x[0] < y[0] ? -1 : x[0] > y[0] ? 1 : x[1] < y[1] ? -1 : x[1] > y[1];
}

/* Self: what the children's widths leave of the frame's, the width
   raised if rounding made the children wider. */
static void settle(PF_Node *n)
{
   PF_Node *c;
   pr_u64 kids = 0;
   for (c = n->child; c; c = c->next)
      kids += c->total;
   if (kids > n->total)
      n->total = kids;
   n->self = n->total - kids;
}

/* The frame of function FN above N, knowing where FN is. */
static PF_Node *fn_child(PF_Node *n, const PR_Fn *fn)
{
   PF_Node *c = pf_child(n, fn->name);
   if (c->where == NULL && ((fn->file && fn->file[0]) || (fn->obj && fn->obj[0]))) {
      const char *file = fn->file ? fn->file : "", *obj = fn->obj ? fn->obj : "";
      size_t len = strlen(file) + strlen(obj) + 3;
      c->where = xcalloc(len, 1);
      snprintf(c->where, len, "%s%s%s", file, file[0] && obj[0] ? ", " : "",
               obj);
   }
   return c;
}

/* Frame N is function F reached with SHARE of its inclusive cost. */
static void grow(PF_Node *n, Graph *g, size_t f, double share,
                 unsigned depth)
{
   GFn *fn = &g->fns[f];
   double frac = fn->incl > 0 ? share / fn->incl : 0;
   size_t a;
   fn->on_path = 1;
   for (a = 0; a < fn->n_arcs; a++) {
      const GArc *arc = &g->arcs[fn->first_arc + a];
      double s = arc->incl * frac;
      /* A share too small, too deep, or back into the path stays here. */
      if (s < g->floor || depth >= 256 || g->fns[arc->callee].on_path)
         continue;
      grow(fn_child(n, g->fns[arc->callee].fn), g, arc->callee, s,
           depth + 1);
   }
   fn->on_path = 0;
   n->total += (pr_u64)(share + 0.5);
   settle(n);
}

int pf_add_callgrind(PF_Node *root, const PR_Callgrind *p, int event)
{
   Graph g;
   FnAt *at;
   size_t i, *order, k;
   double all = 0;
   int roots = 0;

   if (event < 0 || event >= p->n_events)
      return -1;
   memset(&g, 0, sizeof g);
   g.n_fns = p->n_fns;
   g.fns = xcalloc(g.n_fns, sizeof *g.fns);
   at = xcalloc(g.n_fns, sizeof *at);
   for (i = 0; i < g.n_fns; i++) {
      g.fns[i].fn = p->fns[i];
      g.fns[i].self = (double)p->fns[i]->self[event];
      all += g.fns[i].self;
      at[i].fn = p->fns[i];
      at[i].i = i;
   }
   qsort(at, g.n_fns, sizeof *at, cmp_fnat);
   /* Arcs by caller, then callee: merged per (caller, callee). */
   order = xcalloc(p->n_calls * 3, sizeof *order);
   for (k = 0; k < p->n_calls; k++) {
      order[3 * k] = fn_index(at, g.n_fns, p->calls[k].caller);
      order[3 * k + 1] = fn_index(at, g.n_fns, p->calls[k].callee);
      order[3 * k + 2] = k;
   }
   qsort(order, p->n_calls, 3 * sizeof *order, cmp_call);
   g.arcs = xcalloc(p->n_calls, sizeof *g.arcs);
   for (k = 0; k < p->n_calls; k++) {
      size_t from = order[3 * k], to = order[3 * k + 1];
      double incl = (double)p->calls[order[3 * k + 2]].incl[event];
      GFn *f;
      if (from == (size_t)-1 || to == (size_t)-1)
         continue;
      f = &g.fns[from];
      if (f->n_arcs > 0 && g.arcs[g.n_arcs - 1].callee == to) {
         g.arcs[g.n_arcs - 1].incl += incl;       /* another call site */
         continue;
      }
      if (f->n_arcs == 0)
         f->first_arc = g.n_arcs;
      g.arcs[g.n_arcs].callee = to;
      g.arcs[g.n_arcs].incl = incl;
      g.n_arcs++;
      f->n_arcs++;
      if (to != from)
         g.fns[to].called = 1;
   }
   free(order);
   free(at);
   for (i = 0; i < g.n_fns; i++) {
      size_t a;
      g.fns[i].incl = g.fns[i].self;
      for (a = 0; a < g.fns[i].n_arcs; a++)
         if (g.arcs[g.fns[i].first_arc + a].callee != i)
            g.fns[i].incl += g.arcs[g.fns[i].first_arc + a].incl;
   }
   g.floor = all / 1e6;
   /* Roots: the functions no one calls, in the file's order. */
   for (i = 0; i < g.n_fns; i++)
      if (!g.fns[i].called && g.fns[i].incl > 0) {
         grow(fn_child(root, g.fns[i].fn), &g, i, g.fns[i].incl, 1);
         roots++;
      }
   root->total = 0;
   settle(root);
   free(g.fns);
   free(g.arcs);
   return roots;
}

/*------------------------------------------------------------*/
/*--- A heap tree                                          ---*/
/*------------------------------------------------------------*/

/* "0x4005F2: hold (waitfor.c:19)" -> "hold (waitfor.c:19)";
   "in 3 places, all below massif's threshold (1.00%)" as it is. */
static void ms_label(const char *text, char *buf, size_t size)
{
   snprintf(buf, size, "%s", pr_ms_strip_addr(text));
}

static void settle_all(PF_Node *n)
{
   PF_Node *c;
   for (c = n->child; c; c = c->next)
      settle_all(c);
   settle(n);
}

/* Add each frame's self cost of the callee-first tree N along its path
   turned round (outermost caller first) under ROOT. */
static void invert(PF_Node *root, const PF_Node *n, const PF_Node **path,
                   unsigned depth)
{
   const PF_Node *c;
   if (depth >= 512)
      return;
   path[depth] = n;
   if (n->self > 0) {
      PF_Node *at = root;
      int k;
      root->total += n->self;
      for (k = (int)depth; k >= 0; k--) {
         at = pf_child(at, path[k]->name);
         at->total += n->self;
      }
      at->self += n->self;
   }
   for (c = n->child; c; c = c->next)
      invert(root, c, path, depth + 1);
}

void pf_add_massif(PF_Node *root, const PR_Massif *m, long *snap)
{
   const PR_MsSnapshot *best = NULL;
   const PF_Node *path[512];
   PF_Node *stack[512], *tree, *c;
   size_t i;

   *snap = -1;
   for (i = 0; i < m->n_snaps; i++) {
      const PR_MsSnapshot *s = &m->snaps[i];
      if (s->kind == PR_TREE_PEAK) {
         best = s;
         break;
      }
      if (s->kind == PR_TREE_DETAILED && s->n_nodes > 0 &&
          (best == NULL || s->heap + s->extra > best->heap + best->extra))
         best = s;
   }
   if (best == NULL || best->n_nodes == 0)
      return;
   *snap = best->num;
   /* Massif's tree is callee first: under the root, the allocation
      functions' callers, then theirs.  Built as it is (nodes in
      pre-order with their depth, 0 the root line), each frame's self
      is what its children leave; then turned round, so that the flame
      graph stands on the outermost callers (main) as every flame graph
      does, the allocating functions on top. */
   tree = pf_node_new("all");
   stack[0] = tree;
   tree->total = best->nodes[0].bytes;
   for (i = 1; i < best->n_nodes; i++) {
      const PR_MsNode *nd = &best->nodes[i];
      char name[4096];
      PF_Node *n;
      if (nd->depth <= 0 || nd->depth >= 512)
         continue;
      ms_label(nd->text, name, sizeof name);
      n = pf_child(stack[nd->depth - 1], name);
      n->total += nd->bytes;
      stack[nd->depth] = n;
   }
   settle_all(tree);
   /* The root line's own bytes (none when the tree is whole) stay at
      the root. */
   root->total += tree->self;
   root->self += tree->self;
   for (c = tree->child; c; c = c->next)
      invert(root, c, path, 0);
   pf_node_free(tree);
}
