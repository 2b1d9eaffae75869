/* cp_cachesim.h: Callgrind's cache model, exact, in plain C.

   Copyright (C) 2026 The heapsnap/callprof developers.
   SPDX-License-Identifier: GPL-2.0-or-later

   The cache simulator of callprof's --cache-sim=yes: the caches, the
   hierarchy and the geometry rules of Callgrind 3.19 (callgrind/sim.c and
   cachegrind/cg_arch.c), rewritten so that every count comes out equal
   to Callgrind's.  It includes no header at all, calls nothing outside
   itself and allocates nothing, so the same code is compiled into the
   tool (no libc) and on the host, where tests/unit/test_cachesim drives
   it with hand-checked traces.  The geometry functions (check, LL tweak,
   option parsing, description text) are in cp_cachesim.c; the accesses
   are here, always inline, because they run for every instruction and
   every data access of the client.

   The model
   ---------
   Three caches: I1 (instruction fetches), D1 (data reads and writes) and
   LL (last level, unified).  A cache of SIZE bytes, LINE bytes a line and
   ASSOC ways has SETS = SIZE / LINE / ASSOC sets; SETS and LINE are powers
   of two.  An address A lies in block A >> log2(LINE), which goes to set
   (block & (SETS - 1)).  Each set is an array of ASSOC tags, most recently
   used first:
      hit on way 0           nothing moves
      hit on way i > 0       that tag moves to the front, ways 0..i-1
                             move down one
      miss                   every way moves down one (the last, least
                             recently used, falls out) and the new tag
                             goes to the front
   Every tag starts as 0, so before anything is loaded block 0 hits in
   set 0 (Callgrind's caches start that way too; clearing resets to it).

   An access of SIZE bytes at A touches block(A) and block(A + SIZE - 1).
   When they are one block it is one reference.  When they differ the
   access straddles two lines: both are referenced (both sets updated,
   first then second) and it counts as one access, a miss if either
   missed.  SIZE must be from 1 to the smallest line size of the three
   caches, so an access never touches three lines; Callgrind's
   instrumentation caps data sizes at that minimum.

   The hierarchy: an instruction fetch references I1, a data access D1;
   only an L1 miss references LL.  The result is an L1 hit, an LL hit, or
   an LL miss (memory).  LL does not hold everything L1 holds: LL may
   evict a line that L1 still has, and nothing is invalidated in L1 then,
   so the next access to that line hits in L1 and LL never sees it.

   Write-back (Callgrind's --simulate-wb=yes) is a second set of access
   functions (the _wb ones), chosen once for the whole run: one LL state
   must only ever be used with one set.  L1 is write-through and keeps no
   dirty state; it is simulated exactly as without write-back.  LL is
   write-back with a dirty flag per line, kept in bit 0 of the LL tag (a
   line is at least 16 bytes, so the low 4 bits of an LL tag are free):
      a data write references LL even when it hits in D1 (the write goes
      through), marking the line dirty there.  That reference updates
      LL's LRU order, and if LL no longer has the line it is loaded
      again, possibly evicting a dirty line; but the access still counts
      as a D1 hit and nothing else is counted.
      a reference that misses in LL and evicts a dirty line (the least
      recently used way of the set, with its dirty bit set) is a dirty
      miss: it counts as an LL miss and also as a write-back, event
      ILdmr (fetch), DLdmr (read) or DLdmw (write).
      a read never cleans a line; a dirty line stays dirty until evicted.
   With write-back, LL's tags are Callgrind's there: the address with
   its low bits (offset in the line and set index) cleared, and with
   everything above bit 31 cleared too, because Callgrind builds that
   mask from a 32-bit constant.  So in this mode LL sees only the low 32
   bits of an address: A and A + 4 GiB are the same LL line, and since
   tags start as 0, any address whose low 32 bits are below SETS * LINE
   hits in LL the first time.  The straddle test is also Callgrind's
   there: by set numbers, so in an LL of a single set (fully associative)
   a straddling access references only its first line.  Without
   write-back none of this applies (full block numbers, block test).

   Events, as Callgrind counts them with cs_count(), for each class
   (instruction fetch, data read, data write; a modify, read then write
   of the same address by one instruction, is one write):
      Ir   I1mr  ILmr  ILdmr      every fetch, I1 misses, LL misses,
      Dr   D1mr  DLmr  DLdmr      dirty LL misses (write-back only)
      Dw   D1mw  DLmw  DLdmw
   Callgrind writes them in the order "Ir Dr Dw I1mr D1mr D1mw ILmr DLmr
   DLmw" and, with write-back, "ILdmr DLdmr DLdmw" after those.

   Prefetching (Callgrind's --simulate-hwpref=yes) is a third set of
   access functions (the _pf ones, with or without write-back), which put
   a stream detector in front of LL.  It watches the addresses that go to
   LL (L1 misses; with write-back, every data write as well, before its
   D1 reference) in 8 streams, the stream of address A being
   (A >> 12) % 8 (a stream per 4 KiB page, pages sharing streams).  Each
   stream keeps the last LL block seen (A >> log2(LL line), cut to 32
   bits) and a run length, starting at 0:
      same block as the last           nothing changes
      run 0, block = last + 1          run 1 (up)
      run 0, block = last - 1          run -1 (down)
      run > 0, block = last + 1        run + 1; from run 2 on, the line
                                       5 lines above A is referenced in
                                       LL (a one-byte access)
      run < 0, block = last - 1        run - 1; from run -2 on, the line
                                       5 lines below A likewise
      any other block                  run 0 (no new run starts here)
   and then the block becomes the stream's last.  The prefetching
   reference counts nothing and, even with write-back, uses the block
   tags of the plain model: it may push a line out of LL, dirty or not,
   without that being counted anywhere (Callgrind does the same).  The
   prefetch happens before the access's own LL reference.  Clearing the
   caches clears the streams.

   Limits, all Callgrind's: the addresses are the client's virtual
   addresses (no physical indexing, no page colouring); there is no TLB;
   there are no sectored lines; and there is one cache state for the
   whole process, shared by all threads, as if they all ran on one core.
   Cache-use statistics (--cacheuse) are in cp_cacheuse.h. */

