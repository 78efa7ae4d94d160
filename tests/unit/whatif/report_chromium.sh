#!/usr/bin/env bash
# The what-if report renders in headless Chromium (Debian's `chromium`): the DOM that
# Chromium builds has the headline (GPU-hours against the second policy) and the five SVG
# plots (the fifth: predicted slowdown by job size) with drawn series and bars, and a screenshot of
# the page is not blank. Exit 77 (skipped) when chromium is not installed.
set -euo pipefail
TP=$1; FX=$2
CHROMIUM=$(command -v chromium || command -v chromium-browser || true)
if [ -z "$CHROMIUM" ]; then
  echo "SKIP: chromium not installed (apt-get install chromium)"; exit 77
fi
TMP=$(mktemp -d); trap 'rm -rf "$TMP"' EXIT
"$TP" discover --spec "$FX/specs/gb200-nvl72x4.yaml" -o "$TMP/gb200.json" 2>/dev/null
"$TP" whatif "$TMP/gb200.json" --generate 400 --max-nodes 16 --failures "$FX/failures/llama3-405b-unexpected-interruptions.csv" \
    --report "$TMP/rep" >/dev/null 2>"$TMP/whatif.err"
FLAGS=(--headless --no-sandbox --disable-gpu --no-first-run --disable-dev-shm-usage --user-data-dir="$TMP/profile")
timeout 120 "$CHROMIUM" "${FLAGS[@]}" --dump-dom "file://$TMP/rep/index.html" > "$TMP/dom.html" 2>"$TMP/chromium.err" || {
  echo "FAIL: chromium --dump-dom failed: $(tail -5 "$TMP/chromium.err")"; exit 1; }
fail=0
count() { grep -o "$1" "$TMP/dom.html" | wc -l; }
n_svg=$(count '<svg id="[a-z-]*" class="plot"')
n_series=$(count '<path class="series"')
n_bars=$(count '<rect class="bar"')
n_rows=$(count '<tr><td>')
echo "DOM: $n_svg plots, $n_series series paths, $n_bars bars, $n_rows table rows"
[ "$n_svg" -eq 5 ] || { echo "FAIL: want 5 plots"; fail=1; }
grep -q '<p id="headline"><b>cost (decided at job start: topology/topoplace, Slurm 24.11+) loses [0-9.]* \(fewer\|more\) GPU-hours to placement and failures than slurm-tree' "$TMP/dom.html" \
  || { echo "FAIL: no GPU-hours headline"; fail=1; }
[ "$n_series" -ge 9 ] || { echo "FAIL: want >= 9 series (3 policies x 3 line plots)"; fail=1; }
[ "$n_bars" -ge 3 ] || { echo "FAIL: want bars in the leaf-groups plot"; fail=1; }
[ "$n_rows" -ge 20 ] || { echo "FAIL: want the metrics table"; fail=1; }
grep -q 'd="M[0-9.]* [0-9.]* [HL]' "$TMP/dom.html" || { echo "FAIL: series paths are empty"; fail=1; }

timeout 120 "$CHROMIUM" "${FLAGS[@]}" --hide-scrollbars --window-size=1400,1800 --screenshot="$TMP/shot.png" \
    "file://$TMP/rep/index.html" >/dev/null 2>>"$TMP/chromium.err" || true
if [ ! -s "$TMP/shot.png" ]; then
  echo "FAIL: no screenshot"; fail=1
else
  # Decode the PNG (zlib) and count distinct pixel colours: a blank page has one or two.
  python3 - "$TMP/shot.png" <<'PY' || fail=1
import struct, sys, zlib
data = open(sys.argv[1], "rb").read()
assert data[:8] == b"\x89PNG\r\n\x1a\n", "not a PNG"
pos, idat, w, h, ct = 8, b"", 0, 0, 0
while pos < len(data):
    n, typ = struct.unpack(">I4s", data[pos:pos + 8]); body = data[pos + 8:pos + 8 + n]; pos += 12 + n
    if typ == b"IHDR": w, h, bd, ct = struct.unpack(">IIBB", body[:10])
    elif typ == b"IDAT": idat += body
raw = zlib.decompress(idat)
bpp = {2: 3, 6: 4}.get(ct, 4); stride = w * bpp
# Undo the PNG row filters to get real pixels.
prev = bytearray(stride); colours = set(); out = bytearray()
for y in range(h):
    f = raw[y * (stride + 1)]; row = bytearray(raw[y * (stride + 1) + 1:(y + 1) * (stride + 1)])
    for i in range(stride):
        a = row[i - bpp] if i >= bpp else 0; b = prev[i]; c = prev[i - bpp] if i >= bpp else 0
        if f == 1: row[i] = (row[i] + a) & 255
        elif f == 2: row[i] = (row[i] + b) & 255
        elif f == 3: row[i] = (row[i] + (a + b) // 2) & 255
        elif f == 4:
            p = a + b - c; pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
            row[i] = (row[i] + (a if pa <= pb and pa <= pc else b if pb <= pc else c)) & 255
    if y % 4 == 0:
        for x in range(0, w, 2): colours.add(bytes(row[x * bpp:x * bpp + 3]))
    prev = row
print(f"screenshot {w}x{h}, {len(colours)} distinct colours")
sys.exit(0 if len(colours) >= 8 else 1)
PY
fi
[ "$fail" = 0 ] && echo "report renders in $($CHROMIUM --version 2>/dev/null | head -1)"
exit $fail
