"""On a 3-node cluster (R3 stream and views bucket), the node leading the event stream is
killed mid-load and restarted: nothing acknowledged is lost, nothing is applied twice, no
table's history forks, and every view ends equal to a fold of the log."""

import asyncio

import pytest

from tests.consistency import check_log, read_log, settled_views
from tests.rig import cluster_rig

pytestmark = pytest.mark.slow


async def test_the_stream_leader_killed_mid_load_loses_doubles_and_forks_nothing(tmp_path):
    async with cluster_rig(tmp_path, ["highcard"], lanes=8) as rig:
        acknowledged = rig.acknowledged
        rig.load.start()
        await acknowledged.wait_for(150, timeout=60)
        fail_over = await asyncio.to_thread(rig.cluster.fail_over)
        assert fail_over.successor != fail_over.killed
        await acknowledged.wait_for(acknowledged.count + 150, timeout=90)  # serving again
        await rig.load.stop()

        log = await read_log(rig.bus)
        figures = check_log(log, acknowledged)
        print(
            f"\n{fail_over}\n{figures}\nload: {rig.load.tables_ended} tables ended, "
            f"given up: {dict(rig.load.failures)}"
        )
        assert figures.acknowledged >= 300
        assert (figures.lost, figures.misplaced, figures.doubled, figures.forked) == (0, 0, 0, 0)
        views = await settled_views(rig.bus, log, timeout=60)
        assert views.keys >= 2 * len(log)  # a seat and the spectator at least
        assert views.different == [], (
            f"{len(views.different)} keys on {len(views.tables)} tables differ from the log, e.g. "
            + "; ".join(f"{d.key}: {d.why}" for d in views.different[:3])
        )
