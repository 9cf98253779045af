"""canasta.web: the JSON API of `canasta serve`, through Starlette's TestClient (extra `web`)."""

from __future__ import annotations

import importlib.util
import json
import os
import re
import subprocess
import sys
import time
import urllib.request
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("starlette", reason="the web extra is not installed: pip install 'canasta[web]'")
if importlib.util.find_spec("httpx2") is None and importlib.util.find_spec("httpx") is None:
    pytest.skip("Starlette's TestClient needs httpx2 (the test extra)", allow_module_level=True)

from starlette.testclient import TestClient

import canasta
from canasta import cli
from canasta.actions import Discard
from canasta.cards import Kind
from canasta.records import GameRecorder, loads_record
from canasta.web import create_app
from canasta.web.app import COOKIE, STATIC
from canasta.web.session import PlaySession, SessionStore

BASE = "http://127.0.0.1"


def client(**options: Any) -> TestClient:
    return TestClient(create_app(**options), base_url=BASE)


def new_game(c: TestClient, seed: int = 5, variant: str = "classic", **extra: Any) -> dict[str, Any]:
    response = c.post("/api/new", json={"variant": variant, "seed": seed, **extra})
    assert response.status_code == 200, response.text
    return dict(response.json())


def session_of(c: TestClient) -> PlaySession:
    store: SessionStore = c.app.state.sessions  # type: ignore[attr-defined]
    session = store.get(c.cookies.get(COOKIE))
    assert isinstance(session, PlaySession)
    return session


def play_to_hand_end(c: TestClient, state: dict[str, Any], limit: int = 400) -> dict[str, Any]:
    """Click the first legal button until a hand's score is shown."""
    for _ in range(limit):
        if state["hand_score"] is not None:
            return state
        assert state["legal"], state["message"]
        response = c.post("/api/act", json={"id": state["legal"][0]["id"]})
        assert response.status_code == 200, response.text
        state = response.json()
    raise AssertionError(f"no hand ended within {limit} clicks")


def bot_record(hands: int = 1, seed: int = 11) -> str:
    game = canasta.Game("classic", seed=seed)
    bots = [canasta.make_bot("greedy", f"{seed}:{s}") for s in range(game.rules.players)]
    recorder = GameRecorder(game, [f"greedy {s}" for s in range(game.rules.players)])
    while len(game.results) < hands and not game.is_over:
        recorder.apply(bots[game.seat].choose(game.hand, game.seat))
    return recorder.record().dumps()


# --- playing -----------------------------------------------------------------------------


def test_the_page_and_its_files_are_served_with_no_outside_address() -> None:
    c = client()
    page = c.get("/")
    assert page.status_code == 200
    assert "text/html" in page.headers["content-type"]
    assert "script-src 'self'" in page.headers["content-security-policy"]
    for name in ("app.js", "style.css"):
        assert c.get(f"/static/{name}").status_code == 200
    for path in STATIC.iterdir():
        assert not re.search(r"https?://", path.read_text()), f"{path.name} names an outside address"


def test_a_new_game_shows_the_table_and_the_legal_actions() -> None:
    c = client()
    state = new_game(c, seed=5)
    assert c.cookies.get(COOKIE)
    assert state["mode"] == "play"
    assert state["svg"].lstrip().startswith("<svg")
    assert state["scores"] == [0, 0]
    assert not state["over"]
    assert state["names"] == ["you", "greedy", "greedy", "greedy"]
    game = session_of(c).game
    assert game.seat == 0
    expected = game.legal_actions()
    assert [choice["label"] for choice in state["legal"]] == [str(a) for a in expected]
    assert [choice["id"] for choice in state["legal"]] == [str(i) for i in range(len(expected))]
    assert state["legal"][0]["command"] == "d"
    assert c.get("/api/state").json()["svg"] == state["svg"]


def test_a_legal_action_is_played() -> None:
    c = client()
    state = new_game(c, seed=5)
    response = c.post("/api/act", json={"id": "0"})
    assert response.status_code == 200
    after = response.json()
    assert after["message"] == "You: draw from the stock."
    assert after["version"] > state["version"]
    assert session_of(c).game.history[-1] == canasta.DrawStock()
    assert all(choice["group"] in ("meld", "discard", "go out") for choice in after["legal"])


