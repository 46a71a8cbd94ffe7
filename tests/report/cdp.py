"""A minimal Chrome DevTools Protocol client (aiohttp websockets) for headless Chromium.

Starts ``chromium --headless --remote-debugging-port=0`` on loopback with a throwaway profile,
reads the port from ``DevToolsActivePort``, attaches to the page target, and records console
messages, uncaught exceptions and log entries while the test drives the page.
"""

from __future__ import annotations

import asyncio
import base64
import json
import shutil
import subprocess
import time
from pathlib import Path
from typing import Any

import aiohttp

CANDIDATES = ("chromium", "chromium-browser", "google-chrome", "chrome")


def find_chromium() -> str | None:
    return next((p for p in map(shutil.which, CANDIDATES) if p), None)


class Page:
    def __init__(self, ws: aiohttp.ClientWebSocketResponse) -> None:
        self.ws = ws
        self.next_id = 0
        self.events: list[dict[str, Any]] = []

    async def send(self, method: str, **params: Any) -> dict[str, Any]:
        self.next_id += 1
        my_id = self.next_id
        await self.ws.send_json({"id": my_id, "method": method, "params": params})
        while True:
            msg = await asyncio.wait_for(self.ws.receive(), timeout=30)
            if msg.type != aiohttp.WSMsgType.TEXT:
                raise RuntimeError(f"devtools connection closed: {msg!r}")
            data = json.loads(msg.data)
            if data.get("id") == my_id:
                if "error" in data:
                    raise RuntimeError(f"{method}: {data['error']}")
                return data.get("result", {})
            if "method" in data:
                self.events.append(data)

    async def wait_event(self, method: str, timeout: float = 30) -> dict[str, Any]:
        deadline = time.monotonic() + timeout
        while True:
            for ev in self.events:
                if ev["method"] == method:
                    return ev
            msg = await asyncio.wait_for(self.ws.receive(), max(0.1, deadline - time.monotonic()))
            data = json.loads(msg.data)
            if "method" in data:
                self.events.append(data)

    async def eval(self, expression: str) -> Any:
        res = await self.send("Runtime.evaluate", expression=expression, returnByValue=True)
        if "exceptionDetails" in res:
            raise RuntimeError(f"page script failed: {res['exceptionDetails']}")
        return res["result"].get("value")

    async def screenshot(self, path: Path) -> Path:
        res = await self.send("Page.captureScreenshot", format="png", captureBeyondViewport=True)
        path.write_bytes(base64.b64decode(res["data"]))
        return path

    def problems(self) -> list[str]:
        """Console errors/warnings, uncaught exceptions and error log entries seen so far."""
        out = []
        for ev in self.events:
            p = ev.get("params", {})
            if ev["method"] == "Runtime.consoleAPICalled" and p.get("type") in ("error", "warning"):
                out.append(f"console.{p['type']}: {p.get('args')}")
            elif ev["method"] == "Runtime.exceptionThrown":
                out.append(f"exception: {p.get('exceptionDetails')}")
            elif ev["method"] == "Log.entryAdded" and p.get("entry", {}).get("level") == "error":
                out.append(f"log: {p['entry'].get('text')} {p['entry'].get('url', '')}")
        return out


class Browser:
    def __init__(self, binary: str, profile: Path) -> None:
        self.binary, self.profile = binary, profile
        self.proc: subprocess.Popen | None = None

    def start(self) -> int:
        self.proc = subprocess.Popen(
            [
                self.binary,
                "--headless",
                "--no-sandbox",
                "--disable-gpu",
                "--no-first-run",
                "--disable-extensions",
                "--remote-debugging-address=127.0.0.1",
                "--remote-debugging-port=0",
                f"--user-data-dir={self.profile}",
                "--window-size=1280,900",
                "about:blank",
            ],  # fmt: skip
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
        port_file = self.profile / "DevToolsActivePort"
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:
            if port_file.is_file() and port_file.read_text().strip():
                return int(port_file.read_text().splitlines()[0])
            if self.proc.poll() is not None:
                raise RuntimeError(f"chromium exited with {self.proc.returncode}")
            time.sleep(0.05)
        raise RuntimeError("chromium did not open its devtools port in 60 s")

    def stop(self) -> None:
        if self.proc is not None and self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(10)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait(10)


async def open_page(session: aiohttp.ClientSession, port: int) -> aiohttp.ClientWebSocketResponse:
    async with session.get(f"http://127.0.0.1:{port}/json/list") as resp:
        targets = await resp.json()
    page = next(t for t in targets if t.get("type") == "page")
    return await session.ws_connect(page["webSocketDebuggerUrl"], max_msg_size=0)
