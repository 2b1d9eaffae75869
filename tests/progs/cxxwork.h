// cxxwork.h: what the two files of cxxwork share (see cxxwork_main.cpp).
//
// The templates here are instantiated in both files, and their code is
// inlined there: Tally<T>::add() into cxxwork_main.cpp's functions and
// into cxxwork_shapes.cpp's, so each file's functions hold lines of this
// header.  total_area() is inlined into main() and makes virtual calls to
// classes defined in cxxwork_shapes.cpp.
#ifndef CXXWORK_H
#define CXXWORK_H

#include <map>
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

// A class template: counts of values, kept in a std::map.
template <typename T>
class Tally {
public:
   void add(const T &value, unsigned n = 1)
   {
      counts_[value] += n;
      total_ += n;
   }
   unsigned total() const { return total_; }
   std::size_t distinct() const { return counts_.size(); }
   // The most frequent value (the smallest of equals).
   T top() const
   {
      T best{};
      unsigned best_n = 0;
      for (const auto &kv : counts_)
         if (kv.second > best_n) {
            best = kv.first;
            best_n = kv.second;
         }
      return best;
   }

private:
   std::map<T, unsigned> counts_;
   unsigned total_ = 0;
};

// A function template taking any callable: a fold over a range.
template <typename It, typename Acc, typename F>
Acc fold(It begin, It end, Acc acc, F f)
{
   for (; begin != end; ++begin)
      acc = f(acc, *begin);
   return acc;
}

// Shapes, defined in cxxwork_shapes.cpp, called virtually.
class Shape {
public:
   virtual ~Shape() = default;
   virtual double area() const = 0;
   virtual std::string name() const = 0;
};

std::unique_ptr<Shape> make_shape(unsigned kind, double size);

// Thrown three frames below where it is caught.
class ParseError : public std::runtime_error {
public:
   ParseError(const std::string &what, unsigned where)
      : std::runtime_error(what), where_(where) {}
   unsigned where() const { return where_; }

private:
   unsigned where_;
};

// cxxwork_shapes.cpp: parses "kind:size"; throws ParseError.
std::unique_ptr<Shape> parse_shape(const std::string &text, unsigned line);

// cxxwork_shapes.cpp: names tallied there, with this header's Tally.
Tally<std::string> tally_names(const std::vector<std::unique_ptr<Shape>> &shapes);

inline double total_area(const std::vector<std::unique_ptr<Shape>> &shapes)
{
   double sum = 0;
   for (const auto &s : shapes)
      sum += s->area();
   return sum;
}

#endif
