"""Finer detectors beside the playbook's clause types: CUAD categories (change of control,
uncapped carve-outs, most favoured nation, price restrictions, post-termination services,
renewal notice, warranty duration ...) and companions the assessor reads with a clause."""

from __future__ import annotations

from tools.detection.detector import DUR as _DUR
from tools.detection.detector import Detector
from tools.detection.detector import detector as _d
from tools.detection.numbers import NUMBER as _N

# a term with no end date but a party's notice: "shall remain in effect until terminated by either Party",
# "continue in full force and effect thereafter until either party gives notice"
_EVERGREEN = (r"\b(?:remain|continu)\w*\s+in\s+(?:full\s+)?(?:force\s+and\s+)?effect\s+(?:thereafter\s+)?until\s+"
              r"(?:terminated\s+by\s+(?:either|any|one)\s+part|(?:either|any|one)\s+party\s+(?:gives|provides|notifies|terminat))")
# a warranty's length: a duration, or (after "within" / "a period of") one the filing redacted
_REDACTED = r"\[\s*(?:\.{3}\s*)?\*+\s*(?:\.{3}\s*)?\]"
# (also a figure left only in brackets, "within (90) days from shipment")
_WARRANTY_DUR = rf"(?:\b{_DUR}\b|\b{_N}\s+(?:\(\d+\)\s+)?working\s+days\b|\(\d+\)\s+(?:business\s+|calendar\s+|working\s+)?(?:days?|months?|years?)\b)"
_WARRANTY_FOR = rf"\b(?:(?:for\s+)?a\s+period\s+of\s+|within\s+)(?:{_WARRANTY_DUR}|{_REDACTED})|\b(?:for|of)\s+{_WARRANTY_DUR}"
# the buyer's window to reject goods: "within thirty (30) days of receipt", "for a period of [***] days"
_REJECT_WINDOW = rf"\b(?:within|for\s+a\s+period\s+of)\s+(?:{_WARRANTY_DUR}|{_REDACTED}(?:\s+(?:business\s+|calendar\s+|working\s+)?days)?)"
_NONCONFORMING = r"(?:reject\w*|revo\w+\s+(?:of\s+)?acceptance|non-?conform\w*|not\s+in\s+conformity|(?:not|fails?\s+to)\s+(?:meet|conform|comply)|defect\w*|discrepanc\w*|damaged|deemed\s+(?:to\s+have\s+(?:been\s+)?)?accept\w*)"

# the end of the contract, not of some other period ("expiry of its financial year")
_END = (r"(?:termination|expiration|expiry|cancellation)\b(?!\s+of\s+(?!(?:this|the|said|such|any|its|their|\w+'s)\s+(?:\w+\s+){0,2}"
        r"(?:agreement|contract|term|licen[cs]es?|project|appointment|relationship|services|arrangement|engagement|distributorship)\b))")

# what a survival clause says of the terms it keeps alive
_SURVIVES = r"\b(?:surviv\w*|continue\s+(?:to\s+(?:be\s+enforceable|be\s+binding|have\s+(?:binding\s+)?effect|govern)|in\s+(?:full\s+)?(?:force|effect)|until))"

# what a party goes on doing after the end, also passive ("stock may be sold during the 90 days following the date of
# termination"); the agent nouns "provider", "seller", "purchaser" are no act
_PTS_DOING = (r"(?:continue|transition|wind[\s-]down|provide|sell|sold|deliver|co-?operat|assist|support|purchase|fulfil|complete|perform)\w*\b"
              r"(?<!provider)(?<!providers)(?<!seller)(?<!sellers)(?<!purchaser)(?<!purchasers)")

# what a restraint keeps a party from: "compete", "competing products", "in direct competition with"
COMPETING = (r"\b(?:compete\b|competes\b|competing\s+(?:with|products?|business|services)|competitive\s+with|which\s+(?:directly\s+|indirectly\s+)?compete"
             r"|in\s+(?:direct\s+)?competition\b(?!\s+law)|competition\s+(?:among|between)\b)")
# shared with the playbook's non_compete detector
NOT_COMPETE: list[tuple[str, float]] = [
    (rf"(?<!whether\sor\s)\b(?:not|no|nor|refrain\s+from)\b.{{0,300}}?{COMPETING}", 3),
    (r"\bnon-?compet(?!itive)\w*", 3),
    (r"\b(?:not|nor)\b.{0,80}?\bengage\s+in\s+(?:the|any)\s+(?:\w+\s+){0,2}business\b", 3),
    (r"\b(?:not|no|nor|neither)\b.{0,120}?\b(?:engage|carry(?:\s+on)?|handle|represent|be\s+engaged|be\s+concerned|be\s+interested|develop|manufacture|market|sell|distribute)\b.{0,120}?\b(?:similar\s+products?|any\s+other\s+(?:trade|business)|same\s+or\s+similar|competitive\s+products?|competing\s+products?)", 3),
    # "shall not run advertisements for any of X's competitors", "agrees not to sell any competing
    # professional liability products", "any product which is directly competitive to"
    (r"\b(?:not|no|nor|neither)\b(?!\s+limited\b).{0,120}?\b(?:sell|market|promot|advertis|display|endors|represent|distribut|develop|manufactur|commerciali[sz]|research|produc"
     r"|exploit|authori[sz]|acquir|place|run|offer|provide|enter\s+into|engage|work|assist|carry|supply|licens|invest|own|sponsor)\w*\b.{0,120}?"
     r"\b(?:(?:any|direct|its|their|\w+'s)\s+(?:\w+\s+)?competitors?\b|competitors?\s+of\b|competitive\s+to\b|(?:which|that)\s+(?:are|is)\s+(?:directly\s+)?competitive"
     # (the wordings the first pattern already scores are left out, so they do not count twice)
     r"|(?:competing\s+(?!(?:with|products?|business|services)\b)|competitive\s+)(?:[\w-]+\s+){0,3}?(?:products?|services?|business\w*|goods|compan\w+|entit\w+|brands?|lines?|technolog\w+|programs?|retailers?))", 3),
    # "shall not enter into an agreement with any other party to provide services similar to those provided herein"
    (r"\b(?:not|no|nor|neither)\b(?!\s+limited\b).{0,120}?\b(?:provid|sell|offer|market|distribut|manufactur|develop|perform|promot|licens)\w*\b.{0,80}?"
     r"\b(?:products?|services?|goods|business)\s+(?:that\s+(?:are|is)\s+|which\s+(?:are|is)\s+)?(?:the\s+same\s+as\s+or\s+)?(?:substantially\s+)?(?:similar|identical|equivalent)\s+to\b", 3),
    # freedoms and disclaimers that merely mention competition ("shall not prevent either party from
    # selling competing products"), weighted to outweigh two of the wordings above in one sentence
    (r"\b(?:shall|will|does|do)\s+not\s+(?:prevent|restrict|preclude|prohibit|limit)\b|\bfree\s+(?:and\s+without\s+restriction\s+)?to\b|\bnot\s+(?:contain|subject\s+to)\s+(?:a|any)\s+covenant"
     # "shall not be prevented from", "shall be deemed not to be preventing ... so long as not competitive"
     r"|\b(?:shall|will)\s+not\s+be\s+(?:prevented|restricted|precluded|prohibited)\s+from\b|\b(?:deemed|construed)\s+not\s+to\s+(?:be\s+)?(?:prevent|restrict|preclud|prohibit)\w*", -6),
    # a grant made "subject to compliance with the covenant not to compete in" another agreement points
    # at that covenant; it is not one
    (r"\b(?:in\s+accordance\s+with|subject\s+to|compliance\s+with)\s+(?:the\s+)?(?:[\w-]+\s+){0,3}?(?:non-?competition\s+agreement|covenants?\s+not\s+to\s+compete)", -3),
    # a price or fee "competitive with" the market is no restraint on competing
    (r"\b(?:amounts?|prices?|pricing|rates?|fees?|compensation|discounts?)\s+competitive\s+with\b", -3),
]

