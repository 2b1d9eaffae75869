// cxxwork: a C++ program built -O2 -g from two files and a header, for
// comparing callprof with Callgrind and heapsnap with Massif on C++ as
// compilers really leave it.  What it exercises:
//
// - templates: the class template Tally<T> (cxxwork.h) instantiated for
//   std::string and unsigned, in this file and in cxxwork_shapes.cpp;
//   the function template fold() with several lambdas; std::vector,
//   std::map, std::string, std::unique_ptr, std::function;
// - inlining across files: the header's templates and total_area() are
//   inlined into both files' functions;
// - virtual calls: Shape::area() and Shape::name() on three classes
//   that only cxxwork_shapes.cpp knows;
// - exceptions: parse_shape() (cxxwork_shapes.cpp) throws ParseError
//   from parse_size() or parse_kind(), caught in parse_all() here, three
//   and four frames up, 1 line in 7 and 1 in 11;
// - lambdas: as sort comparators, folded, and stored in std::function;
// - three std::threads, each on its own data with no lock shared.  They
//   start one at a time, each joined before the next starts, so no
//   futex is contended and the counts are the same every run (the
//   start-up and join paths of libc still follow the kernel's timing).
//
// Deterministic: no time, no randomness (a fixed linear congruential
// sequence), nothing hashed by address.  Prints one line of checksums.
#include <algorithm>
#include <cstdio>
#include <functional>
#include <thread>
#include "cxxwork.h"

namespace {

unsigned lcg_state = 4242;

unsigned next_rand()
{
   lcg_state = lcg_state * 1103515245u + 12345u;
   return lcg_state >> 8;
}

// "kind:size" lines, some of them bad.
std::vector<std::string> make_lines(unsigned n)
{
   static const char *const kinds[] = {"circle", "square", "triangle"};
   std::vector<std::string> lines;
   lines.reserve(n);
   for (unsigned i = 0; i < n; i++) {
      std::string kind = i % 11 == 5 ? "hexagon" : kinds[next_rand() % 3];
      std::string size = std::to_string(1 + next_rand() % 40);
      if (i % 7 == 3)
         size += "x";
      lines.push_back(kind + ":" + size);
   }
   return lines;
}

__attribute__((noinline)) std::unique_ptr<Shape> parse_line(
   const std::string &line, unsigned number)
{
   if (line.empty())
      throw ParseError("empty line", number);
   return parse_shape(line, number);
}

// Catches what parse_shape() throws three or four frames below.
__attribute__((noinline)) std::vector<std::unique_ptr<Shape>> parse_all(
   const std::vector<std::string> &lines, Tally<std::string> &errors)
{
   std::vector<std::unique_ptr<Shape>> shapes;
   for (unsigned i = 0; i < lines.size(); i++) {
      try {
         shapes.push_back(parse_line(lines[i], i));
      } catch (const ParseError &e) {
         errors.add(std::string(e.what()).substr(0, 8));
      }
   }
   return shapes;
}

// Thread work, each on data of its own.
__attribute__((noinline)) void sort_work(std::vector<unsigned> &v)
{
   std::sort(v.begin(), v.end(), [](unsigned a, unsigned b) {
      return (a % 1000) < (b % 1000) || ((a % 1000) == (b % 1000) && a < b);
   });
}

__attribute__((noinline)) void tally_work(const std::vector<unsigned> &v,
                                          unsigned &top)
{
   Tally<unsigned> t;
   for (unsigned x : v)
      t.add(x % 257);
   top = t.top();
}

__attribute__((noinline)) void text_work(const std::vector<unsigned> &v,
                                         std::string &out)
{
   for (unsigned x : v) {
      out += std::to_string(x % 97);
      out += ',';
   }
}

} // namespace

int main()
{
   // Parsing, with exceptions.
   Tally<std::string> errors;
   std::vector<std::unique_ptr<Shape>> shapes = parse_all(make_lines(3000), errors);

   // Virtual calls, through the header's inline function and directly.
   double area = total_area(shapes);
   Tally<std::string> names = tally_names(shapes);

   // Lambdas: a comparator, folds, and stored std::functions.
   std::sort(shapes.begin(), shapes.end(),
             [](const std::unique_ptr<Shape> &a, const std::unique_ptr<Shape> &b) {
                return a->area() < b->area();
             });
   unsigned long name_len = fold(shapes.begin(), shapes.end(), 0ul,
      [](unsigned long acc, const std::unique_ptr<Shape> &s) {
         return acc + s->name().size();
      });
   double scale = 1.5;
   std::vector<std::function<double(double)>> steps = {
      [](double x) { return x + 1; },
      [scale](double x) { return x * scale; },
      [&area](double x) { return x - area / 1e6; },
   };
   double x = 1;
   for (unsigned i = 0; i < 20000; i++)
      x = steps[i % steps.size()](x) / 1.25;

   // Three threads, one after another, each on its own data.
   std::vector<unsigned> a(20000), b(20000), c(4000);
   for (auto *v : {&a, &b, &c})
      for (auto &e : *v)
         e = next_rand();
   unsigned top = 0;
   std::string text;
   std::thread(sort_work, std::ref(a)).join();
   std::thread(tally_work, std::cref(b), std::ref(top)).join();
   std::thread(text_work, std::cref(c), std::ref(text)).join();
   unsigned long sorted_sum = fold(a.begin(), a.begin() + 100, 0ul,
      [](unsigned long acc, unsigned v) { return acc * 3 + v % 1000; });

   std::printf("cxxwork %zu shapes, %u errors (%s), top name %s, "
               "%lu %.3f %.3f %lu %u %zu\n",
               shapes.size(), errors.total(), errors.top().c_str(),
               names.top().c_str(), name_len, area, x, sorted_sum, top,
               text.size());
   return 0;
}
