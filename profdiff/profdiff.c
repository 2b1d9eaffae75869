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
   option (one line naming it).

   This file: the command line and reading the files; pd.h says where
   the rest is. */

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "pd.h"

void pd_bad(const char *fmt, const char *a, const char *b)
{
   fprintf(stderr, "profdiff: ");
   fprintf(stderr, fmt, a, b);
   fputc('\n', stderr);
   exit(2);
}

/*------------------------------------------------------------*/
/*--- Options                                              ---*/
/*------------------------------------------------------------*/

PD_Options pd_opt = { { NULL, NULL }, NULL, NULL, NULL, NULL, NULL, NULL, 0, NULL, 0,
          0, 1, 0.1 };

void pd_usage_error(const char *what, const char *arg)
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
   PD_Limit *l;
   if (eq == NULL || eq == arg || eq[1] == '\0')
      pd_usage_error(warn ? "--warn: expected EV=PCT% or EV=N, not " :
                  "--limit: expected EV=PCT% or EV=N, not ", arg);
   pd_opt.limits = realloc(pd_opt.limits, (size_t)(pd_opt.n_limits + 1) * sizeof *pd_opt.limits);
   if (pd_opt.limits == NULL)
      pd_usage_error("out of memory", "");
   l = &pd_opt.limits[pd_opt.n_limits++];
   l->event = pf_xstrdup(arg);
   l->event[eq - arg] = '\0';
   l->amount = strtod(eq + 1, &end);
   l->percent = *end == '%';
   if (end == eq + 1 || (*end != '\0' && strcmp(end, "%") != 0) ||
       l->amount < 0 || !isfinite(l->amount))
      pd_usage_error(warn ? "--warn: expected EV=PCT% or EV=N, not " :
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
         pd_opt.event = v;
      else if (VALUE("--limit"))
         add_limit(v, 0);
      else if (VALUE("--warn"))
         add_limit(v, 1);
      else if (VALUE("--json"))
         pd_opt.json = v;
      else if (VALUE("--html"))
         pd_opt.html = v;
      else if (VALUE("--strip-path"))
         pd_opt.strip = v;
      else if (VALUE("--noise")) {
         char *end;
         pd_opt.noise = strtod(v, &end);
         if (end == v || (*end && strcmp(end, "%")) || pd_opt.noise < 0 ||
             pd_opt.noise > 100)
            pd_usage_error("--noise: expected a percentage from 0 to 100, not ", v);
      } else if (VALUE("--map")) {
         const char *eq = strchr(v, '=');
         if (eq == NULL || eq == v || eq[1] == '\0')
            pd_usage_error("--map: expected OLD=NEW, not ", v);
         pd_opt.map_old = realloc(pd_opt.map_old, (size_t)(pd_opt.n_maps + 1) * sizeof (char *));
         pd_opt.map_new = realloc(pd_opt.map_new, (size_t)(pd_opt.n_maps + 1) * sizeof (char *));
         if (pd_opt.map_old == NULL || pd_opt.map_new == NULL)
            pd_usage_error("out of memory", "");
         pd_opt.map_old[pd_opt.n_maps] = pf_xstrdup(v);
         pd_opt.map_old[pd_opt.n_maps][eq - v] = '\0';
         pd_opt.map_new[pd_opt.n_maps++] = pf_xstrdup(eq + 1);
      } else if (!strcmp(a, "--per-function"))
         pd_opt.per_function = 1;
      else if (!strcmp(a, "--no-fold"))
         pd_opt.fold = 0;
      else if (a[0] == '-' && a[1] != '\0')
         pd_usage_error("unknown option ", a);
      else if (n < 2)
         pd_opt.files[n++] = a;
      else
         pd_usage_error("one file too many: ", a);
#undef VALUE
   }
   if (n < 2)
      pd_usage_error("two files to compare, BASE and NEW", "");
   if (pd_opt.html && !(strlen(pd_opt.html) > 5 &&
                     !strcmp(pd_opt.html + strlen(pd_opt.html) - 5, ".html")))
      pd_usage_error("--html: the output must end in .html, not ", pd_opt.html);
}

/*------------------------------------------------------------*/
/*--- Reading                                              ---*/
/*------------------------------------------------------------*/

static void load(PD_Side *s, const char *path)
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
         pd_bad("%s: the last line is cut short (the file is truncated)%s",
             path, "");
      fprintf(stderr, "profdiff: %s\n", err.text);
      exit(2);
   }
   if (in.len == 0)
      pd_bad("%s: the file is empty%s", path, "");
   if (in.last != '\n')
      pd_bad("%s: the last line is cut short (the file is truncated)%s", path, "");
   s->kind = in.kind;
   if (s->kind == PR_CALLGRIND) {
      PR_Callgrind *p = in.cg;
      if (p->creator && p->has_summary && !p->has_totals)
         pd_bad("%s: no totals: line after the summary: at the top (the file "
             "is truncated)%s", path, "");
      s->cachegrind = p->creator == NULL && p->n_calls == 0;
      pf_fns_add(&s->fns, p);
      pf_fns_finish(&s->fns);
      if (pd_opt.html)
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
         pd_bad("%s: no snapshot in the file%s", path, "");
   } else
      pd_bad("%s: not a Callgrind, Cachegrind or Massif-format file%s", path,
          s->kind == PR_FOLDED ? " (folded stacks have no totals to compare)"
                               : "");
   free(in.data);
}

int main(int argc, char **argv)
{
   PD_Side side[2];
   int s;
   pf_program = "profdiff";
   pf_fail_status = 2;
   parse_options(argc, argv);
   for (s = 0; s < 2; s++)
      load(&side[s], pd_opt.files[s]);
   if (side[0].kind != side[1].kind || side[0].cachegrind != side[1].cachegrind)
      pd_bad("%s and %s are different kinds of profile", pd_opt.files[0],
          pd_opt.files[1]);
   printf("profdiff: BASE %s\n          NEW  %s\n", pd_opt.files[0], pd_opt.files[1]);
   if (side[0].kind == PR_MASSIF)
      return pd_diff_heap(&side[0], &side[1]);
   return pd_diff_calls(&side[0], &side[1]);
}
