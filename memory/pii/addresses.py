"""Street addresses as 27 countries write them: street, number and postcode patterns.

Each pattern is a street form (a street word before or after the name, in the country's
language) with a house number, and optionally the postcode and town after it; or a postcode in
the country's own shape with the town beside it. Every repetition is bounded, so a pattern reads
a line once (memory.pii.local runs them over whole contracts). A match is an address only where
it has a number: "the rue de la Paix offices" alone is not.

Countries: United States, Canada, United Kingdom, Ireland, Germany, Austria, Switzerland,
Netherlands, Belgium, France, Spain, Italy, Portugal, Brazil, Mexico, Poland, Sweden, Denmark,
Norway, Colombia, India (house / flat / plot numbers, sectors, PIN codes), Japan, China, South Korea,
Singapore, Australia, South Africa; and post-office boxes anywhere.
"""

from __future__ import annotations

import re

_CAP = r"[A-ZÀ-ÖØ-ÞĀ-ž][\w'’-]{0,30}"  # a capitalised word of a street or town name (no full stop: a sentence ends)
_PARTICLE = r"(?:de|del|della|di|da|do|dos|das|la|le|du|des|van|von|der|den|l'|d')"
_NAME = rf"(?:{_PARTICLE}[ \t]*){{0,2}}{_CAP}(?:[ \t]+(?:{_PARTICLE}|{_CAP})){{0,4}}"
_NUMBER = r"\d{1,5}(?:[ \t]?[A-Za-z])?(?:[/-]\d{1,4}[A-Za-z]?)?"
_TOWN = rf"{_CAP}(?:[ \t-](?:{_PARTICLE}[ \t]+)?{_CAP}){{0,2}}"

