#!/usr/bin/env bash
# The Debian package, built for real from a build tree with cpack, then taken apart with
# dpkg-deb and used from the extracted tree:
#   test_deb.sh BUILD_DIR FIXTURES
# control fields (name, version, shlibs dependencies, the Slurm release the plugin is tied
# to), file list and modes, conffiles, the plugstack snippet naming the plugin where the
# package puts it, the extracted CLI building and showing a snapshot of a real fabric, and
# both man pages rendering. Prints "N passed, N failed".
set -uo pipefail
BUILD="$(readlink -f "$1")"; FIX="$(readlink -f "$2")"
pass=0; fail=0
ok()  { echo "ok   $1"; pass=$((pass + 1)); }
bad() { echo "FAIL $1"; [ -n "${2:-}" ] && printf '%s\n' "$2" | sed 's/^/     /' | head -30; fail=$((fail + 1)); }
for t in cpack dpkg-deb; do command -v "$t" >/dev/null || { echo "SKIP: $t not installed"; exit 77; }; done

WORK=$(mktemp -d); trap 'rm -rf "$WORK"' EXIT
out=$(cd "$WORK" && cpack --config "$BUILD/CPackConfig.cmake" -G DEB -B "$WORK/out" 2>&1)
deb=$(ls "$WORK"/out/topoplace_*.deb 2>/dev/null | head -1)
if [ -n "$deb" ]; then ok "cpack -G DEB wrote $(basename "$deb")"; else bad "cpack -G DEB" "$out"; echo "$pass passed, $fail failed"; exit 1; fi

field() { dpkg-deb -f "$deb" "$1"; }
ver=$("$BUILD/cli/topoplace" --version | awk '{print $2}')
[ "$(field Package)" = topoplace ] && [ "$(field Version)" = "$ver" ] && [ "$(field Architecture)" = "$(dpkg --print-architecture)" ] \
  && ok "control: Package topoplace, Version $ver (= topoplace --version), Architecture $(field Architecture)" \
  || bad "control Package/Version/Architecture" "$(dpkg-deb -I "$deb")"
dep=$(field Depends)
if grep -q 'libhwloc15' <<<"$dep" && grep -q 'libibnetdisc5' <<<"$dep" && grep -q 'libc6' <<<"$dep"; then ok "Depends from dpkg-shlibdeps: $dep"
else bad "Depends lists the shared libraries the binaries use" "$dep"; fi
if [ -r /usr/include/slurm/slurm_version.h ]; then
  hex=$(awk '/define SLURM_VERSION_NUMBER/ {print $3}' /usr/include/slurm/slurm_version.h)
  mm=$(printf '%d.%02d' $(( hex >> 16 & 255 )) $(( hex >> 8 & 255 )))
  brk=$(field Breaks)
  case "$(basename "$deb")" in *"+slurm${mm}_"*) ok "file name names the Slurm release: $(basename "$deb")" ;;
    *) bad "file name names the Slurm release ($mm)" "$(basename "$deb")" ;; esac
  if grep -q 'install the topoplace package built for that release' <<<"$(dpkg-deb -f "$deb" Description)"; then ok "Description says which package to install on another release"
  else bad "Description says which package to install on another release"; fi
  if grep -q "slurmd (<< $mm)" <<<"$brk" && grep -Eq "slurmd \(>= [0-9]+\.[0-9]+\)" <<<"$brk"; then ok "Breaks: Slurm releases other than $mm, which the plugin was built for ($brk)"
  else bad "Breaks names the Slurm release the plugin is built for ($mm)" "$brk"; fi
fi
[ "$(field Section)" = admin ] && [ -n "$(field Description)" ] && ok "Section admin, a Description" || bad "Section/Description" "$(dpkg-deb -I "$deb")"

list=$(dpkg-deb -c "$deb")
want=(./usr/bin/topoplace ./usr/lib/x86_64-linux-gnu/slurm-wlm/topoplace.so ./etc/slurm/plugstack.conf.d/topoplace.conf
      ./usr/share/topoplace/job_submit.lua ./usr/share/topoplace/slurm.conf.topoplace
      ./usr/share/man/man1/topoplace.1.gz ./usr/share/man/man8/topoplace-spank.8.gz
      ./usr/share/doc/topoplace/copyright ./usr/share/doc/topoplace/spank.md
      ./usr/sbin/topoplace-nodefeed ./lib/systemd/system/topoplace-nodefeed.service
      ./usr/share/man/man8/topoplace-nodefeed.8.gz)
