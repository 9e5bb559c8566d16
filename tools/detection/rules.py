"""Detection rules for the playbook's clause types: general legal-language patterns per type.

Patterns are deliberately general contract language, not phrases of particular filings.
Finer detectors used beside these (CUAD categories, companions) live in tools/detection/finer_rules.py.
"""

from __future__ import annotations

from dataclasses import replace

from tools.detection.detector import ABOVE_AGREED, COST_PLUS, EXTRA_FEES, Detector
from tools.detection.detector import DUR as _DUR
from tools.detection.detector import detector as _d
from tools.detection.finer_rules import (
            EXCLUSIVE_DEALING,
            EXCLUSIVE_ROLE,
            FINER,
            NAMING_WORDS,
            NOT_COMPETE,
)

_BREACH = r"\b(?:breach|default|insolven|bankrupt|violat|cur(?:e|ed|ing)\b|fails?\s+(?:\w+\s+)?to|failure\s+to|(?<!without )(?<!non-)cause\b(?!\s+to)|material\s+adverse)"
# "may terminate", "may, in its sole discretion, terminate", "shall be entitled, at its option, to terminate",
# "is terminable", "a party wishing to terminate"; never across a "not" ("may not terminate")
_CAN_END = (r"\b(?:(?:may|can|right(?:\s+to)?|option\s+to|elect\s+to|entitled(?:\s+to)?|ability\s+to)(?:[\s,]+(?!not\b|never\b)[\w']+){0,12}?[\s,]+(?:to\s+)?(?:terminat|cancel)\w*"
            r"|may\s+be\s+(?:terminated|cancell?ed)|cancell?able\s+at\s+any\s+time|terminable|(?:wish|desir|intend)\w*\s+to\s+terminat\w*)\b")
# reasons that are no reason: the clause CUAD calls termination for convenience
_CONV = (r"\b(?:for\s+(?:its\s+|their\s+)?(?:own\s+)?convenience|for\s+any\s+(?:or\s+no\s+)?reason|for\s+no\s+reason|without\s+cause"
         r"|with\s+or\s+without\s+cause|for\s+non-?cause|without\s+(?:any\s+)?reason)\b")
# a discretion that may still hang on a condition ("in its sole discretion if ...")
_DISCRETION = r"\b(?:(?:at|in)\s+its\s+(?:sole\s+)?(?:and\s+absolute\s+)?discretion|at\s+the\s+option\s+of\s+any\s+party)\b"
# the right hangs on an event: "if the other party ...", "in the event that ...", "upon the occurrence of", "once sales exceed ..."
_TRIGGER = r"\b(?<!including )(?<!even )(?:if|should|once|in\s+the\s+event|in\s+case|(?:up)?on\s+the\s+occurrence|change\s+(?:of|in)\s+(?:the\s+)?control)\b"
# a list item that grants the right: "(a) by Buyer for any reason upon ...", "(c) at any time upon 90 days' notice of
# termination" (like every rule here, it scores only sentences holding a _KEYWORDS fragment such as "terminat")
_ITEM = r"^\s*(?:\(?[a-z0-9]{1,4}\)|[a-z]\.|\d+(?:\.\d+)*\.?)\s+(?:by\s+(?:[\w/&.-]+\s+){1,4}?)?"
# a committed quantity or sum (not a period): "$[*]", a figure redacted as "XXXX" or "*****", "10,000", "forty (40)", "five million dollars ($5,000,000)";
# "thirty (30) days" and "two (2) times" are excluded, and a bare "one" ("at least one of ...") is no quantity
_NUM_WORD = r"(?:two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|fifteen|twenty|thirty|forty|fifty|sixty|seventy|eighty|ninety|hundred)"
_COMMITTED_AMOUNT = (r"(?:US)?\$?\s*(?:\[[^\]]{0,20}\]|X{3,}|\*{3,}|\d[\d,.]*(?![\d,.])|(?:(?:[a-z]+teen|one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|twenty|thirty|forty|fifty|sixty|seventy|eighty|ninety"
                     r"|hundred|thousand|million|billion|and|dollars?|us)[\s-]*){1,12}\(\s*(?:US)?\$?[\d,.]+\s*\)|" + _NUM_WORD + r"\b(?!-|\s*\())"
                     r"(?!\s*(?:\(\s*\d+\s*\)\s*)?(?:%|percent|business\s+|calendar\s+)?(?:days?|weeks?|months?|years?|hours?|minutes?|times)\b)")
_AT_LEAST = r"\b(?:minimum\s+of|not\s+less\s+than|no\s+less\s+than|at\s+least|(?:not|no)\s+fewer\s+than)\s+"
# terms a law or usage would add to the contract: "terms implied by law", "implied conditions and warranties", "conditions,
# warranties or other terms which might be implied by statute"
_IMPLIED_TERMS = (r"(?:\bimplied\s+(?:by\s+(?:\w+\s+){1,3})?(?:terms?|conditions?|warrant\w*|representations?|undertakings?)\b"
                  r"|\b(?:terms?|conditions?|warrant(?:y|ies))\b[^.;]{0,80}?\bimplied\b)")
# an order the buyer cancels, reschedules, delays or does not take: what a cancellation charge is payable for
_ORDER_CHANGED = (r"\b(?:cancel(?:s|led|ed|ling|ing|lations?)?|reschedul\w*|postpon\w*|(?:has\s+)?not\s+taken\s+delivery|fails?\s+to\s+take\s+delivery"
                  r"|delay(?:s|ed)?\s+(?:the\s+)?deliver\w*|delayed)\b")
# a stated share of the price or value: "100% of the Contract Price", "fifty percent (50%) of the order value", "[*]% of the price"
_SHARE_OF_PRICE = (r"(?:\d+(?:\.\d+)?\s*%|\b[\w-]+\s+(?:\(\s*\d+(?:\.\d+)?\s*%?\s*\)\s+)?percent(?:\s+\(\s*\d+(?:\.\d+)?\s*%\s*\))?|\[[^\]]{0,20}\]\s*(?:%|percent))"
                   r"\s+of\s+(?:the\s+|its\s+|such\s+)?(?:[\w-]+\s+){0,3}?(?:price|prices|value|amount|fees?|charges?|costs?)\b")
# terms set out in another document of the deal: "as set out in the Fee Schedule", "in accordance with Schedule 1", "as set forth
# in the relevant Statement of Work"
_SCHEDULED = (r"\b(?:as\s+(?:set\s+(?:forth|out)|specified|provided|described|stated)\s+in|in\s+accordance\s+with|pursuant\s+to)\s+(?:the\s+|each\s+|any\s+|its\s+)?"
              r"(?:relevant\s+|applicable\s+|attached\s+)?(?:fee\s+schedule|schedules?|exhibits?|statements?\s+of\s+work|sows?|order\s+forms?|appendi(?:x|ces)|annex(?:es)?)\b")
# a party released from paying the other for the end of the contract, or one not entitled to be paid for it
_NOT_OWED = (r"\b(?:not\s+be\s+(?:liable|entitled|obligated|obliged|required)|(?:have|has|incur|bear)\s+no\s+(?:liability|obligation)"
             r"|not\s+(?:have|incur|bear)\s+any\s+(?:liability|obligation)|neither\s+party|no\s+party)\b")
_BY_REASON_OF = r"(?:by\s+reason\s+of|because\s+of|on\s+account\s+of|as\s+a\s+(?:result|consequence)\s+of|due\s+to|arising\s+(?:from|out\s+of)|upon|in\s+connection\s+with)"
# what a distributor or agent loses when it is ended: compensation, its investments, its goodwill, the profits it expected
_TERMINATION_LOSS = (r"\b(?:compensation|indemnit\w*|damages|reimbursement|severance|goodwill|clientele"
                     r"|loss\s+of\s+(?:prospective\s+|anticipated\s+)?(?:profits|sales|investments?))")
_PER_PERIOD = r"(?:.{0,120}?\b(?:per|each|every|in\s+any|a)\s+(?:calendar\s+|contract\s+|fiscal\s+)?(?:year|month|quarter|week)\b|\b(?:annual|monthly|quarterly))"

