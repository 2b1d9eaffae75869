/* test_massif.c: the Massif format, byte for byte.

   Copyright (C) 2026 The heapsnap/callprof developers.
   SPDX-License-Identifier: GPL-2.0-or-later */

#include <stdio.h>
#include <string.h>

#include "check.h"

#define ROOT "(heap allocation functions) malloc/new/new[], --alloc-fns, etc."

/* "0xIP: fIP (a.c:IP)"; address 0x30 has an inlined frame. */
static const char *describe(void *ctx, pw_addr ip, unsigned k, int *more)
{
   static char text[64];
   (void)ctx;
   if (ip == 0x30 && k == 0) {
      *more = 1;
      return "0x30: inl_inner (i.h:1)";
   }
   *more = 0;
   if (ip == 0x30)
      return "0x30: outer (o.c:2)";
   snprintf(text, sizeof text, "0x%lX: f%lx (a.c:%lu)", ip, ip, ip);
   return text;
}

static const char *tree(PW_MsStack *st, unsigned n, pw_u64 heap,
                        pw_u64 extra, pw_u64 stacks, double thr,
                        MemOut *m)
{
   static char buf[32];
   PW_Sink s;

   mem_init(m, &s, buf, sizeof buf);
   pw_ms_tree(&s, st, n, heap, extra, stacks, thr, ROOT, describe, NULL);
   CHECK_LONG(s.error, 0);
   return mem_str(m, &s);
}

static void test_header(void)
{
   PW_Sink s;
   MemOut m;
   char buf[64];

   mem_init(&m, &s, buf, sizeof buf);
   pw_ms_header(&s, "--threshold=1.0 --depth=5", "./prog a b", "i");
   pw_ms_snapshot(&s, 0, 0, 0, 0, 0, "empty");
   pw_ms_snapshot(&s, 1, 1234567, 1000, 80, 16, "detailed");
   CHECK_STR(mem_str(&m, &s),
             "desc: --threshold=1.0 --depth=5\n"
             "cmd: ./prog a b\n"
             "time_unit: i\n"
             "#-----------\n"
             "snapshot=0\n"
             "#-----------\n"
             "time=0\n"
             "mem_heap_B=0\n"
             "mem_heap_extra_B=0\n"
             "mem_stacks_B=0\n"
             "heap_tree=empty\n"
             "#-----------\n"
             "snapshot=1\n"
             "#-----------\n"
             "time=1234567\n"
             "mem_heap_B=1000\n"
             "mem_heap_extra_B=80\n"
             "mem_stacks_B=16\n"
             "heap_tree=detailed\n");
   mem_free(&m);

   mem_init(&m, &s, buf, sizeof buf);
   pw_ms_header(&s, NULL, "./p", "B");
   pw_ms_header(&s, "", "./p", "ms");
   CHECK_STR(mem_str(&m, &s),
             "desc: (none)\ncmd: ./p\ntime_unit: B\n"
             "desc: (none)\ncmd: ./p\ntime_unit: ms\n");
   mem_free(&m);
}

static const pw_addr s_a[] = { 0x10, 0x100 }, s_b[] = { 0x10, 0x200 },
   s_c[] = { 0x20 }, s_d[] = { 0x30, 0x100 }, s_e[] = { 0x40 },
   s_f[] = { 0x10 }, s_g[] = { 0x50 }, s_h[] = { 0x60 }, s_i[] = { 0x70 },
   s_j[] = { 0x80 }, s_k[] = { 0x30, 0x10 };

static void test_plural(void)
{
   /* threshold 1% of 1000 = 10: 0x30 and 0x40 (5 each) merge */
   PW_MsStack st[] = {
      { s_e, 1, 5 }, { s_b, 2, 300 }, { s_c, 1, 190 }, { s_d, 2, 5 },
      { s_a, 2, 500 },
   };
   MemOut m;
   CHECK_STR(tree(st, 5, 1000, 0, 0, 1.0, &m),
             "n3: 1000 " ROOT "\n"
             " n2: 800 0x10: f10 (a.c:16)\n"
             "  n0: 500 0x100: f100 (a.c:256)\n"
             "  n0: 300 0x200: f200 (a.c:512)\n"
             " n0: 190 0x20: f20 (a.c:32)\n"
             " n0: 10 in 2 places, all below massif's threshold (1.00%)\n");
   mem_free(&m);
}

static void test_singular(void)
{
   /* extra and stacks count towards the threshold: 1.5% of 1000 = 15 */
   PW_MsStack st[] = { { s_b, 2, 10 }, { s_a, 2, 890 } };
   MemOut m;
   CHECK_STR(tree(st, 2, 900, 60, 40, 1.5, &m),
             "n1: 900 " ROOT "\n"
             " n2: 900 0x10: f10 (a.c:16)\n"
             "  n0: 890 0x100: f100 (a.c:256)\n"
             "  n0: 10 in 1 place, below massif's threshold (1.50%)\n");
   mem_free(&m);
}

