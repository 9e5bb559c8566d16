"""Directional playbook metrics: who owes what to whom (indemnities, assignment, restrictions
on the buyer, damages, audit rights), ranked standard, fallback or deviation."""

from __future__ import annotations

import re

from tools.detection.metrics import Judgement, _rx
from tools.detection.numbers import find_durations, find_percents
from tools.detection.parties import actor_after, actor_before, obligations, passive_agent, roles_in
from tools.playbook import Metric

# ---------------------------------------------------------------- indemnity direction
_INDEMNIFY = _rx(r"\bindemnif(?:y|ies|ied)\b|\b(?:hold|held)\s+(?:\w+\s+){0,3}harmless\b|\bdefend(?:ed)?\b")


_MODAL = _rx(r"\b(?:shall|will|must|agrees?\s+to|undertakes?\s+to|covenants?\s+to)\b")


def _indemnitor(text: str, position: int) -> str | None:
    """Who gives the indemnity whose verb sits at `position`: the agent of a passive verb, else the
    subject of the modal verb it hangs on, walking back over verbs joined by "and" to the first
    ("MMI shall notify Dragon of any loss to Dragon property and shall indemnify Dragon": MMI, never the
    object named last, and nobody when that subject is no known party), else the party right before it."""
    agent = passive_agent(text, position)
    if agent:
        return agent
    lo = max(0, position - 300)
    bounds = [m.end() for m in re.finditer(r"[.;:](?:\s|$)|\(\w{1,4}\)\s", text[lo:position])]
    start = lo + bounds[-1] if bounds else lo
    modals = list(_MODAL.finditer(text, start, position))
    if not modals:
        return actor_before(text, position, 100)
    for modal in reversed(modals):
        if re.search(r"\b(?:and|or)\s*$", text[start:modal.start()], re.IGNORECASE):
            continue  # "... and shall indemnify": the subject of the verb it is joined to
        near = max(start, modal.start() - 60)
        mentions = roles_in(text[near:modal.start()])
        if mentions and len(text[near + mentions[-1][2]:modal.start()].split()) <= 4:
            return actor_before(text, modal.start(), modal.start() - near)
    return None


def indemnity_direction(m: Metric, text: str) -> Judgement:
    givers: set[str] = set()
    for hit in _INDEMNIFY.finditer(text):
        who = _indemnitor(text, hit.start())
        if who:
            givers.add(who)
    capped = bool(_rx(r"\bsubject\s+to\b.{0,60}?\b(?:cap|limit|limitation)|\b(?:shall|will)\s+not\s+exceed\b|\bcapped\b").search(text)) and not _rx(r"\bnot\s+(?:be\s+)?subject\s+to\s+any\s+(?:cap|limit)").search(text)
    if "buyer" in givers and "supplier" not in givers and "both" not in givers:
        return Judgement("deviation", "the buyer indemnifies the supplier with no matching supplier indemnity", "buyer")
    if "buyer" in givers and "supplier" in givers:
        scope, uncapped = _indemnity_scopes(text)
        if (uncapped["buyer"] and not uncapped["supplier"]) or scope["buyer"] > 1.5 * scope["supplier"] > 0:
            return Judgement("deviation", "the buyer gives a broader or uncapped indemnity than the supplier", "buyer")
        if scope["supplier"] > 1.5 * scope["buyer"] > 0 and not capped:
            return Judgement("standard", "the supplier's indemnity is the broad one; the buyer's is a narrow counter-indemnity", "supplier")
    if "both" in givers or ("buyer" in givers and "supplier" in givers):
        return Judgement("fallback", "mutual indemnities", "mutual")
    if "supplier" in givers:
        if capped:
            return Judgement("deviation", "the supplier's indemnity is capped or limited", "supplier-capped")
        return Judgement("standard", "the supplier indemnifies the buyer without cap", "supplier")
    return Judgement("fallback", "an indemnity whose giver could not be identified; check it by hand", None)


def _indemnity_scopes(text: str) -> tuple[dict[str, int], dict[str, bool]]:
    """Length of each side's indemnity sentence (a rough measure of its scope) and whether
    it is expressly uncapped."""
    scope = {"buyer": 0, "supplier": 0}
    uncapped = {"buyer": False, "supplier": False}
    for who, clause in obligations(text, window=600):
        if who in scope and _INDEMNIFY.search(clause[:40]):
            sentence = re.split(r"(?<=\.)\s+(?=[A-Z])", clause)[0]
            scope[who] = max(scope[who], len(sentence))
            uncapped[who] |= bool(_rx(r"not\s+(?:be\s+)?subject\s+to\s+any\s+(?:cap|limit)|without\s+limit|unlimited").search(sentence))
    return scope, uncapped