_CAP: list[tuple[str, float]] = [
    (r"\b(?:aggregate|total|maximum|cumulative|entire|collective)\s+liability\b", 2),
    (r"\bliab\w*\b.{0,200}?\b(?:shall|will|may|does)\s+not\s+exceed", 3),
    (r"\bliab\w*\b.{0,200}?\bnot\s+to\s+exceed", 3),
    (r"\b(?:in\s+no\s+event|under\s+no\s+circumstances?)\b.{0,150}?\bliab\w*\b", 2.5),
    (r"\bliab\w*\b.{0,200}?(?<!not\s)\b(?:limited|capped)\s+(?:to|at|in\s+amount)\b", 3),
    # a second limit added to the first: "CONTRACTOR'S LIABILITY IS FURTHER LIMITED IN ANY EVENT ... TO ANY AMOUNT IT RECEIVED"
    (r"\bliab\w*\b.{0,40}?\b(?:is|are|shall|will)\s+(?:be\s+)?(?:further|also|additionally)\s+(?:be\s+)?(?:limited|capped|restricted)\b", 3),
    (r"\b(?:(?:shall|will)\s+(?:not|in\s+no\s+event)\s+(?:be\s+liable|have\s+any\s+liability)|(?:no|neither)\s+party\s+(?:shall|will)\s+(?:be\s+liable|have\s+any\s+liability))\b.{0,250}?\b(?:(?<!direct\sor\s)indirect|incidental|consequential|special|punitive|exemplary|lost\s+profits?|loss\s+of\s+(?:prospective\s+)?profits?|compensation)", 3),
    (r"\bliab\w*\b.{0,200}?\b(?:is|are|shall\s+be)\s+(?:hereby\s+)?excluded\b", 3),
    (r"\bexclud\w*\b.{0,40}?\b(?:consequential|indirect|incidental|punitive)\b.{0,40}?\bdamages\b", 3),
    (r"\bwaives?\b.{0,60}?\bright\s+to\s+(?:recover|seek|claim)\b", 3),
    # "in no event shall either party or its officers, directors or employees be liable ..."
    (r"\bin\s+no\s+event\s+(?:shall|will)\s+(?:[\w',]+\s+){0,12}?(?:be\s+liable|have\s+any\s+liability)\b.{0,250}?\b(?:indirect|incidental|consequential|special|punitive|exemplary|lost\s+profits?)", 3),
    (r"\bin\s+no\s+event\s+(?:shall|will)\b.{0,200}?\bliab\w*\b.{0,200}?\bexceed", 3),
    # any exclusion of indirect loss: "under no circumstances will either party be liable ... for consequential
    # damages", "each party waives any claim for punitive damages", "neither party shall be responsible for indirect loss"
    # (only where the wordings above are absent, so that exclusions do not outrank the cap itself)
    (r"^(?!.*\b(?:(?:shall|will)\s+(?:not|in\s+no\s+event)\s+(?:be\s+liable|have\s+any\s+liability)|(?:no|neither)\s+party\s+(?:shall|will)\s+(?:be\s+liable|have\s+any\s+liability)|in\s+no\s+event\s+(?:shall|will)\b))"
     r".*?\b(?:not|no|neither|none|nor|waives?|waiver|excluded?|disclaims?)\b.{0,250}?\b(?:be\s+(?:held\s+)?(?:liable|responsible)|have\s+(?:any\s+)?liabilit\w*|recover\w*|claims?|seek)\b.{0,250}?\b(?:(?<!direct\sor\s)indirect|incidental(?!\s+to\b)|consequential|special|punitive|exemplary)\b", 3),
    # "Maximum liability is ...", "each party's aggregate obligation will not exceed ..."
    (r"\b(?:aggregate|total|maximum|cumulative)\s+(?:liability|obligation)s?\b.{0,200}?\b(?:is|are|shall\s+be|will\s+be|shall\s+not|will\s+not)\b", 1.5),
    # a time bar on claims: "no action ... may be brought more than one (1) year after", "claims must be filed within nine (9) months"
    (r"\b(?:actions?|claims?|suits?|proceedings?)\b.{0,200}?\b(?:must|shall|may)\s+(?:only\s+)?(?:be\s+)?(?:commenced|brought|filed|instituted|asserted)\b"
     r".{0,80}?\b(?:within|more\s+than|after)\s+(?:a\s+period\s+of\s+)?(?:\w+\s+)?(?:\(\d+\)\s+)?(?:days?|months?|years?)\b", 3),
    (r"\bcumulative\s+maximum\b|\bentire\s+(?:liability|obligation)\b", 3),
    # a ceiling on what a claim can yield, without the word liability: "damages recoverable shall not exceed",
    # "sums claimed under this indemnification shall not exceed" (not a ceiling on reimbursed expenses), "the Sponsor's aggregate obligation will not exceed"
    (r"\b(?:damages|recover\w*|indemnif\w*|indemnit\w*|(?:aggregate|total|maximum|cumulative)\s+obligations?)\b.{0,200}?\b(?:shall|will|may|does|do)\s+not\s+(?:in\s+any\s+event\s+)?exceed", 3),
    # "shall not be liable for any loss ... which in the aggregate exceeds the fees paid", "shall not be required to
    # contribute any amount in excess of the price received"
    (r"\b(?:not|no)\s+(?:[\w']+\s+){0,3}?(?:be\s+)?(?:liable|liability|required\s+to\s+(?:contribute|pay))\b.{0,200}?\b(?:exceeds?|in\s+excess\s+of)\s+"
     r"(?:the\s+|an?\s+)?(?:aggregate\s+|total\s+)?(?:amounts?|sums?|total|fees?|price|charges|commissions?|payments?|compensation|consideration|US\$|\$|\d)", 3),
    # "disclaims all obligations and liabilities for damages, including indirect ..."
    (r"\bdisclaims?\s+(?:all\s+|any\s+)?(?:(?:obligations?|responsibilit\w+)\s+(?:and|or)\s+)?liabilit\w*\b.{0,250}?\b(?:indirect|incidental|consequential|special|punitive|exemplary|damages)\b", 3),
    # recovery only of direct loss: "no liability for any damages other than direct damages", "claims shall be limited to actual and direct costs"
    (r"\b(?:liab\w*|claims?|damages|recover\w*)\b.{0,120}?\b(?:other\s+than|except(?:\s+for)?|limited\s+to|only\s+for)\s+(?:actual\s+(?:and\s+)?)?direct\s+(?:damages|costs|losses)\b", 3),
    # a party's liability for a kind of loss excluded outright: "the Reseller shall not be liable to the Company with respect to
    # any loss resulting from the Company Products" (not a force majeure excuse, nor a loss of or damage to goods in transit)
    (r"^(?!.*\b(?:force\s+majeure|beyond\s+(?:its|their|the\s+\w+'s)\s+(?:reasonable\s+)?control|acts?\s+of\s+god|in\s+transit)\b)"
     r".*?\b(?:shall|will)\s+not\s+be\s+liable\s+to\s+(?:the\s+)?[\w-]+(?:\s+party)?\b.{0,200}?\b(?:with\s+respect\s+to|for|in\s+connection\s+with|in\s+respect\s+of)\s+"
     r"(?:or\s+in\s+connection\s+with\s+)?(?:any|all)\s+(?:losses|loss|damages?|liabilit\w+|claims?)\b", 3),
    (r"\bneither\s+party\s+shall\s+be\s+liable\b", 1),
    (r"\blimitation\s+of\s+liability\b", 1.5),
    # an exculpation of a manager or partner: "shall not be liable for any error of judgment or mistake of law"
    (r"\b(?:not|no)\s+(?:be\s+)?liab\w*\b.{0,100}?\b(?:errors?\s+(?:of|in)\s+judg?ment|mistakes?\s+(?:of\s+law|or\s+errors?))", 3),
    # liability made subject to limits, or an exclusion of it named as such: "each party's liability shall be subject to
    # the following limitations", "the liability exclusion above also applies to employees"
    (r"\bliab\w*\b.{0,150}?\bsubject\s+to\s+(?:the\s+)?(?:following\s+)?limitations\b|\bliability\s+exclusions?\b|\bexclusions?\s+of\s+liability\b", 3),
    # "sole remedy", "sole obligation and liability" (not "the sole responsibility of", which assigns a task)
    (r"\bsole\s+(?:and\s+exclusive\s+)?(?:remedy|remedies|liability|obligations?)\b", 3),
    (r"\bexclusive\s+remedy\b", 1),
    # no liability for another party's debts is a statement of who owes them, not a cap
    (r"\bliab\w*\b.{0,60}?\bfor\s+(?:any\s+|the\s+)?debts?\b", -3),
]
# Limits the contract refers to without stating them here, or whose terms the filing redacted: the buyer's review reads
# them as a cap to check by hand (never "missing"); CUAD's "Cap On Liability" labels only a cap whose terms are shown, so
# its detector (`cap_on_liability`) leaves them out.
_CAP_REFERRED: list[tuple[str, float]] = [
    # limits stated elsewhere, or whose terms the filing redacted, referred to as such: "the limitations and exclusions set
    # forth above in this clause 10 shall apply to the fullest extent permitted by law", "the foregoing limitations of
    # liability shall survive", "LIMITATION OF LIABILITY. [***]"
    # (a bare "subject to the limitations set forth in Section 4" may limit anything: a licence, a right to change a product)
    (r"\b(?:limitations?\s+(?:and|or)\s+exclusions?|exclusions?\s+(?:and|or)\s+limitations?|(?:limitations?|exclusions?)\s+(?:of|on)\s+(?:liability|damages|remedies))\s+"
     r"(?:(?:of|on)\s+(?:liability|damages|remedies)\s+)?(?:set\s+(?:forth|out)|contained|stated|provided|described)\s+(?:above|herein|(?:in|under)\s+(?:this|these|the\s+foregoing|(?:sections?|clauses?|articles?)\s+\d))"
     r"|\b(?:the\s+)?(?:foregoing|above)\s+(?:limitations?|exclusions?)\s+(?:(?:and|or)\s+(?:limitations?|exclusions?)\s+)?(?:(?:of|on)\s+(?:liability|damages)\s+)?(?:shall|will|apply|applies)\b"
     r".{0,150}?\b(?:damages?|liab\w*|loss(?:es)?|remed\w*|fail\w*\s+of\s+(?:its|their)\s+essential\s+purpose)\b", 3),
    (r"\blimitations?\s+(?:of|on)\s+liability\W{0,6}(?:\[[^\]]{0,80}\]|\*{3,}|X{3,})", 3),
]

