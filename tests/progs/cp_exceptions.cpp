// cp_exceptions.cpp: C++ exceptions thrown through several frames.
//
// thrower() throws from 4 frames below catcher(), 100 times; the
// unwinder leaves those frames by resetting the stack pointer, never by
// returning, so only unwinding by SP closes them.
#include <cstdio>
#include <stdexcept>

static volatile unsigned long sink;

static void thrower(int depth)
{
   sink += depth;
   if (depth == 0)
      throw std::runtime_error("deep");
   thrower(depth - 1);
}

static void middle(int i)
{
   sink += i;
   thrower(3);
}

static int catcher(int i)
{
   try {
      middle(i);
   } catch (const std::exception &e) {
      return 1;
   }
   return 0;
}

int main()
{
   int caught = 0;
   for (int i = 0; i < 100; i++)
      caught += catcher(i);
   std::printf("%d %lu\n", caught, sink);
   return 0;
}