# ---------------------------------------------------------------- assignment
_CONSENT = _rx(r"\bwithout\b.{0,80}?\b(?:consent|approval|permission)|\bwith\s+the\s+(?:\w+\s+){0,4}consent|\bsubject\s+to\b.{0,40}?\bconsent")
_FREE = _rx(r"\b(?:freely|at\s+(?:its|any)\s+(?:sole\s+)?discretion|without\s+(?:the\s+)?(?:need\s+for\s+|requiring\s+)?(?:any\s+)?(?:\S+\s+){0,3}?(?:consent|approval))")
_MAY_ASSIGN = _rx(r"\b(?:may|can|(?:shall|will)\s+be\s+(?:entitled|free)\s+to|is\s+(?:entitled|free)\s+to|(?:shall|will)\s+have\s+the\s+right\s+to)\s+(?:\w+\s+){0,3}?(?:assign|subcontract|transfer|novate)\w*")


_EXCEPTION = _rx(r"\b(?:except|save|other\s+than|provided\s+that|however)\b.{0,120}?\b(?:affiliate|successor|group|subsidiar\w*|purchaser\s+of|merger|acqui\w*|substantially\s+all)"
                 r"|[^.;]{0,80}\b(?:affiliate|successor)\b.{0,80}?\bwithout\s+(?:such\s+)?consent")


def assignment_freedom(m: Metric, text: str) -> Judgement:
    for hit in _MAY_ASSIGN.finditer(text):
        # "Neither this Agreement nor any right ... may be assigned": denied from the sentence's start
        before = re.split(r"[.;:]\s|\(\w{1,4}\)\s|\b(?:except|provided|however|but|save)\b", text[max(0, hit.start() - 160) : hit.start()],
                          flags=re.IGNORECASE)[-1]
        if re.search(r"\b(?:neither|nor|not|no)\b", before + hit.group(0), re.IGNORECASE):
            continue
        after = text[hit.end() : hit.end() + 160]
        if not (_FREE.search(after) or re.match(r"^\s*(?:\w+\s+){0,4}(?:freely|at\s+any\s+time)", after, re.IGNORECASE)):
            continue
        who = actor_before(text, hit.start(), 60)
        limited = re.search(r"\baffiliate|\bsuccessor|\bmerger|\bsubstantially\s+all", after, re.IGNORECASE)
        if who == "supplier" or (who == "both" and not limited):
            if limited:
                return Judgement("deviation", "the supplier may assign to affiliates or successors without the buyer's consent, and the buyer gets no say or termination right", who)
            if who == "both":
                return Judgement("deviation", "either party, the supplier included, may assign without the other's consent", who)
            return Judgement("deviation", "the supplier may assign or subcontract freely", who)
    if _rx(r"\bchange\s+(?:of|in)\s+control\b").search(text) and _rx(r"\bshall\s+not\s+(?:be\s+)?(?:require|need)|\bno\s+(?:notice|consent)\s+(?:shall\s+be\s+)?(?:required|needed)").search(text):
        return Judgement("deviation", "a change of control of the supplier needs no notice or consent", None)
    restricted: set[str] = set()
    for hit in _rx(r"\b(?:may|shall|will|can)\s+not\b|\bneither\b|\bno\s+party\b").finditer(text):
        tail = text[hit.start() : hit.start() + 200]
        if re.search(r"assign|transfer", tail, re.IGNORECASE):
            passive = re.match(r"[^.;]{0,60}?\bby\s+(?:either|any|neither)\s+party\b", tail[8:], re.IGNORECASE)
            word = hit.group(0).lower()
            if word == "neither" and not re.match(r"neither\s+(?:party|of\s+the\s+parties)\b", tail, re.IGNORECASE):
                # "Neither this Agreement nor any right may be assigned by Supplier": the agent is
                # the one restricted; with no agent named, neither party may assign
                verb = re.search(r"\b(?:may|shall|will|can)\s+(?:\w+\s+)?be\s+(?:assigned|transferred)\b", tail, re.IGNORECASE)
                who = (passive_agent(text, hit.start() + verb.start()) if verb else None) or "both"
            elif word in ("neither", "no party") or passive:
                who = "both"
            else:
                who = actor_before(text, hit.start() + 8, 80)
            if who:
                restricted.add(who)
    if restricted & {"both"} or {"buyer", "supplier"} <= restricted:
        exception = _EXCEPTION.search(text)
        if exception:
            # whose exception it is: the party named in it ("except that the Buyer may assign ..."),
            # else both ("except to an affiliate", "either party may assign to a successor")
            clause = exception.group(0)
            subjects = [r for r, _, end in roles_in(clause) if clause[end - 2 : end] not in ("'s", "s'", "’s")]
            beneficiary = subjects[0] if subjects and subjects[0] in ("buyer", "supplier") else "both"
            if beneficiary == "buyer":
                return Judgement("standard", "mutual consent to assign, with the buyer's affiliate/successor exception", "mutual+exception")
            if beneficiary == "supplier":
                return Judgement("deviation", "mutual consent to assign, but the supplier may assign to affiliates or successors without the buyer's consent", "supplier-exception")
            return Judgement("fallback", "mutual consent to assign; the affiliate/successor exception frees the supplier as well as the buyer", "mutual-exception")
        return Judgement("fallback", "mutual consent to assign with no exception", "mutual")
    if "supplier" in restricted:
        return Judgement("standard", "the supplier needs the buyer's consent to assign", "supplier")
    if "buyer" in restricted:
        return Judgement("deviation", "only the buyer is restricted from assigning; the supplier may assign freely", "buyer")
    if _CONSENT.search(text):
        return Judgement("fallback", "assignment needs consent; parties could not be identified", None)
    return Judgement("deviation", "no restriction on the supplier's assignment", None)


