// SPDX-License-Identifier: Apache-2.0
#pragma once
/// \file NCCL / RCCL topology XML (the NCCL_TOPO_FILE / NCCL_TOPO_DUMP_FILE format) as a
/// node description, like an hwloc XML: GPUs, NICs, NUMA, PCIe paths, NVLink/xGMI.
///
/// The file is `<system>` of `<cpu numaid=...>` holding nested `<pci busid class>`
/// elements. A GPU is a pci device of class 0x03xxxx (display) or 0x12xxxx (processing
/// accelerator: AMD Instinct), or one that carries a `<gpu dev=N>` child (dumps do);
/// a NIC is a pci device of class 0x02xxxx, or a `<nic>` element with `<net name=...>`
/// children (dumps; each `<net>` is one NIC port). GPUs are numbered by `<gpu dev>`
/// where given, else in PCI bus id order (nvidia-smi's order); NICs without a `<net
/// name>` (vendor static files) are named nic0, nic1... in PCI bus id order.
/// GPU-NIC path class: PIX when one PCIe switch joins them, PXB when several do, PHB
/// when they meet only at their CPU, SYS across CPUs (NCCL's own PATH_* meanings).
/// `<nvlink>`/`<xgmi target=busid count=N>` under a `<gpu>` give NVLink pairs; targets
/// of class 0x068000 are NVSwitches: every pair of GPUs on them is linked.
/// An interface with no PCI device (docker0, a bridge, a tunnel) that a dump lists under
/// every CPU, one copy each, is one NIC with no NUMA locality (a warning names them); any
/// other name given twice is refused at its second appearance.
/// An NCCL graph file (`<graphs>`, NCCL_GRAPH_FILE) is refused with a clear error.

#include <string>
#include <string_view>

#include <topo/node_description.hpp>
#include <topo/result.hpp>

namespace topo {

/// Errors: Parse (file:line: not XML, truncated, not an NCCL topology).
[[nodiscard]] Result<NodeDescription> parse_nccl_topo_xml(std::string_view text, const std::string& source);
/// Same, from a file. Errors: Io, Parse.
[[nodiscard]] Result<NodeDescription> read_nccl_topo_xml(const std::string& path);

}  // namespace topo
