/* test_cachesim.c: the cache simulator (callprof/cp_cachesim.c and
   cp_cacheuse.c) on the host.

   Copyright (C) 2026 The heapsnap/callprof developers.
   SPDX-License-Identifier: GPL-2.0-or-later

   Every trace here was worked out by hand from Callgrind 3.19's rules
   (the expected set contents are written beside the steps, most recently
   used first), and one reproduces a measured Callgrind run.  Blocks are
   written as numbers (address >> log2(line)); write-back LL tags as
   Callgrind keeps them (the address with the line offset and set index
   cleared, bit 0 the dirty flag).

   Build from the top of the tree and run:
      cc -Iinclude -Icallprof -Itests/unit callprof/cp_cachesim.c \
         callprof/cp_cacheuse.c tests/unit/check.c tests/unit/test_cachesim.c \
         -o test_cachesim
      ./test_cachesim
   It prints one line per failed check, then "unit: N checks, N failed",
   and exits 1 if a check failed. */

#include <stdio.h>
#include <string.h>

#include "check.h"
#include "cp_cachesim.h"
#include "cp_cacheuse.h"

/* The ways of set SET of C, most recently used first, against WANT. */
static void check_set(const CS_Cache *c, unsigned set, const cs_word *want,
                      const char *file, int line)
{
   const cs_word *got = c->tags + set * c->assoc;
   unsigned i;

   check_count++;
   for (i = 0; i < c->assoc; i++)
      if (got[i] != want[i])
         break;
   if (i == c->assoc)
      return;
   check_failed++;
   printf("%s:%d: check failed: set %u is", file, line, set);
   for (i = 0; i < c->assoc; i++)
      printf(" %#lx", got[i]);
   printf(", want");
   for (i = 0; i < c->assoc; i++)
      printf(" %#lx", want[i]);
   printf("\n");
}
#define CHECK_SET(c, set, ...) \
   check_set((c), (set), (const cs_word[]){ __VA_ARGS__ }, __FILE__, __LINE__)

/* ------------------------------------------------------------------ */
/* Traces through the hierarchy                                       */
/* ------------------------------------------------------------------ */

/* One access: 'i' fetch, 'r' read, 'w' write; and the result wanted. */
typedef struct {
   char      op;
   cs_word   addr;
   unsigned  size;
   CS_Result want;
} Step;

/* Run STEPS through S (with the _wb functions if WB), check each result,
   and add each to its class's events: EV[0] fetches, EV[1] reads, EV[2]
   writes, 4 counters each. */
static void run_trace(CS_Sim *s, int wb, const Step *steps, unsigned n,
                      cs_u64 ev[3][4], const char *file, int line)
{
   static const char *const names[] = { "L1 hit", "LL hit", "LL miss",
                                        "LL miss (dirty)" };
   unsigned i;

   for (i = 0; i < n; i++) {
      const Step *st = &steps[i];
      CS_Result r;
      int cls;

      switch (st->op) {
      case 'i':
         r = wb ? cs_ifetch_wb(s, st->addr, st->size)
                : cs_ifetch(s, st->addr, st->size);
         cls = 0;
         break;
      case 'r':
         r = wb ? cs_dread_wb(s, st->addr, st->size)
                : cs_dread(s, st->addr, st->size);
         cls = 1;
         break;
      default:
         r = wb ? cs_dwrite_wb(s, st->addr, st->size)
                : cs_dwrite(s, st->addr, st->size);
         cls = 2;
         break;
      }
      if (ev != NULL)
         cs_count(r, ev[cls]);
      check_count++;
      if (r != st->want) {
         check_failed++;
         printf("%s:%d: check failed: step %u (%c %#lx/%u) is %s, want %s\n",
                file, line, i + 1, st->op, st->addr, st->size, names[r],
                names[st->want]);
      }
   }
}
#define RUN(s, wb, steps, ev) \
   run_trace((s), (wb), (steps), sizeof(steps) / sizeof(steps)[0], (ev), \
             __FILE__, __LINE__)

static void check_events(cs_u64 ev[3][4], const cs_u64 want[3][4],
                         const char *file, int line)
{
   static const char *const names[3][4] = {
      { "Ir", "I1mr", "ILmr", "ILdmr" },
      { "Dr", "D1mr", "DLmr", "DLdmr" },
      { "Dw", "D1mw", "DLmw", "DLdmw" } };
   int c, e;

   for (c = 0; c < 3; c++)
      for (e = 0; e < 4; e++)
         check_long((long)ev[c][e], (long)want[c][e], names[c][e],
                    file, line);
}
#define CHECK_EVENTS(ev, ...) \
   check_events((ev), (const cs_u64[3][4]){ __VA_ARGS__ }, __FILE__, __LINE__)

/* The small hierarchy most traces use: I1 and D1 256 B, 2-way, 16 B
   lines (8 sets: block & 7); LL 1024 B, 4-way, 16 B lines (16 sets:
   block & 15; write-back tags: address & ~0xff). */
static const CS_Geometry g_l1 = { 256, 2, 16 };
static const CS_Geometry g_ll = { 1024, 4, 16 };
static cs_word tags[16 + 16 + 64];

static void small_sim(CS_Sim *s)
{
   CHECK_LONG(cs_tag_words(&g_l1) * 2 + cs_tag_words(&g_ll),
              sizeof tags / sizeof tags[0]);
   cs_sim_init(s, &g_l1, &g_l1, &g_ll, tags);
}

/* ------------------------------------------------------------------ */
/* One cache                                                           */
/* ------------------------------------------------------------------ */

/* 64 B, 2-way, 16 B lines: 2 sets, odd blocks in set 1. */
static void test_lru_2way(void)
{
   static const CS_Geometry g = { 64, 2, 16 };
   cs_word t[4];
   CS_Cache c;

   cs_cache_init(&c, &g, t);
   CHECK_LONG(c.sets, 2);
   CHECK_LONG(cs_ref(&c, 0x10, 4), CS_MISS);   CHECK_SET(&c, 1, 1, 0);
   CHECK_LONG(cs_ref(&c, 0x30, 4), CS_MISS);   CHECK_SET(&c, 1, 3, 1);
   CHECK_LONG(cs_ref(&c, 0x18, 8), CS_HIT);    CHECK_SET(&c, 1, 1, 3);
   CHECK_LONG(cs_ref(&c, 0x10, 1), CS_HIT);    CHECK_SET(&c, 1, 1, 3);
   /* 5 evicts the least recently used, 3; then 3 evicts 1. */
   CHECK_LONG(cs_ref(&c, 0x50, 4), CS_MISS);   CHECK_SET(&c, 1, 5, 1);
   CHECK_LONG(cs_ref(&c, 0x3c, 4), CS_MISS);   CHECK_SET(&c, 1, 3, 5);
   CHECK_LONG(cs_ref(&c, 0x50, 4), CS_HIT);    CHECK_SET(&c, 1, 5, 3);
   CHECK_LONG(cs_ref(&c, 0x1c, 4), CS_MISS);   CHECK_SET(&c, 1, 1, 5);
   CHECK_SET(&c, 0, 0, 0);
}

