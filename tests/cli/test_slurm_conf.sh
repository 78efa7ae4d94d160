#!/usr/bin/env bash
# topoplace slurm-conf: block, yaml, --weights, --gres, options and exit codes.
#   test_slurm_conf.sh TOPOPLACE FIXTURES
set -euo pipefail
T=$1
FIX=$2
. "$(dirname "$0")/lib.sh"

"$T" discover --spec "$FIX/specs/gb200-nvl72x4.yaml" -o "$TMP/nvl.json" 2>/dev/null
"$T" discover --ibnetdiscover "$FIX/ibnetdiscover/psmn-x5-qdr.ibnetdiscover.txt" \
  --node-name-map "$FIX/ibnetdiscover/psmn-x5-qdr.guid-hostname.map" -o "$TMP/psmn.json" 2>/dev/null
"$T" discover --ibnetdiscover "$FIX/lab/lab-4x4.ibnetdiscover.txt" \
  --nvidia-smi-topo "n[001-008]=$FIX/nvidia-smi-topo/oyanghd-dgx-a100-epyc7742-nps4.topo-m.txt" \
  --nvidia-smi-topo "n[009-016]=$FIX/nvidia-smi-topo/mlsys-tutorial-h800x4-17nic-ansi.topo-m.txt" \
  -o "$TMP/lab.json" 2>/dev/null

# ---- block
expect_rc 0 "block on GB200 NVL72 x4" "$T" slurm-conf "$TMP/nvl.json" --format block --slurm-version 26.05
eq "BlockSizes (16 of 18 usable)" "$(grep '^BlockSizes=' "$TMP/out")" "BlockSizes=16,32,64"
eq "block lines" "$(grep -c '^BlockName=rack0[1-4] Nodes=gb' "$TMP/out")" "4"
check "labelled 24.05" grep -q 'Minimum Slurm version: 24.05' "$TMP/out"
expect_rc 0 "block with --block-sizes 18,36,72" "$T" slurm-conf "$TMP/nvl.json" --format block --slurm-version 26.05 --block-sizes 18,36,72
eq "BlockSizes given" "$(grep '^BlockSizes=' "$TMP/out")" "BlockSizes=18,36,72"
expect_rc 64 "--block-sizes 16,24 (not base*2^k)" "$T" slurm-conf "$TMP/nvl.json" --format block --slurm-version 26.05 --block-sizes 16,24
err_has "24 is not the base size 16 times a power of two"
expect_rc 64 "--block-sizes x" "$T" slurm-conf "$TMP/nvl.json" --format block --slurm-version 26.05 --block-sizes x
expect_rc 0 "block by leaf group on psmn-x5" "$T" slurm-conf "$TMP/psmn.json" --format block --slurm-version 26.05
err_has "for unequal leaf groups topology/tree fits better"
expect_rc 64 "--block-source nvl without NVLink domains" "$T" slurm-conf "$TMP/psmn.json" --format block --slurm-version 26.05 --block-source nvl
err_has "no multi-node NVLink domain"

# missing rack: rack03 absent -> placeholder with fake nodes, warned on stderr
cat > "$TMP/gap.yaml" <<'Y'
nodes:
  - names: gb[001-054]
nvl_domains:
  - {name: rack01, nodes: "gb[001-018]", usable: 16}
  - {name: rack02, nodes: "gb[019-036]", usable: 16}
  - {name: rack04, nodes: "gb[037-054]", usable: 16}
Y
"$T" discover --spec "$TMP/gap.yaml" -o "$TMP/gap.json" 2>/dev/null
expect_rc 0 "block with a missing rack" "$T" slurm-conf "$TMP/gap.json" --format block --slurm-version 26.05
check "placeholder block rack03" grep -q '^BlockName=rack03 Nodes=fake-rack03-\[01-16\]$' "$TMP/out"
err_has "missing block(s) in the numbering (rack03)"
expect_rc 0 "--no-placeholders --fake-prefix" "$T" slurm-conf "$TMP/gap.json" --format block --slurm-version 26.05 --no-placeholders
eq "no placeholder" "$(grep -c '^BlockName=' "$TMP/out")" "3"

