/* cp_sim.c: cache simulation in callprof (--cache-sim=yes), Callgrind's.

   Copyright (C) 2026 The heapsnap/callprof developers.
   SPDX-License-Identifier: GPL-2.0-or-later

   The model is cp_cachesim.c's (Callgrind's: I1, D1 and LL, LRU within
   each set, write-allocate, an access straddling two lines counted
   once).  This file configures it and counts its results:

   Geometry.  As Callgrind (cachegrind/cg_arch.c): the core's detected
   cache info gives I1 (level 1, instructions), D1 (level 1, data) and LL
   (the unified cache of the last level); an LL whose set count is not a
   power of two is adjusted (more ways, fewer sets, about the same size)
   with a warning; --I1, --D1 and --LL replace what they name.  Without
   cache info, Callgrind's defaults for the architecture, with its
   warning.  The result goes into the profile as Callgrind writes it:
      desc: I1 cache: 32768 B, 64 B, 8-way associative

   Events.  With simulation the events are Callgrind's
      Ir Dr Dw I1mr D1mr D1mw ILmr DLmr DLmw [ILdmr DLdmr DLdmw]
   at indices 0..8 (CP_EV_DR...), and 9..11 with --simulate-wb (LL
   misses that evict a dirty line: Callgrind's write-back model, in
   which only LL keeps dirty lines).

   The instrumentation (cp_bb.c) calls a helper per instruction fetch
   and per data access, in program order, as Callgrind's queued events
   come out (but for fetches that cannot change anything, see
   CP_(sim_fetch_needed), and fetches that find their line most
   recently used in its I1 set, which generated code tests itself: see
   CP_SimHelpers in cp.h): a write of the same size to
   the same address as the read just before it in one instruction (a
   read-modify-write) is one write, as Callgrind counts it.  Each helper
   is given the instruction's counters in the block's current context
   (CP_SimInstr.off into the block's counter array, the same array its
   run counters are in), three per class of access, four with
   --simulate-wb:
      fetch:  accesses  I1mr  ILmr  [ILdmr]   (the fetch count is not
      read:   Dr        D1mr  DLmr  [DLdmr]    used: Ir comes from the
      write:  Dw        D1mw  DLmw  [DLdmw]    run counters)
   and adds the same events to the running thread's totals, from which
   calls get their inclusive costs (cp_calls.c), while it collects.

   Models.  The options choose one set of helpers for the whole run
   (CP_(sim_helpers)), so that the plain model's helpers test no option:
   plain, write-back (--simulate-wb), prefetching (--simulate-hwpref,
   cp_cachesim.h), both, or cache use (--cacheuse, cp_cacheuse.h), which
   Callgrind does not combine with the other two: it warns and drops
   them.  Cache use adds four counters per instruction after the branch
   counters: AcCost1 SpLoss1 AcCost2 SpLoss2, charged to the instruction
   that loaded a line when the line leaves the cache, not to the running
   thread's totals (so no call gets them inclusive, as in Callgrind).
   Its hits change state (a use is counted): the fetches left out count
   theirs with the fetch before them (CP_(sim_use_more)).

   Limits, as Callgrind's: virtual addresses, no TLB, one cache state for
   all threads (threads take turns, so their accesses interleave as they
   ran). */

#include "pub_tool_basics.h"
#include "pub_tool_libcassert.h"
#include "pub_tool_libcbase.h"
#include "pub_tool_libcprint.h"
#include "pub_tool_machine.h"
#include "pub_tool_mallocfree.h"
#include "pub_tool_options.h"

#include "clo.h"
#include "cp.h"
#include "cp_cachesim.h"
#include "cp_cacheuse.h"

Bool   CP_(clo_cache_sim) = False;
Bool   CP_(clo_simulate_wb) = False;
Bool   CP_(clo_simulate_hwpref) = False;
Bool   CP_(clo_cacheuse) = False;
Bool   CP_(clo_branch_sim) = False;
ULong *CP_(sim_ev);
const CP_SimHelpers *CP_(sim_helpers);

