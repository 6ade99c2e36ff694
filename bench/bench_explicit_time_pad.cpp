// Linked first into mechdyn_bench_explicit_time: MECHDYN_BENCH_CODE_PAD bytes of code that
// is never run, so that every function after it (the library's included) moves by that
// much. scripts/explicit_time.sh times the same build at several paddings, because the
// ratio of two functions' times moves by a few per cent with their alignment.
#ifndef MECHDYN_BENCH_CODE_PAD
#define MECHDYN_BENCH_CODE_PAD 0
#endif
#define MECHDYN_PAD_STRING2(x) #x
#define MECHDYN_PAD_STRING(x) MECHDYN_PAD_STRING2(x)

extern "C" __attribute__((used, noinline)) void mechdyn_bench_code_pad() {
#if MECHDYN_BENCH_CODE_PAD > 0
  asm volatile(".skip " MECHDYN_PAD_STRING(MECHDYN_BENCH_CODE_PAD));
#endif
}
