/* hs_heap.c: heapsnap's heap: allocation sites, blocks, and every way a
   program allocates.

   Copyright (C) 2026 The heapsnap/callprof developers.
   SPDX-License-Identifier: GPL-2.0-or-later

   Entry points.  The core's malloc replacement (vgpreload_heapsnap, made
   of the core's own libreplacemalloc_toolpreload) routes malloc, calloc,
   realloc, free, memalign, posix_memalign, aligned_alloc, valloc,
   malloc_usable_size and every operator new/delete variant (nothrow,
   sized, aligned) to the callbacks below.  Custom allocators announce
   their blocks with client requests: MALLOCLIKE/FREELIKE/RESIZEINPLACE,
   as Massif counts them, and memory pools (CREATE_MEMPOOL, MEMPOOL_ALLOC,
   MEMPOOL_FREE, MEMPOOL_TRIM, MEMPOOL_CHANGE, MOVE_MEMPOOL,
   DESTROY_MEMPOOL), which Massif ignores.

   What is counted is Massif's: a block's requested size into heap_B,
   and --heap-admin plus its slop (usable size - requested) into extra_B.
   realloc works in place when the new size fits the old block's usable
   size, as Massif's does, so the slop moves with it.

   Sites.  Unwinding the stack is unavoidable (the tree needs it) and is
   most of the cost of recording an allocation.  The stack as unwound is
   filtered: allocation functions removed from the top (by name,
   --alloc-fn adds names), the whole stack ignored if its top function
   is an --ignore-fn, what is below main cut off, --depth frames kept.
   The filtered stack is interned (HS_Site), so stacks that filter to the
   same frames share one site, and a site is all heapsnap keeps of a
   stack.  Three caches make that cheap: the unwind memo gives most
   allocations the site of an earlier one without unwinding, when the
   registers and the return addresses on the stack are those it had
   (HS_(site_here)); the facts filtering asks of an address (names,
   main) are remembered per address; and a direct-mapped cache of stacks
   as unwound gives most other allocations their site with one
   comparison (site_unwound).  heapsnap used to intern every distinct stack
   as unwound instead of that cache: 2.4 MB on a C++ program allocating
   from 30,000 stacks, 6 MB on a Rust one, enough to put its peak above
   Massif's, for no time that paired runs could see.

   Blocks live in an open-addressing table keyed by address (below);
   each points to its site and says its kind.  Bad frees (never allocated,
   already freed, realloc of an unknown pointer) change nothing and are
   reported once per calling site.

   Pool chunks are blocks too, marked as such; which pool each belongs to
   is kept beside them (PoolChunk), so destroying or trimming a pool
   walks that pool's list. */

#include "pub_tool_basics.h"
#include "pub_tool_aspacemgr.h"
#include "pub_tool_debuginfo.h"
#include "pub_tool_hashtable.h"
#include "pub_tool_libcassert.h"
#include "pub_tool_libcbase.h"
#include "pub_tool_libcprint.h"
#include "pub_tool_machine.h"
#include "pub_tool_mallocfree.h"
#include "pub_tool_options.h"
#include "pub_tool_replacemalloc.h"
#include "pub_tool_stacktrace.h"
#include "pub_tool_threadstate.h"
#include "pub_tool_xtree.h"
#include "valgrind.h"

#include "hs.h"
#include "hs_blocktab.h"
#include "hs_filter.h"
#include "tool_platform.h"

SizeT HS_(heap_B)  = 0;
SizeT HS_(extra_B) = 0;

/*------------------------------------------------------------*/
/*--- Per-address facts, cached                            ---*/
/*------------------------------------------------------------*/

/* For an instruction address: is its function an allocation function,
   an ignored function, main or below main?  Asked for frames of every
   stack allocated from, so remembered; the last address asked about per
   slot of facts_cache is found without the table's lookup. */
typedef struct {
   struct IPFacts *next;    /* VgHashNode */
   UWord           key;     /* the address */
   HS_FrameFacts   f;       /* what hs_filter.h asks */
} IPFacts;

static VgHashTable *ip_facts;

#define FACTS_CACHE_BITS 8
static IPFacts *facts_cache[1 << FACTS_CACHE_BITS];

static Bool in_list(XArray *list, const HChar *name)
{
   return VG_(strIsMemberXA)(list, name);
}

static const HS_FrameFacts *facts(Addr ip)
{
   IPFacts **slot = &facts_cache[tp_cache_slot(ip, FACTS_CACHE_BITS)];
   IPFacts *f = *slot;
   const HChar *name;
   DiEpoch ep;
   Vg_FnNameKind kind;
   if (f != NULL && f->key == ip)
      return &f->f;
   f = VG_(HT_lookup)(ip_facts, ip);
   if (f != NULL) {
      *slot = f;
      return &f->f;
   }
   ep = VG_(current_DiEpoch)();
   f = VG_(perm_malloc)(sizeof *f, vg_alignof(IPFacts));   /* kept */
   f->key = ip;
   f->f.has_name = VG_(get_fnname)(ep, ip, &name);
   f->f.is_alloc_fn = f->f.has_name && in_list(HS_(clo_alloc_fns), name);
   f->f.is_ignore_fn = f->f.has_name && in_list(HS_(clo_ignore_fns), name);
   kind = VG_(get_fnname_kind_from_IP)(ep, ip);
   f->f.kind = kind == Vg_FnNameMain ? HS_FN_MAIN
             : kind == Vg_FnNameBelowMain ? HS_FN_BELOW_MAIN : HS_FN_NORMAL;
   VG_(HT_add_node)(ip_facts, f);
   *slot = f;
   return &f->f;
}