def test_an_illegal_typed_command_is_refused_with_the_engines_reason_and_nothing_changes() -> None:
    c = client()
    state = new_game(c, seed=5)
    game = session_of(c).game
    history = game.history
    with pytest.raises(canasta.IllegalActionError) as refused:
        game.check(Discard(Kind.NINE))
    response = c.post("/api/act", json={"command": "x 9"})
    assert response.status_code == 422
    after = response.json()
    assert after["error"] == f"not allowed now: {refused.value.message}"
    assert "draw phase" in after["error"]
    assert session_of(c).game.history == history
    assert after["svg"] == state["svg"]
    assert after["legal"] == state["legal"]
    # The next good move clears the refusal.
    assert c.post("/api/act", json={"command": "d"}).json()["error"] is None


def test_unreadable_input_and_bad_ids_are_refused() -> None:
    c = client()
    new_game(c)
    reply = c.post("/api/act", json={"command": "hello"})
    assert reply.status_code == 422
    assert reply.json()["error"].startswith("not a command: unknown command 'hello'")
    assert c.post("/api/act", json={"id": "99"}).status_code == 422
    assert c.post("/api/act", json={"id": "next"}).status_code == 422  # no hand has ended
    assert c.post("/api/act", json={}).status_code == 400
    assert c.post("/api/act", json={"id": "0", "command": "d"}).status_code == 400
    assert c.post("/api/act", json={"id": True}).status_code == 400
    assert c.post("/api/act", content=b"id=0", headers={"content-type": "text/plain"}).status_code == 415
    assert c.post("/api/act", content=b"{", headers={"content-type": "application/json"}).status_code == 400
    assert session_of(c).game.history == ()


def test_a_typed_menu_number_and_the_help() -> None:
    c = client()
    new_game(c)
    helped = c.post("/api/act", json={"command": "?"}).json()
    # The commands come as a list of (command, meaning) rows, shown as a table, not one paragraph.
    assert helped["help"] and all(len(row) == 2 for row in helped["help"])
    assert any(command.startswith("x ") for command, _ in helped["help"])
    played = c.post("/api/act", json={"command": "1"}).json()
    assert played["message"] == "You: draw from the stock." and played["help"] is None


def test_the_bots_move_until_it_is_the_persons_turn_again() -> None:
    c = client()
    new_game(c, seed=5)
    drawn = c.post("/api/act", json={"command": "d"}).json()
    discard = next(choice for choice in drawn["legal"] if choice["group"] == "discard")
    state = c.post("/api/act", json={"id": discard["id"]}).json()  # the turn ends; the bots play theirs
    session = session_of(c)
    assert state["hand_score"] is None
    assert session.game.seat == 0
    assert state["legal"] and state["typing"]
    seats = [int(line.split()[1]) for line in state["log"]]
    assert seats[:3] == [1, 1, 1] or 1 in seats  # seat 1 plays first after seat 0
    assert set(seats) == {1, 2, 3}
    assert all(": " in line for line in state["log"])
    history = session.game.history
    assert len(history) == 2 + len(seats)


def test_a_bot_that_deals_first_moves_before_the_person() -> None:
    c = client()
    new_game(c, seed=5, variant="two-player")
    session = session_of(c)
    assert session.game.seat == 0
    assert len(session.names) == 2


def test_a_whole_hand_is_played_then_the_score_and_the_next_hand() -> None:
    c = client()
    state = play_to_hand_end(c, new_game(c, seed=3))
    score = state["hand_score"]
    game = session_of(c).game
    assert score["hand"] == 1
    assert state["hand"] == 1  # the finished hand (the next one is dealt already)
    assert [side["total"] for side in score["sides"]] == list(game.results[0].totals)
    assert [side["score"] for side in score["sides"]] == state["scores"] == list(game.scores)
    assert score["sides"][0]["seats"] == [0, 2]
    assert state["legal"] == [{"id": "next", "label": "Next hand", "command": "", "group": "next"}]
    assert not state["typing"]
    assert "hand 1 is over" in state["svg"]
    refused = c.post("/api/act", json={"command": "d"})
    assert refused.status_code == 422 and "Next hand" in refused.json()["error"]
    state = c.post("/api/act", json={"id": "next"}).json()
    assert state["hand_score"] is None
    assert state["hand"] == 2
    assert state["legal"] and state["legal"][0]["id"] == "0"
    record = loads_record(c.get("/api/record").text)
    assert record.seats[0] == "you"
    assert record.hand_lengths[0] > 0


def test_the_finished_hands_picture_and_score_agree() -> None:
    c = client()
    state = play_to_hand_end(c, new_game(c, seed=3))
    score = state["hand_score"]
    totals = [side["score"] for side in score["sides"]]
    assert any(totals)
    # The picture beside the score table shows the totals after the hand, not "score 0".
    for total in totals:
        assert f">score {total}<" in state["svg"]
    # Only parts some side scored, each non-zero value with its reason; classic sets no three aside.
    keys = [line["key"] for line in score["lines"]]
    assert "set_aside" not in keys and "melded_cards" in keys
    for line in score["lines"]:
        assert any(line["values"])
        assert [bool(r) for r in line["reasons"]] == [bool(v) for v in line["values"]]
    assert score["how"] in state["message"]