enum { I1, D1, LL };
static const HChar *const cache_name[3] = { "I1", "D1", "LL" };
static CS_Geometry clo_geom[3];
static Bool        clo_given[3];
static CS_Geometry geom[3];
static CS_Sim      sim;
static CS_UseSim   use;
static HChar       desc_text[3][CS_DESC_SIZE + 16];
static UInt        min_line;

static const CP_SimHelpers *model_helpers(void);

/*------------------------------------------------------------*/
/*--- Options and geometry                                 ---*/
/*------------------------------------------------------------*/

/* As in Callgrind, any option of the cache simulator itself (--I1,
   --D1, --LL, --simulate-wb ..., whatever its value) switches cache
   simulation on, until a later --cache-sim=no. */
Bool CP_(sim_option)(const HChar *arg)
{
   const HChar *v;
   Int k;
   if (clo_match(arg, "--cache-sim", &v) ||
       clo_match(arg, "--simulate-cache", &v)) {
      CP_(clo_cache_sim) = clo_bool(arg, v);
      return True;
   }
   if (clo_match(arg, "--branch-sim", &v)) {
      CP_(clo_branch_sim) = clo_bool(arg, v);
      return True;
   }
   if (clo_match(arg, "--simulate-wb", &v))
      CP_(clo_simulate_wb) = clo_bool(arg, v);
   else if (clo_match(arg, "--simulate-hwpref", &v))
      CP_(clo_simulate_hwpref) = clo_bool(arg, v);
   else if (clo_match(arg, "--simulate-sectors", &v))
      (void)clo_bool(arg, v);     /* Callgrind takes it and ignores it */
   else if (clo_match(arg, "--cacheuse", &v)) {
      /* As Callgrind: use counts are per instruction, so they switch
         --dump-instr on (a later --dump-instr=no switches it off). */
      CP_(clo_cacheuse) = clo_bool(arg, v);
      if (CP_(clo_cacheuse))
         CP_(clo_dump_instr) = True;
   }
   else if ((k = I1, clo_match(arg, "--I1", &v)) ||
            (k = D1, clo_match(arg, "--D1", &v)) ||
            (k = LL, clo_match(arg, "--LL", &v)) ||
            (k = LL, clo_match(arg, "--L2", &v))) {
      const HChar *err = cs_parse(v, &clo_geom[k]);
      if (err)
         clo_reject(arg, err);
      clo_given[k] = True;
   }
   else
      return False;
   CP_(clo_cache_sim) = True;
   return True;
}

static const VexCache *find_cache(const VexCacheInfo *ci, VexCacheKind kind,
                                  UInt level)
{
   UInt i;
   for (i = 0; i < ci->num_caches; i++)
      if (ci->caches[i].level == level && ci->caches[i].kind == kind)
         return &ci->caches[i];
   return NULL;
}

/* The machine's caches, as Callgrind reads them. */
static void machine_caches(void)
{
   VexArchInfo vai;
   const VexCacheInfo *ci;
   const VexCache *i1, *d1, *ll;

   VG_(machine_get_VexArchInfo)(NULL, &vai);
   ci = &vai.hwcache_info;
   i1 = find_cache(ci, INSN_CACHE, 1);
   d1 = find_cache(ci, DATA_CACHE, 1);
   ll = find_cache(ci, UNIFIED_CACHE, ci->num_levels);
   if (ci->num_caches > 0 && ll == NULL)
      VG_(dmsg)("warning: L2 cache not installed, ignore LL results.\n");
   if (ll && ci->num_levels > 2)
      VG_(dmsg)("warning: L%u cache found, using its data for the "
                "LL simulation.\n", ci->num_levels);
   if (i1 && d1 && ll && !i1->is_trace_cache) {
      geom[I1] = (CS_Geometry){ (int)i1->sizeB, (int)i1->assoc,
                                (int)i1->line_sizeB };
      geom[D1] = (CS_Geometry){ (int)d1->sizeB, (int)d1->assoc,
                                (int)d1->line_sizeB };
      geom[LL] = (CS_Geometry){ (int)ll->sizeB, (int)ll->assoc,
                                (int)ll->line_sizeB };
      return;
   }
   /* Callgrind's defaults for amd64 and x86. */
   geom[I1] = (CS_Geometry){ 65536, 2, 64 };
   geom[D1] = (CS_Geometry){ 65536, 2, 64 };
   geom[LL] = (CS_Geometry){ 262144, 8, 64 };
   if (!(clo_given[I1] && clo_given[D1] && clo_given[LL]))
      VG_(dmsg)("Warning: Cannot auto-detect cache config, using "
                "defaults.\n         Run with -v to see.\n");
}