/* hs_filter.h's callback: frame I of the stack CL. */
static const HS_FrameFacts *facts_of_frame(void *cl, int i)
{
   return facts(((const Addr *)cl)[i]);
}

/*------------------------------------------------------------*/
/*--- Sites                                                ---*/
/*------------------------------------------------------------*/

static VgHashTable *sites;
static XArray      *sites_by_id;   /* of HS_Site*: the counted sites */

static UWord hash_ips(const Addr *ips, UInt n)
{
   UWord h = 0xcbf29ce484222325UL ^ n;
   UInt i;
   for (i = 0; i < n; i++) {
      h ^= ips[i];
      h *= 0x100000001b3UL;
      h ^= h >> 29;
   }
   return h;
}

/* A word at a time: the core's memcmp goes byte by byte. */
static Bool same_ips(const Addr *a, const Addr *b, UInt n)
{
   UInt i;
   for (i = 0; i < n; i++)
      if (a[i] != b[i])
         return False;
   return True;
}

static Word cmp_site(const void *a, const void *b)
{
   const HS_Site *x = a, *y = b;
   return x->n_ips == y->n_ips && same_ips(x->ips, y->ips, x->n_ips) ? 0 : 1;
}

/* The site of the stack IPS[0..N) as unwound, filtered as Massif's
   filter_IPs. */
static HS_Site *filter(const Addr *ips, Int n)
{
   static union {
      HS_Site s;
      Addr    space[sizeof(HS_Site) / sizeof(Addr) + HS_MAX_DEPTH];
   } probe;
   static Int deepest_main;
   HS_FilterOpts o;
   Int top, sel;
   HS_Site *site;

   o.depth = HS_(clo_depth);
   o.show_below_main = VG_(clo_show_below_main);
   o.any_ignore_fns = VG_(sizeXA)(HS_(clo_ignore_fns)) > 0;
   sel = hs_filter_frames(n, &o, facts_of_frame, (void *)ips, &deepest_main,
                          &top);
   probe.s.n_ips = sel;
   VG_(memcpy)(probe.s.ips, ips + top, sel * sizeof(Addr));
   probe.s.key = hash_ips(probe.s.ips, sel);
   site = VG_(HT_gen_lookup)(sites, &probe.s, cmp_site);
   if (site == NULL) {
      /* Never freed: the core's permanent allocator has no per-block
         overhead. */
      site = VG_(perm_malloc)(sizeof(HS_Site) + sel * sizeof(Addr),
                              vg_alignof(HS_Site));
      site->key = probe.s.key;
      site->n_ips = sel;
      site->live = 0;
      site->id = HS_NO_ID;
      VG_(memcpy)(site->ips, probe.s.ips, sel * sizeof(Addr));
      VG_(HT_add_node)(sites, site);
   }
   return site;
}

/* Unwinding is most of the cost of recording an allocation, so unwind
   no deeper than the site can need: --depth frames below the
   allocation functions.  How many allocation functions there are is
   known only after unwinding, so it is guessed: as many as the most
   seen so far (alloc_guess, at least 1: malloc itself).  When a stack
   cut at that guess could need more, it is unwound again in full, and
   the guess grows.  A stack cut this way filters to the same site as the
   whole stack would (as Massif's, which unwinds --depth + 50 frames):
   filtering keeps at most TOP + --depth frames, and when main is deeper
   than that the depth limit decides before main does. */
static UInt alloc_guess = 1;

/* Would the first N frames of a possibly longer stack filter to the same
   site as the whole stack? */
static Bool enough_frames(const Addr *ips, Int n)
{
   void *cl = (void *)ips;
   Int top = hs_alloc_frames(n, facts_of_frame, cl);
   if (top + HS_(clo_depth) > n) {
      if ((UInt)top >= alloc_guess && top < HS_MAX_ALLOC_FRAMES)
         alloc_guess = top + 1;
      return False;
   }
   /* The frame that decides --ignore-fn may be deeper. */
   if (VG_(sizeXA)(HS_(clo_ignore_fns)) > 0 &&
       hs_ignore_frame(n, top, facts_of_frame, cl) == n)
      return False;
   return True;
}