PATTERNS: list[re.Pattern[str]] = [
    # Germany, Austria, Switzerland: Hauptstraße 12, 10115 Berlin / Bahnhofstrasse 5, 8001 Zürich
    re.compile(rf"\b{_CAP}(?:straße|strasse|str\.|weg|platz|allee|gasse|ring|damm|ufer|chaussee|steig)[ \t]+{_NUMBER}"
               rf"(?:,?[ \t]*(?:D-|A-|CH-)?\d{{4,5}}[ \t]+{_TOWN})?"),
    re.compile(rf"\b(?:Am|An der|Auf dem|Im|In der|Zum|Zur)[ \t]+{_NAME}[ \t]+{_NUMBER},?[ \t]*\d{{4,5}}[ \t]+{_TOWN}"),
    re.compile(rf"\b{_CAP}[ \t]+(?:Straße|Strasse|Str\.|Weg|Platz|Allee|Gasse|Ring|Damm|Ufer|Chaussee)[ \t]+{_NUMBER}"
               rf"(?:,?[ \t]*(?:D-|A-|CH-)?\d{{4,5}}[ \t]+{_TOWN})?"),
    # Netherlands, Belgium (Dutch): Keizersgracht 123, 1015 CJ Amsterdam / Meir 12, 2000 Antwerpen
    re.compile(rf"\b{_CAP}(?:straat|gracht|weg|laan|plein|kade|singel|dijk|steeg|markt|dreef)[ \t]+{_NUMBER}"
               rf"(?:,?[ \t]*\d{{4}}(?:[ \t]?[A-Z]{{2}})?[ \t]+{_TOWN})?"),
    # Dutch postcode and town (its two letters are never an English word: "1401 OF THE ...")
    re.compile(rf"\b\d{{4}}[ \t]?(?!(?:OF|TO|IN|AN|AT|BY|OR|ON|IS|IT|AS|BE|DO|GO|IF|NO|SO|UP|US|WE)\b)[A-Z]{{2}}[ \t]+{_TOWN}"),
    # France, Belgium (French): 12 rue de la Paix, 75002 Paris / 8, avenue Louise, 1050 Bruxelles
    re.compile(rf"\b{_NUMBER},?[ \t]+(?i:rue|avenue|av\.|boulevard|bd|place|chemin|allée|impasse|quai|cours|route)"
               rf"[ \t]+(?:(?:de|du|des|la|le|l')[ \t]*){{0,2}}{_NAME}(?:,?[ \t]*\d{{4,5}}[ \t]+{_TOWN})?"),
    # Spain, Italy, Portugal, Brazil, Mexico: Calle Mayor 5, 28013 Madrid / Via Roma 10, 00184 Roma /
    # Rua Augusta, 123 / Avenida Paulista, 1000, 01310-100 São Paulo / Av. Reforma 222, C.P. 06600
    re.compile(rf"\b(?i:calle|c/|avenida|avda\.|av\.|paseo|plaza|carrer|via|viale|piazza|corso|largo|vicolo|rua|travessa"
               rf"|alameda|estrada|praça)[ \t]+{_NAME},?[ \t]*(?:n\.?º?[ \t]*)?{_NUMBER}"
               rf"(?:,?[ \t]*(?:C\.?P\.?[ \t]*)?(?:\d{{5}}(?:-\d{{3}})?|\d{{4}}-\d{{3}})[ \t]+{_TOWN})?"),
    re.compile(r"\b\d{5}-\d{3}\b"),  # Brazilian CEP
    # Colombia and its neighbours: Carrera 7 # 71-21, Bogotá / Calle 93B No. 13-44
    re.compile(rf"\b(?i:carrera|cra\.|kr\.|calle|cl\.|avenida|av\.|transversal|diagonal)[ \t]+\d{{1,3}}[A-Z]?(?:[ \t]+(?i:bis))?"
               rf"[ \t]*(?:#|No\.?|N[º°])[ \t]*\d{{1,3}}[A-Z]?[ \t]*-[ \t]*\d{{1,3}}(?:,?[ \t]*{_TOWN})?"),
    re.compile(r"\b(?:Col\.|Colonia)[ \t]+[\w .'-]{2,40}?,?[ \t]*C\.?P\.?[ \t]*\d{5}\b"),  # Mexico
    # Poland: ul. Marszałkowska 10/12, 00-590 Warszawa
    re.compile(rf"\b(?:ul\.|al\.|pl\.|os\.|ulica|aleja)[ \t]*{_NAME}[ \t]+{_NUMBER}(?:,?[ \t]*\d{{2}}-\d{{3}}[ \t]+{_TOWN})?"),
    re.compile(rf"\b\d{{2}}-\d{{3}}[ \t]+{_TOWN}"),  # Polish postcode and town
    # Sweden, Denmark, Norway: Drottninggatan 5, 111 51 Stockholm / Vesterbrogade 10, 1620 København V
    re.compile(rf"\b{_CAP}(?:gatan|vägen|gränd|torget|gade|vej|stræde|plads|gate|veien|gata|vegen)[ \t]+{_NUMBER}"
               rf"(?:,?[ \t]*\d{{3}}[ \t]?\d{{1,2}}[ \t]+{_TOWN})?"),
    re.compile(rf"\b{_CAP}(?:[ \t]+{_CAP}){{0,2}}[ \t]+(?:gate|gata|gatan|vei|veien|vej|väg|vägen|gade|allé|plass|torg)"
               rf"[ \t]+{_NUMBER}(?:,?[ \t]*\d{{3}}[ \t]?\d{{1,2}}[ \t]+{_TOWN})?"),
    # United Kingdom, Ireland: Flat 3, 12 High Street (the street itself: memory.pii.local); Eircode
    re.compile(r"\b(?:[A-Z][a-z]+,?[ \t]+)?[AC-FHKNPRTV-Y]\d{2}[ \t]?[AC-FHKNPRTV-Y0-9]{4}\b"),
    # Canada: Toronto, ON M5V 2T6
    re.compile(r"\b[A-Z][a-z]+(?:[ \t][A-Z][a-z]+){0,2},?[ \t]+(?:AB|BC|MB|NB|NL|NS|NT|NU|ON|PE|QC|SK|YT)[ \t]+"
               r"[ABCEGHJ-NPRSTVXY]\d[ABCEGHJ-NPRSTV-Z][ \t]?\d[ABCEGHJ-NPRSTV-Z]\d\b"),
    # Australia: Sydney NSW 2000
    re.compile(r"\b[A-Z][a-z]+(?:[ \t][A-Z][a-z]+){0,2},?[ \t]+(?:NSW|VIC|QLD|WA|SA|TAS|ACT|NT)[ \t]+\d{4}\b"),
    # South Africa: Sandton, Johannesburg, 2196 / Cape Town 8001
    re.compile(r"\b(?:Johannesburg|Sandton|Cape Town|Durban|Pretoria)(?:,?[ \t]+[A-Z][a-z]+)?,?[ \t]+\d{4}\b"),
    # India: House No. 12, Sector 15, Gurugram 122001 / Flat No. 4B, Plot 7, MG Road / H.No. 5-6-7
    re.compile(r"(?i:\b(?:house|flat|plot|door|shop|h\.?)[ \t]*(?:no\.?|number|#)[ \t]*[\w/-]{1,12})"
               r"(?:,?[ \t]*(?:[\w .'-]{2,40}?),?){0,4}?(?:[ \t]*[-,]?[ \t]*\d{6}\b)?"),
    re.compile(r"\b(?i:sector|phase|block|pocket)[ \t]*[-–]?[ \t]*\d{1,3}[A-Z]?\b(?:,?[ \t]*[A-Z][\w]+){0,2}"
               r"(?:[ \t]*[-,]?[ \t]*\d{6})?"),
    # a PIN code (six digits, never starting 0 or 9) after a town, not after a register's or document's label
    re.compile(r"\b(?!(?:Invoice|Order|Number|Ref|Reference|Account|Contract|Agreement|Section|Page|Phone|Tel|Fax|Box"
               r"|Code|Registration|Register|Company|Tax|Licen[cs]e|Policy|Claim|Serial|Item|Part|Batch|Lot)\b)"
               r"[A-Z][a-z]{2,}(?:[ \t][A-Z][a-z]{2,}){0,2}[ \t]*[-–,]?[ \t]*[1-8]\d{2}[ \t]?\d{3}\b(?![ \t]?\d)"),
    re.compile(rf"\b{_CAP}[ \t]+(?:Nagar|Marg|Vihar|Colony|Enclave|Layout|Chowk)\b"),
    # Japan: 〒100-0001 / 1-2-3 Marunouchi, Chiyoda-ku, Tokyo 100-0005
    re.compile(r"〒[ \t]?\d{3}-\d{4}|\b\d{1,2}-\d{1,2}-\d{1,3}[ \t]+[A-Z][a-z]+(?:-[A-Z][a-z]+)?(?:,[ \t]*[A-Z][a-z]+-(?:ku|shi|cho|machi))?"),
    re.compile(r"\b[A-Z][a-z]+-(?:ku|shi)\b(?:,?[ \t]*[A-Z][a-z]+)?(?:[ \t]+\d{3}-\d{4})?"),
    re.compile(r"\b[A-Z][a-z]+,?[ \t]+\d{3}-\d{4}\b"),  # a Japanese town and postcode
    # China, Korea (their scripts): 北京市朝阳区建国路88号 / 서울특별시 강남구 테헤란로 123
    re.compile(r"[\u4e00-\u9fff]{1,8}(?:省|市|区|區|县|縣|镇|鎮)[\u4e00-\u9fff\d]{0,20}?(?:路|街|道|巷|号|號)(?:\d{1,5}号?)?"),
    re.compile(r"[\uac00-\ud7af]{1,8}(?:시|도|구|군)[ \t]?[\uac00-\ud7af\d ]{0,20}?(?:로|길)[ \t]?\d{1,5}(?:-\d{1,4})?"),
    re.compile(r"\b\d{1,5}[ \t]+[A-Z][a-z]+-(?:ro|gil|daero)\b"),  # romanised Korean road
    # post-office boxes anywhere
    re.compile(r"\b(?:P\.?[ \t]?O\.?[ \t]?Box|Post(?:fach| Office Box)|Apartado|Caixa Postal|Casilla)[ \t]*\d{1,6}\b",
               re.IGNORECASE),
]


def address_spans(text: str):
    """(start, end) of every address-like span in `text` (overlaps allowed: the scrubber merges)."""
    for pattern in PATTERNS:
        for m in pattern.finditer(text):
            if any(ch.isdigit() for ch in m.group()) and m.end() - m.start() >= 5:
                yield m.start(), m.end()
