"""Home paths and secret shapes that leaked through lint, ``redact`` and ``--redact``:

1. a user name spelt with a JSON escape in a tool note's arguments (``/home/J\\u00fcrgen``): the
   spelling as written (``/home/J``) won over the decoded one, and ``ürgen`` was left in place;
2. user names holding ``@`` (``user@corp``), an apostrophe (``O'Brien``) or a blank (``John
   Smith``) were cut there; prose after a name (``/home/alice and bob``) must stay prose;
3. secrets no detector read: a URL password without a user name (``redis://:…@``), a key in a
   URL's query string (``?key=…``, ``&token=…``), ``Authorization: Token …`` (Django REST
   framework) and ``passphrase: …``.

Each with its exact span, V1xx line and column, and redacted text; and what must stay silent."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

from fountain_audit.lint.linter import Selection, lint_text
from fountain_audit.privacy.detect import find_home_paths, find_secrets
from fountain_audit.privacy.redact import Redactor, redact_session, redact_text

HEAD = ("Title: T\nAuthor: ALICE\n\nINT. HARVEY AND ALICE TALKING 2026-06-24 10:02:30\n\n"
        "Harvey and ALICE are in chat mode. Model: LLAMA.\n\n")


def session(user_line: str, tool_args: str) -> str:
    """A chat session: ALICE's line (line 9) and a tool note with ``tool_args`` (line 14)."""
    return (HEAD + f"ALICE\n{user_line}\n\nHARVEY\nForwarding to LLAMA.\n\n"
            f"[[tool: read_file({tool_args}) — ok]]\n\nLLAMA\nDone.\n\nTHE END.\n")


def findings(text: str, code: str) -> list[tuple[int, int, int, int, str]]:
    return [(d.line, d.column, d.end_line, d.end_column, d.message)
            for d in lint_text(text, "s.spmd", Selection.build(select=[code]))]


def cli(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "fountain_audit", *args], capture_output=True, text=True)


# --------------------------------------------------------------------------- 1. escaped user names

#: The 6 characters backslash, u, 0, 0, f, c: ``ü`` as JSON spells it.
ESCAPED = '{"path":"/home/J\\u00fcrgen/a.go"}'


def test_an_escaped_user_name_is_one_finding_over_the_whole_name():
    text = session("Read my file.", ESCAPED)
    assert text.splitlines()[13][27:44] == "/home/J\\u00fcrgen"
    assert findings(text, "V102") == [
        (14, 28, 14, 45, "home directory path /home/Jürgen names a user account")]


def test_an_escaped_user_name_is_redacted_whole_in_the_copy(tmp_path):
    out = redact_session(session("Read my file.", ESCAPED))
    assert out.problem is None and out.counts.home == 1
    assert out.text.splitlines()[13] == '[[tool: read_file({"path":"<home>/a.go"}) — ok]]'


def test_an_escaped_user_name_is_redacted_whole_in_dump(tmp_path):
    path = tmp_path / "s.spmd"
    path.write_text(session("Read my file.", ESCAPED), encoding="utf-8")
    r = cli("dump", "--redact", str(path))
    assert r.returncode == 0, r.stderr
    (record,) = json.loads(r.stdout)["records"]
    assert record["arguments"] == {"path": "<home>/a.go"}
    assert record["arguments_text"] == '{"path":"<home>/a.go"}'
    assert "rgen" not in r.stdout


@pytest.mark.parametrize("text, found", [
    ('{"path":"/home/J\\u00fcrgen/a.go"}', [(9, 26, "Jürgen")]),
    ('{"path":"C:\\\\Users\\\\J\\u00fcrgen\\\\a.go"}', [(9, 31, "Jürgen")]),
    ('{"path":"\\/home\\/J\\u00fcrgen\\/a.go"}', [(9, 28, "Jürgen")]),
    ('{"path":"/home/O\\u0027Brien/a"}', [(9, 27, "O'Brien")]),
    ('{"path":"/home/bob/a","x":"\\u00fc"}', [(9, 18, "bob")]),  # as written: found once
])
def test_the_decoded_spelling_wins_where_it_reads_further(text, found):
    assert [(h.start, h.end, h.user) for h in find_home_paths(text)] == found


