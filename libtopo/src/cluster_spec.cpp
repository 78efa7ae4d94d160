// SPDX-License-Identifier: Apache-2.0
#include <yaml-cpp/yaml.h>

#include <algorithm>
#include <map>
#include <set>

#include <topo/builder.hpp>
#include <topo/cluster_spec.hpp>
#include <topo/hostlist.hpp>
#include <topo/text_input.hpp>
#include <topo/topology.hpp>

#include "yaml_util.hpp"

namespace topo {
namespace {

// ---- strict YAML access with line numbers ----

struct Reader {
    const std::string& file;
    // Names the whole file may still expand (docs/security.md "Bounds"): the node groups name
    // each host once, NVLink domains, NICs and links at most a few times more; counted before
    // anything is expanded.
    static constexpr std::size_t kBudget = 4 * kMaxHostlistNames;
    mutable std::size_t budget_left = kBudget;

    [[nodiscard]] Unexpected error(const YAML::Node& n, const std::string& msg) const {
        return fail(Errc::Parse, msg, file, yline(n));
    }

    [[nodiscard]] Status keys(const YAML::Node& n, const std::string& what,
                              std::initializer_list<const char*> allowed) const {
        if (!n.IsMap()) {
            return error(n, what + " must be a mapping");
        }
        if (const auto k = unknown_key(n, allowed)) {
            return error(*k, "unknown key '" + k->as<std::string>() + "' in " + what + " (expected one of "
                                 + key_list(allowed) + ")");
        }
        return Ok{};
    }

    [[nodiscard]] Result<std::string> str(const YAML::Node& n, const std::string& what) const {
        if (!n.IsScalar() || n.as<std::string>().empty()) {
            return error(n, what + " must be a non-empty string");
        }
        return n.as<std::string>();
    }

    [[nodiscard]] Result<long long> integer(const YAML::Node& n, const std::string& what, long long lo,
                                            long long hi) const {
        long long v = 0;
        if (!n.IsScalar() || !YAML::convert<long long>::decode(n, v) || v < lo || v > hi) {
            return error(n, what + " must be an integer from " + std::to_string(lo) + " to " + std::to_string(hi)
                                + (n.IsScalar() ? ", got \"" + n.as<std::string>() + "\"" : ""));
        }
        return v;
    }

    [[nodiscard]] Result<double> number(const YAML::Node& n, const std::string& what) const {
        double v = 0;
        if (!n.IsScalar() || !YAML::convert<double>::decode(n, v) || v < 0) {
            return error(n, what + " must be a non-negative number");
        }
        return v;
    }

