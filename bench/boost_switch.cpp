// SPDX-License-Identifier: MIT
/*
 * The Boost.Context anchor for bench_switch (issue 19): a fiber and its
 * caller resuming each other, the switch C++ coroutine libraries build on
 * (Debian's libboost-context-dev, fcontext: registers only, no syscall).
 * A C entry point, so the C bench calls it like its other cases.
 */
#include <boost/context/fiber.hpp>
#include <utility>

namespace ctx = boost::context;

extern "C" void bench_boost_fiber(long round_trips);

/* Out of line and by name, for callgrind: @round_trips resumes each way. */
extern "C" __attribute__((noinline)) void bench_boost_fiber(long round_trips)
{
	ctx::fiber f{[round_trips](ctx::fiber &&caller) {
		for (long i = 0; i < round_trips; i++)
			caller = std::move(caller).resume();
		return std::move(caller);
	}};

	for (long i = 0; i < round_trips; i++)
		f = std::move(f).resume();
	f = std::move(f).resume(); /* lets the fiber return */
}