DETECTORS: dict[str, Detector] = {
    "liability_cap": _d("liability_cap", _CAP + _CAP_REFERRED, title=r"limitation|liabilit"),
    "cap_on_liability": _d("cap_on_liability", _CAP, title=r"limitation|liabilit"),
    "uncapped_liability": _d("uncapped_liability", [
        (r"\bindemnif(?:y|ies|ied)\b", 2),
        (r"\bindemnification\b", 1),
        (r"\bhold\s+(?:\w+\s+){0,3}harmless\b", 1.5),
        (r"\bdefend\b", 1),
        # a party promising it: "MMI shall indemnify Dragon in respect of the same", "will reimburse the Customer and hold it
        # harmless", "will defend and indemnity the Buyer" (the noun written for the verb); never "shall not indemnify", nor
        # "shall maintain professional indemnity insurance"
        (r"\b(?:shall|will|must|agrees?\s+to|undertakes?\s+to|hereby)\s+(?:(?!not\b|never\b|no\b)[\w,]+\s+){0,4}?"
         r"(?:indemnif(?:y|ies)\b|hold\s+(?:\w+\s+){0,3}harmless\b|indemnity\s+(?!(?i:insurance|cover|polic))(?:and\s+hold\s+harmless\s+)?(?:the\s+)?(?-i:[A-Z]))", 1.5),
        # defending the other party against claims (the usual shape of an infringement indemnity): "will defend the Customer
        # against a claim that the Software infringes a patent and pay the costs and damages finally awarded"
        (r"\b(?:shall|will|must|agrees?\s+to|undertakes?\s+to)\s+(?:\w+\s+(?:and|or)\s+)?defend\b.{0,80}?\b(?:against|from)\s+(?:any\s+|a\s+|all\s+|each\s+|every\s+|that\s+|such\s+|the\s+)?"
         r"(?:third[\s-]part(?:y|ies)\s+)?(?:claims?|suits?|actions?|proceedings?|demands?)\b", 1.5),
        # and pay what the claim costs: "pay the costs and damages finally awarded", "any amounts agreed in settlement"
        (r"\bpay\w*\s+(?:[\w,]+\s+){0,3}?(?:costs?|damages|amounts?|sums?)\b.{0,80}?\b(?:(?:finally\s+)?award(?:ed|s)|(?:agreed|agrees)\s+(?:to\s+)?in\s+(?:a\s+|any\s+)?(?:final\s+)?settlement)\b", 1),
        (r"\b(?:unlimited\s+liability|without\s+limit(?:ation)?\s+(?:as\s+to\s+amount|of\s+liability))", 2),
        (r"\bthird[\s-]part(?:y|ies)\b", 0.5),
    ], title=r"indemn"),
    "termination_convenience": _d("termination_convenience", [
        (rf"{_CAN_END}.{{0,150}}?{_CONV}", 4.5),
        # "for convenience" is never a ground, so it may follow a long object: "may terminate this Agreement (including ...) for convenience"
        (rf"{_CAN_END}.{{150,300}}?\bfor\s+(?:its\s+|their\s+)?(?:own\s+)?convenience\b(?!\s+(?:of|only))", 4.5),
        (rf"{_CONV}.{{0,120}}?{_CAN_END}", 4.5),
        # the reason set between the right and its verb: "may, at any time and for any reason, terminate this Agreement"
        (rf"\b(?:may|can|entitled\s+to|right\s+to)\s*,?(?:\s+(?!not\b|never\b)[\w']+){{0,5}}?\s+{_CONV}\s*,?\s+(?:(?:[\w']+\s+){{0,2}}?)(?:terminat|cancel)\w*", 4.5),
        (rf"{_CAN_END}.{{0,150}}?{_DISCRETION}|{_DISCRETION}.{{0,120}}?{_CAN_END}", 3.5),
        # "upon thirty (30) days' notice", "by giving the other Party 60 days' prior written notice"
        (rf"{_CAN_END}.{{0,120}}?\b(?:upon|on|by|with|after|(?:by\s+)?(?:giving|providing|delivering|furnishing|serving|sending)"
         rf"(?:\s+(?:to\s+)?(?:the\s+)?[\w']+(?:\s+part(?:y|ies))?)?)\s+(?:at\s+least\s+|not\s+less\s+than\s+|no\s+less\s+than\s+|a\s+)?(?:{_DUR}|\[\*+\])\s*\b.{{0,40}}?\bnotice", 3),
        (rf"\b(?:giving|providing|upon)\b.{{0,60}}?\b{_DUR}\b.{{0,40}}?\bnotice\s+of\s+(?:its\s+)?(?:intent\w*\s+to\s+)?terminat", 3),
        (rf"{_ITEM}(?:without\s+cause|for\s+convenience|for\s+any\s+reason)\b", 3.5),
        (rf"{_ITEM}at\s+any\s+time\s+(?:upon|on|by|with|after)\b.{{0,80}}?\bnotice\b", 3),
        # an enumerated alternative that is only a notice period, ending there: "... (i) upon thirty (30) days' prior written
        # notice, or (ii) immediately if ...", "(ii) at any other time upon ninety (90) days' notice." (outweighs the other branch's grounds);
        # also a list item naming who may end it, "(d) by either party upon sixty (60) days' notice;" (hence "by either" among the keywords)
        (rf"\((?:[ivx]+|[a-z]|\d+)\)\s+(?:by\s+(?:either|any|each)\s+(?:\w+\s+){{0,3}}?|at\s+the\s+(?:option|election)\s+of\s+(?:either|any|each)\s+part(?:y|ies)\W+)?(?:at\s+any\s+(?:other\s+)?time\s+)?(?:upon|on|with|after|by\s+giving)\s+(?:at\s+least\s+|not\s+less\s+than\s+|no\s+less\s+than\s+)?"
         rf"(?:{_DUR}|\[\*+\])\W+(?:\w+\s+){{0,3}}?notice(?:\s+of\s+(?:\w+\s+)?termination|\s+to\s+the\s+other\s+part(?:y|ies)(?:\s+hereto)?)?\s*(?:[;.]|,?\s+or\b|$)", 4.5),
        # a list item whose ground is no reason: "(c) at any time after the second anniversary, for any reason or no reason,
        # upon ...", "until the earlier of (a) ... and (b) termination by either Party for any reason upon thirty (30) days' notice"
        (rf"\((?:[ivx]+|[a-z]|\d+)\)\s+(?:at\s+any\s+time\b[^;:]{{0,150}}?,\s*|termination\s+by\s+(?:either|any|each)\s+part(?:y|ies)\s+)?{_CONV}", 4.5),
        # "(a) at the option of either party, upon ninety (90) days' notice"
        (rf"\bat\s+the\s+(?:option|election)\s+of\s+(?:either|any|each)\s+part(?:y|ies)\W+(?:upon|on|with|after|by\s+giving)\s+(?:at\s+least\s+|not\s+less\s+than\s+|no\s+less\s+than\s+)?(?:{_DUR}|\[\*+\])\b.{{0,40}}?\bnotice", 3),
        # "may terminate this Agreement effective thirty (30) days after written notice"
        (rf"{_CAN_END}.{{0,150}}?\beffective\s+(?:{_DUR}|\[\*+\])\s+(?:after|following|from)\s+(?:the\s+)?(?:\w+\s+){{0,4}}?(?:written\s+)?notice", 3),
        # "at any time upon ninety (90) days' notice"
        (rf"\bat\s+any\s+(?:other\s+)?time\s+(?:upon|on|by|with|after)\s+(?:giving\s+|providing\s+)?(?:at\s+least\s+|not\s+less\s+than\s+|no\s+less\s+than\s+)?(?:{_DUR}|\[\*+\])\b.{{0,40}}?\bnotice", 3),
        # a bare right to end on notice, nothing after it: "may terminate this Agreement upon written notice to the other party."
        (rf"{_CAN_END}(?:(?!immediately|forthwith)[^.;:]){{0,60}}?\b(?:upon|on|by|with)\s+(?:giving\s+|providing\s+|delivering\s+)?(?:\w+\s+){{0,2}}?(?:prior\s+|advance\s+)?(?:written\s+)?notice\b[^;:,]{{0,60}}$", 3),
        # "a party wishing to terminate must give notice at least thirty (30) days prior to ..."
        (rf"{_CAN_END}.{{0,120}}?\bnotice\b.{{0,40}}?\b(?:at\s+least\s+|not\s+less\s+than\s+|no\s+less\s+than\s+)?{_DUR}\s+(?:prior|before|in\s+advance)\b", 3),
        # evergreen terms that run "until terminated by either party upon thirty (30) days' notice"
        (rf"^(?!.*\brenew).*?\buntil\s+(?:terminated\s+by\s+(?:either|any|one)\s+part(?:y|ies)|(?:either|any|one)\s+party\s+(?:informs|notifies|gives|terminates))\b.{{0,80}}?{_DUR}.{{0,40}}?\bnotice", 3),
        (r"\b(?:alter|cease|discontinue)\b.{0,60}?\b(?:providing|services?)\b.{0,200}?\bwithout\s+(?:any\s+)?liability", 3),
        (rf"{_CAN_END}.{{0,80}}?\bat\s+any\s+time\b", 2),
        # "may be terminated at any time, without the payment of any penalty, by ..." (not by a vote: see below)
        (rf"^(?!.*\bvote\s+of\b).*?{_CAN_END}.{{0,80}}?\bwithout\s+(?:the\s+)?(?:payment\s+of\s+)?(?:any\s+)?penalty", 1.5),
        (rf"{_CAN_END}.{{0,80}}?\bat\s+any\s+time\b.{{0,80}}?\b(?:notice|notif\w*|in\s+writing)\b", 1.5),
        # ending at the end of a term is non-renewal, not termination for convenience
        (r"\b(?:(?:at|as\s+of|effective\s+(?:as\s+of\s+|on\s+)?|upon|on)\s+(?:or\s+after\s+)?|(?:days?|months?)\s+(?:prior\s+to|before)\s+)(?:the\s+)?(?:end|expiration|expiry|last\s+day)(?:\s+date)?\s+of\s+"
         r"(?:the\s+|its\s+|a\s+|any\s+|such\s+|each\s+)?(?:then[\s-]current\s+|initial\s+|renewal\s+|current\s+|original\s+)?(?:\w+\s+)?(?:term|period)\b", -2.5),
        # investment-company contracts ended by a board or shareholder vote
        (r"\bby\s+(?:the\s+|a\s+)?vote\s+of\b", -3),
        (r"\bin\s+accordance\s+with\s+the\s+termination\s+provisions\b", -2),
        # a lead-in to a list of grounds: "may terminate ... upon any of the following:"
        (r"\b(?:as\s+follows|(?:any|one)\s+of\s+the\s+following(?:\s+\w+)?|following\s+(?:grounds|events|circumstances|conditions|reasons|cases))\s*:?\s*$", -2),
        (_BREACH, -2.5),
        (_TRIGGER, -2),
        # a right denied, or promised not to be used: "may not be terminated", "agrees not to terminate this Agreement unless ..."
        (r"\bmay\s+not\s+be\s+terminated\b|\bnot\s+(?:be\s+)?(?:entitled|permitted)\s+to\s+terminat|\bnot\s+(?:be\s+)?terminable\b"
         r"|\b(?:agrees?|undertakes?|covenants?)\s+not\s+to\s+(?:terminat|cancel)", -3.5),
        (r"\bterminat\w*\b.{0,60}?\bby\s+(?:the\s+)?(?:mutual\s+)?(?:written\s+)?(?:agreement|consent)\b|\bmutual(?:ly)?\s+(?:written\s+)?(?:agree|consent)", -3),
        # "for any reason" said of another ending ("should the Consultant's engagement terminate for any reason"), or of a survival
        (r"\b(?:is|are|be|been|being)\s+terminated\s+for\s+any\s+reason|\b(?:should|if|when)\b[^,;]{0,60}?\bterminat\w*\s+for\s+any\s+reason|\bsurviv\w*|\b(?:termination|expiration)\s+or\s+(?:termination|expiration)\b.{0,30}?\bfor\s+any\s+reason", -3),
    ], title=r"terminat"),
    "auto_renewal": _d("auto_renewal", [
        # "shall automatically renew", "an automatic 2 year term extension", "shall automatically continue"
        (r"\b(?:automatic(?:ally)?|auto-?)\s*(?:[\w()-]+\s+){0,4}?(?:renew|extend|be\s+renewed|be\s+extended|renewal|extension)|\bautomatically\s+continue", 3.5),
        (r"\brenew\w*\b.{0,80}?\b(?:successive|additional|consecutive|further|subsequent)\b.{0,60}?\b(?:periods?|terms?|years?|months?|increments?)", 3),
        (r"\b(?:successive|additional|consecutive|further|subsequent)\b.{0,50}?\b(?:renewal|extension|extended)\s+(?:periods?|terms?)", 3),
        (r"\bextend\w*\s+(?:the\s+)?(?:initial\s+)?(?:term|agreement)\b.{0,80}?\b(?:additional|further|successive|consecutive|renewal)", 3),
        (r"\b(?:option|right|elect)\w*\s+to\s+(?:\w+ly\s+)?(?:renew|extend)\b", 2.5),
        (r"\b(?:renewable|extendable|extendible)\b", 2.5),
        (rf"\b(?:term|agreement)\s+(?:shall|will)\s+(?:automatically\s+)?be\s+extended\s+for\s+(?:an?\s+)?(?:additional\s+|further\s+|successive\s+)?{_DUR}", 3),
        # "and from year to year thereafter", "on a year-to-year basis"
        (r"\b(?:continu|renew|extend)\w*\b.{0,80}?\bfrom\s+year\s+to\s+year\b|\bon\s+a\s+year[\s-]to[\s-]year\s+basis\b", 3),
        (r"\bRenewal\s+(?:Term|Period)\b", 2),
        (r"\bevergreen\s+(?:term|basis|renewal|clause|provision|period)s?\b|\bon\s+an\s+evergreen\b", 3),
        (rf"\brenew\w*\b.{{0,60}}?\b{_DUR}", 1),
        (r"\b(?:renew\w*|extend\w*|prolong\w*|continue\w*)\s+(?:automatically|tacitly)\b|\btacit\w*\s+(?:renew|extension|prolong)", 3.5),
        # evergreen terms: "thereafter ... shall continue until terminated by either party"
        (r"\b(?:thereafter|after\s+that|indefinitely|year\s+to\s+year|month\s+to\s+month)\b.{0,100}?\buntil\s+terminated\b", 3.5),
        (r"\b(?:continue|remain)\w*\b.{0,60}?\b(?:thereafter|after\s+that|indefinitely)\b.{0,60}?\buntil\b", 3),
        # but a term that simply runs from signing "and continues until terminated" has no renewal
        (r"\b(?:effective|commenc\w*|begin\w*)\b[^;]{0,80}?\b(?:and|shall|will)\s+(?:shall\s+|will\s+)?continue\s+(?:in\s+(?:full\s+)?(?:force\s+and\s+)?effect\s+)?(?:thereafter\s+|indefinitely\s+)until\b", -5),
        (r"\bshall\s+not\s+(?:be\s+)?(?:automatically\s+)?renew|\b(?:not|never)\s+(?:be\s+)?automatically\s+(?:renew|extend)", -3),
        # recitals, and deadlines stretched by a delay or force majeure, are not renewal terms
        (r"^\W*WHEREAS\b", -3),
        (r"\b(?:force\s+majeure|suspen\w+|delay\w*)\b", -2),
        (r"\bnon-?renewable\b|\bno\s+(?:\w+\s+){0,3}rights?\s+(?:of|to)\s+(?:\w+\s+)?renew", -3),
    ], title=r"\bterm\b|renew"),
    "payment_terms": _d("payment_terms", [
        (rf"\b(?:pay|paid|payable|payment|due|remit)\w*\b.{{0,100}}?\bwithin\s+{_DUR}", 3),
        (rf"\b{_DUR}\b.{{0,60}}?\b(?:after|from|of|following)\s+(?:the\s+)?(?:date\s+of\s+|receipt\s+of\s+)?(?:the\s+)?(?:invoice|receipt)", 2.5),
        # a period counted from another event, with the payment named further back in a long sentence: "shall pay the Fees and
        # any other charges set out in the Order Form, together with ..., within thirty (30) days of the end of the month"
        (rf"\b(?:pay|paid|payable|payment|due|remit|settle)\w*\b.{{100,250}}?\bwithin\s+{_DUR}", 2),
        (rf"\b{_DUR}\b.{{0,30}}?\b(?:after|from|of|following)\s+(?:the\s+)?(?:end\s+of\s+(?:the|each|every)\s+(?:calendar\s+)?(?:month|quarter)|delivery|acceptance|completion)\b", 1.5),
        # a late-payment rate: "interest at one percent (1%) per month", "interest of 8% per annum"
        (r"\binterest\b.{0,60}?(?:%|\bper\s*cent\b|\bpercent\b).{0,40}?\b(?:per\s+(?:month|annum|year)|a\s+month|monthly|annually)\b", 1.5),
        (r"\binvoic\w*\b.{0,120}?\b(?:due|payable|paid)\b", 2),
        (r"\bnet\s+\d{1,3}\b", 2),
        (r"\bpayment\s+(?:is\s+|shall\s+be\s+)?due\b", 1.5),
        (r"\b(?:late\s+payments?|overdue|past\s+due|unpaid)\b.{0,120}?\binterest\b", 1.5),
        # a period the filing blanked out is still a payment term (checked by hand): "payable within [Redacted] following ..."
        (r"\b(?:pay|paid|payable|payment|due|remit)\w*\b.{0,100}?\bwithin\s+(?:\[[^\]]{0,60}\]|\*{3,}|_{3,})", 3),
        # a period the filing blanked out, counted from the invoice: "payment shall be due [*] days following receipt of the invoice"
        (r"\b(?:pay|paid|payable|payment|due)\w*\b.{0,100}?(?:\[[^\]]{0,20}\]|\*{3,})\s*(?:business\s+|calendar\s+)?days?\s+(?:after|following|from|of)\s+"
         r"(?:the\s+)?(?:[\w']+\s+){0,2}?(?:receipt|date)\s+of\s+(?:the\s+|an?\s+|such\s+|each\s+)?invoices?\b", 3),
        # the terms of payment set by a schedule, statement of work or order form: "shall pay the Service Fee in accordance with
        # Schedule 1", "shall bill the Company as set forth in the relevant Statement of Work" (checked there by hand)
        (rf"\b(?:shall|will|must|agrees?\s+to)\s+(?:pay|bill|invoice)\b[^.;]{{0,120}}?\b(?:fees?|charges?|prices?|compensation|remuneration|amounts?)\b[^.;]{{0,120}}?{_SCHEDULED}"
         rf"|\b(?:shall|will|must|agrees?\s+to)\s+(?:bill|invoice)\b[^.;]{{0,60}}?{_SCHEDULED}", 3),
        (r"\b(?:payable|paid)\s+in\s+advance\b", 2),
        # payment before the work: "a prepayment of $1,900 ... the remaining $3,100 on completion", "a down payment of 40% with
        # the balance due upon delivery", "payable upon signing"
        (r"\b(?:pre-?payments?|prepa(?:y|id)|down[\s-]payments?|advance\s+payments?|deposits?|up-?front\s+payments?)\b", 2),
        (r"\b(?:balance|remaining|remainder|rest)\b.{0,60}?\b(?:on|upon|at|after)\s+(?:the\s+)?(?:completion|delivery|acceptance|installation|go-?live|launch)\b", 2),
        (r"\b(?:pay|paid|payable|due)\w*\s+(?:\w+\s+){0,6}?(?:up)?on\s+(?:the\s+)?(?:signing|signature|execution)\b", 2),
        # nothing to pay for the deal's subject: "the Software Licence and Maintenance will be provided at no charge" (not a
        # repair or replacement at no charge, which is a warranty remedy)
        (r"^(?!.*\b(?:repair|replac|defect|warrant|re-?perform|correct|cure|remed))"
         r".*?\b(?:provided|supplied|licen[cs]ed|granted|delivered|furnished|made\s+available|performed|hosted)\s+(?:to\s+\w+\s+)?"
         r"(?:at\s+no\s+(?:additional\s+)?(?:charge|cost|fee)|free\s+of\s+(?:any\s+)?(?:charge|cost)|without\s+(?:any\s+)?(?:charge|fee))", 3.5),
        # the same with other words for paying: "agrees to compensate Contractor as set forth in each Statement of Work",
        # "payable in accordance with the applicable Order Form" (present; the period is there)
        (r"\b(?:compensat\w*|reimburs\w*|remunerat\w*|payable)\b[^.;]{0,80}?\b(?:as\s+(?:set\s+(?:out|forth)|specified|described|provided|"
         r"stated|detailed|listed)|in\s+accordance\s+with|pursuant\s+to)\b[^.;]{0,60}?\b(?:schedules?|exhibits?|appendi(?:x|ces)|"
         r"annex(?:es)?|attachments?|statements?\s+of\s+work|sows?|orders?(?:\s+forms?)?|price\s+lists?|quotations?|proposals?)\b", 3),
        (r"\binvoices?\b[^.;]{0,40}?\b(?:submitted|issued|rendered|sent)\b", 2),
        # a payment of one charge (a shortfall under a purchase commitment, a take-or-pay amount) is not the contract's payment terms
        (r"\bshortfall\b|\btake[\s-]or[\s-]pay\b|\b(?:purchases?|volumes?|orders?|tenders?)\b[^.;]{0,60}?\b(?:falls?\s+(?:short|below)|fewer\s+than|less\s+than)\b", -3),
    ], title=r"payment|invoic|fees|compensation|remuneration"),
    "price_changes": _d("price_changes", [
        (r"\b(?:increase|adjust|change|raise|revise|modif)\w*\b.{0,60}?\b(?:prices?|pricing|fees|rates|charges)\b|\b(?:prices?|pricing|fees|rates|charges)\b.{0,60}?\b(?:increase|adjust|change|raise|revis|modif)\w*", 2),
        (r"\bmay\s+(?:\w+\s+){0,2}(?:increase|adjust|change|raise|revise|modify|vary)\b", 1.5),
        (r"\bmost[\s-]favou?red\b", 3),
        (r"\b(?:CPI|consumer\s+price\s+index|producer\s+price\s+index)\b", 2),
        (r"\b(?:firm|fixed)\b.{0,40}?\b(?:prices?|pricing)\b|\b(?:prices?|pricing)\b.{0,40}?\b(?:firm|fixed)\b", 1.5),
        # prices held for a period: "Prices are firm and fixed for the Term", "the Fees shall remain fixed during the Initial Term"
        (r"\b(?:prices?|pricing|fees|rates|charges)\s+(?:\w+\s+){0,3}?(?:are|is|shall|will|remain)\s+(?:\w+\s+){0,2}?(?:firm|fixed|unchanged)\b", 2),
        # a price that moves with the supplier's costs (cost plus a margin)
        (COST_PLUS, 3.5),
        # "subject to applicable fee adjustments", "price escalation" (not a credit or discount called a price adjustment)
        (r"^(?!.*\b(?:credits?|discounts?|rebates?|reduc\w*)\b).*?\b(?:price|pricing|fee|rate|charge)s?\s+(?:adjustments?|increases?|escalations?|revisions?)\b", 3),
        # extra charges at the supplier's will
        (EXTRA_FEES, 3),
        (ABOVE_AGREED, 4),
        # periodic price reviews: "meet every three (3) months to review pricing", "Price Review"
        (r"\breview\w*\s+(?:the\s+)?(?:prices?|pricing|fees|rates)\b|\b(?:price|pricing|fee)\s+reviews?\b", 3),
        (r"\d\s*%|\bpercent\b", 1),
        (r"\bnotice\b", 0.5),
    ], title=r"price|pricing|fees"),
    "governing_law": _d("governing_law", [
        # "governed in all respects, including validity, interpretation and effect, by the laws"
        (r"\b(?:governed|controlled)\b.{0,150}?\blaws?\b", 3),
        (r"\b(?:construed|interpreted|enforced|governed)\b.{0,80}?\b(?:in\s+accordance\s+with|according\s+to|under|pursuant\s+to|by)\b.{0,40}?\blaws?\s+of\b", 3),
        # "the law of the Federal Republic of Germany applies", "legislation of ... shall apply to"
        (r"\b(?:laws?|legislation)\s+of\b.{0,120}?\b(?:appl(?:y|ies)|shall\s+apply|will\s+apply)\b", 3),
        (r"\blaws?\s+of\b.{0,150}?\bgovern(?:s|ed)?\b", 3),
        (r"\b(?:made|applied|construed|interpreted)\b.{0,80}?\b(?:under|in\s+accordance\s+with|subject\s+to)\b.{0,80}?\blaws?\s+of\b", 3),
        (r"\bgoverning\s+law\b", 1.5),
        (r"\blaws?\s+of\s+(?:the\s+)?(?:State|Commonwealth|Province|Republic|Kingdom|People's\s+Republic)\s+of\b", 1),
        (r"\bapplicable\s+law\s+(?:shall\s+be|is)\b", 2),
    ], title=r"governing\s+law|applicable\s+law|choice\s+of\s+law"),
    "assignment": _d("assignment", [
        (r"\b(?:not|no|neither|nor|cannot|none)\b.{0,80}?\b(?:assign|delegat)\w*\b.{0,200}?\bwithout\b.{0,80}?\b(?:consent|approval|permission)", 3),
        (r"\bassign\w*\b.{0,200}?\bwith(?:out)?\s+(?:the\s+)?(?:\S+\s+){0,5}?(?:consent|approval|permission)", 2.5),
        # consent first: "may not, without the written consent of X, assign", "without consent, none may assign"
        (r"\bwithout\s+(?:the\s+)?(?:\S+\s+){0,4}?(?:consent|approval|permission)\b.{0,120}?\b(?:assign|transfer|delegat)\w*", 3),
        (r"\b(?:may|shall|will|can|must)\s+not\s+(?:\w+\s+){0,3}(?:assign|transfer)(?:s|ed|red)?\b", 3),
        (r"\b(?:neither|no|none\s+of\s+the)\s+part(?:y|ies)\s+(?:to\s+this\s+agreement\s+)?(?:shall|may|will|can|has|have)\s+(?:be\s+entitled\s+to\s+|(?:have\s+)?the\s+(?:right|power)\s+to\s+)?(?:[\w]+,?\s+){0,3}?(?:assign|transfer)\w*\b", 3),
        # "shall not, without consent, be transferred or assigned", "cannot be transferred or assigned"
        (r"\b(?:not|cannot)\b.{0,80}?\bbe\s+(?:transferred|assigned)\b", 3),
        (r"\bterminat\w*\s+automatically\b.{0,60}?\bassignment\b", 3),
        (r"\b(?:assign\w*|transfer\w*)\b.{0,200}?\b(?:null\s+and\s+void|void\s+and\s+(?:of\s+no|without)\s+(?:force|effect)|shall\s+be\s+(?:deemed\s+)?void)", 3),
        (r"\b(?:not|non)[\s-]?(?:be\s+)?(?:assignable|transferable)\b", 2.5),
        # "is not sublicensable, transferable or assignable" (a bare "non-transferable licence" stays below)
        (r"\bnot\s+(?:be\s+)?(?:\w+,?\s+(?:or\s+)?){0,3}?assignable\b", 3),
        (r"\bassign\w*\b.{0,80}?\b(?:successors?|affiliates?|merger|acquir)", 1),
        (r"\b(?:may|can)\s+(?:freely\s+)?assign\b", 1.5),
        (r"\bassignment\b", 0.5),
        (r"\bassignment\s+for\s+the\s+benefit\s+of\s+(?:its\s+)?creditors\b", -3),
        # moving data or goods is no transfer of the contract: "shall not transfer personal data outside the country without
        # consent", "title shall not transfer until payment" (unless the sentence also assigns: "assign" scores on its own)
        (r"^(?!.*\bassign).*\b(?:transfer\w*|be\s+transferred)\s+(?:any\s+|the\s+|such\s+|its\s+)?(?:\w+\s+){0,2}?(?:data|information|records|files|funds|title|risk|goods|products|stock)\b"
         r"|^(?!.*\bassign).*\b(?:data|information|records|title|risk)\b.{0,40}?\b(?:shall|will|may)\s+not\s+(?:be\s+)?(?:transfer|pass)", -3),
    ], title=r"assign"),
    "insurance": _d("insurance", [
        (r"\binsurance\b", 2),
        # "shall maintain", "is responsible for obtaining and maintaining", "may acquire insurance on behalf of"
        (r"\b(?:maintain\w*|carr(?:y|ies|ying)|procur(?:e|es|ing)|obtain\w*|keep(?:s|ing)?|purchases?|provid(?:e|es|ing)|acquir(?:e|es|ing))\b.{0,100}?\binsur", 2),
        (r"\b(?:general\s+liability|product(?:s)?\s+liability|liability\s+insurance|workers'?\s+compensation|errors\s+and\s+omissions|professional\s+(?:liability|indemnity)|additional\s+insureds?|umbrella|self-insurance)\b", 2),
        (r"\bper\s+occurrence\b|\bcertificates?\s+of\s+insurance\b|\binsurers?\b", 1.5),
        (r"\binsur\w*\b.{0,40}?\b(?:life|annuit|variable|separate\s+account)", -2),
    ], threshold=4, title=r"insurance"),
    "audit_rights": _d("audit_rights", [
        (r"\b(?:permit|allow|entitled|right)\b.{0,60}?\baudit\w*", 3),
        (r"\bgovernmental\s+authorit", -2),
        # (a test that "verifies" an effect on a web site is no inspection of a site)
        (r"\b(?:audit|inspect|examin)\w*\b.{0,100}?\b(?:books|records|accounts|facilit(?:y|ies)|premises|sites?|plants?|operations)\b"
         r"|\bverif\w*\b.{0,100}?\b(?:books|records|accounts)\b", 3),
        (r"\b(?:books|records|accounts)\b.{0,150}?\b(?:audit|inspect|examin)\w*", 3),
        # "may audit", "may, at its own expense, audit", "allows the Licensor to audit"
        (r"\b(?:right\s+to|may)\s+(?:\w+\s+){0,2}(?:audit|inspect)|\bmay\s*,[^,]{1,60},\s*(?:audit|inspect)"
         r"|\b(?:allows|permits)\s+(?:\w+\s+){1,4}?to\s+(?:audit|inspect)", 3),
        # records kept open to the other party: "make its books available to X", "shall be available and open to
        # inspection", "make available for examination all documentation", "review the books and records of"
        (r"\b(?:books|records|accounts|documents|documentation)\b.{0,200}?\b(?:available|open)\s+(?:\w+\s+){0,3}?(?:to|for)\s+(?:\w+\s+){0,2}?"
         r"(?:inspection|examination|review|audit|verification)"
         r"|\bmake\s+(?:\w+\s+){0,4}?(?:books|records|accounts)\s+(?:\w+\s+){0,2}?available\b"
         r"|\bmake\s+available\s+(?:\w+\s+){0,3}?for\s+(?:\w+\s+){0,2}?(?:inspection|examination|review|audit)"
         r"|\bmake\s+available\b[^.;]{0,120}?\b(?:books|records|accounts)\b"
         r"|\breview\s+(?!of\b)(?:(?:the|its|all|such|their|any)\s+)?(?:\w+\s+){0,2}?(?:books|records|accounts)\b", 3),
        # a catalogue of activities ("design, supply, installation, inspection, operations, ...") names a field, no right
        (r"(?:\b[\w/-]+(?:\s+of)?\s*,\s*){8,}", -3),
        # a line in capitals is a heading or the title of a task ("INSPECTION OF THE SITE"), not a right
        (r"^(?-i:[^a-z]+)$", -2),
        # a company's published "audited accounts" or "audited financial statements" are no right to audit
        (r"\baudited\s+(?:\w+\s+)?(?:accounts|financials?|financial\s+statements|statements)\b", -2),
        (r"\baudit\w*\b", 1),
        # an audit by an outsider, in the passive: "all usage reports shall be audited by an independent auditor"
        (r"\b(?:shall|will|may|must)\s+(?:\w+\s+)?be\s+(?:audited|verified|inspected)\s+by\b", 2.5),
        (r"\b(?:access|available)\b.{0,60}?\b(?:books|records|facilit(?:y|ies)|premises)\b", 1.5),
        # "shall afford X full access at reasonable times to its books and records", "each Party shall have full access to
        # all properties, books of account and records", "provide X, at X's expense and during business hours, access to ..."
        (r"(?:\b(?:afford|give|grant|provide|permit|allow)\w*\b.{0,120}?|\b(?:shall|will|may)\s+have\s+(?:\w+\s+){0,2}?)\baccess\b.{0,150}?\b(?:books|records|accounts)\b", 3),
        # "shall permit X's representatives to enter its premises for the purpose of inspecting ..."
        (r"\b(?:permit|allow)\w*\b.{0,150}?\b(?:enter|visit)\w*\b.{0,100}?\b(?:premises|facilit(?:y|ies)|plants?|sites?)\b.{0,80}?\b(?:inspect|audit|examin|verif)\w*", 3),
    ], title=r"audit|inspection|records"),
    "exclusivity": _d("exclusivity", [
        *EXCLUSIVE_DEALING,
        (r"\bexclusive\s+(?:\w+\s+)?(?:right|license|licence|distributor|supplier|provider|reseller|basis|agent|dealer|manufacturer|source|partner|territory|purchase|supply|dealing)", 3),
        (r"\b(?:not|no)\b.{0,40}?\b(?:appoint|engage|purchase|buy|source|obtain|use)\b.{0,80}?\b(?:other|additional|any\s+third|alternative)\b.{0,40}?\b(?:distributors?|suppliers?|providers?|resellers?|vendors?|sources?|manufacturers?)", 3),
        (r"\bnon-?exclusiv\w*", 3),
        (r"\b(?:free|may|entitled)\s+(?:\w+\s+){0,6}?(?:purchase|buy|source|obtain|procure)\b.{0,120}?\bfrom\s+(?:any\s+)?(?:other|third|alternative)", 3),
        # "the exclusive online insurance provider", "an exclusive, worldwide, royalty-free license"
        (rf"\bexclusive\s+(?:and\s+sole\s+)?{NAMING_WORDS}{{1,4}}{EXCLUSIVE_ROLE}", 3),
        (r"\bexclusive\s*(?:,|\band\b)\s*(?:[\w-]+(?:\s*,\s*|\s+and\s+|\s+)){0,6}?(?:licen[cs]e|right|distribution)", 3),
        (r"\bintellectual\s+property|\bmeans\b", -1.5),
    ], title=r"exclusiv"),
    "non_compete": _d("non_compete", [
        *NOT_COMPETE,
        (r"\bnon-?solicit\w*", 2.5),
        (r"\b(?:not|no|neither|nor)\b.{0,100}?\bsolicit\w*", 2.5),
        (r"\bsolicit\w*\b.{0,80}?\b(?:employees?|personnel|staff|employment)\b", 1),
        # "will not hire or employ any employee of the other party": a non-solicitation of staff
        (r"\b(?:not|no|neither|nor)\b.{0,60}?\b(?:hire|employ|recruit)\w*\s+(?:\w+\s+){0,3}?(?:employees?|personnel|staff)\s+of\s+the\s+other\b", 3),
        (r"\bnothing\s+in\s+this\s+agreement\s+(?:restricts|prevents|shall\s+restrict)\b.{0,80}?\b(?:business|compet)", 3),
    ], title=r"compet|solicit|restrict"),
    "warranty": _d("warranty", [
        (r"\bwarrant(?:s|y|ies|ed)\b|\b(?:shall|will|must|hereby|and)\s+warrant\b(?!\s+(?:to\s+(?:purchase|acquire|subscribe)|holders?|shares?))", 1.5),
        (r"\bwarranty\s+period\b", 2),
        (r"\bfree\s+(?:from|of)\s+(?:\w+\s+){0,2}defects?\b", 2),
        # the warranty's own object: "defects in design, workmanship and materials", "defects in material or manufacture"
        (r"\bdefects?\s+in\s+(?:(?:the\s+)?(?:design|materials?|workmanship|manufacture|manufacturing|title|packaging)\W+(?:and\s+|or\s+)?){1,4}", 1),
        (r"\b(?:conform|comply)\w*\b.{0,60}?\bspecifications?\b", 1),
        # a party warranting that the goods meet what was agreed: "shall warrant compliance with the agreed acceptance criteria",
        # "warrants that each batch will conform to the Certificate of Analysis" (not compliance with the law)
        (r"\bwarrant\w*\s+(?:that\s+)?(?:[\w-]+\s+){0,6}?(?:conform\w*|compl(?:y|ies|iance)|meets?)\b[^.;]{0,80}?"
         r"\b(?:specifications?|criteria|standards?|samples?|descriptions?|drawings|certificates?)\b", 1.5),
        (r"\bas\s+is\b", 1.5),
        (r"\bdisclaim\w*\b.{0,100}?\bwarrant", 1),
        (rf"\bwarrant\w*\b.{{0,150}}?\b{_DUR}|\b{_DUR}\b.{{0,100}}?\bwarrant", 1.5),
    ], title=r"warrant"),
    "liquidated_damages": _d("liquidated_damages", [
        (r"\bliquidated\s+damages\b", 4),
        (r"\b(?:no|without\s+(?:paying\s+|payment\s+of\s+)?(?:any\s+)?)\s*(?:\w+\s+){0,2}(?:fee|charge|penalty)\b", -3),
        # "shall not be liable for any termination charges" frees a party from the fee
        (r"\b(?:not|neither)\b.{0,40}?\b(?:liable|oblig\w*|responsible)\b.{0,30}?\b(?:for|to\s+pay)\s+(?:any\s+)?(?:early\s+)?(?:termination|cancell?ation)\s+(?:fees?|charges?|payments?)", -3),
        (r"\bshall\s+credit\b|\bfor\s+each\s+(?:\w+\s+){0,2}(?:day|week)\s+of\s+delay\b", 3),
        (r"\bservice[\s-]level\s+credits?\b|\bservice\s+credits?\b", 3),
        (r"\b(?:early\s+)?(?:termination|cancell?ation|rescheduling|reschedule)\s+(?:fee|charge|payment|penalty)s?\b", 3),
        # a fixed share of the price payable for orders cancelled, rescheduled or not taken: "Customer shall be liable to pay
        # 100% of the Contract Price of such cancelled Products", "if the Buyer reschedules an order, it shall pay [*]% of
        # the order value"
        (rf"{_ORDER_CHANGED}.{{0,250}}?\b(?:pay|paid|payable|liable|charged?|invoiced?|owe)\w*\b.{{0,100}}?{_SHARE_OF_PRICE}"
         rf"|\b(?:pay|paid|payable|liable|charged?|invoiced?|owe)\w*\b.{{0,100}}?{_SHARE_OF_PRICE}.{{0,150}}?{_ORDER_CHANGED}", 3),
        (r"\bpenalt(?:y|ies)\b", 1.5),
        (r"\bnot\s+(?:be\s+)?(?:deemed\s+)?(?:a\s+)?penalty\b", 1),
        # a credit for goods sent back is a refund, not damages: "shall credit the price of the returned Products"
        (r"\bcredit\w*\b.{0,100}?\b(?:returned|defective|rejected|non-?conforming)\b|\b(?:return\w*|defective|rejected|non-?conforming)\b.{0,100}?\bcredit", -3),
    ], title=r"liquidated|service\s+level|credits"),
    "minimum_commitment": _d("minimum_commitment", [
        (r"\bminimum\s+(?:\S+\s+){0,3}?(?:purchases?|orders?|quantity|quantities|volumes?|commitments?|requirements?|amount|fees?|charges?|revenue|number|payments?|units|lots?|level)\b", 3),
        (r"\btake[\s-]or[\s-]pay\b|\bshortfall\s+(?:payment|fee|charge|amount|quantit\w+|volume)", 3),
        (r"\b(?:guaranteed|committed)\s+(?:minimum|volume|quantity|quantities|amount)", 3),
        (r"\b(?:purchase|order|buy)\w*\b.{0,60}?\bat\s+least\b", 2),
        # a firm order or commitment of a quantity: "a firm and non-cancellable order for three hundred (300) Units", "commits to
        # purchase 5,000 units", "shall purchase two thousand (2,000) Devices during the first Contract Year"
        (r"\b(?:firm|binding|non-?cancell?able|irrevocable|unconditional)\s+(?:and\s+(?:firm|binding|non-?cancell?able|irrevocable|unconditional)\s+)?"
         r"(?:purchase\s+)?(?:orders?|commitments?|obligations?\s+to\s+(?:purchase|buy|order))\b", 2.5),
        (r"\b(?:shall|will|must|agrees?\s+to|commits?\s+to|undertakes?\s+to|is\s+obliged\s+to|(?:purchase\s+)?orders?\s+for)\s+(?:(?:purchase|buy|order|take|acquire)\s+)?"
         r"(?:a\s+total\s+of\s+)?(?:" + _AT_LEAST + r")?" + _COMMITTED_AMOUNT + r"\s+(?:\w+\s+){0,2}?(?:units|products|pieces|devices|machines|systems|vehicles|licen[cs]es|seats|tons?|tonnes?|kilograms?|cases|lots|cartons|pallets)\b", 2),
        (r"\bminimum\b", 1),
        (r"\b(?:sales?|purchase|revenue|performance)\s+(?:targets?|quotas?|benchmarks?)\b", 2.5),
        (r"\b(?:meet|achieve|satisfy|attain|reach)\w*\b.{0,40}?\b(?:sales?|purchase|revenue|performance)\s+(?:targets?|quotas?|benchmarks?)\b", 1),
        (r"\bnon-?binding\b", -1),
        # "no guarantee that any minimum ...", "nothing ... obligates a Party to purchase any minimum"
        (r"\bno\s+guarantee\b|\bnothing\b.{0,80}?\bobligat\w*\b", -3),
        # a minimum disclaimed or owed to the law: "this licence does not include a minimum annual royalty", "shall be deemed
        # to satisfy the minimum requirements of applicable law"
        (r"\b(?:does|do|shall|will)\s+not\s+(?:include|contain|impose|require|provide\s+for)\s+(?:a|any)\s+(?:\w+\s+){0,2}?minimum\b"
         r"|\b(?:laws?|regulations?|statutes?|ordinances?)\b.{0,200}?\bminimum\s+requirements?\b|\bminimum\s+requirements?\s+(?:of|under)\s+(?:\w+\s+){0,2}?(?:laws?|regulations?)\b", -3),
        # a sales floor that ends a right: "if the Reseller sells less than 50% of the Annual Milestone", "the annual Net Sales of
        # Products are below $[*]", "in the event that annual sales fall below $1,000,000"
        (r"\b(?:(?:sales|revenues?|purchases)\s+(?:\w+\s+){0,4}?(?:falls?|are|is|drops?|decline|declines)\s+(?:to\s+)?(?:below|less\s+than)"
         r"|(?:sells|purchases|orders)\s+less\s+than)\s+" + _COMMITTED_AMOUNT, 3),
        # "an annual minimum", "a monthly minimum of [*] page views"
        (r"\b(?:annual|monthly|quarterly|yearly)\s+minimum\b", 2),
        # an amount per period: "not less than forty (40) episodes per year", "at least $[*] in each calendar quarter"
        (_AT_LEAST + _COMMITTED_AMOUNT + _PER_PERIOD, 3),
        # "guarantees to purchase a minimum of 10,000 units", "a minimum of 13,000,000 impressions"
        (r"\bminimum\s+of\s+(?!\[|X{3}|\*{3})" + _COMMITTED_AMOUNT + r"(?!\s*(?:%|percent))", 2),
        # "commits to purchase a minimum of 100 Units", "shall expend not less than $5,000", "agrees to commit funding of at least ..."
        (r"\b(?:purchas(?:e|es|ed|ing)|order(?:s|ed|ing)?|buy(?:s|ing)?|spend(?:s|ing)?|spent|expend\w*|invest(?:s|ing)?|commit(?:s|ted|ting)?|funding|produc(?:e|es|ed|ing)|set\s+up)\b.{0,60}?" + _AT_LEAST
         + r"(?:(?:an\s+)?amount\s+(?:of|equal\s+to)\s+)?(?!\[|X{3}|\*{3})" + _COMMITTED_AMOUNT + r"(?!\s*(?:%|percent))", 3),
        # money a party must put in: "shall use not less than five million dollars ($5,000,000) of the proceeds to fund
        # exploration", "shall spend at least an amount equal to the funding it receives"
        (r"\b(?:use|uses|spend|spends|expend|expends|allocate|allocates|devote|devotes)\b.{0,40}?" + _AT_LEAST
         + r"(?:(?:US)?\$\s*[\d\[]|(?:[a-z]+\s+){1,4}(?:U\.?S\.?\s+)?dollars\b|an?\s+amount\s+equal\s+to\s+(?:the\s+)?(?:amount|sum|total|aggregate|funding)\b)", 3),
        # a promised delivery or payment, even where the filing redacted the figure: "will deliver not less than [*] Impressions",
        # "will pay a minimum of [*] in cash", "pay a service fee of not less than two hundred dollars ($200)"
        (r"\b(?:deliver(?:s|ed|ing)?|pay(?:s|ing)?)\b.{0,60}?" + _AT_LEAST + r"(?:(?:an\s+)?amount\s+(?:of|equal\s+to)\s+)?" + _COMMITTED_AMOUNT
         + r"(?!\s*(?:%|percent))", 3),
        # a sales threshold to keep a right: "fails to achieve annual revenues of $500,000", "achieve Net Sales of $5,000,000"
        (r"\b(?:achiev|meet|reach|attain|generat)\w*\s+(?:\w+\s+){0,3}?(?:revenues?|sales|purchases|net\s+sales|sales\s+volume)\s+(?:of|equal\s+to|in\s+excess\s+of|exceeding)\s+(?:at\s+least\s+)?"
         + _COMMITTED_AMOUNT, 3),
        # quota attainment: "meeting the Quotas", "fees equal to or greater than the Quota Amount"
        (r"\b(?:meet|achiev|satisf|attain|reach|greater\s+than|less\s+than)\w*\b.{0,40}?\bquotas?\b", 3),
        # a guaranteed figure: "guarantees that it will deliver [*] click-throughs", "shall deliver at least the following quantities"
        (r"\bguarantee[sd]?\b.{0,40}?\b(?:deliver|provide|generate|purchase|order|achieve|produce)\w*\s+(?:a\s+total\s+of\s+)?" + _COMMITTED_AMOUNT
         + r"(?!\s*(?:%|percent))", 3),
        (_AT_LEAST + r"the\s+following\s+(?:quantities|amounts|numbers|volumes|minimums?)\b", 3),
        # a share of a party's needs: "shall purchase at least 80% of its requirements of the Product from Seller", "at least one half of the
        # total transactions shall be settled through the Bank"
        (_AT_LEAST + r"(?:one[\s-]half|half|two[\s-]thirds|three[\s-]quarters|[\w-]+\s+(?:\(\s*\d+\s*%?\s*\)\s+)?percent|\d+(?:\.\d+)?\s*%|\[[^\]]{0,20}\]\s*(?:%|percent)?)\s+"
         r"(?:\(\s*\d+\s*%\s*\)\s+)?of\s+(?:its|their|the\s+total|all|the|such)\s+(?:\w+\s+){0,3}?(?:requirements|purchases|transactions|volumes?|needs)\b", 3),
        # a floor under a payment: "the royalties shall not be reduced in any quarter to less than [*] of the amount due"
        (r"^(?=.*\b(?:royalt(?:y|ies)|payments?|fees?)\b).*\b(?:not|no\s+event)\b.{0,80}?\breduced\b.{0,80}?\b(?:(?:less|lower)\s+than|below)\b", 3),
        (r"\bminimum\s+(?:annual\s+)?(?:royalt(?:y|ies)|guarantee)|\bguaranteed\s+(?:fee|payment|royalt(?:y|ies))", 3),
        # the least a court or a disclosure needs: "limited to the minimum extent necessary", "the minimum amount of information reasonably necessary"
        (r"\bminimum\s+(?:amount|extent|degree)\b(?:\s+[\w']+){0,6}?\s+(?:(?:reasonably|strictly|legally)\s+)?(?:necessary|legally\s+required|required\s+(?:by|under)\b)", -3),
        # look-alikes: minimum insurance, how often a committee meets, service-level percentages
        (r"\binsur\w*|\bcoverage\b|\boccurrence\b|\bmeetings\b|\b(?:a|each|one|such|committee)\s+meeting\b|\bcommittee\b|\bavailability\b|\buptime\b|\bservice\s+levels?\b", -3),
    ], title=r"minimum|commitment|forecast"),
    "confidentiality": _d("confidentiality", [
        (r"\bconfidential\s+information\b|\bproprietary\s+information\b", 2),
        (r"\b(?:keep|hold|maintain|treat)\b.{0,60}?\bconfiden", 2.5),
        (r"\bnot\s+(?:to\s+)?(?:disclose|divulge|reveal)\b", 2),
        (r"\bconfidential(?:ity)?\b", 1),
        (rf"\b(?:surviv|for\s+a\s+period\s+of)\w*\b.{{0,80}}?\b{_DUR}", 0.5),
    ], title=r"confidential|non-?disclosure"),
    "data_protection": _d("data_protection", [
        (r"\bpersonal\s+(?:data|information)\b|\bpersonally\s+identifiable\b", 2),
        (r"\b(?:data\s+protection|privacy)\b", 2),
        (r"\b(?:security|data)\s+(?:breach|incident)\b|\bbreach\s+of\s+(?:data\s+)?security\b|\bpersonal\s+data\s+breach\b", 2.5),
        (r"\bGDPR\b|\bHIPAA\b|\bprotected\s+health\s+information\b|\bdata\s+controller\b|\bdata\s+processor\b", 2),
        (r"\bprocess\w*\b.{0,60}?\b(?:personal|customer|client|buyer)\s+data\b", 2),
        # personal information held to the purposes of the contract: "in no case may the Servicer use any consumer's nonpublic
        # personal information for any purpose other than as provided in this Agreement", "personal data shall be processed
        # solely to perform the Services"
        (r"\b(?:use|uses|used|disclose[sd]?|process(?:es|ed)?|share[sd]?)\b.{0,120}?\b(?:personal|personally\s+identifiable|identifiable)\s+(?:[\w-]+\s+){0,2}?(?:data|information)\b"
         r".{0,160}?\b(?:(?:any|no)\s+(?:other\s+)?purposes?\s+other\s+than|solely|only|except\s+as)\b"
         r"|\b(?:personal|personally\s+identifiable|identifiable)\s+(?:[\w-]+\s+){0,2}?(?:data|information)\b.{0,100}?\b(?:(?:only|solely)\s+(?:be\s+)?(?:used|processed|disclosed)|(?:used|processed|disclosed)\s+(?:only|solely))\b", 1.5),
    ], title=r"data|privacy"),
    # what the buyer gives up: a sole remedy, warranty disclaimers, termination rights or compensation
    "sole_remedy": _d("sole_remedy", [
        (r"\bsole\s+(?:and\s+exclusive\s+)?remed(?:y|ies)\b|\bexclusive\s+remed(?:y|ies)\b", 4),
        (r"\b(?:sole|entire|only)\s+(?:and\s+exclusive\s+)?(?:obligation|liability)\b.{0,160}?\b(?:repair|replace|re-?perform|refund|credit|correct)\w*", 4),
        (r"\bin\s+lieu\s+of\s+(?:all\s+|any\s+)?other\s+remedies\b", 4),
        # "not the sole remedy", "in addition to any other remedies": remedies kept, no sole remedy
        (r"\bnot\s+(?:be\s+)?(?:[\w'’]+\s+){0,3}(?:sole|exclusive)\s+remed|\bin\s+addition\s+to\s+(?:and\s+not\s+in\s+lieu\s+of\s+)?(?:any\s+|all\s+)?other\s+(?:rights|remedies)", -3),
        # "the sole responsibility of", "exclusive remedy" inside a definition of a cap amount is read by liability_cap
        (r"\bsole\s+(?:responsibility|discretion|cost|expense|property|owner)", -1),
    ], threshold=3.5, title=r"remed|warrant"),
    "warranty_disclaimer": _d("warranty_disclaimer", [
        (r"\bdisclaim\w*\b.{0,200}?\b(?:warrant|representations?|conditions?)", 3),
        (r"\b(?:makes?|gives?|grants?)\s+no\s+(?:other\s+)?(?:[\w,]+\s+){0,4}?(?:warrant|representation)", 3),
        (r"\b(?:neither|nor)\b.{0,40}?\b(?:makes?|gives?|grants?)\s+any\s+(?:other\s+)?(?:\w+\s+){0,3}?(?:warrant|representation)", 3),
        (r"\bas[\s-]+is\b|\bwith\s+all\s+faults\b", 2.5),
        (r"\bimplied\s+warrant\w*|\bmerchantab\w*|\bfitness\s+for\s+(?:a|any)\s+particular\s+purpose|\bnon-?infringement\b", 1.5),
        (r"\bin\s+lieu\s+of\s+(?:all\s+)?(?:other\s+)?(?:warrant|representation|condition)", 3),
        (r"\bwarrant\w*\b.{0,100}?\b(?:are|is)\s+(?:hereby\s+)?(?:excluded|disclaimed)\b|\b(?:exclud|disclaim)\w*\s+(?:all\s+)?(?:other\s+)?(?:\w+\s+){0,2}warrant", 2),
        # terms, conditions or warranties implied by law excluded, wherever the clause sits (an entire-agreement clause, the
        # general terms): "to the exclusion of any terms implied by applicable law", "all conditions, warranties and other terms
        # implied by statute or common law are excluded", "the Supplier excludes all implied conditions"
        (rf"\b(?:exclu(?:de|des|ded|ding|sion)|disclaim\w*|waive[sd]?|negate[sd]?)\b.{{0,100}}?{_IMPLIED_TERMS}"
         rf"|{_IMPLIED_TERMS}.{{0,150}}?\b(?:(?:are|is|be|been)\s+(?:hereby\s+)?(?:expressly\s+)?(?:excluded|disclaimed|waived|negated)|(?:shall|will|do|does)\s+not\s+apply)\b", 3),
        # none to be implied: "no terms implied by trade usage or course of dealing shall apply", "no other warranty shall be implied"
        (r"\bno\s+(?:other\s+)?(?:terms?|conditions?|warrant(?:y|ies)|representations?)\b(?:[^.;]{0,80}?\bimplied\b[^.;]{0,80}?\b(?:shall|will)\s+apply"
         r"|[^.;]{0,40}?\b(?:shall|will|is|are)\s+(?:to\s+)?be\s+implied)", 3),
        # what keeps implied terms instead: "nothing in this Agreement excludes the conditions implied by statute as to title",
        # "this clause does not exclude any warranty implied by law that cannot be excluded"
        (r"\bnothing\b.{0,80}?\b(?:exclude|excludes|limit|limits|restrict|restricts|affect|affects)\b|\b(?:does|do|shall|will)\s+not\s+(?:exclude|limit|restrict)\b", -3),
    ], threshold=3.0, title=r"warrant|disclaim"),
    "termination_rights": _d("termination_rights", [
        (r"\bwaiv\w*\b.{0,150}?\b(?:terminat\w*|cancel\w*|expir\w*|non-?renewal)\b.{0,120}?\b(?:compensation|indemnit\w*|damages|goodwill|rights?|claims?)", 4),
        (r"\bwaiv\w*\b.{0,120}?\b(?:compensation|indemnit\w*|goodwill|claims?)\b.{0,150}?\b(?:terminat\w*|cancel\w*|expir\w*|non-?renewal)", 4),
        (r"\b(?:no|not\s+be\s+(?:entitled|liable|obligated|obliged|required)|neither\s+party)\b.{0,120}?\b(?:compensation|indemnit\w*|damages|payment|reimbursement|severance)\b.{0,120}?"
         r"\b(?:by\s+reason\s+of|on\s+account\s+of|as\s+a\s+(?:result|consequence)\s+of|because\s+of|arising\s+(?:from|out\s+of)|upon|in\s+connection\s+with|due\s+to)\s+(?:the\s+|any\s+|such\s+)?(?:\w+\s+){0,2}?(?:terminat|expir|non-?renewal|cancel)", 4),
        # the end named between the party released and the compensation: "X shall not be liable to Y because of such termination
        # for compensation, reimbursement or damages", "neither party shall have any liability to the other by reason of the
        # expiration of this Agreement for loss of prospective profits"
        (rf"{_NOT_OWED}.{{0,120}}?\b{_BY_REASON_OF}\s+(?:the\s+|any\s+|such\s+|its\s+)?(?:\w+\s+){{0,2}}?(?:terminat|expir|non-?renewal|cancel)\w*\b"
         rf".{{0,200}}?{_TERMINATION_LOSS}", 4),
        (r"\b(?:goodwill|clientele|customer\s+base|investments?|prospective\s+(?:profits|sales))\b.{0,150}?\b(?:terminat|expir|non-?renewal)", 1),
        (r"\b(?:may|shall\s+be\s+entitled\s+to)\s+(?:only|solely)\s+terminate|\b(?:only|solely)\s+(?:be\s+)?(?:entitled\s+to\s+)?terminat\w*\s+(?:this\s+agreement\s+)?(?:if|in\s+the\s+(?:following|event)|as\s+set|for\s+the\s+(?:following|reasons))", 3.5),
        (r"\bwaives?\s+(?:any\s+|all\s+|its\s+)?(?:\w+\s+){0,2}rights?\s+to\s+(?:terminate|cancel|rescind)|\bno\s+right\s+to\s+(?:terminate|cancel|rescind)", 4),
        # the end named first: "upon expiry or termination for any reason, the Distributor shall not be entitled to any
        # compensation", "on termination, no indemnity for goodwill shall be payable"
        # (also "if the Agent is terminated for ..., the Agent will not be entitled to compensation of any kind", "in the event of
        # termination, the Supplier shall not be liable to the Dealer ... for damages")
        (r"\b(?:(?:upon|on|after|following|by\s+reason\s+of|in\s+the\s+event\s+of|as\s+a\s+(?:result|consequence)\s+of)\s+(?:the\s+|any\s+|such\s+)?(?:\w+\s+){0,3}?"
         r"|(?:if|where|should|when)\s+(?:\w+\s+){0,4}?(?:is|are|be|has\s+been)\s+)"
         r"(?:terminat|expir|non-?renewal|cancel)\w*\b.{0,200}?\b(?:no|not\s+be\s+(?:entitled\s+to|liable)|waives?|(?:shall|will)\s+not\s+(?:claim|seek|receive|be\s+paid|be\s+owed)"
         r"|(?:have|has|incur|bear)\s+no\s+liability|not\s+(?:have|incur|bear)\s+any\s+liability)\b"
         r".{0,120}?\b(?:compensation|indemnit\w*|damages|severance|goodwill|reimbursement)", 4),
        # a waiver of the law that protects a distributor or agent when it is ended: "waives the benefit of any law of the
        # Territory requiring just cause or compensation for termination", "waives any rights under the Commercial Agents Regulations"
        (r"\bwaiv\w*\b.{0,80}?\b(?:benefit|protection|rights?|provisions?|application)\b.{0,60}?\b(?:laws?|statutes?|regulations?|acts?|codes?|decrees?|legislation|ordinances?)\b"
         r".{0,250}?\b(?:terminat\w*|cancel\w*|expir\w*|non-?renewal|compensation|indemnit\w*|distribut\w*|dealers?|agen(?:ts?|cy)|franchis\w*)", 4),
    ], threshold=3.5, title=r"terminat|compensation|waiver"),
    **FINER,
}


