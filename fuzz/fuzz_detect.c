/* fuzz_detect.c: libFuzzer harness for format detection followed by the
   reader it picks, the path every file given to profreport or profcmp
   takes.

   Copyright (C) 2026 The heapsnap/callprof developers.
   SPDX-License-Identifier: GPL-2.0-or-later

   pr_detect() looks at the first lines only; the reader it chooses must
   then either take the file or refuse it in PR_Error
   ("fuzz.out:LINE: what"), whatever the rest holds.  An input detected
   as nothing is not read further, as profreport says "not a Callgrind,
   Massif or folded-stacks file" then.  The seeds are all three corpora
   (fuzz/corpus/); `make fuzz` runs it (docs/fuzzing.md). */

#include <stdint.h>

#include "profreader.h"
#include "fuzz_common.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
   PR_Error err = { 0, "" };
   const char *d = (const char *)data;
   void *model = NULL;
   PR_Format f = pr_detect(d, size);

   switch (f) {
   case PR_CALLGRIND:
      model = pr_cg_parse(d, size, FZ_NAME, &err);
      pr_cg_free(model);
      break;
   case PR_MASSIF:
      model = pr_ms_parse(d, size, FZ_NAME, &err);
      pr_ms_free(model);
      break;
   case PR_FOLDED:
      model = pr_fold_parse(d, size, FZ_NAME, &err);
      pr_fold_free(model);
      break;
   case PR_UNKNOWN:
      return 0;
   }
   if (model == NULL)
      fz_check_error(&err);
   fz_sink = (unsigned long long)f;
   return 0;
}
