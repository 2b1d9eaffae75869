/* test_filter.c: which frames make an allocation's site (heapsnap/
   hs_filter.h) on the host.

   Copyright (C) 2026 The heapsnap/callprof developers.
   SPDX-License-Identifier: GPL-2.0-or-later

   A stack is written innermost frame first, one letter a frame:
      a  an allocation function (malloc, operator new, an --alloc-fn)
      i  an --ignore-fn
      f  an ordinary named function     ?  a frame without a name
      m  main                           b  below main (__libc_start_main)
   and each case gives the site Massif keeps: its first frame and
   length.

   Build from the top of the tree and run:
      cc -Iinclude -Iheapsnap -Itests/unit tests/unit/check.c \
         tests/unit/test_filter.c -o test_filter
      ./test_filter */

#include <stdio.h>
#include <string.h>

#include "check.h"
#include "hs_filter.h"

static HS_FrameFacts frames[64];
static unsigned asked;            /* facts asked for, all stacks */

static const HS_FrameFacts *facts_of(void *cl, int i)
{
   (void)cl;
   asked++;
   return &frames[i];
}

static int stack(const char *s)
{
   int n = (int)strlen(s), i;
   for (i = 0; i < n; i++) {
      HS_FrameFacts *f = &frames[i];
      f->has_name = s[i] != '?';
      f->is_alloc_fn = s[i] == 'a';
      f->is_ignore_fn = s[i] == 'i';
      f->kind = s[i] == 'm' ? HS_FN_MAIN
              : s[i] == 'b' ? HS_FN_BELOW_MAIN : HS_FN_NORMAL;
   }
   return n;
}

/* The site of stack S with OPTS: "top+len". */
static const char *site(const char *s, int depth, int below, int ignore)
{
   static char out[32];
   HS_FilterOpts o;
   int deepest = 0, top, sel, n = stack(s);
   o.depth = depth;
   o.show_below_main = below;
   o.any_ignore_fns = ignore;
   sel = hs_filter_frames(n, &o, facts_of, NULL, &deepest, &top);
   snprintf(out, sizeof out, "%d+%d", top, sel);
   return out;
}

static void test_alloc_fns(void)
{
   /* malloc, then f f main, below main cut */
   CHECK_STR(site("afffmb", 30, 0, 0), "1+4");
   /* operator new calling malloc: both left out */
   CHECK_STR(site("aaffmb", 30, 0, 0), "2+3");
   /* no allocation function (a client request's block) */
   CHECK_STR(site("ffmb", 30, 0, 0), "0+3");
   /* nothing but allocation functions: an empty site */
   CHECK_STR(site("aa", 30, 0, 0), "2+0");
}

static void test_ignore_fns(void)
{
   /* the top frame left is ignored: the whole allocation is */
   CHECK_STR(site("aifmb", 30, 0, 1), "1+0");
   /* without a name, the first named frame below decides */
   CHECK_STR(site("a??ifmb", 30, 0, 1), "1+0");
   CHECK_STR(site("a??fimb", 30, 0, 1), "1+5");
   /* an ignored function deeper down does not matter */
   CHECK_STR(site("afimb", 30, 0, 1), "1+3");
   /* only when an --ignore-fn was given */
   CHECK_STR(site("aifmb", 30, 0, 0), "1+3");
}

static void test_main(void)
{
   /* --show-below-main=yes: everything */
   CHECK_STR(site("afffmb", 30, 1, 0), "1+5");
   /* no main: cut at the outermost below-main function */
   CHECK_STR(site("affbb", 30, 0, 0), "1+3");
   /* neither: the whole stack */
   CHECK_STR(site("afff", 30, 0, 0), "1+3");
   /* the allocation made below main itself: one frame kept */
   CHECK_STR(site("abb", 30, 0, 0), "1+1");
   /* two mains (a recursive main): the search up from the bottom stops
      at the outer one */
   CHECK_STR(site("afmfmb", 30, 0, 0), "1+4");
}

static void test_depth(void)
{
   CHECK_STR(site("afffffmb", 3, 0, 0), "1+3");
   CHECK_STR(site("afffffmb", 6, 0, 0), "1+6");
   CHECK_STR(site("afffffmb", 1, 0, 0), "1+1");
}

/* The search for main starts where main was last seen from the bottom,
   and looks no further than it has to. */
static void test_deepest_main(void)
{
   HS_FilterOpts o = { 30, 0, 0 };
   int deepest = 0, top, n;
   unsigned before;

   n = stack("afffffffmb");
   CHECK_LONG(hs_main_frame(n, facts_of, NULL, &deepest), 8);
   CHECK_LONG(deepest, 1);
   n = stack("afffffffmb");
   before = asked;
   CHECK_LONG(hs_filter_frames(n, &o, facts_of, NULL, &deepest, &top), 8);
   /* the allocation function (2: top and not top), then main at once:
      not all ten frames */
   CHECK(asked - before < 6);
}

int main(void)
{
   test_alloc_fns();
   test_ignore_fns();
   test_main();
   test_depth();
   test_deepest_main();
   printf("unit: %u checks, %u failed\n", check_count, check_failed);
   return check_failed ? 1 : 0;
}
