"""Find secrets and personal paths in session text.

Secrets are found by `detect-secrets <https://github.com/Yelp/detect-secrets>`_ plugins (its
regex detectors for provider tokens, its JWT, private-key and basic-auth detectors, and its
keyword detector in the "config file" mode, for text that is not source code), run only on
*candidate lines*: a cheap substring test on the whole text decides which plugins can match
at all, one anchor regex per plugin finds the lines worth running it on. A keyword
assignment (``password: …``, ``"api_key": "…"``, ``SECRET=…``) counts only when its value
looks like a credential (one token, 8+ characters, two character classes, entropy of at
least :data:`MIN_KEYWORD_ENTROPY` bits per character, not a template or a reference). Token
kinds detect-secrets has no plugin for (GitHub fine-grained tokens, Anthropic, Google and
Hugging Face keys) are our own patterns (:func:`_own`), run the same way; so are secrets in a
context that names them (:func:`_own_secret`: ``Authorization: Bearer``/``Basic``, ``mysql
-p…``), values of names ending in ``token`` (:data:`_TOKEN_KEYWORD_RE`) and ``api-key``-style
keywords, which the keyword detector reads only as ``api_key``. A JSON member whose name and
value are on different lines (a tool note's arguments may span lines: ``"password":\\n"…"``,
``"password"\\n:"…"``) is read in one pass over the whole text (:func:`_split_json_secrets`).

Lines holding JSON escapes (``\\"``, ``\\/``, ``\\uXXXX``…) are read decoded too, up to
:data:`_ESCAPE_LEVELS` times (:class:`_EscapedLines`): what is found there is reported at its
spelling in the text, escapes included. A text without a backslash is not read again.

Home paths are absolute paths under ``/home/<user>``, ``/Users/<user>`` or
``C:\\Users\\<user>`` in any spelling: backslashes or forward slashes, JSON-escaped
(``\\/home\\/alice``, ``C:\\\\Users\\\\alice``), any case; and ``/root`` (root's home on
Linux, user ``root``), see :data:`HOME_RE`.

Positions are 0-based code-point offsets into the text (``start`` inclusive, ``end``
exclusive); :func:`line_col` turns them into 1-based lines and columns.
"""

from __future__ import annotations

import bisect
import functools
import re

from fountain_audit.memos import on_forget
from fountain_audit.records import record
from fountain_audit.lazyre import LazyPattern, lazy
from fountain_audit.privacy.needles import Needles
from fountain_audit.untrusted import CONTROL_BYTES, CONTROL_CODES

TYPE_CHECKING = False  # not typing.TYPE_CHECKING: lint starts without importing typing (issue 9)
if TYPE_CHECKING:
    from typing import Callable, Iterable, Iterator, Sequence


#: A keyword secret's value needs at least this Shannon entropy (bits per character).
MIN_KEYWORD_ENTROPY = 3.0
#: Characters of a secret that a message may show (a kind's public prefix may be longer).
SHOWN_PREFIX = 4


@record(frozen=True, slots=True)
class Secret:
    """A credential in the text: ``kind`` (kebab-case, e.g. ``"github-token"``), ``label``
    (``"GitHub token"``), the 0-based code-point span ``start``–``end`` and the ``value``
    (the secret itself: never print it, use :meth:`masked`)."""

    start: int
    end: int
    kind: str
    label: str
    value: str
    shown: int = 0

    def __init__(self, start: int, end: int, kind: str, label: str, value: str, shown: int = 0) -> None:
        put = object.__setattr__  # (a frozen record: see fountain_audit.records)
        put(self, "start", start)
        put(self, "end", end)
        put(self, "kind", kind)
        put(self, "label", label)
        put(self, "value", value)
        put(self, "shown", shown)

    def _replace_value(self, value: str) -> "Secret":
        return Secret(self.start, self.end, self.kind, self.label, value, self.shown)

    def masked(self) -> str:
        """The value with all but a short public prefix hidden: ``"ghp_…(40 chars)"``."""
        return f"{self.value[:self.shown]}…({len(self.value)} chars)"


@record(frozen=True, slots=True)
class HomePath:
    """An absolute path prefix naming a user's home directory: ``/home/alice`` in
    ``/home/alice/key.pem``; ``user`` is the account name; 0-based span ``start``–``end``."""

    start: int
    end: int
    user: str
    text: str

    def __init__(self, start: int, end: int, user: str, text: str) -> None:
        put = object.__setattr__  # (a frozen record: see fountain_audit.records)
        put(self, "start", start)
        put(self, "end", end)
        put(self, "user", user)
        put(self, "text", text)


# --------------------------------------------------------------------------- plugins


class _Plugin:
    """One secret detector: its ``kind`` and ``label``, the detect-secrets plugin it runs, the
    cheap pre-checks (``needles``, ``anchor``) that find candidate lines, how much of a value is
    shown. Its patterns are compiled when a text first holds one of its needles (:mod:`fountain_audit.lazyre`;
    a plain class, not a dataclass, which costs start-up time to create: issue 9)."""

    __slots__ = ("kind", "label", "detector", "needles", "anchor", "lower", "shown", "by_needle", "scans", "own",
                 "run")

    def __init__(self, kind, label, detector, needles, anchor, lower=False, shown=SHOWN_PREFIX, by_needle=False,
                 scans=(), own=None, run=0):
        self.kind = kind
        self.label = label
        self.detector = detector    # "module.Class" in detect_secrets.plugins, imported when needed
        self.needles = needles      # one must occur in the text (lower-cased when ``lower``)
        self.anchor = anchor        # finds candidate lines
        self.lower = lower
        self.shown = shown
        self.by_needle = by_needle  # candidate lines: those holding a needle (no regex scan)
        self.scans = scans          # match on exactly the anchor's lines, faster (else the anchor)
        self.own = own              # our own token pattern (``detector`` unused): see :func:`_own_tokens`
        self.run = run              # the anchor matches only in a run of this many token characters (see _TokenRuns)


def _p(kind, label, detector, needles, anchor, *, lower=False, shown=SHOWN_PREFIX, flags=0, by_needle=False,
       scans=(), run=0):
    return _Plugin(kind, label, detector, tuple(needles), lazy(anchor, flags), lower, shown, by_needle,
                   tuple(lazy(s, flags) for s in scans), run=run)


def _own(kind, label, needle, pattern, *, shown):
    """A token kind that detect-secrets (1.5) has no plugin for: ``pattern`` matches the token from
    its prefix, with the part that must look random in group 1 (see :func:`_own_tokens`);
    ``needle``: its prefix, or a tuple of the prefixes it may start with."""
    needles = needle if isinstance(needle, tuple) else (needle,)
    return _Plugin(kind, label, "", needles, lazy("|".join(map(re.escape, needles))), shown=shown,
                   own=lazy(pattern))


def _own_secret(kind, label, needles, anchor, pattern, *, lower=False, by_needle=False):
    """A secret that detect-secrets (1.5) has no plugin for, in a context that names it:
    ``pattern`` (case-insensitive when ``lower``) matches the context with the secret in group 1,
    which must pass the kind's check (see :func:`_own_secrets`); nothing of it is shown.
    ``by_needle``: the candidate lines are those holding a needle (see :class:`_Plugin`)."""
    flags = re.I if lower else 0
    return _Plugin(kind, label, "", tuple(needles), lazy(anchor, flags), lower, 0, by_needle,
                   own=lazy(pattern, flags))


#: Characters a token runs on with after its pattern's match (the value is taken to its end).
_TOKEN_CHARS = r"A-Za-z0-9_\-"


_KEYWORDS = ("key", "pass", "pwd", "secret", "contrase", "token")
#: Keywords the detect-secrets keyword detector (1.5) lacks, read as its own: its regexes are
#: compiled with them added to its keyword list (:func:`_keyword_regexes`; the detector's one
#: setting, ``keyword_exclude``, can only take keywords out). ``passphrase: …``, ``passphrase=…``
#: (an SSH or GPG key's, a wallet's).
_MORE_KEYWORDS = ("pass_?phrase",)
#: The keywords of the detect-secrets keyword detector (``token`` is ours: :data:`_TOKEN_KEYWORD_RE`)
#: and :data:`_MORE_KEYWORDS`, with ``-`` allowed where it allows ``_`` (see :data:`_DASHED_KEYWORD_RE`).
_DENYLIST = ("(?:api[_-]?key|auth[_-]?key|service[_-]?key|account[_-]?key|db[_-]?key|database[_-]?key|priv[_-]?key"
             "|private[_-]?key|client[_-]?key|db[_-]?pass|database[_-]?pass|key[_-]?pass|password|passwd|pwd|secret"
             "|contrase|pass_?phrase)")
_DENYLIST_RE = lazy(_DENYLIST, re.I)
#: The names of a URL query parameter whose value may be a key (``key``, ``api_key``, ``apikey``,
#: ``access_token``, ``token``, ``client_secret``…), from its ``?`` or ``&`` to its ``=``.
_QUERY_NAME = r"[?&](?:(?:api|access|auth|client|private|secret)[_-]?)?(?:key|token|secret)="
_QUERY_NEEDLES = ("key=", "token=", "secret=")
#: What comes before a password given on a command line, in the command's own syntax (the password
#: follows; an option that prompts for it, ``mysql -p``, ``docker login`` alone, gives none). The
#: options before it are read lazily, at most 20 of them.
_CLI_OPTIONS = r"(?:[ \t]+(?!{opt})[^\s|;&]+){{0,20}}?[ \t]+"
_CLI_PASSWORD_LEADS = (
    # mysql -pSECRET (attached: a lone -p prompts for it), mysqldump, mariadb
    r"(?:mysql\w*|mariadb[\w-]*)" + _CLI_OPTIONS.format(opt="-p") + "-p",
    r"sshpass[ \t]+-p[ \t]*",  # sshpass -p SECRET
    # curl -u USER:SECRET, --user USER:SECRET, -uUSER:SECRET (the password after the user's colon)
    r"curl" + _CLI_OPTIONS.format(opt="-u|--user") + r"(?:-u[ \t]*|--user(?:[ \t]+|=))['\"]?[^\s:'\"|;&]+:",
    # docker login -p SECRET, --password SECRET (not --password-stdin); podman, nerdctl, buildah,
    # skopeo, helm registry, az acr, oras
    r"(?:docker|podman|nerdctl|buildah|skopeo|oras|helm[ \t]+registry|az(?:[ \t]+acr)?)[ \t]+login"
    + _CLI_OPTIONS.format(opt=r"-p\b|--password\b") + r"(?:-p|--password)(?:[ \t]+|=)",
    r"redis-cli" + _CLI_OPTIONS.format(opt=r"-a\b|--pass\b") + r"(?:-a|--pass)[ \t]+",  # redis-cli -a SECRET
    # wget --password=SECRET, --http-password SECRET, --ftp-password, --proxy-password
    r"wget" + _CLI_OPTIONS.format(opt="--(?:http-|ftp-|proxy-)?password")
    + r"--(?:http-|ftp-|proxy-)?password(?:=|[ \t]+)",
    # smbclient -U USER%SECRET (Samba's user%password)
    r"smbclient" + _CLI_OPTIONS.format(opt="-U|--user") + r"(?:-U[ \t]*|--user(?:[ \t]+|=))['\"]?[^\s%'\"|;&]+%",
    r"net[ \t]+use" + _CLI_OPTIONS.format(opt="/user:") + r"/user:[^\s|;&]+[ \t]+",  # net use … /user:NAME SECRET
    # htpasswd -b FILE USER SECRET (-b: the password on the command line; -c, -B … beside it)
    r"htpasswd(?:[ \t]+-[A-Za-z]+){0,8}?[ \t]+-[A-Za-z]*b[A-Za-z]*(?:[ \t]+-[A-Za-z]+){0,8}[ \t]+[^\s|;&-][^\s|;&]*"
    r"[ \t]+[^\s|;&]+[ \t]+",
    # any command's long option naming a secret, its value after a blank (`mongosh --password SECRET`,
    # `mytool --api-key KEY`, `gpg --passphrase X`; the `=` form is a keyword's value: keyword-secret)
    r"--(?:pass(?:word|wd|phrase)?|api[_-]?key|(?:access|auth|api|bot)[_-]?token|token|"
    r"(?:client[_-])?secret(?:[_-]key)?)[ \t]+",
)
#: The commands of :data:`_CLI_PASSWORD_LEADS` (a line holding none of them is not read for it).
_CLI_NEEDLES = ("mysql", "mariadb", "sshpass", "curl", "login", "redis-cli", "wget", "smbclient", "net use", "htpasswd",
                "--pass", "--api", "--access", "--auth", "--bot", "--token", "--client", "--secret")