void CP_(sim_post_clo_init)(void)
{
   CS_Geometry before;
   cs_word *tags, slots;
   Int k;

   /* Callgrind's warnings, and its choice: cache use wins. */
   if (CP_(clo_cache_sim) && CP_(clo_cacheuse) && CP_(clo_simulate_hwpref)) {
      VG_(dmsg)("warning: prefetch simulation can not be used with cache "
                "usage\n");
      CP_(clo_simulate_hwpref) = False;
   }
   if (CP_(clo_cache_sim) && CP_(clo_cacheuse) && CP_(clo_simulate_wb)) {
      VG_(dmsg)("warning: write-back simulation can not be used with "
                "cache usage\n");
      CP_(clo_simulate_wb) = False;
   }
   if (!CP_(clo_cache_sim))
      return;
   machine_caches();
   before = geom[LL];
   if (cs_tweak_ll(&geom[LL]) && (before.size != geom[LL].size ||
                                  before.assoc != geom[LL].assoc)) {
      VG_(dmsg)("warning: specified LL cache: line_size %d  assoc %d  "
                "total_size %'d\n", before.line_size, before.assoc,
                before.size);
      VG_(dmsg)("warning: simulated LL cache: line_size %d  assoc %d  "
                "total_size %'d\n", geom[LL].line_size, geom[LL].assoc,
                geom[LL].size);
   }
   for (k = 0; k < 3; k++) {
      const HChar *err = cs_check(&geom[k]);
      if (err && !clo_given[k]) {
         VG_(umsg)("callprof: the detected %s cache (%d B, %d-way, %d B "
                   "lines) cannot be simulated: %s; give it with --%s=\n",
                   cache_name[k], geom[k].size, geom[k].assoc,
                   geom[k].line_size, err, cache_name[k]);
         VG_(exit)(1);
      }
      if (clo_given[k])
         geom[k] = clo_geom[k];
   }
   min_line = (UInt)geom[I1].line_size;
   for (k = 1; k < 3; k++)
      if ((UInt)geom[k].line_size < min_line)
         min_line = (UInt)geom[k].line_size;
   /* As Callgrind: a register-wide access must not straddle more than
      two lines. */
   if (min_line < VG_(machine_get_size_of_largest_guest_register)()) {
      VG_(umsg)("callprof: cannot simulate lines of %u B: the smallest "
                "line must hold the largest register (%u B)\n", min_line,
                VG_(machine_get_size_of_largest_guest_register)());
      VG_(exit)(1);
   }
   slots = cs_tag_words(&geom[I1]) + cs_tag_words(&geom[D1])
           + cs_tag_words(&geom[LL]);
   tags = VG_(malloc)("cp.sim.tags", slots * sizeof(cs_word));
   cs_sim_init(&sim, &geom[I1], &geom[D1], &geom[LL], tags);
   if (CP_(clo_cacheuse)) {
      for (k = 0; k < 3; k++) {
         const CS_Cache *c = k == I1 ? &sim.i1 : k == D1 ? &sim.d1 : &sim.ll;
         const HChar *err = cs_use_check(c);
         if (err) {
            VG_(umsg)("callprof: --cacheuse=yes: %s cache (%d B, %d-way, "
                      "%d B lines): %s\n", cache_name[k], geom[k].size,
                      geom[k].assoc, geom[k].line_size, err);
            VG_(exit)(1);
         }
      }
      cs_use_init(&sim, &use, VG_(malloc)("cp.sim.use",
                                          slots * sizeof(CS_Use)));
   }
   CP_(sim_helpers) = model_helpers();
   for (k = 0; k < 3; k++) {
      Int n = VG_(sprintf)(desc_text[k], "%s cache: ", cache_name[k]);
      cs_desc(&geom[k], desc_text[k] + n);
   }
   if (VG_(clo_verbosity) >= 2) {
      VG_(umsg)("Cache configuration used:\n");
      for (k = 0; k < 3; k++)
         VG_(umsg)("  %s: %'d B, %d-way, %d B lines\n", cache_name[k],
                   geom[k].size, geom[k].assoc, geom[k].line_size);
   }
}

