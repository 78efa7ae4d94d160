// SPDX-License-Identifier: Apache-2.0
// Test fabrics shared by the slurm-conf and placement unit tests: a small builder of
// hand-made fabrics (switches, links, hosts with NICs and GPUs) on TopologyBuilder, and
// the import of an ibnetdiscover fixture. import_ib() needs TOPO_FIXTURES (the test
// target's compile definition: tests/fixtures).
#pragma once

#include <gtest/gtest.h>

#include <cstdio>
#include <map>
#include <string>
#include <utility>
#include <vector>

#include <topo/builder.hpp>
#include <topo/ib_fabric.hpp>

namespace topo::testing {

/// Freeze a builder; a failure is a test failure (and a null topology).
inline TopologyPtr freeze(TopologyBuilder&& b) {
    auto t = std::move(b).freeze();
    EXPECT_TRUE(t.has_value()) << (t ? "" : t.error().to_string());
    return t ? *t : nullptr;
}

/// prefix + i with `width` digits: num("n", 7) = "n007".
inline std::string num(const char* prefix, int i, int width = 3) {
    char buf[32];
    std::snprintf(buf, sizeof buf, "%s%0*d", prefix, width, i);
    return buf;
}

/// Attributes every switch, link, NIC and GPU of a Fab gets. The default: 36-port HDR.
struct FabStyle {
    int switch_ports = 36;
    int gbps = 200;               ///< switch links and NICs
    const char* width = "4xHDR";  ///< switch links
    const char* gpu_model = "NVIDIA H100 80GB HBM3";
    long first_guid = 1000;  ///< NIC GUIDs count up from here ("0x1001", ...)
};

/// 64-port NDR switches, 400 Gb/s links and NICs, "H100" GPUs (the placement tests).
inline FabStyle ndr_style() {
    return FabStyle{64, 400, "4xNDR", "H100", 1000};
}

/// A hand-made fabric: switches, switch links, hosts with NICs on leaves and GPUs.
class Fab {
public:
    explicit Fab(FabStyle style = {}) : style_(style), guid_(style.first_guid) {}

    Fab& sw(const std::string& name) {
        b_.add_switch(Switch{name, name, "", style_.switch_ports, -1, Provenance::Discovered});
        return *this;
    }

    Fab& link(const std::string& a, const std::string& c) {
        b_.add_switch_link(a, ++port_[a], c, ++port_[c], style_.gbps, style_.width);
        return *this;
    }

    /// Host with one NIC per listed leaf (rail = position; "" = a NIC on no switch) and
    /// `gpus` GPUs.
    Fab& host(const std::string& name, const std::vector<std::string>& leaves, int gpus = 0,
              HostRole role = HostRole::Compute) {
        b_.add_host(name, role);
        int k = 0;
        for (const auto& l : leaves) {
            Nic n;
            n.name = "mlx5_" + std::to_string(k++);
            n.guid = "0x" + std::to_string(++guid_);
            n.leaf_port = l.empty() ? 0 : ++port_[l];
            n.rate_gbps = style_.gbps;
            b_.add_nic(name, n, l);
        }
        for (int g = 0; g < gpus; ++g) {
            Gpu gpu;
            gpu.index = g;
            gpu.model = style_.gpu_model;
            b_.add_gpu(name, gpu);
        }
        return *this;
    }

    Fab& host(const std::string& name, const std::vector<std::string>& leaves, HostRole role) {
        return host(name, leaves, 0, role);
    }

    /// Hosts prefix[from..to] (3 digits) on `leaves`.
    Fab& hosts(const std::string& prefix, int from, int to, const std::vector<std::string>& leaves, int gpus = 0) {
        for (int i = from; i <= to; ++i) host(num(prefix.c_str(), i), leaves, gpus);
        return *this;
    }

    TopologyBuilder& builder() { return b_; }

    TopologyPtr freeze() { return testing::freeze(std::move(b_)); }

private:
    FabStyle style_;
    TopologyBuilder b_;
    std::map<std::string, int> port_;
    long guid_;
};

/// tests/fixtures/ibnetdiscover/<file> imported (names from <map>, a node-name map, if
/// given); a failure is a test failure (and a null topology).
inline TopologyPtr import_ib(const std::string& file, const std::string& map = {}) {
    const std::string dir = std::string(TOPO_FIXTURES) + "/ibnetdiscover/";
    auto fab = read_ibnetdiscover_file(dir + file);
    EXPECT_TRUE(fab) << (fab ? "" : fab.error().to_string());
    if (!fab) return nullptr;
    IbImportOptions o;
    if (!map.empty()) {
        auto m = read_node_name_map(dir + map);
        EXPECT_TRUE(m) << (m ? "" : m.error().to_string());
        if (!m) return nullptr;
        o.name_map = std::move(*m);
    }
    TopologyBuilder b;
    auto st = import_ib_fabric(*fab, o, b);
    EXPECT_TRUE(st) << (st ? "" : st.error().to_string());
    return st ? freeze(std::move(b)) : nullptr;
}

}  // namespace topo::testing
