"""Config validation names the file, the key and the fault; the embedded sim config is valid."""

import pytest

from firmware_host.storage.config import ConfigError, load_config, parse_config, sim_config_text

MINIMAL = """
[[seats]]
id = 1
buttons = { left = 5, right = 6, ok = 13 }
screen = { bus = 1, address = 0x3C }
[[seats]]
id = 2
buttons = { left = 16, right = 20, ok = 21 }
screen = { bus = 1, address = 0x3D }
[antennas]
board = 0
"seat1.pad" = 30
"seat2.pad" = 31
"""


def problems(text: str) -> dict[str, str]:
    with pytest.raises(ConfigError) as info:
        parse_config(text, "table.toml")
    assert "table.toml" in str(info.value)
    return dict(info.value.issues)


def test_sim_config_is_valid_and_complete():
    cfg = load_config(None)
    assert [s.id for s in cfg.seats] == list(range(1, 9))
    assert cfg.simulated and cfg.language == "fr"
    zones = cfg.zones
    assert zones["A1"] == 0 and zones["F1"] == 5 and zones["A2"] == 6 and zones["F5"] == 29
    assert {f"seat{i}.pad" for i in range(1, 9)} <= set(zones)
    assert {f"centre.{i}" for i in range(1, 6)} <= set(zones)
    assert len(cfg.antennas) == 43


def test_minimal_config_defaults():
    cfg = parse_config(MINIMAL)
    assert cfg.reader.port == "/dev/zebra-table-reader" and cfg.reader.baudrate == 115200
    assert cfg.seat(2).screen.address == 0x3D
    assert cfg.tags_file.endswith("tags.json") and cfg.journal.endswith("journal.sqlite")


def test_pin_used_twice():
    bad = MINIMAL.replace("left = 16", "left = 5")
    assert "already used by seats[0].buttons.left" in problems(bad)["seats[1].buttons.left"]


def test_reserved_pins():
    assert "I2C SDA" in problems(MINIMAL.replace("left = 5", "left = 2"))["seats[0].buttons.left"]
    with_uart = "uart = true\n" + MINIMAL.replace("right = 6", "right = 14")
    assert "UART" in problems(with_uart)["seats[0].buttons.right"]
    parse_config(MINIMAL.replace("right = 6", "right = 14"))  # UART off: GPIO14 is free


def test_two_screens_on_same_bus_and_address():
    assert "already used" in problems(MINIMAL.replace("0x3D", "0x3C"))["seats[1].screen"]


def test_antenna_mapped_twice_and_unknown_zone():
    issues = problems(MINIMAL + '"centre.1" = 3\n"Z9" = 40\n')
    assert "already mapped" in issues["antennas.centre.1"] or "already mapped" in issues["antennas.D1"]
    assert "unknown zone" in issues["antennas.Z9"]


def test_pad_of_missing_seat():
    assert "no seat 5" in problems(MINIMAL + '"seat5.pad" = 35\n')["antennas.seat5.pad"]


def test_seat_count_out_of_range():
    one_seat = MINIMAL.split("[[seats]]\nid = 2")[0] + '[antennas]\n"seat1.pad" = 30\n'
    assert "2 to 8" in problems(one_seat)["seats"]


def test_every_problem_reported_at_once_with_keys():
    bad = MINIMAL.replace('bus = 1, address = 0x3C', 'driver = "oled9000", bus = 1, address = 0x3C, rotation = 7')
    bad = "language = 'de'\nbogus = 1\n" + bad
    issues = problems(bad)
    assert {"language", "bogus", "seats[0].screen.driver", "seats[0].screen.rotation"} <= set(issues)


def test_wrong_types_name_the_key():
    issues = problems(MINIMAL.replace("ok = 13", 'ok = "thirteen"') + "[reader]\nsettle = true\n")
    assert "seats[0].buttons.ok" in issues and "reader.settle" in issues


def test_syntax_error_and_missing_file(tmp_path):
    assert "(syntax)" in problems("[[seats]\n")
    with pytest.raises(ConfigError, match="cannot read"):
        load_config(tmp_path / "nope.toml")


def test_sim_text_is_the_documented_example():
    assert "[antennas]" in sim_config_text()


def test_pin_cpu_key():
    assert parse_config(MINIMAL).pin_cpu is True
    assert parse_config("pin_cpu = false\n" + MINIMAL).pin_cpu is False
    assert "pin_cpu" in problems('pin_cpu = "yes"\n' + MINIMAL)
    assert "pin_cpu" in problems("pin_cpu = 0\n" + MINIMAL)


def test_blank_screens_at_exit_key():
    assert parse_config(MINIMAL).blank_screens_at_exit is False
    assert parse_config("blank_screens_at_exit = true\n" + MINIMAL).blank_screens_at_exit is True
    assert "blank_screens_at_exit" in problems("blank_screens_at_exit = 1\n" + MINIMAL)


@pytest.mark.parametrize("value", ["true", "inf", "nan", "0", "61", '"2"'])
def test_computer_think_seconds_is_a_finite_bounded_number(value):
    issues = problems(MINIMAL + f"[computer]\nthink_seconds = {value}\n")
    assert "computer.think_seconds" in issues


def test_computer_think_seconds_read_and_unknown_keys_named():
    assert parse_config(MINIMAL, "t.toml").think_seconds == 2.0
    assert parse_config(MINIMAL + "[computer]\nthink_seconds = 0.5\n", "t.toml").think_seconds == 0.5
    assert "computer.level" in problems(MINIMAL + "[computer]\nlevel = 1\n")
