"""Hearth memory ability for OpenHome: remember, recall, locate and find by voice.

"remember that Brian likes jazz"        -> POST /remember
"I put my keys in the kitchen drawer"   -> POST /locate
"where are my keys?"                    -> POST /find
anything else ("do you remember ...")   -> POST /recall

Set HEARTH_URL and HEARTH_TOKEN below (or in the environment). Hearth answers every call with
{"ok": true, "result": "<plain text>"}: the ability speaks `result`.
"""
import json
import os
import re
import urllib.error
import urllib.request

from src.agent.capability import MatchingCapability
from src.main import AgentWorker
from src.agent.capability_worker import CapabilityWorker

HEARTH_URL = os.environ.get("HEARTH_URL", "http://hearth.local:8900")
HEARTH_TOKEN = os.environ.get("HEARTH_TOKEN", "")
# Whom "remember that ..." facts are about when the sentence does not say (the speaker, or the household).
SPEAKER = os.environ.get("HEARTH_SPEAKER", "household")


def hearth(path: str, body: dict) -> dict:
    """POST a JSON body to Hearth; an error comes back as {"ok": false, "message": ...}."""
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


PUT = re.compile(r"^(?:i )?(?:put|left|placed) (?:my |the )?(?P<thing>.+?) (?:in|on|at|under|behind) (?:the |my )?(?P<place>.+?)[.!]?$", re.I)
REMEMBER = re.compile(r"^remember (?:that )?(?P<fact>.+?)[.!]?$", re.I)


def route(utterance: str) -> tuple:
    """What to call for what was said: (path, body)."""
    text = utterance.strip()
    m = REMEMBER.match(text)
    if m:
        return "/remember", {"entity_name": SPEAKER, "fact": m.group("fact"), "source": "openhome"}
    m = PUT.match(text)
    if m:
        return "/locate", {"entity_name": m.group("thing"), "container_name": m.group("place"), "source": "openhome"}
    if re.match(r"^where (?:are|is|did)\b", text, re.I):
        return "/find", {"query": text}
    return "/recall", {"query": text, "top_k": 3}


def answer(utterance: str) -> str:
    path, body = route(utterance)
    reply = hearth(path, body)
    if not reply.get("ok"):
        return "Hearth could not do that: %s" % reply.get("message", "no answer")
    if path == "/recall" and not reply.get("results"):
        return "I don't remember anything about that."
    return reply.get("result", "Done.")


class HearthMemoryCapability(MatchingCapability):
    worker: AgentWorker = None
    capability_worker: CapabilityWorker = None

    # Do not change following tag of register capability
    #{{register capability}}

    def call(self, worker: AgentWorker):
        self.worker = worker
        self.capability_worker = CapabilityWorker(self.worker)
        self.worker.session_tasks.create(self.run())

    async def run(self):
        history = self.capability_worker.get_full_message_history()
        said = history[-1].get("content", "") if history else ""
        if not said:
            await self.capability_worker.speak("What should I remember or look up?")
            said = await self.capability_worker.user_response()
        await self.capability_worker.speak(answer(said))
        self.capability_worker.resume_normal_flow()