#ifndef CP_CACHESIM_H
#define CP_CACHESIM_H

/* Valgrind's Addr and UWord are unsigned long on every platform it
   supports; Callgrind's tags are UWords. */
typedef unsigned long      cs_word;
typedef unsigned long long cs_u64;

/* The smallest line size the simulator accepts (Callgrind's
   MIN_LINE_SIZE): smaller lines would let an instruction straddle three,
   and write-back needs a free low bit in every tag. */
#define CS_MIN_LINE_SIZE 16

#define CS_INLINE static inline __attribute__((always_inline))

/* ------------------------------------------------------------------ */
/* Geometry (cp_cachesim.c)                                           */
/* ------------------------------------------------------------------ */

/* A cache as --I1/--D1/--LL give it: "SIZE,ASSOC,LINE_SIZE", in bytes,
   ways and bytes (Callgrind's cache_t, ints as there). */
typedef struct {
   int size;
   int assoc;
   int line_size;
} CS_Geometry;

/* NULL if the simulator can use G, else a one-line reason without a
   final period or newline (cachegrind's check_cache, in its order):
      "size, associativity and line size must be positive"
      "cache set count is not a power of two"
      "cache line size is not a power of two"
      "cache line size is too small (minimum 16)"
      "cache size <= line size"
      "cache associativity > (size / line size)"
   The first is ours: Callgrind divides by such values. */
const char *cs_check(const CS_Geometry *g);

/* Callgrind's fix for an auto-detected LL whose set count is not a power
   of two (maybe_tweak_LLc): the sets go down to the power of two below,
   the associativity goes up by the same factor, rounded to nearest (a
   half rounds up), and the size is recomputed from the three; with a
   power-of-two set count only the size is recomputed.  Returns 1 if G
   changed (Callgrind then warns, giving both), 0 if not; a geometry
   with a field <= 0 or no whole set is left alone.  Examples:
      12582912,16,64 (12288 sets)   -> 12582912,24,64  (8192 sets)
      5242880,48,64  (1706.67 sets) -> 5242880,80,64   (1024 sets)
   Callgrind tweaks only the detected LL, never one given with --LL
   (that one must pass cs_check as it is). */
int cs_tweak_ll(CS_Geometry *g);

/* Parse the value of --I1=, --D1= or --LL=: three decimal integers
   separated by commas, each optionally preceded by blanks and a sign (as
   Valgrind's strtoll10 reads them), then cs_check.  On success fills *G
   and returns NULL; otherwise leaves *G alone and returns a one-line
   reason: "expected SIZE,ASSOC,LINE_SIZE (three integers)", "one of the
   cache parameters was too large and overflowed", or cs_check's. */