    // A hostlist string, or a list of them, expanded in the order written.
    [[nodiscard]] Result<std::vector<std::string>> hosts(const YAML::Node& n, const std::string& what) const {
        std::vector<std::string> out;
        std::vector<YAML::Node> items;
        if (n.IsSequence()) {
            for (const auto& i : n) {
                items.push_back(i);
            }
        } else {
            items.push_back(n);
        }
        for (const auto& i : items) {
            if (!i.IsScalar()) {
                return error(i, what + " must be a hostlist string or a list of them");
            }
            const auto expr = i.as<std::string>();
            auto count = count_hostlist(expr, budget_left);
            if (!count) {
                return error(i, what + ": " + count.error().message);
            }
            if (*count > budget_left) {
                return error(
                    i, what + ": more than " + std::to_string(kBudget) + " host names in this file (docs/security.md)");
            }
            auto r = expand_hostlist(expr, budget_left);
            if (!r) {
                return error(i, what + ": " + r.error().message);
            }
            budget_left -= r->size();
            out.insert(out.end(), r->begin(), r->end());
        }
        if (out.empty()) {
            return error(n, what + " is empty");
        }
        return out;
    }
};

#define TOPO_TRY(var, expr)         \
    auto var = (expr);              \
    if (!var) {                     \
        return fail((var).error()); \
    }

#define TOPO_TRY_STATUS(expr)      \
    if (auto st_ = (expr); !st_) { \
        return fail(st_.error());  \
    }

// ---- the plan: everything checked before the builder is touched ----

struct NicPlan {
    std::string name;
    int rail = -1;
    double gbps = 0;
    std::string rate;
    std::string leaf;
    int leaf_port = 0;
};

struct HostPlan {
    std::string name;
    HostRole role = HostRole::Compute;
    int gpus = 0;
    std::string gpu_model;
    std::vector<NicPlan> nics;
    bool nics_declared = false;
    int line = 0;
};

struct DomainPlan {
    std::string name;
    std::vector<std::string> hosts;
    int usable = 0;
    int line = 0;
};

struct LinkPlan {
    std::string a;
    int port_a = 0;
    std::string b;
    int port_b = 0;
};

struct Plan {
    std::vector<HostPlan> hosts;
    std::map<std::string, std::size_t> host_index;
    std::vector<DomainPlan> domains;
    std::vector<std::string> switches;
    std::vector<LinkPlan> links;
    double link_gbps = 0;
    std::string link_rate;
};

// "rack{:02}" with i = 7 -> "rack07"; "{}" and "{:N}"/"{:0N}" (zero padded) are supported.
Result<std::string> format_name(const std::string& pattern, int i) {
    auto open = pattern.find('{');
    if (open == std::string::npos) {
        return fail(Errc::Parse, "name \"" + pattern + "\" has no {} placeholder");
    }
    auto close = pattern.find('}', open);
    if (close == std::string::npos || pattern.find('{', open + 1) < close
        || pattern.find('{', close) != std::string::npos) {
        return fail(Errc::Parse, "name \"" + pattern + "\" must have exactly one {} placeholder");
    }
    std::string spec = pattern.substr(open + 1, close - open - 1);
    std::size_t width = 0;
    if (!spec.empty()) {
        if (spec[0] != ':' || spec.size() < 2
            || !std::all_of(spec.begin() + 1, spec.end(), [](char c) { return c >= '0' && c <= '9'; })
            || spec.size() > 4) {
            return fail(Errc::Parse, "name \"" + pattern + "\": placeholder must be {} or {:0N}");
        }
        width = static_cast<std::size_t>(std::stoi(spec.substr(1)));
    }
    std::string num = std::to_string(i);
    if (num.size() < width) {
        num.insert(0, width - num.size(), '0');
    }
    return pattern.substr(0, open) + num + pattern.substr(close + 1);
}

std::string two_digits(int i) {
    std::string s = std::to_string(i);
    return s.size() < 2 ? "0" + s : s;
}

class SpecParser {
public:
    SpecParser(const std::string& file, Plan& plan) : r_{file}, plan_(plan) {}

    /// Bounds on NICs (docs/security.md "Bounds"): real hosts have 1-20 (DGX H100: 8
    /// compute + 2 storage; 4 per GB200 tray); a spec of 262,144 NICs is 32,768 8-NIC hosts.
    static constexpr std::size_t kMaxNicsPerHost = 256;
    static constexpr std::size_t kMaxSpecNics = 4 * kMaxHostlistNames;

    Status parse(const YAML::Node& root) {
        if (!root || root.IsNull()) {
            return fail(Errc::Parse, "empty cluster spec", r_.file, 1);
        }
        TOPO_TRY_STATUS(r_.keys(root, "cluster spec", {"version", "name", "nodes", "nvl_domains", "racks", "fabric"}));
        if (const auto v = root["version"]) {
            TOPO_TRY(ver, r_.integer(v, "version", 1, 1));
        }
        if (const auto n = root["name"]) {
            TOPO_TRY(name, r_.str(n, "name"));
        }
        const auto nodes = root["nodes"];
        if (!nodes) {
            return r_.error(root, "missing 'nodes' (the list of node groups)");
        }
        if (!nodes.IsSequence() || nodes.size() == 0) {
            return r_.error(nodes, "nodes must be a non-empty list of node groups");
        }
        for (const auto& g : nodes) {
            TOPO_TRY_STATUS(node_group(g));
        }
        if (const auto d = root["nvl_domains"]) {
            TOPO_TRY_STATUS(nvl_domains(d));
        }
        if (const auto racks = root["racks"]) {
            TOPO_TRY_STATUS(rack_generator(racks));
        }
        if (const auto f = root["fabric"]) {
            TOPO_TRY_STATUS(fabric(f));
        }
        return Ok{};
    }

private:
    std::size_t nics_left_ = kMaxSpecNics;
    Reader r_;
    Plan& plan_;
    std::map<std::string, std::string> domain_of_;  // host -> domain name

