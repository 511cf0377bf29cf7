"""An INT. chat scene whose `Model:` is a remote endpoint.

## What it does
Reports an `INT. HARVEY AND USER TALKING` scene whose description names a remote
endpoint as its model: a `Model:` value holding a URL (`://`, e.g. `ollama://host:11434`
or `https://…`) or marked `(cloud API)`.

The check is deliberately conservative: a user input starting with `@name` in an INT.
scene is not reported, since Harvey also records local `@mention` model switches there.

## Why is this bad?
Since v1.2, `INT.` means the computation stayed on the local machine and `EXT.` means
it left it. A routed or cloud endpoint recorded in an INT. scene tells an auditor the
prompt never left the machine when it did. Harvey's recorder writes route dispatch as
`EXT. ENDPOINT AND USER` with a `Harvey routing to ENDPOINT.` line; the INT. form is the
v1.0 convention, still shown in the spec's Example 4.

## Severity
Error (was warning): the trail is wrong about where the prompt went: INT. says it stayed on the machine, `Model:` says it did not.

## Example
```fountain
INT. HARVEY AND ALICE TALKING 2026-06-24 11:00:00

Harvey and ALICE are in chat mode. Model: ollama://192.168.1.2:11434. Workspace: /tmp/ws.

ALICE
Find the release date.

HARVEY
Forwarding to PI2.

PI2
It shipped in March.
```

## Use instead
```fountain
EXT. PI2 AND ALICE 2026-06-24 11:00:00

Harvey routing to PI2. Workspace: /tmp/ws.

ALICE
@pi2 Find the release date.

HARVEY
Forwarding to PI2.

PI2
It shipped in March.
```

## References
- FOUNTAIN_FORMAT.md §Scene Types (v1.2: INT. local, EXT. remote), Scenario 2 (rules
  catalog B16); spec Example 4 and v1.0 Scenario 2 keep `Model: ollama://…` in INT.
  (harvey-recorder-inventory.md §8 item 11)
- harvey-recorder-inventory.md §3, §4 (`h_ext`, `a_ext`, since cf4aa0d)
"""

import re

from fountain_audit.lazyre import lazy
from fountain_audit.lint.diagnostics import Finding, Severity
from fountain_audit.lint.rules import SESSION_LIKE

CODE = "H105"
NAME = "int-scene-names-remote-route"
SEVERITY = Severity.ERROR
SINCE = "1.2"
SCOPE = SESSION_LIKE

_MODEL_RE = lazy(r"Model:[ \t]*(?P<model>[^\n]*?)\.?(?=[ \t]+Workspace:|[ \t]*$)", re.M)


def check(ctx):
    for scene in ctx.session.scenes:
        if scene.info.kind != "chat":
            continue
        for action in scene.description:
            src, start, end = action.src, action.offset, action.end_offset
            if (src.find("://", start, end) < 0 and src.find("(", start, end) < 0) \
                    or src.find("Model:", start, end) < 0:
                continue  # no model, or none that can name a remote endpoint (a cheap test before the lines)
            for k, line in enumerate(action.lines):
                m = _MODEL_RE.search(line) if "Model:" in line else None
                if not m:
                    continue
                model = m.group("model")
                if "://" not in model and "(cloud api)" not in model.lower():
                    continue
                col = (action.column if k == 0 else 1) + m.start()
                yield Finding(action.line + k, col, f"INT. scene names the remote endpoint '{model}' as its model; "
                              "since v1.2 remote computation is recorded as 'EXT. ENDPOINT AND USER' with "
                              "'Harvey routing to ENDPOINT.'", action.line + k, col + len(m.group(0)))
                break
            else:
                continue
            break