static void test_ties(void)
{
   /* equal bytes: lower address first; the merged node (address 0)
      before equal real ones.  25% of 40 = 10. */
   PW_MsStack st[] = {
      { s_i, 1, 10 }, { s_h, 1, 5 }, { s_g, 1, 10 }, { s_j, 1, 5 },
   };
   PW_MsStack st2[] = { { s_h, 1, 7 }, { s_g, 1, 7 }, { s_i, 1, 7 } };
   MemOut m;
   CHECK_STR(tree(st, 4, 40, 0, 0, 25.0, &m),
             "n3: 40 " ROOT "\n"
             " n0: 10 in 2 places, all below massif's threshold (25.00%)\n"
             " n0: 10 0x50: f50 (a.c:80)\n"
             " n0: 10 0x70: f70 (a.c:112)\n");
   mem_free(&m);
   CHECK_STR(tree(st2, 3, 21, 0, 0, 0.0, &m),
             "n3: 21 " ROOT "\n"
             " n0: 7 0x50: f50 (a.c:80)\n"
             " n0: 7 0x60: f60 (a.c:96)\n"
             " n0: 7 0x70: f70 (a.c:112)\n");
   mem_free(&m);
}

static void test_inlined(void)
{
   /* 0x30 has two frames: each a line, one level deeper, one child */
   PW_MsStack st[] = { { s_k, 2, 100 }, { s_c, 1, 50 } };
   MemOut m;
   CHECK_STR(tree(st, 2, 150, 0, 0, 0.0, &m),
             "n2: 150 " ROOT "\n"
             " n1: 100 0x30: inl_inner (i.h:1)\n"
             "  n1: 100 0x30: outer (o.c:2)\n"
             "   n0: 100 0x10: f10 (a.c:16)\n"
             " n0: 50 0x20: f20 (a.c:32)\n");
   mem_free(&m);
}

static void test_short_stack(void)
{
   /* a stack ending at 0x10 counts in 0x10's bytes but is no child */
   PW_MsStack st[] = { { s_a, 2, 60 }, { s_f, 1, 40 } };
   MemOut m;
   CHECK_STR(tree(st, 2, 100, 0, 0, 1.0, &m),
             "n1: 100 " ROOT "\n"
             " n1: 100 0x10: f10 (a.c:16)\n"
             "  n0: 60 0x100: f100 (a.c:256)\n");
   mem_free(&m);
}

static void test_zero_heap(void)
{
   PW_MsStack st[] = { { s_c, 1, 0 }, { s_g, 1, 0 } };
   PW_MsStack st2[] = { { s_c, 1, 0 } };
   MemOut m;
   /* nothing on the heap: everything is below the threshold */
   CHECK_STR(tree(st, 2, 0, 0, 0, 1.0, &m),
             "n1: 0 " ROOT "\n"
             " n0: 0 in 2 places, all below massif's threshold (1.00%)\n");
   mem_free(&m);
   CHECK_STR(tree(st2, 1, 0, 0, 100, 1.0, &m),
             "n1: 0 " ROOT "\n"
             " n0: 0 in 1 place, below massif's threshold (1.00%)\n");
   mem_free(&m);
   /* ... unless the threshold is 0 */
   CHECK_STR(tree(st2, 1, 0, 0, 0, 0.0, &m),
             "n1: 0 " ROOT "\n"
             " n0: 0 0x20: f20 (a.c:32)\n");
   mem_free(&m);
   CHECK_STR(tree(NULL, 0, 0, 0, 0, 1.0, &m), "n0: 0 " ROOT "\n");
   mem_free(&m);
}

static void test_presorted(void)
{
   /* pw_ms_tree sorts STACKS in place; given that order,
      pw_ms_tree_sorted writes the same tree without sorting. */
   PW_MsStack st[] = {
      { s_e, 1, 5 }, { s_b, 2, 300 }, { s_c, 1, 190 }, { s_d, 2, 5 },
      { s_a, 2, 500 },
   };
   static char buf[32];
   const char *want;
   PW_Sink s;
   MemOut m, m2;

   want = tree(st, 5, 1000, 0, 0, 1.0, &m);
   CHECK(st[0].ips == s_a && st[1].ips == s_b && st[4].ips == s_e);
   mem_init(&m2, &s, buf, sizeof buf);
   pw_ms_tree_sorted(&s, st, 5, 1000, 0, 0, 1.0, ROOT, describe, NULL);
   CHECK_STR(mem_str(&m2, &s), want);
   mem_free(&m2);
   mem_free(&m);
}

void test_massif(void)
{
   test_header();
   test_plural();
   test_singular();
   test_ties();
   test_inlined();
   test_short_stack();
   test_zero_heap();
   test_presorted();
}
