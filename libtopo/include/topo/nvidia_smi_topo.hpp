// SPDX-License-Identifier: Apache-2.0
#pragma once
/// \file Reader for `nvidia-smi topo -m` matrices (the GPU/NIC connection matrix).
///
/// Accepted input: the matrix as nvidia-smi prints it, tab-separated, or space-aligned
/// as it appears once pasted into a document; ANSI escape sequences (nvidia-smi
/// underlines the header: ESC[4m ... ESC[0m) are ignored; text before the header (a
/// shell prompt, "NVIDIA Topology:") and after the matrix is ignored, except the
/// "NIC Legend:" block ("NIC0: mlx5_0"), which names the NICs.
///
/// Cell tokens: "X" (self), "NV#" (bonded NVLinks), "PIX", "PXB", "PHB", "NODE", "SYS"
/// and "SOC" (the pre-2018 name of SYS). The trailing "CPU Affinity", "NUMA Affinity"
/// and "GPU NUMA ID" columns are optional and may be empty.
///
/// What the result holds:
///  - gpus: one per "GPU<n>" row, index n, name "GPU<n>", numa from "NUMA Affinity"
///    when it is one number (empty, "N/A" or a range leave it at -1);
///  - nics: one per NIC column, named from the NIC legend ("mlx5_0") or as the header
///    names it ("NIC0", or "mlx5_0" in older nvidia-smi versions); a NIC's numa is
///    inferred from a GPU it reaches without crossing the SMP interconnect (PIX, PXB,
///    PHB or NODE); model, PCI bus, UUID and GUIDs are not in the matrix;
///  - gpu_nic[i][j]: the cell of row GPU i, column NIC j;
///  - nvlinks: each GPU pair with an NV# cell, links = #, gbps = 0;
///  - numa_nodes: 1 + the largest NUMA id seen (a lower bound; 0 if none).

#include <string>
#include <string_view>

#include <topo/node_description.hpp>
#include <topo/result.hpp>

namespace topo {

/// Parse the text of `nvidia-smi topo -m`. `source` names the input in messages and
/// in NodeDescription::source.
/// Errors: Parse, with `source` and the 1-based line: empty input, binary data, no
/// "GPU0 ..." header line, a row whose cell count does not match the header, an
/// unknown cell token, an unknown or duplicated row label, a missing diagonal "X",
/// or a truncated matrix (a device of the header has no row).
/// Never throws on malformed input; O(size of the text).
[[nodiscard]] Result<NodeDescription> parse_nvidia_smi_topo(std::string_view text, const std::string& source);

/// Read a file (gzip detected) and parse it. Errors: Io (cannot open or read), Parse.
[[nodiscard]] Result<NodeDescription> read_nvidia_smi_topo_file(const std::string& path);

}  // namespace topo
