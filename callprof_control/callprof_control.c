/* callprof_control: observe and control running callprof processes, as
   callgrind_control does Callgrind's.

   Copyright (C) 2026 The heapsnap/callprof developers.
   SPDX-License-Identifier: GPL-2.0-or-later

   Usage: callprof_control [options] [pid|program-name...]

   callgrind_control's options, meanings and output, so that a script
   keeps working when "callgrind" becomes "callprof" in it:

      (none), -l --list   list the runs: "PID 123: ./server 8080"
      -s --stat           threads, events, functions and blocks
      -b --back           each thread's call stack
      -e [A,B...]         the events (all, or those named), per thread and
                          with -b per frame
      -d --dump[=HINT]    a dump now (HINT may also be the next argument)
      -z --zero           zero the costs
      -k --kill           kill the process (vgdb's v.kill)
      -i --instr=on|off   switch the instrumentation (on/off may also be
                          the next argument)
      -w DIR              only the runs whose working directory is DIR
      --vgdb-prefix=P     as given to Valgrind
      -v                  say which command is sent
      -h --help, --version

   With no pid or name, every callprof run is taken; a name takes the
   runs whose program ends with it.  Each action goes through vgdb to
   callprof's monitor commands (cp_monitor.c): -s, -b and -e read
   "status internal".  Unlike callgrind_control, a target that is not
   found, no run at all, or a vgdb that fails ends with exit status 1,
   and a bad option is said in one line with exit status 2. */

#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "toolcontrol.h"

#ifndef PACKAGE_VERSION
#define PACKAGE_VERSION "0"
#endif

#define MAX_EV   32
#define MAX_TIDS 500

static const char *prog_name = "callprof_control";

static void usage_error(const char *what)
{
   fprintf(stderr, "%s: %s (expected -l, -s, -b, -e [EVENTS], "
           "--dump[=HINT], -z, -k, -i on|off, -w DIR, --vgdb-prefix=PREFIX, "
           "-v, -h, --version)\n", prog_name, what);
   exit(2);
}

static void print_help(void)
{
   printf("Observe the status and control currently active callprof runs.\n"
          "\n"
          "Usage: callprof_control [options] [pid|program-name...]\n"
          "\n"
          "If no pids/names are given, an action is applied to all currently\n"
          "active callprof runs. Default action is printing short information.\n"
          "\n"
          "Options:\n"
          "  -h --help         Show this help text\n"
          "  --version         Show version\n"
          "  -l --list         List the active runs (the default)\n"
          "  -s --stat         Show statistics\n"
          "  -b --back         Show stack/back trace\n"
          "  -e [<A>,...]      Show event counters for <A>,... (default: all)\n"
          "  --dump[=<s>]      Request a dump optionally using <s> as description\n"
          "  -z --zero         Zero all event counters\n"
          "  -k --kill         Kill\n"
          "  -i --instr=on|off Switch instrumentation state on/off\n"
          "  -w <dir>          Only the runs started in directory <dir>\n"
          "Uncommon options:\n"
          "  --vgdb-prefix=<prefix> Only provide this if the same was given to Valgrind\n"
          "\n");
   exit(0);
}

/*------------------------------------------------------------*/
/*--- "status internal", read                              ---*/
/*------------------------------------------------------------*/

/* A count per event, -1 where none was given ("."). */
typedef struct {
   long long v[MAX_EV];
} Costs;

typedef struct {
   char  *func;
   long long calls;
   Costs  ev;
   int    has_calls, has_ev;
} Frame;

typedef struct {
   int    tid;
   Frame *f;           /* f[1 .. n], as callgrind_control numbers them */
   int    n, cap;
   Costs  total;
   int    has_total;
} ThreadInfo;

