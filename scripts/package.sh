#!/usr/bin/env bash
# Build the Debian package: topoplace_<version>_<arch>.deb in build/release/ (Release build).
#   scripts/package.sh && dpkg -i build/release/topoplace_*.deb
# It holds /usr/bin/topoplace, the SPANK plugin in Slurm's plugin directory, the
# plugstack.conf.d snippet (a conffile), job_submit.lua and the slurm.conf lines in
# /usr/share/topoplace, man pages topoplace(1) and topoplace-spank(8), the docs.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh
cmake --preset release >/dev/null
cmake --build --preset release -j"${JOBS:-2}" --target topoplace topoplace_spank topoplace-nodefeed topo_man
(cd build/release && cpack -G DEB)
ls -l build/release/topoplace_*.deb
