// SPDX-License-Identifier: Apache-2.0
// Drain / resume through the real scontrol, with topoplace's own reason prefix.
#include <cstdlib>

#include <topo/enum_names.hpp>
#include <topo/health/check.hpp>
#include <topo/health/slurm.hpp>

#include <unistd.h>

namespace topo::health {

namespace {

/// Value of " Key=" in a oneliner (up to the next space), empty when absent.
std::string field(std::string_view line, std::string_view key) {
    std::string k = " " + std::string(key) + "=";
    std::size_t p = 0;
    if (line.substr(0, k.size() - 1) == k.substr(1))
        p = 0;
    else {
        p = line.find(k);
        if (p == std::string_view::npos) return {};
        p += 1;
    }
    p += key.size() + 1;
    auto e = line.find(' ', p);
    return std::string(line.substr(p, e == std::string_view::npos ? std::string_view::npos : e - p));
}

/// Reason=<free text> [user@time] ... : the text without the bracketed suffix.
std::string reason_field(std::string_view line) {
    auto p = line.find(" Reason=");
    if (p == std::string_view::npos) return {};
    std::string_view v = line.substr(p + 8);
    // The reason ends at " [user@YYYY-MM-DDTHH:MM:SS]".
    for (auto b = v.find(" ["); b != std::string_view::npos; b = v.find(" [", b + 1)) {
        auto close = v.find(']', b);
        auto at = v.find('@', b);
        if (close != std::string_view::npos && at != std::string_view::npos && at < close)
            return std::string(v.substr(0, b));
    }
    // No suffix: up to the next " Key=" field, else the end of the line.
    std::size_t end = v.size();
    for (std::size_t i = 0; i + 1 < v.size(); ++i) {
        if (v[i] != ' ') continue;
        auto eq = v.find('=', i + 1);
        auto sp = v.find(' ', i + 1);
        if (eq != std::string_view::npos && (sp == std::string_view::npos || eq < sp) && eq > i + 1
            && std::isupper(static_cast<unsigned char>(v[i + 1])) != 0) {
            end = i;
            break;
        }
    }
    return std::string(v.substr(0, end));
}

}  // namespace

bool SlurmNode::drained() const {
    return state.find("DRAIN") != std::string::npos;
}

bool SlurmNode::ours() const {
    return reason.rfind(kReasonPrefix, 0) == 0;
}

std::vector<SlurmNode> parse_scontrol_nodes(std::string_view text) {
    std::vector<SlurmNode> out;
    std::size_t pos = 0;
    while (pos < text.size()) {
        auto nl = text.find('\n', pos);
        std::string_view line = text.substr(pos, nl == std::string_view::npos ? std::string_view::npos : nl - pos);
        pos = nl == std::string_view::npos ? text.size() : nl + 1;
        if (line.rfind("NodeName=", 0) != 0) continue;
        SlurmNode n;
        n.name = field(line, "NodeName");
        n.hostname = field(line, "NodeHostName");
        n.addr = field(line, "NodeAddr");
        n.state = field(line, "State");
        n.reason = reason_field(line);
        out.push_back(std::move(n));
    }
    return out;
}

std::string short_name(std::string_view host) {
    auto d = host.find('.');
    // An IPv4 address is not a host name with a domain.
    bool numeric = !host.empty() && std::isdigit(static_cast<unsigned char>(host.front())) != 0;
    if (d == std::string_view::npos || numeric) return std::string(host);
    return std::string(host.substr(0, d));
}

std::string default_node_name(const std::string& explicit_name) {
    if (!explicit_name.empty()) return explicit_name;
    // NOLINTNEXTLINE(concurrency-mt-unsafe): called once by the CLI, before any thread
    if (const char* s = std::getenv("SLURMD_NODENAME"); s != nullptr && *s != '\0') return s;
    char buf[256] = {};
    if (::gethostname(buf, sizeof buf - 1) != 0) return {};
    return short_name(buf);
}

Result<std::string> Scontrol::run(const std::vector<std::string>& args) const {
    std::vector<std::string> argv{program};
    argv.insert(argv.end(), args.begin(), args.end());
    auto r = run_process(argv, timeout, true);
    std::string cmd;
    for (const auto& a : argv) cmd += (cmd.empty() ? "" : " ") + a;
    if (r.timed_out) return fail(Errc::Unsupported, "`" + cmd + "` timed out");
    if (r.exit_code == 127) return fail(Errc::Unsupported, "cannot run " + program + ": " + r.out);
    if (r.exit_code != 0) {
        std::string out = r.out;
        while (!out.empty() && out.back() == '\n') out.pop_back();
        return fail(Errc::Unsupported, "`" + cmd + "` failed (exit " + std::to_string(r.exit_code) + "): " + out);
    }
    return r.out;
}

Result<SlurmNode> Scontrol::find_node(std::string_view name) const {
    const std::string want = short_name(name);
    // Fast path: the (short) name is a NodeName.
    auto one = run({"show", "node", "--oneliner", want});
    if (one) {
        for (auto& n : parse_scontrol_nodes(*one))
            if (n.name == want) return n;
    }
    // Else match NodeHostName (or NodeAddr) with the domain stripped, over all nodes.
    auto all = run({"show", "node", "--oneliner"});
    if (!all) return fail(all.error());
    std::vector<SlurmNode> hits;
    for (auto& n : parse_scontrol_nodes(*all)) {
        if (n.name == want || short_name(n.hostname) == want || n.addr == std::string(name))
            hits.push_back(std::move(n));
    }
    if (hits.empty())
        return fail(Errc::NotFound, "Slurm has no node named '" + std::string(name) + "' (NodeName or NodeHostName)");
    if (hits.size() > 1)
        return fail(Errc::InvalidArgument, "host name '" + std::string(name) + "' matches "
                                               + std::to_string(hits.size()) + " Slurm nodes (e.g. " + hits[0].name
                                               + ", " + hits[1].name + "); give the NodeName with --node");
    return hits.front();
}

Status Scontrol::drain(const std::string& node, const std::string& reason) const {
    std::string r = reason;  // one line, at most 200 characters
    for (char& c : r)
        if (c == '\n' || c == '\r') c = ' ';
    if (r.size() > 200) r.resize(200);
    auto out = run({"update", "NodeName=" + node, "State=DRAIN", "Reason=" + r});
    if (!out) return fail(out.error());
    return Ok{};
}

Status Scontrol::resume(const std::string& node) const {
    auto out = run({"update", "NodeName=" + node, "State=RESUME"});
    if (!out) return fail(out.error());
    return Ok{};
}

namespace {
constexpr std::array<const char*, 4> kActionNames{"none", "drained", "resumed", "kept-manual-drain"};
static_assert(kActionNames.size() == static_cast<std::size_t>(Action::KeptManualDrain) + 1);
}  // namespace

const char* action_name(Action a) noexcept {
    return enum_name(a, kActionNames, "none");
}

Result<Action> apply_lifecycle(const Scontrol& sc, const SlurmNode& node, bool healthy, const std::string& reason) {
    if (node.drained() && !node.ours()) return Action::KeptManualDrain;  // never touch another drain
    if (!healthy) {
        std::string full = std::string(kReasonPrefix) + " " + reason;
        for (char& c : full)
            if (c == '\n' || c == '\r') c = ' ';
        if (full.size() > 200) full.resize(200);  // as drain() sends it
        if (node.drained() && node.reason == full) return Action::None;
        // DRAIN (not DOWN): running jobs continue; also refreshes our own older reason.
        if (auto st = sc.drain(node.name, full); !st) return fail(st.error());
        return node.drained() ? Action::None : Action::Drained;
    }
    if (node.drained() && node.ours()) {
        if (auto st = sc.resume(node.name); !st) return fail(st.error());
        return Action::Resumed;
    }
    return Action::None;
}

}  // namespace topo::health
