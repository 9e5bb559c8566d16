"""Finer detectors beside the playbook's clause types: CUAD categories (change of control,
uncapped carve-outs, most favoured nation, price restrictions, post-termination services,
renewal notice, warranty duration ...) and companions the assessor reads with a clause."""

from __future__ import annotations

from tools.detector import DUR as _DUR
from tools.detector import Detector
from tools.detector import detector as _d

# shared with the playbook's non_compete detector
NOT_COMPETE: list[tuple[str, float]] = [
    (r"\b(?:not|no|nor|refrain\s+from)\b.{0,300}?\b(?:compete\b|competes\b|competing\s+(?:with|products?|business|services)|competitive\s+with|which\s+(?:directly\s+|indirectly\s+)?compete|in\s+competition\s+with)", 3),
    (r"\bnon-?compet\w*", 3),
    (r"\b(?:not|nor)\b.{0,80}?\bengage\s+in\s+(?:the|any)\s+(?:\w+\s+){0,2}business\b", 3),
    (r"\b(?:not|no)\b.{0,60}?\b(?:engage|carry(?:\s+on)?|handle|represent|be\s+engaged|be\s+concerned|be\s+interested|develop|manufacture|market|sell|distribute)\b.{0,120}?\b(?:similar\s+products?|any\s+other\s+(?:trade|business)|same\s+or\s+similar|competitive\s+products?|competing\s+products?)", 3),
    # freedoms and disclaimers that merely mention competition
    (r"\b(?:shall|will|does|do)\s+not\s+(?:prevent|restrict|preclude|prohibit|limit)\b|\bfree\s+(?:and\s+without\s+restriction\s+)?to\b|\bnot\s+(?:contain|subject\s+to)\s+(?:a|any)\s+covenant", -3),
]