void CP_(sim_i1)(CP_SimI1 *i1)
{
   STATIC_ASSERT(sizeof(cs_word) == sizeof(ULong));   /* 64-bit tags */
   i1->tags = (const ULong *)sim.i1.tags;
   i1->line_bits = sim.i1.line_bits;
   i1->assoc = sim.i1.assoc;
   i1->set_mask = sim.i1.set_mask;
}

const HChar *CP_(sim_desc)(Int k)
{
   return desc_text[k];
}

UInt CP_(sim_min_line)(void)
{
   return min_line;
}

/* Whether the fetch of instruction K of block B needs simulating: not
   when it lies in the line the fetch of instruction K-1 ended in.  That
   fetch ran just before (instructions of a block run in a row) and left
   its line most recently used in its I1 set, so this fetch would hit it
   there, where a hit moves nothing and counts no miss.  Most fetches are
   such, so most instructions call no fetch helper at all. */
Bool CP_(sim_fetch_needed)(const CP_Block *b, UInt k)
{
   UInt bits = sim.i1.line_bits;
   Addr first, last, prev;
   if (k == 0)
      return True;
   /* --cacheuse: a hit counts a use; the fetches left out are counted
      by the one before them, only within a run (CP_(sim_use_more)). */
   if (CP_(clo_cacheuse) && b->run_of[k] != b->run_of[k - 1])
      return True;
   first = b->sim[k].addr >> bits;
   last = (b->sim[k].addr + b->sim[k].len - 1) >> bits;
   prev = (b->sim[k - 1].addr + b->sim[k - 1].len - 1) >> bits;
   return first != prev || last != prev;
}

/* The fetches that call no helper still count a use each, of the line
   their predecessor ended in: a hit on its most recently used way.
   Nothing else touches I1 between them (data goes to D1, and only a
   fetch can evict an I1 line), so the first fetch's helper counts them
   all at once, as long as they surely run: in the same run, with no
   side exit between. */
void CP_(sim_use_more)(CP_Block *b)
{
   cs_word m = ((cs_word)1 << sim.i1.line_bits) - 1;  /* offset in line */
   UInt k, j;
   if (!CP_(clo_cacheuse) || !CP_(clo_cache_sim))
      return;
   for (k = 0; k < b->n_instrs; k++) {
      CP_SimUse *u = &b->use[k];
      u->more = 0;
      u->mask = 0;
      if (!CP_(sim_fetch_needed)(b, k))
         continue;
      for (j = k + 1; j < b->n_instrs && !CP_(sim_fetch_needed)(b, j);
           j++) {
         u->more++;
         u->mask |= cs_use_from(&sim.i1, b->sim[j].addr & m)
                    & cs_use_to(&sim.i1,
                                (b->sim[j].addr + b->sim[j].len - 1) & m);
      }
   }
}

void CP_(sim_clear)(void)
{
   if (!CP_(clo_cache_sim))
      return;
   cs_sim_clear(&sim);
   if (CP_(clo_cacheuse))
      cs_use_clear(&sim, &use);
}

void CP_(sim_finish)(void)
{
   if (CP_(clo_cache_sim) && CP_(clo_cacheuse)) {
      use.collect = CP_(collecting)();
      cs_use_finish(&sim, &use);
   }
   if (VG_(clo_verbosity) >= 2 && CP_(clo_cache_sim)
       && CP_(clo_simulate_hwpref)) {
      VG_(dmsg)("Prefetch Up:       %llu\n", sim.pf.up);
      VG_(dmsg)("Prefetch Down:     %llu\n", sim.pf.down);
   }
}

/*------------------------------------------------------------*/
/*--- The helpers                                          ---*/
/*------------------------------------------------------------*/

