// SPDX-License-Identifier: Apache-2.0
// topoplace doctor: do the parts of a topoplace installation agree with each other and with
// the running cluster? One line per check: ok, or what is wrong and the exact fix (issue 30).
// Read-only: it runs `scontrol show config`, `scontrol show nodes --oneliner` and
// `sbatch --help`, reads the plugstack files, job_submit.lua, topology.conf, the snapshot,
// the health store and the plugins' ELF headers, and asks the placement service one
// question; it writes nothing.
#include <nlohmann/json.hpp>

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <map>
#include <memory>
#include <optional>
#include <set>
#include <sstream>
#include <string>
#include <string_view>
#include <system_error>
#include <vector>

#include <topo/health/check.hpp>
#include <topo/health/trust.hpp>
#include <topo/hostlist.hpp>
#include <topo/slurmconf/tree.hpp>
#include <topo/snapshot.hpp>
#include <topo/snapshot_bin.hpp>
#include <topo/text_input.hpp>

#include "commands.hpp"
#include "common.hpp"
#include "service.hpp"
#include "slurm_release.hpp"
#include <elf.h>
#include <glob.h>
#include <sys/stat.h>
#include <unistd.h>

namespace topo::cli {

namespace {

struct DoctorOptions {
    std::string slurm_conf;  // empty: $SLURM_CONF, else what scontrol reports
    std::string snapshot;    // empty: the plugstack line's snapshot=
    std::string scontrol = "scontrol";
    std::string sbatch = "sbatch";
    bool json = false;
};

enum class Verdict : std::uint8_t { Ok, Fail, Skip };

struct Finding {
    std::string check;
    Verdict verdict = Verdict::Ok;
    std::string what;  // ok: what holds; fail: what is wrong; skip: why not checked
    std::string fix;   // fail: the exact fix
};

constexpr std::size_t kMaxConfigFile = std::size_t{4} << 20;  // any one config file we read
constexpr int kMaxIncludes = 64;                              // plugstack files, includes followed

std::string dir_of(const std::string& p) {
    const auto s = p.rfind('/');
    if (s == std::string::npos) return ".";
    return s == 0 ? "/" : p.substr(0, s);
}

std::string base_of(const std::string& p) {
    const auto s = p.rfind('/');
    return s == std::string::npos ? p : p.substr(s + 1);
}

using Release = SlurmRelease;

/// The value of a plugin's `plugin_version` (SLURM_VERSION_NUMBER of the release it was built
/// for, which Slurm's plugin loader compares) from its ELF file, without loading it.
Result<std::uint32_t> elf_plugin_version(const std::string& path) {
    auto bytes = read_text_file(path);  // a plugin is a few MiB (the CLI's reader: Io names the file)
    if (!bytes) return fail(std::move(bytes).error());
    const std::string& b = *bytes;
    auto at = [&](std::uint64_t off, std::uint64_t len) { return off <= b.size() && len <= b.size() - off; };
    Elf64_Ehdr eh{};
    if (!at(0, sizeof eh)) return fail(Errc::Parse, path + ": not an ELF file");
    std::memcpy(&eh, b.data(), sizeof eh);
    if (std::memcmp(eh.e_ident, ELFMAG, SELFMAG) != 0 || eh.e_ident[EI_CLASS] != ELFCLASS64)
        return fail(Errc::Parse, path + ": not a 64-bit ELF file");
    if (eh.e_shentsize != sizeof(Elf64_Shdr) || !at(eh.e_shoff, std::uint64_t{eh.e_shnum} * sizeof(Elf64_Shdr)))
        return fail(Errc::Parse, path + ": bad ELF section table");
    std::vector<Elf64_Shdr> sh(eh.e_shnum);
    std::memcpy(sh.data(), b.data() + eh.e_shoff, sh.size() * sizeof(Elf64_Shdr));
    for (const auto& s : sh) {
        if (s.sh_type != SHT_DYNSYM || s.sh_link >= sh.size() || s.sh_entsize != sizeof(Elf64_Sym)) continue;
        const auto& strtab = sh[s.sh_link];
        if (!at(s.sh_offset, s.sh_size) || !at(strtab.sh_offset, strtab.sh_size)) break;
        for (std::uint64_t i = 0; i < s.sh_size / sizeof(Elf64_Sym); ++i) {
            Elf64_Sym sym{};
            std::memcpy(&sym, b.data() + s.sh_offset + (i * sizeof sym), sizeof sym);
            if (sym.st_name >= strtab.sh_size || sym.st_shndx == SHN_UNDEF || sym.st_shndx >= sh.size()) continue;
            const char* name = b.data() + strtab.sh_offset + sym.st_name;
            const auto max_len = strtab.sh_size - sym.st_name;
            if (std::string_view(name, strnlen(name, max_len)) != "plugin_version") continue;
            const auto& sec = sh[sym.st_shndx];
            if (sym.st_value < sec.sh_addr || sym.st_value - sec.sh_addr + 4 > sec.sh_size) break;
            const auto off = sec.sh_offset + (sym.st_value - sec.sh_addr);
            if (!at(off, 4)) break;
            std::uint32_t v = 0;
            std::memcpy(&v, b.data() + off, 4);
            return v;
        }
    }
    return fail(Errc::Parse, path + ": no plugin_version symbol (not a Slurm plugin)");
}

/// One plugstack line naming a plugin: "required|optional PATH [ARGS...]".
struct PlugLine {
    std::string file;
    int line = 0;
    bool required = true;
    std::string path;
    std::map<std::string, std::string> args;
};

/// Every plugstack line from FILE and the files its `include` globs name, bounded.
void read_plugstack(const std::string& file, std::vector<PlugLine>& out, std::vector<std::string>& files,
                    std::vector<std::string>& problems, int depth = 0) {
    if (depth > 8 || static_cast<int>(files.size()) >= kMaxIncludes) {
        problems.push_back(file + ": includes nested too deep or too many files; not read");
        return;
    }
    auto text = topo::read_text_file(file, kMaxConfigFile);
    if (!text) {
        problems.push_back(file + ": cannot read");
        return;
    }
    files.push_back(file);
    std::istringstream in(*text);
    std::string raw;
    int n = 0;
    while (std::getline(in, raw)) {
        ++n;
        const auto w = split_words(trim(std::string_view(raw).substr(0, raw.find('#'))));
        if (w.empty()) continue;
        if (w[0] == "include" && w.size() >= 2) {
            glob_t g{};
            const std::string pattern(w[1]);
            // NOLINTNEXTLINE(concurrency-mt-unsafe): one glob_t per call
            if (::glob(pattern.c_str(), 0, nullptr, &g) == 0) {
                for (std::size_t i = 0; i < g.gl_pathc; ++i)
                    read_plugstack(g.gl_pathv[i], out, files, problems, depth + 1);
            }
            ::globfree(&g);
            continue;
        }
        if ((w[0] != "required" && w[0] != "optional") || w.size() < 2) continue;
        PlugLine p{file, n, w[0] == "required", std::string(w[1]), {}};
        for (std::size_t i = 2; i < w.size(); ++i) {
            const auto eq = w[i].find('=');
            if (eq != std::string_view::npos) p.args[std::string(w[i].substr(0, eq))] = w[i].substr(eq + 1);
        }
        out.push_back(std::move(p));
    }
}

/// `scontrol show config` lines "Key = Value".
std::map<std::string, std::string> parse_config(const std::string& text) {
    std::map<std::string, std::string> m;
    std::istringstream in(text);
    std::string l;
    while (std::getline(in, l)) {
        const auto eq = l.find(" = ");
        if (eq == std::string::npos) continue;
        m[std::string(trim(std::string_view(l).substr(0, eq)))] = trim(std::string_view(l).substr(eq + 3));
    }
    return m;
}

struct SlurmNode {
    std::string name;
    std::set<std::string> features;
    bool gpus = false;
};

/// `scontrol show nodes --oneliner`: name, AvailableFeatures, whether Gres names a GPU.
std::vector<SlurmNode> parse_nodes(const std::string& text) {
    std::vector<SlurmNode> out;
    std::istringstream in(text);
    std::string l;
    while (std::getline(in, l)) {
        SlurmNode n;
        for (const auto tok : split_words(trim(l))) {
            const auto eq = tok.find('=');
            if (eq == std::string_view::npos) continue;
            const std::string k(tok.substr(0, eq));
            const std::string v(tok.substr(eq + 1));
            if (k == "NodeName") n.name = v;
            if (k == "AvailableFeatures" || k == "AvailableFeatures(null)") {
                std::istringstream fs(v);
                std::string f;
                while (std::getline(fs, f, ','))
                    if (!f.empty() && f != "(null)") n.features.insert(f);
            }
            if (k == "Gres" && v.starts_with("gpu")) n.gpus = true;
        }
        if (!n.name.empty()) out.push_back(std::move(n));
    }
    return out;
}

std::string first_few(const std::vector<std::string>& v, std::size_t k = 3) {
    std::string s;
    for (std::size_t i = 0; i < v.size() && i < k; ++i) s += (i > 0 ? ", " : "") + v[i];
    if (v.size() > k) s += ", ...";
    return s;
}

/// One question to the placement service (wire format: spank/core/service.hpp): a 1-node pack
/// request for `snapshot`; returns the reply's kind and message, or why there is none.
struct ServiceAnswer {
    bool answered = false;
    std::string kind, message, error;
    double ms = 0;
};

// The question the SPANK plugin asks (a 1-node pack request for this snapshot and health
// store), through the plugin's own client (spank/core/service.hpp: non-blocking, bounded,
// the service's peer uid checked as the plugin checks it), so what doctor says is what a
// submission will find.
ServiceAnswer ask_service(const std::string& sock, const std::string& snapshot, const std::string& health) {
    ServiceAnswer a;
    spank::ServiceRequest q;
    q.snapshot = snapshot;
    q.health = health;
    q.sr.nodes = "1";
    q.opts.mode = spank::Mode::Pack;
    const auto t0 = std::chrono::steady_clock::now();
    auto rep = spank::call_service(sock, q, 2000);  // the service answers in 200 ms or closes
    a.ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
    if (!rep) {
        a.error = rep.error().message;
        if (a.error.starts_with(sock + ": ")) a.error.erase(0, sock.size() + 2);
        return a;
    }
    a.answered = true;
    a.kind = spank::reply_kind_name(rep->kind);
    a.message = printable_utf8(rep->message);
    return a;
}

class Doctor {
public:
    explicit Doctor(DoctorOptions o) : o_(std::move(o)) {}