/* 256 B, 4-way, 16 B lines: 4 sets; set 2 holds blocks 2, 6, 10, ... */
static void test_lru_4way(void)
{
   static const CS_Geometry g = { 256, 4, 16 };
   cs_word t[16];
   CS_Cache c;

   cs_cache_init(&c, &g, t);
   CHECK_LONG(cs_ref(&c, 0x20, 4), CS_MISS);   CHECK_SET(&c, 2, 2, 0, 0, 0);
   CHECK_LONG(cs_ref(&c, 0x60, 4), CS_MISS);   CHECK_SET(&c, 2, 6, 2, 0, 0);
   CHECK_LONG(cs_ref(&c, 0xa0, 4), CS_MISS);   CHECK_SET(&c, 2, 10, 6, 2, 0);
   CHECK_LONG(cs_ref(&c, 0xe0, 4), CS_MISS);   CHECK_SET(&c, 2, 14, 10, 6, 2);
   /* A hit on way 2, then on way 3, then on way 0. */
   CHECK_LONG(cs_ref(&c, 0x64, 4), CS_HIT);    CHECK_SET(&c, 2, 6, 14, 10, 2);
   CHECK_LONG(cs_ref(&c, 0x2c, 4), CS_HIT);    CHECK_SET(&c, 2, 2, 6, 14, 10);
   CHECK_LONG(cs_ref(&c, 0x20, 4), CS_HIT);    CHECK_SET(&c, 2, 2, 6, 14, 10);
   /* Each miss evicts the way at the end. */
   CHECK_LONG(cs_ref(&c, 0x120, 4), CS_MISS);  CHECK_SET(&c, 2, 18, 2, 6, 14);
   CHECK_LONG(cs_ref(&c, 0xa0, 4), CS_MISS);   CHECK_SET(&c, 2, 10, 18, 2, 6);
   CHECK_LONG(cs_ref(&c, 0xe0, 4), CS_MISS);   CHECK_SET(&c, 2, 14, 10, 18, 2);
   CHECK_LONG(cs_ref(&c, 0x60, 4), CS_MISS);   CHECK_SET(&c, 2, 6, 14, 10, 18);
   CHECK_SET(&c, 1, 0, 0, 0, 0);
}

/* Tags start as 0, which is block 0: it hits in set 0 before anything is
   loaded, and the copies of 0 age like any tag.  Clearing restores it. */
static void test_initial_tags(void)
{
   static const CS_Geometry g = { 256, 4, 16 };
   cs_word t[16];
   CS_Cache c;

   cs_cache_init(&c, &g, t);
   CHECK_LONG(cs_ref(&c, 0x0, 4), CS_HIT);     CHECK_SET(&c, 0, 0, 0, 0, 0);
   CHECK_LONG(cs_ref(&c, 0x40, 4), CS_MISS);   CHECK_SET(&c, 0, 4, 0, 0, 0);
   CHECK_LONG(cs_ref(&c, 0x8, 4), CS_HIT);     CHECK_SET(&c, 0, 0, 4, 0, 0);
   CHECK_LONG(cs_ref(&c, 0x80, 4), CS_MISS);   CHECK_SET(&c, 0, 8, 0, 4, 0);
   CHECK_LONG(cs_ref(&c, 0xc0, 4), CS_MISS);   CHECK_SET(&c, 0, 12, 8, 0, 4);
   CHECK_LONG(cs_ref(&c, 0x100, 4), CS_MISS);  CHECK_SET(&c, 0, 16, 12, 8, 0);
   CHECK_LONG(cs_ref(&c, 0x140, 4), CS_MISS);  CHECK_SET(&c, 0, 20, 16, 12, 8);
   CHECK_LONG(cs_ref(&c, 0x0, 4), CS_MISS);    CHECK_SET(&c, 0, 0, 20, 16, 12);
   cs_cache_clear(&c);
   CHECK_SET(&c, 0, 0, 0, 0, 0);
   CHECK_LONG(cs_ref(&c, 0x40, 4), CS_MISS);
   /* Only set 0 can hold block 0: in set 1 the zeros match nothing. */
   CHECK_LONG(cs_ref(&c, 0x10, 4), CS_MISS);   CHECK_SET(&c, 1, 1, 0, 0, 0);
}

/* 128 B, direct-mapped, 16 B lines: 8 sets; blocks 1 and 9 share set 1. */
static void test_direct_mapped(void)
{
   static const CS_Geometry g = { 128, 1, 16 };
   cs_word t[8];
   CS_Cache c;

   cs_cache_init(&c, &g, t);
   CHECK_LONG(c.sets, 8);
   CHECK_LONG(cs_ref(&c, 0x10, 4), CS_MISS);
   CHECK_LONG(cs_ref(&c, 0x90, 4), CS_MISS);   CHECK_SET(&c, 1, 9);
   CHECK_LONG(cs_ref(&c, 0x14, 4), CS_MISS);   CHECK_SET(&c, 1, 1);
   CHECK_LONG(cs_ref(&c, 0x98, 4), CS_MISS);
   CHECK_LONG(cs_ref(&c, 0x9c, 4), CS_HIT);
   CHECK_LONG(cs_ref(&c, 0x20, 4), CS_MISS);   CHECK_SET(&c, 2, 2);
   CHECK_LONG(cs_ref(&c, 0x90, 8), CS_HIT);    CHECK_SET(&c, 1, 9);
}

/* 64 B, 2-way, 16 B lines (2 sets): an access over a line boundary
   references both lines, block(A) first, and is one miss if either
   line missed. */
static void test_straddle(void)
{
   static const CS_Geometry g = { 64, 2, 16 };
   cs_word t[4];
   CS_Cache c;

   cs_cache_init(&c, &g, t);
   /* 0x1c..0x23: blocks 1 (set 1) and 2 (set 0), both missing. */
   CHECK_LONG(cs_ref(&c, 0x1c, 8), CS_MISS);
   CHECK_SET(&c, 1, 1, 0);
   CHECK_SET(&c, 0, 2, 0);
   CHECK_LONG(cs_ref(&c, 0x10, 4), CS_HIT);
   CHECK_LONG(cs_ref(&c, 0x20, 4), CS_HIT);
   /* Blocks 3 and 4, both new. */
   CHECK_LONG(cs_ref(&c, 0x3c, 8), CS_MISS);
   CHECK_SET(&c, 1, 3, 1);
   CHECK_SET(&c, 0, 4, 2);
   /* Blocks 2 and 3: both hit; 2 moves to the front of set 0. */
   CHECK_LONG(cs_ref(&c, 0x2c, 8), CS_HIT);
   CHECK_SET(&c, 0, 2, 4);
   CHECK_SET(&c, 1, 3, 1);
   /* Blocks 4 and 5: 4 hits (way 1), 5 misses and evicts 1: a miss. */
   CHECK_LONG(cs_ref(&c, 0x4c, 8), CS_MISS);
   CHECK_SET(&c, 0, 4, 2);
   CHECK_SET(&c, 1, 5, 3);
   /* Blocks 5 and 6: 5 hits, 6 misses and evicts 2. */
   CHECK_LONG(cs_ref(&c, 0x5f, 2), CS_MISS);
   CHECK_SET(&c, 0, 6, 4);
   CHECK_SET(&c, 1, 5, 3);
   /* Ending on a line's last byte is not a straddle. */
   CHECK_LONG(cs_ref(&c, 0x58, 8), CS_HIT);
   CHECK_SET(&c, 0, 6, 4);
}

