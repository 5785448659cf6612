"""Headless Chromium (Debian's `chromium` package) for the viewer's browser test
(tests/viewer/test_viewer_browser.py, `make viewer-check`) and for docs/viewer.png:

    python tests/helpers/viewer_browser.py docs/viewer.png    # the golden game's page, after its last action
"""
from __future__ import annotations

import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

GOLDEN_GAME = Path(__file__).resolve().parents[1] / "golden" / "p3-heuristic-artesans-destilladors.jsonl"
WINDOW = (1500, 1100)  # the map, the routes and the narrative; the market begins below


def chromium() -> str:
    binary = shutil.which("chromium")
    if binary is None:
        raise RuntimeError("no chromium on PATH: `apt-get install -y chromium` (Debian's package)")
    return binary


def run(url: str, *options: str) -> subprocess.CompletedProcess:
    """Chromium headless on `url` with `options`; its own profile folder, so that runs
    at once do not share one (--no-sandbox: its sandbox refuses to run as root)."""
    with tempfile.TemporaryDirectory() as profile:
        return subprocess.run([chromium(), "--headless", "--no-sandbox", "--disable-gpu", "--no-first-run",
                               f"--user-data-dir={profile}", "--enable-logging=stderr", "--v=0", *options, url],
                              capture_output=True, text=True, timeout=180, check=True)


def console(stderr: str) -> list[str]:
    """The page's console messages as Chromium logs them (errors, uncaught exceptions and
    plain logs alike: the viewer writes none)."""
    return [line for line in stderr.splitlines() if ":CONSOLE" in line]


def dump_dom(page: Path, fragment: str = "") -> tuple[str, list[str]]:
    """The page's DOM once its scripts have run, and its console messages."""
    done = run(page.resolve().as_uri() + fragment, "--dump-dom")
    return done.stdout, console(done.stderr)


def screenshot(page: Path, png: Path, fragment: str = "", size: tuple[int, int] = WINDOW) -> list[str]:
    """Save a screenshot of the page; returns its console messages."""
    done = run(page.resolve().as_uri() + fragment, f"--screenshot={png.resolve()}",
               f"--window-size={size[0]},{size[1]}", "--hide-scrollbars")
    return console(done.stderr)


def main(png: str) -> None:
    from menorca_sim.viewer import write_page

    with tempfile.TemporaryDirectory() as out:
        messages = screenshot(write_page(GOLDEN_GAME, out), Path(png))
    if messages:
        sys.exit("console messages:\n" + "\n".join(messages))
    print(png)


if __name__ == "__main__":
    main(sys.argv[1])
