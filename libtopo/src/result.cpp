// SPDX-License-Identifier: Apache-2.0
#include <topo/result.hpp>

namespace topo {

const char* errc_name(Errc c) noexcept {
    switch (c) {
        case Errc::InvalidArgument: return "invalid argument";
        case Errc::NotFound: return "not found";
        case Errc::Parse: return "parse error";
        case Errc::Io: return "I/O error";
        case Errc::Unsupported: return "unsupported";
        case Errc::Unsatisfiable: return "unsatisfiable";
        case Errc::Busy: return "busy";
        case Errc::StaleState: return "stale state";
        case Errc::Internal: return "internal error";
    }
    return "unknown error";
}

std::string Error::to_string() const {
    std::string out;
    if (!file.empty()) {
        out += file;
        if (line > 0) {
            out += ':';
            out += std::to_string(line);
        }
        out += ": ";
    }
    out += message;
    return out;
}

}  // namespace topo