    Status node_group(const YAML::Node& g) {
        TOPO_TRY_STATUS(r_.keys(g, "node group", {"names", "role", "gpus", "nics"}));
        if (!g["names"]) {
            return r_.error(g, "node group needs 'names' (a hostlist)");
        }
        TOPO_TRY(names, r_.hosts(g["names"], "names"));
        HostPlan proto;
        proto.line = yline(g);
        if (const auto role = g["role"]) {
            TOPO_TRY(s, r_.str(role, "role"));
            if (*s == "compute") {
                proto.role = HostRole::Compute;
            } else if (*s == "service") {
                proto.role = HostRole::Service;
            } else {
                return r_.error(role, "role must be compute or service, got \"" + *s + "\"");
            }
        }
        if (const auto gpus = g["gpus"]) {
            if (gpus.IsMap()) {
                TOPO_TRY_STATUS(r_.keys(gpus, "gpus", {"count", "model"}));
                if (!gpus["count"]) {
                    return r_.error(gpus, "gpus needs 'count'");
                }
                TOPO_TRY(c, r_.integer(gpus["count"], "gpus.count", 0, 1024));
                proto.gpus = static_cast<int>(*c);
                if (const auto m = gpus["model"]) {
                    TOPO_TRY(model, r_.str(m, "gpus.model"));
                    proto.gpu_model = *model;
                }
            } else {
                TOPO_TRY(c, r_.integer(gpus, "gpus", 0, 1024));
                proto.gpus = static_cast<int>(*c);
            }
        }
        if (const auto nics = g["nics"]) {
            TOPO_TRY_STATUS(nic_list(nics, proto));
            proto.nics_declared = true;
        }
        // Every host gets a copy of the group's NICs: bound hosts x NICs, for the whole file
        // (fuzz_cluster_spec: 69,071 hosts x 69,071 NICs from two short hostlists asked
        // for 70 GB).
        if (proto.nics.size() > kMaxNicsPerHost) {
            return r_.error(g["nics"], std::to_string(proto.nics.size()) + " NICs per host; at most "
                                           + std::to_string(kMaxNicsPerHost));
        }
        const std::size_t group_nics = names->size() * proto.nics.size();
        if (group_nics > nics_left_) {
            return r_.error(g["names"], "this group declares " + std::to_string(group_nics)
                                            + " NICs (hosts x NICs per host); a spec may declare at most "
                                            + std::to_string(kMaxSpecNics) + " in all");
        }
        nics_left_ -= group_nics;
        for (auto& n : *names) {
            auto [it, fresh] = plan_.host_index.emplace(n, plan_.hosts.size());
            if (!fresh) {
                return r_.error(g["names"], "node " + n + " is declared twice (first at line "
                                                + std::to_string(plan_.hosts[it->second].line) + ")");
            }
            HostPlan h = proto;
            h.name = std::move(n);
            plan_.hosts.push_back(std::move(h));
        }
        return Ok{};
    }

