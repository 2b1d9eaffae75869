/* fuzz_common.h: what the fuzz harnesses share: the name the inputs are
   read under and the checks that turn a broken promise of
   include/profreader.h into a crash libFuzzer records.

   Copyright (C) 2026 The heapsnap/callprof developers.
   SPDX-License-Identifier: GPL-2.0-or-later

   A reader either returns a model or NULL with PR_Error set to
   "fuzz.out:LINE: what" or "fuzz.out: what"; fz_check_error() aborts on
   anything else.  fz_sink keeps the walks over a model from being
   optimised away.  Header-only: each harness is one program of its own. */

#ifndef FUZZ_COMMON_H
#define FUZZ_COMMON_H

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "profreader.h"

#define FZ_NAME "fuzz.out"

static volatile unsigned long long fz_sink;

static void fz_require(int ok, const char *what)
{
   if (!ok) {
      fprintf(stderr, "fuzz: broken promise: %s\n", what);
      abort();
   }
}

/* "fuzz.out:" then digits and ": ", or "fuzz.out: ", then some text. */
static void fz_check_error(const PR_Error *err)
{
   const char *t = err->text;
   size_t n = strlen(FZ_NAME);
   fz_require(err->set, "a refused file sets PR_Error");
   fz_require(memchr(t, '\0', sizeof err->text) != NULL,
              "PR_Error text is NUL-terminated");
   fz_require(strncmp(t, FZ_NAME ":", n + 1) == 0,
              "PR_Error starts with the file name");
   t += n + 1;
   if (*t >= '0' && *t <= '9') {
      while (*t >= '0' && *t <= '9')
         t++;
      fz_require(*t == ':', "PR_Error has FILE:LINE:");
      t++;
   }
   fz_require(t[0] == ' ' && t[1] != '\0' && t[1] != ' ',
              "PR_Error says what is wrong");
}

#endif /* FUZZ_COMMON_H */