PLUGINS: tuple[_Plugin, ...] = (
    _p("aws-access-key", "AWS access key", "aws.AWSKeyDetector", ("AKIA", "ASIA", "ABIA", "ACCA", "A3T"),
       r"A[3BCKS][0-9A-Z]{18}"),
    _p("aws-secret-key", "AWS secret access key", "aws.AWSKeyDetector", ("aws",),
       r"aws.{0,20}?(?:key|pwd|pw|password|pass|token)", lower=True, shown=0, flags=re.I, by_needle=True),
    _p("github-token", "GitHub token", "github_token.GitHubTokenDetector", ("gh",), r"gh[pousr]_"),
    # fine-grained personal access tokens: github_pat_ + 22 + "_" + 59 (82 characters of \w, as gitleaks reads them)
    _own("github-token", "GitHub token", "github_pat_",
         rf"(?<![{_TOKEN_CHARS}])github_pat_([A-Za-z0-9_]{{82}})", shown=11),
    _p("gitlab-token", "GitLab token", "gitlab_token.GitLabTokenDetector", ("gl",),
       r"gl(?:pat|dt|ft|soat|rt|cbt|imt|ptt|agent|oas)-", shown=6),
    _p("slack-token", "Slack token", "slack.SlackDetector", ("xox", "hooks.slack.com"),
       r"xox[abposr]-|hooks\.slack\.com", lower=True, shown=5, flags=re.I),
    _p("stripe-key", "Stripe key", "stripe.StripeDetector", ("k_live_",), r"[rs]k_live_", shown=8,
       scans=(r"k_live_(?<=[rs]k_live_)",)),
    # sk-ant-api03-…, sk-ant-admin01-…, sk-ant-oat01-… (before openai-key, whose marker regex reads any sk-)
    _own("anthropic-key", "Anthropic API key", "sk-ant-", rf"(?<![{_TOKEN_CHARS}])sk-ant-([{_TOKEN_CHARS}]{{32,}})",
         shown=7),
    _own("google-api-key", "Google API key", "AIza", rf"(?<![{_TOKEN_CHARS}+/])AIza([{_TOKEN_CHARS}]{{35}})",
         shown=4),
    # npm's access tokens (npm_ + 36 base62 characters) written bare, not in an .npmrc line (adversarial
    # trial: detect-secrets' npm plugin reads only `_authToken=`)
    _own("npm-token", "npm token", "npm_", rf"(?<![{_TOKEN_CHARS}])npm_([A-Za-z0-9]{{36}})(?![A-Za-z0-9])", shown=4),
    _own("huggingface-token", "Hugging Face token", "hf_",
         rf"(?<![{_TOKEN_CHARS}])hf_([A-Za-z]{{34}})(?![A-Za-z])", shown=3),
    # other model providers' keys an agent's session meets, written bare (adversarial trial, stop 36:
    # found only after a keyword or Bearer): Groq (gsk_ + 52), OpenRouter (sk-or-v1- + 64 hex),
    # xAI (xai- + 80), Replicate (r8_ + 37), Perplexity (pplx- + 48)
    _own("groq-api-key", "Groq API key", "gsk_", rf"(?<![{_TOKEN_CHARS}])gsk_([A-Za-z0-9]{{52}})(?![A-Za-z0-9])",
         shown=4),
    _own("openrouter-api-key", "OpenRouter API key", "sk-or-v1-",
         rf"(?<![{_TOKEN_CHARS}])sk-or-v1-([0-9a-f]{{64}})(?![A-Za-z0-9])", shown=9),
    _own("xai-api-key", "xAI API key", "xai-", rf"(?<![{_TOKEN_CHARS}])xai-([A-Za-z0-9]{{80}})(?![A-Za-z0-9])",
         shown=4),
    _own("replicate-token", "Replicate API token", "r8_",
         rf"(?<![{_TOKEN_CHARS}])r8_([A-Za-z0-9]{{37}})(?![A-Za-z0-9])", shown=3),
    _own("perplexity-api-key", "Perplexity API key", "pplx-",
         rf"(?<![{_TOKEN_CHARS}])pplx-([A-Za-z0-9]{{48}})(?![A-Za-z0-9])", shown=5),
    # cloud and platform credentials detect-secrets has no plugin for (noted at stop 36; their prefixes as
    # the providers document them): Google OAuth client secrets (GOCSPX- + 28) and access tokens
    # (ya29. + a long run), DigitalOcean tokens (dop_v1_/doo_v1_/dor_v1_ + 64 hex), Shopify access
    # tokens and secrets (shpat_/shpss_/shpca_/shppa_ + 32 hex), HashiCorp Vault tokens (hvs./hvb. + 90+)
    _own("google-oauth-secret", "Google OAuth client secret", "GOCSPX-",
         rf"(?<![{_TOKEN_CHARS}])GOCSPX-([{_TOKEN_CHARS}]{{28}})(?![{_TOKEN_CHARS}])", shown=7),
    _own("google-oauth-token", "Google OAuth access token", "ya29.",
         rf"(?<![{_TOKEN_CHARS}.])ya29\.([{_TOKEN_CHARS}]{{40,}})", shown=5),
    _own("digitalocean-token", "DigitalOcean token", ("dop_v1_", "doo_v1_", "dor_v1_"),
         rf"(?<![{_TOKEN_CHARS}])do[opr]_v1_([0-9a-f]{{64}})(?![A-Za-z0-9])", shown=7),
    _own("shopify-token", "Shopify access token", ("shpat_", "shpss_", "shpca_", "shppa_"),
         rf"(?<![{_TOKEN_CHARS}])shp(?:at|ss|ca|pa)_([0-9a-fA-F]{{32}})(?![A-Za-z0-9])", shown=6),
    _own("vault-token", "HashiCorp Vault token", ("hvs.", "hvb."),
         rf"(?<![{_TOKEN_CHARS}.])hv[sb]\.([{_TOKEN_CHARS}]{{90,}})", shown=4),
    _p("openai-key", "OpenAI API key", "openai.OpenAIDetector", ("T3BlbkFJ", "sk-proj-", "sk-svcacct-", "sk-admin-"),
       r"T3BlbkFJ|sk-(?:proj|svcacct|admin)-", shown=3),
    _p("jwt", "JSON Web Token", "jwt.JwtTokenDetector", ("eyJ",), r"eyJ", shown=3),
    _p("private-key", "private key", "private_key.PrivateKeyDetector", ("PRIVATE KEY", "PuTTY-User-Key"),
       r"PRIVATE KEY|PuTTY-User-Key", shown=0),
    _p("basic-auth", "password in a URL", "basic_auth.BasicAuthDetector", ("://",),
       r"://[^\s/@:]*:[^\s@]{1,256}@", shown=0),  # (a password may hold '/': see _loose_url_passwords)
    _p("sendgrid-key", "SendGrid API key", "sendgrid.SendGridDetector", ("SG.",), r"SG\.", shown=3),
    _p("npm-token", "npm token", "npm.NpmDetector", ("_authToken",), r"_authToken", shown=4),
    _p("pypi-token", "PyPI token", "pypi_token.PypiTokenDetector", ("pypi-Ag",), r"pypi-Ag", shown=5),
    _p("twilio-key", "Twilio API key", "twilio.TwilioKeyDetector", ("AC", "SK"), r"[AS][CK][a-z0-9]{32}",
       shown=2, scans=(r"A[CK][a-z0-9]{32}", r"S[CK][a-z0-9]{32}"), run=34),
    _p("mailchimp-key", "Mailchimp API key", "mailchimp.MailchimpDetector", ("-us",),
       r"[0-9a-z]{32}-us[0-9]", shown=0, scans=(r"-us[0-9](?<=[0-9a-z]{32}-us[0-9])",)),
    _p("discord-token", "Discord bot token", "discord.DiscordBotTokenDetector", (".",),
       r"\.[a-zA-Z\d_-]{6}\.[a-zA-Z\d_-]{27}", shown=0, run=27),
    _p("telegram-token", "Telegram bot token", "telegram_token.TelegramBotTokenDetector", (":",),
       r":[0-9A-Za-z_-]{35}", shown=0, run=35),
    _p("square-secret", "Square OAuth secret", "square_oauth.SquareOAuthDetector", ("sq0csp-",), r"sq0csp-",
       shown=7),
    _p("azure-storage-key", "Azure storage account key", "azure_storage_key.AzureStorageKeyDetector",
       ("AccountKey=",), r"AccountKey=", shown=0),
    # Authorization headers (RFC 6750 bearer tokens, RFC 7617 basic credentials) and passwords given on a
    # command line: kinds detect-secrets (1.5) has no plugin for (see :func:`_own_secrets`)
    _own_secret("bearer-token", "bearer token", ("bearer",), r"bearer\s",
                r"(?<![\w-])bearer[ \t]+([A-Za-z0-9._~+/-]{16,}=*)(?![\w~+/=-])", lower=True),
    _own_secret("basic-auth-header", "password in an Authorization header", ("basic",), r"basic\s",
                r"(?<![\w-])basic[ \t]+([A-Za-z0-9+/]{8,}={0,2})(?![\w+/=-])", lower=True),
    # Django REST framework's token scheme (``Authorization: Token 9f8e…``; Rails' ``Token token="…"``)
    _own_secret("token-auth-header", "token in an Authorization header", ("authorization",),
                r"authorization['\"]?[ \t]*[:=][ \t]*['\"]?token\s",
                r"(?<![\w-])authorization['\"]?[ \t]*[:=][ \t]*['\"]?token[ \t]+(?:token=['\"]?)?"
                r"([A-Za-z0-9._~+/-]{16,}=*)(?![\w~+/=-])", lower=True, by_needle=True),
    _own_secret("cli-password", "password on a command line", _CLI_NEEDLES, "|".join(_CLI_NEEDLES),
                r"(?<![\w.-])(?:" + "|".join(_CLI_PASSWORD_LEADS) + r")('[^'\n]+'|\"[^\"\n]+\"|[^\s'\"\\;|&]+)"),
    _p("keyword-secret", "secret assigned to a keyword", "keyword.KeywordDetector", _KEYWORDS,
       f"{_DENYLIST}|token", lower=True, shown=0, flags=re.I, by_needle=True),
    # a key or token in a URL's query string (``?key=…``, ``&api_key=…``, ``&token=…``), whose name
    # the keyword detector does not read (``key``) or reads only up to the end of the line; after
    # keyword-secret: a value both find is reported as that one
    _own_secret("url-query-key", "key or token in a URL query string", _QUERY_NEEDLES, _QUERY_NAME,
                _QUERY_NAME + r"([A-Za-z0-9._~%+/=-]*[A-Za-z0-9_~%+/=-])", lower=True, by_needle=True),
)
#: Each plugin's needles as ASCII bytes (to look for them in a text's byte form).
_NEEDLE_BYTES = {p: tuple(n.encode("ascii") for n in p.needles) for p in PLUGINS}
#: Every plugin's needles, each with its form (``lower``: looked for in the folded text), for :class:`Needles`.
_NEEDLES = tuple(sorted({(n, p.lower) for p in PLUGINS for n in p.needles}))
_BY_KIND = {p.kind: p for p in PLUGINS}

_AWS_ID_RE = lazy(r"(?:A3T[A-Z0-9]|ABIA|ACCA|AKIA|ASIA)[0-9A-Z]{16}")
_JWT_TAIL_RE = lazy(r"[A-Za-z0-9_\-.+/=]*")
_TOKEN_END_RE = lazy(r"[\s\"'`\\]")
#: The rest of an OpenAI key after the detector's match (which stops 20 characters after the
#: ``T3BlbkFJ`` marker; a project key runs on for 100 more).
#: A password in a URL that holds ``&``, ``!``, ``*``, ``+``, ``=``, ``$`` or ``;``: RFC 3986 allows
#: these sub-delimiters in the userinfo, the detect-secrets plugin excludes every sub-delimiter.
#: ``$`` and ``;`` only after the password's first character, and then only in a password that
#: looks like a credential holding no ``${`` or ``$(`` (:func:`_url_password`): ``$`` starts a
#: shell reference (``https://u:$TOKEN@host``), ``;`` ends a command. The others (``'(),``)
#: stay excluded, as there: they end a token in code and prose; so do ``"`` and a backtick, which
#: no URL holds (``"https://"+user+":"+pw+"@"+host`` is code, not a password). The user name may
#: be empty (``redis://:S3cr3t@cache:6379/0``: Redis, which has no user before version 6, and
#: its clients read the password so), which the detect-secrets pattern requires.
_BASIC_AUTH_RE = lazy(r"://[^:/?#\[\]@$'(),;\s\"`]*:([^:/?#\[\]@$'(),;\s\"`][^:/?#\[\]@'(),\s\"`]*)@")
#: ``api-key``, ``x-api-key``, ``private-key``, ``db-pass``…: keywords the detect-secrets keyword
#: detector reads only with ``_`` or nothing between their words (``api_?key``).
#: (Only before an assignment, as the detector reads them: a value spelt so stays as written.)
_DASHED_KEYWORD_RE = lazy(r"(?:api|auth|service|account|db|database|priv|private|client|key)-(?:key|pass)"
                          r"(?=\w*['\"\]]{0,2}[ \t]*[:=])", re.I)
#: A value assigned to a name that ends in ``token`` (``token``, ``access_token``, ``GITHUB_TOKEN``,
#: ``X-Auth-Token``, ``accessToken``; not ``tokens``, ``tokenizer``, ``token_count``), which the
#: detect-secrets keyword list lacks: group 1 is the name before ``token``, group 2 the value, in
#: the characters of a token or password (no code such as ``match.group(1)`` or ``tokens[0]``),
#: ending where the value ends (a quote, a blank, ``,;)]}&``, a backslash).
_TOKEN_KEYWORD_RE = lazy(r"(?<![\w-])([\w-]{0,40}?)token['\"\]]{0,2}[ \t]*(?:=>|:=|=|:)[ \t]*['\"`]?"
                         r"([A-Za-z0-9._~+/=%#!*^$@-]+)(?![^\s'\"`,;)\]}&\\:]|:[^\s'\"`])", re.I)
#: Names ending in ``token`` whose values are no credentials: pagination, idempotency and
#: request tokens, a tokenizer's special tokens, counts, .NET's public key token (the last word
#: of the name before ``token``).
_NOT_SECRET_TOKENS = frozenset((
    "next", "page", "continuation", "pagination", "cursor", "sync", "resume", "idempotency", "cancellation",
    "client", "request", "purchase", "verification", "public", "pad", "eos", "bos", "unk", "sep", "cls",
    "mask", "stop", "start", "end", "special", "max", "min", "num", "total", "count", "first", "last", "prev",
    "previous", "input", "output", "prompt", "completion"))
_SNAKE_CASE_RE = lazy(r"[a-z][a-z0-9]*(?:_[a-z0-9]+)+")
#: A dotted attribute path (``self.api_key``, ``settings.db.password``): code naming a value.
_ATTRIBUTE_RE = lazy(r"[A-Za-z_]\w*(?:\.[A-Za-z_]\w*)+")
_NAME_WORDS_RE = lazy(r"[_-]+|(?<=[a-z0-9])(?=[A-Z])")
_OPENAI_TAIL_RE = lazy(r"[A-Za-z0-9_-]*")
#: Project, service-account and admin keys, which need not hold the ``T3BlbkFJ`` marker the
#: detect-secrets plugin (1.5) requires; the part after the prefix must look random (see
#: :func:`_random_enough`), so ``sk-proj-xxxxxxxxxxxxxxxxxxxx`` or ``sk-proj-your-key-here`` is none.
_OPENAI_PREFIXED_RE = lazy(r"(?<![A-Za-z0-9_-])sk-(?:proj|svcacct|admin)-([A-Za-z0-9_-]{20,})")
_KEY_HEADER_RE = lazy(r"-----BEGIN ([A-Z0-9 ]*?)PRIVATE KEY( BLOCK)?-----")
_KEY_BODY_RE = lazy(r"[A-Za-z0-9+/=]")
_PUTTY_END_RE = lazy(r"Private-MAC: *[0-9a-fA-F]+")
#: A value that stands for a credential rather than being one: a shell or template reference, a
#: mask, a Python format field (``{password}``, ``{}``, ``{settings.DB_PASSWORD}``) or a printf
#: conversion (``%s``, ``%(password)s``): an agent's code builds URLs so (adversarial trial, stop 36).
_REFERENCE_RE = lazy(r"^(?:\$\{?[\w.]+\}?|%[\w.]+%|<[^>]*>|\{\{.*\}\}|\{[\w.\[\]'\"]*\}|%(?:\([\w.]+\))?[sdr]"
                     r"|\*+|x+|X+|\.\.\.|…)$")


#: The only characters whose lower case holds an ASCII letter or has another length
#: (U+0130 ``İ`` → ``i̇``, U+212A KELVIN SIGN → ``k``): see :func:`_folded`.
_FOLD_SPECIAL = ("\u0130", "\u212a")


def _folded(text: str, raw: bytes | None = None) -> str | bytes:
    """``text`` with its ASCII letters in lower case, to find lower-case ASCII words at their
    code-point offsets: one byte per code point (``bytes``; every other character is ``?`` or,
    from a Latin-1 ``raw``, its own byte, not ASCII: no word holds either), or ``text.lower()`` itself when the text holds one of
    :data:`_FOLD_SPECIAL` (the only characters for which the two would differ). A third of
    the time of ``lower()`` and half its memory (a UCS-2 text), and not kept. ``raw``, if
    given, is ``text.encode("ascii", "replace")`` or (a text that encodes so) ``text.encode("latin-1")``."""
    if _FOLD_SPECIAL[0] in text or _FOLD_SPECIAL[1] in text:
        return text.lower()
    return (text.encode("ascii", "replace") if raw is None else raw).lower()


def folded(text: str, ascii_bytes: bytes | None = None) -> str | bytes:
    """``text`` folded for :func:`find_secrets` and :func:`find_home_paths` (their ``folded``
    argument), for a caller that runs both on one text: computed once instead of twice (about
    10 ms for 5 MB). ``ascii_bytes``, if the caller has it, is ``text.encode("ascii",
    "replace")``, or ``text.encode("latin-1")`` for a text that encodes so (see
    :meth:`fountain_audit.lint.rules.RuleContext.ascii_bytes`). Opaque: pass it on, do not read it."""
    return _folded(text, ascii_bytes)


def _word(hay: str | bytes, word: str) -> str | bytes:
    """``word`` in the type of ``hay`` (see :func:`_folded`)."""
    return word.encode("ascii") if type(hay) is bytes else word


def _entropy(s: str) -> float:
    """Shannon entropy of ``s``'s characters, in bits per character (:mod:`math` imported only
    here: a lint of text with no candidate credential never loads it, issue 9)."""
    import math
    n = len(s)
    return -sum(c / n * math.log2(c / n) for c in (s.count(ch) for ch in set(s)))


def _looks_like_credential(value: str) -> bool:
    """A keyword's value that reads as a credential rather than prose or a placeholder."""
    from detect_secrets.filters.heuristic import is_potential_uuid, is_sequential_string, is_templated_secret

    if len(value) < 8 or _REFERENCE_RE.match(value) or is_templated_secret(value):
        return False
    classes = sum((any(c.islower() for c in value), any(c.isupper() for c in value),
                   any(c.isdigit() for c in value), any(not c.isalnum() for c in value)))
    if classes < 2 or _entropy(value) < MIN_KEYWORD_ENTROPY:
        return False
    if is_sequential_string(value) or is_potential_uuid(value) or value.lower() in ("true", "false", "null", "none"):
        return False
    if _ATTRIBUTE_RE.fullmatch(value):
        return False  # code: `api_key = self.api_key`
    return not (value[0] in "/." or "://" in value)  # a path or a URL is not the secret itself


#: Plugins whose regexes capture the secret in a group (the rest match it whole).
_GROUPED = {"basic-auth", "aws-secret-key", "npm-token"}


_DETECTORS: dict[str, object] = {}


def _detector(plugin: _Plugin):
    """The detect-secrets plugin object (imported on first use: importing detect-secrets
    costs more than linting a small file)."""
    det = _DETECTORS.get(plugin.detector)
    if det is None:
        import importlib

        module, cls = plugin.detector.split(".")
        det = _DETECTORS[plugin.detector] = getattr(importlib.import_module(f"detect_secrets.plugins.{module}"), cls)()
    return det


def _matches(plugin: _Plugin, line: str) -> Iterator[tuple[int, str]]:
    """(position in ``line``, value) of each candidate the plugin's regexes find."""
    if plugin.own is not None:
        yield from (_own_secrets if plugin.kind in _OWN_CHECKS else _own_tokens)(plugin, line)
        return
    if plugin.kind == "keyword-secret":  # (the detector's regexes, searched in linear time: no detector object)
        # the detector reads api_key, not api-key: read `-` there as `_` (same length, same offsets)
        if _DENYLIST_RE.search(line):  # (not a line that is a candidate for `token` alone)
            norm = _DASHED_KEYWORD_RE.sub(lambda m: m.group().replace("-", "_"), line) if "-" in line else line
            seen = set()
            for value in _keyword_values(norm):
                pos = norm.find(value)
                while pos >= 0:
                    seen.add(pos)
                    yield pos, line[pos:pos + len(value)]
                    pos = norm.find(value, pos + len(value))
            for pos, end in _later_keyword_values(norm):
                if end - pos > _LONGEST_LATER_VALUE:  # (one of many keywords in one long token: below)
                    continue
                if pos not in seen:
                    seen.add(pos)
                    yield pos, line[pos:end]
        yield from _token_keywords(line)
        return
    det = _detector(plugin)
    if plugin.kind == "openai-key":
        yield from _openai_keys(det, line)
        return
    if plugin.kind == "jwt":
        yield from _jwts(det, line)
        return
    for regex in det.denylist + [_BASIC_AUTH_RE] if plugin.kind == "basic-auth" else det.denylist:
        for m in regex.finditer(line):
            g = 0
            if plugin.kind in _GROUPED and regex.groups:
                g = next((i for i in range(1, regex.groups + 1) if m.group(i)), 0)
            value = m.group(g)
            if regex is _BASIC_AUTH_RE and ("$" in value or ";" in value) and not _url_password(value):
                continue
            yield m.start(g), value
    if plugin.kind == "basic-auth":
        yield from _loose_url_passwords(line)


