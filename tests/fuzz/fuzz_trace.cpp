// SPDX-License-Identifier: Apache-2.0
// Job traces (sacct -P with '|' or TAB, CSV) and failure tables: any input gives a value or
// an error naming the file, never a crash; a trace read has no job the replay cannot run.
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
    // a trace read is one the replay can run: every job has a line, a node and no negative time
    if (t) {
        for (const auto& j : t->jobs) {
            if (j.line < 1 || j.nodes < 1 || j.duration_s < 0 || j.submit_s < 0) std::abort();
        }
    }
    auto f = topo::whatif::parse_failure_table(text, "fuzz.csv");
    if (!f && f.error().file != "fuzz.csv") std::abort();
    return 0;
}
