// SPDX-License-Identifier: Apache-2.0
// ibnetdiscover parsing and import. Every figure below was checked by hand on the
// fixture with grep/awk (see the comments next to each table row).
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <map>
#include <set>
#include <string>
#include <vector>

#include <topo/builder.hpp>
#include <topo/ib_fabric.hpp>
#include <topo/snapshot.hpp>
#include <topo/text_input.hpp>
#include <topo/topology.hpp>

#ifdef TOPO_HAVE_IBNETDISC
#include <topo/ibnd_reader.hpp>
#endif

namespace {

using topo::Errc;
using topo::HostRole;
using topo::IbFabric;
using topo::IbNode;

std::string fx(const std::string& name) {
    return std::string(TOPO_FIXTURES) + "/ibnetdiscover/" + name;
}

struct Counts {
    int switches = 0;
    int cas = 0;
    int routers = 0;
    int sharp = 0;
    int ports = 0;      // connected port lines, both ends
    int sw_cables = 0;  // switch-to-switch cables, each once (loopbacks included)
};

Counts count(const IbFabric& f) {
    Counts c;
    std::map<std::string, IbNode::Type> type;
    for (const auto& n : f.nodes) type[n.guid] = n.type;
    for (const auto& n : f.nodes) {
        if (n.type == IbNode::Type::Switch) ++c.switches;
        if (n.type == IbNode::Type::Ca) ++c.cas;
        if (n.type == IbNode::Type::Router) ++c.routers;
        if (n.type == IbNode::Type::Ca && n.description.find("Aggregation Node") != std::string::npos) ++c.sharp;
        c.ports += static_cast<int>(n.ports.size());
        if (n.type != IbNode::Type::Switch) continue;
        for (const auto& p : n.ports) {
            auto it = type.find(p.peer_guid);
            if (it == type.end() || it->second != IbNode::Type::Switch) continue;
            if (std::pair(n.guid, p.port) <= std::pair(p.peer_guid, p.peer_port)) ++c.sw_cables;
        }
    }
    return c;
}

IbFabric parse_ok(const std::string& name) {
    auto r = topo::read_ibnetdiscover_file(fx(name));
    EXPECT_TRUE(r.has_value()) << name << ": " << (r ? "" : r.error().to_string());
    return r ? *r : IbFabric{};
}

struct Row {
    const char* file;
    Counts want;
};

// Hand-checked figures. switches/CAs: `grep -c '^Switch'` / `'^Ca'` (default layout) or
// distinct GUIDs of `^SW`/`^CA` report lines (-s -p layout, equal to the `new Switch` /
// `new Channel Adapter` DR lines); SHARP: Ca lines with "Aggregation Node"; ports: lines
// starting with '[' (default) or report lines with a ' - ' peer (-s -p); cables: switch
// port lines whose peer is "S-..." divided by two.
const Row kRows[] = {
    {"avakas-qlogic-qdr.ibnetdiscover-s-p.txt", {25, 281, 0, 0, 1138, 288}},
    {"ibtopotool-test1.ibnetdiscover.txt", {2, 4, 0, 0, 14, 2}},
    {"ibtopotool-test2.ibnetdiscover.txt", {1, 2, 0, 0, 4, 0}},
    {"ibtopotool-test3.ibnetdiscover.txt", {2, 6, 0, 0, 20, 4}},  // 3 loopbacks + 1 cable
    {"ibtopotool-test4.ibnetdiscover.txt", {1, 1, 0, 0, 2, 0}},
    {"topoplace-gen-2tier-empty-leaves-loopbacks.ibnetdiscover.txt", {12, 2, 0, 0, 66, 31}},
    {"topoplace-gen-3tier-mgmt-on-spines.ibnetdiscover.txt", {22, 35, 0, 0, 142, 36}},
    {"topoplace-gen-8rail-converged-storage-leaf.ibnetdiscover.txt", {27, 77, 0, 0, 254, 50}},
    {"topoplace-gen-8rail-hca-renamed.ibnetdiscover.txt", {18, 64, 0, 0, 192, 32}},
    {"topoplace-ibdiagnet2-ndr-labels.ibnetdiscover", {3, 4, 0, 0, 12, 2}},
    {"topoplace-juwels-like-hca-names.ibnetdiscover.txt", {5, 8, 0, 0, 24, 4}},
    {"topoplace-prompt-bom.ibnetdiscover.txt", {1, 2, 0, 0, 4, 0}},  // the two prompts are not ports
    {"topoplace-2tier-hosts-on-spine.ibnetdiscover.txt", {8, 26, 0, 0, 76, 12}},
    {"topoplace-director-hdr-partial-uplinks.ibnetdiscover.txt", {192, 114, 0, 0, 4820, 2296}},
    {"plafrim-voltaire-qdr.ibnetdiscover-s-p.txt", {9, 125, 0, 0, 402, 76}},
    {"plafrim2-subnet0-qdr.ibnetdiscover-s-p.txt", {7, 96, 0, 0, 310, 59}},
    {"plafrim2-subnet1-mixed.ibnetdiscover-s-p.txt", {1, 23, 0, 0, 46, 0}},
    {"psmn-x5-qdr.ibnetdiscover.txt", {11, 89, 0, 0, 318, 70}},
    {"selene-compute.ibnetdiscover.txt.gz", {666, 4341, 0, 666, 25704, 8511}},
    {"selene-storage.ibnetdiscover.txt", {160, 1247, 0, 0, 6572, 2039}},
    {"superbench-faked-hdr-3tier.ibnetdiscover-f.txt", {8, 10, 0, 0, 35, 7}},
    {"topograph-dgxh100-ndr-plane1.ibnetdiscover.txt", {40, 582, 0, 40, 2228, 532}},
    {"topograph-gb200-single-ca.ibnetdiscover.txt", {0, 1, 0, 0, 0, 0}},
    {"ufm-lab-small.ibnetdiscover.txt", {2, 13, 0, 1, 32, 3}},
    {"ufm-ndt-hdr-director-puttylog.ibnetdiscover.txt", {400, 2328, 0, 0, 17446, 6395}},
};

TEST(IbParse, EveryFixtureFigures) {
    std::set<std::string> covered;
    for (const auto& row : kRows) {
        SCOPED_TRACE(row.file);
        covered.insert(row.file);
        IbFabric f = parse_ok(row.file);
        Counts c = count(f);
        EXPECT_EQ(c.switches, row.want.switches);
        EXPECT_EQ(c.cas, row.want.cas);
        EXPECT_EQ(c.routers, row.want.routers);
        EXPECT_EQ(c.sharp, row.want.sharp);
        EXPECT_EQ(c.ports, row.want.ports);
        EXPECT_EQ(c.sw_cables, row.want.sw_cables);
        EXPECT_EQ(f.source, fx(row.file));
    }
    // Every dump in the fixture directory is covered by the table.
    for (const auto& e : std::filesystem::directory_iterator(std::string(TOPO_FIXTURES) + "/ibnetdiscover")) {
        const std::string n = e.path().filename().string();
        if (n.find(".ibnetdiscover") == std::string::npos) continue;
        EXPECT_TRUE(covered.contains(n)) << n << " has no row in kRows";
    }
}

TEST(IbParse, RatesAndGuids) {
    EXPECT_EQ(topo::normalize_guid("0x2c90200417670"), "0x0002c90200417670");
    EXPECT_EQ(topo::normalize_guid("0002C90200417670"), "0x0002c90200417670");
    EXPECT_EQ(topo::normalize_guid("S-0002c903007b78b0"), "0x0002c903007b78b0");
    EXPECT_EQ(topo::normalize_guid("H-003048c74e4a0000"), "0x003048c74e4a0000");
    EXPECT_EQ(topo::normalize_guid(" 0xff "), "0x00000000000000ff");
    EXPECT_FALSE(topo::normalize_guid(""));
    EXPECT_FALSE(topo::normalize_guid("0x"));
    EXPECT_FALSE(topo::normalize_guid("luna-0001"));
    EXPECT_FALSE(topo::normalize_guid("0x1234567890abcdef1"));

    // ufm-lab-small mixes FDR, FDR10, EDR and HDR.
    IbFabric f = parse_ok("ufm-lab-small.ibnetdiscover.txt");
    std::map<std::string, double> seen;
    for (const auto& n : f.nodes) {
        for (const auto& p : n.ports) seen[p.rate] = p.gbps;
    }
    EXPECT_DOUBLE_EQ(seen.at("4xFDR"), 56);
    EXPECT_DOUBLE_EQ(seen.at("4xFDR10"), 40);
    EXPECT_DOUBLE_EQ(seen.at("4xEDR"), 100);
    EXPECT_DOUBLE_EQ(seen.at("4xHDR"), 200);

    // -s -p layout: "4x QDR", "4x SDR", and down ports ("4x ???") have no peer.
    IbFabric sp = parse_ok("plafrim2-subnet1-mixed.ibnetdiscover-s-p.txt");
    std::map<std::string, int> rates;
    for (const auto& n : sp.nodes) {
        for (const auto& p : n.ports) ++rates[p.rate];
    }
    EXPECT_EQ(rates["4xSDR"], 2);   // 1 CA<->SW link at SDR, both ends
    EXPECT_EQ(rates["4xQDR"], 44);  // 22 links at QDR
    EXPECT_EQ(rates.count("4x???"), 0U);

    // NDR = 100 Gb/s per lane.
    IbFabric ndr = parse_ok("topograph-dgxh100-ndr-plane1.ibnetdiscover.txt");
    EXPECT_DOUBLE_EQ(ndr.nodes.front().ports.front().gbps, 400);
}

TEST(IbParse, DefaultLayoutDetails) {
    IbFabric f = parse_ok("ufm-lab-small.ibnetdiscover.txt");
    const IbNode& sw = f.nodes.front();
    EXPECT_EQ(sw.type, IbNode::Type::Switch);
    EXPECT_EQ(sw.guid, "0xb8599f0300fc6de4");
    EXPECT_EQ(sw.sysimg_guid, "0xb8599f0300fc6de4");
    EXPECT_EQ(sw.description, "MF0;r-ufm-sw95:MQM8700/U1");
    EXPECT_EQ(sw.num_ports, 41);
    EXPECT_EQ(sw.line, 10);
    ASSERT_EQ(sw.ports.size(), 4U);
    EXPECT_EQ(sw.ports[0].port, 3);
    EXPECT_EQ(sw.ports[0].peer_guid, "0x0002c903007b78b0");
    EXPECT_EQ(sw.ports[0].peer_port, 1);
    EXPECT_EQ(sw.ports[0].line, 11);
    // A CA block: node GUID from "H-...", port GUID from "[1](...)".
    auto it =
        std::find_if(f.nodes.begin(), f.nodes.end(), [](const IbNode& n) { return n.guid == "0xec0d9a03007d7d0b"; });
    ASSERT_NE(it, f.nodes.end());
    EXPECT_EQ(it->type, IbNode::Type::Ca);
    EXPECT_EQ(it->description, "r-dcs96 HCA-2");
    EXPECT_EQ(it->port_guid, "0xec0d9a03007d7d0b");
    EXPECT_EQ(it->sysimg_guid, "0xec0d9a03007d7d0a");
    ASSERT_EQ(it->ports.size(), 1U);
    EXPECT_EQ(it->ports[0].peer_guid, "0xb8599f0300fc6de4");
    EXPECT_EQ(it->ports[0].peer_port, 24);
    EXPECT_EQ(it->ports[0].rate, "4xEDR");
}

TEST(IbParse, DirtyPuttyCapture) {
    // CRLF, PuTTY banner on line 1, collapsed tabs, lid 65535, shell prompt at the end.
    IbFabric f = parse_ok("ufm-ndt-hdr-director-puttylog.ibnetdiscover.txt");
    const IbNode& sw = f.nodes.front();
    EXPECT_EQ(sw.guid, "0x0c42a10300a9b026");
    EXPECT_EQ(sw.description, "MF0;sat11-0101-0927-20ib0:MQM8700/U1");
    EXPECT_EQ(sw.line, 12);
    ASSERT_FALSE(sw.ports.empty());
    EXPECT_EQ(sw.ports[0].peer_guid, "0x1c34da03005503dc");
    EXPECT_EQ(sw.ports[0].rate, "4xHDR");
    int prompt = 0;
    int banner = 0;
    for (const auto& w : f.warnings) {
        if (w.find("shell prompt") != std::string::npos) ++prompt;
        if (w.find("PuTTY") != std::string::npos) ++banner;
    }
    EXPECT_EQ(prompt, 1);
    EXPECT_EQ(banner, 1);
}

TEST(IbParse, FullVariantFields) {
    IbFabric f = parse_ok("superbench-faked-hdr-3tier.ibnetdiscover-f.txt");
    const IbNode& sw = f.nodes.front();
    ASSERT_EQ(sw.ports.size(), 3U);
    EXPECT_EQ(sw.ports[0].rate, "4xHDR");  // not "s=4"
    EXPECT_DOUBLE_EQ(sw.ports[0].gbps, 200);
    // The faked file cuts the SHARP node out: its port names a peer that is absent.
    ASSERT_EQ(f.warnings.size(), 1U);
    EXPECT_NE(f.warnings[0].find("not in the dump"), std::string::npos);
}

TEST(IbParse, PortsLayoutResolvesCaNodeGuids) {
    // plafrim: Mellanox CAs, port GUID = node GUID + 1. The DR paths give node GUIDs.
    IbFabric f = parse_ok("plafrim-voltaire-qdr.ibnetdiscover-s-p.txt");
    std::set<std::string> cas;
    for (const auto& n : f.nodes) {
        if (n.type == IbNode::Type::Ca) cas.insert(n.guid);
    }
    // "DR path ... 0,1,3 -> new Channel Adapter {003048c8b3b50000}"
    EXPECT_TRUE(cas.contains("0x003048c8b3b50000"));
    // The origin CA (DR path "0") is paired with the one port GUID left over.
    EXPECT_TRUE(cas.contains("0x003048ffffcb285c"));
    EXPECT_EQ(cas.size(), 125U);
}

// ---------------------------------------------------------------------------------
// Errors: Errc::Parse with file and line.

void expect_parse_error(std::string_view text, int line, std::string_view needle) {
    auto r = topo::parse_ibnetdiscover(text, "dump.txt");
    ASSERT_FALSE(r.has_value()) << "expected an error about " << needle;
    EXPECT_EQ(r.error().code, Errc::Parse);
    EXPECT_EQ(r.error().file, "dump.txt");
    EXPECT_EQ(r.error().line, line) << r.error().to_string();
    EXPECT_NE(r.error().message.find(needle), std::string::npos) << r.error().to_string();
    EXPECT_EQ(r.error().to_string().rfind("dump.txt:" + std::to_string(line) + ": ", 0), 0U) << r.error().to_string();
}

const char* const kSmall =
    "#\n"                                                                                            // 1
    "# Topology file\n"                                                                              // 2
    "\n"                                                                                             // 3
    "vendid=0x2c9\n"                                                                                 // 4
    "sysimgguid=0x10\n"                                                                              // 5
    "switchguid=0x10(10)\n"                                                                          // 6
    "Switch\t36 \"S-0000000000000010\"\t\t# \"MF0;leaf1:MQM8700/U1\" enhanced port 0 lid 1 lmc 0\n"  // 7
    "[1]\t\"H-0000000000000020\"[1](21) \t\t# \"node1 mlx5_0\" lid 2 4xHDR\n"                        // 8
    "\n"                                                                                             // 9
    "vendid=0x2c9\n"                                                                                 // 10
    "sysimgguid=0x20\n"                                                                              // 11
    "caguid=0x20\n"                                                                                  // 12
    "Ca\t1 \"H-0000000000000020\"\t\t# \"node1 mlx5_0\"\n"                                           // 13
    "[1](21) \t\"S-0000000000000010\"[1]\t\t# lid 2 lmc 0 \"MF0;leaf1:MQM8700/U1\" lid 1 4xHDR\n";   // 14

TEST(IbParseErrors, SmallIsValid) {
    auto r = topo::parse_ibnetdiscover(kSmall, "dump.txt");
    ASSERT_TRUE(r.has_value()) << r.error().to_string();
    EXPECT_EQ(r->nodes.size(), 2U);
    EXPECT_TRUE(r->warnings.empty());
}

TEST(IbParseErrors, Empty) {
    expect_parse_error("", 1, "empty");
    expect_parse_error("\n\n  \r\n", 1, "empty");
    expect_parse_error("# only a comment\n", 1, "no InfiniBand node");
}

TEST(IbParseErrors, Binary) {
    std::string bin = "vendid=0x2c9\nabc";
    bin += std::string("\x00\x01\x02\xff\xfe", 5);
    bin += "\n\x7f\x03";
    expect_parse_error(bin, 2, "binary");
    // A gzip that was not gunzipped.
    expect_parse_error(std::string("\x1f\x8b\x08\x00\x00\x00\x00\x00\x02\x03", 10), 1, "binary");
}

TEST(IbParseErrors, GarbageLineInBlock) {
    std::string t = kSmall;
    t.insert(t.find("\n\nvendid=0x2c9\nsysimgguid=0x20") + 1, "this is not a port line\n");
    expect_parse_error(t, 9, "unexpected line inside a node block");
    // A garbage port line.
    std::string u = kSmall;
    u.replace(u.find("[1]\t\"H-"), 3, "[x]");
    expect_parse_error(u, 8, "malformed port line");
}

TEST(IbParseErrors, Truncated) {
    std::string t = kSmall;
    // Cut in the middle of the last port line.
    expect_parse_error(t.substr(0, t.find("\"S-0000000000000010\"[1]\t\t# lid") + 8), 14, "malformed port line");
    // Cut after the header fields of the second block.
    expect_parse_error(t.substr(0, t.find("Ca\t1")), 10, "truncated block");
    // A real dump cut in the middle of a switch block (line 13 of ufm-lab-small is cut).
    auto text = topo::read_text_file(fx("ufm-lab-small.ibnetdiscover.txt"));
    ASSERT_TRUE(text.has_value());
    std::size_t pos = 0;
    for (int i = 0; i < 12; ++i) pos = text->find('\n', pos) + 1;
    expect_parse_error(std::string_view(*text).substr(0, pos + 20), 13, "malformed port line");
}

TEST(IbParseErrors, DuplicateGuid) {
    std::string t = kSmall;
    t += "\nvendid=0x2c9\nsysimgguid=0x20\ncaguid=0x20\nCa\t1 \"H-0000000000000020\"\t\t# \"node1 mlx5_0\"\n";
    expect_parse_error(t, 19, "duplicate node GUID 0x0000000000000020 (first defined at line 13)");
}

TEST(IbParseErrors, LinkEndsDisagree) {
    std::string t = kSmall;
    t.replace(t.find("\"S-0000000000000010\"[1]\t\t# lid"), 23, "\"S-0000000000000010\"[2]");
    // The switch says port 1 -> CA port 1; the CA says its port 1 -> switch port 2.
    expect_parse_error(t, 8, "link ends disagree");
}

TEST(IbParseErrors, NodeLineMismatchedPrefix) {
    std::string t = kSmall;
    t.replace(t.find("Ca\t1 \"H-"), 8, "Ca\t1 \"S-");
    expect_parse_error(t, 13, "malformed node line");
}

TEST(IbParseErrors, PortsLayoutBadLine) {
    const std::string t =
        "DR path slid 0; dlid 0; 0 -> new Channel Adapter {0000000000000021} portnum 1 lid 0-0 \"\"\n"
        "CA     2  1 0x0000000000000021 4x QDR - SW     1  3 0x0000000000000010 ( 'n1 HCA-1' - 'sw' )\n"
        "SW     1  3 0x0000000000000010 4x QDR - CA     2  1 0x0000000000000021 ( 'sw' - 'n1 HCA-1' )\n"
        "SW     1  4 0x0000000000000010 4x QDR - CA     2  1 0x0000000000000021 ( 'sw'\n";
    expect_parse_error(t, 4, "malformed port report line");
    auto ok = topo::parse_ibnetdiscover(t.substr(0, t.rfind("SW     1  4")), "dump.txt");
    ASSERT_TRUE(ok.has_value()) << ok.error().to_string();
    EXPECT_EQ(ok->nodes.size(), 2U);
}

TEST(IbParseErrors, MissingFile) {
    auto r = topo::read_ibnetdiscover_file("/nonexistent/ibnetdiscover.txt");
    ASSERT_FALSE(r.has_value());
    EXPECT_EQ(r.error().code, Errc::Io);
}

// ---------------------------------------------------------------------------------
// node-name-map

std::string write_temp(const std::string& name, const std::string& content) {
    auto dir = std::filesystem::temp_directory_path() / "topo-ib-tests";
    std::filesystem::create_directories(dir);
    auto p = (dir / name).string();
    std::ofstream(p, std::ios::binary) << content;
    return p;
}

TEST(IbNameMap, PsmnMap) {
    auto m = topo::read_node_name_map(fx("psmn-x5-qdr.guid-hostname.map"));
    ASSERT_TRUE(m.has_value()) << m.error().to_string();
    EXPECT_EQ(m->names.size(), 86U);  // 87 lines, one "# cluster X5" comment
    EXPECT_EQ(m->names.at("0x003048c74e4a0000"), "x5570comp1");
}

TEST(IbNameMap, FormatsAndErrors) {
    auto p = write_temp("map1.txt",
                        "# comment\n"
                        "0x0002c90200417670 \"sw-leaf-1\"\n"
                        "0002c90200417671   node1 mlx5_0   # trailing comment\n"
                        "\n"
                        "H-00000000000000aa node2\n");
    auto m = topo::read_node_name_map(p);
    ASSERT_TRUE(m.has_value()) << m.error().to_string();
    EXPECT_EQ(m->names.at("0x0002c90200417670"), "sw-leaf-1");
    EXPECT_EQ(m->names.at("0x0002c90200417671"), "node1 mlx5_0");
    EXPECT_EQ(m->names.at("0x00000000000000aa"), "node2");

    auto bad = topo::read_node_name_map(write_temp("map2.txt", "0x10 a\n# c\nnot-a-guid foo\n"));
    ASSERT_FALSE(bad.has_value());
    EXPECT_EQ(bad.error().code, Errc::Parse);
    EXPECT_EQ(bad.error().line, 3);
    EXPECT_NE(bad.error().file.find("map2.txt"), std::string::npos);

    auto noname = topo::read_node_name_map(write_temp("map3.txt", "0x10 a\n0x11\n"));
    ASSERT_FALSE(noname.has_value());
    EXPECT_EQ(noname.error().line, 2);
}

// ---------------------------------------------------------------------------------
// Import

struct Imported {
    topo::TopologyPtr topo;
    std::vector<std::string> warnings;
};

Imported import_fixture(const std::string& name, const topo::IbImportOptions& opt = {}) {
    Imported out;
    IbFabric f = parse_ok(name);
    topo::TopologyBuilder b;
    auto st = topo::import_ib_fabric(f, opt, b);
    EXPECT_TRUE(st.has_value()) << (st ? "" : st.error().to_string());
    if (!st) return out;
    auto t = std::move(b).freeze();
    EXPECT_TRUE(t.has_value()) << (t ? "" : t.error().to_string());
    if (!t) return out;
    out.topo = *t;
    out.warnings.assign(out.topo->warnings().begin(), out.topo->warnings().end());
    return out;
}

bool any_warning(const Imported& im, std::string_view needle) {
    return std::any_of(im.warnings.begin(), im.warnings.end(),
                       [&](const std::string& w) { return w.find(needle) != std::string::npos; });
}

TEST(IbImport, SeleneCompute) {
    Imported im = import_fixture("selene-compute.ibnetdiscover.txt.gz");
    ASSERT_TRUE(im.topo);
    const topo::Topology& t = *im.topo;
    EXPECT_EQ(t.switches().size(), 666U);
    int luna = 0;
    int compute = 0;
    int service = 0;
    for (const auto& h : t.hosts()) {
        if (h.role == HostRole::Compute) ++compute;
        if (h.role == HostRole::Service) ++service;
        if (h.name.rfind("luna-", 0) == 0) {
            ++luna;
            EXPECT_EQ(h.role, HostRole::Compute) << h.name;
            EXPECT_EQ(h.nics.size(), 8U) << h.name;
            std::set<std::uint32_t> leaves;
            for (auto nid : h.nics) {
                const auto& n = t.nic(nid);
                EXPECT_TRUE(n.leaf.valid()) << h.name << " " << n.name;
                EXPECT_DOUBLE_EQ(n.rate_gbps, 200);
                leaves.insert(n.leaf.index());
            }
            EXPECT_EQ(leaves.size(), 8U) << h.name << ": one HCA per rail leaf";
        }
        EXPECT_EQ(h.name.find("Aggregation"), std::string::npos);
    }
    EXPECT_EQ(luna, 458);
    EXPECT_EQ(compute, 458);
    EXPECT_EQ(t.hosts().size(), 469U);  // + 11 single-HCA service hosts; no SHARP node
    EXPECT_EQ(service, 11);
    for (const char* s : {"selene-login-01", "selene-login-02", "selene-slurm-01", "selene-slurm-02", "selene-ufm-c-01",
                          "selene-ufm-c-02", "selene-cache-01", "selene-cache-04", "selene-swift-01"}) {
        auto h = t.find_host(s);
        ASSERT_TRUE(h.has_value()) << s;
        EXPECT_EQ(t.host(*h).role, HostRole::Service) << s;
    }
    // NIC names come from the node descriptions.
    auto l1 = t.find_host("luna-0001");
    ASSERT_TRUE(l1.has_value());
    std::vector<std::string> names;
    for (auto nid : t.host(*l1).nics) names.push_back(t.nic(nid).name);
    EXPECT_EQ(names, (std::vector<std::string>{"mlx5_0", "mlx5_1", "mlx5_2", "mlx5_3", "mlx5_6", "mlx5_7", "mlx5_8",
                                               "mlx5_9"}));
    // Switch names come from "MF0;NAME:MQM8700/U1"; cables once each.
    EXPECT_TRUE(t.find_switch("0x1c34da0300728866").has_value());
    EXPECT_EQ(t.sw(*t.find_switch("0x1c34da0300728866")).name, "MLG01-02");
    std::size_t cables = 0;
    for (const auto& l : t.links()) {
        if (!l.nic.valid()) ++cables;
    }
    EXPECT_EQ(cables, 8511U);
    EXPECT_TRUE(any_warning(im, "skipped 666 SHARP aggregation node"));
    EXPECT_FALSE(any_warning(im, "STORAGE"));
}

TEST(IbImport, SeleneStorageIsDetected) {
    Imported im = import_fixture("selene-storage.ibnetdiscover.txt");
    ASSERT_TRUE(im.topo);
    const topo::Topology& t = *im.topo;
    EXPECT_TRUE(any_warning(im, "classified as a STORAGE fabric"));
    EXPECT_EQ(t.switches().size(), 160U);
    int luna = 0;
    int ai400x = 0;
    for (const auto& h : t.hosts()) {
        if (h.name.rfind("luna-", 0) == 0) {
            ++luna;
            EXPECT_NE(h.role, HostRole::Compute) << h.name;
            ASSERT_EQ(h.nics.size(), 2U) << h.name;  // mlx5_4 and mlx5_10
            for (auto nid : h.nics) {
                EXPECT_FALSE(t.nic(nid).leaf.valid()) << h.name << ": a storage switch is not a GPU node's leaf";
            }
        }
        if (h.name.rfind("ai400x-", 0) == 0) {
            ++ai400x;
            EXPECT_EQ(h.role, HostRole::Service) << h.name;
            EXPECT_EQ(h.nics.size(), 2U);
            for (auto nid : h.nics) EXPECT_TRUE(t.nic(nid).leaf.valid());
        }
    }
    EXPECT_EQ(luna, 458);
    EXPECT_EQ(ai400x, 160);
}

TEST(IbImport, StorageDumpWithRegexOverride) {
    // An operator who insists: the storage HCAs of the DGX nodes are the ones to use.
    topo::IbImportOptions opt;
    opt.hca_regex = "mlx5_(4|10)";
    Imported im = import_fixture("selene-storage.ibnetdiscover.txt", opt);
    ASSERT_TRUE(im.topo);
    const topo::Topology& t = *im.topo;
    EXPECT_FALSE(any_warning(im, "STORAGE"));
    // Only the DGX nodes have mlx5_4/mlx5_10; storage targets and service hosts are skipped.
    EXPECT_EQ(t.hosts().size(), 458U);
    auto l1 = t.find_host("luna-0001");
    ASSERT_TRUE(l1.has_value());
    EXPECT_EQ(t.host(*l1).role, HostRole::Compute);
    for (auto nid : t.host(*l1).nics) EXPECT_TRUE(t.nic(nid).leaf.valid());
    EXPECT_TRUE(any_warning(im, "skipped 171 host(s) with no HCA matching"));
}

TEST(IbImport, RegexSelectsComputeHcas) {
    topo::IbImportOptions opt;
    opt.hca_regex = "mlx5_[0-3]";
    Imported im = import_fixture("selene-compute.ibnetdiscover.txt.gz", opt);
    ASSERT_TRUE(im.topo);
    const topo::Topology& t = *im.topo;
    auto l1 = t.find_host("luna-0001");
    ASSERT_TRUE(l1.has_value());
    int on = 0;
    int off = 0;
    for (auto nid : t.host(*l1).nics) (t.nic(nid).leaf.valid() ? on : off)++;
    EXPECT_EQ(on, 4);
    EXPECT_EQ(off, 4);
    // Hosts with no matching HCA (login/swift/ufm "HCA-2") are skipped and counted.
    EXPECT_FALSE(t.find_host("selene-login-01").has_value());
    EXPECT_TRUE(any_warning(im, "skipped 5 host(s) with no HCA matching"));

    topo::IbImportOptions bad;
    bad.hca_regex = "mlx5_[";
    topo::TopologyBuilder b;
    auto st = topo::import_ib_fabric(parse_ok("ufm-lab-small.ibnetdiscover.txt"), bad, b);
    ASSERT_FALSE(st.has_value());
    EXPECT_EQ(st.error().code, Errc::InvalidArgument);
}

TEST(IbImport, UfmLabSmall) {
    Imported im = import_fixture("ufm-lab-small.ibnetdiscover.txt");
    ASSERT_TRUE(im.topo);
    const topo::Topology& t = *im.topo;
    EXPECT_EQ(t.switches().size(), 2U);
    EXPECT_EQ(t.hosts().size(), 5U);
    auto dcs = t.find_host("r-dcs96");
    ASSERT_TRUE(dcs.has_value());
    EXPECT_EQ(t.host(*dcs).role, HostRole::Compute);
    EXPECT_EQ(t.host(*dcs).nics.size(), 4U);
    for (const char* s : {"r-dmz-ufm128", "r-dmz-ufm131", "r-dmz-ufm134", "r-dmz-ufm137"}) {
        auto h = t.find_host(s);
        ASSERT_TRUE(h.has_value()) << s;
        EXPECT_EQ(t.host(*h).role, HostRole::Service) << s << ": a UFM host with 2 HCAs";
        EXPECT_EQ(t.host(*h).nics.size(), 2U);
    }
    EXPECT_EQ(t.sw(*t.find_switch("0xb8599f0300fc6de4")).name, "r-ufm-sw95");
    std::size_t cables = 0;
    for (const auto& l : t.links()) {
        if (!l.nic.valid()) ++cables;
    }
    EXPECT_EQ(cables, 1U);  // two loopback cables on the SX6036 are ignored
    EXPECT_TRUE(any_warning(im, "ignored 2 loopback cable"));
    EXPECT_TRUE(any_warning(im, "skipped 1 SHARP"));
}

TEST(IbImport, PsmnWithNameMap) {
    topo::IbImportOptions opt;
    auto m = topo::read_node_name_map(fx("psmn-x5-qdr.guid-hostname.map"));
    ASSERT_TRUE(m.has_value());
    opt.name_map = *m;
    Imported im = import_fixture("psmn-x5-qdr.ibnetdiscover.txt", opt);
    ASSERT_TRUE(im.topo);
    const topo::Topology& t = *im.topo;
    EXPECT_EQ(t.switches().size(), 11U);
    EXPECT_EQ(t.hosts().size(), 89U);  // one HCA per host
    // Factory descriptions only: the map names the hosts; 3 CAs are not in the map and keep
    // ibnetdiscover's own "H-<node GUID>" name, as in psmn-x5-qdr.topology.conf.
    for (const char* s :
         {"x5570comp1", "r422node1", "sl390lin22", "H-003048c749450000", "H-003048c74ae20000", "H-78e7d1030024535c"}) {
        auto h = t.find_host(s);
        ASSERT_TRUE(h.has_value()) << s;
        EXPECT_EQ(t.host(*h).role, HostRole::Compute) << s << ": single-rail fabric";
    }
    auto g = t.find_host("r510gluster1");
    ASSERT_TRUE(g.has_value());
    EXPECT_EQ(t.host(*g).role, HostRole::Service);
    // Switches whose description is ambiguous keep the GUID form, as in topology.conf.
    EXPECT_EQ(t.sw(*t.find_switch("0x0008f10500200b50")).name, "S-0008f10500200b50");
}

TEST(IbImport, PsmnWithoutMapUsesGuidNames) {
    Imported im = import_fixture("psmn-x5-qdr.ibnetdiscover.txt");
    ASSERT_TRUE(im.topo);
    EXPECT_EQ(im.topo->hosts().size(), 89U);
    EXPECT_TRUE(im.topo->find_host("H-003048c74e4a0000").has_value());
    EXPECT_TRUE(any_warning(im, "89 CA(s) in 89 host(s) have no usable node description"));
}

TEST(IbImport, TopographDgxH100Plane) {
    Imported im = import_fixture("topograph-dgxh100-ndr-plane1.ibnetdiscover.txt");
    ASSERT_TRUE(im.topo);
    const topo::Topology& t = *im.topo;
    EXPECT_EQ(t.switches().size(), 40U);
    auto h = t.find_host("a08-p1-dgx-04-c01");
    ASSERT_TRUE(h.has_value());
    EXPECT_EQ(t.host(*h).role, HostRole::Compute);
    // "ubuntu mlx5_0" and "localhost HCA-6" are not host names.
    EXPECT_FALSE(t.find_host("ubuntu").has_value());
    EXPECT_FALSE(t.find_host("localhost").has_value());
    auto cufm = t.find_host("B11-P1-CUFM-02");
    ASSERT_TRUE(cufm.has_value());
    EXPECT_EQ(t.host(*cufm).role, HostRole::Service);
    EXPECT_TRUE(any_warning(im, "skipped 40 SHARP"));
}

TEST(IbImport, PuttyDirector) {
    Imported im = import_fixture("ufm-ndt-hdr-director-puttylog.ibnetdiscover.txt");
    ASSERT_TRUE(im.topo);
    const topo::Topology& t = *im.topo;
    EXPECT_EQ(t.switches().size(), 400U);
    auto h = t.find_host("SAT111092710053");
    ASSERT_TRUE(h.has_value());
    EXPECT_EQ(t.host(*h).role, HostRole::Compute);
    EXPECT_EQ(t.host(*h).nics.size(), 8U);
    auto ufm = t.find_host("sat11-0101-0902-01ufm");
    ASSERT_TRUE(ufm.has_value());
    EXPECT_EQ(t.host(*ufm).role, HostRole::Service);
    // Director ASICs keep their slot in the name.
    std::set<std::string> names;
    for (const auto& s : t.switches()) names.insert(s.name);
    EXPECT_EQ(names.size(), 400U);
}

TEST(IbImport, SinglePortFabricsImport) {
    for (const char* f : {"avakas-qlogic-qdr.ibnetdiscover-s-p.txt", "plafrim-voltaire-qdr.ibnetdiscover-s-p.txt",
                          "plafrim2-subnet0-qdr.ibnetdiscover-s-p.txt", "plafrim2-subnet1-mixed.ibnetdiscover-s-p.txt",
                          "superbench-faked-hdr-3tier.ibnetdiscover-f.txt"}) {
        SCOPED_TRACE(f);
        Imported im = import_fixture(f);
        ASSERT_TRUE(im.topo);
        EXPECT_GT(im.topo->hosts().size(), 0U);
    }
    Imported av = import_fixture("avakas-qlogic-qdr.ibnetdiscover-s-p.txt");
    ASSERT_TRUE(av.topo);
    auto n = av.topo->find_host("node179");
    ASSERT_TRUE(n.has_value());
    EXPECT_EQ(av.topo->host(*n).role, HostRole::Compute);
}

// Import figures of every real dump, as `topoplace show --json` reports them. Each row
// was checked by hand against the dump with an independent script (a regex reader of the
// raw text, not this parser: hosts = CA description's first word, factory descriptions
// grouped by sysimgguid, SHARP "Aggregation Node" CAs skipped; leaves = switches with a CA;
// tiers = BFS distance from the leaves; groups = distinct leaf sets of hosts):
//  - avakas, plafrim-voltaire, plafrim2-subnet0: one single-port HCA per host; 16/7/5
//    switches carry hosts, the other 9/2/2 switches only switches (2 tiers). Service:
//    avakas-frontend*/avakas-master* (4); mds01 + oss01-04 (5); none ("bright" is no
//    service word).
//  - plafrim2-subnet1: one switch, 23 CAs (11 without a description: H-<guid> hosts).
//  - psmn (with its node-name map): 6 leaves, 4 spines; the fifth spine, cabled only to two
//    spines, is BFS distance 2 and is demoted (2 tiers). Service: r510gluster1-4 (storage).
//  - selene-compute: 469 hosts, 458 luna DGX with one mlx5 per rail leaf (8 rail names),
//    BFS distances 0-4: the management leaves MLG01-05 hang off one spine (leaf rule).
//    Not compute: selene-cache-01..04, -login-01/02, -slurm-01/02, -swift-01, -ufm-c-01/02.
//  - selene-storage: 171 hosts with a storage leaf (160 ai400x + 11 service); the 458 luna
//    hosts keep no leaf there (raw count with them: 629 hosts, 39 leaf sets); 3 tiers.
//  - superbench: 10 hosts, 5 leaves, 2 spines, 1 core.
//  - topograph-dgxh100: 120 hosts with 4 HCAs on 4 distinct leaves (names mix HCA-n and
//    mlx5_n, so rails go by position: 4); one of them is B11-P1-CUFM-02 (service, no rail);
//    31 leaves + 9 spines.
//  - ibtopotool-test1-4 (jabl/ibtopotool): the man page's two Voltaire switches with 4
//    factory-named CAs (H-<guid> hosts, both switches leaves); one 8-port switch with
//    compute-00-00/01; r-ufm* hosts only (service), 3 loopbacks ignored; one Sun DCS 36.
//  - topoplace-gen-*: written by tests/unit/libtopo/fabric_gen.hpp, whose truth the
//    FabricReading tests check (SUs, rails, tiers; ufm*/ddn* are service hosts).
//  - topoplace-ibdiagnet2 / -prompt-bom / -juwels-like: 2 hosts on 2 rail leaves and a
//    spine; 2 hosts on one switch; 2 hosts on 4 rail leaves and a spine.
//  - topoplace-2tier-hosts-on-spine (ours, issue 28 item 3): 24 hosts on 6 leaves, two
//    servers gpu-s01/02 on spine-1, which is cabled to every leaf: 2 tiers (6 leaves, 2
//    spines), the two servers are service hosts in a group of their own (6 + 1 groups).
//  - topoplace-director-hdr-partial-uplinks (ours, issue 28 item 5): 2 director chassis,
//    72 ToRs (57 with 2 single-HCA hosts each, 15 empty), 80 leaf ASICs, 40 spine ASICs:
//    3 tiers, 57 groups.
//  - ufm-lab-small: r-dcs96 (4 HCAs, 2 per switch: no rails) + 4 r-dmz-ufm* service hosts.
//  - director: 154 ToRs with hosts, 6 host-less ToRs cabled to the same 20 director leaf
//    ASICs as the others (tier 0, not core), 160 director leaf ASICs (tier 1), 80 director
//    spine ASICs (tier 2). All 8 HCAs of a node are on one ToR, so 1 rail; the 2 UFM
//    servers on two ToRs each are service hosts and make no rail. 156 leaf sets = 154 +
//    the two UFM servers'.
struct ImportRow {
    const char* file;
    int hosts, compute, service, switches, tiers, rails, groups;
    const char* name_map;
};

const ImportRow kImportRows[] = {
    {"avakas-qlogic-qdr.ibnetdiscover-s-p.txt", 281, 277, 4, 25, 2, 1, 16, nullptr},
    {"ibtopotool-test1.ibnetdiscover.txt", 4, 4, 0, 2, 1, 1, 2, nullptr},
    {"ibtopotool-test2.ibnetdiscover.txt", 2, 2, 0, 1, 1, 1, 1, nullptr},
    {"ibtopotool-test3.ibnetdiscover.txt", 5, 0, 5, 2, 1, 1, 2, nullptr},
    {"ibtopotool-test4.ibnetdiscover.txt", 1, 1, 0, 1, 1, 1, 1, nullptr},
    {"topoplace-gen-2tier-empty-leaves-loopbacks.ibnetdiscover.txt", 2, 2, 0, 12, 2, 1, 1, nullptr},
    {"topoplace-gen-3tier-mgmt-on-spines.ibnetdiscover.txt", 11, 8, 3, 22, 3, 4, 7, nullptr},
    {"topoplace-gen-8rail-converged-storage-leaf.ibnetdiscover.txt", 11, 9, 2, 27, 2, 8, 4, nullptr},
    {"topoplace-gen-8rail-hca-renamed.ibnetdiscover.txt", 8, 8, 0, 18, 2, 8, 2, nullptr},
    {"topoplace-ibdiagnet2-ndr-labels.ibnetdiscover", 2, 2, 0, 3, 2, 2, 1, nullptr},
    {"topoplace-juwels-like-hca-names.ibnetdiscover.txt", 2, 2, 0, 5, 2, 4, 1, nullptr},
    {"topoplace-prompt-bom.ibnetdiscover.txt", 2, 2, 0, 1, 1, 1, 1, nullptr},
    {"topoplace-2tier-hosts-on-spine.ibnetdiscover.txt", 26, 24, 2, 8, 2, 1, 7, nullptr},
    {"topoplace-director-hdr-partial-uplinks.ibnetdiscover.txt", 114, 114, 0, 192, 3, 1, 57, nullptr},
    {"plafrim-voltaire-qdr.ibnetdiscover-s-p.txt", 125, 120, 5, 9, 2, 1, 7, nullptr},
    {"plafrim2-subnet0-qdr.ibnetdiscover-s-p.txt", 96, 96, 0, 7, 2, 1, 5, nullptr},
    {"plafrim2-subnet1-mixed.ibnetdiscover-s-p.txt", 23, 23, 0, 1, 1, 1, 1, nullptr},
    {"psmn-x5-qdr.ibnetdiscover.txt", 89, 85, 4, 11, 2, 1, 6, "psmn-x5-qdr.guid-hostname.map"},
    {"selene-compute.ibnetdiscover.txt.gz", 469, 458, 11, 666, 3, 8, 28, nullptr},
    {"selene-storage.ibnetdiscover.txt", 171, 0, 170, 160, 3, 1, 17, nullptr},
    {"superbench-faked-hdr-3tier.ibnetdiscover-f.txt", 10, 10, 0, 8, 3, 1, 5, nullptr},
    {"topograph-dgxh100-ndr-plane1.ibnetdiscover.txt", 194, 119, 1, 40, 2, 4, 28, nullptr},
    {"ufm-lab-small.ibnetdiscover.txt", 5, 1, 4, 2, 1, 1, 2, nullptr},
    {"ufm-ndt-hdr-director-puttylog.ibnetdiscover.txt", 383, 278, 2, 400, 3, 1, 156, nullptr},
};

TEST(IbImport, EveryFixtureImportFigures) {
    std::set<std::string> covered{"topograph-gb200-single-ca.ibnetdiscover.txt"};  // SingleCaDumpHasNoSwitch
    for (const auto& row : kImportRows) {
        SCOPED_TRACE(row.file);
        covered.insert(row.file);
        topo::IbImportOptions opt;
        if (row.name_map != nullptr) {
            auto m = topo::read_node_name_map(fx(row.name_map));
            ASSERT_TRUE(m.has_value());
            opt.name_map = std::move(*m);
        }
        Imported im = import_fixture(row.file, opt);
        ASSERT_TRUE(im.topo);
        const topo::Summary s = im.topo->summary();
        EXPECT_EQ(s.hosts, row.hosts);
        EXPECT_EQ(s.compute_hosts, row.compute);
        EXPECT_EQ(s.service_hosts, row.service);
        EXPECT_EQ(s.switches, row.switches);
        EXPECT_EQ(s.tiers, row.tiers);
        EXPECT_EQ(s.rails, row.rails);
        EXPECT_EQ(im.topo->groups().size(), static_cast<std::size_t>(row.groups));
    }
    for (const auto& e : std::filesystem::directory_iterator(std::string(TOPO_FIXTURES) + "/ibnetdiscover")) {
        const std::string n = e.path().filename().string();
        if (n.find(".ibnetdiscover") == std::string::npos) continue;
        EXPECT_TRUE(covered.contains(n)) << n << " has no row in kImportRows";
    }
}

TEST(IbImport, DirectorHostlessTorsAreLeaves) {
    Imported im = import_fixture("ufm-ndt-hdr-director-puttylog.ibnetdiscover.txt");
    ASSERT_TRUE(im.topo);
    std::map<std::pair<std::string, int>, int> by_kind_tier;
    for (const auto& sw : im.topo->switches()) {
        std::string kind = sw.description.find("MCS8500/S") != std::string::npos   ? "director spine"
                           : sw.description.find("MCS8500/L") != std::string::npos ? "director leaf"
                                                                                   : "QM8700 ToR";
        ++by_kind_tier[{kind, sw.tier}];
    }
    const std::map<std::pair<std::string, int>, int> want{
        {{"QM8700 ToR", 0}, 160}, {{"director leaf", 1}, 160}, {{"director spine", 2}, 80}};
    EXPECT_EQ(by_kind_tier, want);
    auto ufm = im.topo->find_host("sat11-0101-0902-01ufm");
    ASSERT_TRUE(ufm.has_value());
    for (auto nid : im.topo->host(*ufm).nics) EXPECT_EQ(im.topo->nic(nid).rail, 0);
}

// Issue 28 item 3: a switch cabled to every leaf of the fabric is a spine by structure,
// whatever hangs on it. Two ordinary-named servers on spine-1 of a 6-leaf, 2-spine fabric
// made it a seventh leaf (7 leaves, 1 spine); now the tiers follow the cables, the two
// servers are named in one warning and kept out of the compute hosts and their groups.
TEST(IbImport, HostsOnASpineLeaveItASpine) {
    Imported im = import_fixture("topoplace-2tier-hosts-on-spine.ibnetdiscover.txt");
    ASSERT_TRUE(im.topo);
    const topo::Topology& t = *im.topo;
    std::map<std::string, int> tier;
    for (const auto& sw : t.switches()) tier[sw.description.substr(4, sw.description.find(':') - 4)] = sw.tier;
    const std::map<std::string, int> want{{"leaf-1", 0}, {"leaf-2", 0}, {"leaf-3", 0},  {"leaf-4", 0},
                                          {"leaf-5", 0}, {"leaf-6", 0}, {"spine-1", 1}, {"spine-2", 1}};
    EXPECT_EQ(tier, want);
    EXPECT_EQ(t.summary().tiers, 2);
    std::set<topo::GroupId> server_groups;
    for (const char* n : {"gpu-s01", "gpu-s02"}) {
        auto h = t.find_host(n);
        ASSERT_TRUE(h.has_value()) << n;
        EXPECT_EQ(t.host(*h).role, HostRole::Service) << n;
        server_groups.insert(t.host(*h).group);
    }
    int compute_groups = 0;
    for (const auto& g : t.groups()) {
        bool compute = false;
        for (auto hid : g.hosts) {
            compute = compute || t.host(hid).role == HostRole::Compute;
            if (t.host(hid).role == HostRole::Compute) EXPECT_EQ(server_groups.count(t.host(hid).group), 0U);
        }
        if (compute) {
            ++compute_groups;
            EXPECT_EQ(g.hosts.size(), 4U);
        }
    }
    EXPECT_EQ(compute_groups, 6);
    std::vector<std::string> said;
    for (const auto& w : im.warnings) {
        if (w.find("cabled to every leaf") != std::string::npos) said.push_back(w);
    }
    ASSERT_EQ(said.size(), 1U) << ::testing::PrintToString(im.warnings);
    EXPECT_NE(said[0].find("spine-1"), std::string::npos) << said[0];
    EXPECT_NE(said[0].find("gpu-s01, gpu-s02"), std::string::npos) << said[0];
    // a snapshot of it reads back the same (the servers' role is stored)
    auto back = topo::from_snapshot_json(topo::to_snapshot_json(t), "snap.json");
    ASSERT_TRUE(back.has_value()) << back.error().to_string();
    EXPECT_EQ((*back)->fingerprint(), t.fingerprint());
    EXPECT_EQ((*back)->summary().tiers, 2);
}

// Issue 28 item 5: a director-class HDR fabric (2 chassis: 80 leaf ASICs, 40 spine ASICs;
// 72 ToRs, 15 without hosts). In three ToR groups every populated ToR misses one uplink,
// so the group's empty ToR (all uplinks) is cabled to no subset of one populated ToR's
// switches; it was read with the spine ASICs (tiers 69/80/43). It is cabled only to
// switches of its own group (pod), so it is an empty leaf: 72/80/40.
TEST(IbImport, DirectorEmptyTorsWithOtherUplinksAreLeaves) {
    Imported im = import_fixture("topoplace-director-hdr-partial-uplinks.ibnetdiscover.txt");
    ASSERT_TRUE(im.topo);
    std::map<std::pair<std::string, int>, int> by_kind_tier;
    for (const auto& sw : im.topo->switches()) {
        std::string kind = sw.description.find("MCS8500/S") != std::string::npos   ? "director spine"
                           : sw.description.find("MCS8500/L") != std::string::npos ? "director leaf"
                                                                                   : "QM8700 ToR";
        ++by_kind_tier[{kind, sw.tier}];
    }
    const std::map<std::pair<std::string, int>, int> want{
        {{"QM8700 ToR", 0}, 72}, {{"director leaf", 1}, 80}, {{"director spine", 2}, 40}};
    EXPECT_EQ(by_kind_tier, want);
    EXPECT_TRUE(any_warning(im, "15 switch(es) without hosts")) << ::testing::PrintToString(im.warnings);
}

TEST(IbImport, RouterAndDualPortCa) {
    const std::string t =
        "vendid=0x2c9\nsysimgguid=0x10\nswitchguid=0x10(10)\n"
        "Switch\t36 \"S-0000000000000010\"\t\t# \"MF0;leaf1:MQM8700/U1\" enhanced port 0 lid 1 lmc 0\n"
        "[1]\t\"H-0000000000000020\"[1](21) \t\t# \"node1 mlx4_0\" lid 2 4xFDR\n"
        "[2]\t\"H-0000000000000020\"[2](22) \t\t# \"node1 mlx4_0\" lid 3 4xFDR\n"
        "[3]\t\"R-0000000000000030\"[1]\t\t# \"router1\" lid 4 4xEDR\n"
        "\nvendid=0x2c9\nsysimgguid=0x20\ncaguid=0x20\n"
        "Ca\t2 \"H-0000000000000020\"\t\t# \"node1 mlx4_0\"\n"
        "[1](21) \t\"S-0000000000000010\"[1]\t\t# lid 2 lmc 0 \"MF0;leaf1:MQM8700/U1\" lid 1 4xFDR\n"
        "[2](22) \t\"S-0000000000000010\"[2]\t\t# lid 3 lmc 0 \"MF0;leaf1:MQM8700/U1\" lid 1 4xFDR\n"
        "\nvendid=0x2c9\nrouterguid=0x30\n"
        "Rt\t1 \"R-0000000000000030\"\t\t# \"router1\"\n"
        "[1](31) \t\"S-0000000000000010\"[3]\t\t# lid 4 lmc 0 \"MF0;leaf1:MQM8700/U1\" lid 1 4xEDR\n";
    auto f = topo::parse_ibnetdiscover(t, "rt.txt");
    ASSERT_TRUE(f.has_value()) << f.error().to_string();
    Counts c = count(*f);
    EXPECT_EQ(c.switches, 1);
    EXPECT_EQ(c.cas, 1);
    EXPECT_EQ(c.routers, 1);
    topo::TopologyBuilder b;
    ASSERT_TRUE(topo::import_ib_fabric(*f, {}, b).has_value());
    auto topo = std::move(b).freeze();
    ASSERT_TRUE(topo.has_value()) << topo.error().to_string();
    const topo::Topology& tp = **topo;
    ASSERT_EQ(tp.hosts().size(), 1U);
    const auto& h = tp.hosts()[0];
    EXPECT_EQ(h.name, "node1");
    EXPECT_EQ(h.role, HostRole::Compute);
    std::vector<std::string> names;
    for (auto nid : h.nics) {
        names.push_back(tp.nic(nid).name);
        EXPECT_TRUE(tp.nic(nid).leaf.valid());
        EXPECT_DOUBLE_EQ(tp.nic(nid).rate_gbps, 56);
    }
    EXPECT_EQ(names, (std::vector<std::string>{"mlx4_0:1", "mlx4_0:2"}));
    EXPECT_EQ(tp.sw(*tp.find_switch("0x0000000000000010")).name, "leaf1");
    bool router_warned = false;
    for (const auto& w : tp.warnings()) router_warned |= w.find("skipped 1 IB router") != std::string::npos;
    EXPECT_TRUE(router_warned);
}

// An HCA that kept its factory description ("MT4123 ConnectX6 Mellanox Technologies", no
// host name) is put on the host whose other HCA shares its system image GUID; with no such
// sibling it becomes a host of its own named after its GUID (with a warning).
TEST(IbImport, FactoryDescriptionRecoveredThroughSystemImageGuid) {
    const std::string t =
        "vendid=0x2c9\nsysimgguid=0x10\nswitchguid=0x10(10)\n"
        "Switch\t36 \"S-0000000000000010\"\t\t# \"leaf1\" enhanced port 0 lid 1 lmc 0\n"
        "[1]\t\"H-0000000000000021\"[1](21) \t\t# \"gpu01 mlx5_0\" lid 2 4xHDR\n"
        "[2]\t\"H-0000000000000022\"[1](22) \t\t# \"MT4123 ConnectX6 Mellanox Technologies\" lid 3 4xHDR\n"
        "[3]\t\"H-0000000000000031\"[1](31) \t\t# \"MT4123 ConnectX6 Mellanox Technologies\" lid 4 4xHDR\n"
        "\n"
        "vendid=0x2c9\nsysimgguid=0x20\ncaguid=0x21\n"
        "Ca\t1 \"H-0000000000000021\"\t\t# \"gpu01 mlx5_0\"\n"
        "[1](21) \t\"S-0000000000000010\"[1]\t\t# lid 2 lmc 0 \"leaf1\" lid 1 4xHDR\n"
        "\n"
        "vendid=0x2c9\nsysimgguid=0x20\ncaguid=0x22\n"
        "Ca\t1 \"H-0000000000000022\"\t\t# \"MT4123 ConnectX6 Mellanox Technologies\"\n"
        "[1](22) \t\"S-0000000000000010\"[2]\t\t# lid 3 lmc 0 \"leaf1\" lid 1 4xHDR\n"
        "\n"
        "vendid=0x2c9\nsysimgguid=0x30\ncaguid=0x31\n"
        "Ca\t1 \"H-0000000000000031\"\t\t# \"MT4123 ConnectX6 Mellanox Technologies\"\n"
        "[1](31) \t\"S-0000000000000010\"[3]\t\t# lid 4 lmc 0 \"leaf1\" lid 1 4xHDR\n";
    auto f = topo::parse_ibnetdiscover(t, "sysimg.txt");
    ASSERT_TRUE(f.has_value()) << f.error().to_string();
    topo::TopologyBuilder b;
    ASSERT_TRUE(topo::import_ib_fabric(*f, {}, b).has_value());
    auto topo = std::move(b).freeze();
    ASSERT_TRUE(topo.has_value()) << topo.error().to_string();
    const topo::Topology& tp = **topo;
    const auto g = tp.find_host("gpu01");
    ASSERT_TRUE(g.has_value());
    EXPECT_EQ(tp.host(*g).nics.size(), 2U);  // its own HCA and the factory-named sibling
    ASSERT_EQ(tp.hosts().size(), 2U);        // + one host for the lone factory-named HCA
    std::string other;
    for (const auto& h : tp.hosts())
        if (h.name != "gpu01") other = h.name;
    EXPECT_NE(other.find("31"), std::string::npos) << other;  // named after its GUID
}

TEST(IbImport, SingleCaDumpHasNoSwitch) {
    IbFabric f = parse_ok("topograph-gb200-single-ca.ibnetdiscover.txt");
    topo::TopologyBuilder b;
    auto st = topo::import_ib_fabric(f, {}, b);
    ASSERT_FALSE(st.has_value());
    EXPECT_EQ(st.error().code, Errc::Parse);
    EXPECT_EQ(st.error().line, 10);  // the Ca line
    EXPECT_NE(st.error().file.find("topograph-gb200-single-ca"), std::string::npos);
    EXPECT_NE(st.error().message.find("no switch"), std::string::npos) << st.error().to_string();
}

// ---------------------------------------------------------------------------------
// libibnetdisc reader

#ifdef TOPO_HAVE_IBNETDISC
TEST(IbndReader, NoInfinibandDevice) {
    auto empty = std::filesystem::temp_directory_path() / "topo-ib-tests" / "no-ib";
    std::filesystem::create_directories(empty);
    topo::ibnd::DiscoverOptions opt;
    opt.sysfs_class_dir = empty.string();
    auto r = topo::ibnd::discover(opt);
    ASSERT_FALSE(r.has_value());
    EXPECT_EQ(r.error().code, Errc::Unsupported);
    EXPECT_NE(r.error().message.find("no InfiniBand device found"), std::string::npos);

    opt.sysfs_class_dir = "/nonexistent/sys/class/infiniband";
    auto r2 = topo::ibnd::discover(opt);
    ASSERT_FALSE(r2.has_value());
    EXPECT_EQ(r2.error().code, Errc::Unsupported);
}

TEST(IbndReader, CacheErrors) {
    auto missing = topo::ibnd::load_cache("/nonexistent/fabric.cache");
    ASSERT_FALSE(missing.has_value());
    EXPECT_EQ(missing.error().code, Errc::Io);

    // A text dump is not a libibnetdisc cache.
    auto text = topo::ibnd::load_cache(fx("ufm-lab-small.ibnetdiscover.txt"));
    ASSERT_FALSE(text.has_value());
    EXPECT_EQ(text.error().code, Errc::Parse);
    EXPECT_NE(text.error().file.find("ufm-lab-small"), std::string::npos);
}
#endif

}  // namespace

