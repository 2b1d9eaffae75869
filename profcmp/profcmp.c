/* profcmp: do two profiles show the same picture?

   Copyright (C) 2026 The heapsnap/callprof developers.
   SPDX-License-Identifier: GPL-2.0-or-later

   usage: profcmp [OPTIONS] A B

   Reads A and B with profreader (both Callgrind-format or both
   Massif-format) and lists what a reader would show differently, kind by
   kind, then one summary line.  Exit status 0: the same picture; 1:
   differences; 2: a file or an option is bad (one line saying which).

   Callgrind format (what KCachegrind and callgrind_annotate show):
     functions   each (file, name, object) missing from one side, or with
                 another self cost in an event both files count
     lines       self cost per (function, source file, position)
     arcs        each call arc (caller, call-site file and position,
                 callee): missing, extra, or with other calls or
                 inclusive costs
     jumps       each jump (function, source, target, conditional or
                 not): missing, extra, or with other counts
     ids         a compressed id that stands for two functions, in one
                 file and not the other (Valgrind's own xtree files have
                 some: the same in both is the same picture)
     events      an event counted by one file only (the common ones are
                 compared)
   Positions are compared in the columns both files have ("line",
   "instr"); --no-instr leaves the addresses out.

   Massif format (what ms_print and massif-visualizer show):
     snapshots   the number of snapshots; per snapshot its time, heap,
                 extra and stack bytes and its kind (empty, detailed,
                 peak); every node of every tree (depth, bytes, text),
                 the text without its code address ("0x4005F2: "), which
                 moves when two tools' preloads differ.

   Options:
     -x REGEX         leave out functions whose "FILE:NAME [OBJECT]"
                      matches (POSIX extended regex; repeatable): their
                      self costs, lines, jumps and every arc to or from
                      them; in Massif trees, nodes whose text matches,
                      with their subtrees
     -t PCT           costs and bytes equal within PCT percent of the
                      larger (default 0: exactly)
     -a N             costs and bytes equal within N (default 0); call and
                      jump counts are compared exactly whatever -t and -a
     --time-tolerance N | PCT%
                      snapshot times equal within N (in the file's time
                      unit) or PCT percent of the larger (default 0);
                      for two tools whose malloc paths differ by a few
                      instructions at start-up
     --peak-only      Massif files: only the peak snapshots (sizes and
                      tree; not the time), for time units that are not
                      deterministic (--time-unit=ms) and threaded programs
     --no-lines       leave out the per-line costs
     --no-instr       compare positions by line only
     --max N          list at most N differences of each kind (default 40)
     -q               print only the summary line */

#include <regex.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "profreader.h"
#include "pr_internal.h"

static regex_t excludes[32];
static int     n_excludes;
static double  tolerance, time_tolerance;
static pr_u64  abs_tolerance;
static int     time_tolerance_pct;
static int     no_lines, no_instr, quiet, peak_only;
static long    max_listed = 40;

/*------------------------------------------------------------------*/
/* Differences: collected per kind, sorted, printed. */

enum { K_EVENTS, K_FUNCTIONS, K_LINES, K_ARCS, K_JUMPS, K_IDS, K_SNAPSHOTS,
       K_TREES, N_KINDS };
static const char *kind_name[N_KINDS] = {
   "events", "functions", "lines", "arcs", "jumps", "ids", "snapshots",
   "trees" };
static char  **diffs[N_KINDS];
static size_t  n_diffs[N_KINDS], cap_diffs[N_KINDS];

static void differ(int kind, const char *fmt, ...)
#ifdef __GNUC__
   __attribute__((format(printf, 2, 3)))
#endif
   ;
static void differ(int kind, const char *fmt, ...)
{
   char buf[4096];
   va_list ap;
   va_start(ap, fmt);
   vsnprintf(buf, sizeof buf, fmt, ap);
   va_end(ap);
   pr_grow(&diffs[kind], &cap_diffs[kind], n_diffs[kind], sizeof(char *));
   diffs[kind][n_diffs[kind]++] = pr_xstrndup(buf, strlen(buf));
}

