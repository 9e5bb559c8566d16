"""Detection rules for the playbook's clause types: general legal-language patterns per type.

Patterns are deliberately general contract language, not phrases of particular filings.
Finer detectors used beside these (CUAD categories, companions) live in tools/finer_rules.py.
"""

from __future__ import annotations

from dataclasses import replace

from tools.detector import DUR as _DUR
from tools.detector import Detector
from tools.detector import detector as _d
from tools.finer_rules import EXCLUSIVE_OWNERSHIP, EXCLUSIVE_ROLE, FINER, NAMING_WORDS, NOT_COMPETE

_BREACH = r"\b(?:breach|default|insolven|bankrupt|fails?\s+(?:\w+\s+)?to|failure\s+to|(?<!without )cause\b(?!\s+to)|material\s+adverse)"
# "may terminate", "may, in its sole discretion, terminate", "shall be entitled, at its option, to terminate"
_CAN_END = (r"\b(?:(?:may|can|right\s+to|option\s+to|elect\s+to|entitled(?:\s+to)?|ability\s+to)(?:[\s,]+[\w']+){0,8}?[\s,]+(?:to\s+)?(?:terminat|cancel)\w*"
            r"|may\s+be\s+(?:terminated|cancell?ed)|cancell?able\s+at\s+any\s+time)\b")
_CONV = (r"\b(?:for\s+(?:its\s+|their\s+)?(?:own\s+)?convenience|for\s+any\s+(?:or\s+no\s+)?reason|for\s+no\s+reason|without\s+cause"
         r"|with\s+or\s+without\s+cause|for\s+non-?cause|without\s+(?:any\s+)?reason|(?:at|in)\s+its\s+(?:sole\s+)?(?:and\s+absolute\s+)?discretion"
         r"|at\s+the\s+option\s+of\s+any\s+party)\b")

