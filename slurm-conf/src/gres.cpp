// SPDX-License-Identifier: Apache-2.0
// gres.conf: Name=gpu lines with Links= from the NVLink matrix (see gres.hpp).
#include <algorithm>
#include <cctype>
#include <map>
#include <sstream>

#include <topo/hostlist.hpp>
#include <topo/slurm_view.hpp>
#include <topo/slurmconf/gres.hpp>

namespace topo::slurmconf {

namespace {

bool valid_type(const std::string& s) {
    return !s.empty() && std::all_of(s.begin(), s.end(), [](char c) {
        return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_' || c == '-'
               || c == '.';
    });
}

std::string file_of(const std::string& tpl, int index) {
    std::string out = tpl;
    const std::string key = "{index}";
    for (auto p = out.find(key); p != std::string::npos; p = out.find(key, p)) {
        out.replace(p, key.size(), std::to_string(index));
    }
    return out;
}

bool looks_non_nvidia(const std::string& model) {
    std::string m = model;
    std::transform(m.begin(), m.end(), m.begin(), [](unsigned char c) { return std::tolower(c); });
    return m.find("amd") != std::string::npos || m.find("instinct") != std::string::npos
           || m.find("radeon") != std::string::npos || m.find("intel") != std::string::npos;
}

}  // namespace

std::string gpu_type_from_model(const std::string& model) {
    std::string tok;
    auto consider = [](const std::string& w) -> std::string {
        // letters then digits, optional trailing letters: H100, A100, V100, GB200, L40S, MI250X
        std::size_t i = 0;
        while (i < w.size() && std::isalpha(static_cast<unsigned char>(w[i])) != 0) ++i;
        const std::size_t letters = i;
        while (i < w.size() && std::isdigit(static_cast<unsigned char>(w[i])) != 0) ++i;
        if (letters == 0 || i == letters || letters > 3) return {};
        while (i < w.size() && std::isalpha(static_cast<unsigned char>(w[i])) != 0) ++i;
        if (i != w.size()) return {};
        std::string o = w;
        std::transform(o.begin(), o.end(), o.begin(), [](unsigned char c) { return std::tolower(c); });
        return o;
    };
    for (char c : model + " ") {
        if (c == ' ' || c == '-' || c == '_' || c == '/') {
            if (auto v = consider(tok); !v.empty()) return v;
            tok.clear();
        } else {
            tok += c;
        }
    }
    return {};
}

Result<GresConf> generate_gres_conf(const Topology& t, const GresOptions& o) {
    if (o.file_template.find("{index}") == std::string::npos) {
        return fail(Errc::InvalidArgument, "GPU file template \"" + o.file_template + "\" has no {index}");
    }
    if (!o.type.empty() && o.type != "-" && !valid_type(o.type)) {
        return fail(Errc::InvalidArgument, "GPU type \"" + o.type + "\": use letters, digits, '_', '-', '.'");
    }
    // NVLink count per (gpu, gpu) of one host.
    std::map<std::pair<std::uint32_t, std::uint32_t>, int> links;
    for (const auto& p : t.nvlinks()) {
        const int n = p.links > 0 ? p.links : 1;  // known pair, unknown count: "connected"
        links[{p.a.index(), p.b.index()}] = n;
        links[{p.b.index(), p.a.index()}] = n;
    }
    GresConf gc;
    std::map<std::string, std::vector<std::string>> hosts_of;  // layout lines -> hosts
    std::vector<std::string> non_nvidia;
    std::vector<std::string> no_gpu;
    for (std::uint32_t hi = 0; hi < t.hosts().size(); ++hi) {
        const auto& h = t.hosts()[hi];
        if (!slurm_node(h, o.include_service)) continue;
        if (h.gpus.empty()) {
            no_gpu.push_back(h.name);
            continue;
        }
        std::vector<GpuId> gpus(h.gpus.begin(), h.gpus.end());
        std::sort(gpus.begin(), gpus.end(), [&](auto a, auto b) { return t.gpu(a).index < t.gpu(b).index; });
        std::string type = o.type == "-" ? std::string{} : o.type;
        if (o.type.empty()) {
            type = gpu_type_from_model(t.gpu(gpus.front()).model);
            for (auto g : gpus) {
                if (gpu_type_from_model(t.gpu(g).model) != type) type.clear();  // mixed models: no Type
            }
        }
        if (looks_non_nvidia(t.gpu(gpus.front()).model)) non_nvidia.push_back(h.name);
        const std::string type_kv = type.empty() ? "" : " Type=" + type;
        bool any_link = false;
        for (auto a : gpus) {
            for (auto b : gpus) any_link = any_link || (a != b && links.count({a.index(), b.index()}) != 0U);
        }
        std::string layout;  // the text after "NodeName=<hosts>", one line per '\n'
        if (o.links && any_link) {
            for (auto a : gpus) {
                layout += " Name=gpu" + type_kv + " File=" + file_of(o.file_template, t.gpu(a).index) + " Links=";
                for (std::size_t j = 0; j < gpus.size(); ++j) {
                    const auto b = gpus[j];
                    int v = 0;
                    if (a == b) {
                        v = -1;
                    } else if (auto it = links.find({a.index(), b.index()}); it != links.end()) {
                        v = it->second;
                    }
                    layout += (j ? "," : "") + std::to_string(v);
                }
                layout += "\n";
            }
        } else {
            std::vector<std::string> files;
            for (auto g : gpus) files.push_back(file_of(o.file_template, t.gpu(g).index));
            layout = " Name=gpu" + type_kv + " File=" + compress_hostlist(files) + "\n";
        }
        hosts_of[layout].push_back(h.name);
    }
    if (hosts_of.empty()) {
        return fail(Errc::InvalidArgument,
                    "no host in this snapshot has a GPU: nothing to write in gres.conf "
                    "(add --hwloc or --nvidia-smi-topo or a cluster spec to discover)");
    }
    if (!non_nvidia.empty()) {
        gc.warnings.push_back("GPUs that do not look like NVIDIA GPUs get File= from the template \"" + o.file_template
                              + "\"; check the device paths: " + compress_hostlist(non_nvidia));
    }
    std::vector<std::pair<std::string, std::string>> blocks;  // first host, text
    for (auto& [layout, hosts] : hosts_of) {
        std::sort(hosts.begin(), hosts.end(), [](const auto& a, const auto& c) { return natural_less(a, c); });
        const std::string hl = compress_hostlist(hosts);
        std::string text;
        std::istringstream in(layout);
        for (std::string l; std::getline(in, l);) {
            gc.lines.push_back("NodeName=" + hl + l);
            text += gc.lines.back() + "\n";
        }
        blocks.emplace_back(hosts.front(), text);
    }
    // Lines in natural order of the first host of each layout.
    std::sort(blocks.begin(), blocks.end(),
              [](const auto& a, const auto& c) { return natural_less(a.first, c.first); });
    gc.lines.clear();
    if (o.autodetect_off) gc.lines.emplace_back("AutoDetect=off");
    std::ostringstream out;
    out << "# gres.conf for GPUs, generated by topoplace slurm-conf --gres. Minimum Slurm version: 22.05\n"
        << "# Source fingerprint: " << t.fingerprint() << "\n"
        << "# Links=: one number per GPU of the node (-1 itself, NVLinks to that GPU, 0 none).\n"
        << "# slurm.conf needs GresTypes=gpu and Gres=gpu[:type]:<count> on these nodes.\n";
    if (!no_gpu.empty()) {
        out << "# " << no_gpu.size() << " host(s) without GPUs: " << compress_hostlist(no_gpu) << "\n";
    }
    for (const auto& w : gc.warnings) out << "# Warning: " << w << "\n";
    if (o.autodetect_off) out << "AutoDetect=off\n";
    for (const auto& [first, text] : blocks) {
        out << text;
        std::istringstream in(text);
        for (std::string l; std::getline(in, l);) gc.lines.push_back(l);
    }
    gc.text = out.str();
    return gc;
}

}  // namespace topo::slurmconf
