// SPDX-License-Identifier: Apache-2.0
#pragma once
/// \file Reading whole input files (gzip detected by magic) and splitting lines.

#include <string>
#include <string_view>
#include <vector>

#include <topo/result.hpp>

namespace topo {

/// Read a file; gunzip it when it starts with the gzip magic. Errors: Io, Parse
/// (corrupt gzip). `max_bytes` guards against absurd inputs.
[[nodiscard]] Result<std::string> read_text_file(const std::string& path, std::size_t max_bytes = std::size_t{1} << 31);
/// Write atomically (temp file + rename). Errors: Io.
[[nodiscard]] Status write_text_file(const std::string& path, std::string_view content);
/// Split into lines, stripping a trailing '\r' on each; lines keep their 1-based
/// number as index+1. A final empty line after the last '\n' is not included.
[[nodiscard]] std::vector<std::string_view> split_lines(std::string_view text);
/// Words separated by runs of blanks (spaces and tabs).
[[nodiscard]] std::vector<std::string_view> split_words(std::string_view line);
/// True when the text has NUL bytes or is mostly non-printable (a binary file).
[[nodiscard]] bool looks_binary(std::string_view text) noexcept;
/// Trim ASCII whitespace.
[[nodiscard]] std::string_view trim(std::string_view s) noexcept;
/// ASCII case mapping (locale-independent: other bytes are kept).
[[nodiscard]] std::string ascii_lower(std::string_view s);
[[nodiscard]] std::string ascii_upper(std::string_view s);
/// `s` with every byte that is not part of valid UTF-8 replaced by '?' (a JSON document
/// that Slurm wrote with a user's raw bytes in a string, made readable).
[[nodiscard]] std::string valid_utf8(std::string_view s);
/// valid_utf8(s) with every control character but TAB also replaced by '?': text that
/// users control (job names, comments) made safe for JSON, terminal tables and labels.
[[nodiscard]] std::string printable_utf8(std::string_view s);

}  // namespace topo
