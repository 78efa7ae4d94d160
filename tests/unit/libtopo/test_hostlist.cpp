// SPDX-License-Identifier: Apache-2.0
#include <gtest/gtest.h>

#include <algorithm>
#include <random>
#include <set>
#include <string>
#include <vector>

#include <topo/hostlist.hpp>

namespace {

using Names = std::vector<std::string>;

Names expand_ok(std::string_view expr) {
    auto r = topo::expand_hostlist(expr);
    EXPECT_TRUE(r.has_value()) << expr << ": " << (r ? "" : r.error().to_string());
    return r ? *r : Names{};
}

void expect_parse_error(std::string_view expr, std::string_view needle) {
    auto r = topo::expand_hostlist(expr);
    ASSERT_FALSE(r.has_value()) << expr;
    EXPECT_EQ(r.error().code, topo::Errc::Parse);
    EXPECT_NE(r.error().message.find(needle), std::string::npos) << r.error().message;
}

TEST(HostlistExpand, PlainNames) {
    EXPECT_EQ(expand_ok("login1"), (Names{"login1"}));
    EXPECT_EQ(expand_ok("a,b,c"), (Names{"a", "b", "c"}));
    EXPECT_EQ(expand_ok("abacus"), (Names{"abacus"}));
    EXPECT_EQ(expand_ok(""), Names{});
    EXPECT_EQ(expand_ok(" , ,"), Names{});
}

TEST(HostlistExpand, RangesAndPadding) {
    EXPECT_EQ(expand_ok("gpu[001-003,005]"), (Names{"gpu001", "gpu002", "gpu003", "gpu005"}));
    EXPECT_EQ(expand_ok("n[8-11]"), (Names{"n8", "n9", "n10", "n11"}));
    EXPECT_EQ(expand_ok("n[08-11]"), (Names{"n08", "n09", "n10", "n11"}));
    EXPECT_EQ(expand_ok("n[98-100]"), (Names{"n98", "n99", "n100"}));
    EXPECT_EQ(expand_ok("n[098-100]"), (Names{"n098", "n099", "n100"}));
    EXPECT_EQ(expand_ok("n[0]"), (Names{"n0"}));
    EXPECT_EQ(expand_ok("n[00]"), (Names{"n00"}));
}

TEST(HostlistExpand, OrderAsWritten) {
    EXPECT_EQ(expand_ok("n[3,1-2],a1"), (Names{"n3", "n1", "n2", "a1"}));
}

TEST(HostlistExpand, SeveralBracketGroupsAndSuffix) {
    EXPECT_EQ(expand_ok("rack[1-2]-n[01-02]"), (Names{"rack1-n01", "rack1-n02", "rack2-n01", "rack2-n02"}));
    EXPECT_EQ(expand_ok("n[1-2]-ib"), (Names{"n1-ib", "n2-ib"}));
    EXPECT_EQ(expand_ok("switch.1.[1-2]"), (Names{"switch.1.1", "switch.1.2"}));
}

TEST(HostlistExpand, MixedListWithSeveralTokens) {
    EXPECT_EQ(expand_ok("circe-n[001-002],n[019-020]"), (Names{"circe-n001", "circe-n002", "n019", "n020"}));
    EXPECT_EQ(expand_ok("im[0],grp[23-24]"), (Names{"im0", "grp23", "grp24"}));
    EXPECT_EQ(expand_ok("a b\tc"), (Names{"a", "b", "c"}));
    EXPECT_EQ(expand_ok("n[1, 3]"), (Names{"n1", "n3"}));
}

TEST(HostlistExpand, Errors) {
    expect_parse_error("n[1-3", "unbalanced '['");
    expect_parse_error("n1-3]", "unbalanced ']'");
    expect_parse_error("n[1-[2]]", "nested");
    expect_parse_error("n[5-3]", "reversed range");
    expect_parse_error("n[]", "empty brackets");
    expect_parse_error("n[1,]", "empty range");
    expect_parse_error("n[a-b]", "not a number");
    expect_parse_error("n[1-]", "empty number");
    expect_parse_error("n[-3]", "empty number");
    expect_parse_error("n[1-9999999999999999999999]", "too long");
    expect_parse_error("n[0-99999999999]", "more than");
}

TEST(HostlistExpand, MaxHostsLimit) {
    EXPECT_TRUE(topo::expand_hostlist("n[1-10]", 10).has_value());
    auto r = topo::expand_hostlist("n[1-10],m1", 10);
    ASSERT_FALSE(r.has_value());
    EXPECT_EQ(r.error().code, topo::Errc::Parse);
    auto r2 = topo::expand_hostlist("a[1-1000]b[1-1000]c[1-1000]", 1'000'000);
    ASSERT_FALSE(r2.has_value());
    EXPECT_NE(r2.error().message.find("more than 1000000"), std::string::npos);
}

TEST(HostlistCompress, LikeScontrol) {
    EXPECT_EQ(topo::compress_hostlist({"gpu001", "gpu002", "gpu003", "gpu005"}), "gpu[001-003,005]");
    EXPECT_EQ(topo::compress_hostlist({"n10", "n2", "n1", "n9"}), "n[1-2,9-10]");
    EXPECT_EQ(topo::compress_hostlist({"n1", "n2"}), "n[1-2]");
    EXPECT_EQ(topo::compress_hostlist({"n5"}), "n5");
    EXPECT_EQ(topo::compress_hostlist({}), "");
    EXPECT_EQ(topo::compress_hostlist({"b1", "a1", "a2", "login"}), "a[1-2],b1,login");
    EXPECT_EQ(topo::compress_hostlist({"n3", "n1", "n3", "n2"}), "n[1-3]");
    EXPECT_EQ(topo::compress_hostlist({"abacus", "abacus"}), "abacus");
    // Plain names sort before numbered names with the same prefix (Slurm's hostrange_cmp).
    EXPECT_EQ(topo::compress_hostlist({"n1", "n"}), "n,n1");
}

TEST(HostlistCompress, WidthsAreKeptApart) {
    EXPECT_EQ(topo::compress_hostlist({"n09", "n10", "n11"}), "n[09-11]");
    EXPECT_EQ(topo::compress_hostlist({"n9", "n10"}), "n[9-10]");
    EXPECT_EQ(topo::compress_hostlist({"n998", "n999", "n1000"}), "n[998-1000]");
    EXPECT_EQ(topo::compress_hostlist({"n1", "n01", "n2", "n02"}), "n[1,01,2,02]");
    EXPECT_EQ(topo::compress_hostlist({"n009", "n10"}), "n[009,10]");
}

TEST(HostlistCompress, PrefixesWithDigitsAndSuffixes) {
    EXPECT_EQ(topo::compress_hostlist({"rack1-n01", "rack1-n02", "rack2-n01"}), "rack1-n[01-02],rack2-n01");
    EXPECT_EQ(topo::compress_hostlist({"n1-ib", "n2-ib", "n3-ib"}), "n[1-3]-ib");
    EXPECT_EQ(topo::compress_hostlist({"sl390lin22", "sl390lin28"}), "sl390lin[22,28]");
    // Digit runs too long for a number are kept as text.
    EXPECT_EQ(topo::compress_hostlist({"H-1234567890123456789012"}), "H-1234567890123456789012");
}

Names sorted_unique(Names v) {
    std::set<std::string> seen;
    Names out;
    for (auto& n : v) {
        if (seen.insert(n).second) {
            out.push_back(n);
        }
    }
    std::sort(out.begin(), out.end());
    return out;
}

void expect_round_trip(const Names& names) {
    std::string expr = topo::compress_hostlist(names);
    auto back = topo::expand_hostlist(expr);
    ASSERT_TRUE(back.has_value()) << expr << ": " << back.error().to_string();
    // Same set, no duplicates.
    EXPECT_EQ(back->size(), sorted_unique(*back).size()) << expr;
    EXPECT_EQ(sorted_unique(*back), sorted_unique(names)) << expr;
    // Compression is a fixed point.
    EXPECT_EQ(topo::compress_hostlist(*back), expr);
}

TEST(HostlistRoundTrip, FixtureLikeLists) {
    for (const char* expr :
         {"peta[10000-19999]", "circe-n[001-016],n[019-020]", "sl390lin[1-5,7-11,13-18,20-21,24-27,29,33]",
          "H-003048c749450000,H-003048c74ae20000,r422node[1-2,5-8,15-16]",
          "hpc[001-019],gpu[001-013],submit[1-2],master[1-2]", "switch.1.[1-12]", "abacusc-0-[0-3]"}) {
        auto names = topo::expand_hostlist(expr);
        ASSERT_TRUE(names.has_value()) << expr;
        expect_round_trip(*names);
    }
    auto peta = topo::expand_hostlist("peta[10000-19999]");
    EXPECT_EQ(topo::compress_hostlist(*peta), "peta[10000-19999]");
}

TEST(HostlistRoundTrip, Randomized) {
    std::mt19937 rng(12345);  // fixed seed: reproducible
    const std::vector<std::string> prefixes = {"n", "gpu", "rack1-n", "a-b.", "x", ""};
    const std::vector<std::string> suffixes = {"", "", "", "-ib", "a"};
    for (int round = 0; round < 300; ++round) {
        Names names;
        int count = std::uniform_int_distribution<int>(0, 40)(rng);
        for (int i = 0; i < count; ++i) {
            std::string p = prefixes[rng() % prefixes.size()];
            std::string s = suffixes[rng() % suffixes.size()];
            int v = std::uniform_int_distribution<int>(0, 120)(rng);
            std::size_t width = rng() % 4;  // 0: natural width
            std::string digits = std::to_string(v);
            if (digits.size() < width) {
                digits.insert(0, width - digits.size(), '0');
            }
            if (p.empty() && s.empty()) {
                p = "h";
            }
            if (rng() % 10 == 0) {
                names.push_back(p + "plain" + s);  // some names with no number at the end
            } else {
                names.push_back(p + digits + s);
            }
        }
        SCOPED_TRACE(round);
        expect_round_trip(names);
    }
}

TEST(HostlistRoundTrip, DeterministicForPermutations) {
    Names names = *topo::expand_hostlist("n[1-20],m[001-005],z");
    std::string expected = topo::compress_hostlist(names);
    std::mt19937 rng(7);
    for (int i = 0; i < 20; ++i) {
        std::shuffle(names.begin(), names.end(), rng);
        EXPECT_EQ(topo::compress_hostlist(names), expected);
    }
    EXPECT_EQ(expected, "m[001-005],n[1-20],z");
}

}  // namespace

