/* cwork: a C program built -O2 -g from two files and a header, for
   comparing callprof with Callgrind and heapsnap with Massif on code as
   compilers really leave it.  What it exercises:

   - inlining across files: helper() and new_record(), always inlined
     from cwork.h; helper() calls leaf() of cwork_leaf.c, so that call
     site lies in inlined code from another file, and new_record()'s
     malloc() is an allocation site in inlined code;
   - two static functions named scale(), one here, one in cwork_leaf.c;
   - calls through a table of function pointers (the mix_*() functions);
   - a recursive function (sum_range(), two self calls per level);
   - a tail call (leaf_scaled() jumps to leaf()), and tail recursion
     turned into a loop (count_down());
   - a loop whose branches go both ways, so jumps and conditional jumps
     are plentiful (--collect-jumps=yes);
   - malloc, calloc, realloc and free of many sizes, so the heap tree has
     several sites, some inlined, and a peak before the frees;
   - libc: strlen(), memcpy(), and qsort() calling back into
     by_key_then_len().

   Deterministic: no time, no randomness (a fixed linear congruential
   sequence), nothing that depends on addresses.  Prints one checksum. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "cwork.h"

#define NRECORDS 2000

static unsigned (*const mixers[])(unsigned, unsigned) = {
   mix_add, mix_xor, mix_rot,
};

static unsigned lcg_state = 12345;

static unsigned next_rand(void)
{
   lcg_state = lcg_state * 1103515245u + 12345u;
   return lcg_state >> 8;
}

/* Same name as cwork_leaf.c's, another function. */
__attribute__((noinline)) static unsigned scale(unsigned x)
{
   return (x << 2) - x / 7;
}

/* Recursive, not tail-recursive: two calls per level. */
__attribute__((noinline)) static unsigned sum_range(unsigned lo, unsigned hi)
{
   if (hi - lo < 4) {
      unsigned s = 0;
      for (unsigned i = lo; i < hi; i++)
         s += helper(i);
      return s;
   }
   unsigned mid = lo + (hi - lo) / 2;
   return sum_range(lo, mid) ^ (sum_range(mid, hi) * 3);
}

/* The branchy loop: which way each branch goes depends on the data. */
__attribute__((noinline)) static unsigned branchy(unsigned n)
{
   unsigned acc = 0;
   for (unsigned i = 0; i < n; i++) {
      unsigned h = helper(i);
      if (h & 1)
         acc += h >> 3;
      else
         acc ^= h;
      switch (h % 5) {
      case 0:  acc += scale(i); break;
      case 1:  acc = mixers[i % 3](acc, h); break;
      case 2:  acc -= leaf_scaled(h); break;
      default: acc += i; break;
      }
   }
   return acc;
}

static int by_key_then_len(const void *a, const void *b)
{
   const struct record *ra = *(struct record *const *)a;
   const struct record *rb = *(struct record *const *)b;
   if (ra->key != rb->key)
      return ra->key < rb->key ? -1 : 1;
   return ra->len < rb->len ? -1 : ra->len > rb->len;
}

/* Records with text of 8 to 200 bytes; the text is copied in with
   memcpy() and measured with strlen(). */
__attribute__((noinline)) static struct record **make_records(unsigned n)
{
   static const char words[] =
      "the quick brown fox jumps over the lazy dog and keeps on running "
      "past the river and the hills until the evening comes down at last "
      "over the valley where the old mill stands by the water";
   struct record **all = calloc(n, sizeof *all);
   for (unsigned i = 0; i < n; i++) {
      unsigned len = 8 + next_rand() % 193;
      struct record *r = new_record(next_rand() % 500, len);
      r->text = malloc(len + 1);
      memcpy(r->text, words + (i % 16), len);
      r->text[len] = '\0';
      r->len = (unsigned)strlen(r->text);
      all[i] = r;
   }
   return all;
}

/* A buffer grown by realloc() in uneven steps, then shrunk. */
__attribute__((noinline)) static unsigned grow_buffer(struct record **all,
                                                      unsigned n)
{
   size_t cap = 16, used = 0;
   char *buf = malloc(cap);
   for (unsigned i = 0; i < n; i += 7) {
      size_t len = all[i]->len;
      if (used + len + 1 > cap) {
         cap = (used + len + 1) * 3 / 2;
         buf = realloc(buf, cap);
      }
      memcpy(buf + used, all[i]->text, len);
      used += len;
      buf[used++] = ' ';
   }
   buf = realloc(buf, used + 1);
   buf[used] = '\0';
   unsigned sum = 0;
   for (size_t i = 0; i < used; i += 13)
      sum = sum * 31 + (unsigned char)buf[i];
   free(buf);
   return sum;
}

int main(void)
{
   unsigned check = 0;

   struct record **all = make_records(NRECORDS);
   qsort(all, NRECORDS, sizeof *all, by_key_then_len);
   for (unsigned i = 0; i < NRECORDS; i += 97)
      check = check * 7 + all[i]->key + all[i]->len;

   check ^= grow_buffer(all, NRECORDS);
   check += branchy(60000);
   check ^= sum_range(0, 20000);
   check += count_down(5000, 1);

   /* Free every other record's text first, then the rest: the peak is
      before the frees. */
   for (unsigned i = 0; i < NRECORDS; i += 2)
      free(all[i]->text);
   for (unsigned i = 0; i < NRECORDS; i++) {
      if (i % 2)
         free(all[i]->text);
      free(all[i]);
   }
   free(all);

   printf("cwork %u\n", check);
   return 0;
}
