"""The viewer's page of a golden game in a real headless Chromium: it loads without a
console message, draws every hex of the map and the tiles laid by the chosen action, and
its screenshot shows the laid tiles. Marked `browser`: `make viewer-check` runs it."""
import re

import numpy as np
import pytest
from matplotlib.image import imread
from helpers.viewer_browser import GOLDEN_GAME, WINDOW, dump_dom, screenshot

from menorca_sim.log import read
from menorca_sim.rules import load_ruleset
from menorca_sim.viewer import page_data, write_page

pytestmark = pytest.mark.browser

# the page's tile fills (template.html FILL), as 0-255 RGB
TILE_FILLS = np.array([[0xf4, 0xd0, 0x3f], [0x6f, 0xbf, 0x73], [0xc0, 0x8a, 0x5a], [0xb4, 0xb4, 0xb4]])
HEX_AREA = 3 * 3 ** 0.5 / 2 * 48 ** 2  # pixels of a hex of size 48 (template.html S)


@pytest.fixture(scope="module")
def page(tmp_path_factory):
    return write_page(GOLDEN_GAME, tmp_path_factory.mktemp("viewer"))


@pytest.fixture(scope="module")
def frames():
    return page_data(read(GOLDEN_GAME), load_ruleset())["frames"]


@pytest.mark.parametrize("k", [None, 40])
def test_page_loads_without_console_messages_and_draws_the_map(page, frames, k):
    dom, messages = dump_dom(page, "" if k is None else f"#{k}")
    assert messages == []
    rs = load_ruleset()
    assert len(re.findall(r'<polygon class="hex" data-hex="\w+"', dom)) == len(rs.map.land) + len(rs.map.sea) + len(rs.map.offboards)
    frame = frames[-1 if k is None else k]
    assert sorted(re.findall(r'data-hex="(\w+)" data-tile="', dom)) == sorted(frame["tiles"])
    assert f"after action {frame['i']} (" in dom
    assert len(re.findall(r'<polyline class="route" points="[\d.-]', dom)) == sum(len(frames[j]["routes"]) for j in frame["runs"])


def test_screenshot_shows_the_laid_tiles(page, frames, tmp_path):
    png = tmp_path / "viewer.png"
    assert screenshot(page, png) == []
    pixels = (imread(png)[:, :, :3] * 255).round().astype(int)
    assert pixels.shape[:2] == (WINDOW[1], WINDOW[0])
    tile_coloured = (np.abs(pixels[:, :, None, :] - TILE_FILLS).max(axis=3) <= 2).any(axis=2).sum()
    assert tile_coloured > 0.4 * HEX_AREA * len(frames[-1]["tiles"])
