/* cp_cacheuse.h: how much of each cache line is used (--cacheuse=yes).

   Copyright (C) 2026 The heapsnap/callprof developers.
   SPDX-License-Identifier: GPL-2.0-or-later

   Callgrind's cache-use statistics (callgrind/sim.c, "Cache Simulation
   with use metric collection"), on the caches of cp_cachesim.h, in
   plain C like them: no header, no library, no allocation, so that
   tests/unit/test_cachesim checks it on the host.

   What it measures
   ----------------
   Every line loaded into a cache remembers which instruction loaded it
   (its "loader", in the context it ran in) and, until it is evicted,
   how often it was accessed and which of its bytes were.  When it is
   evicted, the loader is charged:
      AcCost  1000 / accesses    (1000 for a line used once: the cost
                                  of a miss spread over the uses)
      SpLoss  bytes never used   (line size * unused 32nds of the line)
   I1 and D1 lines charge AcCost1 and SpLoss1 (one pair for both), LL
   lines AcCost2 and SpLoss2.  The charge goes to the loader's four
   counters, in the order AcCost1 SpLoss1 AcCost2 SpLoss2, and only if
   the thread that runs when the line is evicted collects; at the end
   (cs_use_finish) every line still in a cache is charged as if
   evicted.  These are self costs only: Callgrind does not add them to
   the inclusive costs of calls, and neither does callprof.

   The bytes used are 32 bits per line: bit i stands for the i-th 32nd
   of the line (several bits per byte in a line shorter than 32 bytes,
   several bytes per bit in a longer one).  An access from offset F to
   offset L of a line sets the bits from F * 32 / LINE to
   L * 32 / LINE, and the loss is ((32 - bits set) * LINE) >> 5.

   An LL line counts no accesses of its own: when an L1 line is evicted
   (and charged), its accesses and bits are added to the LL slot it was
   loaded through, so an LL line's AcCost is 1000 over the accesses of
   the L1 lines that came from it.

   The model's details, all Callgrind's, which change counts:
   - The caches are the plain model's (LRU, write-allocate, L1 misses
     go to LL; a write is simulated as a read), but every cache uses
     write-back's tags (cp_cachesim.h): the address with its low bits
     cleared and cut to 32 bits, so that the low bits of each tag can
     hold the tag's slot, the index of the way it was loaded into, which
     holds its use record and moves with it through the LRU order.
     Tags start as their slot (the address part 0), as after a clear.
   - An access to an L1 is one line or two by its set numbers (as in
     write-back); the two lines of a straddling access are charged with
     the bits of their own part, the first from the start offset, the
     second up to the end offset.  Its result is the first line's if the
     second hits in L1, else a miss, an LL miss if either line missed
     LL.
   - LL is referenced with the L1 line's address (the first byte of the
     L1 line), once per L1 line missed, and the L1 line remembers the LL
     slot that reference ended in, even if LL evicts it later.
   - A load of the line at address 0 (the first line of memory) does
     not reference LL.
   - A line's loader counts from its load: a line evicted, or finished,
     while its accesses are 0 charges nothing (LL lines start at 0, L1
     lines at 1, the access that loaded them). */

#ifndef CP_CACHEUSE_H
#define CP_CACHEUSE_H

#include "cp_cachesim.h"

/* The use record of one slot (way) of a cache. */
typedef struct {
   cs_u64  *cost;    /* the loader's AcCost1 SpLoss1 AcCost2 SpLoss2;
                        NULL: none */
   unsigned mask;    /* the 32nds of the line used */
   unsigned count;   /* accesses since the load */
   unsigned dep;     /* an L1 line's LL slot (index in LL's records) */
} CS_Use;

typedef struct {
   CS_Use *rec[3];   /* I1, D1, LL: sets * assoc records each */
   int     collect;  /* the running thread collects: charges are made */
} CS_UseSim;

enum { CS_USE_I1, CS_USE_D1, CS_USE_LL };

