// SPDX-License-Identifier: Apache-2.0
#pragma once
/// \file Result<T> and Error: expected failures are values, not exceptions.

#include <cstdint>
#include <string>
#include <utility>
#include <variant>

namespace topo {

/// Error categories. Each maps to one CLI exit code (see cli/exit_codes.hpp).
enum class Errc : std::uint8_t {
    InvalidArgument,  ///< caller passed something impossible (usage)
    NotFound,         ///< a named thing does not exist
    Parse,            ///< input data is malformed (file:line in the message)
    Io,               ///< cannot open/read/write
    Unsupported,      ///< valid input that we do not handle, or missing hardware
    Unsatisfiable,    ///< request can never fit
    Busy,             ///< request cannot fit now
    StaleState,       ///< state built for another topology
    Internal,         ///< a bug
};

[[nodiscard]] const char* errc_name(Errc c) noexcept;

/// An error with an optional source location (file and 1-based line).
struct Error {
    Errc code = Errc::Internal;
    std::string message;
    std::string file;  ///< input file the error is about, empty if none
    int line = 0;      ///< 1-based line in `file`, 0 if not line-specific

    Error() = default;

    Error(Errc c, std::string msg, std::string f = {}, int l = 0)
        : code(c), message(std::move(msg)), file(std::move(f)), line(l) {}

    /// "file:line: message", "file: message" or "message".
    [[nodiscard]] std::string to_string() const;
};

/// Tag to construct an error Result.
struct Unexpected {
    Error error;
};

[[nodiscard]] inline Unexpected fail(Errc c, std::string msg, std::string file = {}, int line = 0) {
    return Unexpected{Error{c, std::move(msg), std::move(file), line}};
}

[[nodiscard]] inline Unexpected fail(Error e) {
    return Unexpected{std::move(e)};
}

/// A minimal std::expected look-alike (C++23's is not usable with clang-tidy 14).
template <class T>
class [[nodiscard]] Result {
public:
    Result(T v) : v_(std::in_place_index<0>, std::move(v)) {}  // NOLINT(google-explicit-constructor)

    Result(Unexpected u)  // NOLINT(google-explicit-constructor)
        : v_(std::in_place_index<1>, std::move(u.error)) {}

    [[nodiscard]] bool has_value() const noexcept { return v_.index() == 0; }

    explicit operator bool() const noexcept { return has_value(); }

    T& value() & { return std::get<0>(v_); }

    const T& value() const& { return std::get<0>(v_); }

    T&& value() && { return std::get<0>(std::move(v_)); }

    T& operator*() & { return value(); }

    const T& operator*() const& { return value(); }

    T* operator->() { return &std::get<0>(v_); }

    const T* operator->() const { return &std::get<0>(v_); }

    [[nodiscard]] const Error& error() const& { return std::get<1>(v_); }

    [[nodiscard]] Error&& error() && { return std::get<1>(std::move(v_)); }

private:
    std::variant<T, Error> v_;
};

/// Result for operations with no value.
struct Ok {};

using Status = Result<Ok>;

}  // namespace topo