/* The straddling access counts once, in the events too. */
static void test_straddle_counted_once(void)
{
   CS_Sim s;
   cs_u64 ev[3][4] = { { 0 } };
   static const Step steps[] = {
      /* blocks 0x100 and 0x101: D1 sets 0 and 1, LL sets 0 and 1 */
      { 'r', 0x100c, 8, CS_LL_MISS },
      { 'r', 0x1000, 4, CS_L1_HIT },
      { 'r', 0x1010, 4, CS_L1_HIT },
      { 'w', 0x100e, 4, CS_L1_HIT },
   };

   small_sim(&s);
   RUN(&s, 0, steps, ev);
   CHECK_EVENTS(ev, { 0, 0, 0, 0 }, { 3, 1, 1, 0 }, { 1, 0, 0, 0 });
   CHECK_SET(&s.ll, 0, 0x100, 0, 0, 0);
   CHECK_SET(&s.ll, 1, 0x101, 0, 0, 0);
}

/* ------------------------------------------------------------------ */
/* The hierarchy without write-back                                   */
/* ------------------------------------------------------------------ */

static void test_hierarchy(void)
{
   CS_Sim s;
   cs_u64 ev[3][4] = { { 0 } };
   static const Step steps[] = {
      /* block 0x100: I1 set 0, LL set 0 */
      { 'i', 0x1000, 4, CS_LL_MISS },
      { 'i', 0x1004, 4, CS_L1_HIT },
      /* D1 is not I1, but LL is shared: the fetch loaded it there */
      { 'r', 0x1000, 8, CS_LL_HIT },
      /* D1 set 0 takes 0x100, 0x108, 0x110, ...; LL set 0 0x100, 0x110 */
      { 'r', 0x1080, 8, CS_LL_MISS },  /* D1 [108 100], LL set 8 */
      { 'r', 0x1100, 8, CS_LL_MISS },  /* D1 [110 108], LL [110 100 0 0] */
      { 'r', 0x1000, 8, CS_LL_HIT },   /* D1 [100 110], LL [100 110 0 0] */
      { 'r', 0x1108, 8, CS_L1_HIT },   /* D1 [110 100] */
      { 'w', 0x1090, 4, CS_LL_MISS },  /* D1 set 1, LL set 9 */
      { 'w', 0x1094, 4, CS_L1_HIT },
      { 'i', 0x1090, 4, CS_LL_HIT },   /* I1 misses, LL has it */
   };

   small_sim(&s);
   RUN(&s, 0, steps, ev);
   CHECK_EVENTS(ev, { 3, 2, 1, 0 }, { 5, 4, 2, 0 }, { 2, 1, 1, 0 });
   CHECK_SET(&s.ll, 0, 0x100, 0x110, 0, 0);
   CHECK_SET(&s.d1, 0, 0x110, 0x100);
   CHECK_SET(&s.i1, 0, 0x100, 0);
}

/* LL may evict a line D1 still holds: D1 keeps it (no back-invalidation)
   and its hits never reach LL, which does not get the line back. */
static void test_not_inclusive(void)
{
   CS_Sim s;
   static const Step steps[] = {
      { 'r', 0x2000, 4, CS_LL_MISS },  /* D1 set 0, LL set 0 */
      /* four fetches into LL set 0 push 0x200 out of LL */
      { 'i', 0x3000, 4, CS_LL_MISS },
      { 'i', 0x3100, 4, CS_LL_MISS },
      { 'i', 0x3200, 4, CS_LL_MISS },
      { 'i', 0x3300, 4, CS_LL_MISS },
      { 'r', 0x2000, 4, CS_L1_HIT },   /* still in D1 */
      { 'w', 0x2004, 4, CS_L1_HIT },   /* a write is a read here */
   };
   static const Step after[] = {
      /* two other blocks of D1 set 0 push it out of D1 too */
      { 'r', 0x2080, 4, CS_LL_MISS },  /* LL set 8 */
      { 'r', 0x2100, 4, CS_LL_MISS },  /* LL set 0, evicts 0x300 */
      { 'r', 0x2000, 4, CS_LL_MISS },  /* now from memory */
   };

   small_sim(&s);
   RUN(&s, 0, steps, NULL);
   CHECK_SET(&s.ll, 0, 0x330, 0x320, 0x310, 0x300);
   CHECK_SET(&s.d1, 0, 0x200, 0);
   RUN(&s, 0, after, NULL);
   CHECK_SET(&s.ll, 0, 0x200, 0x210, 0x330, 0x320);
   /* The same with write-back gives the same results (nothing dirty). */
   cs_sim_clear(&s);
   RUN(&s, 1, after, NULL);
}

/* The lines of the small LL below 0x100 (SETS * LINE) all hit at first
   with write-back, since their tags are 0; without, only block 0 does. */
static void test_initial_tags_hierarchy(void)
{
   CS_Sim s;
   static const Step plain[] = {
      { 'r', 0x40, 4, CS_LL_MISS },
      { 'i', 0xf0, 4, CS_LL_MISS },
      { 'r', 0x00, 4, CS_L1_HIT },
      { 'i', 0x08, 4, CS_L1_HIT },
      { 'r', 0x100, 4, CS_LL_MISS },
   };
   static const Step wb[] = {
      { 'r', 0x40, 4, CS_LL_HIT },
      { 'i', 0xf0, 4, CS_LL_HIT },
      { 'r', 0x00, 4, CS_L1_HIT },
      { 'w', 0x08, 4, CS_L1_HIT },
      { 'r', 0x100, 4, CS_LL_MISS },
   };

   small_sim(&s);
   RUN(&s, 0, plain, NULL);
   cs_sim_clear(&s);
   RUN(&s, 1, wb, NULL);
   /* The write at 8 went through to LL and made tag 0 of set 0 dirty. */
   CHECK_SET(&s.ll, 0, 0x100, 0x1, 0, 0);
}

/* ------------------------------------------------------------------ */
/* Write-back                                                          */
/* ------------------------------------------------------------------ */

/* A dirty line evicted from LL by a fetch is a write-back (ILdmr). */
static void test_wb_evict_dirty(void)
{
   CS_Sim s;
   cs_u64 ev[3][4] = { { 0 } };
   static const Step steps[] = {
      { 'w', 0x2000, 4, CS_LL_MISS },       /* LL [2001 0 0 0] */
      { 'i', 0x3000, 4, CS_LL_MISS },
      { 'i', 0x3100, 4, CS_LL_MISS },
      { 'i', 0x3200, 4, CS_LL_MISS },       /* [3200 3100 3000 2001] */
      { 'i', 0x3300, 4, CS_LL_MISS_DIRTY }, /* evicts 2001 */
      { 'r', 0x2000, 4, CS_L1_HIT },        /* D1 still has it */
      { 'i', 0x3400, 4, CS_LL_MISS },       /* evicts 3000, clean */
   };

   small_sim(&s);
   CHECK_LONG(s.ll.wb_mask, 0xffffff00UL);
   RUN(&s, 1, steps, ev);
   CHECK_EVENTS(ev, { 5, 5, 5, 1 }, { 1, 0, 0, 0 }, { 1, 1, 1, 0 });
   CHECK_SET(&s.ll, 0, 0x3400, 0x3300, 0x3200, 0x3100);
   /* Without write-back, the same trace has no dirty miss. */
   cs_sim_clear(&s);
   memset(ev, 0, sizeof ev);
   {
      Step p[sizeof steps / sizeof steps[0]];
      memcpy(p, steps, sizeof steps);
      p[4].want = CS_LL_MISS;
      run_trace(&s, 0, p, sizeof p / sizeof p[0], ev, __FILE__, __LINE__);
   }
   CHECK_EVENTS(ev, { 5, 5, 5, 0 }, { 1, 0, 0, 0 }, { 1, 1, 1, 0 });
}

/* D1 is write-through: a write that hits in D1 still marks the LL line
   dirty, and a read that hits in LL leaves it dirty. */
