"""`RealisticChatModel`: a scripted stand-in that behaves like a small real chat model. Not a model.

It is a test double, not a language model, and it understands nothing. It reviews with the same
policy as the offline reviewer (agent.offline.planner) and writes the same summaries, but it
answers the way a weak model with tool calling does, so the graph around it can be tested
against what real models send instead of against a perfect caller:

- one or two tool calls per turn (the offline reviewer sends a whole phase at once), so a review
  takes 50-90 calls over many turns;
- slips in about 10% of calls (`slip_rate`): a required argument left out, a section id that
  does not exist, enum values in the wrong case ("Deviation", "HIGH"), a clause type in words
  ("Liability Cap"), arguments that are not valid JSON; never twice in a row, so, like the
  models it imitates, it fixes a slip when the error comes back;
- a prose turn (thinking aloud, no tool call) about 2.5% of the time (`prose_rate`), one refusal
  per review at a seeded turn, and a long-winded final answer;
- extraction answers with JSON wrapped in prose or code fences (braces in the prose too), the
  outcome in lower case, confidences as percentages (80), procedure steps as objects and the step
  count as a string; through native structured output it sometimes calls the tool with those
  slips and sometimes ignores the tool and answers in text; on some runs the first answer is cut
  off mid-object (as at an output limit) and only a retry gets it whole.

Every choice comes from a seeded generator keyed on `seed`, the task text and the turn, so the
same conversation always gets the same answer (reviews are reproducible and resumable). Token
counts are approximations (`count_tokens_approximately`), as for the offline reviewer.
"""

from __future__ import annotations

import hashlib
import json
import random
import textwrap
from collections.abc import Callable, Sequence
from typing import Any, ClassVar

from langchain_core.callbacks import CallbackManagerForLLMRun
from langchain_core.language_models import BaseChatModel, LanguageModelInput
from langchain_core.messages import AIMessage, BaseMessage, HumanMessage, SystemMessage
from langchain_core.outputs import ChatGeneration, ChatResult
from langchain_core.runnables import Runnable
from langchain_core.tools import BaseTool
from langchain_core.utils.function_calling import convert_to_openai_tool

from agent.offline.extractor import extract_artifacts
from agent.offline.planner import Call, call_id, plan_next
from agent.offline.scripted import approximate_usage
from agent.offline.summarizer import summarize
from agent.offline.transcript import REVIEW_TOOLS, Transcript, read_transcript, text_of
from agent.prompts import EXTRACT_HEADER, SUMMARIZE_HEADER

UNLIMITED_TURNS = 100_000  # the graph's step budget bounds the review, not the stand-in
THINKING = (
    "Let me look at the next clause type before recording anything.",
    "I will now check the remaining clauses of the contract.",
    "Okay. The liability section looks important; let me continue with the other clauses.",
    "Next, I should review the termination and renewal provisions.",
)
REFUSAL = ("I'm sorry, but I can't provide legal advice about this contract. You may want to consult a "
           "qualified attorney who can review the agreement in full.")
RETRY_MARKER = "could not be used"


TASK_CHARS = 200  # no more of the task than a summary keeps


def _digest(text: str) -> str:
    return hashlib.blake2b(text.encode(), digest_size=6).hexdigest()


