#!/usr/bin/env bash
# Bad input never crashes: usage 64, bad data 65 naming file:line, missing input 66.
set -euo pipefail
TP=$1; FX=$2
. "$(dirname "$0")/lib.sh"

expect_rc 64 "no subcommand" "$TP"
expect_rc 64 "unknown option" "$TP" discover --bogus
expect_rc 64 "discover without inputs" "$TP" discover -o "$TMP/x.json"
expect_rc 66 "missing input file" "$TP" discover --ibnetdiscover "$TMP/nope.txt" -o "$TMP/x.json"
err_has "$TMP/nope.txt"

: > "$TMP/empty.txt"
expect_rc 65 "empty ibnetdiscover" "$TP" discover --ibnetdiscover "$TMP/empty.txt" -o "$TMP/x.json"
err_has "$TMP/empty.txt"
head -c 3000 /dev/urandom > "$TMP/binary.txt"; printf '\0' >> "$TMP/binary.txt"
expect_rc 65 "binary ibnetdiscover" "$TP" discover --ibnetdiscover "$TMP/binary.txt" -o "$TMP/x.json"
head -n 20 "$FX/ibnetdiscover/psmn-x5-qdr.ibnetdiscover.txt" > "$TMP/trunc.txt"
printf 'this is not ibnetdiscover output\n' >> "$TMP/trunc.txt"
expect_rc 65 "garbage line" "$TP" discover --ibnetdiscover "$TMP/trunc.txt" -o "$TMP/x.json"
err_has "$TMP/trunc.txt:21:"
expect_rc 65 "degenerate single-CA dump" "$TP" discover --ibnetdiscover "$FX/ibnetdiscover/topograph-gb200-single-ca.ibnetdiscover.txt" -o "$TMP/x.json"
err_has "topograph-gb200-single-ca.ibnetdiscover.txt"
head -c 200000 "$FX/ibnetdiscover/ufm-lab-small.ibnetdiscover.txt" > /dev/null
# a truncated gzip stream
head -c 50000 "$FX/ibnetdiscover/selene-compute.ibnetdiscover.txt.gz" > "$TMP/cut.txt.gz"
expect_rc 65 "truncated gzip" "$TP" discover --ibnetdiscover "$TMP/cut.txt.gz" -o "$TMP/x.json"

# snapshots
expect_rc 66 "show missing snapshot" "$TP" show "$TMP/none.json"
printf '{"schema": "topoplace.snapshot",\n "version": 1,\n oops}\n' > "$TMP/bad.json"
expect_rc 65 "show corrupt snapshot" "$TP" show "$TMP/bad.json"
err_has "$TMP/bad.json:3:"
printf '{"schema": "topoplace.snapshot", "version": 7}\n' > "$TMP/new.json"
expect_rc 65 "show newer snapshot version" "$TP" show "$TMP/new.json"
err_has "version 7 is not supported: written by a newer topoplace"

# the output file is only replaced when everything succeeded
"$TP" discover --ibnetdiscover "$FX/ibnetdiscover/ufm-lab-small.ibnetdiscover.txt" -o "$TMP/keep.json" 2>/dev/null
before=$(sha256sum < "$TMP/keep.json")
expect_rc 65 "failed discover keeps the old snapshot" "$TP" discover --ibnetdiscover "$TMP/empty.txt" -o "$TMP/keep.json"
eq "old snapshot intact" "$(sha256sum < "$TMP/keep.json")" "$before"
expect_rc 73 "unwritable output" "$TP" discover --ibnetdiscover "$FX/ibnetdiscover/ufm-lab-small.ibnetdiscover.txt" -o /nonexistent-dir/x.json
# the front door (issue 18): an unknown command names itself and lists the commands, also
# with --help after it; --version prints one line and exits 0
expect_rc 64 "unknown command" "$TP" nosuchcmd
err_has "topoplace: unknown command 'nosuchcmd'; commands: discover, show, slurm-conf, place, whatif, health, compile"
expect_rc 64 "unknown command with --help" "$TP" nosuchcmd --help
err_has "unknown command 'nosuchcmd'"
expect_rc 0 "--version" "$TP" --version
eq "--version output" "$(cat "$TMP/out")" "topoplace 0.1.0"
eq "--version stderr" "$(cat "$TMP/err")" ""
finish