namespace {

// Issue 17 finding 7: a node description is text anyone with the HCA can set; one that is
// not a node name ("n001,n[100-199] mlx5_0") must not become topology.conf or NodeName=.
TEST(IbImport, InvalidHostNameInDescriptionIsNamedByGuid) {
    std::string text = kSmall;
    for (std::size_t p; (p = text.find("node1 mlx5_0")) != std::string::npos;) {
        text.replace(p, 12, "n001,n[100-199] mlx5_0");
    }
    auto f = topo::parse_ibnetdiscover(text, "dump.txt");
    ASSERT_TRUE(f.has_value()) << f.error().to_string();
    topo::TopologyBuilder b;
    ASSERT_TRUE(topo::import_ib_fabric(*f, {}, b).has_value());
    auto t = std::move(b).freeze();
    ASSERT_TRUE(t.has_value()) << t.error().to_string();
    ASSERT_EQ((*t)->hosts().size(), 1U);
    EXPECT_EQ((*t)->hosts().front().name.rfind("H-", 0), 0U) << (*t)->hosts().front().name;
    bool warned = false;
    for (const auto& w : (*t)->warnings()) {
        warned = warned || w.find("not a valid node name (e.g. \"n001,n[100-199]\"") != std::string::npos;
    }
    EXPECT_TRUE(warned);
}

TEST(IbImport, BuilderRefusesInvalidHostNames) {
    topo::TopologyBuilder b;
    b.add_host("n1 n2");
    auto t = std::move(b).freeze();
    ASSERT_FALSE(t.has_value());
    EXPECT_NE(t.error().message.find("not a valid node name"), std::string::npos) << t.error().message;
}

}  // namespace