static void test_wb_write_through(void)
{
   CS_Sim s;
   cs_u64 ev[3][4] = { { 0 } };
   static const Step steps[] = {
      { 'r', 0x2000, 4, CS_LL_MISS },       /* LL [2000 0 0 0], clean */
      { 'w', 0x2000, 4, CS_L1_HIT },        /* LL [2001 0 0 0] */
      /* out of D1 (set 0) by 0x208 and 0x210; 0x210 is LL set 0 too */
      { 'r', 0x2080, 4, CS_LL_MISS },
      { 'r', 0x2100, 4, CS_LL_MISS },       /* LL [2100 2001 0 0] */
      { 'r', 0x2000, 4, CS_LL_HIT },        /* LL [2001 2100 0 0] */
      { 'i', 0x3000, 4, CS_LL_MISS },
      { 'i', 0x3100, 4, CS_LL_MISS },       /* [3100 3000 2001 2100] */
      { 'i', 0x3200, 4, CS_LL_MISS },       /* evicts 2100, clean */
      { 'r', 0x3300, 4, CS_LL_MISS_DIRTY }, /* evicts 2001: DLdmr */
   };

   small_sim(&s);
   RUN(&s, 1, steps, ev);
   CHECK_EVENTS(ev, { 3, 3, 3, 0 }, { 5, 5, 4, 1 }, { 1, 0, 0, 0 });
   CHECK_SET(&s.ll, 0, 0x3300, 0x3200, 0x3100, 0x3000);
}

/* A write that hits in D1 references LL even when LL has evicted the
   line: it is loaded again, dirty, evicting a dirty line that no event
   counts; the access is a D1 hit. */
static void test_wb_write_hit_reloads(void)
{
   CS_Sim s;
   cs_u64 ev[3][4] = { { 0 } };
   static const Step steps[] = {
      { 'w', 0x2000, 4, CS_LL_MISS },       /* D1 [200 0], LL [2001 0..] */
      { 'w', 0x4000, 4, CS_LL_MISS },       /* D1 [400 200], LL [4001 2001 0 0] */
      { 'i', 0x3000, 4, CS_LL_MISS },
      { 'i', 0x3100, 4, CS_LL_MISS },       /* [3100 3000 4001 2001] */
      { 'i', 0x3200, 4, CS_LL_MISS_DIRTY }, /* evicts 2001 */
      { 'w', 0x2000, 4, CS_L1_HIT },        /* LL: evicts 4001, uncounted */
   };
   static const Step after[] = {
      { 'i', 0x3300, 4, CS_LL_MISS },       /* evicts 3000, clean */
      { 'r', 0x4000, 4, CS_L1_HIT },        /* D1 still has 0x400 */
      { 'w', 0x4000, 4, CS_L1_HIT },        /* LL: evicts 3100, clean */
   };

   small_sim(&s);
   RUN(&s, 1, steps, ev);
   CHECK_SET(&s.ll, 0, 0x2001, 0x3200, 0x3100, 0x3000);
   CHECK_EVENTS(ev, { 3, 3, 3, 1 }, { 0, 0, 0, 0 }, { 3, 2, 2, 0 });
   RUN(&s, 1, after, ev);
   CHECK_SET(&s.ll, 0, 0x4001, 0x3300, 0x2001, 0x3200);
   CHECK_EVENTS(ev, { 4, 4, 4, 1 }, { 1, 0, 0, 0 }, { 4, 2, 2, 0 });
}

/* Write-back references one cache directly: dirty bits, and a
   straddling access is the worse of its two results. */
static void test_wb_cache(void)
{
   static const CS_Geometry g = { 64, 2, 16 };
   cs_word t[4];
   CS_Cache c;

   cs_cache_init(&c, &g, t);
   CHECK_LONG(c.wb_mask, 0xffffffe0UL);
   CHECK_LONG(cs_ref_wb(&c, 0x1010, 4, CS_WRITE), CS_MISS);
   CHECK_SET(&c, 1, 0x1001, 0);
   CHECK_LONG(cs_ref_wb(&c, 0x1030, 4, CS_WRITE), CS_MISS);
   CHECK_SET(&c, 1, 0x1021, 0x1001);
   CHECK_LONG(cs_ref_wb(&c, 0x1014, 4, CS_READ), CS_HIT);
   CHECK_SET(&c, 1, 0x1001, 0x1021);
   /* 0x104c..0x1053: set 0 misses (clean), set 1 misses and evicts 1021,
      dirty.  The two sets now hold the same tag: other lines. */
   CHECK_LONG(cs_ref_wb(&c, 0x104c, 8, CS_READ), CS_MISS_DIRTY);
   CHECK_SET(&c, 0, 0x1040, 0);
   CHECK_SET(&c, 1, 0x1040, 0x1001);
   /* 0x103c..0x1043: set 1 misses and evicts 1001, dirty; set 0 hits. */
   CHECK_LONG(cs_ref_wb(&c, 0x103c, 8, CS_READ), CS_MISS_DIRTY);
   CHECK_SET(&c, 1, 0x1020, 0x1040);
   CHECK_SET(&c, 0, 0x1040, 0);
   /* 0x105c..0x1063: set 1 hits, set 0 misses (clean): a plain miss. */
   CHECK_LONG(cs_ref_wb(&c, 0x105c, 8, CS_READ), CS_MISS);
   CHECK_SET(&c, 1, 0x1040, 0x1020);
   CHECK_SET(&c, 0, 0x1060, 0x1040);
   /* A write hit makes way 0 dirty; that line is the victim later. */
   CHECK_LONG(cs_ref_wb(&c, 0x1060, 4, CS_WRITE), CS_HIT);
   CHECK_SET(&c, 0, 0x1061, 0x1040);
   CHECK_LONG(cs_ref_wb(&c, 0x1000, 4, CS_READ), CS_MISS);
   CHECK_SET(&c, 0, 0x1000, 0x1061);
   CHECK_LONG(cs_ref_wb(&c, 0x1080, 4, CS_READ), CS_MISS_DIRTY);
   CHECK_SET(&c, 0, 0x1080, 0x1000);

   /* A direct-mapped write-back cache: the victim is way 0 itself. */
   {
      static const CS_Geometry d = { 64, 1, 16 };
      cs_word u[4];
      CS_Cache e;

      cs_cache_init(&e, &d, u);
      CHECK_LONG(e.wb_mask, 0xffffffc0UL);
      CHECK_LONG(cs_ref_wb(&e, 0x1000, 4, CS_WRITE), CS_MISS);
      CHECK_LONG(cs_ref_wb(&e, 0x1004, 4, CS_READ), CS_HIT);
      CHECK_SET(&e, 0, 0x1001);
      CHECK_LONG(cs_ref_wb(&e, 0x1040, 4, CS_READ), CS_MISS_DIRTY);
      CHECK_LONG(cs_ref_wb(&e, 0x1000, 4, CS_READ), CS_MISS);
      CHECK_SET(&e, 0, 0x1000);
   }
}

/* A cache of one set (fully associative): with write-back the straddle
   test compares set numbers, always equal, so only the first line of a
   straddling access is referenced; without, both are. */
