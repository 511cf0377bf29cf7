from fountain_audit.untrusted import terminal_safe


def test_terminal_sequences_are_escaped():
    assert terminal_safe("a\x1b]0;pwned\x07b\x1b[2J") == "a\\x1b]0;pwned\\x07b\\x1b[2J"


def test_c1_bidi_cr_and_undecodable_bytes():
    assert terminal_safe("x\x9by\u202ez\rw\udcf0") == "x\\x9by\\u202ez\\x0dw\\xf0"


def test_text_layout_is_kept():
    assert terminal_safe("tab\there\r\nnext line — ünïcode") == "tab\there\r\nnext line — ünïcode"
