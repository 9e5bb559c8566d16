"""Playbook metrics for what a buyer gives up: sole and exclusive remedies, warranty disclaimers,
and waivers or limits of the buyer's termination rights, ranked from the buyer's side."""

from __future__ import annotations

import re

from tools.detection.metrics import Judgement, _rx
from tools.detection.parties import actor_after, actor_before, other, roles_in
from tools.playbook import Metric

# ---------------------------------------------------------------- sole and exclusive remedy
SOLE_REMEDY = _rx(r"\b(?:sole|exclusive|only)\s+(?:and\s+exclusive\s+)?remed(?:y|ies)\b|\bin\s+lieu\s+of\s+(?:all\s+)?(?:other|any\s+other)\s+remedies"
            r"|\b(?:sole|entire|only)\s+(?:and\s+exclusive\s+)?(?:obligation|liability)\b")
NOT_SOLE = _rx(r"\bnot\s+(?:be\s+)?(?:[\w'’]+\s+){0,3}(?:sole|exclusive)\s+remed|\bin\s+addition\s+to\s+(?:and\s+not\s+in\s+lieu\s+of\s+)?(?:any\s+)?(?:[\w'’]+\s+)?(?:other|all\s+other)\s+(?:rights|remedies)"
               r"|\bcumulative\b|\bwithout\s+prejudice\s+to\s+(?:any\s+)?(?:[\w'’]+\s+){0,2}(?:rights|remedies)")
# "is not Buyer's sole remedy", "shall not be the exclusive remedy": the phrase denies a sole remedy
_DENIED = _rx(r"\b(?:not|never|no)\s+(?:be\s+|constitute\s+)?(?:the\s+|a\s+|an\s+)?(?:[\w'’]+\s+){0,2}$")
_WHAT = {
    "repair or replacement": _rx(r"\brepair\w*|\breplace\w*|\bre-?perform\w*|\bre-?work\w*|\bcorrect\w*"),
    "a refund or credit": _rx(r"\brefund\w*|\bcredit\w*|\breturn\s+of\s+the\s+(?:purchase\s+)?price|\breimburse\w*"),
}
# the remedy gives way when it fails: "if Supplier is unable to repair or replace ... Buyer may terminate / recover damages"
_FALLS_AWAY = _rx(r"\b(?:if|where|should|in\s+the\s+event)\b.{0,80}?\b(?:unable|fails?|cannot|does\s+not|failure)\s+(?:\w+\s+){0,3}?(?:to\s+)?(?:repair|replace|correct|remedy|cure|re-?perform|do\s+so)\w*\b.{0,160}?\b(?:damages|terminat\w*|refund|other\s+remedies|all\s+remedies)"
                  r"|\bfail\w*\s+(?:of\s+)?(?:its|their)\s+essential\s+purpose")


_OBLIGOR_AFTER = _rx(r"^\W*(?:(?:is|shall\s+be|will\s+be)\s+(?:for|that)\s+|,?\s*)?(?P<who>\S+(?:\s+\S+)?)\s+(?:shall|will|must|agrees\s+to|may\s+at\s+its)\b")


def remedy_holder(text: str, hit: re.Match[str]) -> str | None:
    """Whose remedies a sole-remedy phrase narrows: "Buyer's sole remedy", "the exclusive remedy
    of Customer"; "Supplier's sole obligation (and liability)" and "as the sole remedy, Supplier
    will ..." narrow the other party's; with no party named, the buyer's (a sole remedy in a
    supply contract is the buyer's)."""
    obligation = re.search(r"obligation|liability", hit.group(0), re.IGNORECASE)
    attached = text[max(0, hit.start() - 30) : hit.start()]
    named = None
    if re.search(r"(?:'s|s'|’s)\s+(?:\w+\s+)?$", attached):
        named = actor_before(text, hit.start(), 30)
    elif (owner := _promisor(text[hit.end() : hit.end() + 200])) is not None:
        # "the sole remedy for breach of Licensee's warranties": a remedy for what one party
        # promised narrows the remedies of the other, who holds the promise
        return other(owner)
    elif re.match(r"\s+(?:of|for)\s+(?:the\s+)?\w", text[hit.end() : hit.end() + 20]):
        named = actor_after(text, hit.end(), 30)
    if named is not None:
        return other(named) if obligation else named
    after = _OBLIGOR_AFTER.match(text[hit.end() : hit.end() + 80])
    if after:
        doer = actor_after(after.group("who"), 0, 40)
        if doer in ("buyer", "supplier"):
            return other(doer)
    return "buyer"


# "for any breach of X's warranties", "for breach of the representations and warranties made by X"
_FOR_BREACH = _rx(r"^\s*,?\s*(?:for|in\s+respect\s+of|with\s+respect\s+to|arising\s+(?:from|out\s+of)|in\s+the\s+event\s+of)\s+"
                  r"(?:any\s+|a\s+|the\s+)?(?:breach|failure|non-?conformit\w*|violation|inaccuracy)\s+(?:of|with|under|in)\s+")