/* Most allocations come from a stack allocated from a moment before, so
   the last stack of each slot of a direct-mapped cache keeps its site:
   the frames as unwound (stacks of at most STACK_CACHE_MAX), compared
   whole, so a hit is exact, and whether the stack was cut at the guess
   (a cut stack's site holds for every stack that starts with its frames
   only when enough_frames said so; one unwound in full is cached as not
   cut).  A hit spares the filter its facts, its hash and its lookup.
   It is small on purpose (64 slots of 280 bytes): 512 slots were no
   faster, beyond the noise, in paired runs on perl, python3, C++ and
   Rust, and their 176 KB showed in the peak of a program that allocates
   little (python3, whose objects live in its own arenas).  Stacks of
   more than STACK_CACHE_MAX frames as unwound (--depth above about 31)
   are filtered every time. */
#define STACK_CACHE_BITS 6
#define STACK_CACHE_MAX  32
typedef struct {
   UWord    key;
   HS_Site *site;           /* NULL: an empty slot */
   UInt     n_ips;
   Bool     cut;
   Addr     ips[STACK_CACHE_MAX];
} StackSlot;
static StackSlot stack_cache[1 << STACK_CACHE_BITS];

static StackSlot *stack_slot(const Addr *ips, Int n, Bool cut, UWord *key)
{
   *key = hash_ips(ips, n) ^ cut;
   return &stack_cache[tp_cache_slot(*key, STACK_CACHE_BITS)];
}

/* The stack of thread TID unwound (its SPs into SPS, the frames as
   unwound into unwound_ips and *N_UNWOUND), and its site. */
static Addr unwound_ips[HS_MAX_DEPTH + HS_MAX_ALLOC_FRAMES + 1];

static HS_Site *site_unwound(ThreadId tid, UInt skip_top, Addr *sps,
                             Int *n_unwound)
{
   Addr *ips = unwound_ips;
   UInt guess = HS_(clo_depth) + alloc_guess + skip_top;
   UInt full  = HS_(clo_depth) + HS_MAX_ALLOC_FRAMES + skip_top;
   const Addr *top = ips + skip_top;
   StackSlot *e = NULL;
   HS_Site *site;
   UWord key;
   Bool cut;
   Int n;

   n = VG_(get_StackTrace)(tid, ips, guess, sps, NULL, 0);
   *n_unwound = n;
   if ((Int)skip_top >= n)
      return filter(ips, 0);
   n -= skip_top;
   cut = n + skip_top == guess;
   if (n <= STACK_CACHE_MAX) {
      e = stack_slot(top, n, cut, &key);
      if (e->site != NULL && e->key == key && e->n_ips == (UInt)n &&
          e->cut == cut && same_ips(e->ips, top, n))
         return e->site;
   }
   /* Cut too short: the whole stack, then. */
   if (cut && !enough_frames(top, n)) {
      n = VG_(get_StackTrace)(tid, ips, full, sps, NULL, 0);
      *n_unwound = n;
      n -= skip_top;
      cut = False;
      e = n <= STACK_CACHE_MAX ? stack_slot(top, n, cut, &key) : NULL;
   }
   site = filter(top, n);
   if (e != NULL) {
      e->key = key;
      e->site = site;
      e->n_ips = n;
      e->cut = cut;
      VG_(memcpy)(e->ips, top, n * sizeof(Addr));
   }
   return site;
}

/* The unwind memo (with --fast-paths=yes).  The core's unwinder is the
   larger part of what an allocation costs: on a Rust program that
   allocates from deep stacks its CFI lookups were 16% of heapsnap's
   samples.  Yet most allocations come from a stack that was there
   moments before: the same call of malloc at the same depth, from the
   same callers.  The memo remembers, for the registers the unwinder
   starts from (the program counter, the stack and frame pointers), the
   site found and where each frame's return address was read, and gives
   the site again while every one of those return addresses is still
   where it was:

      key:       thread, skip_top, IP, SP, FP
      holds if:  *(SP + at[k]) == ra[k] for every frame k >= 1

   Why that is enough.  The unwinder is a function of those registers,
   the stack's limits (the same for the same thread and SP: checked),
   the call frame information of the code (heapsnap already takes the
   code at an address not to change: the facts cache above) and the
   words it reads from the stack.  It reads two kinds: each frame's
   return address, which the memo compares, and saved frame pointers,
   which it does not.  A frame's saved frame pointer is used only by a
   function that keeps its frame in %rbp (or by the fallback below,
   which takes it for one), and there it is that frame's own base, fixed
   by where the frame is; where the frames are follows from the return
   addresses' places.  So two stacks that unwind
   differently differ in some return address, or in where one is, which
   the compare finds, unless old return addresses happen to be left
   exactly where a changed stack no longer keeps them, and all of them.
   The unwinder's fallbacks (the frame-pointer chain, and the word at
   the stack pointer) read a return address at SP - 8 and at SP of the
   frame they make: those are the places remembered, and a stack whose
   frames are not all found one of those ways is not remembered.
   --fast-paths=no turns the memo off, and the tests that compare the
   two ways (tests/heapsnap/fast_paths_*) check the files are the same;
   fast_paths_unwind does so for a program whose malloc calls sit at
   the same depth under different callers, in recursion, under VLAs of
   different sizes and after a longjmp.  --unwind-memo-check=yes (for
   tests: its threaded run, and the real programs of the bench) unwinds
   at every hit too and stops if the sites differ.

   A set of 4 ways per (registers), 8 sets, 20 KB: the same call of
   malloc reached from a few callers keeps them all.  It gave 98% hits
   on the Rust bench, 91% on C++, 99.5% on sqlite3 and perl; 16 or 64
   sets, or 8 ways, had no more.  Every allocation pays reading the
   registers and the stack's top (four calls of the core); a miss also
   pays remembering the frames. */
