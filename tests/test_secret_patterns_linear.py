"""The linear readings of the detect-secrets patterns that backtrack quadratically on crafted
lines (:func:`fountain_audit.privacy.detect._openai_matches`,
:func:`fountain_audit.privacy.detect._keyword_regexes`) find exactly what the detector's own
patterns find: compared on many short random lines of needles, key characters and separators,
where the patterns' quadratic cost does not matter."""

from __future__ import annotations

import random

from fountain_audit.privacy import detect

PIECES = ("sk-", "sk-proj-", "sk-ant-", "T3BlbkFJ", "password", "pwd", "secret", "api_key", "passwd", "=", "==",
          ":", ":=", "!=", ";", "-", "_", " ", "\t", "'", '"', "`", ",", "]", "\v", "(", ".", "a", "Z", "9", "x7Qz")
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
    from detect_secrets.plugins.keyword import CONFIG_DENYLIST_REGEX_TO_GROUP

    linear = detect._keyword_regexes(CONFIG_DENYLIST_REGEX_TO_GROUP)
    assert list(linear.values()) == list(CONFIG_DENYLIST_REGEX_TO_GROUP.values())
    assert any(a is not b for a, b in zip(linear, CONFIG_DENYLIST_REGEX_TO_GROUP))
    rnd = random.Random(11)
    for _ in range(60_000):
        line = random_line(rnd)
        for a, b in zip(CONFIG_DENYLIST_REGEX_TO_GROUP, linear):
            ma, mb = a.search(line), b.search(line)
            assert (ma and (ma.span(), ma.groups())) == (mb and (mb.span(), mb.groups())), line