DETECTORS: dict[str, Detector] = {
    "liability_cap": _d("liability_cap", [
        (r"\b(?:aggregate|total|maximum|cumulative|entire|collective)\s+liability\b", 2),
        (r"\bliab\w*\b.{0,200}?\b(?:shall|will|may|does)\s+not\s+exceed", 3),
        (r"\bliab\w*\b.{0,200}?\bnot\s+to\s+exceed", 3),
        (r"\bin\s+no\s+event\b.{0,150}?\bliab\w*\b", 2.5),
        (r"\bliab\w*\b.{0,200}?\b(?:limited|capped)\s+(?:to|at|in\s+amount)\b", 3),
        (r"\b(?:(?:shall|will)\s+(?:not|in\s+no\s+event)\s+(?:be\s+liable|have\s+any\s+liability)|(?:no|neither)\s+party\s+(?:shall|will)\s+(?:be\s+liable|have\s+any\s+liability))\b.{0,250}?\b(?:indirect|incidental|consequential|special|punitive|exemplary|lost\s+profits?|loss\s+of\s+(?:prospective\s+)?profits?|compensation)", 3),
        (r"\bliab\w*\b.{0,200}?\b(?:is|are|shall\s+be)\s+(?:hereby\s+)?excluded\b", 3),
        (r"\bexclud\w*\b.{0,40}?\b(?:consequential|indirect|incidental|punitive)\b.{0,40}?\bdamages\b", 3),
        (r"\bwaives?\b.{0,60}?\bright\s+to\s+(?:recover|seek|claim)\b", 3),
        (r"\bin\s+no\s+event\s+(?:shall|will)\s+(?:\w+'?s?\s+){0,4}?(?:be\s+liable|have\s+any\s+liability)\b.{0,250}?\b(?:indirect|incidental|consequential|special|punitive|exemplary|lost\s+profits?)", 3),
        (r"\bin\s+no\s+event\s+(?:shall|will)\b.{0,200}?\bliab\w*\b.{0,200}?\bexceed", 3),
        (r"\bcumulative\s+maximum\b|\bentire\s+(?:liability|obligation)\b", 3),
        (r"\bneither\s+party\s+shall\s+be\s+liable\b", 1),
        (r"\blimitation\s+of\s+liability\b", 1.5),
        (r"\bsole\s+(?:and\s+exclusive\s+)?(?:remedy|liability|obligation|responsibility)\b", 3),
        (r"\bexclusive\s+remedy\b", 1),
    ], title=r"limitation|liabilit"),
    "uncapped_liability": _d("uncapped_liability", [
        (r"\bindemnif(?:y|ies|ied)\b", 2),
        (r"\bindemnification\b", 1),
        (r"\bhold\s+(?:\w+\s+){0,3}harmless\b", 1.5),
        (r"\bdefend\b", 1),
        (r"\b(?:unlimited\s+liability|without\s+limit(?:ation)?\s+(?:as\s+to\s+amount|of\s+liability))", 2),
        (r"\bthird[\s-]part(?:y|ies)\b", 0.5),
    ], title=r"indemn"),
    "termination_convenience": _d("termination_convenience", [
        (rf"{_CAN_END}.{{0,150}}?{_CONV}", 3.5),
        (rf"{_CONV}.{{0,120}}?{_CAN_END}", 3.5),
        (rf"{_CAN_END}.{{0,120}}?\b(?:upon|on|by|by\s+giving|by\s+providing|with|after)\s+(?:at\s+least\s+|not\s+less\s+than\s+|no\s+less\s+than\s+|a\s+)?(?:{_DUR}|\[\*+\])\s*\b.{{0,40}}?\bnotice", 3),
        (rf"\b(?:giving|providing|upon)\b.{{0,60}}?\b{_DUR}\b.{{0,40}}?\bnotice\s+of\s+(?:its\s+)?(?:intent\w*\s+to\s+)?terminat", 3),
        (r"^\(?[a-z0-9]{1,4}\)\s+(?:without\s+cause|for\s+convenience|for\s+any\s+reason)\b", 3.5),
        (r"\b(?:alter|cease|discontinue)\b.{0,60}?\b(?:providing|services?)\b.{0,120}?\bwithout\s+(?:any\s+)?liability", 3),
        (r"\bmay\s+terminat\w*\b.{0,80}?\bat\s+any\s+time\b", 2),
        (_BREACH, -2.5),
        (r"\bmay\s+not\s+be\s+terminated\b|\bnot\s+(?:be\s+)?(?:entitled|permitted)\s+to\s+terminat", -3.5),
        (r"\bterminat\w*\b.{0,60}?\bby\s+(?:the\s+)?(?:mutual\s+)?(?:written\s+)?(?:agreement|consent)\b|\bmutual(?:ly)?\s+(?:written\s+)?(?:agree|consent)", -3),
        (r"\b(?:is|are|be|been|being)\s+terminated\s+for\s+any\s+reason|\bsurviv\w*|\b(?:termination|expiration)\s+or\s+(?:termination|expiration)\b.{0,30}?\bfor\s+any\s+reason", -3),
    ], title=r"terminat"),
    "auto_renewal": _d("auto_renewal", [
        (r"\b(?:automatic(?:ally)?|auto-?)\s*(?:renew|extend|be\s+renewed|be\s+extended|renewal|extension)", 3.5),
        (r"\brenew\w*\b.{0,80}?\b(?:successive|additional|consecutive|further|subsequent)\b.{0,60}?\b(?:periods?|terms?|years?|months?|increments?)", 3),
        (r"\b(?:successive|additional|consecutive|further|subsequent)\b.{0,50}?\b(?:renewal|extension|extended)\s+(?:periods?|terms?)", 3),
        (r"\bextend\w*\s+(?:the\s+)?(?:initial\s+)?(?:term|agreement)\b.{0,80}?\b(?:additional|further|successive|consecutive|renewal)", 3),
        (r"\b(?:option|right|elect)\w*\s+to\s+(?:renew|extend)\b", 2.5),
        (r"\brenewable\b", 2.5),
        (r"\bRenewal\s+(?:Term|Period)\b", 2),
        (r"\bevergreen\b", 3),
        (rf"\brenew\w*\b.{{0,60}}?\b{_DUR}", 1),
        (r"\b(?:renew\w*|extend\w*|prolong\w*|continue\w*)\s+(?:automatically|tacitly)\b|\btacit\w*\s+(?:renew|extension|prolong)", 3.5),
        # evergreen terms: "thereafter ... shall continue until terminated by either party"
        (r"\b(?:thereafter|after\s+that|indefinitely|year\s+to\s+year|month\s+to\s+month)\b.{0,100}?\buntil\s+terminated\b", 3.5),
        (r"\b(?:continue|remain)\w*\b.{0,60}?\b(?:thereafter|after\s+that|indefinitely)\b.{0,60}?\buntil\b", 3),
        (r"\bshall\s+not\s+(?:be\s+)?(?:automatically\s+)?renew", -3),
    ], title=r"\bterm\b|renew"),
    "payment_terms": _d("payment_terms", [
        (rf"\b(?:pay|paid|payable|payment|due|remit)\w*\b.{{0,100}}?\bwithin\s+{_DUR}", 3),
        (rf"\b{_DUR}\b.{{0,60}}?\b(?:after|from|of|following)\s+(?:the\s+)?(?:date\s+of\s+|receipt\s+of\s+)?(?:the\s+)?(?:invoice|receipt)", 2.5),
        (r"\binvoic\w*\b.{0,120}?\b(?:due|payable|paid)\b", 2),
        (r"\bnet\s+\d{1,3}\b", 2),
        (r"\bpayment\s+(?:is\s+|shall\s+be\s+)?due\b", 1.5),
        (r"\b(?:late\s+payments?|overdue|past\s+due|unpaid)\b.{0,120}?\binterest\b", 1.5),
        (r"\b(?:payable|paid)\s+in\s+advance\b", 2),
    ], title=r"payment|invoic|fees"),
    "price_changes": _d("price_changes", [
        (r"\b(?:increase|adjust|change|raise|revise|modif)\w*\b.{0,60}?\b(?:prices?|pricing|fees|rates|charges)\b|\b(?:prices?|pricing|fees|rates|charges)\b.{0,60}?\b(?:increase|adjust|change|raise|revis|modif)\w*", 2),
        (r"\bmay\s+(?:\w+\s+){0,2}(?:increase|adjust|change|raise|revise|modify|vary)\b", 1.5),
        (r"\bmost[\s-]favou?red\b", 3),
        (r"\b(?:CPI|consumer\s+price\s+index|producer\s+price\s+index)\b", 2),
        (r"\b(?:firm|fixed)\b.{0,40}?\b(?:prices?|pricing)\b|\b(?:prices?|pricing)\b.{0,40}?\b(?:firm|fixed)\b", 1.5),
        (r"\d\s*%|\bpercent\b", 1),
        (r"\bnotice\b", 0.5),
    ], title=r"price|pricing|fees"),
    "governing_law": _d("governing_law", [
        (r"\bgoverned\b.{0,80}?\blaws?\b", 3),
        (r"\b(?:construed|interpreted|enforced|governed)\b.{0,80}?\b(?:in\s+accordance\s+with|under|pursuant\s+to|by)\b.{0,40}?\blaws?\s+of\b", 3),
        (r"\blaws?\s+of\b.{0,150}?\bgovern(?:s|ed)?\b", 3),
        (r"\b(?:made|applied|construed|interpreted)\b.{0,80}?\b(?:under|in\s+accordance\s+with|subject\s+to)\b.{0,80}?\blaws?\s+of\b", 3),
        (r"\bgoverning\s+law\b", 1.5),
        (r"\blaws?\s+of\s+(?:the\s+)?(?:State|Commonwealth|Province|Republic|Kingdom|People's\s+Republic)\s+of\b", 1),
        (r"\bapplicable\s+law\s+(?:shall\s+be|is)\b", 2),
    ], title=r"governing\s+law|applicable\s+law|choice\s+of\s+law"),
    "assignment": _d("assignment", [
        (r"\b(?:not|no|neither|nor)\b.{0,80}?\bassign\w*\b.{0,200}?\bwithout\b.{0,80}?\b(?:consent|approval)", 3),
        (r"\bassign\w*\b.{0,200}?\bwith(?:out)?\s+(?:the\s+)?(?:\S+\s+){0,5}?(?:consent|approval)", 2.5),
        (r"\b(?:may|shall|will|can|must)\s+not\s+(?:\w+\s+){0,3}(?:assign|transfer)\w*\b", 2),
        (r"\b(?:neither|no)\s+party\s+(?:shall|may|will|can)\s+(?:be\s+entitled\s+to\s+|have\s+the\s+(?:right|power)\s+to\s+)?(?:[\w]+,?\s+){0,3}?(?:assign|transfer)\w*\b", 3),
        (r"\bterminat\w*\s+automatically\b.{0,60}?\bassignment\b", 3),
        (r"\b(?:assign\w*|transfer\w*)\b.{0,200}?\b(?:null\s+and\s+void|void\s+and\s+(?:of\s+no|without)\s+(?:force|effect)|shall\s+be\s+(?:deemed\s+)?void)", 3),
        (r"\b(?:not|non)[\s-]?(?:be\s+)?(?:assignable|transferable)\b", 2.5),
        (r"\bassign\w*\b.{0,80}?\b(?:successors?|affiliates?|merger|acquir)", 1),
        (r"\b(?:may|can)\s+(?:freely\s+)?assign\b", 1.5),
        (r"\bassignment\b", 0.5),
        (r"\bassignment\s+for\s+the\s+benefit\s+of\s+(?:its\s+)?creditors\b", -3),
    ], title=r"assign"),
    "insurance": _d("insurance", [
        (r"\binsurance\b", 2),
        (r"\b(?:maintain|carry|procure|obtain|keep|purchase|provide)\b.{0,100}?\binsur", 2),
        (r"\b(?:general\s+liability|product(?:s)?\s+liability|workers'?\s+compensation|errors\s+and\s+omissions|professional\s+(?:liability|indemnity)|additional\s+insureds?|umbrella|self-insurance)\b", 2),
        (r"\bper\s+occurrence\b|\bcertificates?\s+of\s+insurance\b|\binsurers?\b", 1.5),
        (r"\binsur\w*\b.{0,40}?\b(?:life|annuit|variable|separate\s+account)", -2),
    ], threshold=4, title=r"insurance"),
    "audit_rights": _d("audit_rights", [
        (r"\b(?:permit|allow|entitled|right)\b.{0,60}?\baudit\w*", 3),
        (r"\bgovernmental\s+authorit", -2),
        (r"\b(?:audit|inspect|examin|verif)\w*\b.{0,100}?\b(?:books|records|accounts|facilit\w+|premises|sites?|plants?|operations)\b", 3),
        (r"\b(?:books|records|accounts)\b.{0,150}?\b(?:audit|inspect|examin)\w*", 3),
        (r"\b(?:right\s+to|may)\s+(?:\w+\s+){0,2}(?:audit|inspect)", 3),
        (r"\baudit\w*\b", 1),
        (r"\b(?:access|available)\b.{0,60}?\b(?:books|records|facilit\w+|premises)\b", 1.5),
    ], title=r"audit|inspection|records"),
    "exclusivity": _d("exclusivity", [
        (r"\bexclusive\s+(?:\w+\s+)?(?:right|license|licence|distributor|supplier|provider|reseller|basis|agent|dealer|manufacturer|source|partner|territory|purchase|supply|dealing)", 3),
        (r"\b(?:sole|only)\s+(?:and\s+exclusive\s+)?(?:supplier|source|provider|distributor|reseller|vendor|manufacturer|agent|dealer)", 3),
        (r"\b(?:purchase|buy|order|source|obtain|sell|distribute|supply|market)\w*\b.{0,200}?\bexclusively\s+(?:from|through|to|with)\b", 3),
        (r"\b(?:purchase|buy|order|source|obtain)\w*\s+(?:all\s+of\s+)?(?:its|their)\s+(?:entire|total|full)\s+requirements\b", 3),
        (r"\bexclusivity\b", 2.5),
        (r"\b(?:not|no)\b.{0,40}?\b(?:appoint|engage|purchase|buy|source|obtain|use)\b.{0,80}?\b(?:other|additional|any\s+third|alternative)\b.{0,40}?\b(?:distributors?|suppliers?|providers?|resellers?|vendors?|sources?|manufacturers?)", 3),
        (r"\b(?:purchase|buy|order|source|obtain)\w*\b.{0,60}?\b(?:all|100%|one\s+hundred\s+percent|entire)\s+(?:\(100%\)\s+)?(?:of\s+)?(?:its|their|the\s+\w+'s|\w+'s)\s+(?:\w+\s+){0,3}(?:requirements|needs)\b", 3),
        (r"\bnon-?exclusiv\w*", 3),
        (r"\b(?:free|may|entitled)\s+(?:\w+\s+){0,6}?(?:purchase|buy|source|obtain|procure)\b.{0,120}?\bfrom\s+(?:any\s+)?(?:other|third|alternative)", 3),
        # "the exclusive online insurance provider", "an exclusive, worldwide, royalty-free license"
        (rf"\bexclusive\s+(?:and\s+sole\s+)?{NAMING_WORDS}{{1,4}}{EXCLUSIVE_ROLE}", 3),
        (r"\bexclusive\s*(?:,|\band\b)\s*(?:[\w-]+(?:\s*,\s*|\s+and\s+|\s+)){0,6}?(?:licen[cs]e|right|distribution)", 3),
        (EXCLUSIVE_OWNERSHIP, -3),
        (r"\bintellectual\s+property|\bmeans\b", -1.5),
        (r"\bexclusive\s+remedy\b|\bsole\s+(?:and\s+exclusive\s+)?remedy\b", -3),
    ], title=r"exclusiv"),
    "non_compete": _d("non_compete", [
        *NOT_COMPETE,
        (r"\bnon-?solicit\w*", 2.5),
        (r"\b(?:not|no|neither|nor)\b.{0,100}?\bsolicit\w*", 2.5),
        (r"\bsolicit\w*\b.{0,80}?\b(?:employees?|personnel|staff|employment)\b", 1),
        (r"\bnothing\s+in\s+this\s+agreement\s+(?:restricts|prevents|shall\s+restrict)\b.{0,80}?\b(?:business|compet)", 3),
    ], title=r"compet|solicit|restrict"),
    "warranty": _d("warranty", [
        (r"\bwarrant(?:s|y|ies|ed)\b", 1.5),
        (r"\bwarranty\s+period\b", 2),
        (r"\bfree\s+(?:from|of)\s+(?:\w+\s+){0,2}defects\b", 2),
        (r"\b(?:conform|comply)\w*\b.{0,60}?\bspecifications?\b", 1),
        (r"\bas\s+is\b", 1.5),
        (r"\bdisclaim\w*\b.{0,100}?\bwarrant", 1),
        (rf"\bwarrant\w*\b.{{0,150}}?\b{_DUR}|\b{_DUR}\b.{{0,100}}?\bwarrant", 1.5),
    ], title=r"warrant"),
    "liquidated_damages": _d("liquidated_damages", [
        (r"\bliquidated\s+damages\b", 4),
        (r"\b(?:no|without\s+(?:any\s+)?)\s*(?:\w+\s+){0,2}(?:fee|charge|penalty)\b", -3),
        (r"\bshall\s+credit\b|\bfor\s+each\s+(?:\w+\s+){0,2}(?:day|week)\s+of\s+delay\b", 3),
        (r"\bservice[\s-]level\s+credits?\b|\bservice\s+credits?\b", 3),
        (r"\b(?:early\s+)?(?:termination|cancellation)\s+(?:fee|charge|payment|penalty)s?\b", 3),
        (r"\bpenalt(?:y|ies)\b", 1.5),
        (r"\bnot\s+(?:be\s+)?(?:deemed\s+)?(?:a\s+)?penalty\b", 1),
    ], title=r"liquidated|service\s+level|credits"),
    "minimum_commitment": _d("minimum_commitment", [
        (r"\bminimum\s+(?:\S+\s+){0,3}?(?:purchases?|orders?|quantity|quantities|volumes?|commitments?|requirements?|amount|fees?|charges?|revenue|number|payments?|units|lots?|level)\b", 3),
        (r"\btake[\s-]or[\s-]pay\b|\bshortfall\s+(?:payment|fee|charge|amount|quantit\w+|volume)", 3),
        (r"\b(?:guaranteed|committed)\s+(?:minimum|volume|quantity|quantities|amount)", 3),
        (r"\b(?:purchase|order|buy)\w*\b.{0,60}?\bat\s+least\b", 2),
        (r"\bminimum\b", 1),
        (r"\b(?:sales?|purchase|revenue|performance)\s+(?:targets?|quotas?|benchmarks?)\b", 2.5),
        (r"\b(?:meet|achieve|satisfy|attain|reach)\w*\b.{0,40}?\b(?:sales?|purchase|revenue|performance)\s+(?:targets?|quotas?|benchmarks?)\b", 1),
        (r"\bnon-?binding\b", -1),
        # "no guarantee that any minimum ...", "nothing ... obligates a Party to purchase any minimum"
        (r"\bno\s+guarantee\b|\bnothing\b.{0,80}?\bobligat\w*\b", -3),
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
    ], title=r"data|privacy"),
    **FINER,
}


