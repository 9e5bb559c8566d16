"""The instruction screen's vocabulary: a closed set of concepts, each written in many languages.

An order to a model about a review is made of a few ideas whatever the language: drop the rules
("ignore" + "instructions"), give a verdict ("mark" + "standard"), keep something out of the
output ("do not" + "report"), skip a step ("skip" + "check"), speak to the reader ("if you are
an AI", "your report"), or claim the review already happened ("pre-cleared", "no deviations
found"). Each concept below is the translation of one of those ideas into English, French,
German, Spanish, Italian, Portuguese, Dutch, Polish, Russian, Ukrainian, Turkish, Chinese,
Japanese, Korean, Arabic, Hindi, Swedish, Danish/Norwegian, Czech, Romanian, Indonesian/Malay,
Vietnamese, Greek, Hebrew, Hungarian and Finnish; `memory.screen` says which combinations of
concepts make an order. No single word is a sign on its own: a contract is full of "shall",
"standard" and "review".

Terms are regular-expression fragments over text read NFKC-normalised and matched without
regard to case. A term in a script written without spaces (Chinese, Japanese, Korean, Thai) or
with combining vowel signs (Devanagari, Arabic) is matched anywhere; any other term must start a
word and, unless it ends with a `\\w*` or `\\w+` of its own, end one. English terms are kept apart
(`en`) because English, the language of the contracts, gets the stricter reading (an order is
an imperative or is addressed to the reader; a party's obligation is not).
"""

from __future__ import annotations

