/* profdiff: compare two profiles, say what changed and where, and gate
   a CI job on it.

   Copyright (C) 2026 The heapsnap/callprof developers.
   SPDX-License-Identifier: GPL-2.0-or-later

   Usage: profdiff [options] BASE NEW

   BASE and NEW are two Callgrind-format files (callprof's, Callgrind's),
   two Cachegrind files or two Massif-format files (heapsnap's, Massif's),
   read with the reader library (include/profreader.h); a Callgrind-
   format file a chunk at a time, its call graph alone (profreport's
   pf_read.c), so that two big files compare quickly in little memory.

   A call profile's functions are matched by name and object file name
   (the base name: two builds in different directories compare), not by
   address or path; a Cachegrind file has no objects, so its functions
   are matched by name and source file name.  Before matching, names are
   folded: a recursion level's suffix (fn'2) and a compiler clone's
   (.isra.0, .constprop.0, .part.0, .cold, " [clone .isra.0]",
   .llvm.NNN) are taken off, so that a function inlined or cloned
   differently in the two builds is still one function (--no-fold keeps
   them apart).  A folded function's self cost is the sum of its pieces';
   its inclusive cost the sum of its clones', not of its recursion levels
   (those are inside the outer level already).  --map OLD=NEW renames a
   function of BASE; --strip-path=PREFIX takes PREFIX off the objects'
   and files' paths before they are compared.  Self and inclusive costs
   are profreport's (profreport/pf_fns.c): self plus calls to others.

   Only the events both files have are compared; the others are named
   ("left out").  What is printed:

      the totals of both and the change, for every event;
      the functions whose self cost of the event (--event, default the
        first common one) changed most, in absolute terms and (above the
        noise floor) relative ones, then the same for inclusive cost (a
        Cachegrind file has no inclusive cost);
      the functions only in NEW and only in BASE;
   and for two heap profiles: the peak (heap + extra + stacks), the time
   of the peak, and the allocation sites (the children of the peak
   tree's root) whose bytes at the peak changed most.

   The gate: --limit EV=10% (or EV=N, an absolute count) fails when the
   total of EV grew by more; --warn EV=5% warns; with --per-function,
   each function whose self cost is above the noise floor (--noise, a
   share of the base's total, default 0.1%) is held to the same limits.
   A heap profile's event is "peak".  --json FILE writes the figures and
   the verdicts (docs/profdiff.md gives the schema); --html OUT.html the
   differential flame graph of NEW.

   Exit status: 0 within the limits, 1 a limit exceeded, 2 a bad file or
   option (one line naming it). */

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "pf.h"

#define TOP_N 15

static void bad(const char *fmt, const char *a, const char *b)
{
   fprintf(stderr, "profdiff: ");
   fprintf(stderr, fmt, a, b);
   fputc('\n', stderr);
   exit(2);
}



/*------------------------------------------------------------*/
/*--- Options                                              ---*/
/*------------------------------------------------------------*/

typedef struct {            /* --limit / --warn EV=AMOUNT */
   char  *event;
   double amount;           /* a percentage, or a count */
   int    percent;
   int    warn;             /* --warn, not --limit */
} Limit;

static struct {
   const char *files[2];
   const char *event, *json, *html, *strip;
   char      **map_old, **map_new;
   int         n_maps;
   Limit      *limits;
   int         n_limits;
   int         per_function, fold;
   double      noise;        /* percent of the base's total */
} opt = { { NULL, NULL }, NULL, NULL, NULL, NULL, NULL, NULL, 0, NULL, 0,
          0, 1, 0.1 };

static void usage_error(const char *what, const char *arg)
{
   fprintf(stderr, "profdiff: %s%s (expected [--event=EV] [--limit EV=PCT%%|N]"
           " [--warn EV=PCT%%|N] [--per-function] [--noise=PCT] [--json FILE]"
           " [--html OUT.html] [--strip-path=PREFIX] [--map OLD=NEW]"
           " [--no-fold] BASE NEW)\n", what, arg);
   exit(2);
}

static void help(void)
{
   printf("usage: profdiff [options] BASE NEW\n"
          "\n"
          "Compares two Callgrind-format, Cachegrind or Massif-format files:\n"
          "the totals, the functions that changed most, new and vanished\n"
          "ones; a heap profile's peak and its sites.  Exit 0 within the\n"
          "limits, 1 a limit exceeded, 2 a bad file or option.\n"
          "\n"
          "  --event=EV          the event of the function lists [the first]\n"
          "  --limit EV=PCT%%|N   fail when EV's total grew by more\n"
          "  --warn EV=PCT%%|N    warn when EV's total grew by more\n"
          "  --per-function      hold each function's self cost to the limits\n"
          "  --noise=PCT         functions below PCT%% of the total are noise [0.1]\n"
          "  --json FILE         the figures and verdicts as JSON\n"
          "  --html OUT.html     NEW's flame graph coloured by the change\n"
          "  --strip-path=PREFIX take PREFIX off objects' and files' paths\n"
          "  --map OLD=NEW       a function of BASE renamed in NEW\n"
          "  --no-fold           keep recursion levels and clones apart\n"
          "  -h, --help          this text\n");
   exit(0);
}