_EXCLUSIVITY_WORDS = ("exclusiv", "sole ", "only ", "requirements", "other", "additional", "third", "alternative")
_KEYWORDS: dict[str, tuple[str, ...]] = {
    "liability_cap": ("liab", "exceed", "remed", "damage", "recover", "maximum", "obligation", "responsib"),
    "uncapped_liability": ("indemn", "harmless", "defend", "unlimited", "without limit"),
    "termination_convenience": ("terminat", "cancel", "convenience", "without cause", "for any reason", "cease", "discontinu"),
    "auto_renewal": ("renew", "extend", "extension", "evergreen", "tacit", "prolong", "until"),
    "payment_terms": ("pay", "invoice", "net ", "due"),
    "price_changes": ("price", "pricing", "fee", "rate", "charge", "favo", "cpi", "index", "%", "percent"),
    "governing_law": ("law",),
    "assignment": ("assign", "transfer"),
    "insurance": ("insur", "umbrella", "per occurrence"),
    "audit_rights": ("audit", "inspect", "examin", "verif", "records", "books", "access", "available"),
    "exclusivity": _EXCLUSIVITY_WORDS + ("free", "may", "entitled"),
    "exclusivity_grant": _EXCLUSIVITY_WORDS + ("similar", "anyone"),
    "non_compete": ("compet", "solicit", "engage", "business", "trade", "similar"),
    "compete_restriction": ("compet", "engage", "business", "trade", "similar"),
    "warranty": ("warrant", "defect", "specification", "as is", "as-is"),
    "warranty_duration": ("warrant", "defect"),
    "liquidated_damages": ("liquidated", "credit", "penalt", "termination", "cancellation", "delay", "fee", "charge"),
    "liquidated_damages_clause": ("liquidated", "fee", "charge", "payment", "penalt", "delay"),
    "minimum_commitment": ("target", "quota", "benchmark", "minimum", "take", "shortfall", "guaranteed", "committed", "at least"),
    "confidentiality": ("confiden", "proprietary", "disclos", "divulg", "reveal"),
    "data_protection": ("personal", "privacy", "data", "breach", "security", "gdpr", "hipaa", "health", "incident"),
    "renewal_notice": ("renew", "extend", "extension", "until terminated"),
    "change_of_control": ("control", "ownership", "merge", "acqui", "consolidat", "reorgani", "amalgamation", "substantially all", "majority", "fifty", "50"),
    "uncapped_carveout": ("liab", "limitation", "exceed", "damages"),
    "most_favored_nation": ("favo", "lowest", "best", "similarly", "other", "higher", "greater"),
    "price_restrictions": ("price", "pricing", "fee", "rate", "charge", "adjust", "increase", "markup", "mark-up"),
    "post_termination_services": ("terminat", "expir", "transition", "successor", "surviv", "beyond", "remaining", "existing"),
    "survival": ("surviv", "continu", "remain", "perpetuity", "indefinite", "after", "following"),
    "breach_notice": ("notif", "breach", "incident"),
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