# ---------------------------------------------------------------- restrictions on the buyer
_RESTRICT = _rx(
    r"\bshall\s+(?:not|only)\b|\bwill\s+not\b|\bmay\s+not\b|\bagrees?\s+(?:not\s+)?to\b|\bundertakes?\b|\bshall\s+(?:purchase|buy|order|source)"
    r"|\bexclusive(?:ly)?\b|\bminimum\b|\bshortfall\b|\btake[\s-]or[\s-]pay\b|\bshall\s+(?:be\s+)?(?:obliged|required)"
)
_NO_RESTRICTION = _rx(
    r"\bnothing\s+in\s+this\s+agreement\s+(?:obliges|requires|restricts|prevents|shall\s+(?:oblige|require|restrict|prevent))"
    r"|\bnon-?binding\b|\bno\s+(?:obligation|minimum|exclusivity|shortfall)|\bnot\s+(?:be\s+)?(?:obliged|required)\s+to\s+(?:purchase|buy|order)"
    r"|\bnon-?exclusive\b|\bfree\s+to\s+(?:purchase|buy|source|deal)"
)


_RESTRICT_WHAT = _rx(
    r"\b(?:purchase|buy|order|source|procure)\w*\b|\bexclusiv\w*|\bminimum\b|\bshortfall\b|\btake[\s-]or[\s-]pay\b"
    r"|\bcompet\w*|\bsolicit\w*|\bnot\s+(?:\w+\s+){0,3}(?:engage|deal|sell|distribute|develop|market)\w*|\bnot\s+less\s+than\b"
)


_EXCLUSIVE_GRANT = _rx(r"\b(?:grants?|appoints?|designates?|licen[cs]es)\b(?=[^.;]{0,160}?\bexclusive(?:ly)?\b)(?![^.;]{0,160}?\bnon-?exclusive\b)")


def restriction_on_buyer(m: Metric, text: str) -> Judgement:
    if _NO_RESTRICTION.search(text) and not _rx(r"\b(?:shall|must)\s+(?:purchase|buy|order)\b.{0,80}?\b(?:exclusively|only\s+from|minimum|at\s+least)").search(text):
        return Judgement("standard", "the clause imposes no binding restriction or commitment on the buyer", None)
    restricted: set[str] = set()
    for who, clause in obligations(text):
        if _RESTRICT_WHAT.search(clause[:160]):
            restricted.add(who)
    # an exclusive grant or appointment binds the grantor (it may not grant the same to
    # others): the supplier appointing the buyer its exclusive distributor restricts the supplier
    for hit in _EXCLUSIVE_GRANT.finditer(text):
        if (grantor := actor_before(text, hit.start(), 80)) is not None:
            restricted.add(grantor)
    # a promise not to solicit, hire or employ the other party's staff is a non-solicitation, not a non-compete
    solicitation_only = _rx(r"\bsolicit|\b(?:hire|employ|engage|recruit)\w*\s+(?:\w+\s+){0,3}?(?:employees?|personnel|staff)\b").search(text) and not _rx(r"(?<!non-)(?<!non )\bcompet\w*|\bexclusiv\w*|\bminimum|\bpurchase|\bengage\s+in\b").search(text)
    if solicitation_only:
        months = [d.months for d in find_durations(text)]
        span = max(months) if months else 0
        if span <= 12:
            return Judgement("standard", f"only a non-solicitation of employees ({span:g} months)", span)
        if span <= 24:
            return Judgement("fallback", f"a non-solicitation of {span:g} months", span)
        return Judgement("deviation", f"a non-solicitation of {span:g} months", span)
    if "buyer" in restricted or "both" in restricted:
        if _rx(r"\bproduct\s+line\b").search(text):
            months = [d.months for d in find_durations(text)]
            if months and max(months) <= 12:
                return Judgement("fallback", "a restriction limited to one product line for at most 12 months", max(months))
        forecast = [p.value for p in find_percents(text) if _rx(r"forecast").search(text[p.end : p.end + 60])]
        if forecast and max(forecast) <= 50:
            return Judgement("fallback", f"a commitment of {max(forecast):g}% of the buyer's forecast", max(forecast))
        return Judgement("deviation", "the buyer is bound by the restriction or commitment", "buyer")
    if "supplier" in restricted:
        return Judgement("standard", "the restriction binds the supplier, not the buyer", "supplier")
    return Judgement("deviation", "a restriction whose bound party could not be identified; check it by hand", None)


