#!/usr/bin/env python3
# Usage: pip install pedpy, then python3 scripts/pedpy-reference.py
"""Reference numbers for the throng trajectory readers' tests, computed with PedPy."""
import pathlib, logging
import pandas as pd
import pedpy
from pedpy.io.helper import TrajectoryUnit
from pedpy import (load_trajectory, load_trajectory_from_jupedsim_sqlite,
    load_walkable_area_from_jupedsim_sqlite, load_trajectory_from_vadere,
    load_walkable_area_from_vadere_scenario, load_trajectory_from_pathfinder_csv,
    TrajectoryData)
# The shared assets beside the checkout (../shared/assets/trajectories).
D = pathlib.Path(__file__).resolve().parents[2] / 'shared/assets/trajectories'
print('pedpy', pedpy.__version__)

def report(name, t, ids=None):
    d = t.data.sort_values(['id', 'frame'])
    peds = sorted(d.id.unique())
    print(f'== {name}: peds {len(peds)} ids {peds[0]}..{peds[-1]} fps {t.frame_rate} '
          f'frames {d.frame.min()}..{d.frame.max()} rows {len(d)} '
          f't {d.frame.min()/t.frame_rate!r}..{d.frame.max()/t.frame_rate!r}')
    for i in (ids or [peds[0], peds[len(peds)//2], peds[-1]]):
        g = d[d.id == i]
        a, b = g.iloc[0], g.iloc[-1]
        print(f'  ped {i}: n {len(g)} first f{a.frame} ({a.x!r}, {a.y!r}) last f{b.frame} ({b.x!r}, {b.y!r})')

report('petrack', load_trajectory(trajectory_file=D/'uo-180-180-120.txt', default_frame_rate=16., default_unit=TrajectoryUnit.CENTIMETER))
report('jupedsim', load_trajectory_from_jupedsim_sqlite(trajectory_file=D/'jupedsim-trajectories.sqlite'))
print('  walkable', load_walkable_area_from_jupedsim_sqlite(trajectory_file=D/'jupedsim-trajectories.sqlite').polygon)
report('vadere@10fps', load_trajectory_from_vadere(trajectory_file=D/'vadere-bottleneck-postvis.traj', frame_rate=10.))
print('  walkable', load_walkable_area_from_vadere_scenario(D/'vadere-bottleneck.scenario', margin=1e-3).polygon)
report('pathfinder', load_trajectory_from_pathfinder_csv(trajectory_file=D/'pathfinder.csv'))
# PedPy has no ETH/UCY loader: OpenTraj's convention (frame step 10 x 2.5 Hz = 25) by hand.
e = pd.read_csv(D/'eth-biwi_eth_10fps.txt', sep='\t', header=None, names=['frame', 'id', 'x', 'y'])
e = e.astype({'frame': 'int64', 'id': 'int64'})
report('eth (TrajectoryData from pandas, fps 25)', TrajectoryData(data=e, frame_rate=25.))