/* Add an access of class K (0 fetch, 1 read, 2 write) with result R to
   the instruction's counters C (those of its class: a fetch's are its
   misses only) and to the thread's events. */
static inline void count(CS_Result r, ULong *c, Int k)
{
   ULong *ev = CP_(sim_ev);
   static const Int base_ev[3] = { -1, CP_EV_DR, CP_EV_DW };
   if (k == 0)
      cs_count_misses(r, (cs_u64 *)c);
   else
      cs_count(r, (cs_u64 *)c);
   if (ev == NULL)
      return;
   if (k > 0)
      ev[base_ev[k]]++;
   if (r >= CS_LL_HIT) {
      ev[CP_EV_I1MR + k]++;
      if (r >= CS_LL_MISS) {
         ev[CP_EV_ILMR + k]++;
         if (r == CS_LL_MISS_DIRTY)
            ev[CP_EV_ILDMR + k]++;
      }
   }
}

/* Each class's counters (cp_events.c): access (not for a fetch), L1
   miss, LL miss, and a dirty LL miss with --simulate-wb; an
   instruction's fetch's at its fe, its reads' at its rd, its writes' at
   its wr (present whenever the instrumentation calls the helper for
   them). */
#define CLASS(ii, k) ((k) == 0 ? (ii)->fe : (k) == 1 ? (ii)->rd : (ii)->wr)

/* The helpers of each model, chosen once (CP_(sim_helpers)), so that
   the plain model's helpers test no option: FETCH, READ and WRITE are
   cp_cachesim.h's access functions of the model.  Each starts a 64-byte
   line (HOT), so that where they fall does not move with the code
   before them: a change elsewhere in the tool (the chained exits of
   include/ir_chain.h, whose own effect with simulation was 0.99 to
   1.01) took perl 1.034 and python3 1.013 of the build before's time
   with --cache-sim=yes with the exits left out; with the helpers
   aligned and the exits in, 0.983 and 1.015. */
#define HOT __attribute__((aligned(64)))
#define MODEL_HELPERS(sfx, FETCH, READ, WRITE)                              \
static HOT VG_REGPARM(2) void fetch_##sfx(const CP_SimInstr *ii,            \
                                          ULong *base)                      \
{                                                                           \
   count(FETCH(&sim, ii->addr, ii->len), base + ii->off + ii->fe, 0);      \
}                                                                           \
static HOT VG_REGPARM(3) void read_##sfx(const CP_SimInstr *ii, ULong *base,\
                                         Addr a, UWord size)                \
{                                                                           \
   count(READ(&sim, a, (unsigned)size), base + ii->off + ii->rd, 1);        \
}                                                                           \
static HOT VG_REGPARM(3) void write_##sfx(const CP_SimInstr *ii, ULong *base,\
                                          Addr a, UWord size)               \
{                                                                           \
   count(WRITE(&sim, a, (unsigned)size), base + ii->off + ii->wr, 2);       \
}

MODEL_HELPERS(plain, cs_ifetch, cs_dread, cs_dwrite)
MODEL_HELPERS(wb, cs_ifetch_wb, cs_dread_wb, cs_dwrite_wb)
MODEL_HELPERS(pf, cs_ifetch_pf, cs_dread_pf, cs_dwrite_pf)
MODEL_HELPERS(wb_pf, cs_ifetch_wb_pf, cs_dread_wb_pf, cs_dwrite_wb_pf)

/* --cacheuse: an access of class K (0 fetch, 1 read, 2 write: a write
   is simulated as a read) of SIZE bytes at A.  The instruction's use
   counters (AcCost1 SpLoss1 AcCost2 SpLoss2) are the loader counters of
   the lines it loads; whether the thread collects decides whether
   evictions charge. */
static inline void use_access(const CP_SimInstr *ii, ULong *base, Addr a,
                              UWord size, Int k)
{
   use.collect = CP_(sim_ev) != NULL;
   count(cs_use_access(&sim, &use, k == 0 ? CS_USE_I1 : CS_USE_D1, a,
                       (unsigned)size,
                       (cs_u64 *)base + ii->off + ii->us),
         base + ii->off + CLASS(ii, k), k);
}

