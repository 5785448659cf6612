"""`menorca-sim rules check|show` end to end through click."""
from __future__ import annotations

import re

from click.testing import CliRunner

from menorca_sim.cli import main
from menorca_sim.rules import default_ruleset_path, load_ruleset


def run(*args: str):
    return CliRunner().invoke(main, ["rules", *args])


def test_check_default_file():
    path = str(default_ruleset_path())
    result = run("check", path)
    assert result.exit_code == 0, result.output
    assert result.stdout == (f"{path}: ok: menorca_v11: 7 companies, 9 vehicles, 6 phases, 9 legacies, "
                             "33 land hexes, 28 tile types\n")


def test_check_missing_file(tmp_path):
    result = run("check", str(tmp_path / "nope.toml"))
    assert result.exit_code == 2
    assert result.stderr == f"error: {tmp_path / 'nope.toml'}: cannot read file (No such file or directory)\n"


def test_check_directory(tmp_path):
    (tmp_path / "rules").mkdir()
    result = run("check", str(tmp_path / "rules"))
    assert result.exit_code == 2
    assert result.stderr == f"error: {tmp_path / 'rules'}: cannot read file (Is a directory)\n"


def test_check_not_toml(tmp_path):
    (tmp_path / "r.toml").write_text("[bank\ncash = 1\n", encoding="utf-8")
    result = run("check", str(tmp_path / "r.toml"))
    assert result.exit_code == 2
    assert result.stderr.count("\n") == 1 and result.stderr.startswith(f"error: {tmp_path / 'r.toml'}: not valid TOML (")
    assert "Traceback" not in result.output


def test_check_needs_a_file():
    assert run("check").exit_code == 2


def test_show_default_summary():
    result = run("show")
    assert result.exit_code == 0, result.output
    out = result.stdout
    r = load_ruleset()
    for heading in ("Companies:", "Vehicles:", "Phases:", "Epochs:", "Legacies:", "Map:", "Market:", "Options:"):
        assert f"\n{heading}\n" in out
    assert re.search(r"^  RNC +major +Maó +20 \+ 8x10 % +- +4 +1 +20 % +ship\+cart +5 marked, 5 markers$", out, re.M)
    assert re.search(r"^  Ramaders +minor +Es Mercadal +5x20 % +60 +1 +1 +20 % +cart +5 cheese$", out, re.M)
    assert re.search(r"^  RADM +merged +- +10x10 % +- +3 +3 +10 % +cart +-$", out, re.M)
    assert re.search(r"^  escorted_convoy +ship +9 +720 +unlimited +9H +-$", out, re.M)
    assert re.search(r"^  7H +3 +yellow\+green\+brown +3 +3$", out, re.M)
    assert re.search(r"^  4 +8H 9H +no +Conquest 1756 \(end_after_set\)$", out, re.M)
    assert re.search(r"^  L6 +Casa de Comerç +90 +15 +epoch 3 +grant_certificate\(percent=10, company=RCC\)$", out, re.M)
    assert "  33 land hexes, 27 sea hexes, 10 nodes (2 cities, 8 towns, 4 ports), 7 offboards, 42 lanes\n" in out
    assert "  terrain costs: plain 0, hills 20, rough 30, mountain 40\n" in out
    assert "  node revenue by tile colour: city 20/30/40/50, town 10/20/20/30\n" in out
    assert "Barcelona 30/40/50/60, Marseille 30/40/60/70, " in out
    assert "  10 rows x 16 columns, 160 cells, values 0-350\n  par values: 60, 70, 80, 90, 100\n" in out
    # Every plain option section is listed key by key, as the data spells it.
    assert "  merger.unstarted_minor = join\n" in out
    assert "  markers.goods_pay_before_merger = minor\n" in out
    assert "  operating.company_legacy_price_percent = [50, 150]\n" in out
    options = re.findall(r"^  (\w+)\.(\w+) = ", out, re.M)
    assert len(options) == sum(len(vars(getattr(r, s))) for s in ("setup", "auction", "merger", "operating",
                                                                  "stock", "markers", "end"))


def test_show_a_file(tmp_path):
    text = default_ruleset_path().read_text(encoding="utf-8").replace("price = 80\n", "price = 85\n", 1)
    (tmp_path / "mine.toml").write_text(text, encoding="utf-8")
    result = run("show", str(tmp_path / "mine.toml"))
    assert result.exit_code == 0
    assert re.search(r"^  xebec +ship +4 +85 +6 +4H +7H$", result.stdout, re.M)


def test_show_bad_file_is_one_line(tmp_path):
    result = run("show", str(tmp_path / "nope.toml"))
    assert result.exit_code == 2
    assert result.stderr == f"error: {tmp_path / 'nope.toml'}: cannot read file (No such file or directory)\n"
