/* pd_heap.c: two heap profiles compared.

   Copyright (C) 2026 The heapsnap/callprof developers.
   SPDX-License-Identifier: GPL-2.0-or-later

   The peaks (heap + extra + stacks), their times, and the allocation
   sites (the children of the peak tree's root) whose bytes at the peak
   changed most; the gate on "peak"; their JSON summary. */

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "pd.h"

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

int pd_diff_heap(PD_Side *b, PD_Side *n)
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
   for (l = 0; l < pd_opt.n_limits; l++)
      if (strcmp(pd_opt.limits[l].event, "peak"))
         pd_bad("--limit/--warn %s: a heap profile's event is peak%s",
             pd_opt.limits[l].event, "");
   printf("\n%-22s %17s %17s %17s %9s\n", "at the peak", "BASE", "NEW",
          "change", "%");
   printf("%-22s %17s %17s %17s %9s\n", "peak (heap+extra+stacks)",
          pd_commas(total[0], x, sizeof x), pd_commas(total[1], y, sizeof y),
          pd_signed_commas((double)total[1] - (double)total[0], c, sizeof c),
          pd_percent(total[0], total[1], p, sizeof p));
   printf("%-22s %17s %17s %17s %9s\n", "heap", pd_commas(pk[0]->heap, x, sizeof x),
          pd_commas(pk[1]->heap, y, sizeof y),
          pd_signed_commas((double)pk[1]->heap - (double)pk[0]->heap, c, sizeof c),
          pd_percent(pk[0]->heap, pk[1]->heap, p, sizeof p));
   printf("%-22s %17s %17s\n", "time of the peak", pd_commas(pk[0]->time, x, sizeof x),
          pd_commas(pk[1]->time, y, sizeof y));
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
               pd_usage_error("out of memory", "");
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
   for (i = 0; i < n_sites && i < PD_TOP_N; i++)
      printf("  %15s %15s %15s %9s  %s\n", pd_commas(sites[i].bytes[0], x, sizeof x),
             pd_commas(sites[i].bytes[1], y, sizeof y),
             pd_signed_commas((double)sites[i].bytes[1] - (double)sites[i].bytes[0],
                           c, sizeof c),
             pd_percent(sites[i].bytes[0], sites[i].bytes[1], p, sizeof p),
             sites[i].site);
   for (l = 0; l < pd_opt.n_limits; l++) {
      pd_judge(&pd_opt.limits[l], NULL, total[0], total[1]);
      for (i = 0; pd_opt.per_function && i < n_sites; i++)
         if ((double)(sites[i].bytes[0] > sites[i].bytes[1] ? sites[i].bytes[0]
                      : sites[i].bytes[1]) > pd_opt.noise / 100.0 * (double)total[0])
            pd_judge(&pd_opt.limits[l], sites[i].site, sites[i].bytes[0],
                  sites[i].bytes[1]);
   }
   if (pd_n_verdicts)
      printf("\n");
   status = pd_print_verdicts();
   if (pd_opt.html) {
      int col[2] = { -1, -1 };
      pd_write_html(b, n, col, "bytes");
   }
   if (pd_opt.json) {
      char tmp[4200];
      FILE *f = pd_json_open(tmp, sizeof tmp);
      pd_json_head(f, b, n);
      fprintf(f, ",\n  \"kind\": \"massif\",\n  \"peak\": ");
      pd_json_change(f, total[0], total[1]);
      fprintf(f, ",\n  \"peak_time\": {\"base\": %llu, \"new\": %llu},\n"
              "  \"sites\": [", pk[0]->time, pk[1]->time);
      for (i = 0; i < n_sites; i++) {
         fprintf(f, "%s\n    {\"site\": ", i ? "," : "");
         pd_json_string(f, sites[i].site);
         fprintf(f, ", \"bytes\": ");
         pd_json_change(f, sites[i].bytes[0], sites[i].bytes[1]);
         fprintf(f, "}");
      }
      fprintf(f, "%s],\n", n_sites ? "\n  " : "");
      pd_json_verdicts(f, status);
      pd_json_close(f, tmp);
   }
   return status;
}

