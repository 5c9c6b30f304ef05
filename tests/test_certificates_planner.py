"""Certificates printed as text (planners/certificates.py): every subject before any expiry
date, every expiry date before any issuer, on a real output kept whole in tests/outputs:

- openssl-pkcs7-print-certs-certifi-first-16.txt: the first 16 certificates of the certifi
  bundle pip 23.2.1 vendors (pip/_vendor/certifi/cacert.pem), `openssl crl2pkcs7 -nocrl
  -certfile /dev/stdin | openssl pkcs7 -print_certs -text -noout` (OpenSSL 3.0.19).
"""

from __future__ import annotations

from pathlib import Path

import pytest

from headroom_cli.api import compress
from headroom_cli.plan import Lines
from headroom_cli.sniff import sniff
from headroom_cli.tools import lookup

TEXT = (Path(__file__).parent / "outputs"
        / "openssl-pkcs7-print-certs-certifi-first-16.txt").read_text()


def _rows(prefix: str) -> list[str]:
    return [row for row in TEXT.splitlines() if row.lstrip().startswith(prefix)]


@pytest.mark.parametrize("budget", [500, 1000, 2000])
def test_subjects_come_before_expiry_dates_and_expiry_dates_before_issuers(counter, budget):
    out = compress(TEXT, tool="Bash", budget=budget, counter=counter).text
    assert counter.count(out) <= budget
    assert sniff(Lines(TEXT), lookup("Bash")) == "other"
    subjects, expiries, issuers = _rows("Subject: "), _rows("Not After"), _rows("Issuer: ")
    assert len(subjects) == 16
    shown = lambda rows: sum(row[:100] in out for row in rows)  # noqa: E731 (a long one: its start)
    assert shown(subjects) >= min(16, budget // 60)
    if shown(expiries) > 1:  # the first certificate's may sit in the head
        assert shown(subjects) == 16
    if shown(issuers) > 1:
        assert shown(expiries) == 16


def test_at_two_thousand_tokens_every_certificate_is_named_with_its_expiry(counter):
    out = compress(TEXT, tool="Bash", budget=2000, counter=counter).text
    assert all(row in out for row in _rows("Subject: ") + _rows("Not After"))
