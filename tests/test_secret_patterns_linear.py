"""The linear readings of the patterns that backtrack quadratically on crafted lines
(:func:`fountain_audit.privacy.detect._openai_matches`, the keyword detector's regexes with
:func:`fountain_audit.privacy.detect._keyword_regexes` and :func:`~fountain_audit.privacy.detect._keyword_search`,
:func:`~fountain_audit.privacy.detect._token_keyword_matches` for our ``_TOKEN_KEYWORD_RE``) find
exactly what the patterns themselves find: compared on many short random lines of needles, key
characters and separators, where the patterns' quadratic cost does not matter."""

from __future__ import annotations

import random

from fountain_audit.privacy import detect

PIECES = ("sk-", "sk-proj-", "sk-ant-", "T3BlbkFJ", "password", "pwd", "secret", "api_key", "passwd", "=", "==",
          ":", ":=", "!=", ";", "-", "_", " ", "\t", "'", '"', "`", ",", "]", "\v", "(", ".", "a", "Z", "9", "x7Qz",
          "contraseña", "PASSWORD", "db_pass", "key", "\u017f", "\u212a", "é", "[0]", "@", "!", "<", "{", "``",
          "`a", "`;", "==", "\\", "\n")
ALPHABET = "abcXYZ0189"


def random_line(rnd: random.Random) -> str:
    """A short line: pieces and runs of key characters."""
    parts = []
    for _ in range(rnd.randint(1, 14)):
        if rnd.random() < 0.3:
            parts.append("".join(rnd.choice(ALPHABET) for _ in range(rnd.choice((1, 5, 19, 20, 21, 24)))))
        else:
            parts.append(rnd.choice(PIECES))
    return "".join(parts)


def test_openai_matches_as_finditer():
    from detect_secrets.plugins.openai import OpenAIDetector

    rnd = random.Random(7)
    for regex in OpenAIDetector().denylist:
        for _ in range(60_000):
            line = random_line(rnd)
            if rnd.random() < 0.5:  # a marker with 20 key characters on either side
                k = rnd.randrange(len(line) + 1)
                line = line[:k] + "A1" * 10 + "T3BlbkFJ" + "b2" * 10 + line[k:]
            want = [m.span() for m in regex.finditer(line)]
            assert [m.span() for m in detect._openai_matches(regex, line)] == want, line


def test_keyword_regexes_as_the_detectors():
    """Each regex of :func:`_keyword_regexes` searched as :func:`_keyword_values` does finds the
    match of the detector's own regex (span and groups), on 100,000 random lines (runs of
    backquotes among them)."""
    from detect_secrets.plugins.keyword import CONFIG_DENYLIST_REGEX_TO_GROUP

    linear = detect._keyword_regexes()
    assert [g for _, g, _ in linear] == list(CONFIG_DENYLIST_REGEX_TO_GROUP.values())
    assert any(a is not b for a, (b, _, _) in zip(CONFIG_DENYLIST_REGEX_TO_GROUP, linear))
    assert [search for _, _, search in linear] == [detect._keyword_search, detect._quoted_search,
                                                    detect._keyword_search, detect._semicolon_search]
    rnd = random.Random(11)
    for _ in range(100_000):
        line = random_line(rnd)
        for a, (b, _, search) in zip(CONFIG_DENYLIST_REGEX_TO_GROUP, linear):
            ma, mb = a.search(line), search(b, line)
            assert (ma and [ma.span(g) for g in range(a.groups + 1)]) == (mb and [mb.span(g) for g in range(a.groups + 1)]), line


#: Pieces of lines for the token names' values: the names (any case, a KELVIN SIGN for ``k``),
#: operators, quotes, blanks, value characters and what ends or refuses a value.
TOKEN_PIECES = ("token", "TOKEN", "to\u212aen", "tok", "en", "=", "=>", ":=", ":", " ", "\t", "'", '"', "`", "]", "-",
                "_", "a", "Z9", "(", ")", ",", ";", "&", "\\", ".", "~", "+", "/", "%", "#", "!", "*", "^", "$", "@",
                "\u017f", "é", "next_page", "a" * 20, "-" * 15)


def test_token_keyword_matches_as_finditer():
    """:func:`_token_keyword_matches` gives the spans of groups 1 and 2 of each match of
    ``_TOKEN_KEYWORD_RE.finditer``, on 100,000 random lines (names up to and past 40 characters)."""
    regex = detect._TOKEN_KEYWORD_RE
    rnd = random.Random(13)
    for _ in range(100_000):
        line = "".join(rnd.choice(TOKEN_PIECES) for _ in range(rnd.randint(0, 30)))
        want = [(m.start(1), m.end(1), m.start(2), m.end(2)) for m in regex.finditer(line)]
        assert list(detect._token_keyword_matches(line)) == want, line
