"""What memory may keep of a deal's counterparty (issue 19): an organisation's name, never a person's."""

from __future__ import annotations

import pytest

from tools.detection.parties import company_name


@pytest.mark.parametrize("name", ["Kestrel Fluid Power Systems, Inc.", "Alder Mills GmbH", "Northwind Components Ltd",
                                  "BRIGHTLINE PUMPS LLC", "Philips Medical Systems Nederland B.V."])
def test_an_organisation_is_kept(name):
    assert company_name(name) == name


@pytest.mark.parametrize("name", ["Jane Doe", "John A. Smith", "Dr. Maria Rossi", "Supplier", "Inc.", ""])
def test_a_person_or_a_bare_term_is_not(name):
    assert company_name(name) == ""