# ---- yaml, read back by topoplace's own Slurm topology importer
expect_rc 0 "yaml on GB200 NVL72 x4" "$T" slurm-conf "$TMP/nvl.json" --format yaml --slurm-version 26.05 -o "$TMP/nvl.topology.yaml"
check "labelled 25.05" grep -q 'Minimum Slurm version: 25.05' "$TMP/nvl.topology.yaml"
eq "block is cluster_default" "$(grep -A1 'topology: "block"' "$TMP/nvl.topology.yaml" | tail -1 | tr -d ' ')" "cluster_default:true"
expect_rc 0 "discover --slurm-topology on the generated yaml" "$T" discover --slurm-topology "$TMP/nvl.topology.yaml" -o "$TMP/back.json"
expect_rc 0 "show the re-imported snapshot" "$T" show "$TMP/back.json" --json
check "72 hosts back" grep -q '"hosts": *72' "$TMP/out"
expect_rc 0 "yaml on psmn-x5, block default" "$T" slurm-conf "$TMP/psmn.json" --format yaml --slurm-version 26.05 --default-topology block
eq "two topologies" "$(grep -c '^- topology:' "$TMP/out")" "2"
expect_rc 0 "yaml on psmn-x5, tree only" "$T" slurm-conf "$TMP/psmn.json" --format yaml --slurm-version 26.05
eq "one topology" "$(grep -c '^- topology:' "$TMP/out")" "1"

# ---- node lines with weights, gres.conf
expect_rc 0 "tree + --features --weights --gres" "$T" slurm-conf "$TMP/lab.json" --format tree \
  --features "$TMP/nodes.conf" --weights --gres "$TMP/gres.conf" -o "$TMP/topology.conf"
check "weights: 4-GPU groups lighter" grep -q '^NodeName=n\[009-012\] Features=lg_g003,sp_spine Weight=1$' "$TMP/nodes.conf"
check "weights: 8-GPU groups heavier" grep -q '^NodeName=n\[001-004\] Features=lg_g001,sp_spine Weight=2$' "$TMP/nodes.conf"
check "gres: Links from the DGX A100 matrix" grep -q '^NodeName=n\[001-008\] Name=gpu File=/dev/nvidia0 Links=-1,12,12,12,12,12,12,12$' "$TMP/gres.conf"
eq "gres: 4 lines for the H800 x4 hosts" "$(grep -c '^NodeName=n\[009-016\] Name=gpu File=/dev/nvidia[0-3] Links=' "$TMP/gres.conf")" "4"
expect_rc 0 "--gres - --gpu-type --gpu-file --no-links" "$T" slurm-conf "$TMP/lab.json" --gres - -o /dev/null \
  --gpu-type h100 --gpu-file '/lab/nvidia{index}' --no-links
check "compressed File range" grep -q '^NodeName=n\[001-008\] Name=gpu Type=h100 File=/lab/nvidia\[0-7\]$' "$TMP/out"
expect_rc 64 "--weights without --features" "$T" slurm-conf "$TMP/lab.json" --weights
err_has "--weights adds Weight="
expect_rc 64 "two outputs to one file" "$T" slurm-conf "$TMP/lab.json" -o "$TMP/x" --gres "$TMP/x"
expect_rc 64 "--gres on a fabric without GPUs" "$T" slurm-conf "$TMP/psmn.json" --gres - -o /dev/null
err_has "no host in this snapshot has a GPU"
expect_rc 64 "--gpu-file without {index}" "$T" slurm-conf "$TMP/lab.json" --gres - --gpu-file /dev/nvidia

# gres from real hwloc XMLs (only when topoplace was built with hwloc)
if "$T" discover --ibnetdiscover "$FIX/lab/lab-4x4.ibnetdiscover.txt" \
     --hwloc "n[001-002]=$FIX/hwloc/hwloc-nvidia-dgx2h-v100x16-nvswitch.xml" \
     --hwloc "n[003-004]=$FIX/hwloc/hwloc-ibm-minsky-power8-p100x4-nvlink.xml" -o "$TMP/hw.json" 2>/dev/null; then
  expect_rc 0 "gres from hwloc (DGX-2 NVSwitch, Minsky NVLink pairs)" "$T" slurm-conf "$TMP/hw.json" --gres - -o /dev/null
  check "Minsky: GPU0 has 2 NVLinks to GPU1 only" grep -q '^NodeName=n\[003-004\] Name=gpu Type=p100 File=/dev/nvidia0 Links=-1,2,0,0$' "$TMP/out"
  check "Minsky: GPU3 has 2 NVLinks to GPU2 only" grep -q '^NodeName=n\[003-004\] Name=gpu Type=p100 File=/dev/nvidia3 Links=0,0,2,-1$' "$TMP/out"
  eq "DGX-2: 16 GPU lines, -1 on the diagonal" "$(grep -c '^NodeName=n\[001-002\] Name=gpu Type=v100 File=/dev/nvidia[0-9]* Links=' "$TMP/out")" "16"
  check "DGX-2: GPU15 Links" grep -q 'File=/dev/nvidia15 Links=6,6,6,6,6,6,6,6,6,6,6,6,6,6,6,-1$' "$TMP/out"
