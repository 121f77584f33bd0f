"""The real yaml-language-server (the npm package, pinned in package.json; installed by .ci/run) agrees with
``gouji validate``: no diagnostic on any shipped variant, and a diagnostic at the right line on broken files.

Driven over stdio with LSP messages (initialize, didOpen, publishDiagnostics), with the schema found by the
``# yaml-language-server: $schema=`` first line of each file, as an editor finds it.  Run against the
current version and 1.15, the oldest the project supports (still common in editors).
"""

from __future__ import annotations

import json
import os
import queue
import shutil
import subprocess
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any, BinaryIO

import pytest
import yaml

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent.parent
VARIANTS = ROOT / "variants"
INVALID = ROOT / "tests" / "invalid"
SERVERS = {
    "current": HERE / "node_modules" / "yaml-language-server" / "bin" / "yaml-language-server",
    "1.15": HERE / "node_modules" / "yls115" / "bin" / "yaml-language-server",
}
SETTINGS = {
    "yaml": {
        "validate": True,
        "hover": True,
        "completion": True,
        "schemaStore": {"enable": False},
        "format": {"enable": False},
    }
}


class LspClient:
    """Starts a language server, answers its requests with ``settings``, and collects published diagnostics."""

    def __init__(self, command: list[str], root: Path, settings: dict[str, Any]) -> None:
        self.settings = settings
        self.proc = subprocess.Popen(command, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL)
        assert self.proc.stdin is not None and self.proc.stdout is not None
        self._in = self.proc.stdin
        self._messages: queue.Queue[dict[str, Any]] = queue.Queue()
        self._reader = threading.Thread(target=self._read, args=(self.proc.stdout,), daemon=True)
        self._reader.start()
        self._next_id = 0
        self.diagnostics: dict[str, list[dict[str, Any]]] = {}
        self.published: dict[str, float] = {}
        self.request(
            "initialize",
            {
                "processId": None,
                "rootUri": root.as_uri(),
                "capabilities": {
                    "workspace": {"configuration": True},
                    "textDocument": {"publishDiagnostics": {"relatedInformation": False}},
                },
                "workspaceFolders": [{"uri": root.as_uri(), "name": root.name}],
            },
        )
        self.notify("initialized", {})
        self.notify("workspace/didChangeConfiguration", {"settings": settings})

    def _read(self, stream: BinaryIO) -> None:
        while True:
            length = 0
            while True:
                line = stream.readline()
                if not line:
                    return
                if line in (b"\r\n", b"\n"):
                    break
                name, _, value = line.decode("ascii").partition(":")
                if name.strip().lower() == "content-length":
                    length = int(value)
            self._messages.put(json.loads(stream.read(length)))

    def _send(self, message: dict[str, Any]) -> None:
        body = json.dumps({"jsonrpc": "2.0", **message}).encode("utf-8")
        self._in.write(b"Content-Length: %d\r\n\r\n" % len(body) + body)
        self._in.flush()

    def notify(self, method: str, params: Any) -> None:
        self._send({"method": method, "params": params})

    def request(self, method: str, params: Any, timeout: float = 60) -> Any:
        self._next_id += 1
        rid = self._next_id
        self._send({"id": rid, "method": method, "params": params})
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            msg = self._pump(deadline - time.monotonic())
            if msg is not None and msg.get("id") == rid and "method" not in msg:
                return msg.get("result")
        raise TimeoutError(f"no answer to {method}")

    def _pump(self, timeout: float) -> dict[str, Any] | None:
        try:
            msg = self._messages.get(timeout=max(0.01, timeout))
        except queue.Empty:
            return None
        method = msg.get("method")
        if method is not None and "id" in msg:  # a request from the server
            result: Any = None
            if method == "workspace/configuration":
                result = [self.settings.get(item.get("section", ""), None) for item in msg["params"]["items"]]
            self._send({"id": msg["id"], "result": result})
        elif method == "textDocument/publishDiagnostics":
            uri = msg["params"]["uri"]
            self.diagnostics[uri] = msg["params"]["diagnostics"]
            self.published[uri] = time.monotonic()
        return msg

    def open(self, path: Path, text: str | None = None) -> str:
        uri = path.resolve().as_uri()
        body = path.read_text("utf-8") if text is None else text
        self.notify(
            "textDocument/didOpen", {"textDocument": {"uri": uri, "languageId": "yaml", "version": 1, "text": body}}
        )
        return uri

    def wait_diagnostics(
        self, uris: list[str], timeout: float = 90, quiet: float = 1.5, nonempty: bool = False
    ) -> dict[str, list[Any]]:
        """Diagnostics of every uri, once each has been published (with at least one diagnostic when
        ``nonempty``: a busy machine may publish an empty list before the schema is read) and nothing new
        came for ``quiet`` seconds."""
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            self._pump(0.1)
            ready = all(u in self.published and (self.diagnostics[u] or not nonempty) for u in uris)
            if ready and time.monotonic() - max(self.published.values()) > quiet:
                return {u: self.diagnostics[u] for u in uris}
        missing = [u for u in uris if u not in self.published or (nonempty and not self.diagnostics[u])]
        raise TimeoutError(f"no diagnostics published for {missing}")

    def close(self) -> None:
        try:
            self.request("shutdown", None, timeout=10)
            self.notify("exit", None)
            self.proc.wait(timeout=10)
        except (TimeoutError, OSError, subprocess.TimeoutExpired):
            self.proc.kill()
            self.proc.wait()