#define MEMO_SET_BITS 3
#define MEMO_WAYS     4
#define MEMO_FRAMES   48
typedef struct {
   Addr     ip, sp, fp;             /* sp 0: empty */
   Addr     stack_max;              /* the thread's stack then */
   UInt     tid_skip;               /* tid << 8 | skip_top */
   UInt     n;                      /* frames as unwound */
   HS_Site *site;
   UInt     at[MEMO_FRAMES];        /* frame k's return address: at */
   Addr     ra[MEMO_FRAMES];        /* SP + at[k], and was ra[k] */
} Memo;
static Memo  memo[(1 << MEMO_SET_BITS) * MEMO_WAYS];
Bool         HS_(clo_memo_check) = False;
static UChar memo_victim[1 << MEMO_SET_BITS];
static ULong memo_hits, memo_misses;

static Bool memo_holds(const Memo *m)
{
   UInt k;
   for (k = 1; k < m->n; k++)
      if (*(const Addr *)(m->sp + m->at[k]) != m->ra[k])
         return False;
   return True;
}

/* Remember in M the stack just unwound: N frames from SP, their SPs in
   SPS, within a stack ending at MAX.  False when a frame's return
   address is not where the memo looks. */
static Bool memo_fill(Memo *m, Addr sp, Addr max, const Addr *sps, Int n)
{
   Int k;
   if (n < 1 || n > MEMO_FRAMES || sps[0] != sp)
      return False;
   for (k = 1; k < n; k++) {
      Addr at = sps[k] - 8;               /* CFI or the frame pointer */
      if (sps[k] < sp + 8 || sps[k] > max - 7 || sps[k] - sp > 0xffffffffUL)
         return False;
      if (*(Addr *)at != unwound_ips[k] + 1)
         at = sps[k];                     /* the word at SP */
      if (*(Addr *)at != unwound_ips[k] + 1)
         return False;
      m->at[k] = (UInt)(at - sp);
      m->ra[k] = unwound_ips[k] + 1;
   }
   m->n = n;
   return True;
}

HS_Site *HS_(site_here)(ThreadId tid, UInt skip_top)
{
   static Addr sps[HS_MAX_DEPTH + HS_MAX_ALLOC_FRAMES + 1];
   Addr ip, sp, fp, max;
   UInt ts = tid << 8 | skip_top, set, w;
   Memo *m;
   HS_Site *site;
   Int n;

   if (!HS_(clo_fast_paths))
      return site_unwound(tid, skip_top, NULL, &n);
   ip = VG_(get_IP)(tid);
   sp = VG_(get_SP)(tid);
   VG_(get_shadow_regs_area)(tid, (UChar *)&fp, 0,
                             offsetof(TP_GuestState, TP_GUEST_FP), sizeof fp);
   max = VG_(thread_get_stack_max)(tid);
   set = tp_cache_slot(((ip * 31 + sp) * 31 + fp) * 31 + ts, MEMO_SET_BITS);
   m = &memo[set * MEMO_WAYS];
   for (w = 0; w < MEMO_WAYS; w++, m++)
      if (m->sp == sp && m->ip == ip && m->fp == fp && m->tid_skip == ts
          && m->stack_max == max && memo_holds(m)) {
         memo_hits++;
         if (HS_(clo_memo_check)
             && site_unwound(tid, skip_top, sps, &n) != m->site)
            VG_(tool_panic)("heapsnap: the unwind memo gave a wrong site");
         return m->site;
      }
   memo_misses++;
   site = site_unwound(tid, skip_top, sps, &n);
   m = &memo[set * MEMO_WAYS + memo_victim[set]++ % MEMO_WAYS];
   /* Only a stack within the thread's own (not a signal stack, not one
      the program made): the memo reads it again without the core's
      checks, from SP up to the frames remembered. */
   if (sp <= max && max - sp < VG_(thread_get_stack_size)(tid)
       && memo_fill(m, sp, max, sps, n)) {
      m->ip = ip;
      m->sp = sp;
      m->fp = fp;
      m->stack_max = max;
      m->tid_skip = ts;
      m->site = site;
   } else
      m->sp = 0;
   return site;
}

void HS_(memo_stats)(void)
{
   VG_(dmsg)("heapsnap: unwind memo: %llu hits, %llu misses\n",
             memo_hits, memo_misses);
}

UInt HS_(n_counted_sites)(void)
{
   return (UInt)VG_(sizeXA)(sites_by_id);
}

HS_Site *HS_(site_by_id)(UInt id)
{
   return *(HS_Site **)VG_(indexXA)(sites_by_id, id);
}