/* NULL if cache C can keep use records (its tags have room for a way
   index below the address bits), else a one-line reason. */
const char *cs_use_check(const CS_Cache *c);
/* Set U up for S's caches (initialised, and passing cs_use_check), over
   RECS: cs_tag_words of the three geometries summed; clear them. */
void cs_use_init(CS_Sim *s, CS_UseSim *u, CS_Use *recs);
/* Back to the start, caches and records (the prefetcher is not used
   with cache use, see cp_sim.c): loaders are forgotten uncharged. */
void cs_use_clear(CS_Sim *s, CS_UseSim *u);
/* The end of the run: if U collects, every loaded line is charged, L1
   lines first (adding their use to LL), then LL; then forgotten. */
void cs_use_finish(CS_Sim *s, CS_UseSim *u);

/* ------------------------------------------------------------------ */
/* The accesses                                                        */
/* ------------------------------------------------------------------ */

CS_INLINE unsigned cs_use_bits(unsigned x)
{
   x = x - ((x >> 1) & 0x55555555u);
   x = (x & 0x33333333u) + ((x >> 2) & 0x33333333u);
   x = (x + (x >> 4)) & 0x0f0f0f0fu;
   return (x * 0x01010101u) >> 24;
}

/* The bits of a line from byte OFF to its end, and from its start to
   byte OFF (C's line size is 2^line_bits). */
CS_INLINE unsigned cs_use_from(const CS_Cache *c, cs_word off)
{
   return 0xffffffffu << (unsigned)((off << 5) >> c->line_bits);
}

CS_INLINE unsigned cs_use_to(const CS_Cache *c, cs_word off)
{
   cs_word line = (cs_word)1 << c->line_bits;
   return 0xffffffffu >> (unsigned)(((line - 1 - off) << 5) >> c->line_bits);
}

/* Charge the line of record X, of cache C, to its loader: AcCost and
   SpLoss at COST[K], COST[K + 1]; nothing if it was not accessed since
   its load or has no loader, or U does not collect.  Returns whether it
   charged. */
CS_INLINE int cs_use_charge(const CS_UseSim *u, const CS_Cache *c,
                            const CS_Use *x, unsigned k)
{
   if (x->count == 0 || !u->collect || x->cost == 0)
      return 0;
   x->cost[k] += 1000 / x->count;
   x->cost[k + 1] += ((32 - cs_use_bits(x->mask)) << c->line_bits) >> 5;
   return 1;
}

/* The same for an L1 line, whose use, once charged, is added to the LL
   line it was loaded through. */
CS_INLINE void cs_use_charge_l1(const CS_UseSim *u, const CS_Cache *c,
                                const CS_Use *x)
{
   if (cs_use_charge(u, c, x, 0)) {
      CS_Use *y = &u->rec[CS_USE_LL][x->dep];
      y->mask |= x->mask;
      y->count += x->count;
   }
}

/* Find TAG in set SETNO of C, LRU as ever; on a miss load it into the
   least recently used way.  Returns the record index (set * assoc +
   slot) and sets *HIT. */
CS_INLINE unsigned cs_use_ref(CS_Cache *c, cs_word setno, cs_word tag,
                              int *hit)
{
   cs_word *set = c->tags + setno * c->assoc;
   cs_word low = ~c->wb_mask, t;
   unsigned i, j;

   for (i = 0; i < c->assoc; i++) {
      if ((set[i] & c->wb_mask) == tag) {
         t = set[i];
         for (j = i; j > 0; j--)
            set[j] = set[j - 1];
         set[0] = t;
         *hit = 1;
         return (unsigned)(setno * c->assoc + (t & low));
      }
   }
   t = set[c->assoc - 1] & low;
   for (j = c->assoc - 1; j > 0; j--)
      set[j] = set[j - 1];
   set[0] = tag | t;
   *hit = 0;
   return (unsigned)(setno * c->assoc + t);
}

