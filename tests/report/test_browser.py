"""The HTML report in a real browser (headless Chromium over the DevTools protocol): tables,
figures, thumbnails and the sample browser render with no console errors; filters work; a
malicious model output stays text; a screenshot is saved. Skipped where Chromium is absent."""

from __future__ import annotations

import asyncio
import os
import shutil
from pathlib import Path

import aiohttp
import pytest

from chronoeval import api
from report.cdp import Browser, Page, find_chromium, open_page
from report.scripted import EVIL, PATTERNS, outcomes

CHROMIUM = find_chromium()
pytestmark = pytest.mark.skipif(
    CHROMIUM is None, reason="no Chromium on this machine (Debian: apt-get install chromium)"
)


async def _drive(port: int, url: str, shot: Path) -> dict:
    async with aiohttp.ClientSession() as session:
        page = Page(await open_page(session, port))
        for domain in ("Runtime", "Log", "Page"):
            await page.send(f"{domain}.enable")
        await page.send("Page.navigate", url=url)
        await page.wait_event("Page.loadEventFired")
        visible = (
            "Array.from(document.querySelectorAll('#samplelist .sample'))"
            ".filter(c => c.style.display !== 'none')"
        )
        out: dict = {
            "tables": await page.eval("document.querySelectorAll('table').length"),
            "figures": await page.eval(
                "Array.from(document.querySelectorAll('img.fig')).map(i => [i.alt, i.naturalWidth])"
            ),
            "thumbs": await page.eval(
                "Array.from(document.querySelectorAll('.th')).filter(t => "
                "getComputedStyle(t).backgroundImage.startsWith('url(\"data:image/jpeg')).length"
            ),
            "all": await page.eval(f"{visible}.length"),
            "pageinfo": await page.eval("document.getElementById('pageinfo').textContent"),
            "pwned": await page.eval("typeof window.__pwned"),
            "evil_text": await page.eval(
                "Array.from(document.querySelectorAll('pre.raw')).map(p => p.textContent)"
            ),
        }
        for oc in ("correct", "wrong", "no_answer", "error"):
            await page.eval(f"document.querySelector(\"button.flt[data-outcome='{oc}']\").click()")
            out[oc] = await page.eval(f"{visible}.map(c => [c.dataset.outcome, c.dataset.run])")
        await page.eval("document.getElementById('frun').value = '1'")
        await page.eval("document.getElementById('frun').dispatchEvent(new Event('change'))")
        out["error_run1"] = await page.eval(f"{visible}.length")
        await page.eval("document.querySelector(\"button.flt[data-outcome='all']\").click()")
        out["all_run1"] = await page.eval(f"{visible}.length")
        await page.screenshot(shot)
        await asyncio.sleep(0.2)  # let late console messages arrive
        await page.eval("1")
        out["problems"] = page.problems()
        await page.ws.close()
        return out


def test_report_renders_and_filters_in_chromium(make_run, tmp_path: Path) -> None:
    rep = api.report([make_run("scripted:a"), make_run("scripted:b")], out=tmp_path / "report.html")
    browser = Browser(CHROMIUM, tmp_path / "profile")
    try:
        port = browser.start()
        got = asyncio.run(_drive(port, rep.html.resolve().as_uri(), tmp_path / "report.png"))
    finally:
        browser.stop()
    assert got["problems"] == []
    assert got["tables"] >= 5
    assert len(got["figures"]) == 1 + 2 and all(w > 100 for _alt, w in got["figures"])
    assert got["thumbs"] == 24  # two runs x 12 samples, each with its clock thumbnail
    assert got["all"] == 24 and "of 24" in got["pageinfo"]
    assert got["pwned"] == "undefined"
    assert EVIL in got["evil_text"]  # the raw answer shown verbatim, as text
    expected = {"c": "correct", "w": "wrong", "n": "no_answer", "e": "error"}
    for oc in ("correct", "wrong", "no_answer", "error"):
        want = [
            (oc, str(i))
            for i, p in enumerate("ab")
            for o in outcomes(PATTERNS[p], 12)
            if expected[o] == oc
        ]
        assert sorted(map(tuple, got[oc])) == sorted(want), oc
    assert got["error_run1"] == 0  # run b (index 1) has no errors
    assert got["all_run1"] == 12
    png = (tmp_path / "report.png").read_bytes()
    assert png.startswith(b"\x89PNG") and len(png) > 10_000
    artifacts = os.environ.get("CHRONOEVAL_TEST_ARTIFACTS")  # CI keeps the screenshot here
    if artifacts:
        Path(artifacts).mkdir(parents=True, exist_ok=True)
        shutil.copyfile(tmp_path / "report.png", Path(artifacts) / "report_browser.png")
        shutil.copyfile(rep.html, Path(artifacts) / "report_browser.html")
