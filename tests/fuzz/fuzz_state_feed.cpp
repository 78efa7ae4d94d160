// SPDX-License-Identifier: Apache-2.0
// The node-state feed's reader (spank/core/state_cache.hpp, issue 32): every submission with
// plugstack state_feed= reads the file topoplace-nodefeed writes, and slurmctld's topology
// plugin reads its uplink counts. The input is laid over a valid feed of the fuzzers' small
// topology (first byte: the offset to lay it at, so headers, counts, host and group records
// and the trailer are all reached); the reader returns a state or an error, never crashes,
// and a state it returns has no count past what the topology allows.
#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>

#include <topo/placement/state.hpp>

#include "fuzz_topology.hpp"
#include "state_cache.hpp"
#include <unistd.h>

namespace {

std::string dir() {
    static const std::string d = [] {
        char tmpl[] = "/tmp/fuzz_state_feed.XXXXXX";
        const char* p = ::mkdtemp(tmpl);
        if (p == nullptr) std::abort();
        return std::string(p);
    }();
    return d;
}

const std::string& valid_feed() {
    static const std::string bytes = [] {
        const auto& t = topo::fuzz::small_topology();
        topo::placement::ClusterState s(t);
        s.set_state(topo::HostId{3}, topo::placement::NodeState::Alloc);
        s.add_uplink_users(topo::GroupId{0}, 2, 1);
        s.add_uplink_users(topo::GroupId{1}, 1, 0);
        const std::string p = dir() + "/valid.bin";
        if (!topo::spank::write_state_feed(p, t, s, 1'700'000'000'000'000'000)) std::abort();
        FILE* f = std::fopen(p.c_str(), "rb");
        if (f == nullptr) std::abort();
        std::string b;
        char buf[4096];
        for (std::size_t n; (n = std::fread(buf, 1, sizeof buf, f)) > 0;) b.append(buf, n);
        std::fclose(f);
        // the harness is only worth its runs if the untouched feed reads back
        if (!topo::spank::read_state_feed(p, t, 1e12, 1'700'000'000'000'000'000, nullptr, ::geteuid())) std::abort();
        return b;
    }();
    return bytes;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    const auto& t = topo::fuzz::small_topology();
    std::string file = valid_feed();
    if (size > 0) {
        const std::size_t at = (static_cast<std::size_t>(data[0]) * file.size()) / 256;
        const std::string over(reinterpret_cast<const char*>(data + 1), size - 1);
        file.replace(at, std::min(over.size(), file.size() - at), over);  // may also grow the file
    }
    const std::string p = dir() + "/feed.bin";
    FILE* f = std::fopen(p.c_str(), "wb");
    if (f == nullptr) std::abort();
    std::fwrite(file.data(), 1, file.size(), f);
    std::fclose(f);
    auto s = topo::spank::read_state_feed(p, t, 1e12, 1'700'000'000'000'000'000, nullptr, ::geteuid());
    if (s) {
        const int hosts = static_cast<int>(t.hosts().size());
        for (std::size_t g = 0; g < t.groups().size(); ++g) {
            const auto u = s->uplink_users(topo::GroupId{static_cast<std::uint32_t>(g)});
            if (u.spanning < 0 || u.multi_pod < 0 || u.spanning > hosts || u.multi_pod > hosts) std::abort();
        }
    }
    return 0;
}
