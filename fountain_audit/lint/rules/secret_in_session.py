"""A credential (API key, token, password, private key) written in the session file.

## What it does
Reports every secret that the `detect-secrets` detectors find anywhere in the file: tool
arguments and errors, shell and write notes, replies, user input, the title page, boneyard.
Kinds: AWS access and secret keys, GitHub (classic `ghp_`… and fine-grained `github_pat_`),
GitLab, Slack, Stripe, OpenAI, Anthropic (`sk-ant-api03-`…), Google API keys (`AIza`…),
Hugging Face (`hf_`…), Groq (`gsk_`…), OpenRouter (`sk-or-v1-`…), xAI (`xai-`…), Replicate
(`r8_`…), Perplexity (`pplx-`…), SendGrid, npm,
PyPI, Twilio, Mailchimp, Discord, Telegram and Square tokens, Azure storage keys, JSON Web
Tokens, private key blocks, passwords in URLs (`https://alice:Xk9mQ2v@host`, also with `$` or
`;` inside the password, and without a user name: `redis://:Xk9mQ2v@host`) and values assigned
to a secret-sounding keyword (`password: …`, `passphrase: …`, `"api_key": "…"`, `"api-key": "…"`,
`SECRET=…`, and names ending in `token`: `"token": "…"`, `GITHUB_TOKEN=…`) that look like
credentials (one token of 8+ characters, mixed character classes, high entropy);
`Authorization: Bearer …`, `Authorization: Token …` and `Authorization: Basic …` credentials;
random-looking keys and tokens in a URL's query string (`?key=…`, `&api_key=…`, `&token=…`);
passwords on a command line (`mysql -pSECRET`, `sshpass -p SECRET`, `curl -u USER:SECRET`,
`docker login -p SECRET`, `redis-cli -a SECRET`, `smbclient -U USER%SECRET` and the like, and
any command's `--password SECRET`, `--api-key KEY`, `--token TOKEN` with a blank before the value).
A documentation placeholder in such a shape is none (`ghp_xxxx…`, `AKIAXXXXXXXXXXXXXXXX`,
`ghp_YOUR_TOKEN_HERE_…`, `postgres://user:password@host`, `:<password>@`): see
`fountain_audit.privacy.detect._placeholder`.

Lines holding JSON escapes are also read decoded (`\\"`, `\\/`, `\\\\`, `\\uXXXX`, …, again
while escapes remain): a tool argument that writes a JSON file
(`"{\\"password\\":\\"…\\"}"`), a URL written `https:\\/\\/user:pass@host`, a keyword spelt
`pass\\u0077ord`. Such a secret is reported at its spelling in the file (1-based line and
column of its first escaped character, end after its last).
The diagnostic names the kind and spans the secret exactly; it shows at most a short
public prefix (`AKIA…(20 chars)`), never the secret, in every output format and code frame.

## Why is this bad?
A transcript records whatever passed through the agent: the user's paste, a `cat .env`,
the arguments of a deploy tool. Session files are committed, attached to CI runs and
shared in bug reports; a credential in one is a leaked credential. Revoke it, then share
a redacted copy (`fountain-audit redact`).

## Severity
Error: not an audit-trail fault (privacy rules stand outside that scale) but a leaked credential, which must fail the run until it is revoked and redacted.

## Example
```fountain
INT. SHELL 2026-06-24 10:02:30

ALICE
! export AWS_ACCESS_KEY_ID=AKIAIOSFODNN7EXAMPLE
```

## Use instead
```fountain
INT. SHELL 2026-06-24 10:02:30

ALICE
! export AWS_ACCESS_KEY_ID=<redacted:aws-access-key>
```

## Options
`[tool.fountain-audit.privacy] allow = ["regex", ...]`: a secret that one of these regexes
matches (Python `re.search` on the secret) is not reported, e.g. a known test token.
Inline: `/* fountain-audit: disable-next=V101 */`.

## References
- detect-secrets (Yelp), https://github.com/Yelp/detect-secrets
- issue 15 (privacy); `fountain-audit redact`, `--redact`
"""

from fountain_audit.lint.diagnostics import Finding, Severity
from fountain_audit.lint.rules import ALL_KINDS
from fountain_audit.parse.source import LineIndex
from fountain_audit.privacy.detect import find_secrets

#: Where a finding in a UTF-16 file is (E104 reports the file; its lines and columns are the text's).
UTF16_PLACE = " (read as UTF-16: lines and columns as an editor reading the file as UTF-16 shows them)"

CODE = "V101"
NAME = "secret-in-session"
SEVERITY = Severity.ERROR
SINCE = "1.0"
SCOPE = ALL_KINDS


def prepare(ctx):
    """Find the secrets before the model is built (the scan reads the text's byte forms)."""
    ctx.secrets()


def check(ctx):
    text, where = ctx.text, ""
    wide = ctx.utf16_text()
    if wide is not None:  # a UTF-16 file: read as UTF-8, its text is every other byte NUL
        secrets = find_secrets(wide, ctx.privacy_allow)
        text, where = wide, UTF16_PLACE
    else:
        secrets = ctx.secrets()
    if not secrets:
        return
    index = LineIndex(text)
    for s in secrets:
        line, col = index.position(s.start)
        end_line, end_col = index.position(s.end)
        yield Finding(line, col, f"{s.label} ({s.kind}) in the session: {s.masked()}; revoke it and "
                      f"share only a redacted copy{where}", end_line, end_col)
