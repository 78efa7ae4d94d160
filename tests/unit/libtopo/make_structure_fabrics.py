#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""Writes two fabrics of issue 28 in ibnetdiscover's default layout (written by us):

  topoplace-2tier-hosts-on-spine.ibnetdiscover.txt      (item 3)
      6 leaves x 4 single-HCA hosts, 2 spines each cabled to every leaf, and two
      servers (gpu-s01, gpu-s02: not service or storage names) cabled to spine-1.
  topoplace-director-hdr-partial-uplinks.ibnetdiscover.txt   (item 5)
      2 director chassis (MCS8500: L01-L20 x U1/U2 = 40 leaf ASICs, S01-S20 spine
      ASICs, every spine ASIC cabled to every leaf ASIC of its chassis) and 72 QM8700
      ToRs in 8 slot groups of 9 (group g: slots L(5(g//2)+1..5(g//2)+5)/U(g%2+1) of
      both chassis, 10 uplinks). 15 ToRs have no hosts; in 3 groups every populated ToR
      misses one uplink (a different one each) while the group's empty ToR has all 10.
      The other 57 ToRs hold 2 hosts with one HCA each.

Run from the repository root: python3 tests/unit/libtopo/make_structure_fabrics.py
"""
import os

HERE = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "fixtures", "ibnetdiscover")


class Fabric:
    def __init__(self, base):
        self.nodes = []  # [guid, is_switch, desc, nports, ports{port: (peer, peer_port)}]
        self.base = base
        self.free = {}

    def add(self, sw, desc, nports):
        guid = "%016x" % (self.base + len(self.nodes))
        self.nodes.append([guid, sw, desc, nports, {}])
        self.free[guid] = 1
        return guid

    def node(self, guid):
        return self.nodes[int(guid, 16) - self.base]

    def cable(self, a, b):
        pa, pb = self.free[a], self.free[b]
        self.free[a] += 1
        self.free[b] += 1
        self.node(a)[4][pa] = (b, pb)
        self.node(b)[4][pb] = (a, pa)

    def text(self, title):
        o = ["#", "# Topology file: " + title, "# written by topoplace (tests/unit/libtopo/make_structure_fabrics.py)", "#", ""]
        for guid, sw, desc, nports, ports in self.nodes:
            o += ["vendid=0x2c9", "devid=0xd2f0" if sw else "devid=0x101b", "sysimgguid=0x" + guid]
            if sw:
                o.append("switchguid=0x%s(%s)" % (guid, guid))
                o.append('Switch\t%d "S-%s"\t\t# "%s" enhanced port 0 lid 1 lmc 0' % (nports, guid, desc))
            else:
                o.append("caguid=0x" + guid)
                o.append('Ca\t1 "H-%s"\t\t# "%s"' % (guid, desc))
            for port in sorted(ports):
                peer, pp = ports[port]
                p = self.node(peer)
                name = ("S-" if p[1] else "H-") + peer
                if sw:
                    line = '[%d]\t"%s"[%d]' % (port, name, pp)
                    if not p[1]:
                        line += "(%s) " % peer
                    o.append(line + '\t\t# "%s" lid 2 4xHDR' % p[2])
                else:
                    o.append('[%d](%s) \t"%s"[%d]\t\t# lid 3 lmc 0 "%s" lid 1 4xHDR' % (port, guid, name, pp, p[2]))
            o.append("")
        return "\n".join(o)


def hosts_on_spine():
    f = Fabric(0x0002c90300b00000)
    spines = [f.add(True, "MF0;spine-%d:MQM8700/U1" % (s + 1), 40) for s in range(2)]
    leaves = [f.add(True, "MF0;leaf-%d:MQM8700/U1" % (l + 1), 40) for l in range(6)]
    for l in leaves:
        for s in spines:
            f.cable(l, s)
    n = 0
    for l in leaves:
        for _ in range(4):
            n += 1
            f.cable(f.add(False, "gpu-n%02d mlx5_0" % n, 1), l)
    for k in range(2):
        f.cable(f.add(False, "gpu-s%02d mlx5_0" % (k + 1), 1), spines[0])
    return f.text("a 2-tier fabric (6 leaves, 2 spines) with two servers cabled to spine-1")


def director():
    f = Fabric(0x0c42a10300c00000)
    chassis = ["hdr-dir1", "hdr-dir2"]
    leaf = {}  # (chassis, slot 1..20, unit 1..2) -> guid
    for c in chassis:
        spines = [f.add(True, "MF0;%s:MCS8500/S%02d/U1" % (c, s + 1), 40) for s in range(20)]
        for slot in range(1, 21):
            for u in (1, 2):
                g = f.add(True, "MF0;%s:MCS8500/L%02d/U%d" % (c, slot, u), 40)
                leaf[(c, slot, u)] = g
        for slot in range(1, 21):
            for u in (1, 2):
                for s in spines:
                    f.cable(leaf[(c, slot, u)], s)
    partial_groups = {1, 4, 6}  # in these, every populated ToR misses one uplink
    empty_per_group = [2, 1, 2, 2, 1, 3, 1, 3]  # 15 in all; the first ToR(s) of a group
    host = 0
    for g in range(8):
        slots = range(5 * (g // 2) + 1, 5 * (g // 2) + 6)
        u = g % 2 + 1
        ups = [leaf[(c, s, u)] for c in chassis for s in slots]
        for k in range(9):
            tor = f.add(True, "MF0;rack%02d-tor%d:MQM8700/U1" % (g + 1, k + 1), 40)
            empty = k < empty_per_group[g]
            for i, up in enumerate(ups):
                if g in partial_groups and not empty and i == (k % len(ups)):
                    continue  # this ToR's missing uplink
                f.cable(tor, up)
            if empty:
                continue
            for _ in range(2):
                host += 1
                f.cable(f.add(False, "hdr%03d mlx5_0" % host, 1), tor)
    return f.text("an HDR fabric of 2 director chassis and 72 ToRs, 15 of them without hosts")


def main():
    for name, fn in (("topoplace-2tier-hosts-on-spine.ibnetdiscover.txt", hosts_on_spine),
                     ("topoplace-director-hdr-partial-uplinks.ibnetdiscover.txt", director)):
        with open(os.path.join(HERE, name), "w") as out:
            out.write(fn())


if __name__ == "__main__":
    main()
