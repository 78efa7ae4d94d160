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

namespace {
/// Length of the well-formed UTF-8 sequence at s[i] (RFC 3629 table 3-7: no overlong
/// forms, no surrogates, nothing above U+10FFFF), 0 if there is none.
std::size_t utf8_len(std::string_view s, std::size_t i) {
    const auto b = [&](std::size_t k) { return static_cast<unsigned char>(s[i + k]); };
    const unsigned c = b(0);
    if (c < 0x80) return 1;
    std::size_t len = 0;
    unsigned lo = 0x80, hi = 0xbf;  // range of the second byte
    if (c >= 0xc2 && c <= 0xdf) {
        len = 2;
    } else if (c >= 0xe0 && c <= 0xef) {
        len = 3;
        if (c == 0xe0) lo = 0xa0;
        if (c == 0xed) hi = 0x9f;
    } else if (c >= 0xf0 && c <= 0xf4) {
        len = 4;
        if (c == 0xf0) lo = 0x90;
        if (c == 0xf4) hi = 0x8f;
    } else {
        return 0;
    }
    if (i + len > s.size() || b(1) < lo || b(1) > hi) return 0;
    for (std::size_t k = 2; k < len; ++k)
        if ((b(k) >> 6) != 0x2) return 0;
    return len;
}

std::string replace_bad_bytes(std::string_view in, bool controls) {
    std::string s(in);
    std::size_t i = 0;
    while (i < s.size()) {
        const auto c = static_cast<unsigned char>(s[i]);
        std::size_t len = utf8_len(s, i);
        if (len == 0 || (controls && ((c < 0x20 && c != '\t') || c == 0x7f))) {
            s[i] = '?';
            len = 1;
        }
        i += len;
    }
    return s;
}
}  // namespace

std::string valid_utf8(std::string_view s) {
    return replace_bad_bytes(s, false);
}

std::string printable_utf8(std::string_view s) {
    return replace_bad_bytes(s, true);
}

}  // namespace topo
