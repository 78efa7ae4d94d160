// SPDX-License-Identifier: Apache-2.0
#include <zlib.h>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <memory>
#include <sstream>

#include <topo/atomic_file.hpp>
#include <topo/errno_text.hpp>
#include <topo/text_input.hpp>

#include <unistd.h>

namespace topo {

namespace {

struct FileCloser {
    void operator()(std::FILE* f) const noexcept { std::fclose(f); }
};

struct GzCloser {
    void operator()(gzFile_s* f) const noexcept { gzclose(f); }
};

Result<std::string> gunzip_file(const std::string& path, std::size_t max_bytes) {
    std::unique_ptr<gzFile_s, GzCloser> gz(gzopen(path.c_str(), "rb"));
    if (!gz) {
        return fail(Errc::Io, std::string("cannot open: ") + errno_text(errno), path);
    }
    std::string out;
    std::string buf(1 << 16, '\0');
    for (;;) {
        const int n = gzread(gz.get(), buf.data(), static_cast<unsigned>(buf.size()));
        if (n < 0) {
            int err = 0;
            const char* msg = gzerror(gz.get(), &err);
            return fail(Errc::Parse, std::string("corrupt gzip data: ") + (msg ? msg : "?"), path);
        }
        if (n == 0) {
            break;
        }
        out.append(buf.data(), static_cast<std::size_t>(n));
        if (out.size() > max_bytes) {
            return fail(Errc::Parse, "file too large after decompression", path);
        }
    }
    // gzread returns 0 both at a clean end and on a truncated stream.
    int err = 0;
    gzerror(gz.get(), &err);
    if (err != Z_OK && err != Z_STREAM_END) {
        return fail(Errc::Parse, "truncated gzip stream", path);
    }
    return out;
}

}  // namespace

Result<std::string> read_text_file(const std::string& path, std::size_t max_bytes) {
    std::unique_ptr<std::FILE, FileCloser> f(std::fopen(path.c_str(), "rb"));
    if (!f) {
        return fail(Errc::Io, std::string("cannot open: ") + errno_text(errno), path);
    }
    unsigned char magic[2] = {0, 0};
    const std::size_t got = std::fread(magic, 1, 2, f.get());
    if (got == 2 && magic[0] == 0x1f && magic[1] == 0x8b) {
        f.reset();
        return gunzip_file(path, max_bytes);
    }
    std::rewind(f.get());
    std::string out;
    std::string buf(1 << 16, '\0');
    for (;;) {
        const std::size_t n = std::fread(buf.data(), 1, buf.size(), f.get());
        out.append(buf.data(), n);
        if (out.size() > max_bytes) {
            return fail(Errc::Parse, "file too large", path);
        }
        if (n < buf.size()) {
            if (std::ferror(f.get()) != 0) {
                return fail(Errc::Io, "read error", path);
            }
            break;
        }
    }
    return out;
}

Status write_text_file(const std::string& path, std::string_view content) {
    if (path == "-") {
        std::fwrite(content.data(), 1, content.size(), stdout);
        std::fflush(stdout);
        return Ok{};
    }
    return write_file_atomic(path, content, 0644);
}

std::vector<std::string_view> split_lines(std::string_view text) {
    std::vector<std::string_view> lines;
    std::size_t start = 0;
    while (start < text.size()) {
        std::size_t end = text.find('\n', start);
        if (end == std::string_view::npos) {
            end = text.size();
        }
        std::string_view line = text.substr(start, end - start);
        if (!line.empty() && line.back() == '\r') {
            line.remove_suffix(1);
        }
        lines.push_back(line);
        start = end + 1;
    }
    return lines;
}

bool looks_binary(std::string_view text) noexcept {
    const std::size_t n = text.size() < 8192 ? text.size() : 8192;
    std::size_t bad = 0;
    for (std::size_t i = 0; i < n; ++i) {
        const auto c = static_cast<unsigned char>(text[i]);
        if (c == 0) {
            return true;
        }
        if (c < 0x20 && c != '\n' && c != '\r' && c != '\t' && c != 0x1b && c != '\f') {
            ++bad;
        }
    }
    return n > 0 && bad * 10 > n;
}

std::string_view trim(std::string_view s) noexcept {
    const char* ws = " \t\r\n\v\f";
    const auto b = s.find_first_not_of(ws);
    if (b == std::string_view::npos) {
        return {};
    }
    const auto e = s.find_last_not_of(ws);
    return s.substr(b, e - b + 1);
}

std::string ascii_lower(std::string_view s) {
    std::string o(s);
    for (char& c : o) {
        if (c >= 'A' && c <= 'Z') c = static_cast<char>(c - 'A' + 'a');
    }
    return o;
}

std::string ascii_upper(std::string_view s) {
    std::string o(s);
    for (char& c : o) {
        if (c >= 'a' && c <= 'z') c = static_cast<char>(c - 'a' + 'A');
    }
    return o;
}

std::vector<std::string_view> split_words(std::string_view s) {
    std::vector<std::string_view> out;
    std::size_t i = 0;
    while (i < s.size()) {
        while (i < s.size() && (s[i] == ' ' || s[i] == '\t')) ++i;
        std::size_t j = i;
        while (j < s.size() && s[j] != ' ' && s[j] != '\t') ++j;
        if (j > i) out.push_back(s.substr(i, j - i));
        i = j;
    }
    return out;
}

}  // namespace topo