#: The detect-secrets keyword detector's value pattern (``SECRET``, 1.5), and the same without its
#: lookaheads that cost a scan each: ``(?=[^\v'"]*)`` always holds (a run of none), yet reads the
#: rest of the line (to a quote) before ``(?=\w+)`` (which ``(?=\w)`` decides) is tried; a line of
#: keywords each failing there (``"password=- " * 12000``: 3.5 s of lint) was read once per keyword.
_KEYWORD_SECRET = r"(?=[^\v\'\"]*)(?=\w+)[^\v\'\"]*[^\v,\'\"`]"
_KEYWORD_SECRET_LINEAR = r"(?=\w)[^\v\'\"]*[^\v,\'\"`]"
#: The keyword detector's ``(regex, group of the value, search)`` in its "config file" mode (see
#: :func:`_keyword_regexes`), compiled on first use.
_KEYWORD_REGEXES: list[tuple[re.Pattern[str], int, Callable[[re.Pattern[str], str], re.Match[str] | None]]] = []
#: The rest of a run of word characters (after a keyword, which is one).
_WORD_RUN_RE = lazy(r"\w*")


def _keyword_regexes() -> list[tuple[re.Pattern[str], int, Callable[[re.Pattern[str], str], re.Match[str] | None]]]:
    """The keyword detector's regexes of the "config file" mode (``CONFIG_DENYLIST_REGEX_TO_GROUP``,
    in its order), each as ``(regex, group of the value, search)``: its value pattern
    (:data:`_KEYWORD_SECRET`) replaced by :data:`_KEYWORD_SECRET_LINEAR`, which matches exactly the
    same strings with the same groups (lookaheads capture nothing) without reading the rest of the
    line at each keyword that fails; ``search(regex, line)``: ``regex.search(line)`` in linear time,
    :func:`_keyword_search` for a regex that starts with a keyword and the word it ends
    (``({keyword}|...)\\w*``), :func:`_semicolon_search` for the one of these that ends with a
    quoted value and ``;``, :func:`_quoted_search` for one that starts with a quoted value.
    Its keyword list is read with :data:`_MORE_KEYWORDS` added. Compiled once (replacing a memo
    keyed by the ``id()`` of the detector's table); a regex not spelt so is kept as it is."""
    if not _KEYWORD_REGEXES:
        from detect_secrets.plugins.keyword import (CONFIG_DENYLIST_REGEX_TO_GROUP, DENYLIST, DENYLIST_REGEX, QUOTE,
                                                    SECRET)

        listed = "|".join(DENYLIST)
        for regex, group in CONFIG_DENYLIST_REGEX_TO_GROUP.items():
            pattern = regex.pattern
            search = (_semicolon_search if pattern.startswith(DENYLIST_REGEX) and pattern.endswith(f"({SECRET})(\\2);")
                      else _keyword_search if pattern.startswith(DENYLIST_REGEX)
                      else _quoted_search if pattern.startswith(f"({QUOTE})({SECRET})(\\1)") else re.Pattern.search)
            pattern = pattern.replace(_KEYWORD_SECRET, _KEYWORD_SECRET_LINEAR).replace(
                listed, "|".join((listed,) + _MORE_KEYWORDS))
            if pattern != regex.pattern:
                regex = re.compile(pattern, regex.flags)
            _KEYWORD_REGEXES.append((regex, group, search))
    return _KEYWORD_REGEXES


_KEYWORD_STARTS: dict[int, re.Pattern[str]] = {}


def _keyword_start(flags: int) -> re.Pattern[str]:
    """The keyword detector's keywords (``api_?key|...|password|...``) and :data:`_MORE_KEYWORDS`
    as a regex with ``flags``."""
    rx = _KEYWORD_STARTS.get(flags)
    if rx is None:
        from detect_secrets.plugins.keyword import DENYLIST

        rx = _KEYWORD_STARTS[flags] = re.compile("|".join(DENYLIST + _MORE_KEYWORDS), flags)
    return rx


def _keyword_values(line: str) -> Iterator[str]:
    """What the keyword detector's ``analyze_string(line, CONFIG_DENYLIST_REGEX_TO_GROUP)`` yields:
    the value group of the first match of each of its regexes (:func:`_keyword_regexes`), each
    searched for in linear time by its ``search``."""
    for regex, group, search in _keyword_regexes():
        m = search(regex, line)
        if m is not None:  # (read in the line: a search may have read a copy with some characters replaced)
            yield line[m.start(group):m.end(group)] if m.start(group) >= 0 else None


#: The longest value after a line's first keyword that is read as a possible credential (a key in
#: base64 is at most a few hundred characters; a private key's block has a detector of its own).
#: Each value runs to its token's end: ``api_key=`` 2,000 times in one token gave 2,000 values of up
#: to 16,000 characters, each read whole (31 s for 16 KB; adversarial trial); bounded, linear.
_LONGEST_LATER_VALUE = 256

#: The fewest characters a piece of :func:`_later_keyword_values` reads from its keyword, past the
#: next keyword if need be: a value may hold a keyword (``DB_PASSWORD="SuperSecret#2024x"``, cut
#: at ``Secret``, had no closing quote in its piece; adversarial trial). Bounded, so linear.
_PIECE_MIN = 200


def _later_keyword_values(line: str) -> Iterator[tuple[int, int]]:
    """``(start, end)`` in ``line`` of the values assigned after the line's first keyword:
    the detector reads only the first match of each regex on a line, so on ``password=changeme
    password=Hw7k…`` (or ``export API_KEY=TODO; export DB_PASSWORD=Hw7k…``) the first value was
    read, rejected as no credential, and the next never read (adversarial trial). The line is
    cut at the first keyword of each word after the first one, and each piece, from its keyword
    to the next piece (at least :data:`_PIECE_MIN` characters), is read as :func:`_keyword_values`
    reads a line; a value that reaches the piece's end runs on to the end of its token (a blank,
    a quote, a backslash: where :func:`_trim` ends it), so that no tail of it is left out. The
    pieces overlap by at most :data:`_PIECE_MIN` characters and a token's end is searched for
    once: linear in the line."""
    keyword = _keyword_start(re.I)
    starts = []
    k = keyword.search(line)
    while k is not None:
        starts.append(k.start())
        k = keyword.search(line, _WORD_RUN_RE.match(line, k.end()).end())
    token_end = -1  # where the token that runs on past a piece's end ends (one search per token)
    n = len(line)
    for a, b in zip(starts[1:], starts[2:] + [n]):
        b = max(b, min(n, a + _PIECE_MIN))  # (a quoted value holding a keyword, "SuperSecret#1", read whole)
        piece = line[a:b]
        for regex, group, search in _keyword_regexes():
            if search is _keyword_search or search is _semicolon_search and "`" not in piece:
                # a regex led by a keyword: at the piece's own keyword only (each later keyword in
                # it starts a piece of its own; tried at each, pieces of "pwd=" * 50 read 50 times)
                m = regex.match(piece)
            else:
                m = search(regex, piece)
            if m is not None and m.start(group) >= 0:
                start, end = a + m.start(group), a + m.end(group)
                if end == b and b < n:  # (cut at the piece's end: the value runs on to its token's end)
                    if token_end < end:
                        t = _TOKEN_END_RE.search(line, end)
                        token_end = len(line) if t is None else t.start()
                    end = token_end
                yield start, end


def _keyword_search(regex: re.Pattern[str], line: str) -> re.Match[str] | None:
    """``regex.search(line)`` for a keyword detector regex that starts with a keyword and the rest
    of its word (``({keyword}|...)\\w*``, then a closing quote, a blank, ``:``, ``=`` or up to 50
    characters without a blank), in linear time. Tried from each keyword of a long word
    (``"password" * 16000 + "=-"``), the pattern read the word to its end and failed after it,
    once per keyword (quadratic). A keyword is word characters: from every keyword of a word the
    pattern reads on to the same end of the word, where nothing that follows it can start within
    the word; so a match from any of them holds exactly when one from the first holds (and the
    first is the leftmost). The pattern is matched at the first keyword of each word only."""
    keyword = _keyword_start(regex.flags)
    pos = 0
    while True:
        k = keyword.search(line, pos)
        if k is None:
            return None
        m = regex.match(line, k.start())
        if m is not None:
            return m
        pos = _WORD_RUN_RE.match(line, k.end()).end()


#: Where a quoted value may end in the keyword detector's pattern for ``keyword … "value";``: a
#: backquote before ``;`` after a character the value may end with.
_BACKQUOTE_END_RE = lazy("(?<=[^\v,'\"`])`;")
_QUOTE_OR_VT_RE = lazy("[\v'\"`]")


def _semicolon_search(regex: re.Pattern[str], line: str) -> re.Match[str] | None:
    """:func:`_keyword_search` for the keyword detector's regex for ``keyword … "value";`` (a
    quote, a value of :data:`_KEYWORD_SECRET_LINEAR`, the same quote and ``;``), in linear time.
    A value after a backquote runs on over backquotes to a quote or a vertical tab, and the
    pattern, tried at each backquote within 50 characters of each keyword (``"password `a " * 8000``),
    read it to its end and back (quadratic). It is searched for in a copy of the line in which
    each backquote that opens no value that can end (one a word character follows, with a
    :data:`_BACKQUOTE_END_RE` end at least two characters on in its run) and ends none is a comma:
    a character that neither opens nor closes a value, and that a value may hold but not end
    with, as a backquote; so the pattern finds the same match there (its spans, not its text),
    and reads at most one run to its end."""
    if "`" not in line:
        return _keyword_search(regex, line)
    ends = {m.start() for m in _BACKQUOTE_END_RE.finditer(line)}
    copy = list(line)
    last_end = -1  # the last value end of the run read (from the right), or -1
    for q in reversed([m.start() for m in _QUOTE_OR_VT_RE.finditer(line)]):
        if line[q] != "`":
            last_end = -1  # (a quote or a vertical tab ends a run)
        elif q in ends:
            last_end = q if last_end < 0 else last_end
        elif not (last_end >= q + 2 and _WORD_CHAR_RE.match(line, q + 1)):
            copy[q] = ","
    return _keyword_search(regex, "".join(copy))


_QUOTE_RE = lazy("['\"`]")
_WORD_CHAR_RE = lazy(r"\w")
#: A quoted value's characters in the keyword detector's patterns: up to a quote or a vertical tab.
_QUOTED_RUN_RE = lazy("[^\v'\"]*")


def _quoted_search(regex: re.Pattern[str], line: str) -> re.Match[str] | None:
    """``regex.search(line)`` for the keyword detector's regex that starts with a quoted value
    (``([`'"])(value)(\\1)``, then ``==`` and a keyword), in linear time. A value after a
    backquote runs on over backquotes to a quote or a vertical tab, and the pattern, tried from
    each backquote of such a run (``"`a" * 8000``), read it to its end and back (quadratic). The
    value must end at a backquote whose character before and text after the pattern accepts, and
    start after the opening one: when none ends far enough from one backquote (a word character
    after it), none does from a later one in the run, which is stepped over; the pattern is
    matched at every other quote."""
    pos = 0
    while True:
        q = _QUOTE_RE.search(line, pos)
        if q is None:
            return None
        s = q.start()
        m = regex.match(line, s)
        if m is not None:
            return m
        if line[s] == "`" and _WORD_CHAR_RE.match(line, s + 1):
            pos = _QUOTED_RUN_RE.match(line, s + 1).end()
        else:
            pos = s + 1


#: A JSON Web Token's first part after its ``eyJ`` (the detector's pattern): a dot must follow it.
_JWT_PART_RE = lazy(r"[A-Za-z0-9_=-]*")


def _jwt_matches(regex: re.Pattern[str], line: str) -> Iterator[re.Match[str]]:
    """``regex.finditer(line)`` for the detector's JWT pattern (``eyJ`` + a run of
    :data:`_JWT_PART_RE` + ``.`` + ...), in linear time: tried from each ``eyJ`` of a run of
    those characters that no dot follows, the pattern scanned to the run's end and failed, once
    per ``eyJ`` (80,000 of them on one line: 12.4 s of lint at 240 KB, quadratic; adversarial trial). No
    match can start in such a run, so it is stepped over; a match can only start at an ``eyJ``,
    so the pattern is matched at each one in turn, which finds what ``finditer`` finds."""
    pos, n = 0, len(line)
    while True:
        i = line.find("eyJ", pos)
        if i < 0:
            return
        e = _JWT_PART_RE.match(line, i + 3).end()
        if e >= n or line[e] != ".":
            pos = e if e > i + 3 else i + 3
            continue
        m = regex.match(line, i)  # (matched here, not searched on: a search would scan those runs)
        if m is None:
            pos = i + 1
            continue
        yield m
        pos = m.end() if m.end() > i else i + 1


def _jwts(det, line: str) -> Iterator[tuple[int, str]]:
    """(position, value) of each JSON Web Token: the detector's match, which stops before the
    signature, taken on to the end of the token (the characters of :data:`_JWT_TAIL_RE`, less
    trailing dots) when the whole is formally valid (the detector's ``is_formally_valid``), else
    the match alone if it is valid.

    Linear in the line however many matches one token run holds (``eyJ….eyJ….eyJ….``): the run
    last read and its end without dots are remembered; a match starting inside a value already
    taken to the end of its run is no new token (its value would lie inside that one, which
    :func:`_no_overlaps` keeps): not yielded. The validity of a match taken on is that of its
    first two parts (decoded as JSON), read once, and that of the parts after them (base64 only),
    remembered for each dot of the run, since every match in it shares them."""
    valid = det.is_formally_valid
    for regex in det.denylist:
        covered = -1      # end of the last value taken on: a match starting before it lies inside it
        run = (-1, -1)    # (from, to): line[from:to] is a run of _JWT_TAIL_RE read to its end
        end = -1          # the end of that run without its trailing dots
        rest_ok: dict[int, bool] = {}  # dot offset in the run -> the parts after it are valid
        for m in _jwt_matches(regex, line):
            p, q = m.span()
            if p < covered:
                continue
            if not run[0] <= q <= run[1]:
                run = (q, _JWT_TAIL_RE.match(line, q).end())
                end = run[1]
                while end > p and line[end - 1] == ".":
                    end -= 1
                rest_ok = {}
            # the value is line[p:end]: parts 0 and 1 (JSON) up to the second dot, then the rest
            d0 = line.find(".", p, end)
            d1 = line.find(".", d0 + 1, end) if d0 >= 0 else -1
            if d1 < 0:
                ok = valid(line[p:end])
            else:
                ok = valid(line[p:d1]) and _jwt_rest_ok(valid, line, d1, end, rest_ok)
            if ok:
                covered = end
                yield p, line[p:end]
            elif valid(m.group()):
                yield p, m.group()


#: A token's first two parts that decode to JSON (``{}``): ``is_formally_valid("e30.e30." + part)``
#: is the validity of ``part`` as a later part of a token (base64 only).
_JWT_HEAD = "e30.e30."


def _jwt_rest_ok(valid, line: str, dot: int, end: int, known: dict[int, bool]) -> bool:
    """Are the parts of ``line`` after the dot at ``dot``, up to ``end``, valid as later parts
    of a token? Each part is read once: what is found is remembered in ``known`` for each dot."""
    todo = []
    d = dot
    while d not in known:
        nxt = line.find(".", d + 1, end)
        todo.append((d, valid(_JWT_HEAD + line[d + 1:end if nxt < 0 else nxt])))
        if nxt < 0:
            ok = True
            break
        d = nxt
    else:
        ok = known[d]
    for d, part_ok in reversed(todo):
        ok = ok and part_ok
        known[d] = ok
    return known[dot]


def _token_keywords(line: str) -> Iterator[tuple[int, str]]:
    """(position, value) of each value assigned to a token name (:data:`_TOKEN_KEYWORD_RE`)
    that is no pagination or tokenizer token (:data:`_NOT_SECRET_TOKENS`) and reads as a
    credential (:func:`_token_value`)."""
    for name_start, name_end, start, end in _token_keyword_matches(line):
        words = [w for w in _NAME_WORDS_RE.split(line[name_start:name_end]) if w]
        if any(w.lower() in _NOT_SECRET_TOKENS for w in words[-2:]):  # (next_page_token, publicKeyToken)
            continue
        value = line[start:end]
        if value.endswith(".") and (not name_start or line[name_start - 1] not in "?&"):
            value = value.rstrip(".")  # (a sentence's full stop after it, `GITHUB_TOKEN=….`; a URL's query: its detector's)
        if _token_value(value):
            yield start, value