static int by_text(const void *a, const void *b)
{
   return strcmp(*(char *const *)a, *(char *const *)b);
}

static int report(void)
{
   size_t total = 0, i;
   int k, first = 1;
   for (k = 0; k < N_KINDS; k++) {
      total += n_diffs[k];
      if (quiet || n_diffs[k] == 0)
         continue;
      if (k != K_TREES)     /* a tree's lines stay in order */
         qsort(diffs[k], n_diffs[k], sizeof(char *), by_text);
      printf("== %s: %zu difference%s\n", kind_name[k], n_diffs[k],
             n_diffs[k] == 1 ? "" : "s");
      for (i = 0; i < n_diffs[k] && (long)i < max_listed; i++)
         printf("  %s\n", diffs[k][i]);
      if ((long)n_diffs[k] > max_listed)
         printf("  ... and %zu more\n", n_diffs[k] - (size_t)max_listed);
   }
   if (total == 0) {
      printf("profcmp: no differences\n");
      return 0;
   }
   printf("profcmp: %zu difference%s (", total, total == 1 ? "" : "s");
   for (k = 0; k < N_KINDS; k++) {
      if (n_diffs[k] == 0)
         continue;
      printf("%s%s %zu", first ? "" : ", ", kind_name[k], n_diffs[k]);
      first = 0;
   }
   printf(")\n");
   return 1;
}

static int near(pr_u64 a, pr_u64 b, double pct)
{
   pr_u64 big = a > b ? a : b, d = a > b ? a - b : b - a;
   if (d <= abs_tolerance)
      return 1;
   return (double)d * 100.0 <= pct * (double)big;
}

static int excluded(const char *label)
{
   int i;
   for (i = 0; i < n_excludes; i++)
      if (regexec(&excludes[i], label, 0, NULL, 0) == 0)
         return 1;
   return 0;
}

/*------------------------------------------------------------------*/
/* Callgrind format.  Each side's items are put in maps keyed by their
   text, so that the two files, whose pointers and ids have nothing in
   common, meet by what a reader shows. */

typedef struct {
   int          ev[2][64];     /* common event k: its column in A, in B */
   int          n_ev;
   const char  *ev_name[64];
   int          col[2][PR_MAX_POS];  /* common position c: column in A, B */
   const char  *col_name[PR_MAX_POS];
   int          n_col;
} Common;

typedef struct {
   pr_u64 n[2][2 + 64];        /* per side: counts, then costs */
   int    seen[2];
} Item;

typedef struct {
   PR_Map map;
   char **keys;  size_t cap_keys;
   Item  *items; size_t cap_items;
   size_t n;
} Table;

static Item *item(Table *t, const char *key)
{
   size_t i, len = strlen(key);
   if (!pr_map_get(&t->map, key, len, &i)) {
      pr_grow(&t->keys, &t->cap_keys, t->n, sizeof *t->keys);
      pr_grow(&t->items, &t->cap_items, t->n, sizeof *t->items);
      memset(&t->items[t->n], 0, sizeof *t->items);
      t->keys[t->n] = pr_xstrndup(key, len);
      pr_map_put(&t->map, key, len, t->n);
      i = t->n++;
   }
   return &t->items[i];
}

static void table_free(Table *t)
{
   size_t i;
   for (i = 0; i < t->n; i++)
      free(t->keys[i]);
   free(t->keys);
   free(t->items);
   pr_map_free(&t->map);
}

static const char *pos_text(const Common *c, int side, const PR_Pos *p,
                            char *buf, size_t size)
{
   size_t used = 0;
   int i;
   buf[0] = '\0';
   for (i = 0; i < c->n_col && used < size; i++) {
      pr_u64 v = p->v[c->col[side][i]];
      used += (size_t)snprintf(buf + used, size - used,
                               strcmp(c->col_name[i], "instr") == 0 ?
                               "%s%#llx" : "%s%llu", i ? " " : "", v);
   }
   return buf;
}

