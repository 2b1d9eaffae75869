// cxxwork_shapes.cpp: the second file of cxxwork (see cxxwork_main.cpp).
//
// Three classes derived from Shape, made by a factory that returns a
// std::unique_ptr; a parser whose innermost frame throws ParseError; and
// tally_names(), which instantiates cxxwork.h's Tally<std::string> here
// as cxxwork_main.cpp does there.
#include <cmath>
#include "cxxwork.h"

namespace {

class Circle : public Shape {
public:
   explicit Circle(double r) : r_(r) {}
   double area() const override { return 3.14159 * r_ * r_; }
   std::string name() const override { return "circle"; }

private:
   double r_;
};

class Square : public Shape {
public:
   explicit Square(double side) : side_(side) {}
   double area() const override { return side_ * side_; }
   std::string name() const override { return "square"; }

private:
   double side_;
};

class Triangle : public Shape {
public:
   explicit Triangle(double side) : side_(side) {}
   double area() const override { return std::sqrt(3.0) / 4 * side_ * side_; }
   std::string name() const override { return "triangle"; }

private:
   double side_;
};

// The innermost frame of parse_shape(): throws for a bad number.
__attribute__((noinline)) double parse_size(const std::string &text,
                                            unsigned line)
{
   double v = 0;
   bool any = false;
   for (char c : text) {
      if (c < '0' || c > '9')
         throw ParseError("bad size '" + text + "'", line);
      v = v * 10 + (c - '0');
      any = true;
   }
   if (!any)
      throw ParseError("empty size", line);
   return v;
}

__attribute__((noinline)) unsigned parse_kind(const std::string &text,
                                              unsigned line)
{
   if (text == "circle")
      return 0;
   if (text == "square")
      return 1;
   if (text == "triangle")
      return 2;
   throw ParseError("bad kind '" + text + "'", line);
}

} // namespace

std::unique_ptr<Shape> make_shape(unsigned kind, double size)
{
   switch (kind % 3) {
   case 0:  return std::make_unique<Circle>(size);
   case 1:  return std::make_unique<Square>(size);
   default: return std::make_unique<Triangle>(size);
   }
}

std::unique_ptr<Shape> parse_shape(const std::string &text, unsigned line)
{
   std::string::size_type colon = text.find(':');
   if (colon == std::string::npos)
      throw ParseError("no colon", line);
   unsigned kind = parse_kind(text.substr(0, colon), line);
   return make_shape(kind, parse_size(text.substr(colon + 1), line));
}

Tally<std::string> tally_names(const std::vector<std::unique_ptr<Shape>> &shapes)
{
   Tally<std::string> names;
   for (const auto &s : shapes)
      names.add(s->name());
   return names;
}