#: ``token`` in a name, in any case (``re.I`` reads U+212A KELVIN SIGN as ``k``, as the pattern does).
_TOKEN_WORD_RE = lazy("token", re.I)
#: The name characters right before a ``token`` (searched for in a window of 40: the longest name).
_TOKEN_NAME_RE = lazy(r"[\w-]*\Z")
_NAME_START_RE = lazy(r"(?<![\w-])")
#: After ``token``: closing quotes or bracket and blanks, up to the operator.
_TOKEN_CLOSING_RE = lazy("['\"\\]]{0,2}[ \t]*")
_BLANKS_RE = lazy("[ \t]*")
#: The run of a token name's value characters, and the test that a value ends where its run does (a
#: ``:`` ends it before a blank, a quote or the line's end: `TOKEN=…: done`; adversarial trial, stop 38).
_TOKEN_VALUE_RUN_RE = lazy(r"[A-Za-z0-9._~+/=%#!*^$@-]*", re.I)
_TOKEN_VALUE_END_RE = lazy(r"(?![^\s'\"`,;)\]}&\\:]|:[^\s'\"`])")


def _token_keyword_matches(line: str) -> Iterator[tuple[int, int, int, int]]:
    """(name start, ``token`` start, value start, value end) of each match of
    :data:`_TOKEN_KEYWORD_RE` in ``line`` (its group 1 and group 2 spans), what ``finditer``
    finds, in linear time. The pattern, tried from each name start, read the value's run of
    characters to its end, and failed there when a character that ends no value followed it
    (``'token=' * 16000 + '('``: every ``token`` of the run, 18 s of lint; adversarial trial).

    A match's name starts where a run of ``[\\w-]`` starts (the lookbehind), at most 40
    characters before its ``token``; after it the pattern has no choice but the operator (``=>``
    or ``=``, ``:=`` or ``:``) and the optional quote, tried in this order; its value is the whole
    run of value characters from there (a shorter one is followed by a value character, which the
    lookahead refuses), and the match holds when the run ends at a blank, a quote, ``,;)]}&\\``
    or the line's end. So a value run is read once, however many names lead into it: the run
    last read is remembered."""
    n = len(line)
    pos = 0             # where finditer's search goes on
    run = (0, 0)        # (from, to): line[from:to] is a run of value characters read to its end
    for tm in _TOKEN_WORD_RE.finditer(line):
        t = tm.start()
        w = t - 40 if t > 40 else 0
        s = _TOKEN_NAME_RE.search(line, w, t).start()
        if s < pos or (s == w and not _NAME_START_RE.match(line, s)):
            continue  # (a name of more than 40 characters, or one starting inside the last match)
        c = _TOKEN_CLOSING_RE.match(line, t + 5).end()
        for op in ("=>", ":=", "=", ":"):
            if not line.startswith(op, c):
                continue
            v = _BLANKS_RE.match(line, c + len(op)).end()
            for start in (v + 1, v) if v < n and line[v] in "'\"`" else (v,):
                if start < run[0]:  # (before the run last read: read up to it)
                    e = _TOKEN_VALUE_RUN_RE.match(line, start, run[0]).end()
                    run = (start, run[1] if e == run[0] else e)
                elif start >= run[1]:
                    run = (start, _TOKEN_VALUE_RUN_RE.match(line, start).end())
                end = run[1]
                if end > start and _TOKEN_VALUE_END_RE.match(line, end):
                    yield s, t, start, end
                    pos = end
                    break
            else:
                continue
            break


