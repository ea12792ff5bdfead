"""Django's one-line comment ``{# … #}`` ends at the line's end: one spread over two lines is printed on the
page as text (it was, on the officer's Kreuztabelle). Longer comments take ``{% comment %}``."""

from pathlib import Path

TEMPLATES = Path(__file__).resolve().parents[2] / "templates"


def test_no_one_line_comment_spans_lines():
    broken = []
    for template in sorted(TEMPLATES.rglob("*.html")) + sorted(TEMPLATES.rglob("*.txt")):
        for number, line in enumerate(template.read_text("utf-8").splitlines(), start=1):
            if line.count("{#") > line.count("#}"):
                broken.append(f"{template.relative_to(TEMPLATES)}:{number}")
    assert broken == []