    // nics: "mlx5_[0-7]" (rail = position), or a list of names / {name, rail, gbps, rate}.
    Status nic_list(const YAML::Node& n, HostPlan& proto) {
        std::set<std::string> seen;
        auto add = [&](NicPlan nic, const YAML::Node& at) -> Status {
            if (!seen.insert(nic.name).second) {
                return r_.error(at, "NIC " + nic.name + " listed twice");
            }
            proto.nics.push_back(std::move(nic));
            return Ok{};
        };
        if (n.IsScalar()) {
            TOPO_TRY(names, r_.hosts(n, "nics"));
            int rail = 0;
            for (auto& name : *names) {
                TOPO_TRY_STATUS(add(NicPlan{name, rail++, 0, {}, {}, 0}, n));
            }
            return Ok{};
        }
        if (!n.IsSequence()) {
            return r_.error(n, "nics must be a hostlist string or a list");
        }
        for (const auto& e : n) {
            NicPlan nic;
            if (e.IsScalar()) {
                TOPO_TRY(name, r_.str(e, "NIC name"));
                nic.name = *name;
            } else {
                TOPO_TRY_STATUS(r_.keys(e, "NIC", {"name", "rail", "gbps", "rate"}));
                if (!e["name"]) {
                    return r_.error(e, "NIC needs 'name'");
                }
                TOPO_TRY(name, r_.str(e["name"], "NIC name"));
                nic.name = *name;
                if (const auto rail = e["rail"]) {
                    TOPO_TRY(v, r_.integer(rail, "rail", 0, 1023));
                    nic.rail = static_cast<int>(*v);
                }
                if (const auto g = e["gbps"]) {
                    TOPO_TRY(v, r_.number(g, "gbps"));
                    nic.gbps = *v;
                }
                if (const auto rate = e["rate"]) {
                    TOPO_TRY(v, r_.str(rate, "rate"));
                    nic.rate = *v;
                }
            }
            TOPO_TRY_STATUS(add(std::move(nic), e));
        }
        return Ok{};
    }

    Result<std::vector<std::string>> declared_hosts(const YAML::Node& n, const std::string& what) {
        TOPO_TRY(names, r_.hosts(n, what));
        for (const auto& h : *names) {
            if (plan_.host_index.count(h) == 0) {
                return r_.error(n, what + ": node " + h + " is not declared under 'nodes'");
            }
        }
        return names;
    }

    std::vector<std::string> compute_hosts() const {
        std::vector<std::string> out;
        for (const auto& h : plan_.hosts) {
            if (h.role == HostRole::Compute) {
                out.push_back(h.name);
            }
        }
        return out;
    }

    Status add_domain(DomainPlan d, const YAML::Node& at) {
        if (d.usable > static_cast<int>(d.hosts.size())) {
            return r_.error(at, "NVLink domain " + d.name + ": usable " + std::to_string(d.usable)
                                    + " is more than its " + std::to_string(d.hosts.size()) + " nodes");
        }
        for (const auto& other : plan_.domains) {
            if (other.name == d.name) {
                return r_.error(at, "NVLink domain " + d.name + " is declared twice (first at line "
                                        + std::to_string(other.line) + ")");
            }
        }
        for (const auto& h : d.hosts) {
            auto [it, fresh] = domain_of_.emplace(h, d.name);
            if (!fresh) {
                return r_.error(at, "node " + h + " is in two NVLink domains: " + it->second + " and " + d.name);
            }
        }
        plan_.domains.push_back(std::move(d));
        return Ok{};
    }

    Status nvl_domains(const YAML::Node& list) {
        if (!list.IsSequence()) {
            return r_.error(list, "nvl_domains must be a list");
        }
        for (const auto& e : list) {
            TOPO_TRY_STATUS(r_.keys(e, "NVLink domain", {"name", "nodes", "usable"}));
            if (!e["name"] || !e["nodes"]) {
                return r_.error(e, "NVLink domain needs 'name' and 'nodes'");
            }
            DomainPlan d;
            d.line = yline(e);
            TOPO_TRY(name, r_.str(e["name"], "name"));
            d.name = *name;
            TOPO_TRY(hosts, declared_hosts(e["nodes"], "nodes"));
            d.hosts = std::move(*hosts);
            if (const auto u = e["usable"]) {
                TOPO_TRY(v, r_.integer(u, "usable", 0, 1'000'000));
                d.usable = static_cast<int>(*v);
            }
            TOPO_TRY_STATUS(add_domain(std::move(d), e));
        }
        return Ok{};
    }