    int run();

private:
    void ok(const std::string& c, const std::string& what) { out_.push_back({c, Verdict::Ok, what, ""}); }

    void bad(const std::string& c, const std::string& what, const std::string& fix) {
        out_.push_back({c, Verdict::Fail, what, fix});
    }

    void skip(const std::string& c, const std::string& why) { out_.push_back({c, Verdict::Skip, why, ""}); }

    bool slurm();
    void plugstack();
    void sbatch();
    void snapshot();
    void fabric_and_features();
    void job_submit();
    void health_store();
    void service();
    void topology_plugin();
    int print() const;

    DoctorOptions o_;
    std::vector<Finding> out_;
    std::map<std::string, std::string> cfg_;
    std::string conf_;  // slurm.conf
    std::string etc_;   // its directory
    std::optional<Release> rel_;
    std::optional<PlugLine> plug_;
    std::string snap_path_;
    TopologyPtr topo_;
};

bool Doctor::slurm() {
    auto r = health::run_process({o_.scontrol, "show", "config"}, std::chrono::seconds(30), false, 16U << 20);
    if (!r.started || r.timed_out || r.exit_code != 0) {
        const std::string why = !r.started ? "cannot run " + o_.scontrol
                                : r.timed_out
                                    ? o_.scontrol + " show config timed out after 30 s"
                                    : o_.scontrol + " show config failed (exit " + std::to_string(r.exit_code) + ")";
        bad("slurmctld", why + ": no live check can be made",
            "start slurmctld (systemctl start slurmctld), or point SLURM_CONF / --slurm-conf at this cluster's "
            "slurm.conf");
        return false;
    }
    cfg_ = parse_config(r.out);
    conf_ = !o_.slurm_conf.empty()        ? o_.slurm_conf
            : cfg_.contains("SLURM_CONF") ? cfg_["SLURM_CONF"]
                                          : "/etc/slurm/slurm.conf";
    etc_ = dir_of(conf_);
    rel_ = parse_slurm_release(cfg_["SLURM_VERSION"]);
    if (!rel_) {
        bad("slurmctld", "scontrol show config has no SLURM_VERSION", "run doctor with this cluster's scontrol");
        return false;
    }
    ok("slurmctld", "Slurm " + rel_->str() + ", " + conf_);
    return true;
}

void Doctor::plugstack() {
    std::string ps = cfg_["PlugStackConfig"];
    if (ps.empty() || ps == "(null)") ps = etc_ + "/plugstack.conf";
    std::vector<PlugLine> lines;
    std::vector<std::string> files;
    std::vector<std::string> problems;
    read_plugstack(ps, lines, files, problems);
    const std::string so = "/usr/lib/x86_64-linux-gnu/slurm-wlm/topoplace.so";
    const std::string line = "required " + so
                             + " snapshot=" + (o_.snapshot.empty() ? etc_ + "/topoplace.json" : o_.snapshot)
                             + " health=/var/lib/topoplace/health service=/run/topoplace/service.sock";
    for (const auto& l : lines)
        if (base_of(l.path) == "topoplace.so") {
            plug_ = l;
            break;
        }
    if (!plug_) {
        std::string fix = "echo '" + line + "' > " + etc_ + "/plugstack.conf.d/topoplace.conf";
        bool includes = false;
        if (auto t = topo::read_text_file(ps, kMaxConfigFile))
            includes = t->find("plugstack.conf.d/") != std::string::npos;
        if (!includes) fix += "; echo 'include " + etc_ + "/plugstack.conf.d/*.conf' >> " + ps;
        bad("plugstack",
            "no topoplace.so line in " + ps + (files.size() > 1 ? " or the files it includes" : "")
                + (problems.empty() ? "" : " (" + problems.front() + ")")
                + ": sbatch has no --topo and jobs get no plan",
            fix + " (the .deb installs this snippet)");
        return;
    }
    const std::string where = plug_->file + ":" + std::to_string(plug_->line);
    if (::access(plug_->path.c_str(), R_OK) != 0) {
        bad("plugstack", where + ": " + plug_->path + " does not exist or cannot be read",
            "install topoplace_*+slurm" + rel_->major_minor() + "_amd64.deb (it puts the plugin there), or fix the "
                "path on that line");
        return;
    }
    auto v = elf_plugin_version(plug_->path);
    if (!v) {
        bad("plugstack", where + ": " + v.error().message,
            "reinstall the topoplace package for Slurm " + rel_->major_minor());
        return;
    }
    const Release built = release_of_number(*v);
    if (built.major != rel_->major || built.minor != rel_->minor) {
        bad("plugstack",
            where + ": " + plug_->path + " was built for Slurm " + built.major_minor() + ", this cluster runs "
                + rel_->str() + " (Slurm refuses to load it: every sbatch fails with it required)",
            "install topoplace_*+slurm" + rel_->major_minor() + "_amd64.deb on every node");
        return;
    }
    ok("plugstack", where + ": " + (plug_->required ? "required " : "optional ") + plug_->path + " (built for Slurm "
                        + built.major_minor() + ")");
}

void Doctor::sbatch() {
    auto r = health::run_process({o_.sbatch, "--help"}, std::chrono::seconds(30), true, 1U << 20);
    if (!r.started) {
        skip("sbatch", "cannot run " + o_.sbatch + " (not a login node?)");
        return;
    }
    if (r.out.find("--topo=") != std::string::npos) {
        ok("sbatch", "sbatch --help lists --topo (the plugin loads in sbatch)");
        return;
    }
    bad("sbatch", "sbatch --help has no --topo: sbatch does not load the plugin",
        plug_ ? "check " + plug_->file + " is the PlugStackConfig this login node's slurm.conf names, and run "
                    "'sbatch -vv --help' for the plugin's error"
              : "add the plugstack line above");
}

void Doctor::snapshot() {
    snap_path_ = !o_.snapshot.empty()                        ? o_.snapshot
                 : plug_ && plug_->args.contains("snapshot") ? plug_->args["snapshot"]
                                                             : "";
    if (snap_path_.empty()) {
        bad("snapshot", "no snapshot: the plugstack line has no snapshot= and none was given",
            "topoplace discover ... -o " + etc_ + "/topoplace.json, and add snapshot=" + etc_
                + "/topoplace.json to the plugstack line");
        return;
    }
    if (plug_ && plug_->args.contains("snapshot") && plug_->args["snapshot"] != snap_path_) {
        bad("snapshot",
            "the plugstack line (" + plug_->file + ":" + std::to_string(plug_->line)
                + ") names snapshot=" + plug_->args["snapshot"] + ", not " + snap_path_,
            "make the plugstack line's snapshot= and the snapshot you maintain the same file");
    }
    auto t = load_snapshot(snap_path_);
    if (!t) {
        bad("snapshot", t.error().to_string(), "topoplace discover ... -o " + snap_path_);
        return;
    }
    topo_ = *t;
    if (auto tr = health::check_trusted_path(snap_path_, health::PathKind::RegularFile, 0, "snapshot"); !tr) {
        bad("snapshot", tr.error().message + " (slurmstepd reads it as root)",
            "chown root:root " + snap_path_ + " && chmod 0644 " + snap_path_);
        return;
    }
    std::string extra;
    const std::string bin = snapshot_bin_path(snap_path_);

    struct stat st {};

    if (::stat(bin.c_str(), &st) == 0) {
        auto b = load_snapshot_bin(snap_path_, bin, 0);
        if (!b) {
            bad("snapshot", bin + " is not used: " + b.error().message, "topoplace compile " + snap_path_);
            return;
        }
        extra = ", compiled form current";
    }
    ok("snapshot", snap_path_ + ": " + std::to_string(topo_->hosts().size()) + " hosts, fingerprint "
                       + topo_->fingerprint().substr(0, 12) + extra);
}

void Doctor::fabric_and_features() {
    auto r =
        health::run_process({o_.scontrol, "show", "nodes", "--oneliner"}, std::chrono::seconds(30), false, 256U << 20);
    if (!r.started || r.timed_out || r.exit_code != 0 || r.truncated) {
        bad("fabric", o_.scontrol + " show nodes failed", "check slurmctld answers (scontrol ping)");
        return;
    }
    const auto nodes = parse_nodes(r.out);
    std::set<std::string> in_snap;
    for (const auto& h : topo_->hosts()) in_snap.insert(h.name);
    std::vector<std::string> unknown;
    std::size_t gpu_nodes = 0;
    for (const auto& n : nodes) {
        if (!n.gpus) continue;
        ++gpu_nodes;
        if (!in_snap.contains(n.name)) unknown.push_back(n.name);
    }
    const std::string rediscover = "re-run the discover that made " + snap_path_ + " on today's fabric (topoplace discover "
                                   "... -o " + snap_path_ + "), then topoplace slurm-conf for topology.conf and features";
    if (!unknown.empty()) {
        bad("fabric",
            std::to_string(unknown.size()) + " of Slurm's " + std::to_string(gpu_nodes) + " GPU nodes are not in "
                + snap_path_ + " (" + first_few(unknown) + "): the snapshot is older than the cluster",
            rediscover);
    } else {
        ok("fabric", "all " + std::to_string(gpu_nodes) + " GPU nodes of Slurm are in the snapshot");
    }
    // topology.conf / topology.yaml: generated from this snapshot?
    for (const char* name : {"topology.conf", "topology.yaml"}) {
        const std::string f = etc_ + "/" + name;
        auto text = topo::read_text_file(f, kMaxConfigFile);
        if (!text) continue;
        const auto at = text->find("# Source fingerprint: ");
        if (at == std::string::npos) {
            ok("topology", f + ": not written by topoplace slurm-conf (no source fingerprint); not compared");
            continue;
        }
        const std::string fp(trim(std::string_view(*text).substr(at + 22, text->find('\n', at) - at - 22)));
        if (fp != topo_->fingerprint()) {
            struct stat a {};

            struct stat b {};

            const bool older =
                ::stat(snap_path_.c_str(), &a) == 0 && ::stat(f.c_str(), &b) == 0 && a.st_mtime < b.st_mtime;
            bad("topology",
                f + " was generated from another snapshot (fingerprint " + fp.substr(0, 12) + ", " + snap_path_ + " is "
                    + topo_->fingerprint().substr(0, 12) + ")"
                    + (older ? "; the snapshot is the older of the two" : ""),
                older
                    ? rediscover
                    : "topoplace slurm-conf " + snap_path_ + " --format tree -o " + f + ", then scontrol reconfigure");
        } else {
            ok("topology", f + ": generated from this snapshot");
        }
    }
    // node features: lg_/sp_ as slurm-conf --features writes them for this snapshot
    auto feats = slurmconf::generate_features(*topo_);
    if (!feats) {
        bad("features", feats.error().to_string(), "see topoplace slurm-conf " + snap_path_ + " --features -");
        return;
    }
    std::map<std::string, std::set<std::string>> want;
    for (const auto& line : feats->lines) {
        const auto w = split_words(line);
        if (w.size() < 2 || !w[0].starts_with("NodeName=") || !w[1].starts_with("Features=")) continue;
        auto hosts = expand_hostlist(w[0].substr(9));
        if (!hosts) continue;
        std::set<std::string> fs;
        std::istringstream in{std::string(w[1].substr(9))};
        std::string f;
        while (std::getline(in, f, ','))
            if (f.starts_with("lg_") || f.starts_with("sp_")) fs.insert(f);
        for (const auto& h : *hosts) want[h] = fs;
    }
    std::vector<std::string> missing;
    std::vector<std::string> wrong;
    std::string example;
    for (const auto& n : nodes) {
        auto it = want.find(n.name);
        if (it == want.end()) continue;
        std::set<std::string> have;
        for (const auto& f : n.features)
            if (f.starts_with("lg_") || f.starts_with("sp_")) have.insert(f);
        if (have == it->second) continue;
        std::string w;
        for (const auto& f : it->second) w += (w.empty() ? "" : ",") + f;
        if (have.empty()) {
            missing.push_back(n.name);
        } else {
            wrong.push_back(n.name);
        }
        if (example.empty()) {
            std::string h;
            for (const auto& f : have) h += (h.empty() ? "" : ",") + f;
            example = n.name + " has " + (h.empty() ? "none" : h) + ", the snapshot gives " + w;
        }
    }
    const std::string fix = "topoplace slurm-conf " + snap_path_ + " --format tree --features " + etc_
                            + "/topoplace-features.conf -o " + etc_ + "/topology.conf; merge its Features= into "
                            "slurm.conf's NodeName lines; scontrol reconfigure";
    if (!missing.empty()) {
        bad("features",
            std::to_string(missing.size()) + " nodes have no lg_/sp_ features (" + first_few(missing) + "; " + example
                + "): plans name features Slurm does not know",
            fix);
    } else if (!wrong.empty()) {
        bad("features", std::to_string(wrong.size()) + " nodes carry features of another snapshot (" + example + ")",
            fix);
    } else {
        ok("features", std::to_string(want.size()) + " nodes carry this snapshot's lg_/sp_ features");
    }
}

void Doctor::job_submit() {
    const std::string plugins = cfg_["JobSubmitPlugins"];
    const std::string lua = etc_ + "/job_submit.lua";
    bool on = false;
    std::istringstream in(plugins);
    std::string p;
    while (std::getline(in, p, ','))
        if (trim(p) == "lua" || trim(p) == "job_submit/lua") on = true;
    if (!on) {
        bad("job_submit", "JobSubmitPlugins is '" + plugins + "', without lua: slurmctld never applies a plan",
            "add 'JobSubmitPlugins=lua' to " + conf_
                + " (keep other plugins on the same line), then scontrol reconfigure");
        return;
    }
    auto text = topo::read_text_file(lua, kMaxConfigFile);
    if (!text) {
        bad("job_submit", lua + " does not exist: slurmctld's lua plugin has no script",
            "install -m 0644 /usr/share/topoplace/job_submit.lua " + lua + ", then scontrol reconfigure");
        return;
    }
    if (text->find("TOPOPLACE_CONSTRAINT") == std::string::npos) {
        bad("job_submit", lua + " is not topoplace's: it never reads TOPOPLACE_CONSTRAINT",
            "merge /usr/share/topoplace/job_submit.lua's slurm_job_submit into " + lua + ", then scontrol reconfigure");
        return;
    }
    ok("job_submit", "JobSubmitPlugins=lua, " + lua + " applies topoplace's plan");
}

void Doctor::health_store() {
    if (!plug_ || !plug_->args.contains("health")) {
        skip("health", "the plugstack line has no health=: no launch gate, no exclusions");
        return;
    }
    const std::string dir = plug_->args["health"];

    struct stat st {};

    if (::stat(dir.c_str(), &st) != 0) {
        bad("health", dir + " (health=) does not exist: the launch gate cannot read it",
            "install -d -m 0755 -o root -g root " + dir);
        return;
    }
    if (auto tr = health::check_trusted_path(dir, health::PathKind::Directory, 0, "health store"); !tr) {
        bad("health", tr.error().message + ": the plugin ignores the store",
            "chown root:root " + dir + " && chmod 0755 " + dir);
        return;
    }
    ok("health", dir + ": root's, not group/world-writable");
}

void Doctor::service() {
    bool any = false;
    if (plug_ && plug_->args.contains("service")) {
        any = true;
        const std::string sock = plug_->args["service"];
        const auto a = ask_service(sock, snap_path_, plug_->args.contains("health") ? plug_->args["health"] : "");
        const std::string start =
            "systemctl restart topoplace-nodefeed (journalctl -u topoplace-nodefeed says why it stopped)";
        if (!a.answered) {
            bad("service",
                "topoplace-nodefeed does not answer on " + sock + " (" + a.error
                    + "): every submission decides in-process, 1.2x slower",
                start);
        } else if (a.kind == "refused") {
            bad("service", "topoplace-nodefeed on " + sock + " refuses this plugin's requests: " + a.message,
                "give topoplace-nodefeed --snapshot " + snap_path_ + " and the plugstack's health= in its unit "
                "(systemctl edit topoplace-nodefeed), then systemctl restart topoplace-nodefeed");
        } else {
            char ms[32];
            std::snprintf(ms, sizeof ms, "%.1f", a.ms);
            ok("service", sock + ": answers for this snapshot (" + a.kind + " in " + ms + " ms)");
        }
    }
    if (plug_ && plug_->args.contains("state_feed")) {
        any = true;
        const std::string feed = plug_->args["state_feed"];

        struct stat st {};

        if (::stat(feed.c_str(), &st) != 0) {
            bad("feed", feed + " (state_feed=) does not exist", "systemctl start topoplace-nodefeed");
        } else {
            const auto age = static_cast<long long>(::time(nullptr) - st.st_mtime);
            if (age > 60) {
                bad("feed", feed + " was last written " + std::to_string(age) + " s ago: the feed is dead",
                    "systemctl restart topoplace-nodefeed");
            } else {
                ok("feed", feed + ": written " + std::to_string(age) + " s ago");
            }
        }
    }
    if (!any)
        skip("service", "the plugstack line has no service= or state_feed=: each submission asks slurmctld itself");
}

void Doctor::topology_plugin() {
    const std::string tp = cfg_["TopologyPlugin"];
    const bool late = rel_->major > 24 || (rel_->major == 24 && rel_->minor >= 11);
    if (tp != "topology/topoplace") {
        if (tp != "topology/tree" && tp != "topology/block") {
            bad("topology-plugin", "TopologyPlugin is '" + tp + "': Slurm ignores the plan's switch count",
                "add 'TopologyPlugin=topology/tree' and the topology.conf of topoplace slurm-conf to " + conf_
                    + ", then restart slurmctld");
            return;
        }
        ok("topology-plugin", tp
                                  + (late ? ": nodes chosen when the job is submitted (the plugin's plan); "
                                            "topology/topoplace (package topoplace-topology) chooses when it starts"
                                          : ": nodes chosen when the job is submitted (Slurm " + rel_->major_minor()
                                                + " has no topology eval hook)"));
        return;
    }
    std::string dirs = cfg_["PluginDir"];
    std::string found;
    std::istringstream in(dirs);
    std::string d;
    while (std::getline(in, d, ':')) {
        const std::string p = d + "/topology_topoplace.so";
        if (::access(p.c_str(), R_OK) == 0) {
            found = p;
            break;
        }
    }
    if (found.empty()) {
        bad("topology-plugin",
            "TopologyPlugin=topology/topoplace, but no topology_topoplace.so in PluginDir " + dirs
                + ": slurmctld cannot start",
            "install topoplace-topology_*+slurm" + rel_->str() + "_amd64.deb");
        return;
    }
    auto v = elf_plugin_version(found);
    if (!v) {
        bad("topology-plugin", v.error().message, "install topoplace-topology_*+slurm" + rel_->str() + "_amd64.deb");
        return;
    }
    const Release built = release_of_number(*v);
    if (built.major != rel_->major || built.minor != rel_->minor || built.micro != rel_->micro) {
        bad("topology-plugin",
            found + " was built for Slurm " + built.str() + ", slurmctld is " + rel_->str()
                + " (it is compiled against slurmctld's internal structures: only the exact release)",
            "install topoplace-topology_*+slurm" + rel_->str() + "_amd64.deb, then restart slurmctld");
        return;
    }
    ok("topology-plugin", found + ": built for Slurm " + built.str() + ", nodes chosen when each job starts");
}

int Doctor::print() const {
    bool all = true;
    for (const auto& f : out_) all = all && f.verdict != Verdict::Fail;
    if (o_.json) {
        nlohmann::json j = nlohmann::json::array();
        for (const auto& f : out_) {
            j.push_back({{"check", f.check},
                         {"status", f.verdict == Verdict::Ok     ? "ok"
                                    : f.verdict == Verdict::Fail ? "fail"
                                                                 : "skip"},
                         {"message", printable_utf8(f.what)},
                         {"fix", printable_utf8(f.fix)}});
        }
        std::printf("%s\n", nlohmann::json{{"ok", all}, {"checks", j}}.dump(2).c_str());
    } else {
        for (const auto& f : out_) {
            const char* v = f.verdict == Verdict::Ok ? "ok  " : f.verdict == Verdict::Fail ? "FAIL" : "skip";
            std::printf("%s %-16s %s\n", v, f.check.c_str(), printable_utf8(f.what).c_str());
            if (!f.fix.empty()) std::printf("     %-16s fix: %s\n", "", printable_utf8(f.fix).c_str());
        }
        std::size_t failed = 0;
        for (const auto& f : out_) failed += f.verdict == Verdict::Fail ? 1 : 0;
        std::printf(all ? "topoplace doctor: all checks hold\n" : "topoplace doctor: %zu check(s) failed\n", failed);
    }
    return all ? kOk : kUnsatisfiable;
}

int Doctor::run() {
    // NOLINTNEXTLINE(concurrency-mt-unsafe): before anything runs, one thread
    if (!o_.slurm_conf.empty()) ::setenv("SLURM_CONF", o_.slurm_conf.c_str(), 1);
    if (slurm()) {
        plugstack();
        sbatch();
        snapshot();
        if (topo_) {
            fabric_and_features();
        } else {
            skip("fabric", "no snapshot to compare");
        }
        job_submit();
        health_store();
        service();
        topology_plugin();
    } else {
        snapshot();
    }
    return print();
}

}  // namespace

Runner add_doctor(CLI::App& app) {
    auto o = std::make_shared<DoctorOptions>();
    auto* sub = app.add_subcommand(
        "doctor",
        "Check that the installed parts (plugstack line, snapshot, topology.conf and node features, "
        "job_submit.lua, health store, topoplace-nodefeed, topology plugin) agree with each other and the "
        "running Slurm; one line per check with its fix; exit 0 when all hold, 1 otherwise. Read-only");
    sub->add_option("--slurm-conf", o->slurm_conf, "slurm.conf of the cluster (default: $SLURM_CONF, else scontrol's)");
    sub->add_option("--snapshot", o->snapshot, "the snapshot (default: the plugstack line's snapshot=)");
    sub->add_option("--scontrol", o->scontrol, "scontrol program (default: scontrol on PATH)");
    sub->add_option("--sbatch", o->sbatch, "sbatch program (default: sbatch on PATH)");
    sub->add_flag("--json", o->json, "one JSON document: {ok, checks: [{check, status, message, fix}]}");
    return [o]() { return Doctor(*o).run(); };
}

}  // namespace topo::cli