static void test_wb_one_set(void)
{
   static const CS_Geometry g = { 64, 4, 16 };
   cs_word t[4];
   CS_Cache c;

   CHECK(cs_check(&g) == NULL);
   cs_cache_init(&c, &g, t);
   CHECK_LONG(c.sets, 1);
   CHECK_LONG(c.wb_mask, 0xfffffff0UL);
   CHECK_LONG(cs_ref(&c, 0x100c, 8), CS_MISS);
   CHECK_SET(&c, 0, 0x101, 0x100, 0, 0);
   CHECK_LONG(cs_ref(&c, 0x1010, 4), CS_HIT);

   cs_cache_clear(&c);
   CHECK_LONG(cs_ref_wb(&c, 0x100c, 8, CS_READ), CS_MISS);
   CHECK_SET(&c, 0, 0x1000, 0, 0, 0);
   CHECK_LONG(cs_ref_wb(&c, 0x1010, 4, CS_READ), CS_MISS);
}

/* Callgrind 3.19, measured: a loop writing one byte at 0x100000000 and
   one at 0x300000000, 1000 times, with --I1=32768,8,64 --D1=1024,1,64
   --LL=262144,8,64 and --toggle-collect on the loop, gives
   D1mw 2000, DLmw 2 (plain), and D1mw 2000, DLmw 0, DLdmw 0 with
   --simulate-wb=yes: the 32-bit write-back mask makes both LL tags 0,
   the initial tag, so both hit. */
static void test_wb_high_addresses(void)
{
   static const CS_Geometry i1 = { 32768, 8, 64 };
   static const CS_Geometry d1 = { 1024, 1, 64 };
   static const CS_Geometry ll = { 262144, 8, 64 };
   static cs_word t[512 + 16 + 4096];
   const cs_word a = (cs_word)1 << 16 << 16, b = 3 * a;
   CS_Sim s;
   cs_u64 ev[3][4];
   int wb, i;

   if (sizeof(cs_word) < 8)
      return;
   CHECK_LONG(cs_tag_words(&i1) + cs_tag_words(&d1) + cs_tag_words(&ll),
              sizeof t / sizeof t[0]);
   for (wb = 0; wb < 2; wb++) {
      cs_sim_init(&s, &i1, &d1, &ll, t);
      memset(ev, 0, sizeof ev);
      for (i = 0; i < 1000; i++) {
         cs_count(wb ? cs_dwrite_wb(&s, a, 1) : cs_dwrite(&s, a, 1), ev[2]);
         cs_count(wb ? cs_dwrite_wb(&s, b, 1) : cs_dwrite(&s, b, 1), ev[2]);
      }
      CHECK_LONG(ev[2][0], 2000);
      CHECK_LONG(ev[2][1], 2000);
      CHECK_LONG(ev[2][2], wb ? 0 : 2);
      CHECK_LONG(ev[2][3], 0);
   }
   CHECK_LONG(s.ll.wb_mask, 0xffff8000UL);
   CHECK_SET(&s.ll, 0, 1, 0, 0, 0, 0, 0, 0, 0);
}

static void test_count(void)
{
   cs_u64 ev[4] = { 0, 0, 0, 0 };

   cs_count(CS_L1_HIT, ev);
   CHECK(ev[0] == 1 && ev[1] == 0 && ev[2] == 0 && ev[3] == 0);
   cs_count(CS_LL_HIT, ev);
   CHECK(ev[0] == 2 && ev[1] == 1 && ev[2] == 0 && ev[3] == 0);
   cs_count(CS_LL_MISS, ev);
   CHECK(ev[0] == 3 && ev[1] == 2 && ev[2] == 1 && ev[3] == 0);
   cs_count(CS_LL_MISS_DIRTY, ev);
   CHECK(ev[0] == 4 && ev[1] == 3 && ev[2] == 2 && ev[3] == 1);
}

/* A fetch's counters in callprof: the misses alone, no access. */
static void test_count_misses(void)
{
   cs_u64 ev[4] = { 0, 0, 0, 7 };

   cs_count_misses(CS_L1_HIT, ev);
   CHECK(ev[0] == 0 && ev[1] == 0 && ev[2] == 0 && ev[3] == 7);
   cs_count_misses(CS_LL_HIT, ev);
   CHECK(ev[0] == 1 && ev[1] == 0 && ev[2] == 0 && ev[3] == 7);
   cs_count_misses(CS_LL_MISS, ev);
   CHECK(ev[0] == 2 && ev[1] == 1 && ev[2] == 0 && ev[3] == 7);
   cs_count_misses(CS_LL_MISS_DIRTY, ev);
   CHECK(ev[0] == 3 && ev[1] == 2 && ev[2] == 1 && ev[3] == 7);
}

/* ------------------------------------------------------------------ */
/* Geometry                                                            */
/* ------------------------------------------------------------------ */

static const char *check3(int size, int assoc, int line)
{
   CS_Geometry g;

   g.size = size;
   g.assoc = assoc;
   g.line_size = line;
   return cs_check(&g);
}

static void test_check(void)
{
   static const char sets[] = "cache set count is not a power of two";

   CHECK_STR(check3(32768, 8, 64), NULL);
   CHECK_STR(check3(65536, 2, 64), NULL);
   CHECK_STR(check3(262144, 8, 64), NULL);
   CHECK_STR(check3(1024, 1, 16), NULL);
   CHECK_STR(check3(1024, 16, 64), NULL);          /* one set */
   CHECK_STR(check3(12582912, 16, 64), sets);      /* 12288 sets */
   CHECK_STR(check3(5242880, 48, 64), sets);       /* 1706.67 sets */
   CHECK_STR(check3(1000, 2, 64), sets);
   CHECK_STR(check3(64, 2, 64), sets);             /* no whole set */
   CHECK_STR(check3(1536, 1, 48), "cache line size is not a power of two");
   CHECK_STR(check3(256, 2, 8), "cache line size is too small (minimum 16)");
   CHECK_STR(check3(64, 1, 64), "cache size <= line size");
   CHECK_STR(check3(0, 8, 64),
             "size, associativity and line size must be positive");
   CHECK_STR(check3(32768, 0, 64),
             "size, associativity and line size must be positive");
   CHECK_STR(check3(32768, 8, 0),
             "size, associativity and line size must be positive");
   CHECK_STR(check3(-32768, -8, 64),
             "size, associativity and line size must be positive");
}

static int tweak3(int size, int assoc, int line, CS_Geometry *g)
{
   g->size = size;
   g->assoc = assoc;
   g->line_size = line;
   return cs_tweak_ll(g);
}

/* Callgrind's own computation, in floating point, to compare with. */
static void tweak_ref(int size, int assoc, int line, int *nsize, int *nassoc)
{
   unsigned sets = (unsigned)size / ((unsigned)assoc * (unsigned)line);
   unsigned p = 1;

   *nsize = size;
   *nassoc = assoc;
   if (sets == 0)
      return;
   while (p * 2 <= sets)
      p *= 2;
   if (p == sets) {
      *nsize = (int)((unsigned)line * (unsigned)assoc * sets);
   } else {
      double factor = (double)sets / (double)p;
      *nassoc = (int)(unsigned)(0.5 + factor * (double)assoc);
      *nsize = (int)((unsigned)line * (unsigned)*nassoc * p);
   }
}

