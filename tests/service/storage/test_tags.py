"""Tag registry: normalisation, refusal of double enrolment, atomic file round trip."""

import json

import pytest

from firmware_host.storage.tags import TagError, TagRegistry, normalise_uid, sim_registry, sim_uid


def test_normalise_uid():
    assert normalise_uid("04:a1:b2:c3:d4:e5:f6") == "04A1B2C3D4E5F6"
    assert normalise_uid("deadbeef") == "DEADBEEF"
    for bad in ("", "xyz", "04A1B2", "04:A1:B2:C3:D4"):
        with pytest.raises(TagError):
            normalise_uid(bad)


def test_refuses_uid_enrolled_to_another_piece():
    reg = TagRegistry()
    reg.add("04A1B2C3D4E5F6", "droles-de-zebres/white/zebra/3")
    with pytest.raises(TagError, match="already enrolled to droles-de-zebres/white/zebra/3"):
        reg.add("04:a1:b2:c3:d4:e5:f6", "droles-de-zebres/white/zebra/4")
    reg.add("04A1B2C3D4E5F6", "droles-de-zebres/white/zebra/3")  # same pair: no-op
    assert len(reg) == 1


def test_replacing_a_lost_token():
    reg = TagRegistry({"DEADBEEF": "zop/light/attack/1"})
    reg.add("CAFEF00D", "zop/light/attack/1")
    assert reg.piece("DEADBEEF") is None and reg.piece("cafef00d") == "zop/light/attack/1"


def test_unknown_and_malformed_uid_lookup_is_none():
    reg = TagRegistry()
    assert reg.piece("00000000") is None and reg.piece("garbage!") is None


def test_bad_piece_id():
    with pytest.raises(TagError, match="piece id"):
        TagRegistry().add("DEADBEEF", "not a piece")


def test_save_load_roundtrip_atomic(tmp_path):
    path = tmp_path / "sub" / "tags.json"
    reg = sim_registry(["zop/light/attack/1", "zop/dark/defence/2"])
    reg.save(path)
    assert not [p for p in path.parent.iterdir() if p.name.startswith(".tags-")]
    again = TagRegistry.load(path)
    assert dict(again) == dict(reg)
    assert json.loads(path.read_text())["version"] == 1


def test_corrupt_registry_file_is_reported(tmp_path):
    path = tmp_path / "tags.json"
    path.write_text("{not json")
    with pytest.raises(TagError, match="unreadable"):
        TagRegistry.load(path)
    path.write_text(json.dumps({"version": 1, "tags": {"DEADBEEF": "a/b/c/1", "deadbeef": "a/b/c/2"}}))
    with pytest.raises(TagError, match="already enrolled"):
        TagRegistry.load(path)


def test_missing_registry_is_empty(tmp_path):
    assert len(TagRegistry.load(tmp_path / "none.json")) == 0


def test_sim_uids_are_stable_and_distinct():
    assert sim_uid("a/b/c/1") == sim_uid("a/b/c/1") != sim_uid("a/b/c/2")
    assert len(sim_uid("a/b/c/1")) == 14
