/* cxxnew.cpp: C++ allocation with new, new[], delete and delete[].

   make_nodes() allocates 100 Nodes (new, 48 bytes each), make_arrays()
   10 arrays of 250 ints (new[], 1,000 bytes each) and make_objs() one
   array of 20 Objs with a destructor (new[] adds the count before the
   array: 20 * 32 + 8 bytes).  Then everything is deleted, the nodes
   first: the peak is the moment before that first delete. */
#include <cstdio>

struct Node {
   Node *next;
   long  payload[5];
};

struct Obj {
   long v[4];
   Obj() : v() {}
   ~Obj() { v[0] = 0; }
};

static Node *volatile nodes[100];
static int *volatile arrays[10];
static Obj *volatile objs;

static void make_nodes()
{
   for (int i = 0; i < 100; i++)
      nodes[i] = new Node();
}

static void make_arrays()
{
   for (int i = 0; i < 10; i++)
      arrays[i] = new int[250]();
}

static void make_objs()
{
   objs = new Obj[20];
}

int main()
{
   make_nodes();
   make_arrays();
   make_objs();
   for (int i = 0; i < 100; i++)
      delete nodes[i];
   for (int i = 0; i < 10; i++)
      delete[] arrays[i];
   delete[] objs;
   std::puts("done");
   return 0;
}