static void test_tweak(void)
{
   CS_Geometry g;
   char d[CS_DESC_SIZE];
   int size, assoc, sets, bad = 0, nsize, nassoc;

   /* 12 MB, 16-way: 12288 sets -> 8192, factor 1.5, 24-way. */
   CHECK_LONG(tweak3(12582912, 16, 64, &g), 1);
   CHECK(g.size == 12582912 && g.assoc == 24 && g.line_size == 64);
   CHECK_STR(cs_check(&g), NULL);
   cs_desc(&g, d);
   CHECK_STR(d, "12582912 B, 64 B, 24-way associative");
   /* 5 MB, 48-way: 1706 sets -> 1024, 48 * 1706/1024 = 79.97 -> 80. */
   CHECK_LONG(tweak3(5242880, 48, 64, &g), 1);
   CHECK(g.size == 5242880 && g.assoc == 80 && g.line_size == 64);
   CHECK_STR(cs_check(&g), NULL);
   /* 6 MB, 12-way: 8192 sets, a power of two: unchanged. */
   CHECK_LONG(tweak3(6291456, 12, 64, &g), 0);
   CHECK(g.size == 6291456 && g.assoc == 12);
   /* A power-of-two set count with a remainder: only the size changes. */
   CHECK_LONG(tweak3(262200, 8, 64, &g), 1);
   CHECK(g.size == 262144 && g.assoc == 8);
   /* Rounding: 3 sets -> 2, 1 * 1.5 = 1.5 rounds up to 2; 5 sets -> 4,
      1.25 rounds down to 1; 7 sets -> 4, 3 * 1.75 = 5.25 -> 5. */
   CHECK_LONG(tweak3(192, 1, 64, &g), 1);
   CHECK(g.size == 256 && g.assoc == 2);
   CHECK_LONG(tweak3(320, 1, 64, &g), 1);
   CHECK(g.size == 256 && g.assoc == 1);
   CHECK_LONG(tweak3(1344, 3, 64, &g), 1);
   CHECK(g.size == 1280 && g.assoc == 5);
   /* Nothing to do with zeros or without a whole set. */
   CHECK_LONG(tweak3(0, 8, 64, &g), 0);
   CHECK_LONG(tweak3(32768, 0, 64, &g), 0);
   CHECK_LONG(tweak3(64, 2, 64, &g), 0);
   CHECK(g.size == 64 && g.assoc == 2);

   /* The integer rounding against Callgrind's double, over many. */
   for (sets = 1; sets <= 3000; sets++)
      for (assoc = 1; assoc <= 64; assoc++) {
         size = sets * assoc * 64 + (sets % 7) * 8;
         tweak_ref(size, assoc, 64, &nsize, &nassoc);
         tweak3(size, assoc, 64, &g);
         if (g.size != nsize || g.assoc != nassoc)
            bad++;
      }
   CHECK_LONG(bad, 0);
}

static void test_parse(void)
{
   CS_Geometry g = { 1, 2, 3 };
   static const char syntax[] = "expected SIZE,ASSOC,LINE_SIZE (three integers)";
   static const char *const bad[] = {
      "", "32768", "32768,8", "32768,8,", ",8,64", "32768,,64",
      "32768,8,64,", "32768,8,64x", "32768,8,64 ", "32k,8,64",
      "32768;8;64", "a,b,c", "32768, 8 ,64", "0x8000,8,64", "--1,8,64",
   };
   unsigned i;

   CHECK_STR(cs_parse("32768,8,64", &g), NULL);
   CHECK(g.size == 32768 && g.assoc == 8 && g.line_size == 64);
   /* Blanks and a sign before each number, as Valgrind's strtoll10. */
   CHECK_STR(cs_parse(" 65536,\t2,+64", &g), NULL);
   CHECK(g.size == 65536 && g.assoc == 2 && g.line_size == 64);
   CHECK_STR(cs_parse("8192,1,64", &g), NULL);
   CHECK(g.size == 8192 && g.assoc == 1);

   g.size = 7;
   for (i = 0; i < sizeof bad / sizeof bad[0]; i++) {
      const char *why = cs_parse(bad[i], &g);
      check_str(why, syntax, bad[i], __FILE__, __LINE__);
   }
   CHECK_LONG(g.size, 7);
   CHECK_STR(cs_parse("4294967296,8,64", &g),
             "one of the cache parameters was too large and overflowed");
   CHECK_STR(cs_parse("32768,8,99999999999999999999999", &g),
             "one of the cache parameters was too large and overflowed");
   CHECK_STR(cs_parse("2147483647,1,64", &g),
             "cache set count is not a power of two");
   CHECK_STR(cs_parse("12582912,16,64", &g),
             "cache set count is not a power of two");
   CHECK_STR(cs_parse("1024,2,8", &g),
             "cache line size is too small (minimum 16)");
   CHECK_STR(cs_parse("1536,1,48", &g),
             "cache line size is not a power of two");
   CHECK_STR(cs_parse("-32768,8,64", &g),
             "size, associativity and line size must be positive");
   CHECK_STR(cs_parse("0,0,0", &g),
             "size, associativity and line size must be positive");
   CHECK_LONG(g.size, 7);
}

static void test_desc(void)
{
   CS_Geometry g;
   char d[CS_DESC_SIZE];

   g.size = 32768; g.assoc = 8; g.line_size = 64;
   CHECK_LONG(cs_desc(&g, d), 32);
   CHECK_STR(d, "32768 B, 64 B, 8-way associative");
   g.size = 8192; g.assoc = 1;
   CHECK_LONG(cs_desc(&g, d), 27);
   CHECK_STR(d, "8192 B, 64 B, direct-mapped");
   /* This machine's LL as Callgrind 3.19 described it. */
   g.size = 268435456; g.assoc = 1; g.line_size = 64;
   cs_desc(&g, d);
   CHECK_STR(d, "268435456 B, 64 B, direct-mapped");
   g.size = 1024; g.assoc = 16; g.line_size = 16;
   cs_desc(&g, d);
   CHECK_STR(d, "1024 B, 16 B, 16-way associative");
   /* The longest there can be fits. */
   g.size = -2147483647 - 1; g.assoc = -2147483647 - 1;
   g.line_size = -2147483647 - 1;
   CHECK(cs_desc(&g, d) < CS_DESC_SIZE);
   CHECK_STR(d, "-2147483648 B, -2147483648 B, -2147483648-way associative");
}

static void test_layout(void)
{
   CS_Geometry g = { 32768, 8, 64 };
   cs_word t[512];
   CS_Cache c;

   CHECK_LONG(cs_tag_words(&g), 512);
   t[511] = 99;
   cs_cache_init(&c, &g, t);
   CHECK_LONG(c.sets, 64);
   CHECK_LONG(c.assoc, 8);
   CHECK_LONG(c.line_bits, 6);
   CHECK_LONG(c.set_mask, 63);
   CHECK_LONG(c.wb_mask, 0xfffff000UL);
   CHECK_LONG(t[511], 0);
}

/* ------------------------------------------------------------------ */
/* Prefetching (--simulate-hwpref)                                     */
/* ------------------------------------------------------------------ */

/* Reads going up one line at a time in one stream (page 0x10000, stream
   0): the third starts prefetching 5 lines ahead of itself, into LL
   only, so a later read of those lines misses D1 but hits LL. */
