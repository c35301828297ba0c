"""Tag enrolment on a seat pad of the simulated table, through the real reader path."""

import io
import threading

from drivers.reader.virtual import wait_until
from firmware_host.commands.tags import Enrolment
from firmware_host.loop.simulator import SimTable
from firmware_host.storage.tags import TagRegistry
from games.registry import get_game


def test_enrol_piece_by_piece_refusing_a_tag_enrolled_elsewhere(tmp_path):
    sim = SimTable(threaded=True)
    path = tmp_path / "tags.json"
    registry = TagRegistry(path=path)
    out = io.StringIO()
    stop = threading.Event()
    try:
        assert sim.wait_ready()
        enrol = Enrolment(sim.table, registry, "droles-de-zebres", 3, out)
        worker = threading.Thread(target=enrol.run, kwargs={"stop": stop.is_set, "timeout": 60})
        worker.start()
        pieces = get_game("droles-de-zebres").pieces()
        pad = sim.zones["seat3.pad"]
        uids = ["04000000000001", "04000000000002"]
        for piece, uid in zip(pieces, uids):
            sim.reader.place(pad, uid)
            assert wait_until(lambda: registry.uid(piece) == uid, 10)
            sim.reader.remove(pad, uid)
        assert wait_until(lambda: "Posez" in sim.table.outputs.frames[3].screen.lines[0].fr, 10)
        sim.reader.place(pad, uids[0])  # a tag already enrolled to the first piece
        assert wait_until(lambda: "Déjà enrôlée" in out.getvalue(), 10)
        assert registry.uid(pieces[2]) is None
        assert sim.table.outputs.frames[3].screen.title.fr == "Déjà enrôlée"
        sim.reader.remove(pad, uids[0])
        stop.set()
        worker.join(10)
        assert dict(TagRegistry.load(path)) == {uids[0]: pieces[0], uids[1]: pieces[1]}
        assert enrol.enrolled == 2
    finally:
        stop.set()
        sim.close()
