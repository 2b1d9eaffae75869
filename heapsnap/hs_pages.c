/* hs_pages.c: --pages-as-heap=yes: memory counted at the page level, as
   the program maps it with mmap, mremap and brk.

   Copyright (C) 2026 The heapsnap/callprof developers.
   SPDX-License-Identifier: GPL-2.0-or-later

   What is counted is Massif's.  Every page the program has mapped is a
   "block" of one page: the mappings present when it starts (its
   executable, the dynamic loader, its first stack), then every mmap and
   every page the break moves over, each at the call stack of the system
   call that mapped it (HS_(site_here)(tid, 0)); munmap, mremap and a
   break moving down take pages away.  The tree's root says "(page
   allocation syscalls) mmap/mremap/brk" (hs_snap.c).  Pages carry no
   admin bytes: --heap-admin is 0 in this mode, as in Massif.

   malloc is not counted at all: pages mapped by malloc are counted as
   pages.  So the malloc replacement must not run.  Massif's way is kept:
   LD_PRELOAD, which the core has already set up for the client, loses its
   vgpreload_heapsnap entry before the client starts, so the client's own
   malloc runs.  Client requests of custom allocators (MALLOCLIKE_BLOCK
   ...) are still counted, as Massif does.

   Each page is a node of a hash table keyed by its address, pointing to
   its site, as Massif keeps one block per page.  A mapping is counted in
   one step (one HS_(count) for its pages), an unmapping in one step per
   run of pages of one site, the first with the peak check; Massif counts
   page by page, with snapshot decisions at the first or last page only,
   which gives the same peak.

   The break.  A page is counted while any byte of it is below the break:
   moving the break from A to A+LEN maps the pages from A rounded up to
   A+LEN rounded up.  For page-aligned moves this is Massif's count;
   Massif's own rounding counts the page holding an unaligned break twice
   when the break moves up over a page boundary.

   With --stacks=yes as well (Massif refuses the pair), stacks are counted
   as stacks, not as pages: when a thread first runs, the pages of its
   stack segment (the core's idea of its stack: the main stack, or the
   mapping a thread's stack pointer starts in) that are counted as pages
   stop being counted, and are not counted again when they are unmapped.
   Until then (between pthread_create's mmap and the thread's start) they
   are pages; a thread stack's guard page stays a page. */

#include "pub_tool_basics.h"
#include "pub_tool_hashtable.h"
#include "pub_tool_libcassert.h"
#include "pub_tool_libcbase.h"
#include "pub_tool_libcproc.h"
#include "pub_tool_machine.h"
#include "pub_tool_mallocfree.h"
#include "pub_tool_poolalloc.h"
#include "pub_tool_threadstate.h"
#include "pub_tool_tooliface.h"

#include "hs.h"

typedef struct Page {
   struct Page *next;        /* VgHashNode */
   UWord        key;         /* the page's address */
   HS_Site     *site;
   Bool         is_stack;    /* counted by hs_stacks.c, not here */
} Page;

static VgHashTable *pages;
static PoolAlloc   *page_pool;

/*------------------------------------------------------------*/
/*--- Counting pages                                       ---*/
/*------------------------------------------------------------*/

/* The pages of [A, A+LEN) (page-aligned) are gone: one count per run of
   pages of one site (the first with the peak check, before anything
   went down). */
static void unmap_pages(Addr a, SizeT len)
{
   HS_Site *run_site = NULL;
   SizeT run_B = 0;
   Addr p;

   for (p = a; p < a + len; p += VKI_PAGE_SIZE) {
      Page *pg = VG_(HT_remove)(pages, p);
      if (pg == NULL)
         continue;
      if (!pg->is_stack) {
         if (pg->site != run_site && run_B > 0) {
            HS_(count)(run_site, -(SSizeT)run_B, 0, True);
            run_B = 0;
         }
         run_site = pg->site;
         run_B += VKI_PAGE_SIZE;
      }
      VG_(freeEltPA)(page_pool, pg);
   }
   if (run_B > 0)
      HS_(count)(run_site, -(SSizeT)run_B, 0, True);
}

/* The pages of [A, A+LEN) (page-aligned) are mapped at SITE.  Pages
   already there (a MAP_FIXED mapping over another, as the dynamic loader
   maps a library's segments over its reservation) are unmapped first:
   a page is counted once.  (Massif counts such a page again, once per
   mapping.) */