# --------------------------------------------------------------------------- 2. what a user name holds

@pytest.mark.parametrize("text, found", [
    ("See /home/user@corp/a.go", [(4, 19, "user@corp")]),
    ("C:\\Users\\user@corp\\x.txt", [(0, 18, "user@corp")]),
    ("/home/alice@corp.example.com/x", [(0, 28, "alice@corp.example.com")]),
    ("cat /home/O'Brien/b.go", [(4, 17, "O'Brien")]),
    ("cat /Users/O\u2019Brien/b.go", [(4, 18, "O\u2019Brien")]),
    ("C:\\Users\\John Smith\\Documents\\x.txt", [(0, 19, "John Smith")]),
    ("open /Users/John Smith/c.go", [(5, 22, "John Smith")]),
    ("/Users/Mary Jane Watson/c.go", [(0, 23, "Mary Jane Watson")]),
    ("/Users/Łukasz Żak/x", [(0, 17, "Łukasz Żak")]),
    ("C:\\Users\\john smith\\Documents\\x", [(0, 19, "john smith")]),  # lower case: a home folder follows
    ("/home/jane doe/.ssh/id_ed25519", [(0, 14, "jane doe")]),
    ('{"p":"C:\\\\Users\\\\John Smith\\\\AppData\\\\x"}', [(6, 27, "John Smith")]),
    # the other side: prose goes on after the name
    ("/home/alice and bob.", [(0, 11, "alice")]),
    ("/Users/alice and bob.", [(0, 12, "alice")]),
    ("/home/alice and/or bob", [(0, 11, "alice")]),  # lower case, no home folder after the separator
    ("/Users/Bob Went home", [(0, 10, "Bob")]),  # no separator after the words
    ("/Users/a B C D/x", [(0, 8, "a")]),  # three words after the name: prose
    ("C:\\Users\\john smith\\x.txt", [(0, 13, "john")]),
    ("/home/alice's files", [(0, 11, "alice")]),  # a possessive
    ("cat '/home/alice' now", [(5, 16, "alice")]),  # a closing quote
    ("'/home/alice'x", [(1, 12, "alice")]),
    ("mail /home/alice@ now", [(5, 16, "alice")]),
    ("/home/alice @corp", [(0, 11, "alice")]),
    # a sentence's full stop ends the path, not the name (the redacted copy lost it: adversarial, stop 33)
    ("in /home/alice. Then", [(3, 14, "alice")]),
    ("/Users/bob...", [(0, 10, "bob")]),
    ("/home/john.smith/x and /home/alice./y", [(0, 16, "john.smith"), (23, 35, "alice.")]),
    ("C:\\Users\\Default User\\NTUSER.DAT and C:\\Users\\All Users\\x", []),  # shared profiles, read whole
    # the same folder spelt otherwise, a name holding what shows nothing (adversarial, stop 34)
    ("/home//bob/x /Users//bob /home/./bob /home/.//./bob", [(0, 10, "bob"), (13, 24, "bob"), (25, 36, "bob"),
                                                            (37, 51, "bob")]),
    ("/mnt/c/Users/carol/x and \\/mnt\\/d\\/Users\\/dan", [(0, 18, "carol"), (25, 45, "dan")]),
    ("/mnt/cdrom/Users/z my/mnt/c/Users/z /home/.bashrc", []),
    # roots before /Users and /home: Git Bash, Cygwin, a drive's share, macOS's data volume, FreeBSD,
    # WSL's share of a distribution (adversarial, stop 35)
    ("/c/Users/dan/x /cygdrive/d/Users/eve \\\\pc\\c$\\Users\\carol", [(0, 12, "dan"), (15, 36, "eve"),
                                                                         (37, 56, "carol")]),
    ("/System/Volumes/Data/Users/bob /usr/home/alice", [(0, 30, "bob"), (31, 46, "alice")]),
    ("\\\\wsl$\\Ubuntu\\home\\al \\\\wsl.localhost\\Ubuntu-22.04\\home\\bo", [(0, 21, "al"), (22, 58, "bo")]),
    ("src/home/page.tsx docs/Users/guide", []),
    # a name in a legacy code page: its undecodable byte is the name's (adversarial trial, stop 38)
    ("C:\\Users\\J\udcfcrgen\\Documents /home/ren\udce9e/x", [(0, 15, "J\udcfcrgen"), (26, 37, "ren\udce9e")]),
    # a macOS disk's home, Windows XP's profiles (adversarial, stop 37)
    ("/Volumes/Backup/Users/alice/x '/Volumes/Macintosh HD/Users/bob' /Volumes/ Users/x /Volumes//Users/eve",
     [(0, 27, "alice"), (31, 62, "bob"), (91, 101, "eve")]),
    ("C:\\Documents and Settings\\carol\\x \\/Documents and Settings\\/dan c:/documents and settings/All Users/x",
     [(0, 31, "carol"), (34, 63, "dan")]),
    # a web route is no home: /users in lower case after a forward slash and no root (adversarial, stop 35)
    ('GET /users/42/profile fetch("/users/me") \\users\\bob C:/users/eve /mnt/c/users/dan',
     [(41, 51, "bob"), (52, 64, "eve"), (65, 81, "dan")]),
    ("cd /home/da\u200bvid/src /home/da\x00vid /Users/b\u2060ob", [(3, 15, "da\u200bvid"), (20, 32, "da\x00vid"),
                                                                    (33, 44, "b\u2060ob")]),
])
def test_user_names_holding_at_signs_apostrophes_and_blanks(text, found):
    assert [(h.start, h.end, h.user) for h in find_home_paths(text)] == found


