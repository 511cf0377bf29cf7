"""An EXT. scene where HARVEY speaks but no `Harvey routing to` line says where.

## What it does
Reports an `EXT.` chat scene that has HARVEY dialogue but no
`Harvey routing to ENDPOINT.` action line in its description.

## Why is this bad?
Since v1.2, `EXT.` means the computation left the machine. The routing line is the
record of which remote endpoint received the prompt (and the workspace it ran for);
without it the audit trail shows a remote answer with no stated destination.

## Severity
Warning: the EXT. heading still records that the prompt left the machine and names the endpoint; only the routing detail is missing.

## Example
```fountain
EXT. PI2 AND ALICE 2026-06-24 11:00:00

ALICE
@pi2 Find the release date.

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
- FOUNTAIN_FORMAT.md §Character Validation (v1.2) (rules catalog D32); case A08
- harvey-recorder-inventory.md §4 (`a_ext`: `Harvey routing to ENDPOINT. Workspace: WS.`)
"""

from fountain_audit.lint.diagnostics import Finding, Severity
from fountain_audit.model.names import upper_ascii
from fountain_audit.lint.rules import SESSION_LIKE

CODE = "H104"
NAME = "ext-without-routing"
SEVERITY = Severity.WARNING
SINCE = "1.2"
SCOPE = SESSION_LIKE
SCENE_KINDS = ("ext-chat",)


def check_scene(ctx, scene):
    if scene.routing is not None:
        return
    if any(upper_ascii(sp.character) == "HARVEY" for sp in scene.speeches):
        h = scene.heading
        yield Finding(h.line, h.column, "EXT. scene has HARVEY but no 'Harvey routing to ENDPOINT.' line",
                      h.end_line, h.end_column)
