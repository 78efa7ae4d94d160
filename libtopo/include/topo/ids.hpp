// SPDX-License-Identifier: Apache-2.0
#pragma once
/// \file Strong dense ids. Dense ids index arrays; stable identity (GUID, PCI bus id,
/// hostname) lives in the entity records, never in the id.

#include <compare>
#include <cstdint>
#include <functional>
#include <limits>

namespace topo {

template <class Tag>
class Id {
public:
    using Rep = std::uint32_t;
    constexpr Id() = default;

    constexpr explicit Id(Rep v) : v_(v) {}

    [[nodiscard]] constexpr Rep index() const noexcept { return v_; }

    [[nodiscard]] constexpr bool valid() const noexcept { return v_ != kInvalid; }

    // NOLINTNEXTLINE(modernize-use-nullptr): clang-tidy 14 flags the literal 0 that a defaulted <=> compares with
    friend constexpr auto operator<=>(const Id&, const Id&) = default;

private:
    static constexpr Rep kInvalid = std::numeric_limits<Rep>::max();
    Rep v_ = kInvalid;
};

using HostId = Id<struct HostTag>;
using GpuId = Id<struct GpuTag>;
using NicId = Id<struct NicTag>;
using SwitchId = Id<struct SwitchTag>;
using DomainId = Id<struct DomainTag>;
using GroupId = Id<struct GroupTag>;

}  // namespace topo

template <class Tag>
struct std::hash<topo::Id<Tag>> {
    std::size_t operator()(const topo::Id<Tag>& id) const noexcept { return std::hash<std::uint32_t>{}(id.index()); }
};
