// SPDX-License-Identifier: Apache-2.0
#pragma once
/// \file Slurm topology/block configuration (topology.conf with BlockName lines; the
/// block plugin exists since Slurm 23.11, BlockSizes since 24.05).
///
/// Base blocks: one per multi-node NVLink domain (GB200 NVL72 rack) when the topology
/// has any, else one per leaf group (Topology::groups()). Slurm's rules
/// (block_record.c, eval_nodes_block.c) that shape the output:
///  - the base block size is the first BlockSizes value; every later size must be
///    base * 2^k (k <= 15); without BlockSizes Slurm enables levels 0..3;
///  - every block must hold at least base-size node records, else slurmctld is fatal
///    ("children count lower than bblock_node_cnt"); a block with no nodes is fatal too;
///  - aggregate blocks are consecutive base blocks in file order, aligned to powers of
///    two, so a missing rack must keep its slot or every later rack shifts.
/// Hence: "16 of 18 usable" racks get base size 16 (Slurm sizes jobs by the base size,
/// so a 32-node job asks for 2 racks and still fits when 2 trays of each are down);
/// a missing rack (a gap in the numbering of the domain names, e.g. rack01, rack02,
/// rack04) gets a placeholder block, and a block with fewer real hosts than the base
/// size is padded; both with fake node names that must be declared in slurm.conf with
/// State=FUTURE (as NVIDIA topograph does), listed in BlockConf::fake_nodes.
/// Inferred base size: for NVLink domains the most common number of hosts a job may
/// count on (usable_hosts, else the domain size; short racks are padded); for leaf
/// groups the smallest group (groups differ for ordinary reasons; no fake nodes).

#include <string>
#include <vector>

#include <topo/result.hpp>
#include <topo/topology.hpp>

namespace topo::slurmconf {

enum class BlockSource : std::uint8_t {
    Auto,        ///< NVLink domains if any multi-node domain exists, else leaf groups
    NvlDomains,  ///< one base block per multi-node NVLink domain
    LeafGroups,  ///< one base block per leaf group
};

struct BlockOptions {
    BlockSource source = BlockSource::Auto;
    /// BlockSizes override (e.g. {18, 36, 72}); empty = inferred. Checked like Slurm:
    /// positive, increasing, each a power-of-two multiple (<= 2^15) of the first.
    std::vector<int> block_sizes;
    /// Prefix of fake node names for placeholder and padded blocks:
    /// <prefix><block>-<NN>, e.g. "fake-rack03-[01-16]".
    std::string fake_prefix = "fake-";
    /// Fill gaps in the numbering of NVLink domain names with placeholder blocks.
    bool placeholders = true;
    /// Also put Service hosts in blocks (default: Compute and Unknown only).
    bool include_service = false;
    /// Shown in the header comment.
    std::string source_label;
};

struct Block {
    std::string name;
    std::vector<std::string> nodes;       ///< real hosts, natural order
    std::vector<std::string> fake_nodes;  ///< padding (placeholder: all of them)
    bool placeholder = false;             ///< a missing rack's slot
    int usable = 0;                       ///< NvlDomain::usable_hosts (0 = all / unknown)
    std::string origin;                   ///< NVLink domain or leaf group name
};

struct BlockConf {
    std::string text;              ///< the topology.conf
    std::vector<Block> blocks;     ///< file order
    std::vector<int> block_sizes;  ///< as written in BlockSizes=
    bool sizes_inferred = true;
    BlockSource source = BlockSource::NvlDomains;  ///< what was used (never Auto)
    std::vector<std::string> fake_nodes;           ///< every fake node, natural order
    std::vector<std::string> warnings;             ///< also written as comments in `text`
};

/// Parse "18,36,72" into sizes and check them as Slurm does. Errors: InvalidArgument.
[[nodiscard]] Result<std::vector<int>> parse_block_sizes(const std::string& text);

/// Generate topology.conf for topology/block. Errors: InvalidArgument when there is no
/// block (no multi-node NVLink domain / no leaf group with included hosts), for bad
/// block sizes, or when a fake node name would clash with a real host.
[[nodiscard]] Result<BlockConf> generate_block_conf(const Topology& t, const BlockOptions& opts = {});

}  // namespace topo::slurmconf
