// SPDX-License-Identifier: Apache-2.0
#pragma once
/// \file The one way topoplace replaces a file (issue 17 finding 5, issue 18 item 4).
///
/// A reader (slurmctld at reconfigure, the plugin, a concurrent run) sees the old file or the
/// new one, never half of one, and root writing into a directory others can write to cannot
/// be turned against another file:
///  - the target, if it exists, must be a regular file: a symbolic link, a device (/dev/null),
///    a directory, a FIFO or a socket is refused with a message, nothing written;
///  - the temporary file is created next to the target with a random name and
///    O_CREAT|O_EXCL (mkostemp), so a planted link or file at a guessable name is never
///    followed or reused, and two concurrent runs never share one;
///  - the content is written in full, the mode set with fchmod (exactly `mode`, whatever the
///    umask), fsync'd, renamed over the target, and the directory fsync'd;
///  - on any error the temporary file is removed and the target left as it was;
///  - the path "/dev/null" discards the content (nothing is opened or replaced).

#include <string>
#include <string_view>

#include <topo/result.hpp>

#include <sys/types.h>

namespace topo {

/// Replace `path` with `content` as above. Errors: Io (naming `path` and the reason).
[[nodiscard]] Status write_file_atomic(const std::string& path, std::string_view content, mode_t mode = 0644);

}  // namespace topo