def test_the_page_writes_tens_as_10() -> None:
    c = client()
    for seed in range(1, 30):
        state = new_game(c, seed=seed)
        drawn = c.post("/api/act", json={"command": "d"}).json()
        labels = [choice["label"] for choice in drawn["legal"]]
        if any("10" in label for label in labels):
            break
    else:
        raise AssertionError("no ten in 29 deals")
    assert not any(re.search(r"(?<![A-Za-z0-9])T(?![A-Za-z0-9])", label) for label in labels)
    assert not any(re.search(r"(?<![A-Za-z0-9])T(?![A-Za-z0-9])", line) for line in state["log"])


def test_the_end_of_a_game() -> None:
    c = client()
    session = PlaySession("classic", (), 2)
    while not session.game.is_over:
        legal = session.state()["legal"]
        session.choose(legal[0]["id"])
    state = session.state()
    assert state["over"]
    assert state["legal"] == []
    assert "Game over after" in state["message"]
    assert state["hand_score"] is not None
    del c


def test_new_game_options_are_checked() -> None:
    c = client()
    assert c.post("/api/new", json={"variant": "nowhere"}).status_code == 422
    assert "nowhere" in c.post("/api/new", json={"variant": "nowhere"}).json()["error"]
    assert c.post("/api/new", json={"house_rules": "cutthroat"}).status_code == 400
    assert c.post("/api/new", json={"seed": "x"}).status_code == 400
    assert c.post("/api/new", json={"seed": 2**70}).status_code == 400
    assert c.post("/api/new", json={"bot": "nobody"}).status_code == 422
    state = new_game(c, seed="12", variant="three-player", house_rules=["cutthroat"])  # type: ignore[arg-type]
    assert state["house_rules"] == ["cutthroat"] and state["seed"] == 12
    listing = c.get("/api/variants").json()
    assert "classic" in {v["name"] for v in listing["variants"]}
    assert "cutthroat" in {h["name"] for h in listing["house_rules"]}
    assert listing["defaults"]["variant"] == "classic"


# --- records -----------------------------------------------------------------------------


def test_a_record_is_replayed_step_by_step() -> None:
    c = client()
    text = bot_record()
    record = loads_record(text)
    total = len(record.actions)
    response = c.post("/api/replay", json={"record": text})
    assert response.status_code == 200, response.text
    state = response.json()
    assert state["mode"] == "replay"
    assert state["replay"] == {"at": 0, "total": total, "complete": False}
    assert state["legal"] == []
    assert state["names"] == list(record.seats)

    def step(to: object) -> dict[str, Any]:
        reply = c.post("/api/replay/step", json={"to": to})
        assert reply.status_code == 200, reply.text
        return dict(reply.json())

    assert step("next")["replay"]["at"] == 1
    assert step("next")["message"].startswith(f"Action 2 of {total}: ")
    fifth = step(5)
    assert fifth["replay"]["at"] == 5
    assert step("prev")["replay"]["at"] == 4
    assert step(5)["svg"] == fifth["svg"]
    last = step("last")
    assert last["replay"]["at"] == total
    assert last["hand_score"] is not None and last["hand_score"]["hand"] == 1
    assert step("next")["replay"]["at"] == total  # it stays at the end
    assert step("first")["replay"]["at"] == 0
    assert step("prev")["replay"]["at"] == 0
    out_of_range = c.post("/api/replay/step", json={"to": total + 1})
    assert out_of_range.status_code == 422 and "positions 0-" in out_of_range.json()["error"]
    assert out_of_range.json()["replay"]["at"] == 0
    assert c.post("/api/replay/step", json={"to": "sideways"}).status_code == 422
    assert c.post("/api/replay/step", json={"to": None}).status_code == 400
    assert c.post("/api/act", json={"id": "0"}).status_code == 409
    # A record given as a JSON object works too.
    assert c.post("/api/replay", json={"record": json.loads(text)}).status_code == 200