_PROMISE = r"(?:warrant\w*|representations?|covenants?|obligations?|undertakings?|guarantees?)"


def _promisor(after: str) -> str | None:
    """Whose promise a sole remedy answers for ("... for breach of Licensee's warranties"), or None."""
    lead = _FOR_BREACH.match(after)
    if not lead:
        return None
    rest = after[lead.end() :]
    own = re.match(rf"(?:the\s+)?(?P<who>[\w .&-]{{2,60}}?)(?:'s|s'|’s)\s+(?:\w+\s+){{0,3}}?{_PROMISE}", rest, re.IGNORECASE)
    if own:
        who = actor_after(own.group("who"), 0, 60)
        if who in ("buyer", "supplier"):
            return who
    given = re.match(rf"(?:the\s+|any\s+|its\s+)?(?:[\w-]+\s+){{0,4}}?{_PROMISE}(?:\s+(?:and|or)\s+{_PROMISE})?\s+"
                     r"(?:[\w()]+\s+){0,4}?(?:given|made|provided|granted|set\s+out|set\s+forth)\s+(?:\w+\s+){0,4}?by\s+", rest, re.IGNORECASE)
    if given:
        who = actor_after(rest, given.end(), 40)
        if who in ("buyer", "supplier") and not roles_in(rest[given.end() : given.end() + 40])[0][1]:
            return who
    return None


def sole_remedies(text: str) -> list[re.Match[str]]:
    """The sole-remedy phrases of the text that are not denied ("is not Buyer's sole remedy")."""
    return [h for h in SOLE_REMEDY.finditer(text) if not _DENIED.search(text[max(0, h.start() - 40) : h.start()])]


def exclusive_remedy(m: Metric, text: str) -> Judgement:
    hits = sole_remedies(text)
    if not hits:
        return Judgement("standard", "the buyer's remedies are cumulative: no sole or exclusive remedy", None)
    holders = {who for h in hits if (who := remedy_holder(text, h))}
    what = [name for name, pattern in _WHAT.items() if pattern.search(text)] or ["the remedy the clause names"]
    remedy = " or ".join(what)
    if holders == {"supplier"}:
        return Judgement("standard", f"the sole remedy ({remedy}) narrows the supplier's remedies, not the buyer's", "supplier")
    if _FALLS_AWAY.search(text):
        return Judgement("fallback", f"{remedy} is the buyer's sole remedy, but it gives way to damages, refund or termination when it fails", remedy)
    if _rx(r"\bservice[\s-]levels?\b|\bservice\s+credits?\b").search(text) and not _rx(r"\b(?:any|all)\s+(?:failure|breach|defect)").search(text):
        return Judgement("fallback", "service credits are the sole remedy for service-level misses only", remedy)
    return Judgement("deviation", f"{remedy} is the buyer's sole and exclusive remedy, with no way back to damages or termination", remedy)


# ---------------------------------------------------------------- warranty disclaimers
_DISCLAIM = _rx(r"\bdisclaim\w*|\b(?:makes?|gives?|grants?)\s+no\b|\b(?:neither|no)\s+party\s+(?:makes|gives|grants)\b|\bexclud\w*|\bin\s+lieu\s+of\b|\bas[\s-]+is\b")
# everything disclaimed; "all other warranties" keeps the express ones the clause gives
_ALL = _rx(r"\b(?:all|any)\s+(?:warranties|representations|conditions)\b[^.]{0,60}?\bexpress(?:ed)?\s+or\s+implied\b"
           r"|\bas[\s-]+is\b|\bwith\s+all\s+faults\b|\bwithout\s+(?:any\s+)?warrant\w*\s+of\s+any\s+kind\b|\bno\s+warrant\w*\s+(?:of\s+any\s+kind\s+)?(?:whatsoever|whatever)")
_KEEPS_EXPRESS = _rx(r"\b(?:except|other\s+than|save|unless)\b.{0,80}?\b(?:express(?:ly)?|set\s+(?:forth|out)|stated|provided|specified|in\s+(?:this\s+)?(?:section|clause|article|agreement))"
                     r"|\b(?:the\s+)?(?:foregoing|above|limited)\s+warrant\w*\s+(?:is|are)\s+(?:exclusive|in\s+lieu)")


def disclaimer_scope(m: Metric, text: str) -> Judgement:
    givers = {who for h in _DISCLAIM.finditer(text) if (who := actor_before(text, h.start(), 80))}
    if givers == {"buyer"}:
        return Judgement("standard", "only the buyer disclaims warranties; the supplier's stand", "buyer")
    sweeping = _ALL.search(text)
    keeps = _KEEPS_EXPRESS.search(text)
    if sweeping and not keeps:
        return Judgement("deviation", "all warranties, express and implied, are disclaimed (or the goods are taken \"as is\"): the buyer keeps no warranty", "all")
    if "both" in givers:
        return Judgement("fallback", "a mutual disclaimer of implied warranties; express warranties of this agreement stand", "mutual")
    if _rx(r"\bfitness\s+for\s+(?:a|any)\s+particular\s+purpose|\bmerchantab|\bimplied\b").search(text) or keeps:
        return Judgement("fallback", "implied warranties (merchantability, fitness for purpose) are disclaimed; the supplier's express warranties stand", "implied")
    return Judgement("fallback", "a warranty disclaimer whose scope could not be read; check it by hand", None)


