/* fuzz_folded.c: libFuzzer harness for the folded-stacks reader.

   Copyright (C) 2026 The heapsnap/callprof developers.
   SPDX-License-Identifier: GPL-2.0-or-later

   Each input goes to pr_fold_parse() as a whole file of exactly the
   bytes libFuzzer gives (no terminating NUL).  A file the reader takes
   is read as profreport reads it: every stack split into its frames at
   ';', every count added up.  A refused file must explain itself in
   PR_Error ("fuzz.out:LINE: what").  Seeds:
   fuzz/corpus/folded/; run by `make fuzz` (docs/fuzzing.md). */

#include <stdint.h>
#include <string.h>

#include "profreader.h"
#include "fuzz_common.h"

static void walk(const PR_Folded *f)
{
   unsigned long long sink = 0;
   size_t i;
   for (i = 0; i < f->n_stacks; i++) {
      const char *s = f->stacks[i].stack, *semi;
      while ((semi = strchr(s, ';')) != NULL) {
         sink += (size_t)(semi - s);
         s = semi + 1;
      }
      sink += strlen(s) + f->stacks[i].count;
   }
   fz_sink = sink;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
   PR_Error err = { 0, "" };
   PR_Folded *f = pr_fold_parse((const char *)data, size, FZ_NAME, &err);
   if (f == NULL)
      fz_check_error(&err);
   else
      walk(f);
   pr_fold_free(f);
   return 0;
}