const char *cs_parse(const char *text, CS_Geometry *g);

/* The text of Callgrind's "desc: I1 cache: TEXT" header lines (also D1
   and LL; sizes in bytes, each followed by " B"):
      "32768 B, 64 B, 8-way associative"     SIZE B, LINE B, ASSOC-way ...
      "8192 B, 64 B, direct-mapped"          when ASSOC is 1
   Writes it NUL-terminated into BUF (CS_DESC_SIZE bytes at least) and
   returns its length.  Callgrind writes the lines I1, D1, LL in that
   order between two empty lines, the first two lines after "part: N"
   being empty, and before "desc: Timerange: ..."; without cache
   simulation it still writes them, with empty text ("desc: I1 cache: ",
   with its trailing space). */
#define CS_DESC_SIZE 64
int cs_desc(const CS_Geometry *g, char *buf);

/* ------------------------------------------------------------------ */
/* Caches and the hierarchy                                           */
/* ------------------------------------------------------------------ */

typedef struct {
   cs_word  *tags;       /* sets * assoc tags, set after set, MRU first */
   unsigned  assoc;
   unsigned  line_bits;  /* log2(line size) */
   cs_word   set_mask;   /* sets - 1 */
   cs_word   wb_mask;    /* write-back tags: address & wb_mask */
   unsigned  sets;
} CS_Cache;

/* The tag words a cache of geometry G needs (sets * assoc); G must pass
   cs_check.  The caller owns the storage: the tool allocates it, the
   tests use arrays. */
cs_word cs_tag_words(const CS_Geometry *g);
/* Set C up over TAGS (cs_tag_words(G) words) and clear it. */
void cs_cache_init(CS_Cache *c, const CS_Geometry *g, cs_word *tags);
/* Every tag back to 0, as at the start. */
void cs_cache_clear(CS_Cache *c);

/* The prefetcher's streams (see above). */
#define CS_PF_STREAMS   8
#define CS_PF_PAGE_BITS 12
typedef struct {
   unsigned last[CS_PF_STREAMS];   /* last LL block, 32 bits */
   int      run[CS_PF_STREAMS];    /* > 0 up, < 0 down, 0 none */
   cs_u64   up, down;              /* prefetches made, each way */
} CS_Prefetch;

typedef struct {
   CS_Cache    i1, d1, ll;
   CS_Prefetch pf;
} CS_Sim;

/* TAGS holds cs_tag_words of the three geometries, summed. */
void cs_sim_init(CS_Sim *s, const CS_Geometry *i1, const CS_Geometry *d1,
                 const CS_Geometry *ll, cs_word *tags);
/* All three caches and the prefetcher's streams back to their start
   (Callgrind clears them when the instrumentation is switched on or
   off); the prefetch counts stay. */
void cs_sim_clear(CS_Sim *s);

/* One reference into one cache. */
typedef enum {
   CS_HIT = 0,
   CS_MISS = 1,
   CS_MISS_DIRTY = 2     /* write-back: the evicted line was dirty */
} CS_CacheResult;

/* One access through the hierarchy.  Each value implies the ones above
   it: an LL miss is also an L1 miss. */
typedef enum {
   CS_L1_HIT = 0,
   CS_LL_HIT = 1,        /* L1 miss */
   CS_LL_MISS = 2,       /* L1 and LL miss */
   CS_LL_MISS_DIRTY = 3  /* LL miss that wrote a dirty line back */
} CS_Result;

/* The kind of a write-back reference; CS_WRITE is also the dirty bit. */
enum { CS_READ = 0, CS_WRITE = 1 };

/* ------------------------------------------------------------------ */
/* The hot path                                                       */
/* ------------------------------------------------------------------ */

/* Callgrind found these worth inlining into its helpers, as Cachegrind
   did (cg_sim.c: without inlining, 40% slower); the common case, a hit
   on the most recently used way, is one load and one compare. */

/* One reference to TAG in SET (ASSOC ways), without dirty state. */
CS_INLINE CS_CacheResult cs_set_ref(cs_word *set, unsigned assoc,
                                    cs_word tag)
{
   unsigned i, j;

   if (set[0] == tag)
      return CS_HIT;
   for (i = 1; i < assoc; i++) {
      if (set[i] == tag) {
         for (j = i; j > 0; j--)
            set[j] = set[j - 1];
         set[0] = tag;
         return CS_HIT;
      }
   }
   for (j = assoc - 1; j > 0; j--)
      set[j] = set[j - 1];
   set[0] = tag;
   return CS_MISS;
}