typedef struct {
   char  instrumentation[8];
   long long exec_bbs, dist_bbs, exec_calls, dist_calls, dist_ctxs,
             dist_funcs;
   char  threads[1024];
   int   n_threads;
   char *events[MAX_EV];
   int   n_ev;
   ThreadInfo th[MAX_TIDS];   /* in the order their frames came */
   int   n_th;
   ThreadInfo *cur;
} Status;

static void costs_parse(const char *s, Costs *c, int n_ev)
{
   int k;
   char *end;
   for (k = 0; k < MAX_EV; k++)
      c->v[k] = -1;
   for (k = 0; k < n_ev && *s; k++) {
      c->v[k] = strtoll(s, &end, 10);
      if (end == s)
         break;
      s = end;
   }
}

static ThreadInfo *thread_of(Status *st, int tid)
{
   int i;
   for (i = 0; i < st->n_th; i++)
      if (st->th[i].tid == tid)
         return &st->th[i];
   if (st->n_th == MAX_TIDS)
      return NULL;
   st->th[st->n_th].tid = tid;
   return &st->th[st->n_th++];
}

static Frame *new_frame(ThreadInfo *t)
{
   if (t->n + 1 >= t->cap) {
      t->cap = t->cap ? 2 * t->cap : 16;
      t->f = realloc(t->f, (size_t)t->cap * sizeof *t->f);
      if (t->f == NULL) {
         fprintf(stderr, "out of memory\n");
         exit(2);
      }
   }
   t->n++;
   memset(&t->f[t->n], 0, sizeof t->f[t->n]);
   return &t->f[t->n];
}

/* One line of the answer, as callgrind_control reads it. */
static void status_line(Status *st, char *line)
{
   int tid, i, n;
   char *v;
   if (sscanf(line, "function-%d-%d: %n", &tid, &i, &n) == 2) {
      ThreadInfo *t = st->cur && st->cur->tid == tid ? st->cur
                                                       : thread_of(st, tid);
      if (t == NULL)
         return;
      st->cur = t;
      new_frame(t)->func = strdup(line + n);
   } else if (sscanf(line, "calls-%d-%d: %n", &tid, &i, &n) == 2) {
      if (st->cur && st->cur->tid == tid && st->cur->n > 0) {
         st->cur->f[st->cur->n].calls = strtoll(line + n, NULL, 10);
         st->cur->f[st->cur->n].has_calls = 1;
      }
   } else if (sscanf(line, "events-%d-%d: %n", &tid, &i, &n) == 2) {
      if (st->cur && st->cur->tid == tid && st->cur->n > 0) {
         costs_parse(line + n, &st->cur->f[st->cur->n].ev, st->n_ev);
         st->cur->f[st->cur->n].has_ev = 1;
      }
   } else if (sscanf(line, "events-%d: %n", &tid, &n) == 1) {
      ThreadInfo *t;
      if (st->n_ev == 0 || (t = thread_of(st, tid)) == NULL)
         return;
      costs_parse(line + n, &t->total, st->n_ev);
      t->has_total = 1;
   } else if ((v = strchr(line, ':')) != NULL) {
      *v++ = '\0';
      v += strspn(v, " ");
      if (strcmp(line, "executed-bbs") == 0)
         st->exec_bbs = atoll(v);
      else if (strcmp(line, "distinct-bbs") == 0)
         st->dist_bbs = atoll(v);
      else if (strcmp(line, "executed-calls") == 0)
         st->exec_calls = atoll(v);
      else if (strcmp(line, "distinct-calls") == 0)
         st->dist_calls = atoll(v);
      else if (strcmp(line, "distinct-functions") == 0)
         st->dist_funcs = atoll(v);
      else if (strcmp(line, "distinct-contexts") == 0)
         st->dist_ctxs = atoll(v);
      else if (strcmp(line, "instrumentation") == 0)
         snprintf(st->instrumentation, sizeof st->instrumentation, "%s", v);
      else if (strcmp(line, "threads") == 0) {
         char copy[sizeof st->threads], *w, *save = NULL;
         snprintf(st->threads, sizeof st->threads, "%s", v);
         snprintf(copy, sizeof copy, "%s", v);
         st->n_threads = 0;
         for (w = strtok_r(copy, " ", &save); w; w = strtok_r(NULL, " ", &save))
            st->n_threads++;
      } else if (strcmp(line, "events") == 0) {
         char *w, *save = NULL;
         st->n_ev = 0;
         for (w = strtok_r(v, " ", &save); w && st->n_ev < MAX_EV;
              w = strtok_r(NULL, " ", &save))
            st->events[st->n_ev++] = strdup(w);
      }
   }
}

