"""A session seeded with fake credentials of many kinds, built at test time.

The tokens have the shapes of real ones (so the detectors fire) but are assembled here from
obviously fake parts, so no credential-looking literal is stored in the repository.
:func:`build` returns the text and, per secret, its kind and value; tests find each value's
line and column in the text themselves.
"""

from __future__ import annotations

import base64
import json


def _b64url(obj) -> str:
    return base64.urlsafe_b64encode(json.dumps(obj).encode()).decode().rstrip("=")


def _fill(alphabet: str, n: int, seed: int = 7) -> str:
    return "".join(alphabet[(i * seed + seed) % len(alphabet)] for i in range(n))


UPPER = "ABCDEFGHIJKLMNOPQRSTUVWXYZ234567"
ALNUM = "abcdefghijkmnopqrstuvwxyzABCDEFGHJKLMNPQRSTUVWXYZ23456789"
LOWER = "abcdefghijklmnopqrstuvwxyz0123456789"


def secrets() -> dict[str, str]:
    """name -> fake secret value."""
    key_body = "\n".join(_fill(ALNUM + "+/", 64, s) for s in (3, 5, 11))
    return {
        "aws": "AKIA" + _fill(UPPER, 16, 5),
        "aws_secret": _fill(ALNUM + "/+", 40, 11),
        "github": "ghp_" + _fill(ALNUM, 36, 13),
        "gitlab": "glpat-" + _fill(ALNUM, 20, 17),
        "slack": "xoxb-" + "2" * 11 + "4-" + "3" * 12 + "9-" + _fill(LOWER, 24, 19),
        "slack_webhook": "https://hooks.slack.com/services/T" + _fill(UPPER, 8, 3) + "/B" + _fill(UPPER, 8, 5)
                         + "/" + _fill(ALNUM, 24, 23),
        "stripe": "sk_live_" + _fill(ALNUM, 24, 29),
        "openai": "sk-" + _fill(ALNUM, 20, 31) + "T3BlbkFJ" + _fill(ALNUM, 20, 37),
        "jwt": _b64url({"alg": "HS256", "typ": "JWT"}) + "." + _b64url({"sub": "fake-user", "iat": 1700000000})
               + "." + _fill(ALNUM, 43, 41),
        "basic_auth": "Fk" + _fill(ALNUM, 10, 43) + "9",
        "keyword": "Fq7" + _fill(ALNUM, 9, 47) + "#2",
        "sendgrid": "SG." + _fill(ALNUM, 22, 53) + "." + _fill(ALNUM, 43, 59),
        "telegram": "123456789:" + _fill(ALNUM, 35, 61),
        "private_key": "-----BEGIN RSA PRIVATE KEY-----\n" + key_body + "\n-----END RSA PRIVATE KEY-----",
    }


KINDS = {
    "aws": "aws-access-key", "aws_secret": "aws-secret-key", "github": "github-token", "gitlab": "gitlab-token",
    "slack": "slack-token", "slack_webhook": "slack-token", "stripe": "stripe-key", "openai": "openai-key",
    "jwt": "jwt", "basic_auth": "basic-auth", "keyword": "keyword-secret", "sendgrid": "sendgrid-key",
    "telegram": "telegram-token", "private_key": "private-key",
}

TEMPLATE = """\
Title: Harvey Session
Credit: Recorded by Harvey
Author: ALICE
Contact: alerts bot {telegram}
Date: 2026-08-03 14:20:00
Draft date: 2026-08-03
Model: LLAMA3 (ollama)
Backend: ollama


FADE IN:


INT. HARVEY AND ALICE TALKING 2026-08-03 14:20:31

Harvey and ALICE are in chat mode. Model: LLAMA3. Workspace: /home/alice/proj.

[[rag: 2 chunks from /home/alice/.harvey/store.db, top score 0.81]]

[[rag-source: /home/alice/notes/deploy.md]]

ALICE
Deploy with my token {github} and post to Slack with {slack}, please.

HARVEY
Forwarding to LLAMA3.

[[tool: read_file({{"path":"\\/home\\/alice\\/proj\\/.env"}}) — ok]]

[[tool: deploy({{"registry_token":"{gitlab}","aws_access_key_id":"{aws}","aws_secret_access_key":"{aws_secret}","remote":"https://deploy:{basic_auth}@git.example.com/proj.git","key_file":"/home/alice/secret/key.pem"}}) — error: card declined for {stripe}]]

LLAMA3
The .env sets OPENAI_API_KEY={openai} and the webhook {slack_webhook}.
Your session cookie is {jwt}; see D:\\work\\alice\\notes.txt and \\\\fileserver\\alice\\doc.
The Go file is at C:/Users/alice/proj/b.go, also /Users/alice/Desktop/x.txt.

Ollama (llama3:8b) · 60 reply + 900 ctx · 3.1s · 19.4 tok/s



INT. SHELL 2026-08-03 14:21:15

ALICE
! cat /home/alice/proj/deploy/key.pem

SHELL
{private_key}

[[shell: cat /home/alice/proj/deploy/key.pem — exit 0]]



INT. SHELL 2026-08-03 14:21:40

ALICE
! psql "postgres://admin:{keyword}@db.internal/app"

[[shell: DB_PASSWORD={keyword} SENDGRID_KEY={sendgrid}
./migrate --env /home/alice/proj/.env — exit 0]]


THE END.
"""


def build() -> tuple[str, dict[str, str]]:
    """(session text, name -> secret value)."""
    values = secrets()
    return TEMPLATE.format(**values), values
