/* profreport: a self-contained HTML or SVG report of profiles.

   Copyright (C) 2026 The heapsnap/callprof developers.
   SPDX-License-Identifier: GPL-2.0-or-later

   Usage: profreport [options] FILE... -o OUT.html|OUT.svg

   Reads each FILE, its kind found from its content (include/
   profreader.h): a Callgrind-format file (callprof's, Callgrind's, an
   xtree memory file, a Cachegrind file), a Massif-format file
   (heapsnap's, Massif's) or folded stacks (callprof's --folded-out-file,
   FlameGraph's stackcollapse-* output).  Files of one kind are added up
   (the dumps of one run, its threads); kinds are not mixed.  Writes, by
   the output's extension, a page (.html, pf_html.c: the flame graph; a
   call profile's functions, pf_fns.c; a heap profile's memory over
   time, pf_chart.c, and top frames) or the flame graph alone (.svg,
   pf_svg.c), built as pf_tree.c says: exact from folded stacks and heap
   trees, estimated from a call graph.  The manual page is
   profreport.1 beside this file.

      -o FILE            the report (required)
      --event=EV         of a Callgrind-format file, the event (default:
                         its first, Ir for callprof and Callgrind)
      --title=TEXT       the title (default: from the input)
      --width=PIXELS     the flame graph's width (default 1200)
      --minwidth=PIXELS  frames narrower are left out (default 0.1)
      -h, --help

   The report is written under a temporary name beside OUT and renamed
   when complete: no one ever opens half a report.  A bad option: one
   line naming it and what is allowed, exit 2.  A file that cannot be
   read or is not a profile, an unknown event, an output that cannot be
   written: one line naming the file (and the line, where the reader
   says it), exit 1. */

#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <libxml/xmlwriter.h>

#include "pf.h"

static void usage_error(const char *what)
{
   fprintf(stderr, "profreport: %s (expected FILE... -o OUT.html|OUT.svg "
           "[--event=EV] [--title=TEXT] [--width=PIXELS] "
           "[--minwidth=PIXELS])\n", what);
   exit(2);
}

static void help(void)
{
   printf("usage: profreport [options] FILE... -o OUT.html|OUT.svg\n"
          "\n"
          "A self-contained report of profiles: Callgrind-format files\n"
          "(callprof, Callgrind, xtree memory, Cachegrind), Massif-format\n"
          "files (heapsnap, Massif) or folded stacks; files of one kind\n"
          "are added up.  OUT.html: the flame graph and the tables (a call\n"
          "profile's functions, callers and callees; a heap profile's\n"
          "memory over time); OUT.svg: the flame graph alone (click to\n"
          "zoom, Search).  See man profreport.\n"
          "\n"
          "  -o FILE            the report (.html or .svg)\n"
          "  --event=EV         the event of a Callgrind-format file [its first]\n"
          "  --title=TEXT       the title [from the input]\n"
          "  --width=PIXELS     the flame graph's width [1200]\n"
          "  --minwidth=PIXELS  leave out frames narrower than this [0.1]\n"
          "  -h, --help         this text\n");
   exit(0);
}

static double number(const char *opt, const char *v, double lo, double hi)
{
   char *end, what[300];
   double d = strtod(v, &end);
   if (end == v || *end != '\0' || d < lo || d > hi) {
      snprintf(what, sizeof what, "%.100s=%.100s: expected a number from "
               "%g to %g", opt, v, lo, hi);
      usage_error(what);
   }
   return d;
}

static int ends_with(const char *s, const char *tail)
{
   size_t n = strlen(s), m = strlen(tail);
   return n >= m && strcmp(s + n - m, tail) == 0;
}

static void fail(const char *msg)
{
   fprintf(stderr, "profreport: %s\n", msg);
   exit(1);
}

static void quiet(void *ctx, const char *fmt, ...)
{
   (void)ctx;
   (void)fmt;
}

static void add_cmd(PF_Report *r, const char *cmd)
{
   if (cmd == NULL || cmd[0] == '\0')
      return;
   r->cmds = realloc(r->cmds, (r->n_cmds + 1) * sizeof *r->cmds);
   if (r->cmds == NULL)
      fail(strerror(errno));
   r->cmds[r->n_cmds++] = strdup(cmd);
}

/* What the report is written from. */
typedef struct {
   const PF_Report *r;
   double width, minwidth;
} Job;

static int write_page(xmlTextWriterPtr w, const void *ctx)
{
   const Job *j = ctx;
   return pf_write_html(w, j->r, j->width, j->minwidth);
}

static int write_graph(xmlTextWriterPtr w, const void *ctx)
{
   const Job *j = ctx;
   return pf_write_svg(w, j->r, j->width, j->minwidth, 1);
}

/* Whether the heap tree of S is whole: every node has the children it
   says it has (a tree cut short has fewer). */
static int whole_tree(const PR_MsSnapshot *s)
{
   size_t i, k;
   for (i = 0; i < s->n_nodes; i++) {
      unsigned kids = 0;
      for (k = i + 1; k < s->n_nodes && s->nodes[k].depth > s->nodes[i].depth; k++)
         kids += s->nodes[k].depth == s->nodes[i].depth + 1;
      if (kids != s->nodes[i].n_children)
         return 0;
   }
   return 1;
}