static VG_REGPARM(3) void fetch_use(const CP_SimInstr *ii, ULong *base,
                                    const CP_SimUse *u)
{
   use_access(ii, base, ii->addr, ii->len, 0);
   if (u->more)
      cs_use_more(&sim, &use, ii->addr + ii->len - 1, u->more, u->mask);
}

static VG_REGPARM(3) void read_use(const CP_SimInstr *ii, ULong *base,
                                   Addr a, UWord size)
{
   use_access(ii, base, a, size, 1);
}

static VG_REGPARM(3) void write_use(const CP_SimInstr *ii, ULong *base,
                                    Addr a, UWord size)
{
   use_access(ii, base, a, size, 2);
}

enum { MODEL_WB = 1, MODEL_PF = 2, MODEL_USE = 4 };
#define HELPERS(sfx, mru) { "cp_sim_fetch_" #sfx, "cp_sim_read_" #sfx,       \
                            "cp_sim_write_" #sfx, fetch_##sfx, read_##sfx,     \
                            write_##sfx, mru }
static const CP_SimHelpers *model_helpers(void)
{
   /* A fetch's hit in I1 changes nothing but with --cacheuse (cp.h). */
   static const CP_SimHelpers helpers[MODEL_USE + 1] = {
      HELPERS(plain, True), HELPERS(wb, True), HELPERS(pf, True),
      HELPERS(wb_pf, True), HELPERS(use, False),
   };
   if (CP_(clo_cacheuse))
      return &helpers[MODEL_USE];
   return &helpers[(CP_(clo_simulate_wb) ? MODEL_WB : 0)
                   + (CP_(clo_simulate_hwpref) ? MODEL_PF : 0)];
}

/*------------------------------------------------------------*/
/*--- Branch prediction (--branch-sim=yes)                 ---*/
/*------------------------------------------------------------*/

/* Callgrind's predictors (Cachegrind's, cg_branchpred.c).  Conditional
   branches: 16384 two-bit saturating counters, indexed by the low 7 bits
   of the branch's address and the last 7 outcomes of all conditional
   branches (global history); taken is predicted when the counter is 2
   or 3.  Indirect branches (a jump or call to a computed address; not
   returns, taken as always predicted): a table of 512 last targets,
   indexed by the low 9 bits of the branch's address.  Both start
   zeroed. */
static UWord history;
static UChar counters[1 << 14];
static Addr  targets[1 << 9];

/* C is the branch's instruction's counters Bc Bcm Bi Bim (after its
   cache counters) and LOW the low bits of its address: the
   instrumentation computes both, so that the helpers load nothing of
   the instruction. */
/* GCC would pair the two counter updates in one SSE add, which costs
   more here than two adds to memory. */
#if defined(__GNUC__) && !defined(__clang__)
#define SCALAR __attribute__((optimize("no-tree-slp-vectorize")))
#else
#define SCALAR
#endif

SCALAR VG_REGPARM(3) void CP_(sim_cond)(ULong *c, UWord low, UWord taken)
{
   /* The counter's next value, [taken][value]: no host branch on the
      guest's outcome, which would be mispredicted as often as that. */
   static const UChar next[2][4] = { { 0, 0, 1, 2 }, { 1, 2, 3, 3 } };
   UWord i = ((history & 0x7f) << 7) | low;
   UWord now = counters[i];
   UWord miss = (now >> 1) ^ taken;
   ULong *ev = CP_(sim_ev);

   history = (history << 1) | taken;
   counters[i] = next[taken][now];
   c[0]++;
   c[1] += miss;
   if (ev) {
      ev[CP_(ev_bc)]++;
      ev[CP_(ev_bc) + 1] += miss;
   }
}

SCALAR VG_REGPARM(3) void CP_(sim_ind)(ULong *c, UWord low, Addr dst)
{
   UWord miss = targets[low] != dst;
   ULong *ev = CP_(sim_ev);

   targets[low] = dst;
   c[2]++;
   c[3] += miss;
   if (ev) {
      ev[CP_(ev_bc) + 2]++;
      ev[CP_(ev_bc) + 3] += miss;
   }
}
