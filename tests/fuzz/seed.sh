#!/usr/bin/env bash
# The seed corpus of a libFuzzer target: real fixtures of the parser's own format.
#   tests/fuzz/seed.sh FUZZER_NAME DIR     (run from the repository root; needs build/dev
#   for the snapshot seeds). Used by scripts/test.sh and scripts/fuzz-campaign.sh.
set -uo pipefail
name=$1; work=$2
case "$name" in
  fuzz_ibnetdiscover) cp tests/fixtures/ibnetdiscover/ufm-lab-small.ibnetdiscover.txt \
                         tests/fixtures/ibnetdiscover/superbench-faked-hdr-3tier.ibnetdiscover-f.txt \
                         tests/fixtures/ibnetdiscover/plafrim2-subnet1-mixed.ibnetdiscover-s-p.txt \
                         tests/fixtures/ibnetdiscover/topoplace-ibdiagnet2-ndr-labels.ibnetdiscover \
                         tests/fixtures/ibnetdiscover/topoplace-prompt-bom.ibnetdiscover.txt \
                         tests/fixtures/ibnetdiscover/ibtopotool-test3.ibnetdiscover.txt \
                         tests/fixtures/ibnetdiscover/topoplace-gen-8rail-converged-storage-leaf.ibnetdiscover.txt \
                         tests/fixtures/ibnetdiscover/topoplace-2tier-hosts-on-spine.ibnetdiscover.txt "$work"/
                      # the director fabric, cut to its first 40,000 bytes (a seed over 400 kB slows libFuzzer)
                      head -c 40000 tests/fixtures/ibnetdiscover/topoplace-director-hdr-partial-uplinks.ibnetdiscover.txt \
                         > "$work"/topoplace-director-hdr-partial-uplinks.head ;;
  fuzz_nvidia_smi)    cp tests/fixtures/nvidia-smi-topo/*.txt "$work"/ ;;
  fuzz_slurm_topology) cp tests/fixtures/slurm-topology/nstda-tara-dgx1.topology.conf \
                         tests/fixtures/slurm-topology/slurm-testsuite-block-32.topology.conf \
                         tests/fixtures/slurm-topology/slurm-manpage-example.topology.yaml \
                         tests/fixtures/slurm-topology/topograph-expected-block-nvl.topology.conf \
                         tests/fixtures/slurm-conf/check/tree-overflow.conf \
                         tests/fixtures/slurm-conf/check/tree-loop.conf \
                         tests/fixtures/slurm-conf/check/block-small.conf \
                         tests/fixtures/slurm-conf/check/good.yaml "$work"/ ;;
  fuzz_hostlist)      printf 'gpu[001-004,007],login1' > "$work/a"; printf 'rack[1-2]-n[01-02]' > "$work/b" ;;
  fuzz_snapshot)      build/dev/cli/topoplace discover --ibnetdiscover tests/fixtures/ibnetdiscover/ufm-lab-small.ibnetdiscover.txt \
                         -o "$work/lab.json" 2>/dev/null || true ;;
  fuzz_snapshot_bin)  build/dev/cli/topoplace discover --spec tests/fixtures/specs/gb200-nvl72x4.yaml --compiled \
                         -o "$work/s.json" 2>/dev/null && rm -f "$work/s.json" || true ;;
  fuzz_cluster_spec)  cp tests/fixtures/specs/*.yaml "$work"/ ;;
  fuzz_node_name_map) cp tests/fixtures/ibnetdiscover/psmn-x5-qdr.guid-hostname.map "$work"/ ;;
  fuzz_nccl_topo)     cp tests/fixtures/nccl-topo/*.xml "$work"/ 2>/dev/null || true ;;
  fuzz_state)         cp tests/fixtures/placement/*.txt tests/fixtures/placement/*.json "$work"/ 2>/dev/null || true
                      printf 'NodeName=n001 State=IDLE+DRAIN Gres=gpu:4 GresUsed=gpu:0 Reason=x\n' > "$work/s1" ;;
  fuzz_state_feed)    # the valid feed itself, and a count field's neighbourhood overwritten
                      printf '\000' > "$work/valid"; printf '\040\377\377\377\177' > "$work/counts"
                      printf '\300\000\000\000\000\000\000\000\000' > "$work/tail" ;;
  fuzz_service)       printf 'topoplace-service 1\nsnapshot=/etc/slurm/topoplace.json\nhealth=\nnodes=4\nexclusive=exclusive\nmode=pack\nmax_tier=-1\nnvl=0\nsegment=0\nwait=300\n' > "$work/req"
                      printf 'topoplace-service 1\nkind=planned\nenv.TOPOPLACE_CONSTRAINT=lg_g001\ntext=pack\n' > "$work/rep" ;;
  fuzz_perf_inputs)  cp tests/fixtures/nccl-tests/superbench_nccl_alltoall.log tests/fixtures/nccl-tests/ocihpc_Troubleshooting.md \
                         tests/fixtures/nccl-tests/topoplace-mpirun-tag-output-oci-h100x16.log \
                         tests/fixtures/nccl-tests/topoplace-markdown-wrapped-rank-list-dgxa100.md "$work"/
                      printf 'fabric: roce-ecmp\noversubscription: [1, 1, 1, 7]\nphi: {DP: 0.05}\n' > "$work/model.yaml" ;;
  fuzz_trace)         cp tests/fixtures/failures/*.csv "$work"/
                      for t in tests/fixtures/traces/*; do head -c 3000 "$t" > "$work/$(basename "$t")"; done
                      cp tests/fixtures/traces/topoplace-sacct-tab-format-all-24.11.tsv "$work"/sacct-tab-format-all.whole.tsv ;;
esac