def test_home_paths_with_such_names_are_flagged_and_redacted_whole():
    line = ("See /home/user@corp/a.go, C:\\Users\\John Smith\\Documents\\x.txt, /home/O'Brien/b.go "
            "and /home/alice and bob.")
    text = session(line, '{"path":"/Users/John Smith/c.go"}')
    assert findings(text, "V102") == [
        (9, 5, 9, 20, "home directory path /home/user@corp names a user account"),
        (9, 27, 9, 46, "home directory path C:\\Users\\John Smith names a user account"),
        (9, 64, 9, 77, "home directory path /home/O'Brien names a user account"),
        (9, 87, 9, 98, "home directory path /home/alice names a user account"),
        (14, 28, 14, 45, "home directory path /Users/John Smith names a user account")]
    out = redact_session(text)
    assert out.problem is None and out.counts.home == 5
    lines = out.text.splitlines()
    assert lines[8] == "See <home>/a.go, <home>\\Documents\\x.txt, <home>/b.go and <home> and bob."
    assert lines[13] == '[[tool: read_file({"path":"<home>/c.go"}) — ok]]'


def test_a_learnt_user_name_with_an_at_sign_or_a_blank_is_redacted_in_other_paths():
    red = Redactor().learn(None, "cd /home/user@corp/x and C:\\Users\\John Smith\\y and /home/bob/z")
    assert red.users == {"user@corp", "John Smith", "bob"}
    assert red.text("D:\\work\\user@corp\\notes.txt, //srv/John Smith/doc, \\\\fs\\bob@corp\\q") == (
        "<home>\\notes.txt, <home>/doc, <home>@corp\\q")
    assert Redactor().learn(None, "/home/bob/z and /home/bob@corp/x").text("/srv/bob@corp/q") == "<home>/q"


# --------------------------------------------------------------------------- 3. secret shapes

# (Each shape's exact span and redacted text: FOUND in tests/test_privacy_escapes.py.)


@pytest.mark.parametrize("text", [
    "https://api.example.com/v1?key=value&token=YOUR_TOKEN_HERE&secret=xxxxxxxxxxxxxxxxxxxx",
    "?key=uploads/2024/report.pdf&token=abcdefghijklmnopqrstuv&key=abc123&token=1234567890123456",
    "https://x.io/?key=v1.2.3.4.5.6.7.8.9.10.11.12&key=report-2024-final.pdf",
    "Use Token based authentication: Token auth is simple.",
    "Authorization: Token <your-token> or Authorization: Token YOUR_API_TOKEN_HERE",
    "passphrase: correct horse battery staple",
    "the passphrase is required; passphrase=changeme",
    "http://:8080/x and redis://cache:6379/0",
])
def test_text_that_holds_none_of_these_secrets(text):
    assert find_secrets(text) == []
    assert redact_text(text, paths=False) == text