static const char *base(const char *path)
{
   const char *s = strrchr(path, '/');
   return s ? s + 1 : path;
}

static void costs_text(char *buf, size_t size, const Common *c,
                       const Item *it, int from)
{
   size_t used = 0;
   int k;
   buf[0] = '\0';
   for (k = 0; k < c->n_ev && used < size; k++) {
      pr_u64 a = it->n[0][from + k], b = it->n[1][from + k];
      if (near(a, b, tolerance))
         continue;
      used += (size_t)snprintf(buf + used, size - used, "%s%s A=%llu B=%llu",
                               used ? ", " : "", c->ev_name[k], a, b);
   }
}

static int costs_differ(const Common *c, const Item *it, int from)
{
   int k;
   for (k = 0; k < c->n_ev; k++)
      if (!near(it->n[0][from + k], it->n[1][from + k], tolerance))
         return 1;
   return 0;
}

static void fill(Item *it, int side, const Common *c, const pr_u64 *costs,
                 int from)
{
   int k;
   it->seen[side] = 1;
   for (k = 0; k < c->n_ev; k++)
      it->n[side][from + k] += costs[c->ev[side][k]];
}

/* Whether the costs of IT on SIDE are all zero. */
static int all_zero(const Common *c, const Item *it, int side)
{
   int k;
   for (k = 0; k < c->n_ev; k++)
      if (it->n[side][k] != 0)
         return 0;
   return 1;
}

/* Reports the items of T: on one side only, or with other numbers (the
   first FROM numbers are counts, compared exactly; the costs after them
   within the tolerance). */
static void compare_table(Table *t, int kind, const Common *c, int from,
                          const char *const *count_names)
{
   size_t i;
   char costs[2048], counts[256];
   for (i = 0; i < t->n; i++) {
      Item *it = &t->items[i];
      int j, bad_counts = 0;
      size_t used = 0;
      /* A line of zero cost on one side only shows nothing a reader
         counts (callprof writes one where a context has calls only,
         docs/callprof.md). */
      if (kind == K_LINES && it->seen[0] != it->seen[1] &&
          all_zero(c, it, it->seen[0] ? 0 : 1))
         continue;
      if (!it->seen[1]) {
         differ(kind, "only in A: %s", t->keys[i]);
         continue;
      }
      if (!it->seen[0]) {
         differ(kind, "only in B: %s", t->keys[i]);
         continue;
      }
      counts[0] = '\0';
      for (j = 0; j < from; j++) {
         if (it->n[0][j] == it->n[1][j])
            continue;
         bad_counts = 1;
         used += (size_t)snprintf(counts + used, sizeof counts - used,
                                  "%s%s A=%llu B=%llu", used ? ", " : "",
                                  count_names[j], it->n[0][j], it->n[1][j]);
      }
      if (!bad_counts && !costs_differ(c, it, from))
         continue;
      costs_text(costs, sizeof costs, c, it, from);
      differ(kind, "%s: %s%s%s", t->keys[i], counts,
             *counts && *costs ? ", " : "", costs);
   }
}