# ---------------------------------------------------------------- damages direction
def damages_direction(m: Metric, text: str) -> Judgement:
    payers: set[str] = set()
    for hit in _rx(r"\bshall\s+pay\b|\bwill\s+pay\b|\bpayable\s+by\b|\bcredit\w*\b|\bliable\s+to\s+pay\b").finditer(text):
        if hit.group(0).lower().startswith("payable by"):
            who = actor_after(text, hit.end(), 40)
        else:
            who = actor_before(text, hit.start(), 100)
        if who:
            payers.add(who)
    sole = _rx(r"\bsole\s+(?:and\s+exclusive\s+)?remedy|\bexclusive\s+remedy").search(text)
    not_sole = _rx(r"\bnot\s+(?:\w+\s+){0,3}sole\s+remedy|\bwithout\s+prejudice").search(text)
    if "buyer" in payers and "supplier" not in payers:
        return Judgement("deviation", "liquidated damages or charges are payable by the buyer", "buyer")
    if sole and not not_sole:
        if _rx(r"\bservice[\s-]level|\bcredits?\b").search(text) and not _rx(r"\ball\s+failures|\bany\s+failure").search(text):
            return Judgement("fallback", "service credits are the buyer's sole remedy for service-level misses", "supplier")
        return Judgement("deviation", "credits or damages are the buyer's sole and exclusive remedy", "supplier")
    if "supplier" in payers:
        return Judgement("standard", "the supplier pays liquidated damages or credits, without limiting other remedies", "supplier")
    return Judgement("fallback", "liquidated damages whose payer could not be identified; check by hand", None)


# ---------------------------------------------------------------- audit rights
def audit_scope(m: Metric, text: str) -> Judgement:
    auditors: set[str] = set()
    for hit in _rx(r"\b(?:audit|inspect|examine|review)\w*\b").finditer(text):
        modals = list(_rx(r"\b(?:may|shall\s+(?:have\s+the\s+right|be\s+entitled)|is\s+entitled|right\s+to)\b").finditer(text, max(0, hit.start() - 200), hit.start()))
        if modals:
            who = actor_before(text, modals[-1].start(), 60, skip_possessive=True)
            if who:
                auditors.add(who)
    if auditors and not auditors & {"buyer", "both"}:
        return Judgement("deviation", "only the supplier has an audit right", None)
    rare = any(d.months > 12.5 for m_ in _rx(r"\bonce\b").finditer(text)
               for d in find_durations(text[m_.end() : m_.end() + 50]))
    if rare:
        return Judgement("deviation", "audits are limited to less than once a year", None)
    if _rx(r"\bconsent\b").search(text) and _rx(r"\b(?:buyer|customer|company|purchaser|client)'?s?\s+(?:sole\s+)?(?:own\s+)?(?:cost|expense)|\bat\s+(?:its|their)\s+(?:own\s+)?(?:cost|expense)").search(text):
        return Judgement("deviation", "audits need the supplier's consent and are always at the buyer's cost", None)
    if _rx(r"\bindependent\s+(?:\w+\s+){0,3}(?:auditors?|accountants?)|\bno\s+right\s+of\s+access").search(text):
        return Judgement("fallback", "audit only through an independent auditor", None)
    return Judgement("standard", "the buyer may audit the supplier's records", None)