/*------------------------------------------------------------*/
/*--- Counting                                             ---*/
/*------------------------------------------------------------*/

void HS_(count)(HS_Site *site, SSizeT dheap, SSizeT dextra, Bool going_down)
{
   SSizeT d = dheap + dextra;
   if (site->n_ips == 0 || !HS_(clo_heap))
      return;                              /* ignored, or --heap=no */
   if (going_down)
      HS_(snap_peak_check)();
   if (site->id == HS_NO_ID)
      site->id = (UInt)VG_(addToXA)(sites_by_id, &site);
   site->live   += dheap;
   HS_(heap_B)  += dheap;
   HS_(extra_B) += dextra;
   HS_(churn_B) += d < 0 ? -d : d;
   HS_(snap_maybe)();
}

/*------------------------------------------------------------*/
/*--- Blocks                                               ---*/
/*------------------------------------------------------------*/

/* Live blocks: hs_blocktab.h's table (an open-addressing table keyed by
   address, the entries the blocks themselves, 24 bytes).  Which pool a
   chunk is in is kept apart (PoolChunk), for the few blocks that have
   one.

   A block's tag is its site (a multiple of 8) with its kind in the low
   bits: a block of the client allocator (malloc and the rest), a custom
   one (MALLOCLIKE_BLOCK), or a pool chunk.  A custom block or chunk has
   no slop.  An allocator block's slop is its usable size less its
   requested size, always (a realloc in place changes the requested size
   and the slop takes up the difference), so it is not stored but asked
   of the allocator when it is needed, at a free or a realloc: storing it
   made an entry 32 bytes, and the table the largest thing heapsnap keeps
   for a program with many live blocks (4 MB for perl's 76,000). */
typedef HS_Block Block;
STATIC_ASSERT(sizeof(Block) == 24);

#define BLOCK_ALLOCATOR 0UL /* the allocator's: slop = usable - req */
#define BLOCK_CUSTOM 1UL    /* not the allocator's: no slop */
#define BLOCK_POOL   2UL    /* a pool chunk (custom too) */
#define BLOCK_KIND   7UL

STATIC_ASSERT(__alignof__(HS_Site) >= 8);

static inline HS_Site *block_site(const Block *b)
{
   return (HS_Site *)(b->tag & ~BLOCK_KIND);
}

static inline Bool block_in_pool(const Block *b)
{
   return (b->tag & BLOCK_POOL) != 0;
}

static inline SizeT block_slop(const Block *b)
{
   return b->tag & BLOCK_CUSTOM
          ? 0 : VG_(cli_malloc_usable_size)((void *)b->addr) - b->req;
}

static HS_BlockTab blocks;

/* The table's arrays are mapped and unmapped outside the core's arena
   (unmapped in pieces as the table grows: hs_blocktab.h): freed into
   the arena, each array the table outgrew stayed resident, and on
   perl's workload (a 4 MB table, the 2 MB, 1 MB ... ones before it left
   behind) heapsnap's peak was 4 MB above Massif's.  Fresh pages are
   zero, and untouched ones cost nothing. */
static void *blocks_zalloc(unsigned long bytes)
{
   void *p = VG_(am_shadow_alloc)(bytes);
   if (p == NULL)
      VG_(out_of_memory_NORETURN)("hs.heap.blocks", bytes);
   return p;
}

static void blocks_release(void *p, unsigned long bytes)
{
   VG_(am_munmap_valgrind)((Addr)p, bytes);
}

static Block *block_find(Addr a)
{
   return hs_bt_find(&blocks, a);
}

/* A new block of KIND (BLOCK_ALLOCATOR, whose slop SLOP is; else SLOP
   is 0). */
static Block *new_block(Addr p, SizeT req, SizeT slop, HS_Site *site,
                        UWord kind)
{
   Block *b = hs_bt_add(&blocks, p);
   b->req = req;
   b->tag = (UWord)site | kind;
   HS_(count)(site, req, HS_(clo_heap_admin) + slop, False);
   return b;
}

Bool HS_(next_live_block)(UWord *cursor, SizeT *req, HS_Site **site)
{
   while (*cursor <= blocks.mask) {
      const Block *b = &blocks.slots[(*cursor)++];
      if (b->addr != 0 && !block_in_pool(b)) {
         *req = b->req;
         *site = block_site(b);
         return True;
      }
   }
   return False;
}

/* Removes block B from the table and the counts (before the allocator
   frees it: its slop is asked of the allocator). */
static void drop_block(Block *b)
{
   HS_Site *site = block_site(b);
   SizeT req = b->req, slop = block_slop(b);
   hs_bt_delete(&blocks, b);
   HS_(count)(site, -(SSizeT)req, -(SSizeT)(HS_(clo_heap_admin) + slop),
              True);
}

/* A bad free, realloc or pool request: say so once per calling site. */
typedef struct Warned {
   struct Warned *next;     /* VgHashNode */
   UWord          key;      /* the site */
} Warned;