/* EV=10% or EV=12345 */
static void add_limit(const char *arg, int warn)
{
   const char *eq = strchr(arg, '=');
   char *end;
   Limit *l;
   if (eq == NULL || eq == arg || eq[1] == '\0')
      usage_error(warn ? "--warn: expected EV=PCT% or EV=N, not " :
                  "--limit: expected EV=PCT% or EV=N, not ", arg);
   opt.limits = realloc(opt.limits, (size_t)(opt.n_limits + 1) * sizeof *opt.limits);
   if (opt.limits == NULL)
      usage_error("out of memory", "");
   l = &opt.limits[opt.n_limits++];
   l->event = pf_xstrdup(arg);
   l->event[eq - arg] = '\0';
   l->amount = strtod(eq + 1, &end);
   l->percent = *end == '%';
   if (end == eq + 1 || (*end != '\0' && strcmp(end, "%") != 0) ||
       l->amount < 0 || !isfinite(l->amount))
      usage_error(warn ? "--warn: expected EV=PCT% or EV=N, not " :
                  "--limit: expected EV=PCT% or EV=N, not ", arg);
   l->warn = warn;
}

static void parse_options(int argc, char **argv)
{
   int i, n = 0;
   for (i = 1; i < argc; i++) {
      const char *a = argv[i];
      const char *v = NULL;
#define VALUE(name) \
      ((!strcmp(a, name) && i + 1 < argc && (v = argv[++i])) || \
       (!strncmp(a, name "=", strlen(name) + 1) && (v = a + strlen(name) + 1)))
      if (!strcmp(a, "-h") || !strcmp(a, "--help"))
         help();
      else if (VALUE("--event"))
         opt.event = v;
      else if (VALUE("--limit"))
         add_limit(v, 0);
      else if (VALUE("--warn"))
         add_limit(v, 1);
      else if (VALUE("--json"))
         opt.json = v;
      else if (VALUE("--html"))
         opt.html = v;
      else if (VALUE("--strip-path"))
         opt.strip = v;
      else if (VALUE("--noise")) {
         char *end;
         opt.noise = strtod(v, &end);
         if (end == v || (*end && strcmp(end, "%")) || opt.noise < 0 ||
             opt.noise > 100)
            usage_error("--noise: expected a percentage from 0 to 100, not ", v);
      } else if (VALUE("--map")) {
         const char *eq = strchr(v, '=');
         if (eq == NULL || eq == v || eq[1] == '\0')
            usage_error("--map: expected OLD=NEW, not ", v);
         opt.map_old = realloc(opt.map_old, (size_t)(opt.n_maps + 1) * sizeof (char *));
         opt.map_new = realloc(opt.map_new, (size_t)(opt.n_maps + 1) * sizeof (char *));
         if (opt.map_old == NULL || opt.map_new == NULL)
            usage_error("out of memory", "");
         opt.map_old[opt.n_maps] = pf_xstrdup(v);
         opt.map_old[opt.n_maps][eq - v] = '\0';
         opt.map_new[opt.n_maps++] = pf_xstrdup(eq + 1);
      } else if (!strcmp(a, "--per-function"))
         opt.per_function = 1;
      else if (!strcmp(a, "--no-fold"))
         opt.fold = 0;
      else if (a[0] == '-' && a[1] != '\0')
         usage_error("unknown option ", a);
      else if (n < 2)
         opt.files[n++] = a;
      else
         usage_error("one file too many: ", a);
#undef VALUE
   }
   if (n < 2)
      usage_error("two files to compare, BASE and NEW", "");
   if (opt.html && !(strlen(opt.html) > 5 &&
                     !strcmp(opt.html + strlen(opt.html) - 5, ".html")))
      usage_error("--html: the output must end in .html, not ", opt.html);
}

/*------------------------------------------------------------*/
/*--- Reading                                              ---*/
/*------------------------------------------------------------*/

typedef struct {
   const char   *path;
   PR_Format     kind;
   int           cachegrind;   /* no creator: line, no calls */
   PF_Fns        fns;
   PR_Callgrind *cg;           /* kept for --html's flame graph */
   PR_Massif    *ms;
} Side;