static void status_free(Status *st)
{
   int i, k;
   for (i = 0; i < st->n_th; i++) {
      for (k = 1; k <= st->th[i].n; k++)
         free(st->th[i].f[k].func);
      free(st->th[i].f);
   }
   for (k = 0; k < st->n_ev; k++)
      free(st->events[k]);
}

/*------------------------------------------------------------*/
/*--- Output, as callgrind_control's                       ---*/
/*------------------------------------------------------------*/

static void commify(long long v, char *out, size_t size)
{
   char digits[32];
   int n, i, o = 0;
   n = snprintf(digits, sizeof digits, "%lld", v);
   for (i = 0; i < n && o + 2 < (int)size; i++) {
      if (i > 0 && (n - i) % 3 == 0 && digits[0] != '-')
         out[o++] = ',';
      out[o++] = digits[i];
   }
   out[o] = '\0';
}

static int show[MAX_EV], n_show;      /* the events shown, in order */

static void widths_of(const Status *st, const Costs *const *cs, int n,
                      int *w)
{
   int k, i;
   for (k = 0; k < st->n_ev; k++)
      w[k] = (int)strlen(st->events[k]);
   for (i = 0; i < n; i++)
      for (k = 0; k < st->n_ev; k++)
         if (cs[i]->v[k] >= 0) {
            char buf[40];
            int len;
            commify(cs[i]->v[k], buf, sizeof buf);
            len = (int)strlen(buf);
            if (len > w[k])
               w[k] = len;
         }
}

static void print_costs(const Costs *c, const int *w)
{
   int i;
   for (i = 0; i < n_show; i++) {
      char buf[40];
      int k = show[i];
      if (c && c->v[k] >= 0)
         commify(c->v[k], buf, sizeof buf);
      else
         snprintf(buf, sizeof buf, ".");
      printf("%*s ", w[k], buf);
   }
}

static void print_event_names(const Status *st, const int *w)
{
   int i;
   for (i = 0; i < n_show; i++)
      printf("%*s ", w[show[i]], st->events[show[i]]);
}

/* -e A,B: the events shown (all by default), warning of those not
   collected. */
static void choose_events(const Status *st, const char *wanted)
{
   int k;
   n_show = 0;
   if (wanted == NULL || wanted[0] == '\0') {
      for (k = 0; k < st->n_ev; k++)
         show[n_show++] = k;
      return;
   }
   {
      char copy[1024], *w, *save = NULL;
      snprintf(copy, sizeof copy, "%s", wanted);
      for (w = strtok_r(copy, ",", &save); w; w = strtok_r(NULL, ",", &save)) {
         for (k = 0; k < st->n_ev; k++)
            if (strcmp(st->events[k], w) == 0)
               break;
         if (k == st->n_ev)
            printf("Warning: Event `%s' is not being collected\n", w);
         else if (n_show < MAX_EV)
            show[n_show++] = k;
      }
   }
}

