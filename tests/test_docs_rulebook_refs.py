"""No doc points at a rulebook file that is not in the repository (issue 13).

The rulebooks are published documents, not files of this repository: docs cite them by title and
section. A path such as `rules/zop.fr.txt` is accepted only if that file exists.
"""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
# a path into a rules folder, or a file named like a translated rulebook (name.fr.txt, .en.pdf…)
RULES_REF = re.compile(r"[\w./-]*\brules/[\w./-]*[\w]|[\w./-]+\.(?:fr|en|it)\.(?:txt|pdf|md|html)\b")


def rulebook_refs(text: str) -> list[str]:
    """Every reference to a rulebook file in a text."""
    return RULES_REF.findall(text)


def test_the_pattern_finds_the_references_it_must_refuse():
    assert rulebook_refs("Rulebook: `rules/zop.fr.txt` (v3.0).") == ["rules/zop.fr.txt"]
    assert rulebook_refs("(rulebook: `spywhere.fr.txt`)") == ["spywhere.fr.txt"]
    assert rulebook_refs("Rulebook: operation-mata-hari.fr.txt (French)") == ["operation-mata-hari.fr.txt"]
    assert rulebook_refs("see /work/shared/rules/droles-de-zebres.en.txt") == \
        ["/work/shared/rules/droles-de-zebres.en.txt"]
    # code, configs and published titles are not rulebook files
    assert rulebook_refs("`games/zop/rules.py`, `/boot/firmware/config.txt`, *ZOP — Règles du jeu*") == []
    assert rulebook_refs("deploy/99-zebra-table-reader.rules") == []


def test_no_doc_points_at_a_rulebook_file_that_is_not_in_the_repository():
    docs = sorted((ROOT / "docs").rglob("*.md")) + [ROOT / "README.md"]
    assert len(docs) >= 5
    missing = []
    for doc in docs:
        for n, line in enumerate(doc.read_text(encoding="utf-8").splitlines(), start=1):
            for ref in rulebook_refs(line):
                if not ((ROOT / ref.lstrip("/")).is_file() or (doc.parent / ref).is_file()):
                    missing.append(f"{doc.relative_to(ROOT)}:{n}: {ref}")
    assert missing == [], "cite the published rulebook by title and section instead:\n" + "\n".join(missing)