# concept -> {"en": [...], "xx": [...]}  (xx: every other language, one line per language)
CONCEPTS: dict[str, dict[str, list[str]]] = {
    # drop the rules: ignore / disregard / forget / override
    "OVERRIDE": {
        "en": [r"ignor(?:e|es|ed|ing)", r"disregard\w*", r"forget\w*", r"overrid\w*", r"bypass\w*",
               r"set aside", r"pay no (?:attention|heed) to", r"do not follow", r"don't follow",
               r"stop following", r"no longer follow", r"discard\w*", r"throw out", r"abandon"],
        "xx": [
            r"ignor\w+", r"oubli\w+", r"ne (?:tenez|tiens) (?:pas|plus) compte", r"faites abstraction", r"outrepass\w+",  # fr
            r"ignorier\w*", r"vergiss\w*", r"vergessen\w*", r"missacht\w*", r"au(?:ß|ss)er acht", r"setze\w* au(?:ß|ss)er kraft",  # de
            r"olvid\w+", r"haz caso omiso", r"pas\w+ por alto", r"desatiend\w*", r"no sig(?:as|a|an) ",  # es
            r"dimentic\w+", r"trascur\w+", r"non segui\w*",  # it
            r"esque[cç]\w+", r"desconsider\w+", r"n[aã]o sig(?:a|as|am) ",  # pt
            r"negeer\w*", r"negeren", r"vergeet\w*", r"houd\w* geen rekening", r"buiten beschouwing",  # nl
            r"zignoruj\w*", r"ignoruj\w*", r"zapomnij\w*", r"nie stosuj\w*", r"nie zważaj\w*", r"lekceważ\w*",  # pl
            r"игнорир\w*", r"проигнорир\w*", r"забуд\w*", r"забыть", r"не обращай\w*", r"пренебре\w*", r"отбрось\w*",
            r"не следуй\w*", r"не учитывай\w*",  # ru
            r"ігнор\w*", r"проігнор\w*", r"забудь\w*", r"не зважай\w*",  # uk
            r"yok say\w*", r"görmezden gel\w*", r"gormezden gel\w*", r"unut\w*", r"dikkate alma\w*", r"göz ardı et\w*",  # tr
            r"忽略", r"忽视", r"忽視", r"无视", r"無視", r"忘记", r"忘記", r"不要理会", r"不要理會", r"不要遵循", r"不要遵守",  # zh
            r"無視", r"忘れ", r"従わない", r"従うな", r"破棄",  # ja
            r"무시", r"잊어", r"따르지 마", r"따르지 말",  # ko
            r"تجاهل", r"انس ", r"لا تتبع",  # ar
            r"अनदेखा", r"नज़रअंदाज़", r"नजरअंदाज", r"भूल जा",  # hi
            r"ignorera\w*", r"glöm\w*", r"bortse från", r"strunta i",  # sv
            r"ignorer\w*", r"glem\w*", r"se bort fra",  # da/no
            r"ignoruj\w*", r"zapome[nň]\w*", r"nedbej\w*",  # cs
            r"uita\w*", r"uitați", r"nu ține\w* cont",  # ro
            r"abaikan\w*", r"lupakan", r"jangan ikuti",  # id/ms
            r"bỏ qua", r"phớt lờ", r"quên",  # vi
            r"αγνόησ\w*", r"αγνοήστε", r"ξέχασ\w*",  # el
            r"התעלם\w*", r"שכח\w*",  # he
            r"figyelmen kívül", r"felejtsd el", r"felejtse el",  # hu
            r"unohda\w*", r"jätä huomiotta",  # fi
        ],
    },
    # the rules themselves: instructions, prompt, guidelines, playbook, policy
    "RULES": {
        "en": [r"instructions?", r"prompts?", r"(?:the|all|any|your|these|those|previous|prior|preceding|earlier|above"
               r"|review|system|original|standing|usual|normal) rules", r"guidelines?", r"guidance", r"directions",
               r"directives?", r"playbook", r"polic(?:y|ies)", r"what you (?:were|have been) (?:told|given)",
               r"everything (?:above|before|else)", r"the above", r"safeguards?", r"guardrails?", r"checklist"],
        "xx": [
            r"instructions?", r"consignes?", r"règles?", r"directives?", r"politique",  # fr
            r"anweisung\w*", r"regeln?", r"richtlinie\w*", r"vorgaben?", r"befehle?",  # de
            r"instrucci\w+", r"reglas?", r"directrices?", r"indicaciones", r"pautas", r"normas",  # es
            r"istruzion\w+", r"regole", r"direttive", r"linee guida", r"indicazioni",  # it
            r"instru[cç]\w+", r"regras?", r"diretrizes", r"orienta[cç]\w+",  # pt
            r"instructies?", r"regels?", r"richtlijn\w*", r"aanwijzingen", r"opdrachten",  # nl
            r"instrukcj\w*", r"polece[nń]\w*", r"reguł\w*", r"zasad\w*", r"wytyczn\w*",  # pl
            r"инструкци\w*", r"указани\w*", r"правил\w*", r"директив\w*", r"промпт\w*", r"установк\w*",  # ru
            r"інструкці\w*", r"вказівк\w*", r"правил\w*",  # uk
            r"talimat\w*", r"yönerge\w*", r"kural\w*", r"komut\w*", r"direktif\w*",  # tr
            r"指令", r"指示", r"规则", r"規則", r"提示词", r"提示詞", r"系统提示", r"系統提示", r"准则", r"準則",  # zh
            r"命令", r"ルール", r"プロンプト", r"指令",  # ja
            r"지시", r"지침", r"규칙", r"명령", r"프롬프트",  # ko
            r"التعليمات", r"تعليمات", r"القواعد", r"الأوامر",  # ar
            r"निर्देश", r"नियम",  # hi
            r"instruktion\w*", r"regler\w*", r"riktlinjer",  # sv
            r"instruks\w*", r"retningslinjer",  # da/no
            r"instrukc\w*", r"pokyn\w*", r"pravidl\w*",  # cs
            r"instrucțiuni\w*", r"instructiuni\w*", r"reguli\w*",  # ro
            r"instruksi", r"aturan", r"petunjuk", r"perintah",  # id/ms
            r"hướng dẫn", r"chỉ dẫn", r"quy tắc", r"chỉ thị",  # vi
            r"οδηγί\w*", r"κανόν\w*",  # el
            r"הוראות", r"כללים", r"הנחיות",  # he
            r"utasítás\w*", r"szabály\w*",  # hu
            r"ohje\w*", r"sään\w*",  # fi
        ],
    },
    # give a verdict: mark / rate / classify / treat / label / consider ... (as)
    "VERDICT_VERB": {
        "en": [r"(?:mark|rate|classify|categori[sz]e|characteri[sz]e|treat|consider|regard|label|score|grade"
               r"|assess|evaluate|record|report|flag|designate|summari[sz]e|accept|approve|sign off|log)(?:ed|d)?",
               r"(?:note|list|present|describe|view|count|file|tag|call|enter|write (?:up|down)|show|put)"
               r"(?= (?:[\w'’-]+ ){0,5}?as )"],
        "xx": [
            r"marqu\w*", r"notez", r"noter", r"class(?:ez|er|e|ifiez|ifier)\b", r"trait(?:ez|er|e)\b", r"consid[eé]r\w*",
            r"[eé]valu\w*", r"qualifi\w*", r"[eé]tiquet\w*", r"enregistr\w*", r"approuv\w*", r"valid(?:ez|er)\b",  # fr
            r"markier\w*", r"bewert\w*", r"einstuf\w*", r"stufe\w*", r"behandl\w*", r"betracht\w*", r"kennzeichn\w*",
            r"klassifizier\w*", r"werte\w*", r"einordn\w*", r"ordne\w*", r"vermerk\w*", r"beurteil\w*", r"genehmig\w*",  # de
            r"marc(?:a|ar|ad|ala|alo|ue|uen)\b", r"clasific\w+", r"trat(?:a|ar|e|en|ad)\b", r"consider\w+", r"calific\w+",
            r"evalú\w*", r"evalu\w+", r"etiquet\w+", r"aprueb\w*", r"aprob\w+",  # es
            r"segn(?:a|are|ate|alo)\b", r"contrassegn\w+", r"classific\w+", r"tratt(?:a|are|ate)\b", r"valut\w+",
            r"etichett\w+", r"approv\w+",  # it
            r"marqu\w+", r"marc(?:a|ar|ue|ar)\b", r"trat(?:e|ar)\b", r"avali\w+", r"rotul\w+", r"aprov\w+",  # pt
            r"markeer\w*", r"markeren", r"beoordeel\w*", r"beoordelen", r"behandel\w*", r"classificeer\w*",
            r"beschouw\w*", r"aanmerk\w*", r"merk\w* \w+ aan", r"waardeer\w*", r"keur\w* \w+ goed", r"goedkeur\w*",  # nl
            r"oznacz\w*", r"oce[nń]\w*", r"traktuj\w*", r"klasyfikuj\w*", r"sklasyfikuj\w*", r"uznaj\w*", r"uznać",
            r"zakwalifikuj\w*", r"kwalifikuj\w*", r"odnotuj\w*", r"zatwierd\w*",  # pl
            r"отмет\w*", r"помет\w*", r"помеч\w*", r"оцен\w*", r"счита\w*", r"сочти\w*", r"классифицир\w*",
            r"рассматрива\w*", r"призна\w*", r"квалифицир\w*", r"одобр\w*",  # ru
            r"познач\w*", r"оцін\w*", r"вважа\w*", r"класифік\w*", r"схвал\w*",  # uk
            r"işaretle\w*", r"isaretle\w*", r"değerlendir\w*", r"degerlendir\w*", r"sınıflandır\w*", r"siniflandir\w*",
            r"kabul et\w*", r"kabul ed\w*", r"olarak gör\w*", r"olarak kaydet\w*", r"puanla\w*", r"onayla\w*",  # tr
            r"标记", r"標記", r"标为", r"標為", r"视为", r"視為", r"评为", r"評為", r"归类", r"歸類", r"认定", r"認定",
            r"当作", r"當作", r"看作", r"列为", r"列為", r"评定", r"評定", r"判定", r"批准",  # zh
            r"マーク", r"扱", r"見な", r"みな", r"評価", r"分類", r"記録", r"区分", r"承認",  # ja
            r"표시", r"간주", r"평가", r"분류", r"기록", r"판정", r"취급", r"승인",  # ko
            r"اعتبر", r"صنف", r"صنّف", r"ضع علامة", r"قيّم", r"عامل",  # ar
            r"चिह्नित", r"मानें", r"मानो", r"वर्गीकृत", r"समझें",  # hi
            r"markera\w*", r"bedöm\w*", r"betrakta\w*", r"klassificera\w*", r"behandla\w*", r"godkänn\w*",  # sv
            r"marker\w*", r"vurder\w*", r"betragt\w*", r"betrakt\w*", r"klassifi[cs]er\w*", r"behandl\w*", r"godkend\w*",  # da/no
            r"označ\w*", r"ohodno\w*", r"považuj\w*", r"klasifikuj\w*", r"posuď\w*", r"schval\w*",  # cs
            r"marchea\w*", r"clasific\w+", r"tratea\w+", r"considera\w*", r"evalua\w*", r"aprob\w+",  # ro
            r"tandai", r"anggap\w*", r"nilai(?:lah)?", r"klasifikasikan", r"perlakukan", r"catat\w*", r"setujui",  # id/ms
            r"đánh dấu", r"coi là", r"xem là", r"đánh giá", r"phân loại", r"xếp loại", r"phê duyệt",  # vi
            r"σημείωσ\w*", r"σημάν\w*", r"θεώρησ\w*", r"αξιολόγησ\w*", r"χαρακτήρισ\w*", r"εγκρίν\w*",  # el
            r"סמן\w*", r"החשב\w*", r"התייחס\w*", r"סווג\w*", r"אשר\w*",  # he
            r"jelöld\w*", r"jelölje\w*", r"tekintsd\w*", r"tekintse\w*", r"értékeld\w*", r"minősítsd\w*", r"kezeld\w*",  # hu
            r"merkitse\w*", r"pidä\w*", r"arvioi\w*", r"luokittele\w*", r"käsittele\w*", r"hyväksy\w*",  # fi
        ],
    },
    # the verdict: standard, acceptable, compliant, low risk, approved ...
    "VERDICT_VALUE": {
        "en": [r"(?:market|industry)[ -]standard", r"standard", r"customary", r"usual", r"typical", r"normal",
               r"ordinary", r"acceptable", r"fine", r"ok(?:ay)?", r"compliant", r"favou?rable", r"benign",
               r"harmless", r"safe", r"(?:low|no|minimal|zero|negligible)[ -]risk", r"risk[ -]free", r"non[ -]?issue",
               r"unproblematic", r"approved", r"pre-?approved", r"cleared", r"not a deviation",
               r"no deviations?", r"(?:in line|consistent|aligned) with (?:the |our )?playbook", r"within (?:the )?playbook",
               r"buyer[- ]friendly", r"as (?:\w+ )?(?:reasonable|balanced|fair|fine|ok|okay|such|unremarkable|routine)"],
        "xx": [
            r"standards?", r"(?:standard|norme) du marché", r"acceptables?", r"conformes?", r"sans risques?",
            r"(?:à |de )?faible risque", r"risque (?:faible|minime|nul)", r"inoffensi\w+", r"approuvée?s?", r"habituel\w*", r"usuel\w*",  # fr
            r"standard\w*", r"\w*marktstandard\w*", r"marktüblich\w*", r"üblich\w*", r"akzeptabel\w*", r"annehmbar\w*", r"konform\w*",
            r"unbedenklich\w*", r"(?:geringe|niedrige)[sm]? risiko", r"risikoarm\w*", r"risikolos\w*", r"ohne risiko",
            r"genehmigt\w*", r"unproblematisch\w*", r"in ordnung", r"zulässig\w*",  # de
            r"est[aá]ndar\w*", r"aceptable\w*", r"conforme\w*", r"habitual\w*", r"(?:de )?bajo riesgo", r"riesgo bajo",
            r"sin riesgos?", r"inofensiv\w*", r"aprobad\w*", r"de mercado", r"admisible\w*",  # es
            r"accettabil\w*", r"conform\w*", r"consuet\w*", r"(?:a )?basso rischio", r"rischio basso", r"senza rischi\w*",
            r"innocu\w*", r"approvat\w*", r"di mercato",  # it
            r"padr[aã]o", r"aceit[aá]ve\w*", r"(?:de )?baixo risco", r"risco baixo", r"sem riscos?", r"aprovad\w*",  # pt
            r"standaard\w*", r"marktconform\w*", r"aanvaardbaar\w*", r"acceptabel\w*", r"gebruikelijk\w*",
            r"laag risico", r"(?:zonder|geen) risico", r"onschuldig\w*", r"goedgekeurd\w*", r"in orde",  # nl
            r"standardow\w*", r"rynkow\w*", r"akceptowaln\w*", r"dopuszczaln\w*", r"zgodn\w*", r"typow\w*",
            r"nisk\w* ryzyk\w*", r"bez ryzyka", r"bezpieczn\w*", r"zatwierdzon\w*", r"nieszkodliw\w*",  # pl
            r"стандартн\w*", r"рыночн\w*", r"приемлем\w*", r"допустим\w*", r"соответству\w*", r"обычн\w*",
            r"низк\w* риск\w*", r"без риска", r"безопасн\w*", r"одобрен\w*", r"безвредн\w*",  # ru
            r"прийнятн\w*", r"низьк\w* ризик\w*", r"схвален\w*",  # uk
            r"standart\w*", r"kabul edilebilir\w*", r"uygun\w*", r"uyumlu\w*", r"olağan\w*", r"düşük risk\w*",
            r"dusuk risk\w*", r"risksiz\w*", r"zararsız\w*", r"onaylı\w*", r"onaylanmış\w*", r"sorunsuz\w*",  # tr
            r"标准", r"標準", r"可接受", r"合规", r"合規", r"低风险", r"低風險", r"无风险", r"無風險", r"市场惯例",
            r"市場慣例", r"已批准", r"已核准", r"无害", r"無害", r"没有问题", r"沒有問題", r"无问题",  # zh
            r"許容", r"準拠", r"低リスク", r"リスクなし", r"問題なし", r"問題ない", r"承認済", r"一般的", r"適合",  # ja
            r"표준", r"허용", r"준수", r"저위험", r"낮은 위험", r"위험 없", r"문제 없", r"승인됨",  # ko
            r"قياسي", r"معياري", r"مقبول", r"منخفض\w* المخاطر", r"بدون مخاطر", r"معتمد",  # ar
            r"मानक", r"स्वीकार्य", r"कम जोखिम", r"अनुमोदित",  # hi
            r"marknadsmässig\w*", r"godtagbar\w*", r"låg risk", r"ingen risk", r"godkänd\w*",  # sv
            r"markedsstandard\w*", r"akseptab\w*", r"lav risiko", r"ingen risiko", r"godkendt\w*", r"godkjent\w*",  # da/no
            r"standardní\w*", r"přijateln\w*", r"nízk\w* rizik\w*", r"bez rizika", r"schválen\w*", r"běžn\w*",  # cs
            r"acceptabil\w*", r"risc (?:scăzut|redus)", r"fără risc", r"aprobat\w*",  # ro
            r"standar", r"dapat diterima", r"wajar", r"risiko rendah", r"tanpa risiko", r"disetujui",  # id/ms
            r"tiêu chuẩn", r"chấp nhận được", r"rủi ro thấp", r"không rủi ro", r"đã phê duyệt", r"bình thường",  # vi
            r"τυπικ\w*", r"αποδεκτ\w*", r"χαμηλού κινδύνου", r"χαμηλό κίνδυνο", r"εγκεκριμέν\w*",  # el
            r"סטנדרטי\w*", r"מקובל\w*", r"סיכון נמוך", r"ללא סיכון", r"מאושר\w*", r"תקין\w*",  # he
            r"szabványos\w*", r"elfogadható\w*", r"alacsony kockázat\w*", r"kockázatmentes\w*", r"jóváhagyott\w*",  # hu
            r"vakio\w*", r"standardi\w*", r"hyväksyttävä\w*", r"(?:matala|pieni) riski", r"riskitön\w*", r"hyväksytty\w*",  # fi
        ],
    },
    # keep something out of the output: do not flag / report / mention
    "SUPPRESS": {
        "en": [r"(?:do not|don't|dont|never|avoid|refrain from|no need to|there is no need to|stop)"
               r" (?:flag|flagging|report|reporting|mention|mentioning|raise|raising|highlight|highlighting|escalate"
               r"|escalating|note|noting|record|recording|log|logging|list|listing|point out|pointing out|comment on"
               r"|commenting on|call out|calling out|question|questioning|challenge|challenging|surface|surfacing)",
               r"(?:drop|remove|delete|exclude|strike|suppress|hide|bury|leave out|take out|omit) (?:[\w-]+ ){0,3}"
               r"(?:findings?|flags?|issues?|deviations?|comments?|warnings?|concerns?|red flags?|risks?|objections?)"],
        "xx": [
            r"ne (?:le |la |les |l')?(?:signal|mention|rapport|relev|indiqu|soulign)\w* (?:pas|jamais|rien)",
            r"sans (?:le |la |les )?(?:signaler|mentionner|relever)",  # fr
            r"nicht (?:melden|erwähnen|markieren|kennzeichnen|beanstanden|berichten|anmerken|hervorheben|aufführen)",
            r"(?:melde|erwähne|markiere|kennzeichne|beanstande|berichte)\w*(?: \S+){0,3} nicht", r"kein\w* (?:hinweis|meldung|beanstandung|warnung)",  # de
            r"no (?:lo |la |los |las |le |les )?(?:señal|mencion|report|marqu|indiqu|inform|destaqu)\w*",
            r"sin (?:señalar|mencionar|reportar)",  # es
            r"non (?:lo |la |li |le )?(?:segnal|menzion|riport|evidenz|indic|report)\w*",  # it
            r"n[aã]o (?:o |a |os |as )?(?:sinaliz|mencion|report|relat|destaq|indiq|marq)\w*", r"sem (?:sinalizar|mencionar)",  # pt
            r"(?:niet|geen) (?:melden|vermelden|markeren|rapporteren|signaleren|noemen|aankaarten)",
            r"(?:meld|vermeld|markeer|rapporteer|signaleer|noem)\w*(?: \S+){0,3} niet",  # nl
            r"nie (?:zgłaszaj|zaznaczaj|oznaczaj|wspominaj|raportuj|sygnalizuj|podnoś|zgłaszać|wymieniaj|odnotowuj)\w*",  # pl
            r"не (?:отмечай|помечай|сообщай|упоминай|указывай|докладывай|сигнализируй|выделяй|отражай|фиксируй)\w*",  # ru
            r"не (?:позначай|повідомляй|згадуй|вказуй)\w*",  # uk
            r"(?:işaretle|isaretle|bildir|raporla|belirt|bahset|söyle)me\w*",  # tr
            r"不要(?:标记|標記|报告|報告|提及|提到|指出|标注|標註|上报|上報|列出|记录|記錄)", r"勿(?:标记|報告|报告|提及)",
            r"无需(?:标记|报告)", r"無需(?:標記|報告)", r"不必(?:标记|报告|標記|報告)",  # zh
            r"(?:報告|指摘|記載|言及|マーク|フラグ)(?:しないで|しない|するな|は不要|不要)",  # ja
            r"(?:표시|보고|언급|지적|기록)(?:하지 ?마|하지 ?말)",  # ko
            r"لا (?:تذكر|تبلغ|تشر|تضع علامة)",  # ar
            r"(?:रिपोर्ट|उल्लेख|चिह्नित) (?:न|मत) कर",  # hi
            r"(?:rapportera|flagga|nämn|markera)\w* inte", r"inte (?:rapportera|flagga|nämna|markera)",  # sv
            r"(?:rapporter|flag|nævn|nevn|marker)\w* ikke", r"ikke (?:rapporter|flag|nævn|nevn|marker)\w*",  # da/no
            r"neoznačuj\w*", r"nehlas\w*", r"nezmiňuj\w*", r"neuváděj\w*",  # cs
            r"nu (?:semnala|raporta|menționa|mentiona|marca)\w*",  # ro
            r"jangan (?:tandai|laporkan|sebutkan|menandai|melaporkan)",  # id/ms
            r"(?:không|đừng) (?:báo cáo|đánh dấu|đề cập|nêu)",  # vi
            r"μην (?:αναφέρ|σημειών|επισημαίν)\w*",  # el
            r"אל (?:תדווח|תסמן|תזכיר)\w*",  # he
            r"ne (?:jelezd|jelentsd|említsd|jelöld|jelezze|jelentse|említse|jelölje)",  # hu
            r"älä (?:ilmoita|merkitse|mainitse)",  # fi
        ],
    },
    # skip a step: skip / bypass / omit / disable
    "SKIP": {
        "en": [r"skip\w*", r"bypass\w*", r"omit\w*", r"disabl\w*", r"turn(?:ing)? off", r"switch(?:ing)? off",
               r"circumvent\w*", r"leave out", r"jump over"],
        "xx": [
            r"saut\w*", r"omet\w*", r"omett\w*", r"désactiv\w*", r"contourn\w*", r"passez",  # fr
            r"überspring\w*", r"auslass\w*", r"lass\w* \w+ weg", r"deaktivier\w*", r"umgeh\w*",  # de
            r"salt(?:a|ar|e|ate|are)\b", r"omit\w*", r"omít\w*", r"desactiv\w*",  # es
            r"ometti\w*", r"disattiv\w*",  # it
            r"pul(?:e|ar|a)\b", r"desativ\w*",  # pt
            r"sla\w* (?:\S+ ){0,6}over", r"overslaan", r"deactiveer\w*", r"omzeil\w*",  # nl
            r"pomi[nń]\w*", r"opuść\w*", r"wyłącz\w*",  # pl
            r"пропуст\w*", r"пропуска\w*", r"обойд\w*", r"отключ\w*",  # ru
            r"атла\w*", r"atla\w*", r"devre dışı bırak\w*",  # tr
            r"跳过", r"跳過", r"略过", r"略過", r"省略", r"绕过", r"繞過",  # zh
            r"スキップ", r"飛ばし", r"回避",  # ja
            r"건너뛰", r"생략",  # ko
            r"تخط", r"تجاوز",  # ar
            r"छोड़ दें", r"छोड़ें", r"छोड़ो",  # hi
            r"hoppa över", r"spring\w* over", r"hopp over",  # sv/da/no
            r"přeskoč\w*", r"vynech\w*",  # cs
            r"sari\w* peste", r"omite\w*", r"ocoli\w*",  # ro
            r"lewati\w*",  # id/ms
            r"παράλειψ\w*", r"παράκαμψ\w*", r"παράλειψε",  # el
            r"דלג\w*",  # he
            r"hagyd ki", r"ugord át", r"ugorja át",  # hu
            r"ohita\w*",  # fi
        ],
    },
    # a step of the review: check, review, analysis, assessment, findings, report
    "REVIEW": {
        "en": [r"checks?", r"review(?:s|ing)?", r"assessments?", r"analys[ie]s", r"evaluations?", r"verifications?",
               r"validations?", r"screening", r"scans?", r"findings?", r"reports?", r"output", r"answer", r"response",
               r"summary", r"verdicts?", r"red flags?", r"risk flags?", r"playbook comparison"],
        "xx": [
            r"vérification\w*", r"contrôle\w*", r"examen\w*", r"analyse\w*", r"évaluation\w*", r"revue\w*", r"rapport\w*",
            r"conclusions?",  # fr
            r"\w*prüfung\w*", r"\w*kontrolle\w*", r"\w*bewertung\w*", r"\w*begutachtung\w*", r"\w*bericht\w*",
            r"befund\w*", r"ergebnis\w*",  # de
            r"revisi[oó]n\w*", r"verificaci[oó]n\w*", r"control\w*", r"an[aá]lisis", r"evaluaci[oó]n\w*", r"informe\w*",
            r"hallazgos?",  # es
            r"controll\w*", r"verific\w*", r"revision\w*", r"analisi", r"valutazion\w*", r"rapporto", r"relazione",  # it
            r"verifica[cç]\w*", r"revis[aã]o\w*", r"controle\w*", r"an[aá]lise\w*", r"avalia[cç]\w*", r"relat[oó]rio\w*",  # pt
            r"\w*controle\w*", r"\w*beoordeling\w*", r"\w*toets\w*", r"bevinding\w*", r"\w*verslag\w*",  # nl
            r"sprawdz\w*", r"kontrol\w*", r"weryfikacj\w*", r"przegląd\w*", r"analiz\w*", r"raport\w*", r"ustaleni\w*",  # pl
            r"проверк\w*", r"анализ\w*", r"оценк\w*", r"отч[её]т\w*", r"заключени\w*", r"вывод\w*",  # ru
            r"перевірк\w*", r"аналіз\w*", r"звіт\w*",  # uk
            r"kontrol\w*", r"inceleme\w*", r"denetim\w*", r"analiz\w*", r"değerlendirme\w*", r"rapor\w*", r"bulgu\w*",  # tr
            r"检查", r"檢查", r"审查", r"審查", r"审核", r"審核", r"分析", r"评估", r"評估", r"报告", r"報告", r"核查",  # zh
            r"チェック", r"審査", r"確認", r"評価", r"レビュー", r"検査", r"検証",  # ja
            r"검토", r"검사", r"확인", r"분석", r"평가", r"보고서", r"심사",  # ko
            r"الفحص", r"المراجعة", r"التحقق", r"التحليل", r"التقييم", r"التقرير",  # ar
            r"जांच", r"जाँच", r"समीक्षा", r"विश्लेषण", r"रिपोर्ट",  # hi
            r"\w*kontroll\w*", r"\w*granskning\w*", r"analys\w*", r"\w*bedömning\w*",  # sv
            r"gennemgang\w*", r"gjennomgang\w*", r"vurdering\w*",  # da/no
            r"přezkum\w*", r"analýz\w*", r"hodnocení", r"zpráv\w*",  # cs
            r"verificar\w*", r"evaluar\w*",  # ro
            r"pemeriksaan", r"tinjauan", r"analisis", r"penilaian", r"laporan",  # id/ms
            r"kiểm tra", r"phân tích", r"báo cáo", r"rà soát",  # vi
            r"έλεγχ\w*", r"ανάλυσ\w*", r"αναφορ\w*",  # el
            r"בדיק\w*", r"סקיר\w*", r"ניתוח", r"דוח",  # he
            r"\w*ellenőrzés\w*", r"\w*vizsgálat\w*", r"elemzés\w*", r"jelentés\w*",  # hu
            r"\w*tarkist\w*", r"\w*tarkast\w*", r"analyysi\w*", r"raportti\w*",  # fi
        ],
    },
    # the reader as a machine: AI, language model, assistant, chatbot
    "AI": {
        "en": [r"a\.i\.", r"artificial intelligence", r"(?:large )?language models?", r"llms?", r"gpt[\w.-]*",
               r"chatgpt", r"claude", r"gemini", r"copilot", r"chat ?bots?", r"(?:ai|virtual|digital) (?:assistant|agent|model|reviewer|reader|system|tool)s?",
               r"(?:automated|automatic|machine|ai-powered|algorithmic) (?:\w+ )?(?:review(?:er|ing)?s?|tools?"
               r"|systems?|agents?|assistants?|readers?|models?|parsers?|bots?|analy[sz]ers?|processors?)",
               r"neural networks?"],
        "xx": [
            r"intelligence artificielle", r"modèle de langage", r"agent conversationnel",  # fr
            r"künstliche intelligenz", r"sprachmodell\w*", r"assistent\w*",  # de
            r"inteligencia artificial", r"modelo de lenguaje", r"asistente\w*",  # es
            r"intelligenza artificiale", r"modello linguistico", r"assistente",  # it
            r"inteligência artificial", r"modelo de linguagem",  # pt
            r"kunstmatige intelligentie", r"taalmodel\w*",  # nl
            r"sztuczn\w* inteligencj\w*", r"model\w* językow\w*", r"asystent\w*",  # pl
            r"искусственн\w* интеллект\w*", r"языков\w* модел\w*", r"ассистент\w*", r"нейросет\w*", r"чат-?бот\w*",  # ru
            r"штучн\w* інтелект\w*", r"мовн\w* модел\w*", r"асистент\w*",  # uk
            r"yapay zek[aâ]\w*", r"dil model\w*", r"asistan\w*",  # tr
            r"人工智能", r"人工智慧", r"语言模型", r"語言模型", r"大模型", r"助手", r"机器人", r"機器人",  # zh
            r"人工知能", r"言語モデル", r"アシスタント",  # ja
            r"인공지능", r"언어 ?모델", r"어시스턴트", r"챗봇",  # ko
            r"الذكاء الاصطناعي", r"ذكاء اصطناعي", r"نموذج لغوي", r"المساعد",  # ar
            r"कृत्रिम बुद्धिमत्ता", r"एआई", r"भाषा मॉडल",  # hi
            r"språkmodell\w*", r"sprogmodel\w*", r"kunstig intelligens",  # sv/da/no
            r"uměl\w* inteligenc\w*", r"jazykov\w* model\w*",  # cs
            r"inteligență artificială", r"inteligenta artificiala",  # ro
            r"kecerdasan buatan", r"model bahasa", r"asisten",  # id/ms
            r"trí tuệ nhân tạo", r"mô hình ngôn ngữ", r"trợ lý",  # vi
            r"τεχνητ\w* νοημοσύν\w*", r"γλωσσικ\w* μοντέλ\w*",  # el
            r"בינה מלאכותית", r"מודל שפה",  # he
            r"mesterséges intelligencia", r"nyelvi modell\w*", r"asszisztens\w*",  # hu
            r"tekoäly\w*", r"kielimalli\w*", r"avustaja\w*",  # fi
        ],
    },
    # the reader as a person or a role: reviewer, reader, model, system, agent
    "READER": {
        "en": [r"review(?:er|ing agent|ing model|ing tool|ing system)s?", r"readers?", r"models?", r"systems?", r"assistants?",
               r"agents?", r"tools?", r"parsers?", r"analysts?", r"whoever (?:reads|reviews|processes|analy[sz]es)",
               r"anyone (?:reading|reviewing|processing)", r"(?:you|the one) reading this"],
        "xx": [
            r"relecteur\w*", r"réviseur\w*", r"examinateur\w*", r"lecteur\w*", r"modèle", r"système",  # fr
            r"prüfer\w*", r"leser\w*", r"gutachter\w*", r"modell", r"system",  # de
            r"revisor\w*", r"lector\w*", r"modelo", r"sistema",  # es/pt
            r"revisore", r"lettore", r"modello",  # it
            r"leitor\w*",  # pt
            r"beoordelaar\w*", r"lezer\w*", r"systeem",  # nl
            r"recenzent\w*", r"czytelnik\w*", r"weryfikator\w*", r"model\w*", r"system\w*",  # pl
            r"рецензент\w*", r"проверяющ\w*", r"читател\w*", r"модел\w*", r"систем\w*",  # ru/uk
            r"inceleyen\w*", r"okuyucu\w*", r"denetçi\w*", r"sistem\w*",  # tr
            r"审核员", r"審核員", r"审查员", r"審查員", r"审阅者", r"審閱者", r"读者", r"讀者", r"评审", r"評審", r"模型", r"系统", r"系統",  # zh
            r"レビュアー", r"審査担当", r"読者", r"モデル", r"システム",  # ja
            r"검토자", r"독자", r"모델", r"시스템",  # ko
            r"المراجع", r"القارئ", r"النموذج", r"النظام",  # ar
            r"समीक्षक", r"पाठक",  # hi
            r"granskare\w*", r"läsare\w*",  # sv
            r"læser\w*", r"leser\w*",  # da/no
            r"čtenář\w*", r"recenzent\w*",  # cs
            r"pembaca", r"peninjau",  # id
            r"người đọc", r"người xem xét",  # vi
            r"αναγνώστ\w*", r"αξιολογητ\w*",  # el
            r"הקורא", r"הבודק",  # he
            r"olvasó\w*", r"ellenőr\w*",  # hu
            r"lukija\w*", r"tarkastaja\w*",  # fi
        ],
    },
    # speaking to the reader: "if you are", "dear", "note to", "attention"
    "ADDRESS": {
        "en": [r"if you(?:'re| are| be| were| happen to be)", r"in case you(?:'re| are)", r"when (?:read|processed|reviewed|parsed) by",
               r"dear", r"hey", r"hello", r"hi", r"attention", r"(?:note|message|memo|reminder|notice|instructions?|directive|tip)"
               r" (?:to|for)", r"to (?:any|all|every)", r"you are (?:now )?(?:an?|the|acting as)"],
        "xx": [
            r"si (?:vous|tu) (?:êtes|es)", r"note (?:à|pour)", r"à l'attention d", r"cher\w*",  # fr
            r"wenn (?:du|sie)", r"falls (?:du|sie)", r"hinweis (?:an|für)", r"liebe[rs]?",  # de
            r"si (?:eres|es usted|usted es)", r"nota (?:para|a)", r"estimad\w*", r"querid\w*",  # es
            r"se (?:sei|è|lei è)", r"nota per", r"gentile", r"car[oa]",  # it
            r"se (?:você|voce|tu) (?:é|e|és|for)", r"nota para", r"prezad\w*",  # pt
            r"als (?:je|jij|u) ", r"notitie voor", r"opmerking voor", r"beste",  # nl
            r"je[sś]li jeste[sś]", r"jeżeli jeste[sś]", r"uwaga dla", r"drogi", r"szanowny",  # pl
            r"если (?:ты|вы)", r"примечание для", r"уважаем\w*", r"дорог\w*",  # ru
            r"якщо (?:ти|ви)", r"примітка для",  # uk
            r"eğer (?:sen|siz)", r"\w*(?:isen|iseniz|ysan|ysanız)", r"sevgili", r"sayın", r"not:",  # tr
            r"如果你是", r"如果您是", r"若你是", r"假如你是", r"致", r"给", r"給",  # zh
            r"あなたが", r"であれば", r"なら", r"へのメモ", r"への指示",  # ja
            r"당신이", r"라면", r"에게",  # ko
            r"إذا كنت", r"عزيزي", r"إلى",  # ar
            r"यदि आप", r"अगर आप", r"प्रिय",  # hi
            r"om du är", r"hvis du er", r"kära", r"kære", r"kjære",  # sv/da/no
            r"pokud jsi", r"jestli jsi", r"pokud jste", r"milý",  # cs
            r"dacă ești", r"daca esti", r"dragă",  # ro
            r"jika anda", r"kalau kamu", r"jika kamu", r"apabila anda",  # id/ms
            r"nếu bạn là", r"gửi",  # vi
            r"αν είσαι", r"εάν είστε", r"αγαπητ\w*",  # el
            r"אם אתה", r"אם את", r"לכבוד",  # he
            r"ha (?:te |ön )?(?:egy )?", r"kedves",  # hu
            r"jos olet", r"hyvä",  # fi
        ],
    },
    # the reader's own output: "your report", "in your findings"
    "YOUR_OUTPUT": {
        "en": [r"(?:in|from|to|of|into) your (?:\w+ )?(?:findings|review|report|analysis|output|answer|summary|response"
               r"|assessment|evaluation|verdict|memory|notes|results)"],
        "xx": [
            r"(?:dans|de|à) (?:votre|ton|ta|vos|tes) (?:rapport|analyse|conclusions|réponse|évaluation|résumé|mémoire)",  # fr
            r"(?:in|aus|im) (?:deinem|deiner|ihrem|ihrer|deinen|ihren) (?:bericht|analyse|bewertung|antwort|zusammenfassung|ergebnis\w*|befund\w*|gedächtnis)",  # de
            r"en (?:tu|su|tus|sus) (?:informe|análisis|respuesta|evaluación|resumen|hallazgos|conclusiones|memoria)",  # es
            r"nel (?:tuo|suo) (?:rapporto|resoconto)", r"nella (?:tua|sua) (?:analisi|risposta|valutazione|memoria)",  # it
            r"(?:no|na|em) (?:seu|sua|teu|tua) (?:relatório|análise|resposta|avaliação|resumo|memória)",  # pt
            r"in (?:je|jouw|uw) (?:rapport|analyse|antwoord|beoordeling|samenvatting|bevindingen|verslag|geheugen)",  # nl
            r"w (?:twoim|twojej|swoim|swojej) (?:raporcie|analizie|odpowiedzi|ocenie|podsumowaniu|ustaleniach|pamięci)",  # pl
            r"в (?:тво[её]м|вашем|сво[её]м|твоей|вашей|своей) (?:отч[её]те|анализе|ответе|оценке|выводах|заключении|памяти)",  # ru
            r"(?:raporunuzda|raporunda|analizinizde|analizinde|değerlendirmenizde|yanıtınızda|cevabınızda|hafızanızda|bulgularınızda)",  # tr
            r"(?:你的|您的)(?:报告|報告|分析|回答|评估|評估|总结|總結|结论|結論|记忆|記憶)",  # zh
            r"あなたの(?:レポート|報告|分析|回答|評価|要約|記憶)",  # ja
            r"(?:당신의|귀하의) ?(?:보고서|분석|답변|평가|요약|기억)",  # ko
            r"في (?:تقريرك|تحليلك|ردك)",  # ar
            r"(?:आपकी|अपनी) (?:रिपोर्ट|समीक्षा)",  # hi
            r"i (?:din|er|sin) (?:rapport|analys|bedömning|sammanfattning)",  # sv/da/no
            r"v (?:tvé|vaší|své) (?:zprávě|analýze)",  # cs
            r"dalam (?:laporan|analisis) (?:anda|kamu)",  # id
            r"trong (?:báo cáo|phân tích) của bạn",  # vi
            r"στην (?:αναφορά|ανάλυσή) σου",  # el
            r"בדוח שלך",  # he
            r"a (?:jelentésedben|jelentésében|elemzésedben)",  # hu
            r"(?:raportissasi|analyysissasi)",  # fi
        ],
    },
    # talk about the prompt itself
    "META": {
        "en": [r"system prompt", r"prompt injection", r"jailbreak\w*", r"developer mode", r"dan mode", r"god mode",
               r"(?:new|updated|real|hidden|secret|true) (?:system )?instructions? ?[:：]",
               r"(?:follow|obey|apply|use) (?:these |the |my |our )?(?:new|updated|real|hidden|secret|true) instructions?",
               r"(?:these|the following|my) instructions? (?:supersede|override|replace|take precedence)",
               r"end of (?:the )?(?:contract|document|context|input)", r"begin(?:ning)? (?:of )?(?:new )?(?:instructions?|prompt)",
               r"as an ai(?: language model)?", r"you are (?:now )?(?:chatgpt|an ai|a language model|in (?:\w+ )?mode)",
               r"(?:respond|reply|answer|output) (?:only )?with (?:the word|only|exactly)", r"approval mode",
               r"your (?:new |real |true )?(?:role|task|job|instructions?|purpose) (?:is|are|now)",
               r"(?:output|print|say|write) (?:only )?[\"“']?(?:approved|standard|compliant|no issues)[\"”']?",
               r"(?:takes?|has|have) (?:priority|precedence) over (?:all |any )?(?:\w+ )?instructions",
               r"(?:tell|inform|assure) the user",
               # writing to the agent's memory
               r"remember (?:\w+ ){0,3}?as (?:a )?facts?", r"(?:store|save|keep|write|commit|add|record|put) (?:\w+ ){0,4}?"
               r"(?:in|into|to) (?:your |the )?(?:long-term |semantic |episodic |procedural |permanent )?memory",
               r"(?:long-term|semantic|episodic|procedural) memory", r"memory block", r"retrieved memory",
               r"(?:save|store|keep|record) (?:\w+ ){0,3}?as (?:a )?(?:validated |approved )?procedure",
               r"confirmed by (?:\w+ )?(?:independent |separate )?(?:runs|reviews)"],
        "xx": [
            r"nouvelles? instructions?", r"prompt système", r"invite système", r"mémorise\w*", r"retiens comme",  # fr
            r"neue anweisung\w*", r"systemprompt", r"system-prompt", r"merke? dir", r"speichere\w* (?:\w+ ){0,3}(?:als|im) (?:fakt|gedächtnis)",  # de
            r"nuevas instrucciones", r"prompt del sistema", r"recuerda (?:como|que)", r"memoriza\w*",  # es
            r"nuove istruzioni", r"prompt di sistema",  # it
            r"novas instruções", r"prompt do sistema",  # pt
            r"nieuwe instructies", r"systeemprompt",  # nl
            r"nowe instrukcje", r"prompt systemowy", r"zapamiętaj\w*",  # pl
            r"новые инструкции", r"новая инструкция", r"системн\w* промпт\w*", r"запомни\w*",  # ru
            r"нові інструкції",  # uk
            r"yeni talimat\w*", r"sistem istemi",  # tr
            r"新的指令", r"新指令", r"新的指示", r"系统提示词", r"系統提示詞", r"越狱", r"越獄", r"记住", r"記住", r"长期记忆", r"長期記憶",  # zh
            r"新しい指示", r"システムプロンプト", r"脱獄", r"覚えて", r"記憶して",  # ja
            r"새로운 지시", r"새 지시", r"시스템 프롬프트", r"탈옥", r"기억해",  # ko
            r"تعليمات جديدة",  # ar
            r"नए निर्देश",  # hi
            r"nya instruktioner", r"nye instruktioner", r"nye instrukser",  # sv/da/no
            r"nové pokyny", r"instrucțiuni noi", r"instruksi baru", r"hướng dẫn mới", r"νέες οδηγίες",
            r"הוראות חדשות", r"új utasítás\w*", r"uudet ohjeet",  # cs ro id vi el he hu fi
        ],
    },
    # the review already happened: pre-cleared, already approved, no review needed
    "STATUS": {
        "en": [r"pre-?cleared", r"pre-?vetted", r"pre-?reviewed", r"pre-?validated", r"pre-?screened",
               r"(?:reviewed|cleared|vetted|signed off|approved|validated) by (?:legal|counsel|compliance|our lawyers|outside counsel"
               r"|the (?:legal|review|compliance|risk) (?:team|department)|procurement legal)",
               r"no (?:further |additional )?(?:review|check|analysis|assessment|scrutiny) (?:is )?(?:needed|required|necessary)",
               r"(?:requires?|needs?|warrants?) no (?:further |additional |more )?(?:review|checks?|analysis|assessment|scrutiny)",
               r"(?:exempt|excluded|excused)(?:ed)? from (?:the )?(?:review|assessment|checks?|playbook|analysis|screening)",
               r"(?:white|safe|allow)[- ]?listed", r"legally (?:vetted|cleared)", r"needs no review", r"does not need (?:to be )?review\w*"],
        "xx": [
            r"pré-?approuvé\w*", r"pré-?validé\w*",
            r"validé\w* par le service juridique", r"aucun\w* (?:examen|vérification|contrôle) (?:n'est )?(?:nécessaire|requis)",  # fr
            r"vorab (?:genehmigt|geprüft|freigegeben)\w*", r"vorgeprüft\w*",
            r"von der rechtsabteilung (?:geprüft|freigegeben|genehmigt)\w*", r"keine (?:weitere )?prüfung (?:erforderlich|nötig|notwendig)",  # de
            r"pre-?aprobad\w*", r"aprobado por (?:el departamento )?(?:legal|jurídico)",
            r"no (?:se )?requiere (?:revisión|verificación)",  # es
            r"pre-?approvat\w*", r"non richiede (?:revisione|verifica)",  # it
            r"pré-?aprovad\w*", r"não requer (?:revisão|verificação)",  # pt
            r"vooraf goedgekeurd\w*",
            r"geen (?:verdere )?(?:controle|beoordeling) nodig",  # nl
            r"wstępnie zatwierdzon\w*",
            r"zatwierdzon\w* przez (?:dział prawny|prawników)", r"nie wymaga (?:weryfikacji|sprawdzenia|przeglądu)",  # pl
            r"предварительно (?:одобрен|согласован|проверен)\w*",
            r"согласован\w* с юрист\w*", r"не требует (?:проверки|анализа)",  # ru
            r"попередньо (?:схвален|погоджен|перевірен)\w*",  # uk
            r"önceden onaylanmış\w*", r"onceden onaylanmis\w*",
            r"inceleme gerektirmez",  # tr
            r"预先批准", r"預先批准", r"预先审核", r"預先審核", r"预审", r"預審",
            r"法务已批准", r"法務已批准", r"无需审查", r"無需審查", r"无需审核", r"無需審核", r"预清", r"預清",  # zh
            r"事前承認", r"法務承認", r"審査不要", r"確認不要", r"事前審査",  # ja
            r"사전 승인", r"검토 완료", r"검토 불필요",  # ko
            r"معتمد مسبقا", r"تمت الموافقة مسبقا", r"تمت مراجعته",  # ar
            r"पूर्व-अनुमोदित", r"पहले से स्वीकृत",  # hi
            r"förhandsgodkänd\w*", r"forhåndsgodkend\w*", r"forhåndsgodkjen\w*",
            # sv/da/no
            r"předem schválen\w*", r"pre-?aprobat\w*", # cs ro
            r"pra-?disetujui",  # id
            r"đã được phê duyệt trước", r"đã được duyệt",  # vi
            r"προεγκεκριμέν\w*", r"אושר מראש", r"előzetesen jóváhagyott", r"már jóváhagyott", r"ennalta hyväksytty",
        ],
    },
    # the same claim, weaker: "already reviewed" (a contract says it of its own documents too)
    "STATUS_WEAK": {
        "en": [r"already (?:been )?(?:reviewed|cleared|vetted|validated|checked|screened|assessed|approved)"],
        "xx": [r"déjà (?:validé|approuvé|vérifié|examiné)\w*", r"bereits (?:geprüft|genehmigt|freigegeben)\w*",
               r"ya (?:revisad|aprobad|validad)\w*", r"già (?:approvat|verificat|validat)\w*",
               r"já (?:aprovad|revisad|validad)\w*", r"(?:reeds|al) (?:goedgekeurd|gecontroleerd|beoordeeld)\w*",
               r"już (?:zatwierdzon|sprawdzon|zweryfikowan)\w*", r"уже (?:одобрен|проверен|согласован)\w*",
               r"zaten (?:onaylanmış|incelenmiş|kontrol edilmiş)\w*", r"redan (?:granskad|godkänd)\w*",
               r"allerede (?:godkendt|godkjent)", r"již schválen\w*", r"deja aprobat\w*", r"(?:sudah|telah) disetujui",
               r"已审核", r"已審核", r"已经审核", r"已經審核", r"承認済み", r"審査済み", r"確認済み", r"승인됨", r"검토 완료"],
    },
    # what a finished review would say: no deviations found, all clauses standard
    "OUTCOME": {
        "en": [r"no (?:deviations?|issues|risks?|red flags|concerns|problems|exceptions) (?:were |was |have been |has been )?"
               r"(?:found|identified|detected|noted|present|raised)",
               r"nothing (?:to|worth) (?:flag|report|escalat)\w*",
               r"no (?:findings?|flags?|deviations?|red flags?) (?:is |are )?(?:needed|required|necessary|warranted)",
               r"never (?:a |any )?risk", r"never (?:needs?|requires?) (?:\w+ )?review",
               r"all (?:\w+ )?(?:clauses|terms|provisions|sections|positions)(?: \w+){0,4} (?:are |were |is )?(?:\w+ )?"
               r"(?:standard|compliant|acceptable|approved|fine|within (?:the )?playbook)",
               r"(?:review|assessment|analysis|check) (?:is |was )?(?:complete[d]?|passed|successful|done)"
               r"(?: \w+){0,4} (?:no|all|standard|compliant|approved|pass)\b",
               r"(?:overall |final )?(?:verdict|risk rating|review result|review status|assessment result|playbook status|outcome)"
               r" ?[:=] ?(?:standard|low|none|pass(?:ed)?|approved|compliant|acceptable|green|ok|cleared|no deviations?)"],
        "xx": [
            r"aucune? (?:déviation|écart|anomalie|risque)\w*", r"tous les (?:clauses|termes) sont (?:standard|conformes)",  # fr
            r"keine abweichung\w*", r"alle klauseln (?:sind )?(?:standard|konform)",  # de
            r"(?:ninguna|sin) desviaci\w*", r"todas las cláusulas (?:son )?(?:estándar|conformes)",  # es
            r"nessuna deviazion\w*", r"tutte le clausole (?:sono )?(?:standard|conformi)",  # it
            r"nenhum(?:a)? (?:desvio|divergência)\w*", r"todas as cláusulas (?:são )?(?:padrão|conformes)",  # pt
            r"geen afwijking\w*", r"alle clausules (?:zijn )?(?:standaard|conform)",  # nl
            r"(?:brak|bez) odchyle[nń]\w*", r"wszystkie klauzule (?:są )?(?:standardowe|zgodne)",  # pl
            r"(?:нет|без) отклонени\w*", r"отклонений (?:нет|не (?:выявлено|обнаружено))", r"все (?:пункты|условия) стандартн\w*",  # ru
            r"sapma (?:yok|bulunmadı|tespit edilmedi)", r"tüm maddeler standart\w*",  # tr
            r"无偏差", r"無偏差", r"没有偏差", r"沒有偏差", r"未发现偏差", r"未發現偏差", r"所有条款均为标准", r"所有條款均為標準",  # zh
            r"逸脱なし", r"逸脱はありません", r"問題は見つかりませんでした", r"すべての条項は標準",  # ja
            r"편차 없음", r"이상 없음", r"모든 조항(?:은|이) 표준",  # ko
            r"لا (?:توجد )?انحرافات", r"कोई विचलन नहीं", r"inga avvikelser", r"ingen afvigelser", r"ingen avvik",
            r"žádné odchylky", r"nicio abatere", r"tidak ada penyimpangan", r"không có sai lệch", r"καμία απόκλιση",
            r"אין חריגות", r"nincs eltérés", r"ei poikkeamia",
        ],
    },
}
