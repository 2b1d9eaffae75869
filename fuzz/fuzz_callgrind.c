/* fuzz_callgrind.c: libFuzzer harness for the Callgrind-format reader.

   Copyright (C) 2026 The heapsnap/callprof developers.
   SPDX-License-Identifier: GPL-2.0-or-later

   Each input is handed to pr_cg_parse() as a whole file, exactly as
   many bytes as libFuzzer gives (no terminating NUL, so AddressSanitizer
   sees any read past the end).  A file the reader takes is then walked
   the way profreport and profcmp walk one: every function labelled with
   pr_fn_label(), the events looked up with pr_cg_event(), every line,
   call and jump and their cost arrays read, so that a model whose counts
   or pointers disagree with its arrays shows up as an out-of-bounds read
   or a NULL dereference here rather than in a report.  A file the reader
   refuses must say why in PR_Error as "fuzz.out:LINE: what" or
   "fuzz.out: what"; anything else aborts, which libFuzzer reports as a
   crash.  The same bytes are also read in two pieces for the call
   graph alone (pr_cg_stream_*, PR_CG_CALL_GRAPH, as profreport reads a
   file), which must agree with the whole.  The seeds are in fuzz/corpus/callgrind/, the dictionary of
   the format's keywords in fuzz/callgrind.dict; `make fuzz` runs it
   (docs/fuzzing.md). */

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "profreader.h"
#include "fuzz_common.h"

static void walk(const PR_Callgrind *p)
{
   char label[256];
   pr_u64 sink = 0;
   size_t i;
   int k;

   fz_require(p->n_events > 0 && p->n_pos >= 1 && p->n_pos <= PR_MAX_POS,
              "events and positions");
   for (k = 0; k < p->n_events; k++) {
      fz_require(pr_cg_event(p, p->events[k]) >= 0, "pr_cg_event finds an event");
      sink += p->sum[k] + p->summary[k] + p->totals[k];
   }
   fz_require(pr_cg_event(p, "no such event\n") == -1, "pr_cg_event on a miss");
   for (k = 0; k < p->n_pos; k++)
      sink += strlen(p->pos_names[k]);
   for (i = 0; i < p->n_fns; i++) {
      pr_fn_label(p->fns[i], label, sizeof label);
      sink += strlen(label);
      for (k = 0; k < p->n_events; k++)
         sink += p->fns[i]->self[k];
   }
   for (i = 0; i < p->n_lines; i++) {
      sink += strlen(p->lines[i].file) + p->lines[i].pos.v[0];
      pr_fn_label(p->lines[i].fn, label, sizeof label);
      for (k = 0; k < p->n_events; k++)
         sink += p->lines[i].cost[k];
   }
   for (i = 0; i < p->n_calls; i++) {
      const PR_Call *c = &p->calls[i];
      pr_fn_label(c->caller, label, sizeof label);
      pr_fn_label(c->callee, label, sizeof label);
      sink += strlen(c->file) + c->calls;
      for (k = 0; k < p->n_events; k++)
         sink += c->incl[k];
   }
   for (i = 0; i < p->n_jumps; i++) {
      const PR_Jump *j = &p->jumps[i];
      pr_fn_label(j->fn, label, sizeof label);
      sink += strlen(j->file) + strlen(j->to_file) + j->followed + j->executed;
   }
   for (i = 0; i < p->n_conflicts; i++)
      sink += strlen(p->conflicts[i]);
   if (p->cmd)
      sink += strlen(p->cmd);
   if (p->creator)
      sink += strlen(p->creator);
   if (p->desc)
      sink += strlen(p->desc);
   fz_sink = sink;
}

/* The same bytes given to a stream in two pieces (cut where the first
   byte says, each in a buffer of its own so that a read past either
   end is seen) and read for the call graph alone, as profreport reads
   a file: the same verdict and error as the whole file, the same
   functions and sums, no lines, no jumps, calls without a site. */
static void in_pieces(const uint8_t *data, size_t size,
                      const PR_Callgrind *whole, const PR_Error *werr)
{
   PR_Error err = { 0, "" };
   size_t cut = size ? (size_t)data[0] * size / 256 : 0, i;
   char *a = malloc(cut ? cut : 1), *b = malloc(size - cut ? size - cut : 1);
   PR_CgStream *s = pr_cg_stream_new(FZ_NAME, PR_CG_CALL_GRAPH, &err);
   PR_Callgrind *g;
   int k;
   fz_require(a != NULL && b != NULL, "memory");
   memcpy(a, data, cut);
   memcpy(b, data + cut, size - cut);
   pr_cg_stream_feed(s, a, cut);
   pr_cg_stream_feed(s, b, size - cut);
   g = pr_cg_stream_end(s);
   fz_require((g == NULL) == (whole == NULL), "the same verdict in pieces");
   if (g == NULL)
      fz_require(strcmp(err.text, werr->text) == 0, "the same error in pieces");
   else {
      fz_require(g->n_fns == whole->n_fns && g->n_lines == 0 &&
                 g->n_jumps == 0 && g->n_calls <= whole->n_calls &&
                 g->n_events == whole->n_events, "a call graph's counts");
      for (k = 0; k < g->n_events; k++)
         fz_require(g->sum[k] == whole->sum[k], "a call graph's sum");
      for (i = 0; i < g->n_fns; i++)
         for (k = 0; k < g->n_events; k++)
            fz_require(g->fns[i]->self[k] == whole->fns[i]->self[k],
                       "a call graph's self costs");
      for (i = 0; i < g->n_calls; i++)
         fz_require(g->calls[i].file == NULL && g->calls[i].incl != NULL,
                    "a call graph's calls");
   }
   pr_cg_free(g);
   free(a);
   free(b);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
   PR_Error err = { 0, "" };
   PR_Callgrind *p = pr_cg_parse((const char *)data, size, FZ_NAME, &err);
   if (p == NULL)
      fz_check_error(&err);
   else
      walk(p);
   in_pieces(data, size, p, &err);
   pr_cg_free(p);
   return 0;
}