/* A file cut short, which the reader may take for a smaller profile:
   its last line has no end; a Callgrind file with its summary at the top
   (callprof's, Callgrind's) and no totals at the end; a heap profile
   whose last tree is not whole.  One line naming the file and line, and
   exit 1; otherwise nothing. */
static void check_whole(const char *file, const PF_Input *in,
                        const PR_Callgrind *p, const PR_Massif *m)
{
   char msg[1200];
   const char *data = in->data;        /* NULL for a Callgrind file */
   size_t len = in->len, n = in->lines;
   if (len == 0) {
      snprintf(msg, sizeof msg, "%.1000s: the file is empty", file);
      fail(msg);
   }
   if (in->last != '\n') {
      snprintf(msg, sizeof msg, "%.1000s:%zu: the last line is cut short "
               "(the file is truncated)", file, n);
      fail(msg);
   }
   if (p && p->creator && p->has_summary && !p->has_totals) {
      snprintf(msg, sizeof msg, "%.1000s:%zu: no totals: line after the "
               "summary: at the top (the file is truncated)", file, n);
      fail(msg);
   }
   if (m) {
      /* A snapshot ends with its heap_tree= line or its tree. */
      const char *last = data + len - 1;
      while (last > data && last[-1] != '\n')
         last--;
      while (*last == ' ')
         last++;
      if (strncmp(last, "heap_tree=", 10) != 0 &&
          !(last[0] == 'n' && last[1] >= '0' && last[1] <= '9')) {
         snprintf(msg, sizeof msg, "%.1000s:%zu: the last snapshot ends "
                  "before its heap_tree= line (the file is truncated)",
                  file, n);
         fail(msg);
      }
   }
   if (m && m->n_snaps > 0 && !whole_tree(&m->snaps[m->n_snaps - 1])) {
      snprintf(msg, sizeof msg, "%.1000s:%zu: snapshot %ld's tree ends "
               "early (the file is truncated)", file, n,
               m->snaps[m->n_snaps - 1].num);
      fail(msg);
   }
}

/* heapsnap's stack high-water marks beside the heap profile FILE
   (FILE.stacks, written with --stacks=yes), or NULL if there are none
   or they cannot be read (the report is whole without them). */
static PR_Massif *stack_marks(const char *file)
{
   PR_Error err = { 0, "" };
   char path[4200];
   size_t len;
   char *data;
   PR_Massif *m = NULL;
   if (ends_with(file, ".stacks") ||
       snprintf(path, sizeof path, "%s.stacks", file) >= (int)sizeof path ||
       access(path, R_OK) != 0)
      return NULL;
   data = pr_slurp(path, &len, &err);
   if (data && pr_detect(data, len) == PR_MASSIF)
      m = pr_ms_parse(data, len, path, &err);
   free(data);
   return m;
}