else
  echo "skip - gres from hwloc: topoplace built without hwloc"
fi

# ---- the Slurm release the files are for (--slurm-version; default scontrol --version)
expect_rc 64 "block for Slurm 22.05 (no topology/block there)" "$T" slurm-conf "$TMP/nvl.json" --format block --slurm-version 22.05
err_has "Slurm 22.05 has no topology/block"
expect_rc 64 "yaml for Slurm 24.11 (topology.yaml is 25.05+)" "$T" slurm-conf "$TMP/nvl.json" --format yaml --slurm-version 24.11
err_has "Slurm 24.11 reads no topology.yaml"
expect_rc 0 "block for Slurm 24.11" "$T" slurm-conf "$TMP/nvl.json" --format block --slurm-version 24.11.5
err_has "ExclusiveTopo=YES"
expect_rc 0 "block for Slurm 26.05" "$T" slurm-conf "$TMP/nvl.json" --format block --slurm-version 26.05
err_has "Exclusive=TOPO"
expect_rc 0 "tree for Slurm 22.05" "$T" slurm-conf "$TMP/psmn.json" --format tree --slurm-version 22.05
for v in 21.08 22.5 24.13 x 24.11x 2x.11; do
  expect_rc 64 "--slurm-version '$v' refused" "$T" slurm-conf "$TMP/nvl.json" --format tree --slurm-version "$v"
done
# default: the release of the scontrol on PATH, else the newest
mkdir -p "$TMP/fakebin"
printf '#!/bin/sh\necho "slurm 22.05.8"\n' > "$TMP/fakebin/scontrol"; chmod +x "$TMP/fakebin/scontrol"
expect_rc 64 "block with scontrol 22.05 on PATH" env PATH="$TMP/fakebin:$PATH" "$T" slurm-conf "$TMP/nvl.json" --format block
err_has "release from scontrol --version"
printf '#!/bin/sh\necho "slurm 26.05.5"\n' > "$TMP/fakebin/scontrol"
expect_rc 0 "yaml with scontrol 26.05 on PATH" env PATH="$TMP/fakebin:$PATH" "$T" slurm-conf "$TMP/nvl.json" --format yaml
rm "$TMP/fakebin/scontrol"
expect_rc 0 "yaml without scontrol on PATH: the newest release" env PATH="$TMP/fakebin" "$T" slurm-conf "$TMP/nvl.json" --format yaml

# ---- bad input
printf 'nodes:\n  - names: n[1-4]\n' > "$TMP/nofabric.yaml"
"$T" discover --spec "$TMP/nofabric.yaml" -o "$TMP/nofabric.json" 2>/dev/null
expect_rc 64 "block on a cluster without NVLink domains or fabric" "$T" slurm-conf "$TMP/nofabric.json" --format block --slurm-version 26.05
err_has "no host group"
expect_rc 64 "yaml on a cluster with nothing to write" "$T" slurm-conf "$TMP/nofabric.json" --format yaml --slurm-version 26.05
printf '{"schema": "topoplace.snapshot", "version": 1,\n "hosts": [tru\n' > "$TMP/bad.json"
expect_rc 65 "corrupt snapshot" "$T" slurm-conf "$TMP/bad.json" --format block --slurm-version 26.05
err_has "bad.json:"
expect_rc 73 "unwritable output" "$T" slurm-conf "$TMP/nvl.json" --format block --slurm-version 26.05 -o "$TMP/no/such/dir/topology.conf"

finish
