// SPDX-License-Identifier: Apache-2.0
#pragma once
/// \file The health flag store: one record per node, written atomically, read fast
/// (the SPANK launch gate reads it on every job launch).
///
/// Layout: a directory (default /var/lib/topoplace/health), one file per node named
/// after the Slurm NodeName. The store and its files must be owned by root (or by the
/// uid given to open()) and must not be group- or world-writable; otherwise open()/get()
/// refuse them with Errc::Unsupported... see docs/health.md.

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <sys/types.h>
#include <vector>

#include <topo/result.hpp>

namespace topo::health {

enum class Verdict : std::uint8_t { Healthy, Unhealthy };

struct Record {
    std::string node;           ///< Slurm NodeName
    Verdict verdict = Verdict::Healthy;
    std::string reason;         ///< one line, empty when healthy
    std::string source;         ///< "check", "operator", probe name...
    std::int64_t since = 0;     ///< unix seconds the verdict last changed
    std::int64_t last_check = 0;///< unix seconds of the last check
};

struct StoreOptions {
    uid_t trusted_uid = 0;      ///< owner the store must have (root)
    bool create = false;        ///< create the directory if missing (writers only)
};

class Store {
public:
    /// Open (and verify the ownership/permissions of) a store directory.
    [[nodiscard]] static Result<Store> open(std::string dir, StoreOptions opts = {});

    /// The record of one node; nullopt when the node has none. A record file that is
    /// tampered with (wrong owner, group/world writable, unparsable) is an error.
    [[nodiscard]] Result<std::optional<Record>> get(std::string_view node) const;
    [[nodiscard]] Result<std::vector<Record>> list() const;
    /// Write atomically (temp file + rename), mode 0644.
    [[nodiscard]] Status put(const Record& r) const;
    [[nodiscard]] Status remove(std::string_view node) const;

    [[nodiscard]] const std::string& dir() const noexcept { return dir_; }

private:
    std::string dir_;
    StoreOptions opts_;
};

}  // namespace topo::health