@pytest.fixture(scope="module", params=sorted(SERVERS))
def server(request: pytest.FixtureRequest) -> Iterator[LspClient]:
    script = SERVERS[request.param]
    node = shutil.which("node")
    if node is None or not script.exists():
        why = (
            f"yaml-language-server {request.param} is not installed: run "
            "`npm ci --prefix tests/editor` (as .ci/run does); node must be on PATH"
        )
        if os.environ.get("GOUJI_EDITOR_TESTS") == "required":  # .ci/run: never skipped there
            pytest.fail(why)
        pytest.skip(why)
    client = LspClient([node, str(script), "--stdio"], ROOT, SETTINGS)
    yield client
    client.close()


def _enum_words(section: str, key: str) -> dict[str, tuple[str, str]]:
    """Each value's (zh, en) words as the shipped schema gives them."""
    field = json.loads((ROOT / "gouji_rules" / "data" / "schema.json").read_text("utf-8"))
    field = field["properties"][section]["properties"][key]
    words = [w.split("\n") for w in field["enumDescriptions"]]
    return {v: (w[0], w[1]) for v, w in zip(field["enum"], words, strict=True)}


def _lines_with_errors(diags: list[dict[str, Any]]) -> list[int]:
    return sorted({d["range"]["start"]["line"] + 1 for d in diags if d.get("severity", 1) == 1})


def test_server_reports_no_diagnostic_on_any_shipped_variant(server: LspClient) -> None:
    files = sorted(VARIANTS.glob("*.yaml"))
    assert len(files) >= 4
    uris = [server.open(p) for p in files]
    found = server.wait_diagnostics(uris)
    assert {u: d for u, d in found.items() if d} == {}


BROKEN = {
    # the invalid corpus: files wrong in a way an editor can see (not the loader's YAML 1.1 strictness)
    "unknown_key_suggestion.yaml": "Property teamate is not allowed",
    "unknown_section_suggestion.yaml": "Property scorng is not allowed",
    "above_maximum.yaml": "maximum",
    "below_minimum.yaml": "minimum",
    "enum_near_miss.yaml": "Value is not accepted",
    "no_for_enum.yaml": "Value is not accepted",
    "list_wrong_length.yaml": "",
    "wrong_type_map_for_list.yaml": "Incorrect type",
    "wrong_type_int.yaml": "Incorrect type",
    "wrong_type_quoted_int.yaml": "Incorrect type",
    "bad_rank_in_list.yaml": "Value is not accepted",
    "hook_does_not_exist.yaml": "Property is_goji is not allowed",
}


def test_server_reports_a_diagnostic_at_the_line_gouji_validate_reports(server: LspClient, tmp_path: Path) -> None:
    expected = yaml.safe_load((INVALID / "expected.yaml").read_text("utf-8"))
    modeline = f"# yaml-language-server: $schema={(ROOT / 'gouji_rules' / 'data' / 'schema.json').as_uri()}\n"
    uris: dict[str, str] = {}
    for name in BROKEN:
        path = tmp_path / name  # the corpus files, with a modeline one line above: lines shift by one
        path.write_text(modeline + (INVALID / name).read_text("utf-8"), encoding="utf-8")
        uris[name] = server.open(path)
    found = server.wait_diagnostics(list(uris.values()), nonempty=True)
    for name, words in BROKEN.items():
        diags = found[uris[name]]
        want = expected[name]["line"] + 1
        assert want in _lines_with_errors(diags), (name, diags)
        assert any(words in d["message"] for d in diags if d["range"]["start"]["line"] + 1 == want), (name, diags)


def test_server_shows_the_words_of_an_enumerated_value_on_completion(server: LspClient, tmp_path: Path) -> None:
    path = tmp_path / "club.yaml"
    text = "# yaml-language-server: $schema=" + (ROOT / "gouji_rules" / "data" / "schema.json").as_uri() + "\n"
    text += "extends: dagang\nmen:\n  penalty: \n"
    uri = server.open(path, text)
    server.wait_diagnostics([uri])
    result = server.request(
        "textDocument/completion", {"textDocument": {"uri": uri}, "position": {"line": 3, "character": 11}}
    )
    items = result["items"] if isinstance(result, dict) else result
    docs = {i["label"]: json.dumps(i.get("documentation", ""), ensure_ascii=False) for i in items}
    zh, en = _enum_words("men", "penalty")["place_bottom"]
    assert "place_bottom" in docs and zh in docs["place_bottom"] and en in docs["place_bottom"], docs


def test_server_shows_the_key_and_the_words_of_every_value_on_hover(server: LspClient, tmp_path: Path) -> None:
    path = tmp_path / "hover.yaml"
    text = "# yaml-language-server: $schema=" + (ROOT / "gouji_rules" / "data" / "schema.json").as_uri() + "\n"
    text += "extends: dagang\nmen:\n  penalty: place_bottom\n"
    uri = server.open(path, text)
    assert server.wait_diagnostics([uri]) == {uri: []}
    hover = server.request(
        "textDocument/hover", {"textDocument": {"uri": uri}, "position": {"line": 3, "character": 14}}
    )
    shown = hover["contents"]["value"].replace("\\.", ".")  # 1.15 escapes the dot of a title
    assert "men.penalty" in shown
    for value, (zh, en) in _enum_words("men", "penalty").items():
        assert f"`{value}`: {zh}" in shown and en in shown