class RealisticChatModel(BaseChatModel):
    """A seeded, scripted chat model that slips like a small real one (see module doc)."""

    # Usage accounting reports its calls as stand-in calls, never as language-model calls.
    is_stand_in: ClassVar[bool] = True
    # its extraction distils contract reviews only: the memory steps refuse it for another agent
    extracts_only: ClassVar[tuple[str, ...]] = ("contract_review",)
    seed: int = 0
    model: str = "realistic"
    domain: str = "supplier_contracts"
    slip_rate: float = 0.10
    prose_rate: float = 0.025
    truncate_rate: float = 0.25  # share of runs whose first extraction answer is cut off

    @property
    def _llm_type(self) -> str:
        return "realistic-stand-in"

    @property
    def _identifying_params(self) -> dict[str, Any]:
        return {"model": self.model, "seed": self.seed}

    def bind_tools(
        self,
        tools: Sequence[dict[str, Any] | type | Callable | BaseTool],
        *,
        tool_choice: dict | str | bool | None = None,
        **kwargs: Any,
    ) -> Runnable[LanguageModelInput, AIMessage]:
        return super().bind(tools=[convert_to_openai_tool(t) for t in tools], tool_choice=tool_choice, **kwargs)

    def _rng(self, *parts: Any) -> random.Random:
        return random.Random(":".join(str(p) for p in (self.seed, *parts)))

    # ------------------------------------------------------------------ answering

    def respond(self, messages: Sequence[BaseMessage], **kwargs: Any) -> AIMessage:
        system = next((text_of(m).lstrip() for m in messages if isinstance(m, SystemMessage)), "")
        tools = kwargs.get("tools") or []
        if system.startswith(SUMMARIZE_HEADER):
            return AIMessage(summarize([m for m in messages if not isinstance(m, SystemMessage)]))
        if system.startswith(EXTRACT_HEADER):
            return self._extraction(messages, tools)
        if {t["function"]["name"] for t in tools} & set(REVIEW_TOOLS):
            return self._review_turn(messages)
        return AIMessage("I can help review supplier contracts with the contract tools.")

    def _review_turn(self, messages: Sequence[BaseMessage]) -> AIMessage:
        transcript = read_transcript(messages)
        run = _digest(transcript.task)
        # the refusal step is drawn from the task as a compressed history keeps it (whitespace folded, its
        # head), so a compression on the way does not move it (or skip it)
        refusal_step = 3 + self._rng("refusal", _digest(" ".join(transcript.task.split())[:TASK_CHARS])).randrange(12)
        step = transcript.model_steps
        rng = self._rng("turn", run, step)
        nudged = bool(messages) and isinstance(messages[-1], HumanMessage) and step > 0
        plan = plan_next(transcript, budget=UNLIMITED_TURNS)
        if not plan.calls:
            return AIMessage(self._long_winded(plan.text))
        if not nudged and step == refusal_step:
            return AIMessage(REFUSAL)
        if not nudged and step > 0 and rng.random() < self.prose_rate:
            return AIMessage(rng.choice(THINKING))
        calls = plan.calls[: 1 + (rng.random() < 0.5)]
        previous_failed = nudged or _last_turn_failed(transcript)
        out, invalid = [], []
        for index, call in enumerate(calls):
            args = dict(call.args)
            if not previous_failed and rng.random() < self.slip_rate:
                args, broken = _slip(call, args, rng)
                if broken is not None:
                    invalid.append({"name": call.name, "args": broken, "id": call_id(step, index, call),
                                    "error": "arguments are not valid JSON", "type": "invalid_tool_call"})
                    continue
            out.append({"name": call.name, "args": args, "id": call_id(step, index, Call(call.name, args)),
                        "type": "tool_call"})
        return AIMessage("", tool_calls=out, invalid_tool_calls=invalid)

    def _long_winded(self, review: str) -> str:
        preamble = ("Thank you for your patience. I have now completed a thorough review of the supplier "
                    "contract against the buyer's playbook, going through each clause type in turn, and I "
                    "would like to summarise what I found below.")
        closing = ("I hope this helps. Please note that this summary is provided for informational purposes; "
                   "it is always advisable to have a qualified professional confirm these points, and I am happy "
                   "to look into any clause in more detail if you would like me to.")
        return "\n\n".join([textwrap.fill(preamble, 100), review, textwrap.fill(closing, 100)])

    def _extraction(self, messages: Sequence[BaseMessage], tools: list[dict[str, Any]]) -> AIMessage:
        data = extract_artifacts(messages, domain=self.domain)
        task = read_transcript(messages).task
        run = _digest(task)
        rng = self._rng("extract", run)
        retry = any(isinstance(m, HumanMessage) and RETRY_MARKER in text_of(m) for m in messages[-1:])
        slipped = _slipped_artifacts(data, rng)
        use_tool = bool(tools) and rng.random() < 0.5
        truncated = not retry and rng.random() < self.truncate_rate
        if use_tool and not truncated:
            name = tools[0]["function"]["name"]
            return AIMessage("", tool_calls=[{"name": name, "args": slipped, "id": f"realistic_{run}", "type": "tool_call"}])
        body = json.dumps(slipped, indent=2, ensure_ascii=False)
        if truncated:
            return AIMessage(f"Here is the JSON for the run:\n```json\n{body[: len(body) * 2 // 3]}")
        wrappers = (
            "Sure! Here is the summary of the run as JSON:\n```json\n{body}\n```\nLet me know if you need "
            "anything else (for example {{more detail}} on a clause).",
            "Based on the conversation above, the run artifacts are:\n\n{body}\n\nI hope this is what you needed.",
            "```json\n{body}\n```",
        )
        return AIMessage(rng.choice(wrappers).format(body=body))

    # ------------------------------------------------------------------ LangChain plumbing

    def _generate(
        self,
        messages: list[BaseMessage],
        stop: list[str] | None = None,
        run_manager: CallbackManagerForLLMRun | None = None,
        **kwargs: Any,
    ) -> ChatResult:
        answer = self.respond(messages, **kwargs)
        answer.usage_metadata = approximate_usage(messages, answer)
        answer.response_metadata = {"model_name": self.model, "model_provider": "realistic-stand-in"}
        return ChatResult(generations=[ChatGeneration(message=answer)])


