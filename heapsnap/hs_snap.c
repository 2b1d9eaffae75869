/* hs_snap.c: heapsnap's snapshots: when to take them, which to keep, the
   peak, and writing them in Massif's format.

   Copyright (C) 2026 The heapsnap/callprof developers.
   SPDX-License-Identifier: GPL-2.0-or-later

   The rules are Massif's, so that the same program gives the same
   figures:
   - A regular snapshot is taken on a change of the heap (or stacks, or
     pages) once at least min_interval time has passed since the last
     one.  min_interval starts at 0: early on, every change is recorded.
   - Every --detailed-freq'th snapshot is detailed: it keeps the live
     bytes of each allocation site, for the tree.
   - Just before the total (heap + extra + stacks) goes down, if it
     exceeds the largest peak recorded so far by more than
     --peak-inaccuracy percent, a detailed peak snapshot is taken; the
     previous peak becomes an ordinary detailed snapshot.
   - When the table of --max-snapshots is full, half of the snapshots
     are culled, one at a time, always the one whose neighbours are
     closest in time (never the first, the last or the peak), so the rest
     stay evenly spread; the smallest gap left becomes the new
     min_interval.

   Nothing more is taken at exit, as in Massif: a peak that no decrease
   followed (a program that never frees) is not in the file, and the
   last snapshot is the last one taken while the program ran.  The
   series is then Massif's, snapshot for snapshot. */

#include "pub_tool_basics.h"
#include "pub_tool_debuginfo.h"
#include "pub_tool_libcassert.h"
#include "pub_tool_libcbase.h"
#include "pub_tool_libcprint.h"
#include "pub_tool_libcproc.h"
#include "pub_tool_mallocfree.h"
#include "pub_tool_options.h"
#include "pub_tool_xarray.h"

#include "hs.h"
#include "hs_series.h"
#include "profwriter.h"

typedef enum { SnapNormal, SnapPeak } SnapKind;

typedef struct {
   HS_Moment  at;            /* first: its time, and whether the peak
                                (what hs_series.h reads) */
   SizeT      heap_B, extra_B, stacks_B;
   SizeT     *tree;          /* detailed: live bytes of each counted site,
                                by site id; NULL otherwise */
   UInt       n_tree;        /* sites counted when it was taken */
} Snapshot;

static Snapshot *snaps;        /* [0, n_snaps) in use */
static Int       n_snaps;
static ULong     min_interval;
ULong            HS_(snap_next_time);   /* see hs.h */
SizeT            HS_(snap_peak_above);  /* see hs.h */
static Int       since_detailed;
static SizeT     peak_total;   /* total of the peak snapshot */

static SizeT total_now(void)
{
   return HS_(heap_B) + HS_(extra_B) + HS_(stacks_B);
}

/*------------------------------------------------------------*/
/*--- Taking                                               ---*/
/*------------------------------------------------------------*/

static void fill(Snapshot *s, SnapKind kind, ULong time, Bool detailed)
{
   UInt i;
   s->at.peak  = kind == SnapPeak;
   s->at.time  = time;
   s->heap_B   = HS_(heap_B);
   s->extra_B  = HS_(extra_B);
   s->stacks_B = HS_(stacks_B);
   s->tree     = NULL;
   s->n_tree   = 0;
   if (detailed && HS_(clo_heap)) {     /* --heap=no: no trees (Massif) */
      s->n_tree = HS_(n_counted_sites)();
      /* Even an empty heap has a (root-only) tree. */
      s->tree = VG_(malloc)("hs.snap.tree",
                            (s->n_tree ? s->n_tree : 1) * sizeof(SizeT));
      for (i = 0; i < s->n_tree; i++)
         s->tree[i] = HS_(site_by_id)(i)->live;
   }
}

static void drop(Snapshot *s)
{
   if (s->tree != NULL)
      VG_(free)(s->tree);
   s->tree = NULL;
}

/* Remove half of the snapshots, one at a time (hs_series.h says which);
   return the new minimum interval. */
static ULong cull(void)
{
   Int removed, j;
   ULong gap;

   for (removed = 0; removed < HS_(clo_max_snapshots) / 2; removed++) {
      Int best = hs_ser_victim(snaps, sizeof *snaps, n_snaps);
      tl_assert(best > 0);
      drop(&snaps[best]);
      for (j = best; j + 1 < n_snaps; j++)
         snaps[j] = snaps[j + 1];
      n_snaps--;
   }
   gap = hs_ser_min_gap(snaps, sizeof *snaps, n_snaps);
   tl_assert(gap != ~0ULL);
   return gap;
}

static void take(SnapKind kind, ULong time, Bool detailed)
{
   Int i;
   fill(&snaps[n_snaps], kind, time, detailed);
   since_detailed = detailed ? 0 : since_detailed + 1;
   if (kind == SnapPeak) {
      peak_total = total_now();
      HS_(snap_peak_above) = hs_ser_peak_above(peak_total,
                                               HS_(clo_peak_inaccuracy));
      for (i = 0; i < n_snaps; i++)
         snaps[i].at.peak = False;
   }
   n_snaps++;
   if (n_snaps == HS_(clo_max_snapshots))
      min_interval = cull();
   HS_(snap_next_time) = time + min_interval;
}

void HS_(snap_maybe)(void)
{
   ULong t = HS_(now)();
   if (t < HS_(snap_next_time))
      return;
   take(SnapNormal, t, hs_ser_detailed(since_detailed,
                                       HS_(clo_detailed_freq)));
}

void HS_(snap_peak_check)(void)
{
   if (!hs_ser_new_peak(total_now(), peak_total, HS_(clo_peak_inaccuracy)))
      return;
   take(SnapPeak, HS_(now)(), True);
}

