// SPDX-License-Identifier: Apache-2.0
// The placement service's wire format (spank/core/service.hpp): topoplace-nodefeed runs as root
// and reads requests from any local user. Any input is a request or a Parse error, never a
// crash; a request that decodes re-encodes to the same request; serving it on a small fixed
// topology gives a reply that decodes. Replies from a (fake) service decode or are refused.
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string_view>

#include <topo/placement/place.hpp>

#include "fuzz_topology.hpp"
#include "service.hpp"

namespace {

const topo::placement::Placer& placer() {
    static const topo::placement::Placer p(topo::fuzz::small_topology());
    return p;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    using namespace topo::spank;
    const std::string_view text(reinterpret_cast<const char*>(data), size);
    if (auto req = decode_request(text)) {
        auto wire = encode_request(*req);
        if (!wire) std::abort();
        auto again = decode_request(*wire);
        if (!again || again->snapshot != req->snapshot || again->sr.nodes != req->sr.nodes
            || again->sr.exclude != req->sr.exclude || again->opts.mode != req->opts.mode
            || again->opts.max_tier != req->opts.max_tier || again->wait != req->wait)
            std::abort();
        const auto& p = placer();
        auto rep = serve(p, *req, topo::placement::ClusterState(p.topology()), {});
        if (!decode_reply(encode_reply(rep))) std::abort();
    }
    (void)decode_reply(text);
    return 0;
}