/* The LL reference of an L1 miss of the line at MEMLINE, whose L1
   record is X. */
CS_INLINE CS_Result cs_use_ll(CS_Sim *s, CS_UseSim *u, cs_word memline,
                              CS_Use *x, cs_u64 *cost)
{
   CS_Cache *c = &s->ll;
   int hit;
   unsigned idx = cs_use_ref(c, (memline >> c->line_bits) & c->set_mask,
                             memline & c->wb_mask, &hit);
   CS_Use *y = &u->rec[CS_USE_LL][idx];

   x->dep = idx;
   if (hit)
      return CS_LL_HIT;
   (void)cs_use_charge(u, c, y, 2);
   y->count = 0;
   y->mask = 0;
   y->cost = cost;
   return CS_LL_MISS;
}

/* One line of an L1 access: TAG in set SETNO of L1 cache K, using the
   bits MASK of the line at MEMLINE. */
CS_INLINE CS_Result cs_use_line(CS_Sim *s, CS_UseSim *u, unsigned k,
                                cs_word setno, cs_word tag, unsigned mask,
                                cs_word memline, cs_u64 *cost)
{
   CS_Cache *c = k == CS_USE_I1 ? &s->i1 : &s->d1;
   int hit;
   CS_Use *x = &u->rec[k][cs_use_ref(c, setno, tag, &hit)];

   if (hit) {
      x->count++;
      x->mask |= mask;
      return CS_L1_HIT;
   }
   cs_use_charge_l1(u, c, x);
   x->count = 1;
   x->mask = mask;
   x->cost = cost;
   if (memline == 0)
      return CS_LL_HIT;
   return cs_use_ll(s, u, memline, x, cost);
}

/* An access of SIZE bytes at A to L1 cache K (CS_USE_I1 for a fetch,
   CS_USE_D1 for a read or a write), made by the instruction whose four
   use counters are COST. */
CS_INLINE CS_Result cs_use_access(CS_Sim *s, CS_UseSim *u, unsigned k,
                                  cs_word a, unsigned size, cs_u64 *cost)
{
   CS_Cache *c = k == CS_USE_I1 ? &s->i1 : &s->d1;
   cs_word e = a + size - 1;
   cs_word off_mask = ((cs_word)1 << c->line_bits) - 1;
   cs_word s1 = (a >> c->line_bits) & c->set_mask;
   cs_word s2 = (e >> c->line_bits) & c->set_mask;
   CS_Result r1, r2;

   if (s1 == s2)
      return cs_use_line(s, u, k, s1, a & c->wb_mask,
                         cs_use_from(c, a & off_mask)
                         & cs_use_to(c, e & off_mask),
                         a & ~off_mask, cost);
   r1 = cs_use_line(s, u, k, s1, a & c->wb_mask,
                    cs_use_from(c, a & off_mask), a & ~off_mask, cost);
   r2 = cs_use_line(s, u, k, s2, e & c->wb_mask,
                    cs_use_to(c, e & off_mask), e & ~off_mask, cost);
   if (r2 == CS_L1_HIT)
      return r1;
   return r1 == CS_LL_MISS || r2 == CS_LL_MISS ? CS_LL_MISS : CS_LL_HIT;
}

/* N more fetches, using the parts MASK of the I1 line of address A,
   which the last access left most recently used in its set: N hits on
   it, counted at once (callprof leaves out fetches that stay in the
   line their predecessor ended in). */
CS_INLINE void cs_use_more(CS_Sim *s, CS_UseSim *u, cs_word a, unsigned n,
                           unsigned mask)
{
   CS_Cache *c = &s->i1;
   cs_word setno = (a >> c->line_bits) & c->set_mask;
   cs_word way0 = c->tags[setno * c->assoc];
   CS_Use *x = &u->rec[CS_USE_I1][setno * c->assoc + (way0 & ~c->wb_mask)];

   x->count += n;
   x->mask |= mask;
}

#endif /* CP_CACHEUSE_H */
