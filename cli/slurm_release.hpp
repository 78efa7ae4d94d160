// SPDX-License-Identifier: Apache-2.0
#pragma once
// A Slurm release as the CLI reads it: `scontrol --version` ("slurm 24.11.5"), `scontrol show
// config`'s SLURM_VERSION ("24.11.5"), --slurm-version ("24.11"), and a plugin's
// `plugin_version` (SLURM_VERSION_NUMBER). One parser for `doctor` and `slurm-conf`.

#include <cstdint>
#include <cstdio>
#include <optional>
#include <string>
#include <string_view>

namespace topo::cli {

struct SlurmRelease {
    int major = 0;  // YY
    int minor = 0;  // MM
    int micro = 0;

    /// 24.11 -> 2411, for comparing releases
    [[nodiscard]] int yymm() const { return major * 100 + minor; }

    [[nodiscard]] std::string major_minor() const {
        char b[16];
        std::snprintf(b, sizeof b, "%02d.%02d", major, minor);
        return b;
    }

    [[nodiscard]] std::string str() const {
        char b[32];
        std::snprintf(b, sizeof b, "%02d.%02d.%d", major, minor, micro);
        return b;
    }
};

/// "24.11", "24.11.5", "slurm 24.11.5\n" -> the release; nullopt for anything else (two digits
/// each for year and month, then the end or "." and the micro version's digits).
inline std::optional<SlurmRelease> parse_slurm_release(std::string_view s) {
    if (s.substr(0, 6) == "slurm ") s.remove_prefix(6);
    while (!s.empty() && (s.back() == '\n' || s.back() == '\r' || s.back() == ' ')) s.remove_suffix(1);
    auto digit = [&](std::size_t i) { return i < s.size() && s[i] >= '0' && s[i] <= '9'; };
    if (!digit(0) || !digit(1) || s.size() < 5 || s[2] != '.' || !digit(3) || !digit(4)) return std::nullopt;
    SlurmRelease r{(s[0] - '0') * 10 + (s[1] - '0'), (s[3] - '0') * 10 + (s[4] - '0'), 0};
    if (s.size() == 5) return r;
    if (s[5] != '.' || s.size() == 6 || s.size() > 9) return std::nullopt;  // micro: 1-3 digits
    for (std::size_t i = 6; i < s.size(); ++i) {
        if (!digit(i)) return std::nullopt;
        r.micro = r.micro * 10 + (s[i] - '0');
    }
    return r;
}

/// SLURM_VERSION_NUMBER (0xYYMMmm, as a plugin's `plugin_version` holds it) -> the release.
inline SlurmRelease release_of_number(std::uint32_t v) {
    return SlurmRelease{static_cast<int>((v >> 16U) & 0xffU), static_cast<int>((v >> 8U) & 0xffU),
                        static_cast<int>(v & 0xffU)};
}

}  // namespace topo::cli