#: Documentation placeholders in a credential's shape (stop 35's adversarial trial: each was a V101
#: error, and `redact` rewrote it): nothing in them to leak.
PLACEHOLDERS = [
    "export GITHUB_TOKEN=ghp_" + "x" * 36,
    "token ghp_" + "X" * 36 + " and ghp_YOUR_TOKEN_HERE_" + "0" * 22,
    "aws_access_key_id = AKIAXXXXXXXXXXXXXXXX; or AKIA0000000000000000",
    "STRIPE=sk_live_" + "0" * 24 + " SLACK=xoxb-000000000000-000000000000-" + "x" * 24,
    "DATABASE_URL=postgres://user:password@localhost:5432/db",
    "postgres://user:<password>@host/db, mysql://root:****@db/x, redis://:secret@cache:6379/0",
    "curl -u admin:password https://x.io and mysql -p'<password>' app",
    "postgres://admin:PASSWORD@db/app and glpat-your-token-here-xxxxxxxxxx",
]


@pytest.mark.parametrize("text", PLACEHOLDERS)
def test_placeholders_in_a_credentials_shape_are_none(text):
    assert find_secrets(text) == []
    assert redact_text(text, paths=False) == text


@pytest.mark.parametrize("text, kind, value", [
    # AWS's documented example key has a real key's shape: still reported (our tests use it as one)
    ("AKIAIOSFODNN7EXAMPLE", "aws-access-key", "AKIAIOSFODNN7EXAMPLE"),
    # filler that is less than half of the token's random part, before or after a real token's
    # characters (a run of one letter is no filler: our tests use ghp_ + 36 a as a token)
    ("ghp_" + "x" * 15 + "Ab3dE5gH9jK2mN4pQ7sT1", "github-token", "ghp_" + "x" * 15 + "Ab3dE5gH9jK2mN4pQ7sT1"),
    ("ghp_Z8x1Kq7Lm2Nb4Vc6Xd9Fs3Ga5Hj0Pw1Qe2Rt" + "x" * 16, "github-token",
     "ghp_Z8x1Kq7Lm2Nb4Vc6Xd9Fs3Ga5Hj0Pw1Qe2Rt" + "x" * 16),
    ("ghp_" + "a" * 36, "github-token", "ghp_" + "a" * 36),
    # a placeholder's word glued after a real token (adversarial trial, stop 36): judged on the
    # detector's own match, and on what is random beside the word
    ("key ghp_aB3dE5fG7hI9jK1lM3nO5pQ7rS9tU1vW3xY5_YOUR_REPO", "github-token",
     "ghp_aB3dE5fG7hI9jK1lM3nO5pQ7rS9tU1vW3xY5_YOUR_REPO"),
    ("npm_aB3dE5fG7hI9jK1lM3nO5pQ7rS9tU1vW3xY5-your-org", "npm-token", "npm_aB3dE5fG7hI9jK1lM3nO5pQ7rS9tU1vW3xY5-your-org"),
    ("glpat-aB3dE5fG7hI9jK1lM3nO-here", "gitlab-token", "glpat-aB3dE5fG7hI9jK1lM3nO-here"),
    ("xoxb-123456789012-1234567890123-AbCdEfGhIjKlMnOpQrStUvWx-your-workspace", "slack-token",
     "xoxb-123456789012-1234567890123-AbCdEfGhIjKlMnOpQrStUvWx-your-workspace"),
    # the field's name capitalised may be a weak real password; lower or upper case is the placeholder
    ("connect postgres://admin:Password@db.internal:5432/app", "basic-auth", "Password"),
    # a weak default password is a password: only the field's name, a reference or a mask are none
    ("postgres://admin:changeme@db/app", "basic-auth", "changeme"),
    ("postgres://admin:password1@db/app", "basic-auth", "password1"),
    ("curl -u admin:Tr0ub4dorX9q https://x.io", "cli-password", "Tr0ub4dorX9q"),
])
def test_values_near_a_placeholder_are_still_secrets(text, kind, value):
    assert [(s.kind, s.value) for s in find_secrets(text)] == [(kind, value)]