FINER: dict[str, Detector] = {
    "renewal_notice": _d("renewal_notice", [
        (r"\b(?:notice|notif\w+|notify|inform)\b.{0,120}?\b(?:prior\s+to|before|preceding|in\s+advance\s+of)\s+(?:the\s+)?(?:end|expiration|expiry|anniversary|termination|last\s+day|conclusion|renewal|commencement|then[\s-]current)", 3),
        (r"\b(?:non-?renewal|not\s+to\s+renew|not\s+(?:be\s+)?renewed|not\s+(?:wish|want|desire|intend)\s+to\s+renew|intent\w*\s+(?:not\s+)?to\s+(?:renew|terminate)|elect\w*\s+not\s+to\s+(?:renew|extend))", 2),
        (r"\bunless\b.{0,80}?\b(?:notice|notif\w+|notify)", 1.5),
        (r"\b(?:thereafter|after\s+that|indefinitely)\b.{0,100}?\buntil\s+terminated\b.{0,100}?\bnotice\b", 3),
    ], require=r"renew|extend|extension|(?:thereafter|after\s+that|indefinitely)\b.{0,100}?\buntil\s+terminated", needs_duration=True),
    "change_of_control": _d("change_of_control", [
        (r"\bchange\s+(?:of|in)\s+(?:\w+\s+)?(?:control|ownership)\b", 3.5),
        (r"\bcontrol\s+of\s+(?:either|any|the\s+other)?\s*party\b.{0,40}?\b(?:pass\w*|transfer\w*|change\w*)\b", 3.5),
        (r"\b(?:merger|consolidat\w+|reorgani[sz]ation|amalgamation)\b", 1),
        (r"\b(?:acqui\w+|sale|transfer|disposition)\b.{0,60}?\b(?:all\s+or\s+substantially\s+all|majority|controlling\s+interest|fifty\s+percent|50\s*%)\b.{0,80}?\b(?:assets|stock|shares|voting|equity|business|securities)", 2),
        (r"\bterminat\w*\b", 1.5),
    ], threshold=3.5),
    "uncapped_carveout": _d("uncapped_carveout", [
        (r"\b(?:except(?:ing)?|excluding|other\s+than|(?:shall|will)\s+not\s+apply|(?:does|do)\s+not\s+apply|exclusions?|notwithstanding|save\s+for|without\s+limit)\b", 1),
        (r"\b(?:liab\w*\b.{0,250}?\bexceed|limitations?\s+(?:of|on)\s+liability|these\s+limitations|(?<!not\s)limited\s+to|in\s+no\s+event|under\s+no\s+circumstances?|(?:shall|will)\s+not\s+be\s+liable|(?:neither|no)\s+party\b.{0,60}?\b(?:shall|will)\b.{0,40}?\bbe\s+(?:liable|entitled\s+to\s+recover)|liability\s+(?:cap|limit))\b", 1.5),
        (r"\b(?:indemnif(?!(?:ying|ied)\s+part)\w*|gross(?:ly)?\s+negligen\w*|wil(?:l)?ful\s+misconduct|fraud\w*|breach\s+of\s+(?:its\s+)?confidential\w*|confidentiality\s+obligations|infring\w*|bodily\s+injury|death|personal\s+injury|obligations\s+under\s+(?:section|article|paragraph)|failure\s+to\s+pay)", 1),
        (r"\bunlimited\b|\buncapped\b", 2),
        # "nothing in this Section shall limit or exclude any liability for ...", "will not limit the liability of"
        (r"\b(?:nothing\b.{0,80}?\b(?:shall|will|is\s+intended\s+to|operates?\s+to)|(?:shall|will|does|do)\s+not(?:\s+be\s+construed\s+to|\s+operate\s+to)?|neither\s+party)\s+(?:\w+\s+){0,2}?(?:limit|exclude|restrict)s?\b.{0,80}?\b(?:liabilit\w*|damages|indemnif\w*|remed\w*)", 2.5),
        (r"\bexcept\s+(?:for\s+|with\s+(?:regard|respect)\s+to\s+)?(?:any\s+|a\s+)?(?:liabilit\w*|claims?|damages|amounts?|obligations?|breach\w*)\s+(?:arising\s+)?(?:under|out\s+of|of|for|to|pursuant\s+to|in\s+connection\s+with)\b", 1),
        (r"\bwaives?\b.{0,60}?\b(?:limitations?|caps?)\b", 2),
        (r"\b(?:shall|will|agrees?\s+to)\s+(?:\w+\s+){0,2}(?:indemnify|defend)", -2),
        # a carve-out by cross-reference: "EXCEPT UNDER SECTION 11, in no event ...", "except for breach of Article 7"
        (r"^(?=.*\b(?:in\s+no\s+event|under\s+no\s+circumstances?|be\s+liable|limitations?\s+(?:of|on)\s+liability|liability\s+(?:cap|limit)|exceed))"
         r".*\bexcept\w*\b.{0,120}?\b(?:sections?|articles?|clauses?|paragraphs?)\s+\(?[\d\[]", 1),
        # claims-procedure boilerplate: "if the indemnifying party assumes the defense ... shall not be liable for ..."
        (r"\b(?:assumes?|assumption\s+of)\s+(?:the\s+)?defen[cs]e\b|\bparticipate\s+therein\b|\blegal\s+(?:or\s+other\s+)?expenses\s+subsequently\b", -2.5),
        # carve-outs only for death, injury, fraud or gross fault ("nothing limits liability for death",
        # "not liable except for its gross negligence") set a standard of care, not an uncapped breach,
        # unless the sentence also names a breach, an indemnity or a section
        (r"^(?!.*\b(?:(?:sections?|articles?|clauses?)\s+\d|confidential|indemn|infring|breach|intellectual\s+property|third\s+part))"
         r".*\b(?:death|personal\s+injury|gross(?:ly)?\s+negligen|wil(?:l)?ful\s+misconduct|bad\s+faith|misfeasance)", -2),
    ], require=r"liab|limitation|exceed|damages", threshold=3.5),
    "exclusivity_grant": _d("exclusivity_grant", [
        (r"\bexclusive\s+(?:\w+\s+)?(?:right|license|licence|distributor|supplier|provider|reseller|basis|agent|dealer|manufacturer|source|partner|territory|purchase|supply|dealing|appointment|distributorship|dealership|agency|in\s+the\s+territory)", 3),
        (r"\b(?:sole|only)\s+(?:and\s+exclusive\s+)?(?:supplier|source|provider|distributor|reseller|vendor|manufacturer|agent|dealer)", 3),
        (r"\b(?:purchase|buy|order|source|obtain|sell|distribute|supply|market)\w*\b.{0,200}?\bexclusively\s+(?:from|through|to|with)\b", 3),
        (r"\b(?:purchase|buy|order|source|obtain)\w*\s+(?:all\s+of\s+)?(?:its|their)\s+(?:entire|total|full)\s+requirements\b", 3),
        (r"\bexclusivity\b", 2.5),
        (r"\b(?:not|no)\b.{0,40}?\b(?:appoint|engage|purchase|buy|source|obtain|use)\b.{0,80}?\b(?:other|additional|any\s+third|alternative)\b.{0,40}?\b(?:distributors?|suppliers?|providers?|resellers?|vendors?|sources?|manufacturers?)", 3),
        (r"\b(?:purchase|buy|order|source|obtain)\w*\b.{0,60}?\b(?:all|100%|one\s+hundred\s+percent|entire)\s+(?:\(100%\)\s+)?(?:of\s+)?(?:its|their|the\s+\w+'s|\w+'s)\s+(?:\w+\s+){0,3}(?:requirements|needs)\b", 3),
        (r"\bnon[\s-]?exclusiv\w*", -3),
        (r"\bsubject\s+exclusively\b|\bexclusively\s+(?:to|by)\s+the\s+terms\b|\bnor\s+does\s+it\s+create\b", -3),
        (r"\bintellectual\s+property|\bmeans\b", -1.5),
        (r"\bexclusive\s+remedy\b|\bsole\s+(?:and\s+exclusive\s+)?remedy\b", -3),
    ], title=r"exclusiv"),
    "compete_restriction": _d("compete_restriction", list(NOT_COMPETE)),
    "liquidated_damages_clause": _d("liquidated_damages_clause", [
        (r"\bliquidated\s+damages\b", 3.5),
        (r"(?-i:\b(?:Termination|Cancellation|Early\s+Termination)\s+(?:Fee|Charge|Payment)s?\b)", 3),
        (r"\bpenalt(?:y|ies)\b", 1),
        (r"\bpay\w*\s+(?:a\s+|the\s+)?penalt(?:y|ies)\b|\bpre-?estimat\w*\s+of\s+(?:\w+\s+)?(?:damages|loss)", 2.5),
        (r"\b(?:not|no)\b.{0,40}?\b(?:liable|obligat\w*|responsible)\b.{0,30}?\b(?:for|to\s+pay)\s+(?:any\s+)?(?:termination|cancellation)\s+(?:fees?|charges?|payments?)", -3),
        (r"\bfor\s+each\s+(?:day|week)\s+of\s+delay\b", 2),
    ]),
    "most_favored_nation": _d("most_favored_nation", [
        (r"\bmost[\s-]favou?red\b", 3.5),
        (r"\b(?:no\s+less\s+favou?rable|at\s+least\s+as\s+favou?rable|more\s+favou?rable|better)\b.{0,120}?\b(?:prices?|pricing|rates|fees)\b", 3),
        (r"\b(?:prices?|pricing|rates|fees)\b.{0,120}?\b(?:no\s+less\s+favou?rable|not\s+(?:be\s+)?less\s+favou?rable|at\s+least\s+as\s+favou?rable|more\s+favou?rable)\b", 3),
        (r"\b(?:lowest|best)\s+(?:net\s+)?(?:price|pricing|rate)s?\b", 2.5),
        (r"\b(?:no\s+less|not\s+(?:be\s+)?less|equal\s+to\s+or\s+more|more|at\s+least\s+as)\s+favou?rable\b", 1.5),
        (r"\bsimilarly[\s-]situated\b|\bother\s+(?:customers?|purchasers?|buyers?|clients?|licensees?|distributors?|shippers?)\b", 2),
    ]),
    "price_restrictions": _d("price_restrictions", [
        (r"\b(?:shall|may|will)\s+not\s+(?:\w+\s+){0,2}(?:increase|raise|exceed|change)\b.{0,60}?\b(?:prices?|pricing|fees|rates|charges)\b", 3),
        (r"\b(?:prices?|pricing|fees|rates|charges)\b.{0,60}?\b(?:shall|will|may)\s+not\s+(?:be\s+)?(?:increase|raise|exceed|change)", 3),
        (r"\b(?:increase|adjust)\w*\b.{0,40}?\b(?:prices?|pricing|fees|rates|charges)\b.{0,100}?\b(?:not\s+(?:to\s+)?exceed|no\s+more\s+than|limited\s+to|capped\s+at)\b", 3),
        (r"\b(?:prices?|pricing|fees|rates|charges)\b.{0,40}?\b(?:increase|adjust)\w*\b.{0,100}?\b(?:not\s+(?:to\s+)?exceed|no\s+more\s+than|limited\s+to|capped\s+at)\b", 3),
        (r"\b(?:prices?|pricing)\b.{0,40}?\b(?:fixed|firm)\b.{0,40}?\b(?:for|during|until)\b", 2.5),
        (r"\b(?:increase|adjust)\w*\b.{0,60}?\bnot\s+(?:to\s+)?exceed\s+(?:\w+\s+)?(?:\(\s*\d+\s*\)\s*)?(?:\d+(?:\.\d+)?\s*%|percent)", 3),
        (r"\b(?:increase|adjust|change)\w*\b.{0,80}?\bnot\s+more\s+(?:often|frequently)\s+than\b", 3),
        (r"\bliquidated\s+damages\b|\bliabilit\w*\b", -3),
    ]),
    "post_termination_services": _d("post_termination_services", [
        (r"\b(?:after|following|upon|subsequent\s+to|survive|beyond)\s+(?:the\s+)?(?:effective\s+date\s+of\s+)?(?:such\s+)?(?:termination|expiration|expiry|cancellation)\b.{0,200}?\b(?:continue|transition|wind[\s-]down|provide|sell|deliver|co-?operat|assist|support|purchase|fulfil|complete|perform)\w*", 2.5),
        (r"\b(?:continue|transition|wind[\s-]down|provide|sell|deliver|co-?operat|assist|support|purchase|fulfil|complete|perform)\w*\b.{0,200}?\b(?:after|following|subsequent\s+to)\s+(?:the\s+)?(?:effective\s+date\s+of\s+)?(?:such\s+)?(?:termination|expiration|expiry)", 2.5),
        (r"\btransition\w*\s+(?:services?|assistance|period|plan|of\s+(?:the\s+)?(?:services|operations))\b|\bsuccessor\s+(?:servicer|provider|supplier|operator)\b|\btermination\s+assistance\b", 3),
        (r"\b(?:upon|after|following|in\s+the\s+event\s+of)\s+(?:the\s+)?(?:any\s+)?(?:expiration|termination|expiry)\b.{0,300}?\b(?:shall|will|may|agrees?\s+to)\s+(?:\w+\s+){0,3}(?:continue|co-?operate|assist|transition|retain|purchase|compensate|refer|sell|dispose)", 3),
        (r"\bshall\s+continue\b.{0,150}?\b(?:after|following|beyond)\s+(?:the\s+)?(?:termination|expiration)", 3),
        (r"\bin\s+the\s+event\s+(?:that\s+)?.{0,200}?\bterminat\w*\b.{0,200}?\bshall\s+(?:retain|refer|continue|purchase|compensate)", 2.5),
        (rf"\b(?:for\s+(?:a\s+period\s+of\s+)?|up\s+to\s+){_DUR}\b.{{0,40}}?\b(?:after|following)\b", 1),
        # sell-off and buy-back of stock when the contract ends
        (r"\b(?:terminat|expir)\w*\b.{0,250}?\b(?:sell|sale|dispose|purchase|buy|repurchase)\w*\b.{0,100}?\b(?:stocks?|inventor(?:y|ies))\b", 3),
        (r"\b(?:sell|sale|dispose|purchase|buy|repurchase)\w*\b.{0,100}?\b(?:stocks?|inventor(?:y|ies))\b.{0,200}?\b(?:terminat|expir)\w*", 3),
        (r"\b(?:sell|dispose\s+of)\b.{0,60}?\b(?:remaining|existing)\s+(?:stocks?|inventor(?:y|ies))\b", 3),
        (r"\bretain\w*\b.{0,150}?\b(?:after|following)\s+(?:the\s+)?(?:termination|expiration|expiry)\b", 3),
        (r"\b(?:return|destroy)\w*\b.{0,80}?\bconfidential", -2),
        (r"\b(?:co-?operat\w*|assist\w*)\b.{0,100}?\b(?:transfer|transition|migrat\w*)\b|\borderly\s+(?:and\s+\w+\s+)?(?:transfer|transition|wind)", 3),
        (r"\b(?:confidential\w*|non-?use|disclos\w*)\b", -4),
        (r"\b(?:shall\s+not|neither\s+party\s+shall)\s+be\s+liable\b", -3),
        (r"\b(?:termination|end)\s+of\s+(?:the\s+|such\s+)?force\s+majeure\b", -3),
    ]),
    "survival": _d("survival", [
        (rf"\b(?:surviv|continu|remain)\w*\b.{{0,150}}?\b{_DUR}\b.{{0,60}}?\b(?:after|following|beyond|from)\b.{{0,40}}?\b(?:termination|expiry|expiration|end)", 3),
        (rf"\b{_DUR}\b.{{0,40}}?\b(?:after|following)\s+(?:the\s+)?(?:termination|expiry|expiration)\b", 2),
        (r"\bin\s+perpetuity\b|\bindefinitely\b", 2),
    ]),
    "breach_notice": _d("breach_notice", [
        (r"\bnotif\w*\b.{0,200}?\b(?:breach|incident|unauthori[sz]ed)", 3),
        (r"\b(?:breach|incident)\b.{0,150}?\bnotif\w*", 3),
    ], needs_duration=True),
    "warranty_duration": _d("warranty_duration", [
        (r"\bwarranty\s+period\b", 3),
        (r"\bwrit\b|\bwarrants?\s+(?:or|of)\s+attachment|\bwarrants?\s+to\s+(?:purchase|acquire)\b", -3),
        (rf"\bwarrant\w*\b.{{0,300}}?\b(?:for\s+(?:a\s+period\s+of\s+)?|within\s+|of\s+){_DUR}|\b{_DUR}\b.{{0,200}}?\bwarrant", 3),
        (rf"\bdefect\w*\b.{{0,120}}?\bwithin\s+{_DUR}", 3),
    ]),
}