/* The same with a dirty bit: KIND (CS_READ or CS_WRITE) is or-ed into
   the tag referenced; a miss reports whether the tag it pushed out of
   the last way was dirty. */
CS_INLINE CS_CacheResult cs_set_ref_wb(cs_word *set, unsigned assoc,
                                       cs_word tag, unsigned kind)
{
   unsigned i, j;
   cs_word t;

   if ((set[0] & ~(cs_word)CS_WRITE) == tag) {
      set[0] |= kind;
      return CS_HIT;
   }
   for (i = 1; i < assoc; i++) {
      if ((set[i] & ~(cs_word)CS_WRITE) == tag) {
         t = set[i] | kind;
         for (j = i; j > 0; j--)
            set[j] = set[j - 1];
         set[0] = t;
         return CS_HIT;
      }
   }
   t = set[assoc - 1];
   for (j = assoc - 1; j > 0; j--)
      set[j] = set[j - 1];
   set[0] = tag | kind;
   return (t & CS_WRITE) ? CS_MISS_DIRTY : CS_MISS;
}

/* An access of SIZE bytes at A to cache C: tags are block numbers. */
CS_INLINE CS_CacheResult cs_ref(CS_Cache *c, cs_word a, unsigned size)
{
   cs_word b1 = a >> c->line_bits;
   cs_word b2 = (a + size - 1) >> c->line_bits;
   CS_CacheResult r1, r2;

   r1 = cs_set_ref(c->tags + (b1 & c->set_mask) * c->assoc, c->assoc, b1);
   if (b1 == b2)
      return r1;
   r2 = cs_set_ref(c->tags + (b2 & c->set_mask) * c->assoc, c->assoc, b2);
   return r1 | r2;
}

/* The same with write-back tags (see above): the straddle test is on set
   numbers, and the worse of the two results is the access's. */
CS_INLINE CS_CacheResult cs_ref_wb(CS_Cache *c, cs_word a, unsigned size,
                                   unsigned kind)
{
   cs_word e = a + size - 1;
   cs_word s1 = (a >> c->line_bits) & c->set_mask;
   cs_word s2 = (e >> c->line_bits) & c->set_mask;
   CS_CacheResult r1, r2;

   r1 = cs_set_ref_wb(c->tags + s1 * c->assoc, c->assoc, a & c->wb_mask,
                      kind);
   if (s1 == s2)
      return r1;
   r2 = cs_set_ref_wb(c->tags + s2 * c->assoc, c->assoc, e & c->wb_mask,
                      kind);
   return r1 > r2 ? r1 : r2;
}

/* The prefetcher (see above): A goes to LL. */
CS_INLINE void cs_prefetch(CS_Sim *s, cs_word a)
{
   unsigned st = (unsigned)((a >> CS_PF_PAGE_BITS) % CS_PF_STREAMS);
   unsigned block = (unsigned)(a >> s->ll.line_bits);
   cs_word line = (cs_word)1 << s->ll.line_bits;
   CS_Prefetch *pf = &s->pf;

   if (block == pf->last[st])
      return;
   if (pf->run[st] == 0) {
      if (pf->last[st] + 1 == block)
         pf->run[st] = 1;
      else if (pf->last[st] - 1 == block)
         pf->run[st] = -1;
   } else if (pf->run[st] > 0) {
      if (pf->last[st] + 1 == block) {
         if (++pf->run[st] >= 2) {
            pf->up++;
            (void)cs_ref(&s->ll, a + 5 * line, 1);
         }
      } else
         pf->run[st] = 0;
   } else {
      if (pf->last[st] - 1 == block) {
         if (--pf->run[st] <= -2) {
            pf->down++;
            (void)cs_ref(&s->ll, a - 5 * line, 1);
         }
      } else
         pf->run[st] = 0;
   }
   pf->last[st] = block;
}

/* A fetch or a read: through L1 (I1 or D1), and on a miss through the
   prefetcher if PF, to LL, with write-back tags if WB (CS_LL_HIT + the
   LL result is then the access's).  WB and PF are constants in each
   caller below, so each inlines to its own model's path. */