void HS_(snap_init)(void)
{
   snaps = VG_(calloc)("hs.snap.snaps", HS_(clo_max_snapshots),
                       sizeof(Snapshot));
   /* The start, at time 0; detailed only with --detailed-freq=1.  With
      --pages-as-heap=yes the first of the mappings the program starts
      with takes it (snap_maybe, due at time 0), as in Massif: its first
      snapshot has that page. */
   if (HS_(clo_pages_as_heap))
      return;
   take(SnapNormal, HS_(now)(), hs_ser_detailed(since_detailed,
                                                HS_(clo_detailed_freq)));
}

/*------------------------------------------------------------*/
/*--- Writing                                              ---*/
/*------------------------------------------------------------*/

/* The file, in Massif's format (profwriter/pw_massif.c has the details):

      desc: --depth=5 --stacks=yes       the tool options as given
      cmd: ./prog args
      time_unit: i
      #-----------
      snapshot=0
      #-----------
      time=0
      mem_heap_B=0
      mem_heap_extra_B=0
      mem_stacks_B=0
      heap_tree=empty                    empty | detailed | peak
      ...                                then the tree of a detailed one
*/

static const HChar *root_label(void)
{
   return HS_(clo_pages_as_heap)
      ? "(page allocation syscalls) mmap/mremap/brk, --alloc-fns, etc."
      : "(heap allocation functions) malloc/new/new[], --alloc-fns, etc.";
}

/* The counted sites in the order the tree wants (by address arrays),
   sorted once for all the snapshots of a file. */
static HS_Site **site_order;
static UInt      n_site_order;

static Int cmp_site_ips(const void *a, const void *b)
{
   const HS_Site *x = *(HS_Site *const *)a;
   const HS_Site *y = *(HS_Site *const *)b;
   UInt i, n = x->n_ips < y->n_ips ? x->n_ips : y->n_ips;
   for (i = 0; i < n; i++)
      if (x->ips[i] != y->ips[i])
         return x->ips[i] < y->ips[i] ? -1 : 1;
   return x->n_ips < y->n_ips ? -1 : x->n_ips > y->n_ips ? 1 : 0;
}

static void sort_sites(void)
{
   UInt i;
   if (site_order != NULL)
      VG_(free)(site_order);
   n_site_order = HS_(n_counted_sites)();
   site_order = VG_(malloc)("hs.snap.order",
                            (n_site_order ? n_site_order : 1)
                            * sizeof(HS_Site *));
   for (i = 0; i < n_site_order; i++)
      site_order[i] = HS_(site_by_id)(i);
   VG_(ssort)(site_order, n_site_order, sizeof(HS_Site *), cmp_site_ips);
}

static void write_snapshot(PW_Sink *out, UInt n, const Snapshot *s)
{
   PW_MsStack *stacks;
   UInt i, k = 0;

   pw_ms_snapshot(out, n, s->at.time, s->heap_B, s->extra_B, s->stacks_B,
                  s->tree == NULL ? "empty"
                  : s->at.peak ? "peak" : "detailed");
   if (s->tree == NULL)
      return;
   stacks = VG_(malloc)("hs.snap.write", (s->n_tree ? s->n_tree : 1)
                                         * sizeof(PW_MsStack));
   /* The sites counted when it was taken, in sorted order. */
   for (i = 0; i < n_site_order; i++) {
      const HS_Site *site = site_order[i];
      if (site->id >= s->n_tree)
         continue;
      stacks[k].ips   = site->ips;
      stacks[k].n_ips = site->n_ips;
      stacks[k].bytes = s->tree[site->id];
      k++;
   }
   pw_ms_tree_sorted(out, stacks, s->n_tree, s->heap_B, s->extra_B,
                     s->stacks_B, HS_(clo_threshold), root_label(),
                     pw_vg_describe_ip, NULL);
   VG_(free)(stacks);
}

/* The desc: line: the tool options as given, as Massif writes them. */
static void desc_line(HChar *buf, Int size)
{
   Int i, used = 0;
   buf[0] = '\0';
   for (i = 0; i < VG_(sizeXA)(HS_(given_args)) && used < size; i++)
      used += VG_(snprintf)(buf + used, size - used, "%s%s", i ? " " : "",
                            *(const HChar **)VG_(indexXA)(HS_(given_args), i));
}

Bool HS_(snap_write)(const HChar *tmpl, HS_WriteWhat what)
{
   HChar path[4096], desc[4096], cmd[4096];
   PW_File *f = pw_vg_open_output(tmpl, "heapsnap", PW_MODE_MASSIF, path,
                                  sizeof path);
   PW_Sink *out;
   Int i;

   if (f == NULL)
      return False;
   out = pw_file_sink(f);
   desc_line(desc, sizeof desc);
   pw_vg_client_cmd(cmd, sizeof cmd);
   sort_sites();
   pw_ms_header(out, desc, cmd,
                HS_(clo_time_unit) == HS_TimeI  ? "i"
                : HS_(clo_time_unit) == HS_TimeMS ? "ms" : "B");
   if (what == HS_WriteAll) {
      for (i = 0; i < n_snaps; i++)
         write_snapshot(out, i, &snaps[i]);
   } else {
      Snapshot now;
      fill(&now, SnapNormal, HS_(now)(), what == HS_WriteNowDetailed);
      write_snapshot(out, 0, &now);
      drop(&now);
   }
   if (pw_file_commit(f) != 0)
      return False;
   if (VG_(clo_verbosity) > 0)
      VG_(umsg)("heapsnap: profile written to %s\n", path);
   return True;
}