static void load(Side *s, const char *path)
{
   PR_Error err = { 0, "" };
   PF_Input in;
   memset(s, 0, sizeof *s);
   s->path = path;
   /* A Callgrind-format file a chunk at a time, its call graph alone
      (pf_read.c): two files of hundreds of megabytes compare in little
      memory. */
   if (pf_read(path, &in, &err) != 0) {
      if (in.kind == PR_CALLGRIND && in.len > 0 && in.last != '\n')
         bad("%s: the last line is cut short (the file is truncated)%s",
             path, "");
      fprintf(stderr, "profdiff: %s\n", err.text);
      exit(2);
   }
   if (in.len == 0)
      bad("%s: the file is empty%s", path, "");
   if (in.last != '\n')
      bad("%s: the last line is cut short (the file is truncated)%s", path, "");
   s->kind = in.kind;
   if (s->kind == PR_CALLGRIND) {
      PR_Callgrind *p = in.cg;
      if (p->creator && p->has_summary && !p->has_totals)
         bad("%s: no totals: line after the summary: at the top (the file "
             "is truncated)%s", path, "");
      s->cachegrind = p->creator == NULL && p->n_calls == 0;
      pf_fns_add(&s->fns, p);
      pf_fns_finish(&s->fns);
      if (opt.html)
         s->cg = p;
      else
         pr_cg_free(p);
   } else if (s->kind == PR_MASSIF) {
      s->ms = pr_ms_parse(in.data, in.len, path, &err);
      if (s->ms == NULL) {
         fprintf(stderr, "profdiff: %s\n", err.text);
         exit(2);
      }
      if (s->ms->n_snaps == 0)
         bad("%s: no snapshot in the file%s", path, "");
   } else
      bad("%s: not a Callgrind, Cachegrind or Massif-format file%s", path,
          s->kind == PR_FOLDED ? " (folded stacks have no totals to compare)"
                               : "");
   free(in.data);
}

/*------------------------------------------------------------*/
/*--- Matching functions                                   ---*/
/*------------------------------------------------------------*/

/* NAME without a recursion level's or a clone's suffix, into BUF; *LEVEL
   set if it was a deeper recursion level (fn'2). */