# ownership of intellectual property and decision rights, not a grant of exclusivity: "the sole and
# exclusive property of", "exclusive right, title and interest", "the exclusive right, but not the
# obligation, to prosecute", "exclusive rights in and to the Marks", "the exclusive right to determine"
EXCLUSIVE_OWNERSHIP = (r"\bexclusive\s+(?:rights?\s+of\s+)?(?:ownership|owner|property|title)\b|\bexclusive\s+rights?\s*,?\s*(?:title|in\s+and\s+to)\b"
                        r"|\bexclusive\s+rights?,?\s+(?:but\s+not\s+the\s+obligation,?\s+)?to\s+(?:\w+\s+){0,2}?(?:prosecut|defend|enforce|file|prepar|apply|register|seek|protect|institute|bring|settle|control\s+the\s+(?:prosecution|defen)"
                        r"|determine|decide|select|approve|designate|remove|replace|change)"
                        r"|\bowns?\s+(?:the\s+)?(?:sole\s+and\s+)?exclusive\b|\bexclusive\s+rights?\s+(?:and\s+interests?\s+)?(?:of|in)\s+(?:the\s+|all\s+)?(?:\w+\s+){0,2}?"
                        r"(?:intellectual|rights|ownership|title|patents?|trademarks?|marks|copyrights?)\b")
# wording both exclusivity detectors (the playbook's and CUAD's exclusivity_grant) score alike
EXCLUSIVE_DEALING: list[tuple[str, float]] = [
    # (not "only Vendor Personnel": a role word before a capitalised noun names a defined group)
    (r"\b(?:sole|only)\s+(?:and\s+exclusive\s+)?(?:supplier|source|provider|distributor|reseller|vendor|manufacturer|agent|dealer)(?!\s+(?-i:[A-Z][a-z]))", 3),
    (r"\b(?:purchase|buy|order|source|obtain|sell|distribute|supply|market)\w*\b.{0,200}?\bexclusively\s+(?:from|through|to|with)\b", 3),
    (r"\b(?:purchase|buy|order|source|obtain)\w*\s+(?:all\s+of\s+)?(?:its|their)\s+(?:entire|total|full)\s+requirements\b", 3),
    (r"\bexclusivity\b", 2.5),
    (r"\b(?:purchase|buy|order|source|obtain)\w*\b.{0,60}?\b(?:all|100%|one\s+hundred\s+percent|entire)\s+(?:\(100%\)\s+)?(?:of\s+)?(?:its|their|the\s+\w+'s|\w+'s)\s+(?:\w+\s+){0,3}(?:requirements|needs)\b", 3),
    (EXCLUSIVE_OWNERSHIP, -3),
    (r"\bexclusive\s+remedy\b|\bsole\s+(?:and\s+exclusive\s+)?remedy\b", -3),
]
# a warrant to buy shares, not a warranty: "the Warrants", "a warrant to purchase common stock"
_SECURITY_WARRANT = r"\b(?:the|a|such|any)\s+warrants?\b|\bwarrants?\s+to\s+(?:purchase|acquire|subscribe)"
# "exclusive <up to four naming words> partner": the role a party is given alone
NAMING_WORDS = r"(?:(?!(?:of|the|to|for|in|and|or|with|by|remedy|remedies|jurisdiction|benefit|property|ownership)\b)[\w/()&-]+\s+)"
_EXCLUSIVE = r"\bexclusive(?<!non-exclusive)(?<!non exclusive)(?<!non- exclusive)"  # "non-exclusive" is scored apart
EXCLUSIVE_ROLE = r"(?:sponsor|partner|provider|supplier|advisor|agent|distributor|reseller|vendor|dealer|source|licensee|manufacturer|representative)s?\b"

# a change in who owns or controls a party: merger, takeover, sale of its shares or business
_COC_EVENT = (r"\b(?:merger|merges?\s+with|consolidation|amalgamation|(?:is|be|being|are)\s+acquired\s+by|acquires?\s+(?:control|all\s+or\s+substantially|a\s+majority)"
              r"|acquisition\s+of\s+(?:the\s+|a\s+)?(?:majority|control|all\s+or\s+substantially)"
              r"|change\s+(?:in|of)\s+(?:the\s+)?(?:[\w,]+\s+){0,3}(?:ownership|control)|(?:ownership|control)\s+(?:has\s+|have\s+)?change"
              r"|(?:ownership|control)(?:\s+or\s+\w+)?\s+of\s+(?:the\s+|such\s+)?(?:[\w-]+\s+){1,3}?(?:has|have)\s+(?:materially\s+|substantially\s+|significantly\s+)?changed)\b")