    Status rack_generator(const YAML::Node& g) {
        TOPO_TRY_STATUS(r_.keys(g, "racks", {"count", "nodes_per_rack", "usable", "name", "nodes"}));
        if (!g["nodes_per_rack"]) {
            return r_.error(g, "racks needs 'nodes_per_rack'");
        }
        TOPO_TRY(per, r_.integer(g["nodes_per_rack"], "nodes_per_rack", 1, 1'000'000));
        std::vector<std::string> pool;
        if (const auto n = g["nodes"]) {
            TOPO_TRY(hosts, declared_hosts(n, "racks.nodes"));
            pool = std::move(*hosts);
        } else {
            pool = compute_hosts();
        }
        long long count = static_cast<long long>(pool.size()) / *per;
        if (const auto c = g["count"]) {
            TOPO_TRY(v, r_.integer(c, "count", 1, 1'000'000));
            count = *v;
            if (count * *per > static_cast<long long>(pool.size())) {
                return r_.error(c, "racks: " + std::to_string(count) + " racks of " + std::to_string(*per) + " need "
                                       + std::to_string(count * *per) + " nodes, only " + std::to_string(pool.size())
                                       + " available");
            }
        } else if (count == 0 || static_cast<long long>(pool.size()) % *per != 0) {
            return r_.error(g, "racks: " + std::to_string(pool.size()) + " nodes do not split into racks of "
                                   + std::to_string(*per) + " (give 'count' to use only the first ones)");
        }
        int usable = 0;
        if (const auto u = g["usable"]) {
            TOPO_TRY(v, r_.integer(u, "usable", 0, *per));
            usable = static_cast<int>(*v);
        }
        std::string pattern = "rack{:02}";
        if (const auto n = g["name"]) {
            TOPO_TRY(v, r_.str(n, "name"));
            pattern = *v;
        }
        for (long long i = 0; i < count; ++i) {
            DomainPlan d;
            d.line = yline(g);
            auto name = format_name(pattern, static_cast<int>(i + 1));
            if (!name) {
                return r_.error(g["name"], name.error().message);
            }
            d.name = *name;
            d.usable = usable;
            d.hosts.assign(pool.begin() + i * *per, pool.begin() + (i + 1) * *per);
            TOPO_TRY_STATUS(add_domain(std::move(d), g));
        }
        return Ok{};
    }