static void print_status(Status *st, int stat, int back, int events,
                         const char *wanted)
{
   char a[40], b[40], c[40];
   int w[MAX_EV], i;

   if (strcmp(st->instrumentation, "off") == 0) {
      printf("  No information available as instrumentation is switched "
             "off.\n");
      return;
   }
   choose_events(st, wanted);
   if (stat) {
      if (!events) {
         printf("  Number of running threads: %d, thread IDs: %s\n",
                st->n_threads, st->threads);
         printf("  Events collected:");
         for (i = 0; i < st->n_ev; i++)
            printf(" %s", st->events[i]);
         printf("\n");
      }
      commify(st->dist_funcs, a, sizeof a);
      commify(st->exec_calls, b, sizeof b);
      commify(st->dist_ctxs, c, sizeof c);
      printf("  Functions: %s (executed %s, contexts %s)\n", a, b, c);
      commify(st->dist_bbs, a, sizeof a);
      commify(st->exec_bbs, b, sizeof b);
      commify(st->dist_calls, c, sizeof c);
      printf("  Basic blocks: %s (executed %s, call sites %s)\n", a, b, c);
   }
   if (events) {
      const Costs *cs[MAX_TIDS];
      int n = 0;
      for (i = 0; i < st->n_th; i++)
         if (st->th[i].has_total)
            cs[n++] = &st->th[i].total;
      widths_of(st, cs, n, w);
      printf("\n  Totals:");
      print_event_names(st, w);
      printf("\n");
      for (i = 0; i < st->n_th; i++) {
         if (st->th[i].n == 0)
            continue;          /* as callgrind_control: threads with frames */
         printf("   Th%2d  ", st->th[i].tid);
         print_costs(st->th[i].has_total ? &st->th[i].total : NULL, w);
         printf("\n");
      }
   }
   if (back) {
      int t;
      for (t = 0; t < st->n_th; t++) {
         ThreadInfo *th = &st->th[t];
         int k, c2 = 0;
         if (th->n == 0)
            continue;
         if (events) {
            const Costs **cs = malloc((size_t)(th->n + 1) * sizeof *cs);
            int n = 0;
            for (k = 1; k <= th->n; k++)
               if (th->f[k].has_ev)
                  cs[n++] = &th->f[k].ev;
            widths_of(st, cs, n, w);
            free(cs);
         }
         printf("\n  Frame: ");
         if (events)
            print_event_names(st, w);
         printf("Backtrace for Thread %d\n", th->tid);
         for (k = th->n; k > 0 && c2 < 100; k--, c2++) {
            printf("   [%2d]  ", c2);
            /* A function with the arc into it: the frame before's. */
            if (events)
               print_costs(k > 1 && th->f[k - 1].has_ev ? &th->f[k - 1].ev
                                                         : NULL, w);
            printf("%s", th->f[k].func);
            if (k > 1)
               printf(" (%lld x)", th->f[k - 1].calls);
            printf("\n");
         }
         printf("\n");
      }
   }
}

/*------------------------------------------------------------*/
/*--- Main                                                 ---*/
/*------------------------------------------------------------*/