@pytest.mark.parametrize("text, value", [
    # any command's long option naming a secret, its value after a blank (adversarial trial, stop 36:
    # the `=` form was a keyword's value, the blank form was missed)
    ("run mongosh --username admin --password Xk9mQ2vpL7z now", "Xk9mQ2vpL7z"),
    ("mytool --api-key 8Hq2LmN4pR6sT8vX0zB2dF4hJ6kL8nP0 --verbose", "8Hq2LmN4pR6sT8vX0zB2dF4hJ6kL8nP0"),
    ("hf auth login --token Zx81Lk29Pq73Mn46Vb05", "Zx81Lk29Pq73Mn46Vb05"),
    ('gpg --passphrase "c0rrect-H0rse-b4ttery" -c notes.txt', "c0rrect-H0rse-b4ttery"),
    ("app --client-secret Zx81Lk29Pq73Mn46", "Zx81Lk29Pq73Mn46"),
])
def test_secret_long_options_with_a_blank_before_the_value(text, value):
    assert [(s.kind, s.value) for s in find_secrets(text)] == [("cli-password", value)]
    assert value not in redact_text(text, paths=False)


@pytest.mark.parametrize("text", [
    "use --password PASSWORD or --password $PW or --token <token>", "docker login --password-stdin",
    "see the --password option", "pass --api-key with your key",
])
def test_secret_long_options_without_a_credential_are_none(text):
    assert find_secrets(text) == []


TOOL_ARGS = ('{"url":"redis://:S3cr3tPassw0rd@cache:6379/0",'
             '"endpoint":"https://api.example.com/v1?key=AIzaK3y9fQ2mX7pL4vR8tW1nB6cZ0dE",'
             '"headers":{"Authorization":"Token 9f8e7d6c5b4a3f2e1d0c9b8a7f6e5d4c3b2a1f0e"}}')
USER_LINE = "My key passphrase=Hw7kP2xQ9vLm, reset link https://x.io/reset?token=Zx81Lk29Pq73Mn46Vb05."
LEAKS = ("S3cr3tPassw0rd", "AIzaK3y9fQ2mX7pL4vR8tW1nB6cZ0dE", "9f8e7d6c5b4a3f2e1d0c9b8a7f6e5d4c3b2a1f0e",
         "Hw7kP2xQ9vLm", "Zx81Lk29Pq73Mn46Vb05")


def test_v101_flags_each_shape_at_its_line_and_column():
    text = session(USER_LINE, TOOL_ARGS)
    lines = text.splitlines()
    assert (lines[8][18:30], lines[8][68:88]) == ("Hw7kP2xQ9vLm", "Zx81Lk29Pq73Mn46Vb05")
    assert (lines[13][35:49], lines[13][107:138], lines[13][174:214]) == LEAKS[:3]
    tail = " in the session: …({}); revoke it and share only a redacted copy"
    assert findings(text, "V101") == [
        (9, 19, 9, 31, "secret assigned to a keyword (keyword-secret)" + tail.format("12 chars")),
        (9, 69, 9, 89, "key or token in a URL query string (url-query-key)" + tail.format("20 chars")),
        (14, 36, 14, 50, "password in a URL (basic-auth)" + tail.format("14 chars")),
        (14, 108, 14, 139, "key or token in a URL query string (url-query-key)" + tail.format("31 chars")),
        (14, 175, 14, 215, "token in an Authorization header (token-auth-header)" + tail.format("40 chars"))]


def test_redact_copy_of_each_shape():
    out = redact_session(session(USER_LINE, TOOL_ARGS))
    assert out.problem is None and out.counts.secrets == 5
    lines = out.text.splitlines()
    assert lines[8] == ("My key passphrase=<redacted:keyword-secret>, reset link "
                        "https://x.io/reset?token=<redacted:url-query-key>.")
    assert lines[13] == ('[[tool: read_file({"url":"redis://:<redacted:basic-auth>@cache:6379/0",'
                         '"endpoint":"https://api.example.com/v1?key=<redacted:url-query-key>",'
                         '"headers":{"Authorization":"Token <redacted:token-auth-header>"}}) — ok]]')


