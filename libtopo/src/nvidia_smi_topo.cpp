// SPDX-License-Identifier: Apache-2.0
#include <algorithm>
#include <charconv>
#include <cstddef>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include <topo/nvidia_smi_topo.hpp>
#include <topo/text_input.hpp>

namespace topo {
namespace {

constexpr std::string_view kWhitespace = " \t\r\v\f";

/// nvidia-smi underlines the header with ESC[4m ... ESC[0m (fixture
/// mlsys-tutorial-h800x4-17nic-ansi). Drop every CSI sequence and lone ESC; newlines
/// are kept, so line numbers stay those of the input.
std::string strip_ansi(std::string_view in) {
    std::string out;
    out.reserve(in.size());
    for (std::size_t i = 0; i < in.size(); ++i) {
        if (in[i] != '\x1b') {
            out.push_back(in[i]);
            continue;
        }
        if (i + 1 < in.size() && in[i + 1] == '[') {
            std::size_t j = i + 2;
            // parameter and intermediate bytes, then one final byte in 0x40-0x7e
            while (j < in.size() && in[j] >= 0x20 && in[j] <= 0x3f) ++j;
            if (j < in.size() && in[j] >= 0x40 && in[j] <= 0x7e) {
                i = j;
            } else {
                i = j - 1;
            }
        }
    }
    return out;
}

std::vector<std::string_view> split_ws(std::string_view s) {
    std::vector<std::string_view> out;
    std::size_t i = 0;
    while (i < s.size()) {
        const auto b = s.find_first_not_of(kWhitespace, i);
        if (b == std::string_view::npos) break;
        auto e = s.find_first_of(kWhitespace, b);
        if (e == std::string_view::npos) e = s.size();
        out.push_back(s.substr(b, e - b));
        i = e;
    }
    return out;
}

std::vector<std::string_view> split_tabs(std::string_view s) {
    std::vector<std::string_view> out;
    std::size_t i = 0;
    while (true) {
        const auto e = s.find('\t', i);
        out.push_back(trim(s.substr(i, e == std::string_view::npos ? std::string_view::npos : e - i)));
        if (e == std::string_view::npos) break;
        i = e + 1;
    }
    return out;
}

std::optional<int> to_int(std::string_view s) {
    int v = 0;
    if (s.empty()) return std::nullopt;
    const auto* end = s.data() + s.size();
    const auto r = std::from_chars(s.data(), end, v);
    if (r.ec != std::errc{} || r.ptr != end || v < 0) return std::nullopt;
    return v;
}

/// "GPU3" -> 3.
std::optional<int> gpu_number(std::string_view label) {
    if (!label.starts_with("GPU")) return std::nullopt;
    return to_int(label.substr(3));
}

struct Cell {
    PathClass cls = PathClass::Unknown;
    int links = 0;  // NV#
};

std::optional<Cell> parse_cell(std::string_view tok) {
    if (tok == "X") return Cell{PathClass::Self, 0};
    if (tok.starts_with("NV")) {
        const auto n = to_int(tok.substr(2));
        if (!n || *n == 0) return std::nullopt;
        return Cell{PathClass::NvLink, *n};
    }
    if (tok == "PIX") return Cell{PathClass::Pix, 0};
    if (tok == "PXB") return Cell{PathClass::Pxb, 0};
    if (tok == "PHB") return Cell{PathClass::Phb, 0};
    if (tok == "NODE") return Cell{PathClass::Node, 0};
    if (tok == "SYS" || tok == "SOC") return Cell{PathClass::Sys, 0};
    return std::nullopt;
}

int line_of_offset(std::string_view text, std::size_t off) {
    return 1 + static_cast<int>(std::count(text.begin(), text.begin() + static_cast<std::ptrdiff_t>(off), '\n'));
}

/// First byte that makes the text binary: a NUL, else a control character.
std::size_t first_binary_byte(std::string_view text) {
    const auto nul = text.find('\0');
    if (nul != std::string_view::npos) return nul;
    for (std::size_t i = 0; i < text.size(); ++i) {
        const auto c = static_cast<unsigned char>(text[i]);
        if (c < 0x20 && c != '\n' && c != '\r' && c != '\t' && c != 0x1b && c != '\f') return i;
    }
    return 0;
}

constexpr std::string_view kExtraNames[] = {"CPU Affinity", "NUMA Affinity", "GPU NUMA ID"};

struct Header {
    int line = 0;
    bool tabs = false;
    std::vector<std::string> devices;  // column names, in order
    std::vector<std::string> extras;   // affinity columns, in order
};

/// The header is the first line whose first token is "GPU<n>" and whose second token
/// is not "X" (a row "GPU0  X  NV12 ..." has X there).
std::optional<Header> find_header(const std::vector<std::string_view>& lines) {
    for (std::size_t i = 0; i < lines.size(); ++i) {
        const auto toks = split_ws(lines[i]);
        if (toks.empty() || !gpu_number(toks[0])) continue;
        if (toks.size() > 1 && toks[1] == "X") continue;
        Header h;
        h.line = static_cast<int>(i) + 1;
        const std::string_view line = lines[i];
        h.tabs = line.find('\t') != std::string_view::npos;
        std::size_t dev_end = line.size();
        for (auto name : kExtraNames) {
            const auto p = line.find(name);
            if (p != std::string_view::npos) dev_end = std::min(dev_end, p);
        }
        for (auto t : split_ws(line.substr(0, dev_end))) h.devices.emplace_back(t);
        std::vector<std::pair<std::size_t, std::string>> ex;
        for (auto name : kExtraNames) {
            const auto p = line.find(name);
            if (p != std::string_view::npos) ex.emplace_back(p, std::string(name));
        }
        std::sort(ex.begin(), ex.end());
        for (auto& e : ex) h.extras.push_back(std::move(e.second));
        return h;
    }
    return std::nullopt;
}

}  // namespace

Result<NodeDescription> parse_nvidia_smi_topo(std::string_view text, const std::string& source) {
    if (trim(text).empty()) {
        return fail(Errc::Parse, "empty input: no nvidia-smi topo matrix", source, 1);
    }
    if (looks_binary(text)) {
        return fail(Errc::Parse, "binary data, not an nvidia-smi topo matrix", source,
                    line_of_offset(text, first_binary_byte(text)));
    }
    const std::string clean = strip_ansi(text);
    const auto lines = split_lines(clean);

    auto header = find_header(lines);
    if (!header) {
        return fail(Errc::Parse, "no GPU header line (\"GPU0 GPU1 ... CPU Affinity\") found", source,
                    std::max(1, static_cast<int>(lines.size())));
    }
    const Header& h = *header;
    const std::size_t ndev = h.devices.size();
    std::map<std::string, std::size_t> col_of;
    for (std::size_t c = 0; c < ndev; ++c) {
        if (!col_of.emplace(h.devices[c], c).second) {
            return fail(Errc::Parse, "duplicate column '" + h.devices[c] + "' in the header", source, h.line);
        }
    }

    // Rows: from the line after the header up to the first blank line or "Legend:".
    std::vector<std::vector<Cell>> matrix(ndev);
    std::vector<int> row_line(ndev, 0);
    std::vector<int> gpu_numa(ndev, -1);
    std::size_t li = static_cast<std::size_t>(h.line);
    for (; li < lines.size(); ++li) {
        const std::string_view raw = lines[li];
        const int lineno = static_cast<int>(li) + 1;
        if (trim(raw).empty() || trim(raw).starts_with("Legend")) break;
        std::vector<std::string_view> cells;
        if (h.tabs && raw.find('\t') != std::string_view::npos) {
            cells = split_tabs(raw);
        } else {
            cells = split_ws(raw);
        }
        const std::string label(cells.front());
        const auto it = col_of.find(label);
        if (it == col_of.end()) {
            return fail(
                Errc::Parse,
                "unknown row label '" + label + "' (not a column of the header at line " + std::to_string(h.line) + ")",
                source, lineno);
        }
        const std::size_t r = it->second;
        if (row_line[r] != 0) {
            return fail(Errc::Parse,
                        "duplicate row '" + label + "' (first at line " + std::to_string(row_line[r]) + ")", source,
                        lineno);
        }
        const std::size_t have = cells.size() - 1;
        // nvidia-smi prints one more (empty) cell than the header names between
        // "NUMA Affinity" and "GPU NUMA ID"; allow it.
        const std::size_t max_cells = ndev + h.extras.size() + (h.extras.empty() ? 0 : 1);
        if (have < ndev || have > max_cells) {
            return fail(Errc::Parse,
                        "row '" + label + "' has " + std::to_string(have) + " cells, expected " + std::to_string(ndev)
                            + (h.extras.empty() ? std::string{} : " to " + std::to_string(max_cells)),
                        source, lineno);
        }
        row_line[r] = lineno;
        matrix[r].resize(ndev);
        for (std::size_t c = 0; c < ndev; ++c) {
            const auto tok = cells[c + 1];
            const auto cell = parse_cell(tok);
            if (!cell) {
                return fail(
                    Errc::Parse,
                    "unknown cell '" + std::string(tok) + "' in row '" + label + "', column '" + h.devices[c] + "'",
                    source, lineno);
            }
            if ((cell->cls == PathClass::Self) != (c == r)) {
                return fail(Errc::Parse,
                            "row '" + label + "', column '" + h.devices[c]
                                + "': " + (c == r ? "expected X on the diagonal" : "X off the diagonal"),
                            source, lineno);
            }
            matrix[r][c] = *cell;
        }
        // Affinity columns, positional.
        for (std::size_t k = 0; k < h.extras.size() && ndev + 1 + k < cells.size(); ++k) {
            if (h.extras[k] == "NUMA Affinity") {
                if (auto v = to_int(cells[ndev + 1 + k])) gpu_numa[r] = *v;
            }
        }
    }
    const int end_line = static_cast<int>(li) + 1;
    for (std::size_t r = 0; r < ndev; ++r) {
        if (row_line[r] == 0) {
            return fail(
                Errc::Parse,
                "truncated matrix: no row for '" + h.devices[r] + "' (header at line " + std::to_string(h.line) + ")",
                source, std::min(end_line, static_cast<int>(lines.size()) + 1));
        }
    }

    // NIC legend, after the matrix.
    std::map<std::string, std::string> legend;
    bool in_nic_legend = false;
    for (; li < lines.size(); ++li) {
        const auto t = trim(lines[li]);
        if (t.starts_with("NIC Legend")) {
            in_nic_legend = true;
            continue;
        }
        if (!in_nic_legend || t.empty()) continue;
        const auto colon = t.find(':');
        if (colon == std::string_view::npos) continue;
        const auto key = trim(t.substr(0, colon));
        const auto val = trim(t.substr(colon + 1));
        if (!key.empty() && !val.empty()) legend.emplace(std::string(key), std::string(val));
    }

    NodeDescription nd;
    nd.source = source;
    std::vector<std::pair<int, std::size_t>> gpu_cols;  // (number, column)
    std::vector<std::size_t> nic_cols;
    for (std::size_t c = 0; c < ndev; ++c) {
        if (auto n = gpu_number(h.devices[c])) {
            gpu_cols.emplace_back(*n, c);
        } else {
            nic_cols.push_back(c);
        }
    }
    std::sort(gpu_cols.begin(), gpu_cols.end());
    int max_numa = -1;
    for (const auto& [num, c] : gpu_cols) {
        NodeDescription::GpuDesc g;
        g.index = num;
        g.name = h.devices[c];
        g.numa = gpu_numa[c];
        max_numa = std::max(max_numa, g.numa);
        nd.gpus.push_back(std::move(g));
    }
    for (const auto c : nic_cols) {
        NodeDescription::NicDesc n;
        const auto lg = legend.find(h.devices[c]);
        n.name = lg != legend.end() ? lg->second : h.devices[c];
        nd.nics.push_back(std::move(n));
    }
    if (!nic_cols.empty()) {
        nd.gpu_nic.assign(gpu_cols.size(), std::vector<PathClass>(nic_cols.size(), PathClass::Unknown));
    }
    for (std::size_t i = 0; i < gpu_cols.size(); ++i) {
        const std::size_t gc = gpu_cols[i].second;
        for (std::size_t j = 0; j < nic_cols.size(); ++j) {
            const std::size_t nc = nic_cols[j];
            const Cell& cell = matrix[gc][nc];
            nd.gpu_nic[i][j] = cell.cls;
            if (matrix[nc][gc].cls != cell.cls) {
                nd.warnings.push_back(source + ":" + std::to_string(row_line[gc]) + ": " + h.devices[gc] + "/"
                                      + h.devices[nc] + " differs from " + h.devices[nc] + "/" + h.devices[gc]
                                      + " (line " + std::to_string(row_line[nc]) + "); using the GPU row");
            }
            // A NIC reached without crossing the SMP interconnect shares the GPU's NUMA node.
            if (nd.nics[j].numa < 0 && nd.gpus[i].numa >= 0 && cell.cls != PathClass::Sys
                && cell.cls != PathClass::Unknown) {
                nd.nics[j].numa = nd.gpus[i].numa;
            }
        }
        for (std::size_t k = i + 1; k < gpu_cols.size(); ++k) {
            const Cell& cell = matrix[gc][gpu_cols[k].second];
            if (cell.cls == PathClass::NvLink) {
                nd.nvlinks.push_back(NodeDescription::NvPair{static_cast<int>(i), static_cast<int>(k), cell.links, 0});
            }
        }
    }
    nd.numa_nodes = max_numa + 1;
    return nd;
}

Result<NodeDescription> read_nvidia_smi_topo_file(const std::string& path) {
    auto text = read_text_file(path);
    if (!text) return fail(text.error());
    return parse_nvidia_smi_topo(*text, path);
}

}  // namespace topo
