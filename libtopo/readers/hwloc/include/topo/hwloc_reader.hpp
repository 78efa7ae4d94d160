// SPDX-License-Identifier: Apache-2.0
#pragma once
/// \file Node descriptions from hwloc: an exported XML file, or the running machine.
///
/// Everything goes through the hwloc API (the hwloc 2.x library this was built
/// against; the major API version is checked at run time). I/O objects are loaded with
/// HWLOC_TYPE_FILTER_KEEP_ALL, so the whole PCI tree, bridges included, is seen.
/// hwloc 2.x imports v1 (hwloc 1.x) and v2 XML. XML written by hwloc 3.x is refused by
/// hwloc 2.x; it is downgraded in memory first (version attribute, OS device type
/// bitmask -> 2.x enum, topology-level <info> moved into the root object) and the
/// result says so in `warnings`.
///
/// What is read:
///  - GPUs: OS devices of type GPU or COPROC that a GPU backend created: NVML
///    ("nvml0"), CUDA ("cuda0"), RSMI ("rsmi0"), OpenCL ("opencl0d0"), LevelZero
///    ("ze0"), one GPU per PCI function (the NVML/RSMI name is preferred, then CUDA,
///    then the others). DRM devices (card*, renderD*, controlD*) are not GPUs. When
///    the topology has no GPU OS device at all, the PCI devices of NVIDIA (0x10de) or
///    AMD (0x1002) with class 0x0302 (3D), 0x0300 (VGA), 0x0380 (display) or 0x1200
///    (accelerator) are the GPUs (named "GPU<index>"). NVSwitch PCI devices are never
///    GPUs. GPUs are ordered by PCI bus id (the NVML / nvidia-smi order); index is
///    the position in that order. model: "GPUModel" info, else "PCIDevice" info, else
///    "vendor:device"; uuid: "NVIDIAUUID" or "AMDUUID" info.
///  - NICs: one per PCI function that carries an OpenFabrics OS device (mlx5_0,
///    rdmap197s0 for AWS EFA, hfi1_0), or a network OS device named ib* or hsi*, or of
///    subtype "Slingshot". Plain Ethernet interfaces (eth*, eno*, enp*...) on other PCI
///    functions are not NICs. The OpenFabrics name is preferred. guid: "NodeGUID" info
///    (else "Port1GUID"), normalised to "0x" + 16 lower-case hex digits. NICs are in
///    natural name order.
///  - numa (GPUs and NICs): the NUMA node of the nearest non-I/O ancestor when that
///    ancestor covers exactly one NUMA node, else -1. numa_nodes: NUMA node count.
///  - gpu_nic[i][j], nvidia-smi's classes derived from the PCI tree. Let A be the
///    deepest common ancestor of the two PCI devices:
///      Pix  A is a PCI-to-PCI bridge and each device is at most one bridge below A
///           (both under one PCIe switch);
///      Pxb  A is a PCI-to-PCI bridge, and a device is two or more bridges below it;
///      Phb  A is a host bridge (same PCI root complex);
///      Node A is not an I/O object and the nearest non-I/O ancestors of the devices
///           share a NUMA node;
///      Sys  otherwise (the path crosses the SMP interconnect).
///  - nvlinks: from the distances matrices "NVLinkBandwidth" (NVIDIA) and
///    "XGMIBandwidth" (AMD), values in MB/s. A direct GPU-GPU value is a pair. GPUs
///    connected to NVSwitch PCI devices (DGX-2) are all paired with each other, with
///    the smaller of the two GPUs' total NVSwitch bandwidth. gbps is in Gbit/s
///    (MB/s * 8 / 1000). links is derived for NVIDIA models whose per-link figure hwloc
///    uses is known (P100: 20000 MB/s; V100, A100, A800, H100, H800, H200: 25000 MB/s)
///    when the value is a multiple of it; 0 otherwise.
///  - hostname: the "HostName" info of the root object, if any.

#include <string>

#include <topo/node_description.hpp>
#include <topo/result.hpp>

namespace topo {

/// Read an hwloc XML export (v1, v2; v3 downgraded; gzip detected).
/// Errors: Io (missing or unreadable file), Parse (hwloc rejects the XML; the message
/// names the file), Unsupported (hwloc library with another major API version).
[[nodiscard]] Result<NodeDescription> read_hwloc_xml(const std::string& path);

/// Discover the running machine with hwloc (source "hwloc:live"). A machine without
/// GPUs or NICs gives empty lists, not an error.
/// Errors: Io (hwloc cannot load the topology), Unsupported (API version mismatch).
[[nodiscard]] Result<NodeDescription> read_hwloc_live();

}  // namespace topo