# ---------------------------------------------------------------- waivers and limits of termination rights
_WAIVES = _rx(r"\bwaiv\w*|\b(?:shall|will)\s+not\s+be\s+entitled\b|\bno\s+(?:right|claim|entitlement)\b|\b(?:is|are|shall\s+be)\s+not\s+entitled\b"
              r"|\b(?:neither|no)\s+party\s+(?:shall|will)\s+(?:be\s+liable|have\s+any\s+(?:liability|obligation)|owe|pay)\b"
              r"|\b(?:shall|will|may)\s+not\s+(?:claim|seek|demand)\b|\b(?:renounces?|relinquish(?:es)?|forgoes?)\b")
# the party released from paying for the end of the contract: the claim lost is the other party's ("PivX shall not be liable
# to the Reseller because of such termination for compensation": the reseller gives it up)
_RELEASED = _rx(r"\b(?:shall|will)\s+not\s+be\s+(?:liable|obligated|obliged|required|responsible)\b|\b(?:shall|will)\s+(?:have|incur|bear)\s+no\s+(?:liability|obligation)\b"
                r"|\b(?:has|have)\s+no\s+(?:liability|obligation)\b|\b(?:shall|will)\s+not\s+(?:have|incur|bear)\s+any\s+(?:liability|obligation)\b")
_COMPENSATION = _rx(r"\bcompensation|\bindemnit\w*|\bgoodwill|\bclientele|\bseverance|\bloss\s+of\s+(?:prospective\s+)?(?:profits|sales|investment)|\binvestments?\b|\bdamages\b")
_ONLY_TERMINATE = _rx(r"\b(?:may|shall\s+be\s+entitled\s+to)\s+(?:only|solely)\s+terminate|\b(?:only|solely|exclusively)\s+(?:be\s+)?(?:entitled\s+to\s+)?terminat\w*\b.{0,60}?\b(?:if|in\s+the\s+(?:following|event)|for|as\s+set)"
                      r"|\b(?:may|shall|will)\s+not\s+(?:be\s+entitled\s+to\s+|have\s+the\s+right\s+to\s+)?(?:terminate|cancel|rescind)|\bno\s+right\s+to\s+(?:terminate|cancel|rescind)"
                      r"|\bwaives?\s+(?:any\s+|all\s+|its\s+)?(?:\w+\s+){0,2}rights?\s+to\s+(?:terminate|cancel|rescind)")


def termination_waiver(m: Metric, text: str) -> Judgement:
    limits = [h for h in _ONLY_TERMINATE.finditer(text)]
    limited = {who for h in limits if (who := actor_before(text, h.start(), 80))}
    if "neither" in " ".join(h.group(0).lower() for h in limits) or any(re.search(r"\bneither\s+party\b", text[max(0, h.start() - 60):h.start()], re.I) for h in limits):
        limited.add("both")
    if limited & {"buyer"}:
        return Judgement("deviation", "the buyer's right to terminate is waived or limited to listed cases", "buyer")
    waivers = [h for h in _WAIVES.finditer(text) if _COMPENSATION.search(text[h.start(): h.start() + 250])]
    givers = set()
    for h in waivers:
        word = h.group(0).lower()
        givers.add("both" if word.startswith(("neither", "no party")) else actor_before(text, h.start(), 80))
    for h in _RELEASED.finditer(text):
        if not _COMPENSATION.search(text[h.start(): h.start() + 250]):
            continue
        waivers.append(h)
        to = _rx(r"^\s+to\b").match(text[h.end():])
        creditor = actor_after(text, h.end() + to.end(), 40) if to else None
        givers.add(creditor or other(actor_before(text, h.start(), 80)))
    givers.discard(None)
    if "buyer" in givers and "supplier" not in givers and "both" not in givers:
        return Judgement("deviation", "the buyer waives compensation or indemnity on termination (goodwill, investments, statutory compensation)", "buyer")
    if "both" in givers or {"buyer", "supplier"} <= givers:
        return Judgement("fallback", "a mutual waiver of compensation on termination; termination rights themselves are kept", "mutual")
    if givers == {"supplier"} or limited == {"supplier"}:
        return Judgement("standard", "only the supplier waives or limits its termination rights or compensation", "supplier")
    if waivers or limits:
        return Judgement("fallback", "a waiver or limit of termination rights whose party could not be identified; check it by hand", None)
    return Judgement("standard", "the buyer's termination rights and compensation are not waived", None)