static void cg_side(PR_Callgrind *p, int side, const Common *c, Table *fns,
                    Table *lines, Table *arcs, Table *jumps, Table *ids)
{
   size_t i;
   char key[16384], l1[4096], l2[4096], pos[64], pos2[64];
   static const pr_u64 zero[64];

   for (i = 0; i < p->n_fns; i++) {
      PR_Fn *f = p->fns[i];
      pr_fn_label(f, l1, sizeof l1);
      if (excluded(l1))
         continue;
      fill(item(fns, l1), side, c, f->self, 0);
   }
   for (i = 0; i < p->n_lines && !no_lines; i++) {
      PR_Line *ln = &p->lines[i];
      pr_fn_label(ln->fn, l1, sizeof l1);
      if (excluded(l1))
         continue;
      snprintf(key, sizeof key, "%s at %s:%s", l1, base(ln->file),
               pos_text(c, side, &ln->pos, pos, sizeof pos));
      fill(item(lines, key), side, c, ln->cost, 0);
   }
   for (i = 0; i < p->n_calls; i++) {
      PR_Call *a = &p->calls[i];
      Item *it;
      pr_fn_label(a->caller, l1, sizeof l1);
      pr_fn_label(a->callee, l2, sizeof l2);
      if (excluded(l1) || excluded(l2))
         continue;
      snprintf(key, sizeof key, "%s at %s:%s -> %s", l1, base(a->file),
               pos_text(c, side, &a->pos, pos, sizeof pos), l2);
      it = item(arcs, key);
      it->n[side][0] += a->calls;
      fill(it, side, c, a->incl, 1);
   }
   for (i = 0; i < p->n_jumps; i++) {
      PR_Jump *j = &p->jumps[i];
      Item *it;
      pr_fn_label(j->fn, l1, sizeof l1);
      if (excluded(l1))
         continue;
      snprintf(key, sizeof key, "%s %s at %s:%s to %s:%s", l1,
               j->cond ? "jcnd" : "jump", base(j->file),
               pos_text(c, side, &j->pos, pos, sizeof pos), base(j->to_file),
               pos_text(c, side, &j->to, pos2, sizeof pos2));
      it = item(jumps, key);
      it->n[side][0] += j->followed;
      it->n[side][1] += j->executed;
      fill(it, side, c, zero, 2);
   }
   /* Conflicts, without "FILE:LINE: ": the same one in both files is
      the same picture (Valgrind's own xtree files have some). */
   for (i = 0; i < p->n_conflicts; i++) {
      const char *msg = strstr(p->conflicts[i], ": function id");
      item(ids, msg ? msg + 2 : p->conflicts[i])->seen[side] = 1;
   }
}

static void compare_cg(PR_Callgrind *a, PR_Callgrind *b)
{
   Common c;
   Table fns, lines, arcs, jumps, ids;
   int k, j;
   size_t i;
   static const char *const arc_counts[] = { "calls" };
   static const char *const jump_counts[] = { "followed", "executed" };

   memset(&c, 0, sizeof c);
   memset(&fns, 0, sizeof fns);
   memset(&lines, 0, sizeof lines);
   memset(&arcs, 0, sizeof arcs);
   memset(&jumps, 0, sizeof jumps);
   memset(&ids, 0, sizeof ids);
   for (k = 0; k < a->n_events && c.n_ev < 64; k++) {
      int in_b = pr_cg_event(b, a->events[k]);
      if (in_b < 0) {
         differ(K_EVENTS, "only in A: %s", a->events[k]);
         continue;
      }
      c.ev[0][c.n_ev] = k;
      c.ev[1][c.n_ev] = in_b;
      c.ev_name[c.n_ev++] = a->events[k];
   }
   for (k = 0; k < b->n_events; k++)
      if (pr_cg_event(a, b->events[k]) < 0)
         differ(K_EVENTS, "only in B: %s", b->events[k]);
   for (k = 0; k < a->n_pos; k++)
      for (j = 0; j < b->n_pos; j++)
         if (strcmp(a->pos_names[k], b->pos_names[j]) == 0 &&
             !(no_instr && strcmp(a->pos_names[k], "instr") == 0)) {
            c.col[0][c.n_col] = k;
            c.col[1][c.n_col] = j;
            c.col_name[c.n_col++] = a->pos_names[k];
         }
   cg_side(a, 0, &c, &fns, &lines, &arcs, &jumps, &ids);
   cg_side(b, 1, &c, &fns, &lines, &arcs, &jumps, &ids);
   for (i = 0; i < ids.n; i++)
      if (!ids.items[i].seen[0] || !ids.items[i].seen[1])
         differ(K_IDS, "only in %s: %s", ids.items[i].seen[0] ? "A" : "B",
                ids.keys[i]);
   compare_table(&fns, K_FUNCTIONS, &c, 0, NULL);
   compare_table(&lines, K_LINES, &c, 0, NULL);
   compare_table(&arcs, K_ARCS, &c, 1, arc_counts);
   c.n_ev = 0;                  /* jumps have counts only */
   compare_table(&jumps, K_JUMPS, &c, 2, jump_counts);
   table_free(&fns);
   table_free(&lines);
   table_free(&arcs);
   table_free(&jumps);
   table_free(&ids);
}