_EXCLUSIVITY_WORDS = ("exclusiv", "sole ", "only ", "requirements", "other", "additional", "third", "alternative")
_CAP_WORDS = ("liab", "exceed", "excess", "remed", "damage", "recover", "maximum", "obligation", "responsib", "claim", "waive", "action", "suit", "proceeding")
_KEYWORDS: dict[str, tuple[str, ...]] = {
    "liability_cap": _CAP_WORDS + ("limitation", "exclusion"),
    "cap_on_liability": _CAP_WORDS,
    "uncapped_liability": ("indemn", "harmless", "defend", "unlimited", "without limit"),
    "termination_convenience": ("terminat", "terminab", "cancel", "convenience", "without cause", "for any reason", "cease", "discontinu", "by either"),
    "auto_renewal": ("renew", "extend", "extension", "evergreen", "tacit", "prolong", "until", "automatic", "year to year", "year-to-year"),
    "payment_terms": ("pay", "invoice", "net ", "due", "remit", "settle", "charge", "deposit", "balance", "remaining", "free of", "bill",
                      "compensat", "reimburs", "remunerat"),
    "price_changes": ("price", "pricing", "fee", "rate", "charge", "favo", "cpi", "index", "%", "percent", "cost"),
    "governing_law": ("law",),
    "assignment": ("assign", "transfer", "delegat"),
    "insurance": ("insur", "umbrella", "per occurrence"),
    "audit_rights": ("audit", "inspect", "examin", "verif", "records", "books", "access", "available"),
    "exclusivity": _EXCLUSIVITY_WORDS + ("free", "may", "entitled"),
    "exclusivity_grant": _EXCLUSIVITY_WORDS + ("similar", "anyone"),
    "non_compete": ("compet", "solicit", "engage", "business", "trade", "similar", "employ", "hire", "recruit"),
    "compete_restriction": ("compet", "engage", "business", "trade", "similar", "directly or indirectly", "itself or", "independently or"),
    "warranty": ("warrant", "defect", "specification", "as is", "as-is"),
    "warranty_duration": ("warrant", "defect", "reject", "conform", "inspect", "discrepan", "accept", "meet", "comply", "damaged", "shelf"),
    "liquidated_damages": ("liquidated", "credit", "penalt", "termination", "cancel", "delay", "fee", "charge", "reschedul", "postpon",
                           "take delivery", "taken delivery"),
    "liquidated_damages_clause": ("liquidated", "fee", "charge", "payment", "pay ", "penalt", "delay", "late", "past", "beyond", "overdue", "compensation", "salary", "remuneration", "wages"),
    "minimum_commitment": ("target", "quota", "benchmark", "minimum", "take", "shortfall", "guarantee", "committed", "at least", "less than",
                           "achiev", "meet", "reach", "attain", "generat", "below", "firm", "binding", "cancel", "irrevocab", "commit", "units",
                           "fewer than"),
    "confidentiality": ("confiden", "proprietary", "disclos", "divulg", "reveal"),
    "data_protection": ("personal", "privacy", "data", "breach", "security", "gdpr", "hipaa", "health", "incident"),
    "renewal_notice": ("renew", "extend", "extension", "until terminated", "automatically continu", "effect until", "effect thereafter until"),
    "change_of_control": ("control", "ownership", "merge", "acqui", "consolidat", "reorgani", "amalgamation", "substantially all", "majority", "fifty", "50", "structure", "voting"),
    "uncapped_carveout": ("liab", "limitation", "exceed", "damages"),
    "most_favored_nation": ("favo", "lowest", "best", "highest", "similarly", "other", "higher", "greater", "better", "lower", "exceed"),
    "price_restrictions": ("price", "pricing", "fee", "rate", "charge", "adjust", "increase", "markup", "mark-up"),
    "post_termination_services": ("terminat", "expir", "transition", "successor", "surviv", "beyond", "remaining", "existing",
                                  "sell-off", "sell off", "selloff", "wind down", "wind-down", "phase-out", "phase out"),
    "survival": ("surviv", "continu", "remain", "perpetuity", "indefinite", "after", "following"),
    "breach_notice": ("notif", "breach", "incident"),
    "sole_remedy": ("remed", "sole", "entire", "only"),
    "warranty_disclaimer": ("disclaim", "warrant", "as is", "as-is", "all faults", "merchantab", "fitness", "representation", "implied"),
    "termination_rights": ("waiv", "terminat", "cancel", "compensation", "indemnit", "expir", "renewal"),
}
DETECTORS = {key: replace(detector, keywords=_KEYWORDS[key]) for key, detector in DETECTORS.items()}

# For clause types whose playbook metric needs more than one sentence, the detectors whose
# sentences the assessor should read too.
COMPANIONS: dict[str, tuple[str, ...]] = {
    "auto_renewal": ("renewal_notice",),
    "assignment": ("change_of_control",),
    "price_changes": ("most_favored_nation", "price_restrictions"),
    "warranty": ("warranty_duration",),
    "confidentiality": ("survival",),
    "data_protection": ("breach_notice",),
}
