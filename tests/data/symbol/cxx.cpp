// The C++ part of prog: a method of a class in a namespace, whose DWARF
// linkage name (_ZN5shapes7Counter3addEj) profdiff demangles, with its
// parameters, as c++filt does.
namespace shapes {
class Counter {
public:
	unsigned total = 0;
	__attribute__((noinline)) unsigned add(unsigned n);
};

unsigned
Counter::add(unsigned n)
{
	for (unsigned i = 0; i < n; i++)
		total += (i ^ total) % 11;
	return total;
}
}

extern "C" unsigned
cxx_work(unsigned n)
{
	shapes::Counter c;

	return c.add(n);
}