static void warn_bad(ThreadId tid, const HChar *what, Addr p)
{
   static VgHashTable *warned;
   HS_Site *here = HS_(site_here)(tid, 1);
   Warned *w;

   if (warned == NULL)
      warned = VG_(HT_construct)("heapsnap warned sites");
   if (VG_(HT_lookup)(warned, (UWord)here) != NULL)
      return;
   w = VG_(malloc)("hs.heap.warned", sizeof *w);
   w->key = (UWord)here;
   VG_(HT_add_node)(warned, w);
   VG_(umsg)("heapsnap: %s 0x%lx, which is not a live block: ignored "
             "(reported once for this place)\n", what, p);
   VG_(get_and_pp_StackTrace)(tid, HS_(clo_depth));
}

/* The malloc-replacement callbacks.  ALIGN 0: the default alignment. */
static void *alloc_block(ThreadId tid, SizeT req, SizeT align, Bool zero)
{
   void *p;
   if ((SSizeT)req < 0)
      return NULL;
   p = VG_(cli_malloc)(align ? align : VG_(clo_alignment), req);
   if (p == NULL)
      return NULL;
   /* The block's slot is a cache miss, in a big table; fetch it while
      the stack is unwound. */
   __builtin_prefetch(&blocks.slots[hs_bt_home(&blocks, (Addr)p)], 1);
   if (zero)
      VG_(memset)(p, 0, req);
   new_block((Addr)p, req, VG_(cli_malloc_usable_size)(p) - req,
             HS_(site_here)(tid, 1), BLOCK_ALLOCATOR);
   HS_(xt_alloc)(tid, (Addr)p, req, True);
   return p;
}

static void free_block(ThreadId tid, void *p, const HChar *what)
{
   Block *b;
   if (p == NULL)
      return;
   b = block_find((Addr)p);
   if (b == NULL || block_in_pool(b)) {   /* a pool chunk is not ours */
      warn_bad(tid, what, (Addr)p);
      return;
   }
   HS_(xt_free)(tid, (Addr)p, True);
   drop_block(b);
   VG_(cli_free)(p);
}

static void *hs_malloc(ThreadId tid, SizeT n)
{ return alloc_block(tid, n, 0, False); }
static void *hs_new_aligned(ThreadId tid, SizeT n, SizeT align)
{ return alloc_block(tid, n, align, False); }
static void *hs_memalign(ThreadId tid, SizeT align, SizeT n)
{ return alloc_block(tid, n, align, False); }

static void *hs_calloc(ThreadId tid, SizeT nmemb, SizeT size1)
{
   if (size1 != 0 && nmemb > (SizeT)-1 / size1)
      return NULL;                         /* nmemb * size1 overflows */
   return alloc_block(tid, nmemb * size1, 0, True);
}

static void hs_free(ThreadId tid, void *p)
{ free_block(tid, p, "free of"); }
static void hs_delete(ThreadId tid, void *p)
{ free_block(tid, p, "delete of"); }
static void hs_delete_aligned(ThreadId tid, void *p, SizeT align)
{ free_block(tid, p, "delete of"); }

/* Massif's realloc: in place when the new size fits the usable size
   (the slop absorbs the difference), else a new block and a copy.  The
   block is counted at the realloc's site from then on. */
static void *hs_realloc(ThreadId tid, void *old, SizeT new_req)
{
   Block *b;
   HS_Site *site, *old_site;
   SizeT old_req, old_slop, new_slop;
   UWord kind;
   void *p;

   if (old == NULL)
      return hs_malloc(tid, new_req);
   b = block_find((Addr)old);
   if (b == NULL || block_in_pool(b)) {
      warn_bad(tid, "realloc of", (Addr)old);
      return NULL;
   }
   if ((SSizeT)new_req < 0)
      return NULL;
   old_req = b->req;
   old_slop = block_slop(b);
   old_site = block_site(b);
   kind = b->tag & BLOCK_KIND;
   if (new_req <= old_req + old_slop) {
      p = old;
      /* A custom block (a client's realloc of its own MALLOCLIKE block)
         stays custom: no slop. */
      new_slop = kind == BLOCK_ALLOCATOR ? old_slop + old_req - new_req : 0;
   } else {
      p = VG_(cli_malloc)(VG_(clo_alignment), new_req);
      if (p == NULL)
         return NULL;
      VG_(memcpy)(p, old, old_req + old_slop);
      VG_(cli_free)(old);
      new_slop = VG_(cli_malloc_usable_size)(p) - new_req;
      kind = BLOCK_ALLOCATOR;
   }
   /* A block ignored when first allocated stays ignored; one counted
      stays counted, at the realloc's site unless that one is ignored. */
   site = HS_(site_here)(tid, 1);
   if (old_site->n_ips == 0 || site->n_ips == 0)
      site = old_site;
   hs_bt_delete(&blocks, b);
   b = hs_bt_add(&blocks, (Addr)p);
   b->req = new_req;
   b->tag = (UWord)site | kind;
   /* As Massif: a peak check if it shrinks, while the bytes are still
      at the old site; then the old bytes move to the new site and the
      difference is counted there. */
   if (new_req < old_req && site->n_ips > 0 && HS_(clo_heap))
      HS_(snap_peak_check)();
   if (site->n_ips > 0 && HS_(clo_heap)) {
      old_site->live -= old_req;
      site->live += old_req;
   }
   HS_(count)(site, (SSizeT)new_req - (SSizeT)old_req,
              (SSizeT)new_slop - (SSizeT)old_slop, False);
   HS_(xt_realloc)(tid, (Addr)old, (Addr)p, new_req);
   return p;
}

