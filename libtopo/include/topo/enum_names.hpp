// SPDX-License-Identifier: Apache-2.0
#pragma once
/// \file Enum <-> name through one table in declaration order, instead of a hand-written
/// switch and an if-ladder per enum (policy, node state, drain action, --topo mode...).
///     constexpr std::array<const char*, 3> kModeNames{"pack", "spread", "off"};
///     static_assert(kModeNames.size() == static_cast<std::size_t>(Mode::Off) + 1);
///     enum_name(Mode::Spread, kModeNames)             -> "spread"
///     enum_from_name<Mode>("off", kModeNames)          -> Mode::Off

#include <array>
#include <cstddef>
#include <optional>
#include <string_view>

namespace topo {

/// The name of `e` (an enum whose values are 0..N-1 in table order); `fallback` for a value
/// outside the table (only a corrupted value can be).
template <class E, std::size_t N>
[[nodiscard]] constexpr const char* enum_name(E e, const std::array<const char*, N>& names,
                                              const char* fallback = "?") noexcept {
    const auto i = static_cast<std::size_t>(e);
    return i < N ? names[i] : fallback;
}

/// The value named `s` exactly, or nullopt.
template <class E, std::size_t N>
[[nodiscard]] constexpr std::optional<E> enum_from_name(std::string_view s,
                                                        const std::array<const char*, N>& names) noexcept {
    for (std::size_t i = 0; i < N; ++i) {
        if (s == names[i]) return static_cast<E>(i);
    }
    return std::nullopt;
}

}  // namespace topo