    // Rail-optimized fat tree. Hosts are cut into scalable units (SUs) of hosts_per_leaf;
    // each SU has one leaf per rail; NIC of rail r goes to leaf r of its SU. Spines are
    // per rail (spines_per_rail) or shared by all rails (spines), optionally per pod of
    // sus_per_pod SUs; cores (cores_per_rail / cores) join the spines of all pods.
    Status fabric(const YAML::Node& f) {
        TOPO_TRY_STATUS(r_.keys(f, "fabric",
                                {"nodes", "hosts_per_leaf", "rails", "spines_per_rail", "spines", "sus_per_pod",
                                 "cores_per_rail", "cores", "gbps", "rate", "prefix"}));
        auto get = [&](const char* key, long long lo, long long hi, long long dflt) -> Result<long long> {
            if (const auto n = f[key]) {
                return r_.integer(n, std::string("fabric.") + key, lo, hi);
            }
            return dflt;
        };
        if (!f["hosts_per_leaf"]) {
            return r_.error(f, "fabric needs 'hosts_per_leaf'");
        }
        TOPO_TRY(k, get("hosts_per_leaf", 1, 4096, 0));
        TOPO_TRY(rails, get("rails", 1, 64, 1));
        TOPO_TRY(spr, get("spines_per_rail", 0, 4096, 0));
        TOPO_TRY(sp, get("spines", 0, 4096, 0));
        TOPO_TRY(pod, get("sus_per_pod", 0, 4096, 0));
        TOPO_TRY(cpr, get("cores_per_rail", 0, 4096, 0));
        TOPO_TRY(co, get("cores", 0, 4096, 0));
        if (*spr > 0 && *sp > 0) {
            return r_.error(f, "fabric: give spines_per_rail or spines, not both");
        }
        if (*cpr > 0 && *co > 0) {
            return r_.error(f, "fabric: give cores_per_rail or cores, not both");
        }
        const bool have_spines = *spr > 0 || *sp > 0;
        const bool have_cores = *cpr > 0 || *co > 0;
        if (have_cores && !have_spines) {
            return r_.error(f, "fabric: cores need a spine tier (spines_per_rail or spines)");
        }
        if (*pod > 0 && !have_cores) {
            return r_.error(f["sus_per_pod"], "fabric: sus_per_pod needs a core tier (cores_per_rail or cores)");
        }
        if (*cpr > 0 && *sp > 0) {
            return r_.error(f, "fabric: cores_per_rail needs spines_per_rail");
        }
        if (const auto g = f["gbps"]) {
            TOPO_TRY(v, r_.number(g, "fabric.gbps"));
            plan_.link_gbps = *v;
        }
        if (const auto rate = f["rate"]) {
            TOPO_TRY(v, r_.str(rate, "fabric.rate"));
            plan_.link_rate = *v;
        }
        std::string prefix;
        if (const auto p = f["prefix"]) {
            TOPO_TRY(v, r_.str(p, "fabric.prefix"));
            prefix = *v;
        }
        std::vector<std::string> hosts;
        if (const auto n = f["nodes"]) {
            TOPO_TRY(v, declared_hosts(n, "fabric.nodes"));
            hosts = std::move(*v);
        } else {
            hosts = compute_hosts();
        }
        if (hosts.empty()) {
            return r_.error(f, "fabric: no compute nodes to connect");
        }
        const int per_leaf = static_cast<int>(*k);
        const int nrails = static_cast<int>(*rails);
        const int sus = static_cast<int>((hosts.size() + *k - 1) / *k);
        const int sus_per_pod = *pod > 0 ? static_cast<int>(*pod) : sus;
        const int pods = (sus + sus_per_pod - 1) / sus_per_pod;
        const bool pod_names = *pod > 0;

        auto leaf_name = [&](int su, int rail) {
            return prefix + "leaf-su" + two_digits(su + 1) + (nrails > 1 ? "-r" + std::to_string(rail) : "");
        };
        // Leaves, and host NICs onto them.
        for (std::size_t i = 0; i < hosts.size(); ++i) {
            const int su = static_cast<int>(i) / per_leaf;
            const int port = static_cast<int>(i) % per_leaf + 1;
            HostPlan& h = plan_.hosts[plan_.host_index.at(hosts[i])];
            if (!h.nics_declared && h.nics.empty()) {
                for (int r = 0; r < nrails; ++r) {
                    h.nics.push_back(NicPlan{"mlx5_" + std::to_string(r), r, 0, {}, {}, 0});
                }
            }
            for (int r = 0; r < nrails; ++r) {
                auto it = std::find_if(h.nics.begin(), h.nics.end(), [&](const NicPlan& n) { return n.rail == r; });
                if (it == h.nics.end()) {
                    return r_.error(f, "fabric: node " + h.name + " has no NIC on rail " + std::to_string(r)
                                           + " (declared at line " + std::to_string(h.line) + ")");
                }
                it->leaf = leaf_name(su, r);
                it->leaf_port = port;
                if (it->gbps == 0) {
                    it->gbps = plan_.link_gbps;
                }
                if (it->rate.empty()) {
                    it->rate = plan_.link_rate;
                }
            }
            for (const auto& n : h.nics) {
                if (n.rail >= nrails) {
                    return r_.error(f, "fabric: node " + h.name + " NIC " + n.name + " is on rail "
                                           + std::to_string(n.rail) + " but the fabric has " + std::to_string(nrails)
                                           + " rail(s)");
                }
            }
        }
        std::map<std::string, int> next_port;  // switch -> next free port
        auto link = [&](const std::string& lower, const std::string& upper) {
            plan_.links.push_back(LinkPlan{lower, next_port[lower]++, upper, next_port[upper]++});
        };
        for (int su = 0; su < sus; ++su) {
            for (int r = 0; r < nrails; ++r) {
                plan_.switches.push_back(leaf_name(su, r));
                next_port[leaf_name(su, r)] = per_leaf + 1;
            }
        }
        if (!have_spines) {
            return Ok{};
        }
        // Spine groups: per (pod, rail) with spines_per_rail, per pod with spines.
        const bool rail_spines = *spr > 0;
        const int spines_per_group = static_cast<int>(rail_spines ? *spr : *sp);
        auto spine_name = [&](int p, int r, int s) {
            std::string n = prefix + "spine";
            if (pod_names) {
                n += "-p" + two_digits(p + 1);
            }
            if (rail_spines && nrails > 1) {
                n += "-r" + std::to_string(r);
            }
            return n + "-" + two_digits(s + 1);
        };
        for (int p = 0; p < pods; ++p) {
            for (int r = 0; r < (rail_spines ? nrails : 1); ++r) {
                for (int s = 0; s < spines_per_group; ++s) {
                    plan_.switches.push_back(spine_name(p, r, s));
                    next_port[spine_name(p, r, s)] = 1;
                }
            }
        }
        for (int su = 0; su < sus; ++su) {
            const int p = su / sus_per_pod;
            for (int r = 0; r < nrails; ++r) {
                for (int s = 0; s < spines_per_group; ++s) {
                    link(leaf_name(su, r), spine_name(p, rail_spines ? r : 0, s));
                }
            }
        }
        if (!have_cores) {
            return Ok{};
        }
        const bool rail_cores = *cpr > 0;
        const int cores_per_group = static_cast<int>(rail_cores ? *cpr : *co);
        auto core_name = [&](int r, int c) {
            std::string n = prefix + "core";
            if (rail_cores && nrails > 1) {
                n += "-r" + std::to_string(r);
            }
            return n + "-" + two_digits(c + 1);
        };
        for (int r = 0; r < (rail_cores ? nrails : 1); ++r) {
            for (int c = 0; c < cores_per_group; ++c) {
                plan_.switches.push_back(core_name(r, c));
                next_port[core_name(r, c)] = 1;
            }
        }
        for (int p = 0; p < pods; ++p) {
            for (int r = 0; r < (rail_spines ? nrails : 1); ++r) {
                for (int s = 0; s < spines_per_group; ++s) {
                    for (int c = 0; c < cores_per_group; ++c) {
                        link(spine_name(p, r, s), core_name(rail_cores ? r : 0, c));
                    }
                }
            }
        }
        return Ok{};
    }
};

void apply(const Plan& plan, TopologyBuilder& b) {
    for (const auto& s : plan.switches) b.add_switch(Switch{.guid = s, .name = s, .provenance = Provenance::Declared});
    for (const auto& l : plan.links) {
        b.add_switch_link(l.a, l.port_a, l.b, l.port_b, plan.link_gbps, plan.link_rate, LinkKind::Declared);
    }
    for (const auto& h : plan.hosts) {
        b.add_host(h.name, h.role, {}, Provenance::Declared);
        for (int i = 0; i < h.gpus; ++i) {
            Gpu g;
            g.index = i;
            g.model = h.gpu_model;
            b.add_gpu(h.name, std::move(g));
        }
        for (const auto& n : h.nics) {
            b.add_nic(h.name,
                      Nic{.name = n.name,
                          .leaf_port = n.leaf_port,
                          .rail = n.rail,
                          .rate_gbps = n.gbps,
                          .rate = n.rate,
                          .provenance = Provenance::Declared},
                      n.leaf);
        }
    }
    for (const auto& d : plan.domains) {
        b.add_nvl_domain(d.name, d.hosts, d.usable);
    }
}

}  // namespace

Status apply_cluster_spec_text(std::string_view yaml, const std::string& source, TopologyBuilder& b) {
    if (looks_binary(yaml)) {
        return fail(Errc::Parse, "not a cluster spec (binary data)", source);
    }
    Plan plan;
    try {
        YAML::Node root = YAML::Load(std::string(yaml));
        SpecParser p(source, plan);
        if (auto st = p.parse(root); !st) {
            return st;
        }
    } catch (const YAML::Exception& ex) {
        return fail(Errc::Parse, ex.msg, source, ex.mark.line >= 0 ? ex.mark.line + 1 : 0);
    }
    apply(plan, b);
    return Ok{};
}

Status load_cluster_spec(const std::string& path, TopologyBuilder& b) {
    auto text = read_text_file(path);
    if (!text) {
        return fail(text.error());
    }
    return apply_cluster_spec_text(*text, path, b);
}

}  // namespace topo
