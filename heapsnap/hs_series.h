/* hs_series.h: which snapshots heapsnap takes and which it keeps:
   Massif's rules, in plain C.

   Copyright (C) 2026 The heapsnap/callprof developers.
   SPDX-License-Identifier: GPL-2.0-or-later

   hs_snap.c takes the snapshots and owns their contents; the decisions
   that shape the series are here, as pure functions that include no
   header, so that the same code is compiled into the tool and on the
   host, where tests/unit/test_series checks them on series written out
   by hand.  The rules (Massif 3.19's, ms_main.c):

   - Every --detailed-freq'th snapshot is detailed (the first with
     --detailed-freq=1 only).
   - A peak: just before the total goes down, a detailed peak snapshot
     is taken if the total exceeds the last peak's by more than
     --peak-inaccuracy percent of it (the byte count truncated).
   - Culling: when the table is full, half of it is removed one snapshot
     at a time, each time the one whose two neighbours are closest in
     time (the first such on a tie), never the first, the last or the
     peak.  The new minimum interval between regular snapshots is then
     the smallest gap between neighbours, leaving out gaps between two
     snapshots that can never be culled (they would pin it for ever).

   A snapshot array is read through its elements' first member, an
   HS_Moment, so hs_snap.c keeps its own element type. */

#ifndef HS_SERIES_H
#define HS_SERIES_H

typedef struct {
   unsigned long long time;
   int                peak;     /* the peak snapshot (at most one) */
} HS_Moment;

static inline const HS_Moment *hs_ser_at(const void *snaps,
                                         unsigned long stride, int i)
{
   return (const HS_Moment *)((const char *)snaps + i * stride);
}

/* Whether the next snapshot, after SINCE_DETAILED regular ones since the
   last detailed one (counting from the start), is detailed. */
static inline int hs_ser_detailed(int since_detailed, int detailed_freq)
{
   return since_detailed == detailed_freq - 1;
}

/* The total above which a new peak is taken, after a peak of
   PEAK_TOTAL bytes, with --peak-inaccuracy=INACCURACY percent. */
static inline unsigned long hs_ser_peak_above(unsigned long peak_total,
                                              double inaccuracy)
{
   return peak_total + (unsigned long)(peak_total * inaccuracy / 100);
}

/* Whether TOTAL bytes make a new peak over the last peak's PEAK_TOTAL. */
static inline int hs_ser_new_peak(unsigned long total,
                                  unsigned long peak_total,
                                  double inaccuracy)
{
   return total > hs_ser_peak_above(peak_total, inaccuracy);
}

/* The snapshot of the N to cull next; -1 if none can be. */
static inline int hs_ser_victim(const void *snaps, unsigned long stride,
                                int n)
{
   int i, best = -1;
   unsigned long long best_span = ~0ULL;
   for (i = 1; i + 1 < n; i++) {
      unsigned long long span = hs_ser_at(snaps, stride, i + 1)->time
                                - hs_ser_at(snaps, stride, i - 1)->time;
      if (!hs_ser_at(snaps, stride, i)->peak && span < best_span) {
         best_span = span;
         best = i;
      }
   }
   return best;
}

static inline int hs_ser_uncullable(const void *snaps, unsigned long stride,
                                    int n, int i)
{
   return i == 0 || i == n - 1 || hs_ser_at(snaps, stride, i)->peak;
}

/* The minimum interval after a cull: the smallest gap between two
   neighbours of the N, not both uncullable; ~0 if there is none. */
static inline unsigned long long hs_ser_min_gap(const void *snaps,
                                                unsigned long stride, int n)
{
   unsigned long long gap = ~0ULL;
   int i;
   for (i = 1; i < n; i++) {
      unsigned long long d;
      if (hs_ser_uncullable(snaps, stride, n, i) &&
          hs_ser_uncullable(snaps, stride, n, i - 1))
         continue;
      d = hs_ser_at(snaps, stride, i)->time
          - hs_ser_at(snaps, stride, i - 1)->time;
      if (d < gap)
         gap = d;
   }
   return gap;
}

#endif /* HS_SERIES_H */
