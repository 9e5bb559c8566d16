"""The memory core's fact gate gets what it counts from the agent (issue 31): the run's
counterparty and template (`MemoryAgent.profile`, as keyed tokens), its parties
(`MemoryAgent.parties`: a fact naming one is refused) and how many distinct counterparties and
templates a fact needs (`fact_min_counterparties`, `fact_min_templates`)."""

from __future__ import annotations

import json

from langchain_core.language_models.fake_chat_models import GenericFakeChatModel
from langchain_core.messages import AIMessage

from graphs.context import context_from_settings, run_scope
from memory.graph import MemorySteps, TaskProfile
from tests.test_fork_template import ARTIFACTS, TriageAgent, TriageState, build_triage_graph


class CustomerState(TriageState, total=False):
    customer: str
    form: str


class CustomerAgent(TriageAgent):
    """A fork whose tickets come from customers (its counterparties) on forms (its templates)."""

    fact_min_counterparties = 2
    fact_min_templates = 2

    def profile(self, state):
        return TaskProfile(summary="Triage ticket", counterparty=state["customer"], template=state["form"])

    def parties(self, state):
        return [state["customer"]]


def _facts_confirmed(settings, runs: list[tuple[str, str]], fact: str, agent: str) -> list[list[str]]:
    artifacts = {**ARTIFACTS, "fact_candidates": [{"text": fact, "domain": "support", "confidence": 0.9}]}
    extractor = GenericFakeChatModel(messages=iter([AIMessage(json.dumps(artifacts))] * 10))
    ctx = context_from_settings(settings, tenant=agent, agent=agent, task_type="ticket_triage", domain="support",
                                extraction_model=extractor)
    graph = build_triage_graph(MemorySteps(CustomerAgent(), scope=run_scope), CustomerState)
    confirmed = []
    for i, (customer, form) in enumerate(runs):
        state = graph.invoke({"ticket": f"charged twice, ticket {i}", "run_id": f"{agent}-{i}", "customer": customer,
                              "form": form}, {"configurable": {"thread_id": f"{agent}-{i}"}}, context=ctx)
        confirmed.append(state["memory_writes"]["facts_confirmed"])
    return confirmed


FACT = "Double charges are handled by the billing team"


def test_one_counterparty_or_one_template_confirms_nothing(settings):
    one_customer = [("Globex Corporation", "web form"), ("Globex Corporation", "email"), ("Globex Corporation", "phone")]
    assert _facts_confirmed(settings, one_customer, FACT, "one-customer") == [[], [], []]
    one_form = [("Globex Corporation", "web form"), ("Initech LLC", "web form"), ("Umbrella plc", "web form")]
    assert _facts_confirmed(settings, one_form, FACT, "one-form") == [[], [], []]


def test_distinct_counterparties_and_templates_confirm_a_fact(settings):
    runs = [("Globex Corporation", "web form"), ("Initech LLC", "email"), ("Umbrella plc", "web form")]
    confirmed = _facts_confirmed(settings, runs, FACT, "distinct")
    assert confirmed[:2] == [[], []] and confirmed[2]


def test_a_fact_naming_a_party_is_refused(settings):
    """Each run's customer is a party of that run: a fact naming it is never learned, even from
    three customers and two forms (Initech's and Umbrella's runs name them too)."""
    runs = [("Globex Corporation", "web form"), ("Initech LLC", "email"), ("Umbrella plc", "web form")]
    named = "Globex, Initech and Umbrella double charges are handled by the billing team"
    assert _facts_confirmed(settings, runs, named, "named") == [[], [], []]