@pytest.mark.parametrize("args", [["dump", "--redact"], ["dump", "--turns", "--redact"],
                                  ["show", "--redact", "--format", "json"], ["show", "--redact"]])
def test_no_redacted_output_holds_these_secrets(tmp_path, args):
    path = tmp_path / "s.spmd"
    path.write_text(session(USER_LINE, TOOL_ARGS), encoding="utf-8")
    extra = ["t1", "t1.tool1", "L9", "L14"] if args[0] == "show" else []
    plain = cli(*[a for a in args if a != "--redact"], str(path), *extra)
    assert [s for s in LEAKS if s in plain.stdout], plain.stderr  # (the output shows them unredacted)
    r = cli(*args, str(path), *extra)
    assert r.returncode == 0, r.stderr
    assert [s for s in LEAKS if s in r.stdout] == [], r.stdout
    assert "<redacted:url-query-key>" in r.stdout and "<redacted:token-auth-header>" in r.stdout


def test_fast_home_path_search_answers_as_the_whole_pattern_for_the_new_name_characters():
    """``_home_paths_fast`` finds what ``HOME_RE.finditer`` finds on random texts of path parts
    and the characters a name may now hold (``@``, apostrophes, blanks before words and home
    folders)."""
    import random

    from fountain_audit.privacy.detect import _folded, _home_paths_fast, _home_paths_slow

    parts = ["/home/", "/Users/", "C:\\Users\\", "\\/home\\/", "/", "\\", "alice", "Jürgen", "李明", "@", "'",
             "\u2019", " ", "Smith", "Documents", "and", "Br", ".", "-", "x", "users", "home", "\u017f",
             "/mnt/c/", "\\/mnt\\/c\\/", "mnt", "\u200b", "\x00", "/usr", "/c", "\\\\wsl$\\Ubuntu", "\\\\pc\\c$",
             "/System/Volumes/Data", "src", ")", "\u212a", ":", "/Volumes/", "Backup", "Macintosh HD",
             "Documents and Settings", "C:"]
    rnd = random.Random(11)
    found = 0
    for _ in range(20_000):
        t = "".join(rnd.choice(parts) for _ in range(rnd.randint(1, 12)))
        fast = [(h.start, h.end, h.user) for h in _home_paths_fast(t, _folded(t))]
        assert fast == [(h.start, h.end, h.user) for h in _home_paths_slow(t)], t
        found += len(fast)
    assert found > 5_000


def test_a_full_stop_after_a_home_path_stays_in_the_redacted_copy():
    assert redact_text("My files are in /home/alice. And /home/bob/x.") == "My files are in <home>. And <home>/x."


# --------------------------------------------------------------------------- adversarial trial, stop 36

@pytest.mark.parametrize("text, user, redacted", [
    # a Windows path's \build, \files read decoded as JSON's \b, \f: the user was alice<BS>uild and
    # alice stayed in the copy elsewhere
    (r"C:\Users\alice\build\out.exe then D:\work\alice\notes.txt", "alice",
     r"<home>\build\out.exe then <home>\notes.txt"),
    (r"C:\Users\alice\files\x", "alice", r"<home>\files\x"),
    ('{"p":"C:\\\\Users\\\\bob\\\\bin\\\\x.exe"} and D:\\data\\bob\\y', "bob",
     '{"p":"<home>\\\\bin\\\\x.exe"} and <home>\\y'),
])
def test_windows_folders_starting_with_b_or_f_end_the_user_name(text, user, redacted):
    assert [h.user for h in find_home_paths(text)] == [user]
    assert redact_text(text) == redacted


@pytest.mark.parametrize("text, redacted", [
    # a path named through a learnt user swallowed the text and paths before it, across blanks
    ("Home is /home/bob/x. Run cp /tmp/a.txt /srv/data/bob/a.txt now", "Home is <home>/x. Run cp /tmp/a.txt <home>/a.txt now"),
    ("Home is /home/bob/x. Compare /etc/hosts with /backup/bob/hosts", "Home is <home>/x. Compare /etc/hosts with <home>/hosts"),
    ("Home /home/ubuntu/z. Logs: /var/log/nginx and /srv/ubuntu/y", "Home <home>/z. Logs: /var/log/nginx and <home>/y"),
    # a folder's name with a blank inside still leads to the user's folder
    ("Home is /home/bob/x; D:\\My Files\\bob\\notes.txt", "Home is <home>/x; <home>\\notes.txt"),
])
def test_a_learnt_user_path_starts_after_the_last_blank_before_a_separator(text, redacted):
    assert redact_text(text) == redacted