static SizeT hs_usable_size(ThreadId tid, void *p)
{
   Block *b = block_find((Addr)p);
   return b != NULL ? b->req + block_slop(b) : 0;
}

/*------------------------------------------------------------*/
/*--- Memory pools                                         ---*/
/*------------------------------------------------------------*/

typedef struct PoolChunk {
   struct PoolChunk *next;        /* VgHashNode */
   UWord             key;         /* the chunk's address (its Block's) */
   struct Pool      *pool;
   struct PoolChunk *pool_next;   /* the pool's chunk list */
} PoolChunk;

typedef struct Pool {
   struct Pool *next;             /* VgHashNode */
   UWord        key;              /* the pool's anchor address */
   PoolChunk   *chunks;
} Pool;

static VgHashTable *pools;
static VgHashTable *chunks;       /* PoolChunk by address */

/* A new counted chunk of POOL: a block, and its membership. */
static void chunk_new(ThreadId tid, Pool *pool, Addr a, SizeT size,
                      HS_Site *site)
{
   PoolChunk *c = VG_(malloc)("hs.heap.chunk", sizeof *c);
   new_block(a, size, 0, site ? site : HS_(site_here)(tid, 0),
             BLOCK_CUSTOM | BLOCK_POOL);
   c->key = a;
   c->pool = pool;
   c->pool_next = pool->chunks;
   pool->chunks = c;
   VG_(HT_add_node)(chunks, c);
}

static void chunk_free(PoolChunk *c)
{
   PoolChunk **pp;
   for (pp = &c->pool->chunks; *pp != c; pp = &(*pp)->pool_next)
      ;
   *pp = c->pool_next;
   VG_(HT_remove)(chunks, c->key);
   drop_block(block_find(c->key));
   VG_(free)(c);
}

/* The chunk at A of the pool anchored at POOL_KEY, or NULL. */
static PoolChunk *chunk_of(UWord pool_key, Addr a)
{
   PoolChunk *c = VG_(HT_lookup)(chunks, a);
   return c != NULL && c->pool->key == pool_key ? c : NULL;
}

/* The client requests for custom allocators and pools.  Custom blocks
   have no slop; like Massif, they carry --heap-admin. */