def test_a_bad_record_is_refused_with_its_error_and_nothing_changes() -> None:
    c = client()
    state = new_game(c)
    truncated = c.post("/api/replay", json={"record": bot_record()[:-40]})
    assert truncated.status_code == 422
    assert truncated.json()["error"].startswith("not a valid record: ")
    data = json.loads(bot_record())
    data["actions"][0] = {"type": "discard", "kind": "9"}
    illegal = c.post("/api/replay", json={"record": json.dumps(data)})
    assert illegal.status_code == 422
    assert "actions[0]" in illegal.json()["error"]
    assert c.post("/api/replay", json={"record": ""}).status_code == 400
    assert c.post("/api/replay", json={"record": 7}).status_code == 400
    assert c.get("/api/state").json()["svg"] == state["svg"]  # still the same game
    assert c.post("/api/replay/step", json={"to": 1}).status_code == 409


def test_an_oversized_request_is_refused() -> None:
    c = client()
    new_game(c)
    big = json.dumps({"command": "d" * 100_000})
    assert c.post("/api/act", content=big, headers={"content-type": "application/json"}).status_code == 413


# --- sessions ----------------------------------------------------------------------------


def test_an_unknown_session_is_handled() -> None:
    c = client()
    stale = {"cookie": f"{COOKIE}=no-such-session"}
    refused = c.post("/api/act", json={"id": "0"}, headers=stale)
    assert refused.status_code == 404
    assert "start a new one" in refused.json()["error"]
    assert c.post("/api/act", json={"id": "0"}).status_code == 404  # no cookie at all
    assert c.post("/api/replay/step", json={"to": 1}, headers=stale).status_code == 404
    assert c.get("/api/record", headers=stale).status_code == 404
    state = c.get("/api/state", headers=stale)
    assert state.status_code == 200
    assert state.json()["message"].startswith("No game of this browser is kept")
    key = state.cookies.get(COOKIE)
    assert key and key != "no-such-session"
    assert c.post("/api/act", json={"id": "0"}, headers={"cookie": f"{COOKIE}={key}"}).status_code == 200


def test_sessions_are_separate_and_capped() -> None:
    app = create_app(max_sessions=2)
    first, second, third = (TestClient(app, base_url=BASE) for _ in range(3))
    new_game(first, seed=1)
    new_game(second, seed=2)
    assert first.get("/api/state").json()["seed"] == 1
    assert second.get("/api/state").json()["seed"] == 2
    new_game(third, seed=3)  # the least recently used (first) is dropped
    assert first.post("/api/act", json={"id": "0"}).status_code == 404
    assert second.post("/api/act", json={"id": "0"}).status_code == 200
    assert len(app.state.sessions) == 2
    with pytest.raises(ValueError):
        SessionStore(0)


def test_only_loopback_host_names_are_answered_by_default() -> None:
    assert TestClient(create_app()).get("/api/state").status_code == 400  # Host: testserver
    assert TestClient(create_app(allowed_hosts=None)).get("/api/state").status_code == 200
    assert TestClient(create_app(), base_url="http://localhost:8000").get("/").status_code == 200


def test_the_default_game_comes_from_the_options() -> None:
    c = client(variant="cuban", seed=4)
    state = c.get("/api/state").json()
    assert state["variant"] == "cuban" and state["seed"] == 4
    with pytest.raises(canasta.CanastaError):
        create_app(variant="nowhere")


# --- the command ---------------------------------------------------------------------------


def test_serve_without_the_web_extra_says_so(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setitem(sys.modules, "uvicorn", None)  # import uvicorn raises ImportError
    assert cli.main(["serve"]) == 2
    assert "pip install 'canasta[web]'" in capsys.readouterr().err


def test_serve_refuses_an_unknown_variant(capsys: pytest.CaptureFixture[str]) -> None:
    pytest.importorskip("uvicorn")
    assert cli.main(["serve", "--variant", "nowhere"]) == 2
    assert "nowhere" in capsys.readouterr().err


def test_canasta_serve_answers_on_loopback(tmp_path: Path) -> None:
    pytest.importorskip("uvicorn")
    env = {**os.environ, "PYTHONUNBUFFERED": "1"}
    command = [sys.executable, "-m", "canasta.cli", "serve", "--port", "0", "--seed", "9"]
    process = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env)
    try:
        assert process.stdout is not None
        line = process.stdout.readline()
        match = re.search(r"http://127\.0\.0\.1:(\d+)/", line)
        assert match, line + (process.stderr.read() if process.stderr else "")
        url = match.group(0)
        deadline = time.monotonic() + 20
        while True:
            try:
                with urllib.request.urlopen(url + "api/state", timeout=5) as response:
                    state = json.load(response)
                break
            except OSError:
                if time.monotonic() > deadline:
                    raise
                time.sleep(0.1)
        assert state["seed"] == 9 and state["legal"]
    finally:
        process.terminate()
        process.wait(timeout=10)