def test_a_weak_password_that_is_a_word_is_repeated_only_where_it_stands_alone():
    text = ("Use DATABASE_URL=postgres://postgres:postgres@localhost:5432/postgres then run postgres tests. "
            "Install postgresql. postgres_query(x)")
    assert [(s.start, s.value) for s in find_secrets(text)] == [(28, "postgres"), (37, "postgres"), (61, "postgres"),
                                                                (79, "postgres")]
    assert redact_text(text, paths=False) == (
        "Use DATABASE_URL=postgres://<redacted:basic-auth>:<redacted:basic-auth>@localhost:5432/<redacted:basic-auth> "
        "then run <redacted:basic-auth> tests. Install postgresql. postgres_query(x)")


@pytest.mark.parametrize("text", [
    'url = f"postgresql://{user}:{password}@{host}/{db}"',
    '"postgresql://%s:%s@%s/%s" % (user, pw, host, db)',
    '"postgresql://{}:{}@{}/{}".format(user, pw, host, db)',
    'f"postgres://{u}:{settings.DB_PASSWORD}@h/d" and "postgres://u:%(password)s@h/d"',
])
def test_format_fields_in_a_url_are_references_not_passwords(text):
    assert find_secrets(text) == []
    assert redact_text(text, paths=False) == text


@pytest.mark.parametrize("filler", ["C:\\\\Users\\\\ ", "C:\\Users\\\n\n", "/home/ ", "\\/home\\/\"", "/Users/ "])
def test_a_home_word_with_no_name_after_it_is_not_searched(monkeypatch, filler):
    """``C:\\\\Users\\\\`` with no user name after it was searched for a path over the 300 characters
    after it, each time: 65,000 on one line (845 KB) took 18 s of lint and 37 s of redact
    (adversarial trial, stop 36). A separator then a word character must follow ``home``/``users``
    for the pattern to be tried there: here it is tried for the one real path only."""
    from fountain_audit.privacy import detect

    class Counting:
        def __init__(self, rx):
            self.rx, self.calls = rx, 0

        def search(self, *a):
            self.calls += 1
            return self.rx.search(*a)

        def match(self, *a):
            self.calls += 1
            return self.rx.match(*a)

    counting = Counting(detect.HOME_RE)
    monkeypatch.setattr(detect, "HOME_RE", counting)
    text = filler * 2000 + " see /home/bob/x"
    found = detect._home_paths_fast(text, detect._folded(text))
    assert [(h.user, h.start) for h in found] == [("bob", len(filler) * 2000 + 5)]
    assert counting.calls <= 2


@pytest.mark.parametrize("text, found", [
    ("/var/home/alice/proj", [("alice", 0, 15)]),  # Fedora Silverblue's $HOME
    ("/export/home/alice/x", [("alice", 0, 18)]),  # Solaris
    ("gcc -I/home/alice/include -L/home/alice/lib x.c", [("alice", 6, 17), ("alice", 28, 39)]),
    ("docker run -v/home/alice/data:/data img", [("alice", 13, 24)]),
    ("x-I/home/bob and my-/home/bob", []),  # a word, not a short option, before them
])
def test_home_paths_under_more_roots_and_after_a_short_option(text, found):
    # (adversarial trial, stop 36: each was missed)
    assert [(h.user, h.start, h.end) for h in find_home_paths(text)] == found


def _random_token(alphabet: str, n: int, seed: int) -> str:
    import random
    rnd = random.Random(seed)
    return "".join(rnd.choice(alphabet) for _ in range(n))


_ALNUM = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789"