Bool HS_(handle_heap_request)(ThreadId tid, UWord *arg, UWord *ret)
{
   Pool *pool;
   PoolChunk *c, *next;
   Block *b;

   switch (arg[0]) {
   case VG_USERREQ__MALLOCLIKE_BLOCK:
      if (arg[1] != 0 && block_find(arg[1]) == NULL) {
         new_block(arg[1], arg[2], 0, HS_(site_here)(tid, 0), BLOCK_CUSTOM);
         HS_(xt_alloc)(tid, arg[1], arg[2], False);
      }
      break;
   case VG_USERREQ__FREELIKE_BLOCK:
      if (arg[1] == 0)
         break;
      b = block_find(arg[1]);
      if (b == NULL || block_in_pool(b)) {
         warn_bad(tid, "FREELIKE_BLOCK of", arg[1]);
         break;
      }
      HS_(xt_free)(tid, arg[1], False);
      drop_block(b);
      break;
   case VG_USERREQ__RESIZEINPLACE_BLOCK: {
      /* As Massif: freed and allocated again, here (a pool chunk stays
         one: its membership is by address). */
      Bool in_pool;
      b = arg[1] != 0 ? block_find(arg[1]) : NULL;
      if (b == NULL) {
         warn_bad(tid, "RESIZEINPLACE_BLOCK of", arg[1]);
         break;
      }
      in_pool = block_in_pool(b);
      drop_block(b);
      new_block(arg[1], arg[3], 0, HS_(site_here)(tid, 0),
                in_pool ? BLOCK_CUSTOM | BLOCK_POOL : BLOCK_CUSTOM);
      if (!in_pool) {
         HS_(xt_free)(tid, arg[1], False);
         HS_(xt_alloc)(tid, arg[1], arg[3], False);
      }
      break;
   }

   case VG_USERREQ__CREATE_MEMPOOL:
      if (VG_(HT_lookup)(pools, arg[1]) == NULL) {
         pool = VG_(malloc)("hs.heap.pool", sizeof *pool);
         pool->key = arg[1];
         pool->chunks = NULL;
         VG_(HT_add_node)(pools, pool);
      }
      break;
   case VG_USERREQ__DESTROY_MEMPOOL:
      pool = VG_(HT_remove)(pools, arg[1]);
      if (pool == NULL)
         break;
      while (pool->chunks != NULL)
         chunk_free(pool->chunks);
      VG_(free)(pool);
      break;
   case VG_USERREQ__MEMPOOL_ALLOC:
      pool = VG_(HT_lookup)(pools, arg[1]);
      if (pool != NULL && arg[2] != 0 && block_find(arg[2]) == NULL)
         chunk_new(tid, pool, arg[2], arg[3], NULL);
      break;
   case VG_USERREQ__MEMPOOL_FREE:
      if (VG_(HT_lookup)(pools, arg[1]) == NULL)
         break;
      c = chunk_of(arg[1], arg[2]);
      if (c == NULL)
         warn_bad(tid, "MEMPOOL_FREE of", arg[2]);
      else
         chunk_free(c);
      break;
   case VG_USERREQ__MEMPOOL_TRIM: {
      /* Keep what lies in [addr, addr+size): chunks outside go, chunks
         across an end shrink to the part inside. */
      Addr lo = arg[2], hi = arg[2] + arg[3];
      pool = VG_(HT_lookup)(pools, arg[1]);
      if (pool == NULL)
         break;
      for (c = pool->chunks; c != NULL; c = next) {
         Block *cb = block_find(c->key);
         Addr s = cb->addr, e = cb->addr + cb->req;
         next = c->pool_next;
         if (e <= lo || s >= hi) {
            chunk_free(c);
         } else if (s < lo || e > hi) {
            Addr ns = s < lo ? lo : s, ne = e > hi ? hi : e;
            HS_Site *site = block_site(cb);
            chunk_free(c);
            chunk_new(tid, pool, ns, ne - ns, site);
         }
      }
      break;
   }
   case VG_USERREQ__MOVE_MEMPOOL:
      pool = VG_(HT_remove)(pools, arg[1]);
      if (pool != NULL) {
         pool->key = arg[2];
         VG_(HT_add_node)(pools, pool);
      }
      break;
   case VG_USERREQ__MEMPOOL_CHANGE:
      /* The chunk at A is now SIZE bytes at B: counted at this site. */
      pool = VG_(HT_lookup)(pools, arg[1]);
      if (pool == NULL)
         break;
      c = chunk_of(arg[1], arg[2]);
      if (c == NULL) {
         warn_bad(tid, "MEMPOOL_CHANGE of", arg[2]);
         break;
      }
      chunk_free(c);
      chunk_new(tid, pool, arg[3], arg[4], NULL);
      break;
   case VG_USERREQ__MEMPOOL_EXISTS:
      *ret = VG_(HT_lookup)(pools, arg[1]) != NULL;
      return True;
   default:
      return False;
   }
   *ret = 0;
   return True;
}

Bool HS_(is_malloc_callback)(UWord f)
{
   return f == (UWord)hs_malloc || f == (UWord)hs_free
          || f == (UWord)hs_delete || f == (UWord)hs_calloc
          || f == (UWord)hs_realloc || f == (UWord)hs_new_aligned
          || f == (UWord)hs_memalign || f == (UWord)hs_delete_aligned
          || f == (UWord)hs_usable_size;
}

/*------------------------------------------------------------*/
/*--- Setup                                                ---*/
/*------------------------------------------------------------*/

void HS_(heap_pre_clo_init)(void)
{
   VG_(needs_malloc_replacement)(hs_malloc,
                                 hs_malloc,          /* __builtin_new */
                                 hs_new_aligned,
                                 hs_malloc,          /* __builtin_vec_new */
                                 hs_new_aligned,
                                 hs_memalign,
                                 hs_calloc,
                                 hs_free,
                                 hs_delete,          /* __builtin_delete */
                                 hs_delete_aligned,
                                 hs_delete,          /* __builtin_vec_delete */
                                 hs_delete_aligned,
                                 hs_realloc,
                                 hs_usable_size,
                                 0);
   ip_facts   = VG_(HT_construct)("heapsnap ip facts");
   sites      = VG_(HT_construct)("heapsnap sites");
   sites_by_id = VG_(newXA)(VG_(malloc), "hs.heap.sites_by_id", VG_(free),
                            sizeof(HS_Site *));
   hs_bt_init(&blocks, 1024, blocks_zalloc, blocks_release);
   pools      = VG_(HT_construct)("heapsnap pools");
   chunks     = VG_(HT_construct)("heapsnap pool chunks");
}

/* At exit, before the files are written: the live blocks are not needed
   any more (the files are made of sites and snapshots), and the memory
   of their table, megabytes for a program that keeps many, is given back
   so that what the writing takes does not raise the peak. */
void HS_(heap_fini)(void)
{
   hs_bt_free(&blocks);
}

void HS_(heap_post_clo_init)(void)
{
   /* The stacks we unwind are deeper than the core's default. */
   if (VG_(clo_backtrace_size) < HS_(clo_depth) + HS_MAX_ALLOC_FRAMES)
      VG_(clo_backtrace_size) = HS_(clo_depth) + HS_MAX_ALLOC_FRAMES;
}
