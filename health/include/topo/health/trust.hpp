// SPDX-License-Identifier: Apache-2.0
#pragma once
/// \file Trust rules for what topoplace reads or runs as root: the health flag store (its
/// directory and records) and the site probes (`health check --probe-dir`). One
/// implementation for both; see docs/health.md "Trust rules".
///
/// An object is trusted when:
///   - it is owned by root or by `uid` (the store's StoreOptions::trusted_uid, the euid
///     running the probes), is of the expected kind, is not a symbolic link and is not
///     group- or world-writable (a sticky directory is not safe either);
///   - every directory above it, from /, is owned by root or `uid` and is not group- or
///     world-writable, except a sticky one (like /tmp: others cannot rename or remove what
///     root owns in it). A symbolic link above it is followed only when owned by root or
///     `uid` (its directory is trusted, so nobody else can change it; merged /usr, /var/run).

#include <cstdint>
#include <string>
#include <string_view>

#include <topo/result.hpp>

#include <sys/stat.h>
#include <sys/types.h>

namespace topo::health {

enum class PathKind : std::uint8_t { Directory, RegularFile };

/// The rules for one object already lstat()ed or fstat()ed (its directories checked by the
/// caller): kind, not a symbolic link, owner root or `uid`, not group/world writable.
/// Errc::Unsupported "<what>: refusing <path>: <rule broken>" when refused.
[[nodiscard]] Status check_trusted_stat(const struct stat& st, const std::string& path, PathKind kind, uid_t uid,
                                        std::string_view what);

/// The whole path, from / down to the object (relative paths from the current directory).
/// Errors: Errc::NotFound when a component does not exist (nothing refused above it),
/// Errc::Unsupported when refused (names the component and the rule), Errc::Io when a
/// component cannot be examined.
[[nodiscard]] Status check_trusted_path(const std::string& path, PathKind kind, uid_t uid, std::string_view what);

}  // namespace topo::health
