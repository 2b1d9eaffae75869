/* diffwork.c: two versions of one program, for profdiff's tests.

   Built twice: diffwork_base as it is, diffwork_new with -DSLOWER_HASH,
   which makes hash_word() do its mixing three times instead of once, a
   change a reviewer would want blamed on hash_word alone.  Everything
   else does the same work in both: count_words() calls hash_word() once
   per word, sort_counts() sorts the table, and checksum() adds it up.
   Built at -O2 the compiler may clone functions (.isra, .constprop),
   which profdiff folds. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define WORDS   40000
#define BUCKETS 4096

static unsigned counts[BUCKETS];

__attribute__((noinline)) static unsigned hash_word(const char *w, size_t n)
{
   unsigned h = 2166136261u;
   int rounds = 1, r;
   size_t i;
#ifdef SLOWER_HASH
   rounds = 3;
#endif
   for (r = 0; r < rounds; r++)
      for (i = 0; i < n; i++) {
         h ^= (unsigned char)w[i];
         h *= 16777619u;
      }
   return h;
}

__attribute__((noinline)) static void count_words(const char *text, size_t len)
{
   size_t i = 0;
   while (i < len) {
      size_t start = i;
      while (i < len && text[i] != ' ')
         i++;
      counts[hash_word(text + start, i - start) % BUCKETS]++;
      i++;
   }
}

static int by_count(const void *a, const void *b)
{
   unsigned x = *(const unsigned *)a, y = *(const unsigned *)b;
   return x < y ? -1 : x > y;
}

__attribute__((noinline)) static void sort_counts(void)
{
   qsort(counts, BUCKETS, sizeof counts[0], by_count);
}

__attribute__((noinline)) static unsigned long checksum(void)
{
   unsigned long s = 0;
   int i;
   for (i = 0; i < BUCKETS; i++)
      s = s * 31 + counts[i];
   return s;
}

int main(void)
{
   static const char *const words[] = { "alpha", "beta", "gamma", "delta",
      "epsilon", "zeta", "eta", "theta", "iota", "kappa" };
   size_t len = 0, i;
   char *text = malloc(WORDS * 9);
   if (text == NULL)
      return 1;
   for (i = 0; i < WORDS; i++) {
      const char *w = words[(i * 7 + i / 3) % 10];
      memcpy(text + len, w, strlen(w));
      len += strlen(w);
      text[len++] = ' ';
   }
   count_words(text, len);
   sort_counts();
   printf("%lu\n", checksum());
   free(text);
   return 0;
}