static void test_pf_up(void)
{
   CS_Sim s;

   small_sim(&s);
   CHECK_LONG(cs_dread_pf(&s, 0x10000, 4), CS_LL_MISS); /* run 0 */
   CHECK_LONG(cs_dread_pf(&s, 0x10010, 4), CS_LL_MISS); /* run 1 */
   CHECK_LONG(cs_dread_pf(&s, 0x10020, 4), CS_LL_MISS); /* 2: 0x10070 */
   CHECK_LONG(s.pf.up, 1);
   CHECK_SET(&s.ll, 7, 0x1007, 0, 0, 0);
   CHECK_LONG(cs_dread_pf(&s, 0x10030, 4), CS_LL_MISS); /* 3: 0x10080 */
   CHECK_LONG(s.pf.up, 2);
   /* not the next line: the run ends, no prefetch */
   CHECK_LONG(cs_dread_pf(&s, 0x10070, 4), CS_LL_HIT);
   CHECK_LONG(cs_dread_pf(&s, 0x10080, 4), CS_LL_HIT);  /* run 1 again */
   CHECK_LONG(s.pf.up, 2);
   CHECK_LONG(s.pf.last[0], 0x1008);
   CHECK_LONG(s.pf.run[0], 1);
   /* a D1 hit does not reach the prefetcher */
   CHECK_LONG(cs_dread_pf(&s, 0x10084, 4), CS_L1_HIT);
   CHECK_LONG(s.pf.run[0], 1);
   /* nor does a fetch that hits I1; one that misses does */
   CHECK_LONG(cs_ifetch_pf(&s, 0x10090, 4), CS_LL_MISS);
   CHECK_LONG(s.pf.run[0], 2);
   CHECK_LONG(s.pf.up, 3);                                /* 0x100e0 */
   CHECK_LONG(cs_dwrite_pf(&s, 0x100e0, 4), CS_LL_HIT);
}

/* Going down, in stream 2 (page 0x12000): from the third line on, the
   line 5 below is prefetched, here into another page's stream. */
static void test_pf_down(void)
{
   CS_Sim s;

   small_sim(&s);
   CHECK_LONG(cs_dread_pf(&s, 0x12050, 4), CS_LL_MISS);
   CHECK_LONG(cs_dread_pf(&s, 0x12040, 4), CS_LL_MISS);  /* run -1 */
   CHECK_LONG(s.pf.run[2], -1);
   CHECK_LONG(cs_dread_pf(&s, 0x12030, 4), CS_LL_MISS);  /* -2: 0x11fe0 */
   CHECK_LONG(s.pf.down, 1);
   CHECK_LONG(s.pf.up, 0);
   CHECK_LONG(cs_dread_pf(&s, 0x11fe0, 4), CS_LL_HIT);   /* stream 1 */
   CHECK_LONG(s.pf.run[1], 0);
   CHECK_LONG(s.pf.run[2], -2);
   /* a line that does not go on down ends the run */
   CHECK_LONG(cs_dread_pf(&s, 0x12100, 4), CS_LL_MISS);
   CHECK_LONG(s.pf.run[2], 0);
   CHECK_LONG(s.pf.last[2], 0x1210);
   cs_sim_clear(&s);
   CHECK_LONG(s.pf.last[2], 0);
   CHECK_LONG(s.pf.down, 1);                 /* counts are kept */
}

/* With write-back every write goes to the prefetcher, even a D1 hit,
   before D1; and a prefetched line never hits a write-back reference:
   it was loaded with the plain model's tag (the block), which no
   write-back tag (address, low bits cleared) equals. */
static void test_pf_wb(void)
{
   CS_Sim s;

   small_sim(&s);
   CHECK_LONG(cs_dwrite_wb_pf(&s, 0x10000, 4), CS_LL_MISS);
   CHECK_LONG(cs_dwrite_wb_pf(&s, 0x10010, 4), CS_LL_MISS);  /* run 1 */
   CHECK_LONG(cs_dwrite_wb_pf(&s, 0x10000, 4), CS_L1_HIT);   /* run 0 */
   CHECK_LONG(s.pf.run[0], 0);
   CHECK_LONG(cs_dwrite_wb_pf(&s, 0x10010, 4), CS_L1_HIT);   /* run 1 */
   CHECK_LONG(s.pf.run[0], 1);
   CHECK_LONG(cs_dwrite_wb_pf(&s, 0x10020, 4), CS_LL_MISS);  /* 0x10070 */
   CHECK_LONG(s.pf.up, 1);
   CHECK_SET(&s.ll, 7, 0x1007, 0, 0, 0);
   CHECK_LONG(cs_dread_wb_pf(&s, 0x10070, 4), CS_LL_MISS);
   CHECK_SET(&s.ll, 7, 0x10000, 0x1007, 0, 0);
   /* a fetch prefetches only on an I1 miss, as without write-back */
   CHECK_LONG(cs_ifetch_wb_pf(&s, 0x10080, 4), CS_LL_MISS);
   CHECK_LONG(s.pf.run[0], 1);
}

/* ------------------------------------------------------------------ */
/* Cache use (--cacheuse)                                              */
/* ------------------------------------------------------------------ */

static CS_Use use_recs[16 + 16 + 64];

/* The small hierarchy with use records; use tags are write-back's: L1
   address & ~0x7f (8 sets of 16 B), LL address & ~0xff, the slot in the
   low bits. */
static void small_use(CS_Sim *s, CS_UseSim *u)
{
   small_sim(s);
   cs_use_init(s, u, use_recs);
}

static void check_cost(const cs_u64 *got, const cs_u64 *want,
                       const char *file, int line)
{
   static const char *const names[4] = { "AcCost1", "SpLoss1", "AcCost2",
                                         "SpLoss2" };
   int k;

   for (k = 0; k < 4; k++)
      check_long((long)got[k], (long)want[k], names[k], file, line);
}
#define CHECK_COST(got, ...) \
   check_cost((got), (const cs_u64[4]){ __VA_ARGS__ }, __FILE__, __LINE__)

static void test_use_masks(void)
{
   CS_Sim s;
   static const CS_Geometry g16 = { 64, 2, 16 }, g32 = { 128, 2, 32 },
                            g64 = { 256, 2, 64 };
   cs_word t[4 + 4 + 4];

   cs_sim_init(&s, &g16, &g32, &g64, t);
   /* 16 B lines: two bits a byte */
   CHECK_LONG(cs_use_from(&s.i1, 0), 0xffffffffu);
   CHECK_LONG(cs_use_from(&s.i1, 5), 0xfffffc00u);
   CHECK_LONG(cs_use_to(&s.i1, 15), 0xffffffffu);
   CHECK_LONG(cs_use_to(&s.i1, 3), 0xffu);
   /* 32 B lines: a bit a byte */
   CHECK_LONG(cs_use_from(&s.d1, 5), 0xffffffe0u);
   CHECK_LONG(cs_use_to(&s.d1, 5), 0x3fu);
   /* 64 B lines: two bytes a bit */
   CHECK_LONG(cs_use_from(&s.ll, 63), 0x80000000u);
   CHECK_LONG(cs_use_from(&s.ll, 3), 0xfffffffeu);
   CHECK_LONG(cs_use_to(&s.ll, 0), 0x1u);
   CHECK_LONG(cs_use_to(&s.ll, 3), 0x3u);
   CHECK_LONG(cs_use_bits(0xffff00ffu), 24);
   CHECK_LONG(cs_use_bits(0), 0);
}

