/* cxx_bench: the benchmark's C++ workload (issue 17), a program written
 * the way ordinary C++ is, for tests/bench/run to time under our tools
 * and Valgrind's next to the real programs (perl, sqlite3, python3, xz).
 *
 *     cxx_bench [ROUNDS]
 *
 * Built for `make bench` only, with -O2 -g as real programs are.  Each
 * round does what typical C++ code spends its time on: counting words in
 * a std::map<std::string, int> and a std::unordered_map (inserts, then
 * lookups of words present and absent), virtual calls through a
 * std::vector<std::unique_ptr<Shape>>, std::sort with a lambda comparator
 * on records holding strings, std::string concatenation with
 * std::to_string, and a small recursive binary tree built, walked and
 * freed.  So it allocates many small blocks of many sizes and makes many
 * short calls, inlined and not.  Deterministic (its own pseudo-random
 * generator, fixed seed; no clock): every run does the same work.
 * Prints one checksum line.  About 0.4 s natively with the default
 * number of rounds.
 *
 * Copyright (C) 2026 The heapsnap/callprof developers.
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <map>
#include <memory>
#include <string>
#include <unordered_map>
#include <vector>

namespace {

// A linear congruential generator, so that the work is the same in every run.
class Rng {
public:
   explicit Rng(std::uint64_t seed) : state_(seed) {}
   std::uint32_t next()
   {
      state_ = state_ * 6364136223846793005ull + 1442695040888963407ull;
      return static_cast<std::uint32_t>(state_ >> 33);
   }
   std::uint32_t below(std::uint32_t n) { return next() % n; }

private:
   std::uint64_t state_;
};

// A word of 3 to 10 lower-case letters, from a vocabulary of about
// `vocab` words: the same index gives the same word.
std::string word(std::uint32_t index)
{
   std::string w;
   std::uint32_t x = index * 2654435761u + 12345u;
   std::size_t len = 3 + index % 8;
   for (std::size_t i = 0; i < len; i++) {
      w += static_cast<char>('a' + x % 26);
      x = x / 26 + (x << 7) + i;
   }
   return w;
}

std::uint64_t fnv(const std::string &s)
{
   std::uint64_t h = 1469598103934665603ull;
   for (unsigned char c : s)
      h = (h ^ c) * 1099511628211ull;
   return h;
}

// Word counts in an ordered map: inserts, then lookups.
std::uint64_t ordered_counts(Rng &rng, int n, std::uint32_t vocab)
{
   std::map<std::string, int> counts;
   for (int i = 0; i < n; i++)
      counts[word(rng.below(vocab))]++;
   std::uint64_t sum = counts.size();
   for (int i = 0; i < n; i++) {
      auto it = counts.find(word(rng.below(vocab * 2)));
      if (it != counts.end())
         sum += static_cast<std::uint64_t>(it->second) * (i & 7);
   }
   // The first and last keys, in order.
   sum += fnv(counts.begin()->first) ^ fnv(counts.rbegin()->first);
   return sum;
}

// The same in a hash table.
std::uint64_t hashed_counts(Rng &rng, int n, std::uint32_t vocab)
{
   std::unordered_map<std::string, int> counts;
   for (int i = 0; i < n; i++)
      counts[word(rng.below(vocab))] += 1 + (i & 3);
   std::uint64_t sum = counts.size();
   for (int i = 0; i < n; i++) {
      auto it = counts.find(word(rng.below(vocab * 2)));
      if (it != counts.end())
         sum += static_cast<std::uint64_t>(it->second);
      else
         counts.emplace(word(rng.below(vocab * 4)), 1);
   }
   return sum + counts.size();
}

// Shapes behind a base class: virtual calls the compiler cannot resolve.
class Shape {
public:
   virtual ~Shape() = default;
   virtual double area() const = 0;
   virtual void scale(double f) = 0;
   virtual const char *name() const = 0;
};

class Circle : public Shape {
public:
   explicit Circle(double r) : r_(r) {}
   double area() const override { return 3.14159265358979 * r_ * r_; }
   void scale(double f) override { r_ *= f; }
   const char *name() const override { return "circle"; }

private:
   double r_;
};

class Rect : public Shape {
public:
   Rect(double w, double h) : w_(w), h_(h) {}
   double area() const override { return w_ * h_; }
   void scale(double f) override { w_ *= f; h_ *= f; }
   const char *name() const override { return "rect"; }

private:
   double w_, h_;
};

class Triangle : public Shape {
public:
   Triangle(double b, double h) : b_(b), h_(h) {}
   double area() const override { return 0.5 * b_ * h_; }
   void scale(double f) override { b_ *= f; h_ *= f; }
   const char *name() const override { return "triangle"; }

private:
   double b_, h_;
};

std::uint64_t shapes(Rng &rng, int n, int passes)
{
   std::vector<std::unique_ptr<Shape>> v;
   v.reserve(n);
   for (int i = 0; i < n; i++) {
      double a = 1 + rng.below(100) / 10.0, b = 1 + rng.below(100) / 10.0;
      switch (rng.below(3)) {
      case 0: v.push_back(std::make_unique<Circle>(a)); break;
      case 1: v.push_back(std::make_unique<Rect>(a, b)); break;
      default: v.push_back(std::make_unique<Triangle>(a, b)); break;
      }
   }
   double total = 0;
   std::uint64_t names = 0;
   for (int p = 0; p < passes; p++) {
      for (auto &s : v) {
         s->scale(p & 1 ? 0.5 : 2.0);
         total += s->area();
         names += s->name()[0];
      }
   }
   return static_cast<std::uint64_t>(total) + names;
}

// Records sorted with a lambda: by score, then by name.
struct Record {
   std::string name;
   int score;
   int id;
};

std::uint64_t sorted_records(Rng &rng, int n)
{
   std::vector<Record> recs;
   recs.reserve(n);
   for (int i = 0; i < n; i++)
      recs.push_back({word(rng.below(5000)), static_cast<int>(rng.below(100)), i});
   std::sort(recs.begin(), recs.end(), [](const Record &a, const Record &b) {
      if (a.score != b.score)
         return a.score > b.score;
      return a.name < b.name;
   });
   std::uint64_t sum = 0;
   for (std::size_t i = 0; i < recs.size(); i += 97)
      sum = sum * 31 + static_cast<std::uint64_t>(recs[i].id);
   // And once more by name length, stable so that equal lengths keep order.
   std::stable_sort(recs.begin(), recs.end(), [](const Record &a, const Record &b) {
      return a.name.size() < b.name.size();
   });
   return sum + static_cast<std::uint64_t>(recs.front().id) * 7 +
          static_cast<std::uint64_t>(recs.back().id);
}

// Lines of text built by concatenation, as a report or a log would be.
std::uint64_t strings(Rng &rng, int n)
{
   std::string text;
   std::uint64_t sum = 0;
   for (int i = 0; i < n; i++) {
      std::string line = "item " + std::to_string(i) + ": ";
      line += word(rng.below(1000));
      line += " = ";
      line += std::to_string(rng.below(1000000));
      if (i % 3 == 0)
         line = "[" + line + "]";
      text += line;
      text += '\n';
      if (text.size() > 4096) {
         sum += fnv(text);
         text.clear();
      }
   }
   return sum + fnv(text);
}

// A binary tree, built, walked and freed recursively.
struct Node {
   int value;
   std::unique_ptr<Node> left, right;
};

std::unique_ptr<Node> build(Rng &rng, int depth)
{
   auto n = std::make_unique<Node>();
   n->value = static_cast<int>(rng.below(1000));
   if (depth > 0) {
      n->left = build(rng, depth - 1);
      if (rng.below(4) != 0)
         n->right = build(rng, depth - 1);
   }
   return n;
}

std::uint64_t walk(const Node *n, int depth)
{
   if (n == nullptr)
      return 0;
   return static_cast<std::uint64_t>(n->value) * (depth + 1) +
          walk(n->left.get(), depth + 1) + walk(n->right.get(), depth + 1);
}

} // namespace

int main(int argc, char **argv)
{
   int rounds = argc > 1 ? std::atoi(argv[1]) : 20;
   Rng rng(0x2545f4914f6cdd1dull);
   std::uint64_t sum = 0;
   for (int r = 0; r < rounds; r++) {
      sum += ordered_counts(rng, 20000, 4000);
      sum += hashed_counts(rng, 30000, 6000);
      sum += shapes(rng, 5000, 8);
      sum += sorted_records(rng, 20000);
      sum += strings(rng, 20000);
      auto tree = build(rng, 14);
      sum += walk(tree.get(), 0);
   }
   std::printf("cxx_bench: %d rounds, checksum %016llx\n", rounds,
               static_cast<unsigned long long>(sum));
   return 0;
}