/*------------------------------------------------------------------*/
/* Massif format */

/* The nodes of S left after -x, into OUT (indices). */
static size_t kept_nodes(const PR_MsSnapshot *s, size_t *out)
{
   size_t i, n = 0;
   int skip_below = -1;
   for (i = 0; i < s->n_nodes; i++) {
      const PR_MsNode *nd = &s->nodes[i];
      if (skip_below >= 0 && nd->depth > skip_below)
         continue;
      skip_below = -1;
      if (excluded(pr_ms_strip_addr(nd->text))) {
         skip_below = nd->depth;
         continue;
      }
      out[n++] = i;
   }
   return n;
}

static const char *kind_text(PR_TreeKind k)
{
   return k == PR_TREE_PEAK ? "peak" : k == PR_TREE_DETAILED ? "detailed"
                                                            : "empty";
}

static void compare_tree(long num, const PR_MsSnapshot *a,
                         const PR_MsSnapshot *b)
{
   size_t *ka = pr_xcalloc(a->n_nodes + 1, sizeof *ka);
   size_t *kb = pr_xcalloc(b->n_nodes + 1, sizeof *kb);
   size_t na = kept_nodes(a, ka), nb = kept_nodes(b, kb), i, listed = 0;
   for (i = 0; i < na || i < nb; i++) {
      const PR_MsNode *x = i < na ? &a->nodes[ka[i]] : NULL;
      const PR_MsNode *y = i < nb ? &b->nodes[kb[i]] : NULL;
      if (x && y && x->depth == y->depth &&
          near(x->bytes, y->bytes, tolerance) &&
          strcmp(pr_ms_strip_addr(x->text), pr_ms_strip_addr(y->text)) == 0)
         continue;
      if (listed++ < 3)
         differ(K_TREES, "snapshot %ld, tree line %zu: A: %*s%llu %s | "
                "B: %*s%llu %s", num, i + 1,
                x ? x->depth : 0, "", x ? x->bytes : 0ULL,
                x ? pr_ms_strip_addr(x->text) : "(none)",
                y ? y->depth : 0, "", y ? y->bytes : 0ULL,
                y ? pr_ms_strip_addr(y->text) : "(none)");
   }
   if (listed > 3)
      differ(K_TREES, "snapshot %ld: %zu more tree lines differ", num,
             listed - 3);
   free(ka);
   free(kb);
}

static const PR_MsSnapshot *peak_of(const PR_Massif *m)
{
   size_t i;
   for (i = 0; i < m->n_snaps; i++)
      if (m->snaps[i].kind == PR_TREE_PEAK)
         return &m->snaps[i];
   return NULL;
}

