"""The play mode's payload (`play_extra`): each frame's EV-loss numbers for the drawn sets, built
one frame at a time.

References: `cfrviz.teaching.play.set_values` of each frame's average strategy, computed here
frame by frame for the whole tree and then cut to the drawn sets; the size of the frames' average
strategies [F, I, A] in float64 bytes, which the old build copied (and then held twice more, as
whole-tree action values and their stack), for the memory bound.
"""
from __future__ import annotations

import tracemalloc

import numpy as np
import pytest

import cfrviz
from cfrviz.figures.play import play_extra
from cfrviz.figures.timeline import frame_snapshots
from cfrviz.teaching.play import set_values
from cfrviz.tree import parts as tree_parts
from cfrviz.util.vocabulary import Player


@pytest.fixture(scope="module")
def leduc_run():
    return cfrviz.solve("leduc", "cfr", iterations=500, updates="alternating")


def test_the_numbers_are_each_frames_set_values_for_the_drawn_sets(leduc_run) -> None:
    run = leduc_run
    tree = run.tree
    nodes = tree_parts.part_nodes(tree, tree_parts.parts(tree, Player.SECOND)[1]).tolist()
    extra = play_extra(tree, run, nodes, (1,))
    sets = sorted({int(i) for i in tree.infoset[nodes] if i >= 0 and tree.infoset_player[i] == 1})
    assert extra["keys"] == [tree.infosets[i].key for i in sets]
    snapshots = frame_snapshots(run.iterations)
    assert extra["frames"] == [int(run.iterations[s]) for s in snapshots]
    for f in (0, len(snapshots) // 2, len(snapshots) - 1):
        whole = set_values(tree, run.average_strategy[snapshots[f]])
        for k, i in enumerate(sets):
            n = int(tree.num_actions[i])
            expected = [None if np.isnan(v) else round(float(v), 4) for v in whole.action_value[i, :n]]
            assert extra["value"][f][k][:n] == pytest.approx(expected, abs=1e-12)
            assert extra["setValue"][f][k] == pytest.approx(round(float(whole.set_value[i]), 4), abs=1e-12)


def test_the_build_never_holds_the_frames_for_the_whole_tree(leduc_run) -> None:
    # Liar's dice (5 sides) at 800 iterations: 300 frames x 5,120 sets x 10 actions made one Play
    # click cost +341-409 MB. Here Leduc's 300 frames x 288 sets x 3 actions are 2.07 MB as float64;
    # the old build peaked at 10.6 MB, one frame at a time it is about 0.4 MB.
    run = leduc_run
    tree = run.tree
    nodes = tree_parts.part_nodes(tree, tree_parts.parts(tree, Player.FIRST)[0]).tolist()
    frames = len(frame_snapshots(run.iterations))
    one_copy = frames * tree.num_infosets * tree.max_actions * 8
    play_extra(tree, run, nodes, (0,))          # caches (packed tree arrays) filled first
    tracemalloc.start()
    try:
        play_extra(tree, run, nodes, (0,))
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert peak < one_copy / 2, (peak, one_copy)
