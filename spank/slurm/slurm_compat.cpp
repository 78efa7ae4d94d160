// SPDX-License-Identifier: Apache-2.0
// The release differences of slurm_compat.hpp. Sources (tags of SchedMD/slurm, checked by
// content): docs/spank.md "Slurm releases".
#include "slurm_compat.hpp"

#include <cerrno>
#include <string>

#include <dlfcn.h>

#ifndef SLURM_VERSION_NUM
#error "slurm/slurm_version.h lacks SLURM_VERSION_NUM"
#endif

#define TOPO_SLURM_AT_LEAST(a, b) (SLURM_VERSION_NUMBER >= SLURM_VERSION_NUM(a, b, 0))

#if !TOPO_SLURM_AT_LEAST(22, 5)
#error "topoplace supports Slurm 22.05 and later"
#endif

#ifdef TOPO_SLURM_RELEASE_NUMBER
// CMake read the same header; a mismatch means two Slurm header sets on the include path.
static_assert((SLURM_VERSION_NUMBER & 0xffff00) == (TOPO_SLURM_RELEASE_NUMBER & 0xffff00),
              "the Slurm headers compiled against are not the release CMake configured (TOPO_SLURM_PREFIX)");
#endif

namespace topo::spank::compat {

namespace {
constexpr int kMajor = SLURM_VERSION_MAJOR(SLURM_VERSION_NUMBER);
constexpr int kMinor = SLURM_VERSION_MINOR(SLURM_VERSION_NUMBER);
constexpr char kRelease[] = {static_cast<char>('0' + kMajor / 10), static_cast<char>('0' + kMajor % 10), '.',
                             static_cast<char>('0' + kMinor / 10), static_cast<char>('0' + kMinor % 10), '\0'};
}  // namespace

const char* release() noexcept {
    return kRelease;
}

const char* topology_plugin() noexcept {
    // libslurm's (and libslurmfull's) configuration, filled by slurm_init() in sbatch, salloc and
    // srun before any SPANK callback; declared by Slurm only in an internal header, so looked up.
    const auto* conf = static_cast<const slurm_conf_t*>(dlsym(RTLD_DEFAULT, "slurm_conf"));
    return conf != nullptr ? conf->topology_plugin : nullptr;
}

void init() noexcept {
    slurm_init(nullptr);
}

int last_error() noexcept {
#if TOPO_SLURM_AT_LEAST(24, 11)
    return errno;  // slurm_get_errno() removed in 24.11.0 (c728b40c6f)
#else
    return slurm_get_errno();
#endif
}

std::uint16_t alloc_cpus(const node_info_t& n) noexcept {
#if TOPO_SLURM_AT_LEAST(25, 5)
    return n.alloc_cpus;  // select_nodeinfo removed in 25.05.0 (bcb12a072c)
#else
    std::uint16_t cpus = 0;
    if (n.select_nodeinfo != nullptr)
        slurm_get_select_nodeinfo(n.select_nodeinfo, SELECT_NODEDATA_SUBCNT, NODE_STATE_ALLOCATED, &cpus);
    return cpus;
#endif
}

ExtraState extra_state(const node_info_t& n) noexcept {
#if TOPO_SLURM_AT_LEAST(25, 5)
    if ((n.node_state & NODE_STATE_EXTERNAL) != 0) return ExtraState::External;
#endif
#if TOPO_SLURM_AT_LEAST(24, 5)
    if ((n.node_state & NODE_STATE_BLOCKED) != 0) return ExtraState::Blocked;
#endif
    (void)n;  // 22.05: bit 4 is NODE_STATE_NET (a network-only allocation), not a placement fact
    return ExtraState::None;
}

int drain_node(const char* node, const char* reason) noexcept {
#if TOPO_SLURM_AT_LEAST(24, 5)
    // `slurmstepd spank prolog` (where the launch gate drains) starts no client plugins on
    // 24.11/26.05 (auth, conn, hash: slurmstepd.c _handle_spank_mode); 22.05 loaded them on
    // first use. Without this the RPC never reached slurmctld on 26.05 and Slurm's own
    // "Prolog error" became the drain reason (seen on the 26.05 lab). slurm_init leaves an
    // already loaded configuration alone and each plugin interface inits once.
    init();
#endif
    update_node_msg_t m;
    slurm_init_update_node_msg(&m);
    std::string names = node != nullptr ? node : "";
    std::string why = reason != nullptr ? reason : "";
    m.node_names = names.data();
    m.node_state = NODE_STATE_DRAIN;
    m.reason = why.data();
#if !TOPO_SLURM_AT_LEAST(26, 5)
    m.reason_uid = 0;  // gone in 26.05: slurmctld records the caller's uid itself
#endif
    if (slurm_update_node(&m) == SLURM_SUCCESS) return 0;
    const int e = last_error();
    return e != 0 ? e : SLURM_ERROR;
}

}  // namespace topo::spank::compat