/* Two loaders, A and B, reading; every step worked out by hand. */
static void test_use_trace(void)
{
   CS_Sim s;
   CS_UseSim u;
   cs_u64 a[4] = { 0 }, b[4] = { 0 };

   small_use(&s, &u);
   CHECK_SET(&s.d1, 0, 0, 1);                    /* tags start as slots */
   /* A loads 0x1000 (D1 set 0, slot 1; LL set 0, slot 3), bytes 0-3 */
   CHECK_LONG(cs_use_access(&s, &u, CS_USE_D1, 0x1000, 4, a), CS_LL_MISS);
   CHECK_SET(&s.d1, 0, 0x1001, 0);
   CHECK_SET(&s.ll, 0, 0x1003, 0, 1, 2);
   CHECK_LONG(u.rec[CS_USE_D1][1].mask, 0xff);
   CHECK_LONG(u.rec[CS_USE_D1][1].dep, 3);
   /* and uses bytes 8-15 */
   CHECK_LONG(cs_use_access(&s, &u, CS_USE_D1, 0x1008, 8, a), CS_L1_HIT);
   CHECK_LONG(u.rec[CS_USE_D1][1].count, 2);
   CHECK_LONG(u.rec[CS_USE_D1][1].mask, 0xffff00ff);
   /* B loads 0x1080 into slot 0 (LL set 8, slot 3: record 35) */
   CHECK_LONG(cs_use_access(&s, &u, CS_USE_D1, 0x1080, 4, b), CS_LL_MISS);
   CHECK_SET(&s.d1, 0, 0x1080, 0x1001);
   CHECK_LONG(u.rec[CS_USE_D1][0].dep, 35);
   /* B's 0x1100 evicts A's line: 1000 / 2 accesses, 8 of 32 parts
      unused: 8 * 16 / 32 = 4 bytes; its use goes to LL record 3 */
   CHECK_LONG(cs_use_access(&s, &u, CS_USE_D1, 0x1100, 4, b), CS_LL_MISS);
   CHECK_COST(a, 500, 4, 0, 0);
   CHECK_LONG(u.rec[CS_USE_LL][3].count, 2);
   CHECK_LONG(u.rec[CS_USE_LL][3].mask, 0xffff00ff);
   CHECK_SET(&s.ll, 0, 0x1102, 0x1003, 0, 1);
   /* straddling 0x1e0e-0x1e11: set 0 evicts B's 0x1080 (used once, 4
      bytes: 1000, 12 lost), set 1 loads its first line; both miss LL */
   CHECK_LONG(cs_use_access(&s, &u, CS_USE_D1, 0x1e0e, 4, b), CS_LL_MISS);
   CHECK_COST(b, 1000, 12, 0, 0);
   CHECK_LONG(u.rec[CS_USE_D1][0].mask, 0xf0000000u);
   CHECK_LONG(u.rec[CS_USE_D1][3].mask, 0xfu);
   CHECK_LONG(u.rec[CS_USE_D1][3].dep, 7);
   CHECK_LONG(u.rec[CS_USE_LL][35].count, 1);
   /* A hits B's 0x1100 line: the use counts for B, who loaded it */
   CHECK_LONG(cs_use_access(&s, &u, CS_USE_D1, 0x1104, 2, a), CS_L1_HIT);
   CHECK_LONG(u.rec[CS_USE_D1][1].count, 2);
   CHECK_LONG(u.rec[CS_USE_D1][1].mask, 0xfff);
   /* the end: D1 lines 0x1e00 (1000, 14), 0x1100 (500, 10), 0x1e10
      (1000, 14); then LL lines 0x1000 (A: 500, 4), 0x1080 (1000, 12),
      0x1100 (500, 10), 0x1e00 and 0x1e10 (1000, 14 each) */
   cs_use_finish(&s, &u);
   CHECK_COST(a, 500, 4, 500, 4);
   CHECK_COST(b, 3500, 50, 3500, 50);
   /* finished lines are forgotten */
   cs_use_finish(&s, &u);
   CHECK_COST(b, 3500, 50, 3500, 50);
}

/* Fetches count uses as reads do; a line whose address part is 0 hits
   at the start, with no loader to charge; nothing is charged while the
   thread does not collect, nor passed on to LL. */
static void test_use_fetch_collect(void)
{
   CS_Sim s;
   CS_UseSim u;
   cs_u64 c[4] = { 0 }, d[4] = { 0 };

   small_use(&s, &u);
   CHECK_LONG(cs_use_access(&s, &u, CS_USE_I1, 0x400, 4, c), CS_LL_MISS);
   CHECK_LONG(cs_use_access(&s, &u, CS_USE_I1, 0x404, 3, c), CS_L1_HIT);
   CHECK_LONG(cs_use_access(&s, &u, CS_USE_D1, 0x10, 4, d), CS_L1_HIT);
   CHECK(u.rec[CS_USE_D1][2].cost == 0);
   /* bytes 0-6 of 16: 18 of 32 parts unused, 9 bytes */
   cs_use_finish(&s, &u);
   CHECK_COST(c, 500, 9, 500, 9);
   CHECK_COST(d, 0, 0, 0, 0);

   cs_use_clear(&s, &u);
   CHECK_SET(&s.ll, 0, 0, 1, 2, 3);
   c[0] = c[1] = c[2] = c[3] = 0;
   CHECK_LONG(cs_use_access(&s, &u, CS_USE_D1, 0x1000, 4, c), CS_LL_MISS);
   u.collect = 0;
   CHECK_LONG(cs_use_access(&s, &u, CS_USE_D1, 0x1080, 4, d), CS_LL_MISS);
   CHECK_LONG(cs_use_access(&s, &u, CS_USE_D1, 0x1100, 4, d), CS_LL_MISS);
   CHECK_COST(c, 0, 0, 0, 0);
   CHECK_LONG(u.rec[CS_USE_LL][3].count, 0);
   cs_use_finish(&s, &u);
   CHECK_COST(d, 0, 0, 0, 0);
   u.collect = 1;
   cs_use_finish(&s, &u);
   CHECK_COST(d, 2000, 24, 2000, 24);
}

/* Fetches that call no helper are counted with the one before them:
   2 more uses of bytes 4-9 of the line the fetch at 0x400 loaded. */
static void test_use_more(void)
{
   CS_Sim s;
   CS_UseSim u;
   cs_u64 c[4] = { 0 };

   small_use(&s, &u);
   CHECK_LONG(cs_use_access(&s, &u, CS_USE_I1, 0x400, 4, c), CS_LL_MISS);
   cs_use_more(&s, &u, 0x403, 2,
               cs_use_from(&s.i1, 4) & cs_use_to(&s.i1, 9));
   CHECK_LONG(u.rec[CS_USE_I1][1].count, 3);
   CHECK_LONG(u.rec[CS_USE_I1][1].mask, 0xfffffu);
   /* 1000 / 3 accesses; 12 of 32 parts unused: 6 bytes */
   cs_use_finish(&s, &u);
   CHECK_COST(c, 333, 6, 333, 6);
}

static void test_use_check(void)
{
   CS_Sim s;
   static const CS_Geometry ok = { 256, 16, 16 }, many = { 512, 32, 16 };
   cs_word t[16 + 32 + 32];

   cs_sim_init(&s, &ok, &many, &many, t);
   CHECK(cs_use_check(&s.i1) == 0);          /* 1 set: 16 slots, 4 bits */
   CHECK(cs_use_check(&s.d1) != 0);          /* 32 ways in 4 bits */
}

int main(void)
{
   test_lru_2way();
   test_lru_4way();
   test_initial_tags();
   test_direct_mapped();
   test_straddle();
   test_straddle_counted_once();
   test_hierarchy();
   test_not_inclusive();
   test_initial_tags_hierarchy();
   test_wb_evict_dirty();
   test_wb_write_through();
   test_wb_write_hit_reloads();
   test_wb_cache();
   test_wb_one_set();
   test_wb_high_addresses();
   test_count();
   test_count_misses();
   test_pf_up();
   test_pf_down();
   test_pf_wb();
   test_use_masks();
   test_use_trace();
   test_use_fetch_collect();
   test_use_more();
   test_use_check();
   test_check();
   test_tweak();
   test_parse();
   test_desc();
   test_layout();
   printf("unit: %u checks, %u failed\n", check_count, check_failed);
   return check_failed ? 1 : 0;
}
