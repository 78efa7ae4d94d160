#!/usr/bin/env bash
# topoplace predict and topoplace calibrate (issue 16, docs/perf-model.md) on a real fabric
# and real nccl-tests outputs; refused inputs name file:line and exit 65.
set -euo pipefail
TP=$1; FX=$2
. "$(dirname "$0")/lib.sh"
N=$FX/nccl-tests
jqe() { jq -e "$@" > /dev/null; }

"$TP" discover --ibnetdiscover "$FX/ibnetdiscover/selene-compute.ibnetdiscover.txt.gz" -o "$TMP/selene.json" 2>/dev/null
# 16 DGX of one scalable unit: the best placement, slowdown 1
expect_rc 0 "predict: one leaf group" "$TP" predict "$TMP/selene.json" --hosts 'luna-[0001-0016]' --tp 8 --pp 2 --dp 8 --json
eq "slowdown in one leaf group" "$(jq '.s_job' "$TMP/out")" 1
# the same job over two scalable units: DP crosses the spines it need not cross
expect_rc 0 "predict: two leaf groups" "$TP" predict "$TMP/selene.json" --hosts 'luna-[0001-0008,0021-0028]' --tp 8 --pp 2 --dp 8 --json
check "slowdown over two leaf groups > 1" jqe '.s_job > 1 and .classes.DP.tier == 2 and .classes.DP.ideal_tier == 1' "$TMP/out"
# a site whose spine uplinks are oversubscribed 8:1 pays more for the same placement (a DP
# ring over 8 hosts in 2 leaf groups puts 2 of its 8 edges on the uplinks: x = 0.25)
printf 'oversubscription: [1, 1, 8, 8]\n' > "$TMP/site.yaml"
expect_rc 0 "predict with a site model" "$TP" predict "$TMP/selene.json" --hosts 'luna-[0001-0008,0021-0028]' --tp 8 --pp 2 --dp 8 --model "$TMP/site.yaml" --json
check "oversubscribed: slower" jqe '.s_job > 1.01' "$TMP/out"
expect_rc 0 "predict: a degraded host" "$TP" predict "$TMP/selene.json" --hosts 'luna-[0001-0016]' --degraded luna-0003=1.34
check "degraded host slows the job to its pace" grep -q "Slowdown=1.3400" "$TMP/out"
check "ETTR printed" grep -q "ETTR=0\.9" "$TMP/out"

# calibrate on real outputs (NVIDIA DeepOps docs: 2 and 4 DGX A100 on HDR InfiniBand). These
# two are not the same test in two placements: this shows the fit and its residuals on real
# files, not a calibration of DeepOps' cluster.
expect_rc 0 "calibrate on real nccl-tests outputs" "$TP" calibrate --leaf "$N/deepops_nvidia-network-operator.md" --pod "$N/deepops_slurm-perf-cluster.md" -o "$TMP/fitted.yaml"
err_has "tier_collective[2] = "
err_has "residual"
err_has "no run across pods (--cross-pod)"
check "fitted model file reads back" "$TP" predict "$TMP/selene.json" --hosts 'luna-[0001-0016]' --model "$TMP/fitted.yaml"

# nccl-tests as sites publish it (issue 28): mpirun --tag-output tags inside rows, a page whose
# device list wraps onto lines of bare numbers; read, and what was skipped is said
expect_rc 0 "calibrate on mpirun --tag-output output" "$TP" calibrate --leaf "$N/ocihpc_Troubleshooting.md" --pod "$N/topoplace-mpirun-tag-output-oci-h100x16.log" --min-mib 1024 -o "$TMP/tagged.yaml"
err_has "warning: $N/topoplace-mpirun-tag-output-oci-h100x16.log: mpirun --tag-output tags"
err_has "tier_collective[2] = 1.0000 from 5 message size(s)"
expect_rc 0 "calibrate on a page with a wrapped device list" "$TP" calibrate --leaf "$N/topoplace-markdown-wrapped-rank-list-dgxa100.md@1" --pod "$N/topoplace-markdown-wrapped-rank-list-dgxa100.md@2" -o "$TMP/wrapped.yaml"
err_has "lines 52-53: 2 lines of bare numbers skipped"

# refused: not nccl-tests output; a truncated row; a bad model file
expect_rc 65 "calibrate on an ibnetdiscover dump" "$TP" calibrate --leaf "$FX/ibnetdiscover/ufm-lab-small.ibnetdiscover.txt"
err_has "ufm-lab-small.ibnetdiscover.txt:1: not nccl-tests output"
head -8 "$N/ocihpc_Troubleshooting.md" > /dev/null
{ sed -n '/#       size/,/^  2147483648/p' "$N/ocihpc_Troubleshooting.md"; echo "  4294967296    1073741824     float     sum      -1  17294.2"; } > "$TMP/cut.txt"
expect_rc 65 "a truncated result row" "$TP" calibrate --leaf "$TMP/cut.txt"
err_has "$TMP/cut.txt:5: a result row needs 4 or 8 time/algbw/busbw/error columns"
# topoplace status: tests/cli/test_status.sh

printf 'fabric: ib-ar\noversubscription: [1, 1, 0.5, 7]\n' > "$TMP/bad.yaml"
expect_rc 65 "a model file out of range" "$TP" predict "$TMP/selene.json" --hosts 'luna-[0001-0002]' --model "$TMP/bad.yaml"
err_has "$TMP/bad.yaml:2: oversubscription[2]: 0.5 is out of range"
finish