int main(int argc, char **argv)
{
   const char *dump_hint = NULL, *events_wanted = NULL, *instr_mode = NULL;
   TC_Options opt = { NULL, NULL, 0 };
   int taken, stat = 0, back = 0, events = 0, dump = 0, zero = 0,
       kill_it = 0, instr = 0, failed = 0;
   const char **targets = calloc((size_t)argc, sizeof *targets);
   int n_targets = 0, i;
   TC_Run *runs;
   size_t n_runs, r;
   char command[4096] = "";

   /* callgrind_control's reading: an option waiting for its value
      (--dump, -e, -i) takes the next word that starts with a letter. */
   for (i = 1; i < argc; i++) {
      const char *a = argv[i];
      if (a[0] == '-') {
         if (dump == 1)
            dump = 2;
         if (events == 1)
            events = 2;
         if (!strcmp(a, "-h") || !strcmp(a, "--help"))
            print_help();
         else if (!strcmp(a, "--version")) {
            printf("callprof_control-%s\n", PACKAGE_VERSION);
            return 0;
         } else if ((taken = tc_option(argc, argv, &i, &opt)) != 0) {
            if (taken < 0)
               usage_error("-w needs a directory");
         } else if (!strcmp(a, "-s") || !strcmp(a, "--stat"))
            stat = 1;
         else if (!strcmp(a, "-b") || !strcmp(a, "--back"))
            back = 1;
         else if (!strcmp(a, "-e"))
            events = 1;
         else if (!strcmp(a, "-d") || !strcmp(a, "--dump"))
            dump = 1;
         else if (!strncmp(a, "-d=", 3) || !strncmp(a, "--dump=", 7)) {
            dump = 2;
            dump_hint = strchr(a, '=') + 1;
         } else if (!strcmp(a, "-z") || !strcmp(a, "--zero"))
            zero = 1;
         else if (!strcmp(a, "-k") || !strcmp(a, "--kill"))
            kill_it = 1;
         else if (!strcmp(a, "-i") || !strcmp(a, "--instr"))
            instr = 1;
         else if (!strcmp(a, "-i=on") || !strcmp(a, "--instr=on") ||
                  !strcmp(a, "-i=off") || !strcmp(a, "--instr=off")) {
            instr = 2;
            instr_mode = strchr(a, '=') + 1;
         } else {
            char what[300];
            snprintf(what, sizeof what, "unknown option '%.200s'", a);
            usage_error(what);
         }
         continue;
      }
      if ((a[0] >= 'A' && a[0] <= 'Z') || (a[0] >= 'a' && a[0] <= 'z') ||
          a[0] == '_') {
         if (dump == 1) {
            dump = 2;
            dump_hint = a;
            continue;
         }
         if (events == 1) {
            events = 2;
            events_wanted = a;
            continue;
         }
         if (instr == 1) {
            if (strcmp(a, "on") && strcmp(a, "off"))
               usage_error("-i needs 'on' or 'off'");
            instr = 2;
            instr_mode = a;
            continue;
         }
      }
      targets[n_targets++] = a;
   }
   if (instr == 1)
      usage_error("-i needs 'on' or 'off'");

   if (tc_select(argv[0], "callprof", opt.prefix_opt, targets, n_targets,
                 opt.dir, &runs, &n_runs) != 0)
      return 1;

   /* The last action given wins, as in callgrind_control. */
   if (dump)
      snprintf(command, sizeof command, "dump%s%s", dump_hint ? " " : "",
               dump_hint ? dump_hint : "");
   if (zero)
      snprintf(command, sizeof command, "zero");
   if (kill_it)
      snprintf(command, sizeof command, "v.kill");
   if (instr)
      snprintf(command, sizeof command, "instrumentation %s", instr_mode);
   if (stat || back || events)
      snprintf(command, sizeof command, "status internal");

   for (r = 0; r < n_runs; r++) {
      char *out, *line, *save = NULL;
      int rc;
      Status *st;
      printf("PID %d: %s", runs[r].pid, runs[r].cmdline);
      if (command[0] == '\0') {
         printf("\n");
         continue;
      }
      if (opt.verbose)
         printf(" [requesting '%s']\n", command);
      else
         printf("\n");
      fflush(stdout);
      rc = tc_command(runs[r].pid, opt.prefix_opt, command, &out);
      if (rc != 0) {
         printf("  Error: vgdb failed (%d).\n", rc);
         failed = 1;
         if (rc > 0)
            free(out);
         continue;
      }
      if (!(stat || back || events)) {
         printf("  OK.\n");
         free(out);
         continue;
      }
      st = calloc(1, sizeof *st);
      for (line = strtok_r(out, "\n", &save); line;
           line = strtok_r(NULL, "\n", &save))
         status_line(st, line);
      print_status(st, stat, back, events, events_wanted);
      printf("\n");
      status_free(st);
      free(st);
      free(out);
   }
   for (r = 0; r < n_runs; r++)
      tc_run_free(&runs[r]);
   free(runs);
   free(targets);
   return failed;
}
