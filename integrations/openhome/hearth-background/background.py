"""Hearth background daemon for OpenHome: keeps Hearth up to date while the speaker listens.

Every POLL_SECONDS it
  - records a reading `conversation.user_turns` for the speaker (how talkative the room is: the
    pattern engine can learn routines from it, e.g. "the kitchen is busiest around 07:30"), and
  - passes each new user message to Hearth's check_intentions, speaking what it triggers
    ("when Anna gets home, remind her to call the plumber").
"""
import json
import os
import urllib.error
import urllib.request

from src.agent.capability import MatchingCapability
from src.main import AgentWorker
from src.agent.capability_worker import CapabilityWorker

HEARTH_URL = os.environ.get("HEARTH_URL", "http://hearth.local:8900")
HEARTH_TOKEN = os.environ.get("HEARTH_TOKEN", "")
DEVICE = os.environ.get("HEARTH_DEVICE", "openhome_speaker")
POLL_SECONDS = float(os.environ.get("HEARTH_POLL_SECONDS", "60"))


def hearth(path: str, body: dict) -> dict:
    headers = {"content-type": "application/json"}
    if HEARTH_TOKEN:
        headers["authorization"] = "Bearer " + HEARTH_TOKEN
    req = urllib.request.Request(HEARTH_URL + path, data=json.dumps(body).encode(), headers=headers, method="POST")
    try:
        with urllib.request.urlopen(req, timeout=10) as res:
            return json.loads(res.read())
    except urllib.error.HTTPError as e:
        return json.loads(e.read() or b"{}") or {"ok": False, "message": str(e)}
    except (urllib.error.URLError, OSError) as e:
        return {"ok": False, "message": "Hearth did not answer: %s" % e}


def new_user_messages(history: list, seen: int) -> tuple:
    """User messages after the first `seen` entries of the history, and the new `seen`."""
    fresh = [m.get("content", "") for m in history[seen:] if m.get("role") == "user" and m.get("content")]
    return fresh, len(history)


def tick(history: list, seen: int) -> tuple:
    """One pass: a reading, then intentions for each new user message. Returns (to_say, seen)."""
    fresh, seen = new_user_messages(history, seen)
    hearth("/record", {"entity_name": DEVICE, "entity_type": "device", "metric": "conversation.user_turns", "value": len(fresh), "source": "openhome"})
    to_say = []
    for text in fresh:
        reply = hearth("/check_intentions", {"text": text})
        to_say += [t["action_text"] for t in reply.get("triggered", [])]
    return to_say, seen


class HearthBackgroundCapabilityBackground(MatchingCapability):
    worker: AgentWorker = None
    capability_worker: CapabilityWorker = None
    background_daemon_mode: bool = False

    # Do not change following tag of register capability
    #{{register capability}}

    async def watch(self):
        seen = len(self.capability_worker.get_full_message_history())
        while True:
            await self.worker.session_tasks.sleep(POLL_SECONDS)
            to_say, seen = tick(self.capability_worker.get_full_message_history(), seen)
            for line in to_say:
                await self.capability_worker.speak(line)

    def call(self, worker: AgentWorker, background_daemon_mode: bool):
        self.worker = worker
        self.background_daemon_mode = background_daemon_mode
        self.capability_worker = CapabilityWorker(self.worker)
        self.worker.session_tasks.create(self.watch())
