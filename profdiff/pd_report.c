/* pd_report.c: figures, verdicts and the JSON summary.

   Copyright (C) 2026 The heapsnap/callprof developers.
   SPDX-License-Identifier: GPL-2.0-or-later

   How profdiff writes what it found: figures with thousands separated
   and signed changes, the gate's verdicts ("LIMIT EXCEEDED: Ir total:
   ..."), and the JSON summary's common parts, its schema in
   docs/profdiff.md. */

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "pd.h"

/*------------------------------------------------------------*/
/*--- Figures                                              ---*/
/*------------------------------------------------------------*/

const char *pd_commas(pr_u64 v, char *buf, size_t size)
{
   pf_commas(v, buf, size);
   return buf;
}

/* "+1,234" or "-1,234" */
const char *pd_signed_commas(double v, char *buf, size_t size)
{
   char a[32];
   pf_commas((pr_u64)llabs((long long)v), a, sizeof a);
   a[sizeof a - 1] = 0;
   snprintf(buf, size, "%s%s", v < 0 ? "-" : v > 0 ? "+" : "", a);
   return buf;
}

const char *pd_percent(pr_u64 base, pr_u64 now, char *buf, size_t size)
{
   if (base == 0)
      snprintf(buf, size, now ? "new" : "0.00%%");
   else
      snprintf(buf, size, "%+.2f%%", 100.0 * ((double)now - (double)base) /
               (double)base);
   return buf;
}

/*------------------------------------------------------------*/
/*--- The gate                                             ---*/
/*------------------------------------------------------------*/

typedef struct {
   const PD_Limit *limit;
   const char  *function;    /* NULL: the total */
   pr_u64       base, now;
   int          exceeded;
} Verdict;

static Verdict *verdicts;
size_t pd_n_verdicts;

/* Whether a growth from BASE to NOW is beyond L. */
static int beyond(const PD_Limit *l, pr_u64 base, pr_u64 now)
{
   double grew = (double)now - (double)base;
   if (grew <= 0)
      return 0;
   if (!l->percent)
      return grew > l->amount;
   return base == 0 || 100.0 * grew / (double)base > l->amount;
}

void pd_judge(const PD_Limit *l, const char *function, pr_u64 base,
                  pr_u64 now)
{
   Verdict *v;
   verdicts = realloc(verdicts, (pd_n_verdicts + 1) * sizeof *verdicts);
   if (verdicts == NULL)
      pd_usage_error("out of memory", "");
   v = &verdicts[pd_n_verdicts++];
   v->limit = l;
   v->function = function;
   v->base = base;
   v->now = now;
   v->exceeded = beyond(l, base, now);
}

int pd_print_verdicts(void)
{
   size_t i;
   int failed = 0;
   char a[40], b[40], p[40], amount[60];
   for (i = 0; i < pd_n_verdicts; i++) {
      const Verdict *v = &verdicts[i];
      const PD_Limit *l = v->limit;
      snprintf(amount, sizeof amount, l->percent ? "%g%%" : "%.0f", l->amount);
      if (!v->exceeded && v->function)
         continue;
      printf("%s: %s %s%s%s: %s -> %s (%s), %s %s\n",
             v->exceeded ? (l->warn ? "WARNING" : "LIMIT EXCEEDED") : "ok",
             l->event, v->function ? "of " : "total",
             v->function ? v->function : "", "",
             pd_commas(v->base, a, sizeof a), pd_commas(v->now, b, sizeof b),
             pd_percent(v->base, v->now, p, sizeof p),
             l->warn ? "warn above" : "limit", amount);
      if (v->exceeded && !l->warn)
         failed = 1;
   }
   return failed;
}

/*------------------------------------------------------------*/
/*--- JSON                                                 ---*/
/*------------------------------------------------------------*/

void pd_json_string(FILE *f, const char *s)
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

void pd_json_change(FILE *f, pr_u64 base, pr_u64 now)
{
   fprintf(f, "{\"base\": %llu, \"new\": %llu, \"change\": %.0f, "
           "\"percent\": ", base, now, (double)now - (double)base);
   if (base)
      fprintf(f, "%.4f}", 100.0 * ((double)now - (double)base) / (double)base);
   else
      fprintf(f, "null}");
}

/* The summary's first keys: the files compared. */
void pd_json_head(FILE *f, const PD_Side *b, const PD_Side *n)
{
   fprintf(f, "{\n  \"base\": ");
   pd_json_string(f, b->path);
   fprintf(f, ",\n  \"new\": ");
   pd_json_string(f, n->path);
}

/* Written under a temporary name, renamed when whole. */
FILE *pd_json_open(char *tmp, size_t size)
{
   FILE *f;
   snprintf(tmp, size, "%s.part", pd_opt.json);
   f = fopen(tmp, "w");
   if (f == NULL) {
      fprintf(stderr, "profdiff: %s: cannot write: %s\n", pd_opt.json,
              strerror(errno));
      exit(2);
   }
   return f;
}

void pd_json_close(FILE *f, const char *tmp)
{
   if (fclose(f) != 0 || rename(tmp, pd_opt.json) != 0) {
      fprintf(stderr, "profdiff: %s: cannot write: %s\n", pd_opt.json,
              strerror(errno));
      remove(tmp);
      exit(2);
   }
}

void pd_json_verdicts(FILE *f, int status)
{
   size_t i;
   fprintf(f, "  \"limits\": [");
   for (i = 0; i < pd_n_verdicts; i++) {
      const Verdict *v = &verdicts[i];
      fprintf(f, "%s\n    {\"event\": ", i ? "," : "");
      pd_json_string(f, v->limit->event);
      fprintf(f, ", \"kind\": \"%s\", \"amount\": %g, \"percent\": %s, "
              "\"function\": ", v->limit->warn ? "warn" : "limit",
              v->limit->amount, v->limit->percent ? "true" : "false");
      if (v->function)
         pd_json_string(f, v->function);
      else
         fprintf(f, "null");
      fprintf(f, ", \"figures\": ");
      pd_json_change(f, v->base, v->now);
      fprintf(f, ", \"exceeded\": %s}", v->exceeded ? "true" : "false");
   }
   fprintf(f, "%s],\n  \"status\": %d\n}\n", pd_n_verdicts ? "\n  " : "", status);
}

