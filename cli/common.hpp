// SPDX-License-Identifier: Apache-2.0
#pragma once
// Shared CLI plumbing: sysexits-style exit codes and error printing.

#include <cstdio>
#include <fstream>
#include <sstream>
#include <string>

#include <topo/result.hpp>

namespace topo::cli {

enum ExitCode : int {
    kOk = 0,
    kUnsatisfiable = 1,  // a request that cannot fit (place)
    kUsage = 64,         // EX_USAGE
    kDataErr = 65,       // EX_DATAERR: bad input data
    kNoInput = 66,       // EX_NOINPUT: cannot open an input file
    kUnavailable = 69,   // EX_UNAVAILABLE: e.g. no InfiniBand device
    kSoftware = 70,      // EX_SOFTWARE: internal error
    kCantCreate = 73,    // EX_CANTCREAT: cannot write the output
};

inline int exit_code_for(const Error& e) {
    switch (e.code) {
        case Errc::InvalidArgument: return kUsage;
        case Errc::Parse: return kDataErr;
        case Errc::Io: return kNoInput;
        case Errc::Unsupported: return kUnavailable;
        case Errc::NotFound: return kDataErr;
        case Errc::Unsatisfiable:
        case Errc::Busy: return kUnsatisfiable;
        case Errc::StaleState: return kDataErr;
        case Errc::Internal: return kSoftware;
    }
    return kSoftware;
}

/// The whole of a (small) input file: Io "cannot open PATH" / "cannot read PATH".
inline Result<std::string> read_text_file(const std::string& path) {
    std::ifstream f(path, std::ios::binary);
    if (!f) return fail(Errc::Io, "cannot open " + path);
    std::ostringstream ss;
    ss << f.rdbuf();
    if (f.bad()) return fail(Errc::Io, "cannot read " + path);
    return ss.str();
}

/// Print "topoplace: <error>" on stderr and return the exit code for it.
inline int report(const Error& e) {
    std::fprintf(stderr, "topoplace: %s\n", e.to_string().c_str());
    return exit_code_for(e);
}

}  // namespace topo::cli
