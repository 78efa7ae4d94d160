// SPDX-License-Identifier: Apache-2.0
// The performance model's inputs: nccl-tests output and the model parameter file. Any input
// gives a value or an error naming the file, never a crash; notes name the file; a
// parameter file that reads back writes itself again.
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string>
#include <string_view>
#include <vector>

#include <topo/perf/model.hpp>
#include <topo/perf/nccl_tests.hpp>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    const std::string_view text(reinterpret_cast<const char*>(data), size);
    std::vector<std::string> notes;
    auto runs = topo::perf::parse_nccl_tests(text, "fuzz.txt", &notes);
    if (!runs && runs.error().file != "fuzz.txt") std::abort();
    // what was taken out or skipped (mpirun tags, wrapped lists) is said about this file
    for (const auto& n : notes) {
        if (n.rfind("fuzz.txt: ", 0) != 0) std::abort();
    }
    if (runs) {
        for (const auto& r : *runs) {
            if (r.rows.empty()) std::abort();
        }
    }
    auto p = topo::perf::parse_params(text, "fuzz.yaml");
    if (!p && p.error().file != "fuzz.yaml") std::abort();
    if (p) {
        auto again = topo::perf::parse_params(topo::perf::write_params(*p), "again.yaml");
        if (!again) std::abort();
    }
    return 0;
}