def _token_value(value: str) -> bool:
    """A token name's value that reads as a credential: as a keyword's (:func:`_looks_like_credential`),
    and 12+ characters holding a letter and a digit, with few ``-``/``_`` (``Photosynthesis``, a
    streamed word, and ``text-embedding-3-small``, a model name, are none), no short part
    between dots, not a snake_case name."""
    if "." in value and min(len(part) for part in value.split(".")) < 8:
        return False  # an attribute (``self.api_token``), a version: a JWT's parts are longer
    if _SNAKE_CASE_RE.fullmatch(value):
        return False  # a variable (``imdsv2_session_token``)
    return (len(value) >= 12 and any(c.isdigit() for c in value) and any(c.isalpha() for c in value)
            and sum(c in "-_" for c in value) <= len(value) // 8 and _looks_like_credential(value))


#: A URL's scheme separator and user name (as :data:`_BASIC_AUTH_RE` reads it), then the colon
#: before its password.
_URL_USER_RE = lazy(r"://[^:/?#\[\]@$'(),;\s\"`]*:")
#: What a password in a URL may not hold even unencoded (see :data:`_BASIC_AUTH_RE`): it ends there.
_URL_PASSWORD_END_RE = lazy(r"[\s\[\]'(),\"`]")
#: The host after a URL's userinfo: a name or IPv4 address, or an IPv6 one in brackets, an
#: optional port, then the end of the authority (a path, query or fragment, or the URL's end).
_URL_HOST_RE = lazy(r"(?:[A-Za-z0-9](?:[A-Za-z0-9._-]*[A-Za-z0-9])?|\[[0-9A-Fa-f:.]+\])(?::[0-9]*)?"
                    r"(?=[/?#\s'\"`),;\]]|$)")
#: What follows ``host:`` in a URL that has no password: a port, then its path or query
#: (``https://registry.example.com:443/@scope/pkg``, ``https://host:8443?mail=a@b.c``).
_PORT_THEN_PATH_RE = lazy(r"[0-9]*[/?]")


def _loose_url_passwords(line: str) -> Iterator[tuple[int, str]]:
    """``(offset, password)`` of each password in a URL of ``line`` that holds an unencoded ``#``,
    ``?``, ``/`` or ``@`` (``postgres://admin:Xk9#mQ2v@db:5432/app``; new-user trial: such a
    password was not found, or half of it was redacted, ``Xk9@mQ2v@db`` leaving ``mQ2v``). RFC
    3986 ends the user information at the first of ``/?#`` and a parser such as ``urlsplit``
    reads it to the last ``@``, but people paste passwords unencoded: the password runs from
    the colon after the user name to the first ``@`` followed by a host (a name or address, a
    port, then ``/``, ``?``, ``#``, the end of the URL or of the text), within the URL's token
    (to a blank, quote or bracket, and before the next ``://``). A ``host:port`` followed by a
    path or query holding an ``@`` is no password (``https://host:443/@scope/pkg``); ``$`` and
    ``;`` as in :data:`_BASIC_AUTH_RE` (not first, and then as :func:`_url_password` says). The passwords :data:`_BASIC_AUTH_RE` reads (none of
    these four characters) are left to it. Linear: each part of the line is read once."""
    n = len(line)
    at = line.find("://")
    while at >= 0:
        following = line.find("://", at + 3)
        m = _URL_USER_RE.match(line, at)
        if m is not None:
            start = m.end()
            stop = following if following >= 0 else n
            end = _URL_PASSWORD_END_RE.search(line, start, stop)
            stop = end.start() if end is not None else stop
            sign = line.find("@", start, stop)
            while sign > start:
                if _URL_HOST_RE.match(line, sign + 1):
                    value = line[start:sign]
                    if any(c in value for c in "#?/@") and not _PORT_THEN_PATH_RE.match(value) and (
                            ("$" not in value and ";" not in value)
                            or value[0] not in "$;" and _url_password(value)):
                        yield start, value
                    break
                sign = line.find("@", sign + 1, stop)
        at = following


def _url_password(value: str) -> bool:
    """A URL's password holding ``$`` or ``;`` (see :data:`_BASIC_AUTH_RE`) that is one: no shell
    reference or substitution in it (``${``, ``$(``) and credential-like (:func:`_looks_like_credential`)."""
    return "${" not in value and "$(" not in value and _looks_like_credential(value)


def _bearer_token(value: str) -> bool:
    """A bearer token (RFC 6750 ``b64token``): 16+ characters, random-looking (:func:`_random_enough`),
    few ``-``/``_`` (``YOUR_ACCESS_TOKEN_HERE`` is none)."""
    return (sum(c in "-_" for c in value) <= len(value) // 8 and _random_enough(value)
            and not _REFERENCE_RE.match(value))


def _basic_credentials(value: str) -> bool:
    """Basic credentials (RFC 7617): base64 of printable ``user:password`` with a password."""
    import base64
    import binascii

    if len(value) % 4:
        return False
    try:
        plain = base64.b64decode(value, validate=True).decode("utf-8")
    except (binascii.Error, ValueError):
        return False
    return plain.isprintable() and ":" in plain and plain.partition(":")[2] != ""


def _query_key(value: str) -> bool:
    """A URL query parameter's value that reads as a key (:data:`_QUERY_NAME`): 16+ characters,
    no path (``/`` or ``%2F``: an object's key, ``?key=uploads/2024/report.pdf``), no short part
    between dots (a file name, a version), random-looking as a bearer token is
    (:func:`_bearer_token`: ``?key=value``, ``?token=YOUR_TOKEN_HERE`` are none)."""
    if len(value) < 16 or "/" in value or "%2f" in value.lower():
        return False
    if "." in value and min(len(part) for part in value.split(".")) < 8:
        return False
    return _bearer_token(value)


#: The check a value must pass for each kind :func:`_own_secret` made.
_OWN_CHECKS = {"bearer-token": _bearer_token, "token-auth-header": _bearer_token, "url-query-key": _query_key,
               "basic-auth-header": _basic_credentials,
               "cli-password": lambda v: _looks_like_credential(v)}


def _own_secrets(plugin: _Plugin, line: str) -> Iterator[tuple[int, str]]:
    """(position, value) of group 1 of each match of the plugin's own pattern (quotes around it
    taken off) that passes its kind's check (:data:`_OWN_CHECKS`)."""
    check = _OWN_CHECKS[plugin.kind]
    for m in plugin.own.finditer(line):
        pos, value = m.start(1), m.group(1)
        if len(value) >= 2 and value[0] in "'\"" and value[-1] == value[0]:
            pos, value = pos + 1, value[1:-1]
        if check(value):
            yield pos, value


def _own_tokens(plugin: _Plugin, line: str) -> Iterator[tuple[int, str]]:
    """(position, value) of each match of the plugin's own pattern whose group 1 looks like a
    random token (:func:`_token_like`), the value taken to the end of the token (the
    characters of :data:`_TOKEN_CHARS` after the match), so none of it is left unredacted."""
    for m in plugin.own.finditer(line):
        if _token_like(plugin.kind, m.group(1)):
            yield m.start(), line[m.start():_OWN_TAIL_RE.match(line, m.end()).end()]


_OWN_TAIL_RE = lazy(f"[{_TOKEN_CHARS}]*")


def _token_like(kind: str, body: str) -> bool:
    """The random part of a token, not a placeholder, prose or an identifier: at least
    :data:`MIN_KEYWORD_ENTROPY` bits per character, few ``-``/``_`` (words joined by them are
    prose), and its character classes: a Hugging Face token (34 random letters) has 6+
    upper- and 6+ lower-case letters (``AutoModelForSequenceClassification`` has 5 capitals);
    a GitHub or Anthropic token holds lower- and upper-case letters and digits; a Google key
    two of these classes (35 characters: one in 400 keys has no digit)."""
    if _entropy(body) < MIN_KEYWORD_ENTROPY or sum(c in "-_" for c in body) > len(body) // 8:
        return False
    lower = sum(c.islower() for c in body)
    upper = sum(c.isupper() for c in body)
    if kind == "huggingface-token":
        return lower >= 6 and upper >= 6
    classes = (lower > 0) + (upper > 0) + any(c.isdigit() for c in body)
    return classes >= (2 if kind in _TWO_CLASS_TOKENS else 3)


#: Token kinds whose random part may hold two character classes only: a Google key (one in 400
#: has no digit), and keys written in lower-case hexadecimal or lower case and digits.
_TWO_CLASS_TOKENS = frozenset({"google-api-key", "openrouter-api-key", "perplexity-api-key", "digitalocean-token",
                               "shopify-token"})


#: The characters of the run the OpenAI detector's pattern (``sk-[A-Za-z0-9-_]*[A-Za-z0-9]{20}T3BlbkFJ
#: [A-Za-z0-9]{20}``) reads from its ``sk-``: every character of a match is one of them.
_OPENAI_RUN_RE = lazy(r"[A-Za-z0-9_-]*")
#: The detector's marker, which a match holds after 23 characters or more and before 20.
_OPENAI_MARKER = "T3BlbkFJ"


def _openai_matches(regex: re.Pattern[str], line: str) -> Iterator[re.Match[str]]:
    """``regex.finditer(line)`` for the detector's OpenAI pattern, in linear time: tried from each
    ``sk-``, the pattern reads the run of :data:`_OPENAI_RUN_RE` characters to its end and backtracks
    over it looking for the marker, once per ``sk-`` (``"sk-proj-" * 16000``, 128 KB: 9.9 s of lint;
    ``"sk-" * 40000 + "T3BlbkFJ"``: 21 s; adversarial trial). A match lies in one such run and ends
    20 characters after the last marker of the run it can use (the ``*`` is greedy), which every
    ``sk-`` of the run before it can use too: so a run holds at most one match, from its first
    ``sk-`` (at or after where the search goes on), or none. The pattern is matched there once,
    when the run holds a marker far enough from that ``sk-``; then the search goes on after the
    run, which finds what ``finditer`` finds."""
    pos = 0
    while True:
        i = line.find("sk-", pos)
        if i < 0:
            return
        e = _OPENAI_RUN_RE.match(line, i).end()  # (> i: "sk-" is of the run)
        if line.find(_OPENAI_MARKER, i + 23, e - 20) >= 0:
            m = regex.match(line, i)  # (matched here, not searched on: a search would read the run again)
            if m is not None:
                yield m
        pos = e


def _openai_keys(det, line: str) -> Iterator[tuple[int, str]]:
    """The detect-secrets plugin's matches, extended to the end of the key, then prefixed keys
    without its marker (the same key found twice is one secret: see :func:`_no_overlaps`). An
    Anthropic key (``sk-ant-``) that happens to hold the marker is no OpenAI key."""
    for regex in det.denylist:
        for m in _openai_matches(regex, line):
            if line.startswith("sk-ant-", m.start()):
                continue
            yield m.start(), line[m.start():_OPENAI_TAIL_RE.match(line, m.end()).end()]
    for m in _OPENAI_PREFIXED_RE.finditer(line):
        if _random_enough(m.group(1)):
            yield m.start(), m.group()


def _random_enough(body: str) -> bool:
    """Two character classes or more and at least :data:`MIN_KEYWORD_ENTROPY` bits per character."""
    classes = sum((any(c.islower() for c in body), any(c.isupper() for c in body), any(c.isdigit() for c in body)))
    return classes >= 2 and _entropy(body) >= MIN_KEYWORD_ENTROPY


#: A URL query parameter's name, from its ``?`` or ``&`` to its ``=`` (searched for right before a
#: keyword's value, in the 64 characters before it).
_QUERY_PARAMETER_RE = lazy(r"[?&][\w-]{1,60}=\Z")
#: Where a query parameter's value ends (``&``, ``#``: within a query a value spells them ``%26``, ``%23``).
_QUERY_VALUE_END_RE = lazy("[&#]")


def _trim(plugin: _Plugin, pos: int, value: str, line: str) -> tuple[int, str]:
    """The secret of a plugin's match at ``pos`` of ``line``: a keyword's value (or an npm token)
    up to the end of its token, without closing punctuation, and a query parameter's
    (``?api_key=…&page=2``) up to the next parameter; an Azure key without its ``AccountKey=``."""
    if plugin.kind in ("keyword-secret", "npm-token"):
        value = _TOKEN_END_RE.split(value, 1)[0].rstrip(".,;:)]}>")
        if plugin.kind == "keyword-secret" and ("&" in value or "#" in value) \
                and _QUERY_PARAMETER_RE.search(line, max(0, pos - 64), pos):
            value = _QUERY_VALUE_END_RE.split(value, 1)[0]
    elif plugin.kind == "azure-storage-key" and value.startswith("AccountKey="):
        pos, value = pos + len("AccountKey="), value[len("AccountKey="):]
    return pos, value


#: Provider tokens whose detect-secrets pattern has a fixed length (``ghp_`` + 36, ``sk_live_`` + 24):
#: the value is taken on to the end of its run of these characters, so that a longer token (Stripe's
#: are up to 99 characters) is not redacted with its tail left in the text.
_RUNS_ON = {"github-token": frozenset("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_"),
            "stripe-key": frozenset("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789"),
            "gitlab-token": frozenset("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_-"),
            "slack-token": frozenset("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-")}


#: The run of :data:`_RUNS_ON` characters from a position, for each kind.
_RUN_RE = {kind: lazy("[" + "".join(re.escape(c) for c in sorted(chars)) + "]*") for kind, chars in _RUNS_ON.items()}


#: The longest JSON string value (as written, escapes included) read whole after a keyword.
_JSON_VALUE_MAX = 256
#: A JSON member ``"name": "value"`` (on one line): group 1 the name, group 2 the value as written,
#: up to its closing unescaped quote, at most :data:`_JSON_VALUE_MAX` characters. Linear: each
#: attempt starts at a quote and reads at most 64 + 256 characters, disjoint classes, no nesting.
_JSON_MEMBER_RE = lazy(r'"([^"\\\n]{1,64})"[ \t]*:[ \t]*"((?:[^"\\\n]|\\[^\n]){1,%d})"' % _JSON_VALUE_MAX)
#: A JSON member whose name and value are on different lines (a tool note's arguments span
#: lines: ``"password":\n"…"``, ``"password"\r\n: "…"``): group 1 the name as written (JSON
#: escapes allowed, ``"pass\u0077ord"``: decoded before it is read), group 2 the value as in
#: :data:`_JSON_MEMBER_RE`. JSON whitespace (blanks, tabs, CR, LF) of any length around the colon, a
#: line end among it (the lookahead: members on one line are :data:`_JSON_MEMBER_RE`'s, read line by
#: line). Linear: an attempt starts at a quote, reads at most 64 characters of name, then a run of
#: whitespace, a colon, whitespace and at most 256 characters of value, disjoint classes, no
#: nesting; a run of whitespace is read by the attempt from the one name before it.
_JSON_SPLIT_MEMBER_RE = lazy(r'"((?:[^"\\\r\n]|\\[^\r\n]){1,64})"(?=[ \t]*(?::[ \t]*)?[\r\n])[ \t\r\n]*:[ \t\r\n]*'
                             r'"((?:[^"\\\r\n]|\\[^\r\n]){1,%d})"' % _JSON_VALUE_MAX)
_WHITESPACE_RE = lazy(r"\s")


def _json_keyword_values(line: str, member: LazyPattern = _JSON_MEMBER_RE) -> Iterator[tuple[int, str, int]]:
    """(position, value, member start) of each JSON string value whose member name is a
    keyword's (a password, a secret, a key, a name ending in ``token``), taken whole: up to its closing unescaped quote,
    escapes, blanks and any character included (``{"password":"Zq8v k9pL"}``, ``"Zq8v\\"s"``,
    ``"😀Zq8v…"``), so no tail of it is left unredacted. The value, decoded, must read as a
    credential (:func:`_looks_like_credential`; a token name's, :func:`_token_value`); one holding
    a blank, also its first word (as the keyword detector reads it), so prose (``"password_hint": "name of your first pet"``)
    stays prose. ``member``: the regex of the members to read (:data:`_JSON_MEMBER_RE`, on one line;
    :data:`_JSON_SPLIT_MEMBER_RE`, across lines, whose names may hold escapes). Each value comes
    with the start of its member (its name's opening quote)."""
    for m in member.finditer(line):
        name, value = m.group(1), m.group(2)
        if "\\" in name:  # (only :data:`_JSON_SPLIT_MEMBER_RE` lets a name hold escapes)
            try:
                name = _json_string(name)
            except ValueError:
                continue
            if not isinstance(name, str):
                continue
        check = _looks_like_credential
        if not _DENYLIST_RE.search(name):
            if not name.lower().endswith("token"):
                continue
            words = [w for w in _NAME_WORDS_RE.split(name[:-5]) if w]
            if any(w.lower() in _NOT_SECRET_TOKENS for w in words[-2:]):
                continue
            check = _token_value  # (as :func:`_token_keywords` reads a token name's value)
        try:
            plain = _json_string(value) if "\\" in value else value
        except ValueError:
            plain = value
        if not isinstance(plain, str) or not check(plain):
            continue
        if _WHITESPACE_RE.search(plain) and not check(plain.split(None, 1)[0] if plain.split() else ""):
            continue
        yield m.start(2), value, m.start()


def _json_string(body: str):
    """The value of the JSON string literal ``"body"`` (:func:`json.loads`, imported only for
    a value holding an escape: most texts have none, and importing :mod:`json` is a millisecond
    of a lint's start-up, issue 9). Raises ``ValueError`` when it is not one."""
    import json
    return json.loads(f'"{body}"')


def _line_secrets(plugin: _Plugin, line: str, base: int) -> Iterator[Secret]:
    if plugin.kind == "keyword-secret" and '"' in line:
        whole = [(pos, value) for pos, value, _ in _json_keyword_values(line)]
        if whole:  # (a value the detector also finds, or a part of it, is this one)
            for pos, value in whole:
                yield Secret(base + pos, base + pos + len(value), plugin.kind, plugin.label, value, 0)
            starts = [pos for pos, _ in whole]  # (in order, not overlapping)
            for s in _line_secrets_found(plugin, line, base):
                k = bisect.bisect_right(starts, s.start - base) - 1
                if k < 0 or s.start - base >= starts[k] + len(whole[k][1]):
                    yield s
            return
    yield from _line_secrets_found(plugin, line, base)


def _line_secrets_found(plugin: _Plugin, line: str, base: int) -> Iterator[Secret]:
    run = _RUN_RE.get(plugin.kind)
    if run is not None:
        # Linear in the line however many matches one run holds (``ghp_ghp_ghp_…``): the run
        # last read is remembered (a match ending inside it is taken on to its end without
        # reading it again), and a match that starts inside a value already found and ends at
        # the same run end is no new secret (its value would be a suffix of that one, which
        # :func:`_no_overlaps` drops): not yielded, so no value is sliced once per match.
        walked = (-1, -1)           # (from, to): line[from:to] is a run read to its end
        first: dict[int, int] = {}  # run end -> start of the first value found ending there
    # (a value found by its shape alone is judged for a placeholder on the detector's own match, before
    # a token is taken on to the end of its run: text glued after a real token does not hide it)
    judged = plugin.kind not in _CHECKED_KINDS and (plugin.own is None or plugin.kind in _OWN_CHECKS)
    for pos, value in _matches(plugin, line):
        pos, value = _trim(plugin, pos, value, line)
        if not value:
            continue
        if judged and _placeholder(plugin.kind, value):
            continue
        if run is not None:
            end = pos + len(value)
            if walked[0] <= end <= walked[1]:
                end = walked[1]
            else:
                walked = (end, run.match(line, end).end())
                end = walked[1]
            if first.get(end, end) <= pos:
                continue
            first[end] = pos
            value = line[pos:end]
        if plugin.kind == "aws-secret-key" and _AWS_ID_RE.fullmatch(value):
            continue  # the key ID; reported as aws-access-key
        if plugin.kind == "aws-access-key" and not _AWS_ID_RE.fullmatch(value):
            continue  # the secret key; reported as aws-secret-key
        if plugin.kind == "keyword-secret" and not _looks_like_credential(value):
            continue
        yield Secret(base + pos, base + pos + len(value), plugin.kind, plugin.label, value,
                     min(plugin.shown, len(value) // 3))


#: Kinds whose values are already tested for looking random or credential-like where they are
#: found (keywords, Authorization headers, key blocks; and our own token patterns, see
#: :func:`_own_tokens`): no placeholder test.
_CHECKED_KINDS = frozenset({"keyword-secret", "private-key", "jwt", "anthropic-key", "google-api-key",
                            "huggingface-token", "bearer-token", "token-auth-header", "basic-auth-header",
                            "url-query-key"})
#: A credential's leading words (``ghp_``, ``sk_live_``, ``xoxb-``, ``github_pat_``), left out when
#: judging whether the rest is a placeholder's filler.
_PLACEHOLDER_PREFIX_RE = lazy(r"[A-Za-z]+[_-](?:[A-Za-z]+[_-])?")
#: The characters documentation fills a credential's shape with (``ghp_xxxx…``, ``AKIAXXXX…``,
#: ``sk_live_0000…``, ``****``): in a random base62 token about one character in twenty is one of them.
_FILLER = frozenset("xX0*.")
#: The words of a documentation placeholder, between ``_``/``-`` or the ends (``ghp_YOUR_TOKEN_HERE_…``,
#: ``xoxb-your-token``, ``REPLACE_ME``): base62 tokens hold neither separator, the others' random parts
#: hold such a word between two of them by a chance of about one in 62**4.
_PLACEHOLDER_WORD_RE = lazy(r"(?<![A-Za-z0-9])(?:your|here|replace[_-]?me|change[_-]?me|placeholder)(?![A-Za-z0-9])",
                            re.I)
#: Passwords in a URL or on a command line that only name the field (``postgres://user:password@host``).
_PASSWORD_WORDS = frozenset({"password", "passwd", "pass", "pwd", "pw", "secret"})


def _placeholder(kind: str, value: str) -> bool:
    """Whether ``value``, found as a ``kind`` credential by its shape alone (a provider's prefix
    and length, a URL's or a command line's password), is a documentation placeholder rather than a
    credential: after its leading words, half of it or more filler (``x``, ``X``, ``0``, ``*``,
    ``.``: ``ghp_xxxx…``, ``AKIAXXXXXXXXXXXXXXXX``, ``xoxb-000…-xxxx…``; a real token followed by
    such a run in the same word is still one), a placeholder's words with nothing random beside them
    (``ghp_YOUR_TOKEN_HERE_000…``; ``glpat-<random>-here`` is a token), and for a password a
    reference or a mask (``<password>``, ``$DB_PASS``, ``****``) or the field's own name in lower or
    upper case (``user:password@``; ``Password`` may be a real one). Such a value holds nothing to
    leak; AWS's documented example key ``AKIAIOSFODNN7EXAMPLE`` is still reported (it has the shape
    of a real one)."""
    if kind == "basic-auth" or kind == "cli-password":
        v = value.strip("'\"")
        # (the field's name as a placeholder spells it, `password` or `PASSWORD`; `Password` may be a weak real one)
        return (v in _PASSWORD_WORDS or v.isupper() and v.lower() in _PASSWORD_WORDS) or bool(_REFERENCE_RE.match(v))
    prefix = _PLACEHOLDER_PREFIX_RE.match(value)
    rest = value if prefix is None else value[prefix.end():]
    if len(rest) >= 8 and 2 * sum(c in _FILLER for c in rest) >= len(rest):
        return True
    if _PLACEHOLDER_WORD_RE.search(rest) is None:
        return False
    # the words, and nothing random beside them (`glpat-<20 random>-here` is a real token glued to a word)
    left = _PLACEHOLDER_WORD_RE.sub("", rest).replace("_", "").replace("-", "")
    return len(left) < 16 or not _random_enough(left.strip("xX0*."))


def _private_keys(text: str, lines: Iterable[tuple[int, str]]) -> Iterator[Secret]:
    """Whole key blocks, header to footer (across lines or ``\\n`` escapes); a header with no
    key body after it (a mention in prose) is no secret."""
    for base, line in lines:
        for m in _KEY_HEADER_RE.finditer(line):
            key = _key_block(text, base + m.start(), base + m.end(), m.group(1))
            if key is not None:
                yield key
        p = line.find("PuTTY-User-Key-File")
        if p >= 0:
            start = base + p
            f = _PUTTY_END_RE.search(text, start, start + 20000)
            end = f.end() if f else base + len(line)
            yield Secret(start, end, "private-key", "private key", text[start:end], 0)


def _key_block(text: str, start: int, after: int, name: str) -> Secret | None:
    """The key block whose header (``-----BEGIN NAME PRIVATE KEY-----``) spans ``start`` to
    ``after`` in ``text``: up to its footer, or to the end of its body when it has none; ``None``
    when no key body follows the header (a mention in prose)."""
    footer = re.compile(r"-----END " + re.escape(name) + r"PRIVATE KEY( BLOCK)?-----")
    f = footer.search(text, start, start + 40000)
    end = f.end() if f else _body_end(text, after)
    body = text[after:f.start() if f else end]
    if len(_KEY_BODY_RE.findall(body)) >= 32:
        return Secret(start, end, "private-key", "private key", text[start:end], 0)
    return None


#: The fewest characters of a private key's body line that :func:`_key_lines` looks for elsewhere
#: in the text: a PEM line holds 64, a last line fewer; ``MII`` or ``-----`` would mask common text.
MIN_KEY_LINE = 24
_KEY_LINE_SPLIT_RE = lazy(r"\\r\\n|\\n|\\r|\r?\n|\r")
_KEY_LINE_RE = lazy(r"[A-Za-z0-9+/=]+")


def _key_lines(found: Sequence[Secret]) -> list[Secret]:
    """The body lines of the private keys in ``found``, each a secret of its own for
    :func:`_repeats`: a reply that quotes one line of a key block shows a part of the key.
    Only lines of at least :data:`MIN_KEY_LINE` base64 characters that look random
    (:func:`_random_enough`)."""
    out: list[Secret] = []
    for s in found:
        if s.kind != "private-key":
            continue
        for line in _KEY_LINE_SPLIT_RE.split(s.value):
            line = line.strip()
            if len(line) >= MIN_KEY_LINE and _KEY_LINE_RE.fullmatch(line) and _random_enough(line):
                out.append(Secret(s.start, s.start, s.kind, s.label, line, 0))
    return out


def _body_end(text: str, pos: int) -> int:
    """End of a key body without a footer: the base64 run after ``pos`` (lines or escapes)."""
    m = re.compile(r"(?:\\n|\\r|\r?\n|[A-Za-z0-9+/=])*").match(text, pos)
    return m.end() if m else pos


def _line_starts(text: str) -> list[int]:
    starts = [0]
    find = text.find
    i = find("\n")
    while i >= 0:
        starts.append(i + 1)
        i = find("\n", i + 1)
    return starts


def find_secrets(text: str, allow: Sequence[re.Pattern[str]] = (), *, ascii_bytes: bytes | None = None,
                 folded: str | bytes | None = None) -> list[Secret]:
    """Every secret in ``text``, sorted by position, overlaps resolved (the earlier, then
    the longer one wins). A secret whose value matches one of ``allow`` (``re.search``) is
    left out. ``ascii_bytes`` (``text.encode("ascii", "replace")``, or ``"latin-1"`` when it encodes so) and ``folded``
    (:func:`folded` of ``text``): if the caller has them. Never raises on input."""
    global _LAST_FOUND
    last = _LAST_FOUND
    if not allow and last is not None and last[0] is text:  # (lint's V101, then the excerpts of its findings)
        return list(last[1])
    if ascii_bytes is None:
        ascii_bytes = _one_byte_form(text)
    found = _plain_secrets(text, ascii_bytes, folded)
    decoded: list[tuple[str, Secret]] = []
    if b"\\" in ascii_bytes or _holds_invisible(text, ascii_bytes):  # (a memchr of the bytes, not a search of the text)
        # JSON and Markdown escapes (\", \/, \uXXXX, \_ …), invisible characters: the lines holding
        # them are read decoded too
        decoded = [(v, s) for v, s in _escaped_secrets(text)
                   if not (allow and any(p.search(v) for p in allow))]
        found.extend(s for _, s in decoded)
    if allow:
        found = [s for s in found if not any(p.search(s.value) for p in allow)]
    found = _no_overlaps(found + list(_repeats(text, found + [s._replace_value(v) for v, s in decoded]
                                                + _key_lines(found))))
    if not allow:
        _LAST_FOUND = (text, tuple(found))
    return found


#: The text :func:`find_secrets` last read without an allow list, and what it found there.
_LAST_FOUND: tuple[str, tuple[Secret, ...]] | None = None


@on_forget
def _forget_last_found() -> None:
    global _LAST_FOUND
    _LAST_FOUND = None


#: Below this many code points :func:`_plain_secrets` tests each needle with ``in`` directly, without
#: :class:`Needles` (whose one pass over a form of the text pays off when many needles are asked for).
_SMALL_TEXT = 4096


def _plain_secrets(text: str, ascii_bytes: bytes | None = None, folded: str | bytes | None = None,
                   joined: Callable[[int, int], bool] | None = None) -> list[Secret]:
    """The secrets the detectors find in ``text`` as it is written (no repeats, no allow list).
    ``joined(a, b)``: are offsets ``a`` and ``b`` of ``text`` on lines that follow one another in
    the file (see :meth:`_EscapedLines.joined`)? If given, a JSON member read across lines
    (:func:`_split_json_secrets`) must be so."""
    raw = text.encode("ascii", "replace") if ascii_bytes is None else ascii_bytes
    low = _folded(text, raw) if folded is None else folded
    needles = Needles(raw, low, _NEEDLES)
    present = needles.present
    runs = _TokenRuns(raw)
    found: list[Secret] = []
    small = len(text) < _SMALL_TEXT
    for plugin in PLUGINS:
        if small:  # (a short string, as a dump writes thousands of: its needles looked for directly)
            hay = low if plugin.lower else raw
            if not any(n in hay for n in (_NEEDLE_BYTES[plugin] if type(hay) is bytes else plugin.needles)):
                continue
        elif not any(present(n, plugin.lower) for n in plugin.needles):
            continue
        if plugin.run and not runs.holds(plugin.run):
            continue
        if plugin.kind == "keyword-secret":
            found.extend(_split_json_secrets(plugin, text, joined))
        lines = _candidate_lines(plugin, text, low if plugin.lower else text, needles)
        if not lines:
            continue
        if plugin.kind == "private-key":
            found.extend(_private_keys(text, lines))
            continue
        for base, line in lines:
            try:
                found.extend(_line_secrets(plugin, line, base))
            except Exception:  # noqa: BLE001 - a detector bug must not crash a lint run
                continue
    return found


class _TokenRuns:
    """Does a text hold a run of ``n`` token characters (``[A-Za-z0-9_-]``, ``?`` or a non-ASCII
    character, which may stand for a Unicode digit ``\\d`` reads)? A plugin whose anchor matches
    only within such a run (its ``run``: Discord's 27, Telegram's 35, Twilio's 34) is skipped on a
    text that holds none, without a scan of the text by its anchor (one ``translate`` of its
    ASCII bytes ``raw``, then one search per length; issue 9: the anchors of Discord and Telegram
    start at any ``.`` or ``:``, a scan as costly as the rest of the detection in prose)."""

    __slots__ = ("_raw", "_form", "_known")

    def __init__(self, raw: bytes) -> None:
        self._raw = raw
        self._form: bytes | None = None
        self._known: dict[int, bool] = {}

    def holds(self, n: int) -> bool:
        """Is there a run of at least ``n`` token characters?"""
        hit = self._known.get(n)
        if hit is None:
            if self._form is None:
                self._form = self._raw.translate(_RUN_TABLE)
            hit = self._known[n] = b"a" * n in self._form
        return hit


#: Each byte of a text's one-byte form to ``a`` when it may be a token character (see :class:`_TokenRuns`),
#: else to a blank.
_RUN_TABLE = bytes(0x61 if b >= 0x80 or chr(b) in "?_-" or chr(b).isalnum() else 0x20 for b in range(256))


def _split_json_secrets(plugin: _Plugin, text: str,
                        joined: Callable[[int, int], bool] | None = None) -> Iterator[Secret]:
    """The keyword secrets of JSON members whose name and value are on different lines
    (:data:`_JSON_SPLIT_MEMBER_RE`; the detectors read one line at a time), each value taken
    whole and checked as :func:`_json_keyword_values` does, at its span in ``text``; with
    ``joined`` (see :func:`_plain_secrets`), only members whose name and value it joins. One pass
    over the text, only when it holds a quote and a line end."""
    if '"' not in text or ("\n" not in text and "\r" not in text):
        return
    try:
        for pos, value, start in _json_keyword_values(text, _JSON_SPLIT_MEMBER_RE):
            if joined is None or joined(start, pos + len(value)):
                yield Secret(pos, pos + len(value), plugin.kind, plugin.label, value, 0)
    except Exception:  # noqa: BLE001 - a detector bug must not crash a lint run
        return


# --------------------------------------------------------------------------- JSON escapes

#: Characters that show nothing (Unicode's Default_Ignorable_Code_Point: soft hyphen, combining
#: grapheme joiner, Hangul fillers, Khmer inherent vowels, Mongolian free variation selectors,
#: zero-width space, joiners and marks, bidi controls, word joiner, invisible operators, deprecated
#: format controls, variation selectors, zero-width no-break space, shorthand format controls,
#: musical formatting controls, tag characters and the rest of U+E0000-U+E0FFF), and the controls
#: a terminal or viewer draws as nothing: the C1 controls U+0080-U+009F, the interlinear annotation
#: characters U+FFF9-U+FFFB and the braille pattern blank U+2800 (as
#: :data:`fountain_audit.untrusted.INVISIBLE_CHARS` counts them), with the C0 controls and DEL
#: (:data:`~fountain_audit.untrusted.CONTROL_CODES`: one byte each in either one-byte form of a
#: text, see :func:`_one_byte_form`): one in a token hides it from the detectors and not from a
#: reader, who sees the token whole (U+FE00-U+FE0F and the tag characters leaked through every
#: command's --redact; a NUL, DEL, ESC or C1 control did too: adversarial trials). A line holding
#: one is read without them too (as a line holding an escape is read decoded).
_INVISIBLE_RANGES = ((0x80, 0x9F), (0xAD, 0xAD), (0x34F, 0x34F), (0x61C, 0x61C), (0x115F, 0x1160),
                     (0x17B4, 0x17B5), (0x180B, 0x180F), (0x200B, 0x200F), (0x202A, 0x202E), (0x2060, 0x2064),
                     (0x2066, 0x206F), (0x2800, 0x2800), (0x3164, 0x3164), (0xFE00, 0xFE0F), (0xFEFF, 0xFEFF),
                     (0xFFA0, 0xFFA0), (0xFFF9, 0xFFFB), (0x1BCA0, 0x1BCA3), (0x1D173, 0x1D17A), (0xE0000, 0xE0FFF))
#: The same, as the inside of a regular expression's character class (``[\x00-\x1f...]``).
INVISIBLE = "".join(chr(c) for c in CONTROL_CODES) + "".join(
    chr(a) if a == b else f"{chr(a)}-{chr(b)}" for a, b in _INVISIBLE_RANGES)
#: The characters of :data:`_INVISIBLE_RANGES` below U+10000, each looked for with ``in`` in a
#: short or Latin-1 text (a fast search of the text; a regular expression of the class costs a
#: step per character, three times as many instructions); in another text, by their UTF-8 form
#: (:func:`_holds_invisible`).
_INVISIBLE_CHARS = tuple(chr(c) for a, b in _INVISIBLE_RANGES if b < 0x10000 for c in range(a, b + 1))
#: The UTF-8 form of each character of :data:`_INVISIBLE_CHARS` but the C1 controls (two bytes
#: each, ``\xc2`` and a byte that continues most characters: found by :data:`_C1_UTF8_RE`), then
#: the first bytes that every character of INVISIBLE above U+FFFF begins with (see
#: :func:`_holds_invisible`).
_INVISIBLE_UTF8 = tuple(c.encode("utf-8") for c in _INVISIBLE_CHARS if ord(c) > 0x9F) + (
    b"\xf0\x9b\xb2", b"\xf0\x9d\x85", b"\xf3\xa0")
#: A C1 control in a UTF-8 form (a search led by its first byte, about as fast as ``memchr``).
_C1_UTF8_RE = lazy(rb"\xc2[\x80-\x9f]")


def _one_byte_form(text: str) -> bytes:
    """``text`` as one byte per code point: its Latin-1 encoding when it encodes so, else
    ``text.encode("ascii", "replace")`` (see :meth:`fountain_audit.lint.rules.RuleContext.ascii_bytes`).
    A short text is always encoded the second way (no exception to pay for)."""
    if len(text) >= _SMALL_TEXT:
        try:
            return text.encode("latin-1")
        except UnicodeEncodeError:
            pass
    return text.encode("ascii", "replace")


#: (text, :func:`_holds_invisible` of it) for the last long text asked about (V101 asks, then V102).
_LAST_INVISIBLE: tuple[str, bool] | None = None


@on_forget
def _forget_last_invisible() -> None:
    global _LAST_INVISIBLE
    _LAST_INVISIBLE = None


def _invisible_in(text: str) -> bool:
    """:func:`_holds_invisible` of ``text`` and its one-byte form, made only when the text is not
    the last long one asked about."""
    last = _LAST_INVISIBLE
    if last is not None and last[0] is text:
        return last[1]
    return _holds_invisible(text, _one_byte_form(text))


def _holds_invisible(text: str, ascii_bytes: bytes) -> bool:
    """:func:`_find_invisible`, remembered for a long ``text`` (see :data:`_LAST_INVISIBLE`)."""
    global _LAST_INVISIBLE
    found = _find_invisible(text, ascii_bytes)
    if len(text) >= _SMALL_TEXT:
        _LAST_INVISIBLE = (text, found)
    return found


def _find_invisible(text: str, ascii_bytes: bytes) -> bool:
    """Does ``text`` hold a character of :data:`INVISIBLE`? ``ascii_bytes``: its one-byte form
    (see :func:`find_secrets`). The C0 controls and DEL are bytes of their own in it (a ``memchr``
    each). A text of code points under U+0100 (its one-byte form is then its Latin-1 encoding, not
    ASCII) is searched directly (``str.find`` of such a text is a ``memchr``, and a character above
    it is answered at once). Another text is searched in its UTF-8 form: ``str.find`` of a two-byte
    text searches for the low byte of the character with ``memchr``, and the low bytes of most of
    them are common letters and punctuation (``U+2061`` is ``a``), a step at each; the UTF-8 bytes
    of these characters are rare, and a character holding a byte the text's UTF-8 form lacks is
    answered by that ``memchr`` alone (each byte looked for once). UTF-8 is self-synchronising: a
    character's bytes occur in it exactly where the character does (a lone surrogate is written as
    three bytes of its own)."""
    if any(c in ascii_bytes for c in CONTROL_BYTES):
        return True
    if text.isascii():
        return False
    if len(text) < _SMALL_TEXT or not ascii_bytes.isascii():
        if any(c in text for c in _INVISIBLE_CHARS):
            return True
        if not ascii_bytes.isascii():  # (Latin-1: nothing above U+00FF)
            return False
        utf8 = text.encode("utf-8", "surrogatepass")  # (a short text: the first bytes of the others)
        return any(lead in utf8 for lead in _INVISIBLE_UTF8[-3:])
    utf8 = text.encode("utf-8", "surrogatepass")
    if b"\xc2" in utf8 and _C1_UTF8_RE.search(utf8):
        return True
    held: dict[int, bool] = {}
    for word in _INVISIBLE_UTF8:
        for b in word:
            has = held.get(b)
            if has is None:
                has = held[b] = b in utf8
            if not has:
                break
        else:
            if word in utf8:
                return True
    return False


#: After an ``ESC`` (raw, or JSON-escaped as ``\u001b``): the rest of a terminal's control sequence,
#: CSI (``[``, parameters, intermediates, a final byte: ``ESC[0m``) or OSC (``]`` up to BEL or
#: ``ESC \``: ``ESC]8;;URL BEL``, a hyperlink), each bounded in length. A terminal shows none of it:
#: ``ghp_aB3…ESC[0mfG7h…`` is the token whole on screen (adversarial trial, stop 35).
_TERMINAL_SEQUENCE = (r"(?:\[[0-?]{0,32}[ -/]{0,8}[@-~]"
                      r"|\][^\x07\x1b\n]{0,512}(?:\x07|\x1b\\|\\u0007|\\u001[bB]\\\\))")
#: Where a line to read decoded starts to be one: a backslash or an invisible character.
_DECODED_FROM_RE = lazy(f"[\\\\{INVISIBLE}]")
#: One escape: in JSON, a surrogate pair written as two ``\uXXXX``, one ``\uXXXX``, or a
#: one-character escape (``\"``, ``\\``, ``\/``, ``\b``, ``\f``, ``\n``, ``\r``, ``\t``); in
#: Markdown, a backslash before any ASCII punctuation character, which stands for that character
#: (CommonMark 0.31 §2.4: a reply's ``ghp\_…`` renders as the token). A backslash before anything
#: else is no escape and stays as written. An invisible character stands for nothing, and so does
#: a terminal's control sequence (:data:`_TERMINAL_SEQUENCE`), as a terminal shows the text around it.
_ESCAPE_RE = lazy(r'(?:\x1b|\\u001[bB])' + _TERMINAL_SEQUENCE
                  + r'|\\(?:u(?:[dD][89abAB][0-9a-fA-F]{2}\\u[dD][c-fC-F][0-9a-fA-F]{2}|[0-9a-fA-F]{4})'
                  r'|[bfnrt!-/:-@\[-`{-~])|[' + INVISIBLE + ']')
#: One character of :data:`INVISIBLE` (what an escape that stands for one, ``\u200b``, stands for: nothing).
_INVISIBLE_RE = lazy(f"[{INVISIBLE}]")


def _shown_end(text: str, start: int, end: int) -> int:
    """``end`` less the characters of :data:`INVISIBLE` that end ``text[start:end]``: those after
    a token or a user name are the text's, not theirs (a redaction keeps them)."""
    while end > start and _INVISIBLE_RE.match(text, end - 1):
        end -= 1
    return end
#: What a one-letter JSON escape stands for when a line is read decoded. ``\b`` and ``\f`` stand for a
#: backslash, not for BS and FF: JSON text almost never holds those, but a Windows path's ``\build``,
#: ``\bin``, ``\files`` is read as one (``C:\Users\alice\build``: the user was ``alice<BS>uild``, and
#: ``alice`` stayed in the redacted copy elsewhere; adversarial trial, stop 36); a backslash ends a
#: user name or a token as either would.
_SIMPLE_ESCAPES = {"b": "\\", "f": "\\", "n": "\n", "r": "\r", "t": "\t"}
#: How many times a line's escapes are read: once for JSON in a tool argument's string (a tool
#: writing a JSON file, ``"{\"password\":\"…\"}"``), twice for JSON in a string of that JSON
#: (``\\\"`` → ``\"`` → ``"``), three times for one more nesting.
_ESCAPE_LEVELS = 3


def _unescape(m: re.Match[str]) -> str:
    """The character one :data:`_ESCAPE_RE` match stands for (a lone surrogate stays one), or
    nothing for an invisible character (written as itself or as an escape) or a control sequence."""
    s = m.group()
    if s[0] != "\\":
        return ""  # (an invisible character, a control sequence)
    if s[1] != "u":
        return _SIMPLE_ESCAPES.get(s[1], s[1])  # (punctuation stands for itself: \\" \\\\ \\/ \\_)
    if len(s) > 6 and s[6] != "\\":
        return ""  # (a control sequence after \\u001b: its [ or ] follows; a surrogate pair's \\u does)
    code = int(s[2:6], 16)
    if len(s) == 12:  # a surrogate pair: one code point
        code = 0x10000 + ((code - 0xD800) << 10) + (int(s[8:12], 16) - 0xDC00)
    c = chr(code)
    return "" if _INVISIBLE_RE.match(c) else c  # (\\u200b: nothing, as the character itself)


class _Decoded:
    """A line with its JSON escapes decoded (``text``), and the way back: :meth:`raw` is the
    0-based offset in the line of a 0-based offset in ``text``."""

    __slots__ = ("text", "_at", "_raw")

    def __init__(self, text: str, at: list[int], raw: list[int]):
        self.text, self._at, self._raw = text, at, raw

    def raw(self, offset: int) -> int:
        """Where the character at ``offset`` of :attr:`text` is spelt in the line (the start of
        its escape); ``len(text)`` gives ``len(line)``."""
        k = bisect.bisect_right(self._at, offset) - 1
        return self._raw[k] + offset - self._at[k]


def _decode_line(line: str) -> _Decoded:
    """``line`` with every JSON escape of :data:`_ESCAPE_RE` decoded once (``\\u005f`` → ``_``,
    ``\\"`` → ``"``, ``\\\\`` → ``\\``, surrogate pairs joined; a malformed escape is kept as
    written), with its map back. Linear: one left-to-right pass."""
    out: list[str] = []
    at, raw = [0], [0]  # breakpoints: decoded offset at[k] is raw offset raw[k], 1:1 after it
    n = 0       # decoded length so far
    pos = 0     # raw offset copied up to
    for m in _ESCAPE_RE.finditer(line):
        i, j = m.span()
        out.append(line[pos:i])
        n += i - pos
        c = _unescape(m)
        out.append(c)
        if c:
            at.append(n)
            raw.append(i)
            n += 1
        at.append(n)  # (an invisible character stands for nothing: what follows it maps past it)
        raw.append(j)
        pos = j
    out.append(line[pos:])
    return _Decoded("".join(out), at, raw)


class _EscapedLines:
    """The lines of a text that hold a JSON escape, decoded (and decoded again while escapes
    remain, up to :data:`_ESCAPE_LEVELS` times), joined by line ends into ``text`` (one
    detector run for all of them), and the way back: :meth:`span` maps a span of ``text`` to
    the span of the original text it was decoded from (the maps of a line are made only when
    something is found on it). Linear in the text: each line is read once per level."""

    def __init__(self, text: str):
        #: (offset in .text, offset of the line in the original, (line, decoded once, twice, …))
        self.lines: list[tuple[int, int, tuple[str, ...]]] = []
        #: (line number in .lines, level) -> the map back of that decoding (see :meth:`span`)
        self._maps: dict[tuple[int, int], _Decoded] = {}
        parts = []
        at = 0
        sub = _ESCAPE_RE.sub
        start = _DECODED_FROM_RE.search
        m = start(text)
        i = m.start() if m else -1
        while i >= 0:
            b = text.rfind("\n", 0, i) + 1
            e = text.find("\n", i)
            e = len(text) if e < 0 else e
            chain: tuple[str, ...] = (text[b:e],)
            for _ in range(_ESCAPE_LEVELS):
                d = sub(_unescape, chain[-1])
                if d == chain[-1]:
                    break
                chain += (d,)
                self.lines.append((at, b, chain))
                parts.append(d)
                at += len(d) + 1
                if "\\" not in d:
                    break
            m = start(text, e)
            i = m.start() if m else -1
        self.text = "\n".join(parts)
        self._at = [x[0] for x in self.lines]

    def joined(self, start: int, end: int) -> bool:
        """Are offsets ``start`` and ``end`` (inclusive) of :attr:`text` in one decoded line, or
        in two that are lines following one another in the original, each decoded once? Lines
        are joined in :attr:`text` when they hold escapes, whatever lies between them in the
        original, and each line is there once per level: a JSON member read across them must
        be one of the original."""
        a = bisect.bisect_right(self._at, start) - 1
        b = bisect.bisect_right(self._at, end) - 1
        if a == b:
            return True
        if b != a + 1:
            return False
        (_, base_a, chain_a), (_, base_b, chain_b) = self.lines[a], self.lines[b]
        return len(chain_a) == len(chain_b) == 2 and base_b == base_a + len(chain_a[0]) + 1

    def span(self, start: int, end: int) -> tuple[int, int, str] | None:
        """(start, end, text as written) in the original of a span of :attr:`text`, or ``None``
        (a span across two decoded lines)."""
        k = bisect.bisect_right(self._at, start) - 1
        at, base, chain = self.lines[k]
        if end > at + len(chain[-1]):
            return None
        a, b = start - at, end - at
        maps = self._maps
        for level in range(len(chain) - 1, 0, -1):  # back one decoding at a time
            d = maps.get((k, level))
            if d is None:  # (made once a line and level: a line holding many secrets was decoded once per secret,
                d = maps[k, level] = _decode_line(chain[level - 1])  # quadratic; adversarial trial)
            a, b = d.raw(a), d.raw(b)
        line = chain[0]
        b = _shown_end(line, a, b)
        return base + a, base + b, line[a:b]


_LAST_ESCAPED: tuple[str, _EscapedLines] | None = None


def _escaped_lines(text: str) -> _EscapedLines:
    """:class:`_EscapedLines` of ``text``; the last one is kept (secrets and home paths are
    looked for in the same text one after the other)."""
    global _LAST_ESCAPED
    last = _LAST_ESCAPED
    if last is not None and last[0] is text:
        return last[1]
    lines = _EscapedLines(text)
    _LAST_ESCAPED = (text, lines)
    return lines


def _escaped_secrets(text: str) -> Iterator[tuple[str, Secret]]:
    """(decoded value, secret at its spelling in ``text``) of each secret the detectors find
    in the decoded lines (``"ghp\\u005f…"``, ``{\\"password\\":\\"…\\"}``, ``https:\\/\\/u:p@h``).
    One also found as written is found again here, at the same span (:func:`_no_overlaps`
    keeps one)."""
    lines = _escaped_lines(text)
    if not lines.lines:
        return
    for s in _plain_secrets(lines.text, joined=lines.joined):
        span = lines.span(s.start, s.end)
        if span is not None:  # (shown: the public prefix up to the first escape or invisible character)
            start, end, spelt = span
            first = _DECODED_FROM_RE.search(spelt)
            shown = min(s.shown, first.start() if first else s.shown)
            yield s.value, Secret(start, end, s.kind, s.label, spelt, shown)
    if "PRIVATE KEY" in lines.text:
        # A key header read decoded (``-----BEGIN RSA PRIV<U+200B>ATE KEY-----``) whose body lines,
        # as written, hold no escape: the block is read on from the header in the text itself
        # (the decoded lines hold only the lines that needed decoding; adversarial trial, stop 35).
        for m in _KEY_HEADER_RE.finditer(lines.text):
            span = lines.span(m.start(), m.end())
            key = None if span is None else _key_block(text, span[0], span[1], m.group(1))
            if key is not None:
                yield key.value, key


#: Up to this many distinct values :func:`_repeats` looks for each with its own ``str.find``
#: loop (a scan of the text each, fast for a few); more are looked for in one pass.
_FIND_EACH = 256
#: The length of the start of a value (the shortest) by which :func:`_repeats` looks it up.
_HEAD = 8


def _repeats(text: str, found: list[Secret]) -> Iterator[Secret]:
    """Other occurrences of a secret already found (e.g. a password given once after a
    keyword and again inside a URL the detectors do not read): for each value, each occurrence
    in the text that does not overlap the one before it yielded (what a ``str.find`` loop from
    the start finds). Linear in the text: with many values (:data:`_FIND_EACH`), one pass looks
    the characters at each position up among the values' starts, not one scan per value (5,000
    distinct passwords on as many lines took 1.7 s, 40,000 took 30 s)."""
    known = {s.value: s for s in found if len(s.value) >= _HEAD}
    if len(known) <= _FIND_EACH:
        for v, s in known.items():
            pos = text.find(v)
            while pos >= 0:
                if stands_alone(text, pos, pos + len(v)):
                    yield Secret(pos, pos + len(v), s.kind, s.label, v, s.shown)
                pos = text.find(v, pos + len(v))
        return
    by_head: dict[str, set[int]] = {}  # a value's first _HEAD characters -> the lengths of values so starting
    for v in known:
        by_head.setdefault(v[:_HEAD], set()).add(len(v))
    lengths = {head: sorted(ns, reverse=True) for head, ns in by_head.items()}
    free = dict.fromkeys(known, 0)  # value -> where its next occurrence may start (no overlap)
    get = lengths.get
    out = []
    for p in range(len(text) - _HEAD + 1):
        ns = get(text[p:p + _HEAD])
        if ns is None:
            continue
        for n in ns:
            v = text[p:p + n]
            if v in known and free[v] <= p:
                free[v] = p + n
                out.append((p, v))
    for p, v in out:
        if stands_alone(text, p, p + len(v)):
            s = known[v]
            yield Secret(p, p + len(v), s.kind, s.label, v, s.shown)


def stands_alone(text: str, start: int, end: int) -> bool:
    """Whether ``text[start:end]``, another occurrence of a secret's value, stands alone: not glued
    to a word character on a side where the value has one (a weak password that is a word,
    ``postgres``, is not repeated inside ``postgresql`` or ``postgres_query``), and no URL's scheme
    (``postgres://``). (Adversarial trial, stop 36: one such password was six findings and the
    redacted copy read ``<redacted:basic-auth>://…`` and ``Install <redacted:basic-auth>ql``.)"""
    a, b = text[start], text[end - 1]
    if (a.isalnum() or a == "_") and start > 0 and (text[start - 1].isalnum() or text[start - 1] == "_"):
        return False
    if (b.isalnum() or b == "_") and end < len(text) and (text[end].isalnum() or text[end] == "_"):
        return False
    return not text.startswith("://", end)


def _candidate_lines(plugin: _Plugin, text: str, hay: str | bytes, needles: Needles) -> list[tuple[int, str]]:
    """(start offset, text) of the lines the plugin may match, in order: lines where its anchor
    regex matches, or (``by_needle``) lines holding a needle (one ``needles`` finds) and then
    matching the anchor."""
    lines: dict[int, tuple[int, str]] = {}
    if plugin.by_needle and len(hay) != len(text):  # lower() changed the length (U+0130): no
        b = 0                                       # offsets from it, read line by line
        while b <= len(text):
            e = text.find("\n", b)
            e = len(text) if e < 0 else e
            line = text[b:e]
            if ("=" in line or ":" in line) and any(n in line.lower() for n in plugin.needles) \
                    and plugin.anchor.search(line):
                lines[b] = (b, line)
            b = e + 1
        return list(lines.values())
    if plugin.by_needle:  # (line ends, '=' and ':' are where they are in the text: read them in hay)
        nl, eq, colon = _word(hay, "\n"), _word(hay, "="), _word(hay, ":")
        for needle in plugin.needles:
            if not needles.present(needle, plugin.lower):
                continue
            needle = _word(hay, needle)
            i = hay.find(needle)
            while i >= 0:  # (each line holding the needle read once)
                b = hay.rfind(nl, 0, i) + 1
                e = hay.find(nl, i)
                e = len(hay) if e < 0 else e
                if b not in lines:
                    if hay.find(eq, b, e) >= 0 or hay.find(colon, b, e) >= 0:
                        line = text[b:e]
                        lines[b] = (b, line) if plugin.anchor.search(line) else None
                    else:
                        lines[b] = None
                i = hay.find(needle, e)
        return [v for v in lines.values() if v is not None]
    scans = plugin.scans or (plugin.anchor,)
    n = len(text)
    for scan in scans:
        search = scan.search
        m = search(text)
        while m is not None:  # the first match of a line, then on after its end: each line read once
            b = text.rfind("\n", 0, m.start()) + 1
            e = text.find("\n", m.start())
            e = n if e < 0 else e
            if b not in lines:
                lines[b] = (b, text[b:e])
            m = search(text, e + 1) if e < n else None
    return list(lines.values()) if len(scans) == 1 else [lines[b] for b in sorted(lines)]


def _no_overlaps(found: list[Secret]) -> list[Secret]:
    found.sort(key=lambda s: (s.start, -(s.end - s.start)))
    out: list[Secret] = []
    for s in found:
        if out and s.start < out[-1].end:
            continue
        out.append(s)
    return out


# --------------------------------------------------------------------------- paths

#: One path separator in any spelling: ``/``, ``\``, or JSON-escaped ``\/`` and ``\\``.
SEP = r"(?:\\\\|\\/|/|\\)"
#: A run of separators in any spelling: the texts ``(?:SEP)+`` matches (every run of ``\`` and
#: ``/``), as a character class, matched in linear time (``(?:SEP)+`` tries a run of backslashes in
#: exponentially many ways before failing: 38 of them took 11 s, adversarial trial).
SEPS = r"[\\/]+"
_NOT_USERS = {"shared", "public", "default", "default user", "all users", "guest"}
#: What may stand before ``/Users`` in a path to a Windows or macOS home: a drive (``C:``, and as WSL,
#: Cygwin and Git Bash mount it: ``/mnt/c``, ``/cygdrive/c``, ``/c``), a Windows share of a drive
#: (``\\\\pc\\c$``), macOS's data volume (``/System/Volumes/Data``) or another disk (``/Volumes/Backup``,
#: ``/Volumes/Macintosh HD``: a home copied to it, or the system disk seen from another); before ``/home``: FreeBSD's
#: ``/usr`` (``/home`` links to ``/usr/home``), Fedora Silverblue's ``/var`` (``$HOME`` is
#: ``/var/home/<user>``), Solaris' ``/export`` and WSL's share of a distribution's files
#: (``\\\\wsl$\\Ubuntu``, ``\\\\wsl.localhost\\Ubuntu``). Each ends with a name character, so a path
#: without it is not also read from its ``/home`` (adversarial trial, stop 35).
_USERS_ROOT = ("(?:[A-Za-z]:|" + SEP + "(?:(?:mnt|cygdrive)" + SEP + ")?[A-Za-z]|" + SEP + SEP + r"[\w.-]{1,64}"
               + SEP + r"[A-Za-z]\$|" + SEP + "System" + SEP + "Volumes" + SEP + "Data|"
               + SEP + "Volumes" + SEP + r"[\w.-](?:[\w .-]{0,62}[\w.-])?)")
_HOME_ROOT = "(?:" + SEP + "(?:usr|var|export)|" + SEP + SEP + r"wsl(?:\$|\.localhost)" + SEP + r"[\w.-]{1,64})"
#: How far before ``home`` or ``users`` a match of :data:`HOME_RE` starts when its root is short
#: (``\\/mnt\\/c\\/``): a first search from there; from :data:`_HOME_LONG_LEAD` when it finds none.
_HOME_LEAD = 10
_HOME_LONG_LEAD = 100
#: What the character before a match can be when a root reaches back further than :data:`_HOME_LEAD`:
#: a root's last character (a name's, ``$``), or a backslash (the match started inside ``\\/``).
_ROOT_END = frozenset("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_.$-\\/")
#: A home directory: ``/home/<user>``, ``/Users/<user>``, ``C:\\Users\\<user>``,
#: ``C:\\Documents and Settings\\<user>`` (Windows XP; adversarial trial, stop 37) (or with a root
#: before it: :data:`_USERS_ROOT`, :data:`_HOME_ROOT`) in any spelling (but ``/users`` after a
#: forward slash and no root, in lower case: a web route, ``GET /users/42/profile``; macOS writes
#: ``/Users``; adversarial trial, stop 35), with any run of separators
#: and ``.`` folders before the user name (``/home//bob``, ``/home/./bob``: the same folder;
#: adversarial trial), or ``/root`` (root's home on Linux; user ``root``; lower case, with ``/`` or
#: JSON's ``\\/`` only: ``\\root`` is a LaTeX command or a JSON ``\\r``; not ``/root.txt``,
#: ``/rootfs``, ``/var/root``, ``~/root``, ``C:/root``, ``/rootéx``; but after a list's or a host's
#: colon, ``PATH=/usr/bin:/root/bin``, ``scp host:/root/x``: adversarial trial, stop 38). Word characters before it are
#: ASCII ones, but a short option's letter (``gcc -I/home/alice/include``, ``docker run
#: -v/home/alice/x:/x``: a build log's flags; adversarial trial, stop 36): Chinese or Japanese
#: prose puts a path right after a word
#: (``文件位于/home/alice/notes.txt``; adversarial trial). The user name is a run of Latin letters
#: (accented ones too: ``C:\\Users\\Jürgen``, ``/Users/Ørjan``; cut at the first non-ASCII letter,
#: most of it was left unredacted) or, starting with a letter of another script, the whole word
#: (``C:\\Users\\李明``); a Latin name ends at a CJK letter (``/home/alice文件``, "alice's file"). ``home`` and ``Users`` are matched in ASCII case only (no
#: ``ſ`` read as ``s``). After its first character a name also holds (see :data:`_NAME_MORE`) an
#: ``@`` (a domain account) and, a Latin one, an apostrophe (``O'Brien``) and words after blanks
#: before a separator (``John Smith``, see :data:`_NAME_WORDS`).
#: The characters of a Latin-script user name (ASCII letters and digits, ``_``, Latin-1 and Latin
#: Extended letters, Vietnamese): see :data:`HOME_RE`.
_LATIN = "A-Za-z0-9_\u00c0-\u00d6\u00d8-\u00f6\u00f8-\u024f\u1e00-\u1eff"
#: The letters of :data:`_LATIN` (no digit, no ``_``).
_LATIN_LETTERS = "A-Za-z\u00c0-\u00d6\u00d8-\u00f6\u00f8-\u024f\u1e00-\u1eff"
#: Marks that continue a user name, which ``\\w`` does not read: combining diacritics (a name in
#: decomposed form, as macOS file names are: ``Ju\u0308rgen``), the Cyrillic, Hebrew, Arabic, Indic
#: (Devanagari to Sinhala, whole blocks: vowel signs, viramas) and Thai signs, zero-width (non-)joiners;
#: and the characters that show nothing (:data:`INVISIBLE`: zero-width characters, controls), which a
#: reader does not see inside a name (``/home/da\u200bvid`` is one name: its tail was left as
#: written by --redact, adversarial trial); and undecodable bytes (lone surrogates U+DC80–U+DCFF: a
#: name written in a legacy code page, ``C:\\Users\\J`` + byte FC + ``rgen``, was cut at ``J``;
#: adversarial trial, stop 38).
_MARKS = ("\u0300-\u036f\u0483-\u0489\u0591-\u05c7\u0610-\u061a\u064b-\u065f\u0900-\u0dff"
          "\u0e31-\u0e4e\u200c\u200d\udc80-\udcff" + INVISIBLE)
#: What a user name holds besides its characters, never as its last one: ``@`` before a name
#: character (a domain account, as SSSD names AD users, ``/home/user@corp``; Windows and AD
#: accounts allow it, ``C:\\Users\\user@corp``) and, in a Latin name, an apostrophe (ASCII or
#: U+2019) before two letters (``/home/O'Brien``; not a possessive, ``/home/alice's files``, nor
#: a closing quote, ``'/home/alice'``).
_NAME_MORE = {"latin": f"|@(?=[{_LATIN}])|['\u2019](?=[{_LATIN_LETTERS}]{{2}})", "other": r"|@(?=\w)"}
#: A Latin user name's characters after its first (possessive: a name is read to its end, never
#: backtracked into).
_LATIN_REST = f"(?:[.{_LATIN}{_MARKS}-]{_NAME_MORE['latin']})*+"
_LATIN_NAME = f"[{_LATIN}]{_LATIN_REST}"
#: The first letter of a capitalised word of a name (an upper-case ASCII or Latin-1 letter, or any
#: letter of Latin Extended, whose cases alternate: ``Łukasz``), matched in its case (``re.I``
#: reads ``s`` as ``ſ``, U+017F).
_CAPITAL = "(?-i:[A-Z\u00c0-\u00d6\u00d8-\u00de\u0100-\u024f\u1e00-\u1eff])"
#: Folders every account's home holds (Windows, macOS; a dot folder, ``.ssh``, ``.config``).
_HOME_FOLDERS = (r"(?:Desktop|Documents|Downloads|AppData|Pictures|Music|Videos|Movies|Library|OneDrive"
                 r"|Favorites|Contacts|Links|Searches|Saved Games|\.\w+)")
#: Words after blanks in a user name (macOS makes an account's folder from its full name,
#: ``/Users/John Smith``; Windows from the account name, ``C:\\Users\\John Smith``; an AD account
#: read by SSSD keeps its blank, ``/home/John Smith``): one or two (``Mary Jane Watson``), each a
#: blank and a Latin name, taken only where the path goes on: a separator follows them before any
#: other blank, and they are capitalised as a person's names are (``C:\\Users\\John Smith\\x``),
#: or one of :data:`_HOME_FOLDERS` follows the separator (``C:\\Users\\john smith\\Documents``).
#: Prose goes on with a blank (``/home/alice and bob``) or in lower case (``/home/alice and/or bob``).
_NAME_WORDS = (f"(?:(?:[ ]{_CAPITAL}{_LATIN_REST}){{1,2}}+(?={SEP})"
               f"|(?:[ ]{_LATIN_NAME}){{1,2}}+(?={SEP}{_HOME_FOLDERS}(?![{_LATIN}{_MARKS}-])))?")
HOME_RE = lazy(r"(?:(?<![A-Za-z0-9_.$-])|(?<=(?<![\w-])-[A-Za-z]))"
                     + r"(?:(?a:(?:" + _USERS_ROOT + SEP + r"Users|(?:\\\\|\\(?!/))Users"
                     + r"|(?:\\/|/)(?-i:U)sers|" + _HOME_ROOT + "?" + SEP + "home|" + _USERS_ROOT + "?" + SEP + "Documents and Settings)" + SEP + r"(?:\.?" + SEP + r")*+)"
                     + r"|(?<!~)(?<!(?<!\w)[A-Za-z]:)(?:\\/|/)(?=(?-i:root)(?![\w-]|\.\w))(?P<root>))"
                     + r"(?P<user>(?(root)root|(?:" + _LATIN_NAME + r"(?![" + _LATIN + _MARKS + r"-])" + _NAME_WORDS
                     + r"|[^\W\x00-\u024f](?:[\w." + _MARKS + r"-]" + _NAME_MORE["other"] + r")*+)))", re.I)
_ABSOLUTE_RE = lazy(r"^(?:/|[A-Za-z]:[\\/]|\\\\)")


def find_home_paths(text: str, skip: re.Pattern[str] | None = None, *,
                    folded: str | bytes | None = None) -> list[HomePath]:
    """Home-directory prefixes (``/home/alice``) in ``text``, sorted by position. A match where
    ``skip`` (e.g. the workspace regex) also matches is left out (see :func:`skip_home_paths`).
    ``folded``: :func:`folded` of ``text``, if the caller has it."""
    return skip_home_paths(text, _home_paths(text, folded), skip)


def skip_home_paths(text: str, found: list[HomePath], skip: re.Pattern[str] | None) -> list[HomePath]:
    """``found`` (:func:`find_home_paths` of ``text`` without ``skip``) without the paths where
    ``skip`` matches, at their start or one or two code points before (a new list)."""
    if skip is None:
        return list(found)
    match = skip.match
    return [h for h in found if not _skipped(match, text, h.start)]


def _home_paths(text: str, folded: str | bytes | None) -> list[HomePath]:
    """Every home path of ``text`` (no skip), sorted by position: as written, and in JSON
    strings that spell characters as ``\\uXXXX`` (read decoded, reported at their escaped span).
    Where two overlap, the earlier one is kept, then the longer: a path found decoded as well as
    written is found once, as written, unless its decoded spelling reads further (a user name
    spelt with an escape, ``/home/J\\u00fcrgen``, whose spelling as written ends at ``J``)."""
    low = _folded(text) if folded is None else folded
    # lower() can change the length (rare letters): then no offsets from it
    out = (_home_paths_fast(text, low) if len(low) == len(text) else None)
    if out is None:
        out = _home_paths_slow(text)
    if "\\" in text or _invisible_in(text):  # (lines read decoded, as find_secrets reads them)
        lines = _escaped_lines(text)
        if lines.lines:
            dec = lines.text
            dlow = _folded(dec)
            # (start, -end, 0 for a path as written, 1 decoded, the path at its span in ``text``)
            spans = [(h.start, -h.end, 0, h) for h in out]
            found = _home_paths_fast(dec, dlow) if len(dlow) == len(dec) else None
            for h in _home_paths_slow(dec) if found is None else found:
                span = lines.span(h.start, h.end)
                if span is not None:
                    spans.append((span[0], -span[1], 1, HomePath(span[0], span[1], h.user, h.text)))
            spans.sort(key=lambda x: x[:3])
            # not one overlapping one kept before it (the same path decoded once and twice, or
            # found as written too): sorted by start, so an overlap is with the last one kept
            out = []
            last_end = -1
            for start, neg_end, _, h in spans:
                if start >= last_end:
                    out.append(h)
                    last_end = -neg_end
    return out


def _home_paths_fast(text: str, low: str | bytes) -> list[HomePath]:
    """:func:`_home_paths_slow` of ``text`` (``low``: :func:`_folded` of it, of the same length),
    read only where one of :data:`_HOME_WORDS` occurs after a separator. A path written
    again on a line of the same text (a session's scene description names its workspace in every
    scene) is matched once: a match that starts at the separator depends only on the line from
    :data:`_HOME_BEHIND` code points before it to the line's end (issue 9). ``None`` when the
    words stand closer than :data:`_HOME_DENSE` code points apart on average (then one pass of
    the pattern over the text costs less: :func:`_home_paths_slow`)."""
    out = []
    budget = max(_HOME_DENSE_MIN, len(text) // _HOME_DENSE)  # words read before the text counts as dense
    seen: dict = {}  # text[j - _HOME_BEHIND:line end] -> the match there as (start, end, user, path) less j
    root = _word(low, "root")
    for word in _HOME_WORDS:
        word = _word(low, word)
        find = low.find
        i = find(word)
        while i >= 0:
            # A match starting at or before the word has the word right after its separator, whose
            # last character is '/' or '\\' (SEP): after any other character (a screenplay's "home"),
            # no search (nor, in a text without a home path, the pattern's compilation).
            if i and text[i - 1] in "/\\" and (word == root or _name_follows(text, i + len(word))):
                budget -= 1
                if budget < 0:
                    return None
                j = i - 2 if i > 1 and text[i - 2] == "\\" else i - 1  # (the separator's start: / \ \/ \\)
                # (read up to the line's end: no path holds a line end, and a window over the lines after
                # it read them again for each: 65,000 lines of `C:\\Users\\`, 18 s of lint; adversarial trial)
                stop = text.find("\n", i, i + 300)
                if j and (text[j - 1] in _ROOT_END or text[j - 1] == ":"):
                    # a root or a drive may lead the separator: the first match that covers the word
                    if stop < 0:
                        stop = i + 300
                    m = _covering(text, i, _HOME_LEAD, stop)
                    if m is None or m.start() and text[m.start() - 1] in _ROOT_END:  # (a longer root may lead it)
                        m = _covering(text, i, _HOME_LONG_LEAD, stop) or m
                    found = _found(text, m, i)
                elif stop >= 0 and j >= _HOME_BEHIND:  # (most often: after a blank or a quote) no root
                    key = text[j - _HOME_BEHIND:stop]
                    rel = seen.get(key, False)
                    if rel is False:
                        rel = seen[key] = _at_separator(text, i, j, stop, -j)
                    found = None if rel is None else (rel[0] + j, rel[1] + j, rel[2], rel[3])
                else:
                    found = _at_separator(text, i, j, i + 300 if stop < 0 else stop, 0)
                if found is not None:
                    out.append((found[0], i, found))
            i = find(word, i + 1)
    out.sort(key=lambda x: x[0])
    paths = []
    end = 0  # as finditer reads them: none starting inside the one before (/users\/users/bob is one)
    for start, i, found in out:
        if start < end <= i:  # (finditer reads on from the end: a match may start there, /home/C:\Users\bob)
            m = HOME_RE.search(text, end, i + 300)
            if m is not None and m.end() == i + 300:
                m = HOME_RE.search(text, end)
            if m is None or m.start() > i:
                continue
            found = (m.start(), m.end(), m.group("user"), m.group())
        if found[0] >= end:
            end = found[1]
            if found[2].lower() not in _NOT_USERS:
                paths.append(_home_path(text, found[0], end, found[2], found[3]))
    return paths


#: The words (lower case) right after the separator before a user name, one of which every match of
#: :data:`HOME_RE` holds: :func:`_home_paths_fast` reads the text only where they occur.
_HOME_WORDS = ("home", "users", "root", "documents and settings")
#: A text with more home words after a separator than one per this many code points (and more than
#: :data:`_HOME_DENSE_MIN`) is read by :func:`_home_paths_slow`: each word costs the fast search up to
#: a search over 400 code points (a root may lead it, the path may run on), the whole pattern
#: about 0.16 µs a code point. (`./home` 150,000 times on one line: 16 s of lint, adversarial
#: trial, stop 38.)
_HOME_DENSE = 625
_HOME_DENSE_MIN = 1000
#: How far :data:`HOME_RE` looks behind where its match starts, at most (its look-behinds: the
#: character before a separator, ``~`` before ``/root``, and ``-x`` of an option before it with the
#: character before that). A match memoised by :func:`_home_paths_fast` is keyed on these too.
_HOME_BEHIND = 3


def _at_separator(text: str, i: int, j: int, stop: int, shift: int) -> tuple | None:
    """The match of :data:`HOME_RE` at the separator ``j`` of the word at ``i`` (or at its ``/``
    when what is before its ``\\`` stops it there), read up to ``stop``, as :func:`_found` gives it,
    its offsets plus ``shift``; ``None`` if there is none."""
    m = HOME_RE.match(text, j, stop)
    if m is None and j < i - 1:
        m = HOME_RE.match(text, i - 1, stop)
    found = _found(text, m, i)
    return None if found is None else (found[0] + shift, found[1] + shift, found[2], found[3])


def _found(text: str, m: re.Match[str] | None, i: int) -> tuple | None:
    """``(start, end, user, path)`` of match ``m`` of :data:`HOME_RE` when it starts at or before
    ``i`` (read whole when the 300-code-point window cut its user name), else ``None``."""
    if m is not None and m.end() == i + 300:  # a user name cut by the window: read it whole
        m = HOME_RE.search(text, m.start())
    if m is None or m.start() > i:
        return None
    return (m.start(), m.end(), m.group("user"), m.group())


def _name_follows(text: str, k: int) -> bool:
    """Whether a user name can follow ``home`` or ``users`` ending at ``k``: separators (and ``.``
    folders) then a word character. A path whose root word this is reads its user name there; one
    that holds the word inside its user name (``/home/users``) starts at an earlier word, read from
    there. (Without this test, every ``C:\\Users\\`` not followed by a name was searched for a path
    over the 300 characters after it: 65,000 of them on one line, 18 s of lint; adversarial trial.)"""
    n = len(text)
    e = k
    while e < n and text[e] in "/\\.":
        e += 1
    if e == k or e >= n:
        return False
    c = text[e]
    return c.isalnum() or c == "_"


def _covering(text: str, i: int, lead: int, stop: int) -> re.Match[str] | None:
    """The first match of :data:`HOME_RE` from ``lead`` code points before ``i`` (where ``home``
    or ``users`` starts) that ends after ``i``, read up to ``stop`` (at most 300 code points after it)."""
    m = HOME_RE.search(text, i - lead if i > lead else 0, stop)
    while m is not None and m.end() <= i:  # (a path that ends before the word: the next one)
        m = HOME_RE.search(text, m.start() + 1, stop)
    return m if m is not None and m.start() <= i else None


def _home_paths_slow(text: str) -> list[HomePath]:
    """The home paths of ``text``: :data:`HOME_RE`'s matches (``finditer``), less the shared
    accounts' (:data:`_NOT_USERS`). Its ASCII case-insensitivity reads no ``ſ`` (U+017F) as ``s``
    nor KELVIN SIGN as ``k``: ``/Uſers/bob`` is no path a system reads as ``/Users/bob``."""
    return [_home_path(text, m.start(), m.end(), m.group("user"), m.group()) for m in HOME_RE.finditer(text)
            if m.group("user").lower() not in _NOT_USERS]


def _home_path(text: str, start: int, end: int, user: str, path: str) -> HomePath:
    """The :class:`HomePath` of a match of :data:`HOME_RE`, less the full stops that end a user
    name where the path ends (``My files are in /home/alice.``: a sentence's full stop, which a
    redacted copy lost with the name, adversarial trial); before a separator they are the name's
    (``/home/alice./x``)."""
    shown = _shown_end(text, end - len(user), end)
    if shown < end:  # characters that show nothing after the name: the text's, not the name's
        user, path = user[:shown - end], path[:shown - end]
        end = shown
    if user.endswith(".") and text[end:end + 1] not in ("/", "\\"):
        cut = len(user) - len(user.rstrip("."))
        if cut < len(user):
            return HomePath(start, end - cut, user[:-cut], path[:-cut])
    return HomePath(start, end, user, path)


def _skipped(match: Callable, text: str, start: int) -> bool:
    """Does ``match`` (a skip regex's) match ``text`` at ``start`` or one or two code points before?
    (``start`` first: a workspace path usually starts where the home path does.)"""
    return bool(match(text, start)) or any(match(text, k) for k in range(start - 1, start - 3, -1) if k >= 0)




def workspace_paths(session) -> list[str]:
    """The absolute ``Workspace:`` paths a session names (scene descriptions, title page),
    without a trailing separator, in order of first appearance; not one that holds every user's
    home (``/home``, ``/Users``, ``C:\\Users``: a name right after it reads as a home directory's
    user), which would pass every home path under it as the workspace's (V102 silent, redaction
    writing ``<workspace>/alice/.ssh``; adversarial trial, stop 38)."""
    found = []
    # (A text without the word, a screenplay's, names none: its scenes are not read at all. A session
    # names one workspace in scene after scene: each distinct value is looked at once.)
    named = [s.workspace for s in session.scenes] if "Workspace:" in session.document.text else []
    for ws in dict.fromkeys(named + [session.title.get("Workspace")]):
        if not ws:
            continue
        ws = ws.strip()
        if len(ws) > 1 and ws.endswith(("/", "\\")):
            ws = ws[:-1]
        if _ABSOLUTE_RE.match(ws) and len(ws) > 1 and ws not in found and not _holds_homes(ws):
            found.append(ws)
    return found


def _holds_homes(path: str) -> bool:
    """Whether a user's name right after ``path`` makes a home directory (``/home``, ``C:\\Users``)."""
    sep = "\\" if "\\" in path and "/" not in path else "/"
    return any(h.user == "probe" for h in _home_paths_slow(path + sep + "probe"))


def path_pattern(path: str) -> str:
    """A regex source matching ``path`` in every spelling: either separator, JSON-escaped,
    doubled (UNC). Match it case-insensitively; it ends before a name character."""
    parts = [p for p in re.split(r"[\\/]+", path) if p]
    lead = (SEP * 2 if path[:2] in ("//", "\\\\") else SEP) if path[:1] in "/\\" else ""
    return lead + SEPS.join(re.escape(p) for p in parts) + r"(?![\w-])"


#: What a ``file:`` URI's path keeps as written: RFC 3986's unreserved characters and ``/``.
_URI_KEPT = frozenset("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~/")


def uri_path(path: str) -> str:
    """``path`` as the path of a ``file:`` URI spells it (RFC 8089): separators ``/``, a Windows
    drive after a ``/`` (``C:\\Users\\Bob Smith`` → ``/C:/Users/Bob%20Smith``), each byte of the
    UTF-8 form of any other character than RFC 3986's unreserved ones as ``%XX`` (``my proj`` →
    ``my%20proj``, ``ü`` → ``%C3%BC``)."""
    p = path.replace("\\", "/")
    drive = ""
    if len(p) > 2 and p[1] == ":" and p[2] == "/" and p[0].isascii() and p[0].isalpha():
        drive, p = "/" + p[:2], p[2:]
    return drive + "".join(c if c in _URI_KEPT else "".join(f"%{b:02X}" for b in c.encode("utf-8", "surrogatepass"))
                           for c in p)


def workspace_regex(paths: Sequence[str], *, exact_case: bool = False) -> re.Pattern[str] | None:
    """One regex for all spellings of ``paths`` (longest first), or ``None``: those of
    :func:`path_pattern`, and a path as a ``file:`` URI spells it (:func:`uri_path`: the toolpath
    export's ``base.uri``) where that differs. In any capitals (what redaction replaces: a path
    is the workspace's on a file system that ignores case); ``exact_case``: only as written,
    but for a Windows path (a drive or a backslash: its file systems ignore case), as ``diff``
    normalises (``/srv/ORCHARD/a.go`` is another file than ``/srv/orchard/a.go`` on Linux)."""
    if not paths:
        return None
    alts = []
    for p in sorted(paths, key=len, reverse=True):
        mine = [path_pattern(p)]
        encoded = uri_path(p)
        if encoded != p.replace("\\", "/"):
            mine.append(re.escape(encoded) + r"(?![\w%-])")
        if exact_case and (re.match(r"[A-Za-z]:", p) or "\\" in p):
            mine = [f"(?i:{a})" for a in mine]
        alts += mine
    return re.compile(f"(?:{'|'.join(alts)})", 0 if exact_case else re.I)


def line_col(starts: Sequence[int], offset: int) -> tuple[int, int]:
    """1-based (line, column) of a 0-based offset, given the line start offsets."""
    i = bisect.bisect_right(starts, offset) - 1
    return i + 1, offset - starts[i] + 1


def line_starts(text: str) -> list[int]:
    """0-based offsets at which each line of ``text`` starts (lines end at ``\\n``)."""
    return _line_starts(text)
