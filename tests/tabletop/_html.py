"""Whether a region's HTML parses: every element closed, in order. Shared by the Jinja2 region's tests
(tests/tabletop/test_jinja_fragment.py, test_jinja_live.py; CONVENTIONS 16b: never from a test module)."""

from html.parser import HTMLParser

VOID = {"area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta", "source", "track", "wbr"}


class Balanced(HTMLParser):
    """Every element closed, in order (void elements and self-closed ones, SVG's ``rect``, aside)."""

    def __init__(self):
        super().__init__()
        self.open: list[str] = []
        self.errors: list[str] = []

    def handle_starttag(self, tag, attrs):
        if tag not in VOID:
            self.open.append(tag)

    def handle_startendtag(self, tag, attrs):
        pass

    def handle_endtag(self, tag):
        if not self.open or self.open.pop() != tag:
            self.errors.append(f"</{tag}> closes nothing open ({self.getpos()})")


def parses(region: str) -> list[str]:
    parser = Balanced()
    parser.feed(region)
    parser.close()
    return parser.errors + [f"<{tag}> never closed" for tag in parser.open]