namespace {

// Issue 17 finding 1: every bound is known before anything is expanded.
TEST(HostlistBounds, DefaultIsSlurmsNodeLimit) {
    EXPECT_EQ(topo::kMaxHostlistNames, 65536U);
    auto ok = topo::expand_hostlist("n[1-65536]");
    ASSERT_TRUE(ok.has_value());
    EXPECT_EQ(ok->size(), 65536U);
    auto r = topo::expand_hostlist("n[0-65536]");
    ASSERT_FALSE(r.has_value());
    EXPECT_NE(r.error().message.find("more than 65536 names"), std::string::npos) << r.error().message;
}

TEST(HostlistBounds, LongPrefixBombIsRefusedUnexpanded) {
    // 60 KB of prefix times a million names would be 60 GB; refused by the name-length bound.
    const std::string bomb = std::string(60000, 'A') + "[0-999999]";
    auto r = topo::expand_hostlist(bomb);
    ASSERT_FALSE(r.has_value());
    EXPECT_NE(r.error().message.find("longer than 255"), std::string::npos);
    // The message quotes the start of the expression only.
    EXPECT_LT(r.error().message.size(), 300U);
    // At the bound a name is fine: 250 + 5 digits.
    EXPECT_TRUE(topo::expand_hostlist(std::string(250, 'a') + "[00001-00010]").has_value());
    EXPECT_FALSE(topo::expand_hostlist(std::string(251, 'a') + "[00001-00010]").has_value());
}

TEST(HostlistBounds, CountDoesNotExpand) {
    auto c = topo::count_hostlist("a[1-1000]b[1-1000]c[1-1000]", std::size_t{1} << 40);
    ASSERT_TRUE(c.has_value());
    EXPECT_EQ(*c, 1'000'000'000U);
    auto s = topo::count_hostlist("n[1-10],m[1-10]", 15);
    ASSERT_TRUE(s.has_value());
    EXPECT_EQ(*s, 16U);  // saturated at limit + 1
    EXPECT_FALSE(topo::count_hostlist("n[1-").has_value());
}

TEST(HostlistBounds, ValidHostNames) {
    for (const char* ok : {"n001", "luna-0001", "dgx_a100.01", "10.0.0.1", "H-0002c90300a1b2c3"}) {
        EXPECT_TRUE(topo::is_valid_host_name(ok)) << ok;
    }
    for (const char* bad : {"", "n001,n[100-199]", "n 1", "n=1", "-n1", ".n1", "n\"1", "n\n1", "n[1]"}) {
        EXPECT_FALSE(topo::is_valid_host_name(bad)) << bad;
    }
    EXPECT_TRUE(topo::is_valid_host_name(std::string(255, 'a')));
    EXPECT_FALSE(topo::is_valid_host_name(std::string(256, 'a')));
}

}  // namespace
