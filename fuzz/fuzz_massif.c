/* fuzz_massif.c: libFuzzer harness for the Massif-format reader.

   Copyright (C) 2026 The heapsnap/callprof developers.
   SPDX-License-Identifier: GPL-2.0-or-later

   Each input goes to pr_ms_parse() as a whole file of exactly the bytes
   libFuzzer gives (no terminating NUL).  A file the reader takes must
   hold what ms_print and massif-visualizer would draw: each snapshot's
   tree, when it has one, is a pre-order list whose "nN:" counts and
   depths agree (checked here by walking it as a tree), and a snapshot
   says heap_tree=detailed or peak exactly when it has nodes.  Every
   node's text goes through pr_ms_strip_addr(), as profreport labels
   frames.  A refused file must explain itself in PR_Error
   ("fuzz.out:LINE: what").  Seeds: fuzz/corpus/massif/; dictionary:
   fuzz/massif.dict; run by `make fuzz` (docs/fuzzing.md). */

#include <stdint.h>
#include <string.h>

#include "profreader.h"
#include "fuzz_common.h"

/* The subtree of node I at DEPTH: the index after it. */
static size_t subtree(const PR_MsSnapshot *s, size_t i, int depth)
{
   size_t j = i + 1;
   unsigned c;
   fz_require(s->nodes[i].depth == depth, "a node's depth is its level");
   for (c = 0; c < s->nodes[i].n_children; c++) {
      fz_require(j < s->n_nodes, "a node has as many children as it says");
      j = subtree(s, j, depth + 1);
   }
   return j;
}

static void walk(const PR_Massif *m)
{
   unsigned long long sink = 0;
   size_t i, j;
   fz_require(m->time_unit != NULL && m->n_snaps > 0,
              "a Massif file has time_unit: and snapshots");
   for (i = 0; i < m->n_snaps; i++) {
      const PR_MsSnapshot *s = &m->snaps[i];
      fz_require((s->kind != PR_TREE_EMPTY) == (s->n_nodes > 0),
                 "a snapshot has a tree exactly when it says detailed or peak");
      if (s->n_nodes > 0)
         fz_require(subtree(s, 0, 0) == s->n_nodes, "one tree per snapshot");
      sink += s->time + s->heap + s->extra + s->stacks + (pr_u64)s->num;
      for (j = 0; j < s->n_nodes; j++)
         sink += s->nodes[j].bytes + strlen(pr_ms_strip_addr(s->nodes[j].text));
   }
   if (m->desc)
      sink += strlen(m->desc);
   if (m->cmd)
      sink += strlen(m->cmd);
   fz_sink = sink;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
   PR_Error err = { 0, "" };
   PR_Massif *m = pr_ms_parse((const char *)data, size, FZ_NAME, &err);
   if (m == NULL)
      fz_check_error(&err);
   else
      walk(m);
   pr_ms_free(m);
   return 0;
}