missing=(); for f in "${want[@]}"; do grep -q " $f\$" <<<"$list" || missing+=("$f"); done
if [ ${#missing[@]} = 0 ]; then ok "files: ${#want[@]} expected paths present ($(wc -l <<<"$list") entries)"; else bad "files missing: ${missing[*]}" "$list"; fi
mode() { grep " $1\$" <<<"$list" | awk '{print $1}'; }
[ "$(mode ./usr/bin/topoplace)" = -rwxr-xr-x ] && [ "$(mode ./usr/lib/x86_64-linux-gnu/slurm-wlm/topoplace.so)" = -rw-r--r-- ] \
  && [ "$(mode ./etc/slurm/plugstack.conf.d/topoplace.conf)" = -rw-r--r-- ] \
  && ok "modes: CLI 755, plugin 644, snippet 644" || bad "file modes" "$(grep -E 'bin/topoplace|topoplace.so|topoplace.conf' <<<"$list")"
own=$(awk '{print $2}' <<<"$list" | sort -u)
[ "$own" = root/root ] && ok "every entry owned by root/root" || bad "owners" "$own"

dpkg-deb -e "$deb" "$WORK/control"
if [ "$(cat "$WORK/control/conffiles" 2>/dev/null)" = /etc/slurm/plugstack.conf.d/topoplace.conf ]; then ok "conffiles: the plugstack snippet (a site's edits survive upgrades)"
else bad "conffiles" "$(ls "$WORK/control"; cat "$WORK/control/conffiles" 2>&1)"; fi

R="$WORK/root"; dpkg-deb -x "$deb" "$R"
line=$(grep -E '^(required|optional)' "$R/etc/slurm/plugstack.conf.d/topoplace.conf")
so=$(awk '{print $2}' <<<"$line")
if [ -f "$R$so" ]; then ok "the snippet's plugin path is where the package puts it ($so)"; else bad "snippet path $so not in the package" "$line"; fi
syms=$(nm -D --defined-only "$R$so" 2>/dev/null | awk '{print $3}' | grep -v '^$' | sort | tr '\n' ' ')
if grep -q slurm_spank_init_post_opt <<<"$syms" && grep -q plugin_name <<<"$syms" && ! grep -qE '_Z|topo_' <<<"$syms"; then ok "packaged (stripped) plugin exports the SPANK entry points only"
else bad "packaged plugin symbols" "$syms"; fi
pv=$("$R/usr/bin/topoplace" --version 2>&1)
[ "$pv" = "topoplace $ver" ] && ok "extracted CLI runs: $pv" || bad "extracted CLI --version" "$pv"
s="$WORK/lab.json"
if "$R/usr/bin/topoplace" discover --ibnetdiscover "$FIX/ibnetdiscover/ufm-lab-small.ibnetdiscover.txt" -o "$s" 2>"$WORK/d.err" \
   && "$R/usr/bin/topoplace" show "$s" >"$WORK/show.txt" 2>&1 && [ -s "$WORK/show.txt" ] \
   && cmp -s <("$R/usr/bin/topoplace" show "$s") <("$BUILD/cli/topoplace" show "$s"); then
  ok "extracted CLI: discover + show on a real fabric, same output as the build tree's binary"
else bad "extracted CLI discover/show" "$(cat "$WORK/d.err" "$WORK/show.txt" 2>/dev/null)"; fi
# the service runs the packaged feed where the packaged snippet's state_feed= looks
unit="$R/lib/systemd/system/topoplace-nodefeed.service"
exe=$(sed -n 's/^ExecStart=//p' "$unit"); feedout=$(grep -o -- '--output [^ ]*' <<<"$exe" | cut -d' ' -f2)
sf=$(grep -o 'state_feed=[^ ]*' <<<"$line" | cut -d= -f2)
if [ -x "$R$(awk '{print $1}' <<<"$exe")" ] && [ -n "$feedout" ] && [ "$feedout" = "$sf" ] \
   && grep -q "^RuntimeDirectory=$(basename "$(dirname "$sf")")\$" "$unit"; then
  ok "topoplace-nodefeed.service runs the packaged binary and writes $feedout, the snippet's state_feed= (RuntimeDirectory made by systemd)"
else bad "nodefeed service vs snippet" "ExecStart=$exe; state_feed=$sf"; fi
sock=$(grep -o -- '--socket [^ ]*' <<<"$exe" | cut -d' ' -f2); svc=$(grep -o 'service=[^ ]*' <<<"$line" | cut -d= -f2)
hu=$(grep -o -- '--health [^ ]*' <<<"$exe" | cut -d' ' -f2); hs=$(grep -o 'health=[^ ]*' <<<"$line" | cut -d= -f2)
if [ -n "$sock" ] && [ "$sock" = "$svc" ] && [ -n "$hu" ] && [ "$hu" = "$hs" ]; then
  ok "the service listens where the snippet's service= connects ($sock) and reads the snippet's health store ($hu)"
else bad "service socket / health store: unit vs snippet" "ExecStart=$exe; $line"; fi
if command -v systemd-analyze >/dev/null 2>&1; then
  va=$(systemd-analyze verify --root="$R" /lib/systemd/system/topoplace-nodefeed.service 2>&1 | grep -v -e 'Cannot find' -e 'not found' -e "Command 'man " || true)   # the man page is in the package, not yet on this host
  [ -z "$va" ] && ok "systemd-analyze verify: no complaint" || bad "systemd-analyze verify" "$va"
fi
if command -v systemd-analyze >/dev/null 2>&1; then
  # the sandbox's exposure (0 = locked down, 10 = none); docs/security.md reports it
  sec=$(systemd-analyze security --offline=yes --root="$R" /lib/systemd/system/topoplace-nodefeed.service 2>&1 \
        | sed -n 's/.*Overall exposure level for topoplace-nodefeed.service: \([0-9.]*\).*/\1/p')
  if [ -n "$sec" ] && awk -v s="$sec" 'BEGIN { exit !(s <= 2.0) }'; then ok "systemd-analyze security: exposure $sec (sandboxed: no capabilities, read-only system, AF_UNIX/INET only, MemoryMax, TasksMax)"
  else bad "systemd-analyze security exposure <= 2.0" "$(systemd-analyze security --offline=yes --root="$R" /lib/systemd/system/topoplace-nodefeed.service 2>&1 | tail -30)"; fi
fi
# the health store the snippet names exists from installation (issue 17 finding 2)
hdir=$(grep -o 'health=[^ ]*' <<<"$line" | cut -d= -f2)
if [ -n "$hdir" ] && grep -qE "^drwxr-xr-x root/root .* \.${hdir}/\$" <<<"$list"; then ok "the package creates the health store $hdir (root, 0755)"
else bad "health store directory $hdir in the package" "$(grep -F "$hdir" <<<"$list")"; fi
# Hardening of what runs as root or inside Slurm's daemons (issue 17 item 9), checksec-style
# with readelf: full RELRO, stack protector, NX stack, PIE executables, FORTIFY (where the
# build is optimised: FORTIFY needs the optimiser, and a Debug tree says so).
btype=$(sed -n 's/^CMAKE_BUILD_TYPE:[A-Z]*=//p' "$BUILD/CMakeCache.txt")
if command -v readelf >/dev/null; then
  for b in usr/bin/topoplace usr/sbin/topoplace-nodefeed "${so#/}"; do
    f="$R/$b"; [ -f "$f" ] || { bad "hardening: $b not in the package"; continue; }
    hdr=$(readelf -hW "$f"); ph=$(readelf -lW "$f"); dyn=$(readelf -dW "$f"); syms=$(readelf --dyn-syms -W "$f")
    miss=()
    grep -q GNU_RELRO <<<"$ph" && grep -qE 'BIND_NOW|FLAGS.*NOW' <<<"$dyn" || miss+=("full RELRO")
    grep -q '__stack_chk_fail' <<<"$syms" || miss+=("stack protector")
    grep -E 'GNU_STACK' <<<"$ph" | grep -qv 'RWE' || miss+=("NX stack")
    case "$b" in *.so) ;; *) grep -q 'Type: *DYN' <<<"$hdr" || miss+=("PIE") ;; esac
    fort="FORTIFY"
    if [ "$btype" = Debug ]; then fort="FORTIFY not checked (Debug build: no optimiser)"
    elif ! grep -qE '__[a-z_]+_chk(@|$| )' <<<"$(grep -v __stack_chk <<<"$syms")"; then miss+=("FORTIFY"); fi
    if [ ${#miss[@]} = 0 ]; then ok "hardening $b: full RELRO, stack protector, NX$(case $b in *.so) ;; *) echo ', PIE' ;; esac), $fort"
    else bad "hardening $b: missing ${miss[*]}"; fi
  done
fi
nfo=$("$R/usr/sbin/topoplace-nodefeed" --help 2>&1 | grep -oE '^ +(-[a-z],)?--[a-z-]+' | sed -E 's/.*--/--/' | grep -v -- '--help' | sort -u)
nfman=$(zcat "$R/usr/share/man/man8/topoplace-nodefeed.8.gz" | sed 's/\\-/-/g')
nmiss=""; for o in $nfo; do grep -q -- "$o" <<<"$nfman" || nmiss+="$o "; done
if [ -n "$nfo" ] && [ -z "$nmiss" ]; then ok "topoplace-nodefeed(8) documents every option of --help ($(echo $nfo))"; else bad "nodefeed man page options" "missing: $nmiss (options: $nfo)"; fi
for p in man1/topoplace.1.gz man8/topoplace-spank.8.gz man8/topoplace-nodefeed.8.gz; do
  txt=$(MANWIDTH=100 man --warnings -l "$R/usr/share/man/$p" 2>"$WORK/man.err" | col -b)
  if [ -n "$txt" ] && [ ! -s "$WORK/man.err" ] && grep -q NAME <<<"$txt"; then ok "man -l $p renders without warnings ($(wc -l <<<"$txt") lines)"
  else bad "man -l $p" "$(cat "$WORK/man.err")"; fi
done
echo "$pass passed, $fail failed"
[ "$fail" = 0 ]