FINER: dict[str, Detector] = {
    "renewal_notice": _d("renewal_notice", [
        (r"\b(?:notice|notif\w+|notify|inform|in\s+writing)\b.{0,120}?\b(?:prior\s+to|before|preceding|in\s+advance\s+of)\s+(?:the\s+)?(?:end|expiration|expiry|anniversary|termination|last\s+day|conclusion|renewal|commencement|then[\s-]current|date\s+of\s+(?:expiration|expiry|termination))", 3),
        (r"\b(?:non-?renewal|not\s+to\s+renew|not\s+(?:to\s+)?(?:be\s+)?renewed|not\s+(?:wish|want|desire|intend)\s+to\s+renew|intent\w*\s+(?:not\s+)?to\s+(?:renew|terminate)|elect\w*\s+not\s+to\s+(?:renew|extend))", 2),
        (r"\bunless\b.{0,80}?\b(?:notice|notif\w+|notify)", 1.5),
        (r"\b(?:thereafter|after\s+that|after\s+the\s+initial\s+term|indefinitely|year\s+to\s+year|month\s+to\s+month)\b.{0,100}?\buntil\s+terminated\b.{0,100}?\bnotice\b", 3),
        # the renewal runs "unless either party gives thirty (30) days' notice" / "until either party gives ... notice"
        # / "unless no later than [*] days prior to the end of the term either party notifies"
        (rf"\b(?:automatic\w*|renew\w*|extend\w*|extension)\b.{{0,250}}?\b(?:unless|until)\b.{{0,150}}?(?:{_DUR}.{{0,60}}?\b(?:notice|notif\w*|in\s+writing)\b|\b(?:notice|notif\w*|in\s+writing)\b.{{0,80}}?{_DUR}|(?:{_DUR}|\[[\s*.]{{1,12}}\]\s*(?:days?|months?))\s+(?:prior\s+to|before)\s+(?:the\s+)?(?:end|expiration|expiry))", 3),
        # "may be terminated at the expiration of its term or any renewal term upon thirty (30) days' notice"
        (rf"\bterminat\w*\b.{{0,60}}?\bat\s+the\s+(?:end|expiration|expiry)\s+of\b.{{0,80}}?{_DUR}.{{0,40}}?\bnotice\b", 3),
        # "cancellable at any time before the expiry of the Agreement or any of its renewals, upon three months prior written notice"
        (rf"\b(?:before|prior\s+to)\s+(?:the\s+)?(?:end|expiry|expiration)\b.{{0,100}}?{_DUR}\W{{0,3}}\s+(?:prior\s+|advance\s+)?(?:written\s+)?notice", 3),
        # "will automatically renew ... unless one Party notifies the other", "automatic extensions unless otherwise advised"
        (r"\bautomatic\w*\b.{0,120}?\b(?:renew\w*|extensions?|extend\w*)\b.{0,120}?\bunless\s+(?:otherwise\s+)?(?:advised|notified"
         r"|(?:either|one|any|a)\s+(?:of\s+the\s+)?part(?:y|ies)\s+(?:\w+\s+){0,3}?(?:notif|notice|advis|inform))", 3),
        # an evergreen term: "shall remain in effect until terminated by either Party upon thirty (30) days' notice"
        (rf"{_EVERGREEN}.{{0,120}}?{_DUR}.{{0,40}}?\bnotice\b", 3),
        # notice that exercises an option to renew is not notice to end the renewal
        (r"\b(?:exercis\w*|elect\w*|election|choose|wish\w*|desir\w*|decid\w*)\s+(?:(?!not\b)\w+\s+){0,3}?to\s+(?:renew|extend)\b|\brenewal\s+option|\b(?:intention|option)\s+to\s+(?:renew|extend)\b"
         r"|\bmay\b[^.]{0,160}?\b(?:extend|renew)\s+(?:the\s+|this\s+)?(?:term|agreement)", -2),
        # a renewal only by a fresh agreement has no notice to end it: "may only be renewed if the parties agree in writing",
        # "shall be extended for one year periods upon the mutual agreement of the parties"
        (r"\b(?:may|shall|will|can)\s+only\s+be\s+(?:renewed|extended)|\b(?:renew\w*|extend\w*|extension)\b.{0,80}?\b(?:upon|by|with)\s+(?:the\s+)?mutual\s+(?:written\s+)?(?:agreement|consent)\b(?!.{0,40}?\bor\s+automatic)", -3),
    ], require=r"renew|extend|extension|automatically\s+continu|(?:thereafter|after\s+that|after\s+the\s+initial\s+term|indefinitely|year\s+to\s+year|month\s+to\s+month)\b.{0,100}?\buntil\s+terminated|"
       + _EVERGREEN, needs_duration=True),
    "change_of_control": _d("change_of_control", [
        (r"\bchange\s+(?:of|in)\s+(?:\w+\s+)?(?:control|ownership)\b", 3.5),
        (r"\bcontrol\s+of\s+(?:either|any|the\s+other)?\s*party\b.{0,40}?\b(?:pass\w*|transfer\w*|change\w*)\b", 3.5),
        (r"\b(?:merger|consolidat\w+|reorgani[sz]ation|amalgamation)\b", 1),
        (r"\b(?:acqui\w+|sale|sells?|sold|transfer|disposition)\b.{0,60}?\b(?:all\s+or\s+substantially\s+all|majority|controlling\s+interest|fifty\s+percent|50\s*%)\b.{0,80}?\b(?:assets|stock|shares|voting|equity|business|securities)", 2),
        (r"\bterminat\w*\b", 1.5),
        # "in the event of the merger or consolidation of Company ..., X may terminate", "shall
        # terminate ... if Licensee is acquired by a third party", "a significant change in the ownership"
        (rf"\bterminat\w*\b.{{0,150}}?{_COC_EVENT}|{_COC_EVENT}.{{0,150}}?\bterminat", 2),
        # "any merger ... involving Licensee will be deemed to be a transfer", "a 'transfer' shall be
        # deemed to include a merger ... or an acquisition of the power to control"
        (r"\b(?:merger|consolidation|reorgani[sz]ation|change\s+(?:of|in)\s+(?:the\s+)?control|(?:sale|transfer)\s+of\s+(?:a\s+)?(?:majority|controlling|\w+\s+percent|stock|shares|voting))\b"
         r".{0,200}?\b(?:deemed|considered|constitute|treated\s+as)\s+(?:to\s+be\s+)?(?:an?\s+)?(?:assignment|transfer)"
         r"|\b(?:assignment|transfer)\W{0,3}\s+(?:\w+\s+){0,6}?(?:deemed|considered)\s+to\s+include\b.{0,200}?\b(?:merger|consolidation|control|acqui\w+)"
         # "the term 'Transfer' shall mean any sale, assignment, gift, merger, consolidation ... of any interest in you"
         r"|\bterm\s+\W?(?:assignment|transfer)\W{0,3}\s+(?:\w+\s+){0,4}?(?:means?|includes?)\b.{0,200}?\b(?:merger|consolidation|change\s+(?:of|in)\s+(?:control|ownership))\b", 3.5),
        # an employee's severance or "good reason" on the employer's takeover is no counterparty's consent or exit right
        (r"\b(?:severance|the\s+executive|good\s+reason|salary|bonus|unvested|vest(?:s|ed|ing)?)\b", -4),
        # "a change in the shareholding structure of Party B", "Party B's shareholder or equity structure changes"
        (r"\bchange\w*\s+(?:of|in|to)\s+(?:the\s+)?(?:\w+\s+){0,2}?(?:shareholders?|shareholding|equity|ownership)\s+structure\b"
         r"|\b(?:shareholders?|shareholding|equity|ownership)\s+structure\s+(?:of\s+(?:\S+\s+){1,3}?)?(?:changes|is\s+changed|has\s+changed)\b", 3.5),
        # a merger "in which such Party is not the surviving entity"
        (r"\bnot\s+the\s+surviving\s+(?:entity|corporation|company|party)\b", 1),
        # an assignment on a merger that is void or needs consent: "in the case of a merger ..., any attempt to assign this
        # Agreement other than as permitted above will be void"
        (r"\bin\s+the\s+(?:case|event)\s+of\s+(?:a\s+|any\s+)?(?:reorgani[sz]ation|merger|consolidation)\b.{0,150}?\bassign\w*\b.{0,80}?\b(?:void|consent|approval|notice)", 1),
        # a takeover that counts as an assignment needing consent: "may not be assigned, also as a result of a merger or a
        # spin-off, without the prior written consent of the other party"
        (r"\b(?:not|never|cannot)\s+be\s+(?:assigned|transferred)\b.{0,80}?\b(?:as\s+a\s+result|by\s+(?:way|reason)|in\s+consequence)\s+of\b.{0,80}?\b(?:merger|consolidation|spin-?off|change\s+(?:of|in)\s+control)\b"
         r".{0,120}?\bwithout\s+(?:the\s+)?(?:prior\s+)?(?:written\s+)?(?:consent|approval)", 2.5),
        # an assignment on a takeover that the other party must be told of: "may assign in connection with a merger or a sale
        # of all or substantially all of its assets, provided that it gives the other party notice"
        (r"^(?=.*\bassign).*\b(?:merger|all\s+or\s+substantially\s+all)\b.{0,200}?\b(?:provided|on\s+condition|subject\s+to|upon)\b.{0,80}?\b(?:notice|notif\w+)", 1),
        # a takeover that frees a party to assign, or that is no assignment at all, gives the other party no say:
        # "may assign this Agreement ... in connection with any Change of Control", "a change of control of X shall not be
        # considered an assignment"
        # "nor shall any change in control be deemed an assignment"
        (r"\bmay\s+(?:\w+\s+){0,2}?assign\b.{0,250}?\b(?:in\s+connection\s+with|pursuant\s+to|as\s+part\s+of|upon)\s+(?:a\s+|any\s+)?(?:\(\w+\)\s+)?change\s+(?:of|in)\s+control"
         r"|\bchange\s+(?:of|in)\s+control\b.{0,80}?\b(?:shall|will)\s+not\s+(?:be\s+)?(?:considered|deemed|treated\s+as|constitute)\s+(?:to\s+be\s+)?an?\s+assignment"
         r"|\bnor\s+(?:shall|will)\s+(?:a\s+|any\s+)?change\s+(?:of|in)\s+control\b.{0,80}?\bbe\s+(?:considered|deemed|treated\s+as)\s+(?:to\s+be\s+)?an?\s+assignment", -4),
        # a takeover by a rival: "if Licensee is acquired by a competitor of Licensor", "the acquirer of all or substantially all of
        # its assets is a direct competitor"
        (r"\b(?:(?:acquired|merged|sold)\s+(?:\w+\s+){0,3}?(?:by|with|into|to)|acquisition\s+(?:\S+\s+){0,3}?by)\s+(?:a|an|any)\s+(?:\S+\s+){0,3}?competitor"
         r"|\b(?:acquir[eo]r|purchaser|successor)\b.{0,60}?\b(?:is|be|being)\s+(?:a|an)\s+(?:\w+\s+){0,2}?competitor", 2),
        # a holder's stake falls below or rises above a share of the votes: "terminate ... once X holds less than
        # fifty percent (50%) of the voting power of the Company"
        (r"\b(?:holds?|owns?|has|have)\s+(?:less|fewer|more)\s+than\s+.{0,40}?\b(?:voting\s+(?:control|power|stock|shares|securities|interests?)|outstanding\s+(?:voting\s+)?(?:shares|stock|capital))", 2),
        # the SEC's ownership reports ("Statement of Changes in Beneficial Ownership", "Forms 3 and 4") are no clause
        (r"\bstatements?\s+of\s+(?:\w+\s+){0,2}?changes?\s+in\s+(?:beneficial\s+)?ownership\b|\bforms?\s+3\s+(?:and|or)\s+4\b", -4),
        # a definition names the event without saying what it does to the contract
        (r"^\W*(?:[\d.]+\s*)?(?:\([a-z\d]+\)\s*)?(?:for\s+(?:the\s+)?purposes?\s+(?:of\s+)?[^,]{0,60},\s*)?(?:an?\s+|the\s+)?[\"“']?change\s+(?:of|in)\s+(?:\w+\s+)?control[\"”']?"
         r"\s+(?:shall\s+)?(?:means?|has\s+the\s+meaning)\b"
         r"|\(\w{1,4}\)\s*[\"“]change\s+(?:of|in)\s+control[\"”]\s+(?:shall\s+)?means?\b", -6),
    ], threshold=3.5),
    "uncapped_carveout": _d("uncapped_carveout", [
        (r"\b(?:except(?:ing)?|excluding|other\s+than|(?:shall|will)\s+not\s+apply|(?:does|do)\s+not\s+apply|exclusions?|notwithstanding|save\s+for|without\s+limit)\b", 1),
        (r"\b(?:liab\w*\b.{0,250}?\bexceed|limitations?\s+(?:of|on)\s+liability|these\s+limitations|(?<!not\s)limited\s+to|in\s+no\s+event|under\s+no\s+circumstances?|(?:shall|will)\s+not\s+be\s+liable|(?:neither|no)\s+party\b.{0,60}?\b(?:shall|will)\b.{0,40}?\bbe\s+(?:liable|entitled\s+to\s+recover)|liability\s+(?:cap|limit))\b", 1.5),
        (r"\b(?:indemni(?:f(?!(?:ying|ied)\s+part)|ties\b)\w*|gross(?:ly)?\s+negligen\w*|wil(?:l)?ful\s+misconduct|fraud\w*|breach\s+of\s+(?:its\s+)?confidential\w*|confidentiality\s+obligations|infring\w*|bodily\s+injury|death|personal\s+injury|obligations\s+under\s+(?:section|article|paragraph)|failure\s+to\s+pay)", 1),
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
         r".*\b(?:death|personal\s+injury|gross(?:ly)?\s+negligen|wil(?:l)?ful\s+misconduct|bad\s+faith|misfeasance|fraud)", -2),
    ], require=r"liab|limitation|exceed|damages", threshold=3.5),
    "exclusivity_grant": _d("exclusivity_grant", [
        *EXCLUSIVE_DEALING,
        (r"\bexclusive\s+(?:\w+\s+)?(?:right|license|licence|distributor|supplier|provider|reseller|basis|agent|dealer|manufacturer|source|partner|territory|purchase|supply|dealing|appointment|distributorship|dealership|agency|in\s+the\s+territory|option\s+to\s+(?:negotiat|acquir|obtain|licen|enter))", 3),
        # "the exclusive integrated online insurance provider", "its exclusive and sole partner"
        (rf"{_EXCLUSIVE}\s+(?:and\s+sole\s+)?{NAMING_WORDS}{{1,4}}{EXCLUSIVE_ROLE}", 3),
        # "an exclusive, worldwide, royalty-free license", "a perpetual, irrevocable, exclusive and sublicensable
        # right", "an exclusive (save for rights reserved to Licensor), non-transferable license"
        (rf"{_EXCLUSIVE}\s*(?:\((?:[^()]|\([^()]{{0,12}}\)){{0,120}}\)\s*)?(?:,|\band\b)\s*(?:(?:[\w-]+|\((?:[^()]|\([^()]{{0,12}}\)){{0,80}}\))(?:\s*,\s*|\s+and\s+|\s+)){{0,10}}?(?:licen[cs]e|right|distribution)", 4.5),
        # "will provide the services exclusively, ..." (the phrase ends with "exclusively")
        (r"\b(?:provid|supply|suppli|sell|distribut|market|manufactur|perform)\w*\s+(?:[\w-]+\s+){0,3}?exclusively\s*(?:[,;.]|$)", 3),
        # the adverb before the act or after the grant: "shall be entitled to exclusively provide such financing",
        # "the patents will be licensed to the Company exclusively for the Field"
        (r"\bexclusively\s+(?:provide|supply|sell|distribute|market|manufacture|represent|perform)\b"
         r"|\b(?:licensed|granted|assigned|appointed)\s+(?:to\s+(?:[\w-]+\s+){1,3}?)?exclusively\b", 3),
        # "the exclusive relationship with", "the sole and exclusive relationship"
        (r"\bexclusive\s+(?:(?:and|or)\s+sole\s+)?(?:business\s+|working\s+)?relationship\b", 3),
        # an endorser's "will not endorse any other multivitamin" (a ban on endorsing only products "competitive
        # to" the sponsor's is the non-compete)
        (r"\bnot\b.{0,60}?\bendors\w*\b.{0,120}?\b(?:any\s+other|another)\s+(?!part(?:y|ies)\b)[\w-]+(?!.{0,80}?\bcompet)", 3),
        # a franchisor's protected area: "we will not operate or grant others the right to operate a store within the area"
        (r"\bnot\b.{0,40}?\b(?:operate|establish|open)\b.{0,30}?\bor\s+(?:grant|license|licence|franchise|authori[sz]e)\s+(?:to\s+)?(?:others|another|any\s+other\s+(?:person|party|franchisee))\s+(?:the\s+right\s+)?to\s+(?:operate|establish|open)\b", 3),
        # the exclusivity a clause refers to by name: "the exclusivity rights associated with that Product will cease",
        # "during the Exclusivity Period" (with "exclusivity" alone, enough)
        (r"\bexclusivity\s+(?:rights?|period|obligations?|provisions?|covenants?|restrictions?)\b", 0.5),
        # "it will grant no other licenses for the territory", "shall grant no further rights to third parties"
        (r"\b(?:will|shall)\s+grant\s+no\s+(?:other|further|additional)\s+(?:licen[cs]es?|rights?)\b", 3),
        # "agrees not to provide delivery services for any other provider of ...", "not to sell to any other distributor"
        (r"\bnot\b.{0,60}?\b(?:provid|sell|supply|render|perform)\w*\b.{0,80}?\b(?:for|to)\s+any\s+other\s+(?:[\w-]+\s+){0,2}?"
         r"(?:providers?|suppliers?|distributors?|resellers?|vendors?|manufacturers?|customers?|purchasers?|buyers?)\b", 3),
        # (not a past fact: "purchase from a supplier that we have not approved")
        (r"(?<!\bhave\s)(?<!\bhas\s)(?<!\bhad\s)\b(?:not|no)\b.{0,40}?\b(?:appoint|engage|purchase|buy|source|obtain|use)\b.{0,80}?\b(?:other|additional|any\s+third|alternative)\b\s+(?:[\w-]+\s+){0,4}?(?:distributors?|suppliers?|providers?|resellers?|vendors?|sources?|manufacturers?)", 3),
        # the passive: "all sales to customers will be carried out exclusively by the Marketer", "shall be sold exclusively through"
        (r"\b(?:sales?|sold|marketed|distributed|supplied|provided|carried\s+out|performed|purchased|manufactured|rendered)\b.{0,40}?\bexclusively\s+(?:by|through)\b(?!\s+(?:the\s+)?(?:terms|laws?|provisions)\b)", 3),
        # "agrees not to grant the right to use ... to anyone other than Company", "will not grant any
        # further licenses to third parties"
        (r"\b(?:(?:will|shall|agrees?\s+)\s*not|nor\s+will\s+\w+|not\s+be)\s+(?:\w+\s+){0,3}?grant(?:ed)?\b.{0,120}?"
         r"\b(?:anyone\s+(?:other|else)|any\s+other\s+(?:part(?:y|ies)|person|entit(?:y|ies)|compan(?:y|ies))|licen[cs]es?\s+to\s+(?:any\s+)?third\s+part)", 3),
        # "will not grant any third party any right to sponsor", "will not grant to any Third Party any rights to the Patents"
        (r"\b(?:(?:will|shall|agrees?\s+)\s*not|nor\s+will\s+\w+)\s+(?:\w+\s+){0,3}?grant\s+(?:to\s+)?any\s+(?:other\s+)?third\s+part(?:y|ies)\b", 3),
        # "the rights granted to Sponsor herein are exclusive to Sponsor", "the license granted herein shall be exclusive"
        # (not "exclusive of taxes", nor remedies that "are not exclusive")
        (r"\b(?:licen[cs]es?|rights?|appointment)\b(?:\s+(?!remed)[\w-]+){0,6}?\s+(?:shall|will|is|are)\s+(?:be\s+|become\s+)?exclusive\b(?!\s+of\b)", 3),
        # "will not enter into any other endorsement agreement", "... any other joint venture agreement"
        (r"\bnot\s+(?:\w+\s+){0,3}?enter\s+into\s+any\s+other\s+(?:[\w/-]+\s+){1,3}?(?:agreements?|arrangements?|relationships?|contracts?)\b", 3),
        # "agrees not to enter into an agreement with another company for the purpose of endorsing ...", "will not
        # accept as a sponsor any other company"
        (r"\bnot\s+(?:[\w-]+\s+){0,3}?(?:enter\s+into\s+(?:an?|any)\s+(?:[\w-]+\s+){0,2}?(?:agreements?|arrangements?|contracts?|relationships?)\s+with|accept\s+as\s+(?:an?\s+)?(?:[\w,-]+\s+){0,5}?sponsors?)"
         r"\s+(?:another|any\s+other)\s+(?:compan(?:y|ies)|entit(?:y|ies)|part(?:y|ies)|persons?|sponsors?|brands?|manufacturers?)\b", 3),
        # "shall not enter into the same or substantially similar commitments with any other company"
        (r"\bnot\b.{0,60}?\b(?:enter\s+into|establish|engage\s+in)\b.{0,80}?\b(?:same\s+or\s+(?:substantially\s+)?similar|identical\s+(?:with|to)\s+or\s+similar)\b", 3),
        # another document named ("the Exclusive Supplier Operating Agreement is effective"), not a grant made
        (r"(?-i:\bExclusive\s+(?:[A-Z][\w-]*\s+){1,4}Agreement\b)", -3),
        (r"\bnon[\s-]*exclusiv\w*", -3),
        (r"\bsubject\s+exclusively\b|\bexclusively\s+(?:to|by)\s+the\s+terms\b|\bnor\s+does\s+it\s+create\b", -3),
        # "does not and will not have exclusive rights", "has no right to any exclusive territory"
        (r"\b(?:not|no)\s+(?:\w+\s+){0,4}?(?:have|obtain|acquire|create|right\s+to)\s+(?:any\s+|an\s+)?exclusiv", -3),
        (r"\bmeans\b", -1.5),
        # a recital ("WHEREAS, X desires to acquire the exclusive right ...") tells the background, it grants nothing
        (r"^.{0,40}?\bWHEREAS\b", -3),
    ], title=r"exclusiv"),
    "compete_restriction": _d("compete_restriction", [
        *NOT_COMPETE,
        # a representation that no other agreement restricts a party, or a definition, is not the covenant
        (r"\b(?:not|neither|nor)\b.{0,80}?\b(?:subject\s+to|party\s+to|bound\s+by|under)\s+any\b|\b(?:breach|violat\w*|conflict\s+with)\s+any\s+(?:\w+\s+){0,4}?(?:agreements?|obligations?|covenants?)\b", -3),
        (r"(?<!by )\bmeans\b|\bshall\s+mean\b", -4),
        # "during the Term, neither Party shall, directly or indirectly, develop or commercialize any product ...",
        # "throughout the Term ... shall not, either by itself or through a Third Party, sell ...": a ban on a line
        # of business for a time, no competitor named (without the time, a limit on the licensed products' use)
        (r"^(?=.*\b(?:during|throughout)\s+the\s+(?:term|period)\b|.*\bfor\s+a\s+period\s+of\b).*?\b(?:not|no|nor|neither)\b(?!\s+limited\b).{0,80}?\b(?:directly\s+or\s+indirectly|(?:either\s+)?(?:by\s+)?itself\s+or\s+(?:with\s+or\s+)?through"
         r"|independently\s+or\s+(?:with|through))\b.{0,120}?\b(?:research|develop|manufactur|commerciali[sz]|sell|market|distribut|promot)\w*\b.{0,120}?"
         r"\b(?:any|other)\s+(?:[\w-]+\s+){0,4}?(?:products?|compounds?|business)\b", 3),
        # "shall prohibit competition among the parties", "prohibiting the endorsement of any products which are in
        # direct competition with" (a freedom, "nothing ... shall prohibit", is outweighed below)
        (rf"\b(?:prohibit\w*|forbid\w*)\b.{{0,300}}?{COMPETING}", 3),
        # a restraint that outlasts the contract: "will not, directly or indirectly, acquire ... for a period of
        # 24 months following the termination" (not the no-hire, non-solicitation and confidentiality terms of that shape)
        (rf"^(?![\s\S]*\b(?:solicit|hire|employ|disclos|confidential))[\s\S]*?\b(?:not|prohibited\s+from)\b.{{0,150}}?\bdirectly\s+or\s+indirectly\b.{{0,150}}?"
         rf"\bfor\s+a\s+period\s+of\s+{_DUR}\s+(?:after|following|from)\s+(?:the\s+)?(?:date\s+of\s+)?(?:termination|expiration|expiry)\b", 3),
        # the during-the-term ban with its reach after the acts: "will not develop or commercialize any product
        # ..., either independently or in collaboration with a third party"
        (r"^(?=.*\b(?:during|throughout)\s+the\s+(?:term|period)\b).*?\b(?:not|no|nor|neither)\b(?!\s+limited\b).{0,200}?\b(?:research|develop|manufactur|commerciali[sz]|conduct|sell|market|distribut)\w*\b"
         r".{0,200}?\b(?:(?:either\s+)?independently\s+or\s+(?:for\s+or\s+)?(?:in\s+collaboration\s+)?with|(?:either\s+)?(?:by\s+)?itself\s+or\s+(?:with\s+or\s+)?through)\b", 3),
        # "shall not, directly or indirectly, engage in any business which ...", "not to directly or indirectly engage
        # in the operation of any restaurant"
        (r"\b(?:not|nor|neither)\b.{0,200}?\bdirectly\s+or\s+indirectly\b.{0,150}?\bengage\s+in\s+(?:the\s+(?:operation|ownership|management)\s+of\s+)?(?:any|another)\s+"
         r"(?:[\w-]+\s+){0,3}?(?:business|enterprise|restaurant|store|venture)s?\b", 3),
        # "will not itself or through third parties engage in the development of ...", "shall not, directly or
        # indirectly, engage in the manufacture of"
        (r"\b(?:not|nor|neither)\b.{0,40}?\b(?:directly\s+or\s+indirectly|itself\s+or\s+(?:with\s+or\s+)?through)\b.{0,120}?\bengage\s+in\s+the\s+"
         r"(?:development|manufactur\w*|production|sale|marketing|distribution|commerciali[sz]ation)\s+of\b", 3),
        # "shall not enter into another distribution agreement with any company for the sale of goods similar to the Products"
        (r"\bnot\b.{0,200}?\benter\s+into\s+(?:another|any|an)\s+(?:[\w/-]+\s+){0,4}?agreements?\b.{0,150}?\b(?:goods|products?|services?|business)\s+(?:substantially\s+)?similar\s+to\b", 3),
        # an endorser's ban on a rival's brand: "shall not wear or be associated with any competitor's product",
        # "to wear no apparel bearing the name of a competitor of the Company"
        (r"\b(?:not|no|nor|neither)\b.{0,120}?\b(?:wear|bear|be\s+associated)\w*\b.{0,120}?\b(?:an?|any)\s+(?:[\w-]+\s+){0,3}?competitor(?:'s|s'?)?\b", 3),
        # a run-in heading ("(vi) Employment; Noncompetition; Nondisclosure.") names the clause without stating it
        (r"^\W*(?:\(?[ivx\d]+[.)]\s*|\(?[a-z][.)]\s*)?(?-i:[A-Z][\w-]*)(?:[;,]?\s+(?:and\s+)?(?-i:[A-Z][\w-]*)){0,5}\W*$", -3),
        # a sentence that opens "Nothing in this Agreement shall preclude ..." grants a freedom (a
        # covenant's closing "save that nothing ... shall prevent" proviso does not)
        (r"^\W*(?:[\d.]+\s+|\([a-z\d]+\)\s+)?(?:[\w-]+[\s,]+){0,8}?nothing\b.{0,80}?\b(?:shall|will)\s+(?:\w+\s+){0,2}?(?:prevent|restrict|preclude|prohibit|limit|impair)|\bnot\s+serve\s+to\s+(?:impair|limit|restrict)", -6),
    ]),
    "liquidated_damages_clause": _d("liquidated_damages_clause", [
        (r"\bliquidated\s+damages\b", 3.5),
        (r"\bpenalt(?:y|ies)\b", 1),
        (r"\bpay\w*\s+(?:a\s+|the\s+)?penalt(?:y|ies)\b|\bpre-?estimat\w*\s+of\s+(?:\w+\s+)?(?:damages|loss)", 2.5),
        (r"\b(?:not|no|neither)\b.{0,40}?\b(?:liable|oblig\w*|responsible)\b.{0,30}?\b(?:for|to\s+pay)\s+(?:any\s+)?(?:termination|cancellation)\s+(?:fees?|charges?|payments?)", -3),
        (r"\b(?:without|no)\s+(?:any\s+)?(?:early\s+)?(?:termination|cancell?ation)\s+(?:fees?|charges?|payments?|penalt(?:y|ies))", -3),
        (r"\bfor\s+each\s+(?:day|week)\s+of\s+delay\b", 2),
        # a sum that runs with the delay: "a late fee for each day past the deadline", "for each week that delivery is
        # delayed" (not interest on a late payment)
        (r"^(?!.*\binterest\b).*(?:\b(?:for\s+each|per|every)\s+(?:full\s+|calendar\s+|business\s+|working\s+)?(?:day|week)\s+(?:of\s+delay|past|beyond|late"
         r"|that\s+(?:\w+\s+){0,3}?(?:is|are|remains?)\s+(?:delayed|late|overdue)))", 3),
        # a fee for hiring away the other party's staff: "a Party that hires an employee of the other Party in violation of
        # this Section shall pay an amount equal to the annual compensation of the individual"
        (r"^(?=.*\b(?:in\s+(?:violation|breach)\s+of|contrary\s+to|(?:employees?|staff|personnel)\s+of\s+the\s+other|\w+'s\s+(?:employees?|staff|personnel))\b)"
         r".*\b(?:hire[sd]?|hiring|solicit\w*)\b.{0,200}?\bpay\b.{0,80}?\b(?:amount|fee|sum)\s+equal\s+to\b.{0,80}?\b(?:compensation|salary|remuneration|wages)\b", 3),
        # a fee owed for ending early, however it is capitalised: "shall pay a termination fee of", "an early termination penalty"
        (r"\b(?:pay\w*|receive|entitled\s+to|owe)\b.{0,80}?\b(?:early\s+)?(?:termination|cancell?ation|exit|break[\s-]?up)\s+(?:fees?|charges?|payments?|penalt(?:y|ies))\b|\bearly\s+termination\s+penalt", 3),
        # the fee named with its amount, without a verb of paying: "a termination payment equal to the annual fee"
        (r"\b(?:termination|cancell?ation|exit|break[\s-]?up)\s+(?:fee|payment|charge|penalty)s?\s+(?:equal|of\b|in\s+the\s+amount|calculated|shall\s+be)", 3),
        # a sum owed on ending that is measured by what the contract would have paid: "payments equal to half of the amounts
        # that would have been payable had this Agreement not been terminated"
        (r"\bwould\s+have\s+(?:been\s+)?(?:payable|paid|due|earned|owed|received)\b.{0,120}?\bhad\s+(?:this|the)\s+(?:\w+\s+)?(?:agreement|contract)\s+not\s+been\s+(?:so\s+)?(?:terminated|cancell?ed)", 3),
        # a multiple owed on termination: "if the Investor terminates ..., the Company will pay it an amount equal to two hundred
        # percent (200%) of the costs it has paid"
        (r"^(?=.*\bterminat).*\bpay\b.{0,80}?\b(?:amount|sum)\s+equal\s+to\s+(?:\w+\s+){0,4}?(?:percent|\d+\s*%|times)(?:\s*\(\s*\d+\s*%\s*\))?\s+(?:of|the)\b", 3),
        # a notice that tells of such clauses is none: "the franchise agreement contains a liquidated damages clause",
        # "liquidated damages clauses are unenforceable in some states"
        (r"\bcontains?\s+(?:a\s+)?liquidated\s+damages\s+(?:clause|provision)|\bliquidated\s+damages\s+(?:clauses|provisions)\s+(?:are|may\s+be)\b", -3),
    ]),
    "most_favored_nation": _d("most_favored_nation", [
        (r"\bmost[\s-]favou?red\b", 3.5),
        (r"\b(?:no\s+less\s+favou?rable|at\s+least\s+as\s+favou?rable|more\s+favou?rable|better)\b.{0,120}?\b(?:prices?|pricing|rates|fees)\b", 3),
        (r"\b(?:prices?|pricing|rates|fees)\b.{0,120}?\b(?:no\s+less\s+favou?rable|not\s+(?:be\s+)?less\s+favou?rable|at\s+least\s+as\s+favou?rable|more\s+favou?rable)\b", 3),
        (r"\b(?:lowest|best)\s+(?:net\s+)?(?:price|pricing|rate)s?\b", 2.5),
        (r"\b(?:no\s+less|not\s+(?:be\s+)?less|equal\s+to\s+or\s+more|more|at\s+least\s+as)\s+favou?rable\b", 1.5),
        (r"\bsimilarly[\s-]situated\b|\bother\s+(?:customers?|purchasers?|buyers?|clients?|licensees?|distributors?|shippers?)\b", 2),
        # terms as good as any other counterparty gets: "terms no less favourable to X than the terms in
        # effect with any of its resellers", "will not be charged a higher fee than ... its other clients"
        (r"\b(?:no|not)\s+(?:be\s+)?less\s+favou?rable\b.{0,150}?\bthan\b.{0,120}?\b(?:any|other|third)\b"
         r"|\b(?:higher|greater)\s+(?:fees?|prices?|rates?|charges?|royalt\w+)\s+than\b.{0,100}?\b(?:any|other|third)\b", 3),
        # "shall have the full benefit of any more favourable provisions", "offer Licensee such more favourable terms"
        (r"\b(?:benefit\s+of|entitled\s+to|receive|offer\w*\s+(?:to\s+)?\w+|extend\w*\s+(?:to\s+)?\w+|automatically)\s+(?:any\s+|such\s+|the\s+)?(?:\w+\s+)?"
         r"(?:more|most)\s+favou?rable\s+(?:terms?|provisions?|prices?|pricing|rates?|conditions?)", 3),
        # a grant to others "on terms more favourable to the third party than those offered to" this party
        (r"\b(?:terms|conditions|prices?|rates?)\s+(?:\w+\s+){0,2}?(?<!no\s)more\s+favou?rable\b.{0,60}?\bthan\b.{0,40}?\b(?:offered|granted|given|extended|available|provided)\s+to\b", 2),
        # a ceiling set by what others pay: "fees shall not exceed the fees charged to any other licensee",
        # "a price no higher than the lowest price offered to any third party"
        (r"\b(?:prices?|pricing|fees|rates|royalt\w+|charges)\b.{0,40}?"
         r"\b(?:not\s+(?:to\s+)?exceed|not\s+be\s+(?:higher|greater)\s+than|no\s+(?:higher|greater)\s+than|equal\s+to\s+or\s+(?:less|lower)\s+than)\s+"
         r"(?:the\s+|those\s+|that\s+)?(?:lowest\s+)?(?:prices?|fees|rates?|royalt\w+|charges)\s+(?:\w+\s+){0,3}?"
         r"(?:charged|offered|granted|extended|quoted)\b.{0,40}?\bto\s+(?:any\s+|its\s+|all\s+)?(?:other|third|unaffiliated|similarly)\b", 3),
        # others must not get a better price: "pricing which is better than that provided to X",
        # "lower prices than those charged to other purchasers"
        (r"\b(?:prices?|pricing|rates?|fees|royalt\w+)\b.{0,60}?\b(?:better|lower)\s+than\s+(?:that|those|the\s+(?:prices?|pricing|rates?|fees))\b.{0,40}?"
         r"\b(?:provided|offered|charged|given|granted|extended|available|paid)\b"
         r"|\b(?:better|lower)\s+(?:prices?|pricing|rates?|fees)\b.{0,80}?\bthan\s+(?:that|those)\s+(?:\w+\s+){0,2}?(?:provided|offered|charged|given|granted|extended|available|paid)\b", 3),
        # "no other licensee shall receive terms more favourable than", "the highest rate paid to any other"
        (r"\bno\s+other\s+(?:\w+\s+){1,2}?(?:shall|will|may)\s+(?:receive|be\s+(?:granted|offered|given|charged))\b.{0,120}?\b(?:greater|better|more\s+favou?rable|lower)\b.{0,150}?\bthan\b"
         r"|\b(?:lowest|best|highest)\s+(?:[\w-]+\s+){0,2}?(?:prices?|pricing|rates?|fees|royalt\w+|remuneration)\b.{0,60}?"
         r"\b(?:charged|paid|offered|given|granted|sold)\s+(?:by\s+(?:the\s+)?\w+\s+)?(?:to|for)\s+(?:any|other|third|an?\s+other)\b", 3),
        # dealings with affiliates "no less favourable than would be available from unaffiliated parties"
        # (what a party charges "to unaffiliated third parties" is the benchmark of a most-favoured clause)
        (r"\b(?<!\bto\s)(?<!\bto\san\s)unaffiliated\b", -3),
        # terms of a sale of shares or warrants (a right of first refusal, a lock-up), not of goods or services
        (rf"\b(?:shares|lock-?up|underwriters?|initial\s+public\s+offering)\b|{_SECURITY_WARRANT}", -3),
    ]),
    "price_restrictions": _d("price_restrictions", [
        # (a cap on fees or expenses, "shall not exceed $50,000", is not a restriction on changing a price)
        (r"\b(?:shall|may|will)\s+not\s+(?:\w+\s+){0,2}(?:increase|raise|change)\b.{0,60}?\b(?:prices?|pricing|fees|rates|charges)\b", 3),
        (r"\b(?:prices?|pricing|fees|rates|charges)\b.{0,60}?\b(?:shall|will|may)\s+not\s+(?:be\s+)?(?:increase|raise|change)", 3),
        (r"\b(?:increase|adjust)\w*\b.{0,40}?\b(?:prices?|pricing|fees|rates|charges)\b.{0,100}?\b(?:not\s+(?:to\s+)?exceed|no\s+more\s+than|(?<!not\s)limited\s+to|capped\s+at)\b", 3),
        (r"\b(?:prices?|pricing|fees|rates|charges)\b.{0,40}?\b(?:increase|adjust)\w*\b.{0,100}?\b(?:not\s+(?:to\s+)?exceed|no\s+more\s+than|(?<!not\s)limited\s+to|capped\s+at)\b", 3),
        (r"\b(?:prices?|pricing)\b.{0,40}?\b(?:fixed|firm)\b.{0,40}?\b(?:for|during|until)\b", 2.5),
        (r"\b(?:increase|adjust)\w*\b.{0,60}?\bnot\s+(?:to\s+)?exceed\s+(?:\w+\s+)?(?:\(\s*\d+\s*\)\s*)?(?:\d+(?:\.\d+)?\s*%|percent)", 3),
        (r"\b(?:increase|adjust|change)\w*\b.{0,80}?\bnot\s+more\s+(?:often|frequently)\s+than\b", 3),
        # "fees that do not exceed a 5 percent increase", "an increase of no more than", "at cost without markup"
        (r"\b(?:not\s+(?:to\s+)?exceed|no\s+(?:more|greater)\s+than|not\s+more\s+than|in\s+excess\s+of)\s+(?:an?\s+)?(?:\S+\s+){0,3}?(?:percent|%)\s*(?:\S+\s+)?(?:increase|mark-?up)"
         r"|\b(?:increase|mark-?up)s?\s+(?:of\s+|by\s+)?(?:no|not)\s+(?:more|greater)\s+than\b|\bat\s+cost\s+without\s+(?:any\s+)?mark-?up", 3),
        (r"\bliquidated\s+damages\b|\bliabilit\w*\b", -3),
        # a sum capped in money ("may be increased by an additional amount not to exceed $10,000") is a budget,
        # not a limit on raising a price (a cap per unit, "$0.05 per unit", still is one)
        (r"\bamount\s+(?:not\s+to\s+exceed|of\s+up\s+to)\s+(?:US)?\$\s*[\d,.]+(?![\d,.])(?!\s*(?:per|for\s+each|each|a|an)\b)", -3),
        # the price of securities, not of goods or services: "the exercise price of the warrants shall not increase"
        (rf"\b(?:exercise|strike|conversion)\s+price\b|{_SECURITY_WARRANT}|\bper\s+share\b", -3),
    ]),
    "post_termination_services": _d("post_termination_services", [
        (rf"\b(?:after|following|upon|subsequent\s+to|survive|beyond)\s+(?:the\s+)?(?:(?:effective\s+)?date\s+of\s+)?(?:such\s+)?{_END}.{{0,200}}?\b{_PTS_DOING}", 2.5),
        (rf"\b{_PTS_DOING}.{{0,200}}?\b(?:after|following|subsequent\s+to)\s+(?:the\s+)?(?:(?:effective\s+)?date\s+of\s+)?(?:such\s+)?{_END}", 2.5),
        (r"\btransition\w*\s+(?:services?|assistance|period|plan|of\s+(?:the\s+)?(?:services|operations))\b|\bsuccessor\s+(?:servicer|provider|supplier|operator)\b", 2),
        # a transition counts when it follows the end of the contract, not a closing or a start-up
        (r"\btermination\s+assistance\b|^(?=[\s\S]*\b(?:terminat|expir|cancel))[\s\S]*\btransition\w*\s+(?:services?|assistance|period|plan|of\s+(?:the\s+)?(?:services|operations))\b", 1),
        (rf"\b(?:upon|after|following|in\s+the\s+event\s+of)\s+(?:the\s+|a\s+)?(?:any\s+)?{_END}.{{0,300}}?\b(?:shall|will|may|agrees?\s+to)\s+(?:\(?\w+\)?\s+){{0,3}}(?:continue|co-?operate|assist|transition|retain|purchase|compensate|refer|sell|dispose|return|deliver|transfer|pay|provide|perform|complete|unwind|wind\s+down)", 3),
        # a right that outlasts the end: "upon termination, X shall have a reasonable period to remove", "shall be entitled to sell"
        (r"\b(?:terminat|expir)\w*\b.{0,200}?\b(?:shall|will|may)\s+(?:(?!not\b|no\b)\w+\s+){0,2}?(?:have|be\s+(?:entitled|permitted|allowed))\s+(?!no\b)(?:\w+\s+|\(\d+\)\s+){0,6}?"
         r"to\s+(?:sell|use|remove|distribute|complete|dispose|market|fill|exhaust|deplete)\b", 3),
        # a licence granted for the time after the end: "grants, during the Term and after termination of this Agreement, a licence"
        (r"\bgrant\w*\b.{0,200}?\b(?:after|following|beyond)\s+(?:the\s+)?(?:expiration|termination|expiry)\b.{0,200}?\blicen[cs]e\b", 3),
        (rf"\bshall\s+continue\b.{{0,150}}?\b(?:after|following|beyond)\s+(?:the\s+)?{_END}", 3),
        # "in the event that X terminates this Agreement ...", "if this Agreement is terminated by ...": what then continues or is owed
        (r"\b(?:in\s+the\s+event\s+(?:that\s+)?|if\s+)(?:\(?\w+\)?\s+){0,6}?(?:terminates?\s+this\s+agreement|(?:is|are)\s+terminated)\b.{0,250}?\b(?:shall|will|agrees?\s+to)\s+(?:(?!be\b)\w+\s+){0,2}?(?:retain|refer|continue|purchase|compensate|pay|provide|return|transfer|reimburse|notify|deliver)", 3),
        (rf"\b(?:for\s+(?:a\s+period\s+of\s+)?|up\s+to\s+){_DUR}\b.{{0,40}}?\b(?:after|following)\b", 1),
        # "for twenty-four (24) months following termination of this Agreement, Licensee shall ..."
        # (a confidentiality term of that form is no service: kept out here, as the weights would not)
        (rf"^(?![\s\S]*\bconfidential)[\s\S]*?\b(?:for|during)\s+(?:a\s+(?:period|term)\s+of\s+)?(?:up\s+to\s+)?(?:a\s+|the\s+)?(?:{_DUR}|{_REDACTED})\s+(?:\w+\s+){{0,2}}?(?:after|following|from)\s+(?:the\s+)?(?:(?:effective\s+)?date\s+of\s+)?(?:such\s+|any\s+)?{_END}", 2),
        # sell-off and buy-back of stock when the contract ends
        (r"\b(?:terminat|expir)\w*\b.{0,250}?\b(?:sell|sale|dispose|purchase|buy|repurchase)\w*\b.{0,100}?\b(?:stocks?|inventor(?:y|ies))\b", 3),
        (r"\b(?:sell|sale|dispose|purchase|buy|repurchase)\w*\b.{0,100}?\b(?:stocks?|inventor(?:y|ies))\b.{0,200}?\b(?:terminat|expir)\w*", 3),
        (r"\b(?:sell|dispose\s+of|distribute)\b.{0,60}?\b(?:remaining|existing)\s+(?:stocks?|inventor(?:y|ies))\b", 3),
        # goods left over, by any name: "may sell or otherwise dispose of the Remaining Merchandise", "use such remaining promotional materials"
        (r"\b(?:sell|dispose\s+of|distribute|use)\b.{0,60}?\bremaining\s+(?:[\w-]+,?\s+(?:or\s+|and\s+)?){0,3}?(?:merchandise|products?|goods|materials?|units)\b", 3),
        (r"\bsell[\s-]?off\b|\bwind[\s-]?down\s+period\b|\bphase[\s-]?out\s+(?:of|period)\b", 3),
        # what the parties settle at the end: "at or about the effective date of termination, the Parties will negotiate in good faith"
        (rf"\b(?:upon|after|following|at|on)\s+(?:or\s+about\s+)?(?:the\s+)?(?:(?:effective\s+)?date\s+of\s+)?(?:such\s+|any\s+)?{_END}.{{0,100}}?\b(?:shall|will)\s+negotiate\s+in\s+good\s+faith", 3),
        # work under way at the end is still finished: "should the Agreement expire, all remaining Work of each order will be completed"
        (r"\b(?:terminat|expir)\w*\b.{0,150}?\b(?:work|orders?|projects?|statements?\s+of\s+work)\b.{0,60}?\b(?:shall|will)\s+(?:continue\s+to\s+)?be\s+(?:completed|performed|fulfilled|filled)\b", 3),
        (rf"\b(?:retain\w*|maintain\w*|preserve[sd]?|keep|kept)\b.{{0,150}}?\b(?:after|following)\s+(?:the\s+)?{_END}", 3),
        (r"\b(?:return|destroy)\w*\b.{0,80}?\bconfidential", -2),
        (r"\b(?:co-?operat\w*|assist\w*)\b.{0,100}?\b(?:transfer|transition|migrat\w*)\b|\borderly\s+(?:and\s+\w+\s+)?(?:transfer|transition|wind)", 3),
        # a confidentiality term that outlasts the contract repeats the end-of-term wordings above (up to 9): outweigh them
        (r"\b(?:confidential\w*|non-?use|disclos\w*|proprietary\s+information|(?:business|trade)\s+secrets?)\b", -8),
        (r"\bor\s+destroy|\bdestroy\w*\s+or\b", -2),
        (r"\b(?:shall\s+not|neither\s+party\s+shall)\s+be\s+liable\b", -3),
        # no-hire and non-solicitation covenants that outlast the contract
        (r"\bsolicit\w*|\bhire\b|\bemployees\b|\bentice\b|\binterfere\w*|\bcircumvent\w*", -2),
        # a covenant not to do something after the end (not to compete, acquire, use data) is a restriction, not a service
        (r"\b(?:shall|will)\s+not\s+(?!be\s+(?:required|obligated|relieved|liable|affected)\b)|\bprohibited\s+from\b", -2),
        # what stops at the end is no service that goes on after it: "the licence shall immediately cease"
        (r"\b(?:immediately|forthwith)\s+(?:cease|terminate|stop|discontinue)", -3),
        # a transition after the closing of an acquisition, not after the end of the contract
        (r"\bclosing\s+date\b|\b(?:after|following)\s+(?:the\s+)?(?:\w+\s+)?closing\b", -2),
        # an early-termination fee is a charge for ending, not an obligation after it
        (r"\b(?:early\s+)?termination\s+(?:charges?|fees?)\b", -2),
        # settling what was earned before the end is no post-termination obligation
        (r"\b(?:up\s+to(?:\s+and\s+including)?|prior\s+to|before)\s+(?:the\s+)?(?:effective\s+)?(?:date\s+of\s+(?:such\s+)?)?(?:termination|expiration|expiry)\b|\b(?:rendered|performed|incurred|accrued)\s+(?:\w+\s+){0,3}?(?:prior\s+to|before|up\s+to|through)\b|\b(?:then|already)\s+(?:due|owing|accrued)\b", -2),
        # a survival clause keeps terms alive; it promises no service ("Sections 5 and 7 shall survive")
        (rf"\b(?:(?:sections?|articles?|clauses?|paragraphs?)\s+\(?[\dIVX]|(?:this|these|such)\s+(?:sections?|articles?|clauses?|paragraphs?)\b)[\s\S]{{0,150}}?{_SURVIVES}|\b(?:rights\s+(?:and|or)\s+(?:obligations|remedies)|indemnif\w+\s+provisions)\b.{{0,100}}?{_SURVIVES}", -3),
        # a table of contents entry ("10.1 Transition Assistance ........ 42") names the clause without stating it
        (r"\.{5,}|(?:\.\s){5,}", -5),
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
        (r"\bwarranty\s+(?:period|term)\b", 3),
        # securities warrants, not product warranties
        (r"\bwrit\b|\bwarrants?\s+(?:or|of)\s+attachment|\bwarrants?\s+to\s+(?:purchase|acquire)\b", -3),
        (r"(?-i:\bWarrants?\b)(?!\s+(?:that|to)\b)|\bexercis(?:able|e\s+price)\b|\bcommon\s+stock\b|\bwarrants\b.{0,40}?\bexercis", -3),
        (rf"\bwarrant\w*\b.{{0,300}}?(?:{_WARRANTY_FOR})|{_WARRANTY_DUR}.{{0,200}}?\bwarrant", 3),
        (rf"\bdefect\w*\b.{{0,120}}?(?:{_WARRANTY_FOR})", 3),
        # the buyer's period to reject defective or non-conforming goods, which CUAD counts as well;
        # it reaches the threshold only with the goods (1) and their arrival (0.5) named beside it
        (rf"\b{_NONCONFORMING}\b.{{0,250}}?{_REJECT_WINDOW}|{_REJECT_WINDOW}.{{0,330}}?\b{_NONCONFORMING}", 1.5),
        (r"\b(?:products?|goods|shipments?|batch(?:es)?|samples?|materials?|equipment|units|lots?|deliver(?:y|ies|ed))\b", 1),
        (r"\b(?:receipt|delivery|arrival|discover\w*|shipment|made\s+available)\b", 0.5),
        (r"\b(?:(?:dis)?approve|accept|confirm)\s+or\s+reject|\breject\w*\s+(?:any\s+|each\s+|the\s+|such\s+)?(?:purchase\s+)?orders?\b|\bpurchase\s+orders?\b|\b(?:promotional|advertising|marketing)\b", -2),
        (r"\binspection\s+period\b", 3),
        # goods delivered with a guaranteed remaining shelf life: "a remaining shelf life of at least twelve (12) months"
        (rf"\bshelf[\s-]life\b.{{0,60}}?\b(?:at\s+least|not\s+less\s+than|no\s+less\s+than|(?:a\s+)?minimum\s+(?:of\s+)?)\s*(?:{_DUR}|\d+\s*%)", 3),
        # the general representations and warranties of the parties, their survival and the
        # cure period of their breach, are no warranty against defects
        (r"\brepresentations?\s*(?:,\s*|\s+(?:and|or|and/or)\s+)(?:\w+\s+)?warrant(?:y|ies)\b", -2),
        # promises for the life of the contract ("warrants ... during the Term", "warrants to pay")
        (r"\b(?:during|throughout)\s+the\s+term\b|\bwarrants?\s+to\s+(?:pay|make|provide|keep|maintain|comply|perform|use)\b", -2),
        (r"\b(?:after|following)\s+(?:the\s+)?(?:expiration\s+or\s+)?(?:termination|expiration|expiry)\b|\bforce\s+majeure\b|\binsurance\b", -2),
    ]),
}