static void map_pages(Addr a, SizeT len, HS_Site *site)
{
   Addr p;

   unmap_pages(a, len);
   for (p = a; p < a + len; p += VKI_PAGE_SIZE) {
      Page *pg = VG_(allocEltPA)(page_pool);
      pg->key = p;
      pg->site = site;
      pg->is_stack = False;
      VG_(HT_add_node)(pages, pg);
   }
   HS_(count)(site, len, 0, False);
}

static HS_Site *site_now(void)
{
   return HS_(site_here)(VG_(get_running_tid)(), 0);
}

/*------------------------------------------------------------*/
/*--- The core's memory events                             ---*/
/*------------------------------------------------------------*/

/* Startup mappings are page-sized but for the trampoline page, which the
   core reports at the trampoline's size: rounded up, as Massif does. */
static void new_mem_startup(Addr a, SizeT len, Bool rr, Bool ww, Bool xx,
                            ULong di_handle)
{
   map_pages(a, VG_PGROUNDUP(len), site_now());
}

static void new_mem_mmap(Addr a, SizeT len, Bool rr, Bool ww, Bool xx,
                         ULong di_handle)
{
   map_pages(a, len, site_now());
}

static void copy_mem_remap(Addr from, Addr to, SizeT len)
{
   unmap_pages(from, len);
   map_pages(to, len, site_now());
}

static void die_mem_munmap(Addr a, SizeT len)
{
   unmap_pages(a, len);
}

/* The break moved up from A to A+LEN, or down from A+LEN to A. */
static void new_mem_brk(Addr a, SizeT len, ThreadId tid)
{
   Addr lo = VG_PGROUNDUP(a), hi = VG_PGROUNDUP(a + len);
   if (hi > lo)
      map_pages(lo, hi - lo, HS_(site_here)(tid, 0));
}

static void die_mem_brk(Addr a, SizeT len)
{
   Addr lo = VG_PGROUNDUP(a), hi = VG_PGROUNDUP(a + len);
   if (hi > lo)
      unmap_pages(lo, hi - lo);
}

/*------------------------------------------------------------*/
/*--- Stacks counted as stacks                             ---*/
/*------------------------------------------------------------*/

void HS_(pages_stack_started)(ThreadId tid)
{
   Addr hi = VG_(thread_get_stack_max)(tid);
   SizeT size = VG_(thread_get_stack_size)(tid);
   Addr p;

   if (hi == 0 || size == 0)
      return;
   for (p = VG_PGROUNDDN(hi + 1 - size); p <= hi; p += VKI_PAGE_SIZE) {
      Page *pg = VG_(HT_lookup)(pages, p);
      if (pg != NULL && !pg->is_stack) {
         HS_(count)(pg->site, -(SSizeT)VKI_PAGE_SIZE, 0, True);
         pg->is_stack = True;
      }
   }
}

/*------------------------------------------------------------*/
/*--- Setup                                                ---*/
/*------------------------------------------------------------*/

/* Take vgpreload_heapsnap out of the client's LD_PRELOAD (a list
   separated by ':'), with one separator. */
static void drop_malloc_preload(void)
{
   HChar *list = VG_(getenv)(VG_(LD_PRELOAD_var_name));
   HChar *start, *end;

   if (list == NULL || (start = VG_(strstr)(list, "vgpreload_heapsnap"))
                       == NULL)
      return;
   while (start > list && start[-1] != ':')
      start--;
   for (end = start; *end != '\0' && *end != ':'; end++)
      ;
   if (*end == ':')
      end++;
   else if (start > list)
      start--;
   VG_(memmove)(start, end, VG_(strlen)(end) + 1);
}

void HS_(pages_post_clo_init)(void)
{
   if (!HS_(clo_pages_as_heap))
      return;
   HS_(clo_heap_admin) = 0;
   drop_malloc_preload();
   pages = VG_(HT_construct)("heapsnap pages");
   page_pool = VG_(newPA)(sizeof(Page), 1000, VG_(malloc), "hs.pages.pages",
                          VG_(free));
   VG_(track_new_mem_startup)(new_mem_startup);
   VG_(track_new_mem_mmap)   (new_mem_mmap);
   VG_(track_copy_mem_remap) (copy_mem_remap);
   VG_(track_die_mem_munmap) (die_mem_munmap);
   VG_(track_new_mem_brk)    (new_mem_brk);
   VG_(track_die_mem_brk)    (die_mem_brk);
}