static const char *fold(const char *name, char *buf, size_t size, int *level)
{
   static const char *const clones[] = { ".isra", ".constprop", ".part",
      ".cold", ".lto_priv", ".localalias", ".llvm" };
   size_t n, k, changed = 1;
   char *c;
   snprintf(buf, size, "%s", name);
   *level = 0;
   if (!opt.fold)
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
   if (opt.strip && strncmp(path, opt.strip, strlen(opt.strip)) == 0)
      path += strlen(opt.strip);
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
            usage_error("out of memory", "");
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

static void add_side(Diff *d, const Side *s, int side)
{
   size_t i;
   int e, m, level;
   char name[4096], where[2048];
   for (i = 0; i < s->fns.n_fns; i++) {
      const PF_Fn *f = &s->fns.fns[i];
      DFn *g;
      fold(f->name, name, sizeof name, &level);
      for (m = 0; side == 0 && m < opt.n_maps; m++)
         if (!strcmp(name, opt.map_old[m]))
            snprintf(name, sizeof name, "%s", opt.map_new[m]);
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
static void common_events(Diff *d, const Side *b, const Side *n)
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
      bad("%s and %s have no event in common", b->path, n->path);
   for (e = 0; e < 2; e++) {
      const Side *s = e ? n : b, *o = e ? b : n;
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
/*--- Printing                                             ---*/
/*------------------------------------------------------------*/

static const char *commas(pr_u64 v, char *buf, size_t size)
{
   pf_commas(v, buf, size);
   return buf;
}

/* "+1,234" or "-1,234" */
static const char *signed_commas(double v, char *buf, size_t size)
{
   char a[32];
   pf_commas((pr_u64)llabs((long long)v), a, sizeof a);
   a[sizeof a - 1] = 0;
   snprintf(buf, size, "%s%s", v < 0 ? "-" : v > 0 ? "+" : "", a);
   return buf;
}

static const char *percent(pr_u64 base, pr_u64 now, char *buf, size_t size)
{
   if (base == 0)
      snprintf(buf, size, now ? "new" : "0.00%%");
   else
      snprintf(buf, size, "%+.2f%%", 100.0 * ((double)now - (double)base) /
               (double)base);
   return buf;
}

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
   double floor = opt.noise / 100.0 * (double)d->total[0][e];
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
   for (i = 0; i < n && i < TOP_N; i++) {
      const DFn *f = &d->fns[order[i]];
      const pr_u64 *x = incl ? f->incl[0] : f->self[0];
      const pr_u64 *y = incl ? f->incl[1] : f->self[1];
      printf("  %15s %15s %15s %9s  %s (%s)\n", commas(x[e], a, sizeof a),
             commas(y[e], b, sizeof b),
             signed_commas((double)y[e] - (double)x[e], c, sizeof c),
             percent(x[e], y[e], p, sizeof p), f->name, f->where);
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
   for (i = 0; i < n && i < TOP_N; i++)
      printf("  %15s  %s (%s)\n", commas(d->fns[order[i]].self[side][e], a,
             sizeof a), d->fns[order[i]].name, d->fns[order[i]].where);
   if (n > TOP_N)
      printf("  and %zu more\n", n - TOP_N);
}

/*------------------------------------------------------------*/
/*--- The gate                                             ---*/
/*------------------------------------------------------------*/

typedef struct {
   const Limit *limit;
   const char  *function;    /* NULL: the total */
   pr_u64       base, now;
   int          exceeded;
} Verdict;

static Verdict *verdicts;
static size_t n_verdicts;

/* Whether a growth from BASE to NOW is beyond L. */
static int beyond(const Limit *l, pr_u64 base, pr_u64 now)
{
   double grew = (double)now - (double)base;
   if (grew <= 0)
      return 0;
   if (!l->percent)
      return grew > l->amount;
   return base == 0 || 100.0 * grew / (double)base > l->amount;
}

static void judge(const Limit *l, const char *function, pr_u64 base,
                  pr_u64 now)
{
   Verdict *v;
   verdicts = realloc(verdicts, (n_verdicts + 1) * sizeof *verdicts);
   if (verdicts == NULL)
      usage_error("out of memory", "");
   v = &verdicts[n_verdicts++];
   v->limit = l;
   v->function = function;
   v->base = base;
   v->now = now;
   v->exceeded = beyond(l, base, now);
}

static int print_verdicts(void)
{
   size_t i;
   int failed = 0;
   char a[40], b[40], p[40], amount[60];
   for (i = 0; i < n_verdicts; i++) {
      const Verdict *v = &verdicts[i];
      const Limit *l = v->limit;
      snprintf(amount, sizeof amount, l->percent ? "%g%%" : "%.0f", l->amount);
      if (!v->exceeded && v->function)
         continue;
      printf("%s: %s %s%s%s: %s -> %s (%s), %s %s\n",
             v->exceeded ? (l->warn ? "WARNING" : "LIMIT EXCEEDED") : "ok",
             l->event, v->function ? "of " : "total",
             v->function ? v->function : "", "",
             commas(v->base, a, sizeof a), commas(v->now, b, sizeof b),
             percent(v->base, v->now, p, sizeof p),
             l->warn ? "warn above" : "limit", amount);
      if (v->exceeded && !l->warn)
         failed = 1;
   }
   return failed;
}

/*------------------------------------------------------------*/
/*--- JSON                                                 ---*/
/*------------------------------------------------------------*/

static void json_string(FILE *f, const char *s)
{
   fputc('"', f);
   for (; *s; s++) {
      unsigned char c = (unsigned char)*s;
      if (c == '"' || c == '\\')
         fprintf(f, "\\%c", c);
      else if (c < 0x20)
         fprintf(f, "\\u%04x", c);
      else
         fputc(c, f);
   }
   fputc('"', f);
}

static void json_change(FILE *f, pr_u64 base, pr_u64 now)
{
   fprintf(f, "{\"base\": %llu, \"new\": %llu, \"change\": %.0f, "
           "\"percent\": ", base, now, (double)now - (double)base);
   if (base)
      fprintf(f, "%.4f}", 100.0 * ((double)now - (double)base) / (double)base);
   else
      fprintf(f, "null}");
}

/* The summary's first keys: the files compared. */
static void json_head(FILE *f, const Side *b, const Side *n)
{
   fprintf(f, "{\n  \"base\": ");
   json_string(f, b->path);
   fprintf(f, ",\n  \"new\": ");
   json_string(f, n->path);
}

/* Written under a temporary name, renamed when whole. */
static FILE *json_open(char *tmp, size_t size)
{
   FILE *f;
   snprintf(tmp, size, "%s.part", opt.json);
   f = fopen(tmp, "w");
   if (f == NULL) {
      fprintf(stderr, "profdiff: %s: cannot write: %s\n", opt.json,
              strerror(errno));
      exit(2);
   }
   return f;
}

static void json_close(FILE *f, const char *tmp)
{
   if (fclose(f) != 0 || rename(tmp, opt.json) != 0) {
      fprintf(stderr, "profdiff: %s: cannot write: %s\n", opt.json,
              strerror(errno));
      remove(tmp);
      exit(2);
   }
}

static void json_verdicts(FILE *f, int status)
{
   size_t i;
   fprintf(f, "  \"limits\": [");
   for (i = 0; i < n_verdicts; i++) {
      const Verdict *v = &verdicts[i];
      fprintf(f, "%s\n    {\"event\": ", i ? "," : "");
      json_string(f, v->limit->event);
      fprintf(f, ", \"kind\": \"%s\", \"amount\": %g, \"percent\": %s, "
              "\"function\": ", v->limit->warn ? "warn" : "limit",
              v->limit->amount, v->limit->percent ? "true" : "false");
      if (v->function)
         json_string(f, v->function);
      else
         fprintf(f, "null");
      fprintf(f, ", \"figures\": ");
      json_change(f, v->base, v->now);
      fprintf(f, ", \"exceeded\": %s}", v->exceeded ? "true" : "false");
   }
   fprintf(f, "%s],\n  \"status\": %d\n}\n", n_verdicts ? "\n  " : "", status);
}

static void write_html(Side *b, Side *n, const int col[2], const char *unit);

/*------------------------------------------------------------*/
/*--- Call profiles                                        ---*/
/*------------------------------------------------------------*/

static int diff_calls(Side *b, Side *n)
{
   Diff d;
   size_t *order, i;
   int e, ev = 0, l, status;
   char x[40], y[40], c[40], p[40];

   memset(&d, 0, sizeof d);
   common_events(&d, b, n);
   add_side(&d, b, 0);
   add_side(&d, n, 1);
   if (opt.event) {
      for (ev = 0; ev < d.n_ev && strcmp(d.ev[ev], opt.event); ev++)
         ;
      if (ev == d.n_ev)
         bad("--event=%s: not an event of both files%s", opt.event, "");
   }
   for (l = 0; l < opt.n_limits; l++) {
      for (e = 0; e < d.n_ev && strcmp(d.ev[e], opt.limits[l].event); e++)
         ;
      if (e == d.n_ev)
         bad("--limit/--warn %s: not an event of both files%s",
             opt.limits[l].event, "");
   }
   printf("\n%-10s %17s %17s %17s %9s\n", "totals", "BASE", "NEW", "change", "%");
   for (e = 0; e < d.n_ev; e++)
      printf("%-10s %17s %17s %17s %9s\n", d.ev[e],
             commas(d.total[0][e], x, sizeof x), commas(d.total[1][e], y, sizeof y),
             signed_commas((double)d.total[1][e] - (double)d.total[0][e], c, sizeof c),
             percent(d.total[0][e], d.total[1][e], p, sizeof p));
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
   for (l = 0; l < opt.n_limits; l++) {
      for (e = 0; strcmp(d.ev[e], opt.limits[l].event); e++)
         ;
      judge(&opt.limits[l], NULL, d.total[0][e], d.total[1][e]);
      for (i = 0; opt.per_function && i < d.n_fns; i++)
         if (above_noise(&d, &d.fns[i], e, 0))
            judge(&opt.limits[l], d.fns[i].name, d.fns[i].self[0][e],
                  d.fns[i].self[1][e]);
   }
   if (n_verdicts)
      printf("\n");
   status = print_verdicts();
   if (opt.html) {
      int col[2] = { d.col[0][ev], d.col[1][ev] };
      write_html(b, n, col, d.ev[ev]);
   }

   if (opt.json) {
      char tmp[4200];
      FILE *f = json_open(tmp, sizeof tmp);
      json_head(f, b, n);
      fprintf(f, ",\n  \"kind\": \"%s\",\n  \"events\": [", b->cachegrind ?
              "cachegrind" : "callgrind");
      for (e = 0; e < d.n_ev; e++) {
         fprintf(f, "%s", e ? ", " : "");
         json_string(f, d.ev[e]);
      }
      fprintf(f, "],\n  \"totals\": {");
      for (e = 0; e < d.n_ev; e++) {
         fprintf(f, "%s\n    ", e ? "," : "");
         json_string(f, d.ev[e]);
         fprintf(f, ": ");
         json_change(f, d.total[0][e], d.total[1][e]);
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
            json_string(f, g->name);
            fprintf(f, ", \"object\": ");
            json_string(f, g->where);
            fprintf(f, ", \"in\": \"%s\", \"self\": ", !g->seen[0] ? "new" :
                    !g->seen[1] ? "base" : "both");
            json_change(f, g->self[0][ev], g->self[1][ev]);
            fprintf(f, ", \"inclusive\": ");
            json_change(f, g->incl[0][ev], g->incl[1][ev]);
            fprintf(f, "}");
         }
         fprintf(f, "%s],\n  \"event\": ", m ? "\n  " : "");
         json_string(f, d.ev[ev]);
         fprintf(f, ",\n");
      }
      json_verdicts(f, status);
      json_close(f, tmp);
   }
   free(order);
   return status;
}

/*------------------------------------------------------------*/
/*--- Heap profiles                                        ---*/
/*------------------------------------------------------------*/

static size_t peak_of(const PR_Massif *m)
{
   size_t i, best = 0;
   for (i = 0; i < m->n_snaps; i++) {
      const PR_MsSnapshot *s = &m->snaps[i], *b = &m->snaps[best];
      if (s->kind == PR_TREE_PEAK)
         return i;
      if (s->heap + s->extra + s->stacks > b->heap + b->extra + b->stacks)
         best = i;
   }
   return best;
}

typedef struct { char *site; pr_u64 bytes[2]; } Site;

static int cmp_site(const void *a, const void *b)
{
   const Site *x = a, *y = b;
   double u = fabs((double)x->bytes[1] - (double)x->bytes[0]);
   double v = fabs((double)y->bytes[1] - (double)y->bytes[0]);
   if (u != v)
      return u > v ? -1 : 1;
   return strcmp(x->site, y->site);
}

static int diff_heap(Side *b, Side *n)
{
   const PR_MsSnapshot *pk[2];
   Site *sites = NULL;
   size_t n_sites = 0, i, k;
   int s, l, status;
   char x[40], y[40], c[40], p[40];
   pr_u64 total[2];

   pk[0] = &b->ms->snaps[peak_of(b->ms)];
   pk[1] = &n->ms->snaps[peak_of(n->ms)];
   for (s = 0; s < 2; s++)
      total[s] = pk[s]->heap + pk[s]->extra + pk[s]->stacks;
   for (l = 0; l < opt.n_limits; l++)
      if (strcmp(opt.limits[l].event, "peak"))
         bad("--limit/--warn %s: a heap profile's event is peak%s",
             opt.limits[l].event, "");
   printf("\n%-22s %17s %17s %17s %9s\n", "at the peak", "BASE", "NEW",
          "change", "%");
   printf("%-22s %17s %17s %17s %9s\n", "peak (heap+extra+stacks)",
          commas(total[0], x, sizeof x), commas(total[1], y, sizeof y),
          signed_commas((double)total[1] - (double)total[0], c, sizeof c),
          percent(total[0], total[1], p, sizeof p));
   printf("%-22s %17s %17s %17s %9s\n", "heap", commas(pk[0]->heap, x, sizeof x),
          commas(pk[1]->heap, y, sizeof y),
          signed_commas((double)pk[1]->heap - (double)pk[0]->heap, c, sizeof c),
          percent(pk[0]->heap, pk[1]->heap, p, sizeof p));
   printf("%-22s %17s %17s\n", "time of the peak", commas(pk[0]->time, x, sizeof x),
          commas(pk[1]->time, y, sizeof y));
   printf("%-22s %17ld %17ld\n", "peak snapshot", pk[0]->num, pk[1]->num);
   /* The sites: the peak tree root's children, by their text without
      the code address. */
   for (s = 0; s < 2; s++)
      for (k = 0; k < pk[s]->n_nodes; k++) {
         const PR_MsNode *nd = &pk[s]->nodes[k];
         const char *t = pr_ms_strip_addr(nd->text);
         if (nd->depth != 1)
            continue;
         for (i = 0; i < n_sites && strcmp(sites[i].site, t); i++)
            ;
         if (i == n_sites) {
            sites = realloc(sites, (n_sites + 1) * sizeof *sites);
            if (sites == NULL)
               usage_error("out of memory", "");
            sites[i].site = pf_xstrdup(t);
            sites[i].bytes[0] = sites[i].bytes[1] = 0;
            n_sites++;
         }
         sites[i].bytes[s] += nd->bytes;
      }
   if (n_sites)
      qsort(sites, n_sites, sizeof *sites, cmp_site);
   printf("\nAllocation sites at the peak, the largest changes:\n");
   if (n_sites == 0)
      printf("  none (no tree at the peak)\n");
   else
      printf("  %15s %15s %15s %9s  %s\n", "BASE", "NEW", "change", "%", "site");
   for (i = 0; i < n_sites && i < TOP_N; i++)
      printf("  %15s %15s %15s %9s  %s\n", commas(sites[i].bytes[0], x, sizeof x),
             commas(sites[i].bytes[1], y, sizeof y),
             signed_commas((double)sites[i].bytes[1] - (double)sites[i].bytes[0],
                           c, sizeof c),
             percent(sites[i].bytes[0], sites[i].bytes[1], p, sizeof p),
             sites[i].site);
   for (l = 0; l < opt.n_limits; l++) {
      judge(&opt.limits[l], NULL, total[0], total[1]);
      for (i = 0; opt.per_function && i < n_sites; i++)
         if ((double)(sites[i].bytes[0] > sites[i].bytes[1] ? sites[i].bytes[0]
                      : sites[i].bytes[1]) > opt.noise / 100.0 * (double)total[0])
            judge(&opt.limits[l], sites[i].site, sites[i].bytes[0],
                  sites[i].bytes[1]);
   }
   if (n_verdicts)
      printf("\n");
   status = print_verdicts();
   if (opt.html) {
      int col[2] = { -1, -1 };
      write_html(b, n, col, "bytes");
   }
   if (opt.json) {
      char tmp[4200];
      FILE *f = json_open(tmp, sizeof tmp);
      json_head(f, b, n);
      fprintf(f, ",\n  \"kind\": \"massif\",\n  \"peak\": ");
      json_change(f, total[0], total[1]);
      fprintf(f, ",\n  \"peak_time\": {\"base\": %llu, \"new\": %llu},\n"
              "  \"sites\": [", pk[0]->time, pk[1]->time);
      for (i = 0; i < n_sites; i++) {
         fprintf(f, "%s\n    {\"site\": ", i ? "," : "");
         json_string(f, sites[i].site);
         fprintf(f, ", \"bytes\": ");
         json_change(f, sites[i].bytes[0], sites[i].bytes[1]);
         fprintf(f, "}");
      }
      fprintf(f, "%s],\n", n_sites ? "\n  " : "");
      json_verdicts(f, status);
      json_close(f, tmp);
   }
   return status;
}

/*------------------------------------------------------------*/
/*--- The differential flame graph                         ---*/
/*------------------------------------------------------------*/

/* Each frame of A gets, as OTHER and OTHER_SELF, the total and self
   cost of the same path in B (names folded, as functions are matched);
   the largest change of a self cost. */
static pr_u64 annotate(PF_Node *a, const PF_Node *b)
{
   PF_Node *c;
   const PF_Node *d;
   pr_u64 most;
   char x[4096], y[4096];
   int level;
   a->other = b ? b->total : 0;
   a->other_self = b ? b->self : 0;
   most = a->self > a->other_self ? a->self - a->other_self
                                  : a->other_self - a->self;
   for (c = a->child; c; c = c->next) {
      pr_u64 m;
      fold(c->name, x, sizeof x, &level);
      for (d = b ? b->child : NULL; d; d = d->next)
         if (!strcmp(fold(d->name, y, sizeof y, &level), x))
            break;
      m = annotate(c, d);
      if (m > most)
         most = m;
   }
   return most;
}

typedef struct {
   PF_Report   r[2];        /* NEW's graph, BASE's */
   const char *unit;
   pr_u64      total[2];    /* BASE, NEW */
} DiffPage;

static int write_diff_page(xmlTextWriterPtr w, const void *ctx)
{
   const DiffPage *d = ctx;
   char buf[8400], title[8400], a[40], b[40], c[40], p[40];
   int rc = 0;
   snprintf(buf, sizeof buf, "profdiff: %s -> %s", opt.files[0], opt.files[1]);
   pf_clean(buf, title, sizeof title);
   rc |= pf_page_start(w, title);
   rc |= pf_el(w, "style", NULL, "body { font-family: Verdana, sans-serif; "
               "margin: 1em 2em; color: #222; } h1 { font-size: 1.4em; } "
               "h2 { font-size: 1.15em; } p.about { color: #555; }");
   rc |= pf_page_body(w, title);
   snprintf(buf, sizeof buf, "%s: BASE %s, NEW %s, change %s (%s).", d->unit,
            commas(d->total[0], a, sizeof a), commas(d->total[1], b, sizeof b),
            signed_commas((double)d->total[1] - (double)d->total[0], c, sizeof c),
            percent(d->total[0], d->total[1], p, sizeof p));
   rc |= pf_el(w, "p", "about", buf);
   rc |= pf_el(w, "p", "about", "Each frame is coloured by the change of its "
               "own (self) cost from BASE to NEW: red where it grew, blue where "
               "it fell, the deeper the colour the larger the change; white "
               "where it did not change.  Its tooltip gives both totals and "
               "the change.");
   rc |= xmlTextWriterStartElement(w, BAD_CAST "p") < 0;
   rc |= xmlTextWriterStartElement(w, BAD_CAST "a") < 0;
   rc |= xmlTextWriterWriteAttribute(w, BAD_CAST "href", BAD_CAST "#new") < 0;
   rc |= xmlTextWriterWriteString(w, BAD_CAST "NEW, coloured by the change") < 0;
   rc |= xmlTextWriterEndElement(w) < 0;
   rc |= xmlTextWriterWriteString(w, BAD_CAST " \xc2\xb7 ") < 0;
   rc |= xmlTextWriterStartElement(w, BAD_CAST "a") < 0;
   rc |= xmlTextWriterWriteAttribute(w, BAD_CAST "href", BAD_CAST "#base") < 0;
   rc |= xmlTextWriterWriteString(w, BAD_CAST "BASE, the reversed view: what "
                                  "vanished or shrank") < 0;
   rc |= xmlTextWriterEndElement(w) < 0;
   rc |= xmlTextWriterEndElement(w) < 0;             /* p */
   for (int k = 0; k < 2; k++) {
      rc |= xmlTextWriterStartElement(w, BAD_CAST "h2") < 0;
      rc |= xmlTextWriterWriteAttribute(w, BAD_CAST "id", BAD_CAST (k ? "base" : "new")) < 0;
      rc |= xmlTextWriterWriteString(w, BAD_CAST (k ? "BASE, coloured by the "
         "change (what vanished or shrank is blue)" : "NEW, coloured by the "
         "change (what grew is red)")) < 0;
      rc |= xmlTextWriterEndElement(w) < 0;
      rc |= xmlTextWriterStartElement(w, BAD_CAST "div") < 0;
      rc |= xmlTextWriterWriteAttribute(w, BAD_CAST "class", BAD_CAST "flame") < 0;
      rc |= pf_write_svg(w, &d->r[k], 1200, 0.1, 0) != 0;
      rc |= xmlTextWriterEndElement(w) < 0;
   }
   rc |= pf_page_end(w);
   return rc ? -1 : 0;
}

/* --html: the page of both graphs, coloured by the change of EVENT
   (each side's column; -1 for heap profiles). */
static void write_html(Side *b, Side *n, const int col[2], const char *unit)
{
   DiffPage d;
   Side *side[2] = { n, b };                /* r[0] NEW, r[1] BASE */
   char msg[1200], title[4200];
   pr_u64 most, back;
   int k;
   memset(&d, 0, sizeof d);
   for (k = 0; k < 2; k++) {
      long snap;
      d.r[k].root = pf_node_new("all");
      if (side[k]->cg)
         pf_add_callgrind(d.r[k].root, side[k]->cg, col[k ? 0 : 1]);
      else
         pf_add_massif(d.r[k].root, side[k]->ms, &snap);
      pf_sort(d.r[k].root);
      d.r[k].unit = (char *)unit;
      d.r[k].estimated = side[k]->cg != NULL;
      d.r[k].diff = k + 1;
      snprintf(title, sizeof title, "%s: %s", k ? "BASE" : "NEW", side[k]->path);
      d.r[k].title = title[0] ? pf_xstrdup(title) : NULL;
   }
   most = annotate(d.r[0].root, d.r[1].root);
   back = annotate(d.r[1].root, d.r[0].root);
   d.r[0].max_change = d.r[1].max_change = most > back ? most : back;
   d.unit = unit;
   d.total[0] = d.r[1].root->total;
   d.total[1] = d.r[0].root->total;
   if (pf_write_file(opt.html, write_diff_page, &d, msg, sizeof msg) != 0) {
      fprintf(stderr, "profdiff: %s\n", msg);
      exit(2);
   }
   for (k = 0; k < 2; k++) {
      pf_node_free(d.r[k].root);
      free(d.r[k].title);
   }
}

int main(int argc, char **argv)
{
   Side side[2];
   int s;
   pf_program = "profdiff";
   pf_fail_status = 2;
   parse_options(argc, argv);
   for (s = 0; s < 2; s++)
      load(&side[s], opt.files[s]);
   if (side[0].kind != side[1].kind || side[0].cachegrind != side[1].cachegrind)
      bad("%s and %s are different kinds of profile", opt.files[0],
          opt.files[1]);
   printf("profdiff: BASE %s\n          NEW  %s\n", opt.files[0], opt.files[1]);
   if (side[0].kind == PR_MASSIF)
      return diff_heap(&side[0], &side[1]);
   return diff_calls(&side[0], &side[1]);
}
