#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""Where a Slurm build reads each field of job_record_t, read off its machine code.

Slurm's Lua bridge (src/lua/slurm_lua.c, slurm_lua_job_record_field) is one xstrcmp()
branch per field name, each loading that field from the job pointer. For every branch this
prints the first displacement loaded from the job pointer's register, for two objects: one
of the installed build (Debian's libslurm_lua_la-slurm_lua.o, from job_submit_lua.a) and
one compiled here from a Slurm tree with our headers (measure.sh). A field whose offsets
differ is a layout our headers get wrong; the exit status is 1 when any does.
  fields.py THEIRS.o OURS.o
Needs binutils (objdump, readelf, objcopy). Written for topoplace; see ../LAYOUT.md.
"""
import re
import subprocess
import sys

FN = "slurm_lua_job_record_field"


def run(*cmd):
    return subprocess.run(cmd, capture_output=True, text=True, check=True).stdout


def strings(obj):
    """.LCn -> the C string it labels."""
    names = {}
    for line in run("readelf", "-SW", obj).splitlines():
        m = re.match(r"\s*\[\s*(\d+)\]\s+(\S+)", line)
        if m:
            names[int(m.group(1))] = m.group(2)
    data = {}
    out = {}
    for line in run("readelf", "-sW", obj).splitlines():
        f = line.split()
        if len(f) < 8 or not f[7].startswith(".LC") or not f[6].isdigit():
            continue
        sec = names[int(f[6])]
        if sec not in data:
            data[sec] = subprocess.run(["objcopy", "-O", "binary", "--only-section=" + sec, obj, "/dev/stdout"],
                                       capture_output=True, check=True).stdout
        off = int(f[1], 16)
        end = data[sec].find(b"\0", off)
        out[f[7]] = data[sec][off:end].decode("latin1")
    return out


def instructions(obj):
    ins = []
    inside = False
    for line in run("objdump", "-dr", "--no-show-raw-insn", obj).splitlines():
        if re.match(r"^[0-9a-f]+ <%s>:" % FN, line):
            inside = True
            continue
        if inside and re.match(r"^[0-9a-f]+ <", line):
            break
        if not inside or not line.strip():
            continue
        m = re.match(r"\s+([0-9a-f]+):\s+(.*)", line)
        if "R_X86_64" in line:
            if ins:
                ins[-1][2] = line.split()[-1]
        elif m:
            ins.append([int(m.group(1), 16), m.group(2).strip(), None])
    if not ins:
        sys.exit(f"fields.py: {obj} has no {FN}")
    return ins


def job_register(ins):
    # the register the job pointer lives in: the one most loaded from
    counts = {}
    for _, text, _ in ins:
        for reg in re.findall(r"\((%r\w+)\)", text):
            if reg not in ("%rip", "%rsp", "%rbp"):
                counts[reg] = counts.get(reg, 0) + 1
    return max(counts, key=counts.get)


def offsets(obj):
    lc = strings(obj)
    ins = instructions(obj)
    reg = job_register(ins)
    at = {a: i for i, (a, _, _) in enumerate(ins)}
    res = {}
    for i, (_, _, rel) in enumerate(ins):
        if not rel or "xstrcmp" not in rel:
            continue
        name = None
        for j in range(i - 1, max(i - 6, -1), -1):
            r = ins[j][2]
            if r and r.startswith(".LC") and "%rsi" in ins[j][1]:
                name = lc.get(re.split(r"[-+]", r)[0])
                break
        k = i + 1
        while k < len(ins) and not ins[k][1].startswith(("je ", "jne ")):
            k += 1
        if name is None or k >= len(ins):
            continue
        target = int(ins[k][1].split()[1], 16)
        start = k + 1 if ins[k][1].startswith("jne") else at.get(target)
        if start is None:
            continue
        for j in range(start, min(start + 8, len(ins))):
            d = re.findall(r"(-?0x[0-9a-f]+|)\(%s\)" % re.escape(reg), ins[j][1])
            if d:
                res[name] = int(d[0], 16) if d[0] else 0
                break
            if ins[j][1].startswith(("call", "jmp", "ret")):
                break
    return res


def main():
    if len(sys.argv) != 3:
        sys.exit(__doc__)
    theirs, ours = offsets(sys.argv[1]), offsets(sys.argv[2])
    bad = 0
    for name in sorted(set(theirs) & set(ours), key=lambda n: theirs[n]):
        same = theirs[name] == ours[name]
        bad += not same
        print(f"{name:24s} theirs {theirs[name]:5d}  ours {ours[name]:5d}  {'ok' if same else 'DIFFERS'}")
    only = sorted(set(theirs) ^ set(ours))
    print(f"fields.py: {len(set(theirs) & set(ours))} fields compared, {bad} differ"
          + (f"; not compared (in one object only): {' '.join(only)}" if only else ""))
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