CS_INLINE CS_Result cs_read_through(CS_Sim *s, CS_Cache *l1, cs_word a,
                                    unsigned size, int wb, int pf)
{
   if (cs_ref(l1, a, size) == CS_HIT)
      return CS_L1_HIT;
   if (pf)
      cs_prefetch(s, a);
   if (wb)
      return (CS_Result)(CS_LL_HIT + cs_ref_wb(&s->ll, a, size, CS_READ));
   return cs_ref(&s->ll, a, size) == CS_HIT ? CS_LL_HIT : CS_LL_MISS;
}

/* Without write-back.  A write is simulated as a read. */
CS_INLINE CS_Result cs_ifetch(CS_Sim *s, cs_word a, unsigned size)
{
   return cs_read_through(s, &s->i1, a, size, 0, 0);
}

CS_INLINE CS_Result cs_dread(CS_Sim *s, cs_word a, unsigned size)
{
   return cs_read_through(s, &s->d1, a, size, 0, 0);
}

CS_INLINE CS_Result cs_dwrite(CS_Sim *s, cs_word a, unsigned size)
{
   return cs_dread(s, a, size);
}

/* With write-back. */
CS_INLINE CS_Result cs_ifetch_wb(CS_Sim *s, cs_word a, unsigned size)
{
   return cs_read_through(s, &s->i1, a, size, 1, 0);
}

CS_INLINE CS_Result cs_dread_wb(CS_Sim *s, cs_word a, unsigned size)
{
   return cs_read_through(s, &s->d1, a, size, 1, 0);
}

CS_INLINE CS_Result cs_dwrite_wb(CS_Sim *s, cs_word a, unsigned size)
{
   if (cs_ref(&s->d1, a, size) == CS_HIT) {
      (void)cs_ref_wb(&s->ll, a, size, CS_WRITE);
      return CS_L1_HIT;
   }
   return (CS_Result)(CS_LL_HIT + cs_ref_wb(&s->ll, a, size, CS_WRITE));
}

/* With prefetching, without and with write-back. */
CS_INLINE CS_Result cs_ifetch_pf(CS_Sim *s, cs_word a, unsigned size)
{
   return cs_read_through(s, &s->i1, a, size, 0, 1);
}

CS_INLINE CS_Result cs_dread_pf(CS_Sim *s, cs_word a, unsigned size)
{
   return cs_read_through(s, &s->d1, a, size, 0, 1);
}

CS_INLINE CS_Result cs_dwrite_pf(CS_Sim *s, cs_word a, unsigned size)
{
   return cs_dread_pf(s, a, size);
}

CS_INLINE CS_Result cs_ifetch_wb_pf(CS_Sim *s, cs_word a, unsigned size)
{
   return cs_read_through(s, &s->i1, a, size, 1, 1);
}

CS_INLINE CS_Result cs_dread_wb_pf(CS_Sim *s, cs_word a, unsigned size)
{
   return cs_read_through(s, &s->d1, a, size, 1, 1);
}

/* A write goes through to LL whether it hits D1 or not, so the
   prefetcher sees every one. */
CS_INLINE CS_Result cs_dwrite_wb_pf(CS_Sim *s, cs_word a, unsigned size)
{
   cs_prefetch(s, a);
   return cs_dwrite_wb(s, a, size);
}

/* Add an access with result R to the events EV of its class: EV[0]
   (Ir, Dr or Dw) always, EV[1] (I1mr, D1mr, D1mw) on an L1 miss, EV[2]
   (ILmr, DLmr, DLmw) on an LL miss, EV[3] (ILdmr, DLdmr, DLdmw) on a
   dirty LL miss, which only the _wb functions return (so without
   write-back EV needs 3 counters).  cs_count_misses counts the misses
   alone, into EV[0..2] (callprof counts a fetch's access apart). */
CS_INLINE void cs_count_misses(CS_Result r, cs_u64 *ev)
{
   if (r >= CS_LL_HIT) {
      ev[0]++;
      if (r >= CS_LL_MISS) {
         ev[1]++;
         if (r == CS_LL_MISS_DIRTY)
            ev[2]++;
      }
   }
}

CS_INLINE void cs_count(CS_Result r, cs_u64 *ev)
{
   ev[0]++;
   cs_count_misses(r, ev + 1);
}

#endif /* CP_CACHESIM_H */
