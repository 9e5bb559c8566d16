"""Write memory/pii/given_names.txt and surnames.txt: the names the scrubber knows, from Faker's person data.

    python scripts/given_names.py          # rewrite both files
    python scripts/given_names.py --check  # exit 1 if either is out of date (tests/security runs this)

Nothing is picked by hand: every first name, and every last name, of every locale of Faker's
person providers (Faker is MIT-licensed; its lists come from public name statistics of some 80
locales), written in Latin, Cyrillic or Greek letters, lower case, one a line. The scrubber (memory.pii.persons) reads the file in a few
milliseconds at its first use, so neither Faker nor its import time is needed at run time.
"""

from __future__ import annotations

import importlib
import pkgutil
import re
import sys
from pathlib import Path

from generated import write_or_check

TARGET = Path(__file__).resolve().parents[1] / "memory" / "pii" / "given_names.txt"
SURNAMES = TARGET.with_name("surnames.txt")
_LATIN_NAME = re.compile(r"[A-Za-zÀ-ÖØ-öø-ÿĀ-žА-яЁёІіЇїЄєΆ-ώ'’-]{2,}")
HEADER = ("# Given names (lower case, one a line), written by scripts/given_names.py from the first-name lists\n"
          "# of Faker's person providers (MIT licence). Do not edit: re-run the script.\n")
SURNAME_HEADER = ("# Surnames (lower case, one a line), written by scripts/given_names.py from the last-name lists\n"
                  "# of Faker's person providers (MIT licence). Do not edit: re-run the script.\n")


def given_names(attributes: tuple[str, ...] = ("first_names", "first_names_male", "first_names_female",
                                               "first_names_nonbinary", "first_romanized_names",
                                               "first_romanized_names_male", "first_romanized_names_female")
                ) -> list[str]:
    import faker.providers.person as person

    found: set[str] = set()
    for module in pkgutil.iter_modules(person.__path__):
        provider = getattr(importlib.import_module(f"{person.__name__}.{module.name}"), "Provider", None)
        for attribute in attributes:
            names = getattr(provider, attribute, None)
            if isinstance(names, dict):
                names = names.keys()
            if isinstance(names, (tuple, list, set, frozenset, type({}.keys()))):
                found.update(n.lower() for n in names if _LATIN_NAME.fullmatch(n))
    return sorted(found)


def render() -> str:
    return HEADER + "\n".join(given_names()) + "\n"


def render_surnames() -> str:
    return SURNAME_HEADER + "\n".join(given_names(("last_names", "last_names_male", "last_names_female", "last_romanized_names"))) + "\n"


def main(argv: list[str]) -> int:
    text, surnames = render(), render_surnames()
    code = write_or_check(TARGET, text, argv, script="given_names.py",
                          done=f"wrote {TARGET} ({text.count(chr(10)) - 2} names)")
    return code or write_or_check(SURNAMES, surnames, argv, script="given_names.py",
                                  done=f"wrote {SURNAMES} ({surnames.count(chr(10)) - 2} names)")


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