@pytest.mark.parametrize("prefix, alphabet, n, kind", [
    ("gsk_", _ALNUM, 52, "groq-api-key"),
    ("sk-or-v1-", "0123456789abcdef", 64, "openrouter-api-key"),
    ("xai-", _ALNUM, 80, "xai-api-key"),
    ("r8_", _ALNUM, 37, "replicate-token"),
    ("pplx-", "0123456789abcdef", 48, "perplexity-api-key"),
])
def test_model_providers_keys_written_bare(prefix, alphabet, n, kind):
    # (adversarial trial, stop 36: found only after a keyword or Bearer)
    key = prefix + _random_token(alphabet, n, len(prefix))
    text = f"my key is {key}, and {prefix}{'x' * n} in the docs"
    assert [(s.kind, s.value, s.start) for s in find_secrets(text)] == [(kind, key, 10)]
    assert redact_text(text, paths=False) == f"my key is <redacted:{kind}>, and {prefix}{'x' * n} in the docs"


_TOKEN = _ALNUM + "_-"
_HEX = "0123456789abcdef"


@pytest.mark.parametrize("prefix, alphabet, n, kind", [
    ("GOCSPX-", _TOKEN, 28, "google-oauth-secret"),
    ("ya29.", _TOKEN, 150, "google-oauth-token"),
    ("dop_v1_", _HEX, 64, "digitalocean-token"),
    ("dor_v1_", _HEX, 64, "digitalocean-token"),
    ("shpat_", _HEX, 32, "shopify-token"),
    ("shpss_", _HEX, 32, "shopify-token"),
    ("hvs.", _TOKEN, 95, "vault-token"),
    ("hvb.", _TOKEN, 138, "vault-token"),
])
def test_cloud_and_platform_tokens_written_bare(prefix, alphabet, n, kind):
    # (noted at stop 36: none of them was found)
    key = prefix + _random_token(alphabet, n, len(prefix) + n)
    text = f"export TOK={key} ; and {prefix}{'x' * n} is the docs' placeholder"
    assert [(s.kind, s.value, s.start) for s in find_secrets(text)] == [(kind, key, 11)]
    assert redact_text(text, paths=False) == \
        f"export TOK=<redacted:{kind}> ; and {prefix}{'x' * n} is the docs' placeholder"


@pytest.mark.parametrize("text", [
    "shpat_" + "g" * 32,  # not hexadecimal
    "dop_v1_" + "0123456789abcdef" * 3,  # 48 hex, not 64
    "hvs.short_one",  # a Vault token is 90 characters or more
    "GOCSPX-tooShort123",
    "myya29.AbCdEfGhIjKlMnOpQrStUvWxYz0123456789AbCdEfGh",  # inside a word
])
def test_cloud_and_platform_token_lookalikes_are_none(text):
    assert find_secrets(f"see {text} here") == []


@pytest.mark.parametrize("text, value", [
    ("I exported GITHUB_TOKEN=x9Hq2LmZ8rT4vW1nK7pB3cY6.", "x9Hq2LmZ8rT4vW1nK7pB3cY6"),
    ("Then SLACK_BOT_TOKEN=x9Hq2LmZ8rT4vW1nK7pB3cY7: done.", "x9Hq2LmZ8rT4vW1nK7pB3cY7"),
    ("access_token: x9Hq2LmZ8rT4vW1nK7pB3cY8.", "x9Hq2LmZ8rT4vW1nK7pB3cY8"),
    ("access_token: x9Hq2LmZ8rT4vW1nK7pB3cY8...", "x9Hq2LmZ8rT4vW1nK7pB3cY8"),
    ("API_TOKEN=x9Hq2LmZ8rT4vW1nK7pB3cY9:", "x9Hq2LmZ8rT4vW1nK7pB3cY9"),
])
def test_a_token_value_before_a_full_stop_or_a_colon_is_found(text, value):
    """A token name's value followed by a sentence's full stop or a colon and a blank was no
    secret (lint "All clear", redact kept it; adversarial trial, stop 38): the punctuation is
    the sentence's, not the value's."""
    assert [(s.kind, s.value) for s in find_secrets(text)] == [("keyword-secret", value)]


@pytest.mark.parametrize("text", [
    "self.api_token.refresh()", "TOKEN=abc:def", "token: x9Hq2LmZ8rT4vW1nK7pB3cY6:8080",
])
def test_a_token_value_that_goes_on_after_a_colon_or_a_dot_is_read_as_before(text):
    assert [s.value for s in find_secrets(text)] == []
