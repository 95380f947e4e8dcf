#!/usr/bin/env python3
"""Per-target medians of gcnc/ACO instructions and VGPRs over the per-shader rows of a
`vkref compare` table (BENCHMARKS.md or an --out file), with helped/hurt counts.

usage: scripts/instr_median.py TABLE.md
"""
import sys, re, statistics
txt=open(sys.argv[1]).read()
for sec in re.split(r'^### Per shader, ', txt, flags=re.M)[1:]:
    tgt=sec.split('\n')[0]
    # the section ends at the next heading (the last one would otherwise take in the
    # graphics tables that follow it in BENCHMARKS.md)
    sec=re.split(r'^#', sec, maxsplit=1, flags=re.M)[0]
    lines=[l for l in sec.split('\n') if l.startswith('|')]
    hdr=[c.strip() for c in lines[0].strip('|').split('|')]
    ii=hdr.index('Instructions'); vi=hdr.index('VGPRs')
    ri=[];rv=[];h=u=0
    for l in lines[2:]:
        c=[x.strip() for x in l.strip('|').split('|')]
        if c[0].startswith("total"): continue
        try:
            g,a=[float(x) for x in c[ii].split('/')[:2]]
            gv,av=[float(x) for x in c[vi].split('/')[:2]]
        except: continue
        if a>0: ri.append(g/a)
        if av>0: rv.append(gv/av)
        h+= g<a; u+= g>a
    print(f"{tgt}: n={len(ri)} median instr gcnc/ACO {statistics.median(ri):.3f}  median VGPR {statistics.median(rv):.3f}  helped {h} hurt {u}")