int main(int argc, char **argv)
{
   const char *out = NULL, *event = NULL, *title = NULL;
   const char **files = calloc((size_t)argc, sizeof *files);
   double width = 1200, minwidth = 0.1;
   int n_files = 0, i, html;
   PR_Format kind = PR_UNKNOWN;
   PF_Report r;
   PF_Fns fns;
   char msg[1200], event_name[256] = "";

   if (files == NULL)
      fail(strerror(errno));
   /* Every error is said here, in one line: none of libxml2's own. */
   xmlSetGenericErrorFunc(NULL, quiet);
   for (i = 1; i < argc; i++) {
      const char *a = argv[i];
      if (!strcmp(a, "-h") || !strcmp(a, "--help"))
         help();
      else if (!strcmp(a, "-o")) {
         if (i + 1 == argc)
            usage_error("-o needs a file");
         out = argv[++i];
      } else if (!strncmp(a, "-o", 2) && a[2])
         out = a + 2;
      else if (!strncmp(a, "--event=", 8))
         event = a + 8;
      else if (!strncmp(a, "--title=", 8))
         title = a + 8;
      else if (!strncmp(a, "--width=", 8))
         width = number("--width", a + 8, 100, 100000);
      else if (!strncmp(a, "--minwidth=", 11))
         minwidth = number("--minwidth", a + 11, 0, 1000);
      else if (a[0] == '-' && a[1] != '\0') {
         snprintf(msg, sizeof msg, "unknown option '%.200s'", a);
         usage_error(msg);
      } else
         files[n_files++] = a;
   }
   if (out == NULL)
      usage_error("no output: -o OUT.html or -o OUT.svg");
   html = ends_with(out, ".html") || ends_with(out, ".htm");
   if (!html && !ends_with(out, ".svg"))
      usage_error("the output must end in .html or .svg");
   if (n_files == 0)
      usage_error("no profile to read");

   memset(&r, 0, sizeof r);
   memset(&fns, 0, sizeof fns);
   r.root = pf_node_new("all");
   for (i = 0; i < n_files; i++) {
      PR_Error err = { 0, "" };
      PF_Input in;
      size_t len;
      char *data;
      PR_Format k;
      if (pf_read(files[i], &in, &err) != 0) {
         /* An error on a last line without its end: the file is cut
            short, which says more than what the piece looked like. */
         char at[4200];
         snprintf(at, sizeof at, "%s:%zu:", files[i], in.lines);
         if (in.kind == PR_CALLGRIND && in.len > 0 && in.last != '\n' &&
             strncmp(err.text, at, strlen(at)) == 0)
            check_whole(files[i], &in, NULL, NULL);
         fail(err.text);
      }
      data = in.data;
      len = in.len;
      k = in.kind;
      if (len == 0)
         check_whole(files[i], &in, NULL, NULL);
      if (k == PR_UNKNOWN) {
         snprintf(msg, sizeof msg, "%.1000s: not a Callgrind, Massif or "
                  "folded-stacks file", files[i]);
         fail(msg);
      }
      if (kind != PR_UNKNOWN && k != kind) {
         snprintf(msg, sizeof msg, "%.1000s: a different kind of profile "
                  "from %.100s", files[i], files[0]);
         fail(msg);
      }
      kind = k;
      if (k == PR_FOLDED) {
         PR_Folded *f = pr_fold_parse(data, len, files[i], &err);
         if (f == NULL)
            fail(err.text);
         check_whole(files[i], &in, NULL, NULL);
         pf_add_folded(r.root, f);
         pr_fold_free(f);
         r.source = "folded stacks";
         r.unit = "samples";
      } else if (k == PR_CALLGRIND) {
         PR_Callgrind *p = in.cg;      /* its call graph, read by pf_read */
         int ev;
         if (p == NULL)
            fail(err.text);
         check_whole(files[i], &in, p, NULL);
         ev = event ? pr_cg_event(p, event) : (p->n_events > 0 ? 0 : -1);
         /* An xtree memory file's first event, curB, is what is left at
            exit, often nothing: its flame graph is of all bytes
            allocated, as heaptrack's is. */
         if (event == NULL && pr_cg_event(p, "curB") >= 0 &&
             pr_cg_event(p, "totB") >= 0)
            ev = pr_cg_event(p, "totB");
         if (ev < 0) {
            snprintf(msg, sizeof msg, "%.1000s: no event %.100s in the "
                     "file", files[i], event ? event : "at all");
            fail(msg);
         }
         snprintf(event_name, sizeof event_name, "%s", p->events[ev]);
         pf_add_callgrind(r.root, p, ev);
         pf_fns_add(&fns, p);
         add_cmd(&r, p->cmd);
         pr_cg_free(p);
         r.source = "a call graph (Callgrind format)";
         r.unit = event_name;
         r.estimated = 1;
      } else {
         PR_Massif *m = pr_ms_parse(data, len, files[i], &err);
         long snap;
         if (m == NULL)
            fail(err.text);
         check_whole(files[i], &in, NULL, m);
         pf_add_massif(r.root, m, &snap);
         if (r.series == NULL && m->n_snaps > 0) {
            pf_chart_series(&r, m);  /* the chart shows the first file */
            r.stacks = stack_marks(files[i]);
         }
         if (snap < 0) {
            snprintf(msg, sizeof msg, "%.1000s: no detailed snapshot to draw",
                     files[i]);
            fail(msg);
         }
         add_cmd(&r, m->cmd);
         pr_ms_free(m);
         r.source = "a heap profile (Massif format), its peak snapshot";
         r.unit = "bytes";
      }
      free(data);
   }
   pf_sort(r.root);
   if (kind == PR_CALLGRIND) {
      pf_fns_finish(&fns);
      fns.sort_col = 0;
      for (i = 0; i < fns.n_events; i++)
         if (strcmp(fns.cols[i], event_name) == 0)
            fns.sort_col = i;
      r.fns = &fns;
      if (fns.xtree)
         r.source = "an xtree memory file (allocations by call stack)";
      if (!fns.has_calls) {      /* a Cachegrind file: no call graph */
         r.estimated = 0;
         r.source = "functions without a call graph (a Cachegrind file)";
      }
   }
   if (title)
      r.title = strdup(title);
   else {
      char t[600];
      const char *base = strrchr(files[0], '/');
      snprintf(t, sizeof t, "%s%s", kind == PR_MASSIF ? "Heap at the peak: "
               : kind == PR_CALLGRIND ? "Flame graph: " : "Flame graph: ",
               base ? base + 1 : files[0]);
      r.title = strdup(t);
   }

   /* Whole or not at all (pf_out.c). */
   {
      Job job = { &r, width, minwidth };
      if (pf_write_file(out, html ? write_page : write_graph, &job, msg,
                        sizeof msg) != 0)
         fail(msg);
   }
   pf_node_free(r.root);
   pf_fns_free(&fns);
   for (i = 0; i < (int)r.n_cmds; i++)
      free(r.cmds[i]);
   free(r.cmds);
   free(r.title);
   pf_chart_free(&r);
   if (r.stacks)
      pr_ms_free(r.stacks);
   free(files);
   return 0;
}
