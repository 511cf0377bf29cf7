"""``fountain-audit report``: a session as one self-contained HTML page (and an index page for
many sessions).

Layers: :mod:`~fountain_audit.report.collect` reads the session model, the dump records, the
provenance and the lint diagnostics into plain page data (JSON-ready dicts, nothing rendered);
:mod:`~fountain_audit.report.markdown` renders reply text with raw HTML, links and images
disabled; :mod:`~fountain_audit.report.render` fills the Jinja2 templates (autoescaping) and adds
the Content-Security-Policy. Session text is untrusted data: it reaches the page only as escaped
text or as Markdown rendered without HTML, links or images.
"""
