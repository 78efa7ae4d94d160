// SPDX-License-Identifier: Apache-2.0
// Job traces (sacct --parsable2, CSV) and failure tables: any input gives a value or an
// error naming the file, never a crash.
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string_view>

#include <topo/whatif/failures.hpp>
#include <topo/whatif/trace.hpp>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    const std::string_view text(reinterpret_cast<const char*>(data), size);
    auto t = topo::whatif::parse_trace(text, "fuzz.trace");
    if (!t && t.error().file != "fuzz.trace") std::abort();
    auto f = topo::whatif::parse_failure_table(text, "fuzz.csv");
    if (!f && f.error().file != "fuzz.csv") std::abort();
    return 0;
}