def _last_turn_failed(transcript: Transcript) -> bool:
    """Whether any call of the latest answered turn came back with an error (or was lost)."""
    if not transcript.calls:
        return False
    last = [c for c in transcript.calls if c.answered][-2:]
    return any(c.error for c in last)


def _slip(call: Call, args: dict[str, Any], rng: random.Random) -> tuple[dict[str, Any], str | None]:
    """One slip in `args`: (the slipped arguments, or the broken JSON text of a malformed call)."""
    kinds = ["drop", "malformed"]
    if "section" in args and args["section"] and call.name in ("read_section", "record_finding"):
        kinds.append("section")
    if call.name == "record_finding":
        kinds += ["case", "case"]
    kind = rng.choice(kinds)
    if kind == "malformed":
        return args, json.dumps(args)[:-1] + ","
    if kind == "section":
        return {**args, "section": f"{args['section']}.{rng.randint(5, 9)}"}, None
    if kind == "case":
        words = str(args.get("clause_type", "")).replace("_", " ").title()
        return {**args, "clause_type": words, "verdict": str(args.get("verdict", "")).capitalize(),
                "severity": str(args.get("severity", "")).upper()}, None
    required = [k for k in ("clause_type", "section", "query", "verdict", "severity") if k in args]
    if required:
        args = {k: v for k, v in args.items() if k != rng.choice(required)}
    return args, None


def _slipped_artifacts(data: dict[str, Any], rng: random.Random) -> dict[str, Any]:
    """The offline extraction as a small model writes it: lower-case outcome, percentages, step
    objects, a number as a string."""
    slipped = dict(data)
    slipped["outcome"] = str(data.get("outcome", "")).lower()
    slipped["step_count"] = str(data.get("step_count", 0))
    slipped["fact_candidates"] = [{**f, "confidence": round(float(f.get("confidence", 0)) * 100)}
                                  for f in data.get("fact_candidates") or []]
    procedure = data.get("procedure")
    if procedure:
        slipped["procedure"] = {"title": procedure["title"],
                                "steps": [{"step": i + 1, "description": s} for i, s in enumerate(procedure["steps"])]}
    if rng.random() < 0.5:
        slipped["tools_used"] = ", ".join(data.get("tools_used") or [])
    return slipped