static void compare_peaks(PR_Massif *a, PR_Massif *b)
{
   const PR_MsSnapshot *x = peak_of(a), *y = peak_of(b);
   if (x == NULL && y == NULL)
      return;                 /* a program that never allocated: no peak */
   if (x == NULL || y == NULL) {
      differ(K_SNAPSHOTS, "peak snapshot: A %s, B %s", x ? "has one" : "none",
             y ? "has one" : "none");
      return;
   }
#define FIELD(f) \
   if (!near(x->f, y->f, tolerance)) \
      differ(K_SNAPSHOTS, "peak: " #f " A=%llu B=%llu", x->f, y->f);
   FIELD(heap)
   FIELD(extra)
   FIELD(stacks)
#undef FIELD
   compare_tree(x->num, x, y);
}

static void compare_ms(PR_Massif *a, PR_Massif *b)
{
   size_t i, n = a->n_snaps < b->n_snaps ? a->n_snaps : b->n_snaps;
   if (a->n_snaps != b->n_snaps)
      differ(K_SNAPSHOTS, "number of snapshots: A=%zu B=%zu", a->n_snaps,
             b->n_snaps);
   if ((a->time_unit == NULL) != (b->time_unit == NULL) ||
       (a->time_unit && strcmp(a->time_unit, b->time_unit) != 0))
      differ(K_SNAPSHOTS, "time_unit: A=%s B=%s", a->time_unit,
             b->time_unit);
   for (i = 0; i < n; i++) {
      const PR_MsSnapshot *x = &a->snaps[i], *y = &b->snaps[i];
      char what[512];
      size_t used = 0;
      what[0] = '\0';
#define FIELD(f, tol) \
      if (!near(x->f, y->f, tol)) \
         used += (size_t)snprintf(what + used, sizeof what - used, \
                                  "%s" #f " A=%llu B=%llu", \
                                  used ? ", " : "", x->f, y->f);
      if (time_tolerance_pct ? !near(x->time, y->time, time_tolerance) :
          (double)(x->time > y->time ? x->time - y->time
                                     : y->time - x->time) > time_tolerance)
         used += (size_t)snprintf(what + used, sizeof what - used,
                                  "time A=%llu B=%llu", x->time, y->time);
      FIELD(heap, tolerance)
      FIELD(extra, tolerance)
      FIELD(stacks, tolerance)
#undef FIELD
      if (x->kind != y->kind)
         used += (size_t)snprintf(what + used, sizeof what - used,
                                  "%skind A=%s B=%s", used ? ", " : "",
                                  kind_text(x->kind), kind_text(y->kind));
      if (used)
         differ(K_SNAPSHOTS, "snapshot %zu: %s", i, what);
      if (x->kind != PR_TREE_EMPTY && y->kind != PR_TREE_EMPTY)
         compare_tree((long)i, x, y);
   }
}

/*------------------------------------------------------------------*/

static void usage(FILE *to)
{
   fputs("usage: profcmp [-x REGEX]... [-t PCT] [-a N] [--time-tolerance N|PCT%] "
         "[--peak-only] [--no-lines] [--no-instr] [--max N] [-q] A B\n"
         "Compares two Callgrind-format or two Massif-format profiles as "
         "their readers show them.\n"
         "Exit status: 0 the same, 1 different, 2 a bad file or option.\n"
         "See docs/profcmp.md.\n", to);
}

static void bad_option(const char *what, const char *value)
{
   fprintf(stderr, "profcmp: %s '%s'\n", what, value ? value : "");
   fputs("usage: profcmp [-x REGEX]... [-t PCT] [-a N] [--time-tolerance N|PCT%] "
         "[--peak-only] [--no-lines] [--no-instr] [--max N] [-q] A B\n", stderr);
   exit(2);
}

static double percent(const char *opt, const char *v)
{
   char *end;
   double d;
   if (v == NULL)
      bad_option("missing value of", opt);
   d = strtod(v, &end);
   if (*end != '\0' || end == v || d < 0) {
      fprintf(stderr, "profcmp: bad value '%s' for %s (a number such as "
              "0.01%s)\n", v, opt,
              strcmp(opt, "--time-tolerance") == 0 ? ", or 0.01%" : "");
      exit(2);
   }
   return d;
}

static const char *format_name(PR_Format f)
{
   return f == PR_CALLGRIND ? "Callgrind-format" :
          f == PR_MASSIF ? "Massif-format" :
          f == PR_FOLDED ? "folded-stacks" : "unknown-format";
}

int main(int argc, char **argv)
{
   const char *files[2];
   char *data[2];
   size_t len[2];
   PR_Format fmt[2];
   PR_Error err = { 0, "" };
   int n_files = 0, i, status;

   for (i = 1; i < argc; i++) {
      const char *a = argv[i];
      if (strcmp(a, "-x") == 0) {
         int rc;
         if (++i >= argc)
            bad_option("missing value of", "-x");
         if (n_excludes == 32)
            bad_option("too many", "-x");
         rc = regcomp(&excludes[n_excludes], argv[i], REG_EXTENDED | REG_NOSUB);
         if (rc != 0)
            bad_option("bad regular expression for -x", argv[i]);
         n_excludes++;
      } else if (strcmp(a, "-a") == 0) {
         abs_tolerance = (pr_u64)percent(a, ++i < argc ? argv[i] : NULL);
      } else if (strcmp(a, "-t") == 0) {
         tolerance = percent(a, ++i < argc ? argv[i] : NULL);
      } else if (strcmp(a, "--time-tolerance") == 0) {
         char v[64];
         size_t n;
         if (++i >= argc)
            bad_option("missing value of", a);
         n = strlen(argv[i]);
         time_tolerance_pct = n > 0 && argv[i][n - 1] == '%';
         snprintf(v, sizeof v, "%.*s", (int)(n - (size_t)time_tolerance_pct),
                  argv[i]);
         time_tolerance = percent(a, v);
      } else if (strcmp(a, "--max") == 0) {
         char *end;
         if (++i >= argc)
            bad_option("missing value of", "--max");
         max_listed = strtol(argv[i], &end, 10);
         if (*end != '\0' || max_listed < 0)
            bad_option("bad number for --max", argv[i]);
      } else if (strcmp(a, "--peak-only") == 0) {
         peak_only = 1;
      } else if (strcmp(a, "--no-lines") == 0) {
         no_lines = 1;
      } else if (strcmp(a, "--no-instr") == 0) {
         no_instr = 1;
      } else if (strcmp(a, "-q") == 0) {
         quiet = 1;
      } else if (strcmp(a, "-h") == 0 || strcmp(a, "--help") == 0) {
         usage(stdout);
         return 0;
      } else if (a[0] == '-' && a[1] != '\0') {
         bad_option("unknown option", a);
      } else if (n_files < 2) {
         files[n_files++] = a;
      } else {
         bad_option("a third file", a);
      }
   }
   if (n_files != 2)
      bad_option("two files are needed, got", n_files ? files[0] : "none");

   for (i = 0; i < 2; i++) {
      data[i] = pr_slurp(files[i], &len[i], &err);
      if (data[i] == NULL) {
         fprintf(stderr, "profcmp: %s\n", err.text);
         return 2;
      }
      fmt[i] = pr_detect(data[i], len[i]);
   }
   if (fmt[0] != fmt[1] || (fmt[0] != PR_CALLGRIND && fmt[0] != PR_MASSIF)) {
      fprintf(stderr, "profcmp: %s is a %s file and %s a %s file: "
              "two Callgrind-format or two Massif-format files are needed\n",
              files[0], format_name(fmt[0]), files[1], format_name(fmt[1]));
      return 2;
   }
   if (fmt[0] == PR_CALLGRIND) {
      PR_Callgrind *a = pr_cg_parse(data[0], len[0], files[0], &err);
      PR_Callgrind *b = a ? pr_cg_parse(data[1], len[1], files[1], &err)
                          : NULL;
      if (b == NULL) {
         fprintf(stderr, "profcmp: %s\n", err.text);
         return 2;
      }
      compare_cg(a, b);
      pr_cg_free(a);
      pr_cg_free(b);
   } else {
      PR_Massif *a = pr_ms_parse(data[0], len[0], files[0], &err);
      PR_Massif *b = a ? pr_ms_parse(data[1], len[1], files[1], &err) : NULL;
      if (b == NULL) {
         fprintf(stderr, "profcmp: %s\n", err.text);
         return 2;
      }
      if (peak_only)
         compare_peaks(a, b);
      else
         compare_ms(a, b);
      pr_ms_free(a);
      pr_ms_free(b);
   }
   free(data[0]);
   free(data[1]);
   status = report();
   if (fflush(stdout) != 0)
      return 2;
   return status;
}
